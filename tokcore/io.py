"""Reading and writing tokenizers: tokcore's versioned JSON, HF ``tokenizer.json`` dicts, and ``load``.

``load`` looks at a file or directory and hands it to the right reader. Every problem is a
``TokenizerFileError`` naming the file, where in it, and what to do. JSON is parsed, never
evaluated; nothing is unpickled.

Left out: the readers of other formats (``tokcore.loaders``), which ``load`` dispatches to.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from .added_tokens import AddedToken
from .components import build
from .errors import TokenizerFileError, WrongTypeError

MAX_FILE_BYTES = 1 << 30  # 1 GiB: far above any real tokenizer file, far below what would exhaust memory


def check_regular_file(path: Path) -> int:
    """Size of ``path`` in bytes, after checking it is a readable regular file of sane size.

    Devices (``/dev/zero``), pipes and sockets are refused before any read: reading them could
    block or never end.
    """
    try:
        st = path.stat()
    except OSError as exc:
        raise TokenizerFileError(path, f"cannot read the file ({exc.strerror or exc})", fix="Check the path.") from None
    if not stat.S_ISREG(st.st_mode):
        raise TokenizerFileError(path, "not a regular file (a device, pipe or socket)",
                                 fix="Pass a tokenizer file or the directory that holds it.")
    if st.st_size > MAX_FILE_BYTES:
        raise TokenizerFileError(path, f"the file has {st.st_size:,} bytes, more than the {MAX_FILE_BYTES:,} tokcore reads",
                                 fix="Is this really a tokenizer file?")
    return st.st_size


def read_file_bytes(path: Path) -> bytes:
    """The bytes of a tokenizer file (see ``check_regular_file``); failures are ``TokenizerFileError``."""
    check_regular_file(path)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise TokenizerFileError(path, f"cannot read the file ({exc.strerror or exc})") from None
    except MemoryError:
        raise TokenizerFileError(path, "the file does not fit in memory") from None


def read_json(path: Path) -> Any:
    """Parse a JSON file, turning every failure into ``TokenizerFileError`` with line and column."""
    raw = read_file_bytes(path)
    if not raw.strip():
        raise TokenizerFileError(path, "the file is empty", fix="Pass a tokenizer file with content.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TokenizerFileError(path, f"not UTF-8 text (bad byte at offset {exc.start})", fix="Is this a binary file?") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TokenizerFileError(
            path, f"invalid JSON: {exc.msg}", where=f"line {exc.lineno}, column {exc.colno}",
            fix="The file may be truncated or not JSON.",
        ) from None
    except RecursionError:
        raise TokenizerFileError(path, "JSON nested too deeply") from None
    if _SURROGATE_ESCAPE.search(raw):
        _reject_lone_surrogates(data, path)
    return data


# An escaped UTF-16 surrogate: fine in pairs (an emoji), invalid alone (HF's JSON reader refuses it).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _reject_lone_surrogates(data: Any, path: Path) -> None:
    """Raise if any key or string of the parsed JSON holds a lone surrogate (walked without recursion)."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                stack.append((key, where))
                stack.append((value, f"{where}.{key}" if where else str(key)))
        elif isinstance(node, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(node))
        elif isinstance(node, str) and not node.isascii():
            try:
                node.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise TokenizerFileError(path, f"a string holds a lone surrogate escape \\u{ord(node[exc.start]):04X}, "
                                               "which is not valid Unicode", where=where or "top level",
                                         fix="Surrogate escapes must come in pairs.") from None


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


def tokenizer_from_dict(data: Any, *, source: object = "<dict>"):
    """Build a ``Tokenizer`` (or ``CharTokenizer``) from tokcore's native dict or an HF tokenizer.json dict."""
    from . import truncation as _trunc
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
    kwargs["truncation"] = _settings(data, "truncation", _trunc.check_truncation_settings, source)
    kwargs["padding"] = _settings(data, "padding", _trunc.check_padding_settings, source)
    try:
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

    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise WrongTypeError(f"load takes a path (str or pathlib.Path), got {type(path).__name__}")
    if isinstance(path, str) and not path.strip():
        raise TokenizerFileError(repr(path), "no path given", fix="Pass a tokenizer file or a directory.")
    return loaders.load_path(Path(path), **options)
