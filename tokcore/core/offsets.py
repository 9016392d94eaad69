"""The offsets contract: spans in UTF-8 code units, 1-based, half-open, ``(0, 0)`` as sentinel.

Every helper here follows ``OFFSETS_CONTRACT.md`` to the letter and never raises, except
``assert_offsets_contract`` (which exists to raise). Conversions between the contract's
byte spans and Python's 0-based character spans live here too, because the app and the
parity tests both need them.

Left out: grapheme-cluster analysis (see ``tokcore.boundaries``) and anything about how a
tokenizer produces its spans (see ``tokcore.tokenizer``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import compress
from typing import Iterable, Sequence

from .errors import OffsetsContractError

Span = tuple[int, int]
SENTINEL: Span = (0, 0)


def offsets_coordinate_system() -> str:
    """The unit spans count in: ``"utf8_codeunits"``."""
    return "utf8_codeunits"


def offsets_index_base() -> int:
    """The index of the first code unit: ``1``."""
    return 1


def offsets_span_style() -> str:
    """How a span's ends are read: ``"half_open"``, ``[start, stop)``."""
    return "half_open"


def offsets_sentinel() -> Span:
    """The span of a token with no source text: ``(0, 0)``."""
    return SENTINEL


def _pair(o: object) -> Span | None:
    """``o`` as an ``(int, int)`` pair, or ``None`` when it is not one. ``_pair([3, 5]) == (3, 5)``."""
    if type(o) is tuple and len(o) == 2 and type(o[0]) is int and type(o[1]) is int:
        return o  # the common case, checked first: a result's own spans
    try:
        start, stop = o  # type: ignore[misc]
    except (TypeError, ValueError):
        return None
    if isinstance(start, bool) or isinstance(stop, bool):
        return None
    if not isinstance(start, int) or not isinstance(stop, int):
        return None
    return start, stop


_RECENT: tuple[tuple[str, bytes], ...] = ()  # the last few long texts encoded, newest first
_RECENT_SIZE, _RECENT_MIN_CHARS = 4, 256


def _utf8(text: str) -> bytes:
    """UTF-8 bytes of ``text``; lone surrogates pass through so that the helpers never raise.

    The helpers are called once per token over the same long text (a result's rows): the bytes of
    the last few long strings are kept (matched by identity), so those calls stay linear in all.
    """
    global _RECENT
    recent = _RECENT
    for kept, data in recent:
        if kept is text:
            return data
    data = text.encode("utf-8", "surrogatepass")
    if len(text) >= _RECENT_MIN_CHARS:
        _RECENT = ((text, data),) + recent[: _RECENT_SIZE - 1]
    return data


def has_span(o: Sequence[int]) -> bool:
    """True unless ``o`` is the sentinel. ``has_span((1, 1)) is True``; ``has_span((0, 0)) is False``."""
    p = _pair(o)
    return p is not None and p != SENTINEL


def has_nonempty_span(o: Sequence[int]) -> bool:
    """``has_span(o)`` and ``stop > start``. ``has_nonempty_span((2, 3)) is True``."""
    p = _pair(o)
    return p is not None and p != SENTINEL and p[1] > p[0]


def span_ncodeunits(o: Sequence[int]) -> int:
    """Bytes a span covers: 0 for the sentinel, else ``max(0, stop - start)``. ``span_ncodeunits((2, 5)) == 3``."""
    p = _pair(o)
    if p is None or p == SENTINEL:
        return 0
    return max(0, p[1] - p[0])


def span_codeunits(text: str, o: Sequence[int]) -> bytes:
    """The exact byte slice of a span, ignoring character boundaries. ``span_codeunits("é", (1, 2)) == b"\\xc3"``.

    ``b""`` for the sentinel, empty, inverted or out-of-range spans. Never raises.
    """
    p = _pair(o)
    if p is None or p == SENTINEL or not isinstance(text, str):
        return b""
    start, stop = p
    data = _utf8(text)
    if start < 1 or stop <= start or stop > len(data) + 1:
        return b""
    return data[start - 1 : stop - 1]


