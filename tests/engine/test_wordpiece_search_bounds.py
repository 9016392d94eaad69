"""WordPiece's search bounds, pinned to the textbook greedy longest match and HF.

Until its length index is built, ``WordPiece.columns`` tries every length at each position of a
word up to ``_SHORT`` characters, and on a longer word no length past its longest entry's (found
on the first such word). Once the splits have missed enough lookups (``WordPiece._settings``) it
builds the entry trie and finds each position's longest entry in one walk down it. Words here
are split in both states; the long ones repeat their vocabulary's entries, some longer than
``_SHORT``, so that long matches are common.

Left out: short words (``test_word_model_shortcuts.py``) and the lookup bound on huge words
(``tests/robust/test_robust_scaling.py``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_word_model_shortcuts import as_bytes, pieces_st, textbook_wordpiece, words_st

from tokcore.models.wordpiece import _SHORT, WordPiece, entry_trie

tokenizers = pytest.importorskip("tokenizers")

_LETTERS = "abé中"
_entries = st.lists(st.tuples(st.booleans(), st.text(st.sampled_from(_LETTERS), min_size=1, max_size=_SHORT + 8)),
                    min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(_entries, st.lists(st.integers(0, 11), min_size=1, max_size=30), st.text(st.sampled_from(_LETTERS), max_size=6))
def test_long_words_split_as_the_textbook_and_hf(entries, picks, tail):
    vocab = {}
    for cont, text in entries:
        vocab.setdefault(("##" if cont else "") + text, len(vocab))
    vocab.setdefault("[UNK]", len(vocab))
    texts = [text for _, text in entries]
    word = "".join(texts[k % len(texts)] for k in picks) + tail
    word = (word * (1 + _SHORT // max(len(word), 1)))[: 3 * _SHORT]  # always past _SHORT
    ours = WordPiece(vocab, max_input_chars_per_word=10 * _SHORT)
    hf = tokenizers.models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=10 * _SHORT)
    for w in (word, word[: _SHORT + 1], word[1:]):
        got = ours.tokenize(w)
        assert got == textbook_wordpiece(ours, w), w
        assert as_bytes(w, got) == [(t.id, t.value, t.offsets) for t in hf.tokenize(w)], w


def test_the_longest_entry_bounds_the_search_and_follows_the_vocabulary():
    long = "ab" * _SHORT  # a first piece as long as the word less one character
    m = WordPiece({long: 0, "##c": 1, "a": 2, "[UNK]": 3}, max_input_chars_per_word=1000)
    assert m.tokenize(long + "c") == [(0, long, 0, len(long)), (1, "##c", len(long), len(long) + 1)]
    # A new vocabulary drops the longest length found for the old one (here shorter than its entry).
    word = long + "c" * 10
    m.vocab = {"a": 0, "##" + word[1:]: 1, "[UNK]": 2}
    assert m.tokenize(word) == [(0, "a", 0, 1), (1, "##" + word[1:], 1, len(word))]


def _states(vocab: dict, **options) -> tuple[WordPiece, WordPiece]:
    """The model that never builds its entry trie, and the one that has it from the start."""
    bare, indexed = WordPiece(vocab, **options), WordPiece(vocab, **options)
    bare._settings()
    bare._lookup[6][0] = float("inf")  # never spent
    indexed._index_lengths()
    return bare, indexed


def _indexed(model: WordPiece) -> bool:
    return model._lookup is not None and model._lookup[4] is not None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), pieces_st), min_size=1, max_size=30), st.lists(words_st, min_size=1, max_size=8),
       st.sampled_from(["##", "", "#"]))
def test_splits_with_and_without_the_entry_trie_equal_the_textbook(entries, words, prefix):
    vocab = {}
    for cont, text in entries:
        vocab.setdefault((prefix if cont else "") + text, len(vocab))
    vocab.setdefault("[UNK]", len(vocab))
    bare, indexed = _states(vocab, continuing_subword_prefix=prefix, max_input_chars_per_word=1000)
    for model in (bare, indexed):
        for w in words:
            assert model.tokenize(w) == textbook_wordpiece(model, w), w
        assert _indexed(model) is (model is not bare)


def test_the_trie_is_built_once_lookups_have_missed_four_per_entry():
    vocab = {"a": 0, "##a": 1, "[UNK]": 2}
    m = WordPiece(vocab)
    m.tokenize("aaaaa")  # "aaaa" to "aa", then "##aaaa" to "##aa" and so on: 3 + 3 + 2 + 1 missed lookups
    assert m._lookup[6] == [4 * 3 - 9] and not _indexed(m)
    m.tokenize("aaab")  # unknown: counted as its length per token tried, 4 * 3 more, past 4 per entry
    assert m._lookup[4] == entry_trie(vocab.items()) and m._lookup[5] == {"a": {"": (1, "##a")}}
    assert m.tokenize("aaab") == [(2, "[UNK]", 0, 4)] and m.tokenize("aa") == [(0, "a", 0, 1), (1, "##a", 1, 2)]
    m.vocab = {"a": 0, "##aa": 1, "[UNK]": 2}  # a new vocabulary starts without an index or misses
    assert m._lookup is None
    assert m.tokenize("aaa") == [(0, "a", 0, 1), (1, "##aa", 1, 3)]


def test_entry_trie_and_the_walk_take_the_longest_entry_below_the_prefix():
    vocab = {"a": 0, "ab": 1, "abcd": 2, "##c": 3, "##cd": 4, "#": 5, "[UNK]": 6}
    trie = entry_trie(vocab.items())
    assert trie["a"] == {"": (0, "a"), "b": {"": (1, "ab"), "c": {"d": {"": (2, "abcd")}}}}
    m = WordPiece(vocab)
    m._index_lengths()
    assert m._lookup[5] == trie["#"]["#"]
    # "abc": "abc" is only a prefix of an entry, so the walk keeps "ab" (the last entry it passed).
    assert m.tokenize("abce") == [(6, "[UNK]", 0, 4)]
    assert m.tokenize("abc") == [(1, "ab", 0, 2), (3, "##c", 2, 3)]
    assert m.tokenize("abcdcd") == [(2, "abcd", 0, 4), (4, "##cd", 4, 6)]
    # A vocabulary without the prefix: continuations never match, first pieces still do.
    bare = WordPiece({"a": 0, "[UNK]": 1}, continuing_subword_prefix="##")
    bare._index_lengths()
    assert bare.tokenize("a") == [(0, "a", 0, 1)] and bare.tokenize("aa") == [(1, "[UNK]", 0, 2)]
