"""The short cuts in the pre-tokenizers that only cut, pinned to their references.

- ``Punctuation`` and ``Digits`` find their pieces with one ``re`` pattern per behavior on the
  ASCII class view (``split._covering``); ``regex_spans`` on the one-character pattern, match by
  match through ``spans_for_behavior``, is the reference.
- ``find_matches`` (under ``regex_matches`` and Replace) takes Python's ``finditer`` unless it finds
  an empty match; Rust's search loop, written out below, is the reference, empty matches included.
"""

from __future__ import annotations

from itertools import accumulate

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.fast.words import (
    GPT2_ASCII,
    _bytelevel_words,
    _chunk_words,
    _digits_then_gpt2,
    _kept_matches,
    _kept_whole,
)
from tokcore.pre_tokenizers.split import (
    BEHAVIORS,
    Digits,
    Punctuation,
    Split,
    regex_matches,
    regex_spans,
    spans_for_behavior,
)
from tokcore.text.byte_level import bytes_to_chars
from tokcore.text.onig_regex import find_matches

PIECES = ["a", "Z", " ", "  ", "-", "--", "!", ".", "'", "1", "23", "٣", "中", "é", "\u3000", "«", "»", "\n", "¿", "😀",
          "_", "$", "\u0301", "x9y"]
texts = st.lists(st.sampled_from(PIECES), max_size=20).map("".join) | st.text(max_size=25)


def _splitters():
    yield from (Punctuation(b) for b in BEHAVIORS)
    yield Digits(individual_digits=True)
    yield Digits(individual_digits=False)


@pytest.mark.parametrize("splitter", list(_splitters()), ids=lambda s: f"{type(s).__name__}-{s.behavior}")
@settings(max_examples=150, deadline=None)
@given(text=texts)
def test_class_splits_equal_the_match_by_match_reference(splitter, text):
    want = regex_spans(text, splitter.char_re, splitter.behavior, classes=splitter.classes)
    assert splitter.char_spans(text) == want


def _rust_search_loop(rx, text):
    # Search from pos; an empty match found while pos is the previous match's end is refused and
    # the search moves one character on.
    pos, last_end = 0, -1
    while pos <= len(text):
        m = rx.search(text, pos)
        if m is None:
            return
        start, stop = m.span()
        if start == stop and pos == last_end:
            pos += 1
            continue
        yield start, stop
        pos = last_end = stop


PATTERNS = ["a*", "", r"\b", "x?", "-", " ", "(?=a)", "a|", r"\s+", r"\p{L}+|\p{N}", "(?<=a)", "ab|a", r"[^\s]*"]


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=100, deadline=None)
@given(text=st.lists(st.sampled_from(["a", "b", "x", " ", "-", "1", "ab", "é"]), max_size=14).map("".join))
def test_find_matches_follow_rusts_search_loop(pattern, text):
    rx = regex.compile(pattern)
    assert find_matches(rx, text) == list(_rust_search_loop(rx, text))


@pytest.mark.parametrize("pattern", PATTERNS + [r"\S+|\s+", r"'s|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"])
@settings(max_examples=100, deadline=None)
@given(text=st.lists(st.sampled_from(["a", "b", "x", " ", "-", "1", "ab", "é", "'s"]), max_size=14).map("".join),
       invert=st.booleans(), behavior=st.sampled_from(BEHAVIORS))
def test_regex_spans_short_cuts_equal_the_match_by_match_reference(pattern, invert, behavior, text):
    # Removed+invert (CLIP's: the matches) and Isolated over covering matches (Llama 3's) return
    # the matches themselves; the reference adds the gaps and applies the behavior.
    rx = regex.compile(pattern)
    want = [(s, e) for s, e in spans_for_behavior(regex_matches(rx, text, invert=invert), behavior) if e > s]
    assert regex_spans(text, rx, behavior, invert=invert) == want


@pytest.mark.parametrize("pattern", PATTERNS + [r"'s|'t|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+", r"(?i:'S)|[a-z]+", r"(a)|b"])
@settings(max_examples=100, deadline=None)
@given(text=st.lists(st.sampled_from(["a", "b", "x", " ", "  ", "-", "1", "ab", "'s", "'S", "\t", "é"]),
                     max_size=14).map("".join))
def test_kept_matches_finder_equals_the_split_stage(pattern, text):
    """CLIP's word finder (one ``split`` of the grouped twin on ASCII text) gives the words and
    starts of the Split stage's own spans; empty matches, groups and other text fall back."""
    split = Split(pattern, "Removed", invert=True, regex=True)
    fallback = _chunk_words(split.char_spans)
    spans = split.char_spans(text)
    want = ([text[s:e] for s, e in spans], [s for s, _ in spans])
    assert tuple(_kept_matches(split._rx, fallback)(text)) == want


LATER_STAGES = [Digits(), Digits(individual_digits=True), Punctuation(), Punctuation("Removed"),
                Split("[0-9][0-9][0-9]", "Isolated", regex=True), Split(r"\d+", "Removed", regex=True),
                Split("a", "Removed", invert=True, regex=True), Split("x", "MergedWithNext")]


@settings(max_examples=300, deadline=None)
@given(word=st.lists(st.sampled_from(["a", "b", "x", " ", "1", "23", "456", "é", "²", "½", "-", "!", "日", "\n"]),
                     min_size=1, max_size=8).map("".join),
       picked=st.lists(st.sampled_from(range(len(LATER_STAGES))), min_size=1, max_size=3))
def test_kept_whole_quick_checks_agree_with_the_stages_spans(word, picked):
    """Falcon's later stages run on a word's byte characters: a word whose characters no stage can
    cut (or where a Split finds nothing) is whole without its spans, exactly when the spans say so."""
    stages = [LATER_STAGES[i] for i in picked]
    text = bytes_to_chars(word.encode("utf-8"))
    want = all(stage.char_spans(text) == [(0, len(text))] for stage in stages)
    assert _kept_whole(stages)(word) is want


@settings(max_examples=400, deadline=None)
@given(text=st.lists(st.sampled_from(["a", "Zb", "1", "23", " ", "  ", "\t", "\n", "'s", "'", "-", "!?", "é", "x9"]),
                     max_size=12).map("".join))
def test_starcoder_words_in_one_pattern_equal_digits_then_gpt2_per_chunk(text):
    """On ASCII text one findall gives StarCoder's words: each digit alone, and GPT-2's split
    (``regex``'s own pattern) of every chunk between digits; other text takes the chunk finder."""
    from tokcore.text.byte_level import GPT2_REGEX

    digits = Digits(individual_digits=True)
    chunked = _chunk_words(digits.char_spans, _bytelevel_words(), GPT2_ASCII.findall)
    words, starts = _digits_then_gpt2(chunked)(text)
    want = [w for s, e in digits.char_spans(text) for w in GPT2_REGEX.findall(text[s:e])]
    assert list(words) == want
    assert starts is None or starts == list(accumulate(map(len, want[:-1]), initial=0))
