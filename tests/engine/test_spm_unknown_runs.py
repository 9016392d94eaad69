"""sentencepiece Unigram entries keep a run of unknown nodes as one segment (id ``None``).

``path_stops`` fuses the run while it walks back (a UDHR word for an English model is mostly
such a run: one node per character), so its columns take the run's text at once instead of
``_fused_columns`` over per-character segments. The run still stands for one unknown node per
character: the entry's rounding error counts them and ``_replay`` adds the unknown score once
for each, as sentencepiece's float32 pass does. Each is pinned here to the per-node path.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from spm_exact import exact_arrays

from tokcore.models.sentencepiece_unigram import SentencePieceUnigram, f32, path_stops, segments
from tokcore.models.spm_word_passes import entry_path
from tokcore.models.unigram import backtrack, fused_runs

SEP = "\u2581"
# "xy" is a piece sentencepiece never matches (control), so an unknown run "xy" takes its id; "漢字"
# is a piece only as a whole, so "漢" alone is an unknown node inside text pieces do hold.
_PIECES = [("<unk>", 0.0), ("xy", 0.0), (SEP, -2.0), ("a", -3.0), ("b", -3.0), ("ab", -6.0), (SEP + "a", -4.0),
           ("漢字", -5.0), ("é", -3.5)]
_MATCHABLE = [i for i, (p, _) in enumerate(_PIECES) if p not in ("<unk>", "xy")]
_TEXT = st.lists(st.sampled_from([SEP, "a", "b", "ab", "x", "y", "q", "漢", "字", "é", "Ж"]),
                 min_size=1, max_size=12).map("".join)


def _model(*, matchable=_MATCHABLE) -> SentencePieceUnigram:
    return SentencePieceUnigram(list(_PIECES), unk_id=0, matchable=matchable, split_at_space=True)


def _per_node_path(model, word):
    from_, ids = exact_arrays(model, word)
    return tuple(x for _s, e, i in backtrack(from_, ids, len(word)) for x in (e, i))


@settings(max_examples=300, deadline=None)
@given(word=_TEXT)
def test_a_fused_run_is_the_run_of_unknown_nodes(word):
    model = _model()
    from_, ids = exact_arrays(model, word)
    stops, texts = path_stops(model._word_exact(word)[0], word, model._fused_unknown)
    want = list(fused_runs(backtrack(from_, ids, len(word)), 0, len(word)))
    assert segments(stops) == want, word
    assert texts == [word[s:e] for s, e, _i in want], word


@settings(max_examples=300, deadline=None)
@given(word=_TEXT)
def test_an_entry_counts_and_replays_one_node_per_unknown_character(word):
    model = _model()
    model._end_trie()
    entry = model._new_entry(word)
    per_node = _per_node_path(model, word)
    nodes = len(per_node) // 2
    assert entry[4] == nodes * model._step_error, word
    for base in (0.0, -3.0, 12345.5):
        want = base
        for id_ in per_node[1::2]:
            want = f32(model._sp_scores.get(id_, model.unk_score) + want)
        assert model._replay(base, [entry], 0) == want, word


def test_columns_of_fused_runs():
    model = _model()
    assert model.word_columns(SEP + "xyab") == ((2, 1, 5), (SEP, "xy", "ab"), (3, 2, 2))
    assert model.word_columns(SEP + "qЖ漢a") == ((2, 0, 3), (SEP, "qЖ漢", "a"), (3, 6, 1))
    assert model._words[SEP + "qЖ漢a"][0] == (-2,)  # the run's place: the second token from the end
    assert entry_path(model._words[SEP + "qЖ漢a"]) == (1, 2, 4, None, 5, 3)


def test_a_model_that_matches_its_unknown_piece_keeps_nodes_apart():
    # "<unk>" matched as a piece: a run through it is not one unknown node per character.
    model = _model(matchable=None)
    model._end_trie()
    assert model._fused_marker is None
    entry = model._new_entry(SEP + "q<unk>")
    assert None not in entry[0][1::2]
    assert entry[5:7] == ((2, 0), (SEP, "q<unk>"))


def test_a_model_with_an_infinite_score_finds_every_word_in_float32():
    # Its exact pass would tie infinities: no entry holds anywhere, each word is found in float32.
    pieces = [*_PIECES[:4], ("b", float("-inf")), *_PIECES[5:]]
    model = SentencePieceUnigram(pieces, unk_id=0, matchable=_MATCHABLE, split_at_space=True)
    text = SEP + "ab" + SEP + "qb" + SEP + "a"
    base, want = 0.0, []
    for word in (SEP + "ab", SEP + "qb", SEP + "a"):
        segs, base = model._word_f32(word, base)
        want.append(model._emit(word, segs))
    assert model._new_entry(SEP + "ab")[1:3] == (float("inf"), float("-inf"))
    at = 0
    flat = []
    for word, toks in zip((SEP + "ab", SEP + "qb", SEP + "a"), want):
        flat += [(i, t, s + at, e + at) for i, t, s, e in toks]
        at += len(word)
    assert model.tokenize(text) == flat
    assert model.word_columns(text) == (tuple(t[0] for t in flat), tuple(t[1] for t in flat),
                                        tuple(len(t[1].encode()) for t in flat))
