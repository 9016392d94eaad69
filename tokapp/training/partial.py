"""Partial tokenizers: the vocabulary of a BPE or WordPiece run as of merge ``k``, so a page can
tokenize a held-out sentence at any step of the timeline.

Left out: Unigram (its rounds remove pieces; the page shows the final model) and training.
"""

from __future__ import annotations

from typing import Mapping

import tokcore
from tokcore.models.bpe import BPE
from tokcore.models.wordpiece import WordPiece

from .run_types import TrainRun


def _initial_tokens(vocab: Mapping[str, int], merged: set) -> dict[str, int]:
    """Tokens there before any merge: a merged token spans two corpus characters or more, so never one of these."""
    return {t: i for t, i in vocab.items() if t not in merged}


def tokenizer_at(run: TrainRun, k: int):
    """The tokenizer with the vocabulary as of merge ``k`` (ids kept); for BPE also only the first ``k`` merges.

    ``k == len(run.steps)`` gives back the trained tokenizer.
    """
    steps = run.steps
    k = max(0, min(k, len(steps)))
    tok = run.tokenizer
    if k == len(steps):
        return tok
    model = tok.model
    vocab = model.get_vocab()
    kept = _initial_tokens(vocab, {s.merged for s in steps})
    for s in steps[:k]:
        kept[s.merged] = vocab[s.merged]
    if run.settings.family == "bpe":
        part = BPE(kept, [(s.left, s.right) for s in steps[:k]], unk_token=model.unk_token,
                   continuing_subword_prefix=model.continuing_subword_prefix,
                   end_of_word_suffix=model.end_of_word_suffix)
    elif run.settings.family == "wordpiece":
        part = WordPiece(kept, unk_token=model.unk_token, continuing_subword_prefix=model.continuing_subword_prefix)
    else:
        raise ValueError("only merge-based families have partial tokenizers")
    return tokcore.Tokenizer(part, normalizer=tok.normalizer, pre_tokenizer=tok.pre_tokenizer,
                             post_processor=tok.post_processor, decoder=tok.decoder, added_tokens=tok.added_tokens)
