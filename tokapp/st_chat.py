"""The Chat page's streamlit side: its state, the message editor, the tools box, the model choice, the user's own
template, and the cached renders and encodings.

Widget keys start with ``chat_``; ``init_state`` creates the page's state in one place. Messages have stable ids,
so removing one never shifts another's widgets: message ``n`` has ``chat_role_<n>`` and ``chat_content_<n>``, and,
by its role, ``chat_calls_<n>`` (an assistant's tool calls as JSON) or ``chat_tool_name_<n>`` and
``chat_call_id_<n>`` (a tool result's ``name`` and ``tool_call_id``); ``tokapp.chat_tool_calls`` turns them into
transformers messages.
Renders are cached with ``st.cache_data`` keyed by plain strings (the config, messages and tools as JSON);
encodings by the tokenizer's cache key and the render's digest. Every engine error is shown with ``st.error``.

Left out: drawing (``tokapp.chat_view``), where configs come from (``tokapp.chat_sources``), page layout.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import streamlit as st

import tokcore

from . import chat_sources, chat_tool_calls, st_common
from .samples import SampleSpec
from .tokens import TokenView

P = "chat"
IDS, NEXT_ID, MODELS = f"{P}_message_ids", f"{P}_next_id", f"{P}_toks"
TOOLS, AGP = f"{P}_tools", f"{P}_agp"
CFG_UPLOAD, CFG_PASTE, CFG_FOR = f"{P}_cfg_upload", f"{P}_cfg_paste", f"{P}_cfg_for"
MAX_MESSAGES = 24
MAX_CONTENT_CHARS = 8_000


def role_key(n: int) -> str:
    return f"{P}_role_{n}"


def content_key(n: int) -> str:
    return f"{P}_content_{n}"


def calls_key(n: int) -> str:
    return f"{P}_calls_{n}"


def tool_name_key(n: int) -> str:
    return f"{P}_tool_name_{n}"


def call_id_key(n: int) -> str:
    return f"{P}_call_id_{n}"


def _row_keys(n: int) -> tuple[str, ...]:
    return role_key(n), content_key(n), calls_key(n), tool_name_key(n), call_id_key(n)


def _set_conversation(rows: list[dict]) -> None:
    """Replace the editor's messages with ``rows`` (dicts of role, content and the optional tool fields)."""
    for n in st.session_state.get(IDS, []):
        for key in _row_keys(n):
            st.session_state.pop(key, None)
    start = st.session_state.get(NEXT_ID, 0)
    for n, row in enumerate(rows, start):
        fields = (row["role"], row["content"], row.get("calls_text", ""), row.get("name", ""), row.get("call_id", ""))
        for key, value in zip(_row_keys(n), fields):
            st.session_state[key] = value
    st.session_state[IDS] = list(range(start, start + len(rows)))
    st.session_state[NEXT_ID] = start + len(rows)


def init_state() -> None:
    """The page's state, created once: the default conversation, two chat samples side by side, the options."""
    st_common.init_state()
    if IDS not in st.session_state:
        _set_conversation([{"role": role, "content": content} for role, content in chat_sources.DEFAULT_CONVERSATION])
    st.session_state.setdefault(MODELS, list(chat_sources.DEFAULT_KEYS))
    st.session_state.setdefault(TOOLS, "")
    st.session_state.setdefault(AGP, True)
    st.session_state.setdefault(CFG_PASTE, "")


# ---------------------------------------------------------------- messages
def _add_message() -> None:
    ids = st.session_state[IDS]
    roles = [st.session_state.get(role_key(n), "user") for n in ids]
    n = st.session_state[NEXT_ID]
    st.session_state[NEXT_ID] = n + 1
    st.session_state[role_key(n)] = chat_sources.next_role(roles)
    st.session_state[content_key(n)] = ""
    st.session_state[IDS] = ids + [n]


def _load_tool_example() -> None:
    """The built-in tool-use conversation (a call, its result, the answer) and its tool's schema."""
    _set_conversation(list(chat_tool_calls.EXAMPLE_CONVERSATION))
    st.session_state[TOOLS] = json.dumps(chat_tool_calls.EXAMPLE_TOOLS, indent=2, ensure_ascii=False)


def _remove_message(n: int) -> None:
    st.session_state[IDS] = [i for i in st.session_state[IDS] if i != n]
    for key in _row_keys(n):
        st.session_state.pop(key, None)


