"""``ShiftMapper`` (offsets of a prefix plus one-character replacements, by arithmetic) pinned to
``OriginalMapper`` over the normalizer's own alignment, and the lane results that use it (Llama's
``Prepend`` + ``Replace``, sentencepiece plain lines) pinned to the reference path (``fast = False``).

Left out: the other views of the lane (``test_fast_lane.py``).
"""

from __future__ import annotations

import copy

import fast_pairs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokcore.core.normalized import NormalizedString
from tokcore.core.original_offsets import OriginalMapper, ShiftMapper
from tokcore.fast import lane_lists
from tokcore.fast.lane import lane_for
from tokcore.fast.views import PrefixReplaceText, deferred_view_for
from tokcore.normalizers import standard as N

# Spaces (single, runs, at the ends), literal "▁", multi-byte letters, emoji and CJK (byte
# fallback cuts them), combining marks, specials and a control.
WORDS = ["hello", "Hi", "qq", "x", " ", "  ", "▁", "▁▁", "é", "e\u0301", "\u0301", "中文", "😀", "👩\u200d👩",
         "Σ", "ﬁ", "’", ".", "42", "<s>", "</s>", "<unk>", "\t", "\n", "\x00", "\u3000", "𐍈"]
texts = (st.lists(st.sampled_from(WORDS), max_size=16).map("".join)
         | st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))

NORMALIZERS = [
    N.Sequence([N.Prepend("▁"), N.Replace(" ", "▁")]),  # Llama's
    N.Sequence([N.Replace(" ", "▁"), N.Prepend("▁")]),
    N.Sequence([N.Prepend(" x "), N.Replace(" ", "▁")]),  # the prefix is replaced too
    N.Sequence([N.Prepend("😀"), N.Replace("▁", " ")]),  # a shorter replacement
    N.Sequence([N.Replace("é", "è")]),  # same length, both multi-byte
    N.Prepend("▁"),
    N.Replace(" ", "\U0001f600"),
]


@st.composite
def spans_of(draw, n_bytes: int):
    """Byte spans of a view of ``n_bytes`` bytes: ordered, empty, cutting characters, or ``None``."""
    out = []
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.integers(0, 9)) == 0:
            out.append(None)
            continue
        a, b = draw(st.integers(0, n_bytes)), draw(st.integers(0, n_bytes))
        out.append((min(a, b), max(a, b)))
    return out


@pytest.mark.parametrize("norm", NORMALIZERS, ids=repr)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, data=st.data())
def test_shift_mapper_equals_the_alignments_mapper(norm, text, data):
    view_of = deferred_view_for(norm)
    assert isinstance(view_of, PrefixReplaceText)
    ns = norm.normalize(NormalizedString(text))
    assert view_of(text) == ns.normalized
    spans = data.draw(spans_of(len(ns.normalized.encode("utf-8"))))
    ref = OriginalMapper(ns, fast=False)
    want = [(0, 0) if s is None else ref.map(s) for s in spans]
    assert OriginalMapper(ns).map_all(spans) == want
    mapper = view_of.mapper(text)
    assert mapper.map_all(spans) == want
    assert [(0, 0) if s is None else mapper.map(s) for s in spans] == want


def test_shift_mapper_docstring_case_and_cuts():
    m = ShiftMapper("a b😀", 3, " ", "\u2581")  # view "▁a▁b😀": ▁ 0-3, a 3, ▁ 4-7, b 7, 😀 8-12
    assert m.map_all([(0, 4), (4, 8), (8, 10), (10, 12)]) == [(1, 2), (2, 4), (4, 6), (6, 8)]
    assert m.map_all([(5, 6), (0, 1), (6, 6), None]) == [(2, 3), (1, 1), (2, 2), (0, 0)]


def llama_pair():
    return fast_pairs.pair_for("hf", "trained/llama_style_bpe.json")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_llama_lane_equals_the_reference(text):
    fast, ref = llama_pair()
    fast_pairs.assert_same_results(fast, ref, text)


def test_llama_lane_maps_by_arithmetic():
    fast, ref = llama_pair()
    text = "Hello wörld 😀 中文 e\u0301 ▁x  y "
    res = fast.encode_result(text, return_offsets=True)
    assert res.__dict__["_source"].moved is lane_lists.DEFERRED  # the lane took it, without an alignment
    assert isinstance(lane_for(fast).deferred_view, PrefixReplaceText)
    assert res == ref.encode_result(text, return_offsets=True)
    assert any(t.startswith("<0x") for t in res.tokens)  # byte fallback cuts characters here


@pytest.mark.parametrize("norm", NORMALIZERS[1:], ids=repr)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_llama_with_other_prefix_replace_normalizers_equals_the_reference(norm, text):
    key = repr(norm)
    if key not in _WITH_NORMALIZER:  # one copy per normalizer (a copy per example was most of the test)
        fast, ref = copy.deepcopy(llama_pair())
        fast.normalizer, ref.normalizer = copy.deepcopy(norm), copy.deepcopy(norm)
        _WITH_NORMALIZER[key] = fast, ref
    fast_pairs.assert_same_results(*_WITH_NORMALIZER[key], text)


_WITH_NORMALIZER: dict = {}


# Lines of words apart by single spaces: ASCII (plain lines), letters no charsmap rule changes,
# and ones a rule does change (a ligature, a composable accent, a full-width letter).
PLAIN = st.lists(st.sampled_from(["a", "word", "It's", "x.", "42", "<s>", "Hello,", "é", "中文", "Привет", "😀",
                                  "ﬁ", "e\u0301", "Ａ", "\t"]), min_size=1, max_size=12).map(" ".join)


@pytest.mark.parametrize("name", ["botchan_en_unigram_1000.model", "kyoto_ja_unigram_8000.model"])
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=PLAIN | texts)
def test_sentencepiece_plain_lines_map_by_arithmetic_as_the_reference(name, text):
    fast, ref = fast_pairs.pair_for("sentencepiece", name)
    fast_pairs.assert_same_results(fast, ref, text)
    view_of = lane_for(fast).deferred_view
    mapper = view_of.mapper(text)
    if mapper is not None:  # a line the charsmap leaves alone: the same spans as its alignment gives
        ns = fast.normalizer.normalize(NormalizedString(text))
        n_bytes = len(ns.normalized.encode("utf-8"))
        spans = [(a, b) for a in range(n_bytes + 1) for b in range(a, min(n_bytes, a + 5) + 1)]
        assert mapper.map_all(spans) == OriginalMapper(ns, fast=False).map_all(spans)
