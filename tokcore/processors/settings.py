"""Truncation and padding settings, in the shape of ``tokenizer.json``'s ``truncation`` and ``padding`` sections.

``check_*`` validate a section as read from a file (so loaded files round-trip); ``resolve_*``
merge a tokenizer's own settings with the options of one call (``truncation=``, ``padding=``,
``max_length=``...) into what the steps below use.

Left out: truncating (``tokcore.processors.truncation``) and padding (``tokcore.processors.padding``).
"""

from __future__ import annotations

from typing import Any

from ..core.errors import ConfigurationError

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
