"""Cold words of WordPiece and HF Unigram plans: the shortcuts that build a new word's entry.

- ``Unigram._winners`` walks a character trie of the pieces' reversed texts; its best path must be the lattice's
  Viterbi path (``Lattice.viterbi``, built from the prefix map) on random vocabularies, where
  pieces share prefixes that are no pieces, scores tie and characters have no piece at all.
- ``plan.split`` (the model's split without its word cache) feeds ``_split_entry``; each entry
  must equal the general ``_entry`` (Piece objects, the real pre-tokenizer) on random
  vocabularies and words, with Metaspace's prepended separator and non-ASCII text.
"""

from __future__ import annotations

import copy

import pytest
from fast_pairs import entries_agree as _entries_agree  # the quick/general comparison, one copy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tokcore
from tokcore.fast.plan import word_plan
from tokcore.models.unigram import Unigram, byte_piece
from tokcore.models.wordpiece import WordPiece
from tokcore.pre_tokenizers.standard import BertPreTokenizer, Metaspace

SEP = "\u2581"
_CHARS = "abé" + SEP + "日"
_pieces = st.text(alphabet=_CHARS, min_size=1, max_size=4)
# Few scores, one the sum of two others, so that paths often tie.
_vocab = st.lists(st.tuples(_pieces, st.sampled_from([-1.0, -2.0, -3.0])), min_size=1, max_size=14,
                  unique_by=lambda p: p[0])
_words = st.text(alphabet=_CHARS + "x,", min_size=1, max_size=12)


def _unigram(vocab) -> Unigram:
    return Unigram([("<unk>", 0.0), *vocab], unk_id=0)


@settings(max_examples=200, deadline=None)
@given(vocab=_vocab, text=st.text(alphabet=_CHARS + "x", max_size=16))
def test_trie_forward_pass_finds_the_lattice_viterbi_path(vocab, text):
    model = _unigram(vocab)
    lat = model.lattice(text)
    path, _ = lat.viterbi()
    assert model._viterbi_segments(text) == [(lat.starts[k], lat.stops[k], lat.ids[k]) for k in path]


def test_the_trie_keeps_prefixes_that_are_no_pieces():
    model = Unigram([("<unk>", 0.0), ("abc", -1.0), ("a", -5.0)], unk_id=0)
    trie = model._piece_trie()
    assert trie["a"][1] == 2 and trie["a"][0]["b"][1] == -1 and trie["a"][0]["b"][0]["c"][1:] == [1, -1.0]
    assert model.tokenize("abcb") == [(1, "abc", 0, 3), (0, "b", 3, 4)]


@pytest.mark.parametrize("later", [("bc", -2.0), ("c", -2.0)])
def test_equal_paths_go_to_the_earliest_start(later):
    # a + bc (or ab + c) scores as abc: the candidate starting earlier stays, in either loop of the pass.
    model = Unigram([("<unk>", 0.0), ("a", -1.0), ("ab", -1.0), ("abc", -3.0), later], unk_id=0)
    assert model.tokenize("abc") == [(3, "abc", 0, 3)]


def _with(model, pre):
    tok = tokcore.Tokenizer(model)
    tok.pre_tokenizer = pre
    return tok


@pytest.mark.parametrize("scheme", ["always", "first", "never"])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vocab=_vocab, words=st.lists(_words, min_size=1, max_size=5))
def test_unigram_split_entries_equal_the_general_entries(scheme, vocab, words):
    tok = _with(_unigram(vocab), Metaspace(prepend_scheme=scheme, split=True))
    assert word_plan(tok).split is not None
    _entries_agree(tok, words + [" " + w for w in words] + [SEP + w for w in words])
    text = " ".join(words)
    ref = copy.deepcopy(tok)
    ref.fast = False
    a, b = tok.encode_result(text, return_offsets=True), ref.encode_result(text, return_offsets=True)
    assert (a.ids, a.tokens, a.offsets, a.original_offsets) == (b.ids, b.tokens, b.offsets, b.original_offsets)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(firsts=st.lists(_pieces, max_size=8), nexts=st.lists(_pieces, max_size=8),
       words=st.lists(_words, min_size=1, max_size=5))
def test_wordpiece_split_entries_equal_the_general_entries(firsts, nexts, words):
    vocab = {t: i for i, t in enumerate(dict.fromkeys(["[UNK]", ",", *firsts, *("##" + n for n in nexts)]))}
    tok = _with(WordPiece(vocab), BertPreTokenizer())
    assert word_plan(tok).split is not None
    _entries_agree(tok, words + [w + "," for w in words])


def test_split_entries_are_taken_and_only_where_tokens_are_spans():
    wp = _with(WordPiece({"[UNK]": 0, "a": 1, "##é": 2, ",": 3}), BertPreTokenizer())
    assert _entries_agree(wp, ["aé", "aé,", "b", "日"]) == 8
    plain = _with(_unigram([("a", -1.0), (SEP + "a", -1.0), ("é", -2.0)]), Metaspace())
    assert _entries_agree(plain, ["aé", " aé", "x"]) == 6
    # Byte-fallback tokens split a character: the general path keeps them.
    fallback = Unigram([("<unk>", 0.0), ("a", -1.0), *((byte_piece(b), -5.0) for b in range(256))], unk_id=0,
                       byte_fallback=True)
    assert word_plan(_with(fallback, Metaspace())).split is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vocab=_vocab, words=st.lists(st.text(alphabet="ab,.'é日", min_size=1, max_size=8), min_size=1, max_size=5))
def test_words_with_several_marks_equal_the_general_entries(vocab, words):
    # BertPreTokenizer cuts "a,b.c" into five pieces: WordPiece's split entries place each piece's
    # tokens after the ones before; other models leave such words to the general path.
    wp = WordPiece({t: i for i, t in enumerate(dict.fromkeys(["[UNK]", ",", ".", "'", *(p for p, _ in vocab)]))})
    for model in (wp, _unigram(vocab)):
        _entries_agree(_with(model, BertPreTokenizer()), words)
