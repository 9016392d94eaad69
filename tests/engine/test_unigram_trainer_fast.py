"""The Unigram trainer's fast paths pinned to slow references: the same floats, bit for bit.

``Lattices`` (flat node lists, compaction by masks) and ``split_piece`` (one Viterbi pass)
against the straightforward per-node formulation written out here; whole training runs
against digests of the results the straightforward trainer gave (vocab, scores, every step
record, every EM loss). No timings here (see ``bench/run.py``).
"""

from __future__ import annotations

import hashlib
import json
import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shared_data import ROOT, require_shared

from tokcore.trainers.unigram import train_unigram
from tokcore.trainers.unigram_lattice import SHARED_LENGTH, Lattices
from tokcore.trainers.unigram_prune import split_piece

NEG_INF = float("-inf")

# --------------------------------------------------------------------------- slow references


def ref_nodes(word, ids, max_len, unk):
    """(start, stop, sid) of every piece found in ``word``, by (stop, start); unknown single characters get ``unk``."""
    out = []
    for e in range(1, len(word) + 1):
        for s in range(max(0, e - max_len), e):
            sid = ids.get(word[s:e])
            if sid is not None:
                out.append((s, e, sid))
            elif e == s + 1:
                out.append((s, e, unk))
    return out


def ref_lse(values):
    top = max(values)
    total = 0.0
    for v in values:
        total += math.exp(v - top)
    return top + math.log(total)


def ref_e_step(lattices, score, n_ids):
    """Forward-backward word by word, node by node, in log space."""
    expected, nll = [0.0] * n_ids, 0.0
    for (w, count), nodes in lattices:
        n = len(w)
        alpha, beta = [0.0] * (n + 1), [0.0] * (n + 1)
        for e in range(1, n + 1):
            vals = [alpha[s] + score[i] for s, ee, i in nodes if ee == e]
            alpha[e] = vals[0] if len(vals) == 1 else ref_lse(vals)
        for s in range(n - 1, -1, -1):
            vals = [beta[e] + score[i] for ss, e, i in sorted(nodes, reverse=True) if ss == s]
            beta[s] = vals[0] if len(vals) == 1 else ref_lse(vals)
        z = alpha[n]
        nll -= count * z
        for s, e, i in nodes:
            expected[i] += count * math.exp(alpha[s] + score[i] + beta[e] - z)
    return nll, expected


def ref_viterbi(nodes, n, score):
    best, back = [NEG_INF] * (n + 1), [None] * (n + 1)
    best[0] = 0.0
    for nd in nodes:
        cand = best[nd[0]] + score[nd[2]]
        if cand > best[nd[1]]:
            best[nd[1]], back[nd[1]] = cand, nd
    path, pos = [], n
    while pos > 0:
        path.append(back[pos])
        pos = back[pos][0]
    return path[::-1]


def ref_split(piece, ids, score, unk, max_len):
    """sentencepiece's NBest(2) as two Viterbi runs: with the whole-piece node, then without it."""
    n = len(piece)
    nodes = []
    for s in range(n):
        single = False
        for e in range(s + 1, min(n, s + max_len) + 1):
            if piece[s:e] in ids:
                nodes.append((s, e, ids[piece[s:e]]))
                single = single or e == s + 1
        if not single:
            nodes.append((s, s + 1, unk))
    nodes.sort(key=lambda nd: (nd[1], nd[0]))
    best = ref_viterbi(nodes, n, score)
    second = ref_viterbi([nd for nd in nodes if (nd[0], nd[1]) != (0, n)], n, score)
    return len(best) == 1, [i for _, _, i in second]


def same_as_reference(lat, ref, score, unk):
    """``lat``'s nodes, forward-backward and Viterbi counts equal the reference on ``ref`` (``((word, count), nodes)``);
    expected counts of dead pieces are never read."""
    assert lat.by_stop == [nodes for _, nodes in ref]
    nll, expected = lat.e_step(score, unk + 1)
    want_nll, want = ref_e_step(ref, score, unk + 1)
    live = lat.alive or [True] * (unk + 1)
    assert nll == want_nll
    assert [x for x, ok in zip(expected, live) if ok] == [x for x, ok in zip(want, live) if ok]
    freq = [0.0] * (unk + 1)
    for (w, c), nodes in ref:
        for _, _, i in ref_viterbi(nodes, len(w), score):
            freq[i] += c
    assert lat.viterbi_counts(score, unk + 1) == freq


# --------------------------------------------------------------------------- inputs

words_st = st.dictionaries(st.text(alphabet="abcd", min_size=1, max_size=12), st.integers(1, 6), min_size=1, max_size=12)
MULTI = sorted({a + b + c for a in "abc" for b in "abc" for c in ["", *"abc"]} | {"abca", "bcab", "aaaa", "abdc"})
pieces_st = st.lists(st.sampled_from(MULTI), max_size=30, unique=True)
# Exact binary scores make ties (which tie rules decide) common; the others make roundings show.
score_st = st.sampled_from([-1.0, -2.0, -3.0, -0.7, -1.3, -2.9, -0.55]) | st.floats(-9.0, -0.1)


def setup(words, multi, data, alphabet="abc"):
    """Pieces (the alphabet first, 'd' left out so it is unknown), random scores, a Lattices."""
    pieces = list(alphabet) + [p for p in multi if "d" not in p]
    unk = len(pieces)
    score = [data.draw(score_st) for _ in pieces] + [-19.0]
    ids = {p: i for i, p in enumerate(pieces)}
    return pieces, ids, unk, score


