"""The Unigram trainer's word lattices and the passes over them: forward-backward and Viterbi.

A word's forward value at position ``e`` depends only on its first ``e`` characters, and its
backward value at ``s`` only on the characters from ``s`` on. So forward values are computed
once per distinct prefix of the corpus words and backward values once per distinct suffix
(on botchan about a third and a half of the positions), then shared by every word that has
them (up to ``SHARED_LENGTH`` characters). Each distinct prefix keeps the nodes ending at
its end as ``(prefix id of the node's start, sid)``, starts ascending; each suffix the nodes
starting at its start as ``(suffix id of the node's stop, sid)``, stops descending; each word
its nodes as ``(prefix id, suffix id, sid)`` sorted by (stop, start), for the expected
counts. All of it lives in flat lists (no per-node object, so little for the garbage
collector to scan), compacted by masks; id 0 is the empty prefix/suffix.

Every float comes out of the same operations, in the same order, as the straightforward
per-word formulation (``_lse`` over each group in list order, sums left to right as
Python 3.11's ``sum``, expected counts word by word, node by node), so results are bit for
bit the same; ``tests/engine/test_unigram_trainer_fast.py`` checks it against that formulation.

Left out: the M-step, seeding and pruning decisions (``tokcore.trainers.unigram``).
"""

from __future__ import annotations

import math
from itertools import accumulate, compress

NEG_INF = float("-inf")
# Prefixes and suffixes up to this long are shared between words; longer ones (rare, and
# keeping them all as strings would take memory quadratic in the word's length) get an id each.
SHARED_LENGTH = 64


def _lse(values: list[float]) -> float:
    """``log(sum(exp(v)))`` of finite values. ``_lse([0.0, 0.0]) == math.log(2)``."""
    top = max(values)
    total = 0.0  # left to right, as sum() did before Python 3.12 made it compensated
    for v in values:
        total += math.exp(v - top)
    return top + math.log(total)


def _pass(src: list[int], dst: list[int], sid: list[int], score: list[float], size: int) -> list[float]:
    """Log-sum-exp of ``values[src] + score[sid]`` per ``dst`` (grouped, ascending, each after its sources); ``values[0] == 0.0``.

    A group is summed exactly as ``_lse`` does (``0 + exp(v0 - top) + exp(v1 - top) + ...``),
    inlined because a call per group is most of the cost. ``_pass([0, 0, 1], [1, 2, 2], [0, 1, 0], [-1.0, -3.0], 3)[1] == -1.0``
    """
    exp, log = math.exp, math.log
    values = [0.0] * size
    if not dst:
        return values
    cur, buf = dst[0], []
    for s, d, i in zip(src, dst, sid):
        if d != cur:
            if len(buf) == 1:
                values[cur] = buf[0]
            elif len(buf) == 2:
                a, b = buf  # the larger term is exp(0.0) == 1.0, and 1.0 + x == x + 1.0
                values[cur] = a + log(1.0 + exp(b - a)) if a >= b else b + log(1.0 + exp(a - b))
            else:
                top = max(buf)
                total = 0.0
                for v in buf:
                    total += exp(v - top)
                values[cur] = top + log(total)
            cur, buf = d, []
        buf.append(values[s] + score[i])
    values[cur] = buf[0] if len(buf) == 1 else _lse(buf)
    return values


