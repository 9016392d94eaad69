"""The incremental WordPiece trainer against the naive recount, record for record.

Small and medium corpora are checked step by step against ``naive_wordpiece`` (steps with their
frequencies and scores, the score tables, final splits, vocabulary order, stop reason). Runs too
large for the naive recount are pinned by digest: the digests below were taken from the trainer
as it stood at c790850 (re-scoring every pair of a merged symbol), whose runs the naive recount
also matched on every corpus small enough to check.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import ROOT, require_shared
from wordpiece_reference import naive_wordpiece, trace_digest

from tokcore.pre_tokenizers.standard import BertPreTokenizer, Whitespace
from tokcore.trainers.base import count_words
from tokcore.trainers.wordpiece import train_wordpiece

TOY = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
SAMPLES = ROOT / "sample_vocabs" / "corpora"


def assert_matches_naive(counts: dict[str, int], vocab_size: int = 10**9, *, min_frequency: int = 1,
                         prefix: str = "##", specials: tuple = (), top: int = 10) -> None:
    res = train_wordpiece(counts, vocab_size, special_tokens=list(specials), min_frequency=min_frequency,
                          continuing_subword_prefix=prefix, top_candidates=top)
    want = naive_wordpiece(counts, vocab_size, min_frequency=min_frequency, prefix=prefix, specials=specials, top=top)
    assert res.steps == want["steps"]
    assert (res.details["candidates"] or []) == want["tables"]
    assert res.details["splits"] == want["splits"]
    assert list(res.tokenizer.get_vocab()) == want["vocab"]
    assert res.details["stop_reason"] == want["stop_reason"]


def _sample_words(name: str, pre_tokenizer=None) -> dict[str, int]:
    lines = (SAMPLES / name).read_text(encoding="utf-8").splitlines()
    return count_words(lines, pre_tokenizer=pre_tokenizer or Whitespace())


@pytest.mark.parametrize("name", ["english.txt", "multilingual.txt", "code.txt", "chat.txt"])
@pytest.mark.parametrize("prefix, min_frequency", [("##", 1), ("", 2)])
def test_sample_corpora_match_the_naive_recount(name, prefix, min_frequency):
    assert_matches_naive(_sample_words(name), prefix=prefix, min_frequency=min_frequency)


def test_classic_corpus_and_a_budget_match_the_naive_recount():
    assert_matches_naive(TOY, specials=("[UNK]",), top=20)
    assert_matches_naive(TOY, 12, specials=("[UNK]", "hug"), top=3)  # "hug" is a token before it is merged


def test_botchan_start_matches_the_naive_recount():
    lines = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8")[:3_000].splitlines()
    assert_matches_naive(count_words(lines, pre_tokenizer=Whitespace()), top=5)


# Merges of one symbol with itself, merged names made twice ("a" + "##bc" and "ab" + "##c"),
# specials that are also symbols, a prefix made of the corpus's own characters, budgets that stop
# part way: all the places an incremental count can drift from the definition.
corpora = st.dictionaries(st.text("abc#", min_size=1, max_size=8), st.integers(1, 6), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(corpora, st.integers(0, 3), st.sampled_from(["##", "", "#"]), st.integers(0, 4),
       st.sampled_from([10**9, 6, 9, 14]), st.sampled_from([(), ("a",), ("[UNK]", "ab")]))
def test_random_corpora_match_the_naive_recount(counts, min_frequency, prefix, top, vocab_size, specials):
    assert_matches_naive(counts, vocab_size, min_frequency=min_frequency, prefix=prefix, specials=specials, top=top)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text("ab#", min_size=1, max_size=6), st.sampled_from([1, 3, 2**40 - 1, 2**40, 2**52]),
                       min_size=1, max_size=8))
def test_huge_counts_keep_exact_ties(counts):
    # Scores of huge counts differ in the last bits only: the integer keys must still tell them apart.
    assert_matches_naive(counts, top=3)


# (characters of botchan, options, merges made, digest of the whole run)
GOLDEN = [
    (100_000, {"vocab_size": 30_000}, 9369, "a197cc32a4bfabd0"),
    (30_000, {"vocab_size": 30_000, "top_candidates": 10, "min_frequency": 2}, 2252, "b875de351de6601d"),
    (60_000, {"vocab_size": 30_000, "continuing_subword_prefix": "", "pre_tokenizer": BertPreTokenizer()}, 7406, "76322eaa3f1bc4d4"),
]


@pytest.mark.parametrize("chars, options, merges, digest", GOLDEN)
def test_botchan_runs_are_unchanged(chars, options, merges, digest):
    text = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8")[:chars]
    res = train_wordpiece(text.splitlines(), **options)
    assert (len(res.steps), trace_digest(res)) == (merges, digest)
