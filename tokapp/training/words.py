"""The words a trainer sees: the pre-tokenizers a training page offers and the word counts of a corpus.

Every family is trained on the counts computed here (``word_counts``), so the words a page shows are
exactly the words the trainer saw.

Left out: reading corpora (``tokapp.training.corpora``) and training (``tokapp.training.runner``).
"""

from __future__ import annotations

from typing import Any, Callable

from tokcore.pre_tokenizers import standard as pt
from tokcore.trainers import count_words

from .corpora import Corpus

PRE_TOKENIZERS: dict[str, str] = {
    "whitespace": "Whitespace: words and punctuation runs",
    "whitespace_split": "WhitespaceSplit: split on spaces only",
    "metaspace": "Metaspace: spaces become ▁ (sentencepiece)",
    "bert": "BERT: words, each punctuation mark alone",
    "byte_level": "ByteLevel: GPT-2 regex, bytes as characters",
}

_MAKERS: dict[str, Callable[[], Any]] = {
    "whitespace": pt.Whitespace,
    "whitespace_split": pt.WhitespaceSplit,
    "metaspace": pt.Metaspace,
    "bert": pt.BertPreTokenizer,
    "byte_level": lambda: pt.ByteLevel(add_prefix_space=False),
}


def make_pre_tokenizer(name: str):
    """The pre-tokenizer called ``name`` in ``PRE_TOKENIZERS``."""
    if name not in _MAKERS:
        raise ValueError(f"unknown pre-tokenizer {name!r}; choose one of {', '.join(_MAKERS)}")
    return _MAKERS[name]()


def word_counts(corpus: Corpus, pre_tokenizer_name: str) -> dict[str, int]:
    """The words a trainer sees, with counts, in first-seen order (a mapping's keys pre-tokenized too).

    ``word_counts(Corpus("k", "l", counts={"hugs": 5}), "whitespace") == {"hugs": 5}``
    """
    pre = make_pre_tokenizer(pre_tokenizer_name)
    if corpus.counts is None:
        return count_words(list(corpus.lines), pre_tokenizer=pre)
    out: dict[str, int] = {}
    for word, count in corpus.counts.items():
        if count <= 0:
            continue
        for piece, _ in pre.pre_tokenize_str(word):
            if piece:
                out[piece] = out.get(piece, 0) + count
    return out

