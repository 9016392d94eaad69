"""Pattern splitting shared by the pre-tokenizers, and the pre-tokenizers that are just a pattern.

HF tokenizers splits a piece in two steps: a *pattern* cuts the text into consecutive
``(start, stop, is_match)`` spans covering it, then a *behavior* decides what happens to the
matches (for the delimiter ``-`` in ``the-final--countdown``):

- ``Removed``: ``the`` ``final`` ``countdown``
- ``Isolated``: ``the`` ``-`` ``final`` ``-`` ``-`` ``countdown``
- ``MergedWithPrevious``: ``the-`` ``final-`` ``-`` ``countdown``
- ``MergedWithNext``: ``the`` ``-final`` ``-`` ``-countdown``
- ``Contiguous``: ``the`` ``-`` ``final`` ``--`` ``countdown``

Empty results are dropped. A character-class pattern (punctuation, digits, a delimiter) makes
one match per character, which is what makes ``Isolated`` and ``Contiguous`` differ.

Left out: pre-tokenizers that rewrite text (``Metaspace``, ``ByteLevel``, in ``pre_tokenizers``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import accumulate, starmap
from operator import lt, sub
from typing import Iterable

import regex

from ..core.components import Piece, PreTokenizer, register
from ..core.errors import ConfigurationError, TokenizerFileError
from ..text.char_classes import NUMERIC_CLASSES, PUNCT_CLASSES, ClassMap, ascii_view
from ..text.onig_classes import onig_known
from ..text.onig_regex import find_matches, regex_timed_out, search_timeout

BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")
_BEHAVIOR_KEYS = {b.lower(): b for b in BEHAVIORS}
_BEHAVIOR_KEYS.update({"merged_with_previous": "MergedWithPrevious", "merged_with_next": "MergedWithNext"})

# Punctuation as HF tests it: ASCII punctuation (which includes the symbols $+<=>^`|~) or a
# Unicode P* category. These patterns run on ``ascii_view`` text (see ``pre_tokenizers_tables``).
PUNCT_CLASS = r"!-/:-@\[-`{-~"
PUNCT_RE = regex.compile(f"[{PUNCT_CLASS}]")
NUMERIC_RE = regex.compile(r"[0-9]")

Match = tuple  # (start, stop, is_match) in characters of the piece text


def behavior_name(behavior: str) -> str:
    """HF's spelling of a split behavior. ``behavior_name("merged_with_next") == "MergedWithNext"``."""
    if isinstance(behavior, str):
        key = behavior.replace("-", "_").lower()
        name = _BEHAVIOR_KEYS.get(key) or _BEHAVIOR_KEYS.get(key.replace("_", ""))
        if name:
            return name
    raise ConfigurationError(f"unknown split behavior {behavior!r}; use one of {', '.join(BEHAVIORS)}")


def regex_matches(rx: regex.Pattern, text: str, *, invert: bool = False) -> list[Match]:
    """Spans of ``text`` as ``(start, stop, is_match)``, covering it in order.

    ``regex_matches(regex.compile("-"), "a-b") == [(0, 1, False), (1, 2, True), (2, 3, False)]``.
    Empty matches follow Rust's match iterators (which HF uses), not Python's: an empty match right
    where the previous match ended is skipped and the search resumes one character further
    (``find_matches``, time-bound: patterns come from files).
    """
    return _with_gaps(find_matches(rx, text), len(text), invert)


def _with_gaps(found: list[tuple[int, int]], n: int, invert: bool) -> list[Match]:
    out: list[Match] = []
    prev = 0
    for start, stop in found:
        if prev != start:
            out.append((prev, start, invert))
        out.append((start, stop, not invert))
        prev = stop
    if prev != n:
        out.append((prev, n, invert))
    return out


def spans_for_behavior(matches: Iterable[Match], behavior: str) -> list[tuple[int, int]]:
    """The ``(start, stop)`` spans a behavior keeps. ``spans_for_behavior([(0, 1, True), (1, 2, False)],
    "MergedWithNext") == [(0, 2)]``."""
    if behavior == "Isolated":
        return [(s, e) for s, e, _ in matches]
    if behavior == "Removed":
        return [(s, e) for s, e, m in matches if not m]
    out: list[list[int]] = []
    prev = False
    if behavior == "Contiguous":
        for s, e, m in matches:
            if m == prev and out:
                out[-1][1] = e
            else:
                out.append([s, e])
            prev = m
    elif behavior == "MergedWithPrevious":
        for s, e, m in matches:
            if m and not prev and out:
                out[-1][1] = e
            else:
                out.append([s, e])
            prev = m
    elif behavior == "MergedWithNext":
        for s, e, m in reversed(list(matches)):
            if m and not prev and out:
                out[-1][0] = s
            else:
                out.append([s, e])
            prev = m
        out.reverse()
    else:
        raise ConfigurationError(f"unknown split behavior {behavior!r}; use one of {', '.join(BEHAVIORS)}")
    return [(s, e) for s, e in out]


