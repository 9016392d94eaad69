"""Hostile uploads: ids outside u32 are refused (as HF refuses them), and every upload error names the file
as uploaded, never the server's temporary path."""

from __future__ import annotations

import json

import pytest

from tokapp import samples, uploads

BIG = 2**64 + 1


def _tokenizer_json(model: dict, added: list | None = None) -> bytes:
    return json.dumps({"model": model, "added_tokens": added or []}).encode()


@pytest.mark.parametrize("data, words", [
    (_tokenizer_json({"type": "WordPiece", "vocab": {"[UNK]": 0, "a": -3}, "unk_token": "[UNK]"}), "-3"),
    (_tokenizer_json({"type": "WordLevel", "vocab": {"[UNK]": 0, "a": BIG}, "unk_token": "[UNK]"}), str(BIG)),
    (_tokenizer_json({"type": "BPE", "vocab": {"a": 2**32}, "merges": []}), str(2**32)),
    (_tokenizer_json({"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"},
                     [{"id": 2**40, "content": "X", "special": True}]), str(2**40)),
])
def test_ids_outside_u32_are_refused_naming_the_upload(data, words):
    with pytest.raises(ValueError) as info:
        samples.load_uploaded("my tokenizer.json", data)
    message = str(info.value)
    assert "my tokenizer.json" in message and words in message and "2**32" in message
    assert "tokapp-" not in message and "/tmp" not in message


@pytest.mark.parametrize("files", [
    [("tokenizer.json", b"{not json")],
    [("vocab.txt", b"")],
    [("x.model", b"\x0a\xff\xff\xff")],
    [("vocab.json", b'{"a": 0}'), ("merges.txt", b"#version: 0.2\nq r\n")],
])
def test_malformed_uploads_never_show_the_temporary_path(files):
    with pytest.raises(ValueError) as info:
        uploads.load_files(files)
    message = str(info.value)
    assert "tokapp-" not in message and "/tmp" not in message
    assert any(name in message for name, _ in files) or " + ".join(n for n, _ in files) in message


def test_a_lone_vocab_json_asks_for_its_merges():
    with pytest.raises(ValueError, match="vocab.json needs its merges.txt"):
        uploads.check_files([("vocab.json", 10)])
