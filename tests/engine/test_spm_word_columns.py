"""``SentencePieceUnigram.word_columns`` pinned to ``tokenize``, the model's reference output.

``word_columns`` gives a text's ids, token texts and UTF-8 lengths from its words' cache entries:
the common case (every entry holds at its running score) reads them in one loop, unknown runs are
fused by ``_fused_columns`` instead of ``_emit``, and the forward pass walks the piece trie. Each
must give what ``tokenize`` (segments through ``_emit``) gives, on a fresh model and a warm one,
for unknown runs that spell a piece (a control piece, a piece matched only as a whole), repeated
pieces (ids by text), byte fallback, and near ties that send words through the float32 pass.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.models.sentencepiece_unigram import SentencePieceUnigram

SEP = "\u2581"
# "xy" and "<s>" are pieces sentencepiece never matches (control), spelled by unknown characters;
# "漢字" is one only as a whole. "ba"/"ab" nearly tie with their halves, "aba" with "a" + "ba".
_PIECES = [("<unk>", 0.0), ("<s>", 0.0), ("xy", 0.0), (SEP, -2.0), ("a", -3.0), ("b", -3.0), ("ab", -6.0),
           ("ba", -5.999999), (SEP + "a", -4.0), ("漢字", -5.0), ("é", -3.5), ("aba", -8.9999985), ("<u>", 0.0)]
_MATCHABLE = [i for i, (p, _) in enumerate(_PIECES) if p not in ("<unk>", "<s>", "xy")]


def _model(*, repeated: bool = False, byte_fallback: bool = False) -> SentencePieceUnigram:
    pieces = list(_PIECES)
    matchable = list(_MATCHABLE)
    if repeated:  # a second "a": every "a" token takes the last id (ids by text)
        pieces.append(("a", -3.0))
    if byte_fallback:
        pieces += [(f"<0x{b:02X}>", 0.0) for b in range(256)]
    return SentencePieceUnigram(pieces, unk_id=0, byte_fallback=byte_fallback, matchable=matchable,
                                user_defined=[len(_PIECES) - 1], split_at_space=True)


def _columns_of_tokenize(model, text):
    toks = model.tokenize(text)
    if any(len(t) != 4 for t in toks):
        return None
    return (tuple(t[0] for t in toks), tuple(t[1] for t in toks),
            tuple(len(t[1].encode("utf-8", "surrogatepass")) for t in toks))


_TEXT = st.lists(st.sampled_from([SEP, "a", "b", "ab", "ba", "x", "y", "xy", "<s>", "漢", "字", "é", "<u>", "q",
                                  SEP + "a", "\u0301"]), min_size=1, max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT, repeated=st.booleans(), byte_fallback=st.booleans(), repeat=st.integers(1, 30))
def test_word_columns_equal_the_tokens_of_tokenize(text, repeated, byte_fallback, repeat):
    for t in (text, SEP + text, (SEP + text) * repeat):
        fresh, warm = _model(repeated=repeated, byte_fallback=byte_fallback), _model(repeated=repeated,
                                                                                      byte_fallback=byte_fallback)
        warm.tokenize(t)  # its words' entries made by tokenize first
        want = _columns_of_tokenize(_model(repeated=repeated, byte_fallback=byte_fallback), t)
        assert fresh.word_columns(t) == want, t
        assert warm.word_columns(t) == want, t
        assert fresh.word_columns(t) == want, t  # again, from the cache


def test_an_unknown_run_that_spells_a_piece_takes_its_id():
    model = _model()
    assert model.word_columns(SEP + "xyab") == ((3, 2, 6), (SEP, "xy", "ab"), (3, 2, 2))
    assert model.word_columns(SEP + "<s>") == ((3, 1), (SEP, "<s>"), (3, 3))
    assert model.word_columns(SEP + "qx") == ((3, 0), (SEP, "qx"), (3, 2))


def _lattice_margin(model, text):
    """The narrowest margin, the score and the lowest and highest best score at a position extended
    from, by listing every candidate at every position (``_word_exact``'s definitions)."""
    pieces = {model.vocab[i][0]: i for i in model.matchable}  # a repeated piece: its last id
    best, margin = [0.0], float("inf")
    for stop in range(1, len(text) + 1):
        cands = [best[start] + model._sp_scores[pieces[text[start:stop]]] for start in range(stop)
                 if text[start:stop] in pieces]
        if text[stop - 1] not in pieces:  # the unknown node, where no one-character piece starts
            cands.append(best[stop - 1] + model.unk_score)
        cands.sort(reverse=True)
        best.append(cands[0])
        if len(cands) > 1:
            margin = min(margin, cands[0] - cands[1])
    return margin, best[-1], min(best[:-1]), max(best[:-1])


@settings(max_examples=300, deadline=None)
@given(text=_TEXT)
def test_the_trie_forward_pass_finds_every_candidate(text):
    # Any candidate the walk misses, or whose near loss it does not count, shows in the margin.
    model = _model()
    _infos, margin, score, lowest, highest = model._word_exact(text)
    assert (margin, score, lowest, highest) == _lattice_margin(model, text), text
