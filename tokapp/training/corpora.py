"""The corpora a training page can train on: built-in files, pasted text, uploaded files.

A ``Corpus`` carries a plain-string ``key`` (built-in name with file size and mtime, or a digest
of pasted/uploaded text) so a page can cache a run with ``st.cache_data`` by strings only.

Left out: splitting a corpus into words (``tokapp.training.words``) and training (``runner``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parents[2]
CORPUS_DIR = ROOT / "sample_vocabs" / "corpora"
MAX_CORPUS_BYTES = 2 * 1024 * 1024  # pasted or uploaded corpora: 2 MB keeps a run under a few seconds

BUILTIN_CORPORA: dict[str, tuple[str, str]] = {
    "classic": ("Classic course corpus: hug x10, pug x5, pun x12, bun x4, hugs x5", "classic_toy.json"),
    "english": ("English sample sentences", "english.txt"),
    "multilingual": ("Multilingual sample sentences", "multilingual.txt"),
    "code": ("Python code sample", "code.txt"),
}
CORPUS_CHOICES = list(BUILTIN_CORPORA) + ["paste", "upload"]
CORPUS_LABELS = {**{k: v[0] for k, v in BUILTIN_CORPORA.items()}, "paste": "Pasted text",
                 "upload": f"Uploaded file (up to {MAX_CORPUS_BYTES // 2**20} MB)"}

HELD_OUT = {
    "classic": "hug bug mug thug hugs unhug pugs puns",
    "english": "The students hugged their teachers before the library opened.",
    "multilingual": "Die Studenten lesen gern. Les étudiants lisent volontiers.",
    "code": "def total(items: list[int]) -> int:\n    return sum(items)",
}
DEFAULT_HELD_OUT = "The pilot hugged the puppy."


@dataclass(frozen=True)
class Corpus:
    """Lines of text, or (``counts``) a mapping word -> count whose keys are pre-tokenized by the page's choice."""

    key: str
    label: str
    lines: tuple = ()
    counts: Optional[dict] = field(default=None, compare=False)

    @property
    def is_counts(self) -> bool:
        return self.counts is not None

    @property
    def builtin_name(self) -> str:
        """The built-in corpus's name, ``""`` for pasted or uploaded text."""
        return self.key.split(":")[1] if self.key.startswith("builtin:") else ""

    def summary(self) -> str:
        if self.counts is not None:
            return f"{len(self.counts)} distinct words, {sum(self.counts.values())} in all"
        chars = sum(len(x) for x in self.lines)
        return f"{len(self.lines)} lines, {chars} characters"


def builtin_corpus(name: str, directory: Path = CORPUS_DIR) -> Corpus:
    """A built-in corpus. ``builtin_corpus("classic").counts["pun"] == 12``."""
    if name not in BUILTIN_CORPORA:
        raise ValueError(f"unknown corpus {name!r}; choose one of {', '.join(BUILTIN_CORPORA)}")
    label, file = BUILTIN_CORPORA[name]
    path = directory / file
    stat = path.stat()
    key = f"builtin:{name}:{stat.st_size}:{stat.st_mtime_ns}"
    if path.suffix == ".json":
        return Corpus(key, label, counts=_counts_from_json(json.loads(path.read_text(encoding="utf-8")), file))
    return Corpus(key, label, lines=tuple(path.read_text(encoding="utf-8").splitlines()))


def _counts_from_json(data: Any, name: str) -> dict[str, int]:
    words = data.get("words", data) if isinstance(data, dict) else None
    if not isinstance(words, dict) or not all(isinstance(w, str) and isinstance(c, int) and c >= 0
                                              for w, c in words.items()):
        raise ValueError(f"{name}: a JSON corpus must be {{\"words\": {{word: count}}}} with integer counts")
    return dict(words)


def text_corpus(text: str, label: str = "Pasted text") -> Corpus:
    """Pasted text, one training line per line. ``text_corpus("a b").lines == ("a b",)``."""
    if len(text.encode("utf-8")) > MAX_CORPUS_BYTES:
        raise ValueError(f"the text is over {MAX_CORPUS_BYTES // 2**20} MB; paste less or train offline")
    if not text.strip():
        raise ValueError(f"{label}: there is no text (it is empty or only spaces); give it some sentences, "
                         "one per line, or pick a built-in corpus")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return Corpus(f"text:{digest}", label, lines=tuple(text.splitlines()))


def upload_corpus(name: str, data: bytes) -> Corpus:
    """An uploaded ``.txt`` (UTF-8) or ``.json`` word-count file, at most ``MAX_CORPUS_BYTES``."""
    if len(data) > MAX_CORPUS_BYTES:
        raise ValueError(f"{name}: {len(data) / 1e6:.1f} MB is over the {MAX_CORPUS_BYTES // 2**20} MB limit for "
                         "training in the app")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name}: not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x}); save it as UTF-8") from None
    text = text.removeprefix("\ufeff")  # a byte-order mark (Windows editors) is no character of the corpus
    if "\x00" in text:
        raise ValueError(f"{name}: holds NUL characters, so it is binary or UTF-16 rather than UTF-8 text; "
                         "save it as UTF-8 text")
    if name.lower().endswith(".json"):
        try:
            counts = _counts_from_json(json.loads(text), name)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{name}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        except RecursionError:  # json's own limit on nesting: still the file's fault, not a bug
            raise ValueError(f"{name}: the JSON is nested too deeply to read; a corpus is {{\"words\": "
                             "{word: count}}") from None
        return Corpus("upload:" + hashlib.sha256(data).hexdigest()[:16], f"Uploaded: {name}", counts=counts)
    corpus = text_corpus(text, f"Uploaded: {name}")
    return Corpus("upload:" + corpus.key, corpus.label, lines=corpus.lines)


def is_classic(corpus: Corpus) -> bool:
    """Whether ``corpus`` is the course's corpus. ``is_classic(builtin_corpus("classic")) is True``."""
    return corpus.builtin_name == "classic"
