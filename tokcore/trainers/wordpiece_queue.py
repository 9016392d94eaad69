"""The candidate queue of WordPiece training: the best pair by exact score, re-keying as few pairs as a merge allows.

A pair's score is ``count / (f(left) * f(right))``, so a merge that changes a symbol's frequency
changes the score of every pair holding that symbol; late in training one frequent symbol (``##e``
on English) holds thousands of pairs and takes part in a merge every few steps. So each pair has an
owner, one of its symbols (the more frequent when the pair appears), and sits in its owner's heap
keyed by ``count / f(other)``. A new frequency of the owner divides that whole heap alike and keeps
its order: only the owner's best pair needs a new entry in the outer heap, which ranks the owners'
bests by score. A new frequency of the other symbol re-keys the pair (it is one of that symbol's
``guests``). In both heaps ties go to the pair seen first (smaller ``first``).

Keys are exact ints: ``floor(value * 2**shift)`` with ``2**shift`` at least the product of the two
denominators two values can have, so different values never share a key. Entries are never
removed in place: an entry is valid while it still describes its pair (owner, count, first
occurrence, key), and the others are dropped when they surface.

Left out: the words and how a merge changes counts (``trainers.wordpiece_merge``).
"""

from __future__ import annotations

from heapq import heapify, heappop, heappush

PAIR_SHIFT = 32  # a pair (x, y) of symbol ids is the int x << PAIR_SHIFT | y; ids stay below 2**32
LOW = (1 << PAIR_SHIFT) - 1


class PairQueue:
    """Finds the best pair among ``pair_count`` (shared with the merger, as ``first`` and ``freq`` are).

    The merger calls ``adopt`` for each new pair, ``release`` for each pair gone, then, once per
    merge, ``rescore`` with the pairs whose count or first occurrence changed and the symbols
    whose frequency changed.
    """

    def __init__(self, pair_count: dict[int, int], first: dict[int, int], freq: list[int], min_frequency: int):
        self.pair_count, self.first, self.freq = pair_count, first, freq
        self.min_count = max(1, min_frequency)
        bits = max(1, sum(freq)).bit_length()  # every count and frequency stays at most the first total
        self.inner_shift = 2 * bits  # values count / f: denominators below 2**bits
        self.outer_shift = 4 * bits  # scores: denominators below 2**(2 * bits)
        self.owner: dict[int, int] = {}
        self.guests: dict[int, set] = {}  # symbol -> the pairs keyed by its frequency in another's heap
        self.inner: dict[int, list] = {}
        self.outer: list = []
        self.touched: set = set()  # owners whose best may have changed since the last rescore
        for pair in pair_count:
            self.adopt(pair)
        for entry in self._inner_entries(pair_count):
            self.inner[self.owner[entry[2]]].append(entry)
        for heap in self.inner.values():
            heapify(heap)
        for owner in self.inner:
            self._refresh(owner)

    # ------------------------------------------------------------------ membership
    def adopt(self, pair: int) -> None:
        """Give a new pair its owner: the more frequent symbol now (the left one on a tie)."""
        left, right = pair >> PAIR_SHIFT, pair & LOW
        owner, other = (left, right) if self.freq[left] >= self.freq[right] else (right, left)
        self.owner[pair] = owner
        # A pair of one symbol twice is its own guest: that symbol's frequency is in its key too.
        self.guests.setdefault(other, set()).add(pair)
        if owner not in self.inner:
            self.inner[owner] = []

    def release(self, pair: int) -> None:
        """Forget a pair no word holds any more; its owner's best may have been this pair."""
        owner = self.owner.pop(pair)
        left = pair >> PAIR_SHIFT
        self.guests[pair & LOW if owner == left else left].discard(pair)
        self.touched.add(owner)

    # ------------------------------------------------------------------ keys
    def _inner_entries(self, pairs) -> list:
        """Fresh owner-heap entries ``(-key, first, pair)`` for those of ``pairs`` counted often enough."""
        pair_count, first, freq, owner_of = self.pair_count, self.first, self.freq, self.owner
        shift, min_count = self.inner_shift, self.min_count
        return [(-((c << shift) // freq[pair & LOW if owner_of[pair] == pair >> PAIR_SHIFT else pair >> PAIR_SHIFT]),
                 first[pair], pair)
                for pair in pairs if (c := pair_count[pair]) >= min_count]

    def _outer_key(self, pair: int) -> int:
        return -((self.pair_count[pair] << self.outer_shift) // (self.freq[pair >> PAIR_SHIFT] * self.freq[pair & LOW]))

    def _describes(self, entry: tuple, owner: int | None = None) -> bool:
        """Whether a heap entry still holds for its pair (in ``owner``'s heap, or in the outer heap)."""
        key, at, pair = entry
        count = self.pair_count.get(pair)
        if count is None or count < self.min_count or self.first[pair] != at:
            return False
        if owner is None:
            return self._outer_key(pair) == key
        if self.owner[pair] != owner:
            return False
        left = pair >> PAIR_SHIFT
        other = pair & LOW if owner == left else left
        return -((count << self.inner_shift) // self.freq[other]) == key

    # ------------------------------------------------------------------ updates
    def rescore(self, pairs, symbols) -> None:
        """Queue fresh entries after a merge: ``pairs`` changed count or first occurrence, ``symbols`` frequency."""
        changed = set(pairs)
        for sym in symbols:
            changed |= self.guests.get(sym, set())
        owner_of, touched = self.owner, self.touched
        live = [pair for pair in changed if pair in owner_of]
        touched.update(symbols)  # an owner's own frequency scales its heap: its best needs a new outer entry
        touched.update(map(owner_of.__getitem__, live))
        inner = self.inner
        for entry in self._inner_entries(live):
            heappush(inner[owner_of[entry[2]]], entry)
        for owner in touched:
            self._refresh(owner)
        touched.clear()

    def _refresh(self, owner: int, skip=frozenset()) -> None:
        """Drop the stale (or ``skip``ped) top entries of ``owner``'s heap; queue its best in the outer heap."""
        heap = self.inner.get(owner)
        while heap:
            entry = heap[0]
            if entry[2] not in skip and self._describes(entry, owner):
                heappush(self.outer, (self._outer_key(entry[2]), entry[1], entry[2]))
                return
            heappop(heap)

    # ------------------------------------------------------------------ queries
    def _pop_valid(self):
        outer = self.outer
        while outer:
            entry = heappop(outer)
            if self._describes(entry):
                return entry
        return None

    def pop_best(self) -> int | None:
        """The best pair (its outer entry is used up: the caller merges it away), or ``None``."""
        entry = self._pop_valid()
        return None if entry is None else entry[2]

    def top(self, k: int) -> list[int]:
        """The ``k`` best pairs in selection order; the queue keeps every pair it held."""
        taken: list[int] = []
        seen: set = set()
        while len(taken) < k:
            entry = self._pop_valid()
            if entry is None:
                break
            pair = entry[2]
            if pair in seen:  # an identical copy of a listed entry
                continue
            seen.add(pair)
            taken.append(pair)
            self._refresh(self.owner[pair], skip=seen)  # the owner's next best joins the outer heap
        # Put the listed pairs back in both heaps (their skipped owner-heap entries were dropped).
        for entry in self._inner_entries(taken):
            heappush(self.inner[self.owner[entry[2]]], entry)
        for pair in taken:
            heappush(self.outer, (self._outer_key(pair), self.first[pair], pair))
        return taken

