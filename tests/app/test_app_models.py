"""Models by name in the pages (AppTest): a preset loads from a seeded cache and is selected at once,
an offline miss is an st.error saying how to fix it, and every page that takes tokenizers offers the box."""

from __future__ import annotations

import pytest
from app_pages import open_page
from hub_seed import seed_reference_models

GPT2 = "hf:openai-community/gpt2"


@pytest.fixture
def seeded(tmp_path, monkeypatch):
    for key, value in seed_reference_models(tmp_path).items():
        monkeypatch.setenv(key, value)


def _load(at, prefix: str, *, preset: str | None = None, typed: str | None = None):
    if preset:
        at.selectbox(key=f"{prefix}_model_preset").set_value(preset)
    if typed:
        at.text_input(key=f"{prefix}_model_name").set_value(typed)
    at.button(key=f"{prefix}_model_load").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_preset_loads_from_the_cache_and_is_selected_in_the_playground(seeded):
    at = _load(open_page("1_Playground.py"), "pg", preset=GPT2)
    assert at.selectbox(key="pg_tok").value == f"model:{GPT2}"
    assert not at.error
    table = at.dataframe[-1].value
    assert "Ġworld" in list(table["token"])  # GPT-2's byte-level pieces, not the ASCII default's characters
    assert any(m.label == "Tokens" for m in at.metric)


def test_a_typed_tiktoken_name_loads_in_the_inspector(seeded):
    at = _load(open_page("2_Offsets_inspector.py"), "oi", typed="r50k_base")
    assert at.selectbox(key="oi_tok").value == "model:tiktoken:r50k_base"
    assert not at.error


def test_compare_adds_the_model_to_the_chosen_ones(seeded):
    at = _load(open_page("3_Compare.py"), "cmp", typed="sentence-transformers/all-MiniLM-L6-v2")
    assert "model:hf:sentence-transformers/all-MiniLM-L6-v2" in at.multiselect(key="cmp_toks").value
    assert not at.error


def test_offline_and_not_cached_is_a_clear_error_and_the_page_goes_on(seeded):
    at = _load(open_page("4_Load_and_export.py"), "le", preset="hf:google-bert/bert-base-uncased")
    messages = [e.value for e in at.error]
    assert any("hf:google-bert/bert-base-uncased: not in the local cache" in m and "HF_HUB_OFFLINE=0" in m
               for m in messages), messages
    assert any(m.label == "Vocabulary" for m in at.metric)  # the page still shows the previous tokenizer


@pytest.mark.parametrize("page, prefix", [("8_Pipeline_stages.py", "ps"), ("9_Code.py", "code"),
                                          ("10_Noisy_text.py", "ln")])
def test_every_page_with_a_tokenizer_picker_offers_models_by_name(page, prefix, seeded):
    at = open_page(page)
    assert at.button(key=f"{prefix}_model_load") is not None


def test_typed_names_become_hub_or_tiktoken_names():
    from tokapp.models import normalize_name

    assert normalize_name("gpt2") == "hf:gpt2"  # the Hub repository; tiktoken's is tiktoken:gpt2
    assert normalize_name(" cl100k_base ") == "tiktoken:cl100k_base"
    assert normalize_name("https://huggingface.co/google-bert/bert-base-uncased/tree/main") == \
        "hf:google-bert/bert-base-uncased"
    with pytest.raises(ValueError):
        normalize_name("  ")
