"""Truncation and padding with HF tokenizers' rules, settings kept in ``tokenizer.json``'s shape.

Settings dicts look exactly like the ``truncation`` and ``padding`` sections of an HF
``tokenizer.json``, so loaded files round-trip. Truncation happens before the post-processor
(leaving room for the special tokens it adds), padding after it.

Left out: encoding itself, and the per-family choice of position ids (see ``EncodeResult``).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from .encoding import Encoding
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
    """The truncation to apply: the tokenizer's own unless the call overrides or disables it."""
    if truncation is False:
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
    elif own is None or truncation is True or strategy != "longest_first":
        base["strategy"] = strategy
    if side is not None:
        base["direction"] = side
    if base.get("max_length") is None:
        raise ConfigurationError("truncation needs max_length: pass max_length=N (or truncation=False)")
    return check_truncation_settings(base)


def resolve_padding(own, padding, max_length, multiple, side, tokenizer) -> dict | None:
    """The padding to apply: the tokenizer's own unless the call overrides or disables it."""
    if padding is False:
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
            "pad_id": tokenizer.token_to_id(pad_token) or 0 if pad_token else 0,
            "pad_type_id": 0,
            "pad_token": pad_token or "[PAD]",
        }
    if padding is True or padding == "longest":
        base["strategy"] = "BatchLongest"
    elif padding == "max_length":
        if max_length is None:
            raise ConfigurationError("padding='max_length' needs max_length=N")
        base["strategy"] = {"Fixed": max_length}
    elif isinstance(padding, dict):
        base.update(padding)
    elif padding is not None:
        raise ConfigurationError(f"padding must be None, True, False, 'longest', 'max_length' or a dict, got {padding!r}")
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
    """Keep ``max_len`` tokens, moving the rest into ``enc.overflowing`` windows that overlap by ``stride``."""
    n = len(enc)
    if max_len >= n:
        return
    if max_len == 0:
        whole = enc.slice(0, n)
        _clear(enc)
        enc.overflowing = [whole]
        return
    if stride >= max_len:
        raise ConfigurationError(
            f"stride ({stride}) must be smaller than the room left for tokens ({max_len}); "
            "lower stride or raise max_length (the special tokens take part of max_length)"
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
    first = windows[0]
    _replace(enc, first)
    enc.overflowing = windows[1:]


def _clear(enc: Encoding) -> None:
    _replace(enc, Encoding())


def _replace(enc: Encoding, other: Encoding) -> None:
    for name in ("ids", "tokens", "spans", "special", "type_ids", "word_ids", "sequence_ids", "attention"):
        setattr(enc, name, getattr(other, name))


def truncate_pair(a: Encoding, b: Optional[Encoding], params: dict) -> None:
    """HF's ``truncate_encodings``: cut ``a`` (and ``b``) down to ``params['max_length']`` tokens in all."""
    max_length, stride, direction, strategy = params["max_length"], params["stride"], params["direction"], params["strategy"]
    total = len(a) + (len(b) if b is not None else 0)
    if total <= max_length:
        return
    to_remove = total - max_length
    if strategy == "LongestFirst":
        if b is None:
            truncate_encoding(a, total - to_remove, stride, direction)
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
            f"the {which} sequence has {len(target)} tokens, too few to remove {to_remove}; "
            "use truncation_strategy='longest_first' or a larger max_length"
        )


def truncate_and_process(
    a: Encoding,
    b: Optional[Encoding],
    params: dict | None,
    n_added: int,
    post_process: Callable[[Encoding, Optional[Encoding], bool], Encoding],
    add_special_tokens: bool,
) -> Encoding:
    """Truncate (leaving room for ``n_added`` specials), then post-process every window combination as HF does."""
    if params is not None:
        room = params["max_length"] - n_added if add_special_tokens and n_added else params["max_length"]
        if room < 0:
            raise ConfigurationError(
                f"max_length {params['max_length']} leaves no room: the post-processor adds {n_added} special tokens"
            )
        truncate_pair(a, b, dict(params, max_length=room))
    a_over, a.overflowing = a.overflowing, []
    b_over = []
    if b is not None:
        b_over, b.overflowing = b.overflowing, []
    final = post_process(a, b, add_special_tokens)
    overflowing = []
    for ao in a_over:
        overflowing.append(post_process(ao.slice(0, len(ao)), b.slice(0, len(b)) if b is not None else None, add_special_tokens))
        for bo in b_over:
            overflowing.append(post_process(ao.slice(0, len(ao)), bo.slice(0, len(bo)), add_special_tokens))
    for bo in b_over:
        overflowing.append(post_process(a.slice(0, len(a)), bo.slice(0, len(bo)), add_special_tokens))
    final.overflowing = overflowing
    return final


# ------------------------------------------------------------------------------------------
# Padding


def pad_encoding(enc: Encoding, length: int, params: dict) -> None:
    """Pad ``enc`` and its overflowing windows to ``length`` tokens with ``attention`` 0 and sentinel spans."""
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
        _replace(enc, pad)


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