def _tool_fields(n: int, position: int, role: str) -> dict:
    """The row's tool fields: an assistant's tool calls (JSON), or a tool result's name and call id."""
    if role == "assistant":
        return {"calls_text": st.text_area(
            f"Tool calls of message {position} (JSON, optional)", key=calls_key(n), height=68, max_chars=20_000,
            placeholder=chat_tool_calls.CALLS_PLACEHOLDER,
            help="A list of calls in transformers' format, `{\"type\": \"function\", \"function\": {\"name\": ..., "
                 "\"arguments\": {...}}}` (an `id` is kept), or the short `{\"name\": ..., \"arguments\": {...}}`. "
                 "Arguments are a JSON object.")}
    if role == "tool":
        name_col, id_col = st.columns(2)
        return {"name": name_col.text_input(f"Tool name of message {position} (optional)", key=tool_name_key(n),
                                            placeholder="get_weather", help="The message's `name`: the tool that ran."),
                "call_id": id_col.text_input(f"Tool call id of message {position} (optional)", key=call_id_key(n),
                                             placeholder="call_1",
                                             help="The message's `tool_call_id`: the `id` of the call it answers.")}
    return {}


def message_editor() -> list[dict]:
    """One row per message (role, content, remove, and the tool fields its role has), then "Add message" and the
    tool example; returns the messages as transformers dicts. Bad tool-call JSON is an ``st.error`` and that
    message is rendered without its tool calls until it is fixed."""
    messages = []
    for position, n in enumerate(st.session_state[IDS]):
        role_col, content_col, remove_col = st.columns([1.2, 6, 0.5], vertical_alignment="center")
        role = role_col.selectbox(f"Role {position + 1}", chat_sources.ROLES, key=role_key(n))
        content = content_col.text_area(f"Message {position + 1}", key=content_key(n), height=68,
                                        max_chars=MAX_CONTENT_CHARS, label_visibility="collapsed",
                                        placeholder=f"What the {role} says")
        remove_col.button("", key=f"{P}_remove_{n}", icon=":material/delete:", help=f"Remove message {position + 1}",
                          on_click=_remove_message, args=(n,))
        fields = _tool_fields(n, position + 1, role)
        try:
            message = chat_tool_calls.build_message(role, content, position=position + 1, **fields)
        except ValueError as exc:
            st.error(f"{exc}\n\nMessage {position + 1} is rendered without its tool calls until this is fixed.",
                     icon=":material/error:")
            message = chat_tool_calls.build_message(role, content, position=position + 1)
        messages.append(message)
    add_col, example_col = st.columns(2)
    add_col.button("Add message", key=f"{P}_add", icon=":material/add:", on_click=_add_message,
                   disabled=len(messages) >= MAX_MESSAGES)
    example_col.button("Load the tool-call example", key=f"{P}_tool_example", icon=":material/build:",
                       on_click=_load_tool_example,
                       help="Replaces the conversation with a tool call, its result and the answer, and fills "
                            "the tools box.")
    return messages


def tools_box() -> list[dict] | None:
    """The tools JSON text area; invalid JSON is an ``st.error`` and the prompt is rendered without tools."""
    with st.expander("Tools (JSON)", expanded=bool(st.session_state.get(TOOLS, "").strip()),
                     icon=":material/build:"):
        text = st.text_area("Tools as a JSON list", key=TOOLS, height=120, max_chars=20_000,
                            placeholder='[{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]',
                            help="Passed to the template as `tools` (templates with a tool_use variant switch to it).")
    try:
        return chat_sources.parse_tools(text)
    except ValueError as exc:
        st.error(f"{exc} The prompt below is rendered without tools until this is fixed.", icon=":material/error:")
        return None


# ---------------------------------------------------------------- models
def model_choice(specs: list[SampleSpec]) -> list[SampleSpec]:
    """A multiselect of one to four models (chat samples first); keys not on offer any more are dropped."""
    by_key = {s.key: s for s in specs}
    keys = chat_sources.ordered_keys(list(by_key))
    chosen = [k for k in st.session_state.get(MODELS, []) if k in by_key][:4]
    if not chosen:
        chosen = [k for k in chat_sources.DEFAULT_KEYS if k in by_key] or keys[:1]
    st.session_state[MODELS] = chosen
    picked = st.multiselect("Models (one to four, side by side)", keys, key=MODELS, max_selections=4,
                            format_func=lambda k: chat_sources.label_for(k, by_key[k].label if k in by_key else k),
                            help="Chat samples bring their own template; a Hub model brings the tokenizer_config.json "
                                 "of its cache snapshot; for any other tokenizer, add a template in the sidebar.")
    return [by_key[k] for k in picked]


@st.cache_data(show_spinner=False, max_entries=64)
def _own_config(cache_key: str, key: str) -> dict | None:
    return chat_sources.own_config(key)


@dataclass(frozen=True)
class ModelConfig:
    """A chosen model's chat config (a plain dict), or why it has none (``problem``), and where it came from."""

    spec: SampleSpec
    config: dict | None
    origin: str
    problem: str | None = None

    @property
    def label(self) -> str:
        return chat_sources.label_for(self.spec.key, self.spec.label)


def own_configs(chosen: list[SampleSpec]) -> list[ModelConfig]:
    out = []
    for spec in chosen:
        try:
            config = _own_config(spec.cache_key, spec.key)
        except (ValueError, TypeError, OSError) as exc:
            out.append(ModelConfig(spec, None, "", st_common.error_message(exc)))
            continue
        origin = "its own template" if config is not None else ""
        problem = None if config is not None else "this tokenizer comes with no chat template"
        out.append(ModelConfig(spec, config, origin, problem))
    return out


