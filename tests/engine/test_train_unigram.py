"""Unigram trainer and the classroom computations: the course's hug/pug/pun/bun/hugs example worked
from the definitions, forward-backward against brute force, pruning records, botchan against HF."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import ROOT, require_shared

from tokcore import validate_offsets_contract
from tokcore.core.errors import ConfigurationError, WrongTypeError
from tokcore.models.unigram import Unigram
from tokcore.trainers import unigram as U
from tokcore.trainers.unigram import UnigramStep, train_unigram, unigram_loss, unigram_removal_losses

COURSE = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def course_vocab() -> dict[str, int]:
    """The course's initial vocabulary: every strict substring of a word, with its corpus frequency."""
    vocab = {w[i:j] for w in COURSE for i in range(len(w)) for j in range(i + 1, len(w) + 1) if j - i < len(w)}
    return {p: sum(c * sum(w[i:].startswith(p) for i in range(len(w))) for w, c in COURSE.items()) for p in vocab}


def course_probs() -> dict[str, float]:
    freqs = course_vocab()
    total = sum(freqs.values())
    return {p: f / total for p, f in freqs.items()}


def segmentations(word, vocab):
    """Every way to write ``word`` with pieces of ``vocab`` (brute force)."""
    if not word:
        yield []
        return
    for k in range(1, len(word) + 1):
        if word[:k] in vocab:
            for rest in segmentations(word[k:], vocab):
                yield [word[:k]] + rest


def prob(seg, probs):
    return math.prod(probs[p] for p in seg)


# ------------------------------------------------------------------ the course example


def test_course_initial_vocabulary_and_frequencies():
    freqs = course_vocab()
    assert freqs == {"h": 15, "u": 36, "g": 20, "hu": 15, "ug": 20, "p": 17, "pu": 17, "n": 16, "un": 16,
                     "b": 4, "bu": 4, "s": 5, "hug": 15, "gs": 5, "ugs": 5}
    assert sum(freqs.values()) == 210
    assert course_probs()["hug"] == pytest.approx(15 / 210) and round(course_probs()["hug"], 6) == 0.071429


def test_course_segmentations_of_pug():
    probs = course_probs()
    # The course's paragraph on "pug" prints 0.000389 for ["p", "u", "g"] and 0.0022676 for
    # ["p", "ug"] / ["pu", "g"]: those are the products with P("p") = 5/210 (the count of the word
    # "pug", not of the piece "p"). The definition, P("p") = 17/210, gives 0.001322 and 0.007710,
    # and the course's own loss table uses 0.007710 for "pug". The definition wins.
    assert round(prob(["p", "u", "g"], probs), 6) == 0.001322
    assert round(prob(["p", "ug"], probs), 6) == 0.00771 == round(prob(["pu", "g"], probs), 6)
    assert round(5 * 36 * 20 / 210**3, 6) == 0.000389 and round(5 * 20 / 210**2, 7) == 0.0022676
    # The course: "pug" is ["p", "ug"] or ["pu", "g"], whichever is met first. Under HF's and
    # sentencepiece's rule (equal scores: the last piece that starts earliest) it is ["p", "ug"].
    model = Unigram([(p, math.log(q)) for p, q in probs.items()])
    assert [t[1] for t in model.tokenize("pug")] == ["p", "ug"]
    best = max(prob(s, probs) for s in segmentations("pug", probs))
    assert best == prob(["p", "ug"], probs)


def test_course_loss_is_169_8():
    probs = course_probs()
    # The course's table: hug ["hug"] 0.071428, pug 0.007710, pun 0.006168, bun 0.001451, hugs 0.001701.
    best = {w: max(prob(s, probs) for s in segmentations(w, probs)) for w in COURSE}
    assert {w: round(p, 6) for w, p in best.items()} == {"hug": 0.071429, "pug": 0.00771, "pun": 0.006168,
                                                       "bun": 0.001451, "hugs": 0.001701}
    loss = unigram_loss(probs, COURSE)
    assert round(loss, 1) == 169.8
    assert loss == pytest.approx(sum(-c * math.log(best[w]) for w, c in COURSE.items()), rel=1e-12)
    # The course writes pun as ["pu", "n"], bun as ["bu", "n"] and hugs as ["hug", "s"]; those tie
    # exactly with ["p", "un"], ["b", "un"] and ["h", "ugs"] (and ["hu", "gs"]), which the tie rule
    # (the last piece that starts earliest, as HF and sentencepiece) picks. Same loss either way.
    model = Unigram([(p, math.log(q)) for p, q in probs.items()])
    assert [t[1] for t in model.tokenize("pun")] == ["p", "un"]
    assert [t[1] for t in model.tokenize("bun")] == ["b", "un"]
    assert [t[1] for t in model.tokenize("hugs")] == ["h", "ugs"]
    assert prob(["h", "ugs"], probs) == prob(["hug", "s"], probs) == prob(["hu", "gs"], probs)


