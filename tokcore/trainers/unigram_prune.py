"""The Unigram trainer's pruning step, as sentencepiece's ``PruneSentencePieces``.

A piece whose own best segmentation is not itself goes at no cost; for the others the loss
of removing them is estimated from their Viterbi frequency redistributed over their
second-best segmentation (the best one without the whole-piece node); the
``shrinking_factor`` share with the largest losses stays. Single characters always stay.

Left out: EM and the lattices (``unigram_lattice``), the training loop (``unigram``).
"""

from __future__ import annotations

import math

NEG_INF = float("-inf")


def split_piece(piece: str, ids: dict[str, int], score: list[float], unk: int, max_len: int) -> tuple[bool, list[int]]:
    """(is the piece its own best segmentation, the sids of its best segmentation without itself).

    One Viterbi pass over the piece's other sub-pieces, nodes by (stop, start), ties to the
    earliest start: the whole-piece node comes first among the nodes ending at the end, so
    it is the best path unless another candidate there is strictly better.
    ``split_piece("ab", {"a": 0, "b": 1, "ab": 2}, [-1.0, -1.0, -1.5], 3, 4) == (True, [0, 1])``
    """
    n = len(piece)
    best = [NEG_INF] * (n + 1)
    best[0] = 0.0
    back_start, back_sid = [0] * (n + 1), [0] * (n + 1)
    get = ids.get
    single = [False] * n
    for e in range(1, n + 1):
        for s in range(max(0, e - max_len), e):
            if s == 0 and e == n:
                continue  # the piece itself
            sid = get(piece[s:e])
            if sid is None:
                continue
            if e == s + 1:
                single[s] = True
            cand = best[s] + score[sid]
            if cand > best[e]:
                best[e] = cand
                back_start[e], back_sid[e] = s, sid
        if not single[e - 1]:  # a character no piece covers: an unknown node
            cand = best[e - 1] + score[unk]
            if cand > best[e]:
                best[e] = cand
                back_start[e], back_sid[e] = e - 1, unk
    own = best[n] <= score[ids[piece]]
    alt = []
    pos = n
    while pos > 0:
        alt.append(back_sid[pos])
        pos = back_start[pos]
    alt.reverse()
    return own, alt


def prune(data, pieces: list[str], score: list[float], alive: list[bool], unk: int, desired: int,
          shrinking_factor: float, max_len: int) -> list[tuple[int, float]]:
    """``(sid, estimated loss delta)`` of the pieces to remove, cheapest first."""
    ids = {pieces[i]: i for i in range(unk) if alive[i]}
    freq = data.viterbi_counts(score, unk + 1)
    vsum = data.total
    total = sum(freq[i] for i in ids.values()) + freq[unk]
    logsum = math.log(total)
    keep, candidates, removed = [], [], []
    for p, i in ids.items():
        if len(p) == 1:
            keep.append(i)  # single characters always stay
            continue
        if freq[i] == 0:
            removed.append((i, 0.0))
            continue
        own, alt = split_piece(p, ids, score, unk, max_len)
        if not own:
            removed.append((i, 0.0))  # never its own best split: it can go at no cost
            continue
        logprob_sp = math.log(freq[i]) - logsum
        logsum_alt = math.log(total + freq[i] * (len(alt) - 1))
        # unknown characters count as one pseudo-piece with their Viterbi frequency, as in HF
        logprob_alt = sum(math.log(freq[n] + freq[i]) - logsum_alt for n in alt)
        candidates.append((i, (freq[i] / vsum) * (logprob_sp - logprob_alt)))
    pruned_size = max(desired, int(shrinking_factor * len(ids)))
    candidates.sort(key=lambda c: (-c[1], c[0]))
    room = max(0, pruned_size - len(keep))
    removed.extend(reversed(candidates[room:]))
    return removed
