"""Compare: its pure helpers (tokapp.compare) and the page under AppTest."""

from __future__ import annotations

import json

import pytest
from app_pages import REFUSAL, REFUSING_KEY, open_page, with_refusing_tokenizer
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

import tokcore
from tokapp import compare
from tokapp.tokens import build_view

PAGE = "3_Compare.py"
SAMPLES = ROOT / "sample_vocabs"


@pytest.fixture(scope="module")
def views():
    text = "The cat sat on a mat, café 🙂."
    char = tokcore.CharTokenizer()
    bpe = tokcore.load(SAMPLES / "english_bytelevel_bpe.json")
    wp = tokcore.load(SAMPLES / "english_wordpiece.json")
    return {"char": (build_view(char, text), char.unk_token), "bpe": (build_view(bpe, text), bpe.unk_token),
            "wp": (build_view(wp, text), wp.unk_token)}


def test_figure_rows_count_tokens_and_ratios(views):
    rows = compare.figure_rows([(k, v, unk) for k, (v, unk) in views.items()])
    by = {r["tokenizer"]: r for r in rows}
    char = by["char"]
    assert char["tokens"] == len(views["char"][0]) and char["characters"] == 29 and char["bytes"] == 33
    assert char["chars / token"] == round(29 / char["tokens"], 3)
    assert char["fertility (tokens / word)"] == round(29 / 8, 3)  # 8 whitespace-separated words
    assert char["unknown rate"] > 0  # é and 🙂 are not ASCII
    assert by["bpe"]["unknown rate"] == 0  # byte-level: nothing is unknown
    assert by["bpe"]["tokens"] < char["tokens"]


def test_unshared_boundaries_are_ringed(views):
    v = [views["char"][0], views["bpe"][0]]
    char_only, bpe_only = compare.unshared_points(v)
    assert not bpe_only - {b for r in v[1].rows for b in r.original}  # bpe_only are bpe boundaries
    # The byte-level BPE cuts inside 🙂; the character tokenizer never does.
    emoji_start = "The cat sat on a mat, café ".encode().__len__() + 1
    assert {emoji_start + 1, emoji_start + 2, emoji_start + 3} <= bpe_only
    html = compare.ringed_html(v[1], bpe_only)
    assert html.count('class="cmp-ring"') == len(bpe_only)
    assert f'data-rings="{len(bpe_only)}"' in html
    assert 'class="cmp-ring"' not in compare.ringed_html(v[1], bpe_only, ring=False)
    assert "<script" not in compare.ringed_html(build_view(tokcore.CharTokenizer(), "<script>"), set())


def test_identical_tokenizations_share_every_boundary(views):
    v = views["bpe"][0]
    assert compare.unshared_points([v, v]) == [set(), set()]


def test_alignment_map(views):
    bpe, char = views["bpe"][0], views["char"][0]
    rows = compare.alignment_rows(bpe, bpe)
    assert all(r["b_first"] == r["b_last"] == r["a_index"] for r in rows)
    rows = compare.alignment_rows(bpe, char)
    the = next(r for r in rows if r["a_token"] == "The")
    assert (the["b_first"], the["b_last"]) == (0, 2) and the["b_tokens"] == ["T", "h", "e"]
    shown = compare.alignment_display(rows)
    assert shown[0]["B tokens"] == "0–2"
    doc = json.loads(compare.alignment_json("bpe", "char", bpe.raw_text, rows))
    assert doc["a"] == "bpe" and doc["map"][0]["b_first"] == 0 and doc["map"][0]["b_last"] == 2


def test_sentinels_map_to_nothing():
    from tokapp.samples import toy_word_level_tokenizer

    view = build_view(toy_word_level_tokenizer(), "the cat")
    if not view.rows[0].inserted:
        pytest.skip("the engine has no BertProcessing yet")
    rows = compare.alignment_rows(view, build_view(tokcore.CharTokenizer(), "the cat"))
    assert rows[0]["b_first"] is None and rows[0]["b_tokens"] == []
    assert rows[1]["b_tokens"] == ["t", "h", "e"]


