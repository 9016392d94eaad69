"""Unigram trainer (Kudo 2018) as sentencepiece's ``unigram_model_trainer.cc`` runs it, in pure Python.

1. Seed: every character of the corpus, then the substrings of the words seen at least twice
   (2 to ``max_piece_length`` characters, counted exactly, weighted by word count, scored
   ``frequency x length``), best ``seed_size`` in all; scores become log-probabilities.
2. EM: expected piece counts by forward-backward over each word's lattice (log space); the
   M-step drops pieces expected fewer than 0.5 times and rescores the rest
   ``digamma(count) - digamma(total)`` (sentencepiece's Bayesian EM).
3. Pruning: a piece whose own best segmentation is not itself goes; for the others the loss
   of removing them is estimated as sentencepiece does (its Viterbi count redistributed over
   its second-best segmentation); the ``shrinking_factor`` share with the largest losses
   stays. Repeat 2-3 until at most 1.1 x ``vocab_size`` pieces are left.
   Unlike sentencepiece (which re-adds them at the end), single characters are never dropped,
   neither by the M-step (their count is floored at 0.5) nor by pruning.
4. Finalize: every character, then the best-scored pieces up to ``vocab_size`` (special
   tokens first, with score 0).

Each pruning round is a frozen ``UnigramStep``. The classroom computations ``unigram_loss`` and
``unigram_removal_losses`` live in ``unigram_loss.py`` (re-exported here).

Left out: sentencepiece's suffix-array seeding (exact counting is bounded by
``max_piece_length`` and fine for teaching corpora) and multithreading. Characters cut by
``limit_alphabet`` are unknown nodes (``min_score - 10``) and, as in HF, one pseudo-piece in
the pruning estimate.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Optional

from ..components import Normalizer, PreTokenizer
from ..errors import ConfigurationError
from .base import Progress, TrainResult, check_vocab_size, count_words, report
from .unigram_loss import unigram_loss, unigram_removal_losses

__all__ = ["UnigramStep", "digamma", "train_unigram", "unigram_loss", "unigram_removal_losses"]

NEG_INF = float("-inf")
UNK_PENALTY = 10.0
EXPECTED_FREQUENCY_THRESHOLD = 0.5  # sentencepiece's M-step cut-off


@dataclass(frozen=True)
class UnigramStep:
    """One pruning round: EM, then pruning.

    ``vocab_size``: pieces left after pruning (special tokens not counted); ``loss``: corpus
    negative log-likelihood (natural log, summed over words x counts, all segmentations
    marginalized) after this round's EM; ``removed``: pieces pruned, most costly last;
    ``em_losses``: the loss after each EM iteration; ``removed_losses``: ``(piece, loss delta)``
    per removed piece (sentencepiece's estimate; 0.0 for pieces never used or never their own
    best split); ``dropped``: pieces the EM threshold removed (expected count below 0.5).
    """

    vocab_size: int
    loss: float
    removed: tuple
    em_losses: tuple = ()
    removed_losses: tuple = ()
    dropped: tuple = ()


def digamma(x: float) -> float:
    """The digamma function (asymptotic series, as sentencepiece). ``digamma(1.0)`` is about -0.5772."""
    result = 0.0
    while x < 7.0:
        result -= 1.0 / x
        x += 1.0
    x -= 0.5
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    return result + math.log(x) + xx2 / 24.0 - 7.0 / 960.0 * xx4 + 31.0 / 8064.0 * xx4 * xx2 - 127.0 / 30720.0 * xx4 * xx4


# --------------------------------------------------------------------------------------------
# Training


class _Corpus:
    """Words with counts and, per word, the live pieces found in it as ``(start, stop, sid)`` nodes.

    ``by_stop`` is sorted by (stop, start), ``by_start`` by (start, stop); every character
    position has a one-character node (its piece, or an unknown node for a character cut by
    ``limit_alphabet``).
    """

    def __init__(self, words: list[tuple[str, int]], seed_ids: dict[str, int], max_len: int, unk: int):
        self.words = words
        self.by_stop: list[list[tuple[int, int, int]]] = []
        for w, _ in words:
            found = []
            n = len(w)
            for e in range(1, n + 1):
                for s in range(max(0, e - max_len), e):
                    sid = seed_ids.get(w[s:e])
                    if sid is not None:
                        found.append((s, e, sid))
                    elif e == s + 1:
                        found.append((s, e, unk))  # a character outside the alphabet
            self.by_stop.append(found)
        self.by_start = [sorted(nodes) for nodes in self.by_stop]
        self.total = sum(c for _, c in words)

    def compact(self, alive: list[bool]) -> None:
        """Drop the nodes of dead pieces (single characters never die, so no position goes uncovered)."""
        self.by_stop = [[nd for nd in nodes if alive[nd[2]]] for nodes in self.by_stop]
        self.by_start = [[nd for nd in nodes if alive[nd[2]]] for nodes in self.by_start]


def _lse(values: list[float]) -> float:
    """``log(sum(exp(v)))`` of finite values. ``_lse([0.0, 0.0]) == math.log(2)``."""
    top = max(values)
    return top + math.log(sum([math.exp(v - top) for v in values]))


def _e_step(corpus: _Corpus, score: list[float], n_ids: int) -> tuple[float, list[float]]:
    """Forward-backward over every word: (corpus negative log-likelihood, expected counts per sid)."""
    expected = [0.0] * n_ids
    exp = math.exp
    nll = 0.0
    for (w, count), by_stop, by_start in zip(corpus.words, corpus.by_stop, corpus.by_start):
        n = len(w)
        # Forward: nodes come grouped by stop, and every stop 1..n has at least one node.
        alpha = [0.0] * (n + 1)
        cur, buf = 1, []
        for s, e, sid in by_stop:
            if e != cur:
                alpha[cur] = buf[0] if len(buf) == 1 else _lse(buf)
                cur, buf = e, []
            buf.append(alpha[s] + score[sid])
        alpha[cur] = buf[0] if len(buf) == 1 else _lse(buf)
        # Backward, symmetric, over nodes grouped by start (walked from the end).
        beta = [0.0] * (n + 1)
        cur, buf = n - 1, []
        for s, e, sid in reversed(by_start):
            if s != cur:
                beta[cur] = buf[0] if len(buf) == 1 else _lse(buf)
                cur, buf = s, []
            buf.append(beta[e] + score[sid])
        beta[cur] = buf[0] if len(buf) == 1 else _lse(buf)
        z = alpha[n]
        nll -= count * z
        for s, e, sid in by_stop:
            expected[sid] += count * exp(alpha[s] + score[sid] + beta[e] - z)
    return nll, expected


def _viterbi(nodes, n: int, score: list[float]) -> list[tuple[int, int, int]]:
    """Best path over nodes sorted by (stop, start); ties go to the earliest start, as HF/sentencepiece."""
    best = [NEG_INF] * (n + 1)
    best[0] = 0.0
    back: list = [None] * (n + 1)
    for nd in nodes:
        s, e, sid = nd
        cand = best[s] + score[sid]
        if cand > best[e]:
            best[e], back[e] = cand, nd
    path = []
    pos = n
    while pos > 0 and back[pos] is not None:
        path.append(back[pos])
        pos = back[pos][0]
    path.reverse()
    return path


def _split_piece(piece: str, ids: dict[str, int], score: list[float], unk: int, max_len: int):
    """The best and the second-best segmentation of a piece (sids), as sentencepiece's NBest(2)."""
    n = len(piece)
    nodes = []
    for s in range(n):
        single = False
        for e in range(s + 1, min(n, s + max_len) + 1):
            sid = ids.get(piece[s:e])
            if sid is not None:
                nodes.append((s, e, sid))
                single = single or e == s + 1
        if not single:
            nodes.append((s, s + 1, unk))
    nodes.sort(key=lambda nd: (nd[1], nd[0]))
    best = _viterbi(nodes, n, score)
    if len(best) != 1:
        return best, None
    # The only path through the whole-piece node is the piece itself: drop it for the runner-up.
    rest = [nd for nd in nodes if not (nd[0] == 0 and nd[1] == n)]
    second = _viterbi(rest, n, score)
    return best, (second if second and sum(e - s for s, e, _ in second) == n and second[0][0] == 0 else None)


