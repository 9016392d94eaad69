"""``RankBPE.word_columns`` merged over token ids (``sentencepiece_bpe_ids``) pinned to ``_word``.

A small model whose ranked texts are all tokens merges a word's ids: each pair's rank and merged
id from tables of every split of every ranked text into two tokens, the cut mark between two
characters no ranked text holds side by side, the pieces between cuts kept by text. It must give
what ``_word`` (the merge by text) gives, on random rank tables dense with ties (the leftmost of
equal ranks merges first), texts that split into tokens more than one way ("ab" + "c" and "a" +
"bc"), word after word on one model (kept pieces taken again), and it must be the path taken.
Where it does not apply (a ranked text that is no token, a letter that is no token alone, a word
longer than ``SCAN_MAX``) the text merge answers, the same.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_rank_bpe_cuts import _ALPHABET, _MERGING, _RANKED, _expected
from test_rank_bpe_cuts import _model as _tokens_model

from tokcore.models.rank_bpe import SCAN_MAX, RankBPE, _merge_ranked
from tokcore.models.sentencepiece_bpe_ids import merge_ids


def _model(ranks: dict[str, int]) -> RankBPE:
    return _tokens_model(ranks, True)  # every ranked text a token


@settings(max_examples=400, deadline=None)
@given(ranks=st.dictionaries(_RANKED, st.integers(0, 4), max_size=40),
       words=st.lists(st.text(alphabet=_ALPHABET, min_size=1, max_size=16), min_size=1, max_size=8))
def test_words_merged_over_ids_equal_the_reference_merge(ranks, words):
    model = _model(ranks)
    texts = words + [w[1:] for w in words] + [w + w[:3] for w in words] + words
    for text in texts:
        if text:
            assert model.word_columns(text) == _expected(model, text), text
    assert model._ids_of  # the id merge applied
    if any(r in w for r in ranks for w in words if "日" not in w):
        assert model._id_segments  # and merged what it met (a piece holding a ranked text)


@settings(max_examples=300, deadline=None)
@given(ranks=st.dictionaries(_RANKED, st.integers(0, 4), min_size=1, max_size=40),
       word=st.text(alphabet=_MERGING, min_size=2, max_size=16))
def test_merge_ids_merges_as_the_text_merge(ranks, word):
    model = _model(ranks)
    _char_id, rows, made, text_of = model._id_tables()[:4]
    ids = [model.vocab[c] for c in word]
    pair_ranks = [rows[a].get(b, model._unranked) for a, b in zip(ids, ids[1:])]
    want = _merge_ranked(list(word), [model._rank.get(a + b, model._unranked) for a, b in zip(word, word[1:])],
                         model._rank.get, model._unranked)
    assert [text_of(i) for i in merge_ids(ids, pair_ranks, rows, made, model._unranked)] == want


def test_a_text_made_of_tokens_two_ways_merges_either_way():
    # "abc" is ranked, and both "ab" + "c" and "a" + "bc" make it: whichever pair forms first.
    vocab = {"<unk>": 0, "a": 1, "b": 2, "c": 3, "x": 4, "ab": 5, "bc": 6, "abc": 7}
    for ab, bc in ((0, 1), (1, 0), (1, 1)):
        model = RankBPE(vocab, ranks={"ab": ab, "bc": bc, "abc": 2}, unk_token="<unk>", fuse_unk=True,
                        unk_keeps_text=True)
        assert model.word_columns("abc") == _expected(model, "abc") == ((7,), ("abc",), (3,))
        for text in ("xabcab", "abcbc", "ababc"):
            assert model.word_columns(text) == _expected(model, text), text
        assert model._ids_of


def test_where_the_id_merge_does_not_apply_the_text_merge_answers():
    # A ranked text that is no token: no id tables at all.
    model = RankBPE({"<unk>": 0, "a": 1, "b": 2}, ranks={"ab": 0}, unk_token="<unk>", fuse_unk=True,
                    unk_keeps_text=True)
    assert model.word_columns("aab") == _expected(model, "aab") == ((1, 0), ("a", "ab"), (1, 2))
    assert model._ids_of is False
    # A letter ("q") that is no token alone, and a word longer than SCAN_MAX.
    model = _model({"ab": 0, "▁a": 1, "qa": 2})
    for text in ("qab", "▁qa", "ab" * SCAN_MAX, "▁" + "ba" * SCAN_MAX):
        assert model.word_columns(text) == _expected(model, text), text
    assert not model._id_segments  # none of them merged over ids
    assert model.word_columns("▁ab") == _expected(model, "▁ab") and model._id_segments
