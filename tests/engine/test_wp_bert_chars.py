"""BertNormalizer character by character (``tokcore.normalizers.bert_chars``) pinned to the normalizer.

``BertText`` gives the view the lane tokenizes and a mapper that turns the view's byte spans
into raw ones; both must equal what the normalizer itself makes of the whole text (its text, and
``OriginalMapper`` over its alignment) for every option set, on text that mixes what each step
rewrites: accents precomposed and combining (also out of canonical order), capitals, CJK, wide
spaces, controls, format characters, ``Σ`` and ``İ``. Also the cheap same-place checks of
``tokcore.fast.views`` on the same text, and lane results against the reference path.
"""

from __future__ import annotations

import fast_pairs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokcore.core.normalized import NormalizedString
from tokcore.core.offsets import char_to_byte_table
from tokcore.core.original_offsets import OriginalMapper
from tokcore.fast.views import same_place_view
from tokcore.normalizers.bert_chars import BertMapper, BertText
from tokcore.normalizers.standard import BertNormalizer

OPTIONS = {
    "uncased": {},
    "cased": {"lowercase": False},
    "cased-strip": {"lowercase": False, "strip_accents": True},
    "lower-keep-accents": {"strip_accents": False},
    "raw": {"clean_text": False},
    "no-cjk": {"handle_chinese_chars": False},
}
PIECES = ["a", "B", "Hello", "wörld", "É", "e\u0301", "o\u0301\u0331", "\u0331", "\u0301", "Дом", "й", "Σ", "ΣΑ", "İ",
          "ﬁ", "中", "国", "\uf900", "\u3000", "\u00a0", "\u2000", " ", "  ", "\t", "\n", "\x00", "\x7f", "\u200d", "\u00ad",
          "\ufffd", "नमस्ते", "ไทย", "مَرحبا", "😀", "K", "!", "'", "\u1734", "\U0002a6e0", "\u00e9" + "\u0301" * 31,
          "Vi\u00ea\u0323t", "\u01a1\u0309\u0323", "\u1ec7", "\U0001d16d", "a\u0301\U0001d16d", "한국어", "\u3392"]
texts = st.lists(st.sampled_from(PIECES), max_size=12).map("".join) | st.text(max_size=12)


def reference(normalizer: BertNormalizer, text: str) -> NormalizedString:
    return normalizer.normalize(NormalizedString(text))


