"""WordPiece's search bound on long words, pinned to the textbook greedy longest match and HF.

``WordPiece._split`` tries every length at each position of a word up to ``_SHORT`` characters,
and on a longer word no length past its longest entry's (found on the first such word, as no
index of the vocabulary is built). Words here are longer than ``_SHORT``, their vocabularies hold
entries up to as long, and the words repeat the entries so that long matches are common.

Left out: short words (``test_word_model_shortcuts.py``) and the lookup bound on huge words
(``tests/robust/test_robust_scaling.py``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_word_model_shortcuts import as_bytes, textbook_wordpiece

from tokcore.models.wordpiece import _SHORT, WordPiece

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