def user_template(configs: list[ModelConfig], *, where=None) -> list[ModelConfig]:
    """"Your own chat template": upload a tokenizer_config.json (or .jinja) or paste a template, for chosen models."""
    where = where or st
    box = where.expander("Your own chat template", icon=":material/description:",
                         expanded=any(c.config is None for c in configs))
    upload = box.file_uploader("tokenizer_config.json or a .jinja template", type=["json", "jinja"], key=CFG_UPLOAD,
                               help="The file's chat_template and special tokens (bos_token, eos_token, ...).")
    pasted = box.text_area("…or paste a Jinja chat template", key=CFG_PASTE, height=120, max_chars=100_000,
                           help="Replaces the uploaded file's template; the file's special tokens stay.")
    by_key = {c.spec.key: c for c in configs}
    kept = [k for k in st.session_state.get(CFG_FOR, []) if k in by_key]
    st.session_state[CFG_FOR] = kept or [c.spec.key for c in configs if c.config is None]
    targets = box.multiselect("Use it for", list(by_key), key=CFG_FOR,
                              format_func=lambda k: chat_sources.label_for(k, by_key[k].spec.label))
    if upload is None and not pasted.strip():
        return configs
    try:
        config = chat_sources.user_config(upload.name if upload else None, upload.getvalue() if upload else None,
                                          pasted)
    except (ValueError, TypeError) as exc:
        st_common.show_error(exc, where=box)
        return configs
    origin = "your template" + (f" ({upload.name})" if upload else "")
    return [ModelConfig(c.spec, config, origin) if c.spec.key in targets else c for c in configs]


# ---------------------------------------------------------------- render and encode
def _dump(value: Any) -> str:
    # Keys keep their order: templates write arguments and tool schemas with |tojson in the order given.
    return json.dumps(value, ensure_ascii=False)


@st.cache_data(show_spinner=False, max_entries=128)
def _render(config_json: str, messages_json: str, tools_json: str, add_generation_prompt: bool):
    return tokcore.render_chat_spans(json.loads(config_json), json.loads(messages_json),
                                     tools=json.loads(tools_json), add_generation_prompt=add_generation_prompt)


@st.cache_data(show_spinner=False, max_entries=128)
def _encode(cache_key: str, render_digest: str, _spec: SampleSpec, _render) -> tuple:
    encoding = tokcore.chat_encode(st_common.load_tokenizer(_spec), _render)
    return encoding.token_messages, encoding.message_token_counts, encoding.template_token_count, encoding.warnings


@dataclass(frozen=True)
class ChatResult:
    """One model's view of the conversation, or the error that stopped it."""

    model: ModelConfig
    render: Any = None  # tokcore.ChatRender
    view: TokenView | None = None
    owners: tuple = ()
    counts: tuple | None = None
    template_count: int | None = None
    warnings: tuple = ()
    error: str | None = None


def _dropped_calls(config_json: str, messages: list[dict], tools_json: str, agp: bool, text: str) -> str | None:
    """The warning for a template that ignores tool calls: the prompt does not change when they are left out."""
    if not chat_tool_calls.call_names(messages):
        return None
    try:
        without = _render(config_json, _dump(chat_tool_calls.without_calls(messages)), tools_json, agp).text
    except (ValueError, TypeError, KeyError, LookupError, RecursionError):
        return None  # the template needs the calls to render at all: it does not ignore them
    return chat_tool_calls.dropped_calls_warning(text, without, messages)


def run_model(model: ModelConfig, messages: list[dict], tools: list[dict] | None, agp: bool) -> ChatResult:
    """Render and encode the conversation for one model; every engine error becomes ``ChatResult.error``."""
    if model.config is None:
        return ChatResult(model, error=model.problem)
    try:
        config_json, messages_json, tools_json = _dump(model.config), _dump(messages), _dump(tools)
        render = _render(config_json, messages_json, tools_json, agp)
        digest = hashlib.sha256("\0".join((config_json, messages_json, tools_json, str(agp))).encode()).hexdigest()
        owners, counts, template_count, warnings = _encode(model.spec.cache_key, digest, model.spec, render)
        view = st_common.token_view(model.spec, render.text, add_special_tokens=False)
    except (ValueError, TypeError, KeyError, LookupError, RecursionError) as exc:
        message = chat_sources.named_error(st_common.error_message(exc), model.origin or "the template")
        return ChatResult(model, error=message + chat_tool_calls.refused_hint(messages))
    dropped = _dropped_calls(config_json, messages, tools_json, agp, render.text)
    warnings = (*warnings, dropped) if dropped else tuple(warnings)
    return ChatResult(model, render, view, tuple(owners), tuple(counts), template_count, warnings)
