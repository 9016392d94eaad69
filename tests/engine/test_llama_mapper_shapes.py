"""``ShiftMapper.map_all`` on the shapes the lane hands it, pinned to ``OriginalMapper`` over the
normalizer's own alignment: tokens end to end over the view (looked up once per boundary), template
specials (``None``) before, after and among them, and boundaries inside a replacement or inside a
character that reached the view unchanged (byte fallback).

Left out: random spans in any order (``test_shift_mapper.py``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokcore.core.normalized import NormalizedString
from tokcore.core.original_offsets import OriginalMapper, ShiftMapper
from tokcore.fast.views import deferred_view_for
from tokcore.normalizers import standard as N

LLAMA = N.Sequence([N.Prepend("\u2581"), N.Replace(" ", "\u2581")])
WORDS = ["hello", "a", " ", "  ", "\u2581", "é", "中", "😀", ".", "x y"]
texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map("".join)


def _reference(norm, text):
    ns = norm.normalize(NormalizedString(text))
    return ns, OriginalMapper(ns, fast=False)


@st.composite
def end_to_end(draw, n_bytes: int):
    """Spans cutting ``[0, n_bytes)`` end to end at drawn bytes (any byte: inside characters too),
    with ``None`` drawn before, after and between them."""
    cuts = sorted(set(draw(st.lists(st.integers(1, n_bytes - 1), max_size=12)))) if n_bytes > 1 else []
    bounds = [0, *cuts, n_bytes]
    spans: list = [None] * draw(st.integers(0, 2))
    for a, b in zip(bounds, bounds[1:]):
        spans.append((a, b))
        if draw(st.integers(0, 7)) == 0:
            spans.append(None)
    return spans + [None] * draw(st.integers(0, 2))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, data=st.data())
def test_tokens_end_to_end_with_specials_map_as_the_alignment(text, data):
    ns, ref = _reference(LLAMA, text)
    spans = data.draw(end_to_end(len(ns.normalized.encode("utf-8"))))
    want = [(0, 0) if s is None else ref.map(s) for s in spans]
    assert deferred_view_for(LLAMA).mapper(text).map_all(spans) == want


def test_the_lane_shape_and_a_stop_inside_a_replacement():
    text = "ab c"  # view "▁ab▁c": ▁ 0-3, a 3, b 4, ▁ 5-8, c 8
    _, ref = _reference(LLAMA, text)
    mapper = ShiftMapper(text, 3, " ", "\u2581")
    lane = [None, (0, 4), (4, 5), (5, 9), None]  # <s>, "▁a", "b", "▁c", </s>
    assert mapper.map_all(lane) == [(0, 0), (1, 2), (2, 3), (3, 5), (0, 0)]
    inside = [None, (0, 4), (4, 6), (6, 9)]  # a boundary one byte into the second "▁"
    want = [(0, 0)] + [ref.map(s) for s in inside[1:]]
    assert mapper.map_all(inside) == want == [(0, 0), (1, 2), (2, 4), (3, 5)]
    assert mapper.map_all([None, None]) == [(0, 0), (0, 0)] and mapper.map_all([]) == []
