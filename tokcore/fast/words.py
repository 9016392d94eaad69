"""Word finders of the fast paths: text -> the pre-tokenizer's words, in C-level passes.

Each finder returns ``(words, starts)``: the words a pre-tokenizer's split gives (as substrings)
and their 0-based character starts, ``starts`` ``None`` when the words cover the text from 0;
``None`` altogether when the finder cannot be sure (the slow path then runs). Also here:
GPT-2's pattern for ASCII text in the standard library's ``re``, the places where a long text
can be cut between GPT-2 words (``tokcore.fast.encode.document_entries``), and the finders of pipelines whose first
stage only cuts (``_chunk_words``, ``_uncut``, with ``_kept_whole``'s check of the later stages).
``tests/engine/test_fast_paths.py``, ``tests/engine/test_fast_lane.py``, ``tests/engine/test_bpe_lean.py``
and ``tests/parity/test_parity_real_pre_tokenizers.py`` pin each to its reference.

Left out: what a word becomes (``tokcore.fast.encode``) and pre-tokenizers without a finder.
"""

from __future__ import annotations

import re
from functools import partial
from itertools import accumulate, chain
from operator import add

from ..text.ascii_twin import ascii_twin as file_ascii_twin
from ..text.byte_level import _TO_CHARS as BYTE_CHARS
from ..text.byte_level import bytes_to_chars
from ..text.char_classes import ascii_view
from ..text.onig_regex import regex_timed_out, search_timeout


def _whole(text):
    return [text], None


def _from_spans(text, spans):
    if spans is None:
        return None
    return [text[s:e] for s, e in spans], [s for s, _ in spans]


def _non_space_runs(text):
    # Rust's char::is_whitespace is the White_Space property, which is the ``regex`` module's \s.
    # str.split is faster; on ASCII it also splits at \x1c-\x1f, which \s leaves alone, but then
    # the words joined by single spaces are not the text and the runs below decide.
    found = text.split() if text.isascii() else _NON_SPACE.findall(text)
    if " ".join(found) == text:
        # Words apart by single spaces (BertNormalizer's cleaned text mostly): word i starts
        # after the i words and i spaces before it, counted in C without match objects.
        return found, list(map(add, accumulate(map(len, found), initial=0), range(len(found))))
    # Maximal runs alternate between space and non-space: their lengths give every start.
    runs = _SPACE_OR_NOT.findall(text)
    first = 0 if _NON_SPACE.match(text) else 1
    return runs[first::2], list(accumulate(map(len, runs), initial=0))[first:-1:2]


def _non_space_runs_reference(text):
    """``_non_space_runs`` without the single-space shortcut (the tests compare both)."""
    return _from_spans(text, [m.span() for m in _NON_SPACE.finditer(text)])


_NON_SPACE = __import__("regex").compile(r"\S+")
_SPACE_OR_NOT = __import__("regex").compile(r"\s+|\S+")
_NON_SPACE_RUNS = _non_space_runs


def _isolated_words(rx, view_of=None, ascii_rx=None):
    """Words of the Isolated behavior: matches and the gaps between them, covering the text.

    ``ascii_rx``: our own pattern that finds the same matches as ``rx`` on ASCII text (used
    there). Without one, a file pattern whose backtracking is proven bounded for the text's
    length takes its ``re`` twin on ASCII text (``tokcore.text.ascii_twin``)."""
    findall, finditer = rx.findall, rx.finditer
    ascii_findall = ascii_rx.findall if ascii_rx is not None else None
    file_twin = _file_twin(rx) if ascii_rx is None else None
    plain = rx.groups == 0

    def words(text):
        is_ascii = text.isascii()
        limit = search_timeout(rx, len(text))  # a Split pattern comes from a file: time-bound
        if is_ascii and file_twin is not None and limit is None:
            found = file_twin(text)
            if found is not None:
                return found, None
        try:
            if not is_ascii and ascii_rx is not None and plain and len(text) >= _SPARSE_MIN:
                found = _sparse_non_ascii_words(text, view_of, findall, ascii_findall, limit)
                if found is not None and all(found) and sum(map(len, found)) == len(text):
                    return found, None
            view = text if view_of is None or is_ascii else view_of(text)
            if plain:
                # The standard library's ASCII twin is ours (no timeout there, none needed); it also
                # takes a class view that came out all ASCII, which matches as the text does.
                if ascii_rx is not None and (is_ascii or view.isascii()):
                    found = ascii_findall(view)
                else:
                    found = findall(view, timeout=limit)
                # No empty match and nothing left out: the matches alone cover the text (``all``
                # tests each match's length, cheaper than comparing each with "").
                if all(found) and sum(map(len, found)) == len(text):
                    if view is text:
                        return found, None
                    # The class view has the text's length: cut the text where the view's matches end.
                    ends = list(accumulate(map(len, found)))
                    return list(map(text.__getitem__, map(slice, [0, *ends[:-1]], ends))), None
            return _from_spans(text, _isolated_spans([m.span() for m in finditer(view, timeout=limit)], len(text)))
        except TimeoutError:
            raise regex_timed_out(rx, len(text)) from None

    return words


