"""Unicode normalization (NFC, NFD, NFKC, NFKD) as HF tokenizers does it, with an exact alignment.

``normalize_pieces(form, text)`` describes the normalized text as ``(new_text, start, stop)``
pieces over ``text``. The text is cut into independent segments: a boundary is allowed before a
character whose decomposition starts with a starter (combining class 0) that never composes with
what precedes it (so Hangul jamo V/T and vowel signs such as U+0B3E stay with their base). Each
segment is normalized alone and, where a prefix normalizes on its own, split finer. The pieces
are checked against normalizing the whole text; should they ever disagree, coarser segments are
used (cuts before characters below U+0300 only, then none).

HF's normalizer uses Unicode 9.0 data: characters whose decomposition, combining class or
composition came later (``unicode_tables.NORM_INERT``) are kept as inert starters, as HF does.

``rebuild_whole(ns, pieces)`` applies pieces so that a multi-character source rewritten as a unit
(a composition, a reordering) maps every new character to the whole source span.

Left out: the normalizer classes (``tokcore.normalizers``).
"""

from __future__ import annotations

import re
import unicodedata

import regex

from ..core.normalized import NormalizedString
from ..text.unicode_tables import NORM_INERT, parse_ranges

FORMS = ("NFC", "NFD", "NFKC", "NFKD")
_DECOMPOSE = {"NFC": "NFD", "NFD": "NFD", "NFKC": "NFKD", "NFKD": "NFKD"}
_REFINE_LIMIT = 32  # longer segments (stacks of marks) stay one piece: refining is quadratic

# Characters that can be the second half of a canonical composition (NFC_QC=Maybe and kin): a cut
# before them would separate them from the starter they fuse with. Hangul V and T jamo compose by
# rule. Derived from unicodedata (the test recomputes it); if a newer Unicode adds members, the
# check against whole-text normalization falls back to coarser segments.
COMPOSES_BACKWARD = parse_ranges("""
300-304 306-30C 30F 311 313-314 31B 323-328 32D-32E 330-331 338 342 345 5B4 5B7-5B9 5BC 5BF 5C1-5C2
653-655 93C 9BC 9BE 9D7 A3C B3C B3E B56-B57 BBE BD7 C56 CC2 CD5-CD6 D3E D57 DCA DCF DDF F72 F74 F80 FB5
FB7 102E 1161-1175 11A8-11C2 1B35 3099-309A 110BA 11127 1133E 11357 114B0 114BA 114BD 115AF 11930 1D165
1D16E-1D172
""")
_cuts_before: dict[str, dict[str, bool]] = {form: {} for form in FORMS}


def cuts_before(ch: str, form: str) -> bool:
    """Whether a segment may start at ``ch`` under ``form``. ``cuts_before("e", "NFC") and not cuts_before("\\u0301", "NFC")``."""
    if ch < "\u0300" or ch in NORM_INERT:
        return True
    cache = _cuts_before[form]
    hit = cache.get(ch)
    if hit is None:
        first = unicodedata.normalize(_DECOMPOSE[form], ch)[0]
        hit = unicodedata.combining(first) == 0
        if hit and form in ("NFC", "NFKC"):
            hit = first not in COMPOSES_BACKWARD
        cache[ch] = hit
    return hit


def _norm(form: str, segment: str) -> str:
    # One segment never mixes an inert character with others, so this is HF's result.
    if len(segment) == 1 and segment in NORM_INERT:
        return segment
    return unicodedata.normalize(form, segment)


def _segments(text: str, form: str, fine: bool) -> list[tuple[int, int]]:
    cuts = [0]
    prev_inert = text[0] in NORM_INERT
    for i in range(1, len(text)):
        ch = text[i]
        inert = ch in NORM_INERT
        if inert or prev_inert or (cuts_before(ch, form) if fine else ch < "\u0300"):
            cuts.append(i)
        prev_inert = inert
    cuts.append(len(text))
    return list(zip(cuts, cuts[1:]))


