"""The registry of tokenizers a page can offer, each under a stable string key.

Four origins, one shape (``SampleSpec``):
- ``builtin:<name>``: made in code (``register_builtin``); the ASCII character tokenizer first.
- ``file:<name>``: files in ``sample_vocabs/`` (toy vocabularies trained for the app), read
  with ``tokcore.load``.
- ``upload:<digest>``: a file a person uploaded (``load_uploaded``).
- ``session:<n>``: a tokenizer trained or built this session; the app keeps those in
  ``st.session_state`` and passes them in as ``SessionTokenizer`` entries.

``cache_key`` is a plain string that changes whenever the tokenizer behind a spec may change
(file size and mtime, upload digest), so results can be cached by string.

Left out: streamlit caching and widgets (``tokapp.st_common``).
"""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import tokcore

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DIR = ROOT / "sample_vocabs"
SAMPLE_SUFFIXES = (".json", ".txt", ".model", ".tiktoken")
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
DEFAULT_KEY = "builtin:ascii-char"


@dataclass(frozen=True)
class SampleSpec:
    """A tokenizer on offer. ``load()`` builds it (cheap for built-ins; cache it in the app)."""

    key: str
    label: str
    kind: str  # "builtin" | "file" | "upload" | "session"
    description: str = ""
    loader: Callable[[], Any] | None = field(default=None, compare=False, repr=False)
    cache_key: str = ""

    def load(self):
        if self.loader is None:
            raise ValueError(f"tokenizer {self.key!r} has no loader")
        return self.loader()


@dataclass(frozen=True)
class SessionTokenizer:
    """A tokenizer kept in this session's state (trained here, or uploaded)."""

    key: str
    label: str
    tokenizer: Any = field(compare=False, repr=False)
    origin: str = "session"  # "session" (trained/built here) or "upload"
    description: str = ""


_BUILTINS: dict[str, SampleSpec] = {}


def register_builtin(name: str, label: str, description: str = "") -> Callable:
    """Decorator: register a zero-argument factory as the built-in sample ``builtin:<name>``."""

    def wrap(factory: Callable[[], Any]) -> Callable[[], Any]:
        key = f"builtin:{name}"
        _BUILTINS[key] = SampleSpec(key, label, "builtin", description, factory, cache_key=key)
        return factory

    return wrap


@register_builtin(
    "ascii-char",
    "ASCII characters (tokcore.CharTokenizer)",
    "One id per printable ASCII character, tab and newline; anything else becomes <UNK>.",
)
def ascii_char_tokenizer():
    return tokcore.CharTokenizer()


TOY_WORDS = tuple(dict.fromkeys((
    "the cat sat on mat a dog ran to park and tokens are pieces of text . , ! ? "
    "teachers engineers offsets debug hello world"
).split()))


@register_builtin(
    "toy-word-level",
    f"Toy word level ({len(TOY_WORDS)} words, whitespace split)",
    "Words from a tiny vocabulary; every other word is [UNK]. Spaces belong to no token.",
)
def toy_word_level_tokenizer():
    from tokcore.core.added_tokens import AddedToken
    from tokcore.models import WordLevel
    from tokcore.pre_tokenizers.standard import WhitespaceSplit

    specials = ["[UNK]", "[CLS]", "[SEP]"]
    vocab = {tok: i for i, tok in enumerate(specials + list(TOY_WORDS))}
    return tokcore.Tokenizer(
        WordLevel(vocab, unk_token="[UNK]"),
        pre_tokenizer=WhitespaceSplit(),
        post_processor=_optional("post_processor", {"type": "BertProcessing", "sep": ["[SEP]", 2], "cls": ["[CLS]", 1]}),
        added_tokens=[AddedToken(t, vocab[t], special=True, normalized=False) for t in specials],
        name="toy-word-level",
    )


def _optional(stage: str, data: dict):
    """A component built from its HF dict, or ``None`` while the engine lacks that type."""
    from tokcore.core.components import build

    try:
        return build(stage, data, source="tokapp.samples", where=stage)
    except (ValueError, TypeError, KeyError):
        return None


