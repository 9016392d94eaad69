"""Normalizers: text -> text with a character alignment to the input, so offsets stay exact.

- ``standard``: HF's normalizers (NFC/NFD/NFKC/NFKD, Lowercase, StripAccents, Replace, Prepend, Strip,
  BertNormalizer, Nmt, ByteLevel, Sequence) and tokcore's ``AsciiPolicy``.
- ``precompiled``: sentencepiece's compiled charsmap (``Precompiled``).
- ``sentencepiece``: sentencepiece's whitespace rules (``SentencePieceWhitespace``, tokcore-only).
- ``lexical``: ``LexicalNormalizer`` (tokcore-only), the stage form of ``tokcore.extras.lexnorm``.
- ``unicode_pieces``: Unicode normalization piece by piece, the alignment kept.

Left out: splitting into pieces (``tokcore.pre_tokenizers``).
"""

from .lexical import LexicalNormalizer
from .precompiled import Precompiled
from .sentencepiece import SentencePieceWhitespace
from .standard import (
    NFC,
    NFD,
    NFKC,
    NFKD,
    AsciiPolicy,
    BertNormalizer,
    ByteLevel,
    Lowercase,
    Nmt,
    Prepend,
    Replace,
    Sequence,
    Strip,
    StripAccents,
)

__all__ = [
    "NFC", "NFD", "NFKC", "NFKD", "AsciiPolicy", "BertNormalizer", "ByteLevel", "LexicalNormalizer", "Lowercase",
    "Nmt", "Precompiled", "Prepend", "Replace", "SentencePieceWhitespace", "Sequence", "Strip", "StripAccents",
]  # fmt: skip
