"""tiktoken encodings by name (``cl100k_base``, ``o200k_base``, ...) through tiktoken's own download cache.

tiktoken keeps each downloaded rank file in one folder: ``TIKTOKEN_CACHE_DIR``, else
``DATA_GYM_CACHE_DIR``, else ``data-gym-cache`` in the temporary directory (an empty
``TIKTOKEN_CACHE_DIR`` turns the cache off), under the name ``sha1(url)``, and checks its
sha256 against a known value. This module follows the same rules, so a file tiktoken fetched
is found here and the other way round; the file is then read by tokcore's ``.tiktoken`` loader.
A download (only with ``download=True``) goes through ``huggingface_hub``'s HTTP client.
``gpt2`` is read from ``r50k_base.tiktoken``: the same ranks and special token as tiktoken's
``gpt2`` (which tiktoken builds from GPT-2's ``vocab.bpe`` and ``encoder.json`` instead).

``cache_file_name(URLS["r50k_base"][0]) == "0ea1e91bbb3a60f729a8dc8f777fd2fc07cd8df4"`` (the sha1 of the URL).

Left out: tiktoken's ``blobfile`` URLs (only https is fetched), and encodings outside
``URLS`` (load their ``.tiktoken`` file by path).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import uuid
from pathlib import Path

from ..core.errors import TokenizerFileError

_BASE = "https://openaipublic.blob.core.windows.net/encodings/"
# name -> (blob URL, sha256 of the file), as tiktoken_ext/openai_public.py gives them.
URLS: dict[str, tuple[str, str]] = {
    "r50k_base": (_BASE + "r50k_base.tiktoken", "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"),
    "p50k_base": (_BASE + "p50k_base.tiktoken", "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069"),
    "cl100k_base": (_BASE + "cl100k_base.tiktoken", "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),
    "o200k_base": (_BASE + "o200k_base.tiktoken", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"),
}
FILE_OF = {"gpt2": "r50k_base", "p50k_edit": "p50k_base"}  # encodings that reuse another's rank file
NAMES = tuple(sorted(set(URLS) | set(FILE_OF)))
DOWNLOAD_TIMEOUT = 60  # seconds per request


def cache_folder() -> Path | None:
    """Where tiktoken caches rank files now; ``None`` when ``TIKTOKEN_CACHE_DIR`` is empty (no cache)."""
    for var in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if var in os.environ:
            value = os.environ[var]
            return Path(value) if value else None
    return Path(tempfile.gettempdir()) / "data-gym-cache"


def cache_file_name(url: str) -> str:
    """The file name tiktoken caches ``url`` under: its sha1. ``len(cache_file_name("x")) == 40``."""
    return hashlib.sha1(url.encode()).hexdigest()


def _offline() -> bool:
    return any(os.environ.get(v, "").strip().lower() in ("1", "true", "yes", "on")
               for v in ("TIKTOKEN_OFFLINE", "HF_HUB_OFFLINE"))


def _fetch(url: str, name: str) -> bytes:
    """The file at ``url``, through ``huggingface_hub``'s HTTP client (its proxy and certificate settings)."""
    try:
        from huggingface_hub.utils import get_session

        response = get_session().get(url, timeout=DOWNLOAD_TIMEOUT, follow_redirects=True)
        response.raise_for_status()
        return response.content
    except ImportError:
        raise TokenizerFileError(f"tiktoken:{name}", "downloading needs the huggingface_hub package",
                                 fix="pip install huggingface_hub, or put the file in TIKTOKEN_CACHE_DIR.") from None
    except Exception as exc:  # the client's connection, timeout and HTTP status errors
        raise TokenizerFileError(f"tiktoken:{name}", f"could not be downloaded ({type(exc).__name__}: {str(exc)[:160]})",
                                 fix="Check the connection, or put the file in TIKTOKEN_CACHE_DIR.") from None


def _store(folder: Path, file: Path, data: bytes) -> None:
    """Write as tiktoken does: a temporary name, then an atomic rename (failures ignored, as tiktoken's default)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = file.with_name(f"{file.name}.{uuid.uuid4()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, file)
    except OSError:
        pass


def rank_file(name: str, *, download: bool = False) -> tuple[Path | None, bytes | None]:
    """``(cached path, None)`` for a verified cached file, or ``(None, bytes)`` just downloaded (and cached).

    Raises ``TokenizerFileError`` when the file is neither cached nor allowed to be fetched.
    """
    key = FILE_OF.get(name, name)
    if key not in URLS:
        raise TokenizerFileError(f"tiktoken:{name}", "unknown tiktoken encoding",
                                 fix=f"Known: {', '.join(NAMES)}; or load a .tiktoken file by path.")
    url, sha = URLS[key]
    folder = cache_folder()
    file = folder / cache_file_name(url) if folder is not None else None
    if file is not None and file.is_file():
        data = file.read_bytes()
        if hashlib.sha256(data).hexdigest() == sha:
            return file, None
    if not download or _offline():
        where = f" in {folder}" if folder is not None else " (TIKTOKEN_CACHE_DIR is empty: caching is off)"
        raise TokenizerFileError(f"tiktoken:{name}", f"not in the local cache{where}",
                                 fix="Connect to the internet and allow downloads (HF_HUB_OFFLINE=0), or set "
                                 "TIKTOKEN_CACHE_DIR to a folder holding the file.")
    data = _fetch(url, name)
    if hashlib.sha256(data).hexdigest() != sha:
        raise TokenizerFileError(f"tiktoken:{name}", "the downloaded file does not have the expected sha256",
                                 fix="The download may be corrupt; try again.")
    if file is not None:
        _store(folder, file, data)
    return None, data


def load_encoding(name: str, *, download: bool = False):
    """tiktoken's encoding ``name`` as a tokcore ``Tokenizer`` (special tokens as tiktoken defines them)."""
    from .tiktoken_file import load_tiktoken

    name = name.strip().lower()
    path, data = rank_file(name, download=download)
    if path is not None:
        return load_tiktoken(path, encoding=name)
    with tempfile.TemporaryDirectory(prefix="tokcore-tiktoken-") as tmp:
        file = Path(tmp) / f"{name}.tiktoken"
        file.write_bytes(data)
        return load_tiktoken(file, encoding=name)
