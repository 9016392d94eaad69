"""The Offsets inspector: its pure helpers (tokapp.inspector, tokapp.inspector_html) and the page under AppTest."""

from __future__ import annotations

import csv
import io
import json

import pytest
from app_pages import REFUSAL, REFUSING_KEY, open_page, with_refusing_tokenizer
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

import tokcore
from tokapp import inspector, inspector_html, samples
from tokapp.tokens import build_view

PAGE = "2_Offsets_inspector.py"
BYTELEVEL = ROOT / "sample_vocabs" / "english_bytelevel_bpe.json"
CHARS = ROOT / "sample_vocabs" / "multilingual_chars.json"


@pytest.fixture(scope="module")
def bytelevel():
    return tokcore.load(BYTELEVEL)


@pytest.fixture(scope="module")
def toy_words():
    return samples.toy_word_level_tokenizer()


# ---------------------------------------------------------------- rows
def test_rows_carry_every_span_and_flag(bytelevel):
    view = build_view(bytelevel, "a🙂b")
    rows = inspector.inspect_rows(view)
    assert [r["offset"] for r in rows] == [[1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7]]
    assert [r["char_span"] for r in rows] == [[0, 1], [1, 2], [1, 2], [1, 2], [1, 2], [2, 3]]
    assert [r["safety"] for r in rows] == ["safe"] + ["inside_char"] * 4 + ["safe"]
    assert rows[1]["covers"] is None and rows[1]["bytes"] == "F0"
    assert all(r["has_span"] and r["has_nonempty_span"] for r in rows)
    shown = inspector.display_records(rows)
    assert shown[1]["covers"] == "‹F0› of 🙂" and shown[1]["boundary"] == "cuts a character"
    assert shown[0]["span (bytes, 1-based, half-open)"] == "(1, 2)" and shown[0]["chars (characters, 0-based, half-open)"] == "(0, 1)"


def test_sentinel_rows_have_no_span(toy_words):
    rows = inspector.inspect_rows(build_view(toy_words, "the cat"))
    if rows[0]["kind"] != "inserted":
        pytest.skip("the engine has no BertProcessing yet")
    first = rows[0]
    assert first["offset"] == [0, 0] and first["char_span"] is None
    assert first["has_span"] is False and first["has_nonempty_span"] is False and first["safety"] == "sentinel"
    assert inspector.display_records(rows)[0]["covers"] == "∅ inserted"


# ---------------------------------------------------------------- unsafe boundaries
def test_a_cut_emoji_is_red_with_the_byte_explained(bytelevel):
    view = build_view(bytelevel, "a🙂b")
    text, offsets = inspector.text_and_offsets(view)
    issues = inspector.issue_records(text, offsets, view.tokens)
    assert {i["flag"] for i in issues} == {"red"}
    assert sorted(inspector.issue_points(issues)) == [3, 4, 5]
    assert "byte 3 is byte 2 of 4" in issues[0]["explanation"] and "U+1F642" in issues[0]["explanation"]


def test_ascii_tokenizer_never_cuts_a_character():
    view = build_view(tokcore.CharTokenizer(), "a🙂b")
    for coords in inspector.COORDS:
        text, offsets = inspector.text_and_offsets(view, coords)
        assert inspector.issue_records(text, offsets, view.tokens) == []


def test_a_split_combining_mark_is_amber_in_raw_coordinates():
    # The ASCII tokenizer replaces the accent with <UNK> in its tokenization text, so the split
    # shows only when the spans are checked against the raw input.
    view = build_view(tokcore.CharTokenizer(), "e\u0301")
    text, offsets = inspector.text_and_offsets(view, "view")
    assert inspector.issue_records(text, offsets, view.tokens) == []
    text, offsets = inspector.text_and_offsets(view, "original")
    issues = inspector.issue_records(text, offsets, view.tokens)
    assert [(i["byte"], i["flag"]) for i in issues] == [(2, "amber"), (2, "amber")]
    assert "U+0065 + U+0301" in issues[0]["explanation"]


def test_covers_follow_the_chosen_coordinates():
    rows = inspector.inspect_rows(build_view(tokcore.CharTokenizer(), "é"))
    assert inspector.display_records(rows, "view")[0]["covers"] == "<UNK>"  # the tokenization text
    assert inspector.display_records(rows, "original")[0]["covers"] == "é"  # the raw input
    assert rows[0]["raw_covers"] == "é" and rows[0]["original"] == [1, 3]


def test_describe_byte():
    assert inspector.describe_byte("é", 1).startswith("byte 1 starts 'é' U+00E9")
    assert "byte 2 of 2" in inspector.describe_byte("é", 2)
    assert inspector.describe_byte("é", 3) == "byte 3 is the end of the text"


