"""A file pattern's twin in the standard library's ``re``, for ASCII text.

Most text a tokenizer meets is ASCII, where ``re`` finds the same matches as the ``regex`` module
about one and a half times as fast (CLIP's and Llama 3's Split patterns over English lines). On
ASCII text the Unicode classes reduce to ASCII sets: ``\\p{L}`` to ``A-Za-z``, ``\\p{N}`` and
``\\d`` to ``0-9``, ``\\w`` to ``A-Za-z0-9_``, ``\\s`` to the six characters ``regex`` counts as
White_Space there (``re``'s own ``\\s`` would add ``\\x1c``-``\\x1f``). ``re`` has no timeout, so
``find_matches`` takes a twin only for a pattern whose backtracking is bounded (``regex_cost``).

Left out: every other property (``\\p{Lu}``, ``\\p{M}``, scripts), ``\\X``, ``\\h``, ``\\z``,
set operations and named groups spelled ``(?<name>``: such patterns have no twin (``None``).
"""

from __future__ import annotations

import re
from functools import lru_cache

import regex

_SPACE = "\\t\\n\\x0b\\x0c\\r "
# What a class escape stands for on ASCII text: (as an item inside [...], as a whole class).
_CLASSES = {
    "p{L}": ("A-Za-z", "[A-Za-z]"), "pL": ("A-Za-z", "[A-Za-z]"),
    "p{N}": ("0-9", "[0-9]"), "pN": ("0-9", "[0-9]"), "d": ("0-9", "[0-9]"),
    "w": ("A-Za-z0-9_", "[A-Za-z0-9_]"), "s": (_SPACE, f"[{_SPACE}]"),
    "P{L}": (None, "[^A-Za-z]"), "PL": (None, "[^A-Za-z]"), "P{N}": (None, "[^0-9]"), "PN": (None, "[^0-9]"),
    "D": (None, "[^0-9]"), "W": (None, "[^A-Za-z0-9_]"), "S": (None, f"[^{_SPACE}]"),
}
# Escapes that mean the same in ``re`` (a character, or an assertion with the same ASCII meaning).
_SAME = set("ntrfva0xuUNbBAZ") | {c for c in map(chr, range(33, 127)) if not c.isalnum()}
_FLAGS = ((regex.IGNORECASE, re.IGNORECASE), (regex.MULTILINE, re.MULTILINE), (regex.DOTALL, re.DOTALL))
_KNOWN_FLAGS = regex.IGNORECASE | regex.MULTILINE | regex.DOTALL | regex.UNICODE | regex.VERSION0


@lru_cache(maxsize=256)
def ascii_twin(pattern: str, flags: int) -> re.Pattern | None:
    """``re`` pattern matching as ``regex.compile(pattern, flags)`` does on ASCII text, or ``None``.
    ``ascii_twin(r"[^\\s\\p{L}]+", 0).pattern == "[^\\\\t\\\\n\\\\x0b\\\\x0c\\\\r A-Za-z]+"``."""
    if flags & ~_KNOWN_FLAGS:
        return None
    text = _translate(pattern)
    if text is None:
        return None
    re_flags = 0
    for ours, theirs in _FLAGS:
        if flags & ours:
            re_flags |= theirs
    try:
        return re.compile(text, re_flags)
    except re.error:
        return None


def _escape_at(p: str, i: int) -> str:
    """The escape starting at ``p[i] == "\\\\"``, without the backslash: ``"p{L}"``, ``"s"``, ``"x41"``..."""
    nxt = p[i + 1 : i + 2]
    if nxt in ("p", "P", "N", "x", "u", "U") and p.startswith("{", i + 2):
        end = p.find("}", i + 2)
        return p[i + 1 : end + 1] if end > 0 else p[i + 1 :]
    if nxt in ("p", "P"):
        return p[i + 1 : i + 3]
    return nxt


def _translate(p: str) -> str | None:
    out: list[str] = []
    i, n = 0, len(p)
    in_class = False
    while i < n:
        ch = p[i]
        if ch == "\\":
            esc = _escape_at(p, i)
            i += 1 + len(esc)
            inside, whole = _CLASSES.get(esc, (None, None))
            if whole is not None:
                if in_class and inside is None:
                    return None  # a complement inside a class needs set operations
                out.append(inside if in_class else whole)
            elif esc[:1] in _SAME and not (esc[:1] in "bBAZ" and in_class and esc != "b"):
                if esc[:1] == "N" and not esc.startswith("N{"):
                    return None
                out.append("\\" + esc)
            else:
                return None
            continue
        if in_class:
            if ch == "[":
                return None  # a nested class or a POSIX one
            if ch == "]":
                in_class = False
            out.append(ch)
            i += 1
            continue
        if ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            for lead in ("^", "]"):  # "[^" and a literal "]" first
                if p.startswith(lead, i):
                    out.append(lead)
                    i += 1
            continue
        if ch == "(" and p.startswith("?<", i + 1) and p[i + 3 : i + 4] not in ("=", "!"):
            return None  # (?<name>: ``re`` spells it (?P<name>
        out.append(ch)
        i += 1
    return None if in_class else "".join(out)