def _refine(form: str, text: str, start: int, stop: int, out: str) -> list[tuple[str, int, int]]:
    # Greedy: cut after the shortest prefix that normalizes on its own into a prefix of ``out``.
    pieces = []
    p = start
    if stop - start <= _REFINE_LIMIT:
        while p < stop:
            for j in range(p + 1, stop):
                head = _norm(form, text[p:j])
                if out.startswith(head) and _norm(form, text[j:stop]) == out[len(head):]:
                    pieces.append((head, p, j))
                    out = out[len(head):]
                    p = j
                    break
            else:
                break
    if p < stop:
        pieces.append((out, p, stop))
    return pieces


def _expected(form: str, text: str) -> str:
    # HF's result for the whole text: inert characters kept, everything between them normalized.
    if NORM_INERT.isdisjoint(text):
        return unicodedata.normalize(form, text)
    return "".join(_norm(form, part) for part in _split_inert(text))


def _split_inert(text: str) -> list[str]:
    parts, run = [], []
    for ch in text:
        if ch in NORM_INERT:
            if run:
                parts.append("".join(run))
                run = []
            parts.append(ch)
        else:
            run.append(ch)
    if run:
        parts.append("".join(run))
    return parts


def normalize_pieces(form: str, text: str, chunks: dict | None = None) -> list[tuple[str, int, int]] | None:
    """Pieces ``(new_text, start, stop)`` turning ``text`` into its ``form``, or ``None`` if unchanged.

    ``normalize_pieces("NFC", "e\\u0301!") == [("é", 0, 2), ("!", 2, 3)]``.
    """
    if form not in _DECOMPOSE:
        raise ValueError(f"unknown normalization form {form!r}; use one of {', '.join(FORMS)}")
    if text.isascii() or unicodedata.is_normalized(form, text):
        return None
    if form in _PER_CHAR:
        pieces = decomposed_pieces(form, text)
        if pieces is not None:
            return pieces
    return word_pieces(form, text, chunks)


class _Decomposed(dict):
    """``str.translate`` table: code point -> its ``form`` decomposition alone, filled on first sight."""

    def __init__(self, form: str):
        super().__init__()
        self.form = form

    def __missing__(self, cp: int) -> str:
        out = _norm(self.form, chr(cp))
        if len(self) < TABLE_CAPACITY:  # text running through all of Unicode keeps no table of it
            self[cp] = out
        return out


class _Changed(dict):
    """``str.translate`` table: code point -> ``"1"`` when its decomposition differs from it, else ``"0"``."""

    def __init__(self, decomposed: _Decomposed):
        super().__init__()
        self.decomposed = decomposed

    def __missing__(self, cp: int) -> str:
        out = "1" if self.decomposed[cp] != chr(cp) else "0"
        if len(self) < TABLE_CAPACITY:
            self[cp] = out
        return out


TABLE_CAPACITY = 1 << 16  # code points kept per table; others are worked out on each sight
_PER_CHAR = {form: _Decomposed(form) for form in ("NFD", "NFKD")}
_CHANGED = {form: _Changed(table) for form, table in _PER_CHAR.items()}
_ONE = re.compile("1")
# Runs of marks as long as this may be a segment word_pieces keeps whole (_REFINE_LIMIT).
_LONG_MARK_RUN = regex.compile(r"\p{M}{%d,}" % (_REFINE_LIMIT - 2))


def decomposed_pieces(form: str, text: str) -> list[tuple[str, int, int]] | None:
    """``word_pieces`` for NFD and NFKD when each character's decomposition alone, concatenated, is
    the normalized text (no marks to reorder): one piece per changed character, unchanged runs
    whole. ``None``: use ``word_pieces``.

    ``decomposed_pieces("NFD", "aé") == [("a", 0, 1), ("e\\u0301", 1, 2)]``.
    """
    table = _PER_CHAR[form]
    if not unicodedata.is_normalized(form, text.translate(table)) or _LONG_MARK_RUN.search(text):
        return None
    pieces: list[tuple[str, int, int]] = []
    pos = 0
    for m in _ONE.finditer(text.translate(_CHANGED[form])):
        i = m.start()
        if i > pos:
            pieces.append((text[pos:i], pos, i))
        pieces.append((table[ord(text[i])], i, i + 1))
        pos = i + 1
    if not pieces:
        return None
    if pos < len(text):
        pieces.append((text[pos:], pos, len(text)))
    return pieces