# ---------------------------------------------------------------- verdicts
def test_verdicts_explain_the_first_violation():
    ok, strict, overlap = inspector.verdicts("ab", [(1, 2), (0, 3), (2, 1)], ["a", "x", "b"])
    assert not ok.ok and "token 1 'x', span (0, 3): only the sentinel may use zero" in ok.detail
    assert not strict.ok
    assert not overlap.ok and "token 1 'x' (0, 3) starts at 0, before the previous span's stop 2" in overlap.detail
    assert "inverted" in inspector.verdicts("ab", [(2, 1)])[2].detail
    ok, strict, overlap = inspector.verdicts("é", [(1, 2), (2, 3)], ["a", "b"])
    assert ok.ok and not strict.ok and overlap.ok
    assert "stop is inside a UTF-8 character" in strict.detail and "byte 2 of 2" in strict.detail
    ok, strict, overlap = inspector.verdicts("abc", [(1, 3), (0, 0), (2, 4)], ["ab", "[CLS]", "bc"])
    assert ok.ok and strict.ok and not overlap.ok
    assert "token 2 'bc' (2, 4) starts at 2, before the previous span's stop 3 (token 0 (1, 3))" in overlap.detail


def test_first_overlap_mirrors_offsets_are_nonoverlapping():
    cases = [[(1, 3), (3, 4)], [(1, 3), (2, 4)], [(1, 3), (0, 0), (2, 2), (3, 5)], [(2, 1)], [(1, 4), (2, 2), (3, 5)]]
    for offsets in cases:
        assert (inspector.first_overlap(offsets) is None) == tokcore.offsets_are_nonoverlapping(offsets), offsets


# ---------------------------------------------------------------- words and export
def test_words_ignore_sentinels_but_keep_special_tokens_in_the_text():
    rows = inspector.word_rows("ab [X]", [(0, 0), (1, 2), (2, 3), (4, 7), (7, 7)], ["[CLS]", "a", "b", "[X]", "e"])
    assert [r["tokens"] for r in rows] == [[1, 2], [3]]
    assert inspector.word_display(rows)[0]["tokens"] == "1–2"
    assert rows[0]["pieces"] == "a · b"


