"""Truncation and padding with HF tokenizers' rules, settings kept in ``tokenizer.json``'s shape.

Settings dicts look exactly like the ``truncation`` and ``padding`` sections of an HF
``tokenizer.json``, so loaded files round-trip. Truncation happens before the post-processor
(leaving room for the special tokens it adds), padding after it.

Left out: encoding itself, and the per-family choice of position ids (see ``EncodeResult``).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from .encoding import Encoding
from .encoding_merge import finalize_sequence_ids, shift_ranges
from .errors import ConfigurationError

STRATEGIES = {"longest_first": "LongestFirst", "only_first": "OnlyFirst", "only_second": "OnlySecond"}
DIRECTIONS = {"right": "Right", "left": "Left"}


def _norm_choice(value: str, table: dict[str, str], what: str) -> str:
    if isinstance(value, str):
        if value in table.values():
            return value
        key = value.lower()
        if key in table:
            return table[key]
    raise ConfigurationError(f"unknown {what} {value!r}; use one of {', '.join(table)}")


def _check_int(value: Any, what: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigurationError(f"{what} must be an integer, got {value!r}")
    if value < minimum:
        raise ConfigurationError(f"{what} must be at least {minimum}, got {value}")
    return value


def check_truncation_settings(settings: dict | None) -> dict | None:
    """Validate an HF-style truncation dict (or ``None``) and fill its defaults."""
    if settings is None:
        return None
    if not isinstance(settings, dict):
        raise ConfigurationError("truncation settings must be a dict like tokenizer.json's 'truncation' section")
    out = {
        "direction": _norm_choice(settings.get("direction", "Right"), DIRECTIONS, "truncation direction"),
        "max_length": _check_int(settings.get("max_length", 512), "truncation max_length"),
        "strategy": _norm_choice(settings.get("strategy", "LongestFirst"), STRATEGIES, "truncation strategy"),
        "stride": _check_int(settings.get("stride", 0), "truncation stride"),
    }
    return out


def check_padding_settings(settings: dict | None) -> dict | None:
    """Validate an HF-style padding dict (or ``None``) and fill its defaults."""
    if settings is None:
        return None
    if not isinstance(settings, dict):
        raise ConfigurationError("padding settings must be a dict like tokenizer.json's 'padding' section")
    strategy = settings.get("strategy", "BatchLongest")
    if isinstance(strategy, dict):
        if set(strategy) != {"Fixed"}:
            raise ConfigurationError(f"padding strategy must be 'BatchLongest' or {{'Fixed': n}}, got {strategy!r}")
        strategy = {"Fixed": _check_int(strategy["Fixed"], "padding length")}
    elif strategy != "BatchLongest":
        raise ConfigurationError(f"padding strategy must be 'BatchLongest' or {{'Fixed': n}}, got {strategy!r}")
    multiple = settings.get("pad_to_multiple_of")
    if multiple is not None:
        multiple = _check_int(multiple, "pad_to_multiple_of")
    return {
        "strategy": strategy,
        "direction": _norm_choice(settings.get("direction", "Right"), DIRECTIONS, "padding side"),
        "pad_to_multiple_of": multiple,
        "pad_id": _check_int(settings.get("pad_id", 0), "pad_id"),
        "pad_type_id": _check_int(settings.get("pad_type_id", 0), "pad_type_id"),
        "pad_token": str(settings.get("pad_token", "[PAD]")),
    }


def resolve_truncation(own, truncation, max_length, stride, strategy, side) -> dict | None:
    """The truncation to apply: the tokenizer's own unless the call overrides or disables it.

    ``truncation``: ``None`` (the tokenizer's own, if any), ``False``/``"do_not_truncate"`` (off),
    ``True``, a strategy name, or a dict shaped like ``tokenizer.json``'s section. ``max_length``,
    a non-zero ``stride``, a non-default ``strategy`` and ``side`` override the own settings.
    """
    if truncation is False or truncation == "do_not_truncate":
        return None
    if truncation is None and own is None:
        return None
    if truncation not in (None, True) and not isinstance(truncation, (dict, str)):
        raise ConfigurationError(f"truncation must be None, True, False, a strategy name or a dict, got {truncation!r}")
    base = dict(own) if own is not None else {"direction": "Right", "max_length": None, "strategy": "LongestFirst", "stride": 0}
    if isinstance(truncation, dict):
        base.update(truncation)
    if max_length is not None:
        base["max_length"] = max_length
    if stride:
        base["stride"] = stride
    if isinstance(truncation, str):
        base["strategy"] = truncation
    elif (own is None and not isinstance(truncation, dict)) or strategy != "longest_first":
        base["strategy"] = strategy
    if side is not None:
        base["direction"] = side
    if base.get("max_length") is None:
        raise ConfigurationError("truncation needs max_length: pass max_length=N (or truncation=False)")
    return check_truncation_settings(base)


def resolve_padding(own, padding, max_length, multiple, side, tokenizer) -> dict | None:
    """The padding to apply: the tokenizer's own unless the call overrides or disables it.

    ``padding``: ``None`` (own), ``False``/``"do_not_pad"`` (off), ``True``/``"longest"``,
    ``"max_length"``, or a dict shaped like ``tokenizer.json``'s section. An explicit
    ``max_length`` also sets the length of fixed-length padding (e.g. MiniLM's own 128).
    """
    if padding is False or padding == "do_not_pad":
        return None
    if padding is None and own is None:
        return None
    base = dict(own) if own is not None else None
    if base is None:
        pad_token = _default_pad_token(tokenizer)
        base = {
            "strategy": "BatchLongest",
            "direction": "Right",
            "pad_to_multiple_of": None,
            "pad_id": (tokenizer.token_to_id(pad_token) or 0) if pad_token else 0,
            "pad_type_id": 0,
            "pad_token": pad_token or "[PAD]",
        }
    if padding is True or padding == "longest":
        base["strategy"] = "BatchLongest"
    elif padding == "max_length":
        if max_length is None and not isinstance(base.get("strategy"), dict):
            raise ConfigurationError("padding='max_length' needs max_length=N")
        if max_length is not None:
            base["strategy"] = {"Fixed": max_length}
    elif isinstance(padding, dict):
        base.update(padding)
    elif padding is not None:
        raise ConfigurationError(f"padding must be None, True, False, 'longest', 'max_length' or a dict, got {padding!r}")
    elif max_length is not None and isinstance(base.get("strategy"), dict):
        base["strategy"] = {"Fixed": max_length}
    if multiple is not None:
        base["pad_to_multiple_of"] = multiple
    if side is not None:
        base["direction"] = side
    return check_padding_settings(base)


def _default_pad_token(tokenizer) -> str | None:
    for cand in ("[PAD]", "<pad>", "<PAD>", "<|padding|>"):
        if tokenizer.token_to_id(cand) is not None:
            return cand
    return None


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
