"""The data types of a training run, shared by every module that reads one: what it depends on
(``Settings``), the finished run (``TrainRun``) and the plain string it is cached by (``run_key``).

Kept apart so that readers of a run (tables, Unigram tables, partial tokenizers) import the types
without importing the trainer, and nothing imports back.

Left out: training itself (``tokapp.training.runner``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .corpora import Corpus
from .replay import Replay


@dataclass(frozen=True)
class Settings:
    """What a training run depends on besides the corpus."""

    family: str  # "bpe" | "wordpiece" | "unigram"
    vocab_size: int
    pre_tokenizer: str
    byte_level: bool = False  # BPE only (forces the ByteLevel pre-tokenizer)
    min_frequency: int = 1
    # Unigram only; None keeps the trainer's defaults (a smaller seed and a gentler shrink give more rounds)
    seed_size: Optional[int] = None
    shrinking_factor: Optional[float] = None

    def key(self) -> str:
        """``Settings("bpe", 30, "whitespace").key() == "bpe|v30|whitespace|b0|m1"``."""
        base = f"{self.family}|v{self.vocab_size}|{self.pre_tokenizer}|b{int(self.byte_level)}|m{self.min_frequency}"
        if self.seed_size is not None or self.shrinking_factor is not None:
            base += f"|s{self.seed_size}|f{self.shrinking_factor}"
        return base


def run_key(corpus: Corpus, settings: Settings) -> str:
    """The plain string a run is cached by.

    ``run_key(Corpus("k", "l"), Settings("bpe", 30, "whitespace")) == "k||bpe|v30|whitespace|b0|m1"``
    """
    return f"{corpus.key}||{settings.key()}"


@dataclass
class TrainRun:
    """A finished training run and everything its timeline needs."""

    settings: Settings
    result: Any  # tokcore TrainResult
    words: dict  # word -> count, as trained on
    replay: Optional[Replay] = None

    @property
    def tokenizer(self):
        return self.result.tokenizer

    @property
    def steps(self) -> list:
        return self.result.steps
