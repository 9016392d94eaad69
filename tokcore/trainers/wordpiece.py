"""WordPiece training by the classic likelihood merge (the course definition).

Words start as characters, every non-initial one marked with the continuing prefix
(``hugs`` -> ``h ##u ##g ##s``). Each step merges the adjacent pair with the highest
``score(a, b) = f(ab) / (f(a) * f(b))``, where ``f`` counts occurrences (weighted by word count)
in the current splits; ties go to the pair seen first (words in first-seen order, pairs left to
right). The vocabulary is the special tokens, the sorted alphabet, then the merged tokens.

This is NOT what HF tokenizers' ``WordPieceTrainer`` does: that one runs BPE (most frequent
pair) and only stores the result as a WordPiece model. Expect different vocabularies.

Counts are incremental: a merge touches only the words containing the pair, and re-scores only
the pairs whose count, first occurrence or symbol frequencies changed (a lazy-deletion heap
holds the rest). Scores are compared exactly (integer cross-multiplication) on float ties.

Left out: the model itself (``tokcore.models.wordpiece``) and BPE-style WordPiece training.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from functools import partial
from typing import Iterable, Mapping, Optional

from ..components import Normalizer, PreTokenizer
from ..errors import ConfigurationError, WrongTypeError
from .base import Progress, TrainResult, check_vocab_size, count_words, report
from .char import special_token_list

AUTO_CANDIDATES_MAX_WORDS = 2_000  # top_candidates="auto" records 10 candidates per step up to this many words


@dataclass(frozen=True)
class WordPieceStep:
    """One merge: ``left + right -> merged`` with its score ``count / (left_frequency * right_frequency)``."""

    left: str
    right: str
    merged: str
    score: float
    count: int
    left_frequency: int = 0
    right_frequency: int = 0


def initial_split(word: str, prefix: str = "##") -> list[str]:
    """The characters of ``word``, non-initial ones prefixed. ``initial_split("hug") == ["h", "##u", "##g"]``."""
    return [ch if i == 0 else prefix + ch for i, ch in enumerate(word)]


def train_wordpiece(
    corpus: Iterable[str] | Mapping[str, int],
    vocab_size: int,
    *,
    special_tokens: Iterable[str] = (),
    min_frequency: int = 1,
    limit_alphabet: int | None = None,
    continuing_subword_prefix: str = "##",
    unk_token: str | None = None,
    pre_tokenizer: Optional[PreTokenizer] = None,
    normalizer: Optional[Normalizer] = None,
    progress: Optional[Progress] = None,
    top_candidates: int | str | None = "auto",
) -> TrainResult:
    """Learn a WordPiece vocabulary with the likelihood score (not HF's BPE-based trainer).

    ``vocab_size`` counts everything (special tokens and the whole alphabet, which is always
    kept). A pair is a candidate only when its count reaches ``min_frequency``.
    ``limit_alphabet`` keeps the most frequent characters (ties: first seen); words with any
    other character are left out of training, since they encode as the unknown token anyway.
    ``unk_token`` goes first among the special tokens when it is not listed; the model's unknown token
    is ``unk_token`` or ``"[UNK]"``. ``top_candidates=k`` records, per step, the ``k`` best
    candidates (in selection order) as ``(left, right, count, left_frequency,
    right_frequency, score)`` in ``details["candidates"]``; ``"auto"`` (the default) means 10
    for at most 2,000 distinct words, else none (as ``train_bpe``'s ``record_top_pairs``). ``details`` also holds the
    ``alphabet``, the ``word_counts`` trained on, each word's final ``splits`` and the number of
    ``skipped_words``.
    The tokenizer: ``WordPiece`` model, the given normalizer, the pre-tokenizer (default
    ``Whitespace``) and a ``WordPiece`` decoder.
    """
    specials = special_token_list(special_tokens, unk_token)
    check_vocab_size(vocab_size)
    if isinstance(min_frequency, bool) or not isinstance(min_frequency, int) or min_frequency < 0:
        raise ConfigurationError(f"min_frequency must be a non-negative int, got {min_frequency!r}")
    if top_candidates is not None and top_candidates != "auto" and (
        isinstance(top_candidates, bool) or not isinstance(top_candidates, int) or top_candidates < 0
    ):
        raise ConfigurationError(f"top_candidates must be a non-negative int, 'auto' or None, got {top_candidates!r}")
    if limit_alphabet is not None and (isinstance(limit_alphabet, bool) or not isinstance(limit_alphabet, int) or limit_alphabet < 0):
        raise ConfigurationError(f"limit_alphabet must be a non-negative int or None, got {limit_alphabet!r}")
    if not isinstance(continuing_subword_prefix, str):
        raise WrongTypeError("continuing_subword_prefix must be a str")
    if pre_tokenizer is None:
        from ..pre_tokenizers import Whitespace

        pre_tokenizer = Whitespace()
    counts = count_words(corpus, normalizer=normalizer, pre_tokenizer=pre_tokenizer)
    report(progress, 0, 1, "words counted")
    word_counts = counts
    if top_candidates == "auto":
        top_candidates = 10 if len(counts) <= AUTO_CANDIDATES_MAX_WORDS else 0
    top_candidates = top_candidates or 0
    counts, skipped = _limit_alphabet(counts, limit_alphabet)
    state = _Merger(counts, continuing_subword_prefix, min_frequency)
    alphabet = sorted(state.sym_freq)
    vocab: dict[str, int] = {}
    for tok in specials + alphabet:
        vocab.setdefault(tok, len(vocab))
    steps: list[WordPieceStep] = []
    candidates: list[list[tuple]] = []
    target = max(0, vocab_size - len(vocab))
    every = max(1, target // 100)
    stop_reason = "vocab_size reached"
    while len(vocab) < vocab_size:
        if top_candidates:
            candidates.append(state.top(top_candidates))
        step = state.merge_best()
        if step is None:
            if top_candidates:
                candidates.pop()  # the empty table of the step that did not happen
            stop_reason = "no pair left" if min_frequency <= 1 else f"no pair seen {min_frequency} times or more"
            break
        steps.append(step)
        vocab.setdefault(step.merged, len(vocab))
        if len(steps) % every == 0:
            report(progress, min(len(steps), target), target, "merges")
    report(progress, target, target, "merges")
    longest = max(map(len, counts), default=0)
    tokenizer = _build_tokenizer(vocab, specials, unk_token, continuing_subword_prefix, normalizer, pre_tokenizer, longest)
    details = {
        "alphabet": alphabet,
        "skipped_words": skipped,
        "word_counts": word_counts,
        "splits": state.splits(),
        "candidates": candidates if top_candidates else None,
        "stop_reason": stop_reason,
    }
    return TrainResult(tokenizer, steps, details)


class _Merger:
    """The training state: current splits, pair counts and a lazy heap of scored pairs."""

    def __init__(self, counts: dict[str, int], prefix: str, min_frequency: int):
        self.prefix = prefix
        self.cut = len(prefix)
        self.min_frequency = min_frequency
        self.counts = list(counts.values())
        self.words = [initial_split(w, prefix) for w in counts]
        self.keys = list(counts)
        # Character offset of each symbol in its word: stable under merges, so (word, offset)
        # orders pair occurrences "words first-seen, pairs left to right" for good.
        self.offs = [list(range(len(w))) for w in counts]
        self.width = max((len(w) for w in counts), default=0) + 1
        self.sym_freq: dict[str, int] = {}
        self.pair_count: dict[tuple, int] = {}
        self.pair_words: dict[tuple, set] = {}
        self.first: dict[tuple, int] = {}  # word * width + offset of the pair's first occurrence
        self.left_of: dict[str, set] = {}
        self.right_of: dict[str, set] = {}
        self.version: dict[tuple, int] = {}
        self.tick = 0
        sym_freq, pair_count, pair_words, first = self.sym_freq, self.pair_count, self.pair_words, self.first
        for w, (syms, c) in enumerate(zip(self.words, self.counts)):
            for s in syms:
                sym_freq[s] = sym_freq.get(s, 0) + c
            for i in range(len(syms) - 1):
                pair = (syms[i], syms[i + 1])
                if pair in pair_count:
                    pair_count[pair] += c
                    pair_words[pair].add(w)
                else:
                    pair_count[pair] = c
                    pair_words[pair] = {w}
                    first[pair] = w * self.width + i
                    self.left_of.setdefault(pair[0], set()).add(pair)
                    self.right_of.setdefault(pair[1], set()).add(pair)
        # Heap key: floor(score * 2**shift), negated. With every f <= total, two different scores
        # p1/q1 != p2/q2 differ by at least 1/(q1*q2) >= 2**-shift, so the key is exact (no
        # float rounding can merge them) and compares as a plain int.
        self.shift = 4 * max(1, sum(sym_freq.values())).bit_length()
        self.heap: list = []
        self._score(pair_count, self.heap.append)
        heapq.heapify(self.heap)

    # ------------------------------------------------------------------ heap
    def _score(self, pairs, put) -> None:
        """(Re)score ``pairs``: a fresh heap entry each, older entries of them become stale."""
        pair_count, sf, first, version = self.pair_count, self.sym_freq, self.first, self.version
        tick, min_frequency, shift = self.tick, max(1, self.min_frequency), self.shift
        for pair in pairs:
            p = pair_count.get(pair)
            if p is None:
                continue
            tick += 1
            version[pair] = tick
            if p >= min_frequency:
                put((-((p << shift) // (sf[pair[0]] * sf[pair[1]])), first[pair], tick, pair))
        self.tick = tick

    def _pop_valid(self):
        heap, version = self.heap, self.version
        while heap:
            entry = heapq.heappop(heap)
            if version.get(entry[3]) == entry[2]:
                return entry
        return None

    def top(self, k: int) -> list[tuple]:
        """The ``k`` best candidates, in selection order, without changing anything."""
        got = []
        while len(got) < k:
            entry = self._pop_valid()
            if entry is None:
                break
            got.append(entry)
        for entry in got:
            heapq.heappush(self.heap, entry)
        sf, pc = self.sym_freq, self.pair_count
        rows = []
        for _, _, _, (a, b) in got:
            p, fa, fb = pc[(a, b)], sf[a], sf[b]
            rows.append((a, b, p, fa, fb, p / (fa * fb)))
        return rows

    # ------------------------------------------------------------------ merging
    def merge_best(self) -> WordPieceStep | None:
        entry = self._pop_valid()
        if entry is None:
            return None
        a, b = pair = entry[3]
        count = self.pair_count[pair]
        fa, fb = self.sym_freq[a], self.sym_freq[b]
        step = WordPieceStep(a, b, a + b[self.cut:] if b.startswith(self.prefix) else a + b,
                             count / (fa * fb), count, fa, fb)
        merged = step.merged
        changed: set = set()
        for w in sorted(self.pair_words[pair]):
            self._merge_in_word(w, a, b, merged, changed)
        for sym in (a, b, merged):
            # Their frequencies changed, so every pair they take part in has a new score.
            changed.update(self.left_of.get(sym, ()))
            changed.update(self.right_of.get(sym, ()))
        self._score(changed, partial(heapq.heappush, self.heap))
        return step

    def _merge_in_word(self, w: int, a: str, b: str, merged: str, changed: set) -> None:
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
        sf = self.sym_freq
        sf[a] -= hits * c
        sf[b] -= hits * c
        sf[merged] = sf.get(merged, 0) + hits * c
        old = _pairs_of(syms, offs)
        new = _pairs_of(new_syms, new_offs)
        self.words[w], self.offs[w] = new_syms, new_offs
        base = w * self.width
        for pair in old.keys() | new.keys():
            o, m = old.get(pair), new.get(pair)
            if o == m:
                continue
            changed.add(pair)
            delta = ((m[0] if m else 0) - (o[0] if o else 0)) * c
            if o is None:
                self._add_pair(pair, w, delta, base + m[1])
                continue
            self.pair_count[pair] += delta
            if m is None:
                self.pair_words[pair].discard(w)
                if not self.pair_words[pair]:
                    self._drop_pair(pair)
                elif self.first[pair] // self.width == w:
                    self.first[pair] = self._find_first(pair)
            elif self.first[pair] // self.width == w:
                self.first[pair] = base + m[1]

    def _add_pair(self, pair: tuple, w: int, count: int, where: int) -> None:
        if pair in self.pair_count:
            self.pair_count[pair] += count
            self.pair_words[pair].add(w)
            if where < self.first[pair]:
                self.first[pair] = where
            return
        self.pair_count[pair] = count
        self.pair_words[pair] = {w}
        self.first[pair] = where
        self.left_of.setdefault(pair[0], set()).add(pair)
        self.right_of.setdefault(pair[1], set()).add(pair)

    def _drop_pair(self, pair: tuple) -> None:
        del self.pair_count[pair], self.pair_words[pair], self.first[pair]
        self.version.pop(pair, None)
        self.left_of[pair[0]].discard(pair)
        self.right_of[pair[1]].discard(pair)

    def _find_first(self, pair: tuple) -> int:
        w = min(self.pair_words[pair])
        syms, offs = self.words[w], self.offs[w]
        for i in range(len(syms) - 1):
            if syms[i] == pair[0] and syms[i + 1] == pair[1]:
                return w * self.width + offs[i]
        raise RuntimeError(f"pair {pair!r} indexed in word {w} but absent")  # internal bug, not user input

    def splits(self) -> dict[str, list[str]]:
        """Each training word with its final symbols."""
        return {k: list(s) for k, s in zip(self.keys, self.words)}


def _pairs_of(syms: list[str], offs: list[int]) -> dict[tuple, list]:
    """``{pair: [occurrences, offset of the first]}``. ``_pairs_of(["a", "##b"], [0, 1]) == {("a", "##b"): [1, 0]}``."""
    out: dict[tuple, list] = {}
    for i in range(len(syms) - 1):
        pair = (syms[i], syms[i + 1])
        got = out.get(pair)
        if got is None:
            out[pair] = [1, offs[i]]
        else:
            got[0] += 1
    return out


def _limit_alphabet(counts: dict[str, int], limit: int | None) -> tuple[dict[str, int], int]:
    """Keep words whose characters are all among the ``limit`` most frequent; returns (words, skipped)."""
    if limit is None:
        return counts, 0
    freq: dict[str, int] = {}
    for word, c in counts.items():
        for ch in word:
            freq[ch] = freq.get(ch, 0) + c
    order = {ch: i for i, ch in enumerate(freq)}
    keep = set(sorted(freq, key=lambda ch: (-freq[ch], order[ch]))[:limit])
    kept = {w: c for w, c in counts.items() if set(w) <= keep}
    return kept, len(counts) - len(kept)


def _build_tokenizer(vocab, specials, unk_token, prefix, normalizer, pre_tokenizer, longest: int = 0):
    from ..added_tokens import AddedToken
    from ..decoders import WordPiece as WordPieceDecoder
    from ..models.wordpiece import WordPiece
    from ..tokenizer import Tokenizer

    if unk_token is None:
        unk_token = "[UNK]"
    # HF's per-word limit makes a longer word the unknown token; without one in the vocabulary that
    # would be an error on the training text itself, so the limit then covers the longest word seen.
    limit = 100 if unk_token in vocab else max(100, longest)
    return Tokenizer(
        WordPiece(vocab, unk_token=unk_token, continuing_subword_prefix=prefix, max_input_chars_per_word=limit),
        normalizer=normalizer,
        pre_tokenizer=pre_tokenizer,
        decoder=WordPieceDecoder(prefix=prefix, cleanup=True),
        added_tokens=[AddedToken(s, vocab[s], special=True, normalized=False) for s in specials],
        name="wordpiece",
    )
