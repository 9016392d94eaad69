"""Regexes written for Oniguruma (what HF tokenizers compiles ``{"Regex": ...}`` patterns with), run on ``regex``.

``compile_onig(pattern)`` rewrites the few constructs whose meaning differs and compiles with
``^``/``$`` matching at line boundaries, as Oniguruma's default syntax does:
- ``(?m)`` is Oniguruma's dot-matches-newline (Python's ``(?s)``);
- ``\\h``/``\\H`` are hexadecimal digits (not horizontal space);
- ``\\Z`` also matches before a final newline, ``\\z`` only at the very end;
- ``^`` does not match at the very end of a text that ends with a newline.

``find_matches(rx, text)`` lists matches as HF's ``find_iter`` does: left to right, and an empty
match right where the previous match ended is skipped.

Left out: Oniguruma-only syntax the ``regex`` module rejects (it raises ``re.error``, which the
callers turn into a configuration error).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import starmap
from operator import ne
from typing import Iterator

import regex

from ..core.errors import ConfigurationError
from .ascii_twin import ascii_twin
from .regex_cost import backtrack_degree

_ESCAPES = {
    "h": ("[0-9a-fA-F]", "0-9a-fA-F"),
    "H": ("[^0-9a-fA-F]", None),
    "Z": ("(?=\\n?\\Z)", None),
    "z": ("\\Z", None),
}


def translate(pattern: str) -> str:
    """Oniguruma pattern -> ``regex`` pattern. ``translate("(?m)a.\\\\h") == "(?s)a.[0-9a-fA-F]"``."""
    out: list[str] = []
    i, n = 0, len(pattern)
    depth = 0  # nesting of character classes
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            rule = _ESCAPES.get(nxt)
            if rule is not None and (depth == 0 or rule[1] is not None):
                out.append(rule[0] if depth == 0 else rule[1])
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if depth:
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
            out.append(ch)
        elif ch == "[":
            depth = 1
            out.append(ch)
            # A ']' right after '[' or '[^' is a literal member, not the end of the class.
            j = i + 1
            if j < n and pattern[j] == "^":
                out.append("^")
                j += 1
            if j < n and pattern[j] == "]":
                out.append("\\]")
                j += 1
            i = j
            continue
        elif ch == "(" and pattern.startswith("(?", i):
            j = i + 2
            while j < n and (pattern[j].isalpha() or pattern[j] == "-"):
                j += 1
            flags = pattern[i + 2 : j]
            if flags and j < n and pattern[j] in ":)" and set(flags) <= set("imx-"):
                out.append("(?" + flags.replace("m", "s"))
                i = j
                continue
            out.append(ch)
        elif ch == "^":
            out.append("(?:^(?!\\Z))")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def compile_onig(pattern: str) -> "regex.Pattern[str]":
    """Compile an Oniguruma pattern. ``compile_onig("^a").findall("a\\na") == ["a", "a"]``."""
    return regex.compile(translate(pattern), regex.MULTILINE | regex.V0)


def user_regex_timeout(n_chars: int) -> float:
    """Seconds a pattern from a file may run over a text of ``n_chars``: far above any sane pattern's
    time (50,000 characters a second), far below a catastrophic backtrack's minutes.
    ``user_regex_timeout(100_000) == 4.0``."""
    return 2.0 + n_chars * 2e-5


# Flags under which a pattern does not mean what ``regex_cost`` parses (verbose syntax, full case
# folding, POSIX leftmost-longest, V1 sets, fuzzy matching): such patterns always run timed.
# (an int: a compiled pattern's flags are one, and an enum operand would cost a Python-level __and__ per search)
_ODD_FLAGS = int(regex.VERBOSE | regex.FULLCASE | regex.POSIX | regex.VERSION1 | regex.BESTMATCH | regex.ENHANCEMATCH)
# Backtracking steps the ``regex`` module takes in well under a second (5-10e7 a second seen on a
# busy 2-core machine), far below what the timeout allows.
_STEP_BUDGET = 2e7


def search_timeout(rx: "regex.Pattern[str]", n_chars: int) -> float | None:
    """The timeout for finding ``rx``'s matches in ``n_chars`` characters: ``None`` when the pattern's
    worst case is proven small (``regex_cost``), since a timeout costs ``regex`` a clock read per
    match attempt. ``search_timeout(regex.compile("[a-z]+"), 10**6) is None``;
    ``search_timeout(regex.compile("(a+)+b"), 10) == 2.0002``."""
    longest = _UNTIMED_UP_TO.get(rx)
    if longest is None:
        if len(_UNTIMED_UP_TO) >= 256:  # patterns come from files: few, but keep the table bounded
            _UNTIMED_UP_TO.clear()
        longest = _UNTIMED_UP_TO[rx] = _untimed_up_to(rx)
    return None if n_chars <= longest else user_regex_timeout(n_chars)


_UNTIMED_UP_TO: dict = {}  # pattern -> the longest text it may search without a timeout (one lookup a search)


def _untimed_up_to(rx: "regex.Pattern[str]") -> float:
    """The most characters ``rx`` searches within ``_STEP_BUDGET`` by its proven bound (-1: none;
    infinity: linear). ``_untimed_up_to(regex.compile(r"\\s+(?!\\S)|\\s+")) == 2580``."""
    bound = backtrack_degree(rx.pattern, bool(rx.flags & _ODD_FLAGS))
    if bound is None:
        return -1
    coef, degree = bound
    if degree == 0:
        return float("inf")
    n = int((_STEP_BUDGET / coef) ** (1 / (degree + 1))) - 1
    while n >= 0 and float(n + 1) ** (degree + 1) * coef > _STEP_BUDGET:  # float roots can overshoot by one
        n -= 1
    return n


def regex_timed_out(rx: "regex.Pattern[str]", n_chars: int) -> ConfigurationError:
    """The error for a pattern that ran out of ``user_regex_timeout``: it names the pattern and the fix."""
    return ConfigurationError(
        f"the regex {rx.pattern!r} ran longer than {user_regex_timeout(n_chars):.0f} s on a text of {n_chars:,} "
        "characters: it backtracks catastrophically (nested quantifiers such as (a+)+); simplify the pattern")


_SPAN = type(regex.match("", "")).span
_RE_SPAN = re.Match.span


def find_matches(rx: "regex.Pattern[str]", text: str) -> list[tuple[int, int]]:
    """Match spans, Oniguruma style. ``find_matches(compile_onig("a*"), "baac") == [(0, 0), (1, 3), (4, 4)]``.

    Patterns come from files: each search is time-bound (``search_timeout``), unless the
    pattern's backtracking is bounded; then ASCII text takes its ``re`` twin (``ascii_twin``).
    Python's own iterator makes the same searches unless it finds an empty match, so it runs
    first and Oniguruma's loop only when one shows up.
    """
    n = len(text)
    limit = search_timeout(rx, n)
    try:
        twin = ascii_twin(rx.pattern, rx.flags) if limit is None and text.isascii() else None
        if twin is not None:
            found = list(map(_RE_SPAN, twin.finditer(text)))
        else:
            found = list(map(_SPAN, rx.finditer(text, timeout=limit)))
        if all(starmap(ne, found)):  # no empty match
            return found
        return list(_onig_loop(rx, text, limit))
    except TimeoutError:
        raise regex_timed_out(rx, n) from None


def _onig_loop(rx, text: str, limit: float) -> Iterator[tuple[int, int]]:
    pos, last_end, n = 0, -1, len(text)
    while pos <= n:
        m = rx.search(text, pos, timeout=limit)
        if m is None:
            return
        s, e = m.span()
        if s == e == last_end:
            # Oniguruma refuses an empty match where the previous one ended and moves one character on.
            pos = e + 1
            continue
        yield s, e
        last_end = pos = e
