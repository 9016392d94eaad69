"""``OriginalMapper``: byte spans of the tokenization text mapped back to contract spans of the raw input.

The normalizer's alignment says, per tokenization-text character, which raw characters it came
from; the mapper turns that into byte spans, staying byte-exact where a span cuts a character
that reached the view unchanged. An alignment that maps character i to character i with equal
UTF-8 lengths is recognized as the identity, which costs nothing per token.

Left out: building the alignment (``tokcore.normalized``) and the contract helpers (``tokcore.offsets``).
"""

from __future__ import annotations

from itertools import compress, count, repeat
from operator import add, is_, itemgetter, le, sub

from .normalized import NormalizedString
from .offsets import SENTINEL, char_to_byte_table


class _AsciiBytes:
    """``byte_to_char`` of an ASCII view: byte ``b`` is character ``b`` (``get`` as on a dict)."""

    @staticmethod
    def get(b: int, default=None):
        return b


_ASCII_BYTES = _AsciiBytes()
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


class OriginalMapper:
    """Maps 0-based byte spans of the tokenization text to contract spans of the raw input."""

    def __init__(self, ns: NormalizedString, *, fast: bool = True):
        self.ns = ns
        self.identity = ns.is_identity
        if not self.identity:
            view, raw = ns.normalized, ns.original
            self.starts, self.ends = ns._bounds()
            n = len(view)
            if fast and len(raw) == n and self.starts == list(range(n)) and self.ends == list(range(1, n + 1)):
                # Character i came from character i: byte-identical when every character kept its
                # UTF-8 length (always so for ASCII on both sides) and no changed character has
                # more than one byte (a span cutting a changed character covers all of it).
                if (view.isascii() and raw.isascii()) or (
                        char_to_byte_table(view) == char_to_byte_table(raw)
                        and all(a < "\x80" for a, b in zip(view, raw) if a != b)):
                    self.identity = True
                    return
            self.view_table = char_to_byte_table(view)
            self.raw_table = range(len(raw) + 1) if raw.isascii() else char_to_byte_table(raw)
            # An ASCII view's bytes are its characters: no table to build (a document's worth).
            self.byte_to_char = _ASCII_BYTES if view.isascii() else dict(zip(self.view_table, count()))

    def _char_floor(self, b: int) -> tuple[int, int]:
        """(character index containing byte ``b``, bytes into that character)."""
        from bisect import bisect_right

        i = self.byte_to_char.get(b)
        if i is not None:
            return i, 0
        i = bisect_right(self.view_table, b) - 1
        return i, b - self.view_table[i]

    def _raw_byte(self, view_char: int, into: int, *, at_end: bool) -> int:
        ns = self.ns
        if into:
            # Cut inside a character: stay byte-exact when that character reached the view unchanged.
            s, e = ns.original_span(view_char, view_char + 1)
            if e - s == 1 and ns.original[s] == ns.normalized[view_char]:
                return self.raw_table[s] + into
            return self.raw_table[e if at_end else s]
        return self.raw_table[ns.original_position(view_char)]

    def map_all(self, spans: list) -> list:
        """``[self.map(s) for s in spans]`` (``None`` gives the sentinel), with the common case inline:
        both ends on character boundaries, where ``map``'s rules reduce to two table lookups."""
        if self.identity:
            return [SENTINEL if s is None else (s[0] + 1, s[1] + 1) for s in spans]
        # Inserted special tokens (None) aside, the common case maps the rest in one pass.
        present = spans if None not in spans else [s for s in spans if s is not None]
        mapped = self._map_on_boundaries(present) if present else None
        if mapped is not None:
            if present is spans:
                return mapped
            for i in compress(count(), map(is_, spans, repeat(None))):  # ascending: each lands in place
                mapped.insert(i, SENTINEL)
            return mapped
        get, starts, ends, raw = self.byte_to_char.get, self.starts, self.ends, self.raw_table
        out = []
        for span in spans:
            if span is None:
                out.append(SENTINEL)
                continue
            bs, be = span
            if be > bs:
                cs, ce = get(bs), get(be)
                if cs is not None and ce is not None:
                    start, stop = raw[starts[cs]], raw[ends[ce - 1]]
                    out.append((start + 1, (max(start, stop)) + 1))
                    continue
            out.append(self.map(span))
        return out

    def _map_on_boundaries(self, spans: list) -> list | None:
        """``map_all``'s common case for a whole list in C-level passes: every span non-empty,
        both ends on character boundaries (else ``None``)."""
        begins = list(map(_FIRST, spans))
        stops = list(map(_SECOND, spans))
        if any(map(le, stops, begins)):
            return None
        if self.byte_to_char is _ASCII_BYTES:
            first_chars, end_chars = begins, stops
        else:
            get = self.byte_to_char.get
            first_chars, end_chars = list(map(get, begins)), list(map(get, stops))
            if None in first_chars or None in end_chars:
                return None
        raw = self.raw_table.__getitem__
        start = list(map(raw, map(self.starts.__getitem__, first_chars)))
        stop = map(raw, map(self.ends.__getitem__, map(sub, end_chars, repeat(1))))
        return list(zip(map(add, start, repeat(1)), map(add, map(max, start, stop), repeat(1))))

    def map(self, span: tuple[int, int]) -> tuple[int, int]:
        if self.identity:
            return (span[0] + 1, span[1] + 1)
        bs, be = span
        cs, into_s = self._char_floor(bs)
        ce, into_e = self._char_floor(be)
        if be <= bs:
            pos = self._raw_byte(cs, into_s, at_end=False)
            return (pos + 1, pos + 1)
        ns = self.ns
        if into_s:
            start = self._raw_byte(cs, into_s, at_end=False)
        else:
            start = self.raw_table[ns.original_span(cs, cs + 1)[0]]
        if into_e:
            stop = self._raw_byte(ce, into_e, at_end=True)
        else:
            stop = self.raw_table[ns.original_span(ce - 1, ce)[1]]
        return (start + 1, max(start, stop) + 1)
