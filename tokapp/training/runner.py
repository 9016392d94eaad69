"""Training a run: corpus -> word counts -> trainer -> ``TrainRun`` with its replayed timeline.

Left out: the data types (``tokapp.training.run_types``), reading a run back (``tables``,
``unigram_tables``, ``partial``) and streamlit (``tokapp.st_training``).
"""

from __future__ import annotations

from typing import Any, Mapping

from tokcore.decoders.standard import ByteLevel as ByteLevelDecoder
from tokcore.text.byte_level import ALPHABET
from tokcore.trainers import train_bpe, train_unigram, train_wordpiece
from tokcore.trainers.wordpiece import initial_split

from .corpora import Corpus
from .replay import replay_merges
from .run_types import Settings, TrainRun
from .words import make_pre_tokenizer, word_counts

UNK = "[UNK]"


def train(corpus: Corpus, settings: Settings, progress=None) -> TrainRun:
    """Train ``settings.family`` on ``corpus``; ``progress(done, total, what)`` is passed to the trainer."""
    pre_name = "byte_level" if settings.byte_level else settings.pre_tokenizer
    words = word_counts(corpus, pre_name)
    if not words:
        raise ValueError("the corpus has no words to train on: paste or pick some text")
    pre = make_pre_tokenizer(pre_name)
    common = dict(min_frequency=settings.min_frequency, pre_tokenizer=pre, progress=progress)
    if settings.family == "bpe":
        extra: dict[str, Any] = {"unk_token": None if settings.byte_level else UNK}
        if settings.byte_level:
            extra["initial_alphabet"] = ALPHABET  # words are already byte characters: no second mapping
        result = train_bpe(words, settings.vocab_size, record_top_pairs=_top_k(words), **extra, **common)
        if settings.byte_level:
            result.tokenizer.decoder = ByteLevelDecoder()
        initial = list
    elif settings.family == "wordpiece":
        result = train_wordpiece(words, settings.vocab_size, special_tokens=[UNK], unk_token=UNK,
                                 top_candidates=_top_k(words), **common)
        initial = initial_split
    elif settings.family == "unigram":
        unigram_extra: dict[str, Any] = {}
        if settings.seed_size is not None:
            unigram_extra["seed_size"] = settings.seed_size
        if settings.shrinking_factor is not None:
            unigram_extra["shrinking_factor"] = settings.shrinking_factor
        result = train_unigram(words, settings.vocab_size, special_tokens=[UNK], unk_token=UNK, **unigram_extra,
                               **common)
        return TrainRun(settings, result, words)
    else:
        raise ValueError(f"unknown family {settings.family!r}")
    merges = [(s.left, s.right, s.merged) for s in result.steps]
    return TrainRun(settings, result, words, replay_merges(words, initial, merges))


def _top_k(words: Mapping[str, int]) -> int:
    """Per-step candidate tables cost time on big corpora: 10 rows up to 20k distinct words, then none."""
    return 10 if len(words) <= 20_000 else 0
