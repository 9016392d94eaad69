"""Rendering a conversation with a model's chat template: the string transformers' ``apply_chat_template(...,
tokenize=False)`` returns, and the same with each message's content located in it.

Left out: reading configs (``config``), input clean-up (``inputs``), the sandbox and its limits (``sandbox``,
``guards``), how spans are found (``spans``) and tokenization (``encode``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import jinja2

from ..core.errors import WrongTypeError
from ..core.offsets import Span
from .config import ChatConfig, choose_template, load_chat_config
from .errors import ChatInputError, ChatTemplateError, ChatTemplateLimitError
from .guards import ACTIVE_BUDGET, Budget, RenderTimeout
from .inputs import clean_documents, clean_messages, clean_tools
from .sandbox import CLOCK, TemplateRaised, compile_template
from .spans import char_spans_to_byte_spans, complement, find_content_spans

DEFAULT_TIMEOUT_S = 2.0
DEFAULT_MAX_OUTPUT_CHARS = 1_000_000


@dataclass(frozen=True)
class ChatRender:
    """A rendered prompt and where each message's content sits in it.

    Spans follow the offsets contract: UTF-8 bytes, 1-based, half-open ``[start, stop)``.
    ``message_spans[i]`` holds the spans of message ``i``'s content (several when the template prints it more than
    once; none when the content is empty, is not a string, or cannot be located exactly). When a template
    transforms content (``.strip()``, ``|trim``, cutting a ``<think>`` block), the span covers the transformed
    text if it is found exactly, and is absent otherwise: never a wrong span. ``template_spans`` cover everything
    else: role tags, separators, BOS/EOS, generation prompt.
    """

    text: str
    template_name: str
    roles: tuple[str | None, ...]
    message_spans: tuple[tuple[Span, ...], ...]
    template_spans: tuple[Span, ...]
    special_tokens: Mapping[str, str]


def _check_limits(timeout_s: Any, max_output_chars: Any) -> None:
    if isinstance(timeout_s, bool) or not isinstance(timeout_s, (int, float)):
        raise WrongTypeError(f"timeout_s must be a number of seconds, got {type(timeout_s).__name__}")
    if not timeout_s > 0:
        raise ChatInputError(f"timeout_s must be positive, got {timeout_s}; the default is {DEFAULT_TIMEOUT_S}")
    if isinstance(max_output_chars, bool) or not isinstance(max_output_chars, int):
        raise WrongTypeError(f"max_output_chars must be an int, got {type(max_output_chars).__name__}")
    if max_output_chars < 1:
        raise ChatInputError(f"max_output_chars must be at least 1, got {max_output_chars}")


def _failure(exc: BaseException, timeout_s: float) -> ChatTemplateError:
    """The ChatTemplateError a failed render becomes, with a message that says what to change."""
    if isinstance(exc, RenderTimeout):
        return ChatTemplateLimitError(
            f"the chat template did not finish within {timeout_s:g} s (timeout_s); it loops too long or forever. "
            "Fix the template, or pass a larger timeout_s if it is genuinely slow"
        )
    if isinstance(exc, TemplateRaised):
        return ChatTemplateError(f"the chat template raised an error: {exc.message}")
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return ChatTemplateError(f"the chat template has a syntax error at line {exc.lineno}: {exc.message}")
    if isinstance(exc, jinja2.exceptions.SecurityError):
        return ChatTemplateError(
            f"the chat template tried to reach outside the sandbox ({exc}); templates may only use the messages, "
            "tools, documents and special tokens they are given"
        )
    if isinstance(exc, jinja2.UndefinedError):
        return ChatTemplateError(
            f"the chat template used a missing value: {exc.message} (a message may lack a key this template "
            "expects, such as 'content', or use a form it does not support)"
        )
    if isinstance(exc, RecursionError):
        return ChatTemplateLimitError("the chat template recursed too deeply (a macro or recursive loop with no end)")
    if isinstance(exc, MemoryError):
        return ChatTemplateLimitError("the chat template ran out of memory; it builds values far too large")
    return ChatTemplateError(f"the chat template failed: {type(exc).__name__}: {exc}")


def render_template(
    source: str, variables: Mapping[str, Any], *, timeout_s: float, max_output_chars: int, now: datetime | None = None
) -> str:
    """Compile (cached) and render one template source within the limits; every failure is a ChatTemplateError."""
    budget = Budget.start(timeout_s=timeout_s, max_chars=max_output_chars)
    budget_token = ACTIVE_BUDGET.set(budget)
    clock_token = CLOCK.set(lambda: now) if now is not None else None
    try:
        template = compile_template(source)
        pieces, size = [], 0
        for piece in template.generate(**variables):
            size += len(piece)
            budget.check_size(size, "an output")
            pieces.append(piece)
        return "".join(pieces)
    except ChatTemplateError:
        raise
    except (Exception, RenderTimeout) as exc:  # noqa: BLE001 (templates fail in arbitrary ways; all are mapped)
        raise _failure(exc, timeout_s) from None
    finally:
        ACTIVE_BUDGET.reset(budget_token)
        if clock_token is not None:
            CLOCK.reset(clock_token)


@dataclass(frozen=True)
class _Prepared:
    config: ChatConfig
    template_name: str
    source: str
    variables: dict[str, Any]


def _prepare(config_or_path, messages, **options) -> _Prepared:
    """Limits checked, template chosen, inputs cleaned: everything but the render itself."""
    _check_limits(options["timeout_s"], options["max_output_chars"])
    tools, template_name = options["tools"], options["template_name"]
    config = config_or_path if isinstance(config_or_path, ChatConfig) else load_chat_config(config_or_path)
    name, source = choose_template(config, tools=tools, template_name=template_name)
    if not isinstance(source, str) or len(source) > DEFAULT_MAX_OUTPUT_CHARS:
        raise ChatTemplateError(f"{config.source}: the chat template {name!r} is not a string of at most 1,000,000 characters")
    cleaned = clean_messages(messages)
    variables = {
        **config.variables,
        "messages": cleaned,
        "tools": clean_tools(tools),
        "documents": clean_documents(options["documents"]),
        "add_generation_prompt": options["add_generation_prompt"],
    }
    return _Prepared(config, name, source, variables)


def _options(call_locals: dict) -> dict:
    return {name: call_locals[name] for name in _OPTION_NAMES}


_OPTION_NAMES = ("add_generation_prompt", "tools", "documents", "template_name", "timeout_s", "max_output_chars")


def render_chat(
    config_or_path: Mapping[str, Any] | str | Any,
    messages: list[dict],
    *,
    add_generation_prompt: bool = False,
    tools: list[dict] | None = None,
    documents: list[dict] | None = None,
    template_name: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS,
    now: datetime | None = None,
) -> str:
    """The prompt a model's chat template makes of ``messages``, byte-for-byte as transformers renders it.

    ``config_or_path``: a parsed ``tokenizer_config.json``, its path, or the model's directory. ``template_name``
    picks one of several named templates (else ``tool_use`` when ``tools`` is given, else ``default``).
    ``timeout_s`` and ``max_output_chars`` bound a hostile template; ``now`` pins the date ``strftime_now`` sees.
    Raises ``ChatTemplateError`` (a ``ValueError``) for every failure, naming the template's own message when it
    calls ``raise_exception``; ``ChatInputTypeError`` (also a ``TypeError``) for documents that are not dicts.
    """
    prepared = _prepare(config_or_path, messages, **_options(locals()))
    return render_template(
        prepared.source, prepared.variables, timeout_s=timeout_s, max_output_chars=max_output_chars, now=now
    )


def render_chat_spans(
    config_or_path: Mapping[str, Any] | str | Any,
    messages: list[dict],
    *,
    add_generation_prompt: bool = False,
    tools: list[dict] | None = None,
    documents: list[dict] | None = None,
    template_name: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS,
    now: datetime | None = None,
) -> ChatRender:
    """Like ``render_chat``, and also where each message's content is in the text (see ``ChatRender``).

    The spans come from extra renders with sentinels in place of the contents (``tokcore.chat.spans``); those
    share one more ``timeout_s`` between them, and a message whose sentinel render fails or runs out of time
    simply gets no span.
    """
    prepared = _prepare(config_or_path, messages, **_options(locals()))
    now = now or datetime.now()  # the sentinel renders must see the same date as the real one
    text = render_template(
        prepared.source, prepared.variables, timeout_s=timeout_s, max_output_chars=max_output_chars, now=now
    )
    cleaned = prepared.variables["messages"]
    contents = {i: m["content"] for i, m in enumerate(cleaned) if isinstance(m.get("content"), str) and m["content"]}
    spans_deadline = time.monotonic() + timeout_s

    def render_with(replacements: dict[int, str]) -> str | None:
        remaining = spans_deadline - time.monotonic()
        if remaining <= 0:
            return None
        swapped = [dict(m, content=replacements[i]) if i in replacements else m for i, m in enumerate(cleaned)]
        try:
            return render_template(
                prepared.source, {**prepared.variables, "messages": swapped}, timeout_s=remaining,
                max_output_chars=max_output_chars, now=now,
            )
        except ChatTemplateError:
            return None

    used_text = "".join((prepared.source, repr(prepared.variables)))
    char_spans = find_content_spans(text, contents, render_with, used_text)
    per_message, every_span = [], []
    for index in range(len(cleaned)):
        spans = [s for s in char_spans.get(index, []) if s[1] > s[0]]
        byte_spans = tuple(char_spans_to_byte_spans(text, spans))
        per_message.append(byte_spans)
        every_span.extend(byte_spans)
    total_bytes = len(text.encode("utf-8"))
    return ChatRender(
        text=text,
        template_name=prepared.template_name,
        roles=tuple(m.get("role") if isinstance(m.get("role"), str) else None for m in cleaned),
        message_spans=tuple(per_message),
        template_spans=tuple(complement(every_span, total_bytes + 1)),
        special_tokens=dict(prepared.config.variables),
    )
