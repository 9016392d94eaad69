"""A model's chat settings read from its ``tokenizer_config.json``: the template(s) and the special-token variables.

``load_chat_config`` accepts a parsed dict, a path to the JSON file, or a model directory (where, as in
transformers, ``chat_template.jinja`` and ``additional_chat_templates/*.jinja`` take priority over the config's
``chat_template`` key). ``choose_template`` picks the template transformers would pick.

Left out: rendering (``tokcore.chat.render``), the Hub (no network: pass files you downloaded), and
``processor_config``/``chat_template.json`` files of multimodal processors.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from .errors import ChatTemplateError

# The named special tokens every tokenizer has (transformers' SPECIAL_TOKENS_ATTRIBUTES).
STANDARD_TOKEN_NAMES = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
CONFIG_FILE = "tokenizer_config.json"
TEMPLATE_FILE = "chat_template.jinja"
TEMPLATE_DIR = "additional_chat_templates"


@dataclass(frozen=True)
class ChatConfig:
    """Templates by name (``None`` names the single unnamed template) and the token variables a template sees."""

    templates: Mapping[str | None, str]
    variables: Mapping[str, str] = field(default_factory=dict)
    source: str = "<dict>"

    @property
    def template_names(self) -> tuple[str, ...]:
        return tuple(sorted(name for name in self.templates if name is not None))


def token_text(value: Any) -> str | None:
    """The text of a special token given as a string or an AddedToken-like dict; ``None`` when it is neither.

    >>> token_text({"__type": "AddedToken", "content": "<s>"}), token_text("</s>"), token_text(None)
    ('<s>', '</s>', None)
    """
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("content"), str):
        return value["content"]
    return None


def token_variables(config: Mapping[str, Any], *, source: str = "<dict>") -> dict[str, str]:
    """Every named special token of a config as a template variable (absent or null tokens stay undefined).

    >>> token_variables({"bos_token": "<s>", "image_token": "<img>", "add_bos_token": True, "pad_token": None})
    {'bos_token': '<s>', 'image_token': '<img>'}
    """
    variables: dict[str, str] = {}
    for name in STANDARD_TOKEN_NAMES:
        value = config.get(name)
        if value is None:
            continue
        text = token_text(value)
        if text is None:
            raise ChatTemplateError(
                f"{source}: {name} must be a string or an AddedToken dict with a 'content' string, got "
                f"{type(value).__name__}; fix that key in the tokenizer config"
            )
        variables[name] = text
    # transformers renames the legacy key before reading it; only the dict form names its tokens.
    extra = config["extra_special_tokens"] if "extra_special_tokens" in config else config.get("additional_special_tokens")
    if isinstance(extra, Mapping):
        for name, value in extra.items():
            text = token_text(value)
            if text is None:
                raise ChatTemplateError(
                    f"{source}: extra_special_tokens[{name!r}] must be a string or an AddedToken dict, got "
                    f"{type(value).__name__}"
                )
            variables[str(name)] = text
    # Other "*_token" keys holding a token (a multimodal model's image_token...) are applied last, as transformers does.
    for name, value in config.items():
        if isinstance(name, str) and name.endswith("_token") and name not in STANDARD_TOKEN_NAMES:
            text = token_text(value)
            if text is not None:
                variables[name] = text
    return variables


def _templates_from_value(value: Any, *, source: str) -> dict[str | None, str]:
    if isinstance(value, str):
        return {None: value}
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, (list, tuple)):
        pairs = []
        for index, item in enumerate(value):
            if not (isinstance(item, Mapping) and isinstance(item.get("name"), str) and "template" in item):
                raise ChatTemplateError(
                    f"{source}: chat_template[{index}] must be a dict with 'name' and 'template' keys, "
                    f"got {item!r:.80}"
                )
            pairs.append((item["name"], item["template"]))
    else:
        raise ChatTemplateError(
            f"{source}: chat_template must be a string or a list of {{'name', 'template'}} dicts, "
            f"got {type(value).__name__}"
        )
    templates: dict[str | None, str] = {}
    for name, template in pairs:
        if not isinstance(template, str):
            raise ChatTemplateError(f"{source}: the chat template named {name!r} must be a string")
        templates[str(name)] = template
    return templates


def _read_json_config(path: Path) -> dict:
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ChatTemplateError(f"{path}: cannot read the tokenizer config ({exc.strerror}); check the path") from None
    except UnicodeDecodeError:
        raise ChatTemplateError(f"{path}: not UTF-8 text; pass the model's tokenizer_config.json") from None
    try:
        config = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ChatTemplateError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "pass the model's tokenizer_config.json"
        ) from None
    if not isinstance(config, dict):
        raise ChatTemplateError(f"{path}: the tokenizer config must be a JSON object, got {type(config).__name__}")
    return config


def _directory_templates(directory: Path) -> dict[str | None, str]:
    """The template files of a model directory, which transformers prefers to the config's key."""
    templates: dict[str | None, str] = {}
    main = directory / TEMPLATE_FILE
    if main.is_file():
        templates["default"] = main.read_text(encoding="utf-8")
    extra_dir = directory / TEMPLATE_DIR
    if extra_dir.is_dir():
        for path in sorted(extra_dir.glob("*.jinja")):
            templates[path.name.removesuffix(".jinja")] = path.read_text(encoding="utf-8")
    if set(templates) == {"default"}:
        return {None: templates["default"]}
    return templates