def train_unigram(
    corpus: Iterable[str] | Mapping[str, int],
    vocab_size: int,
    *,
    special_tokens: Iterable[str] = (),
    unk_token: Optional[str] = None,
    min_frequency: int = 1,
    shrinking_factor: float = 0.75,
    max_piece_length: int = 16,
    n_sub_iterations: int = 2,
    seed_size: int = 1_000_000,
    limit_alphabet: Optional[int] = None,
    pre_tokenizer: Optional[PreTokenizer] = None,
    normalizer: Optional[Normalizer] = None,
    progress: Optional[Progress] = None,
) -> TrainResult:
    """Train a ``Unigram`` tokenizer; ``steps`` has one ``UnigramStep`` per pruning round.

    ``vocab_size`` counts every token (special tokens and the unknown token too). Strings are
    pre-tokenized with ``Metaspace`` unless a pre-tokenizer is given; a mapping's keys are words.
    ``details``: ``seed_size``, ``em_losses`` (every EM iteration), ``final_em_losses``,
    ``final_loss``, ``desired_vocab_size``, ``alphabet``.
    """
    from ..added_tokens import AddedToken
    from ..models.unigram import Unigram
    from ..tokenizer import Tokenizer

    vocab_size = check_vocab_size(vocab_size)
    if not 0.0 < float(shrinking_factor) < 1.0:
        raise ConfigurationError(f"shrinking_factor must be between 0 and 1, got {shrinking_factor!r}")
    for name, v in (("max_piece_length", max_piece_length), ("n_sub_iterations", n_sub_iterations), ("seed_size", seed_size), ("min_frequency", min_frequency)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ConfigurationError(f"{name} must be a positive int, got {v!r}")
    specials = list(dict.fromkeys(special_tokens))
    if unk_token is not None and unk_token not in specials:
        specials.insert(0, unk_token)  # HF puts a missing unknown token first
    decoder = None
    if pre_tokenizer is None and not isinstance(corpus, Mapping):
        from ..decoders import Metaspace as MetaspaceDecoder
        from ..pre_tokenizers import Metaspace

        pre_tokenizer, decoder = Metaspace(), MetaspaceDecoder()
    elif pre_tokenizer is not None and type(pre_tokenizer).__name__ == "Metaspace":
        from ..decoders import Metaspace as MetaspaceDecoder

        decoder = MetaspaceDecoder()
    counts = count_words(corpus, normalizer=normalizer, pre_tokenizer=pre_tokenizer)
    words = [(w, c) for w, c in counts.items() if c]
    if not words:
        raise ConfigurationError("the corpus has no words to learn from (it is empty, or nothing is left after "
                                 "normalization and pre-tokenization); pass some text")

    # 1. Seed: characters (most frequent first), then substrings by frequency x length.
    chars: Counter = Counter()
    for w, c in words:
        for ch in w:
            chars[ch] += c
    alphabet = sorted(chars, key=lambda ch: (-chars[ch], ch))
    if limit_alphabet is not None:
        alphabet = alphabet[:limit_alphabet]
    budget = vocab_size - len(specials)
    if len(alphabet) > budget:
        raise ConfigurationError(
            f"vocab_size {vocab_size} cannot hold the {len(alphabet)} characters of the corpus plus "
            f"{len(specials)} special tokens; raise vocab_size or set limit_alphabet"
        )
    allowed = set(alphabet)
    # Like sentencepiece's suffix array (whose internal nodes are repeated substrings), a seed
    # substring must occur at least twice: pieces seen once steal EM mass from useful ones.
    floor = max(2, min_frequency)
    subs: Counter = Counter()
    for w, c in words:
        n = len(w)
        for s in range(n):
            for e in range(s + 2, min(n, s + max_piece_length) + 1):
                subs[w[s:e]] += c
    ranked = sorted(
        ((f * len(p), p) for p, f in subs.items() if f >= floor and allowed.issuperset(p)),
        key=lambda x: (-x[0], x[1]),
    )[: max(0, seed_size - len(alphabet))]
    seed = [(ch, float(chars[ch])) for ch in alphabet] + [(p, float(sc)) for sc, p in ranked]
    if not seed:
        raise ConfigurationError(f"limit_alphabet={limit_alphabet} leaves no character to learn from; raise it")
    logsum = math.log(sum(s for _, s in seed))
    pieces = [p for p, _ in seed]
    unk = len(pieces)  # sid of the unknown node, after every seed piece
    score = [math.log(s) - logsum for _, s in seed] + [0.0]
    alive = [True] * (unk + 1)  # the unknown sid stays "alive" so its nodes survive compaction
    data = _Corpus(words, {p: i for i, p in enumerate(pieces)}, max_piece_length, unk)
    _set_unk_score(score, alive, unk)
    n_chars = len(alphabet)

    def update(new_alive: list[bool]) -> None:
        if new_alive != alive:  # after the first rounds the M-step rarely drops anything
            alive[:] = new_alive
            data.compact(alive)
        _set_unk_score(score, alive, unk)

    desired = (vocab_size * 11) // 10
    steps: list[UnigramStep] = []
    all_losses: list[float] = []
    rounds = max(1, int(math.log(desired / len(pieces)) / math.log(shrinking_factor)) + 1) if len(pieces) > desired else 1
    while True:
        # 2. EM sub-iterations.
        em_losses, dropped = [], []
        for _ in range(n_sub_iterations):
            nll, expected = _e_step(data, score, unk + 1)
            em_losses.append(nll)
            all_losses.append(nll)
            live = [i for i in range(unk) if alive[i]]
            for i in range(n_chars):  # single characters always stay, at the threshold count at least
                expected[i] = max(expected[i], EXPECTED_FREQUENCY_THRESHOLD)
            kept = [i for i in live if expected[i] >= EXPECTED_FREQUENCY_THRESHOLD]
            dropped.extend(pieces[i] for i in live if expected[i] < EXPECTED_FREQUENCY_THRESHOLD)
            lsum = digamma(math.fsum(expected[i] for i in kept))
            new_alive = [False] * unk + [True]
            for i in kept:
                new_alive[i] = True
                score[i] = digamma(expected[i]) - lsum
            update(new_alive)
            report(progress, len(all_losses), rounds * n_sub_iterations, "EM")
        if sum(alive) - 1 <= desired:
            break
        # 3. Pruning.
        removed = _prune(data, pieces, score, alive, unk, desired, shrinking_factor, max_piece_length)
        if not removed:
            break
        new_alive = list(alive)
        for sid, _ in removed:
            new_alive[sid] = False
        update(new_alive)
        steps.append(
            UnigramStep(
                vocab_size=sum(alive) - 1,
                loss=em_losses[-1],
                removed=tuple(pieces[sid] for sid, _ in removed),
                em_losses=tuple(em_losses),
                removed_losses=tuple((pieces[sid], loss) for sid, loss in removed),
                dropped=tuple(dropped),
            )
        )

    # 4. Finalize: every character first, then the best pieces; specials in front.
    final = {ch: score[i] for i, ch in enumerate(alphabet)}  # characters are the first seed pieces, never dropped
    for i in sorted((i for i in range(unk) if alive[i]), key=lambda i: (-score[i], pieces[i])):
        if len(final) >= budget:
            break
        final.setdefault(pieces[i], score[i])
    vocab = [(t, 0.0) for t in specials] + sorted(final.items(), key=lambda kv: (-kv[1], kv[0]))
    unk_id = specials.index(unk_token) if unk_token is not None else None
    model = Unigram(vocab, unk_id=unk_id)
    added = [AddedToken(t, i, special=True, normalized=False) for i, t in enumerate(specials)]
    tokenizer = Tokenizer(model, normalizer=normalizer, pre_tokenizer=pre_tokenizer, decoder=decoder, added_tokens=added)
    details = {
        "seed_size": len(seed),
        "em_losses": all_losses,
        "final_em_losses": em_losses,
        "final_loss": em_losses[-1] if em_losses else 0.0,
        "desired_vocab_size": desired,
        "alphabet": alphabet,
        "word_count": data.total,
    }
    return TrainResult(tokenizer=tokenizer, steps=steps, details=details)


def _set_unk_score(score: list[float], alive: list[bool], unk: int) -> None:
    score[unk] = min((score[i] for i in range(unk) if alive[i]), default=0.0) - UNK_PENALTY


def _prune(data: _Corpus, pieces, score, alive, unk, desired, shrinking_factor, max_len) -> list[tuple[int, float]]:
    """sentencepiece's PruneSentencePieces: ``(sid, estimated loss delta)`` of the pieces to remove, cheapest first."""
    ids = {pieces[i]: i for i in range(unk) if alive[i]}
    always_keep: dict[int, bool] = {}
    alternatives: dict[int, list[int]] = {}
    for p, i in ids.items():
        best, second = _split_piece(p, ids, score, unk, max_len)
        if len(best) != 1:
            always_keep[i] = False  # never its own best split: it can go at no cost
        else:
            always_keep[i] = True
            if second is not None:
                alternatives[i] = [sid for _, _, sid in second]
    freq = [0.0] * (unk + 1)
    for (w, count), nodes in zip(data.words, data.by_stop):
        for _, _, sid in _viterbi(nodes, len(w), score):
            freq[sid] += count
    vsum = data.total
    total = sum(freq[i] for i in ids.values()) + freq[unk]
    logsum = math.log(total)
    keep, candidates, removed = [], [], []
    for p, i in ids.items():
        if len(p) == 1:
            keep.append(i)  # single characters always stay
        elif freq[i] == 0 or not always_keep[i]:
            removed.append((i, 0.0))
        elif i not in alternatives:
            keep.append(i)
        else:
            alt = alternatives[i]
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
