"""Where the published course text disagrees with the definitions, for the classic corpus: notes the
pages show beside the step they concern. The definitions win everywhere (see the trainer tests).

Left out: the training itself and every other corpus (they have no course text to disagree with).
"""

from __future__ import annotations

from .corpora import Corpus, is_classic

_NOTES: dict[str, list[tuple[set, str]]] = {
    "wordpiece": [({3, 4}, "The course text says `hu + ##g` and `hu + ##gs` tie at 1/15 and merges `hug` third. "
                           "By the definition f(hu) = 15 and f(##g) = 15 at that point (hug ×10 + pug ×5), so "
                           "`hu + ##g` scores 10/225 = 2/45 while `hu + ##gs` scores 5/(15×5) = 1/15: `hugs` is "
                           "the third merge and `hug` the fourth.")],
    "unigram": [(set(), "The course's paragraph on `pug` prints 0.000389 for [p, u, g] and 0.0022676 for [p, ug]: "
                        "those use P(p) = 5/210, the count of the word `pug`. The definition, P(p) = 17/210, "
                        "gives 0.001322 and 0.007710, the value the course's own loss table uses."),
                (set(), "Ties between segmentations: the course writes pun as [pu, n], bun as [bu, n], hugs as "
                        "[hug, s]. Those tie exactly with [p, un], [b, un] and [h, ugs]; the rule of Hugging Face "
                        "and sentencepiece (the last piece that starts earliest) picks the latter. The loss is "
                        "the same either way.")],
}


def course_notes(family: str, corpus: Corpus, k: int | None = None) -> list[str]:
    """The course's slips about ``family`` on the classic corpus; ``k`` selects the notes about merge ``k``
    (``None``: every note of the family). Other corpora have none.
    """
    if not is_classic(corpus):
        return []
    return [text for steps, text in _NOTES.get(family, []) if k is None or not steps or k in steps]
