"""The backtracking bound that lets proven patterns run without ``regex``'s per-attempt timeout
(tests/robust/test_hostile_patterns.py checks that unproven catastrophic ones still time out).

``backtrack_degree`` must be conservative: anything it does not understand is ``None`` (timed), and
the degree of a pattern is never below what its worst input forces. The matches never depend on
it (a timeout only ever stops a search), so these tests pin the bound and the guard, not spans.
"""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.text.byte_level import GPT2_REGEX, R50K_PATTERN
from tokcore.text.onig_regex import compile_onig, search_timeout, user_regex_timeout
from tokcore.text.regex_cost import backtrack_degree, worst_case_steps

LLAMA3 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
          r"|\s*[\r\n]+|\s+(?!\S)|\s+")
CLIP = r"'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"


@pytest.mark.parametrize("pattern, degree", [
    (CLIP, 0),                      # every repeat ends its branch: linear
    (r"[0-9][0-9][0-9]", 0),
    (" ", 0),
    (r"\p{N}{1,3}", 0),
    (r"a+b*c?", 0),                 # succeeds on the greedy path once a+ has matched
    (r"\s+(?!\S)|\s+", 1),          # the lookahead can fail: \s+ gives back
    (GPT2_REGEX.pattern, 1),
    (R50K_PATTERN, 1),
    (LLAMA3, 1),                    # \s*[\r\n]+ backtracks over a run of spaces
    (r"[a-z]+b", 1),                # b can fail after the run
    (r"a*b+", 1),
    (r"a*a*a*b", 3),
    (r"x(?:ab|cd)?y*", 0),
    (r"(?i)\bfoo\b", 0),
    (r"[]a]+", 0),
])
def test_degree_of_known_patterns(pattern, degree):
    assert backtrack_degree(pattern)[1] == degree


@pytest.mark.parametrize("pattern", [
    r"(a+)+b", r"(a|aa)+$", r"(?:\w+\s?)*$", r"(a)\1", r"(?x) a+ ", r"\X+", r"(?>a+)b", r"(?(1)a|b)",
    r"[[:alpha:]]+", r"a{e<=1}", r"(?f)ss", r"(?#c)a", "(a", "a)", "a\\", r"(?V1)[[a-z]--[aeiou]]+",
])
def test_unproven_patterns_have_no_bound(pattern):
    assert backtrack_degree(pattern) is None


def test_odd_flags_are_never_proven():
    assert backtrack_degree("a+") is not None
    assert backtrack_degree("a+", odd_flags=True) is None
    assert search_timeout(regex.compile("a+", regex.VERBOSE), 10) == user_regex_timeout(10)
    assert search_timeout(regex.compile("a+", regex.IGNORECASE | regex.FULLCASE), 10) == user_regex_timeout(10)


def test_search_timeout_follows_the_bound():
    # Linear patterns never need one; degree 1 only on long texts; unproven ones always.
    assert search_timeout(regex.compile(CLIP), 10**7) is None
    llama3 = regex.compile(LLAMA3)
    assert search_timeout(llama3, 200) is None
    assert search_timeout(llama3, 100_000) == user_regex_timeout(100_000)
    assert search_timeout(regex.compile(r"(a|aa)+$"), 5) == user_regex_timeout(5)
    # Oniguruma's translations (\Z -> a lookahead) stay within the parsed syntax.
    assert search_timeout(compile_onig(r"\s+\Z"), 100) is None
    assert worst_case_steps("a+|b", 9) == 20.0


# Patterns over a small alphabet of constructs, well-formed or not: the parser never raises.
_PARTS = ["a", "b", "\\s", "\\S", "\\p{L}", "[a-z]", "[^a]", ".", "(", ")", "(?:", "(?!", "(?=", "|",
          "?", "*", "+", "{2}", "{1,3}", "{2,}", "^", "$", "\\b", "\\1", "[", "]", "{", "}", "\\"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PARTS), max_size=12).map("".join))
def test_the_parser_never_raises(pattern):
    bound = backtrack_degree(pattern)
    assert bound is None or (bound[0] >= 1 and bound[1] >= 0)
