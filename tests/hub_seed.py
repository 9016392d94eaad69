"""Offline stand-ins for the Hub and tiktoken's download cache, built from the reference files.

``seed_hub(cache, "openai-community/gpt2", {"tokenizer.json": path})`` lays the files out exactly as
``huggingface_hub`` writes its cache (``models--ORG--NAME/blobs/<sha256>``, ``refs/main`` holding the
commit, ``snapshots/<commit>/<file>`` a relative symlink to the blob), so the real ``huggingface_hub``
reads them with ``HF_HUB_CACHE=cache`` and ``HF_HUB_OFFLINE=1``. ``seed_tiktoken`` does the same for
tiktoken's cache (the file named by the sha1 of its URL).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from shared_data import require_shared

from tokcore.loaders.tiktoken_cache import URLS, cache_file_name

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def seed_hub(cache: Path, repo_id: str, files: dict[str, Path], *, commit: str = COMMIT) -> Path:
    """Put ``files`` (name in the repository -> local file) into ``cache`` as revision ``main``."""
    repo = cache / ("models--" + repo_id.replace("/", "--"))
    (repo / "blobs").mkdir(parents=True, exist_ok=True)
    (repo / "refs").mkdir(exist_ok=True)
    (repo / "refs" / "main").write_text(commit)
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True, exist_ok=True)
    for name, source in files.items():
        data = Path(source).read_bytes()
        blob = repo / "blobs" / hashlib.sha256(data).hexdigest()
        blob.write_bytes(data)
        link = snapshot / name
        if link.is_symlink() or link.exists():
            link.unlink()
        os.symlink(os.path.relpath(blob, link.parent), link)
    return snapshot


def seed_tiktoken(folder: Path, encoding: str, source: Path) -> Path:
    """Put ``source`` into tiktoken's cache ``folder`` under the name tiktoken gives ``encoding``'s URL."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / cache_file_name(URLS[encoding][0])
    target.write_bytes(Path(source).read_bytes())
    return target


def seed_reference_models(root: Path) -> dict[str, str]:
    """A Hub cache and a tiktoken cache under ``root`` holding the reference models; returns the environment."""
    hf = require_shared("reference", "hf")
    hub = root / "hub"
    seed_hub(hub, "openai-community/gpt2", {"tokenizer.json": hf / "gpt2" / "tokenizer.json"})
    seed_hub(hub, "gpt2", {"vocab.json": hf / "gpt2" / "vocab.json", "merges.txt": hf / "gpt2" / "merges.txt"})
    minilm = hf / "minilm"
    seed_hub(hub, "sentence-transformers/all-MiniLM-L6-v2",
             {n: minilm / n for n in ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json")})
    seed_tiktoken(root / "tiktoken", "r50k_base", require_shared("reference", "tiktoken", "gpt2.tiktoken"))
    return {"HF_HUB_CACHE": str(hub), "HF_HUB_OFFLINE": "1", "TIKTOKEN_CACHE_DIR": str(root / "tiktoken")}
