"""The shortcuts inside WordPiece, HF Unigram, BertPreTokenizer and Metaspace, pinned to plain definitions.

Each shortcut is compared, on random multi-script text and random vocabularies, with the
straightforward algorithm it replaces (written out here) and with HF tokenizers:

- ``WordPiece._split`` bounds the lengths it tries (every length up to 32 characters, then the
  longest entry's; past enough missed lookups, the longest entry per first character): against
  the textbook greedy longest match (``test_wordpiece_search_bounds.py`` breaks each bound);
- ``Unigram._best_tokens`` reads the tokens straight off the best path (``word_columns``, over the
  winners gathered per end position): against the lattice's own Viterbi
  (``tokcore.models.lattice``) and ``_emit(_viterbi_segments)``;
- ``BertPreTokenizer`` and ``Metaspace`` answer a piece that needs no split without the regex:
  against the regex split.

Left out: the word loop around them (``tests/engine/test_fast_paths.py`` pins fast to reference).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.core.components import Piece, piece_from_text
from tokcore.core.errors import ConfigurationError
from tokcore.models.unigram import Unigram
from tokcore.models.wordpiece import WordPiece
from tokcore.pre_tokenizers import standard as pt
from tokcore.pre_tokenizers.split import pieces_of_matches
from tokcore.text.char_classes import PUNCT_CLASSES

tokenizers = pytest.importorskip("tokenizers")

# Latin, accents, Cyrillic, Arabic, Devanagari, CJK, Hangul, an emoji, punctuation of several
# scripts, spaces (ASCII and not), controls and the Metaspace replacement.
CHARS = "abcAé\u0301жыمبकि中文한😀,.!'-\u3001\u060c\u0964 \u3000\t\x00\x1f\u2581#"
texts = st.text(st.sampled_from(CHARS), max_size=24) | st.text(max_size=16)
# Few characters, so that vocabularies overlap, words hit them and equal scores tie.
pieces_st = st.text(st.sampled_from("ab\u0301ж中😀#"), min_size=1, max_size=4)
words_st = st.text(st.sampled_from("ab\u0301ж中😀#x"), max_size=14) | st.text(st.sampled_from("ab"), max_size=14)


def as_bytes(word: str, tokens) -> list[tuple]:
    return [(t[0], t[1], (len(word[: t[2]].encode()), len(word[: t[3]].encode()))) for t in tokens]


# ------------------------------------------------------------------ WordPiece


def textbook_wordpiece(model: WordPiece, word: str) -> list[tuple]:
    """HF's loop: at each position every length from the whole rest down, the prefix after the first."""
    n = len(word)
    unk = [(model.vocab.get(model.unk_token), model.unk_token, 0, n)]
    if n > model.max_input_chars_per_word:
        return unk
    out, start = [], 0
    while start < n:
        for end in range(n, start, -1):
            sub = word[start:end] if start == 0 else model.continuing_subword_prefix + word[start:end]
            if sub in model.vocab:
                out.append((model.vocab[sub], sub, start, end))
                start = end
                break
        else:
            return unk
    return out


wordpiece_vocab = st.lists(st.tuples(st.booleans(), pieces_st), min_size=1, max_size=30)


@settings(max_examples=300, deadline=None)
@given(wordpiece_vocab, st.lists(words_st, min_size=1, max_size=8),
       st.sampled_from(["##", "", "#", "@@"]), st.integers(0, 12))
def test_wordpiece_split_equals_textbook_and_hf(entries, words, prefix, max_chars):
    vocab = {}
    for cont, s in entries:
        vocab.setdefault((prefix if cont else "") + s, len(vocab))
    vocab.setdefault("[UNK]", len(vocab))
    ours = WordPiece(vocab, continuing_subword_prefix=prefix, max_input_chars_per_word=max_chars)
    hf = tokenizers.models.WordPiece(vocab, unk_token="[UNK]", continuing_subword_prefix=prefix,
                                     max_input_chars_per_word=max_chars)
    for w in words:
        got = ours.tokenize(w)
        assert got == textbook_wordpiece(ours, w), w
        assert as_bytes(w, got) == [(t.id, t.value, t.offsets) for t in hf.tokenize(w)], w


def test_wordpiece_options_set_later_reindex():
    m = WordPiece({"a": 0, "##b": 1, "@@c": 2, "[UNK]": 3})
    assert m.tokenize("ab") == [(0, "a", 0, 1), (1, "##b", 1, 2)]
    m.continuing_subword_prefix = "@@"
    assert m.tokenize("ac") == [(0, "a", 0, 1), (2, "@@c", 1, 2)]
    assert m.tokenize("ab") == [(3, "[UNK]", 0, 2)]
    m.vocab = {"a": 0, "@@bcd": 1, "[UNK]": 2}
    assert m.tokenize("abcd") == [(0, "a", 0, 1), (1, "@@bcd", 1, 4)] and m.id_to_token(1) == "@@bcd"
    m.max_input_chars_per_word = 2
    assert m.tokenize("abcd") == [(2, "[UNK]", 0, 4)]


def test_wordpiece_without_unknown_still_raises():
    with pytest.raises(ConfigurationError, match="unk_token"):
        WordPiece({"a": 0, "##b": 1}).tokenize("ax")


# ------------------------------------------------------------------ Unigram

