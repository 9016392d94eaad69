"""Issue 21, honest displays: a <UNK> the normalizer wrote is an unknown character over its source,
unlike a typed <UNK>; one byte renderer with the owning character; byte cards readable on every colour;
offsets labelled with unit and base and a switch for both; padding off by default; Markdown escaped;
caps said aloud and a share link that names what it cannot carry."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

import tokcore
from tokapp import colors, html, tokens
from tokapp.byte_label import piece_text
from tokapp.markdown import md_code, md_text
from tokapp.samples import SessionTokenizer
from tokcore.processors.settings import check_padding_settings

ROOT = Path(__file__).resolve().parents[2]
CHAR = tokcore.CharTokenizer()


def playground(session: dict | None = None, **params) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "1_Playground.py"), default_timeout=120)
    for k, v in params.items():
        at.query_params[k] = v
    if session:
        at.session_state["tokapp_session_tokenizers"] = {k: SessionTokenizer(k, label, tok)
                                                         for k, (label, tok) in session.items()}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_normalizer_unk_is_an_unknown_character_and_a_typed_unk_stays_special():
    view = tokens.build_view(CHAR, "é <UNK>")
    written, typed = view.rows[0], view.rows[2]
    assert written.normalized_unknown and tokens.row_kind(written) == "unknown"
    assert not typed.normalized_unknown and tokens.row_kind(typed) == "special"
    strip = html.tokens_html(view)
    chips = re.findall(r'<span class="tk-tok ([^"]+)"[^>]*title="([^"]*)"[^>]*><span class="tk-txt">([^<]*)<', strip)
    assert chips[0][0].startswith("tk-unknown") and chips[0][2] == "é" and "unknown character é" in chips[0][1]
    assert chips[2][0].startswith("tk-special") and chips[2][2] == "&lt;UNK&gt;"
    assert view.counts().special == 1 and view.counts().unknown == 2


def test_one_byte_renderer_shows_the_owning_character():
    assert piece_text("é".encode(), 0, 1) == "‹C3› of é"
    bpe = tokcore.load(ROOT / "sample_vocabs" / "english_bytelevel_bpe.json")
    view = tokens.build_view(bpe, "🙂")
    strip = html.tokens_html(view)
    assert "of 🙂" in strip and "\ufffd" not in strip
    cards = re.sub(r'title="[^"]*"', "", html.byte_view_html(view))  # the tooltip names the vocabulary entry
    assert "of 🙂" in cards and "Ã" not in cards and "ð" not in cards  # no byte-alphabet mojibake
    covers = [r["covers"] for r in tokens.table_records(view)]
    assert all(c.startswith("‹") and c.endswith("of 🙂") for c in covers), covers


def _rule_color(selector: str) -> str:
    for rule in html.STYLE.split("}"):
        head, _, body = rule.partition("{")
        if selector in [h.strip() for h in head.split(",")]:
            found = re.search(r"(?:^|;)color:(#[0-9a-fA-F]{3,6})", body)
            if found:
                return found.group(1)
    raise AssertionError(f"no colour for {selector}")


def test_byte_cards_are_readable_on_special_tokens():
    for part in ("tk-byte", "tk-bspan", "tk-bytes-hex", "tk-id"):
        fg = _rule_color(f".tk-special .{part}")
        fg = "#" + "".join(c * 2 for c in fg[1:]) if len(fg) == 4 else fg
        assert colors.contrast_ratio(fg, colors.SPECIAL_BG) >= 4.5, part


def test_offsets_are_labelled_with_unit_and_base_and_a_switch_shows_both():
    view = tokens.build_view(CHAR, "é b")
    plain = tokens.table_records(view)[2]
    assert "offsets (bytes, 1-based, half-open)" in plain and "offsets (characters, 0-based, half-open)" not in plain
    both = tokens.table_records(view, both_units=True)[2]
    assert both["offsets (characters, 0-based, half-open)"] == "(6, 7)"  # "b" after "<UNK> "
    assert both["raw-input offsets (characters, 0-based, half-open)"] == "(2, 3)"  # "b" after "é "
    assert "(bytes, 1-based, half-open)" in html.tokens_html(view)
    assert "(characters, 0-based, half-open)" in html.tokens_html(view, both_units=True)
    at = playground()
    at.toggle(key="pg_units").set_value(True).run()
    assert "offsets (characters, 0-based, half-open)" in at.dataframe[-1].value.columns


def test_padding_is_off_by_default_and_a_switch_turns_it_on():
    tok = _padding_tokenizer()
    assert len(tokens.build_view(tok, "hi")) == 2
    assert len(tokens.build_view(tok, "hi", padding=True)) == 16
    at = playground(session={"session:pad": ("Pads to 16", tok)}, pg_tok="session:pad")
    assert at.metric[0].value == str(len(tokens.build_view(tok, at.text_area(key="pg_text").value)))
    at.text_area(key="pg_text").input("hi").run()
    assert at.metric[0].value == "2"
    at.toggle(key="pg_pad").set_value(True).run()
    assert at.metric[0].value == "16"


def _padding_tokenizer():
    """The ASCII tokenizer with tokenizer.json-style padding to 16, as MiniLM pads to 128."""
    tok = tokcore.CharTokenizer()
    tok.padding = check_padding_settings({"strategy": {"Fixed": 16}, "pad_id": 0, "pad_token": tok.id_to_token(0)})
    return tok


def test_markdown_escapes_user_text():
    assert md_code("a`b") == "`` a`b ``" and md_code("ug") == "`ug`"
    assert md_text("*x* [a](b)") == r"\*x\* \[a\](b)"
    tok = tokcore.CharTokenizer()
    tok.add_tokens(["<|a`b|>"], special=True)
    at = playground(session={"session:tick": ("Backtick", tok)}, pg_tok="session:tick")
    caption = next(c.value for c in at.caption if c.value.startswith("Special tokens of this tokenizer"))
    assert "`` <|a`b|> ``" in caption


def test_caps_apply_to_links_and_pastes_and_say_so():
    at = playground(pg_text="x" * 25_000)
    assert any("only the first 20,000 are used" in w.value for w in at.warning)
    assert at.metric[0].value == "20000"
    at.text_area(key="pg_text").input("y" * 21_000).run()
    assert any("21,000 characters" in w.value for w in at.warning)


def test_playground_link_carries_template_and_draw_over_and_names_what_it_drops():
    at = playground(pg_add_special="false", pg_coords="raw input", pg_tok="upload:deadbeef")
    assert at.toggle(key="pg_add_special").value is False and at.radio(key="pg_coords").value == "raw input"
    assert any(f"does not have ({md_text('upload:deadbeef')})" in w.value for w in at.warning)
    at = playground(session={"session:mine": ("Mine", tokcore.CharTokenizer())}, pg_tok="session:mine")
    assert any("cannot carry" in c.value and "Mine" in c.value for c in at.caption)
