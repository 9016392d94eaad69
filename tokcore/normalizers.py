"""Normalizers: text -> text with a character alignment to the input (see ``tokcore.normalized``).

Each class is named after HF tokenizers' normalizer of the same ``"type"`` and follows its
semantics, plus ``AsciiPolicy`` (tokcore's own: the ASCII character tokenizer's placeholder rule).

Left out: the added-token handling around normalization (``tokcore.tokenizer``).
"""

from __future__ import annotations

from .components import Normalizer, build, register
from .normalized import NormalizedString


@register("normalizer")
class Sequence(Normalizer):
    """Apply normalizers in order. ``Sequence([Lowercase()]).normalize_str("A") == "a"``."""

    def __init__(self, normalizers):
        self.normalizers = list(normalizers)

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        for n in self.normalizers:
            ns = n.normalize(ns)
        return ns

    def to_dict(self) -> dict:
        return {"type": "Sequence", "normalizers": [n.to_dict() for n in self.normalizers]}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        items = data["normalizers"]
        if not isinstance(items, list):
            raise TypeError("'normalizers' must be a list")
        return cls([build("normalizer", d, source=source, where=f"{where}.normalizers[{i}]") for i, d in enumerate(items)])


@register("normalizer")
class Lowercase(Normalizer):
    """Unicode lower-casing, character by character. ``Lowercase().normalize_str("ÀB") == "àb"``."""

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        if ns.normalized.islower() or ns.normalized == ns.normalized.lower():
            return ns
        return ns.map_chars(str.lower)


ASCII_KEEP = frozenset(chr(c) for c in range(32, 127)) | {"\n", "\t"}


@register("normalizer")
class AsciiPolicy(Normalizer):
    """Keep printable ASCII, ``\\n`` and ``\\t``; every other character becomes ``placeholder``.

    ``AsciiPolicy().normalize_str("é\\r!") == "<UNK><UNK>!"``. Each placeholder aligns to the one
    character it replaced, so offsets map back exactly.
    """

    def __init__(self, placeholder: str = "<UNK>"):
        if not isinstance(placeholder, str) or not placeholder:
            raise TypeError("placeholder must be a non-empty string")
        self.placeholder = placeholder

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        text = ns.normalized
        if text.isascii() and text.isprintable():
            return ns
        keep, ph = ASCII_KEEP, self.placeholder
        return ns.map_chars(lambda c: c if c in keep else ph)

    def to_dict(self) -> dict:
        return {"type": "AsciiPolicy", "placeholder": self.placeholder}

    def to_hf_dict(self) -> dict:
        # HF has no such normalizer; a regex Replace gives the same text.
        return {"type": "Replace", "pattern": {"Regex": "[^\\t\\n\\x20-\\x7e]"}, "content": self.placeholder}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(data.get("placeholder", "<UNK>"))
