"""The merge loop of ``train_bpe``: incremental pair counts and a lazily corrected queue, as HF's ``BpeTrainer``.

Words are lists of symbol ids. A pair ``(a, b)`` is the int ``a << shift | b`` (cheaper to hash
and compare than a tuple, same order). A queue entry is one int too (int comparisons keep the heap
cheap): ``(pair - (count << 2 * shift)) << SEQ_BITS | seq``, smaller is better, so the heap pops the
highest count first, among equal counts the pair of smaller ids, then the entry queued first; the
words an entry carries are kept beside it, by ``seq``. An entry whose count is out of date is
re-queued with the current count (keeping its words), as HF does; a merge rewrites only the words
its entry carries and queues the pairs it created.

Left out: building the alphabet and the words (``trainers.bpe``).
"""

from __future__ import annotations

from collections import defaultdict
from heapq import heapify, heappop, heappush, heapreplace
from typing import Any

from .base import report

TIE_CAP = 20  # pairs tied with the k-th most frequent one are listed up to this many more
SEQ_BITS = 48  # queue entries are numbered below 2**48
SEQ_MASK = (1 << SEQ_BITS) - 1


def merge_words(words: list[list[int]], counts: list[int], id2w: list[str], w2id: dict[str, int],
                lengths: list[int], *, vocab_size: int, min_frequency: int, prefix, max_token_length,
                progress, top_k: int, step_type) -> dict[str, Any]:
    """Merge until ``vocab_size`` tokens or no pair left; ``words``, ``id2w``, ``w2id`` and ``lengths`` grow in place.

    Returns ``{"merges", "steps", "stop_reason", "top_pairs"}``. ``lengths[i]`` is how many corpus
    characters token ``i`` stands for (for ``max_token_length``).
    """
    shift = max(vocab_size, len(id2w)).bit_length()  # every id stays below 2**shift
    low = (1 << shift) - 1
    kshift = 2 * shift
    kmask = (1 << kshift) - 1

    # Initial pair counts and where each pair occurs.
    pc: dict[int, int] = {}
    where: dict[int, set] = {}
    for wi, syms in enumerate(words):
        c = counts[wi]
        for x, y in zip(syms, syms[1:]):
            k = x << shift | y
            if k in pc:
                pc[k] += c
                where[k].add(wi)
            else:
                pc[k] = c
                where[k] = {wi}
    heap: list[int] = []
    pos_of: dict[int, Any] = {}  # seq -> the words of that queue entry
    seq = 0
    for k, pos in where.items():
        cnt = pc[k]
        if cnt > 0:
            heap.append((k - (cnt << kshift)) << SEQ_BITS | seq)
            pos_of[seq] = pos
            seq += 1
    heapify(heap)

    unlimited = max_token_length is None
    max_len = 0 if unlimited else max_token_length
    steps: list = []
    merges: list[tuple[str, str]] = []
    merged_pairs: set[int] = set()
    top_pairs: list = []
    stop_reason = "no pair left"
    total = max(vocab_size - len(id2w), 1)
    report(progress, 0, total, "merging")
    get = pc.get
    while True:
        if len(id2w) >= vocab_size:
            stop_reason = "vocab_size reached"
            break
        if not heap:
            break
        entry = heap[0]
        prio = entry >> SEQ_BITS
        k = prio & kmask
        cnt = pc[k]
        if prio != k - (cnt << kshift):
            heapreplace(heap, (k - (cnt << kshift)) << SEQ_BITS | seq)
            pos_of[seq] = pos_of.pop(entry & SEQ_MASK)
            seq += 1
            continue
        heappop(heap)
        pos = pos_of.pop(entry & SEQ_MASK)
        if cnt < 1:
            break
        if min_frequency > cnt:
            stop_reason = "min_frequency"
            break
        if top_k:
            top_pairs.append(_top_pairs(heap, k, cnt, pc, merged_pairs, top_k, id2w, shift))
        a, b = k >> shift, k & low
        same = a == b
        left, right = id2w[a], id2w[b]
        rest = right[len(prefix):] if prefix is not None and right.startswith(prefix) else right
        new_token = left + rest
        new_id = w2id.get(new_token)
        if new_id is None:
            new_id = w2id[new_token] = len(id2w)
            id2w.append(new_token)
            lengths.append(lengths[a] + lengths[b])
        merges.append((left, right))
        merged_pairs.add(k)
        steps.append(step_type(left, right, new_token, cnt))
        new_len = lengths[new_id]
        new_left = new_id << shift  # the key of (new, q) is new_left | q
        created: defaultdict = defaultdict(list)  # new pair -> words (repeats are harmless)
        # Rewrite the words this entry points at; adjust the neighbours' pair counts. Every pair
        # adjacent in a word has a count, except one a length limit kept out: hence ``get``.
        for wi in pos:
            w = words[wi]
            m = w.count(a)  # the left symbols still to look at (an entry's words may have changed since)
            if not m:
                continue
            n = len(w)
            c = counts[wi]
            i = 0
            while m:
                i = w.index(a, i)
                m -= 1
                if i + 1 == n or w[i + 1] != b:
                    i += 1
                    continue
                if same:
                    m -= 1  # the right symbol was a left one too
                if i:
                    p = w[i - 1]
                    key = p << shift
                    pc[key | a] = get(key | a, 0) - c
                    if unlimited or lengths[p] + new_len < max_len:
                        key |= new_id
                        pc[key] = get(key, 0) + c
                        created[key].append(wi)
                w[i] = new_id
                del w[i + 1]
                n -= 1
                if i < n - 1:
                    q = w[i + 1]
                    key = b << shift | q
                    pc[key] = get(key, 0) - c
                    if unlimited or lengths[q] + new_len < max_len:
                        key = new_left | q
                        pc[key] = get(key, 0) + c
                        created[key].append(wi)
                i += 1
        for key, s in created.items():
            cnt = pc[key]
            if cnt > 0:
                heappush(heap, (key - (cnt << kshift)) << SEQ_BITS | seq)
                pos_of[seq] = s
                seq += 1
        if progress is not None and len(steps) % 100 == 0:
            report(progress, len(steps), total, "merging")
    return {"merges": merges, "steps": steps, "stop_reason": stop_reason, "top_pairs": top_pairs}


