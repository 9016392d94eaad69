"""Models: map one pre-tokenized piece to tokens. One module per algorithm."""

from .char_level import CharLevel
from .word_level import WordLevel

__all__ = ["CharLevel", "WordLevel"]
