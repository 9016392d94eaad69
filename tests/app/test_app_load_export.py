"""Load and export: the pipeline summary, uploads (one file or a vocab.json + merges.txt pair), exports."""

from __future__ import annotations

import json

import pytest
from app_pages import open_page
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

import tokcore
from tokapp import pipeline_view, samples, uploads

PAGE = "4_Load_and_export.py"
BYTELEVEL = ROOT / "sample_vocabs" / "english_bytelevel_bpe.json"
TEXT = "Hello world, café 🙂 tokens!"


@pytest.fixture(scope="module")
def bytelevel():
    return tokcore.load(BYTELEVEL)


def gpt2_files(tokenizer) -> list[tuple[str, bytes]]:
    """vocab.json + merges.txt written from a byte-level BPE's HF dict (as GPT-2 ships them)."""
    model = tokenizer.to_hf_dict()["model"]
    merges = ["#version: 0.2"] + [m if isinstance(m, str) else " ".join(m) for m in model["merges"]]
    return [("vocab.json", json.dumps(model["vocab"]).encode()), ("merges.txt", "\n".join(merges).encode() + b"\n")]


# ---------------------------------------------------------------- pipeline summary
def test_stages_in_pipeline_order_with_settings(bytelevel):
    stages = pipeline_view.pipeline_stages(bytelevel)
    assert [s.stage for s in stages] == ["Normalizer", "Pre-tokenizer", "Model", "Post-processor", "Decoder",
                                         "Added tokens", "Truncation and padding"]
    assert stages[0].type == "—" and stages[1].type == "ByteLevel" and stages[2].type == "BPE"
    settings = dict(stages[2].settings)
    assert settings["vocab"] == "500 entries" and settings["merges"].endswith("merges")
    assert dict(stages[1].settings)["add_prefix_space"] == "no"
    assert stages[5].settings[0][1] == '"<|endoftext|>" (special)'
    rows = pipeline_view.flat_records(stages)
    model = [r for r in rows if r["stage"] == "Model"][0]
    assert model["type"] == "BPE" and {"setting": "vocab", "value": "500 entries"} in [
        {"setting": r["setting"], "value": r["value"]} for r in rows]
    assert rows[0] == {"stage": "Normalizer", "type": "—", "setting": "", "value": "not set: this stage does nothing"}


def test_sequences_list_their_parts():
    char = tokcore.CharTokenizer()
    decoder = pipeline_view.pipeline_stages(char)[4]
    assert decoder.type == "Sequence" and [c.type for c in decoder.children] == ["Replace", "Fuse"]
    rows = pipeline_view.flat_records([decoder])
    assert [r["stage"] for r in rows] == ["Decoder", "  Decoder 1", "", "  Decoder 2"]
    assert rows[0]["value"] == "2 parts (below)" and rows[1]["type"] == "Replace"


def test_describe_and_compact_keep_the_page_small():
    assert pipeline_view.describe_value("vocab", {"a": 0}) == "1 entry"
    assert pipeline_view.describe_value("merges", [["a", "b"]] * 3) == "3 merges"
    assert pipeline_view.describe_value("prefix", " ") == '" "'
    assert pipeline_view.describe_value("x", None) == "none"
    assert pipeline_view.describe_value("x", "y" * 500).endswith("(500 characters)")
    raw = pipeline_view.compact_raw({"type": "BPE", "vocab": {str(i): i for i in range(99)},
                                     "decoders": [{"type": "Fuse"}] * 30})
    assert raw["vocab"] == "<99 entries, not shown>" and len(raw["decoders"]) == 30


@pytest.mark.parametrize("fmt", ["hf", "tokcore"])
def test_exports_load_back_and_encode_the_same(bytelevel, tmp_path, fmt):
    text = pipeline_view.export_text(bytelevel, fmt)
    path = tmp_path / pipeline_view.export_file_name(fmt, "english bytelevel")
    path.write_text(text, encoding="utf-8")
    again = tokcore.load(path)
    assert again.encode(TEXT) == bytelevel.encode(TEXT)
    if fmt == "hf":
        assert json.loads(text) == json.loads(json.dumps(bytelevel.to_hf_dict()))
        assert path.name == "tokenizer.json"
    else:
        assert json.loads(text)["format"] == "tokcore" and path.name == "english_bytelevel.tokcore.json"
    with pytest.raises(ValueError, match="unknown export format"):
        pipeline_view.export_text(bytelevel, "pickle")


def test_hf_export_encodes_identically_in_the_tokenizers_library(bytelevel):
    hf = pytest.importorskip("tokenizers")
    theirs = hf.Tokenizer.from_str(pipeline_view.export_text(bytelevel, "hf"))
    assert theirs.encode(TEXT).ids == bytelevel.encode(TEXT)


