"""Default settings per training page and corpus, chosen so every built-in corpus shows a timeline.

A merge-based vocabulary must hold the corpus alphabet (and ``[UNK]``) before its first merge, so the
default size is computed from the corpus: ``base_vocab`` plus ``DEFAULT_MERGES``. Unigram's defaults
(target, shrinking factor) are picked per built-in corpus so a class sees several EM + pruning rounds.

Left out: the widgets (``tokapp.st_training``) and training (``tokapp.training.runner``).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from tokcore.trainers.wordpiece import initial_split

from .corpora import Corpus
from .words import word_counts

DEFAULT_MERGES = 60  # merges a default run shows on a corpus other than the classic one
BYTE_ALPHABET = 256
# The classic corpus keeps the course's sizes (its alphabet is 7 letters).
CLASSIC_VOCAB = {"bpe": 30, "wordpiece": 100}
MERGE_PRE_TOKENIZER = {"bpe": "whitespace", "wordpiece": "whitespace"}


@dataclass(frozen=True)
class UnigramDefaults:
    """Target size, pre-tokenizer and shrinking factor that give several pruning rounds on one corpus."""

    vocab_size: int
    pre_tokenizer: str
    shrinking_factor: float
    seed_size: int = 1000  # at most this many seed pieces (the built-in corpora have fewer than 1000 candidates)


UNIGRAM_DEFAULTS = {
    "classic": UnigramDefaults(8, "whitespace", 0.9),  # the course's bare words: 19 seed pieces -> 3 rounds
    "english": UnigramDefaults(100, "metaspace", 0.8),
    "multilingual": UnigramDefaults(240, "metaspace", 0.9),  # 223 characters: the target must stay above them
    "code": UnigramDefaults(100, "metaspace", 0.85),
}
UNIGRAM_FALLBACK = UnigramDefaults(200, "metaspace", 0.8)


def base_vocab(family: str, words: dict[str, int], *, byte_level: bool = False) -> int:
    """Tokens a merge-based vocabulary holds before its first merge: the alphabet (WordPiece: with ``##``
    variants) plus ``[UNK]`` (byte-level BPE: the 256 bytes, no ``[UNK]``).

    ``base_vocab("bpe", {"hug": 1, "pug": 1}) == 5``
    """
    if family == "bpe":
        return BYTE_ALPHABET if byte_level else len({ch for w in words for ch in w}) + 1
    if family == "wordpiece":
        return len({piece for w in words for piece in initial_split(w)}) + 1
    raise ValueError(f"only merge-based families have a base vocabulary, not {family!r}")


def default_vocab(family: str, corpus: Corpus, *, byte_level: bool = False, pre_tokenizer: str | None = None) -> int:
    """The page's starting vocabulary size for ``corpus``: the course's size on the classic corpus, else
    the base vocabulary plus ``DEFAULT_MERGES``, rounded up to a multiple of 10."""
    words = word_counts(corpus, "byte_level" if byte_level else (pre_tokenizer or MERGE_PRE_TOKENIZER[family]))
    base = base_vocab(family, words, byte_level=byte_level)
    if corpus.builtin_name == "classic" and not byte_level and CLASSIC_VOCAB[family] > base:
        return CLASSIC_VOCAB[family]
    return int(math.ceil((base + DEFAULT_MERGES) / 10) * 10)


def unigram_defaults(corpus_name: str) -> UnigramDefaults:
    """Unigram's defaults for a built-in corpus (``""`` for pasted or uploaded text: the fallback).

    ``unigram_defaults("classic").vocab_size == 8``
    """
    return UNIGRAM_DEFAULTS.get(corpus_name, UNIGRAM_FALLBACK)


def unigram_floor(words: dict[str, int]) -> int:
    """The smallest Unigram vocabulary for ``words``: the trainer keeps every character, plus ``[UNK]``.

    ``unigram_floor({"▁hug": 3, "▁pug": 1}) == 6``
    """
    return len({ch for w in words for ch in w}) + 1


def unigram_defaults_for(corpus: Corpus) -> UnigramDefaults:
    """The Unigram page's starting settings for ``corpus``: a built-in corpus's own, else the fallback, raised
    above this corpus's alphabet (a many-script upload has more characters than the fallback size) with a seed
    large enough for several pruning rounds."""
    chosen = unigram_defaults(corpus.builtin_name)
    if corpus.builtin_name:
        return chosen
    floor = unigram_floor(word_counts(corpus, chosen.pre_tokenizer))
    if chosen.vocab_size >= floor + DEFAULT_MERGES // 2:
        return chosen
    vocab = int(math.ceil((floor + DEFAULT_MERGES) / 10) * 10)
    return dataclasses.replace(chosen, vocab_size=vocab, seed_size=max(chosen.seed_size, 4 * vocab))
