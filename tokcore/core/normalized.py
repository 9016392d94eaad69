"""A normalized string that remembers, for every character, where it came from in the original.

Normalizers never edit text in place: they describe the new text as a list of
``(new_text, src_start, src_stop)`` pieces over the current characters and ``rebuild``
derives the alignment. So every normalizer's alignment is right by construction.

Alignment rule (``rebuild``): a piece whose new text has as many characters as its source
maps character to character; any other piece maps every new character to the whole source
span; an insertion (empty source) maps to an empty span at its position; a deletion simply
drops the source characters.

Left out: byte offsets (``tokcore.tokenizer`` converts at the very end) and anything that
splits the text into words (pre-tokenizers do that).
"""

from __future__ import annotations

from typing import Iterable, Sequence


class NormalizedString:
    """``normalized`` text plus, per character, the 0-based character span ``[start, stop)`` in ``original``.

    ``starts``/``ends`` are ``None`` while the text is untouched (identity alignment), which keeps
    the common case free.
    """

    __slots__ = ("original", "normalized", "_starts", "_ends")

    def __init__(
        self,
        original: str,
        normalized: str | None = None,
        starts: list[int] | None = None,
        ends: list[int] | None = None,
    ):
        self.original = original
        self.normalized = original if normalized is None else normalized
        if (starts is None) != (ends is None):
            raise ValueError("give both starts and ends, or neither")
        if starts is not None and not (len(starts) == len(ends) == len(self.normalized)):  # type: ignore[arg-type]
            raise ValueError("alignment must have one entry per normalized character")
        self._starts = starts
        self._ends = ends

    # -- inspection ---------------------------------------------------------------------------
    @property
    def is_identity(self) -> bool:
        return self._starts is None

    def __len__(self) -> int:
        return len(self.normalized)

    def __repr__(self) -> str:
        return f"NormalizedString(original={self.original!r}, normalized={self.normalized!r})"

    def alignments(self) -> list[tuple[int, int]]:
        """Per normalized character, its original character span. ``NormalizedString("ab").alignments() == [(0, 1), (1, 2)]``."""
        if self._starts is None:
            return [(i, i + 1) for i in range(len(self.normalized))]
        return list(zip(self._starts, self._ends))  # type: ignore[arg-type]

    def _bounds(self) -> tuple[list[int], list[int]]:
        if self._starts is None:
            n = len(self.normalized)
            return list(range(n)), list(range(1, n + 1))
        return self._starts, self._ends  # type: ignore[return-value]

    def original_span(self, start: int, stop: int) -> tuple[int, int]:
        """Original character span of normalized characters ``[start, stop)``.

        ``NormalizedString("ab").original_span(1, 2) == (1, 2)``. An empty span maps to an empty
        span at the matching original position.
        """
        if self._starts is None:
            return (start, stop)
        if stop > start:
            return (self._starts[start], max(self._ends[start:stop]))  # type: ignore[index]
        return (self.original_position(start),) * 2  # type: ignore[return-value]

    def original_position(self, index: int) -> int:
        """Original character index matching the boundary before normalized character ``index``."""
        if self._starts is None:
            return index
        n = len(self.normalized)
        if index < n:
            return self._starts[index]
        if n:
            return self._ends[n - 1]  # type: ignore[index]
        return 0 if not self.original else len(self.original) if index > 0 else 0

    # -- building -----------------------------------------------------------------------------
    def rebuild(self, pieces: Iterable[tuple[str, int, int]]) -> "NormalizedString":
        """A new string made of ``(new_text, src_start, src_stop)`` pieces over the current characters.

        Pieces must cover ``[0, len)`` in order without gaps (an uncovered character would be
        silently dropped otherwise). ``NormalizedString("Ab").rebuild([("a", 0, 1), ("b", 1, 2)]).normalized == "ab"``.
        """
        old_starts, old_ends = self._bounds()
        n_old = len(self.normalized)
        starts: list[int] = []
        ends: list[int] = []
        out: list[str] = []
        expected = 0
        for new_text, s, e in pieces:
            if s != expected or e < s or e > n_old:
                raise ValueError(f"rebuild pieces must cover the text in order: got ({s}, {e}) after {expected}")
            expected = e
            if not new_text:
                continue
            out.append(new_text)
            k = len(new_text)
            if k == e - s:
                starts.extend(old_starts[s:e])
                ends.extend(old_ends[s:e])
            elif e > s:
                lo, hi = old_starts[s], max(old_ends[s:e])
                starts.extend([lo] * k)
                ends.extend([hi] * k)
            else:
                pos = self.original_position(s)
                starts.extend([pos] * k)
                ends.extend([pos] * k)
        if expected != n_old:
            raise ValueError(f"rebuild pieces stop at {expected} but the text has {n_old} characters")
        return NormalizedString(self.original, "".join(out), starts, ends)

    def map_chars(self, fn) -> "NormalizedString":
        """Replace each character ``c`` by ``fn(c)`` (``""`` deletes it). Unchanged runs stay cheap.

        ``NormalizedString("Ab").map_chars(str.lower).normalized == "ab"``.
        """
        text = self.normalized
        pieces = []
        changed = False
        run_start = 0
        for i, ch in enumerate(text):
            new = fn(ch)
            if new != ch:
                changed = True
                if run_start < i:
                    pieces.append((text[run_start:i], run_start, i))
                pieces.append((new, i, i + 1))
                run_start = i + 1
        if not changed:
            return self
        if run_start < len(text):
            pieces.append((text[run_start:], run_start, len(text)))
        return self.rebuild(pieces)

    @staticmethod
    def concat(parts: Sequence["NormalizedString"]) -> "NormalizedString":
        """Join normalized strings whose originals are consecutive slices of one text.

        ``NormalizedString.concat([NormalizedString("a"), NormalizedString("b")]).original == "ab"``.
        """
        if all(p.is_identity for p in parts):
            return NormalizedString("".join(p.original for p in parts))
        starts: list[int] = []
        ends: list[int] = []
        shift = 0
        for p in parts:
            s, e = p._bounds()
            if shift:
                starts.extend(x + shift for x in s)
                ends.extend(x + shift for x in e)
            else:
                starts.extend(s)
                ends.extend(e)
            shift += len(p.original)
        return NormalizedString(
            "".join(p.original for p in parts), "".join(p.normalized for p in parts), starts, ends
        )
