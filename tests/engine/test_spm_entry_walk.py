"""sentencepiece Unigram's exact pass keeps each position's winner as its piece's info (``end_nodes``:
length, id, text, UTF-8 length) and the word entry reads its columns off those infos in one walk back.

Pinned here: every end-trie node against the piece its path spells; each kept winner against the
text it ends (the piece's own, or the unknown node's one character); the entry's columns against
``_columns`` over ``path_stops``, the general path that reads ids and texts from the path; its
range against the margin formula with ``max``/``min``; and the pass against ``_word_f32`` from 0
wherever an entry holds there.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.models.sentencepiece_unigram import SentencePieceUnigram, path_stops, segments
from tokcore.models.spm_word_passes import _LEAF, _REBASE, _U, entry_path
from tokcore.models.unigram import fused_runs

SEP = "\u2581"
# "ab" ties "a" + "b"; "bab" nearly ties "b" + "ab"; "<s>" is never matched; "zz" is user-defined;
# "漢字" is a piece only as a whole; "é" (two UTF-8 bytes) and "ä" end longer pieces only.
_PIECES = [("<unk>", 0.0), ("<s>", 0.0), (SEP, -2.0), ("a", -3.0), ("b", -3.0), ("ab", -6.0), ("bab", -8.9999995),
           (SEP + "a", -4.0), ("漢字", -5.0), ("é", -3.5), ("aé", -6.25), ("bä", -7.0), ("zz", 0.0)]
_MATCHABLE = [i for i, (p, _) in enumerate(_PIECES) if p not in ("<unk>", "<s>")]
_TEXT = st.lists(st.sampled_from([SEP, "a", "b", "ab", "ba", "é", "ä", "漢", "字", "z", "q", "<s>", "\U0001f600"]),
                 min_size=1, max_size=14).map("".join)


def _model() -> SentencePieceUnigram:
    return SentencePieceUnigram(_PIECES, unk_id=0, matchable=_MATCHABLE, user_defined=[len(_PIECES) - 1],
                                split_at_space=True)


def test_each_end_node_holds_the_piece_its_path_spells():
    model = _model()
    trie = model._end_trie()
    pieces = {model.vocab[i][0]: i for i in model.matchable}
    seen = 0
    levels = [(trie, "")]
    while levels:
        level, tail = levels.pop()
        for char, (children, info, score) in level.items():
            piece = char + tail
            if piece in pieces:
                want = (len(piece), pieces[piece], piece, len(piece.encode("utf-8")))
                assert (info, score) == (want, model._sp_scores[pieces[piece]]), piece
                seen += 1
            elif not tail:  # a root character without a one-character piece: the unknown node
                assert info is model._unknown_node[1] and score == model.unk_score, piece
            else:  # only part of a longer piece: never a winner
                assert score == float("-inf"), piece
            assert children is _LEAF or children, piece
            levels.append((children, piece))
    assert seen == len(pieces)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT)
def test_each_winner_is_the_piece_or_unknown_character_ending_there(text):
    model = _model()
    infos = model._word_exact(text)[0]
    pieces = {model.vocab[i][0]: i for i in model.matchable}
    for stop in range(1, len(text) + 1):
        info = infos[stop]
        if info is model._unknown_node[1]:
            assert text[stop - 1] not in pieces, (text, stop)
            continue
        length, id_, piece, size = info
        assert text[stop - length:stop] == piece and pieces[piece] == id_, (text, stop)
        assert size == len(piece.encode("utf-8")), (text, stop)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT)
def test_the_entrys_walk_gives_the_general_paths_columns_and_range(text):
    model = _model()
    entry = model._new_entry(text)
    infos, margin, score, lowest, highest = model._word_exact(text)
    stops, texts = path_stops(infos, text, model._unknown_node[1])
    assert entry_path(entry) == stops, text
    assert entry[5:] == model._columns(text, stops, texts), text
    k = len(text) + 1
    limit = margin / (4.0 * k * _U) - k * model._magnitude
    slack = k * model._step_error
    want = (max(-limit, slack - _REBASE - lowest), min(limit, _REBASE - slack - highest), score)
    assert entry[1:4] == want, text


@settings(max_examples=200, deadline=None)
@given(words=st.lists(_TEXT, min_size=1, max_size=4))
def test_a_holding_entry_is_sentencepieces_float32_path(words):
    # From a running score of 0 (a text's first word), an entry that holds there is the float32 pass.
    model = _model()
    for word in words:
        entry = model._new_entry(word)
        if entry[1] < 0.0 < entry[2]:
            segs, _score = model._word_f32(word, 0.0)
            assert segments(entry_path(entry)) == list(fused_runs(segs, model._unk_marker, len(word))), word
