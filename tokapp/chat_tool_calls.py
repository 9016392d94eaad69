"""Tool calls and tool results in the Chat page's editor, as transformers' ``apply_chat_template`` takes them. Pure.

An assistant message may carry ``tool_calls``: a list of ``{"type": "function", "function": {"name": ...,
"arguments": {...}}}``, optionally with an ``"id"`` (Mistral-style templates read it). The editor takes that list
as JSON text and also accepts the short form ``{"name": ..., "arguments": {...}}``, which it wraps. Arguments must
be a JSON object: that is what chat templates write with ``|tojson``; a JSON *string* of arguments (as the OpenAI
API sends them) would be printed quoted, so it is refused with a hint instead of rendered wrongly.
A ``tool`` message carries the result as its content, and optionally ``name`` and ``tool_call_id``.

Left out: widgets (``tokapp.st_chat``), rendering (``tokcore.chat``).
"""

from __future__ import annotations

import json
from typing import Any

ARGUMENTS_HINT = 'e.g. {"city": "Paris"}'
CALLS_PLACEHOLDER = '[{"name": "get_weather", "arguments": {"city": "Paris"}}]'


def _call(item: Any, where: str) -> dict:
    """One call in transformers' shape, or a ``ValueError`` naming what is wrong with it."""
    if not isinstance(item, dict):
        raise ValueError(f"{where}: each tool call is a JSON object like {CALLS_PLACEHOLDER[1:-1]}, "
                         f"got {type(item).__name__}")
    function = item.get("function", item)
    if not isinstance(function, dict):
        raise ValueError(f"{where}: \"function\" must be an object with \"name\" and \"arguments\"")
    name = function.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{where}: the call needs a \"name\" (the tool's name, as in the tools list)")
    arguments = function.get("arguments", {})
    if isinstance(arguments, str):
        raise ValueError(f"{where} ({name}): write \"arguments\" as a JSON object ({ARGUMENTS_HINT}), not a string; "
                         "transformers' chat templates write the object out themselves")
    if not isinstance(arguments, dict):
        raise ValueError(f"{where} ({name}): \"arguments\" must be a JSON object ({ARGUMENTS_HINT}), "
                         f"got {type(arguments).__name__}")
    call: dict = {"type": item.get("type", "function"), "function": {"name": name, "arguments": arguments}}
    if item.get("id") is not None:
        call["id"] = item["id"]
    return call


def parse_tool_calls(text: str, position: int) -> list[dict] | None:
    """The tool calls typed for message ``position`` (1-based, for messages); empty text means none.

    ``parse_tool_calls('{"name": "f", "arguments": {}}', 3) == [{"type": "function", "function": {"name": "f", "arguments": {}}}]``
    """
    if not text.strip():
        return None
    where = f"Message {position}, tool calls"
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}). "
                         f"Write a list of calls, e.g. {CALLS_PLACEHOLDER}") from None
    except RecursionError:  # json's own nesting limit: still the text's fault
        raise ValueError(f"{where}: the JSON is nested too deeply to read") from None
    items = [value] if isinstance(value, dict) else value
    if not isinstance(items, list) or not items:
        raise ValueError(f"{where}: expected a JSON list of calls, e.g. {CALLS_PLACEHOLDER}")
    return [_call(item, f"{where} [{index + 1}]") for index, item in enumerate(items)]


def build_message(role: str, content: str, *, calls_text: str = "", name: str = "", call_id: str = "",
                  position: int = 1) -> dict:
    """One editor row as a transformers message: tool calls only on assistant messages, ``name`` and
    ``tool_call_id`` only on tool messages, empty fields left out. Raises ``ValueError`` for bad tool-call JSON.

    ``build_message("tool", "18 C", name="get_weather") == {"role": "tool", "content": "18 C", "name": "get_weather"}``
    """
    message: dict = {"role": role, "content": content}
    if role == "assistant":
        calls = parse_tool_calls(calls_text, position)
        if calls:
            message["tool_calls"] = calls
    elif role == "tool":
        if name.strip():
            message["name"] = name.strip()
        if call_id.strip():
            message["tool_call_id"] = call_id.strip()
    return message


def call_names(messages: list[dict]) -> list[str]:
    """The names of every tool called in the conversation, in order.

    ``call_names([{"role": "assistant", "tool_calls": [{"function": {"name": "f"}}]}]) == ["f"]``
    """
    return [call["function"]["name"] for m in messages for call in m.get("tool_calls") or ()]


def uses_tools(messages: list[dict]) -> bool:
    """Whether the conversation has tool calls or tool messages (templates without tool support may refuse it)."""
    return any(m.get("tool_calls") or m.get("role") == "tool" for m in messages)


def without_calls(messages: list[dict]) -> list[dict]:
    """The conversation with every ``tool_calls`` removed: rendering it tells whether a template writes calls at all.

    ``without_calls([{"role": "assistant", "content": "", "tool_calls": []}]) == [{"role": "assistant", "content": ""}]``
    """
    return [{key: value for key, value in m.items() if key != "tool_calls"} for m in messages]


def dropped_calls_warning(with_calls: str, without: str, messages: list[dict]) -> str | None:
    """A warning when the prompt is the same with and without the tool calls (the template ignores them), else
    ``None``. Comparing two renders, not looking for the tool's name, since templates that list the tools have it
    in the prompt anyway.

    ``dropped_calls_warning("p", "p", [{"role": "assistant", "tool_calls": [{"function": {"name": "f"}}]}])``
    names ``f``.
    """
    names = sorted(set(call_names(messages)))
    if not names or with_calls != without:
        return None
    listed = ", ".join(f"`{name}`" for name in names)
    return (f"This template does not write tool calls: the call to {listed} is not in its prompt. "
            "Pick a template with tool support (e.g. the ChatML sample) to compare how calls are formatted.")


def refused_hint(messages: list[dict]) -> str:
    """What to add to a template's error when the conversation has tool calls or tool messages, else ``""``."""
    if not uses_tools(messages):
        return ""
    return (" This conversation has tool calls or tool messages, which this template may not support: try a template "
            "with tool support (e.g. the ChatML sample), or remove them.")


# The built-in tool-use example: a call, its result, and the answer that uses it; plus the tool's schema.
EXAMPLE_TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "The current weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "The city's name"}},
                   "required": ["city"]}}}]
EXAMPLE_CONVERSATION: tuple[dict, ...] = (
    {"role": "system", "content": "You are a helpful assistant with access to tools."},
    {"role": "user", "content": "What's the weather in Paris?"},
    {"role": "assistant", "content": "",
     "calls_text": '[{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "call_1"}]'},
    {"role": "tool", "content": '{"temperature_c": 18, "sky": "cloudy"}', "name": "get_weather",
     "call_id": "call_1"},
    {"role": "assistant", "content": "It is 18 °C and cloudy in Paris."},
)


def example_messages() -> list[dict]:
    """The example conversation as transformers messages (what the editor produces from it)."""
    return [build_message(row["role"], row["content"], calls_text=row.get("calls_text", ""),
                          name=row.get("name", ""), call_id=row.get("call_id", ""), position=i + 1)
            for i, row in enumerate(EXAMPLE_CONVERSATION)]
