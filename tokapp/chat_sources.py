"""Where the Chat page's inputs come from: the built-in chat samples, a model's own chat template, the user's
template, the tools JSON and the default conversation. Pure: no streamlit.

A chat model on the page is a tokenizer (a picker key, as in ``tokapp.samples``) and a chat config (a plain dict
shaped like a ``tokenizer_config.json``: ``chat_template`` and the special tokens). The config comes with the model:
- ``file:chat_*.json``: our samples, paired with a folder of ``sample_vocabs/chat/`` (``CHAT_SAMPLES``);
- ``model:hf:NAME``: the ``tokenizer_config.json`` / ``chat_template.jinja`` in the same Hub cache snapshot;
- anything else (uploads, trained tokenizers, tiktoken): none; the user uploads a config or pastes a template.

``parse_tools("") is None``

Left out: widgets and caching (``tokapp.st_chat``), drawing (``tokapp.chat_view``), rendering
(``tokcore.chat``), and downloading from the Hub (``tokapp.models.fetch`` did that when the model was loaded).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tokcore.chat import ChatConfig, ChatTemplateError, load_chat_config

from .samples import SAMPLE_DIR

CHAT_DIR = SAMPLE_DIR / "chat"
ROLES = ("system", "user", "assistant", "tool")
MAX_CONFIG_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class ChatSample:
    """One of our chat samples: a template folder in ``sample_vocabs/chat/`` and the sample tokenizer it pairs with."""

    folder_name: str
    label: str
    tokenizer_file: str  # in sample_vocabs/

    @property
    def tokenizer_key(self) -> str:
        """The picker key of its tokenizer. ``CHAT_SAMPLES[0].tokenizer_key == "file:chat_chatml_bytelevel_bpe.json"``"""
        return f"file:{self.tokenizer_file}"

    @property
    def folder(self) -> Path:
        return CHAT_DIR / self.folder_name


CHAT_SAMPLES: tuple[ChatSample, ...] = (
    ChatSample("chatml", "ChatML (<|im_start|>, tools)", "chat_chatml_bytelevel_bpe.json"),
    ChatSample("llama_inst", "Llama-2 style [INST] (bos_token, alternation check)", "chat_llama_bpe.json"),
    ChatSample("zephyr", "Zephyr style <|user|> (eos_token after each turn)", "chat_zephyr_unigram.json"),
)
DEFAULT_KEYS: tuple[str, ...] = tuple(s.tokenizer_key for s in CHAT_SAMPLES[:2])

DEFAULT_CONVERSATION: tuple[tuple[str, str], ...] = (
    ("system", "You are a concise assistant."),
    ("user", "What is a token?"),
    ("assistant", "A piece of text the model reads as one unit."),
    ("user", "How many tokens are in 'naïve café'?"),
)


def sample_for(key: str) -> ChatSample | None:
    """The chat sample whose tokenizer has picker key ``key`` (``None``: not a chat sample).

    ``sample_for("file:chat_llama_bpe.json").folder_name == "llama_inst"``
    """
    return next((s for s in CHAT_SAMPLES if s.tokenizer_key == key), None)


def ordered_keys(keys: list[str]) -> list[str]:
    """Picker keys with the chat samples first, the rest in their order.

    ``ordered_keys(["a", "file:chat_llama_bpe.json"]) == ["file:chat_llama_bpe.json", "a"]``
    """
    first = [s.tokenizer_key for s in CHAT_SAMPLES if s.tokenizer_key in keys]
    return first + [k for k in keys if k not in first]


def label_for(key: str, label: str) -> str:
    """A picker label that names the chat template a sample comes with.

    ``label_for("file:chat_llama_bpe.json", "x").startswith("Chat sample: Llama-2")``
    """
    sample = sample_for(key)
    return f"Chat sample: {sample.label}" if sample else label


def config_dict(config: ChatConfig) -> dict[str, Any]:
    """A ``ChatConfig`` as a plain, JSON-ready ``tokenizer_config.json``-like dict (``load_chat_config`` reads it back).

    ``config_dict(ChatConfig({None: "t"}, {"bos_token": "<s>"})) == {"chat_template": "t", "bos_token": "<s>"}``
    """
    templates = dict(config.templates)
    if None in templates:
        value: Any = templates[None]
    else:
        value = [{"name": name, "template": templates[name]} for name in sorted(templates)]
    return {"chat_template": value, **dict(config.variables)}


def config_folder(key: str) -> Path | None:
    """The folder holding the chat config of picker entry ``key``: a sample's folder, or a cached Hub snapshot.

    ``None`` when the entry brings no config of its own (uploads, trained tokenizers, tiktoken encodings).
    A Hub model that is not in the local cache raises the loader's ``TokenizerFileError`` (a ``ValueError``).

    ``config_folder("file:chat_zephyr_unigram.json").name == "zephyr"``
    """
    sample = sample_for(key)
    if sample is not None:
        return sample.folder
    if key.startswith("model:hf:"):
        from tokcore.loaders.hub import hub_folder

        return hub_folder(key.removeprefix("model:hf:"), download=False)
    return None


def own_config(key: str) -> dict[str, Any] | None:
    """The chat config that comes with picker entry ``key`` (see ``config_folder``), as a plain dict.

    Raises ``ChatTemplateError`` when the model's config has no chat template (a base model such as GPT-2).

    ``own_config("file:chat_zephyr_unigram.json")["eos_token"] == "</s>"``
    """
    folder = config_folder(key)
    return None if folder is None else config_dict(load_chat_config(folder))


def user_config(name: str | None, data: bytes | None, pasted: str = "") -> dict[str, Any] | None:
    """The config a user brought: an uploaded ``tokenizer_config.json`` (or ``.jinja`` template), a pasted template,
    or both (the pasted template then replaces the file's, and the file's special tokens stay). ``None``: neither.

    ``user_config(None, None, "{{ messages[0].content }}") == {"chat_template": "{{ messages[0].content }}"}``
    """
    config: dict[str, Any] = {}
    if data is not None:
        shown = Path(name or "upload").name
        if len(data) > MAX_CONFIG_BYTES:
            raise ChatTemplateError(f"{shown}: {len(data) / 1e6:.1f} MB is too large for a tokenizer config (2 MiB at most)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ChatTemplateError(f"{shown}: not UTF-8 text; upload the model's tokenizer_config.json") from None
        if shown.endswith(".jinja"):
            config = {"chat_template": text}
        else:
            try:
                parsed = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ChatTemplateError(f"{shown}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
                                        "upload the model's tokenizer_config.json") from None
            except RecursionError:  # json's own limit on nesting: still the file's fault, not a bug
                raise ChatTemplateError(f"{shown}: the JSON is nested too deeply to read; upload the model's "
                                        "tokenizer_config.json") from None
            if not isinstance(parsed, dict):
                raise ChatTemplateError(f"{shown}: a tokenizer config is a JSON object, got {type(parsed).__name__}")
            config = parsed
    if pasted.strip():
        config = {**config, "chat_template": pasted}
    if not config:
        return None
    try:
        return config_dict(load_chat_config(config))  # checks it now: templates and special tokens
    except ChatTemplateError as exc:
        raise ChatTemplateError(named_error(str(exc), Path(name).name if data is not None and name else
                                            "your template")) from None


def named_error(message: str, name: str) -> str:
    """An engine message about a config given as a dict (``<dict>: ...``) with the name the user knows it by.

    ``named_error("<dict>: no chat_template", "x.json") == "x.json: no chat_template"``
    """
    return message.replace("<dict>", name)


def parse_tools(text: str) -> list[dict] | None:
    """The tools JSON of the page: empty means no tools; else a JSON list of objects (one object is taken as a list).

    Raises ``ValueError`` saying where the JSON is broken or what shape was expected.

    ``parse_tools('{"name": "f"}') == [{"name": "f"}]``
    """
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"Tools: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}). "
                         'Write a list of tool objects, e.g. [{"type": "function", "function": {"name": "get_weather"}}]'
                         ) from None
    except RecursionError:  # json's own limit on nesting: still the text's fault, not a bug
        raise ValueError("Tools: the JSON is nested too deeply to read; write a list of tool objects") from None
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(tool, dict) for tool in value):
        raise ValueError(f"Tools: expected a JSON list of objects, got {type(value).__name__}"
                         + (" with items that are not objects" if isinstance(value, list) else ""))
    return value


def next_role(roles: list[str]) -> str:
    """The role a new message most likely has: the other side of the last turn.

    ``next_role(["system", "user"]) == "assistant"``
    """
    return "assistant" if roles and roles[-1] == "user" else "user"
