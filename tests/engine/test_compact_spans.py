"""``Spans``, ``WordIds`` and their columns (``tokcore.core.spans``, ``.optional_ints``) behave exactly like lists.

Each operation is run on the compact object and on the plain list of tuples it stands for, in
both of its storage forms (tuples in a list; one flat array, 4-byte or 8-byte), and the answers
(or the exceptions) must agree. The lane's long-text route (a ``SpanColumn`` in the ``Encoding``,
frozen into the result) is pinned to the reference path, and results with ``Spans`` still pickle,
copy, convert to JSON and travel through ``encode_batch``'s worker columns.
"""

from __future__ import annotations

import copy
import json
import pickle
from itertools import chain

import fast_pairs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore
from tokcore.core import spans as S
from tokcore.core.optional_ints import WordColumn, WordIds, _int_array
from tokcore.core.spans import SpanColumn, Spans
from tokcore.fast import lane_lists
from tokcore.parallel.pack import pack, unpack

values = st.integers(0, 50) | st.integers(0, 2**33)  # small ones, and past the 4-byte range
pairs = st.lists(st.tuples(values, values), max_size=10)
forms = st.sampled_from(["list", "flat"])


def make(items: list, form: str) -> Spans:
    if form == "list":
        return Spans(items)
    return Spans._of_flat(S._flat_array(chain.from_iterable(items)))


def outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except Exception as exc:  # noqa: BLE001 - the type is what is compared
        return ("raise", type(exc))


@settings(max_examples=300, deadline=None)
@given(items=pairs, form=forms, other=pairs, other_form=forms, data=st.data())
def test_spans_read_like_the_list_of_tuples(items, form, other, other_form, data):
    ref, sp = list(items), make(items, form)
    n = len(ref)
    assert len(sp) == n and list(sp) == ref and sp.tolist() == ref and list(reversed(sp)) == ref[::-1]
    for i in range(-n - 2, n + 2):
        assert outcome(sp.__getitem__, i) == outcome(ref.__getitem__, i)
    a, b = data.draw(st.integers(-12, 12) | st.none()), data.draw(st.integers(-12, 12) | st.none())
    step = data.draw(st.sampled_from([None, 1, 2, -1, -3]))
    got = sp[a:b:step]
    assert type(got) is list and got == ref[a:b:step]
    probe = data.draw(st.sampled_from(ref) if ref else st.tuples(values, values))
    for x in (probe, list(probe), (probe[0],), None, "x"):
        assert (x in sp) == (x in ref) and sp.count(x) == ref.count(x)
        assert outcome(sp.index, x) == outcome(ref.index, x)
        assert outcome(sp.index, x, a or 0, b) == outcome(ref.index, x, a or 0, b)
    assert repr(sp) == repr(ref) and str(sp) == str(ref)
    # Comparing: as the list would, from either side, with lists, tuples and other Spans.
    osp = make(other, other_form)
    for cmp in (other, list(items), [list(p) for p in items], tuple(items), osp, make(items, other_form)):
        cmp_ref = cmp.tolist() if isinstance(cmp, Spans) else cmp
        assert (sp == cmp) == (ref == cmp_ref) and (cmp == sp) == (cmp_ref == ref)
        assert (sp != cmp) == (ref != cmp_ref) and (cmp != sp) == (cmp_ref != ref)
    assert sp + other == ref + other and other + sp == other + ref and sp + osp == ref + other
    assert sp * 2 == ref * 2 and 2 * sp == 2 * ref
    with pytest.raises(TypeError):
        hash(sp)
    with pytest.raises(TypeError):
        sp[0] = (1, 2)  # type: ignore[index]
    assert copy.copy(sp) is sp and copy.deepcopy(sp) is sp
    back = pickle.loads(pickle.dumps(sp))
    assert type(back) is Spans and back == ref
    assert json.dumps(sp.tolist()) == json.dumps(ref)


optional = st.lists(st.none() | st.tuples(values, values), max_size=10)


