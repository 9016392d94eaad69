"""Vocabulary ids as tokenizer files keep them: unsigned 32-bit integers, as HF tokenizers requires.

``check_vocab_ids({"a": 0}, "WordPiece")`` passes; ``{"a": -1}`` or ``{"a": 2**32}`` raise ``ConfigurationError``
naming the entry (HF refuses such files; loading them silently would encode to ids no model has).

Left out: BPE (it checks its vocabulary in one pass of its own) and Unigram (ids are positions).
"""

from __future__ import annotations

from ..core.errors import ConfigurationError

MAX_ID = 2**32 - 1


def check_vocab_ids(vocab: dict, model: str) -> None:
    """Raise unless every key is a string and every id an int in ``[0, 2**32)``."""
    if not vocab:
        return
    values = vocab.values()
    if set(map(type, values)) == {int} and min(values) >= 0 and max(values) <= MAX_ID and set(map(type, vocab)) == {str}:
        return  # the common case, checked in C passes
    for token, id_ in vocab.items():
        if not isinstance(token, str) or isinstance(id_, bool) or not isinstance(id_, int) or not 0 <= id_ <= MAX_ID:
            raise ConfigurationError(f"{model} vocab entry {token!r}: {id_!r} must map a string to an int id in "
                                     "[0, 2**32)")