@settings(max_examples=150, deadline=None)
@given(words=words_st, multi=pieces_st, data=st.data(), max_len=st.integers(1, 4))
def test_e_step_and_viterbi_equal_the_reference_bit_for_bit(words, multi, data, max_len):
    words = list(words.items())
    pieces, ids, unk, score = setup(words, multi, data)
    eager, lazy = Lattices(words, ids, max_len, unk), Lattices(words, ids, max_len, unk)
    eager.compact_share, lazy.compact_share = 0.0, 1.0  # drops dead nodes at once / keeps them at -inf
    alive = [True] * (unk + 1)
    for _ in range(3):  # fresh, then after two rounds of deaths
        live_ids = {p: i for p, i in ids.items() if alive[i]}
        ref = [(wc, ref_nodes(wc[0], live_ids, max_len, unk)) for wc in words]
        same_as_reference(eager, ref, score, unk)
        same_as_reference(lazy, ref, score, unk)
        # kill some multi-character pieces; single characters never die
        for i in range(3, unk):
            alive[i] = alive[i] and data.draw(st.booleans())
        eager.compact(alive)
        lazy.compact(alive)


@settings(max_examples=150, deadline=None)
@given(multi=pieces_st, data=st.data(), piece=st.text(alphabet="abc", min_size=2, max_size=5), max_len=st.integers(2, 5))
def test_split_piece_equals_two_viterbi_runs(multi, data, piece, max_len):
    pieces, ids, unk, score = setup([], multi + [piece], data, alphabet="ab")  # 'c' is unknown inside pieces
    assume(len(piece) <= max_len)  # the trainer never seeds longer pieces
    ids = {p: i for p, i in ids.items() if len(p) <= max_len}
    assert split_piece(piece, ids, score, unk, max_len) == ref_split(piece, ids, score, unk, max_len)


def test_dense_lattices_sum_in_the_reference_order():
    """Many random lattices with every piece up to length 3: any change in summation order shows."""
    rng = random.Random(8)
    pieces = list("abc") + [p for p in MULTI if len(p) <= 3]
    ids = {p: i for i, p in enumerate(pieces)}
    unk = len(pieces)
    for _ in range(60):
        score = [rng.uniform(-9.0, -0.1) for _ in pieces] + [-19.0]
        words = {"".join(rng.choice("abcd") for _ in range(rng.randint(1, 10))): rng.randint(1, 9) for _ in range(6)}
        lat = Lattices(list(words.items()), ids, 3, unk)
        ref = [(wc, ref_nodes(wc[0], ids, 3, unk)) for wc in words.items()]
        assert lat.e_step(score, unk + 1) == ref_e_step(ref, score, unk + 1)


def test_long_words_share_only_short_prefixes_and_suffixes():
    """Words past SHARED_LENGTH get their own long prefixes/suffixes; values stay the reference's."""
    rng = random.Random(3)
    pieces = list("abc") + [p for p in MULTI if len(p) <= 3]
    ids = {p: i for i, p in enumerate(pieces)}
    unk = len(pieces)
    body = "".join(rng.choice("abcd") for _ in range(SHARED_LENGTH + 40))
    words = {body: 2, body[:-1] + "a": 1, "x" + body: 3, body[:30]: 1}
    score = [rng.uniform(-9.0, -0.1) for _ in pieces] + [-19.0]
    lat = Lattices(list(words.items()), ids, 3, unk)
    ref = [(wc, ref_nodes(wc[0], ids, 3, unk)) for wc in words.items()]
    same_as_reference(lat, ref, score, unk)
    assert train_unigram({"ab" * 500: 3, "ba" * 400: 2, "abc": 4}, 12).tokenizer.encode("abab")


# --------------------------------------------------------------------------- whole runs


def digest(result) -> str:
    """sha256 (16 hex digits) of the vocab and every step record and EM loss, floats by repr."""
    vocab = result.tokenizer.model.to_dict()["vocab"]
    steps = [[s.vocab_size, repr(s.loss), list(s.removed), [repr(x) for x in s.em_losses],
              [[p, repr(x)] for p, x in s.removed_losses], list(s.dropped)] for s in result.steps]
    losses = [repr(x) for x in result.details["em_losses"]]
    blob = json.dumps([[[p, repr(x)] for p, x in vocab], steps, losses], ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def sample_lines(*names):
    out = []
    for name in names:
        text = (ROOT / "sample_vocabs" / "corpora" / name).read_text(encoding="utf-8")
        out += [line for line in text.splitlines() if line.strip()]
    return out


# Digests of what the straightforward trainer (per-word tuples, two Viterbi runs per piece) gave.
@pytest.mark.parametrize("case,kwargs,want", [
    ("english", dict(vocab_size=400, special_tokens=("<unk>",), unk_token="<unk>"), "5f49fda1d5a5e5b5"),
    ("mixed", dict(vocab_size=300, unk_token="<unk>", shrinking_factor=0.5), "1a30ef2b76f2c5fa"),
    ("mixed", dict(vocab_size=300, unk_token="<unk>", limit_alphabet=50, seed_size=2000), "a529b9ae728db2dd"),
    ("code", dict(vocab_size=200, unk_token="<unk>", max_piece_length=5), "332ad53d59130475"),
])
def test_sample_corpora_train_exactly_as_before(case, kwargs, want):
    files = {"english": ("english.txt",), "mixed": ("english.txt", "multilingual.txt"), "code": ("code.txt",)}[case]
    assert digest(train_unigram(sample_lines(*files), **kwargs)) == want


def test_botchan_trains_exactly_as_before():
    lines = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").splitlines()
    assert digest(train_unigram(lines, 1000, unk_token="<unk>")) == "9871166323f3c75b"