def test_course_removal_losses():
    probs = course_probs()
    base = unigram_loss(probs, COURSE)
    removal = unigram_removal_losses(probs, COURSE)
    assert set(removal) == set(probs)
    # Removing "pu" changes nothing: pug and pun have equally good splits without it.
    assert removal["pu"] == base
    # Removing "hug": hug -> ["hu", "g"] (0.006802), hugs -> ["hu", "gs"] (0.001701, as before): +23.5.
    assert round(removal["hug"] - base, 1) == 23.5
    assert removal["hug"] - base == pytest.approx(10 * (math.log(15 / 210) - math.log(15 * 20 / 210**2)))
    # Every value is the loss of the vocabulary without that piece, others unchanged (brute force).
    for piece in probs:
        rest = {p: q for p, q in probs.items() if p != piece}
        want = sum(-c * math.log(max(prob(s, rest) for s in segmentations(w, rest))) for w, c in COURSE.items())
        assert removal[piece] == pytest.approx(want, rel=1e-12)


def test_classroom_functions_edge_cases():
    assert unigram_loss({"a": 0.5}, {"ab": 1}) == math.inf
    assert unigram_removal_losses({"a": 0.5, "b": 0.5}, {"ab": 1})["a"] == math.inf
    assert unigram_loss({"a": 0.5, "b": 0.5}, {"ab": 2}) == pytest.approx(4 * math.log(2))
    assert unigram_removal_losses({"a": 0.5, "b": 0.25, "ab": 0.25}, {"ab": 1}) == pytest.approx(
        {"a": math.log(4), "b": math.log(4), "ab": math.log(8)})
    with pytest.raises(ConfigurationError):
        unigram_loss({"a": -1.0}, {"a": 1})
    with pytest.raises(WrongTypeError):
        unigram_loss([("a", 0.5)], {"a": 1})


# ------------------------------------------------------------------ EM pieces


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.text(alphabet="abc", min_size=1, max_size=7), st.integers(1, 5)), min_size=1, max_size=5),
       st.dictionaries(st.text(alphabet="abc", min_size=2, max_size=3), st.floats(-6.0, -0.5), max_size=6),
       st.floats(-4.0, -1.0))
def test_forward_backward_matches_brute_force(words, multi, char_score):
    words = list(dict(words).items())
    pieces = ["a", "b", "c"] + sorted(multi)
    score = [char_score, char_score - 0.5, char_score - 1.0] + [multi[p] for p in sorted(multi)] + [-99.0]
    unk = len(pieces)
    data = U._Corpus(words, {p: i for i, p in enumerate(pieces)}, 3, unk)
    nll, expected = U._e_step(data, score, unk + 1)
    want_nll, want = 0.0, [0.0] * (unk + 1)
    sc = dict(zip(pieces, score))
    for w, c in words:
        segs = list(segmentations(w, sc))
        weights = [math.exp(sum(sc[p] for p in s)) for s in segs]
        z = sum(weights)
        want_nll -= c * math.log(z)
        for s, wt in zip(segs, weights):
            for p in s:
                want[pieces.index(p)] += c * wt / z
    assert nll == pytest.approx(want_nll, rel=1e-9)
    assert expected == pytest.approx(want, rel=1e-9, abs=1e-12)


def test_digamma():
    assert U.digamma(1.0) == pytest.approx(-0.5772156649015329, abs=1e-9)  # the series, as sentencepiece
    assert U.digamma(10.5) == pytest.approx(math.log(10.5) - 1 / 21 - 1 / (12 * 10.5**2), abs=1e-5)


# ------------------------------------------------------------------ training


def test_train_small_corpus_records_and_vocabulary():
    lines = (ROOT / "sample_vocabs" / "corpora" / "english.txt").read_text(encoding="utf-8").splitlines()
    calls = []
    result = train_unigram(lines, 150, special_tokens=["<pad>"], unk_token="<unk>", progress=lambda *a: calls.append(a))
    model = result.tokenizer.model
    assert isinstance(model, Unigram) and model.vocab_size == 150 == result.tokenizer.vocab_size
    assert [p for p, _ in model.vocab[:2]] == ["<unk>", "<pad>"] and model.unk_id == 0
    chars = set("".join(lines).replace(" ", "")) | {"▁"}
    assert chars <= set(model.get_vocab())  # every character stays
    scores = [s for _, s in model.vocab[2:]]
    assert scores == sorted(scores, reverse=True)
    assert result.steps and calls
    prev = None
    for step in result.steps:
        assert isinstance(step, UnigramStep)
        with pytest.raises(dataclasses.FrozenInstanceError):
            step.loss = 0.0  # type: ignore[misc]
        assert len(step.em_losses) == 2 and step.loss == step.em_losses[-1] and math.isfinite(step.loss)
        assert step.removed and [p for p, _ in step.removed_losses] == list(step.removed)
        assert not set(step.removed) & chars
        if prev is not None:
            assert step.vocab_size < prev
        prev = step.vocab_size
    assert result.details["final_loss"] == result.details["final_em_losses"][-1]
    again = train_unigram(lines, 150, special_tokens=["<pad>"], unk_token="<unk>")
    assert again.tokenizer.model.vocab == model.vocab and again.steps == result.steps


