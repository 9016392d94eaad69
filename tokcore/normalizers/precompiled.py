"""Sentencepiece's ``precompiled_charsmap`` as the ``Precompiled`` normalizer: its rewrite rules matched in text.

The blob's trie is read by ``tokcore.normalizers.charsmap_trie`` (``charsmap_rules`` walks it once
into a ``{source: replacement}`` dict). Two matching disciplines:
- HF tokenizers (the default): text is cut into extended grapheme clusters; a cluster under 6
  UTF-8 bytes that starts with a rule's source is replaced WHOLE by the shortest such rule (so
  ``"ﬁ"`` + U+0301 becomes ``"fi"``: HF's documented quirk, kept for parity); otherwise each
  character is looked up alone.
- sentencepiece (``sentencepiece_semantics=True``): at each position the longest matching rule,
  unless one of the model's user-defined symbols (``protected``) starts there: sentencepiece copies
  the longest such symbol unchanged and goes on after it.

Left out: reading the blob (``charsmap_trie``) and sentencepiece's whitespace handling (dummy
prefix, extra-space removal, ``▁`` escaping), which tokenizer.json files express with other components.
"""

from __future__ import annotations

import base64
import binascii
import threading
from typing import Iterable, NamedTuple

import regex

from ..core.components import Normalizer, register
from ..core.errors import ConfigurationError
from ..core.normalized import NormalizedString
from .charsmap_trie import WINDOW as _WINDOW
from .charsmap_trie import _ascii_source_rules, _offset, _replacement, _trie_size, charsmap_rules, split_charsmap
from .unicode_pieces import rebuild_whole

__all__ = ["Precompiled", "charsmap_rules", "split_charsmap"]

_GRAPHEME = regex.compile(r"\X")
_NON_ASCII_WINDOWS = regex.compile(r"(?:[\x00-\x7f]?[^\x00-\x7f]+)+[\x00-\x7f]?")
_NON_ASCII_RUNS = regex.compile(r"[^\x00-\x7f]+")
_UTF8: dict[str, bytes] = {}  # characters met by longest_rule, as UTF-8 (bounded)
_MAX_PAIRS = 100_000  # pairs of characters kept per normalizer with the outcome of their walk
_WALK = object()  # Precompiled._after: the pair does not decide the walk (or is not known yet)
_BUILDING = threading.Lock()  # one charsmap's tables built at a time (see Precompiled._tables)


class _Tables(NamedTuple):
    """What ``Precompiled`` looks rules up in, built on first use (loading a model needs none of it)."""

    units: tuple[int, ...]  # the trie
    strings: bytes  # the replacements, NUL-ended
    ascii_sources: dict[str, str]  # every rule whose source is all ASCII
    ascii_rx: object  # those sources, longest first, as one pattern (None without any)
    ascii_firsts: frozenset[str]  # ASCII characters some rule starts with
    ascii_reach: int  # the most ASCII characters a walk can take before a non-ASCII one




def _with_changes(text: str, changes) -> list[tuple[str, int, int]]:
    """``rebuild`` pieces of ``text`` with the rule matches ``changes`` in place and the stretches
    between them as they are. ``_with_changes("ab", [("x", 1, 2)]) == [("a", 0, 1), ("x", 1, 2)]``."""
    pieces, pos = [], 0
    for new, s, e in changes:
        if s > pos:
            pieces.append((text[pos:s], pos, s))
        pieces.append((new, s, e))
        pos = e
    if pos < len(text):
        pieces.append((text[pos:], pos, len(text)))
    return pieces


_LAST_CHANGES: tuple = ((None, None, None), None, None)  # (normalizer key, text, rule matches)
_MEMO_CHARS = 1 << 16


def _remember(key: tuple, text: str, changes: list) -> None:
    global _LAST_CHANGES
    _LAST_CHANGES = (key, text, tuple(changes))  # one tuple: a reader sees all of it or none


