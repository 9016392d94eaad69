"""After the model: truncation, post-processors (special tokens, pairs, type ids), padding.

In pipeline order: ``truncation`` (before the post-processor, leaving room for what it adds),
``standard`` (TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel, Sequence and
``post_process``), ``padding``; ``settings`` checks and resolves the truncation and padding
options; ``merge`` holds the encoding surgery they share (pairs, windows, byte-level trimming).

Left out: decoding (``tokcore.decoders``).
"""

from .standard import BertProcessing, ByteLevel, RobertaProcessing, Sequence, TemplateProcessing

__all__ = ["BertProcessing", "ByteLevel", "RobertaProcessing", "Sequence", "TemplateProcessing"]
