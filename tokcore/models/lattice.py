"""The segmentation lattice of one text: every candidate piece as a node, in log space.

A node covers characters ``[start, stop)`` of the text and carries a vocabulary id and a
score (the piece's log-probability). A segmentation is a path of nodes from position 0 to
``len(text)``. On this graph live the algorithms of the Unigram model, with the semantics of
sentencepiece's ``unigram_model.cc`` and HF tokenizers' ``lattice.rs``:

- ``viterbi``: the best path; ties go to the node that starts earliest (both libraries
  keep the first of equal candidates, and nodes are inserted by start position).
- ``nbest``: the n best paths, A* from the end with the Viterbi prefix scores as the exact
  heuristic; the agenda is shrunk when it grows huge, as the libraries do.
- ``forward`` / ``marginals``: forward-backward in log space (expected piece counts for EM).
- ``sample``: forward-filtering backward-sampling, a path drawn with probability
  proportional to ``exp(theta * score)``.

Positions are characters, not bytes: every node starts and stops on a character boundary,
so the two coordinate systems give the same paths.

Left out: which pieces exist (the model fills the lattice) and unknown-token fusion.
"""

from __future__ import annotations

import heapq
import math
import random
from typing import Sequence

NEG_INF = float("-inf")
# A* agenda bounds (HF tokenizers' values): past MAX entries keep the best min(MIN, 10 n).
_MAX_AGENDA = 100_000
_MIN_AGENDA = 512


def log_sum_exp(values: Sequence[float]) -> float:
    """``log(sum(exp(v)))`` without overflow. ``log_sum_exp([0.0, 0.0]) == math.log(2)``."""
    m = max(values, default=NEG_INF)
    if m == NEG_INF:
        return NEG_INF
    return m + math.log(math.fsum(math.exp(v - m) for v in values))


