"""Hostile input that used to hang or blow up now ends with an actionable ``ValueError`` in bounded time.

- a ``tokenizer.json`` whose regex backtracks catastrophically (``(a+)+$`` over 5,000 a's and a ``!``)
  in a normalizer, a pre-tokenizer (reference and fast paths) and a decoder;
- training counts beyond what floating point scores exactly (10**30).
The tests assert the error and its message, never a time.
"""

from __future__ import annotations

import copy

import pytest

import tokcore
from tokcore.core.errors import ConfigurationError
from tokcore.models.word_level import WordLevel
from tokcore.text.onig_regex import user_regex_timeout

EVIL = "(a+)+$"
TEXT = "a" * 5000 + "!"


def _tokenizer(**stages) -> tokcore.Tokenizer:
    vocab = {"[UNK]": 0, "a": 1, "!": 2}
    return tokcore.Tokenizer.from_dict({"model": WordLevel(vocab, unk_token="[UNK]").to_dict(), **stages})


@pytest.fixture(autouse=True)
def _short_budget(monkeypatch):
    # The budget scales with the text; a short one keeps these tests quick on a busy machine.
    # Every timed search takes it from ``search_timeout``, in onig_regex.
    import tokcore.text.onig_regex as onig

    monkeypatch.setattr(onig, "user_regex_timeout", lambda n: 0.5)


@pytest.mark.parametrize("fast", [True, False])
def test_a_catastrophic_split_pattern_ends_with_an_error_naming_it(fast):
    tok = _tokenizer(pre_tokenizer={"type": "Split", "pattern": {"Regex": EVIL}, "behavior": "Isolated",
                                    "invert": False})
    tok.fast = fast
    with pytest.raises(ConfigurationError, match=r"backtracks catastrophically.*simplify the pattern") as err:
        tok.encode(TEXT)
    assert EVIL in str(err.value)


def test_a_catastrophic_normalizer_pattern_ends_with_an_error():
    tok = _tokenizer(normalizer={"type": "Replace", "pattern": {"Regex": EVIL}, "content": "x"})
    with pytest.raises(ValueError, match="backtracks catastrophically"):
        tok.encode(TEXT)


def test_a_catastrophic_decoder_pattern_ends_with_an_error():
    tok = _tokenizer(decoder={"type": "Replace", "pattern": {"Regex": EVIL}, "content": "x"})
    tok2 = copy.deepcopy(tok)
    with pytest.raises(ValueError, match="backtracks catastrophically"):
        tok2.decoder.decode([TEXT])


def test_the_budget_grows_with_the_text():
    assert user_regex_timeout(0) == 2.0 and user_regex_timeout(1_000_000) == 22.0


def test_counts_beyond_exact_float_scores_are_refused_with_the_fix():
    for train in (tokcore.train_wordpiece, tokcore.train_bpe, tokcore.train_unigram):
        with pytest.raises(ConfigurationError, match="divide every count"):
            train({"hello": 10**30, "world": 3}, 40, special_tokens=["[UNK]"])