scores_st = st.sampled_from([-1.0, -2.0, -3.0, -0.5, -1.5, -7.25])
# Two letters and two scores: paths of equal score everywhere, so the tie rule is exercised.
tied_vocab = st.lists(st.tuples(st.text(st.sampled_from("ab"), min_size=1, max_size=4), st.sampled_from([-1.0, -2.0])),
                      min_size=1, max_size=12)
unigram_vocab = st.lists(st.tuples(pieces_st, scores_st), min_size=1, max_size=25) | tied_vocab


def lattice_tokens(m: Unigram, word: str) -> list:
    """The best path as the lattice (sentencepiece's layout, a separate Viterbi) finds it."""
    lat = m.lattice(word)
    path, _ = lat.viterbi()
    return m._path_tokens(lat, path)


@settings(max_examples=300, deadline=None)
@given(unigram_vocab, st.lists(words_st, min_size=1, max_size=6),
       st.booleans())
def test_unigram_best_tokens_equal_the_segments_path_lattice_and_hf(entries, words, duplicate):
    vocab = [("<unk>", 0.0)] + entries
    if duplicate:  # a repeated piece: ids by text (the last one), the fused walk steps aside
        vocab.append(vocab[-1])
    m = Unigram(vocab, unk_id=0)
    assert m._fused == (len({p for p, _ in vocab}) == len(vocab))
    hf = tokenizers.models.Unigram(vocab, unk_id=0, byte_fallback=False)
    for w in words:
        got = m.tokenize(w)
        assert got == m._emit(w, m._viterbi_segments(w)) == m._best_tokens(w), w
        ref = lattice_tokens(m, w)
        # The lattice may break an exact tie otherwise; the scores of the two paths are then equal.
        if got != ref:
            def total(toks):
                return sum(m.score(t[1]) if m.score(t[1]) is not None and t[0] != 0 else math.nan for t in toks)
            assert math.isclose(total(got), total(ref)), w
        assert as_bytes(w, got) == [(t.id, t.value, t.offsets) for t in hf.tokenize(w)], w


def test_unigram_ties_between_long_pieces_go_to_the_earliest_start():
    # "bab" (from 7) and "b" after "ab" reach position 11 with the same score: HF keeps "bab".
    vocab = [("<unk>", 0.0), ("baaa", -1.0), ("bb", -1.0), ("bab", -2.0), ("b", -1.0), ("ab", -1.0), ("bbaa", -2.0)]
    m = Unigram(vocab, unk_id=0)
    assert [t[1] for t in m.tokenize("aabbbaababb")] == ["a", "ab", "bbaa", "bab", "b"]
    hf = tokenizers.models.Unigram(vocab, unk_id=0, byte_fallback=False)
    assert [t.value for t in hf.tokenize("aabbbaababb")] == ["a", "ab", "bbaa", "bab", "b"]


def test_unigram_subclass_keeps_its_own_viterbi():
    from tokcore.models.sentencepiece_unigram import SentencePieceUnigram

    m = SentencePieceUnigram([("<unk>", 0.0), ("a", -1.0), ("ab", -1.5)], unk_id=0)
    assert not m._fused
    assert m.tokenize("abx") == [(2, "ab", 0, 2), (0, "x", 2, 3)]


# ------------------------------------------------------------------ pre-tokenizers


def reference_bert(piece: Piece) -> list[Piece]:
    return pieces_of_matches(piece, pt._BERT_RE, PUNCT_CLASSES)


def reference_metaspace(pre: pt.Metaspace, piece: Piece) -> list[Piece]:
    text, bounds = piece.text, piece.bounds
    if not text:
        return []
    rep = pre.replacement
    text = text.replace(" ", rep)
    scheme = pre.prepend_scheme
    if scheme != "never" and not text.startswith(rep) and (scheme == "always" or bounds[0] == 0):
        text, bounds = rep + text, [bounds[0], *bounds]
    piece = Piece(text, bounds)
    return pieces_of_matches(piece, pre._pieces_rx) if pre.split else [piece]


def same(a: list[Piece], b: list[Piece]) -> bool:
    return [(p.text, list(p.bounds)) for p in a] == [(p.text, list(p.bounds)) for p in b]


@settings(max_examples=400, deadline=None)
@given(texts, st.integers(0, 3))
def test_bert_pre_tokenizer_equals_its_regex_and_hf(text, at):
    piece = piece_from_text(text, at)
    pre = pt.BertPreTokenizer()
    assert same(pre.split_piece(piece), reference_bert(piece))
    assert same(pre.pre_tokenize([piece]), reference_bert(piece))
    assert same(pre.pre_tokenize([piece, piece]), reference_bert(piece) * 2)
    hf = tokenizers.pre_tokenizers.BertPreTokenizer()
    assert pre.pre_tokenize_str(text) == hf.pre_tokenize_str(text)


@settings(max_examples=400, deadline=None)
@given(texts, st.integers(0, 3), st.sampled_from(["always", "never", "first"]), st.booleans(),
       st.sampled_from(["\u2581", "_"]))
def test_metaspace_equals_its_regex_and_hf(text, at, scheme, split, rep):
    piece = piece_from_text(text, at)
    pre = pt.Metaspace(replacement=rep, prepend_scheme=scheme, split=split)
    assert same(pre.split_piece(piece), reference_metaspace(pre, piece))
    assert same(pre.pre_tokenize([piece]), reference_metaspace(pre, piece))
    hf = tokenizers.pre_tokenizers.Metaspace(replacement=rep, prepend_scheme=scheme, split=split)
    assert pre.pre_tokenize_str(text) == hf.pre_tokenize_str(text)
