"""Entries of words BertPreTokenizer cuts into several pieces (``tokcore.fast.plan._joined_entry``).

A word such as ``said,`` or ``don't`` is made of its pieces' entries, each kept as a word of its
own; the result must equal the general per-token mapping of the whole word (``_entry`` with the
quick builders off), for WordPiece words that split, stay whole or become ``[UNK]``, in ASCII and
not, and the pieces must land in the word cache as the words they are.
"""

from __future__ import annotations

import copy

import fast_pairs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.fast.plan import _entry, _joined_entry, word_plan

NAMES = ["minilm/tokenizer.json", "trained/bert_cased_wordpiece.json"]
WORDS = ["said,", "don't", "(hello)", "U.S.A.", "x-ray", "«Ça»", "naïve!", "中文,", "ok…", "¿qué?", "a,b,c",
         "𝔘𝔫𝔦!", "zzqxj!", "$100", "e\u0301!", "!!!", "a" * 120 + "!", "1,000.5"]


_COPIES: dict = {}  # name -> a private copy of the tokenizer (a deep copy per example took 80 ms)


def plans(name: str):
    """(a fresh plan, one with the quick builders off: the general path) for tokenizer ``name``."""
    if name not in _COPIES:
        _COPIES[name] = copy.deepcopy(fast_pairs.pair_for("hf", name)[0])
    tok = _COPIES[name]
    tok.__dict__.pop("_word_plan", None)
    quick = word_plan(tok)
    general = copy.copy(quick)
    general.cache, general.first, general.quick, general.joins, general.split = {}, {}, None, False, None
    return quick, general


@pytest.mark.parametrize("name", NAMES)
def test_joined_entries_equal_the_general_path(name):
    quick, general = plans(name)
    for word in WORDS:
        assert _entry(quick, word, False, 1) == _entry(general, word, False, 1), word
    assert _joined_entry(quick, "said,") is not None and _joined_entry(quick, "said") is None
    assert quick.cache["said"] == _entry(general, "said", False, 1)  # the piece, kept as a word


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=200, deadline=None)
@given(word=st.text(st.sampled_from("ab.,'!-é中\u0301ß€…’"), min_size=1, max_size=10)
       | st.text(min_size=1, max_size=6).filter(lambda w: not any(c.isspace() for c in w)))
def test_any_word_without_spaces(name, word):
    quick, general = plans(name)
    assert _entry(quick, word, False, 1) == _entry(general, word, False, 1)


def test_a_piece_whose_tokens_leave_a_gap_takes_the_general_path():
    # BPE without an unknown token drops "z": the piece "az" is not covered end to end, so the word
    # "az!" cannot be its pieces' byte lengths in turn.
    import tokcore
    from tokcore.models.bpe import BPE
    from tokcore.pre_tokenizers.standard import BertPreTokenizer

    tok = tokcore.Tokenizer(BPE({"a": 0, "b": 1, "!": 2, "ab": 3}, [("a", "b")]), pre_tokenizer=BertPreTokenizer())
    plan = word_plan(tok)
    assert plan.joins and _joined_entry(plan, "az!") is None
    general = copy.copy(plan)
    general.cache, general.first, general.quick, general.joins = {}, {}, None, False
    assert _entry(plan, "az!", False, 1) == _entry(general, "az!", False, 1)
    assert _entry(plan, "ab!", False, 1) == _entry(general, "ab!", False, 1)
