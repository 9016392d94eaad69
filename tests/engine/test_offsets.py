"""The offsets contract helpers, pinned edge case by edge case (OFFSETS_CONTRACT.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tokcore
from tokcore import (
    assert_offsets_contract,
    has_nonempty_span,
    has_span,
    is_valid_string_boundary,
    offsets_are_nonoverlapping,
    span_codeunits,
    span_ncodeunits,
    try_span_substring,
    validate_offsets_contract,
)
from tokcore.core.offsets import char_span_in_table, char_to_byte_table

EMOJI = "a🙂b"  # bytes: a=1, 🙂=2..5, b=6; n=6, end=7


def test_convention_constants():
    assert tokcore.offsets_coordinate_system() == "utf8_codeunits"
    assert tokcore.offsets_index_base() == 1
    assert tokcore.offsets_span_style() == "half_open"
    assert tokcore.offsets_sentinel() == (0, 0)


@pytest.mark.parametrize(
    "o, expected",
    [((0, 0), False), ((1, 1), True), ((1, 2), True), ((0, 1), True), ((3, 2), True), ([0, 0], False), ([2, 5], True)],
)
def test_has_span(o, expected):
    assert has_span(o) is expected


@pytest.mark.parametrize(
    "o, expected",
    [((0, 0), False), ((1, 1), False), ((1, 2), True), ((3, 2), False), ((5, 9), True)],
)
def test_has_nonempty_span(o, expected):
    assert has_nonempty_span(o) is expected


@pytest.mark.parametrize("o, expected", [((0, 0), 0), ((1, 1), 0), ((2, 5), 3), ((5, 2), 0), ((1, 7), 6)])
def test_span_ncodeunits(o, expected):
    assert span_ncodeunits(o) == expected


@pytest.mark.parametrize(
    "o, expected",
    [
        ((0, 0), b""),  # sentinel
        ((2, 2), b""),  # empty
        ((4, 2), b""),  # inverted
        ((0, 3), b""),  # out of range below (zero start)
        ((-1, 3), b""),  # negative
        ((1, 8), b""),  # stop past n + 1
        ((1, 7), EMOJI.encode()),  # whole text
        ((2, 6), "🙂".encode()),
        ((2, 4), "🙂".encode()[:2]),  # cuts the emoji: exact bytes, boundaries ignored
        ((6, 7), b"b"),
    ],
)
def test_span_codeunits(o, expected):
    assert span_codeunits(EMOJI, o) == expected


def test_span_codeunits_never_raises():
    assert span_codeunits(EMOJI, None) == b""  # type: ignore[arg-type]
    assert span_codeunits(EMOJI, (1,)) == b""  # type: ignore[arg-type]
    assert span_codeunits(EMOJI, ("a", "b")) == b""  # type: ignore[arg-type]
    assert span_codeunits(None, (1, 2)) == b""  # type: ignore[arg-type]
    assert span_codeunits("\ud800x", (1, 4)) == b"\xed\xa0\x80"  # a lone surrogate does not make it raise


@pytest.mark.parametrize(
    "idx, expected",
    [(0, False), (-3, False), (1, True), (2, True), (3, False), (4, False), (5, False), (6, True), (7, True), (8, False)],
)
def test_is_valid_string_boundary(idx, expected):
    assert is_valid_string_boundary(EMOJI, idx) is expected


def test_is_valid_string_boundary_empty_text():
    assert is_valid_string_boundary("", 1) is True  # idx == n + 1
    assert is_valid_string_boundary("", 0) is False
    assert is_valid_string_boundary("", 2) is False


@pytest.mark.parametrize(
    "o, expected",
    [
        ((0, 0), ""),  # sentinel
        ((3, 3), ""),  # empty, even inside a character
        ((5, 2), ""),  # inverted
        ((9, 4), ""),  # any stop <= start is "", even out of range
        ((2, 6), "🙂"),
        ((1, 7), EMOJI),
        ((6, 7), "b"),
        ((2, 4), None),  # stop cuts the emoji
        ((3, 6), None),  # start cuts the emoji
        ((1, 8), None),  # stop out of range
        ((0, 2), None),  # start out of range
    ],
)
def test_try_span_substring(o, expected):
    assert try_span_substring(EMOJI, o) == expected


def test_try_span_substring_empty_text():
    assert try_span_substring("", (1, 1)) == ""
    assert try_span_substring("", (1, 2)) is None
    assert try_span_substring("", (0, 0)) == ""


@pytest.mark.parametrize(
    "offsets, kwargs, expected",
    [
        ([], {}, True),
        ([(1, 3), (3, 5)], {}, True),
        ([(1, 3), (2, 5)], {}, False),  # overlap
        ([(1, 3), (0, 0), (3, 4)], {}, True),  # sentinel skipped
        ([(1, 3), (0, 0), (3, 4)], {"ignore_sentinel": False}, False),
        ([(1, 3), (2, 2), (3, 4)], {}, True),  # empty span inside skipped
        ([(1, 3), (2, 2), (3, 4)], {"ignore_empty": False}, False),  # empty at 2 starts before prev stop 3
        ([(1, 3), (3, 3), (3, 4)], {"ignore_empty": False}, True),
        ([(3, 1)], {}, False),  # inverted
        ([(1, 3), (5, 4)], {}, False),
        ([(4, 6), (1, 2)], {}, False),  # out of order
        ([(1, 2), (4, 6)], {}, True),  # gaps are fine
    ],
)
def test_offsets_are_nonoverlapping(offsets, kwargs, expected):
    assert offsets_are_nonoverlapping(offsets, **kwargs) is expected


@pytest.mark.parametrize(
    "offsets, strict, expected",
    [
        ([], False, True),
        ([(0, 0)], False, True),
        ([(1, 7)], False, True),
        ([(7, 7)], False, True),  # empty span at n + 1
        ([(1, 8)], False, False),  # stop > n + 1
        ([(0, 3)], False, False),  # zero outside the sentinel
        ([(2, 0)], False, False),
        ([(-1, 2)], False, False),
        ([(4, 3)], False, False),  # stop < start
        ([(2, 4)], False, True),  # cuts a char: fine unless strict
        ([(2, 4)], True, False),
        ([(3, 6)], True, False),
        ([(3, 3)], True, True),  # empty spans are not checked for boundaries
        ([(2, 6), (0, 0), (6, 7)], True, True),
        ([(1, 3), (2, 5)], False, True),  # overlap is not its business
        ([(5, 7), (1, 2)], False, True),  # nor order
    ],
)
def test_validate_offsets_contract(offsets, strict, expected):
    assert validate_offsets_contract(EMOJI, offsets, require_string_boundaries=strict) is expected


def test_validate_never_raises():
    assert validate_offsets_contract(EMOJI, [None]) is False  # type: ignore[list-item]
    assert validate_offsets_contract(EMOJI, [(1,)]) is False  # type: ignore[list-item]
    assert validate_offsets_contract(None, [(1, 2)]) is False  # type: ignore[arg-type]
    assert validate_offsets_contract(EMOJI, [(1.0, 2.0)]) is False  # type: ignore[list-item]

    def broken():
        yield (1, 2)
        raise RuntimeError("iteration fails")

    assert validate_offsets_contract(EMOJI, broken()) is False


def test_validate_empty_text():
    assert validate_offsets_contract("", [(1, 1), (0, 0)]) is True
    assert validate_offsets_contract("", [(1, 2)]) is False


@pytest.mark.parametrize(
    "offsets, strict, rule",
    [
        ([(1, 2), (0, 5)], False, "only the sentinel may use zero"),
        ([(-2, 3)], False, "at least 1"),
        ([(5, 3)], False, "stop must not be smaller than start"),
        ([(1, 9)], False, "at most ncodeunits(text) + 1 = 7"),
        ([(1, 2), (3, 6)], True, "start is inside a UTF-8 character"),
        ([(2, 4)], True, "stop is inside a UTF-8 character"),
    ],
)
def test_assert_offsets_contract_names_index_offset_rule(offsets, strict, rule):
    with pytest.raises(ValueError) as info:
        assert_offsets_contract(EMOJI, offsets, require_string_boundaries=strict)
    message = str(info.value)
    assert rule in message
    index = len(offsets) - 1
    assert f"offset {index} " in message
    assert repr(tuple(offsets[index])) in message
    assert isinstance(info.value, tokcore.OffsetsContractError)


def test_assert_offsets_contract_passes_silently():
    assert assert_offsets_contract(EMOJI, [(1, 2), (0, 0), (2, 6)], require_string_boundaries=True) is None


def test_char_byte_span_conversions():
    assert tokcore.char_span_to_byte_span("é!", (1, 2)) == (3, 4)
    assert tokcore.byte_span_to_char_span("a🙂b", (3, 4)) == (1, 2)  # a cut widens to the whole char
    assert tokcore.byte_span_to_char_span("a🙂b", (2, 6)) == (1, 2)
    assert tokcore.byte_span_to_char_span("a🙂b", (0, 0)) is None
    assert tokcore.byte_span_to_char_span("abc", (2, 4)) == (1, 3)


@settings(max_examples=300, deadline=None)
@given(st.text(), st.integers(-3, 40), st.integers(-3, 40))
def test_helpers_agree_and_never_raise(text, start, stop):
    o = (start, stop)
    data = text.encode("utf-8", "surrogatepass")
    n = len(data)
    sub = try_span_substring(text, o)
    raw = span_codeunits(text, o)
    if sub:
        assert sub.encode("utf-8", "surrogatepass") == raw
    if o != (0, 0) and stop > start and 1 <= start and stop <= n + 1:
        assert raw == data[start - 1 : stop - 1]
        assert span_ncodeunits(o) == len(raw)
        strict_ok = validate_offsets_contract(text, [o], require_string_boundaries=True)
        assert strict_ok == (is_valid_string_boundary(text, start) and is_valid_string_boundary(text, stop))
        assert (sub is not None) == strict_ok
    ok = validate_offsets_contract(text, [o])
    try:
        assert_offsets_contract(text, [o])
        raised = False
    except ValueError:
        raised = True
    assert ok is not raised


def _char_span_by_table(text, o):
    """``byte_span_to_char_span`` as it was: a table of every character's first byte, then bisect."""
    from bisect import bisect_left, bisect_right

    from tokcore.core.offsets import char_to_byte_table

    if tuple(o) == (0, 0):
        return None
    start, stop = max(o[0] - 1, 0), max(o[1] - 1, 0)
    if text.isascii():  # one byte per character: the span as it is, clamped
        return (min(start, len(text)), min(stop, len(text)))
    table = char_to_byte_table(text)
    cs = bisect_right(table, start) - 1
    ce = bisect_left(table, stop) if stop > start else cs
    return (max(0, min(cs, len(text))), max(0, min(ce, len(text))))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab é🙂\u0301日\x00") + ["\ud800"]), max_size=12),
       st.integers(-2, 40), st.integers(-2, 40))
def test_byte_span_to_char_span_counts_lead_bytes_as_the_table_did(text, start, stop):
    """Lead bytes counted in C give every span the table's answer: cut characters widened, spans
    past the end clamped, starts before 1 taken as 1 (lone surrogates included: surrogatepass)."""
    assert tokcore.byte_span_to_char_span(text, (start, stop)) == _char_span_by_table(text, (start, stop))
    if not text.isascii():  # the table kept by a result's converters gives the same
        table = char_to_byte_table(text)
        assert char_span_in_table(table, (start, stop)) == _char_span_by_table(text, (start, stop))
