"""Models: map one pre-tokenized piece to tokens. One module per algorithm."""

from .char_level import CharLevel

__all__ = ["CharLevel"]
