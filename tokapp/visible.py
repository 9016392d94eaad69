"""Whitespace, control and invisible characters made visible, for token chips and tables.

A space becomes ``·``, a newline ``⏎``, a tab ``⇥``, other C0 controls their Unicode control
picture (``\\x00`` -> ``␀``, ``\\r`` -> ``␍``), and invisible format or space characters a short
tag (``⟨ZWJ⟩``, ``⟨U+2009⟩``). A combining mark at the start of a piece is drawn on a dotted
circle (``◌́``) so it does not stack on the previous chip.

Left out: bidirectional reordering (text is shown in logical order) and font fallback.
"""

from __future__ import annotations

import unicodedata

SPACE = "·"
NEWLINE = "⏎"
TAB = "⇥"
DEL = "␡"
BASE_FOR_MARK = "◌"

_NAMED = {
    0x00A0: "⍽",  # no-break space: visible, and distinct from an ordinary space
    0x0085: "⟨NEL⟩",
    0x00AD: "⟨SHY⟩",
    0x200B: "⟨ZWSP⟩",
    0x200C: "⟨ZWNJ⟩",
    0x200D: "⟨ZWJ⟩",
    0x200E: "⟨LRM⟩",
    0x200F: "⟨RLM⟩",
    0x2028: "⟨LS⟩",
    0x2029: "⟨PS⟩",
    0x2060: "⟨WJ⟩",
    0xFEFF: "⟨BOM⟩",
}


def visible_char(ch: str) -> str | None:
    """What to draw for ``ch``, or ``None`` when it is drawn as itself.

    ``visible_char(" ") == "·"``, ``visible_char("a") is None``.
    """
    if ch == " ":
        return SPACE
    if ch == "\n":
        return NEWLINE
    if ch == "\t":
        return TAB
    cp = ord(ch)
    if cp < 0x20:
        return chr(0x2400 + cp)  # the Control Pictures block mirrors C0 exactly
    if cp == 0x7F:
        return DEL
    named = _NAMED.get(cp)
    if named is not None:
        return named
    if unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn"):
        return f"⟨U+{cp:04X}⟩"
    return None


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Mc", "Me")


def visible_segments(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into runs drawn as is (``False``) and visible markers (``True``).

    ``visible_segments("a b") == [("a", False), ("·", True), ("b", False)]``
    """
    out: list[tuple[str, bool]] = []
    run: list[str] = []
    for i, ch in enumerate(text):
        shown = visible_char(ch)
        if shown is None and i == 0 and _is_mark(ch):
            shown = BASE_FOR_MARK + ch
        if shown is None:
            run.append(ch)
            continue
        if run:
            out.append(("".join(run), False))
            run = []
        out.append((shown, True))
    if run:
        out.append(("".join(run), False))
    return out


def visible(text: str) -> str:
    """``text`` with every invisible character replaced by its marker. ``visible("a\\tb\\n") == "a⇥b⏎"``."""
    return "".join(seg for seg, _ in visible_segments(text))


def hex_bytes(data: bytes) -> str:
    """Bytes as spaced upper-case hex. ``hex_bytes("é".encode()) == "C3 A9"``."""
    return " ".join(f"{b:02X}" for b in data)
