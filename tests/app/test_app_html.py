"""Pure rendering helpers of the app: visible characters, palettes, token rows, HTML builders."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tokcore
from tokapp import colors, html, tokens
from tokapp.samples import toy_word_level_tokenizer
from tokapp.visible import hex_bytes, visible, visible_char, visible_segments

CHAR = tokcore.CharTokenizer()


def chips(markup: str) -> list[str]:
    """The opening tags of the token chips, in order."""
    return re.findall(r'<span class="tk-tok[^"]*"[^>]*>', markup)


# ---------------------------------------------------------------- visible characters
@pytest.mark.parametrize(
    ("ch", "shown"),
    [(" ", "·"), ("\n", "⏎"), ("\t", "⇥"), ("\r", "␍"), ("\x00", "␀"), ("\x1b", "␛"), ("\x7f", "␡"),
     ("\u00a0", "⍽"), ("\u200d", "⟨ZWJ⟩"), ("\ufeff", "⟨BOM⟩"), ("\u2009", "⟨U+2009⟩"), ("\x85", "⟨NEL⟩"),
     ("\x90", "⟨U+0090⟩")],
)
def test_invisible_characters_get_markers(ch, shown):
    assert visible_char(ch) == shown
    assert visible(f"a{ch}b") == f"a{shown}b"


@pytest.mark.parametrize("ch", ["a", "é", "🙂", "▁", "Ġ", "<", "中"])
def test_visible_characters_stay_themselves(ch):
    assert visible_char(ch) is None
    assert visible(ch) == ch


def test_segments_separate_markers_from_text():
    assert visible_segments("ab c\n") == [("ab", False), ("·", True), ("c", False), ("⏎", True)]
    assert visible_segments("") == []


def test_leading_combining_mark_sits_on_a_dotted_circle():
    assert visible("\u0301") == "◌\u0301"
    assert visible("e\u0301") == "e\u0301"  # a mark after its base is left alone


def test_hex_bytes():
    assert hex_bytes("é🙂".encode()) == "C3 A9 F0 9F 99 82"
    assert hex_bytes(b"") == ""


# ---------------------------------------------------------------- colours
def test_palettes_alternate_and_stay_readable():
    for name, palette in colors.PALETTES.items():
        assert len(palette) >= 2
        for k in range(10):
            assert colors.token_color(k, name) != colors.token_color(k + 1, name)
        for c in palette:
            assert colors.contrast_ratio(c, colors.TEXT_COLOR) >= 7, (name, c)
    assert colors.contrast_ratio(colors.SPECIAL_BG, colors.SPECIAL_FG) >= 4.5
    assert colors.palette_colors("no such palette") == colors.PALETTES[colors.DEFAULT_PALETTE]


# ---------------------------------------------------------------- token rows
def test_build_view_keeps_offsets_bytes_and_masks():
    view = tokens.build_view(CHAR, "a <UNK>é")
    assert view.view_text == "a <UNK><UNK>"
    assert [r.token for r in view.rows] == ["a", " ", "<UNK>", "<UNK>"]
    assert [r.offset for r in view.rows] == [(1, 2), (2, 3), (3, 8), (8, 13)]
    assert [r.original for r in view.rows] == [(1, 2), (2, 3), (3, 8), (8, 10)]
    assert [r.special for r in view.rows] == [0, 0, 1, 1]
    assert view.rows[3].original_text == "é"
    assert view.rows[2].piece == b"<UNK>"
    counts = view.counts()
    assert (counts.tokens, counts.characters, counts.bytes, counts.view_characters) == (4, 8, 9, 12)
    assert counts.chars_per_token == 2.0
    assert counts.special == 1 and counts.unknown == 2 and counts.inserted == 0  # é's <UNK> is not typed


def test_empty_text_has_no_tokens_and_no_ratio():
    view = tokens.build_view(CHAR, "")
    assert len(view) == 0
    assert view.counts().chars_per_token is None
    assert "empty text" in html.tokens_html(view)


def test_split_special_encodes_special_tokens_as_plain_text():
    comparison = tokens.compare_special(CHAR, "x<UNK>")
    assert comparison.parsed.tokens == ["x", "<UNK>"]
    assert comparison.plain.tokens == ["x", "<", "U", "N", "K", ">"]
    assert comparison.delta == 4 and comparison.differs


def test_table_records_columns():
    records = tokens.table_records(tokens.build_view(CHAR, "a b\n"))
    assert [r["token"] for r in records] == ["a", "·", "b", "⏎"]
    assert records[1] == {"#": 1, "id": 4, "token": "·", "covers": "·", "offsets (bytes, 1-based, half-open)": "(2, 3)",
                          "raw-input offsets (bytes, 1-based, half-open)": "(2, 3)", "special": 0, "bytes": "20", "kind": "token"}


def test_table_pages_and_csv_hold_the_same_rows_as_the_whole_table():
    view = tokens.build_view(CHAR, "a, b\n" * 300)
    whole = tokens.table_records(view, both_units=True)
    assert tokens.table_records(view, both_units=True, start=500, stop=1000) == whole[500:1000]
    assert tokens.table_records(view, start=1490)[0]["#"] == 1490  # a page keeps each token's own index
    parsed = list(csv.DictReader(io.StringIO(tokens.table_csv(view, both_units=True))))
    assert len(parsed) == len(view) == 1500
    assert [int(r["id"]) for r in parsed] == view.ids
    assert list(parsed[0]) == list(whole[0]) and parsed[1]["token"] == whole[1]["token"]
    assert list(whole[0]) == tokens.table_columns(both_units=True)
    assert list(tokens.table_records(view)[0]) == tokens.table_columns()
    empty = tokens.table_csv(tokens.build_view(CHAR, ""))
    assert list(csv.reader(io.StringIO(empty))) == [tokens.table_columns()]


def test_inserted_tokens_are_sentinels_in_rows_and_table():
    tok = toy_word_level_tokenizer()
    view = tokens.build_view(tok, "the cat")
    if tok.post_processor is None:
        pytest.skip("the engine has no BertProcessing yet")
    first, last = view.rows[0], view.rows[-1]
    assert first.inserted and last.inserted and first.offset == (0, 0)
    assert tokens.row_kind(first) == "inserted"
    assert tokens.table_records(view)[0]["covers"] == "∅ inserted"
    without = tokens.build_view(tok, "the cat", add_special_tokens=False)
    assert not any(r.inserted for r in without.rows)


# ---------------------------------------------------------------- HTML
class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)


def tags_in(markup: str) -> set[str]:
    parser = _Tags()
    parser.feed(markup)
    return parser.tags


@pytest.mark.parametrize("make", [tokcore.CharTokenizer, toy_word_level_tokenizer])
def test_user_text_is_escaped(make):
    text = '<script>alert("x")</script> <img src=x onerror=alert(1)> & the'
    view = tokens.build_view(make(), text)
    for markup in (html.tokens_html(view), html.tokens_html(view, coords="original"), html.byte_view_html(view)):
        assert tags_in(markup) <= {"div", "span", "br"}
        assert "<script" not in markup and "<img" not in markup
    assert "&lt;" in html.tokens_html(view) and "&amp;" in html.tokens_html(view)


def test_tokens_in_titles_are_escaped():
    view = tokens.build_view(CHAR, '"><img src=x>')
    markup = html.tokens_html(view)
    assert "<img" not in markup
    assert all(tag.count('"') % 2 == 0 for tag in chips(markup))


def test_colours_alternate_between_neighbouring_tokens():
    view = tokens.build_view(CHAR, "abcdefgh")
    backgrounds = [re.search(r"background:(#[0-9a-f]{6})", tag).group(1) for tag in chips(html.tokens_html(view))]
    assert len(backgrounds) == 8
    assert all(a != b for a, b in zip(backgrounds, backgrounds[1:]))
    two = [re.search(r"background:(#[0-9a-f]{6})", t).group(1)
           for t in chips(html.tokens_html(view, palette="two tones"))]
    assert two[:4] == list(colors.PALETTES["two tones"]) * 2


def test_whitespace_is_visible_and_newlines_break_lines():
    markup = html.tokens_html(tokens.build_view(CHAR, "a b\tc\nd"))
    assert '<span class="tk-ws">·</span>' in markup
    assert '<span class="tk-ws">⇥</span>' in markup
    assert '<span class="tk-ws">⏎</span></span><span class="tk-id">3</span></span><br>' in markup


def test_ids_are_shown_under_each_token_unless_hidden():
    view = tokens.build_view(CHAR, "Hi")
    ids = [str(i) for i in CHAR.encode("Hi")]
    assert re.findall(r'<span class="tk-id">(\d+)</span>', html.tokens_html(view)) == ids
    assert "tk-id" not in html.tokens_html(view, show_ids=False)


def test_special_tokens_and_sentinels_have_their_own_styles():
    markup = html.tokens_html(tokens.build_view(CHAR, "a<UNK>"))
    special = [t for t in chips(markup) if "tk-special" in t]
    assert len(special) == 1 and "background" not in special[0]
    tok = toy_word_level_tokenizer()
    if tok.post_processor is None:
        pytest.skip("the engine has no BertProcessing yet")
    markup = html.tokens_html(tokens.build_view(tok, "the dog"))
    inserted = [t for t in chips(markup) if "tk-inserted" in t]
    assert len(inserted) == 2
    assert "[CLS]" in markup and "[SEP]" in markup


def test_text_covered_by_no_token_is_shown_as_a_gap():
    markup = html.tokens_html(tokens.build_view(toy_word_level_tokenizer(), "the   cat", add_special_tokens=False))
    assert markup.count('class="tk-gap"') == 1
    assert '<span class="tk-ws">·</span>' * 3 in markup


def test_tokens_cutting_a_character_show_their_bytes():
    # Hand-made rows as a byte-level tokenizer produces them: the emoji split 2 + 2 bytes.
    text = "a🙂"
    rows = []
    for i, (tok, span) in enumerate([("a", (1, 2)), ("ðŁ", (2, 4)), ("ĻĤ", (4, 6))]):
        rows.append(tokens.TokenRow(i, i, tok, span, span, 0, tokcore.span_codeunits(text, span),
                                    tokcore.try_span_substring(text, span), None))
    view = tokens.TokenView(text, text, tuple(rows))
    assert rows[1].cuts_character and not rows[0].cuts_character
    markup = html.tokens_html(view)
    assert "‹F0 9F›" in markup and "‹99 82›" in markup
    assert "F0" in html.byte_view_html(view)


def test_overlapping_spans_are_marked():
    text = "ab"
    rows = tuple(tokens.TokenRow(i, i, t, s, s, 0, tokcore.span_codeunits(text, s), tokcore.try_span_substring(text, s),
                                 None) for i, (t, s) in enumerate([("ab", (1, 3)), ("b", (2, 3))]))
    markup = html.tokens_html(tokens.TokenView(text, text, rows))
    assert [("tk-overlap" in t) for t in chips(markup)] == [False, True]


def test_long_encodings_are_capped():
    view = tokens.build_view(CHAR, "x" * 50)
    markup = html.tokens_html(view, max_tokens=10)
    assert len(chips(markup)) == 10 and "40 more tokens not drawn" in markup
    assert "10 more tokens" in html.byte_view_html(view, max_tokens=40)


def test_coords_must_be_known():
    with pytest.raises(ValueError, match="coords"):
        html.tokens_html(tokens.build_view(CHAR, "a"), coords="bytes")


def test_legend_and_style_are_static_markup():
    assert html.style_block().startswith("<style>") and ".tk-tok" in html.style_block()
    legend = html.legend_html("two tones")
    assert "tk-special" in legend and "tk-inserted" in legend and colors.PALETTES["two tones"][1] in legend


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40))
def test_any_text_renders_with_one_chip_per_token_and_no_raw_markup(text):
    view = tokens.build_view(CHAR, text)
    markup = html.tokens_html(view)
    assert len(chips(markup)) == len(view)
    stripped = re.sub(r"<[^>]*>", "", markup)
    assert "<" not in stripped and ">" not in stripped  # every < and > of the text was escaped
    html.byte_view_html(view)
    html.tokens_html(view, coords="original")
