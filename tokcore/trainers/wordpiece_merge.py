"""The merge state of ``train_wordpiece``: splits, symbol frequencies, pair counts and first occurrences.

Symbols are ids (``names[i]`` is the text) and a pair ``(x, y)`` is the int ``x << PAIR_SHIFT | y``,
so the many dictionary look-ups of re-scoring hash plain ints. Each step takes the pair of highest
``count / (f(left) * f(right))``, ties to the pair seen first (words in first-seen order, pairs
left to right). A merge touches only the words containing the pair; the queue
(``trainers.wordpiece_queue``) then re-keys only the pairs whose count, first occurrence or
scoring frequency changed.

Left out: the trainer's options, records and tokenizer (``trainers.wordpiece``).
"""

from __future__ import annotations

from .wordpiece_queue import LOW, PAIR_SHIFT, PairQueue


class WordPieceMerger:
    """The training state. ``merge_best()`` does one step; ``top(k)`` peeks at the next candidates."""

    def __init__(self, counts: dict[str, int], prefix: str, min_frequency: int, step_type):
        self.prefix = prefix
        self.cut = len(prefix)
        self.step_type = step_type
        self.counts = list(counts.values())
        self.keys = list(counts)
        self.names: list[str] = []
        self.ids: dict[str, int] = {}
        self.words = [[self._id(s) for s in initial_split(w, prefix)] for w in counts]
        # Character offset of each symbol in its word: stable under merges, so (word, offset)
        # orders pair occurrences "words first-seen, pairs left to right" for good.
        self.offs = [list(range(len(w))) for w in counts]
        self.width = max((len(w) for w in counts), default=0) + 1
        self.freq: list[int] = [0] * len(self.names)
        self.pair_count: dict[int, int] = {}
        self.pair_words: dict[int, set] = {}
        self.first: dict[int, int] = {}  # word * width + offset of the pair's first occurrence
        freq, pair_count, pair_words, first = self.freq, self.pair_count, self.pair_words, self.first
        for w, (syms, c) in enumerate(zip(self.words, self.counts)):
            for s in syms:
                freq[s] += c
            for i in range(len(syms) - 1):
                pair = syms[i] << PAIR_SHIFT | syms[i + 1]
                if pair in pair_count:
                    pair_count[pair] += c
                    pair_words[pair].add(w)
                else:
                    pair_count[pair] = c
                    pair_words[pair] = {w}
                    first[pair] = w * self.width + i
        self.alphabet = sorted(self.names)
        self.queue = PairQueue(pair_count, first, freq, min_frequency)

    def _id(self, name: str) -> int:
        i = self.ids.get(name)
        if i is None:
            i = self.ids[name] = len(self.names)
            self.names.append(name)
        return i

    def top(self, k: int) -> list[tuple]:
        """The ``k`` best candidates, in selection order, as ``(left, right, count, f(left), f(right), score)``."""
        rows = []
        for pair in self.queue.top(k):
            a, b = pair >> PAIR_SHIFT, pair & LOW
            p, fa, fb = self.pair_count[pair], self.freq[a], self.freq[b]
            rows.append((self.names[a], self.names[b], p, fa, fb, p / (fa * fb)))
        return rows

    # ------------------------------------------------------------------ merging
    def merge_best(self):
        """Merge the best pair everywhere; its step record, or ``None`` when no pair is left."""
        pair = self.queue.pop_best()
        if pair is None:
            return None
        a, b = pair >> PAIR_SHIFT, pair & LOW
        left, right = self.names[a], self.names[b]
        count = self.pair_count[pair]
        fa, fb = self.freq[a], self.freq[b]
        merged_name = left + right[self.cut:] if right.startswith(self.prefix) else left + right
        step = self.step_type(left, right, merged_name, count / (fa * fb), count, fa, fb)
        merged = self._id(merged_name)
        if merged == len(self.freq):
            self.freq.append(0)
        changed: set = set()
        for w in sorted(self.pair_words[pair]):
            self._merge_in_word(w, a, b, merged, changed)
        self.queue.rescore(changed, (a, b, merged))  # the frequencies of these three changed
        return step

    def _merge_in_word(self, w: int, a: int, b: int, merged: int, changed: set) -> None:
        syms, offs, c = self.words[w], self.offs[w], self.counts[w]
        new_syms, new_offs = [], []
        i, n, hits = 0, len(syms), 0
        while i < n:
            if i + 1 < n and syms[i] == a and syms[i + 1] == b:
                new_syms.append(merged)
                new_offs.append(offs[i])
                i += 2
                hits += 1
            else:
                new_syms.append(syms[i])
                new_offs.append(offs[i])
                i += 1
        if not hits:
            return
        freq = self.freq
        freq[a] -= hits * c
        freq[b] -= hits * c
        freq[merged] += hits * c
        old = _pairs_of(syms, offs)
        new = _pairs_of(new_syms, new_offs)
        self.words[w], self.offs[w] = new_syms, new_offs
        base = w * self.width
        width, first, pair_count, pair_words = self.width, self.first, self.pair_count, self.pair_words
        for pair in old.keys() | new.keys():
            o, m = old.get(pair), new.get(pair)
            if o == m:
                continue
            changed.add(pair)
            delta = ((m[0] if m else 0) - (o[0] if o else 0)) * c
            if o is None:
                self._add_pair(pair, w, delta, base + m[1])
                continue
            pair_count[pair] += delta
            if m is None:
                pair_words[pair].discard(w)
                if not pair_words[pair]:
                    self._drop_pair(pair)
                elif first[pair] // width == w:
                    first[pair] = self._find_first(pair)
            elif first[pair] // width == w:
                first[pair] = base + m[1]

    def _add_pair(self, pair: int, w: int, count: int, where: int) -> None:
        if pair in self.pair_count:
            self.pair_count[pair] += count
            self.pair_words[pair].add(w)
            if where < self.first[pair]:
                self.first[pair] = where
            return
        self.pair_count[pair] = count
        self.pair_words[pair] = {w}
        self.first[pair] = where
        self.queue.adopt(pair)

    def _drop_pair(self, pair: int) -> None:
        del self.pair_count[pair], self.pair_words[pair], self.first[pair]
        self.queue.release(pair)

    def _find_first(self, pair: int) -> int:
        w = min(self.pair_words[pair])
        syms, offs = self.words[w], self.offs[w]
        for i in range(len(syms) - 1):
            if syms[i] << PAIR_SHIFT | syms[i + 1] == pair:
                return w * self.width + offs[i]
        raise RuntimeError(f"pair {pair!r} indexed in word {w} but absent")  # internal bug, not user input

    def splits(self) -> dict[str, list[str]]:
        """Each training word with its final symbols."""
        names = self.names
        return {k: [names[s] for s in syms] for k, syms in zip(self.keys, self.words)}


def initial_split(word: str, prefix: str = "##") -> list[str]:
    """The characters of ``word``, non-initial ones prefixed. ``initial_split("hug") == ["h", "##u", "##g"]``."""
    return [ch if i == 0 else prefix + ch for i, ch in enumerate(word)]


def _pairs_of(syms: list[int], offs: list[int]) -> dict[int, list]:
    """``{pair: [occurrences, offset of the first]}``. ``_pairs_of([1, 2], [0, 1]) == {1 << 32 | 2: [1, 0]}``."""
    out: dict[int, list] = {}
    for i in range(len(syms) - 1):
        pair = syms[i] << PAIR_SHIFT | syms[i + 1]
        got = out.get(pair)
        if got is None:
            out[pair] = [1, offs[i]]
        else:
            got[0] += 1
    return out
