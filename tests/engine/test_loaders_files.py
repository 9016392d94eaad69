"""File readers of tokcore.loaders against the reference libraries' own view of the same files.

The protobuf package and sentencepiece are oracles here only: tokcore reads .model files with
its own wire-format reader.
"""

from __future__ import annotations

import json
import struct

import pytest
from shared_data import ROOT, require_shared

from tokcore.core.errors import TokenizerFileError
from tokcore.loaders import load_path
from tokcore.loaders.bert_vocab import read_vocab_txt
from tokcore.loaders.gpt2_files import read_merges_txt, read_vocab_json
from tokcore.loaders.protobuf_wire import WireError, as_int32, iter_fields, read_varint
from tokcore.loaders.sentencepiece_model import parse_model_proto, read_sentencepiece_model
from tokcore.loaders.tiktoken_file import encoding_name_for, read_tiktoken_ranks

SP_MODELS = ["botchan_en_unigram_1000.model", "botchan_en_bpe_1000.model", "kyoto_ja_unigram_8000.model"]


# ---------------------------------------------------------------- protobuf wire format
def test_varint_and_int32():
    assert read_varint(b"\xac\x02", 0) == (300, 2)
    assert as_int32(2**64 - 1) == -1
    assert as_int32(5) == 5
    assert list(iter_fields(b"\x08\x96\x01")) == [(1, 0, 150)]


def test_wire_errors_are_clear():
    with pytest.raises(WireError, match="claims 5 bytes but only 2 remain"):
        list(iter_fields(b"\x0a\x05ab"))
    with pytest.raises(WireError, match="varint"):
        list(iter_fields(b"\x08\xff"))
    with pytest.raises(WireError, match="wire type"):
        list(iter_fields(b"\x0b"))


def test_wire_reader_matches_protobuf_on_a_built_message():
    pb2 = pytest.importorskip("sentencepiece.sentencepiece_model_pb2")
    m = pb2.ModelProto()
    for piece, score, type_ in [("<unk>", 0.0, 2), ("<s>", 0.0, 3), ("▁a", -1.5, 1), ("<0x41>", 0.0, 6)]:
        p = m.pieces.add()
        p.piece, p.score, p.type = piece, score, type_
    m.trainer_spec.model_type = 2
    m.trainer_spec.byte_fallback = True
    m.trainer_spec.pad_id = -1
    m.trainer_spec.split_digits = True
    m.trainer_spec.treat_whitespace_as_suffix = True
    m.normalizer_spec.name = "identity"
    m.normalizer_spec.add_dummy_prefix = False
    m.normalizer_spec.precompiled_charsmap = b"\x00\x01\xff"
    got = parse_model_proto(m.SerializeToString())
    assert [(p.piece, p.score, p.type) for p in got.pieces] == [(p.piece, p.score, p.type) for p in m.pieces]
    ts = got.trainer_spec
    assert (ts.model_type, ts.byte_fallback, ts.pad_id, ts.split_digits, ts.treat_whitespace_as_suffix) == (2, True, -1, True, True)
    assert (ts.unk_id, ts.bos_id, ts.eos_id, ts.unk_piece) == (0, 1, 2, "<unk>")  # defaults when absent
    ns = got.normalizer_spec
    assert (ns.name, ns.add_dummy_prefix, ns.precompiled_charsmap, ns.remove_extra_whitespaces) == ("identity", False, b"\x00\x01\xff", True)


@pytest.mark.parametrize("name", SP_MODELS)
def test_sentencepiece_model_matches_the_library(name):
    spm = pytest.importorskip("sentencepiece")
    pb2 = pytest.importorskip("sentencepiece.sentencepiece_model_pb2")
    path = require_shared("reference", "sentencepiece", name)
    got = read_sentencepiece_model(path)
    sp = spm.SentencePieceProcessor(model_file=str(path))
    assert len(got.pieces) == sp.get_piece_size()
    for i, p in enumerate(got.pieces):
        assert p.piece == sp.id_to_piece(i)
        assert struct.pack("<f", p.score) == struct.pack("<f", sp.get_score(i))
        assert (p.type == 2) == sp.is_unknown(i) and (p.type == 3) == sp.is_control(i) and (p.type == 6) == sp.is_byte(i)
    proto = pb2.ModelProto()
    proto.ParseFromString(path.read_bytes())
    ts, ns = got.trainer_spec, got.normalizer_spec
    for attr in ("model_type", "vocab_size", "byte_fallback", "split_digits", "treat_whitespace_as_suffix",
                 "unk_id", "bos_id", "eos_id", "pad_id", "unk_piece", "bos_piece", "eos_piece", "pad_piece", "unk_surface"):
        assert getattr(ts, attr) == getattr(proto.trainer_spec, attr), attr
    for attr in ("name", "precompiled_charsmap", "add_dummy_prefix", "remove_extra_whitespaces", "escape_whitespaces"):
        assert getattr(ns, attr) == getattr(proto.normalizer_spec, attr), attr
    assert [p.type for p in got.pieces] == [p.type for p in proto.pieces]


