"""Ready-made tokenizers built from the stages: ``CharTokenizer`` (ASCII characters) and ``byte_tokenizer`` (ByT5).

Left out: trained and loaded tokenizers (``tokcore.trainers``, ``tokcore.loaders``).
"""

from .byte_tokenizer import byte_tokenizer
from .char_tokenizer import CharTokenizer

__all__ = ["CharTokenizer", "byte_tokenizer"]
