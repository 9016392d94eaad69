"""Ready-made tokenizers built from the stages: ``CharTokenizer`` (ASCII characters), ``byte_tokenizer`` (ByT5)
and ``TiktokenTokenizer`` (a ``.tiktoken`` encoding, taking text as tiktoken does).

Left out: trained and loaded tokenizers (``tokcore.trainers``, ``tokcore.loaders``).
"""

from .byte_tokenizer import byte_tokenizer
from .char_tokenizer import CharTokenizer
from .tiktoken_tokenizer import TiktokenTokenizer

__all__ = ["CharTokenizer", "TiktokenTokenizer", "byte_tokenizer"]