def _file_twin(rx):
    """A finder of ``rx``'s matches through its ``re`` twin on ASCII text: the matches when they cover
    the text with no empty one (else ``None``: gaps and Oniguruma's empty-match rules take the
    general path). ``None`` for a pattern with groups (``findall`` gives groups) or no twin."""
    twin = file_ascii_twin(rx.pattern, rx.flags) if rx.groups == 0 else None
    if twin is None:
        return None
    findall = twin.findall

    def cover(text):
        found = findall(text)
        return found if all(found) and sum(map(len, found)) == len(text) else None

    return cover


def _kept_matches(rx, fallback):
    """A word finder for a Split that keeps only its matches (Removed and inverted: CLIP's). On
    ASCII text, one ``split`` of the grouped pattern's ``re`` twin gives gap, match, gap, ... and the
    matches' starts are the running lengths (no match object per word); an empty match, other text
    or a pattern without a bounded twin takes ``fallback`` (``_chunk_words`` of its spans).
    ``_kept_matches(regex.compile(r"[a-z]+"), None)("ab  cd!")`` is ``(["ab", "cd"], [0, 4])``."""
    grouped = file_ascii_twin(f"({rx.pattern})", rx.flags) if rx.groups == 0 else None
    if grouped is None:
        return fallback
    split = grouped.split

    def words(text):
        if text.isascii() and search_timeout(rx, len(text)) is None:
            parts = split(text)
            found = parts[1::2]
            if all(found):
                return found, list(accumulate(map(len, parts), initial=0))[1:-1:2]
        return fallback(text)

    return words


def _chunk_words(char_spans, inner=None, ascii_inner=None):
    """A word finder: the chunks ``char_spans`` finds, each cut again by the finder ``inner`` if
    given (whose words cover what it is given), or on ASCII text by ``ascii_inner(text, start, stop)``
    (a ``findall`` that needs no slice).
    ``_chunk_words(lambda t: [(0, 2), (3, 5)])("ab cd") == (["ab", "cd"], [0, 3])``."""

    def words(text):
        found = char_spans(text)
        if inner is None:
            if not found:
                return [], []
            starts, stops = zip(*found)
            return list(map(text.__getitem__, map(slice, starts, stops))), list(starts)
        if ascii_inner is not None and text.isascii():
            parts = [ascii_inner(text, s, e) for s, e in found]
        else:
            parts = [inner(text[s:e])[0] for s, e in found]
        out = list(chain.from_iterable(parts))
        if sum(map(len, out)) == len(text):  # the chunks cover the text: so do their words
            return out, None
        starts: list = []
        for (s, _), got in zip(found, parts):
            starts += accumulate(map(len, got[:-1]), initial=s)
        return out, starts

    return words


def _uncut(char_spans, cuts, whole=None):
    """A word finder for a one-stage pipeline over a text that stage leaves whole: the merge-cut
    finder's words, or ``None`` (the reference path) when the stage cuts the text. ``whole``
    (``text -> bool``, see ``_sure_whole``), when given, answers first for most texts.
    ``_uncut(lambda t: [(0, len(t))], lambda t: ((t,), None))("ab") == (("ab",), None)``."""

    def words(text):
        if whole is not None and text and whole(text):
            return cuts(text)
        found = char_spans(text)
        if len(found) == 1 and found[0] == (0, len(text)):
            return cuts(text)
        return None if found or text else ([], None)

    return words


