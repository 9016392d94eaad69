"""What every trainer shares: the ``TrainResult``, corpus reading and word counting, progress reports.

A corpus is an iterable of strings (each normalized and pre-tokenized with the trainer's
stages, then words counted) or a mapping word -> count (each key already one word).

Left out: the training algorithms (one module per family).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Iterable, Mapping, Optional

from ..core.components import Normalizer, PreTokenizer, piece_from_text
from ..core.errors import ConfigurationError, WrongTypeError, check_text

Progress = Callable[[int, int, str], None]  # (done, total, what): called now and then, never required


@dataclass(frozen=True)
class TrainResult:
    """A trained ``tokenizer`` and the trainer's ``steps`` (frozen records, in order), plus extra data.

    ``details`` holds family-specific data for the app (e.g. Unigram's per-iteration losses).
    """

    tokenizer: Any
    steps: list = field(default_factory=list)
    details: dict = field(default_factory=dict)


#: The largest word count the trainers take: scores and losses are floats, exact up to 2**53.
MAX_COUNT = 2**53


def count_words(
    corpus: Iterable[str] | Mapping[str, int],
    *,
    normalizer: Optional[Normalizer] = None,
    pre_tokenizer: Optional[PreTokenizer] = None,
) -> dict[str, int]:
    """Word counts in first-seen order. ``count_words({"hug": 3})`` is ``{"hug": 3}``.

    Strings are normalized and pre-tokenized (with ``WhitespaceSplit`` semantics when no
    pre-tokenizer is given); the pieces' text (what the model sees) is counted.
    """
    if isinstance(corpus, str):
        raise WrongTypeError("corpus must be an iterable of strings or a mapping word -> count, not one string; wrap it in a list")
    counts: dict[str, int] = {}
    if isinstance(corpus, Mapping):
        for word, n in corpus.items():
            if not isinstance(word, str):
                raise WrongTypeError(f"corpus keys must be strings, got {type(word).__name__}")
            check_text(word, name=f"corpus word {word[:20]!r}")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ConfigurationError(f"the count of {word!r} must be a non-negative integer, got {n!r}")
            if n > MAX_COUNT:
                raise ConfigurationError(f"the count of {word!r} is {n:.3g}; counts above 2**53 ({MAX_COUNT:,}) cannot "
                                         "be scored exactly in floating point: divide every count by the same factor")
            if word and n:
                counts[word] = counts.get(word, 0) + n
        return counts
    if pre_tokenizer is None:
        from ..pre_tokenizers.standard import WhitespaceSplit

        pre_tokenizer = WhitespaceSplit()
    from .words import word_splitter

    # A Counter keeps first-seen order, and the splitter (when the pre-tokenizer has one) gives
    # exactly the non-empty piece texts of the general path, without building pieces.
    local: Counter = Counter()
    split, rewrite = word_splitter(pre_tokenizer) or (partial(_piece_texts, pre_tokenizer), None)
    update = local.update
    for i, text in enumerate(corpus):
        if not isinstance(text, str):
            raise WrongTypeError(f"corpus item {i} is {type(text).__name__}, expected str")
        # A lone surrogate would end up in the vocabulary, which no tokenizer file can hold.
        check_text(text, name=f"corpus item {i}")
        if normalizer is not None:
            text = normalizer.normalize_str(text)
        update(split(text))
    if rewrite is None:
        counts.update(local)
    else:
        for word, n in local.items():
            counts[rewrite(word)] = n  # one-to-one, so no two words meet
    return counts


def _piece_texts(pre_tokenizer: PreTokenizer, text: str) -> list[str]:
    """The general path: the non-empty piece texts. ``_piece_texts(WhitespaceSplit(), "a b") == ["a", "b"]``."""
    return [p.text for p in pre_tokenizer.pre_tokenize([piece_from_text(text)]) if p.text]


def check_vocab_size(vocab_size: Any, minimum: int = 1) -> int:
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise WrongTypeError(f"vocab_size must be an int, got {type(vocab_size).__name__}")
    if vocab_size < minimum:
        raise ConfigurationError(f"vocab_size must be at least {minimum}, got {vocab_size}")
    return vocab_size


def report(progress: Optional[Progress], done: int, total: int, what: str) -> None:
    """Call the progress callback if there is one (trainers never print)."""
    if progress is not None:
        progress(done, total, what)
