"""Lean BPE entries read a word's first ids with a lookup that raises for a symbol that is no token
(``tokcore.fast.entries._lean``: no ``None in ids`` test per word), and ``BPE._merge`` reads a pair's
rank from the merge map and the merged id from ``BPE._made``. Pinned here: a byte-level model whose
vocabulary lacks some byte characters (its ids then come from a dict that raises), a character-level
model with and without byte fallback for unknown characters, each lean entry equal to the general
one (the model's ``tokenize`` and per-token span mapping); and the merge loop equal to a naive BPE
that recomputes every pair's rank after each merge, on words short enough for the scan.
"""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

import tokcore
from tokcore.fast.entries import _lean_entry
from tokcore.fast.plan import _entry, word_plan
from tokcore.models.bpe import BPE, byte_token
from tokcore.pre_tokenizers.standard import ByteLevel
from tokcore.text.byte_level import _TO_CHARS

_LETTERS = "abcde"


def _with_merges(vocab: dict, merges: list) -> dict:
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    return vocab


def _byte_level(missing: str) -> tokcore.Tokenizer:
    """A ByteLevel BPE whose vocabulary holds every byte character but those of ``missing``'s UTF-8 bytes."""
    gone = {_TO_CHARS[b] for b in missing.encode("utf-8")}
    vocab = {c: i for i, c in enumerate(c for c in map(_TO_CHARS.__getitem__, range(256)) if c not in gone)}
    space = _TO_CHARS[32]
    merges = [("a", "b"), ("ab", "c"), (space, "a"), ("d", "e"), (space + "a", "b")]
    tok = tokcore.Tokenizer(BPE(_with_merges(vocab, merges), merges))
    tok.pre_tokenizer = ByteLevel(add_prefix_space=False)
    return tok


def _chars(byte_fallback: bool) -> tokcore.Tokenizer:
    vocab = {c: i for i, c in enumerate(_LETTERS)}
    if byte_fallback:
        for b in range(256):
            vocab[byte_token(b)] = len(vocab)
    merges = [("a", "b"), ("ab", "c"), ("c", "d"), ("d", "e"), ("e", "a")]
    return tokcore.Tokenizer(BPE(_with_merges(vocab, merges), merges, byte_fallback=byte_fallback))


_MODELS = {"bytes missing": _byte_level("é"), "byte fallback": _chars(True), "no fallback": _chars(False)}


def _agree(tok, words):
    plan = word_plan(tok)
    assert plan.lean is not None
    lean = copy.copy(plan)
    lean.cache, lean.first = {}, {}
    general = copy.copy(plan)
    general.lean, general.cache, general.first = None, {}, {}
    for w in words:
        assert _entry(lean, w, False, 1) == _entry(general, w, False, 1), w


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.text(alphabet=_LETTERS + " éx日", min_size=1, max_size=10), max_size=6))
def test_lean_entries_with_symbols_that_are_no_token_equal_the_general_entries(words):
    for tok in _MODELS.values():
        _agree(tok, words)


def test_which_words_the_lean_path_takes():
    # A missing byte or an unknown character without byte fallback: the general path decides.
    assert _lean_entry(word_plan(_MODELS["bytes missing"]), "abé", False) is None
    assert _lean_entry(word_plan(_MODELS["no fallback"]), "abx", False) is None
    assert _lean_entry(word_plan(_MODELS["byte fallback"]), "abx", False) is not None
    assert _lean_entry(word_plan(_MODELS["bytes missing"]), "ab", False)[1] == ("ab",)


def _naive_bpe(word: str, merges: list) -> list:
    """Tokens of ``word`` merging the lowest-ranked pair (leftmost among equals, a repeated merge
    keeping its last rank) until none is left, every rank read anew from the merge list."""
    rank = {pair: r for r, pair in enumerate(merges)}
    symbols = list(word)
    while True:
        ranks = [rank.get(pair) for pair in zip(symbols, symbols[1:])]
        ranked = [r for r in ranks if r is not None]
        if not ranked:
            return symbols
        i = ranks.index(min(ranked))
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]


@st.composite
def _models(draw):
    tokens = list("abc")
    merges = []
    for _ in range(draw(st.integers(1, 10))):
        a, b = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        if len(a + b) <= 5:
            merges.append((a, b))
            if a + b not in tokens:
                tokens.append(a + b)
    return {t: i for i, t in enumerate(tokens)}, merges


@settings(max_examples=300, deadline=None)
@given(_models(), st.text(alphabet="abc", max_size=40))
def test_merge_loop_equals_a_naive_bpe(model, word):
    vocab, merges = model
    m = BPE(vocab, merges)
    ids = [vocab[c] for c in word]
    m._merge(ids, None)
    assert [m._inverse[i] for i in ids] == _naive_bpe(word, merges)