def load_chat_config(config_or_path: Mapping[str, Any] | str | os.PathLike) -> ChatConfig:
    """Read the chat template(s) and token variables from a config dict, a JSON file, or a model directory."""
    if isinstance(config_or_path, Mapping):
        config, source, file_templates = dict(config_or_path), "<dict>", {}
    elif isinstance(config_or_path, (str, os.PathLike)):
        path = Path(config_or_path)
        if path.is_dir():
            file_templates = _directory_templates(path)
            config_path = path / CONFIG_FILE
            if config_path.is_file():
                config = _read_json_config(config_path)
            elif file_templates:
                config = {}
            else:
                raise ChatTemplateError(
                    f"{path}: the directory has no {CONFIG_FILE} or {TEMPLATE_FILE}; pass the folder of a chat model "
                    "or the path of its tokenizer_config.json"
                )
            source = str(path)
        elif path.is_file():
            config, source, file_templates = _read_json_config(path), str(path), {}
        else:
            raise ChatTemplateError(f"{path}: no such file or directory; pass a tokenizer_config.json or its folder")
    else:
        raise ChatTemplateError(
            f"config_or_path must be a dict (a parsed tokenizer_config.json), a path or a directory, "
            f"got {type(config_or_path).__name__}"
        )
    if file_templates:
        templates = file_templates
    elif config.get("chat_template") is not None:
        templates = _templates_from_value(config["chat_template"], source=source)
    else:
        raise ChatTemplateError(
            f"{source}: no chat_template in this tokenizer config; only chat/instruct models ship one "
            "(pass the config of such a model, or add a 'chat_template' key)"
        )
    return ChatConfig(
        templates=MappingProxyType(templates),
        variables=MappingProxyType(token_variables(config, source=source)),
        source=source,
    )


def choose_template(config: ChatConfig, *, tools: Any = None, template_name: str | None = None) -> tuple[str, str]:
    """``(name, template source)`` as transformers picks it: the name asked for, else ``tool_use`` when tools
    are given (even ``[]``), else ``default``. A single unnamed template is called ``default``.

    >>> choose_template(ChatConfig({"default": "d", "tool_use": "t"}), tools=[])
    ('tool_use', 't')
    """
    templates = config.templates
    if None in templates:
        if template_name not in (None, "default"):
            raise ChatTemplateError(
                f"{config.source}: this config has one unnamed chat template, so there is no template named "
                f"{template_name!r}; drop template_name"
            )
        return "default", templates[None]
    names = config.template_names
    if template_name is not None:
        if template_name not in templates:
            raise ChatTemplateError(
                f"{config.source}: no chat template named {template_name!r}; choose one of {list(names)}"
            )
        return template_name, templates[template_name]
    if tools is not None and "tool_use" in templates:
        return "tool_use", templates["tool_use"]
    if "default" in templates:
        return "default", templates["default"]
    raise ChatTemplateError(
        f"{config.source}: this config has several chat templates and none is named 'default'; "
        f"pass template_name= one of {list(names)}"
    )
