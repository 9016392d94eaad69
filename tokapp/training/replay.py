"""The merges of a BPE or WordPiece run replayed on every training word: tokens in the corpus after
each merge, and how the most frequent words were split at each step.

Left out: training (``tokapp.training.runner``) and drawing (``tokapp.train_figures``, ``tokapp.train_html``).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable, Mapping

TRACKED_WORDS = 40  # most frequent words whose segmentation is recorded at every step


@dataclass(frozen=True)
class Replay:
    """The merges replayed on every training word.

    ``tokens[k]``: tokens in the whole corpus (words x counts) after ``k`` merges;
    ``history[word]``: ``[(step, symbols), ...]`` each time a tracked word changed.
    """

    total_words: int
    tokens: tuple
    history: dict

    def tokens_per_word(self, k: int) -> float:
        return self.tokens[k] / self.total_words

    def curve(self) -> list[float]:
        """Tokens per word after 0, 1, ... merges. ``len(curve) == steps + 1``."""
        return [t / self.total_words for t in self.tokens]

    def segmentation(self, word: str, k: int) -> tuple:
        """The symbols of tracked ``word`` after ``k`` merges."""
        hist = self.history[word]
        i = bisect_right([s for s, _ in hist], k) - 1
        return hist[max(i, 0)][1]


def _merge_word(syms: list, a: str, b: str, merged: str) -> list:
    """Merge every non-overlapping ``a b`` left to right. ``_merge_word(["u","g","u","g"], "u", "g", "ug") == ["ug","ug"]``."""
    out, i, n = [], 0, len(syms)
    while i < n:
        if i + 1 < n and syms[i] == a and syms[i + 1] == b:
            out.append(merged)
            i += 2
        else:
            out.append(syms[i])
            i += 1
    return out


def replay_merges(words: Mapping[str, int], initial: Callable[[str], list], merges: list[tuple[str, str, str]],
                  track: int = TRACKED_WORDS) -> Replay:
    """Apply ``merges`` in order to every word; only words holding the pair are touched (pair index)."""
    keys = list(words)
    counts = [words[w] for w in keys]
    syms = [list(initial(w)) for w in keys]
    tracked = set(sorted(range(len(keys)), key=lambda i: (-counts[i], i))[:track])
    history = {keys[i]: [(0, tuple(syms[i]))] for i in sorted(tracked, key=lambda i: (-counts[i], i))}
    index: dict[tuple, set] = {}
    for wi, s in enumerate(syms):
        for pair in zip(s, s[1:]):
            index.setdefault(pair, set()).add(wi)
    total = sum(c * len(s) for c, s in zip(counts, syms))
    tokens = [total]
    for k, (a, b, merged) in enumerate(merges, 1):
        for wi in sorted(index.get((a, b), ())):
            old = syms[wi]
            new = _merge_word(old, a, b, merged)
            if len(new) == len(old):
                continue
            old_pairs, new_pairs = set(zip(old, old[1:])), set(zip(new, new[1:]))
            for p in old_pairs - new_pairs:
                index[p].discard(wi)
            for p in new_pairs - old_pairs:
                index.setdefault(p, set()).add(wi)
            total -= counts[wi] * (len(old) - len(new))
            syms[wi] = new
            if wi in tracked:
                history[keys[wi]].append((k, tuple(new)))
        tokens.append(total)
    return Replay(sum(counts), tuple(tokens), history)
