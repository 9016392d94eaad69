"""``LexicalNormalizer``: lexical normalization of noisy text as a pipeline stage (a tokcore-only type).

Left out: the normalization itself, candidates and ranking (``tokcore.extras.lexnorm``).
"""

from __future__ import annotations

from ..core.components import Normalizer, register
from ..core.normalized import NormalizedString
from ..extras.lexnorm import Lexicon, as_lexicon, normalization_plan


@register("normalizer")
class LexicalNormalizer(Normalizer):
    """Lexical normalization as a pipeline stage (tokcore-only), its user lexicon saved with the tokenizer."""

    def __init__(self, lexicon: Lexicon | dict | None = None):
        self.lexicon = as_lexicon(lexicon)

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        pieces, _ = normalization_plan(ns.normalized, self.lexicon)
        return ns.rebuild(pieces)

    def to_dict(self) -> dict:
        return {"type": "LexicalNormalizer", "lexicon": self.lexicon.to_dict()}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(Lexicon.from_dict(data.get("lexicon") or {}))
