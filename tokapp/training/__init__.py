"""The training pages' data, as plain values: what a BPE, WordPiece or Unigram run did, step by step,
ready for the animations (``tokapp.train_figures``, ``tokapp.train_html``) and ``tokapp.st_training``.

- ``corpora``: built-in, pasted and uploaded corpora (``Corpus``, keyed by plain strings for caching).
- ``words``: the pre-tokenizers offered and the word counts a trainer sees.
- ``defaults``: per-corpus defaults that always give a timeline (sizes above the alphabet, Unigram rounds).
- ``run_types``: ``Settings`` and ``TrainRun``, the types every reader of a run shares.
- ``runner``: ``train(corpus, settings)``.
- ``replay``: merges replayed on every word (tokens per word per step, tracked words' splits).
- ``partial``: the tokenizer as of merge ``k``.
- ``tables``: merge, candidate and score tables of merge-based runs.
- ``unigram_tables``: the Unigram page's loss curve, seed fates and the classroom removal table.
- ``course``: where the classic course text disagrees with the definitions.

The package re-exports the names the pages use, so ``from tokapp import training`` keeps one name space.

Left out: streamlit (``tokapp.st_training``), HTML and figures (``tokapp.train_html``, ``tokapp.train_figures``),
the classroom's guessing game (``tokapp.classroom``).
"""

from .corpora import (
                      BUILTIN_CORPORA,
                      CORPUS_CHOICES,
                      CORPUS_DIR,
                      CORPUS_LABELS,
                      DEFAULT_HELD_OUT,
                      HELD_OUT,
                      MAX_CORPUS_BYTES,
                      Corpus,
                      builtin_corpus,
                      is_classic,
                      text_corpus,
                      upload_corpus,
)
from .course import course_notes
from .partial import tokenizer_at
from .replay import TRACKED_WORDS, Replay, replay_merges
from .run_types import Settings, TrainRun, run_key
from .runner import UNK, train
from .tables import candidate_tables, early_stop_note, merge_table, score_rows, ties_of, top_pairs, tracked_words
from .unigram_tables import course_seed_fits, course_seed_probs, first_piece, removal_table, seed_fates, unigram_curve
from .words import PRE_TOKENIZERS, make_pre_tokenizer, word_counts

__all__ = [
    "BUILTIN_CORPORA", "CORPUS_CHOICES", "CORPUS_DIR", "CORPUS_LABELS", "DEFAULT_HELD_OUT", "HELD_OUT",
    "MAX_CORPUS_BYTES", "Corpus", "builtin_corpus", "is_classic", "text_corpus", "upload_corpus", "course_notes",
    "tokenizer_at", "TRACKED_WORDS", "Replay", "replay_merges", "Settings", "TrainRun", "run_key", "UNK", "train",
    "candidate_tables", "early_stop_note", "merge_table", "score_rows", "ties_of", "top_pairs", "tracked_words", "course_seed_fits", "course_seed_probs",
    "first_piece", "removal_table", "seed_fates", "unigram_curve", "PRE_TOKENIZERS", "make_pre_tokenizer",
    "word_counts",
]
