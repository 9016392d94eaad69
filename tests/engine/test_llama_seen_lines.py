"""The merge-cut finder keeps the words of lines it has cut, within a budget of characters
(``tokcore.fast.merge_cuts._SEEN_BUDGET``), lines of up to ``_SEEN_LINE_CHARS`` too: a line found
again gives the words a fresh finder gives, and neither bound is ever exceeded. End to end, a long Llama-style line
encoded twice by the same object equals the reference path both times.

Left out: the cut rule itself (``test_safe_cuts.py``, ``test_bpe_lean.py``).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_llama_stand_in import _FAST, _KNOWN, _MERGES, _REF

from tokcore.fast import merge_cuts

_PIECES = ["the", " ", "and", "of", "ing", "s", ",", ".", "I", "é", "中", "\u2581", "ur", "ed", "x"]
_LONG = st.lists(st.sampled_from(_PIECES), min_size=80, max_size=200).map("".join)


def _finder(budget: int):
    real = merge_cuts._SEEN_BUDGET
    merge_cuts._SEEN_BUDGET = budget
    try:
        return merge_cuts._merge_cut_words(_MERGES, _KNOWN)
    finally:
        merge_cuts._SEEN_BUDGET = real


@settings(max_examples=40, deadline=None)
@given(texts=st.lists(_LONG, min_size=1, max_size=4))
def test_lines_found_again_give_a_fresh_finders_words(texts):
    kept = _finder(merge_cuts._SEEN_BUDGET)
    views = ["\u2581" + t.replace(" ", "\u2581") for t in texts]
    first = [kept(v) for v in views]
    assert [kept(v) for v in views] == first == [_finder(0)(v) for v in views]


def test_a_huge_line_is_not_kept():
    kept = _finder(merge_cuts._SEEN_BUDGET)
    line = "\u2581" + "the\u2581end\u2581" * 300  # 2401 characters
    assert kept(line)[0] is not kept(line)[0]
    assert kept(line[:2048])[0] is kept(line[:2048])[0]


def test_the_budget_bounds_the_characters_kept():
    kept = _finder(300)
    line = "\u2581" + "the\u2581end\u2581" * 20  # 161 characters
    first = kept(line)[0]
    assert kept(line)[0] is first  # kept: 139 characters of room left
    other = line + "x"
    assert kept(other)[0] is not kept(other)[0]  # 162 > 139: cut anew each time
    assert kept(other)[0] == _finder(0)(other)[0]


@settings(max_examples=25, deadline=None)
@given(text=_LONG)
def test_a_long_line_encoded_again_equals_the_reference(text):
    b = _REF.encode_result(text, return_offsets=True)
    for _ in range(2):
        a = _FAST.encode_result(text, return_offsets=True)
        assert (a.ids, a.tokens, a.offsets, a.original_offsets) == (b.ids, b.tokens, b.offsets, b.original_offsets)
