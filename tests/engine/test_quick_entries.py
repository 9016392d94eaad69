"""Quick word entries (``tokcore.fast.entries._quick_entry``) pinned to the general entry and the reference path.

WordPiece, Unigram and sentencepiece Unigram plans take a new word's tokens straight from the
model's ``tokenize`` on the word's text (BertPreTokenizer's one or two pieces, Metaspace's one
piece, the whole word without a pre-tokenizer) and its spans from the word's byte table. Each
entry must equal what the general ``_entry`` builds (``plan.quick`` off: Piece objects, the real
pre-tokenizer, per-token span mapping), and whole encodes must equal ``Tokenizer.fast = False``,
on random multi-script words and on words made of the vocabularies' own pieces.
"""

from __future__ import annotations

import copy

import pytest
from fast_pairs import entries_agree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore
from tokcore.models.unigram import Unigram, byte_piece
from tokcore.pre_tokenizers.standard import BertPreTokenizer, Metaspace

SEP = "\u2581"
FILES = [("hf", "minilm", "tokenizer.json"), ("hf", "trained", "bert_cased_wordpiece.json"),
         ("hf", "trained", "t5_style_unigram.json"), ("sentencepiece", "botchan_en_unigram_1000.model")]
# Scripts, punctuation (BERT's "said," case and inner marks), the separator, combining marks, an
# emoji (byte fallback), controls and characters outside every vocabulary here.
_SCRIPTS = "abcdeinorstTH09 ,.'!-_" + SEP + "éαβγдж日本アー٣🙂\u0301\u00a0\x00ß"

_TOKS: dict = {}


def _loaded(parts):
    if parts not in _TOKS:
        tok = tokcore.load(require_shared("reference", *parts))
        pieces = [t for t in tok.model.get_vocab() if t and not t.startswith(("[", "<"))]
        _TOKS[parts] = (tok, sorted({p[2:] if p.startswith("##") else p for p in pieces}))
    return _TOKS[parts]


def _words_of(draw_pieces, seps):
    return st.lists(st.tuples(st.lists(draw_pieces, min_size=1, max_size=4), st.sampled_from(seps)),
                    min_size=1, max_size=6).map(lambda xs: ["".join(p) + s for p, s in xs])


@pytest.mark.parametrize("parts", FILES, ids=lambda p: p[-1])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.text(alphabet=_SCRIPTS, min_size=1, max_size=12), max_size=8))
def test_quick_entries_equal_the_general_entries_on_random_words(parts, words):
    entries_agree(_loaded(parts)[0], words)


@pytest.mark.parametrize("parts", FILES, ids=lambda p: p[-1])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_quick_entries_equal_the_general_entries_on_vocabulary_pieces(parts, data):
    tok, pieces = _loaded(parts)
    words = data.draw(_words_of(st.sampled_from(pieces), ["", ",", ".", "é", " ", SEP]))
    words += [SEP + w for w in words] + [" " + w for w in words]
    entries_agree(tok, words)
    text = " ".join(words)
    ref = copy.deepcopy(tok)
    ref.fast = False
    a = tok.encode_result(text, return_offsets=True, return_masks=True)
    b = ref.encode_result(text, return_offsets=True, return_masks=True)
    assert (a.ids, a.tokens, a.offsets, a.original_offsets, a.word_ids) == (
        b.ids, b.tokens, b.offsets, b.original_offsets, b.word_ids), text


def test_quick_entries_are_taken_for_plain_and_accented_words():
    # Without this the tests above could pass with the quick path never taken.
    for parts in FILES:
        tok = _loaded(parts)[0]
        assert entries_agree(tok, ["hello", "said,", "café", " world", SEP + "naïve"]) >= 6, parts


def _tiny_unigram(byte_fallback):
    vocab = [("<unk>", 0.0), (SEP, -1.0), ("a", -2.0), ("b", -2.0), ("ab", -2.5), (SEP + "a", -1.5), ("é", -3.0)]
    if byte_fallback:
        vocab += [(byte_piece(b), -8.0) for b in range(256)]
    return Unigram(vocab, unk_id=0, byte_fallback=byte_fallback)


_VARIANTS: dict = {}


def _variant(pre, model_key):
    key = (repr(getattr(pre, "__dict__", pre)), model_key)
    if key not in _VARIANTS:
        from tokcore.models.wordpiece import WordPiece

        if model_key == "wordpiece":
            model = WordPiece({"[UNK]": 0, "a": 1, "ab": 2, "##b": 3, "##é": 4, ",": 5, "é": 6, "##a": 7})
        else:
            model = _tiny_unigram(model_key == "bytes")
        fast = tokcore.Tokenizer(model)
        fast.pre_tokenizer = pre
        ref = copy.deepcopy(fast)
        ref.fast = False
        _VARIANTS[key] = (fast, ref)
    return _VARIANTS[key]


_PRES = [("bert", lambda: BertPreTokenizer(), "wordpiece")] + [
    (f"ms-{s}-{sp}-{m}", (lambda s=s, sp=sp: Metaspace(prepend_scheme=s, split=sp)), m)
    for s in ("always", "first", "never") for sp in (True, False) for m in ("unk", "bytes")] + [
    ("none-unk", lambda: None, "unk"), ("none-bytes", lambda: None, "bytes")]


@pytest.mark.parametrize("name,pre,model", _PRES, ids=[p[0] for p in _PRES])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(alphabet="ab é,.\u0301" + SEP + "日🙂", max_size=24))
def test_hand_built_models_equal_the_reference_path(name, pre, model, text):
    fast, ref = _variant(pre(), model)
    a = fast.encode_result(text, return_offsets=True, return_masks=True)
    b = ref.encode_result(text, return_offsets=True, return_masks=True)
    assert (a.ids, a.tokens, a.offsets, a.original_offsets, a.word_ids) == (
        b.ids, b.tokens, b.offsets, b.original_offsets, b.word_ids), text
    entries_agree(fast, [w for w in text.split(" ") if w] + [" " + text])
