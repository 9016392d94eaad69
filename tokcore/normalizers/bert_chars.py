"""BertNormalizer one character at a time: its text, and its alignment as arithmetic on byte lengths.

Each step of ``BertNormalizer`` (clean_text, the spaces around CJK characters, NFD with its Mn
marks dropped, lower-casing) rewrites every character on its own, save for NFD's reordering
of marks (and the long runs of marks ``unicode_pieces`` keeps whole); reordered marks that are
all Mn, which strip_accents drops, leave no trace. A text that needs none of the rest is
normalized as the concatenation of what the normalizer makes of each of its characters alone,
and every view character made from a raw character aligns to that whole
character (``NormalizedString.rebuild``'s rules; the CJK spaces are inserted text, aligned to
nothing). ``BertText`` keeps, per code point met, the normalizer's own result for the
character alone, so a text's view is one ``str.translate``, and its ``mapper`` turns view byte
offsets into raw ones through the running sums of the characters' byte lengths.

Left out: the views of other normalizers (``tokcore.fast.views``); the whole-text alignment
(``tokcore.core.normalized``), which the mapper asks for when a span does not start and end
at the view's characters that came from raw ones.
"""

from __future__ import annotations

import copy
import unicodedata
from itertools import accumulate, compress, count, islice, repeat
from operator import is_, itemgetter

import regex

from ..core.normalized import NormalizedString
from ..core.offsets import SENTINEL
from ..core.original_offsets import OriginalMapper
from ..text.unicode_tables import is_nonspacing_mark, lower
from .standard import _CJK, BertNormalizer, bert_clean_text
from .unicode_pieces import _LONG_MARK_RUN, _PER_CHAR, TABLE_CAPACITY

