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


def sub_nodes(piece: str, ids: dict[str, int], unk: int, max_len: int) -> tuple[list[int], list[int], list[int]]:
    """``(starts, stops, sids)`` of the piece's sub-pieces other than itself, by (stop, start); a
    character no piece covers is an unknown node. ``sub_nodes("ab", {"a": 0, "ab": 2}, 3, 4) == ([0, 1], [1, 2], [0, 3])``
    """
    n = len(piece)
    starts, stops, sids = [], [], []
    get = ids.get
    for e in range(1, n + 1):
        single = False
        for s in range(max(0, e - max_len), e):
            if s == 0 and e == n:
                continue  # the piece itself
            sid = get(piece[s:e])
            if sid is not None:
                starts.append(s)
                stops.append(e)
                sids.append(sid)
                single = e == s + 1
        if not single:
            starts.append(e - 1)
            stops.append(e)
            sids.append(unk)
    return starts, stops, sids


def best_split(nodes: tuple[list[int], list[int], list[int]], n: int, score: list[float], own_score: float,
               alive: list[bool] | None = None) -> tuple[bool, list[int]]:
    """(is the piece its own best segmentation, the sids of its best segmentation without itself).

    One Viterbi pass over ``sub_nodes`` (those of ``alive`` sids), ties to the earliest start:
    the whole-piece node comes first among the nodes ending at the end, so it is the best
    path unless another candidate there is strictly better.
    ``best_split(([0, 1], [1, 2], [0, 1]), 2, [-1.0, -1.0], -1.5) == (True, [0, 1])``
    """
    best = [NEG_INF] * (n + 1)
    best[0] = 0.0
    back_start, back_sid = [0] * (n + 1), [0] * (n + 1)
    for s, e, sid in zip(*nodes):
        if alive is None or alive[sid]:
            cand = best[s] + score[sid]
            if cand > best[e]:
                best[e] = cand
                back_start[e], back_sid[e] = s, sid
    alt = []
    pos = n
    while pos > 0:
        alt.append(back_sid[pos])
        pos = back_start[pos]
    alt.reverse()
    return best[n] <= own_score, alt


def split_piece(piece: str, ids: dict[str, int], score: list[float], unk: int, max_len: int) -> tuple[bool, list[int]]:
    """``best_split`` of a piece found in ``ids``.
    ``split_piece("ab", {"a": 0, "b": 1, "ab": 2}, [-1.0, -1.0, -1.5], 3, 4) == (True, [0, 1])``
    """
    return best_split(sub_nodes(piece, ids, unk, max_len), len(piece), score, score[ids[piece]])


def prune(data, pieces: list[str], score: list[float], alive: list[bool], unk: int, desired: int,
          shrinking_factor: float, max_len: int, cache: dict | None = None) -> list[tuple[int, float]]:
    """``(sid, estimated loss delta)`` of the pieces to remove, cheapest first.

    ``cache`` (kept by the caller across rounds) holds each piece's ``sub_nodes``: pieces only
    ever die, so later rounds just skip the dead ones.
    """
    cache = {} if cache is None else cache
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
        nodes = cache.get(i)
        if nodes is None:
            nodes = cache[i] = sub_nodes(p, ids, unk, max_len)
        own, alt = best_split(nodes, len(p), score, score[i], alive)
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
