"""``ascii_twin``: the ``re`` pattern ``find_matches`` runs on ASCII text must match exactly as the
file's pattern does under the ``regex`` module, span for span, and refuse what it cannot spell."""

from __future__ import annotations

import string

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.text.ascii_twin import ascii_twin
from tokcore.text.byte_level import GPT2_REGEX
from tokcore.text.onig_regex import compile_onig, find_matches

LLAMA3 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
          r"|\s*[\r\n]+|\s+(?!\S)|\s+")
PATTERNS = [
    LLAMA3, GPT2_REGEX.pattern,
    r"<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+",
    r"[0-9][0-9][0-9]", " ", r"\w+|[^\w\s]+", r"\S+", r"\d+|\D", r"\W+", r"(?i)the\b", r"\bx\B",
    r"^a|b$", r"[\]\-a]+", r"\x41+|\u0062", r"a{2,}?", r"\s++", r"\P{L}+", r"[^\d\s]+", r"\.\*",
]
# Every ASCII character, with the whitespace and the \x1c-\x1f separators that ``re`` and
# ``regex`` class differently as spaces, over-represented.
ASCII = st.text(alphabet=st.sampled_from(string.printable + "\x1c\x1d\x1e\x1f\x00\x7f" + "  \n\n\t'sS"), max_size=40)


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=100, deadline=None)
@given(text=ASCII)
def test_the_twin_matches_as_regex_does_on_ascii(pattern, text):
    twin = ascii_twin(pattern, regex.compile(pattern).flags)
    assert twin is not None
    want = [m.span() for m in regex.compile(pattern).finditer(text)]
    assert [m.span() for m in twin.finditer(text)] == want


@pytest.mark.parametrize("flags", [regex.MULTILINE, regex.IGNORECASE, regex.DOTALL])
@settings(max_examples=80, deadline=None)
@given(text=ASCII)
def test_flags_carry_over(flags, text):
    pattern = r"^\s*the.|x$"
    rx = regex.compile(pattern, flags)
    assert [m.span() for m in ascii_twin(pattern, rx.flags).finditer(text)] == [m.span() for m in rx.finditer(text)]


@pytest.mark.parametrize("pattern", [r"[^\S]", r"[\W]", r"\p{Lu}", r"\X", r"\z", r"\h", r"(?<name>a)", r"[[:alpha:]]",
                                     r"[a", r"\N", r"\e"])
def test_what_re_cannot_spell_has_no_twin(pattern):
    assert ascii_twin(pattern, 0) is None


def test_odd_flags_have_no_twin():
    assert ascii_twin("a", regex.VERBOSE) is None
    assert ascii_twin("a", regex.compile("a", regex.V1).flags) is None


@settings(max_examples=200, deadline=None)
@given(text=ASCII | st.text(max_size=30))
def test_find_matches_is_the_same_through_the_twin(text):
    # find_matches takes the twin on ASCII text only; the result is regex's in every case.
    rx = compile_onig(LLAMA3)
    want = [m.span() for m in rx.finditer(text)]
    assert find_matches(rx, text) == want
