"""Trainers: learn a vocabulary from a corpus and return the steps as data (nothing prints).

One module per family; each returns a ``TrainResult(tokenizer, steps)``.

Left out: the models the trained vocabularies feed (``tokcore.models``) and any drawing of the
steps (the app's ``tokapp.training``).
"""

from .base import TrainResult, count_words
from .bpe import BpeStep, train_bpe
from .char import CharStep, train_char
from .unigram import UnigramStep, train_unigram
from .unigram_loss import unigram_loss, unigram_removal_losses
from .wordpiece import WordPieceStep, train_wordpiece

__all__ = [
    "BpeStep",
    "CharStep",
    "TrainResult",
    "UnigramStep",
    "WordPieceStep",
    "count_words",
    "train_bpe",
    "train_char",
    "train_unigram",
    "train_wordpiece",
    "unigram_loss",
    "unigram_removal_losses",
]
