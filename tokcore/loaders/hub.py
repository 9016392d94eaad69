"""Tokenizer files of a Hugging Face Hub repository, through ``huggingface_hub`` and its cache.

``hub_folder(name)`` returns the local snapshot folder that holds a repository's tokenizer files:
``tokenizer.json`` when the repository has one, else its legacy files (``vocab.json`` +
``merges.txt``, ``vocab.txt``, a sentencepiece ``.model``, a ``.tiktoken``), with
``tokenizer_config.json`` and ``special_tokens_map.json`` beside them when present.
``huggingface_hub`` owns the cache layout (``HF_HUB_CACHE``, ``HF_HOME``), revisions, tokens for
gated repositories (``HF_TOKEN``) and offline mode (``HF_HUB_OFFLINE``); both variables are read
at each call, so a running app follows them. Nothing touches the network unless
``download=True`` and offline mode is off; every failure is a ``TokenizerFileError`` saying what
to do.

``pick_files(["README.md", "merges.txt", "vocab.json"]) == ["merges.txt", "vocab.json"]``

Left out: reading the files (``tokcore.loaders.load_path`` takes the folder), model weights, and
any repository file that is not a tokenizer file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterable

from ..core.errors import TokenizerFileError

CONFIG_FILES = ("tokenizer_config.json", "special_tokens_map.json", "chat_template.jinja")  # the last: chat models
LEGACY_SETS = (("vocab.json", "merges.txt"), ("vocab.txt",), ("tokenizer.model",), ("spiece.model",),
               ("sentencepiece.bpe.model",))
PATTERNS = ["tokenizer.json", *CONFIG_FILES, "vocab.json", "merges.txt", "vocab.txt", "*.model", "*.tiktoken"]
OFFLINE_FIX = "Connect to the internet, or run with HF_HUB_OFFLINE=0, to download it once."
Progress = Callable[[int, int, str], None]  # (files done, files in all, the file now being fetched)


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def offline() -> bool:
    """Whether the Hub may not be reached: ``HF_HUB_OFFLINE`` now, or as ``huggingface_hub`` read it."""
    if "HF_HUB_OFFLINE" in os.environ:
        return _truthy(os.environ["HF_HUB_OFFLINE"])
    import huggingface_hub.constants as constants

    return bool(constants.HF_HUB_OFFLINE)


def cache_dir() -> str | None:
    """``HF_HUB_CACHE`` as set now (``None``: huggingface_hub's own default, ``~/.cache/huggingface/hub``)."""
    return os.environ.get("HF_HUB_CACHE") or None


def pick_files(names: Iterable[str]) -> list[str]:
    """The tokenizer files to fetch among a repository's ``names``: ``tokenizer.json`` first, else a legacy set.

    Only top-level files count (a repository's sub-folders hold other models' files).
    """
    top = sorted({n for n in names if "/" not in n})
    chosen: list[str] = []
    if "tokenizer.json" in top:
        chosen = ["tokenizer.json"]
    else:
        for group in LEGACY_SETS:
            if all(g in top for g in group):
                chosen = list(group)
                break
        else:
            chosen = [n for n in top if n.endswith(".tiktoken")][:1]
    if not chosen:
        return []
    return sorted(chosen + [c for c in CONFIG_FILES if c in top])


def _import_hub(name: str):
    try:
        import huggingface_hub
    except ImportError:
        raise TokenizerFileError(f"hf:{name}", "loading from the Hub needs the huggingface_hub package, which is not "
                                 "installed", fix="pip install huggingface_hub, or download the files and pass "
                                 "their directory.") from None
    return huggingface_hub


def _explain(name: str, exc: Exception, *, fetching: bool) -> TokenizerFileError:
    """One clear error for each way the Hub can say no."""
    from huggingface_hub import errors

    where = f"hf:{name}"
    if isinstance(exc, errors.GatedRepoError):
        return TokenizerFileError(where, "the repository is gated", fix="Accept its licence on huggingface.co and "
                                  "set HF_TOKEN to a token of that account.")
    if isinstance(exc, errors.RepositoryNotFoundError):
        return TokenizerFileError(where, "no such repository on the Hub (or it is private)",
                                  fix="Check the name (OWNER/NAME, e.g. google-bert/bert-base-uncased); for a "
                                  "private one set HF_TOKEN.")
    if isinstance(exc, errors.RevisionNotFoundError):
        return TokenizerFileError(where, "the repository has no such revision", fix="Check the branch, tag or commit.")
    if isinstance(exc, (errors.LocalEntryNotFoundError, errors.OfflineModeIsEnabled)) or not fetching:
        return TokenizerFileError(where, "not in the local cache" + (" and the Hub is unreachable" if fetching else ""),
                                  fix=OFFLINE_FIX)
    if isinstance(exc, errors.HFValidationError):
        return TokenizerFileError(where, f"not a repository name ({str(exc)[:120]})",
                                  fix="Write OWNER/NAME or NAME, e.g. gpt2.")
    return TokenizerFileError(where, f"could not be downloaded ({type(exc).__name__}: {str(exc)[:200]})",
                              fix="Check the connection and the name, then try again.")


def _cached_folder(hub, name: str, revision: str | None) -> Path:
    folder = Path(hub.snapshot_download(name, revision=revision, allow_patterns=PATTERNS, local_files_only=True,
                                        cache_dir=cache_dir()))
    if not pick_files(p.name for p in folder.iterdir() if p.is_file()):
        raise FileNotFoundError(f"no tokenizer file cached in {folder}")
    return folder


def hub_folder(name: str, *, download: bool = False, revision: str | None = None,
               progress: Progress | None = None) -> Path:
    """The snapshot folder holding ``name``'s tokenizer files, from the cache, or fetched when ``download``.

    ``progress(done, total, file)`` is called before each file is fetched and once at the end.
    """
    name = name.strip()
    if not name:
        raise TokenizerFileError("hf:", "no repository name", fix="Write OWNER/NAME, e.g. hf:gpt2.")
    hub = _import_hub(name)
    try:
        return _cached_folder(hub, name, revision)
    except Exception as exc:  # the Hub raises many kinds; each is explained below
        if not download or offline():
            raise _explain(name, exc, fetching=False) from None
    try:
        names = hub.list_repo_files(name, revision=revision)
        files = pick_files(names)
        if not files:
            shown = ", ".join(sorted(names)[:15]) or "nothing"
            raise TokenizerFileError(f"hf:{name}", f"the repository has no tokenizer file (found: {shown})",
                                     fix="Pick a repository with tokenizer.json, vocab.txt, vocab.json + merges.txt "
                                     "or a sentencepiece .model.")
        path = None
        for done, file in enumerate(files):
            if progress:
                progress(done, len(files), file)
            path = hub.hf_hub_download(name, file, revision=revision, cache_dir=cache_dir())
        if progress:
            progress(len(files), len(files), "")
    except TokenizerFileError:
        raise
    except Exception as exc:
        raise _explain(name, exc, fetching=True) from None
    return Path(path).parent