@settings(max_examples=300, deadline=None)
@given(items=optional, more=optional, data=st.data())
def test_span_column_is_the_encodings_list(items, more, data):
    ref, col = list(items), SpanColumn(items)
    n = len(ref)
    assert len(col) == n and list(col) == ref and col == ref and col.tolist() == ref
    assert (None in col) == (None in ref) and col.count(None) == ref.count(None)
    if ref and ref[0] is not None:
        assert col.count(ref[0]) == ref.count(ref[0])
    for i in range(-n - 2, n + 2):
        assert outcome(col.__getitem__, i) == outcome(ref.__getitem__, i)
    a, b = data.draw(st.integers(-12, 12) | st.none()), data.draw(st.integers(-12, 12) | st.none())
    step = data.draw(st.sampled_from([None, 1, 2, -1]))
    assert col[a:b:step] == ref[a:b:step]
    # Contract form out: 1-based, (0, 0) for None.
    want = [(0, 0) if s is None else (s[0] + 1, s[1] + 1) for s in ref]
    assert Spans.from_encoding(col) == want and Spans.from_encoding(ref) == want
    # Growing and changing it as the pipeline does.
    col2 = SpanColumn(items)
    col2 += SpanColumn(more)
    col2.extend(iter(more))
    col2.append(None)
    col2 += more
    ref2 = ref + more + more + [None] + more
    assert col2 == ref2
    if ref2:
        i = data.draw(st.integers(-len(ref2), len(ref2) - 1))
        new = data.draw(st.none() | st.tuples(values, values))
        col2[i] = new
        ref2[i] = new
        assert col2 == ref2
    assert list(more + col) == more + ref and list(col + more) == ref + more
    assert col.freeze() == want


def test_column_extend_takes_long_runs_chunk_by_chunk(monkeypatch):
    monkeypatch.setattr(S, "_CHUNK", 3)
    items = [(i, i + 1) if i % 4 else None for i in range(20)] + [(2**33, 2**33 + 1), (1, 2)]
    col = SpanColumn()
    col.extend(iter(items))
    assert col == items and col._flat.typecode == "q"


def test_spans_from_flat_values_and_the_list_threshold(monkeypatch):
    assert Spans.from_flat([1, 3, 0, 0]) == [(1, 3), (0, 0)]
    monkeypatch.setattr(S, "LIST_MAX", 1)
    long = Spans.from_flat([1, 3, 0, 0])
    assert long._flat is not None and long == [(1, 3), (0, 0)] and long == Spans([(1, 3), (0, 0)])


word_values = st.lists(st.none() | st.integers(0, 40) | st.integers(0, 2**40), max_size=10)


@settings(max_examples=300, deadline=None)
@given(items=word_values, form=forms, other=word_values, data=st.data())
def test_word_ids_read_like_the_list(items, form, other, data):
    ref = list(items)
    wi = WordIds(items) if form == "list" else WordIds._of_flat(_int_array([-1 if v is None else v for v in items]))
    n = len(ref)
    assert len(wi) == n and list(wi) == ref and wi.tolist() == ref and list(reversed(wi)) == ref[::-1]
    for i in range(-n - 2, n + 2):
        assert outcome(wi.__getitem__, i) == outcome(ref.__getitem__, i)
    a, b = data.draw(st.integers(-12, 12) | st.none()), data.draw(st.integers(-12, 12) | st.none())
    step = data.draw(st.sampled_from([None, 1, 2, -1, -3]))
    assert wi[a:b:step] == ref[a:b:step] and type(wi[a:b:step]) is list
    for x in (*ref[:2], None, -1, 7, "x"):
        assert (x in wi) == (x in ref) and wi.count(x) == ref.count(x)
        assert outcome(wi.index, x) == outcome(ref.index, x)
    assert repr(wi) == repr(ref)
    for cmp in (other, list(items), tuple(items), WordIds(other), WordIds(items)):
        cmp_ref = cmp.tolist() if isinstance(cmp, WordIds) else cmp
        assert (wi == cmp) == (ref == cmp_ref) and (cmp == wi) == (cmp_ref == ref)
        assert (wi != cmp) == (ref != cmp_ref)
    assert wi + other == ref + other and other + wi == other + ref
    assert pickle.loads(pickle.dumps(wi)) == ref and copy.deepcopy(wi) is wi
    # The column: grown as the pipeline grows an encoding's word ids.
    col = WordColumn(items)
    assert col == ref and list(col) == ref and col[a:b] == ref[a:b]
    col += WordColumn(other)
    col.extend(iter(other))
    col += [None, 3]
    assert col == ref + other + other + [None, 3] and col.freeze() == ref + other + other + [None, 3]
    assert WordIds.from_encoding(WordColumn(items)) == ref and WordIds.from_encoding(ref) == ref


# -- the lane's long-text route, pinned to the reference path --------------------------------

_TEXT = st.lists(st.sampled_from(["Hello", " world", "!", " it's", "\n", "  ", " é", " 中", "<|endoftext|>", " 42"]),
                 max_size=25).map("".join)