@pytest.mark.parametrize("opts", list(OPTIONS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, data=st.data())
def test_view_and_mapper_are_the_normalizers(opts, text, data):
    normalizer = BertNormalizer(**OPTIONS[opts])
    bert = BertText(normalizer)
    view = bert(text)
    if view is None:
        return
    ns = reference(normalizer, text)
    assert view == ns.normalized
    mapper = bert.mapper(text)
    if mapper is None:
        return
    table = char_to_byte_table(view)
    at = st.integers(0, len(view))
    spans = [(table[a], table[b]) for a, b in map(sorted, data.draw(st.lists(st.tuples(at, at), max_size=6)))]
    spans += [tuple(sorted(p)) for p in data.draw(st.lists(st.tuples(*[st.integers(0, table[-1])] * 2), max_size=3))]
    ref = OriginalMapper(ns)
    for span in spans:
        assert mapper.map_all([span, None]) == ref.map_all([span, None]), span
    # Every word of the view at once, as a tokenizer's spans come (the mapper's own positions).
    words = [(table[a], table[a + len(w)]) for a, w in _words(view)]
    assert mapper.map_all([None, *words, None]) == ref.map_all([None, *words, None])


def _words(view: str) -> list:
    out, pos = [], 0
    for w in view.split(" "):
        if w:
            out.append((pos, w))
        pos += len(w) + 1
    return out


def test_common_multilingual_text_takes_the_view_and_the_mapper():
    bert = BertText(BertNormalizer())
    for text in ["Héllo Wörld", "Всеобщая декларация прав человека", "世界人权宣言 第一条", "सभी मनुष्यों को",
                 "ΟΙΚΟΥΜΕΝΙΚΗ ΔΙΑΚΗΡΥΞΗ", "كل الناس", "ข้อ ๑", "Tab\there\u200d"]:
        view = bert(text)
        assert view == reference(BertNormalizer(), text).normalized
        mapper = bert.mapper(text)
        table = char_to_byte_table(view)
        words = [(table[a], table[a + len(w)]) for a, w in _words(view)]
        # Each word maps through the mapper's own positions (no fallback to the whole alignment).
        assert type(mapper) is BertMapper and all(w[0] in mapper.starts and w[1] in mapper.stops for w in words)


def test_spans_between_one_characters_view_characters_map_to_that_character():
    # NFD makes a Hangul syllable three jamo, each aligned to the whole syllable: a WordPiece token
    # may end or start between them. The mapper finds those positions itself (no whole alignment).
    bert = BertText(BertNormalizer())
    text = "한국"
    assert bert(text) == "\u1112\u1161\u11ab\u1100\u116e\u11a8"
    mapper = bert.mapper(text)
    spans = [(0, 3), (3, 9), (9, 12), (12, 18)]
    expected = OriginalMapper(reference(BertNormalizer(), text)).map_all(spans)
    assert mapper.map_all(spans) == expected == [(1, 4), (1, 4), (4, 7), (4, 7)]
    assert 3 in mapper.starts and 3 in mapper.stops and mapper.starts[3] != mapper.stops[3]
    # An empty span between them keeps its start, as the alignment's does (found by hypothesis).
    assert mapper.map_all([(3, 3), (0, 9)]) == [(1, 1), (1, 4)]


def test_marks_out_of_canonical_order_take_the_view_when_all_are_dropped():
    # NFD reorders the dot below before the acute; strip_accents drops both (Mn), so the order
    # leaves no trace: the view and its mapper stay character by character (Vietnamese written
    # with combining tones: more than half of UDHR's lines). A mark NFD moves that is not Mn
    # (U+1D16D is Mc) stays in the text: the normalizer decides.
    bert = BertText(BertNormalizer())
    for text in ["o\u0301\u0323", "Mó̱ma", "Vi\u00ea\u0323t Nam"]:
        view = bert(text)
        assert view == reference(BertNormalizer(), text).normalized and view is not None
        table = char_to_byte_table(view)
        words = [(table[a], table[a + len(w)]) for a, w in _words(view)]
        mapper = bert.mapper(text)
        assert mapper.map_all(words) == OriginalMapper(reference(BertNormalizer(), text)).map_all(words)
        # Through the mapper's own positions, the reordered units' put right (no whole alignment).
        assert all(w[0] in mapper.starts and w[1] in mapper.stops for w in words)
    assert bert("a\u0301\U0001d16d") is None
    assert BertText(BertNormalizer(lowercase=False, strip_accents=True))("A\u0301\U0001d16d") is None
    # A control between É and a mark: clean_text drops it, NFD then reorders the joined marks (É decomposes,
    # so the unit stays whole): the mapper leaves such a text to the alignment (found by hypothesis in CI).
    for text, view in [("\u00c9\x00\u0331", "e"), ("e\u0301\x00\u0331", "e"), ("a\u0301\x00\u0323", "a")]:
        ref = reference(BertNormalizer(), text)
        assert bert(text) == ref.normalized == view
        mapper = bert.mapper(text)
        assert mapper is None or mapper.map_all([(0, 1)]) == OriginalMapper(ref).map_all([(0, 1)])
    assert bert("\u00e9" + "\u0301" * 40) is None  # a run of marks unicode_pieces keeps whole
    assert bert("x" + "\u0301" * 40) == "x"  # in NFD already: nothing to reorder


@pytest.mark.parametrize("opts", list(OPTIONS))
@settings(max_examples=150, deadline=None)
@given(text=texts)
def test_same_place_view_on_multilingual_text(opts, text):
    normalizer = BertNormalizer(**OPTIONS[opts])
    view = same_place_view(normalizer, text)
    if view is None:
        return
    ns = reference(normalizer, text)
    assert ns.normalized == view
    assert ns.alignments() == [(i, i + 1) for i in range(len(text))]
    assert len(view.encode("utf-8", "surrogatepass")) == len(text.encode("utf-8", "surrogatepass"))


def test_same_place_view_keeps_and_refuses():
    uncased, cased = BertNormalizer(), BertNormalizer(lowercase=False)
    assert same_place_view(uncased, "Привет, мир") is None  # capitals lowered: bytes alike, not the same
    assert same_place_view(uncased, "привет, мир") == "привет, мир"
    assert same_place_view(uncased, "нашей") is None  # й is и and a breve, which goes
    assert same_place_view(cased, "Héllo\tWörld") == "Héllo Wörld"
    assert same_place_view(uncased, "नमस्ते") is None  # vowel signs are Mn marks
    assert same_place_view(cased, "中") is None and same_place_view(cased, "a\u3000b") is None


@pytest.mark.parametrize("name", ["minilm/tokenizer.json", "trained/bert_cased_wordpiece.json"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_lane_results_equal_the_reference(name, text):
    fast, ref = fast_pairs.pair_for("hf", name)
    fast_pairs.assert_same_results(fast, ref, text)


@pytest.mark.parametrize("options", list(OPTIONS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=10).map("".join), st.sampled_from(["", "\ufeff", "\u0301"]))
def test_long_text_same_place_checks_equal_short_ones(options, text, rare):
    # Past _DISTINCT_FROM characters the checks look at the distinct non-ASCII characters instead of
    # every one: on the same text they must answer as the per-character checks do, and the view
    # must be the normalizer's own text.
    from tokcore.fast import views

    normalizer = BertNormalizer(**OPTIONS[options])
    long_text = "x " * (views._DISTINCT_FROM // 2) + text * 3 + rare + "tail"
    got = views._bert_same_place(normalizer, long_text)
    saved = views._DISTINCT_FROM
    views._DISTINCT_FROM = len(long_text) + 1
    try:
        short_answer = views._bert_same_place(normalizer, long_text)
    finally:
        views._DISTINCT_FROM = saved
    assert got == short_answer
    if got is not None:
        assert got == reference(normalizer, long_text).normalized