def _top_pairs(heap, pair, count, pc, merged_pairs, k, id2w, shift) -> list[tuple[str, str, int]]:
    """The k most frequent live pairs plus those tied with the k-th (up to ``TIE_CAP`` more), in merge order.

    Every live pair has a queue entry whose count is at least its current count, so walking the
    heap tree best-first (children after parents) can stop once entries fall below the k-th count,
    or once k + TIE_CAP pairs are known to beat every entry not yet seen. ``pair`` (just popped,
    about to be merged) is counted in by hand.
    """
    kshift = 2 * shift
    kmask = (1 << kshift) - 1
    found = {pair: count}
    best = [count]  # min-heap of the k largest counts found
    pending = [-count]  # found counts not yet known to beat the walk's bound (max-heap)
    secured = 0
    aux = [(heap[0], 0)] if heap else []
    n = len(heap)
    while aux:
        entry, i = heappop(aux)
        prio = entry >> SEQ_BITS
        bound = -(prio >> kshift)
        while pending and -pending[0] >= bound:
            heappop(pending)
            secured += 1
        if len(best) >= k and (bound < best[0] or secured >= k + TIE_CAP):
            break
        p = prio & kmask
        if p not in found and p not in merged_pairs:
            c = pc[p]
            if c > 0:
                found[p] = c
                heappush(pending, -c)
                if len(best) < k:
                    heappush(best, c)
                elif c > best[0]:
                    heapreplace(best, c)
        for j in (2 * i + 1, 2 * i + 2):
            if j < n:
                heappush(aux, (heap[j], j))
    kth = best[0]
    chosen = sorted((-c, p) for p, c in found.items() if c >= kth)[: k + TIE_CAP]
    low = (1 << shift) - 1
    return [(id2w[p >> shift], id2w[p & low], -negc) for negc, p in chosen]
