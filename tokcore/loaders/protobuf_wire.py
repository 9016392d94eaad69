"""A small reader of the protobuf wire format: enough to decode sentencepiece's ``ModelProto``.

A protobuf message is a flat run of ``(tag, value)`` records; ``tag = field_number << 3 | wire_type``.
Wire types: 0 varint, 1 fixed 64-bit, 2 length-delimited bytes (strings, sub-messages, packed
arrays), 5 fixed 32-bit. Nested messages are just length-delimited bytes decoded again, so a
schema-free reader plus a few typed getters is all a loader needs.

Left out: writing, groups (wire types 3/4, deprecated and unused by sentencepiece), packed
repeated scalars, and any schema machinery: callers name the field numbers they want.
"""

from __future__ import annotations

import struct
from typing import Iterator

VARINT, FIXED64, LENGTH, START_GROUP, END_GROUP, FIXED32 = 0, 1, 2, 3, 4, 5


class WireError(ValueError):
    """The bytes are not a well-formed protobuf message; the message says where."""


def read_varint(data: bytes, pos: int) -> tuple[int, int]:
    """(value, next position) of the base-128 varint at ``pos``. ``read_varint(b"\\xac\\x02", 0) == (300, 2)``."""
    result = 0
    shift = 0
    n = len(data)
    while True:
        if pos >= n:
            raise WireError(f"varint runs past the end of the data at byte {pos}")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise WireError(f"varint longer than 10 bytes ending at byte {pos}")


def read_field(data: bytes, pos: int) -> tuple[int, int, object, int]:
    """``(field_number, wire_type, value, next position)`` of the record at ``pos`` (as ``iter_fields``).

    ``read_field(b"\\x08\\x96\\x01", 0) == (1, 0, 150, 3)``.
    """
    n = len(data)
    start = pos
    key, pos = read_varint(data, pos)
    number, wire = key >> 3, key & 7
    if number == 0:
        raise WireError(f"field number 0 at byte {start} (not a protobuf message?)")
    if wire == VARINT:
        value, pos = read_varint(data, pos)
        return number, wire, value, pos
    if wire == LENGTH:
        length, pos = read_varint(data, pos)
        if pos + length > n:
            raise WireError(f"field {number} at byte {start} claims {length} bytes but only {n - pos} remain")
        return number, wire, data[pos : pos + length], pos + length
    if wire == FIXED32:
        if pos + 4 > n:
            raise WireError(f"fixed32 field {number} at byte {start} runs past the end")
        return number, wire, data[pos : pos + 4], pos + 4
    if wire == FIXED64:
        if pos + 8 > n:
            raise WireError(f"fixed64 field {number} at byte {start} runs past the end")
        return number, wire, data[pos : pos + 8], pos + 8
    raise WireError(f"unsupported wire type {wire} for field {number} at byte {start}")


def iter_fields(data: bytes) -> Iterator[tuple[int, int, object]]:
    """Yield ``(field_number, wire_type, value)`` for each record of one message.

    ``value`` is an ``int`` for varints, ``bytes`` for the other wire types (raw little-endian
    bytes for the fixed ones). ``list(iter_fields(b"\\x08\\x96\\x01")) == [(1, 0, 150)]``.
    """
    pos = 0
    n = len(data)
    while pos < n:
        number, wire, value, pos = read_field(data, pos)
        yield number, wire, value


def as_int32(value: int) -> int:
    """A varint read as a signed 32-bit ``int32`` (negatives are sign-extended to 64 bits on the wire).

    ``as_int32(2**64 - 1) == -1``.
    """
    value &= 0xFFFFFFFFFFFFFFFF
    if value >= 1 << 63:
        value -= 1 << 64
    value = (value + (1 << 31)) % (1 << 32) - (1 << 31)
    return value


def as_float(raw: bytes) -> float:
    """A fixed32 record as an IEEE float. ``as_float(b"\\x00\\x00\\x80\\x3f") == 1.0``."""
    return struct.unpack("<f", raw)[0]


def as_str(raw: bytes, *, field: str) -> str:
    """A length-delimited record as UTF-8 text; bad bytes raise ``WireError`` naming ``field``."""
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WireError(f"{field} is not valid UTF-8 (byte {exc.start})") from None


def expect(wire: int, want: int, field: str) -> None:
    """Raise ``WireError`` unless the record has the wire type its schema field needs."""
    if wire != want:
        raise WireError(f"{field} has wire type {wire}, expected {want}")
