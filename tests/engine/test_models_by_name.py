"""Models by name: Hub repositories and tiktoken encodings read through the real ``huggingface_hub`` and
tiktoken's cache convention, from caches seeded with the reference files (never the network)."""

from __future__ import annotations

import pytest
from hub_seed import seed_hub, seed_reference_models
from shared_data import require_shared

import tokcore
from tokcore.loaders import hub, tiktoken_cache

TEXT = "Hello world, naïve café 🙂 tokenizers!"


@pytest.fixture
def seeded(tmp_path, monkeypatch):
    env = seed_reference_models(tmp_path)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


def test_a_cached_repository_loads_and_encodes_like_its_files(seeded):
    direct = tokcore.load(require_shared("reference", "hf", "gpt2", "tokenizer.json"))
    by_name = tokcore.load("hf:openai-community/gpt2")
    assert by_name.encode(TEXT) == direct.encode(TEXT)
    minilm = tokcore.load("hf:sentence-transformers/all-MiniLM-L6-v2")
    assert minilm.encode("Hello world") == tokcore.load(require_shared("reference", "hf", "minilm")).encode("Hello world")


def test_legacy_files_are_used_when_there_is_no_tokenizer_json(seeded):
    legacy = tokcore.load("hf:gpt2")
    assert legacy.encode(TEXT, add_special_tokens=False) == tokcore.load("hf:openai-community/gpt2").encode(
        TEXT, add_special_tokens=False)


def test_offline_and_not_cached_says_how_to_fix_it(seeded):
    with pytest.raises(tokcore.TokenizerFileError) as info:
        tokcore.load("hf:google-bert/bert-base-uncased", download=True)  # HF_HUB_OFFLINE=1 wins over download
    message = str(info.value)
    assert "hf:google-bert/bert-base-uncased" in message and "not in the local cache" in message
    assert "HF_HUB_OFFLINE=0" in message and "Traceback" not in message


def test_a_cache_folder_without_tokenizer_files_is_not_a_tokenizer(seeded, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("weights only")
    seed_hub(tmp_path / "hub", "someone/weights-only", {"README.md": readme})
    with pytest.raises(tokcore.TokenizerFileError, match="not in the local cache"):
        tokcore.load("hf:someone/weights-only")


def test_pick_files_prefers_tokenizer_json_then_the_legacy_sets():
    assert hub.pick_files(["tokenizer.json", "vocab.txt", "tokenizer_config.json", "x/tokenizer.json"]) == [
        "tokenizer.json", "tokenizer_config.json"]
    assert hub.pick_files(["vocab.json", "merges.txt", "config.json"]) == ["merges.txt", "vocab.json"]
    assert hub.pick_files(["spiece.model", "special_tokens_map.json"]) == ["special_tokens_map.json", "spiece.model"]
    assert hub.pick_files(["model.safetensors"]) == []
    assert hub.pick_files(["tokenizer.json", "chat_template.jinja", "tokenizer_config.json"]) == [
        "chat_template.jinja", "tokenizer.json", "tokenizer_config.json"]  # a chat model's template comes along


def test_a_tiktoken_encoding_by_name_matches_tiktoken_on_the_same_cache(seeded):
    tiktoken = pytest.importorskip("tiktoken")
    ours = tokcore.load("tiktoken:r50k_base")
    theirs = tiktoken.get_encoding("r50k_base")  # reads the same cache file: the convention is shared
    text = TEXT + " <|endoftext|>"
    assert ours.encode(text, add_special_tokens=False) == theirs.encode(text, allowed_special="all")
    assert tokcore.load("tiktoken:gpt2").encode(TEXT) == ours.encode(TEXT)


def test_tiktoken_cache_rules_follow_tiktoken(monkeypatch, tmp_path):
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR", raising=False)
    monkeypatch.setenv("DATA_GYM_CACHE_DIR", str(tmp_path / "gym"))
    assert tiktoken_cache.cache_folder() == tmp_path / "gym"
    monkeypatch.delenv("DATA_GYM_CACHE_DIR")
    assert tiktoken_cache.cache_folder().name == "data-gym-cache"
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    assert tiktoken_cache.cache_folder() is None


def test_a_corrupt_cached_file_is_not_trusted(seeded, tmp_path):
    folder = tiktoken_cache.cache_folder()
    (folder / tiktoken_cache.cache_file_name(tiktoken_cache.URLS["cl100k_base"][0])).write_bytes(b"IQ== 0\n")
    with pytest.raises(tokcore.TokenizerFileError, match="tiktoken:cl100k_base: not in the local cache"):
        tokcore.load("tiktoken:cl100k_base", download=True)  # offline: the bad file is not used, nothing fetched


def test_unknown_names_are_refused_with_the_known_ones():
    with pytest.raises(tokcore.TokenizerFileError, match="cl100k_base"):
        tokcore.load("tiktoken:cl99k")
    with pytest.raises(tokcore.TokenizerFileError, match="no repository name"):
        tokcore.load("hf: ")
