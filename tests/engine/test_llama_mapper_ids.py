"""``ShiftMapper`` with token ids (``PrefixReplaceText.mapper(raw, ids, lengths)``): a Llama-style
text's tokens mapped from their raw lengths (``RawLengths``) equal the spans the tables give and
the reference path's ``original_offsets``; texts the ids cannot map (a raw ``"▁"``, byte-fallback
or unknown tokens) take the tables and stay exact. Added tokens in the text never reach the mapper
(the lane leaves such texts to the core).

Left out: the tables themselves (``test_shift_mapper.py``, ``test_llama_mapper_shapes.py``).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore
from tokcore.core.offsets import SENTINEL
from tokcore.fast.views import PrefixReplaceText, RawLengths

LLAMA = ("reference", "hf", "trained", "llama_style_bpe.json")
_REF = tokcore.load(require_shared(*LLAMA))
_REF.fast = False
_MODEL = _REF.model
_HIDDEN = {i for i in _MODEL._byte_ids if i is not None} | {_MODEL.vocab[_MODEL.unk_token]}
_VIEW = PrefixReplaceText("\u2581", " ", "\u2581")
_PLAIN = ["the", " ", "and", "of", "ing", "s", ",", ".", "I", "é", "中", "x", "  ", "42"]
_ODD = ["\u2581", "😀", "\U0001d11e", "\t"]  # a raw "▁", byte fallback, a control


def _lengths() -> RawLengths:
    return _VIEW.raw_lengths(_MODEL._inverse.get, _HIDDEN)


def _mapped(text: str, lengths):
    """(spans from ids, spans from tables, the reference's original offsets, the ids path's own answer)."""
    res = _REF.encode_result(text, return_offsets=True)
    spans = [None if o == SENTINEL else (o[0] - 1, o[1] - 1) for o in res.offsets]
    with_ids = _VIEW.mapper(text, res.ids, lengths)
    own = with_ids._from_ids(spans, 1, len(spans)) if len(spans) > 1 else None  # the template's <s> first
    return with_ids.map_all(spans), _VIEW.mapper(text).map_all(spans), list(res.original_offsets), own


@settings(max_examples=200, deadline=None)
@given(text=st.lists(st.sampled_from(_PLAIN), min_size=1, max_size=30).map("".join))
def test_plain_texts_map_from_their_ids(text):
    by_ids, by_tables, reference, own = _mapped(text, _lengths())
    assert own is not None  # the ids path answered
    assert by_ids == by_tables == reference


@settings(max_examples=200, deadline=None)
@given(text=st.lists(st.sampled_from(_PLAIN + _ODD), min_size=1, max_size=30).map("".join))
def test_any_text_maps_as_the_tables_and_the_reference(text):
    by_ids, by_tables, reference, own = _mapped(text, _lengths())
    assert by_ids == by_tables == reference
    if own is not None:
        assert own == reference


def test_what_the_ids_cannot_map_declines():
    lengths = _lengths()
    for text in ("a\u2581b", "a 😀 b", "\u2581"):  # a raw "▁"; byte tokens (one cuts no "▁" here)
        assert _mapped(text, lengths)[3] is None
    assert lengths[_MODEL._byte_ids[0xF0]] is None and lengths[_MODEL.vocab["\u2581a"]] == 2


def test_only_a_one_new_prefix_and_a_one_byte_old_get_lengths():
    assert PrefixReplaceText("", " ", "\u2581").raw_lengths(_MODEL._inverse.get, ()) is None
    assert PrefixReplaceText("\u2581", None, None).raw_lengths(_MODEL._inverse.get, ()) is None
    assert PrefixReplaceText("\u2581", "é", "\u2581").raw_lengths(_MODEL._inverse.get, ()) is None
    assert type(_lengths()) is RawLengths


def test_an_inserted_token_among_the_texts_declines():
    text = "the and of"
    res = _REF.encode_result(text, return_offsets=True)
    spans = [None if o == SENTINEL else (o[0] - 1, o[1] - 1) for o in res.offsets]
    ids = list(res.ids)
    spans.insert(2, None)  # a token with no source between the text's, as a pair template puts one
    ids.insert(2, ids[0])
    with_ids = _VIEW.mapper(text, ids, _lengths())
    assert with_ids._from_ids(spans, 1, len(spans)) is None
    assert with_ids.map_all(spans) == _VIEW.mapper(text).map_all(spans)
    assert with_ids.map_all(spans)[2] == SENTINEL


_FAST = tokcore.load(require_shared(*LLAMA))


@settings(max_examples=200, deadline=None)
@given(text=st.lists(st.sampled_from(_PLAIN + _ODD), min_size=1, max_size=30).map("".join), add=st.booleans(),
       view_first=st.booleans())
def test_the_lane_maps_from_ids_and_makes_the_view_offsets_on_their_read(text, add, view_first):
    """The lane maps a Llama-style text's original offsets from its ids before any view span is made
    (``ShiftMapper.map_ids``); the view's offsets are made on their own read, in either order."""
    res = _FAST.encode_result(text, return_offsets=True, add_special_tokens=add)
    want = _REF.encode_result(text, return_offsets=True, add_special_tokens=add)
    if view_first:
        assert res.offsets == want.offsets and res.original_offsets == want.original_offsets
    else:
        assert res.original_offsets == want.original_offsets and res.offsets == want.offsets
    assert res.ids == want.ids and res.tokens == want.tokens and res.word_ids == want.word_ids


def test_a_plain_text_leaves_its_view_offsets_unmade_until_read():
    for add in (True, False):
        res = _FAST.encode_result("the and of, I", return_offsets=True, add_special_tokens=add)
        assert res.original_offsets == _REF.encode_result("the and of, I", return_offsets=True,
                                                          add_special_tokens=add).original_offsets
        assert callable(res.__dict__["_offsets"])  # the lane's maker, not (spans, base) of made spans
    assert "offsets" not in res.__dict__
