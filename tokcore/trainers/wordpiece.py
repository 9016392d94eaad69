"""WordPiece training by the classic likelihood merge (the course definition).

Words start as characters, every non-initial one marked with the continuing prefix
(``hugs`` -> ``h ##u ##g ##s``). Each step merges the adjacent pair with the highest
``score(a, b) = f(ab) / (f(a) * f(b))``, where ``f`` counts occurrences (weighted by word count)
in the current splits; ties go to the pair seen first (words in first-seen order, pairs left to
right). The vocabulary is the special tokens, the sorted alphabet, then the merged tokens.

This is NOT what HF tokenizers' ``WordPieceTrainer`` does: that one runs BPE (most frequent
pair) and only stores the result as a WordPiece model. Expect different vocabularies.

Counts are incremental (``trainers.wordpiece_merge``): a merge touches only the words containing
the pair. The queue (``trainers.wordpiece_queue``) keeps each pair in one of its symbols' heaps, so
a new frequency of a symbol that holds thousands of pairs re-keys none of them; scores are
compared exactly.

Left out: the model itself (``tokcore.models.wordpiece``) and BPE-style WordPiece training.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Optional

from ..core.components import Normalizer, PreTokenizer
from ..core.errors import ConfigurationError, WrongTypeError
from .base import Progress, TrainResult, check_vocab_size, count_words, report
from .char import special_token_list
from .wordpiece_merge import WordPieceMerger, initial_split  # noqa: F401  (initial_split is public here)

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
        from ..pre_tokenizers.standard import Whitespace

        pre_tokenizer = Whitespace()
    counts = count_words(corpus, normalizer=normalizer, pre_tokenizer=pre_tokenizer)
    report(progress, 0, 1, "words counted")
    word_counts = counts
    if top_candidates == "auto":
        top_candidates = 10 if len(counts) <= AUTO_CANDIDATES_MAX_WORDS else 0
    top_candidates = top_candidates or 0
    counts, skipped = _limit_alphabet(counts, limit_alphabet)
    state = WordPieceMerger(counts, continuing_subword_prefix, min_frequency, WordPieceStep)
    alphabet = state.alphabet
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
    from ..core.added_tokens import AddedToken
    from ..core.tokenizer import Tokenizer
    from ..decoders.standard import WordPiece as WordPieceDecoder
    from ..models.wordpiece import WordPiece

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
