"""How much backtracking a pattern can do: the degree of its worst case, read off its syntax.

A backtracking engine (``regex``, ``re``, Oniguruma) tries, at each start position, the ways each
quantifier can end; a pattern from a file can make that exponential (``(a+)+b``) or a high power
of the text's length (``a*a*a*b``). The matchers therefore run file patterns under a timeout, and
the ``regex`` module pays for one process-clock read per match attempt while a timeout is set.

``backtrack_degree(pattern)`` proves a bound instead, for the patterns real tokenizers ship
(GPT-2's, Llama 3's, CLIP's, digit and punctuation splits): at one start position the engine
explores at most ``C * (n + 1) ** degree`` ways for a text of ``n`` characters. Every repeated
single character adds one to the degree, except where the branch has already succeeded on its
first, greedy path: a top-level branch ending in repeats that may match nothing
(``[\\p{L}]+[\\r\\n]*``) succeeds as soon as the repeat before them has matched, so those cost
nothing. ``None`` means no bound is proven (nested or grouped repeats, back-references,
conditionals, verbose or full-case flags, anything not parsed here): such patterns keep the timeout.

Left out: the engines' own optimisations (the bound is an upper one), and lookbehind contents.
"""

from __future__ import annotations

from functools import lru_cache

# A bound on the ways: coefficient and degree in (n + 1).
Ways = tuple  # (coef, degree)
_ONE: Ways = (1, 0)
_ZERO_WIDTH_ESCAPES = set("bBAZzG")
_CHAR_ESCAPES = set("sSdDwWhHnrtfvae0xuUN") | set("pP")
_SAFE_FLAGS = set("imsau-")
_MAX_SMALL_REPEAT = 64


class _Unbounded(Exception):
    """The pattern uses a construct this module does not bound."""


@lru_cache(maxsize=256)
def backtrack_degree(pattern: str, odd_flags: bool = False) -> tuple[int, int] | None:
    """``(coef, degree)`` bounding the steps at one start position (ways weighed by their branch's
    length) as ``coef * (n + 1) ** degree``, or ``None`` if unproven.

    ``backtrack_degree(r"'s|[\\p{L}]+|[^\\s\\p{L}]+") == (4, 0)``: linear over the text;
    ``backtrack_degree(r"\\s+(?!\\S)|\\s+")[1] == 1``; ``backtrack_degree(r"(a+)+b") is None``.
    """
    if odd_flags:
        return None  # verbose syntax, full case folding, POSIX or V1 matching: not what is parsed here
    try:
        parser = _Parser(pattern)
        branches = parser.alternation()
        if parser.i != len(pattern):
            return None  # an unmatched ")"
    except _Unbounded:
        return None
    total = (0, 0)
    for items in branches:
        # Each way tries the branch's items once more: weigh a branch's ways by its length.
        total = _add(total, _mul(_first_path_ways(items), (max(len(items), 1), 0)))
    return total


def worst_case_steps(pattern: str, n_chars: int, odd_flags: bool = False) -> float | None:
    """An upper bound on the steps of finding every match in ``n_chars`` characters, or ``None``.
    ``worst_case_steps("a+|b", 9) == 20.0`` (ten starts, one way in each of two branches)."""
    bound = backtrack_degree(pattern, odd_flags)
    if bound is None:
        return None
    coef, degree = bound
    return float(n_chars + 1) ** (degree + 1) * coef


def _add(a: Ways, b: Ways) -> Ways:
    return a[0] + b[0], max(a[1], b[1])


def _mul(a: Ways, b: Ways) -> Ways:
    return a[0] * b[0], a[1] + b[1]


def _first_path_ways(items: list) -> Ways:
    """A top-level branch's ways: a trailing run of may-be-empty single-character repeats, and the
    single-character item before it, succeed on the greedy path, so they count once."""
    cut = len(items)
    while cut > 0 and items[cut - 1][0] == "char" and items[cut - 1][2]:
        cut -= 1
    if cut > 0 and items[cut - 1][0] == "char":
        cut -= 1
    ways = _ONE
    for item in items[:cut]:
        ways = _mul(ways, item[1])
    return ways


