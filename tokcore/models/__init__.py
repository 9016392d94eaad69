"""Models: map one pre-tokenized piece to tokens. One module per algorithm."""

from .bpe import BPE
from .byte_model import ByteModel
from .char_level import CharLevel
from .unigram import Unigram
from .word_level import WordLevel
from .wordpiece import WordPiece

__all__ = ["BPE", "ByteModel", "CharLevel", "Unigram", "WordLevel", "WordPiece"]
