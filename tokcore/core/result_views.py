"""Converters and exports over ``EncodeResult``: char <-> token <-> word, and batches as JSON, CSV, arrays.

The converters follow HF tokenizers' ``Encoding`` methods (``char_to_token``, ``token_to_chars``,
``word_to_tokens``, ``token_to_word``) with 0-based character positions in the RAW input, read
from ``original_offsets`` (so the result must be built with ``return_offsets=True``).
``position_ids`` count real tokens only: 0..n-1 over tokens with attention 1, and pads get 0.
That is what BERT-style absolute positions and GPT-2's left-padded generation expect; RoBERTa-style
models add their own offset (padding_idx + 1) on top.

Left out: building the results (``tokcore.tokenizer``).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Sequence

from .errors import ConfigurationError
from .offsets import char_span_in_table, char_to_byte_table, has_nonempty_span


def _require_offsets(result) -> None:
    if result.original_offsets is None:
        raise ConfigurationError("this converter needs spans: encode with return_offsets=True")


def _raw(result, sequence_index: int) -> str:
    if sequence_index not in (0, 1):
        raise ConfigurationError(f"sequence_index must be 0 or 1, got {sequence_index!r}")
    return result.raw_text if sequence_index == 0 else (result.raw_text_pair or "")


def _seq(result, i: int) -> int:
    s = result.sequence_ids[i] if i < len(result.sequence_ids) else None
    return 0 if s is None else s


def _char_table(result, sequence_index: int) -> list[int]:
    """The byte where each character of a raw text starts (and its end), made on the first
    conversion and kept by the result: a loop over every token of a long text then bisects it,
    instead of walking the text once per token."""
    key = "_char_table" if sequence_index == 0 else "_char_table_pair"
    table = result.__dict__.get(key)
    if table is None:
        table = result.__dict__.setdefault(key, char_to_byte_table(_raw(result, sequence_index)))
    return table


def token_to_chars(result, token_index: int) -> tuple[int, int] | None:
    """0-based character span of a token in its raw text, or ``None`` for tokens without a span."""
    _require_offsets(result)
    o = result.original_offsets[token_index]
    if not has_nonempty_span(o):
        return None
    return char_span_in_table(_char_table(result, _seq(result, token_index)), o)


def char_to_token(result, char_index: int, *, sequence_index: int = 0) -> int | None:
    """Index of the token covering raw character ``char_index`` of sequence ``sequence_index``, or ``None``."""
    _require_offsets(result)
    text = _raw(result, sequence_index)
    if not 0 <= char_index < len(text):
        return None
    # The character's bytes: a token covers it when its byte span (widened to whole characters,
    # as token_to_chars gives it) meets them.
    table = _char_table(result, sequence_index)
    first, after = table[char_index], table[char_index + 1]
    for i, o in enumerate(result.original_offsets):
        if _seq(result, i) != sequence_index or not has_nonempty_span(o):
            continue
        if o[0] - 1 < after and o[1] - 1 > first:
            return i
    return None


def token_to_word(result, token_index: int) -> int | None:
    """The word index of a token (``None`` for inserted tokens and pads)."""
    return result.word_ids[token_index]


def word_to_tokens(result, word_index: int, *, sequence_index: int = 0) -> tuple[int, int] | None:
    """Half-open token range ``[start, stop)`` of a word, or ``None`` when no token has that word."""
    hits = [i for i, w in enumerate(result.word_ids) if w == word_index and _seq(result, i) == sequence_index]
    return (hits[0], hits[-1] + 1) if hits else None


def position_ids(result) -> list[int]:
    """0..n-1 over real tokens (attention 1); pads get 0. ``[0, 1, 0]`` for ``[a, b, <pad>]``."""
    mask = result.attention_mask or [1] * len(result.ids)
    out, pos = [], 0
    for m in mask:
        out.append(pos if m else 0)
        pos += 1 if m else 0
    return out


# ------------------------------------------------------------------------------------ exports
FIELDS = ("ids", "tokens", "attention_mask", "token_type_ids", "special_tokens_mask", "word_ids", "sequence_ids")


def batch_to_arrays(results: Sequence) -> dict[str, list[list]]:
    """Field -> list of per-text lists, ready for ``numpy.asarray`` when the batch is padded to one length.

    Masks that were not requested are left out; ``None`` word/sequence ids become -1 so arrays stay numeric.
    """
    out: dict[str, list[list]] = {}
    for name in FIELDS:
        rows = [getattr(r, name) for r in results]
        if any(row is None for row in rows):
            continue
        if name in ("word_ids", "sequence_ids"):
            rows = [[-1 if v is None else v for v in row] for row in rows]
        out[name] = [list(row) for row in rows]
    out["position_ids"] = [position_ids(r) for r in results]
    return out


def batch_to_json(results: Sequence, *, indent: int | None = None) -> str:
    """The whole batch as JSON: one object per text (offsets as [start, stop] lists)."""
    return json.dumps([dict(r.to_dict(), position_ids=position_ids(r)) for r in results], ensure_ascii=False, indent=indent)


def batch_to_csv(results: Sequence) -> str:
    """One row per token: text index, token index, id, token, offsets, original offsets, masks and ids."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["text", "index", "id", "token", "start", "stop", "raw_start", "raw_stop", "attention_mask",
                     "special_tokens_mask", "token_type_id", "word_id", "sequence_id", "position_id"])
    for t, r in enumerate(results):
        pos = position_ids(r)
        for i, (id_, tok) in enumerate(zip(r.ids, r.tokens)):
            o = r.offsets[i] if r.offsets is not None else ("", "")
            raw = r.original_offsets[i] if r.original_offsets is not None else ("", "")
            writer.writerow([
                t, i, id_, tok, o[0], o[1], raw[0], raw[1],
                "" if r.attention_mask is None else r.attention_mask[i],
                "" if r.special_tokens_mask is None else r.special_tokens_mask[i],
                "" if r.token_type_ids is None else r.token_type_ids[i],
                "" if r.word_ids[i] is None else r.word_ids[i],
                "" if r.sequence_ids[i] is None else r.sequence_ids[i],
                pos[i],
            ])
    return buf.getvalue()