_FIRST, _SECOND = itemgetter(0), itemgetter(1)
# A character that is no mark and the marks after it (or marks at the text's start): NFD's segments
# start at every character that is no mark (test_bert_chars_alone), so one never crosses a unit.
_UNIT = regex.compile(r"\P{M}?\p{M}+")
_UNSEEN = object()  # BertText.units: a unit not met yet
_NFD = _PER_CHAR["NFD"]  # code point -> its NFD alone (unicode_pieces.decomposed_pieces' table)
# A character whose NFD alone does not start with a starter (canonical combining class 0), or is not
# unicodedata's, is a mark (M*) to this pattern: test_bert_chars_alone checks every code point.
_MARK = regex.compile(r"\p{M}")
# A part of a character's normalization is coded as one character: raw bytes + 5 * view bytes
# (_RAW_LEN, _VIEW_LEN and _KEPT read the codes, as bytes); _ALONE: not one part of the character.
_ALONE = "\xff"
_WIDEST = 50  # view bytes a code can tell (_ALONE past it)
_RAW_LEN = bytes(c % 5 for c in range(256))
_VIEW_LEN = bytes(c // 5 for c in range(256))
_KEPT = bytes(int(c % 5 > 0 and 5 <= c < 255) for c in range(256))  # a raw character that is in the view


class _FactTable(dict):
    """``str.translate`` table: code point -> field ``field`` of ``facts(cp)``, filled on first sight."""

    __slots__ = ("facts", "field")

    def __init__(self, facts, field: int):
        super().__init__()
        self.facts, self.field = facts, field

    def __missing__(self, cp: int) -> str:
        return self.facts(cp)[self.field]


class BertText:
    """``BertNormalizer``'s text of a text that it rewrites character by character (else ``None``),
    from the normalizer's own result for each character alone (kept per code point, per object:
    a fresh tokenizer starts empty). ``BertText(BertNormalizer())("Héllo 中") == "hello  中 "``.
    """

    __slots__ = ("cleaned", "codes", "normalizer", "strips", "text_of", "units")

    def __init__(self, normalizer: BertNormalizer):
        if type(normalizer) is not BertNormalizer:
            raise TypeError(f"BertText reads a BertNormalizer's options, got {type(normalizer).__name__}")
        # The normalizer as it is now: results read later map their offsets as they were encoded.
        self.normalizer = copy.deepcopy(normalizer)
        self.strips = normalizer.lowercase if normalizer.strip_accents is None else normalizer.strip_accents
        # Per code point: the text of the character alone, and the codes of its parts (the raw
        # character's own, or a CJK space inserted before or after it, of no raw bytes).
        self.text_of, self.codes = (_FactTable(self._facts, k) for k in range(2))
        self.cleaned = _FactTable(self._cleaned, 0)  # clean_text alone (to check NFD on)
        self.units: dict = {}  # a character and its marks -> their positions alone (_unit_positions)

    def _facts(self, cp: int) -> tuple[str, str]:
        c = chr(cp)
        if _kept_alone(self.normalizer, self.strips, c):  # most characters: no step touches it
            width = len(c.encode("utf-8", "surrogatepass"))
            facts = (c, chr(6 * width))  # its own part: width raw bytes, width view bytes
        else:
            ns = self.normalizer.normalize(NormalizedString(c))
            facts = (ns.normalized, _parts(ns))
        if len(self.text_of) < TABLE_CAPACITY:  # text running through all of Unicode keeps no table of it
            self.text_of[cp], self.codes[cp] = facts
        return facts

    def _nfd_source(self, raw: str) -> str:
        """The text NFD reads: ``raw`` as clean_text leaves it (``raw`` itself when it drops nothing)."""
        if self.normalizer.clean_text and (not raw.isprintable() or "\ufffd" in raw):
            return raw.translate(self.cleaned)
        return raw

    def _cleaned(self, cp: int) -> tuple[str]:
        out = (bert_clean_text(NormalizedString(chr(cp))).normalized,)
        if len(self.cleaned) < TABLE_CAPACITY:
            self.cleaned[cp] = out[0]
        return out

    def __call__(self, raw: str) -> str | None:
        if self.strips and not raw.isascii():
            # NFD runs after clean_text (which may join marks by dropping what stood between them);
            # the CJK spaces only part them. Each character's NFD in turn must be the text's NFD: it
            # is when no character is a mark (_MARK: every other one's NFD is a starter first).
            source = self._nfd_source(raw)
            # Marks out of canonical order (Vietnamese written with combining tones) are fine when
            # every one NFD could move is an Mn mark: all are dropped, in whatever order.
            if not unicodedata.is_normalized("NFD", source) and _MARK.search(source) is not None:
                decomposed = source.translate(_NFD)
                if _LONG_MARK_RUN.search(source) or (not unicodedata.is_normalized("NFD", decomposed)
                                                     and not _reordered_marks_dropped(decomposed)):
                    return None
        return raw.translate(self.text_of)

    def mapper(self, raw: str) -> BertMapper | None:
        """The mapper of this view of ``raw`` (a text ``__call__`` gave a view of), or ``None`` when
        a character's normalization is not in one part (the normalizer's alignment then)."""
        codes = raw.translate(self.codes).encode("latin-1")
        if 255 in codes:
            return None
        # Contract position (1-based) of the raw byte at each part's start, by its view byte.
        view_at = accumulate(codes.translate(_VIEW_LEN), initial=0)
        raw_at = accumulate(codes.translate(_RAW_LEN), initial=1)
        kept = codes.translate(_KEPT)
        if 0 not in kept:  # every part is a raw character, none dropped: one pass, no lists
            starts = stops = dict(zip(view_at, raw_at))
        else:
            view_at, raw_at = list(view_at), list(raw_at)
            # Only parts that are raw characters kept: dropped characters and inserted spaces give
            # no position (a span starting or ending there takes the normalizer's alignment).
            starts = dict(zip(compress(view_at, kept), compress(raw_at, kept)))
            stops = dict(zip(compress(islice(view_at, 1, None), kept), compress(islice(raw_at, 1, None), kept)))
            # Marks to reorder: a mark in the text (every other character's NFD starts with a
            # starter) and each character's NFD in turn not the text's, once clean_text has dropped
            # what it drops (a control between marks joins them, as __call__ reads it).
            if self.strips and _MARK.search(raw) is not None:
                source = self._nfd_source(raw)
                if not unicodedata.is_normalized("NFD", source) and not unicodedata.is_normalized("NFD", source.translate(_NFD)):
                    # A dropped control can join marks across it: no units by the raw text alone.
                    if source is not raw or not self._reordered(raw, starts, stops):
                        return None
        return BertMapper(starts, stops, self.normalizer, raw, self)

    def _reordered(self, raw: str, starts: dict, stops: dict) -> bool:
        """Put right the positions of ``raw``'s characters whose marks NFD reorders (``__call__``
        lets a text through when all those marks are dropped): NFD rewrites such a character and
        its marks as a unit, and what is kept of it aligns to the whole unit. Each unit (a character
        that is no mark and the marks after it: NFD's segments never cross it) is normalized alone
        by the normalizer (kept per unit text: ``_unit_positions``), its positions put into
        ``starts``/``stops``. ``False`` when a unit's are not known (the whole text's alignment then).
        ``raw`` has nothing clean_text drops (``mapper`` sees to it)."""
        text_of, units = self.text_of, self.units
        view_byte = raw_byte = at = 0
        for unit in _UNIT.finditer(raw):
            chars = unit.group()
            found = units.get(chars, _UNSEEN)
            if found is _UNSEEN:
                found = self._unit_positions(chars)
            if found is None:
                continue  # its characters' NFDs in turn are already in order: aligned as they are alone
            if found is False:
                return False
            a = unit.start()
            view_byte += len(raw[at:a].translate(text_of).encode("utf-8", "surrogatepass"))
            raw_byte += len(raw[at:a].encode("utf-8", "surrogatepass"))
            at = a
            for view_start, raw_start, view_stop, raw_stop in found:
                starts[view_byte + view_start] = raw_byte + raw_start
                stops[view_byte + view_stop] = raw_byte + raw_stop
        return True

    def _unit_positions(self, chars: str):
        """``(view start, raw start, view stop, raw stop)`` per view character of the unit ``chars``
        normalized alone (bytes from the unit's start; raw ones as contract positions, from 1);
        ``None`` when its marks need no reordering, ``False`` when its text is not the view's or it
        holds inserted text. ``BertText(BertNormalizer())._unit_positions("\u00ea\u0323") == ((0, 1, 1, 5),)``."""
        found: tuple | bool | None = None
        if not unicodedata.is_normalized("NFD", chars.translate(_NFD)):
            ns = self.normalizer.normalize(NormalizedString(chars))
            found = False
            if ns.normalized == chars.translate(self.text_of):
                raw_table = list(accumulate(map(_utf8_len, chars), initial=1))
                view_table = list(accumulate(map(_utf8_len, ns.normalized), initial=0))
                spans = ns.alignments()
                if all(x < y for x, y in spans):  # no inserted text inside the unit
                    found = tuple((view_table[k], raw_table[x], view_table[k + 1], raw_table[y])
                                  for k, (x, y) in enumerate(spans))
        if len(self.units) < TABLE_CAPACITY:
            self.units[chars] = found
        return found


def _utf8_len(c: str) -> int:
    return len(c.encode("utf-8", "surrogatepass"))


def _reordered_marks_dropped(decomposed: str) -> bool:
    """Whether every character of ``decomposed`` that NFD may reorder (combining class above 0) is
    an Mn mark, which strip_accents drops: the order NFD gives them then leaves no trace, and the
    characters kept (starters, which NFD never moves) align as they do alone.
    ``_reordered_marks_dropped("o\\u0301\\u0323")`` and not ``_reordered_marks_dropped("a\\u0301\\U0001d16d")``."""
    return all(map(is_nonspacing_mark, filter(unicodedata.combining, frozenset(decomposed))))


def _kept_alone(normalizer: BertNormalizer, strips: bool, c: str) -> bool:
    """Whether each step of ``normalizer`` leaves the character ``c`` alone as it is, by the steps' own
    first tests: clean_text (printable and not U+FFFD; a printable space is " ", which it keeps), the
    CJK step, NFD (already NFD) and its Mn marks dropped (``strips``), lower-casing.
    ``_kept_alone(BertNormalizer(), True, "ж")`` and not ``_kept_alone(BertNormalizer(), True, "Ж")``."""
    return not ((normalizer.clean_text and (not c.isprintable() or c == "\ufffd"))
                or (normalizer.handle_chinese_chars and _CJK.match(c) is not None)
                or (strips and (not unicodedata.is_normalized("NFD", c) or is_nonspacing_mark(c)))
                or (normalizer.lowercase and lower(c) != c))


def _parts(ns: NormalizedString) -> str:
    """The codes of the parts of one character's normalization ``ns`` (raw bytes + 5 * view bytes):
    runs of view characters with the same alignment (the character, or an inserted space), or
    the dropped character alone; ``_ALONE`` for a normalization that is not one part of the
    character between inserted ones. ``_parts(BertNormalizer().normalize(NormalizedString("中")))
    == chr(5) + chr(3 + 15) + chr(5)``."""
    width = len(ns.original.encode("utf-8", "surrogatepass"))
    if not ns.normalized:
        return chr(width)
    spans = ns.alignments()
    if spans.count((0, 1)) == len(spans):  # the character's own part alone (most characters)
        n = len(ns.normalized.encode("utf-8", "surrogatepass"))
        return chr(width + 5 * n) if n <= _WIDEST else _ALONE
    runs: list[list] = []
    for ch, span in zip(ns.normalized, spans):
        if runs and runs[-1][0] == span:
            runs[-1][1] += ch
        else:
            runs.append([span, ch])
    sources = [span for span, _ in runs]
    lens = [len(text.encode("utf-8", "surrogatepass")) for _, text in runs]
    if sources.count((0, 1)) != 1 or not set(sources) <= {(0, 0), (0, 1), (1, 1)} or max(lens) > _WIDEST:
        return _ALONE
    return "".join(chr((width if span == (0, 1) else 0) + 5 * n) for span, n in zip(sources, lens))


class BertMapper:
    """Maps 0-based byte spans of a ``BertText`` view to contract spans of the raw text: a span that
    starts at a raw character's first view byte and ends after its last one's (``starts``,
    ``stops``: view byte -> contract position) maps through them; so does one that starts or
    ends between the view characters of one raw character's own part (Hangul jamo, an expansion
    such as ``ﬁ``), to that whole character, found when such a span is first met (``text``: the
    ``BertText``). Any other list takes the normalizer's alignment (``OriginalMapper``), which
    gives the same on those spans.
    ``BertMapper({0: 1, 1: 3}, {1: 3, 2: 4}, None, "éa").map_all([(0, 1), None]) == [(1, 3), (0, 0)]``."""

    identity = False
    __slots__ = ("inner", "normalizer", "raw", "starts", "stops", "text")

    def __init__(self, starts: dict, stops: dict, normalizer, raw: str, text: BertText | None = None):
        self.starts, self.stops, self.normalizer, self.raw, self.text = starts, stops, normalizer, raw, text
        self.inner = False  # positions between one character's view characters added (_add_inner)

    def map_all(self, spans) -> list:
        """``[self.map(s) for s in spans]`` (``None`` gives the sentinel), in C-level passes."""
        present = spans if None not in spans else [s for s in spans if s is not None]
        begins = list(map(self.starts.get, map(_FIRST, present)))
        ends = list(map(self.stops.get, map(_SECOND, present)))
        if None in begins or None in ends:
            if self._add_inner():
                begins = list(map(self.starts.get, map(_FIRST, present)))
                ends = list(map(self.stops.get, map(_SECOND, present)))
            if None in begins or None in ends:
                return OriginalMapper(self.normalizer.normalize(NormalizedString(self.raw))).map_all(spans)
        # An empty or reversed span keeps its start, as OriginalMapper's. Between one character's
        # view characters a stop maps past the start: such a span is told by its own positions.
        if self.inner:
            mapped = [(b, b if span[1] <= span[0] else max(b, e)) for span, b, e in zip(present, begins, ends)]
        else:
            mapped = list(zip(begins, map(max, begins, ends)))
        if present is not spans:
            for i in compress(count(), map(is_, spans, repeat(None))):  # ascending: each lands in place
                mapped.insert(i, SENTINEL)
        return mapped

    def _add_inner(self) -> bool:
        """Add the positions between the view characters of each raw character whose normalization
        is its own part alone and more than one character: as a start, the character's start; as
        a stop, its stop (each view character aligns to the whole raw one). ``False`` when there is
        nothing to add (or no ``BertText``): once per mapper."""
        text, self.text = self.text, None
        if text is None:
            return False
        if self.starts is self.stops:
            self.stops = dict(self.stops)
        starts, stops, codes, text_of = self.starts, self.stops, text.codes, text.text_of
        view = added = 0
        at = 1  # contract position of the character's first raw byte
        for ch in self.raw:
            own, code, width = text_of[ord(ch)], codes[ord(ch)], _utf8_len(ch)
            if len(own) > 1 and len(code) == 1 and _KEPT[ord(code)]:
                inner = view
                for part in own[:-1]:
                    inner += _utf8_len(part)
                    starts[inner], stops[inner] = at, at + width
                    added += 1
            view += _utf8_len(own)
            at += width
        self.inner = added > 0
        return self.inner

    def map(self, span: tuple[int, int]) -> tuple[int, int]:
        return self.map_all([span])[0]
