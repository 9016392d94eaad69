"""Where token boundaries fall: on a character, inside a UTF-8 character, or inside a grapheme cluster.

Byte-level tokenizers may cut a multi-byte character (the contract allows it; the app marks
it red). A boundary can also sit on a character boundary yet split what a reader sees as one
symbol: a ZWJ emoji family, a flag, a base letter and its combining marks (amber). Grapheme
clusters are Unicode's extended grapheme clusters (``regex``'s ``\\X``).

The start positions of the last few texts are kept (``functools.lru_cache``, by the text's value).

Left out: drawing (the app's job) and any judgement of whether a cut is a bug.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import regex

from ..core.offsets import SENTINEL, _pair

SAFE = "safe"
INSIDE_CHAR = "inside_char"
INSIDE_GRAPHEME = "inside_grapheme"
SENTINEL_SPAN = "sentinel"
EMPTY_SPAN = "empty"
INVALID_SPAN = "invalid"

_GRAPHEME = regex.compile(r"\X", regex.DOTALL)


@lru_cache(maxsize=8)
def _starts(text: str) -> tuple[frozenset[int], frozenset[int]]:
    """Character and grapheme starts of one text, kept for the last few texts (a page asks again and again)."""
    return frozenset(char_starts(text)), frozenset(grapheme_starts(text))


def char_starts(text: str) -> set[int]:
    """1-based byte indices where a UTF-8 character starts, plus ``n + 1``. ``char_starts("é") == {1, 3}``."""
    out = {1}
    pos = 1
    for ch in text:
        pos += 1 if ch < "\x80" else len(ch.encode("utf-8", "surrogatepass"))
        out.add(pos)
    return out


def grapheme_starts(text: str) -> set[int]:
    """1-based byte indices where a grapheme cluster starts, plus ``n + 1``. ``grapheme_starts("e\\u0301x") == {1, 4, 5}``."""
    out = {1}
    pos = 1
    for m in _GRAPHEME.finditer(text):
        pos += len(m.group().encode("utf-8", "surrogatepass"))
        out.add(pos)
    return out


def classify_boundary(idx: int, chars: set[int], graphemes: set[int]) -> str:
    """``SAFE``, ``INSIDE_CHAR`` or ``INSIDE_GRAPHEME`` for one 1-based byte index."""
    if idx not in chars:
        return INSIDE_CHAR
    if idx not in graphemes:
        return INSIDE_GRAPHEME
    return SAFE


@dataclass(frozen=True)
class BoundaryIssue:
    """One unsafe boundary: the token index, which end (``"start"``/``"stop"``), the byte index and the kind."""

    token: int
    end: str
    index: int
    kind: str


def token_safety(text: str, offsets: Sequence[Sequence[int]]) -> list[str]:
    """Per token: ``sentinel``, ``empty``, ``invalid``, ``safe``, ``inside_char`` or ``inside_grapheme`` (worst end wins).

    ``token_safety("a🙂b", [(1, 2), (2, 4), (0, 0)]) == ["safe", "inside_char", "sentinel"]``.
    """
    n = len(text.encode("utf-8", "surrogatepass"))
    chars, graphemes = _starts(text)
    out = []
    for o in offsets:
        p = _pair(o)
        if p is None:
            out.append(INVALID_SPAN)
            continue
        if p == SENTINEL:
            out.append(SENTINEL_SPAN)
            continue
        start, stop = p
        if start < 1 or stop < start or stop > n + 1:
            out.append(INVALID_SPAN)
            continue
        if stop == start:
            out.append(EMPTY_SPAN)
            continue
        kinds = {classify_boundary(start, chars, graphemes), classify_boundary(stop, chars, graphemes)}
        out.append(INSIDE_CHAR if INSIDE_CHAR in kinds else INSIDE_GRAPHEME if INSIDE_GRAPHEME in kinds else SAFE)
    return out


def unsafe_boundaries(text: str, offsets: Sequence[Sequence[int]]) -> list[BoundaryIssue]:
    """Every span end that cuts a character or a grapheme cluster, in token order.

    ``unsafe_boundaries("a🙂b", [(1, 2), (2, 4), (4, 7)])`` flags byte 4 twice (stop of 1, start of 2).
    """
    n = len(text.encode("utf-8", "surrogatepass"))
    chars, graphemes = _starts(text)
    issues = []
    for i, o in enumerate(offsets):
        p = _pair(o)
        if p is None or p == SENTINEL:
            continue
        start, stop = p
        if start < 1 or stop <= start or stop > n + 1:
            continue
        for end, idx in (("start", start), ("stop", stop)):
            kind = classify_boundary(idx, chars, graphemes)
            if kind != SAFE:
                issues.append(BoundaryIssue(i, end, idx, kind))
    return issues
