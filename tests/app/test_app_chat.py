"""The Chat page under AppTest: every built-in chat sample on the defaults, the editor, tools, the generation
prompt, template errors, the user's own template, two models side by side, and a chat model by Hub name from a
seeded offline Hub cache (never the network)."""

from __future__ import annotations

import json

import pytest
from app_pages import open_page
from hub_seed import seed_hub
from shared_data import require_shared

import tokcore
from tokapp import chat_sources, samples

PAGE = "12_Chat.py"
CHATML, LLAMA, ZEPHYR = (s.tokenizer_key for s in chat_sources.CHAT_SAMPLES)


def run_with(models: list[str]):
    return open_page(PAGE, state={"chat_toks": models})


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def prompts(at) -> list[str]:
    return [h.value for h in at.html if h.value.startswith('<div class="ch-prompt"')]


def rendered(at) -> list[str]:
    return [c.value for c in at.code]


@pytest.mark.parametrize("key", [CHATML, LLAMA, ZEPHYR])
def test_every_built_in_chat_sample_runs_on_the_defaults(key):
    at = run_with([key])
    assert errors(at) == []
    [prompt] = prompts(at)
    assert 'data-owner="template"' in prompt and 'data-owner="m1"' in prompt and "ch-tpl" in prompt
    assert len(at.metric) == 2 and int(at.metric[0].value) > int(at.metric[1].value) > 0
    table = at.dataframe[0].value
    assert list(table["role"]) == ["system", "user", "assistant", "user", "template", "total"]


def test_the_defaults_show_two_samples_side_by_side_with_totals_and_the_doubled_bos_warning():
    at = open_page(PAGE)
    assert errors(at) == []
    assert at.multiselect(key="chat_toks").value == list(chat_sources.DEFAULT_KEYS)
    assert len(prompts(at)) == 2 and len(at.metric) == 4
    table = at.dataframe[0].value
    totals = table[table["role"] == "total"].iloc[0]
    assert [int(totals[c]) for c in table.columns[3:]] == [int(at.metric[0].value), int(at.metric[2].value)]
    assert "Totals:" in at.caption[-1].value
    assert any("second `<s>`" in w.value for w in at.warning), "the Llama sample's post-processor would add <s>"


def test_key_widgets_are_there():
    at = open_page(PAGE)
    assert [at.selectbox(key=f"chat_role_{n}").value for n in range(4)] == ["system", "user", "assistant", "user"]
    assert at.text_area(key="chat_content_1").value == "What is a token?"
    assert at.text_area(key="chat_tools").value == ""
    assert at.toggle(key="chat_agp").value is True
    assert at.button(key="chat_add") and at.button(key="chat_remove_0")
    assert at.text_area(key="chat_cfg_paste") is not None and at.multiselect(key="chat_cfg_for") is not None
    assert at.text_input(key="chat_model_name") is not None  # the model-by-name box of the shared picker


def test_the_generation_prompt_toggle_changes_the_rendered_text():
    at = run_with([CHATML])
    [with_prompt] = rendered(at)
    template_tokens = int(at.metric[1].value)
    assert with_prompt.endswith("<|im_end|>\n<|im_start|>assistant")  # st.code drops the final newline
    at.toggle(key="chat_agp").set_value(False).run()
    [without] = rendered(at)
    assert without.endswith("'naïve café'?<|im_end|>") and with_prompt.startswith(without)
    assert int(at.metric[1].value) < template_tokens, "fewer template tokens without the generation prompt"


def test_an_alternation_violation_shows_the_templates_own_message():
    at = run_with([LLAMA])
    at.selectbox(key="chat_role_2").set_value("user").run()  # user, user: Llama's check refuses it
    assert not at.exception
    [message] = errors(at)
    assert "the chat template raised an error: Roles must alternate user, assistant" in message
    assert "Traceback" not in message
    assert prompts(at) == []


def test_invalid_tools_json_is_an_error_and_valid_tools_reach_the_template():
    at = run_with([CHATML])
    at.text_area(key="chat_tools").input('[{"name": "get_weather",}]').run()
    assert any("Tools: not valid JSON" in e for e in errors(at))
    assert "# Tools" not in rendered(at)[0] and prompts(at), "rendered without tools meanwhile"
    at.text_area(key="chat_tools").input('[{"type": "function", "function": {"name": "get_weather"}}]').run()
    assert errors(at) == []
    assert '"name": "get_weather"' in rendered(at)[0]