def _is_boundary_in(data: bytes, idx: int) -> bool:
    n = len(data)
    if idx < 1 or idx > n + 1:
        return False
    if idx == n + 1:
        return True
    return (data[idx - 1] & 0xC0) != 0x80


def is_valid_string_boundary(text: str, idx: int) -> bool:
    """Whether 1-based byte index ``idx`` starts a character or is the end. ``is_valid_string_boundary("é", 2) is False``."""
    if not isinstance(text, str) or isinstance(idx, bool) or not isinstance(idx, int):
        return False
    return _is_boundary_in(_utf8(text), idx)


def try_span_substring(text: str, o: Sequence[int]) -> str | None:
    """The substring a span covers, ``""`` for sentinel/empty/inverted spans, ``None`` when it cuts or overruns.

    ``try_span_substring("a🙂b", (2, 6)) == "🙂"``; ``try_span_substring("a🙂b", (2, 4)) is None``.
    """
    p = _pair(o)
    if p is None or not isinstance(text, str):
        return None
    if p == SENTINEL:
        return ""
    start, stop = p
    if stop <= start:
        return ""
    data = _utf8(text)
    if not _is_boundary_in(data, start) or not _is_boundary_in(data, stop):
        return None
    return data[start - 1 : stop - 1].decode("utf-8", "surrogatepass")


def offsets_are_nonoverlapping(
    offsets: Iterable[Sequence[int]], *, ignore_sentinel: bool = True, ignore_empty: bool = True
) -> bool:
    """Whether spans, read in order, never start before the previous one's stop.

    ``offsets_are_nonoverlapping([(1, 3), (0, 0), (3, 4)]) is True``; ``[(1, 3), (2, 4)]`` gives ``False``.
    """
    prev_stop = None
    for o in offsets:
        p = _pair(o)
        if p is None:
            return False
        if p == SENTINEL:
            if ignore_sentinel:
                continue
            return False
        start, stop = p
        if stop < start:
            return False
        if stop == start and ignore_empty:
            continue
        if prev_stop is not None and start < prev_stop:
            return False
        prev_stop = stop
    return True


def first_contract_violation(
    text: str, offsets: Iterable[Sequence[int]], *, require_string_boundaries: bool = False
) -> tuple[int, object, str] | None:
    """``(index, offset, rule)`` of the first offset breaking the contract, or ``None``.

    ``first_contract_violation("ab", [(1, 2), (0, 3)])[2] == "only the sentinel may use zero"``.
    """
    if not isinstance(text, str):
        return (-1, None, "text must be a str")
    data = _utf8(text)
    limit = len(data) + 1
    for i, o in enumerate(offsets):
        p = _pair(o)
        if p is None:
            return (i, o, "an offset must be a pair of ints (start, stop)")
        if p == SENTINEL:
            continue
        start, stop = p
        if start == 0 or stop == 0:
            return (i, p, "only the sentinel may use zero")
        if start < 1 or stop < 1:
            return (i, p, "start and stop must be at least 1 (1-based)")
        if stop < start:
            return (i, p, "stop must not be smaller than start")
        if stop > limit:
            return (i, p, f"stop must be at most ncodeunits(text) + 1 = {limit}")
        if require_string_boundaries and stop > start:
            if not _is_boundary_in(data, start):
                return (i, p, "start is inside a UTF-8 character (not a string boundary)")
            if not _is_boundary_in(data, stop):
                return (i, p, "stop is inside a UTF-8 character (not a string boundary)")
    return None


