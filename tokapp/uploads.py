"""Uploaded tokenizer files, one or several at once (GPT-2's ``vocab.json`` + ``merges.txt`` come as a pair).

Checks come first and say what to fix: at most ``MAX_FILES`` files, known suffixes, and the size limit
``samples.MAX_UPLOAD_BYTES`` for all files together. The files are written to a fresh temporary
directory under their own base names and read with ``tokcore.load`` (the directory when there are
several, so its format detection pairs the files). Errors are the engine's ``ValueError``s.

``check_files([("vocab.json", 10), ("merges.txt", 10)])`` passes; ``[("x.exe", 1)]`` raises.

Left out: the streamlit uploader widget (the Load and export page).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Sequence

from .samples import MAX_UPLOAD_BYTES, SessionTokenizer, UploadError, load_uploaded, read_uploads, upload_label

SUFFIXES = (".json", ".txt", ".model", ".tiktoken")
MAX_FILES = 4
REMOVE = "Files stay in the list until removed: click × beside the ones you do not mean to load."
ACCEPTED = "tokenizer.json, tokcore JSON, vocab.txt, vocab.json + merges.txt, a sentencepiece .model, a .tiktoken file"


def limit_text() -> str:
    """The size limit as the page states it. ``limit_text() == "50 MiB"`` with the default limit."""
    return f"{MAX_UPLOAD_BYTES // 2**20} MiB"


def check_files(files: Sequence[tuple[str, int]]) -> None:
    """Raise ``ValueError`` naming the problem when ``(name, size)`` pairs cannot be an upload."""
    if not files:
        raise ValueError("no file uploaded")
    names = [Path(name).name for name, _ in files]
    if len(files) > MAX_FILES:  # the uploader keeps every file until its × is clicked: earlier ones count too
        raise ValueError(f"{len(files)} files in the upload list ({', '.join(names)}); at most {MAX_FILES} at once "
                         f"(e.g. vocab.json + merges.txt). {REMOVE}")
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"the upload list holds {', '.join(twice)} more than once. {REMOVE}")
    for name in names:
        if Path(name).suffix.lower() not in SUFFIXES:
            raise ValueError(f"{name}: unsupported file type; expected {ACCEPTED}")
    lowered = {n.lower() for n in names}
    for have, need in (("vocab.json", "merges.txt"), ("merges.txt", "vocab.json")):
        if have in lowered and need not in lowered:
            raise ValueError(f"{have} needs its {need}: upload both files together (select them at once)")
    total = sum(size for _, size in files)
    if total > MAX_UPLOAD_BYTES:
        raise ValueError(f"the upload is {total / 2**20:.1f} MiB, over the {limit_text()} limit; "
                         "use tokcore.load on the file from Python instead")


def bundle_key(files: Sequence[tuple[str, bytes]]) -> str:
    """A stable key for a set of files (order does not matter)."""
    digest = hashlib.sha256()
    for name, data in sorted(files):
        digest.update(Path(name).name.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
    return "upload:" + digest.hexdigest()[:16]


def load_files(files: Sequence[tuple[str, bytes]]) -> SessionTokenizer:
    """The tokenizer the uploaded files hold, as a session entry labelled with the file names."""
    check_files([(name, len(data)) for name, data in files])
    if len(files) == 1:
        return load_uploaded(*files[0])
    names = [Path(name).name for name, _ in files]
    label = " + ".join(names)
    try:
        tokenizer = read_uploads([(n, data) for n, (_, data) in zip(names, files)], shown=label)
    except UploadError as exc:  # e.g. two .model files: one of them is left over from an earlier upload
        raise UploadError(f"{exc} {REMOVE}") from None
    key = bundle_key(files)
    return SessionTokenizer(key, upload_label(label, tokenizer, key), tokenizer, origin="upload", description=label)