def regex_spans(
    text: str,
    rx: regex.Pattern,
    behavior: str,
    *,
    invert: bool = False,
    classes: ClassMap | None = None,
) -> list[tuple[int, int]]:
    """The non-empty spans ``behavior`` keeps where ``rx`` matches ``text`` (with ``classes``, on its
    ``ascii_view``, same positions). ``regex_spans("a-b", regex.compile("-"), "Removed") == [(0, 1), (2, 3)]``."""
    view = text if classes is None else ascii_view(text, classes)
    found = find_matches(rx, view)
    if all(starmap(lt, found)):  # no empty match
        if behavior == "Removed" and invert:
            return found  # CLIP's: the matches are the pieces
        if behavior == "Isolated" and -sum(starmap(sub, found)) == len(view):
            return found  # Llama 3's: the matches cover the text, no gap to add
    return [(s, e) for s, e in spans_for_behavior(_with_gaps(found, len(view), invert), behavior) if e > s]


def match_spans(text: str, rx: regex.Pattern, classes: ClassMap | None = None) -> list[tuple[int, int]]:
    """The non-empty matches of ``rx`` (an inverted pattern, gaps removed) as spans of ``text``.
    ``match_spans("a  b", regex.compile(r"\\S+")) == [(0, 1), (3, 4)]``."""
    view = text if classes is None else ascii_view(text, classes)
    try:
        return [m.span() for m in rx.finditer(view, timeout=search_timeout(rx, len(view))) if m.end() > m.start()]
    except TimeoutError:
        raise regex_timed_out(rx, len(view)) from None


def pieces_of_matches(piece: Piece, rx: regex.Pattern, classes: ClassMap | None = None) -> list[Piece]:
    """The pieces are exactly the (non-empty) matches of ``rx``: an inverted pattern, gaps removed."""
    sub = piece.sub
    return [sub(s, e) for s, e in match_spans(piece.text, rx, classes)]


class CutOnly(PreTokenizer):
    """A pre-tokenizer that only cuts: its pieces are slices of the piece it is given, found by
    ``char_spans`` on that piece's text alone, wherever the piece sits. The fast word plans call
    ``char_spans`` on a whole text to find its words (``tokcore.fast.plan``)."""

    def char_spans(self, text: str) -> list[tuple[int, int]]:
        """The non-empty ``(start, stop)`` character spans of ``text``'s pieces, in order."""
        raise NotImplementedError

    def split_piece(self, piece: Piece) -> list[Piece]:
        sub = piece.sub
        return [sub(s, e) for s, e in self.char_spans(piece.text)]


class _ClassSplit(CutOnly):
    """Split on every character of a class, one match per character.

    The class view is ASCII, where one ``re`` pattern per behavior finds the pieces themselves
    (``_covering``): ``regex_spans`` on ``char_re`` stays the reference (tests/engine/test_cut_only_spans.py).
    """

    char_re: regex.Pattern = PUNCT_RE
    char_set = PUNCT_CLASS  # char_re's class, inside [...]
    classes: ClassMap = PUNCT_CLASSES
    behavior = "Isolated"

    def char_spans(self, text: str) -> list[tuple[int, int]]:
        view = ascii_view(text, self.classes)
        rx = _covering(self.char_set, self.behavior)
        if self.behavior == "Removed":
            return [m.span() for m in rx.finditer(view)]
        ends = list(accumulate(map(len, rx.findall(view))))
        return list(zip([0, *ends[:-1]], ends))


@lru_cache(maxsize=None)
def _covering(char_set: str, behavior: str) -> re.Pattern:
    """The pieces a behavior keeps when every character of ``char_set`` is a match, as one pattern
    (``Removed``: the pieces between; the others cover the text, so their lengths give the spans).
    ``_covering("-", "MergedWithNext").findall("a--b") == ["a", "-", "-b"]``."""
    c, other = f"[{char_set}]", f"[^{char_set}]"
    return re.compile({"Isolated": f"{c}|{other}+", "Contiguous": f"{c}+|{other}+", "Removed": f"{other}+",
                       "MergedWithPrevious": f"{other}*{c}|{other}+", "MergedWithNext": f"{c}{other}*|{other}+"}[behavior],
                      re.DOTALL)