def test_sentencepiece_bad_files(tmp_path):
    bad = tmp_path / "x.model"
    bad.write_bytes(b"\x0a\x40short")
    with pytest.raises(TokenizerFileError, match="not a sentencepiece model"):
        read_sentencepiece_model(bad)
    empty = tmp_path / "e.model"
    empty.write_bytes(b"")
    with pytest.raises(TokenizerFileError, match="empty"):
        read_sentencepiece_model(empty)
    nopieces = tmp_path / "n.model"
    nopieces.write_bytes(b"\x1a\x00")  # only an empty normalizer_spec
    with pytest.raises(TokenizerFileError, match="no pieces"):
        read_sentencepiece_model(nopieces)


# ---------------------------------------------------------------- tiktoken
@pytest.mark.parametrize("name", ["gpt2.tiktoken", "multilingual.tiktoken"])
def test_tiktoken_ranks_equal_tiktoken(name):
    load = pytest.importorskip("tiktoken.load")
    path = require_shared("reference", "tiktoken", name)
    assert read_tiktoken_ranks(path) == load.load_tiktoken_bpe(str(path))


def test_tiktoken_encoding_choice(tmp_path):
    from pathlib import Path

    # Known encodings by content (SHA-256), not by file name or vocabulary size (issue 19, class 8).
    assert encoding_name_for(require_shared("reference", "tiktoken", "gpt2.tiktoken"), None) == "gpt2"
    assert encoding_name_for(require_shared("reference", "tiktoken", "multilingual.tiktoken"), None) == "multilingual"
    assert encoding_name_for(Path("x.tiktoken"), "cl100k") == "cl100k_base"
    named = tmp_path / "cl100k_base.tiktoken"
    named.write_bytes(b"YQ== 0\n")
    assert encoding_name_for(named, None) is None
    from tokcore.core.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="unknown tiktoken encoding"):
        encoding_name_for(Path("x.tiktoken"), "nope")
    bad = tmp_path / "bad.tiktoken"
    bad.write_text("IQ== 0\nnot base64! 1\n")
    with pytest.raises(TokenizerFileError, match="line 2"):
        read_tiktoken_ranks(bad)
    dup = tmp_path / "dup.tiktoken"
    dup.write_text("IQ== 0\nIg== 0\n")
    with pytest.raises(TokenizerFileError, match="rank 0 is used twice"):
        read_tiktoken_ranks(dup)


# ---------------------------------------------------------------- vocab.txt, vocab.json + merges.txt
def test_vocab_txt_matches_hf_tokenizer_json():
    path = require_shared("reference", "hf", "minilm", "vocab.txt")
    data = json.loads(path.with_name("tokenizer.json").read_text(encoding="utf-8"))
    assert read_vocab_txt(path) == data["model"]["vocab"]


def test_gpt2_files_match_hf_tokenizer_json():
    folder = require_shared("reference", "hf", "gpt2")
    data = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
    assert read_vocab_json(folder / "vocab.json") == data["model"]["vocab"]
    assert [list(m) for m in read_merges_txt(folder / "merges.txt")] == [
        m if isinstance(m, list) else m.split(" ") for m in data["model"]["merges"]]


def test_merges_txt_errors(tmp_path):
    p = tmp_path / "merges.txt"
    p.write_text("#version: 0.2\na b\nabc\n", encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="line 3"):
        read_merges_txt(p)