def test_multilingual_corpus_rows_and_figure():
    corpus = compare.load_corpus()
    assert len(corpus) >= 10 and ("English", "The cat sleeps on the warm windowsill all afternoon.") in corpus
    assert compare.parse_corpus("French: Le chat: noir\n\nbad line\nX:") == [("French", "Le chat: noir")]
    char = tokcore.CharTokenizer()
    rows = compare.multilingual_rows("char", lambda s: char.encode(s, add_special_tokens=False), corpus)
    english = next(r for r in rows if r["language"] == "English")
    assert english["tokens per character"] == 1.0  # one id per ASCII character
    fig = compare.multilingual_figure(rows + [dict(r, tokenizer="other", **{"tokens per character": 0.5})
                                              for r in rows])
    assert [t.name for t in fig.data] == ["char", "other"]
    assert list(fig.data[0].x) == [lang for lang, _ in corpus]
    assert fig.layout.barmode == "group"


# ---------------------------------------------------------------- the page
def run_page(**params) -> AppTest:
    return open_page(PAGE, **params)


def strips(at: AppTest) -> list[str]:
    return [h.value for h in at.html if "cmp-strip" in h.value]


def test_page_shows_two_columns_by_default():
    at = run_page()
    assert at.title[0].value == "Compare"
    assert not at.error
    assert len(at.multiselect(key="cmp_toks").value) == 2
    assert len(strips(at)) == 2
    figures = at.dataframe[0].value
    assert list(figures.columns) == ["tokenizer", "tokens", "characters", "bytes", "chars / token", "bytes / token",
                                     "fertility (tokens / word)", "unknown rate"]
    assert at.selectbox(key="cmp_a").value != at.selectbox(key="cmp_b").value
    assert at.get("plotly_chart"), "the multilingual chart is drawn"
    assert any(b.proto.label == "Download the map as JSON" for b in at.get("download_button"))


def test_ring_switch_and_more_tokenizers_change_what_is_shown():
    at = run_page(cmp_text="unbelievably 🙂")
    assert any('class="cmp-ring"' in s for s in strips(at))
    at.toggle(key="cmp_ring").set_value(False).run()
    assert not any('class="cmp-ring"' in s for s in strips(at))
    at.multiselect(key="cmp_toks").set_value(["builtin:ascii-char", "file:english_unigram.json",
                                              "file:english_wordpiece.json"]).run()
    assert not at.exception
    assert len(strips(at)) == 3 and len(at.dataframe[0].value) == 3


def test_fewer_than_two_tokenizers_asks_for_more():
    at = run_page()
    at.multiselect(key="cmp_toks").set_value(["builtin:ascii-char"]).run()
    assert not at.exception
    assert any("at least two" in i.value for i in at.info)
    assert not strips(at)


def test_alignment_direction_switch_changes_the_map():
    at = run_page(cmp_toks=["builtin:ascii-char", "file:english_bytelevel_bpe.json"], cmp_text="The cat")
    table = next(d.value for d in at.dataframe if "A token" in d.value.columns)
    assert list(table["A token"]) == ["T", "h", "e", "·", "c", "a", "t"]
    at.selectbox(key="cmp_a").set_value("file:english_bytelevel_bpe.json").run()
    at.selectbox(key="cmp_b").set_value("builtin:ascii-char").run()
    table = next(d.value for d in at.dataframe if "A token" in d.value.columns)
    assert list(table["A token"])[0] == "The" and list(table["B tokens"])[0] == "0–2"


def test_engine_errors_are_shown_as_st_error():
    at = with_refusing_tokenizer(PAGE)
    at.multiselect(key="cmp_toks").set_value(["builtin:ascii-char", REFUSING_KEY]).run()
    assert not at.exception
    assert REFUSAL in [e.value for e in at.error]