def test_csv_and_json_hold_the_whole_table(bytelevel):
    view = build_view(bytelevel, "a🙂b, \"quoted\"")
    rows = inspector.inspect_rows(view)
    parsed = list(csv.DictReader(io.StringIO(inspector.csv_text(rows))))
    assert len(parsed) == len(rows)
    assert [int(p["start"]) for p in parsed] == [r["offset"][0] for r in rows]
    assert parsed[1]["covers"] == "" and parsed[1]["safety"] == "inside_char"
    doc = json.loads(inspector.json_text(view, rows, tokenizer="file:english_bytelevel_bpe.json"))
    assert doc["format"] == inspector.JSON_FORMAT
    assert doc["convention"]["index_base"] == 1 and doc["convention"]["sentinel"] == [0, 0]
    assert doc["raw_text"] == "a🙂b, \"quoted\""
    assert doc["tokens"] == {f: [r[f] for r in rows] for f in inspector.JSON_TOKEN_FIELDS}
    assert [v["ok"] for v in doc["verdicts"]] == [True, False, True]
    assert doc["unsafe_boundaries"]["byte"] == [3, 3, 4, 4, 5, 5] and set(doc["unsafe_boundaries"]["kind"]) == {"inside_char"}
    assert doc["words"]["span"][0] == [1, 8] and doc["words"]["tokens"][0] == [0, 1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("text", ["the cat sat", "Héllo, WORLD! 🙂 e\u0301 " * 200])
def test_the_json_download_reads_back_as_the_encoding_and_stays_compact(text):
    tokenizer = tokcore.load(ROOT / "sample_vocabs" / "english_wordpiece.json")  # normalizes, adds [CLS]/[SEP]
    view = build_view(tokenizer, text)
    data = inspector.json_text(view, inspector.inspect_rows(view), tokenizer="file:english_wordpiece.json")
    doc = json.loads(data)
    result = tokcore.encode_result(tokenizer, text, return_offsets=True)
    listed = doc["tokens"]
    assert listed["id"] == result.ids and listed["token"] == result.tokens
    assert [tuple(o) for o in listed["offset"]] == [tuple(o) for o in result.offsets]
    assert [tuple(o) for o in listed["original"]] == [tuple(o) for o in result.original_offsets]
    assert doc["tokenization_text"] == result.tokenization_text and doc["raw_text"] == text
    assert all(len(column) == len(result.ids) for column in listed.values())
    assert data == json.dumps(doc, ensure_ascii=False, separators=(",", ":"))  # no indentation, no padding
    assert len(data.encode("utf-8")) < 120 * len(result.ids) + 2 * len(text.encode("utf-8")) + 2_000


# ---------------------------------------------------------------- HTML
def test_lanes_put_sentinels_on_their_own_lane_and_mark_cuts(bytelevel, toy_words):
    view = build_view(bytelevel, "a🙂b")
    text, offsets = inspector.text_and_offsets(view)
    points = inspector.issue_points(inspector.issue_records(text, offsets, view.tokens))
    lanes = inspector_html.lanes_html(view, points)
    assert lanes.count('class="oi-cut oi-cut-red"') == 3 and "oi-nolane" in lanes
    assert lanes.count("oi-red") >= 4
    words = build_view(toy_words, "the cat")
    lanes = inspector_html.lanes_html(words, {})
    if words.rows[0].inserted:
        assert lanes.count('data-lane="sentinel"') == 2 and "oi-nolane" not in lanes
    assert "oi-cut" not in lanes


def test_html_escapes_user_text():
    view = build_view(tokcore.CharTokenizer(), "<b>&</b><script>")
    for html in (inspector_html.lanes_html(view, {}), inspector_html.byte_grid_html(view, {})):
        assert "<b>" not in html and "<script" not in html and "&lt;" in html and "&amp;" in html


def test_byte_grid_shows_every_byte_and_the_unsafe_bars(bytelevel):
    view = build_view(bytelevel, "a🙂b")
    grid = inspector_html.byte_grid_html(view, {3: "inside_char", 4: "inside_char", 5: "inside_char"})
    assert grid.count(' data-byte=') == 6
    assert grid.count("oi-bnd-red") == 3
    assert ">F0<" in grid and ">t1<" in grid
    assert "… " in inspector_html.byte_grid_html(view, {}, max_bytes=2)
    verdicts = inspector_html.verdicts_html(inspector.verdicts("é", [(1, 2)]))
    assert 'data-ok="true"' in verdicts and 'data-ok="false"' in verdicts


# ---------------------------------------------------------------- the page
def run_page(text: str | None = None, tok: str | None = None) -> AppTest:
    at = open_page(PAGE)
    if tok is not None:
        at.selectbox(key="oi_tok").set_value(tok).run()
    if text is not None:
        at.text_area(key="oi_text").input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def lanes(at: AppTest) -> str:
    return next(h.value for h in at.html if 'class="oi-lanes' in h.value)


def test_page_opens_with_its_widgets_and_flags_the_default_text():
    at = run_page()
    assert at.title[0].value == "Offsets inspector"
    assert not at.error
    assert at.selectbox(key="oi_tok").value == "file:english_bytelevel_bpe.json"
    assert at.radio(key="oi_coords").value == "view"
    assert at.toggle(key="oi_special").value is True and at.toggle(key="oi_plain").value is False
    assert [m.label for m in at.metric][:3] == ["Tokens", "Sentinels (0, 0)", "Red boundaries"]
    assert any("unsafe boundar" in w.value for w in at.warning)
    table = at.dataframe[1].value  # [0] lists the unsafe boundaries
    assert list(table.columns)[:7] == ["#", "id", "token", "covers", "span (bytes, 1-based, half-open)",
                                       "chars (characters, 0-based, half-open)",
                                       "raw-input span (bytes, 1-based, half-open)"]
    assert "has_nonempty_span" in table.columns and "boundary" in table.columns
    assert {b.proto.label for b in at.get("download_button")} == {"Download JSON", "Download CSV"}


def test_ascii_tokenizer_has_no_unsafe_boundary():
    at = run_page("a🙂b", tok="builtin:ascii-char")
    assert not at.warning
    assert any("No unsafe boundary" in s.value for s in at.success)
    assert "oi-cut" not in lanes(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Red boundaries"] == "0" and metrics["Contract"] == "valid"


def test_coordinate_switch_changes_what_is_checked():
    at = run_page("e\u0301", tok="builtin:ascii-char")
    assert not at.warning
    at.radio(key="oi_coords").set_value("original").run()
    assert not at.exception
    assert any("1 unsafe boundary" in w.value and "grapheme" in w.value for w in at.warning)
    assert 'data-coords="original"' in lanes(at) and "oi-cut-amber" in lanes(at)


def test_template_toggle_moves_sentinels_on_and_off_their_lane():
    at = run_page("the cat", tok="builtin:toy-word-level")
    if 'data-lane="sentinel"' not in lanes(at):
        pytest.skip("the engine has no BertProcessing yet")
    assert {m.label: m.value for m in at.metric}["Sentinels (0, 0)"] == "2"
    words = at.dataframe[-1].value
    assert list(words["tokens"]) == ["1", "2"]  # sentinels take no part in the alignment
    at.toggle(key="oi_special").set_value(False).run()
    assert 'data-lane="sentinel"' not in lanes(at)
    assert {m.label: m.value for m in at.metric}["Sentinels (0, 0)"] == "0"


def test_engine_errors_are_shown_as_st_error():
    at = with_refusing_tokenizer(PAGE)
    at.selectbox(key="oi_tok").set_value(REFUSING_KEY).run()
    assert not at.exception
    assert [e.value for e in at.error] == [REFUSAL]
    assert not at.dataframe
