"""Decoders: tokens -> text, with HF tokenizers' ``"type"`` tags and per-token ``decode_chain``.

Left out: id lookup and skipping special tokens (``Tokenizer.decode`` does those).
"""

from __future__ import annotations

from .components import Decoder, build, register


@register("decoder")
class Sequence(Decoder):
    """Run decoders in order on the token list. ``Sequence([Fuse()]).decode(["a", "b"]) == "ab"``."""

    def __init__(self, decoders):
        self.decoders = list(decoders)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        for d in self.decoders:
            tokens = d.decode_chain(tokens)
        return tokens

    def to_dict(self) -> dict:
        return {"type": "Sequence", "decoders": [d.to_dict() for d in self.decoders]}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        items = data["decoders"]
        if not isinstance(items, list):
            raise TypeError("'decoders' must be a list")
        return cls([build("decoder", d, source=source, where=f"{where}.decoders[{i}]") for i, d in enumerate(items)])


@register("decoder")
class Fuse(Decoder):
    """Join all tokens into one. ``Fuse().decode_chain(["a", "b"]) == ["ab"]``."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]


@register("decoder")
class Replace(Decoder):
    """Replace a literal string in every token. ``Replace("▁", " ").decode_chain(["▁a"]) == [" a"]``."""

    def __init__(self, pattern: str, content: str):
        self.pattern = pattern
        self.content = content

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return [t.replace(self.pattern, self.content) for t in tokens]

    def to_dict(self) -> dict:
        return {"type": "Replace", "pattern": {"String": self.pattern}, "content": self.content}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        pattern = data["pattern"]
        if isinstance(pattern, dict):
            if "String" not in pattern:
                raise ValueError("the Replace decoder supports only {'String': ...} patterns")
            pattern = pattern["String"]
        return cls(str(pattern), str(data["content"]))
