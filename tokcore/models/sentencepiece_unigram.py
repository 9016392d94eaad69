"""Unigram as sentencepiece runs it: only NORMAL and USER_DEFINED pieces are matched in text.

Left out: Viterbi and sampling themselves (``tokcore.models.unigram``); reading ``.model`` files
(``tokcore.loaders``).
"""

from __future__ import annotations

from ..core.components import register
from .unigram import Unigram


@register("model")
class SentencePieceUnigram(Unigram):
    """HF's ``Unigram`` restricted as sentencepiece restricts it: only ``matchable`` pieces are found in text.

    Control pieces (``<s>``), byte pieces and unused pieces keep their ids but never match, so a
    literal ``<s>`` in the input is tokenized as characters, as sentencepiece does.
    """

    def __init__(self, vocab, *, unk_id=None, byte_fallback=False, matchable=None):
        super().__init__(vocab, unk_id=unk_id, byte_fallback=byte_fallback)
        n = len(self.vocab)
        self.matchable = sorted(set(range(n) if matchable is None else matchable))

    def _prefix_map(self) -> dict[str, int]:
        if self._prefixes is None:
            pref: dict[str, int] = {}
            ok = [(self.vocab[i][0], i) for i in self.matchable if self.vocab[i][0]]
            for piece, _ in ok:
                for k in range(1, len(piece)):
                    pref.setdefault(piece[:k], -2)
            for piece, i in ok:
                pref[piece] = i
            self._prefixes = pref
        return self._prefixes

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["type"] = "SentencePieceUnigram"
        out["matchable"] = list(self.matchable)
        return out

    def to_hf_dict(self) -> dict:
        out = super().to_dict()
        out["type"] = "Unigram"
        return out

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        vocab = [tuple(x) if isinstance(x, list) else x for x in data["vocab"]]
        matchable = data.get("matchable")
        if matchable is not None and not all(isinstance(i, int) and 0 <= i < len(vocab) for i in matchable):
            raise ValueError("'matchable' must list piece ids of the vocabulary")
        return cls(vocab, unk_id=data.get("unk_id"), byte_fallback=bool(data.get("byte_fallback", False)),
                   matchable=matchable)
