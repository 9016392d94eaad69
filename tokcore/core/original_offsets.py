"""``OriginalMapper``: byte spans of the tokenization text mapped back to contract spans of the raw input.

The normalizer's alignment says, per tokenization-text character, which raw characters it came
from; the mapper turns that into byte spans, staying byte-exact where a span cuts a character
that reached the view unchanged. An alignment that maps character i to character i with equal
UTF-8 lengths is recognized as the identity, which costs nothing per token.

``ShiftMapper`` gives the same spans without an alignment for a text that is a prefix plus the raw
text with one character replaced by another (HF's ``Prepend`` then ``Replace(" ", "▁")``,
sentencepiece's plain line), by arithmetic; given the tokens' ids and their raw lengths
(``tokcore.fast.views.RawLengths``), from the ids alone when the tokens cover the text end to end.

Left out: building the alignment (``tokcore.normalized``) and the contract helpers (``tokcore.offsets``).
"""

from __future__ import annotations

from itertools import accumulate, compress, count, islice, repeat
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


class ShiftMapper:
    """``OriginalMapper``'s spans for a view that is ``head`` bytes of prefix (aligned to nothing
    at the start) then the raw text with every ``old`` character replaced by ``new`` (each aligned
    to the character it replaced, all others unchanged), without the alignment.

    A view byte in the prefix maps to 0; after it, a byte moves back ``head`` plus the bytes the
    replacements before it added, so cuts inside unchanged characters stay byte-exact; a cut
    inside a replacement takes its raw character's start (span start) or end (span end), as
    ``OriginalMapper`` does for a changed character. ``ShiftMapper("a b", 3, " ", "\u2581")
    .map_all([(0, 4), (4, 8)])`` is ``[(1, 2), (2, 4)]`` (``"▁a"``, ``"▁b"`` of ``"▁a▁b"``).
    """

    identity = False
    __slots__ = ("by_ids", "head", "ids", "inside", "new", "old", "raw", "starts")

    def __init__(self, raw: str, head: int, old: str | None = None, new: str | None = None,
                 ids=None, lengths=None):
        self.head, self.raw, self.old, self.new = head, raw, old, new
        # ids: the token ids in step with the spans map_all will get, with ``lengths`` (token id ->
        # raw UTF-8 length, ``RawLengths``): map_all's spans then follow from the ids alone.
        self.ids, self.by_ids = ids, lengths
        self.starts = self.inside = _UNSET  # _tables: built only when a span needs them

    def _tables(self) -> None:
        raw, old, new, head = self.raw, self.old, self.new, self.head
        # starts: the 1-based raw position of every view byte as a span's start, or None when a view
        # byte past the prefix is a raw byte (nothing replaced, or ASCII by ASCII); inside: the raw
        # bytes a span's stop moves on by, the replaced character's length at a stop inside a
        # replacement (its bytes after the first), else 0.
        self.starts = self.inside = None
        if old is None or old not in raw:
            return
        shape = _SHAPES.get((old, new))
        if shape is None:
            shape = _SHAPES[(old, new)] = _shape_of(old, new)
        if shape is _SAME_BYTES:
            return
        marker, steps_table, at_start, at_stop = shape
        data = raw.encode("utf-8", "surrogatepass")
        if marker is not None:  # 0xFF is never in UTF-8: it marks each replaced character (self-synchronizing)
            data = data.replace(marker, b"\xff")
        # Raw bytes advanced per view byte: 1 per unchanged byte, 0 in the prefix and at a
        # replacement's bytes but its last, which advances by the replaced character's length.
        steps = data.translate(steps_table)
        pad = bytes(head)
        self.starts = list(accumulate(pad + steps.replace(b"\x02", at_start), initial=1))
        self.inside = pad + b"\x00" + steps.translate(_INSIDE_TABLE).replace(b"\x02", at_stop)

    def map(self, span: tuple[int, int]) -> tuple[int, int]:
        bs, be = span
        if self.starts is _UNSET:
            self._tables()
        if self.starts is None:
            start = max(bs - self.head, 0) + 1
            return (start, start) if be <= bs else (start, max(be - self.head, 0) + 1)
        start = self.starts[bs]
        return (start, start) if be <= bs else (start, self.starts[be] + self.inside[be])

    def map_all(self, spans: list) -> list:
        """``[self.map(s) for s in spans]`` (``None`` gives the sentinel), in C-level passes."""
        # Inserted special tokens (None) around the text's tokens (a template's) are sliced off.
        n = len(spans)
        lead = tail = 0
        while tail < n and spans[n - 1 - tail] is None:
            tail += 1
        if tail == n:
            return [SENTINEL] * n
        while spans[lead] is None:
            lead += 1
        if self.by_ids is not None:
            mapped = self._from_ids(spans, lead, n - tail)
            if mapped is not None:
                return mapped
        present = spans[lead:n - tail] if lead or tail else spans
        mapped = None
        if len(present) > 1:
            if self.starts is _UNSET:
                self._tables()
            mapped = self._common(present)
        if mapped is None:
            mapped = [SENTINEL if s is None else self.map(s) for s in present]
        if lead or tail:
            return [*repeat(SENTINEL, lead), *mapped, *repeat(SENTINEL, tail)]
        return mapped

    def _from_ids(self, spans: list, lead: int, stop: int) -> list | None:
        """``map_all`` when the text's tokens, ``spans[lead:stop]`` with the sentinel around them,
        start at the view's start (``None``: an inserted token among them, or not so), then as
        ``map_ids``."""
        if len(self.ids) != len(spans) or spans.count(None) != len(spans) - stop + lead or spans[lead][0] != 0:
            return None  # an inserted token among the text's
        return self.map_ids(lead, stop)

    def map_ids(self, lead: int, stop: int) -> list | None:
        """The contract spans of ``ids``, when the text's tokens ``ids[lead:stop]`` (inserted ones
        around them) each cover their own text end to end from the view's start (``None``: not
        so): a token's raw bytes are its view bytes less those its ``new`` characters add
        (``RawLengths``), and the prefix, one ``new`` at the view's start, maps to nothing. The
        first ``new`` then stands for the one raw byte before the text, so the 1-based stops are
        the running sums. A token whose text is not what it covers (a byte, the unknown token: no
        length) declines; so does a raw text holding ``new`` itself (2 bytes short per such
        ``new``) or missing a character (short too): the sums must end at the raw text's end.
        ``<s>``, ``"▁a"``, ``"▁b"`` of ``"a b"``: ``ShiftMapper("a b", 3, " ", "\u2581", [1, 7, 8],
        {1: None, 7: 2, 8: 2}).map_ids(1, 3) == [(0, 0), (1, 2), (2, 4)]``."""
        ids = self.ids
        n = len(ids)
        try:
            ends = list(accumulate(map(self.by_ids.__getitem__, islice(ids, lead, stop)), initial=0))
        except TypeError:  # a token without a length (None)
            return None
        raw = self.raw
        if ends[-1] != (len(raw) if raw.isascii() else len(raw.encode("utf-8", "surrogatepass"))) + 1:
            return None
        ends[0] = 1
        mapped = list(zip(ends, islice(ends, 1, None)))
        if lead:
            mapped[:0] = repeat(SENTINEL, lead)
        if stop < n:
            mapped += repeat(SENTINEL, n - stop)
        return mapped

    def _common(self, spans: list) -> list | None:
        """``map_all`` of two or more spans, each non-empty and none inside a replacement, in a few
        C calls (``None``: not so)."""
        try:
            begins = list(map(_FIRST, spans))
        except TypeError:  # an inserted token among the text's
            return None
        stops = list(map(_SECOND, spans))
        if any(map(le, stops, begins)):
            return None
        if self.starts is None:
            base, one = repeat(1 - self.head), repeat(1)
            return list(zip(map(max, map(add, begins, base), one), map(max, map(add, stops, base), one)))
        if any(itemgetter(*stops)(self.inside)):
            return None
        get = self.starts
        if begins[1:] == stops[:-1]:  # tokens end to end: each boundary looked up once
            ends = itemgetter(begins[0], *stops)(get)
            return list(zip(ends, ends[1:]))
        # The table rises with the byte: a span never comes out reversed.
        return list(zip(itemgetter(*begins)(get), itemgetter(*stops)(get)))