def test_train_errors():
    with pytest.raises(ConfigurationError, match="vocab_size"):
        train_unigram({"abcdef": 3}, 4)
    with pytest.raises(ConfigurationError):
        train_unigram({"ab": 3}, 10, shrinking_factor=1.5)
    with pytest.raises(WrongTypeError):
        train_unigram("just one string", 10)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("abcé☃ "), min_size=1, max_size=20), min_size=1, max_size=8))
def test_trained_tokenizer_round_trips_and_keeps_the_offsets_contract(lines):
    assert pytest.importorskip("tokcore.pre_tokenizers").Metaspace  # the default pre-tokenizer exists
    result = train_unigram(lines, 40, unk_token="<unk>")
    tok = result.tokenizer
    for line in lines:
        enc = tok.encode_result(line, return_offsets=True)
        assert validate_offsets_contract(enc.tokenization_text, enc.offsets, require_string_boundaries=True)
        assert 0 not in enc.ids  # every character of the corpus is in the vocabulary
        text = " ".join(line.split())
        if text:
            assert tok.decode(tok.encode(text)) == text


def test_botchan_against_hf_trainer():
    from tokenizers import Tokenizer as HFTokenizer
    from tokenizers import models, pre_tokenizers, trainers

    from tokcore.pre_tokenizers.standard import Metaspace
    from tokcore.trainers.base import count_words

    lines = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").splitlines()
    result = train_unigram(lines, 1000, unk_token="<unk>")
    tok = result.tokenizer
    assert tok.vocab_size == 1000 and len(result.steps) >= 5
    sizes = [s.vocab_size for s in result.steps]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] <= 1100
    hf = HFTokenizer(models.Unigram())
    hf.pre_tokenizer = pre_tokenizers.Metaspace()
    hf.train_from_iterator(lines, trainers.UnigramTrainer(vocab_size=1000, unk_token="<unk>", special_tokens=["<unk>"], show_progress=False))
    words = count_words(lines, pre_tokenizer=Metaspace())

    def nll(vocab):
        # Viterbi loss with each model's pieces as a normalized unigram distribution
        pieces = {p: s for p, s in vocab if p != "<unk>"}
        z = math.log(sum(math.exp(s) for s in pieces.values()))
        return unigram_loss({p: math.exp(s - z) for p, s in pieces.items()}, words)

    ours = nll(tok.model.vocab)
    theirs = nll(_hf_vocab(hf))
    assert ours <= theirs * 1.02, (ours, theirs)
    overlap = set(tok.get_vocab()) & set(hf.get_vocab())
    assert len(overlap) > 600
    # The exported file encodes identically in HF tokenizers.
    hf_ours = HFTokenizer.from_str(__import__("json").dumps(tok.to_hf_dict()))
    for line in lines[::7]:
        assert tok.encode(line) == hf_ours.encode(line).ids
        if line == " ".join(line.split()):
            assert tok.decode(tok.encode(line)) == line


def _hf_vocab(hf):
    import json

    return [tuple(x) for x in json.loads(hf.to_str())["model"]["vocab"]]


def test_limit_alphabet_makes_rare_characters_unknown():
    corpus = {"▁abab": 20, "▁abba": 10, "▁baba": 8, "▁xab": 1}
    result = train_unigram(corpus, 10, unk_token="<unk>", limit_alphabet=3)
    model = result.tokenizer.model
    assert "x" not in model.get_vocab() and set("▁ab") <= set(model.get_vocab())
    assert model.tokenize("▁xab")[1] == (0, "x", 1, 2)
    assert result.details["alphabet"] == ["a", "b", "▁"]


def test_every_seed_piece_has_a_recorded_fate():
    """Pruned, dropped by an EM run (the last one after every round), cut to the size, or kept: each seed piece is
    in exactly one record, so a page can say what became of all of them."""
    result = train_unigram(COURSE, 8, unk_token="[UNK]", shrinking_factor=0.9)
    details = result.details
    kept = [p for p, _ in result.tokenizer.model.vocab if p != "[UNK]"]
    groups = [p for s in result.steps for p in s.removed + s.dropped]
    groups += list(details["final_dropped"]) + list(details["trimmed"]) + kept
    assert len(groups) == len(set(groups)) == details["seed_size"]
    assert details["trimmed"]  # 8 asked for, pruning stops at 1.1 x 8: the lowest-scored piece is cut
    assert not set(details["trimmed"]) & set(kept)
