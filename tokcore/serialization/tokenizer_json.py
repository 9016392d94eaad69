"""Tokenizers to and from dicts: tokcore's versioned JSON and HF ``tokenizer.json``, same keys and ``"type"`` tags.

Every problem is a ``TokenizerFileError`` naming the source, where in it, and what to do.

Left out: reading files and telling formats apart (``tokcore.loaders``).
"""

from __future__ import annotations

from typing import Any

from ..core.added_tokens import AddedToken
from ..core.components import build
from ..core.errors import TokenizerFileError
from ..processors.settings import check_padding_settings, check_truncation_settings
from . import registry  # noqa: F401  (every stage's components registered before any is built)

FORMAT_NAME = "tokcore"
FORMAT_VERSION = 1


def _added_tokens(data: dict, source: object) -> list[AddedToken]:
    items = data.get("added_tokens") or []
    if not isinstance(items, list):
        raise TokenizerFileError(source, "'added_tokens' must be a list", where="added_tokens")
    tokens = [AddedToken.from_dict(d, source=source, where=f"added_tokens[{i}]") for i, d in enumerate(items)]
    by_id: dict[int, str] = {}
    for i, tok in enumerate(tokens):
        other = by_id.setdefault(tok.id, tok.content)
        if other != tok.content:
            raise TokenizerFileError(source, f"duplicate id {tok.id}: added tokens {other!r} and {tok.content!r} both have it",
                                     where=f"added_tokens[{i}]", fix="Give every added token its own id.")
    return tokens


def check_model_ids(model, source: object, *, where: str = "model.vocab") -> None:
    """Reject a vocabulary where two tokens share an id: decoding that id would be ambiguous.

    HF tokenizers silently keeps one of them; a file like that was edited by hand or damaged.
    """
    vocab = model.get_vocab()
    if len(set(vocab.values())) == len(vocab):  # the common case, checked in C
        return
    seen: dict[int, str] = {}
    for token, id_ in vocab.items():
        other = seen.setdefault(id_, token)
        if other != token:
            raise TokenizerFileError(source, f"duplicate id {id_}: tokens {other!r} and {token!r} both have it",
                                     where=where, fix="Each id must belong to exactly one token.")


def _build(stage: str, data: dict, source: object):
    try:
        return build(stage, data.get(stage), source=source, where=stage)
    except RecursionError:
        # Only a hand-made file nests Sequences this deep (HF's own JSON reader stops at 128 levels).
        raise TokenizerFileError(source, f"the {stage} components are nested too deeply",
                                 where=stage, fix="Flatten nested Sequence components.") from None


def _settings(data: dict, key: str, check, source: object):
    try:
        return check(data.get(key))
    except (ValueError, TypeError) as exc:
        raise TokenizerFileError(source, str(exc), where=key) from None


def tokenizer_parts(data: Any, *, source: object = "<dict>") -> tuple[str, Any, dict]:
    """``(class name, model, keyword arguments)`` of the tokenizer a native or HF dict describes.

    ``Tokenizer.from_dict`` builds the tokenizer from them; the class name (``"Tokenizer"`` for an
    HF file) picks a subclass such as ``CharTokenizer``.
    """
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
    model = _build("model", data, source)
    if model is None:
        raise TokenizerFileError(source, "'model' is null: a tokenizer needs a model", where="model")
    check_model_ids(model, source)
    kwargs = dict(
        normalizer=_build("normalizer", data, source),
        pre_tokenizer=_build("pre_tokenizer", data, source),
        post_processor=_build("post_processor", data, source),
        decoder=_build("decoder", data, source),
        added_tokens=_added_tokens(data, source),
        name=str(data.get("name") or ""),
    )
    kwargs["truncation"] = _settings(data, "truncation", check_truncation_settings, source)
    kwargs["padding"] = _settings(data, "padding", check_padding_settings, source)
    class_name = data.get("class") if data.get("format") == FORMAT_NAME else None
    return (class_name if isinstance(class_name, str) else "Tokenizer"), model, kwargs


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