class _Parser:
    """A recursive-descent reader of the ``regex`` module's V0 syntax, keeping only what bounds
    the ways. Items are ``(kind, ways, nullable)``; ``kind`` is ``"char"`` for one character
    class, possibly repeated, ``"other"`` for groups and assertions."""

    def __init__(self, pattern: str):
        self.p, self.i = pattern, 0

    def peek(self) -> str:
        return self.p[self.i] if self.i < len(self.p) else ""

    def alternation(self) -> list[list]:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence())
        return branches

    def sequence(self) -> list:
        items = []
        while self.peek() not in ("", "|", ")"):
            items.append(self.item())
        return items

    def item(self) -> tuple:
        ch = self.peek()
        if ch == "(":
            ways, zero_width = self.group()
            if zero_width:
                self.no_quantifier()
                return "other", ways, False
            low, high, _ = self.quantifier()
            if (low, high) == (1, 1):
                return "other", ways, False
            if (low, high) == (0, 1):
                return "other", _add(_ONE, ways), True
            raise _Unbounded("a repeated group")
        if ch in "^$":
            self.i += 1
            self.no_quantifier()
            return "other", _ONE, False
        if ch == "\\" and self.p[self.i + 1 : self.i + 2] in _ZERO_WIDTH_ESCAPES:
            self.i += 2
            self.no_quantifier()
            return "other", _ONE, False
        self.char()
        low, high, possessive = self.quantifier()
        if possessive or low == high:
            return "char", _ONE, low == 0
        if high is None:
            return "char", (1, 1), low == 0
        return "char", (high - low + 1, 0), low == 0

    def no_quantifier(self) -> None:
        if self.peek() in ("?", "*", "+", "{"):
            raise _Unbounded("a repeated assertion")

    def char(self) -> None:
        """One character or one class of characters."""
        ch = self.peek()
        if ch == "[":
            self.char_class()
        elif ch == "\\":
            self.escape()
        elif ch in ("", ")", "|", "?", "*", "+", "{", "}", "]"):
            raise _Unbounded(f"unexpected {ch!r}")
        else:
            self.i += 1

    def escape(self) -> None:
        nxt = self.p[self.i + 1 : self.i + 2]
        if not nxt:
            raise _Unbounded("a trailing backslash")
        if nxt.isalnum() and nxt not in _CHAR_ESCAPES:
            raise _Unbounded(f"the escape \\{nxt}")  # back-references, \X, \K, \g, \k ...
        self.i += 2
        if nxt in "pPNxuU" and self.peek() == "{":
            end = self.p.find("}", self.i)
            if end < 0:
                raise _Unbounded("an unclosed \\p{")
            self.i = end + 1
        elif nxt in "pP":
            self.i += 1  # \pL
        elif nxt == "x":
            self.i += 2
        elif nxt == "u":
            self.i += 4
        elif nxt == "U":
            self.i += 8
        elif nxt == "0":
            while self.peek().isdigit():
                self.i += 1

    def char_class(self) -> None:
        self.i += 1
        if self.peek() == "^":
            self.i += 1
        if self.peek() == "]":
            self.i += 1  # a literal "]" first
        while True:
            ch = self.peek()
            if ch == "":
                raise _Unbounded("an unclosed class")
            if ch == "]":
                self.i += 1
                return
            if ch == "[":
                raise _Unbounded("a nested class")
            self.i += 2 if ch == "\\" else 1

    def group(self) -> tuple[Ways, bool]:
        """A group's ways and whether it is zero-width (a lookaround: atomic, its work counted)."""
        p = self.p
        self.i += 1
        zero_width = False
        if p.startswith("?", self.i):
            head = p[self.i + 1 : self.i + 3]
            if head[:1] in ("=", "!") or head in ("<=", "<!"):
                self.i += 1 + (2 if head[0] == "<" else 1)
                zero_width = True
            elif head[:1] == ":":
                self.i += 2
            elif head[:1] in ("P", "<") and head not in ("<=", "<!"):
                end = p.find(">", self.i)
                if end < 0 or (head[0] == "P" and not p.startswith("?P<", self.i)):
                    raise _Unbounded("an unknown group")
                self.i = end + 1
            else:
                j = self.i + 1
                while j < len(p) and p[j] in _SAFE_FLAGS:
                    j += 1
                if j == self.i + 1 or j >= len(p) or p[j] not in ":)":
                    raise _Unbounded("an unknown group")  # atomic, conditional, comment, x or f flags
                if p[j] == ")":
                    self.i = j + 1  # flags for the rest: no characters, nothing to repeat
                    return _ONE, True
                self.i = j + 1
        branches = self.alternation()
        if self.peek() != ")":
            raise _Unbounded("an unclosed group")
        self.i += 1
        ways = (0, 0)
        for items in branches:
            branch = _ONE
            for item in items:
                branch = _mul(branch, item[1])
            ways = _add(ways, branch)
        return ways, zero_width

    def quantifier(self) -> tuple[int, int | None, bool]:
        """``(low, high, possessive)``; ``(1, 1, False)`` when there is none."""
        ch = self.peek()
        if ch == "?":
            low, high = 0, 1
        elif ch == "*":
            low, high = 0, None
        elif ch == "+":
            low, high = 1, None
        elif ch == "{":
            end = self.p.find("}", self.i)
            body = self.p[self.i + 1 : end] if end > 0 else ""
            lo, comma, hi = body.partition(",")
            if not (lo or hi) or not (lo.isdigit() or not lo) or not (hi.isdigit() or not hi):
                raise _Unbounded("a brace that is not a repeat")  # also fuzzy matching {e<=1}
            low = int(lo or 0)
            high = (int(hi) if hi else None) if comma else low
            if high is not None and high - low > _MAX_SMALL_REPEAT:
                high = None
            self.i = end
        else:
            return 1, 1, False
        self.i += 1
        possessive = self.peek() == "+"
        if self.peek() in ("?", "+"):
            self.i += 1
        return low, high, possessive
