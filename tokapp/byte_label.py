"""The one way the app writes bytes that are not whole characters: ``‹E3 81›`` followed by the
character they belong to (``of あ``), never mojibake (``Ã©``) and never a replacement character.

``owner_chars(data, start, stop)`` widens a byte range to whole UTF-8 characters; ``byte_piece_text``
gives the plain label (tables, tooltips), ``byte_piece_html`` the escaped HTML (chips, cards);
``piece_html`` and ``piece_text`` draw any byte range: its text when whole, else the label.

Left out: whole characters (drawn as text with ``tokapp.visible``) and choosing colours.
"""

from __future__ import annotations

from html import escape
from typing import Callable

from .visible import hex_bytes, visible


def _is_continuation(byte: int) -> bool:
    return byte & 0xC0 == 0x80


def owner_chars(data: bytes, start: int, stop: int) -> str:
    """The whole characters holding bytes ``data[start:stop]`` (0-based, half-open).

    ``owner_chars("aあ".encode(), 1, 3) == "あ"``
    """
    lo, hi = max(0, start), min(len(data), max(stop, start))
    while lo > 0 and lo < len(data) and _is_continuation(data[lo]):
        lo -= 1
    while hi < len(data) and _is_continuation(data[hi]):
        hi += 1
    return data[lo:hi].decode("utf-8", "replace")


def byte_piece_text(piece: bytes, owner: str = "") -> str:
    """A cut piece as plain text. ``byte_piece_text(b"\\xe3\\x81", "あ") == "‹E3 81› of あ"``."""
    label = f"‹{hex_bytes(piece)}›"
    return f"{label} of {visible(owner)}" if owner else label


def byte_piece_html(piece: bytes, owner: str = "") -> str:
    """``byte_piece_text`` as HTML: the bytes in hex, the character they belong to in small print.

    ``"of" in byte_piece_html(b"\\xe3", "あ")``
    """
    of = f'<span class="tk-bytes-of"> of {escape(visible(owner))}</span>' if owner else ""
    return f'<span class="tk-bytes-hex">‹{hex_bytes(piece)}›{of}</span>'


def piece_html(data: bytes, start: int, stop: int, text_html: Callable[[str], str] = escape) -> str:
    """``data[start:stop]`` (0-based) as HTML: ``text_html(its text)`` when it is whole characters, else the
    byte label with its owning character. ``"of é" in piece_html("é".encode(), 0, 1)``
    """
    piece = data[max(0, start):max(0, stop)]
    try:
        return text_html(piece.decode("utf-8"))
    except UnicodeDecodeError:
        return byte_piece_html(piece, owner_chars(data, start, stop))


def piece_text(data: bytes, start: int, stop: int) -> str:
    """What covers ``data[start:stop]`` says: its text when it is whole characters, else the byte label.

    ``piece_text("é".encode(), 0, 1) == "‹C3› of é"``
    """
    piece = data[start:stop]
    try:
        return visible(piece.decode("utf-8"))
    except UnicodeDecodeError:
        return byte_piece_text(piece, owner_chars(data, start, stop))