def _kept_whole(stages):
    """``word -> bool``: each stage in ``stages`` (``CutOnly``) keeps the word's byte characters in
    one piece. A word none of a stage's characters can cut (a class split's class, Falcon's Digits)
    or where its pattern finds nothing (a Split that is not inverted, Falcon's three digits) skips
    that stage's spans: most words of a line, when only digits cut.
    ``_kept_whole([Digits()])("a1")`` is ``False``; ``_kept_whole([Digits()])("ab")`` is ``True``."""
    checks = [(_sure_whole(stage), stage.char_spans) for stage in stages]

    def whole(word: str) -> bool:
        text = word.translate(BYTE_CHARS) if word.isascii() else bytes_to_chars(word.encode("utf-8", "surrogatepass"))
        one = None
        for sure, spans in checks:
            if sure is not None and sure(text):
                continue
            if one is None:
                one = [(0, len(text))]
            if spans(text) != one:
                return False
        return True

    return whole


def _sure_whole(stage):
    """``text -> bool``, ``True`` only when ``stage`` surely keeps a byte-character text in one
    piece (``None``: no quick test for this stage). A class split cuts only at its class's
    characters: the byte characters in it are found once. A Split that keeps its gaps cuts only
    where its pattern matches (on the view it searches, with its time limit): that test holds for
    any text, byte characters or not."""
    from ..pre_tokenizers.split import Split, _ClassSplit

    if isinstance(stage, _ClassSplit) and type(stage).char_spans is _ClassSplit.char_spans:
        in_class = re.compile(f"[{stage.char_set}]").fullmatch
        cutters = frozenset(c for c in BYTE_CHARS.values() if in_class(ascii_view(c, stage.classes)))
        return cutters.isdisjoint
    if type(stage) is Split and not stage.invert:
        if not stage.is_regex and stage.pattern:  # a String pattern matches where it occurs (Gemma's " ")
            return partial(_lacks, stage.pattern)
        search, classes = stage._rx.search, stage._classes

        def no_match(text: str) -> bool:
            view = text if classes is None else ascii_view(text, classes)
            try:
                return search(view, timeout=search_timeout(stage._rx, len(view))) is None
            except TimeoutError:  # no quick answer: the stage's own spans decide (and say why)
                return False

        return no_match
    return None


def _lacks(part: str, text: str) -> bool:
    """``part not in text``, as a function of ``text`` once ``part`` is bound. ``_lacks(" ", "a▁b")`` is ``True``."""
    return part not in text


def _bytelevel_words():
    # Exactly what ByteLevel.split_piece runs: GPT-2's pattern, Isolated, on the text where each
    # non-ASCII character stands in as an ASCII one of HF's (Oniguruma's) class.
    from ..text.byte_level import GPT2_REGEX
    from ..text.char_classes import ascii_view
    from ..text.onig_classes import ONIG_CLASSES

    return _isolated_words(GPT2_REGEX, lambda text: ascii_view(text, ONIG_CLASSES), GPT2_ASCII)


# GPT-2's pattern for ASCII text in the standard library's ``re``, about twice as fast there as
# ``regex``. \s, \p{L} and \p{N} are spelled as the ASCII characters ``regex`` puts in them
# (``re``'s own \s would add \x1c-\x1f); tests/engine/test_fast_paths.py compares the two.
_ASCII_SPACE = "\t\n\x0b\x0c\r "
GPT2_ASCII = re.compile(
    rf"'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^{_ASCII_SPACE}A-Za-z0-9]+"
    rf"|[{_ASCII_SPACE}]+(?![^{_ASCII_SPACE}])|[{_ASCII_SPACE}]+"
)


# StarCoder's words on ASCII text: Digits(individual_digits=True) makes every digit a chunk, and
# ByteLevel splits each chunk between them with GPT-2's pattern. One pattern finds both: a digit
# alone, or GPT-2's word with no digit in it; a space run before a digit ends there as it does at a
# chunk's end (the lookahead lets a digit follow). tests/engine/test_cut_only_spans.py compares.
GPT2_DIGITS_ASCII = re.compile(
    rf"[0-9]|'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[^{_ASCII_SPACE}A-Za-z0-9]+"
    rf"|[{_ASCII_SPACE}]+(?![^{_ASCII_SPACE}0-9])|[{_ASCII_SPACE}]+"
)