@register("normalizer")
class Precompiled(Normalizer):
    """Sentencepiece's compiled normalization rules (``nmt_nfkc`` and friends).

    ``Precompiled(blob).normalize_str("①")`` is ``"1"`` with an nmt_nfkc blob. ``precompiled_charsmap``
    is the raw bytes (from the ``.model`` file) or their base64 text (as in tokenizer.json);
    empty means no rules.
    """

    def __init__(self, precompiled_charsmap: bytes | str | None, *, sentencepiece_semantics: bool = False,
                 protected: Iterable[str] = ()):
        if precompiled_charsmap is None:
            precompiled_charsmap = b""
        if isinstance(precompiled_charsmap, str):
            try:
                precompiled_charsmap = base64.b64decode(precompiled_charsmap, validate=True)
            except (binascii.Error, ValueError):
                raise ConfigurationError("precompiled_charsmap is not valid base64; copy it unchanged from the file") from None
        if not isinstance(precompiled_charsmap, (bytes, bytearray)):
            raise ConfigurationError(f"precompiled_charsmap must be bytes or base64 text, got {type(precompiled_charsmap).__name__}")
        self.precompiled_charsmap = bytes(precompiled_charsmap)
        self.sentencepiece_semantics = bool(sentencepiece_semantics)
        self.protected = sorted({p for p in protected if isinstance(p, str) and p}, key=lambda p: (-len(p), p))
        self._protected_by_first: dict[str, list[str]] = {}
        for sym in self.protected:  # longest first, as sentencepiece's prefix matcher
            self._protected_by_first.setdefault(sym[0], []).append(sym)
        if self.precompiled_charsmap:
            _trie_size(self.precompiled_charsmap)  # a bad blob fails here, not at the first encode
        self._built: _Tables | None = None
        self._no_rule: set[str] = set()  # characters no rule starts with (longest_rule), found on the way
        # Two characters -> the longest rule at a position where they stand, when no later one matters.
        self._after: dict[str, tuple[int, str] | None] = {}
        self._cache: dict[str, list[tuple[int, str]]] = {}

    def __getstate__(self) -> dict:
        # Copies (the fast lane keeps one) and pickles rebuild the tables and caches on first use:
        # copying a trie of 60,000 units item by item costs far more than reading it again.
        state = super().__getstate__()
        state.update(_built=None, _cache={}, _no_rule=set(), _after={})
        return state

    def _tables(self) -> _Tables:
        # Built on first use, once: threads racing here wait for the first one's tables (two
        # builds would hold equal data but two compiled patterns, which compare unequal).
        tables = self._built
        if tables is None:
            with _BUILDING:
                tables = self._built
                if tables is None:
                    tables = self._built = self._build_tables()
        return tables

    def _build_tables(self) -> _Tables:
        blob = self.precompiled_charsmap
        units, strings = split_charsmap(blob) if blob else ((), b"")
        sources, reach = _ascii_source_rules(units, strings)
        rx = regex.compile("|".join(map(regex.escape, sorted(sources, key=len, reverse=True)))) if sources else None
        root = _offset(units[0]) if units else 0
        firsts = frozenset(chr(c) for c in range(1, 128) if (root ^ c) < len(units) and units[root ^ c] & 0x800000FF == c)
        return _Tables(units, strings, sources, rx, firsts, min(reach, _WINDOW - 1))

    @property
    def _units(self) -> tuple[int, ...]:
        return self._tables().units

    @property
    def _ascii_rules(self) -> bool:
        """Whether some rule's source is all ASCII (controls to spaces in nmt_nfkc): if none, ASCII
        text passes untouched; else far from any non-ASCII character only those rules can apply."""
        return bool(self._tables().ascii_sources)

    def prefix_rules(self, key: str, *, cache: bool = True) -> list[tuple[int, str]]:
        """Rules whose source is a prefix of ``key``, shortest first, as ``(source length in chars, replacement)``."""
        hit = self._cache.get(key) if cache else None
        if hit is not None:
            return hit
        units, strings = self._tables()[:2]
        found: list[tuple[int, str]] = []
        data = key.encode("utf-8", "surrogatepass")
        ends = {}
        pos = 0
        for n, ch in enumerate(key, 1):
            pos += len(ch.encode("utf-8", "surrogatepass"))
            ends[pos] = n
        node = _offset(units[0]) if units else 0
        for depth, byte in enumerate(data, 1):
            node ^= byte
            if not byte or node >= len(units) or units[node] & 0x800000FF != byte:
                break
            unit = units[node]
            node ^= _offset(unit)
            if (unit >> 8) & 1 and depth in ends and node < len(units):
                found.append((ends[depth], _replacement(strings, units[node])))
        if cache:
            if len(self._cache) > 65536:
                self._cache.clear()
            self._cache[key] = found
        return found

    def _hf_pieces(self, text: str) -> list[tuple[str, int, int]]:
        pieces: list[tuple[str, int, int]] = []
        if self._tables().ascii_sources:
            self._hf_window(text, 0, len(text), pieces)
        else:
            # Only clusters holding a non-ASCII character can match. Such a cluster starts at most one
            # (ASCII) character before it, and clusters never join two ASCII characters but CR LF.
            for m in _NON_ASCII_WINDOWS.finditer(text):
                self._hf_window(text, m.start(), m.end(), pieces)
        return pieces

    def _hf_window(self, text: str, start: int, stop: int, pieces: list) -> None:
        ascii_rules = bool(self._tables().ascii_sources)
        for m in _GRAPHEME.finditer(text, start, stop):
            s, e = m.span()
            cluster = m.group()
            if cluster.isascii() and not ascii_rules:
                continue
            if len(cluster.encode("utf-8", "surrogatepass")) < 6:
                hits = self.prefix_rules(cluster)
                if hits:
                    pieces.append((hits[0][1], s, e))
                    continue
            for i in range(s, e):
                hits = self.prefix_rules(text[i])
                if hits:
                    pieces.append((hits[0][1], i, i + 1))

    def _spm_pieces(self, text: str) -> list[tuple[str, int, int]]:
        if self.protected:  # a protected symbol moves where the scan resumes
            return self._spm_pieces_reference(text)
        # A match that holds a non-ASCII character has at most ``ascii_reach`` ASCII characters before
        # it (the trie's longest ASCII path: 1 in nmt_nfkc, a letter before a combining mark): scan
        # only the stretches that end with one. Elsewhere only all-ASCII rules can match, and one
        # regex pass (longest first, leftmost) finds exactly what the scan would; a match that runs
        # past a stretch moves the next one's start.
        pieces: list[tuple[str, int, int]] = []
        i = 0
        tables = self._tables()
        rx, sources, reach = tables.ascii_rx, tables.ascii_sources, tables.ascii_reach
        for m in _NON_ASCII_RUNS.finditer(text):
            limit = m.start() - reach
            if rx is not None and i < limit:
                i = self._ascii_matches(rx, sources, text, i, limit, m.start(), pieces)
            i = self._spm_scan(text, max(i, limit), m.end(), pieces)
        if rx is not None and i < len(text):
            self._ascii_matches(rx, sources, text, i, len(text), len(text), pieces)
        return pieces

    @staticmethod
    def _ascii_matches(rx, sources: dict, text: str, i: int, limit: int, stop: int, pieces: list) -> int:
        """All-ASCII rules matched from ``i`` by matches that start below ``limit``, in ASCII text up to
        ``stop`` (the search looks no further: each stretch costs its own length, not the rest of the
        text's); returns where they stop."""
        for a in rx.finditer(text, i, stop):
            s = a.start()
            if s >= limit:
                break
            pieces.append((sources[a.group()], s, a.end()))
            i = a.end()
        return max(i, limit)

    def _spm_pieces_reference(self, text: str) -> list[tuple[str, int, int]]:
        """``_spm_pieces`` looking at every position (the tests compare both)."""
        pieces: list[tuple[str, int, int]] = []
        self._spm_scan(text, 0, len(text), pieces)
        return pieces

    def _spm_scan(self, text: str, i: int, n: int, pieces: list) -> int:
        """sentencepiece's longest-rule scan from position ``i`` while below ``n``; returns where it stopped."""
        protected = self._protected_by_first
        firsts = self._tables().ascii_firsts
        no_rule, after = self._no_rule, self._after
        while i < n:
            if protected:
                sym = next((p for p in protected.get(text[i], ()) if text.startswith(p, i)), None)
                if sym is not None:
                    i += len(sym)
                    continue
            ch = text[i]
            if (ch < "\x80" and ch not in firsts) or ch in no_rule:
                i += 1
                continue
            # Most walks end by the second character (a letter some rule starts with, then no
            # combining mark): their outcome is the pair's, kept in ``_after``.
            pair = text[i:i + 2]
            hit = after.get(pair, _WALK)
            if hit is _WALK:
                hit, decided = self._walk(text, i)
                if decided <= 2 and len(after) < _MAX_PAIRS:
                    after[pair] = hit
            if hit is not None:
                k, new = hit
                pieces.append((new, i, i + k))
                i += k
            else:
                i += 1
        return i

    def longest_rule(self, text: str, i: int) -> tuple[int, str] | None:
        """The longest rule whose source starts ``text`` at ``i`` (within ``_WINDOW`` characters), as
        ``(source length in chars, replacement)``: ``prefix_rules(text[i:i + 16])[-1]`` walking the
        trie one character at a time and stopping where it ends, or ``None``."""
        if i >= len(text):
            return None
        return self._walk(text, i)[0]

    def _walk(self, text: str, i: int) -> tuple[tuple[int, str] | None, int]:
        """``longest_rule(text, i)`` (``i`` inside ``text``) and how many characters from ``i`` decided
        it: the walk failed on the last of them (more than ``_WINDOW`` when it did not fail)."""
        first = text[i]
        if first in self._no_rule:  # most characters start no rule: known after their first walk
            return None, 1
        units, strings = self._tables()[:2]
        if not units:
            return None, 1
        size = len(units)
        node = _offset(units[0])
        best = None
        utf8 = _UTF8
        window = text[i : i + _WINDOW]
        for k, ch in enumerate(window, 1):
            data = utf8.get(ch)
            if data is None:
                data = ch.encode("utf-8", "surrogatepass")
                if len(utf8) < 100_000:
                    utf8[ch] = data
            for byte in data:
                node ^= byte
                if not byte or node >= size:
                    break
                unit = units[node]
                if unit & 0x800000FF != byte:
                    break
                node ^= (unit >> 10) << ((unit & 512) >> 6)  # _offset(unit), inline
            else:
                if (unit >> 8) & 1 and node < size:
                    best = (k, _replacement(strings, units[node]))
                continue
            if k == 1 and len(self._no_rule) < 100_000:
                self._no_rule.add(first)
            return best, k
        # The window walked to its end: decided by all of it, and where the text ends there, by
        # its end too (the same pair inside a text may go on to a longer rule).
        return best, _WINDOW + 1

    def _pieces(self, text: str, *, reuse: bool) -> list[tuple[str, int, int]] | None:
        """``text`` as ``rebuild`` pieces, each rule's output in place of its source, or ``None``
        when no rule applies. ``reuse``: the last text's matches may serve (an alignment asked
        for after the view); the view itself always scans, so encoding a text again costs what it
        cost the first time, whatever its length."""
        tables = self._tables()
        if not tables.units or (text.isascii() and not tables.ascii_sources):
            return None
        # The fast lane asks for a text's view at encode time and (from a copy of this normalizer,
        # which shares the blob) for its alignment when the result is read: the last text's rule
        # matches are kept once, module-wide, keyed by the blob itself.
        key = (self.precompiled_charsmap, self.sentencepiece_semantics, self.protected)
        last = _LAST_CHANGES
        if reuse and last[1] == text and last[0][0] is key[0] and last[0][1:] == key[1:]:
            changes = last[2]
        else:
            changes = self._spm_pieces(text) if self.sentencepiece_semantics else self._hf_pieces(text)
            if len(text) <= _MEMO_CHARS:  # a long document's matches are not kept alive
                _remember(key, text, changes)
        if not changes:  # the text as it is: its alignment stays the identity (a rebuilt copy would not say so)
            return None
        return _with_changes(text, changes)

    def normalized_text(self, text: str) -> str:
        """``normalize_str(text)`` without building an alignment (the fast lane's view)."""
        pieces = self._pieces(text, reuse=False)
        return text if pieces is None else "".join([p[0] for p in pieces])

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        pieces = self._pieces(ns.normalized, reuse=True)
        return ns if pieces is None else rebuild_whole(ns, pieces)

    def to_dict(self) -> dict:
        data = {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(self.precompiled_charsmap).decode("ascii")}
        if self.sentencepiece_semantics:
            data["sentencepiece_semantics"] = True
        if self.protected:
            data["protected"] = list(self.protected)
        return data

    def to_hf_dict(self) -> dict:
        return {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(self.precompiled_charsmap).decode("ascii")}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        protected = data.get("protected") or []
        if not isinstance(protected, list) or not all(isinstance(p, str) for p in protected):
            raise ConfigurationError("'protected' must be a list of strings (the model's user-defined symbols)")
        return cls(data.get("precompiled_charsmap"), sentencepiece_semantics=data.get("sentencepiece_semantics", False),
                   protected=protected)
