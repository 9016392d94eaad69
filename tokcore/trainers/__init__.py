"""Trainers: learn a vocabulary from a corpus and return the steps as data (nothing prints).

One module per family; each returns a ``TrainResult(tokenizer, steps)``.
"""

from .base import TrainResult, count_words

__all__ = ["TrainResult", "count_words"]
