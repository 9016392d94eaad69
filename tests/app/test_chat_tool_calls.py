"""tokapp.chat_tool_calls without Streamlit: the editor's tool-call JSON becomes transformers messages, bad JSON and
string arguments are refused with a message saying what to write, and the warnings for templates without tools."""

from __future__ import annotations

import pytest

import tokcore
from tokapp import chat_sources, chat_tool_calls

CHATML_FOLDER = chat_sources.CHAT_SAMPLES[0].folder


def test_the_short_form_and_transformers_form_give_the_same_call():
    short = chat_tool_calls.parse_tool_calls('[{"name": "f", "arguments": {"b": 1, "a": 2}}]', 3)
    full = chat_tool_calls.parse_tool_calls(
        '{"type": "function", "function": {"name": "f", "arguments": {"b": 1, "a": 2}}}', 3)
    assert short == full == [{"type": "function", "function": {"name": "f", "arguments": {"b": 1, "a": 2}}}]
    assert list(short[0]["function"]["arguments"]) == ["b", "a"], "argument order is the user's"


def test_an_id_is_kept_and_missing_arguments_are_an_empty_object():
    [call] = chat_tool_calls.parse_tool_calls('[{"id": "call_9", "function": {"name": "now"}}]', 1)
    assert call == {"type": "function", "function": {"name": "now", "arguments": {}}, "id": "call_9"}


@pytest.mark.parametrize("text, want", [
    ('[{"name": "f", "arguments": {"city": }}]', "Message 4, tool calls: not valid JSON (line 1, column 38"),
    ('[{"name": "f", "arguments": "{\\"city\\": \\"Paris\\"}"}]', 'write "arguments" as a JSON object'),
    ('[{"name": "f", "arguments": [1]}]', '"arguments" must be a JSON object'),
    ('[{"arguments": {}}]', 'needs a "name"'),
    ('[]', "expected a JSON list of calls"),
    ('["f"]', "each tool call is a JSON object"),
    ('[{"function": "f"}]', '"function" must be an object'),
])
def test_bad_tool_calls_say_what_to_write(text, want):
    with pytest.raises(ValueError) as caught:
        chat_tool_calls.parse_tool_calls(text, 4)
    assert want in str(caught.value)


def test_rows_become_messages_with_only_the_fields_their_role_has():
    assert chat_tool_calls.build_message("user", "hi", calls_text='[{"name": "f"}]', name="x") == {
        "role": "user", "content": "hi"}
    assert chat_tool_calls.build_message("assistant", "", calls_text="  ") == {"role": "assistant", "content": ""}
    assert chat_tool_calls.build_message("tool", "18", name=" get_weather ", call_id="call_1") == {
        "role": "tool", "content": "18", "name": "get_weather", "tool_call_id": "call_1"}
    assert chat_tool_calls.build_message("tool", "18") == {"role": "tool", "content": "18"}


def test_the_example_is_a_call_its_result_and_the_answer():
    messages = chat_tool_calls.example_messages()
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert messages[2]["tool_calls"][0] == {"type": "function", "id": "call_1",
                                            "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
    assert messages[3]["tool_call_id"] == "call_1" and messages[3]["name"] == "get_weather"
    assert chat_tool_calls.call_names(messages) == ["get_weather"] and chat_tool_calls.uses_tools(messages)


def test_the_chatml_sample_writes_tool_calls_after_the_content():
    messages = chat_tool_calls.example_messages()
    text = tokcore.render_chat(CHATML_FOLDER, messages, tools=chat_tool_calls.EXAMPLE_TOOLS)
    assert ('<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
            "</tool_call><|im_end|>\n<|im_start|>tool\n") in text
    messages[2]["content"] = "Checking."
    messages[2]["tool_calls"].append({"type": "function", "function": {"name": "now", "arguments": {}}})
    text = tokcore.render_chat(CHATML_FOLDER, messages)
    assert "assistant\nChecking.\n<tool_call>\n" in text and '</tool_call>\n<tool_call>\n{"name": "now"' in text
    assert chat_tool_calls.dropped_calls_warning(
        text, tokcore.render_chat(CHATML_FOLDER, chat_tool_calls.without_calls(messages)), messages) is None


def test_templates_that_drop_or_refuse_tool_calls_get_a_hint():
    messages = chat_tool_calls.example_messages()
    assert all("tool_calls" not in m for m in chat_tool_calls.without_calls(messages))
    assert "tool_calls" in messages[2], "the conversation itself is left alone"
    warning = chat_tool_calls.dropped_calls_warning("<|user|>\nget_weather</s>", "<|user|>\nget_weather</s>", messages)
    assert "does not write tool calls" in warning and "`get_weather`" in warning
    assert "ChatML sample" in chat_tool_calls.refused_hint(messages)
    assert chat_tool_calls.refused_hint([{"role": "user", "content": "hi"}]) == ""
