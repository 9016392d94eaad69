"""The slow reference for WordPiece training: recount everything every step, exactly as the definition reads.

``naive_wordpiece`` re-splits and recounts every word before each merge, scores every pair with
``Fraction`` and takes the first best pair (words in first-seen order, pairs left to right). The
fast trainer (``tokcore.trainers.wordpiece``) must equal it record for record: the steps, the score
tables, the final splits, the vocabulary order and the stop reason. ``trace_digest`` condenses one
training run into a hash, to pin runs too large for the naive recount.
"""

from __future__ import annotations

import hashlib
import heapq
from collections import Counter
from dataclasses import astuple
from fractions import Fraction

from tokcore.trainers.wordpiece import WordPieceStep, initial_split


def naive_wordpiece(counts: dict[str, int], vocab_size: int = 10**9, *, min_frequency: int = 1,
                    prefix: str = "##", specials: tuple = (), top: int = 0) -> dict:
    """``{"steps", "tables", "splits", "vocab", "stop_reason"}`` of training ``counts`` up to ``vocab_size`` tokens.

    ``naive_wordpiece({"ab": 2}, 4)["vocab"] == ["##b", "a", "ab"]``.
    """
    splits = {w: initial_split(w, prefix) for w in counts}
    vocab = list(dict.fromkeys([*specials, *sorted({s for parts in splits.values() for s in parts})]))
    steps, tables = [], []
    stop_reason = "vocab_size reached"
    while len(vocab) < vocab_size:
        freq, pairs = Counter(), {}  # pairs in first-seen order
        for w, c in counts.items():
            parts = splits[w]
            for s in parts:
                freq[s] += c
            for pair in zip(parts, parts[1:]):
                pairs[pair] = pairs.get(pair, 0) + c
        scores = {(a, b): Fraction(n, freq[a] * freq[b]) for (a, b), n in pairs.items() if n >= max(1, min_frequency)}
        if not scores:
            stop_reason = "no pair left" if min_frequency <= 1 else f"no pair seen {min_frequency} times or more"
            break
        if top:
            ranked = heapq.nlargest(top, scores, key=scores.get)  # as a stable sort: ties stay in first-seen order
            tables.append([(a, b, pairs[a, b], freq[a], freq[b], pairs[a, b] / (freq[a] * freq[b])) for a, b in ranked])
        a, b = max(scores, key=scores.get)  # the first of the best
        n, fa, fb = pairs[a, b], freq[a], freq[b]
        merged = a + b[len(prefix):] if b.startswith(prefix) else a + b
        steps.append(WordPieceStep(a, b, merged, n / (fa * fb), n, fa, fb))
        if merged not in vocab:
            vocab.append(merged)
        for w, parts in splits.items():
            out, i = [], 0
            while i < len(parts):
                if i + 1 < len(parts) and parts[i] == a and parts[i + 1] == b:
                    out.append(merged)
                    i += 2
                else:
                    out.append(parts[i])
                    i += 1
            splits[w] = out
    return {"steps": steps, "tables": tables, "splits": splits, "vocab": vocab, "stop_reason": stop_reason}


def trace_digest(result) -> str:
    """A short hash of a ``train_wordpiece`` result: steps, score tables, splits, vocabulary and stop reason."""
    details = result.details
    data = [
        [list(astuple(s)) for s in result.steps],
        details["candidates"],
        details["splits"],
        list(result.tokenizer.get_vocab().items()),
        details["stop_reason"],
    ]
    return hashlib.sha256(repr(data).encode()).hexdigest()[:16]  # repr writes every float exactly