def builtin_specs() -> list[SampleSpec]:
    return list(_BUILTINS.values())


def file_specs(directory: Path = SAMPLE_DIR) -> list[SampleSpec]:
    """One spec per tokenizer file in ``directory`` (README and hidden files skipped)."""
    if not directory.is_dir():
        return []
    specs = []
    for path in sorted(directory.iterdir()):
        if path.name.startswith(".") or path.name.lower().startswith("readme") or path.suffix not in SAMPLE_SUFFIXES:
            continue
        if not path.is_file():
            continue
        stat = path.stat()
        key = f"file:{path.name}"
        specs.append(
            SampleSpec(
                key,
                f"Sample: {path.stem.replace('_', ' ')}",
                "file",
                f"sample_vocabs/{path.name}",
                loader=(lambda p=path: tokcore.load(p)),
                cache_key=f"{key}:{stat.st_size}:{stat.st_mtime_ns}",
            )
        )
    return specs


def session_specs(entries: Iterable[SessionTokenizer]) -> list[SampleSpec]:
    return [
        SampleSpec(e.key, e.label, e.origin, e.description, loader=(lambda t=e.tokenizer: t), cache_key=e.key)
        for e in entries
    ]


def all_specs(session_entries: Iterable[SessionTokenizer] = (), directory: Path = SAMPLE_DIR) -> list[SampleSpec]:
    """Every tokenizer on offer, built-ins first, then sample files, then this session's."""
    return builtin_specs() + file_specs(directory) + session_specs(session_entries)


def find_spec(key: str, specs: Iterable[SampleSpec]) -> SampleSpec | None:
    return next((s for s in specs if s.key == key), None)


def upload_key(data: bytes) -> str:
    """A stable key for uploaded bytes. ``upload_key(b"x").startswith("upload:")``."""
    return "upload:" + hashlib.sha256(data).hexdigest()[:16]


class UploadError(ValueError):
    """An uploaded file could not be read; the message names the file as uploaded."""


def read_uploads(files: list[tuple[str, bytes]], *, shown: str):
    """``tokcore.load`` on the uploaded files, written under their base names to a fresh temporary folder.

    One file is read as a file, several as a folder (so a ``vocab.json`` meets its ``merges.txt``).
    Errors become ``UploadError`` with every temporary path replaced by the names as uploaded (``shown``).
    """
    with tempfile.TemporaryDirectory(prefix="tokapp-") as tmp:
        folder = Path(tmp)
        for name, data in files:
            (folder / name).write_bytes(data)
        target = folder / files[0][0] if len(files) == 1 else folder
        try:
            return tokcore.load(target)
        except (ValueError, TypeError, RecursionError, MemoryError) as exc:
            message = str(exc) or type(exc).__name__
            for place in {str(folder), str(folder.resolve())}:
                for name, _ in files:
                    message = message.replace(f"{place}/{name}", name)
                message = message.replace(place, shown)
            raise UploadError(message) from None


def upload_label(names: str, tokenizer, key: str) -> str:
    """``Uploaded: <names> · <model kind> · <short hash>``, so two uploads of one name can be told apart."""
    kind = type(getattr(tokenizer, "model", tokenizer)).__name__
    return f"Uploaded: {names} · {kind} · {key.removeprefix('upload:')[:6]}"


def load_uploaded(name: str, data: bytes) -> SessionTokenizer:
    """Read an uploaded tokenizer file with ``tokcore.load``; errors are ``ValueError``s naming ``name``."""
    safe = Path(name).name or "upload"
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError(f"{safe}: {len(data) / 1e6:.1f} MB is over the {MAX_UPLOAD_BYTES // 2**20} MiB upload limit")
    tokenizer = read_uploads([(safe, data)], shown=safe)
    key = upload_key(data)
    return SessionTokenizer(key, upload_label(safe, tokenizer, key), tokenizer, origin="upload", description=safe)