class Lattice:
    """Candidate pieces of ``text``; fill with ``insert`` in order of start position."""

    __slots__ = ("text", "size", "starts", "stops", "ids", "scores", "begin", "end", "unknown")

    def __init__(self, text: str):
        self.text = text
        self.size = len(text)
        self.starts: list[int] = []
        self.stops: list[int] = []
        self.ids: list[int] = []
        self.scores: list[float] = []
        self.begin: list[list[int]] = [[] for _ in range(self.size + 1)]
        self.end: list[list[int]] = [[] for _ in range(self.size + 1)]
        self.unknown: set[int] = set()  # nodes standing for an unknown character

    def insert(self, start: int, stop: int, id: int, score: float, *, unknown: bool = False) -> int:
        """Add a node for characters ``[start, stop)``; returns its index."""
        node = len(self.ids)
        if unknown:
            self.unknown.add(node)
        self.starts.append(start)
        self.stops.append(stop)
        self.ids.append(id)
        self.scores.append(score)
        self.begin[start].append(node)
        self.end[stop].append(node)
        return node

    def piece(self, node: int) -> str:
        return self.text[self.starts[node] : self.stops[node]]

    # ------------------------------------------------------------------ best paths
    def prefix_scores(self) -> tuple[list[float], list[int]]:
        """Per node: the best score of a path from the start through it, and the best node before it.

        ``-inf`` marks a node no path reaches; ``-1`` as predecessor means the path starts there.
        """
        best_at = [NEG_INF] * (self.size + 1)  # best path score ending at each position
        best_node = [-1] * (self.size + 1)
        best_at[0] = 0.0
        bt = [NEG_INF] * len(self.ids)
        prev = [-1] * len(self.ids)
        scores = self.scores
        for pos in range(self.size + 1):
            if pos:
                # First of equal candidates wins: nodes ending here were inserted by start.
                best, arg = NEG_INF, -1
                for node in self.end[pos]:
                    if bt[node] > best:
                        best, arg = bt[node], node
                best_at[pos], best_node[pos] = best, arg
            base = best_at[pos]
            if base == NEG_INF:
                continue
            for node in self.begin[pos]:
                bt[node] = base + scores[node]
                prev[node] = best_node[pos]
        return bt, prev

    def viterbi(self) -> tuple[list[int], float]:
        """The best path (node indices, left to right) and its score; ``([], -inf)`` when none."""
        if self.size == 0:
            return [], 0.0
        bt, prev = self.prefix_scores()
        best, node = NEG_INF, -1
        for cand in self.end[self.size]:
            if bt[cand] > best:
                best, node = bt[cand], cand
        if node < 0:
            return [], NEG_INF
        path = []
        while node >= 0:
            path.append(node)
            node = prev[node]
        path.reverse()
        return path, best

    def path_score(self, path: Sequence[int]) -> float:
        """Sum of node scores, left to right (the order Viterbi adds them)."""
        total = 0.0
        for node in path:
            total += self.scores[node]
        return total

    def nbest(self, n: int) -> list[tuple[list[int], float]]:
        """Up to ``n`` best paths, best first, each with its score.

        The first is always the Viterbi path (so ties are broken as ``viterbi`` breaks them);
        the others come in A* order.
        """
        if n <= 0 or self.size == 0:
            return [] if n <= 0 else [([], 0.0)]
        best_path, best_score = self.viterbi()
        if not best_path:
            return []
        if n == 1:
            return [(best_path, best_score)]
        bt, _ = self.prefix_scores()
        found = self._astar(n, bt)
        out = [(best_path, best_score)]
        out.extend((p, self.path_score(p)) for p in found if p != best_path)
        return out[:n]

    def _astar(self, n: int, bt: list[float]) -> list[list[int]]:
        # A hypothesis is (node, next hypothesis, g = score of the nodes after it up to the end).
        # The priority f = (best prefix score up to and through node) + g is exact, so paths
        # come out best first. Node -1 is the start of the text, -2 the end.
        hyps: list[tuple[int, int, float]] = [(-2, -1, 0.0)]
        agenda: list[tuple[float, int, int]] = [(-bt_end(self, bt), 0, 0)]
        counter = 1
        results: list[list[int]] = []
        starts, scores, end = self.starts, self.scores, self.end
        while agenda:
            _negf, _c, h = heapq.heappop(agenda)
            node, _next, g = hyps[h]
            if node == -1:
                path = []
                k = hyps[h][1]
                while hyps[k][0] != -2:
                    path.append(hyps[k][0])
                    k = hyps[k][1]
                results.append(path)
                if len(results) == n:
                    break
                continue
            pos = self.size if node == -2 else starts[node]
            if pos == 0:
                hyps.append((-1, h, g))
                heapq.heappush(agenda, (-g, counter, len(hyps) - 1))
                counter += 1
                continue
            for left in end[pos]:
                if bt[left] == NEG_INF:
                    continue
                hyps.append((left, h, scores[left] + g))
                heapq.heappush(agenda, (-(bt[left] + g), counter, len(hyps) - 1))
                counter += 1
            if len(agenda) > _MAX_AGENDA:
                agenda = heapq.nsmallest(min(_MIN_AGENDA, n * 10), agenda)
                heapq.heapify(agenda)
        return results

    # ------------------------------------------------------------------ probabilities
    def forward(self, theta: float = 1.0) -> list[float]:
        """``alpha[pos]``: log of the summed ``exp(theta * path score)`` of all paths to ``pos``."""
        alpha = [NEG_INF] * (self.size + 1)
        alpha[0] = 0.0
        starts, scores = self.starts, self.scores
        for pos in range(1, self.size + 1):
            terms = [alpha[starts[node]] + theta * scores[node] for node in self.end[pos]]
            alpha[pos] = log_sum_exp(terms)
        return alpha

    def backward(self) -> list[float]:
        """``beta[pos]``: log of the summed ``exp(path score)`` of all paths from ``pos`` to the end."""
        beta = [NEG_INF] * (self.size + 1)
        beta[self.size] = 0.0
        stops, scores = self.stops, self.scores
        for pos in range(self.size - 1, -1, -1):
            beta[pos] = log_sum_exp([beta[stops[node]] + scores[node] for node in self.begin[pos]])
        return beta

    def marginals(self) -> tuple[float, list[float]]:
        """``(log Z, p)``: the log partition function and each node's posterior probability."""
        alpha, beta = self.forward(), self.backward()
        z = alpha[self.size]
        if z == NEG_INF:
            return z, [0.0] * len(self.ids)
        return z, [
            math.exp(alpha[s] + sc + beta[e] - z) for s, e, sc in zip(self.starts, self.stops, self.scores)
        ]

    def sample(self, theta: float, rng: random.Random) -> list[int]:
        """A path drawn with probability ``exp(theta * score) / Z`` (forward filtering, backward sampling)."""
        if self.size == 0:
            return []
        alpha = self.forward(theta)
        if alpha[self.size] == NEG_INF:
            return []
        path = []
        pos = self.size
        starts, scores = self.starts, self.scores
        while pos > 0:
            z = alpha[pos]
            cands = [node for node in self.end[pos] if alpha[starts[node]] != NEG_INF]
            weights = [math.exp(alpha[starts[node]] + theta * scores[node] - z) for node in cands]
            node = rng.choices(cands, weights=weights)[0]
            path.append(node)
            pos = starts[node]
        path.reverse()
        return path


def bt_end(lattice: Lattice, bt: list[float]) -> float:
    """Best score of a full path, from the prefix scores of the nodes ending at the end."""
    return max((bt[node] for node in lattice.end[lattice.size]), default=NEG_INF)
