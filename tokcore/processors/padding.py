"""Padding with HF tokenizers' rules: after the post-processor, windows first, on either side.

Left out: the settings (``tokcore.processors.settings``) and truncation (``tokcore.processors.truncation``).
"""

from __future__ import annotations

from ..core.encoding import Encoding
from .merge import finalize_sequence_ids, shift_ranges


def pad_encoding(enc: Encoding, length: int, params: dict) -> None:
    """HF's ``Encoding::pad``: windows first, then ``enc`` up to ``length`` tokens.

    Pads get attention 0, special mask 1, span ``None`` (the sentinel), no word; their sequence
    id is what HF's ranges say (``None``, or 0 for an encoding without ranges).
    """
    for o in enc.overflowing:
        pad_encoding(o, length, params)
    missing = length - len(enc)
    if missing <= 0:
        return
    pad = Encoding(
        ids=[params["pad_id"]] * missing,
        tokens=[params["pad_token"]] * missing,
        spans=[None] * missing,
        special=[1] * missing,
        type_ids=[params["pad_type_id"]] * missing,
        word_ids=[None] * missing,
        sequence_ids=[None] * missing,
        attention=[0] * missing,
    )
    if params["direction"] == "Right":
        enc.extend(pad)
    else:
        pad.extend(enc)
        for name in ("ids", "tokens", "spans", "special", "type_ids", "word_ids", "sequence_ids", "attention"):
            setattr(enc, name, getattr(pad, name))
        shift_ranges(enc, missing)
    finalize_sequence_ids(enc)


def pad_encodings(encodings: list[Encoding], params: dict | None) -> None:
    """HF's ``pad_encodings``: to a fixed length or the batch's longest, rounded up to ``pad_to_multiple_of``."""
    if params is None or not encodings:
        return
    strategy = params["strategy"]
    length = strategy["Fixed"] if isinstance(strategy, dict) else max(len(e) for e in encodings)
    multiple = params.get("pad_to_multiple_of")
    if multiple and length % multiple:
        length += multiple - length % multiple
    for enc in encodings:
        pad_encoding(enc, length, params)
