"""Format detection for ``tokcore.load``: which reader handles a path.

A directory is searched in a fixed order (``tokenizer.json``/``tokcore.json``, then
``vocab.json`` + ``merges.txt``, ``vocab.txt``, one ``*.model``, one ``*.tiktoken``); a file is
recognised by its name, then by its content (a ``.model`` holding tiktoken ranks, as Llama-3's
``tokenizer.model``, is read as ``.tiktoken``). ``hf:NAME`` reads a Hugging Face Hub repository from
the local ``huggingface_hub`` cache and ``tiktoken:NAME`` one of tiktoken's encodings from
tiktoken's cache (``download=True`` allows fetching either; ``loaders.hub``,
``loaders.tiktoken_cache``). Every failure says
what was found and what was expected.

Left out: the readers themselves (one module per format).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import TokenizerFileError, WrongTypeError
from ..core.gc_pause import paused_gc

EXPECTED = ("tokenizer.json (HF) or a tokcore JSON file, vocab.json + merges.txt (GPT-2), vocab.txt (BERT), "
            "a sentencepiece .model, or a .tiktoken rank file")


def _found(path: Path) -> str:
    names = sorted(p.name + ("/" if p.is_dir() else "") for p in path.iterdir())
    shown = ", ".join(names[:20]) + (f", ... ({len(names)} entries)" if len(names) > 20 else "")
    return shown or "nothing"


def _load_dir(path: Path, options: dict):
    for name in ("tokenizer.json", "tokcore.json"):
        if (path / name).is_file():
            return load_path(path / name, **options)
    if (path / "vocab.json").is_file() and (path / "merges.txt").is_file():
        from .gpt2_files import load_gpt2_files

        return load_gpt2_files(path / "vocab.json", path / "merges.txt")
    if (path / "vocab.txt").is_file():
        return load_path(path / "vocab.txt", **options)
    for suffix in (".model", ".tiktoken"):
        files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() == suffix)
        if len(files) == 1:
            return load_path(files[0], **options)
        if len(files) > 1:
            raise TokenizerFileError(path, f"found several {suffix} files ({', '.join(p.name for p in files)})",
                                     fix="Pass the one you want as the path.")
    raise TokenizerFileError(path, f"no tokenizer file found in this directory (found: {_found(path)})",
                             fix=f"Expected {EXPECTED}.")


def _sniff(path: Path) -> str | None:
    """Guess a format from the first bytes: ``"json"``, ``"tiktoken"``, ``"sentencepiece"`` or ``None``."""
    try:
        with path.open("rb") as fh:
            head = fh.read(256)
    except OSError:
        return None
    stripped = head.lstrip()
    if stripped[:1] in (b"{", b"["):
        return "json"
    first = head.split(b"\n", 1)[0].split()
    if len(first) == 2 and first[1].isdigit() and first[0][-1:] in b"=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/":
        return "tiktoken"
    if head[:1] == b"\x0a":  # field 1 (pieces), length-delimited: how every ModelProto starts
        return "sentencepiece"
    return None


def _load_json(path: Path, options: dict):
    from ..core.tokenizer import Tokenizer
    from .files import parse_json_bytes, read_file_bytes
    from .parsed_cache import read_cached, write_cached

    raw = read_file_bytes(path)
    cached = read_cached(raw, path)  # a large BPE file loaded before: no JSON, no merge pairs
    if cached is not None:
        return cached
    data = parse_json_bytes(raw, path)
    # A token -> id map (GPT-2's vocab.json; it may even hold a token named "model").
    if isinstance(data, dict) and data and all(isinstance(v, int) and not isinstance(v, bool) for v in data.values()):
        merges = path.parent / "merges.txt"
        if merges.is_file():
            from .gpt2_files import load_gpt2_files

            return load_gpt2_files(path, merges)
        raise TokenizerFileError(path, "this looks like a GPT-2 vocab.json (token -> id) but there is no merges.txt beside it",
                                 fix="Put merges.txt in the same directory, or load the directory.")
    tok = Tokenizer.from_dict(data, source=path)
    write_cached(raw, data, tok)
    return tok


def load_path(path: Path, **options):
    """Load ``path`` (a file or a directory) with the reader its format needs; see the module docstring."""
    # A tokenizer file becomes a few hundred thousand objects and no reference cycle.
    with paused_gc():
        return _load_path(path, **options)


def _load_path(path: Path, **options):
    text = str(path)
    if text.startswith("hf:"):
        return load_hub(text[3:], **options)
    if text.startswith("tiktoken:"):
        from .tiktoken_cache import load_encoding

        return load_encoding(text[len("tiktoken:"):], download=bool(options.get("download")))
    try:
        exists, is_dir = path.exists(), path.is_dir()
    except (OSError, ValueError) as exc:  # a name too long, a NUL byte in it
        shown = text if len(text) <= 200 else text[:200] + "..."
        raise TokenizerFileError(repr(shown), f"not a usable path ({type(exc).__name__}: {str(exc)[:100]})",
                                 fix="Check the path.") from None
    if not exists:
        raise TokenizerFileError(path, "no such file or directory", fix="Check the path.")
    if is_dir:
        return _load_dir(path, options)
    from .files import check_regular_file

    check_regular_file(path)  # before any read: a pipe or a device could block or never end
    name = path.name.lower()
    suffix = path.suffix.lower()
    kind = {".json": "json", ".model": "sentencepiece", ".tiktoken": "tiktoken"}.get(suffix)
    if name == "merges.txt":
        vocab = path.parent / "vocab.json"
        if not vocab.is_file():
            raise TokenizerFileError(path, "merges.txt needs vocab.json beside it", fix="Put vocab.json in the same directory.")
        from .gpt2_files import load_gpt2_files

        return load_gpt2_files(vocab, path)
    if suffix == ".txt":
        kind = "vocab_txt"
    if kind == "sentencepiece" and _sniff(path) == "tiktoken":
        kind = "tiktoken"  # Llama-3's tokenizer.model is a tiktoken rank file (a ModelProto starts with 0x0a)
    if kind is None:
        kind = _sniff(path)
    if kind == "json":
        return _load_json(path, options)
    if kind == "vocab_txt":
        from .bert_vocab import load_bert_vocab

        return load_bert_vocab(path, **{k: v for k, v in options.items() if k in ("config_path", "lowercase")})
    if kind == "sentencepiece":
        from .sentencepiece_build import build_sentencepiece_tokenizer
        from .sentencepiece_model import read_sentencepiece_model

        return build_sentencepiece_tokenizer(read_sentencepiece_model(path), name=f"sentencepiece:{path.stem}")
    if kind == "tiktoken":
        from .tiktoken_file import load_tiktoken

        return load_tiktoken(path, **{k: v for k, v in options.items() if k in ("encoding", "special_tokens", "pattern")})
    raise TokenizerFileError(path, f"unknown tokenizer file type {path.suffix or '(no extension)'!r}",
                             fix=f"Expected {EXPECTED}.")


def load_hub(name: str, *, download: bool = False, revision: str | None = None, progress=None, **options):
    """``tokcore.load("hf:NAME")``: a Hub repository from the local cache (or fetched with ``download=True``).

    See ``tokcore.loaders.hub``: tokenizer.json, else the legacy files, plus tokenizer_config.json.
    """
    from .hub import hub_folder

    folder = hub_folder(name, download=download, revision=revision, progress=progress)
    try:
        return load_path(folder, **options)
    except TokenizerFileError as exc:  # name the repository, not the cache's snapshot folder
        raise TokenizerFileError(f"hf:{name}", exc.problem, where=exc.where, fix=exc.fix) from None


def load(path: str | Path, **options):
    """Load a tokenizer from a file or a directory, detecting its format.

    Reads tokcore's own JSON and HF ``tokenizer.json``; other formats go through
    ``tokcore.loaders`` when available. Raises ``TokenizerFileError`` saying what was found.
    """
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise WrongTypeError(f"load takes a path (str or pathlib.Path), got {type(path).__name__}")
    if isinstance(path, str) and not path.strip():
        raise TokenizerFileError(repr(path), "no path given", fix="Pass a tokenizer file or a directory.")
    return load_path(Path(path), **options)
