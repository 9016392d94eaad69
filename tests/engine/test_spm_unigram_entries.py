"""sentencepiece Unigram's word cache keeps few objects per word, none of them for the collector.

A cold pass keeps an entry per new word (20,000 for botchan plus UDHR lines); each tracked
container it keeps brings the next cyclic collection nearer, and each one still tracked is walked
again by every full collection. An entry is one flat tuple of atoms and atom-only tuples (its path
as ``path_stops``, its columns side by side), so the collector untracks it. The path must
be ``backtrack``'s, segment for segment.
"""

from __future__ import annotations

import gc

import fast_pairs
from hypothesis import given, settings
from hypothesis import strategies as st
from spm_exact import exact_arrays

from tokcore.models.sentencepiece_unigram import path_stops, segments
from tokcore.models.unigram import backtrack

_WORDS = st.lists(st.sampled_from(["▁", "the", "a", "e", "é", "Ж", "中", "16", "ing", "x", "q"]), min_size=1,
                  max_size=10).map("".join)


def _model():
    return fast_pairs.pair_for("sentencepiece", "botchan_en_unigram_1000.model")[0].model


@settings(max_examples=200, deadline=None)
@given(word=_WORDS)
def test_the_flat_path_is_backtracks(word):
    from_, ids = exact_arrays(_model(), word)
    stops, texts = path_stops(_model()._word_exact(word)[0], word)
    assert segments(stops) == backtrack(from_, ids, len(word))
    assert stops[1::2] == tuple(i for _s, _e, i in backtrack(from_, ids, len(word)))
    assert texts == [word[s:e] for s, e, _i in backtrack(from_, ids, len(word))]


def test_kept_entries_hold_only_atoms_and_get_untracked():
    model = _model()
    text = "▁It▁was▁a▁fine▁day,▁Статья▁1▁中文▁naïve"
    assert model.word_columns(text) is not None
    gc.collect()
    gc.collect()  # (a tuple is untracked once what it holds is: a collection may meet it first)
    entries = [model._words[w] for w in ("▁It", "▁fine", "▁Статья", "▁naïve")]
    assert all(len(e) == 8 for e in entries)  # path, range, score, error, ids, tokens, lengths
    assert not any(map(gc.is_tracked, entries))
