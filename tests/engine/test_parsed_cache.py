"""The parsed-file cache (``tokcore.loaders.parsed_cache``): a later load of the same large BPE
``tokenizer.json`` reads what the first one built, gives the same tokenizer, and any cache file
that does not check out (another file's bytes, another tokcore, a damaged file) is passed over."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from shared_data import require_shared

import tokcore
from tokcore.loaders import files, parsed_cache

TEXT = ("Hello world!  It's 2026: naïve café, 東京, emoji 🙂, tabs\tand\nnew lines;"
        " 'quoted' words, numbers 12345 and    spaces.")


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("TOKCORE_CACHE_DIR", str(folder))
    return folder


@pytest.fixture()
def gpt2(tmp_path):
    """A private copy of GPT-2's tokenizer.json (3.6 MB), so a test may change its bytes."""
    path = tmp_path / "gpt2" / "tokenizer.json"
    path.parent.mkdir()
    shutil.copy(require_shared("reference/hf/gpt2/tokenizer.json"), path)
    return path


@pytest.fixture()
def parses(monkeypatch):
    """How many times a tokenizer file's JSON was parsed."""
    calls = []
    real = files.parse_json_bytes

    def counting(raw, path):
        calls.append(path)
        return real(raw, path)

    monkeypatch.setattr(files, "parse_json_bytes", counting)
    return calls


def _same(a, b) -> None:
    assert a.to_dict() == b.to_dict()
    ra, rb = a.encode_result(TEXT, return_offsets=True), b.encode_result(TEXT, return_offsets=True)
    assert (ra.ids, ra.tokens, ra.original_offsets) == (rb.ids, rb.tokens, rb.original_offsets)


def _reference(path, monkeypatch):
    with monkeypatch.context() as m:
        m.setenv("TOKCORE_CACHE_DIR", "off")
        return tokcore.load(path)


def test_a_second_load_reads_the_cache_instead_of_the_json(cache, gpt2, parses, monkeypatch):
    first = tokcore.load(gpt2)
    assert len(parses) == 1
    assert [p.name for p in cache.iterdir()] == [parsed_cache.cache_key(gpt2.read_bytes())]
    second = tokcore.load(gpt2)
    assert len(parses) == 1  # not parsed again
    assert parsed_cache.read_cached(gpt2.read_bytes(), gpt2) is not None
    _same(first, second)
    _same(second, _reference(gpt2, monkeypatch))
    assert second.model.merges == first.model.merges
    assert second.model._made == first.model._made


def test_another_process_reads_it_too(cache, gpt2, parses):
    tokcore.load(gpt2)
    parsed_cache._STAMP.clear()  # as a fresh process computes its code stamp anew
    tokcore.load(gpt2)
    assert len(parses) == 1


def test_changed_bytes_are_a_miss_and_load_what_the_file_now_says(cache, gpt2, parses):
    tokcore.load(gpt2)
    data = json.loads(gpt2.read_text(encoding="utf-8"))
    merges = data["model"]["merges"]
    merges[0], merges[1] = merges[1], merges[0]  # the two first ranks swapped
    gpt2.write_text(json.dumps(data), encoding="utf-8")
    changed = tokcore.load(gpt2)
    assert len(parses) == 2
    assert changed.model.merges[:2] == [tuple(merges[0]), tuple(merges[1])]
    assert len(list(cache.iterdir())) == 2  # one file per version of the bytes
    again = tokcore.load(gpt2)
    assert len(parses) == 2
    assert again.model.merges[:2] == changed.model.merges[:2]