@pytest.mark.parametrize("kind, name", [("hf", "gpt2/tokenizer.json"), ("hf", "minilm/tokenizer.json"),
                                        ("hf", "trained/roberta_bytelevel.json"), ("hf", "trained/t5_style_unigram.json"),
                                        ("hf", "trained/llama_style_bpe.json"), ("hf", "trained/wordlevel_whitespace.json"),
                                        ("sentencepiece", "botchan_en_bpe_1000.model"),
                                        ("sentencepiece", "kyoto_ja_unigram_8000.model")])
@pytest.mark.parametrize("chunk", [3, 100_000])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(text=_TEXT)
def test_lane_with_span_columns_equals_the_reference(kind, name, chunk, text, monkeypatch):
    import tokcore.fast.encode as fe

    # Every text takes the long route (columns, arrays, placeholder ids, words emitted two at a
    # time), and every result's Spans and WordIds their flat arrays; with chunk 3 the document's
    # words are found chunk by chunk, as a long document's are.
    monkeypatch.setattr(lane_lists, "_COLUMN_CHARS", 0)
    monkeypatch.setattr(lane_lists, "_EMIT_WORDS", 2)
    monkeypatch.setattr(S, "LIST_MAX", 0)  # WordIds read it too
    monkeypatch.setattr(S, "COMPACT_FROM", -1)  # every result keeps its compact sequences
    monkeypatch.setattr(fe, "CHUNK_CHARS", chunk)
    fast, ref = fast_pairs.pair_for(kind, name)
    for kw in ({}, {"add_special_tokens": False}):
        a = fast.encode_result(text, return_offsets=True, return_masks=True, **kw)
        b = ref.encode_result(text, return_offsets=True, return_masks=True, **kw)
        assert a == b and a.to_dict() == b.to_dict(), (text, kw)
        assert a.offsets.tolist() == b.offsets.tolist() and a.original_offsets.tolist() == b.original_offsets.tolist()
        assert a.word_ids.tolist() == b.word_ids.tolist()
        assert all(type(m) is list for m in (a.ids, a.special_tokens_mask, a.attention_mask, a.token_type_ids))
        a = fast.encode_result(text, return_offsets=False, **kw)  # word ids in a column, no spans
        assert a == ref.encode_result(text, return_offsets=False, **kw) and a.tokens == b.tokens


def test_identity_alignment_shares_one_object_and_long_results_stay_compact(monkeypatch):
    fast, ref = fast_pairs.pair_for("hf", "gpt2/tokenizer.json")
    text = "It was the best of times, it was the worst of times.\n" * 2000
    res = fast.encode_result(text, return_offsets=True)  # 26,000 tokens: plain lists, two of them
    assert type(res.offsets) is list and type(res.word_ids) is list and res.offsets is not res.original_offsets
    monkeypatch.setattr(S, "COMPACT_FROM", 10_000)
    res = fast.encode_result(text, return_offsets=True)
    assert isinstance(res.offsets, Spans) and res.offsets is res.original_offsets and type(res.word_ids) is WordIds
    assert res.offsets._flat is not None  # long: one flat array, not tuples
    assert res == ref.encode_result(text, return_offsets=True)


@pytest.mark.parametrize("compact_from", [65_536, -1])
def test_worker_columns_bring_spans_back(monkeypatch, compact_from):
    monkeypatch.setattr(S, "COMPACT_FROM", compact_from)
    kind = list if compact_from > 0 else Spans
    fast, _ = fast_pairs.pair_for("hf", "minilm/tokenizer.json")
    results = [fast.encode_result(t, return_offsets=True) for t in ["Héllo there", "plain text", ""]]
    back = unpack(*pack(results))
    assert back == results
    assert all(type(r.offsets) is kind and type(r.original_offsets) is kind for r in back)


def test_long_route_without_a_post_processor_equals_the_reference(monkeypatch):
    monkeypatch.setattr(lane_lists, "_COLUMN_CHARS", 0)
    monkeypatch.setattr(S, "COMPACT_FROM", -1)
    path = require_shared("reference", "hf", "gpt2", "tokenizer.json")
    fast, ref = tokcore.load(path), tokcore.load(path)
    fast.post_processor = ref.post_processor = None
    fast.truncation = ref.truncation = fast.padding = ref.padding = None
    ref.fast = False
    text = "Hello world, it's 42 here.\n  Twice é 中"
    a = fast.encode_result(text, return_offsets=True, return_masks=True)
    assert "_source" in a.__dict__  # the lane took it
    assert a == ref.encode_result(text, return_offsets=True, return_masks=True)
    assert type(a.word_ids) is WordIds and all(type(m) is list for m in (a.special_tokens_mask, a.attention_mask, a.token_type_ids, a.sequence_ids))
