"""WordPiece training by the likelihood score, checked by hand and against a naive re-count.

The classic course corpus is hug x10, pug x5, pun x12, bun x4, hugs x5. Every score below is
computed by hand from the definition score(a, b) = f(ab) / (f(a) f(b)), f counted in the current
splits, ties to the pair seen first. Where the published course text differs, the definition
wins: after ("h", "##u") the course says ("hu", "##g") and ("hu", "##gs") tie at 1/15 and merges
"hug" third. By the definition f(hu) = 15 and f(##g) = 15 (hug x10 + pug x5) at that point,
so ("hu", "##g") scores 10/225 = 2/45 while ("hu", "##gs") scores 5/(15*5) = 1/15: "hugs" is
the third merge and "hug" the fourth (then 10/(10*15) = 1/15).
"""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared
from wordpiece_reference import naive_wordpiece

from tokcore.core.errors import ConfigurationError, WrongTypeError
from tokcore.trainers.wordpiece import WordPieceStep, train_wordpiece

TOY = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

# (left, right, merged, count f(ab), f(a), f(b), exact score), worked out by hand.
TOY_STEPS = [
    ("##g", "##s", "##gs", 5, 20, 5, Fraction(1, 20)),  # every other pair scores 1/36
    ("h", "##u", "hu", 15, 15, 36, Fraction(1, 36)),  # six pairs tie at 1/36: hug's pair comes first
    ("hu", "##gs", "hugs", 5, 15, 5, Fraction(1, 15)),  # the course says "hug" here (see the docstring)
    ("hu", "##g", "hug", 10, 10, 15, Fraction(1, 15)),
    ("p", "##u", "pu", 17, 17, 21, Fraction(1, 21)),  # four pairs tie at 1/21: pug comes before bun
    ("b", "##u", "bu", 4, 4, 4, Fraction(1, 4)),
    ("bu", "##n", "bun", 4, 4, 16, Fraction(1, 16)),
    ("pu", "##g", "pug", 5, 17, 5, Fraction(1, 17)),  # ties with ("pu", "##n") 12/(17*12): pug first
    ("pu", "##n", "pun", 12, 12, 12, Fraction(1, 12)),
]


def _words(tokenizer, word):
    return [t[1] for t in tokenizer.model.tokenize(word)]


def test_classic_course_corpus_merges_and_scores():
    result = train_wordpiece(TOY, 100, special_tokens=SPECIALS)
    got = [(s.left, s.right, s.merged, s.count, s.left_frequency, s.right_frequency,
            Fraction(s.count, s.left_frequency * s.right_frequency)) for s in result.steps]
    assert got == TOY_STEPS
    assert [s.score for s in result.steps] == [float(t[-1]) for t in TOY_STEPS]
    assert all(isinstance(s, WordPieceStep) for s in result.steps)
    with pytest.raises(AttributeError):
        result.steps[0].score = 1.0  # frozen records
    vocab = result.tokenizer.get_vocab()
    alphabet = ["##g", "##n", "##s", "##u", "b", "h", "p"]
    assert result.details["alphabet"] == alphabet
    assert list(vocab) == SPECIALS + alphabet + [t[2] for t in TOY_STEPS]
    assert list(vocab.values()) == list(range(21))
    assert result.details["word_counts"] == TOY
    assert result.details["splits"] == {"hug": ["hug"], "pug": ["pug"], "pun": ["pun"], "bun": ["bun"], "hugs": ["hugs"]}


def test_unseen_words():
    tok = train_wordpiece(TOY, 100, special_tokens=SPECIALS).tokenizer
    assert _words(tok, "bugs") == ["bu", "##gs"]
    assert _words(tok, "pugs") == ["pug", "##s"]
    assert _words(tok, "mug") == ["[UNK]"]  # no "m" at all
    assert _words(tok, "hugging") == ["[UNK]"]  # "hug", "##g", then no "##i": the whole word is unknown
    assert _words(tok, "hugs") == ["hugs"]
    # A smaller budget stops after three merges: 5 specials + 7 characters + 3.
    small = train_wordpiece(TOY, 15, special_tokens=SPECIALS)
    assert [s.merged for s in small.steps] == ["##gs", "hu", "hugs"]
    assert _words(small.tokenizer, "hug") == ["hu", "##g"]
    assert _words(small.tokenizer, "bugs") == ["b", "##u", "##gs"]
    assert small.tokenizer.vocab_size == 15


def test_score_table_candidates():
    result = train_wordpiece(TOY, 100, special_tokens=SPECIALS, top_candidates=4)
    table = result.details["candidates"]
    assert len(table) == len(result.steps)
    for step, rows in zip(result.steps, table):
        assert rows[0][:3] == (step.left, step.right, step.count)
        scores = [Fraction(r[2], r[3] * r[4]) for r in rows]
        assert scores == sorted(scores, reverse=True)
        assert all(r[5] == r[2] / (r[3] * r[4]) for r in rows)
    assert table[1] == [
        ("h", "##u", 15, 15, 36, 1 / 36),
        ("##u", "##g", 15, 36, 15, 1 / 36),
        ("p", "##u", 17, 17, 36, 1 / 36),
        ("##u", "##n", 16, 36, 16, 1 / 36),
    ]
    assert train_wordpiece(TOY, 100, top_candidates=0).details["candidates"] is None
    auto = train_wordpiece(TOY, 100).details  # "auto": 10 per step on a small corpus
    assert [rows[:4] for rows in auto["candidates"]] == [rows[:4] for rows in table]
    assert auto["stop_reason"] == "no pair left"
    assert train_wordpiece(TOY, 15).details["stop_reason"] == "vocab_size reached"


