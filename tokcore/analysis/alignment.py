"""Comparing and aligning tokenizations: words to subwords, tokenizer A to tokenizer B, summary figures.

All functions take contract offsets (1-based UTF-8, ``(0, 0)`` sentinel) and plain lists, so
they work on any ``EncodeResult``. Spans take part iff ``has_nonempty_span``: sentinels and
empty spans are ignored, special tokens matched in the text are not.

Alignment is linear after a sort: when the non-empty spans run in order (starts and stops never
decrease, as every tokenizer's do) the tokens overlapping a span are one contiguous run, found by
bisection; spans out of order fall back to a scan of every token per span.

Left out: encoding (callers pass results in) and drawing.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Sequence

import regex

from ..core.offsets import _pair, has_nonempty_span

_WORD = regex.compile(r"\S+")


def word_spans(text: str) -> list[tuple[int, int]]:
    """Whitespace-separated words as contract spans. ``word_spans("ab  cé") == [(1, 3), (5, 8)]``."""
    spans = []
    data_pos = 1
    last = 0
    for m in _WORD.finditer(text):
        data_pos += len(text[last : m.start()].encode("utf-8", "surrogatepass"))
        width = len(m.group().encode("utf-8", "surrogatepass"))
        spans.append((data_pos, data_pos + width))
        data_pos += width
        last = m.end()
    return spans


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def tokens_covering(span: tuple[int, int], offsets: Sequence[Sequence[int]]) -> list[int]:
    """Indices of the tokens whose non-empty span overlaps ``span``. ``tokens_covering((1, 3), [(1, 2), (0, 0), (2, 4)]) == [0, 2]``."""
    out = []
    for i, o in enumerate(offsets):
        if has_nonempty_span(o):
            p = _pair(o)
            if p is not None and _overlaps(span, p):
                out.append(i)
    return out


@dataclass(frozen=True)
class WordAlignment:
    """One word of the text and the tokens that cover it."""

    word: str
    span: tuple[int, int]
    tokens: list[int]
    number: int = -1  # the word's place among all the text's words


class SpanIndex:
    """The non-empty spans of a tokenization, ready to answer "which tokens overlap this span" quickly.

    ``SpanIndex([(1, 3), (0, 0), (3, 5)]).covering((2, 4)) == [0, 2]``
    """

    def __init__(self, offsets: Sequence[Sequence[int]]):
        self.offsets = offsets
        self.index: list[int] = []
        self.starts: list[int] = []
        self.stops: list[int] = []
        for i, o in enumerate(offsets):
            if has_nonempty_span(o):
                p = _pair(o)
                if p is not None:
                    self.index.append(i)
                    self.starts.append(p[0])
                    self.stops.append(p[1])
        self.in_order = all(a <= b for a, b in zip(self.starts, self.starts[1:])) and all(
            a <= b for a, b in zip(self.stops, self.stops[1:]))

    def covering(self, span: tuple[int, int]) -> list[int]:
        """Indices (in order) of the tokens whose non-empty span overlaps ``span``."""
        s, e = span
        if not self.in_order:
            return [i for i, a, b in zip(self.index, self.starts, self.stops) if a < e and s < b]
        lo, hi = bisect_right(self.stops, s), bisect_left(self.starts, e)
        return self.index[lo:hi] if lo < hi else []


def align_words(text: str, offsets: Sequence[Sequence[int]], *,
                within: tuple[int, int] | None = None) -> list[WordAlignment]:
    """Word-to-subword alignment by byte overlap (sentinels never take part); only words overlapping ``within``.

    ``[w.tokens for w in align_words("ab c", [(0, 0), (1, 2), (2, 3), (4, 5)])] == [[1, 2], [3]]``.
    """
    data = text.encode("utf-8", "surrogatepass")
    spans = SpanIndex(offsets)
    lo, hi = within if within is not None else (1, len(data) + 2)
    return [
        WordAlignment(data[s - 1 : e - 1].decode("utf-8", "surrogatepass"), (s, e), spans.covering((s, e)), n)
        for n, (s, e) in enumerate(word_spans(text))
        if s < hi and lo < e
    ]


def align_tokens(offsets_a: Sequence[Sequence[int]], offsets_b: Sequence[Sequence[int]]) -> list[tuple[int, int] | None]:
    """For each token i of A, the inclusive range ``(j, k)`` of B's tokens it overlaps, or ``None``.

    Both lists must point into the same text (use ``original_offsets`` across tokenizers).
    ``align_tokens([(1, 3), (3, 4)], [(1, 2), (2, 4)]) == [(0, 1), (1, 1)]``.
    """
    spans = SpanIndex(offsets_b)
    out: list[tuple[int, int] | None] = []
    for o in offsets_a:
        p = _pair(o) if has_nonempty_span(o) else None
        hits = spans.covering(p) if p is not None else []
        out.append((hits[0], hits[-1]) if hits else None)
    return out


def boundary_points(offsets: Sequence[Sequence[int]]) -> set[int]:
    """Every start and stop of non-empty spans. ``boundary_points([(1, 3), (3, 5), (0, 0)]) == {1, 3, 5}``."""
    points: set[int] = set()
    for o in offsets:
        if has_nonempty_span(o):
            s, e = _pair(o)  # type: ignore[misc]
            points.update((s, e))
    return points


def unshared_boundaries(mine: Sequence[Sequence[int]], others: Sequence[Sequence[Sequence[int]]]) -> set[int]:
    """Boundaries of ``mine`` that no other tokenization has. ``unshared_boundaries([(1, 2), (2, 3)], [[(1, 3)]]) == {2}``."""
    shared: set[int] = set()
    for other in others:
        shared |= boundary_points(other)
    return boundary_points(mine) - shared


@dataclass(frozen=True)
class Figures:
    """Summary figures of one tokenization of one text."""

    n_tokens: int
    n_chars: int
    n_bytes: int
    n_words: int
    chars_per_token: float
    bytes_per_token: float
    fertility: float  # tokens per word, counting only tokens with a non-empty span
    unknown_rate: float  # share of text tokens that are the unknown token


def figures(text: str, tokens: Sequence[str], offsets: Sequence[Sequence[int]], *, unk_token: str | None = None) -> Figures:
    """Token counts and ratios for the Compare page. ``figures("ab", ["a", "b"], [(1, 2), (2, 3)]).fertility == 2.0``."""
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8", "surrogatepass"))
    n_words = len(word_spans(text))
    spanning = [t for t, o in zip(tokens, offsets) if has_nonempty_span(o)]
    n = len(tokens)
    unknown = sum(1 for t in spanning if unk_token is not None and t == unk_token)
    return Figures(
        n_tokens=n,
        n_chars=n_chars,
        n_bytes=n_bytes,
        n_words=n_words,
        chars_per_token=n_chars / n if n else 0.0,
        bytes_per_token=n_bytes / n if n else 0.0,
        fertility=len(spanning) / n_words if n_words else 0.0,
        unknown_rate=unknown / len(spanning) if spanning else 0.0,
    )
