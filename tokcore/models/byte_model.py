"""A ByT5-style byte tokenizer: one token per UTF-8 byte, after a few special tokens.

Ids follow ByT5: ``<pad>`` 0, ``</s>`` 1, ``<unk>`` 2, then byte ``b`` is id ``b + 3``. Token
strings are readable: printable ASCII bytes are their character (``"a"``), every other byte is
``<0xNN>`` (ByT5 itself names byte ``b`` ``chr(b)``, which shows ``"Ã"`` for 0xC3; ids are the
same either way). A byte of a multi-byte character is reported in the byte-fallback form
``(id, token, c, c + 1, (k, n))`` so the pipeline gives it its exact one-byte span.

``ByteModel`` has no HF counterpart of its own; ``to_hf_dict`` gives an equivalent HF ``BPE``
with ``byte_fallback`` and no merges, which HF tokenizers encodes to the same ids.

Left out: ByT5's 125 ``<extra_id_N>`` sentinels (add them as added tokens if needed).
"""

from __future__ import annotations

from ..core.components import VocabModel, register
from ..core.errors import ConfigurationError

BYT5_SPECIALS = ("<pad>", "</s>", "<unk>")


def byte_token(b: int) -> str:
    """Token string of byte ``b``. ``byte_token(97) == "a"`` and ``byte_token(0xC3) == "<0xC3>"``."""
    return chr(b) if 0x20 <= b <= 0x7E else f"<0x{b:02X}>"


@register("model")
class ByteModel(VocabModel):
    """One token per UTF-8 byte. ``ByteModel().tokenize("hi")`` is ``[(107, "h", 0, 1), (108, "i", 1, 2)]``."""

    def __init__(self, *, special_tokens=BYT5_SPECIALS, unk_token: str | None = "<unk>"):
        specials = list(special_tokens)
        if not all(isinstance(s, str) and s for s in specials) or len(set(specials)) != len(specials):
            raise ConfigurationError("ByteModel special_tokens must be distinct non-empty strings")
        byte_tokens = [byte_token(b) for b in range(256)]
        clash = set(specials) & set(byte_tokens)
        if clash:
            raise ConfigurationError(f"special tokens {sorted(clash)!r} collide with byte tokens; pick other names")
        if unk_token is not None and unk_token not in specials:
            raise ConfigurationError(f"unk_token {unk_token!r} must be one of the special tokens {specials!r}")
        self.special_tokens = specials
        self.unk_token = unk_token
        self.offset = len(specials)
        self.vocab = {s: i for i, s in enumerate(specials)}
        for b, tok in enumerate(byte_tokens):
            self.vocab[tok] = b + self.offset
        self._inverse = {i: t for t, i in self.vocab.items()}
        self._byte_tokens = byte_tokens
        self._chars: dict[str, tuple] = {}  # non-ASCII character -> ((id, token), ...) per byte

    def tokenize(self, text: str):
        off, toks = self.offset, self._byte_tokens
        if text.isascii():
            return [(b + off, toks[b], i, i + 1) for i, b in enumerate(text.encode("ascii"))]
        out = []
        chars = self._chars
        for i, ch in enumerate(text):
            if ch < "\x80":
                b = ord(ch)
                out.append((b + off, toks[b], i, i + 1))
                continue
            parts = chars.get(ch)
            if parts is None:
                # surrogatepass: never crash on a lone surrogate (the pipeline rejects those earlier).
                parts = tuple((b + off, toks[b]) for b in ch.encode("utf-8", "surrogatepass"))
                chars[ch] = parts
            n = len(parts)
            for k, (id_, tok) in enumerate(parts):
                out.append((id_, tok, i, i + 1, (k, n)))
        return out

    def to_dict(self) -> dict:
        return {"type": "ByteModel", "special_tokens": list(self.special_tokens), "unk_token": self.unk_token}

    def to_hf_dict(self) -> dict:
        """HF's equivalent: a ``BPE`` with ``byte_fallback`` whose vocabulary is these tokens, no merges."""
        return {
            "type": "BPE",
            "dropout": None,
            "unk_token": self.unk_token,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": True,
            "ignore_merges": False,
            "vocab": dict(self.vocab),
            "merges": [],
        }

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        specials = data.get("special_tokens", list(BYT5_SPECIALS))
        if not isinstance(specials, list):
            raise ValueError("'special_tokens' must be a list of strings")
        return cls(special_tokens=specials, unk_token=data.get("unk_token", "<unk>"))


