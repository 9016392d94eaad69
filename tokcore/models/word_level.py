"""``WordLevel``: each pre-tokenized piece is one token, or the unknown token.

Left out: splitting text into words (a pre-tokenizer does that before the model runs).
"""

from __future__ import annotations

from ..core.components import VocabModel, register
from ..core.errors import ConfigurationError
from .vocab_ids import check_vocab_ids


@register("model")
class WordLevel(VocabModel):
    """A piece maps to its id whole. ``WordLevel({"hi": 0}, unk_token=None).tokenize("hi") == [(0, "hi", 0, 2)]``."""

    def __init__(self, vocab: dict[str, int], *, unk_token: str | None = "[UNK]"):
        if not isinstance(vocab, dict):
            raise ConfigurationError("WordLevel vocab must be a dict token -> id")
        check_vocab_ids(vocab, "WordLevel")
        self.vocab = dict(vocab)
        self.unk_token = unk_token
        self._unk_id = self.vocab.get(unk_token) if unk_token is not None else None
        self._inverse = {i: t for t, i in self.vocab.items()}

    def tokenize(self, text: str):
        id_ = self.vocab.get(text)
        if id_ is not None:
            return [(id_, text, 0, len(text))]
        if self._unk_id is None:
            raise ConfigurationError(
                f"{text!r} is not in the WordLevel vocabulary and its unk_token {self.unk_token!r} is not either; "
                "add the unknown token to the vocabulary"
            )
        return [(self._unk_id, self.unk_token, 0, len(text))]

    def to_dict(self) -> dict:
        return {"type": "WordLevel", "vocab": dict(self.vocab), "unk_token": self.unk_token}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        vocab = data["vocab"]
        if not isinstance(vocab, dict) or not all(isinstance(k, str) and isinstance(v, int) for k, v in vocab.items()):
            raise ValueError("'vocab' must map strings to integer ids")
        return cls(vocab, unk_token=data.get("unk_token", "[UNK]"))