class Lattices:
    """Words with counts and every live node of each word's lattice (see the module docstring).

    ``words``: ``(word, count)`` pairs; ``total``: the summed counts.
    """

    def __init__(self, words: list[tuple[str, int]], seed_ids: dict[str, int], max_len: int, unk: int):
        self.words = words
        self.total = sum(c for _, c in words)
        lookup = dict(seed_ids)
        for w, _ in words:
            for ch in w:
                if ch not in lookup:
                    lookup[ch] = unk  # a character outside the alphabet: an unknown node
        get = lookup.get
        prefix_id: dict[str, int] = {"": 0}
        suffix_id: dict[str, int] = {"": 0}
        self.plen, self.slen = [0], [0]  # length of each prefix / suffix
        fsrc, fdst, fsid = [], [], []  # prefix nodes
        group: list[tuple[int, int]] = [(0, 0)]  # each prefix's run of nodes in fsrc/fdst/fsid
        bsrc, bdst, bsid = [], [], []  # suffix nodes
        self.word_prefix: list[int] = []  # prefix id of each whole word (its forward value is log Z)
        wpre, wsuf, wsid = [], [], []  # word nodes
        self.bounds = [0]  # word k's nodes are bounds[k]:bounds[k + 1]
        for w, _ in words:
            n = len(w)
            pids = [0] * (n + 1)
            for e in range(1, n + 1):
                p = w[:e] if e <= SHARED_LENGTH else None
                pid = prefix_id.get(p) if p is not None else None
                if pid is None:
                    pid = len(self.plen)
                    if p is not None:
                        prefix_id[p] = pid
                    self.plen.append(e)
                    first = len(fsid)
                    for s in range(max(0, e - max_len), e):
                        i = get(w[s:e])
                        if i is not None:
                            fsrc.append(pids[s])
                            fsid.append(i)
                    fdst += [pid] * (len(fsid) - first)
                    group.append((first, len(fsid)))
                pids[e] = pid
            qids = [0] * (n + 1)
            for s in range(n - 1, -1, -1):
                q = w[s:] if n - s <= SHARED_LENGTH else None
                qid = suffix_id.get(q) if q is not None else None
                if qid is None:
                    qid = len(self.slen)
                    if q is not None:
                        suffix_id[q] = qid
                    self.slen.append(n - s)
                    first = len(bsid)
                    for e in range(min(n, s + max_len), s, -1):  # stops descending
                        i = get(w[s:e])
                        if i is not None:
                            bsrc.append(qids[n - e])
                            bsid.append(i)
                    bdst += [qid] * (len(bsid) - first)
                qids[n - s] = qid
            self.word_prefix.append(pids[n])
            for e in range(1, n + 1):  # the word's nodes ending at e are its prefix's
                lo, hi = group[pids[e]]
                wpre += fsrc[lo:hi]
                wsid += fsid[lo:hi]
                wsuf += [qids[n - e]] * (hi - lo)
            self.bounds.append(len(wsid))
        self.fwd = (fsrc, fdst, fsid)
        self.bwd = (bsrc, bdst, bsid)
        self.nodes = (wpre, wsuf, wsid)
        self.alive: list[bool] | None = None  # as last given to compact()
        self.compact_share = 0.15

    @property
    def by_stop(self) -> list[list[tuple[int, int, int]]]:
        """Each word's live nodes ``(start, stop, sid)`` sorted by (stop, start)."""
        wpre, wsuf, wsid = self.nodes
        b, live = self.bounds, self.alive
        return [[(self.plen[p], len(w) - self.slen[q], i) for p, q, i in zip(wpre[b[k]:b[k + 1]], wsuf[b[k]:b[k + 1]], wsid[b[k]:b[k + 1]])
                 if live is None or live[i]] for k, (w, _) in enumerate(self.words)]

    def compact(self, alive: list[bool]) -> None:
        """Forget the nodes of dead pieces (single characters never die, so no position goes uncovered).

        Compressing every list costs about an E-step's worth, so it waits until at least
        ``compact_share`` of the nodes are dead; until then dead pieces score ``-inf`` in the
        passes, adding exactly ``0.0`` (or nothing) to every sum, max and best path.
        """
        self.alive = list(alive)
        keep = list(map(alive.__getitem__, self.nodes[2]))
        if keep.count(False) <= self.compact_share * len(keep):
            return
        self.nodes = tuple(list(compress(column, keep)) for column in self.nodes)
        kept_before = [0, *accumulate(keep)]  # nodes kept before each old position
        self.bounds = list(map(kept_before.__getitem__, self.bounds))
        for name in ("fwd", "bwd"):
            src, dst, sid = getattr(self, name)
            keep = list(map(alive.__getitem__, sid))
            setattr(self, name, tuple(list(compress(column, keep)) for column in (src, dst, sid)))

    def _live_score(self, score: list[float]) -> list[float]:
        live = self.alive
        if live is None or all(live):
            return score
        return [x if ok else NEG_INF for x, ok in zip(score, live)]

    def e_step(self, score: list[float], n_ids: int) -> tuple[float, list[float]]:
        """Forward-backward over every word: (corpus negative log-likelihood, expected counts per sid)."""
        expected = [0.0] * n_ids
        score = self._live_score(score)
        exp = math.exp
        alpha = _pass(*self.fwd, score, len(self.plen))
        beta = _pass(*self.bwd, score, len(self.slen))
        wpre, wsuf, wsid = self.nodes
        bounds = self.bounds
        nll = 0.0
        for k, ((_, count), full) in enumerate(zip(self.words, self.word_prefix)):
            z = alpha[full]
            nll -= count * z
            lo, hi = bounds[k], bounds[k + 1]
            for p, q, i in zip(wpre[lo:hi], wsuf[lo:hi], wsid[lo:hi]):
                expected[i] += count * exp(alpha[p] + score[i] + beta[q] - z)
        return nll, expected

    def viterbi_counts(self, score: list[float], n_ids: int) -> list[float]:
        """How often each sid is on its word's best path, times the word's count; ties go to the earliest start."""
        score = self._live_score(score)
        src, dst, sid = self.fwd
        best = [NEG_INF] * len(self.plen)
        best[0] = 0.0
        back_src, back_sid = [0] * len(self.plen), [0] * len(self.plen)
        for s, d, i in zip(src, dst, sid):  # one best path per prefix, shared by the words that have it
            cand = best[s] + score[i]
            if cand > best[d]:
                best[d] = cand
                back_src[d], back_sid[d] = s, i
        freq = [0.0] * n_ids
        for (_, count), p in zip(self.words, self.word_prefix):
            while p:
                freq[back_sid[p]] += count
                p = back_src[p]
        return freq