@register("pre_tokenizer")
class Punctuation(_ClassSplit):
    """Split on punctuation. ``Punctuation().pre_tokenize_str("hi!") == [("hi", (0, 2)), ("!", (2, 3))]``."""

    def __init__(self, behavior: str = "Isolated"):
        self.behavior = behavior_name(behavior)

    def to_dict(self) -> dict:
        return {"type": "Punctuation", "behavior": self.behavior}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(data.get("behavior", "Isolated"))


@register("pre_tokenizer")
class Digits(_ClassSplit):
    """Split numbers from the rest; with ``individual_digits`` every digit alone.

    ``Digits(individual_digits=True).pre_tokenize_str("a12") == [("a", (0, 1)), ("1", (1, 2)), ("2", (2, 3))]``.
    """

    char_re = NUMERIC_RE
    char_set = "0-9"
    classes = NUMERIC_CLASSES

    def __init__(self, *, individual_digits: bool = False):
        self.individual_digits = bool(individual_digits)
        self.behavior = "Isolated" if self.individual_digits else "Contiguous"

    def to_dict(self) -> dict:
        return {"type": "Digits", "individual_digits": self.individual_digits}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(individual_digits=data.get("individual_digits", False))


@register("pre_tokenizer")
class CharDelimiterSplit(CutOnly):
    """Split on one character, dropping it. ``CharDelimiterSplit("_").pre_tokenize_str("a_b")`` gives ``a``, ``b``."""

    def __init__(self, delimiter: str):
        if not isinstance(delimiter, str) or len(delimiter) != 1:
            raise ConfigurationError(f"CharDelimiterSplit needs a single character, got {delimiter!r}")
        self.delimiter = delimiter
        self._rx = regex.compile(f"[^{regex.escape(delimiter)}]+")

    def char_spans(self, text: str) -> list[tuple[int, int]]:
        return match_spans(text, self._rx)

    def to_dict(self) -> dict:
        return {"type": "CharDelimiterSplit", "delimiter": self.delimiter}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(data["delimiter"])


@register("pre_tokenizer")
class Split(CutOnly):
    """Split on a literal string or a regex, with a behavior, optionally inverted (the matches are kept).

    ``Split("-", "isolated").pre_tokenize_str("a-b")`` gives ``a``, ``-``, ``b``;
    ``Split(r"\\d+", "removed", regex=True)`` drops digit runs. ``pattern`` may also be HF's
    ``{"String": ...}`` / ``{"Regex": ...}`` dict.
    """

    def __init__(self, pattern, behavior: str = "Isolated", *, invert: bool = False, regex: bool = False):
        if isinstance(pattern, dict):
            if set(pattern) == {"String"}:
                pattern, regex = pattern["String"], False
            elif set(pattern) == {"Regex"}:
                pattern, regex = pattern["Regex"], True
            else:
                raise ConfigurationError(f"Split pattern must be {{'String': ...}} or {{'Regex': ...}}, got {pattern!r}")
        if not isinstance(pattern, str):
            raise ConfigurationError(f"Split pattern must be a str, got {type(pattern).__name__}")
        self.pattern = pattern
        self.is_regex = bool(regex)
        self.behavior = behavior_name(behavior)
        self.invert = bool(invert)
        self._rx = _compile_split_pattern(pattern, self.is_regex)
        # HF runs regexes on Oniguruma, whose Unicode tables are older than the ``regex`` module's.
        self._classes = onig_known(pattern) if self.is_regex else None

    def char_spans(self, text: str) -> list[tuple[int, int]]:
        return regex_spans(text, self._rx, self.behavior, invert=self.invert, classes=self._classes)

    def to_dict(self) -> dict:
        key = "Regex" if self.is_regex else "String"
        return {"type": "Split", "pattern": {key: self.pattern}, "behavior": self.behavior, "invert": self.invert}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        pattern = data["pattern"]
        if not isinstance(pattern, dict):
            raise TokenizerFileError(
                source, f"Split pattern must be an object like {{\"Regex\": ...}}, got {pattern!r}", where=where
            )
        try:
            return cls(pattern, data.get("behavior", "Isolated"), invert=data.get("invert", False))
        except ConfigurationError as exc:
            raise TokenizerFileError(source, str(exc), where=where) from None


def _compile_split_pattern(pattern: str, is_regex: bool):
    if not is_regex:
        # An empty literal is the empty regex (it matches between every two characters), as in HF.
        return regex.compile(regex.escape(pattern))
    try:
        return regex.compile(pattern)
    except regex.error as exc:
        raise ConfigurationError(f"Split regex {pattern!r} does not compile: {exc}") from None
