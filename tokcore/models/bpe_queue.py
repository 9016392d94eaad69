"""HF's priority-queue merge loop for one word, used by ``BPE`` for BPE-dropout and ``explain``.

The queue holds ``(rank, position, new id)`` for every mergeable adjacent pair; the lowest rank
pops first, the leftmost among equal ranks. Symbols form a linked list so a merge is O(log n).
With dropout, a popped merge is skipped with probability ``dropout`` and the skipped merges go
back to the queue as soon as one merge is taken (the BPE-dropout paper's procedure as HF runs it).
Without dropout this gives the same split as ``BPE._merge``, the faster scan that serves plain
encoding (a property test checks the two agree).

Left out: building the initial symbols and turning ids into tokens (``tokcore.models.bpe``).
"""

from __future__ import annotations

from dataclasses import dataclass
from heapq import heapify, heappop, heappush
from typing import Callable, Optional


@dataclass(frozen=True)
class BpeExplainStep:
    """One step of ``BPE.explain``: the symbols after it, and the merge done (``rank is None`` at the start)."""

    symbols: tuple[str, ...]
    rank: Optional[int] = None
    left: Optional[str] = None
    right: Optional[str] = None
    merged: Optional[str] = None
    position: Optional[int] = None  # index in the previous step's symbols of the merged pair's left side


def queue_merge(
    ids: list[int],
    pos: list[int],
    merge_map: dict[tuple[int, int], int],
    made: list[int],
    dropout: Optional[float],
    random: Callable[[], float],
    record: Optional[list],
) -> None:
    """Merge ``ids`` in place (``pos`` follows them); ``record`` gets ``(rank, left, right, new id)``
    per merge, with ``left``/``right`` the initial indices of the merged symbols. ``merge_map``
    gives a pair's rank, ``made`` the merged id by rank (``tokcore.models.bpe``'s layout).

    ``ids == [0, 1]`` with ``merge_map == {(0, 1): 0}`` and ``made == [2]`` becomes ``[2]``.
    """
    n = len(ids)
    if n < 2:
        return
    get = merge_map.get
    nxt = list(range(1, n)) + [-1]
    prv = list(range(-1, n - 1))
    alive = [True] * n
    sym = list(ids)
    heap = []
    for i in range(n - 1):
        v = get((sym[i], sym[i + 1]))
        if v is not None:
            heap.append((v, i, made[v]))
    heapify(heap)
    skipped: list = []
    while heap:
        top = heappop(heap)
        if dropout and random() < dropout:
            skipped.append(top)
            continue
        for s in skipped:
            heappush(heap, s)
        skipped.clear()
        rank, p, new_id = top
        if not alive[p] or nxt[p] == -1:
            continue
        q = nxt[p]
        v = get((sym[p], sym[q]))
        if v is None or made[v] != new_id:
            continue  # an expired entry: the pair at p changed since it was queued
        sym[p] = new_id
        alive[q] = False
        nxt[p] = r = nxt[q]
        if r != -1:
            prv[r] = p
        if record is not None:
            record.append((rank, p, q, new_id))
        left = prv[p]
        if left != -1:
            v = get((sym[left], new_id))
            if v is not None:
                heappush(heap, (v, left, made[v]))
        if r != -1:
            v = get((new_id, sym[r]))
            if v is not None:
                heappush(heap, (v, p, made[v]))
    keep = [i for i in range(n) if alive[i]]
    ids[:] = [sym[i] for i in keep]
    pos[:] = [pos[i] for i in keep]


def explain_word(model, word: str) -> list[BpeExplainStep]:
    """The steps of ``model.explain(word)``: initial symbols, then one step per merge."""
    if not word:
        return [BpeExplainStep(symbols=())]
    if model.ignore_merges and word in model.vocab:
        return [BpeExplainStep(symbols=(word,))]
    inv = model.id_to_token
    ids, pos, _ = model._symbols(word)
    record: list = []
    queue_merge(list(ids), list(pos), model._merge_map, model._made, None, model._rng.random, record)
    sym = list(ids)
    alive = list(range(len(ids)))  # initial indices still present, in order
    steps = [BpeExplainStep(symbols=tuple(inv(i) for i in sym))]
    for rank, p, q, new_id in record:
        at = alive.index(p)
        left, right = inv(sym[p]), inv(sym[q])
        sym[p] = new_id
        alive.remove(q)
        steps.append(BpeExplainStep(symbols=tuple(inv(sym[i]) for i in alive), rank=rank, left=left,
                                    right=right, merged=inv(new_id), position=at))
    return steps
