"""Lean BPE entries of words met for the first time, pinned to the general entry (``plan.lean`` off).

``tokcore.fast.entries._lean_entry`` takes byte-level words' ids straight from their UTF-8 bytes and
takes words holding characters outside the vocabulary through their byte-fallback tokens when no
merge touches a byte token (``BPE.unknown_as_bytes``). Each is compared with the general
``_entry``, which runs the model's ``tokenize`` and maps every token's span, on hand-made models
(including ones the shortcut must refuse) and on the reference files.
"""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore
from tokcore.fast.entries import _lean_entry
from tokcore.fast.plan import _entry, word_plan
from tokcore.models.bpe import BPE, byte_token, bytes_for_unknown
from tokcore.normalizers.standard import Prepend, Replace
from tokcore.normalizers.standard import Sequence as NormSeq

SEP = "\u2581"
# Known letters, the separator, characters of one to four UTF-8 bytes outside the vocabularies
# below, a control character and a lone surrogate (encoded with surrogatepass, as the model does).
_ALPHABET = "abcde" + SEP + "é日🙂\x01\ud800"


def _byte_model(extra_merges=(), drop_byte=None, shadow=None) -> tokcore.Tokenizer:
    """A byte-fallback BPE on a few letters, without a pre-tokenizer (Llama's shape)."""
    vocab = {c: i for i, c in enumerate("abcde" + SEP)}
    for b in range(256):
        if b != drop_byte:
            vocab[byte_token(b)] = len(vocab)
    merges = [("a", "b"), ("ab", "c"), (SEP, "a"), ("d", "e"), ("e", SEP), *extra_merges]
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    if shadow is not None:  # a second token on a byte token's id
        vocab[shadow] = vocab[byte_token(0xC3)]
    tok = tokcore.Tokenizer(BPE(vocab, merges, byte_fallback=True, unk_token=None))
    tok.normalizer = NormSeq([Prepend(SEP), Replace(" ", SEP)])
    return tok


def _general(plan):
    out = copy.copy(plan)
    out.lean, out.cache, out.first = None, {}, {}
    return out


def _agree(tok, words, first=False):
    plan = word_plan(tok)
    lean, general = copy.copy(plan), _general(plan)
    lean.cache, lean.first = {}, {}
    origin = 0 if first else 1
    for w in words:
        assert _entry(lean, w, first, origin) == _entry(general, w, first, origin), w


_OWN = _byte_model()
# Merges that make or take a byte token: the shortcut must step aside (the bytes then merge).
_REFUSED = {"merged bytes": _byte_model([(byte_token(0xC3), byte_token(0xA9))]),
            "a byte beside a letter": _byte_model([("a", byte_token(0x01))]),
            "a missing byte": _byte_model(drop_byte=0xA9),
            "a shadowed byte id": _byte_model(shadow="zz")}


def test_unknown_as_bytes_is_offered_only_where_bytes_stay_alone():
    assert word_plan(_OWN).lean[-1] is not None
    for name, tok in _REFUSED.items():
        assert tok.model.unknown_as_bytes() is None, name
        assert word_plan(tok).lean is None or word_plan(tok).lean[-1] is None, name


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=_ALPHABET, max_size=16))
def test_bytes_for_unknown_gives_the_models_initial_symbols(text):
    model = _OWN.model
    ids = list(map(model.vocab.get, text))
    assert bytes_for_unknown(text, ids, model._byte_ids) == model._symbols(text)[0]


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.text(alphabet=_ALPHABET, min_size=1, max_size=12), max_size=8))
def test_byte_fallback_lean_entries_equal_the_general_entries(words):
    _agree(_OWN, words)
    for tok in _REFUSED.values():
        _agree(tok, words)


def test_words_with_unknown_characters_take_the_lean_path():
    plan = word_plan(_OWN)
    assert _lean_entry(plan, SEP + "ab日🙂", False) is not None
    assert _lean_entry(word_plan(_REFUSED["merged bytes"]), SEP + "é", False) is None


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=_ALPHABET.replace("\ud800", "") + " ", max_size=30))  # texts must be valid Unicode
def test_byte_fallback_lines_equal_the_reference_path(text):
    fast, ref = _OWN, copy.deepcopy(_OWN)
    ref.fast = False
    a = fast.encode_result(text, return_offsets=True)
    b = ref.encode_result(text, return_offsets=True)
    assert (a.ids, a.tokens, a.offsets, a.original_offsets) == (b.ids, b.tokens, b.offsets, b.original_offsets)


_FILES = {"gpt2": ("reference", "hf", "gpt2", "tokenizer.json"),
          "roberta": ("reference", "hf", "trained", "roberta_bytelevel.json"),
          "llama": ("reference", "hf", "trained", "llama_style_bpe.json")}
_LOADED: dict = {}


def _file(name):
    if name not in _LOADED:
        _LOADED[name] = tokcore.load(require_shared(*_FILES[name]))
    return _LOADED[name]


@settings(max_examples=100, deadline=None)
@given(words=st.lists(st.text(alphabet=_ALPHABET + "xyz ,.'Ωд\u0301€", min_size=1, max_size=12), max_size=8),
       first=st.booleans())
def test_reference_files_lean_entries_equal_the_general_entries(words, first):
    for name in _FILES:
        tok = _file(name)
        _agree(tok, words, first and word_plan(tok).prefix is not None)


def test_the_reference_files_take_the_lean_paths():
    assert word_plan(_file("llama")).lean[-1] is not None  # Llama-style: unknown characters as bytes
    for name in ("gpt2", "roberta"):
        assert word_plan(_file(name)).lean[4]  # byte-level: ids from the word's bytes