def _digits_then_gpt2(fallback):
    """The word finder of Digits(individual_digits=True) then GPT-2's ByteLevel split: one
    ``findall`` of ``GPT2_DIGITS_ASCII`` on ASCII text (its words cover it), ``fallback`` elsewhere.
    ``_digits_then_gpt2(None)("ab 12  c")`` is ``(["ab", " ", "1", "2", " ", " c"], None)``."""
    findall = GPT2_DIGITS_ASCII.findall

    def words(text):
        if text.isascii():
            return findall(text), None
        return fallback(text)

    return words


def ascii_twin(rx):
    """``GPT2_ASCII`` when ``rx`` is GPT-2's pattern as HF or tiktoken (r50k/p50k) writes it, with
    ``regex``'s default flags; else ``None``. tiktoken's ``\\s++$|\\s+(?!\\S)|\\s`` tail matches what
    HF's ``\\s+(?!\\S)|\\s+`` does (tests/engine/test_rank_bpe_fast.py compares them on ASCII text).
    ``ascii_twin(__import__("regex").compile("a")) is None``."""
    from ..text.byte_level import GPT2_REGEX, R50K_PATTERN

    if rx.pattern in (GPT2_REGEX.pattern, R50K_PATTERN) and rx.flags == GPT2_REGEX.flags:
        return GPT2_ASCII
    return None


_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")
_SPARSE_MIN = 4096  # characters; shorter texts take one class view and one match pass
_SPARSE_RATIO = 256  # at most one non-ASCII run per this many characters


def _sparse_non_ascii_words(text: str, view_of, findall, ascii_findall, timeout) -> list | None:
    """GPT-2's words of a long text holding few non-ASCII runs, or ``None`` (not few): ``findall``
    (the ``regex`` pattern, on the class view) from the cut before each run to the cut after it,
    the ASCII twin on the text between, which is its own view. Matching from a cut
    (``_gpt2_cut``: ASCII characters, the same in text and view) gives the whole text's matches
    there. With GPT-2's pattern, a long text ``"a \\ufeffb c..."`` starts ``["a", " \\ufeff", "b", " c"]``."""
    runs = list(_NON_ASCII_RUN.finditer(text))
    if len(runs) * _SPARSE_RATIO > len(text):
        return None
    out: list = []
    pos = 0
    for m in runs:
        start = m.start()
        if start < pos:
            continue  # inside the window just matched
        # The last cut before the run (``pos`` itself is one, or the text's start).
        cuts = [c.start() for c in _GPT2_CUT_AT.finditer(text, max(pos, start - 64), start)]
        a = cuts[-1] if cuts else pos
        b = _gpt2_cut(text, m.end())
        if a > pos:
            out += ascii_findall(text, pos, a)
        window = text[a:b]
        found = findall(window if view_of is None else view_of(window), timeout=timeout)
        ends = list(accumulate(map(len, found)))
        out += map(window.__getitem__, map(slice, [0, *ends[:-1]], ends))
        pos = b
    if pos < len(text):
        out += ascii_findall(text, pos)
    return out


def _isolated_spans(spans, n):
    # Matches plus the gaps between them, as the Isolated behavior keeps both; an empty match
    # follows Rust's iterator rules, which only the slow path implements.
    out = []
    pos = 0
    for s, e in spans:
        if e == s:
            return None
        if s > pos:
            out.append((pos, s))
        out.append((s, e))
        pos = e
    if pos < n:
        out.append((pos, n))
    return out


# A place where every GPT-2 match starts afresh: an ASCII whitespace character after a printable
# non-space ASCII one. No alternative of the pattern runs from a non-space character into
# whitespace, the pattern has no look-behind, and ASCII characters are their own class view.
_GPT2_CUT_AT = __import__("regex").compile(r"(?<=[!-~])[ \t\n\r]")


def _gpt2_cut(text: str, at: int) -> int:
    """``_gpt2_cut("ab cd", 1) == 2``: the first cut at or after ``at`` (``len(text)`` if none)."""
    m = _GPT2_CUT_AT.search(text, at)
    return m.start() if m else len(text)
