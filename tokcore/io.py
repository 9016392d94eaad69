"""Reading and writing tokenizers: tokcore's versioned JSON, HF ``tokenizer.json`` dicts, and ``load``.

``load`` looks at a file or directory and hands it to the right reader. Every problem is a
``TokenizerFileError`` naming the file, where in it, and what to do. JSON is parsed, never
evaluated; nothing is unpickled.

Left out: the readers of other formats (``tokcore.loaders``), which ``load`` dispatches to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .added_tokens import AddedToken
from .components import build
from .errors import TokenizerFileError

MAX_JSON_BYTES = 512 * 1024 * 1024


def read_json(path: Path) -> Any:
    """Parse a JSON file, turning every failure into ``TokenizerFileError`` with line and column."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TokenizerFileError(path, f"cannot read the file ({exc.strerror or exc})") from None
    if not raw.strip():
        raise TokenizerFileError(path, "the file is empty", fix="Pass a tokenizer file with content.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TokenizerFileError(path, f"not UTF-8 text (bad byte at offset {exc.start})", fix="Is this a binary file?") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TokenizerFileError(
            path, f"invalid JSON: {exc.msg}", where=f"line {exc.lineno}, column {exc.colno}",
            fix="The file may be truncated or not JSON.",
        ) from None
    except RecursionError:
        raise TokenizerFileError(path, "JSON nested too deeply") from None


def _added_tokens(data: dict, source: object) -> list[AddedToken]:
    items = data.get("added_tokens") or []
    if not isinstance(items, list):
        raise TokenizerFileError(source, "'added_tokens' must be a list", where="added_tokens")
    return [AddedToken.from_dict(d, source=source, where=f"added_tokens[{i}]") for i, d in enumerate(items)]


def tokenizer_from_dict(data: Any, *, source: object = "<dict>"):
    """Build a ``Tokenizer`` (or ``CharTokenizer``) from tokcore's native dict or an HF tokenizer.json dict."""
    from .char_tokenizer import CharTokenizer
    from .tokenizer import FORMAT_NAME, FORMAT_VERSION, Tokenizer

    if not isinstance(data, dict):
        raise TokenizerFileError(source, f"expected a JSON object at the top level, got {type(data).__name__}")
    if data.get("format") == FORMAT_NAME:
        version = data.get("version")
        if not isinstance(version, int) or version > FORMAT_VERSION or version < 1:
            raise TokenizerFileError(
                source, f"tokcore format version {version!r} is not supported (this tokcore reads 1..{FORMAT_VERSION})",
                where="version", fix="Upgrade tokcore or re-save the tokenizer.",
            )
    if "model" not in data:
        raise TokenizerFileError(source, "no 'model' section: this is not a tokenizer.json or tokcore file", where="top level")
    model = build("model", data.get("model"), source=source, where="model")
    kwargs = dict(
        normalizer=build("normalizer", data.get("normalizer"), source=source, where="normalizer"),
        pre_tokenizer=build("pre_tokenizer", data.get("pre_tokenizer"), source=source, where="pre_tokenizer"),
        post_processor=build("post_processor", data.get("post_processor"), source=source, where="post_processor"),
        decoder=build("decoder", data.get("decoder"), source=source, where="decoder"),
        added_tokens=_added_tokens(data, source),
        name=str(data.get("name") or ""),
    )
    try:
        kwargs["truncation"] = data.get("truncation")
        kwargs["padding"] = data.get("padding")
        if data.get("class") == "CharTokenizer":
            return CharTokenizer._from_parts(model, **kwargs)
        return Tokenizer(model, **kwargs)
    except TokenizerFileError:
        raise
    except (ValueError, TypeError) as exc:
        raise TokenizerFileError(source, str(exc)) from None


def _hf(component) -> dict | None:
    if component is None:
        return None
    to_hf = getattr(component, "to_hf_dict", None)
    return to_hf() if to_hf is not None else component.to_dict()


def to_hf_dict(tokenizer) -> dict:
    """An HF ``tokenizer.json`` dict for ``tokenizer`` (components map to HF's own types)."""
    pre = _hf(tokenizer.pre_tokenizer)
    model = _hf(tokenizer.model)
    hook = getattr(tokenizer.model, "hf_pre_tokenizer", None)
    if hook is not None:
        pre = hook(pre)
    return {
        "version": "1.0",
        "truncation": tokenizer.truncation,
        "padding": tokenizer.padding,
        "added_tokens": [t.to_dict() for t in sorted(tokenizer.added_tokens, key=lambda t: t.id)],
        "normalizer": _hf(tokenizer.normalizer),
        "pre_tokenizer": pre,
        "post_processor": _hf(tokenizer.post_processor),
        "decoder": _hf(tokenizer.decoder),
        "model": model,
    }


def load(path: str | Path, **options):
    """Load a tokenizer from a file or a directory, detecting its format.

    Reads tokcore's own JSON and HF ``tokenizer.json``; other formats go through
    ``tokcore.loaders`` when available. Raises ``TokenizerFileError`` saying what was found.
    """
    from . import loaders

    return loaders.load_path(Path(path), **options)