def validate_offsets_contract(
    text: str, offsets: Iterable[Sequence[int]], *, require_string_boundaries: bool = False
) -> bool:
    """True when every offset obeys the contract; overlap and order are not checked. Never raises.

    ``validate_offsets_contract("ab", [(1, 2), (0, 0), (2, 3)]) is True``.
    """
    try:
        return first_contract_violation(text, offsets, require_string_boundaries=require_string_boundaries) is None
    except Exception:  # an iterable that fails while iterating is a violation, not a crash
        return False


def assert_offsets_contract(
    text: str, offsets: Iterable[Sequence[int]], *, require_string_boundaries: bool = False
) -> None:
    """Raise ``OffsetsContractError`` (a ``ValueError``) at the first violation, naming index, offset and rule."""
    found = first_contract_violation(text, offsets, require_string_boundaries=require_string_boundaries)
    if found is not None:
        index, offset, rule = found
        raise OffsetsContractError(f"offset {index} {offset!r} breaks the offsets contract: {rule}")


# ---------------------------------------------------------------------------------------------
# Conversions between contract byte spans and Python character spans.


# 1 at a UTF-8 lead byte (every byte but the continuation bytes 0x80-0xBF), else 0.
_LEAD_BYTES = bytes(0 if 0x80 <= b <= 0xBF else 1 for b in range(256))


def char_to_byte_table(text: str) -> list[int]:
    """0-based byte offset of every character boundary. ``char_to_byte_table("aé") == [0, 1, 3]``."""
    if text.isascii():
        return list(range(len(text) + 1))
    data = text.encode("utf-8", "surrogatepass")
    # A character starts at each lead byte: their positions, picked in C (3x the old per-run loop on
    # non-Latin text, where every character has continuation bytes), then the end.
    table = list(compress(range(len(data)), data.translate(_LEAD_BYTES)))
    table.append(len(data))
    return table


def byte_span_to_char_span(text: str, o: Sequence[int]) -> tuple[int, int] | None:
    """A contract span as a 0-based character span, widened to whole characters; ``None`` for the sentinel.

    ``byte_span_to_char_span("a🙂b", (3, 4)) == (1, 2)`` (a cut emoji widens to the whole emoji).
    """
    p = _pair(o)
    if p is None or p == SENTINEL:
        return None
    start, stop = max(p[0] - 1, 0), max(p[1] - 1, 0)
    n = len(text)
    if text.isascii():
        return (min(start, n), min(stop, n))
    # Characters are counted by their lead bytes, in C (for many spans of one text, a table made once
    # and ``char_span_in_table`` are faster still).
    data = text.encode("utf-8", "surrogatepass")
    leads = data.translate(_LEAD_BYTES)
    end = len(data)
    # The character holding byte ``start``; the first character starting at or after ``stop``.
    cs = leads.count(1, 0, start + 1) + (end <= start) - 1
    ce = leads.count(1, 0, stop) + (end < stop) if stop > start else cs
    return (max(0, min(cs, n)), max(0, min(ce, n)))


def char_span_in_table(table: list[int], o: Sequence[int]) -> tuple[int, int] | None:
    """``byte_span_to_char_span`` for a non-ASCII text whose ``char_to_byte_table`` is ``table``
    (made once for many spans: each is then two bisections).
    ``char_span_in_table(char_to_byte_table("a🙂b"), (3, 4)) == (1, 2)``."""
    p = _pair(o)
    if p is None or p == SENTINEL:
        return None
    start, stop = max(p[0] - 1, 0), max(p[1] - 1, 0)
    n = len(table) - 1
    cs = bisect_right(table, start) - 1
    ce = bisect_left(table, stop) if stop > start else cs
    return (max(0, min(cs, n)), max(0, min(ce, n)))


def char_span_to_byte_span(text: str, span: Sequence[int]) -> Span:
    """A 0-based character span ``[s, e)`` as a contract span. ``char_span_to_byte_span("é!", (1, 2)) == (3, 4)``."""
    s, e = span
    if text.isascii():
        return (s + 1, e + 1)
    table = char_to_byte_table(text)
    return (table[s] + 1, table[e] + 1)
