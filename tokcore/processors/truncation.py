"""Truncation with HF tokenizers' rules: before the post-processor, leaving room for the tokens it adds.

What does not fit goes to overflowing windows (with ``stride`` tokens of overlap), which are
post-processed like the main encoding.

Left out: the settings (``tokcore.processors.settings``), padding (``tokcore.processors.padding``),
encoding itself, and the per-family choice of position ids (see ``EncodeResult``).
"""

from __future__ import annotations

from typing import Callable, Optional

from ..core.encoding import Encoding
from ..core.errors import ConfigurationError

# ------------------------------------------------------------------------------------------
# Truncation


def truncate_encoding(enc: Encoding, max_len: int, stride: int, direction: str) -> None:
    """HF's ``Encoding::truncate``: keep ``max_len`` tokens; the rest go to ``enc.overflowing``.

    Windows of ``max_len`` tokens overlap by ``stride``; ``direction="Left"`` keeps the end and
    walks backwards. With 5 tokens, ``max_len=2``, ``stride=1``, right: kept 0..2, windows
    1..3, 2..4, 3..5.
    """
    n = len(enc)
    if max_len >= n:
        return
    if max_len == 0:
        whole = enc.slice(0, n)
        whole.overflowing = enc.overflowing
        _replace(enc, Encoding())
        enc.overflowing = [whole]
        return
    if stride >= max_len:
        raise ConfigurationError(
            f"stride ({stride}) must be smaller than the tokens a window keeps ({max_len}); "
            "lower stride or raise max_length (special tokens and the other sequence of a pair use part of max_length)"
        )
    step = max_len - stride
    ranges = []
    if direction == "Right":
        for start in range(0, n, step):
            stop = min(start + max_len, n)
            ranges.append((start, stop))
            if stop == n:
                break
    else:
        for last in range(n - 1, -1, -step):
            stop = last + 1
            start = max(0, stop - max_len)
            ranges.append((start, stop))
            if start == 0:
                break
    windows = [enc.slice(a, b) for a, b in ranges]
    _replace(enc, windows[0])
    enc.overflowing = windows[1:]


def _replace(enc: Encoding, other: Encoding) -> None:
    for name in ("ids", "tokens", "spans", "special", "type_ids", "word_ids", "sequence_ids", "attention"):
        setattr(enc, name, getattr(other, name))
    enc.__dict__.pop("hf_ranges", None)  # HF drops the sequence ranges when it truncates


def truncate_pair(a: Encoding, b: Optional[Encoding], params: dict) -> None:
    """HF's ``truncate_encodings``: cut ``a`` (and ``b``) down to ``params['max_length']`` tokens in all."""
    max_length, stride, direction, strategy = params["max_length"], params["stride"], params["direction"], params["strategy"]
    if max_length == 0:
        # HF empties both sequences whatever the strategy.
        truncate_encoding(a, 0, stride, direction)
        if b is not None:
            truncate_encoding(b, 0, stride, direction)
        return
    total = len(a) + (len(b) if b is not None else 0)
    if total <= max_length:
        return
    to_remove = total - max_length
    if strategy == "LongestFirst":
        if b is None:
            truncate_encoding(a, max_length, stride, direction)
            return
        n1, n2 = len(a), len(b)
        swap = n1 > n2
        if swap:
            n1, n2 = n2, n1
        n2 = n1 if n1 > max_length else max(n1, max_length - n1)
        if n1 + n2 > max_length:
            n1 = max_length // 2
            n2 = n1 + max_length % 2
        if swap:
            n1, n2 = n2, n1
        truncate_encoding(a, n1, stride, direction)
        truncate_encoding(b, n2, stride, direction)
        return
    if strategy == "OnlySecond" and b is None:
        raise ConfigurationError("truncation strategy 'only_second' needs a text_pair; use 'longest_first' or 'only_first'")
    target = a if strategy == "OnlyFirst" else b
    if len(target) > to_remove:
        truncate_encoding(target, len(target) - to_remove, stride, direction)
    else:
        which = "first" if strategy == "OnlyFirst" else "second"
        raise ConfigurationError(
            f"the {which} sequence has {len(target)} tokens, too few to remove {to_remove} and fit max_length "
            f"{max_length}; use truncation_strategy='longest_first' or a larger max_length"
        )


def truncate_and_process(
    a: Encoding,
    b: Optional[Encoding],
    params: dict | None,
    n_added: int,
    post_process: Callable[[Encoding, Optional[Encoding], bool], Encoding],
    add_special_tokens: bool,
    *,
    n_added_single: int | None = None,
) -> Encoding:
    """HF's ``post_process`` minus padding: truncate (leaving room for ``n_added`` specials), then
    post-process; the processor combines the overflowing windows of both sequences as HF does.

    ``n_added_single`` (what the processor adds to one sequence) enables HF's up-front stride
    check; without it a single sequence is checked with ``n_added``.
    """
    if b is not None:
        # HF encodes the second sequence with type id 1; windows the processor leaves alone keep it.
        b.type_ids = [1] * len(b)
    if params is not None:
        max_length, stride = params["max_length"], params["stride"]
        single = n_added_single if n_added_single is not None else (n_added if b is None else None)
        if single is not None and max_length >= single and stride > max_length - single:
            # HF refuses these settings whatever the text (when max_length < single it wraps and skips truncation).
            raise ConfigurationError(
                f"stride {stride} is larger than the {max_length - single} tokens max_length {max_length} leaves "
                f"after {single} special tokens; lower stride or raise max_length"
            )
        room = max_length - n_added if add_special_tokens and n_added else max_length
        if room < 0:
            raise ConfigurationError(
                f"max_length {max_length} is smaller than the {n_added} special tokens the post-processor "
                f"adds; use max_length >= {n_added} (HF silently skips truncation here)"
            )
        truncate_pair(a, b, dict(params, max_length=room))
    return post_process(a, b, add_special_tokens)


# ------------------------------------------------------------------------------------------
# Padding


