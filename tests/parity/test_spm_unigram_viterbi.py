"""sentencepiece's Unigram Viterbi arithmetic on long sentences, against the installed wheel.

The wheel's ``EncodeOptimized`` (read from its machine code) adds and compares in float32, restarts
the running score from any position scoring beyond +-1e5 (subtracting it in float32 from every
position reached so far) and scores a user-defined piece ``float32((bytes - 1) * 0.1)``. Before
this was known, botchan as one sentence parted from sentencepiece at token 79,336 of 91,227
("ul", "e" against "u", "le"): past 1e5 the rounding differs from a running total left to grow.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore

spm = pytest.importorskip("sentencepiece")
pb = pytest.importorskip("sentencepiece.sentencepiece_model_pb2")


def test_botchan_as_one_sentence_matches_sentencepiece():
    path = require_shared("reference", "sentencepiece", "botchan_en_unigram_1000.model")
    text = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").replace("\n", " ")
    sp, tok = spm.SentencePieceProcessor(model_file=str(path)), tokcore.load(path)
    want = sp.encode(text, out_type=str)
    assert len(want) > 90_000  # the running score passes 1e5 several times
    assert tok.encode_result(text).tokens == want


def _write_model(path, pieces, *, dummy_prefix: bool = True) -> str:
    kind = pb.ModelProto.SentencePiece
    m = pb.ModelProto()
    for piece, score, type_ in [("<unk>", 0.0, kind.UNKNOWN), ("<s>", 0.0, kind.CONTROL), *pieces]:
        m.pieces.add(piece=piece, score=score, type=type_)
    m.trainer_spec.model_type = pb.TrainerSpec.UNIGRAM
    m.normalizer_spec.name = "identity"
    m.normalizer_spec.add_dummy_prefix = dummy_prefix
    path.write_bytes(m.SerializeToString())
    return str(path)


def test_a_user_defined_piece_scores_a_tenth_per_byte_past_the_first(tmp_path):
    """"xa" (user-defined, 2 bytes) scores 0.1, so "xa" + "b" (0.09) beats "xab" (-0.05); a
    one-byte user-defined "q" scores 0, so "qb" (-0.005) beats "q" + "b" (-0.01)."""
    kind = pb.ModelProto.SentencePiece
    ud, normal = kind.USER_DEFINED, kind.NORMAL
    path = _write_model(tmp_path / "ud.model", [
        ("\u2581", -1.0, normal), ("b", -0.01, normal), ("xa", 0.0, ud), ("xab", -0.05, normal), ("x", -3.0, normal),
        ("a", -3.0, normal), ("q", 0.0, ud), ("qb", -0.005, normal), ("é", 0.0, ud), ("éb", -0.005, normal),
        ("漢字", 0.0, ud), ("漢字b", -0.45, normal)], dummy_prefix=False)
    sp, tok = spm.SentencePieceProcessor(model_file=path), tokcore.load(path)
    cases = {"xab": ["xa", "b"], "qb": ["qb"], "éb": ["é", "b"], "漢字b": ["漢字", "b"], "xaxab": ["xa", "xa", "b"]}
    for text, pieces in cases.items():
        assert sp.encode(text, out_type=str) == pieces, text  # the rule as the wheel applies it
        assert tok.encode_result(text).tokens == pieces, text


# Scores in the thousands put the running score past 1e5 within a few dozen pieces, where float32
# steps are 1/128: near ties and restarts come every few words, as in a 90,000-piece sentence.
_BIG_PIECES = [("\u2581", -2000.0), ("a", -3000.0), ("b", -3000.0), ("ab", -6000.0), ("ba", -5999.999),
               ("\u2581a", -4000.0), ("\u2581ab", -7000.0), ("aa", -6000.0), ("aaa", -9000.001), ("\u2581b", -4500.0),
               ("c", -1.5), ("cc", -3.0), ("bab", -9000.0), ("abab", -12000.0078125), ("bb", -5999.9999),
               ("cb", -3001.4999), ("bc", -3001.5)]


@pytest.fixture(scope="module")
def big_score_models(tmp_path_factory):
    kind = pb.ModelProto.SentencePiece
    folder = tmp_path_factory.mktemp("big_scores")
    plain = _write_model(folder / "big.model", [(p, s, kind.NORMAL) for p, s in _BIG_PIECES])
    with_ud = _write_model(folder / "big_ud.model", [(p, s, kind.NORMAL) for p, s in _BIG_PIECES]
                           + [("<u>", 0.0, kind.USER_DEFINED), ("b<u>", 0.0, kind.USER_DEFINED)])
    return [(spm.SentencePieceProcessor(model_file=p), tokcore.load(p)) for p in (plain, with_ud)]


_TEXTS = st.lists(st.sampled_from(["a", "b", "ab", "ba", " ", " a", " b", "aaa", "c", "bb", "cb", "é", "<u>", "b<u>",
                                   "abab"]),
                  min_size=1, max_size=120).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_TEXTS, repeat=st.integers(1, 12), which=st.integers(0, 1))
def test_long_sentences_of_big_scores_match_sentencepiece(big_score_models, text, repeat, which):
    sp, tok = big_score_models[which]
    sentence = text * repeat
    res = tok.encode_result(sentence)
    assert (res.ids, res.tokens) == (sp.encode(sentence), sp.encode(sentence, out_type=str))
