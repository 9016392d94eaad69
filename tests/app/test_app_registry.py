"""The app's sample registry, page discovery, and that the pure helpers import no streamlit.

The engine's side of that boundary (``import tokcore`` pulls in neither the app nor optional libraries) is
checked in ``tests/engine/test_layout.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from shared_data import ROOT

import tokcore
from tokapp import pages, samples


def _imported_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize("module", ["tokapp.html", "tokapp.tokens", "tokapp.samples", "tokapp.pages", "tokapp.chat_view",
                                    "tokapp.chat_sources",
                                    "tokapp.colors", "tokapp.visible"])
def test_pure_app_helpers_do_not_import_streamlit(module):
    modules = _imported_after(f"import {module}")
    assert not any(m == "streamlit" or m.startswith("streamlit.") for m in modules)


# ---------------------------------------------------------------- registry
def test_builtin_samples_come_first_and_load():
    specs = samples.all_specs()
    assert specs[0].key == samples.DEFAULT_KEY == "builtin:ascii-char"
    char = specs[0].load()
    assert isinstance(char, tokcore.CharTokenizer)
    assert len({s.key for s in specs}) == len(specs)
    word = samples.find_spec("builtin:toy-word-level", specs).load()
    assert word.encode("the cat", add_special_tokens=False) == [word.token_to_id("the"), word.token_to_id("cat")]


def test_every_sample_file_loads_and_encodes():
    for spec in samples.file_specs():
        tokenizer = spec.load()
        assert tokenizer.encode("Hello world") is not None, spec.key


def test_sample_files_are_discovered_with_changing_cache_keys(tmp_path):
    tok = tokcore.CharTokenizer()
    tok.save(tmp_path / "my_chars.json")
    (tmp_path / "README.md").write_text("not a tokenizer")
    (tmp_path / "notes.py").write_text("x = 1")
    specs = samples.file_specs(tmp_path)
    assert [s.key for s in specs] == ["file:my_chars.json"]
    spec = specs[0]
    assert spec.label == "Sample: my chars" and spec.kind == "file"
    assert spec.load().encode("hi") == tok.encode("hi")
    before = spec.cache_key
    (tmp_path / "my_chars.json").write_text(json.dumps(tok.to_dict()) + "\n\n")
    assert samples.file_specs(tmp_path)[0].cache_key != before
    assert samples.file_specs(tmp_path / "missing") == []


def test_session_and_uploaded_tokenizers_join_the_list():
    tok = tokcore.CharTokenizer()
    entry = samples.SessionTokenizer("session:abc", "Trained here", tok)
    specs = samples.all_specs([entry])
    spec = samples.find_spec("session:abc", specs)
    assert spec is specs[-1] and spec.kind == "session" and spec.load() is tok


def test_uploaded_file_is_read_by_the_engine(tmp_path):
    tokcore.CharTokenizer().save(tmp_path / "t.json")
    data = (tmp_path / "t.json").read_bytes()
    entry = samples.load_uploaded("../../evil/t.json", data)
    assert entry.key == samples.upload_key(data) and entry.origin == "upload"
    assert entry.label.startswith("Uploaded: t.json · ")  # name, model kind, short hash
    assert entry.tokenizer.encode("hi") == tokcore.CharTokenizer().encode("hi")


@pytest.mark.parametrize("data", [b"", b"{not json", b'{"model": {"type": "NoSuchModel"}}'])
def test_bad_uploads_raise_the_engines_value_error(data):
    with pytest.raises(ValueError) as info:
        samples.load_uploaded("broken.json", data)
    assert "broken.json" in str(info.value)


def test_oversized_upload_is_refused(monkeypatch):
    monkeypatch.setattr(samples, "MAX_UPLOAD_BYTES", 10)
    with pytest.raises(ValueError, match="upload limit"):
        samples.load_uploaded("big.json", b"x" * 11)


# ---------------------------------------------------------------- pages
def test_pages_are_discovered_in_order_with_titles(tmp_path):
    for name in ["10_Zeta_page.py", "2_Compare.py", "1_Playground.py", "_helper.py", "notes.txt", "Other.py"]:
        (tmp_path / name).write_text("")
    found = pages.discover_pages(tmp_path)
    assert [p.path.name for p in found] == ["1_Playground.py", "2_Compare.py", "10_Zeta_page.py", "Other.py"]
    assert [p.title for p in found] == ["Playground", "Compare", "Zeta page", "Other"]
    assert [p.default for p in found] == [True, False, False, False]
    assert found[2].url_path == "zeta_page" and found[2].icon == pages.DEFAULT_ICON
    assert found[0].icon.startswith(":material/")
    assert [p.section for p in found] == ["Explore", "Explore", "Beyond plain text", "Beyond plain text"]
    assert list(pages.by_section(found)) == ["Explore", "Beyond plain text"]
    assert pages.section_of(1) == "Explore" and pages.section_of(5) == pages.section_of(8) == "Train"


def test_the_repository_pages_start_with_the_playground():
    found = pages.discover_pages()
    assert found[0].title == "Playground" and found[0].default
    assert len({p.url_path for p in found}) == len(found)
