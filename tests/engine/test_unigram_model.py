"""Unigram model: Viterbi parity with HF tokenizers and sentencepiece, unknowns, byte fallback,
n-best, seeded sampling, the explain() data, serialization."""

from __future__ import annotations

import json
import math
import random
import unicodedata
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

from tokcore import Tokenizer, validate_offsets_contract
from tokcore.core.components import build
from tokcore.core.errors import ConfigurationError, TokenizerFileError
from tokcore.models.unigram import Unigram, byte_piece

# HF's doc example (models/unigram/model.rs): "abcdacdxx" -> abcd, a, cd, xx (the x's fused unknown).
DOC_VOCAB = [("<unk>", 0.0), ("a", 0.0), ("b", 0.0), ("c", 0.0), ("d", 0.0), ("cd", 1.0), ("ab", 2.0), ("abc", 5.0), ("abcd", 10.0)]


def byte_offsets(word, tokens):
    def b(i):
        return len(word[:i].encode("utf-8"))

    return [(t[0], t[1], (b(t[2]), b(t[3]))) for t in tokens]


def test_doc_example_and_fused_unknown():
    m = Unigram(DOC_VOCAB, unk_id=0)
    assert [t[1] for t in m.tokenize("abcdacdxx")] == ["abcd", "a", "cd", "xx"]
    assert m.tokenize("abcdacdxx")[-1] == (0, "xx", 7, 9)  # unknown token keeps its text, as HF
    assert m.tokenize("") == []
    assert m.unk_score == -10.0  # min_score (0.0) - kUnkPenalty


def test_ties_go_to_the_earliest_start():
    # ab+c and a+bc score the same: both libraries keep the candidate that starts first.
    m = Unigram([("a", -1.0), ("b", -1.0), ("c", -1.0), ("ab", -1.0), ("bc", -1.0)])
    assert [t[1] for t in m.tokenize("abc")] == ["a", "bc"]


def test_literal_unk_piece_fuses_with_unknown_neighbours_as_hf():
    m = Unigram([("<unk>", 0.0), ("<", -1.0), ("u", -1.0), ("n", -1.0), ("k", -1.0), (">", -1.0), ("a", -1.0)], unk_id=0)
    # "<unk>" is matched as the piece whose id is unk_id, so HF's fuse_unk glues it to the "☃".
    assert m.tokenize("a<unk>☃") == [(6, "a", 0, 1), (0, "<unk>☃", 1, 7)]


def test_missing_unk_raises_and_bad_config():
    with pytest.raises(ConfigurationError, match="unk_id"):
        Unigram([("a", -1.0)]).tokenize("ab")
    with pytest.raises(ConfigurationError):
        Unigram([("a", -1.0)], unk_id=3)
    with pytest.raises(ConfigurationError):
        Unigram([], unk_id=0)
    with pytest.raises(ConfigurationError):
        Unigram([("a", "x")])
    with pytest.raises(TokenizerFileError):
        build("model", {"type": "Unigram", "vocab": {"a": 1}})


def _hf_words(hf, limit_per_file=None):
    files = [require_shared("corpora", "botchan.txt")] + sorted(require_shared("corpora", "udhr").glob("*.txt"))[::6]
    words = Counter()
    for f in files:
        text = f.read_text(encoding="utf-8")
        if limit_per_file:
            text = text[:limit_per_file]
        for w, _ in hf.pre_tokenizer.pre_tokenize_str(hf.normalizer.normalize_str(text)):
            words[w] += 1
    return sorted(words)


def test_parity_with_hf_t5_style_unigram():
    from tokenizers import Tokenizer as HFTokenizer

    path = require_shared("reference", "hf", "trained", "t5_style_unigram.json")
    hf = HFTokenizer.from_file(str(path))
    ours = build("model", json.loads(path.read_text(encoding="utf-8"))["model"])
    assert isinstance(ours, Unigram) and ours.unk_id == 2 and ours.vocab_size == hf.get_vocab_size()
    words = _hf_words(hf, limit_per_file=6000)
    assert len(words) > 5000
    unknown_seen = 0
    for w in words:
        theirs = [(t.id, t.value, t.offsets) for t in hf.model.tokenize(w)]
        mine = byte_offsets(w, ours.tokenize(w))
        assert mine == theirs, w
        unknown_seen += any(t[0] == 2 for t in theirs)
    assert unknown_seen > 50  # the UDHR scripts exercise unknown fusion