def word_pieces(form: str, text: str, chunks: dict | None = None) -> list[tuple[str, int, int]] | None:
    """``normalize_pieces`` for any form, word by word and segment by segment (module docstring).
    ``chunks``: a word's pieces by its text (with the space before it), kept by the caller (a
    normalizer object): a word's pieces depend on the word alone, and words recur (a Vietnamese
    syllable with its combining tone, an accented word).

    ``word_pieces("NFD", "é") == [("e\\u0301", 0, 1)]``.
    """
    # Cutting before a space is always safe, so words already in form are kept whole, cheaply.
    pieces: list[tuple[str, int, int]] = []
    pos = 0
    for word in text.split(" "):
        stop = pos + len(word)
        if pos and (stop == pos or text[pos - 1 : stop].isascii() or unicodedata.is_normalized(form, word)):
            pieces.append((text[pos - 1 : stop], pos - 1, stop))
        elif not pos and (word.isascii() or unicodedata.is_normalized(form, word)):
            pieces.append((word, 0, stop))
        else:
            start = pos - 1 if pos else 0
            chunk = text[start:stop]
            found = None if chunks is None else chunks.get(chunk)
            if found is None:
                found = _chunk_pieces(form, chunk)
                if chunks is not None and len(chunk) <= _CACHED_CHUNK_CHARS and len(chunks) < TABLE_CAPACITY:
                    chunks[chunk] = found
            pieces.extend([(new, s + start, e + start) for new, s, e in found] if start else found)
        pos = stop + 1
    # Merge runs of unchanged pieces so that rebuilding stays cheap.
    merged: list[tuple[str, int, int]] = []
    run = None  # start of the current unchanged run
    for new, s, e in pieces:
        if new == text[s:e]:
            if run is None:
                run = s
            continue
        if run is not None:
            merged.append((text[run:s], run, s))
            run = None
        merged.append((new, s, e))
    if not merged:
        return None
    if run is not None:
        merged.append((text[run:], run, len(text)))
    return merged


_CACHED_CHUNK_CHARS = 64  # longer words are not kept by word_pieces' ``chunks``


def _chunk_pieces(form: str, text: str) -> list[tuple[str, int, int]]:
    """``text``'s pieces, from its own start (``word_pieces`` moves them where the word stands)."""
    expected = _expected(form, text)
    if expected == text:
        return [(text, 0, len(text))]
    for fine in (True, False):
        pieces: list[tuple[str, int, int]] = []
        for s, e in _segments(text, form, fine):
            seg = text[s:e]
            out = seg if seg.isascii() else _norm(form, seg)
            if out == seg or e - s == 1:
                pieces.append((out, s, e))
            else:
                pieces.extend(_refine(form, text, s, e, out))
        if "".join(p[0] for p in pieces) == expected:
            return pieces
    return [(expected, 0, len(text))]


def rebuild_whole(ns: NormalizedString, pieces: list[tuple[str, int, int]]) -> NormalizedString:
    """``ns.rebuild(pieces)``, except that a rewritten multi-character source maps as a whole.

    ``rebuild`` maps equal-length pieces character to character, which is right for untouched
    text but not for, say, two reordered marks. ``rebuild_whole(NormalizedString("ab"),
    [("ba", 0, 2)]).alignments() == [(0, 2), (0, 2)]``.
    """
    out = ns.rebuild(pieces)
    text = ns.normalized
    fix = []
    pos = 0
    for new, s, e in pieces:
        k = len(new)
        if k == e - s and k > 1 and new != text[s:e]:
            fix.append((pos, pos + k))
        pos += k
    if not fix:
        return out
    spans = out.alignments()
    for a, b in fix:
        lo, hi = spans[a][0], max(x[1] for x in spans[a:b])
        spans[a:b] = [(lo, hi)] * (b - a)
    return NormalizedString(out.original, out.normalized, [x[0] for x in spans], [x[1] for x in spans])
