"""``BertText``'s per-character facts, pinned to the normalizer's own result for the character alone.

A character every step of ``BertNormalizer`` leaves as it is (``bert_chars._kept_alone``: the
steps' own first tests) takes its facts without running the normalizer; any other runs it. Both
must equal what the normalizer makes of the character (its text and the codes of its parts,
``bert_chars._parts``) for every option set, on characters of every category: each step's
rewrites (spaces, controls, U+FFFD, CJK, precomposed accents, Mn marks, capitals, ``İ``) and
characters none touches. (A sweep of all 1,114,112 code points for the six option sets found
no difference when the shortcut was written.)
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_wp_bert_chars import OPTIONS

from tokcore.core.normalized import NormalizedString
from tokcore.normalizers.bert_chars import _MARK, BertText, _parts
from tokcore.normalizers.standard import BertNormalizer
from tokcore.normalizers.unicode_pieces import _norm

# What each step rewrites, and characters none touches (a lone surrogate, an unassigned one, a spacing mark).
SAMPLES = "aéeЖжİß中\u0301\u0903\u3000\u00a0\t\x00\u200d\ufffd\ufb01\u1e9e😀\ud800\u0378"


def check(opts: str, c: str) -> None:
    normalizer = BertNormalizer(**OPTIONS[opts])
    bert = BertText(normalizer)
    ns = normalizer.normalize(NormalizedString(c))
    assert (bert.text_of[ord(c)], bert.codes[ord(c)]) == (ns.normalized, _parts(ns)), hex(ord(c))
    # Read in the other order on a fresh object: the same facts (one computation fills both tables).
    other = BertText(normalizer)
    assert (other.codes[ord(c)], other.text_of[ord(c)]) == (_parts(ns), ns.normalized), hex(ord(c))


@pytest.mark.parametrize("opts", list(OPTIONS))
def test_each_steps_characters_facts_are_the_normalizers(opts):
    for c in SAMPLES:
        check(opts, c)


@pytest.mark.parametrize("opts", list(OPTIONS))
@settings(max_examples=400, deadline=None)
@given(st.characters())
def test_any_characters_facts_are_the_normalizers(opts, c):
    check(opts, c)


def test_every_character_but_a_mark_decomposes_to_a_starter_first():
    # BertText skips its whole-text NFD check on a text without marks (bert_chars._MARK): each other
    # character's NFD alone (the table's, which must be unicodedata's) starts with a starter, so the
    # characters' NFDs in turn are the text's NFD. A Unicode or regex upgrade that breaks this fails here.
    everything = "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, 0x110000)))
    others = _MARK.sub("", everything)
    assert 0 < len(others) < len(everything)
    wrong = [c for c in others
             if (d := unicodedata.normalize("NFD", c)) != _norm("NFD", c) or unicodedata.combining(d[0])]
    assert not wrong, [hex(ord(c)) for c in wrong[:10]]
