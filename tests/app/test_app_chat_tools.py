"""The Chat page's tool calls under AppTest: an assistant's calls typed as JSON and a tool message reach a template
with tool support, bad JSON is an st.error (not a traceback), templates without tools say so, and the built-in
tool-call example renders on every sample."""

from __future__ import annotations

import pytest
from app_pages import open_page
from shared_data import require_shared

from tokapp import chat_sources

PAGE = "12_Chat.py"
CHATML, LLAMA, ZEPHYR = (s.tokenizer_key for s in chat_sources.CHAT_SAMPLES)
CALL = '[{"name": "get_weather", "arguments": {"unit": "C", "city": "Paris"}}]'


def run_with(models: list[str]):
    return open_page(PAGE, state={"chat_toks": models})


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def rendered(at) -> list[str]:
    return [c.value for c in at.code]


def test_only_assistant_and_tool_rows_have_tool_fields():
    at = run_with([CHATML])
    assert at.text_area(key="chat_calls_2") is not None  # the default conversation's assistant message
    keys = [w.key for w in at.text_area] + [w.key for w in at.text_input]
    assert "chat_calls_1" not in keys and "chat_tool_name_1" not in keys  # a user message has neither
    at.selectbox(key="chat_role_3").set_value("tool").run()
    assert at.text_input(key="chat_tool_name_3") is not None and at.text_input(key="chat_call_id_3") is not None


def test_a_tool_call_and_its_result_show_up_in_the_rendered_prompt():
    at = run_with([CHATML])
    at.text_area(key="chat_calls_2").input(CALL).run()
    at.selectbox(key="chat_role_3").set_value("tool").run()
    at.text_area(key="chat_content_3").input('{"temperature_c": 18}').run()
    at.text_input(key="chat_tool_name_3").input("get_weather").run()
    assert not at.exception and errors(at) == []
    [text] = rendered(at)
    assert ("<|im_start|>assistant\nA piece of text the model reads as one unit.\n<tool_call>\n"
            '{"name": "get_weather", "arguments": {"unit": "C", "city": "Paris"}}\n</tool_call><|im_end|>') in text
    assert '<|im_start|>tool\n{"temperature_c": 18}<|im_end|>' in text
    assert not [w for w in at.warning if "does not write tool calls" in w.value]
    assert any("Tool calls are written by the template" in c.value for c in at.caption)


def test_invalid_arguments_json_is_an_error_and_the_rest_still_renders():
    at = run_with([CHATML])
    at.text_area(key="chat_calls_2").input('[{"name": "get_weather", "arguments": {"city": Paris}}]').run()
    assert not at.exception
    [message] = errors(at)
    assert message.startswith("Message 3, tool calls: not valid JSON (line 1, column 48")
    assert "rendered without its tool calls" in message and "Traceback" not in message
    assert "<tool_call>\n" not in rendered(at)[0] and rendered(at)[0].startswith("<|im_start|>system")
    at.text_area(key="chat_calls_2").input('[{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}]').run()
    assert any('write "arguments" as a JSON object' in e for e in errors(at))


def test_a_template_without_tool_support_says_what_to_do():
    at = run_with([ZEPHYR, LLAMA])
    at.button(key="chat_tool_example").click().run()
    assert not at.exception
    assert any("does not write tool calls: the call to `get_weather`" in w.value for w in at.warning), "Zephyr drops it"
    [refused] = errors(at)  # Llama's alternation check refuses the tool turn
    assert "Roles must alternate" in refused and "try a template with tool support" in refused


def test_the_tool_call_example_loads_the_conversation_and_the_tools():
    at = run_with([CHATML])
    at.button(key="chat_tool_example").click().run()
    assert not at.exception and errors(at) == []
    roles = [s.value for s in at.selectbox if s.key and s.key.startswith("chat_role_")]
    assert roles == ["system", "user", "assistant", "tool", "assistant"]
    assert '"get_weather"' in at.text_area(key="chat_tools").value
    [text] = rendered(at)
    assert "# Tools" in text and '{"name": "get_weather", "arguments": {"city": "Paris"}}' in text
    assert list(at.dataframe[0].value["role"]) == ["system", "user", "assistant", "tool", "assistant", "template",
                                                   "total"]
    at.button(key="chat_add").click().run()  # new ids after the example's: no widget clashes
    assert not at.exception and len([s for s in at.selectbox if s.key.startswith("chat_role_")]) == 6


def test_a_template_that_lists_the_tools_but_drops_the_calls_is_warned_about():
    at = run_with(["builtin:ascii-char"])
    at.button(key="chat_tool_example").click().run()
    at.text_area(key="chat_cfg_paste").input("{{ tools|tojson }}{% for m in messages %}{{ m.content }}{% endfor %}").run()
    assert not at.exception and errors(at) == []
    assert "get_weather" in rendered(at)[0], "the tool's name is in the prompt, from the tools list"
    assert any("does not write tool calls" in w.value for w in at.warning)


@pytest.mark.shared_data
def test_a_real_tool_use_template_renders_the_example(tmp_path):
    config = require_shared("chat", "qwen2.5-instruct.json")
    at = run_with(["builtin:ascii-char"])
    at.button(key="chat_tool_example").click().run()
    at.file_uploader(key="chat_cfg_upload").set_value((config.name, config.read_bytes(), "application/json"))
    at.run()
    assert not at.exception and errors(at) == []
    [text] = rendered(at)
    assert ('<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
            "</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n") in text
    assert not [w for w in at.warning if "does not write tool calls" in w.value]