# ---------------------------------------------------------------- uploads
def test_upload_checks_name_what_is_wrong():
    uploads.check_files([("vocab.json", 10), ("merges.txt", 10)])
    with pytest.raises(ValueError, match="unsupported file type"):
        uploads.check_files([("model.exe", 1)])
    with pytest.raises(ValueError, match="at most 4"):
        uploads.check_files([(f"{i}.txt", 1) for i in range(5)])
    with pytest.raises(ValueError, match="vocab.txt more than once"):
        uploads.check_files([("a/vocab.txt", 1), ("b/vocab.txt", 1)])
    with pytest.raises(ValueError, match="over the 50 MiB limit"):
        uploads.check_files([("tokenizer.json", samples.MAX_UPLOAD_BYTES + 1)])
    assert uploads.limit_text() == f"{samples.MAX_UPLOAD_BYTES // 2**20} MiB"


def test_vocab_and_merges_upload_together(bytelevel):
    files = gpt2_files(bytelevel)
    entry = uploads.load_files(files)
    assert entry.label.startswith("Uploaded: vocab.json + merges.txt · BPE · ") and entry.origin == "upload"
    assert entry.key == uploads.bundle_key(list(reversed(files)))  # order does not matter
    assert [t for t in entry.tokenizer.encode_result(TEXT).tokens] == bytelevel.encode_result(TEXT).tokens
    with pytest.raises(ValueError, match="merges.txt"):
        uploads.load_files(files[:1])


def test_single_file_upload_and_engine_errors():
    entry = uploads.load_files([("tokenizer.json", BYTELEVEL.read_bytes())])
    assert entry.key == samples.upload_key(BYTELEVEL.read_bytes())
    with pytest.raises(ValueError):
        uploads.load_files([("tokenizer.json", b"{not json")])


# ---------------------------------------------------------------- the page
def run_page(**params) -> AppTest:
    return open_page(PAGE, **params)


def test_page_shows_the_pipeline_and_the_export():
    at = run_page()
    assert at.title[0].value == "Load and export"
    assert not at.error
    assert any("50 MiB" in m.value for m in at.markdown), "the upload limit is stated"
    assert at.selectbox(key="le_tok").value == "file:english_bytelevel_bpe.json"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Model"] == "BPE" and metrics["Vocabulary"] == "500"
    table = at.dataframe[0].value
    assert [s for s in table["stage"] if s][:5] == ["Normalizer", "Pre-tokenizer", "Model", "Post-processor", "Decoder"]
    assert at.radio(key="le_format").value == "hf"
    assert [b.proto.label for b in at.get("download_button")] == ["Download tokenizer.json"]
    assert '"version": "1.0"' in at.code[0].value


def test_switches_change_what_is_shown():
    at = run_page()
    at.toggle(key="le_raw").set_value(True).run()
    assert not at.exception
    assert not at.dataframe and len(at.json) == 3  # pre-tokenizer, model, decoder have JSON
    at.radio(key="le_format").set_value("tokcore").run()
    assert [b.proto.label for b in at.get("download_button")] == ["Download english_bytelevel_bpe.tokcore.json"]
    assert '"format": "tokcore"' in at.code[0].value
    at.selectbox(key="le_tok").set_value("builtin:ascii-char").run()
    assert {m.label: m.value for m in at.metric}["Class"] == "CharTokenizer"


class _NoExport(tokcore.CharTokenizer):
    def to_hf_dict(self):
        raise tokcore.ConfigurationError("this tokenizer has no HF equivalent; export tokcore JSON instead")


def test_export_errors_are_shown_as_st_error():
    at = open_page(PAGE, session={"session:no-export": ("No export", _NoExport())})
    at.selectbox(key="le_tok").set_value("session:no-export").run()
    assert not at.exception
    assert [e.value for e in at.error] == ["this tokenizer has no HF equivalent; export tokcore JSON instead"]
    at.radio(key="le_format").set_value("tokcore").run()
    assert not at.error


def test_upload_list_errors_say_that_earlier_files_are_still_there():
    # Seen in the browser: the uploader keeps a failed file, so the next upload read "5 files uploaded" or
    # "two uploaded files share a name" with no word of how to get rid of the old ones.
    earlier = [("trunc.model", 1), ("tokenizer.json", 1), ("vocab.json", 1)]
    with pytest.raises(ValueError) as caught:
        uploads.check_files(earlier + [("vocab.json", 1), ("merges.txt", 1)])
    assert "trunc.model, tokenizer.json, vocab.json" in str(caught.value) and "click ×" in str(caught.value)
    with pytest.raises(ValueError) as caught:
        uploads.check_files([("tokenizer.json", 1), ("tokenizer.json", 2)])
    assert "tokenizer.json more than once" in str(caught.value) and "click ×" in str(caught.value)
    two_models = [("a.model", b"\x0a\x00"), ("b.model", b"\x0a\x00")]
    with pytest.raises(ValueError) as caught:
        uploads.load_files(two_models)
    assert "several .model files" in str(caught.value) and "click ×" in str(caught.value)