def test_parity_with_sentencepiece_botchan_unigram():
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_file=str(require_shared("reference", "sentencepiece", "botchan_en_unigram_1000.model")))
    vocab = [(sp.id_to_piece(i), sp.get_score(i)) for i in range(sp.get_piece_size())]
    model = Unigram(vocab, unk_id=sp.unk_id())
    files = [require_shared("corpora", "botchan.txt"), require_shared("corpora", "inaugural.txt")]
    files += sorted(require_shared("corpora", "udhr").glob("*.txt"))[::20]
    words = set()
    for f in files:
        for w in f.read_text(encoding="utf-8").split():
            # Words sentencepiece leaves as they are (nmt_nfkc); no "<", so control pieces never match.
            if "<" not in w and sp.normalize(w) == "▁" + w:
                words.add(w)
    words = sorted(words)
    assert len(words) > 10000
    ties = []
    for w in words:
        ids = sp.encode(w)
        mine = [t[0] for t in model.tokenize("▁" + w)]
        if ids != mine:
            ties.append((w, ids, mine))
    # sentencepiece adds scores in float32, we (like HF) in float64: an exact tie can fall either
    # way there. Every disagreement must be such a tie, and rare.
    for w, ids, mine in ties:
        assert sorted(ids) == sorted(mine) or abs(sum(sp.get_score(i) for i in ids) - sum(sp.get_score(i) for i in mine)) < 1e-4, w
    assert len(ties) <= len(words) // 1000


def _byte_model():
    vocab = [("<unk>", 0.0)] + [(byte_piece(b), -20.0) for b in range(256)]
    vocab += [(p, -2.0 - i * 0.1) for i, p in enumerate(["▁", "a", "b", "ab", "é", "▁a", "ba", "c"])]
    return Unigram(vocab, unk_id=0, byte_fallback=True)


def _decode_bytes(tokens):
    out = b""
    for t in tokens:
        out += bytes([int(t[1][3:5], 16)]) if len(t) == 5 else t[1].encode("utf-8")
    return out


def test_byte_fallback_matches_hf_ids_and_reports_bytes_per_character():
    from tokenizers import models

    model = _byte_model()
    hf = models.Unigram(model.vocab, 0, True)
    for text in ["ab☃c", "éé∑x", "▁a😀b", "zz"]:
        theirs = [(t.id, t.value) for t in hf.tokenize(text)]
        mine = model.tokenize(text)
        assert [(t[0], t[1]) for t in mine] == theirs
    toks = model.tokenize("a☃")
    assert toks[0] == (toks[0][0], "a", 0, 1)
    assert toks[1:] == [(model.token_to_id(byte_piece(b)), byte_piece(b), 1, 2, (k, 3)) for k, b in enumerate("☃".encode())]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab▁cé☃😀x \u0301"), max_size=30) | st.text(max_size=20))
def test_byte_fallback_round_trip_and_offsets(text):
    model = _byte_model()
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    tokens = model.tokenize(text)
    assert _decode_bytes(tokens) == text.encode("utf-8")
    assert all(t[0] != 0 for t in tokens)  # every byte piece exists, so nothing is unknown
    enc = Tokenizer(model).encode_result(text, return_offsets=True)
    assert validate_offsets_contract(text, enc.offsets)
    spans = [o for o in enc.offsets if o[1] > o[0]]
    assert sum(b - a for a, b in spans) == len(text.encode("utf-8"))


# ------------------------------------------------------------------ n-best, sampling, explain

ABC = [("A", 1.0), ("B", 1.2), ("C", 2.5), ("AB", 3.0), ("BC", 4.0), ("ABC", 2.0)]


def test_nbest_order_and_scores():
    # HF's lattice test, scores as there: every segmentation of "ABC", best first.
    m = Unigram([("A", 0.0), ("B", 0.0), ("C", 0.0), ("AB", 2.0), ("BC", 5.0), ("ABC", 10.0)])
    got = m.nbest("ABC", 10)
    assert [[t[1] for t in toks] for toks, _ in got] == [["ABC"], ["A", "BC"], ["AB", "C"], ["A", "B", "C"]]
    assert [s for _, s in got] == [10.0, 5.0, 2.0, 0.0]
    assert m.nbest("ABC", 0) == [] and len(m.nbest("ABC", 2)) == 2


words_st = st.text(alphabet=st.sampled_from("abcx"), min_size=1, max_size=12)
ZERO_VOCAB = [("<unk>", 0.0)] + [(p, 0.0) for p in ["a", "b", "c", "ab", "bc", "abc", "aa", "ca"]]
SCORED_VOCAB = [("<unk>", 0.0), ("a", -2.0), ("b", -2.5), ("c", -3.0), ("ab", -3.5), ("bc", -4.0), ("abc", -5.0), ("aa", -3.9), ("ca", -4.5)]


@settings(max_examples=120, deadline=None)
@given(words_st, st.sampled_from([ZERO_VOCAB, SCORED_VOCAB]), st.integers(2, 8))
def test_nbest_first_is_viterbi_and_all_are_segmentations(word, vocab, n):
    m = Unigram(vocab, unk_id=0)
    found = m.nbest(word, n)
    assert found[0][0] == m.tokenize(word)
    scores = [s for _, s in found]
    assert all(a >= b - 1e-9 for a, b in zip(scores, scores[1:]))
    for toks, _ in found:
        assert "".join(t[1] for t in toks) == word
    paths = [tuple((t[2], t[3]) for t in toks) for toks, _ in found]
    assert len(set(paths)) == len(paths)