_UNSET = object()  # ShiftMapper's tables before _tables
_SAME_BYTES = object()  # _shape_of: nothing to map beyond the prefix
_SHAPES: dict = {}  # (old, new) -> _shape_of(old, new)
_INSIDE_TABLE = bytes(2 if b == 2 else 0 for b in range(256))  # steps -> 2 at a replaced character, else 0


def _shape_of(old: str, new: str):
    """What ``ShiftMapper`` needs to replace ``old`` by ``new``: the marker of a multi-byte ``old``
    (``None`` for one byte), the table giving 2 at a replaced byte and 1 elsewhere, the steps a
    replacement stands for in the start table and in the inside table; ``_SAME_BYTES`` when
    ASCII replaces ASCII. ``_shape_of(" ", "\u2581")[2:] == (b"\\x00\\x00\\x01", b"\\x01\\x01\\x00")``."""
    if old == new or (old.isascii() and new.isascii()):
        return _SAME_BYTES
    o, n = old.encode("utf-8", "surrogatepass"), new.encode("utf-8", "surrogatepass")
    mark = o[0] if len(o) == 1 else 0xFF
    table = bytes(2 if b == mark else 1 for b in range(256))
    return (None if len(o) == 1 else o), table, bytes(len(n) - 1) + bytes((len(o),)), bytes((len(o),)) * (len(n) - 1) + b"\x00"
