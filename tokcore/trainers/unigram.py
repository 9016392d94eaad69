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

Each pruning round is a frozen ``UnigramStep``. The word lattices with forward-backward and
Viterbi live in ``unigram_lattice.py``, the pruning estimate in ``unigram_prune.py``; the
classroom computations ``unigram_loss`` and ``unigram_removal_losses`` in ``unigram_loss.py``
(re-exported here).

Left out: sentencepiece's suffix-array seeding (exact counting is bounded by
``max_piece_length`` and fine for teaching corpora) and multithreading. Characters cut by
``limit_alphabet`` are unknown nodes (``min_score - 10``) and, as in HF, one pseudo-piece in
the pruning estimate.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter
from typing import Iterable, Mapping, Optional

from ..core.components import Normalizer, PreTokenizer
from ..core.errors import ConfigurationError
from .base import Progress, TrainResult, check_vocab_size, count_words, report
from .unigram_lattice import Lattices as _Corpus
from .unigram_loss import unigram_loss, unigram_removal_losses
from .unigram_prune import prune as _prune

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


def _e_step(corpus: _Corpus, score: list[float], n_ids: int) -> tuple[float, list[float]]:
    """Forward-backward over every word: (corpus negative log-likelihood, expected counts per sid)."""
    return corpus.e_step(score, n_ids)


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
    ``final_loss``, ``final_dropped`` (pieces the last EM run dropped), ``trimmed`` (pieces left after it but
    cut, lowest score first, to reach ``vocab_size``), ``desired_vocab_size``, ``alphabet``.
    """
    from ..core.added_tokens import AddedToken
    from ..core.tokenizer import Tokenizer
    from ..models.unigram import Unigram

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
        from ..decoders.standard import Metaspace as MetaspaceDecoder
        from ..pre_tokenizers.standard import Metaspace

        pre_tokenizer, decoder = Metaspace(), MetaspaceDecoder()
    elif pre_tokenizer is not None and type(pre_tokenizer).__name__ == "Metaspace":
        from ..decoders.standard import Metaspace as MetaspaceDecoder

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
    ranked = _ranked_substrings(words, max_piece_length, floor, None if limit_alphabet is None else allowed)
    ranked = ranked[: max(0, seed_size - len(alphabet))]
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
    split_cache: dict = {}
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
            live = list(compress(range(unk), alive))
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
        removed = _prune(data, pieces, score, alive, unk, desired, shrinking_factor, max_piece_length, split_cache)
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
    trimmed = []  # alive after the last EM run, but past the size asked for
    for i in sorted((i for i in range(unk) if alive[i]), key=lambda i: (-score[i], pieces[i])):
        if pieces[i] in final:
            continue
        if len(final) >= budget:
            trimmed.append(pieces[i])
        else:
            final[pieces[i]] = score[i]
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
        "final_dropped": tuple(dropped),  # by the last EM run, after the last pruning round
        "trimmed": tuple(trimmed),
        "desired_vocab_size": desired,
        "alphabet": alphabet,
        "word_count": data.total,
    }
    return TrainResult(tokenizer=tokenizer, steps=steps, details=details)


def _ranked_substrings(words: list[tuple[str, int]], max_len: int, floor: int, allowed: Optional[set]) -> list[tuple[int, str]]:
    """``(frequency x length, substring)`` of the substrings of 2 to ``max_len`` characters seen at least
    ``floor`` times (weighted by word count) and made of ``allowed`` characters (all when None), best
    first, ties by substring. ``_ranked_substrings([("abab", 1)], 4, 2, None) == [(4, "ab")]``
    """
    subs: Counter = Counter()
    count_once = subs.update  # C-level counting for the (many) words seen once
    for w, c in words:
        n = len(w)
        found = [w[s:e] for s in range(n) for e in range(s + 2, min(n, s + max_len) + 1)]
        if c == 1:
            count_once(found)
        else:
            for p in found:
                subs[p] += c
    ranked = [(f * len(p), p) for p, f in subs.items() if f >= floor and (allowed is None or allowed.issuperset(p))]
    ranked.sort(key=itemgetter(1))
    ranked.sort(key=itemgetter(0), reverse=True)  # stable: equal scores stay in substring order
    return ranked


def _set_unk_score(score: list[float], alive: list[bool], unk: int) -> None:
    score[unk] = min(compress(score[:unk], alive), default=0.0) - UNK_PENALTY