@settings(max_examples=80, deadline=None)
@given(words_st, st.integers(0, 2**32), st.sampled_from([-1, 3]), st.floats(0.0, 2.0))
def test_sampling_is_seeded_and_yields_segmentations(word, seed, nbest_size, alpha):
    m = Unigram(SCORED_VOCAB, unk_id=0)
    a = m.sample(word, alpha=alpha, nbest_size=nbest_size, seed=seed)
    assert a == m.sample(word, alpha=alpha, nbest_size=nbest_size, seed=seed)
    assert "".join(t[1] for t in a) == word
    assert m.sample(word, alpha=alpha, nbest_size=1, seed=seed) == m.tokenize(word)


def test_ffbs_draws_follow_the_path_distribution():
    m = Unigram([(p, s) for p, s in ABC])
    alpha = 0.5
    paths = {("A", "B", "C"): 1.0 + 1.2 + 2.5, ("AB", "C"): 5.5, ("A", "BC"): 5.0, ("ABC",): 2.0}
    z = sum(math.exp(alpha * s) for s in paths.values())
    rng = random.Random(7)
    draws = Counter(tuple(t[1] for t in m.sample("ABC", alpha=alpha, seed=rng)) for _ in range(6000))
    for path, s in paths.items():
        assert abs(draws[path] / 6000 - math.exp(alpha * s) / z) < 0.025, path
    # among the 2 best only, with probability proportional to exp(alpha * score)
    draws2 = Counter(tuple(t[1] for t in m.sample("ABC", alpha=alpha, nbest_size=2, seed=rng)) for _ in range(4000))
    assert set(draws2) == {("AB", "C"), ("A", "BC")}
    p_ab = math.exp(alpha * 5.5) / (math.exp(alpha * 5.5) + math.exp(alpha * 5.0))
    assert abs(draws2[("AB", "C")] / 4000 - p_ab) < 0.03


def test_explain_lists_the_lattice_and_the_best_path():
    m = Unigram(DOC_VOCAB, unk_id=0)
    ex = m.explain("abx")
    pieces = {(n["start"], n["stop"], n["piece"]) for n in ex["nodes"]}
    assert pieces == {(0, 1, "a"), (0, 2, "ab"), (1, 2, "b"), (2, 3, "x")}
    unk = [n for n in ex["nodes"] if n["unknown"]]
    assert len(unk) == 1 and unk[0]["score"] == -10.0 and unk[0]["id"] == 0
    assert [ex["nodes"][k]["piece"] for k in ex["path"]] == ["ab", "x"]
    assert ex["score"] == 2.0 - 10.0
    assert [b["score"] for b in ex["best"]] == [0.0, 2.0, -8.0]
    assert ex["tokens"] == m.tokenize("abx")
    json.dumps(ex)  # plain data


def test_long_input_is_handled():
    m = Unigram(SCORED_VOCAB, unk_id=0)
    text = ("abcab" * 20000) + "x"
    toks = m.tokenize(text)
    assert "".join(t[1] for t in toks) == text and toks[-1] == (0, "x", len(text) - 1, len(text))


# ------------------------------------------------------------------ serialization


def test_to_dict_has_hf_keys_and_round_trips():
    m = Unigram(DOC_VOCAB, unk_id=0, byte_fallback=True)
    d = m.to_dict()
    assert list(d) == ["type", "unk_id", "vocab", "byte_fallback"]
    assert d["vocab"][5] == ["cd", 1.0]
    again = build("model", json.loads(json.dumps(d)))
    assert again == m and again.tokenize("abcdx") == m.tokenize("abcdx")
    # the keys HF writes
    from tokenizers import Tokenizer as HFTokenizer

    path = require_shared("reference", "hf", "trained", "t5_style_unigram.json")
    data = json.loads(path.read_text(encoding="utf-8"))["model"]
    assert build("model", data).to_dict() == data
    hf_model = json.loads(HFTokenizer(build_hf_unigram(d)).to_str())["model"]
    assert hf_model == d


def build_hf_unigram(d):
    from tokenizers import models

    return models.Unigram([tuple(x) for x in d["vocab"]], d["unk_id"], d["byte_fallback"])


def test_pipeline_offsets_on_t5_style_tokenizer():
    from tokenizers import Tokenizer as HFTokenizer

    path = require_shared("reference", "hf", "trained", "t5_style_unigram.json")
    hf = HFTokenizer.from_file(str(path))
    ours = Tokenizer.from_dict(json.loads(path.read_text(encoding="utf-8")))
    text = "Botchan said: ｈello ☃☃ wörld, naïve  café!"
    got = ours.encode_result(text, return_offsets=True)
    want = hf.encode(text)
    assert got.ids == want.ids
    assert validate_offsets_contract(got.tokenization_text, got.offsets, require_string_boundaries=True)
    assert unicodedata.normalize("NFKC", text) != text  # the text needs normalization
