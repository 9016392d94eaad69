"""``CharLevel``: one token per character, an unknown token for characters outside the vocabulary.

Left out: learning the alphabet from a corpus (``tokcore.trainers``) and the ASCII placeholder
policy (the ``AsciiPolicy`` normalizer does that before the model runs).
"""

from __future__ import annotations

from ..core.components import VocabModel, register
from ..core.errors import ConfigurationError


@register("model")
class CharLevel(VocabModel):
    """Each character is a token. ``CharLevel({"a": 0}).tokenize("a") == [(0, "a", 0, 1)]``."""

    def __init__(self, vocab: dict[str, int], unk_token: str | None = None):
        if not isinstance(vocab, dict):
            raise ConfigurationError("CharLevel vocab must be a dict token -> id")
        self.vocab = dict(vocab)
        self.unk_token = unk_token
        self._unk_id = self.vocab.get(unk_token) if unk_token is not None else None
        if unk_token is not None and self._unk_id is None:
            raise ConfigurationError(f"unk_token {unk_token!r} is not in the vocabulary; add it or drop unk_token")
        self._inverse = {i: t for t, i in self.vocab.items()}
        self._cache: dict[str, tuple] = {}

    def tokenize(self, text: str):
        vocab, unk_id, unk = self.vocab, self._unk_id, self.unk_token
        out = []
        for i, ch in enumerate(text):
            id_ = vocab.get(ch)
            if id_ is not None:
                out.append((id_, ch, i, i + 1))
            elif unk_id is not None:
                out.append((unk_id, unk, i, i + 1))
            else:
                raise ConfigurationError(
                    f"character {ch!r} is not in the vocabulary and the model has no unk_token; "
                    "set unk_token or add the character"
                )
        return out

    def to_dict(self) -> dict:
        return {"type": "CharLevel", "unk_token": self.unk_token, "vocab": dict(self.vocab)}

    def to_hf_dict(self) -> dict:
        # HF has no character model: a WordLevel over single characters after a per-character split.
        return {"type": "WordLevel", "vocab": dict(self.vocab), "unk_token": self.unk_token}

    def hf_pre_tokenizer(self, pre: dict | None) -> dict:
        """The HF pre-tokenizer that hands WordLevel one character at a time (after ``pre``, if any)."""
        split = {"type": "Split", "pattern": {"Regex": "(?m)."}, "behavior": "Isolated", "invert": False}
        if pre is None:
            return split
        return {"type": "Sequence", "pretokenizers": [pre, split]}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        vocab = data["vocab"]
        if not isinstance(vocab, dict) or not all(isinstance(k, str) and isinstance(v, int) for k, v in vocab.items()):
            raise ValueError("'vocab' must map strings to integer ids")
        return cls(vocab, data.get("unk_token"))
