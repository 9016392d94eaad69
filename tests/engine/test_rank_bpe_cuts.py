"""``RankBPE.word_columns`` cut where no merge can reach across, each piece merged once per model.

Two characters that no ranked text holds side by side never end up in one part (a merge across
them would make a ranked text holding them), so ``_cut_merge`` merges the pieces between such
pairs on their own and keeps each piece's parts; a whole text merged without cuts is kept as a
piece too, and a later text equal to a kept piece takes it. The token sizes come from a per-id
table. The runs between characters that no token or ranked text holds (``_inert_split``) are
kept as pieces too. All of it must give what ``_word`` (the reference merge) gives: on random rank tables
dense with ties, ranked texts that are no token and pairs that only longer ranked texts hold,
word after word on one model (pieces met before), and with the cuts turned off
(``PAIR_TABLE_MAX`` below the ranks' count: the table is the ranks, nothing cuts).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.models import rank_bpe
from tokcore.models.rank_bpe import RankBPE, _cut_merge, _scan_merge

_MERGING = "abé▁"  # the letters of ranked texts
_ALPHABET = _MERGING + "xy日"  # x, y: tokens that never merge; 日: no token, no rank
_RANKED = st.text(alphabet=_MERGING, min_size=2, max_size=5)


def _model(ranks: dict[str, int], tokens_only: bool) -> RankBPE:
    """Single characters and (unless ``tokens_only`` is False for some) the ranked texts as tokens."""
    vocab = {"<unk>": 0, "x": 1, "y": 2, "a": 3, "b": 4, "é": 5, "▁": 6}
    for text in ranks:
        if tokens_only or len(text) % 2:  # some ranked texts are no token: their merge is an unknown part
            vocab.setdefault(text, len(vocab))
    return RankBPE(vocab, ranks=ranks, unk_token="<unk>", fuse_unk=True, unk_keeps_text=True)


def _expected(model: RankBPE, text: str):
    toks = model._word(text)
    return (tuple(t[0] for t in toks), tuple(t[1] for t in toks),
            tuple(len(t[1].encode("utf-8", "surrogatepass")) for t in toks))


@settings(max_examples=300, deadline=None)
@given(ranks=st.dictionaries(_RANKED, st.integers(0, 5), max_size=30), tokens_only=st.booleans(),
       words=st.lists(st.text(alphabet=_ALPHABET, min_size=1, max_size=14), min_size=1, max_size=8))
def test_cut_words_equal_the_reference_merge(ranks, tokens_only, words):
    model = _model(ranks, tokens_only)
    reference = _model(ranks, tokens_only)
    # A word's pieces again, as words and inside others, so kept pieces are taken; the runs
    # between characters no token or rank holds ("日": _inert_split's runs, kept as pieces too).
    texts = words + [w[1:] for w in words] + [w + w[:3] for w in words] + words
    texts += [run for w in words for run in w.split("日")] + ["日".join(reversed(texts))]
    for text in texts:
        if text:
            assert model.word_columns(text) == _expected(reference, text), text


@settings(max_examples=150, deadline=None)
@given(ranks=st.dictionaries(_RANKED, st.integers(0, 5), max_size=30),
       words=st.lists(st.text(alphabet=_ALPHABET, min_size=1, max_size=14), min_size=1, max_size=6))
def test_without_the_pair_table_nothing_cuts(ranks, words):
    saved = rank_bpe.PAIR_TABLE_MAX
    rank_bpe.PAIR_TABLE_MAX = -1  # every rank table is "too large": the table is the ranks
    try:
        model = _model(ranks, True)
        for text in words + words:
            assert model.word_columns(text) == _expected(model, text), text
        runs = {run for w in words for run in w.split("日")}
        assert set(model._segments) <= set(words) | runs  # only whole texts and runs between inert characters
    finally:
        rank_bpe.PAIR_TABLE_MAX = saved


@settings(max_examples=300, deadline=None)
@given(ranks=st.dictionaries(_RANKED, st.integers(0, 5), max_size=30),
       words=st.lists(st.text(alphabet=_MERGING + "xy", min_size=2, max_size=20), min_size=1, max_size=5))
def test_cut_merge_equals_the_scan(ranks, words):
    model = _model(ranks, True)
    table, missing, cut, _ = model._pair_table()
    segments: dict = {}
    for word in words + words:
        pairs = [table.get(word[i:i + 2], missing) for i in range(len(word) - 1)]
        want = _scan_merge(list(word), model._rank.get, model._unranked)
        assert _cut_merge(word, pairs, cut, model._rank.get, model._unranked, segments) == want, word


def test_a_pair_only_a_longer_ranked_text_holds_does_not_cut():
    # "éa" has no rank, yet "béa" does: "b" + "éa" never happens, "bé" + "a" does.
    model = RankBPE({"<unk>": 0, "a": 1, "b": 2, "é": 3, "bé": 4, "béa": 5, "x": 6}, ranks={"bé": 0, "béa": 1},
                    unk_token="<unk>", fuse_unk=True, unk_keeps_text=True)
    assert model.word_columns("xbéax") == ((6, 5, 6), ("x", "béa", "x"), (1, 4, 1))
    assert model._id_segments["béa"] == (5,)  # cut at "xb" and "ax", never inside (merged over ids)
    assert model.word_columns("béa") == ((5,), ("béa",), (4,))


@pytest.mark.parametrize("text", ["▁ab", "é▁", "xé"])
def test_sizes_are_utf8_lengths(text):
    model = _model({"▁a": 0, "ab": 1, "▁ab": 2, "é▁": 3}, True)
    assert model.word_columns(text) == _expected(model, text)
