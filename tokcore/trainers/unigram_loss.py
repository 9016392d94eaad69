"""The classroom computations of the Unigram model: the corpus loss and each piece's removal loss.

``unigram_loss``: sum over words of ``count x -ln P(best segmentation)``, the piece
probabilities taken as given (natural log). ``unigram_removal_losses``: that loss with one piece
removed and every other piece keeping its probability (no renormalization), as the standard
course computes it by hand.

Left out: expected counts and sentencepiece's approximate pruning loss (``tokcore.trainers.unigram``).
"""

from __future__ import annotations

import math
from typing import Mapping

from ..core.errors import ConfigurationError, WrongTypeError

NEG_INF = float("-inf")


def _best_logprob(word: str, logp: Mapping[str, float], max_len: int) -> float:
    """Best segmentation log-probability of ``word`` (``-inf`` when none). ``_best_logprob("ab", {"a": -1.0, "b": -1.0}, 1) == -2.0``."""
    n = len(word)
    best = [NEG_INF] * (n + 1)
    best[0] = 0.0
    for start in range(n):
        base = best[start]
        if base == NEG_INF:
            continue
        for stop in range(start + 1, min(n, start + max_len) + 1):
            lp = logp.get(word[start:stop])
            if lp is not None and base + lp > best[stop]:
                best[stop] = base + lp
    return best[n]


def _check_classroom(token_probs, word_counts) -> tuple[dict[str, float], dict[str, int]]:
    if not isinstance(token_probs, Mapping):
        raise WrongTypeError("token_probs must be a mapping piece -> probability")
    if not isinstance(word_counts, Mapping):
        raise WrongTypeError("word_counts must be a mapping word -> count")
    logp = {}
    for t, p in token_probs.items():
        if not isinstance(t, str) or isinstance(p, bool) or not isinstance(p, (int, float)) or not p >= 0:
            raise ConfigurationError(f"token_probs must map strings to probabilities >= 0; got {t!r}: {p!r}")
        if p > 0:
            logp[t] = math.log(p)
    for w, c in word_counts.items():
        if not isinstance(w, str) or isinstance(c, bool) or not isinstance(c, (int, float)) or c < 0:
            raise ConfigurationError(f"word_counts must map strings to counts >= 0; got {w!r}: {c!r}")
    return logp, dict(word_counts)


def unigram_loss(token_probs: Mapping[str, float], word_counts: Mapping[str, int]) -> float:
    """Sum over words of ``count x -ln P(best segmentation)``; ``inf`` when a word cannot be split.

    ``unigram_loss({"a": 0.5, "b": 0.5}, {"ab": 2})`` is ``2 x 2 ln 2`` (about 2.77).
    """
    logp, counts = _check_classroom(token_probs, word_counts)
    max_len = max(map(len, logp), default=0)
    terms = []
    for w, c in counts.items():
        if c:
            lp = _best_logprob(w, logp, max_len)
            if lp == NEG_INF:
                return math.inf
            terms.append(-c * lp)
    return math.fsum(terms)


def unigram_removal_losses(token_probs: Mapping[str, float], word_counts: Mapping[str, int]) -> dict[str, float]:
    """For each piece, ``unigram_loss`` without it, every other piece keeping its probability.

    ``unigram_removal_losses({"a": 0.5, "b": 0.25, "ab": 0.25}, {"ab": 1})`` is
    ``{"a": ln 4, "b": ln 4, "ab": ln 8}``.
    """
    logp, counts = _check_classroom(token_probs, word_counts)
    max_len = max(map(len, logp), default=0)
    words = [(w, c) for w, c in counts.items() if c]
    base = [-c * _best_logprob(w, logp, max_len) for w, c in words]
    out = {}
    for piece in token_probs:
        if piece not in logp:  # probability 0: never used, removing it changes nothing
            out[piece] = math.fsum(base) if all(v != math.inf for v in base) else math.inf
            continue
        lp = logp.pop(piece)
        terms = list(base)
        for i, (w, c) in enumerate(words):
            if piece in w:  # only words containing the piece can change
                terms[i] = -c * _best_logprob(w, logp, max_len)
        logp[piece] = lp
        out[piece] = math.inf if math.inf in terms else math.fsum(terms)
    return out
