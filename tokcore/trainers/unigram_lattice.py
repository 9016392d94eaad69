"""The Unigram trainer's word lattices and the passes over them: forward-backward and Viterbi.

Every node of every distinct word is one entry of flat lists, no per-node object, so that
building and compacting are a few C-level sweeps and the garbage collector has next to
nothing to scan: ``start``/``stop``/``sid`` sorted by (word, stop, start) for the forward
pass, ``bstart``/``bstop``/``bsid`` sorted by (word, start, stop) descending within a word
for the backward pass; word ``k``'s nodes are ``bounds[k]:bounds[k + 1]`` in both. Every
position has a one-character node (its piece, or the unknown sid for a character cut by
``limit_alphabet``).

The sums run in the order of the straightforward per-node formulation (``_lse`` over each
group in list order, expected counts word by word, node by node), so results are the same
floats, bit for bit, whatever compaction happened before.

Left out: the M-step, seeding and pruning decisions (``tokcore.trainers.unigram``).
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import accumulate, compress

NEG_INF = float("-inf")


def _lse(values: list[float]) -> float:
    """``log(sum(exp(v)))`` of finite values. ``_lse([0.0, 0.0]) == math.log(2)``."""
    top = max(values)
    return top + math.log(sum([math.exp(v - top) for v in values]))


def _grid(n: int, max_len: int) -> tuple[list[int], list[int], list[int]]:
    """Every (start, stop) of a length-``n`` word with ``stop - start <= max_len``, sorted by (stop, start),
    plus the permutation listing them by (start, stop) descending. ``_grid(2, 2) == ([0, 1, 0], [1, 2, 2], [1, 2, 0])``.
    """
    starts, stops = [], []
    for e in range(1, n + 1):
        for s in range(max(0, e - max_len), e):
            starts.append(s)
            stops.append(e)
    back = sorted(range(len(starts)), key=lambda j: (starts[j], stops[j]), reverse=True)
    return starts, stops, back


class Lattices:
    """Words with counts and every live node of each word's lattice, as flat lists (see the module docstring).

    ``words``: ``(word, count)`` pairs; ``total``: the summed counts.
    """

    def __init__(self, words: list[tuple[str, int]], seed_ids: dict[str, int], max_len: int, unk: int):
        self.words = words
        self.total = sum(c for _, c in words)
        lookup = dict(seed_ids)
        for w, _ in words:
            for ch in w:
                if ch not in lookup:
                    lookup[ch] = unk  # a character outside the alphabet
        get = lookup.get
        grids: dict[int, tuple] = {}
        self.start: list[int] = []
        self.stop: list[int] = []
        self.sid: list[int] = []
        self.bstart: list[int] = []
        self.bstop: list[int] = []
        self.bsid: list[int] = []
        sizes = []
        for w, _ in words:
            n = len(w)
            grid = grids.get(n)
            if grid is None:
                grid = grids[n] = _grid(n, max_len)
            starts, stops, back = grid
            found = list(map(get, [w[s:e] for s, e in zip(starts, stops)]))
            keep = [i is not None for i in found]
            self.start += compress(starts, keep)
            self.stop += compress(stops, keep)
            self.sid += compress(found, keep)
            bkeep = list(map(keep.__getitem__, back))
            self.bstart += compress(map(starts.__getitem__, back), bkeep)
            self.bstop += compress(map(stops.__getitem__, back), bkeep)
            self.bsid += compress(map(found.__getitem__, back), bkeep)
            sizes.append(keep.count(True))
        self.bounds = [0, *accumulate(sizes)]
        self.word = [k for k, size in enumerate(sizes) for _ in range(size)]

    @property
    def by_stop(self) -> list[list[tuple[int, int, int]]]:
        """Each word's nodes ``(start, stop, sid)`` sorted by (stop, start)."""
        b = self.bounds
        return [list(zip(self.start[b[k]:b[k + 1]], self.stop[b[k]:b[k + 1]], self.sid[b[k]:b[k + 1]]))
                for k in range(len(self.words))]

    def compact(self, alive: list[bool]) -> None:
        """Drop the nodes of dead pieces (single characters never die, so no position goes uncovered)."""
        keep = list(map(alive.__getitem__, self.sid))
        if all(keep):
            return
        self.start = list(compress(self.start, keep))
        self.stop = list(compress(self.stop, keep))
        self.sid = list(compress(self.sid, keep))
        self.word = list(compress(self.word, keep))
        bkeep = list(map(alive.__getitem__, self.bsid))
        self.bstart = list(compress(self.bstart, bkeep))
        self.bstop = list(compress(self.bstop, bkeep))
        self.bsid = list(compress(self.bsid, bkeep))
        sizes = Counter(self.word)
        self.bounds = [0, *accumulate(sizes[k] for k in range(len(self.words)))]

    def e_step(self, score: list[float], n_ids: int) -> tuple[float, list[float]]:
        """Forward-backward over every word: (corpus negative log-likelihood, expected counts per sid)."""
        expected = [0.0] * n_ids
        exp = math.exp
        nll = 0.0
        starts, stops, sids = self.start, self.stop, self.sid
        bstarts, bstops, bsids = self.bstart, self.bstop, self.bsid
        bounds = self.bounds
        for k, (w, count) in enumerate(self.words):
            lo, hi = bounds[k], bounds[k + 1]
            n = len(w)
            # Forward: nodes come grouped by stop, and every stop 1..n has at least one node.
            alpha = [0.0] * (n + 1)
            cur, buf = 1, []
            for s, e, sid in zip(starts[lo:hi], stops[lo:hi], sids[lo:hi]):
                if e != cur:
                    alpha[cur] = buf[0] if len(buf) == 1 else _lse(buf)
                    cur, buf = e, []
                buf.append(alpha[s] + score[sid])
            alpha[cur] = buf[0] if len(buf) == 1 else _lse(buf)
            # Backward, symmetric, over nodes grouped by start, from the end.
            beta = [0.0] * (n + 1)
            cur, buf = n - 1, []
            for s, e, sid in zip(bstarts[lo:hi], bstops[lo:hi], bsids[lo:hi]):
                if s != cur:
                    beta[cur] = buf[0] if len(buf) == 1 else _lse(buf)
                    cur, buf = s, []
                buf.append(beta[e] + score[sid])
            beta[cur] = buf[0] if len(buf) == 1 else _lse(buf)
            z = alpha[n]
            nll -= count * z
            for s, e, sid in zip(starts[lo:hi], stops[lo:hi], sids[lo:hi]):
                expected[sid] += count * exp(alpha[s] + score[sid] + beta[e] - z)
        return nll, expected

    def viterbi_counts(self, score: list[float], n_ids: int) -> list[float]:
        """How often each sid is on its word's best path, times the word's count; ties go to the earliest start."""
        freq = [0.0] * n_ids
        starts, stops, sids, bounds = self.start, self.stop, self.sid, self.bounds
        for k, (w, count) in enumerate(self.words):
            lo, hi = bounds[k], bounds[k + 1]
            n = len(w)
            best = [NEG_INF] * (n + 1)
            best[0] = 0.0
            back_start, back_sid = [0] * (n + 1), [0] * (n + 1)
            for s, e, i in zip(starts[lo:hi], stops[lo:hi], sids[lo:hi]):
                cand = best[s] + score[i]
                if cand > best[e]:
                    best[e] = cand
                    back_start[e], back_sid[e] = s, i
            while n > 0:
                freq[back_sid[n]] += count
                n = back_start[n]
        return freq
