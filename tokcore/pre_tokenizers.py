"""Pre-tokenizers: split the tokenization text into pieces the model sees, keeping exact byte bounds.

Each class is named after HF tokenizers' pre-tokenizer of the same ``"type"``; the inspector
``pre_tokenize_str`` returns ``[(piece, (start, stop))]`` with 0-based character offsets as HF.

Left out: normalization (done before) and the model.
"""

from __future__ import annotations

from .components import Piece, PreTokenizer, build, register


@register("pre_tokenizer")
class Sequence(PreTokenizer):
    """Apply pre-tokenizers in order, each on the pieces of the previous one."""

    def __init__(self, pretokenizers):
        self.pretokenizers = list(pretokenizers)

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        for p in self.pretokenizers:
            pieces = p.pre_tokenize(pieces)
        return pieces

    def split_piece(self, piece: Piece) -> list[Piece]:
        return self.pre_tokenize([piece])

    def to_dict(self) -> dict:
        return {"type": "Sequence", "pretokenizers": [p.to_dict() for p in self.pretokenizers]}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        items = data["pretokenizers"]
        if not isinstance(items, list):
            raise TypeError("'pretokenizers' must be a list")
        return cls([build("pre_tokenizer", d, source=source, where=f"{where}.pretokenizers[{i}]") for i, d in enumerate(items)])


@register("pre_tokenizer")
class WhitespaceSplit(PreTokenizer):
    """Split on whitespace, dropping it. ``WhitespaceSplit().pre_tokenize_str("a  b") == [("a", (0, 1)), ("b", (3, 4))]``."""

    def split_piece(self, piece: Piece) -> list[Piece]:
        text = piece.text
        out = []
        start = None
        for i, ch in enumerate(text):
            if ch.isspace():
                if start is not None:
                    out.append(piece.sub(start, i))
                    start = None
            elif start is None:
                start = i
        if start is not None:
            out.append(piece.sub(start, len(text)))
        return out
