"""Decoders: tokens back to text, apart from the encode pipeline.

- ``standard``: HF's decoders (ByteLevel, WordPiece, Metaspace, BPEDecoder, ByteFallback, Fuse, Strip,
  Replace, CTC, Sequence); ``decode_chain`` exposes the per-token step as HF's does.
- ``bytes``: ``ByteDecoder`` for the ByT5-style byte model (tokcore-only).
- ``sentencepiece``: ``SentencePieceDecoder``, sentencepiece's own ``Decode`` for ``.model`` files.

Left out: choosing which ids to decode (``Tokenizer.decode``'s ``skip_special_tokens``).
"""

from .bytes import ByteDecoder
from .sentencepiece import SentencePieceDecoder
from .standard import CTC, BPEDecoder, ByteFallback, ByteLevel, Fuse, Metaspace, Replace, Sequence, Strip, WordPiece

__all__ = ["BPEDecoder", "ByteDecoder", "ByteFallback", "ByteLevel", "CTC", "Fuse", "Metaspace", "Replace", "Sequence",
           "SentencePieceDecoder", "Strip", "WordPiece"]
