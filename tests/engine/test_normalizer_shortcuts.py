"""The per-character tables inside the normalizers, pinned to the general paths they short-cut.

- ``decomposed_pieces`` (NFD, NFKD: each character's decomposition alone when no marks reorder)
  against ``word_pieces`` (segments, refinement, the whole-text check);
- ``drop_chars`` with a kept table per predicate against asking the predicate per character;
- BertNormalizer's CJK spacing found by a table against the ``_CJK`` pattern, and its text
  against HF's.

Left out: the views of the fast lane (``tests/engine/test_fast_lane.py``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.core.normalized import NormalizedString
from tokcore.normalizers import standard as n
from tokcore.normalizers.unicode_pieces import decomposed_pieces, normalize_pieces, rebuild_whole, word_pieces
from tokcore.text.unicode_tables import is_bert_control, is_mark, is_nonspacing_mark

tokenizers = pytest.importorskip("tokenizers")

# Precomposed letters, marks of several combining classes in both orders, Hangul, a ligature, a
# compatibility digit, CJK, a character HF's Unicode 9 keeps inert, controls and spaces.
CHARS = ("aeAÉéÅṩǅİΣ\u0301\u0323\u0316\u031b\u0345\u0903\u093f한글\uac00ﬁ①中文\u2e80\u08ca"
         "\x00\x07\ufeff\ufffd\u200b \t\u3000жب")
texts = st.text(st.sampled_from(CHARS), max_size=30) | st.text(max_size=20)
marks_runs = st.builds(lambda k, mark: "é" + mark * k + "a", st.integers(25, 40), st.sampled_from(["\u0301", "\u0301\u0323"]))


@settings(max_examples=500, deadline=None)
@given(texts | marks_runs, st.sampled_from(["NFD", "NFKD"]))
def test_decomposed_pieces_equal_word_pieces(text, form):
    if text.isascii():
        return
    slow = word_pieces(form, text)
    fast = decomposed_pieces(form, text)
    if fast is not None:
        assert fast == slow
    pieces = normalize_pieces(form, text)
    if pieces is None:
        # Nothing changes, as HF sees it (its Unicode tables leave newer marks such as U+08CA
        # inert, where Python's would reorder them).
        assert slow is None and getattr(tokenizers.normalizers, form)().normalize_str(text) == text
    else:
        ns = rebuild_whole(NormalizedString(text), pieces)
        ref = rebuild_whole(NormalizedString(text), slow)
        assert ns.normalized == ref.normalized and ns.alignments() == ref.alignments()


@settings(max_examples=300, deadline=None)
@given(st.lists(texts, min_size=1, max_size=3), st.sampled_from(["NFC", "NFD", "NFKC", "NFKD"]))
def test_word_pieces_kept_by_word_are_the_pieces(texts_, form):
    # A word's pieces are kept by its text (with the space before it) and moved to where it stands.
    chunks: dict = {}
    for text in texts_ + texts_[::-1]:
        assert word_pieces(form, text, chunks) == word_pieces(form, text)


def test_a_unicode_form_keeps_the_words_it_has_met():
    from tokcore.normalizers.standard import NFKC, BertNormalizer

    nfkc, text = NFKC(), "Vie\u0323\u0302t Nam, Vie\u0323\u0302t"  # a syllable with combining tones, twice
    assert nfkc.normalize_str(text) == "Việt Nam, Việt"
    assert set(nfkc._chunks) == {"Vie\u0323\u0302t", " Vie\u0323\u0302t"}  # the first word, then one after a space
    assert NFKC() == nfkc and nfkc.to_dict() == {"type": "NFKC"}  # a private cache: not an option
    bert = BertNormalizer()
    bert.normalize_str("Vi\u1ec7t")
    assert bert._nfd._chunks is not None and BertNormalizer() == bert


def test_decomposed_pieces_step_aside_for_reordering_and_long_mark_runs():
    assert decomposed_pieces("NFD", "aẹ́") is None  # the dot below moves before the acute
    assert decomposed_pieces("NFD", "é" + "\u0301" * 40) is None  # word_pieces keeps such a run whole
    assert decomposed_pieces("NFKD", "ﬁé") == [("fi", 0, 1), ("e\u0301", 1, 2)]


def reference_drop(ns: NormalizedString, drop) -> NormalizedString:
    text = ns.normalized
    pieces = [("" if drop(c) else c, i, i + 1) for i, c in enumerate(text)]
    return ns if all(p[0] for p in pieces) else ns.rebuild(pieces)


@settings(max_examples=300, deadline=None)
@given(texts, st.sampled_from([is_mark, is_nonspacing_mark, is_bert_control]))
def test_drop_chars_table_equals_asking_each_character(text, drop):
    ns = NormalizedString(text)
    got = n.drop_chars(ns, drop, never_ascii=drop is not is_bert_control)
    ref = reference_drop(ns, drop)
    assert got.normalized == ref.normalized and got.alignments() == ref.alignments()


def reference_bert(normalizer: n.BertNormalizer, ns: NormalizedString) -> NormalizedString:
    """BertNormalizer step by step, its CJK characters found by the ``_CJK`` pattern itself."""
    ns = n.bert_clean_text(ns)
    text = ns.normalized
    pieces, pos = [], 0
    for m in n._CJK.finditer(text):
        i = m.start()
        pieces += [(text[pos:i], pos, i), (" ", i, i), (text[i], i, i + 1), (" ", i + 1, i + 1)]
        pos = i + 1
    if pieces:
        ns = ns.rebuild([*pieces, (text[pos:], pos, len(text))])
    if normalizer.lowercase if normalizer.strip_accents is None else normalizer.strip_accents:
        ns = n.NFD().normalize(ns)
        ns = reference_drop(ns, is_nonspacing_mark)
    return n.lowercase(ns) if normalizer.lowercase else ns


@settings(max_examples=300, deadline=None)
@given(texts, st.booleans(), st.sampled_from([None, True, False]))
def test_bert_normalizer_equals_its_steps_and_hf_text(text, lowercase, strip):
    ours = n.BertNormalizer(lowercase=lowercase, strip_accents=strip)
    ns = ours.normalize(NormalizedString(text))
    ref = reference_bert(ours, NormalizedString(text))
    assert ns.normalized == ref.normalized and ns.alignments() == ref.alignments()
    hf = tokenizers.normalizers.BertNormalizer(lowercase=lowercase, strip_accents=strip)
    assert ns.normalized == hf.normalize_str(text)


def test_tables_past_their_capacity_still_answer(monkeypatch):
    import tokcore.normalizers.unicode_pieces as up

    monkeypatch.setattr(up, "TABLE_CAPACITY", 0)
    monkeypatch.setattr(n, "TABLE_CAPACITY", 0)
    table = up._Decomposed("NFD")
    assert "aé".translate(table) == "ae\u0301" and len(table) == 0
    marks = n._Marks(is_mark)
    assert "a\u0301".translate(marks) == "01" and len(marks) == 0
