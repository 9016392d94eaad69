"""sentencepiece Unigram's exact pass gathers the candidates ending at each position (a walk back
through ``_end_trie``, the pieces' reversed texts) where sentencepiece pushes them from each start.

Both must pick the same node per end position: the highest score, and of equal scores the one
sentencepiece offers first, the earliest start. Listed here by brute force over every substring.
A word entry keeps that path only where a fused unknown run makes it differ from its columns;
``entry_path`` makes the others' from their tokens and ids.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from spm_exact import exact_arrays

from tokcore.models.sentencepiece_unigram import SentencePieceUnigram, path_stops
from tokcore.models.spm_word_passes import entry_path

SEP = "\u2581"
# Exact ties: "ab" = "a" + "b", "abc" = "ab" + "c" = "a" + "bc"; "<s>" is never matched, "zz" is a
# user-defined piece (scored by its length), "é" has no piece (an unknown node).
_PIECES = [("<unk>", 0.0), ("<s>", 0.0), (SEP, -2.0), ("a", -3.0), ("b", -3.0), ("c", -3.0), ("ab", -6.0),
           ("bc", -6.0), ("abc", -9.0), (SEP + "a", -4.0), ("ca", -5.5), ("zz", 0.0)]
_MATCHABLE = [i for i, (p, _) in enumerate(_PIECES) if p not in ("<unk>", "<s>")]
_TEXT = st.lists(st.sampled_from([SEP, "a", "b", "c", "ab", "abc", "é", "z", "<s>"]), min_size=1,
                 max_size=12).map("".join)


def _model() -> SentencePieceUnigram:
    return SentencePieceUnigram(_PIECES, unk_id=0, matchable=_MATCHABLE, user_defined=[len(_PIECES) - 1],
                                split_at_space=True)


def _listed_path(model, text):
    """Per end position the (start, id) sentencepiece keeps: every candidate, earliest start first."""
    pieces = {model.vocab[i][0]: i for i in model.matchable}
    best, picks = [0.0], []
    for stop in range(1, len(text) + 1):
        cands = [(best[start] + model._sp_scores[pieces[text[start:stop]]], start, pieces[text[start:stop]])
                 for start in range(stop) if text[start:stop] in pieces]
        if text[stop - 1] not in pieces:
            cands.append((best[stop - 1] + model.unk_score, stop - 1, model._unk_marker))
        cands.sort(key=lambda c: c[1])
        top = max(cands, key=lambda c: c[0])  # max keeps the first (earliest start) of equal scores
        best.append(top[0])
        picks.append(top[1:])
    return picks


@settings(max_examples=300, deadline=None)
@given(text=_TEXT)
def test_the_end_walk_picks_sentencepieces_node_at_every_position(text):
    from_, ids = exact_arrays(_model(), text)
    assert list(zip(from_[1:], ids[1:])) == _listed_path(_model(), text), text


def test_a_tie_goes_to_the_earliest_start():
    model = _model()
    from_, ids = exact_arrays(model, "abc")
    margin = model._word_exact("abc")[1]
    assert (from_[3], ids[3], margin) == (0, 8, 0.0)  # "abc" from 0 over "ab" + "c" and "a" + "bc"


@settings(max_examples=300, deadline=None)
@given(text=_TEXT)
def test_an_entry_keeps_or_makes_the_walks_path(text):
    # Without a fused unknown run the entry keeps no path: entry_path makes it from the columns.
    model = _model()
    entry = model._new_entry(text)
    assert entry_path(entry) == path_stops(model._word_exact(text)[0], text, model._fused_unknown)[0], text
    assert (entry[0] is None) == (None not in entry_path(entry)[1::2]), text