def test_messages_are_added_and_removed():
    at = run_with([ZEPHYR])
    at.button(key="chat_add").click().run()
    assert at.selectbox(key="chat_role_4").value == "assistant"
    at.text_area(key="chat_content_4").input("Five <i>tokens</i>, roughly.").run()
    assert "<|assistant|>\nFive <i>tokens</i>, roughly.</s>" in rendered(at)[0]
    assert "<i>" not in prompts(at)[0], "user text is escaped in the token strip"
    at.button(key="chat_remove_0").click().run()
    assert "<|system|>" not in rendered(at)[0]
    assert len(at.dataframe[0].value) == 4 + 2
    at.selectbox(key="chat_role_1").set_value("tool").run()
    assert errors(at) == [] and rendered(at)[0].startswith("<|tool|>\nWhat is a token?</s>")


def test_a_tokenizer_without_a_template_asks_for_one_and_takes_a_pasted_one():
    at = run_with(["builtin:ascii-char"])
    assert errors(at) == [] and prompts(at) == []
    assert "comes with no chat template" in at.info[0].value
    at.text_area(key="chat_cfg_paste").input("{% for m in messages %}<{{ m.role }}>{{ m.content }}\n{% endfor %}").run()
    assert errors(at) == []
    assert rendered(at)[0].startswith("<system>You are a concise assistant.\n<user>What is a token?")
    assert 'data-owner="template"' in prompts(at)[0]


def test_a_broken_pasted_template_is_an_error_not_a_traceback():
    at = run_with(["builtin:ascii-char"])
    at.text_area(key="chat_cfg_paste").input("{% for m in messages %}").run()
    assert not at.exception
    assert any("syntax error" in e for e in errors(at))


@pytest.fixture
def hub_cache(tmp_path, monkeypatch):
    """A Hub cache holding a real chat model's tokenizer_config.json (copied at test time, never committed) with a
    sample tokenizer of ours as its tokenizer.json, and a base model with no chat template."""
    config = require_shared("chat", "tinyllama-1.1b-chat.json")
    tokenizer = tmp_path / "tokenizer.json"
    tokcore.load(samples.SAMPLE_DIR / "chat_zephyr_unigram.json").save_hf(tokenizer)
    base_config = tmp_path / "base_config.json"
    base_config.write_text(json.dumps({"bos_token": "<s>"}))
    hub = tmp_path / "hub"
    seed_hub(hub, "TinyLlama/TinyLlama-1.1B-Chat-v1.0", {"tokenizer.json": tokenizer, "tokenizer_config.json": config})
    seed_hub(hub, "someone/base-model", {"tokenizer.json": tokenizer, "tokenizer_config.json": base_config})
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return hub


def load_by_name(name: str):
    """Type a Hub name in the page's model box and click Load, as a person would."""
    at = open_page(PAGE)
    at.text_input(key="chat_model_name").input(name)
    at.button(key="chat_model_load").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.shared_data
def test_a_chat_model_by_hub_name_brings_its_template_from_the_cache(hub_cache):
    at = load_by_name("TinyLlama/TinyLlama-1.1B-Chat-v1.0")
    key = "model:hf:TinyLlama/TinyLlama-1.1B-Chat-v1.0"
    assert at.multiselect(key="chat_toks").value == [*chat_sources.DEFAULT_KEYS, key]
    assert errors(at) == []
    assert len(prompts(at)) == 3
    tinyllama = rendered(at)[2]
    assert tinyllama.startswith("<|system|>\nYou are a concise assistant.</s>\n<|user|>\nWhat is a token?</s>")
    assert tinyllama.endswith("<|assistant|>")  # TinyLlama's own template: no newline after the generation prompt
    assert any("its own template" in m.value for m in at.markdown)


@pytest.mark.shared_data
def test_a_hub_model_without_a_chat_template_says_so(hub_cache):
    at = load_by_name("someone/base-model")
    assert any("no chat_template in this tokenizer config" in i.value for i in at.info)


def test_an_empty_conversation_asks_for_a_message_once():
    at = open_page(PAGE)
    for n in range(len(chat_sources.DEFAULT_CONVERSATION)):
        at.button(key=f"chat_remove_{n}").click().run()
    assert not at.exception and errors(at) == [] and prompts(at) == []
    assert [i.value for i in at.info if "conversation is empty: add a message" in i.value]
    at.button(key="chat_add").click().run()
    assert errors(at) == [] and len(prompts(at)) == 2


def test_errors_about_an_uploaded_config_name_the_file_not_a_dict():
    at = run_with(["builtin:ascii-char"])
    for config, want in (({"chat_template": 42}, "mine.json: chat_template must be"),
                         ({"bos_token": "<s>"}, "mine.json: no chat_template"),
                         ({"chat_template": [{"name": "rag", "template": "x"}]}, "your template (mine.json): ")):
        at.file_uploader(key="chat_cfg_upload").set_value(("mine.json", json.dumps(config).encode(), "application/json"))
        at.run()
        assert not at.exception
        shown = errors(at)
        assert any(e.startswith(want) for e in shown) and not any("<dict>" in e for e in shown), shown
