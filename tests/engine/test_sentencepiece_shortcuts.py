"""The common-layout shortcut of the ``.model`` reader gives the generic protobuf loop's pieces."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from proto_bytes import varint
from shared_data import require_shared

import tokcore.loaders.sentencepiece_model as spm_model


def _generic(monkeypatch, data):
    monkeypatch.setattr(spm_model, "_COMMON_PIECE", __import__("re").compile(rb"(?!)"))
    return spm_model.parse_model_proto(data)


@pytest.mark.parametrize("name", ["botchan_en_unigram_1000.model", "botchan_en_bpe_1000.model",
                                  "kyoto_ja_unigram_8000.model"])
def test_every_shared_model_reads_the_same_both_ways(name, monkeypatch):
    data = require_shared("reference", "sentencepiece", name).read_bytes()
    fast = spm_model.parse_model_proto(data)
    assert fast.pieces == _generic(monkeypatch, data).pieces


def _record(piece: bytes, score: float, type_: int | None) -> bytes:
    body = b"\x0a" + varint(len(piece)) + piece + b"\x15" + struct.pack("<f", score)
    if type_ is not None:
        body += b"\x18" + varint(type_)
    return b"\x0a" + varint(len(body)) + body


@given(st.lists(st.tuples(st.text(min_size=1, max_size=200), st.floats(width=32, allow_nan=False),
                          st.one_of(st.none(), st.integers(1, 6))), min_size=1, max_size=8))
def test_any_piece_reads_the_same_both_ways(records):
    data = b"".join(_record(p.encode("utf-8", "surrogatepass"), s, t) for p, s, t in records)
    try:
        fast = spm_model.parse_model_proto(data)
    except spm_model.WireError:
        fast = None
    with pytest.MonkeyPatch.context() as mp:
        try:
            slow = _generic(mp, data)
        except spm_model.WireError:
            slow = None
    assert (fast is None) == (slow is None)
    if fast is not None:
        assert fast.pieces == slow.pieces


_RULE_TEXT = st.lists(st.sampled_from(["a", "A", " ", "=", "<", "\u0338", "e", "\u0301", "ﬁ", "①", "\t", "\n", "\r",
                                       "\x01", "\x7f", "x" * 20, "\u3000", "é", "Ａ"]), max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_RULE_TEXT)
def test_a_charsmap_with_ascii_rules_scans_as_sentencepiece(text):
    # botchan_en_bpe_1000.model's charsmap maps ASCII controls: far from any non-ASCII character
    # one regex pass over those rules stands in for the scan of every position.
    pre = _BPE_CHARSMAP
    assert pre._ascii_rules
    assert pre._spm_pieces(text) == pre._spm_pieces_reference(text)


def _bpe_charsmap():
    import tokcore

    try:
        tok = tokcore.load(require_shared("reference", "sentencepiece", "botchan_en_bpe_1000.model"))
    except BaseException:  # skipped or failed at collection: the tests that use it report it
        return None
    (pre,) = [p for p in tok.normalizer.normalizers if type(p).__name__ == "Precompiled"]
    return pre


_BPE_CHARSMAP = _bpe_charsmap()