def test_options():
    # min_frequency: only pairs seen at least that often are candidates.
    steps = train_wordpiece(TOY, 100, min_frequency=10).steps
    assert all(s.count >= 10 for s in steps) and steps
    # limit_alphabet: words with a rarer character are left out of training.
    res = train_wordpiece({"ab": 5, "ac": 1, "abab": 2}, 100, limit_alphabet=2, unk_token="[UNK]")
    assert res.details["skipped_words"] == 1 and "##c" not in res.tokenizer.get_vocab()
    assert _words(res.tokenizer, "ac") == ["[UNK]"]
    # unk_token joins the special tokens once; a custom prefix is used everywhere.
    res = train_wordpiece(TOY, 30, special_tokens=["[UNK]"], unk_token="[UNK]", continuing_subword_prefix="@@")
    vocab = res.tokenizer.get_vocab()
    assert vocab["[UNK]"] == 0 and "@@gs" in vocab and not any(t.startswith("##") for t in vocab)
    assert _words(res.tokenizer, "bugs") == ["bu", "@@gs"]
    # The whole alphabet is kept even when vocab_size is smaller (as HF's trainers do).
    assert train_wordpiece(TOY, 3).tokenizer.vocab_size == 7
    calls = []
    train_wordpiece(TOY, 100, progress=lambda done, total, what: calls.append((done, total, what)))
    assert calls and calls[-1][0] == calls[-1][1]


def test_bad_arguments():
    with pytest.raises(WrongTypeError):
        train_wordpiece("hug hug", 10)
    with pytest.raises(WrongTypeError):
        train_wordpiece(TOY, 10, special_tokens="[UNK]")
    with pytest.raises(WrongTypeError):
        train_wordpiece(TOY, "10")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        train_wordpiece(TOY, 10, min_frequency=-1)
    with pytest.raises(ConfigurationError):
        train_wordpiece({"hug": -1}, 10)
    with pytest.raises(ConfigurationError):
        train_wordpiece(TOY, 10, top_candidates="all")


def test_text_corpus_uses_whitespace_pre_tokenizer_and_decoder():
    corpus = ["hug hug, pug!", "pun pun bun hugs"] * 3
    res = train_wordpiece(corpus, 40, special_tokens=["[UNK]"], unk_token="[UNK]")
    tok = res.tokenizer
    assert type(tok.pre_tokenizer).__name__ == "Whitespace"
    assert "," in tok.get_vocab() and "!" in tok.get_vocab()
    ids = tok.encode("hugs, pun!")
    assert tok.decode(ids) == "hugs, pun!"
    assert [t for t in tok.encode_result("bugs").tokens] == ["bu", "##gs"]


# ------------------------------------------------------------------ naive cross-check


corpora = st.dictionaries(st.text("abcd#", min_size=1, max_size=7), st.integers(1, 6), min_size=1, max_size=10)


@settings(max_examples=200, deadline=None)
@given(corpora, st.integers(1, 3), st.sampled_from(["##", ""]))
def test_incremental_counts_match_the_naive_definition(counts, min_frequency, prefix):
    res = train_wordpiece(counts, 10_000, min_frequency=min_frequency, continuing_subword_prefix=prefix,
                          unk_token="[UNK]")
    want = naive_wordpiece(counts, min_frequency=min_frequency, prefix=prefix)
    assert res.steps == want["steps"]
    assert res.details["splits"] == want["splits"]
    # Every training word encodes without the unknown token, and offsets cover the word.
    model = res.tokenizer.model
    for w in counts:
        toks = model.tokenize(w)
        assert "[UNK]" not in [t[1] for t in toks]
        assert toks[0][2] == 0 and toks[-1][3] == len(w)


def test_botchan_trains_in_seconds_and_matches_naive_start():
    text = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8")
    t0 = time.perf_counter()
    res = train_wordpiece(text.splitlines(), 3000, special_tokens=["[UNK]"], unk_token="[UNK]")
    elapsed = time.perf_counter() - t0
    print(f"\ntokcore train_wordpiece botchan, vocab 3000: {len(res.steps)} merges in {elapsed:.2f}s")
    assert res.tokenizer.vocab_size == 3000
    assert len({s.merged for s in res.steps}) <= len(res.steps)
    # The first 40 merges equal the naive recount on the same words.
    from tokcore.pre_tokenizers.standard import Whitespace
    from tokcore.trainers.base import count_words

    counts = count_words(text.splitlines(), pre_tokenizer=Whitespace())
    want = naive_wordpiece(counts, len(res.details["alphabet"]) + 41)["steps"]
    assert res.steps[:40] == want[:40]
    # Training words never come out unknown.
    for w in list(counts)[:2000]:
        assert "[UNK]" not in _words(res.tokenizer, w)


def test_export_to_hf_encodes_identically(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    text = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    tok = train_wordpiece(lines, 800, special_tokens=["[UNK]", "[CLS]"], unk_token="[UNK]").tokenizer
    path = tmp_path / "wp.json"
    tok.save_hf(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    for line in lines[:400] + ["Café naïve déjà-vu [CLS] zzzqqq"]:
        ours = tok.encode_result(line, return_offsets=True)
        theirs = hf.encode(line)
        assert ours.ids == theirs.ids, line
        assert ours.tokens == theirs.tokens
        assert hf.decode(theirs.ids) == tok.decode(ours.ids, skip_special_tokens=True)
