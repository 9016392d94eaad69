"""A character-level tokenizer whose alphabet is learned from a corpus.

The alphabet is the corpus's characters, most frequent first (ties: first appearance), those
seen fewer than ``min_frequency`` times dropped, cut to ``vocab_size`` (special tokens count).
Every other character encodes as the unknown token.

Left out: the fixed ASCII policy (``tokcore.CharTokenizer``) and subword merges (the BPE,
WordPiece and Unigram trainers).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Optional

from ..core.components import Normalizer, PreTokenizer, piece_from_text
from ..core.errors import ConfigurationError, WrongTypeError, check_text
from .base import Progress, TrainResult, check_vocab_size, report


@dataclass(frozen=True)
class CharStep:
    """One character admitted to the vocabulary: its token, id and corpus count."""

    token: str
    id: int
    count: int


def count_chars(
    corpus: Iterable[str] | Mapping[str, int],
    *,
    normalizer: Optional[Normalizer] = None,
    pre_tokenizer: Optional[PreTokenizer] = None,
) -> dict[str, int]:
    """Character counts in first-seen order. ``count_chars({"aba": 2}) == {"a": 4, "b": 2}``.

    Strings are counted whole (spaces and newlines are characters too) unless a pre-tokenizer
    is given, in which case only the pieces' characters count. A mapping's keys are words
    counted with their value.
    """
    if isinstance(corpus, str):
        raise WrongTypeError("corpus must be an iterable of strings or a mapping word -> count, not one string; wrap it in a list")
    counts: Counter = Counter()
    order: dict[str, None] = {}
    if isinstance(corpus, Mapping):
        items = corpus.items()
    else:
        items = ((text, 1) for text in corpus)
    for i, (text, n) in enumerate(items):
        if not isinstance(text, str):
            raise WrongTypeError(f"corpus item {i} is {type(text).__name__}, expected str")
        # A lone surrogate would end up in the vocabulary, which no tokenizer file can hold.
        check_text(text, name=f"corpus item {i}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ConfigurationError(f"the count of {text!r} must be a non-negative integer, got {n!r}")
        if not n:
            continue
        if normalizer is not None:
            text = normalizer.normalize_str(text)
        pieces = [text] if pre_tokenizer is None else [p.text for p in pre_tokenizer.pre_tokenize([piece_from_text(text)])]
        for piece in pieces:
            local = Counter(piece)
            for ch in local:
                order.setdefault(ch)
            if n == 1:
                counts.update(local)
            else:
                for ch, c in local.items():
                    counts[ch] += c * n
    # Counter(piece) iterates in first-seen order within a piece, so `order` is first appearance.
    return {ch: counts[ch] for ch in order}


def train_char(
    corpus: Iterable[str] | Mapping[str, int],
    *,
    vocab_size: int | None = None,
    min_frequency: int = 1,
    special_tokens: Iterable[str] = ("<unk>",),
    unk_token: str | None = "<unk>",
    normalizer: Optional[Normalizer] = None,
    pre_tokenizer: Optional[PreTokenizer] = None,
    progress: Optional[Progress] = None,
) -> TrainResult:
    """Learn a character alphabet; the tokenizer uses the ``CharLevel`` model.

    Ids: special tokens first (in the order given; ``unk_token`` goes first when it is not
    among them), then characters by decreasing count, ties by first appearance.
    ``train_char(["abb"]).tokenizer.get_vocab() == {"<unk>": 0, "b": 1, "a": 2}``.
    ``steps`` lists each admitted character (``CharStep``); ``details["dropped"]`` the
    ``(char, count)`` pairs left out by ``min_frequency`` or ``vocab_size``.
    """
    from ..core.added_tokens import AddedToken
    from ..core.tokenizer import Tokenizer
    from ..decoders.standard import Fuse
    from ..models.char_level import CharLevel

    specials = special_token_list(special_tokens, unk_token)
    if vocab_size is not None:
        check_vocab_size(vocab_size, max(1, len(specials)))
    if isinstance(min_frequency, bool) or not isinstance(min_frequency, int) or min_frequency < 0:
        raise ConfigurationError(f"min_frequency must be a non-negative int, got {min_frequency!r}")
    counts = count_chars(corpus, normalizer=normalizer, pre_tokenizer=pre_tokenizer)
    report(progress, 1, 2, "characters counted")
    first_seen = {ch: i for i, ch in enumerate(counts)}
    ranked = sorted(counts, key=lambda ch: (-counts[ch], first_seen[ch]))
    room = None if vocab_size is None else vocab_size - len(specials)
    vocab = {s: i for i, s in enumerate(specials)}
    steps, dropped = [], []
    for ch in ranked:
        if ch in vocab:
            continue  # a one-character special token already has its id
        if counts[ch] < min_frequency or (room is not None and len(steps) >= room):
            dropped.append((ch, counts[ch]))
            continue
        vocab[ch] = len(vocab)
        steps.append(CharStep(ch, vocab[ch], counts[ch]))
    report(progress, 2, 2, "alphabet chosen")
    tokenizer = Tokenizer(
        CharLevel(vocab, unk_token=unk_token),
        normalizer=normalizer,
        pre_tokenizer=pre_tokenizer,
        decoder=Fuse(),
        added_tokens=[AddedToken(s, vocab[s], special=True, normalized=False) for s in specials],
        name="char-level",
    )
    return TrainResult(tokenizer, steps, {"counts": counts, "dropped": dropped})


def special_token_list(special_tokens: Iterable[str], unk_token: str | None) -> list[str]:
    """The special tokens in order, duplicates dropped, ``unk_token`` first when not listed (as in BPE).

    ``special_token_list(["[CLS]"], "[UNK]") == ["[UNK]", "[CLS]"]``.
    """
    if isinstance(special_tokens, str):
        raise WrongTypeError("special_tokens must be a list of strings, not one string; wrap it in a list")
    specials: list[str] = []
    for s in special_tokens:
        s = getattr(s, "content", s)  # AddedToken objects are accepted too
        if not isinstance(s, str) or not s:
            raise WrongTypeError(f"special tokens must be non-empty strings, got {s!r}")
        if s not in specials:
            specials.append(s)
    if unk_token is not None:
        if not isinstance(unk_token, str) or not unk_token:
            raise WrongTypeError(f"unk_token must be a non-empty string or None, got {unk_token!r}")
        if unk_token not in specials:
            specials.insert(0, unk_token)
    return specials