def _damage(blob: bytes, how: str) -> bytes:
    head = len(parsed_cache.MAGIC) + 4 + int.from_bytes(blob[len(parsed_cache.MAGIC):len(parsed_cache.MAGIC) + 4], "little")
    if how == "empty":
        return b""
    if how == "truncated":
        return blob[: len(blob) // 2]
    if how == "magic":
        return b"X" + blob[1:]
    if how == "header length":
        return blob[:len(parsed_cache.MAGIC)] + (10 ** 8).to_bytes(4, "little") + blob[len(parsed_cache.MAGIC) + 4:]
    if how == "header json":
        return blob[:head - 1] + b"\xff" + blob[head:]
    if how == "payload byte":
        at = head + (len(blob) - head) // 2
        return blob[:at] + bytes([blob[at] ^ 0x40]) + blob[at + 1:]
    if how == "one byte more":
        return blob + b"\x00"
    header = json.loads(blob[len(parsed_cache.MAGIC) + 4:head])
    if how == "code":
        header["code"] = "another stamp"
    elif how == "format":
        header["format"] += 1
    elif how == "separator":
        header["separator"] = "\u0120"  # "Ġ": in many tokens, so the split gives too many
    elif how == "sizes":
        header["sizes"][2] += 1
    new = json.dumps(header, ensure_ascii=False).encode("utf-8")
    return parsed_cache.MAGIC + len(new).to_bytes(4, "little") + new + blob[head:]


DAMAGES = ["empty", "truncated", "magic", "header length", "header json", "payload byte", "one byte more",
           "code", "format", "separator", "sizes"]


@pytest.mark.parametrize("how", DAMAGES)
def test_a_cache_file_that_does_not_check_out_is_passed_over_and_rewritten(cache, gpt2, parses, monkeypatch, how):
    tokcore.load(gpt2)
    (kept,) = cache.iterdir()
    good = kept.read_bytes()
    kept.write_bytes(_damage(good, how))
    assert parsed_cache.read_cached(gpt2.read_bytes(), gpt2) is None
    tok = tokcore.load(gpt2)
    assert len(parses) == 2  # parsed again
    assert kept.read_bytes() == good  # and written anew
    tokcore.load(gpt2)
    assert len(parses) == 2
    _same(tok, _reference(gpt2, monkeypatch))


def test_the_damage_helper_changes_every_kind(cache, gpt2):
    tokcore.load(gpt2)
    (kept,) = cache.iterdir()
    good = kept.read_bytes()
    assert all(_damage(good, how) != good for how in DAMAGES)


@pytest.mark.parametrize("setting", ["off", "", "0"])
def test_the_cache_can_be_turned_off(tmp_path, gpt2, parses, monkeypatch, setting):
    monkeypatch.setenv("TOKCORE_CACHE_DIR", setting)
    assert parsed_cache.cache_dir() is None
    tokcore.load(gpt2)
    tokcore.load(gpt2)
    assert len(parses) == 2
    assert not (tmp_path / "cache").exists()


def test_a_folder_that_cannot_be_written_only_means_no_cache(tmp_path, gpt2, parses, monkeypatch):
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("TOKCORE_CACHE_DIR", str(blocked / "cache"))
    first = tokcore.load(gpt2)
    second = tokcore.load(gpt2)
    assert len(parses) == 2
    _same(first, second)


def test_the_default_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("TOKCORE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert parsed_cache.cache_dir() == tmp_path / "tokcore" / "parsed"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert parsed_cache.cache_dir() == tmp_path / ".cache" / "tokcore" / "parsed"


def test_only_large_bpe_files_are_kept(cache, tmp_path, parses):
    minilm = require_shared("reference/hf/minilm/tokenizer.json")  # WordPiece, 466 KB
    trained = sorted(require_shared("reference/hf/trained").glob("*.json"))  # 43-265 KB
    expected = set()
    for path in [minilm, *trained]:
        tok = tokcore.load(path)
        if type(tok.model).__name__ == "BPE" and os.path.getsize(path) >= parsed_cache.CACHE_FROM_BYTES:
            expected.add(parsed_cache.cache_key(path.read_bytes()))
    assert {p.name for p in cache.iterdir()} == expected
    assert len(expected) == 1  # the RoBERTa-style file; the Llama-style one is smaller, the rest not BPE


def test_tokens_holding_control_characters_get_another_separator(cache, gpt2, parses, monkeypatch):
    data = json.loads(gpt2.read_text(encoding="utf-8"))
    vocab = data["model"]["vocab"]
    # Tokens holding the first separator candidates, "\x00" and "\x01", as a raw byte vocabulary may.
    vocab["a\x00b"], vocab["\x01"] = len(vocab), len(vocab) + 1
    gpt2.write_text(json.dumps(data), encoding="utf-8")
    first = tokcore.load(gpt2)
    second = tokcore.load(gpt2)
    assert len(parses) == 1
    assert second.model.vocab == first.model.vocab
    assert second.model.vocab["a\x00b"] == first.model.vocab["a\x00b"]