# ---------------------------------------------------------------- detection
def test_detection_errors_say_what_was_found(tmp_path):
    (tmp_path / "notes.md").write_text("hi")
    with pytest.raises(TokenizerFileError, match=r"found: notes\.md.*Expected"):
        load_path(tmp_path)
    with pytest.raises(TokenizerFileError, match="no such file"):
        load_path(tmp_path / "missing.json")
    odd = tmp_path / "weights.bin"
    odd.write_bytes(b"\x00\x01\x02")
    with pytest.raises(TokenizerFileError, match="unknown tokenizer file type '.bin'.*Expected"):
        load_path(odd)
    vocab = tmp_path / "vocab.json"
    vocab.write_text('{"a": 0}')
    with pytest.raises(TokenizerFileError, match="no merges.txt"):
        load_path(vocab)
    sub = tmp_path / "two"
    sub.mkdir()
    (sub / "a.model").write_bytes(b"\x0a\x00")
    (sub / "b.model").write_bytes(b"\x0a\x00")
    with pytest.raises(TokenizerFileError, match="several .model files"):
        load_path(sub)


def test_hub_names_need_the_cache(monkeypatch, tmp_path):
    pytest.importorskip("huggingface_hub")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(TokenizerFileError, match="not in the local cache"):
        load_path(__import__("pathlib").Path("hf:some-owner/some-model-that-is-not-cached"))
    with pytest.raises(TokenizerFileError, match="no repository name"):
        load_path(__import__("pathlib").Path("hf:"))


def test_saved_tokcore_only_types_load_in_a_fresh_process(tmp_path):
    """RankBPE / SentencePieceUnigram / SentencePieceWhitespace load through Tokenizer.from_dict alone."""
    import subprocess
    import sys

    import tokcore

    saved = tmp_path / "sp.json"
    tokcore.load(require_shared("reference", "sentencepiece", "botchan_en_unigram_1000.model")).save(saved)
    code = ("import json, sys; from tokcore import Tokenizer; "
            "t = Tokenizer.from_dict(json.load(open(sys.argv[1], encoding='utf-8'))); print(t.encode('Hello there'))")
    out = subprocess.run([sys.executable, "-c", code, str(saved)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(tokcore.load(saved).encode("Hello there"))


def _naive_rank_merge(symbols, ranks):
    # tiktoken's definition, quadratic: merge the lowest-ranked adjacent pair, leftmost on ties.
    parts = list(symbols)
    while True:
        best = None
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            return parts
        i = best[1]
        parts[i:i + 2] = [parts[i] + parts[i + 1]]


def test_rank_merge_equals_the_quadratic_definition():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from tokcore.models.rank_bpe import RankBPE, rank_merge

    ranks = {"ab": 0, "ba": 1, "aa": 2, "abab": 3, "bb": 4, "aab": 5, "bab": 6, "ababa": 7}
    vocab = {"a": 100, "b": 101, **ranks}
    model = RankBPE(vocab, ranks=ranks)

    @settings(max_examples=300, deadline=None)
    @given(st.text(alphabet="ab", max_size=40))
    def check(word):
        assert rank_merge(list(word), ranks.get) == _naive_rank_merge(word, ranks)
        toks = model.tokenize(word)
        assert "".join(t[1] for t in toks) == word
        assert [(t[2], t[3]) for t in toks] == [(sum(len(x[1]) for x in toks[:k]), sum(len(x[1]) for x in toks[:k + 1]))
                                                for k in range(len(toks))]

    check()


def test_loading_restores_the_garbage_collectors_state(tmp_path):
    import gc

    import tokcore
    from tokcore.core.errors import TokenizerFileError

    good = tmp_path / "t.json"
    tokcore.CharTokenizer().save(good)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            tokcore.load(good)
            assert gc.isenabled() is enabled
            with pytest.raises(TokenizerFileError):
                tokcore.load(bad)
            assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_file_error_messages_end_the_problem_before_the_fix(tmp_path):
    # Seen on the Load and export page: "... no merges.txt beside it Put merges.txt in the same directory".
    path = tmp_path / "tokenizer.json"
    path.write_text('{"hello": 0, "world": 1}', encoding="utf-8")
    with pytest.raises(TokenizerFileError) as caught:
        load_path(path)
    assert "beside it. Put merges.txt" in str(caught.value)
    assert str(TokenizerFileError("f", "is it?", fix="Check.")) == "f: is it? Check."
    path.write_text('{"model": {"type": "BPE", "vocab": {"ab', encoding="utf-8")  # a truncated upload
    with pytest.raises(TokenizerFileError) as caught:
        load_path(path)
    assert "(line 1, column 37): invalid JSON: Unterminated string. The file may be truncated" in str(caught.value)
    assert str(TokenizerFileError("f", "broken", where="line 2")) == "f (line 2): broken"
