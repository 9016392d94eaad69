"""Checking and cleaning the messages, tools and documents before a template sees them, as transformers does.

Everything is rebuilt from plain JSON-like types (str, int, float, bool, None, dict, list, tuple): objects with
methods of their own never reach the sandbox. Message keys whose value is ``None`` are dropped, and reasoning given
as ``thinking`` or ``reasoning`` is also passed as ``reasoning_content``.

Left out: tools given as Python functions (transformers builds a JSON schema from their type hints and docstring;
pass the schema dict instead), batches of conversations, and ``continue_final_message``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .errors import ChatInputError, ChatInputTypeError

# The names reasoning arrives under; the first is the one templates read.
REASONING_KEYS = ("reasoning_content", "thinking", "reasoning")


def plain_data(value: Any) -> Any:
    """``value`` rebuilt from plain types; anything else becomes a placeholder naming its type.

    >>> plain_data({"a": (1, 2.5), "b": object()})
    {'a': (1, 2.5), 'b': '<object>'}
    """
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, Mapping):
        return {plain_data(key): plain_data(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_data(item) for item in value]
    if isinstance(value, tuple):
        return tuple(plain_data(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if callable(getattr(value, "model_dump", None)):
        return plain_data(value.model_dump())
    return f"<{type(value).__name__}>"


def with_reasoning_aliases(message: dict) -> dict:
    """The message with its reasoning also under ``reasoning_content`` (and ``thinking`` unless already there).

    >>> with_reasoning_aliases({"role": "assistant", "reasoning": "r"})
    {'thinking': 'r', 'role': 'assistant', 'reasoning': 'r', 'reasoning_content': 'r'}
    """
    reasoning = next((message[key] for key in REASONING_KEYS if message.get(key) is not None), None)
    if reasoning is None:
        return message
    # Key order matters to templates that loop over a message's items; this is transformers' order.
    return {"thinking": reasoning, **message, "reasoning_content": reasoning}


def clean_messages(messages: Any) -> list[dict]:
    """The conversation as the template sees it; raises for an empty conversation or a message that is no dict."""
    if isinstance(messages, (str, bytes, Mapping)) or not hasattr(messages, "__iter__"):
        raise ChatInputError(
            f"messages must be a list of dicts like {{'role': 'user', 'content': 'Hi'}}, got {type(messages).__name__}"
        )
    messages = list(messages)
    if not messages:
        raise ChatInputError("Cannot apply a chat template to an empty conversation; pass at least one message")
    cleaned = []
    for index, message in enumerate(messages):
        if isinstance(message, (list, tuple)):
            raise ChatInputError(
                f"messages[{index}] is a list: render one conversation at a time (call once per conversation)"
            )
        if dataclasses.is_dataclass(message) and not isinstance(message, type):
            message = {f.name: getattr(message, f.name) for f in dataclasses.fields(message)}
        elif callable(getattr(message, "model_dump", None)):
            message = message.model_dump()
        if not isinstance(message, Mapping):
            raise ChatInputTypeError(
                f"messages[{index}] must be a dict with 'role' and 'content', got {type(message).__name__}"
            )
        kept = {key: value for key, value in message.items() if value is not None}
        cleaned.append(with_reasoning_aliases(plain_data(kept)))
    return cleaned


def clean_tools(tools: Any) -> list | None:
    """Tools as JSON-schema dicts (``None`` stays ``None``: it decides which named template is used)."""
    if tools is None:
        return None
    if isinstance(tools, (str, bytes, Mapping)) or not hasattr(tools, "__iter__"):
        raise ChatInputError(f"tools must be a list of JSON-schema dicts, got {type(tools).__name__}")
    tools = list(tools)
    for index, tool in enumerate(tools):
        if not isinstance(tool, Mapping):
            raise ChatInputError(
                f"tools[{index}] must be a JSON-schema dict (e.g. {{'type': 'function', 'function': {{...}}}}), "
                f"got {type(tool).__name__}; tokcore does not turn Python functions into schemas"
            )
    return plain_data(tools)


def clean_documents(documents: Any) -> list | None:
    """Documents as dicts (usually with 'title' and 'text'); a non-dict document is a ``TypeError``, as in transformers."""
    if documents is None:
        return None
    if isinstance(documents, (str, bytes, Mapping)) or not hasattr(documents, "__iter__"):
        raise ChatInputTypeError(
            f"documents must be a list of dicts with 'title' and 'text' keys, got {type(documents).__name__}"
        )
    documents = list(documents)
    for index, document in enumerate(documents):
        if not isinstance(document, Mapping):
            raise ChatInputTypeError(
                f"documents[{index}] must be a dict with 'title' and 'text' keys, got {type(document).__name__}"
            )
    return plain_data(documents)
