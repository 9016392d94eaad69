"""The Code page: its pure views (syntax colours, escaping, identifier splits, counts) and the page under AppTest."""

from __future__ import annotations

import html as std_html
import re

import pytest
from app_page_helpers import Refusing, html_blocks, metrics, run_page
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

import tokcore
from tokapp import code_view
from tokapp.samples import SessionTokenizer

PAGE = "pages/9_Code.py"
CODE_BPE = ROOT / "sample_vocabs" / "code_bytelevel_bpe.json"


def text_of(markup: str) -> str:
    """The text a browser shows for ``markup`` (tags dropped, entities decoded)."""
    return std_html.unescape(re.sub(r"<[^>]+>", "", markup))


# ---------------------------------------------------------------- pure views
@pytest.mark.parametrize("language", list(code_view.SAMPLES))
def test_every_sample_parses_cleanly_and_is_drawn_byte_for_byte(language):
    code = code_view.SAMPLES[language]
    tokens = tokcore.tokenize_code(code, language)
    assert not [t.text for t in tokens if t.type == "error"], "a sample must be valid code"
    drawn = code_view.code_html(tokens)
    without_dedents = re.sub(r'<span class="ck-tok ck-dedent"[^>]*>⇤</span>', "", drawn)
    assert text_of(without_dedents) == code
    assert 'data-type="keyword"' in drawn and 'data-type="identifier"' in drawn


def test_code_html_colours_each_type_and_says_where_it_is():
    tokens = tokcore.tokenize_code('def f(x):\n    return "hi"  # note\n', "python")
    drawn = code_view.code_html(tokens)
    assert f'data-type="keyword" style="background:{code_view.TYPE_COLORS["keyword"]}"' in drawn
    assert f'data-type="string" style="background:{code_view.TYPE_COLORS["string"]}"' in drawn
    assert 'class="ck-tok ck-comment"' in drawn
    assert 'title="keyword · def · bytes (1, 4)"' in drawn
    assert drawn.count('data-type="dedent"') == 1 and 'data-type="indent"' in drawn


def test_user_code_is_escaped_everywhere():
    code = 'const s = "<script>alert(1)</script>"; // <b>bold</b>\nlet a = b < c && d > e;\n'
    tokens = tokcore.tokenize_code(code, "javascript")
    tokenizer = tokcore.load(CODE_BPE)
    units = tokcore.encode_code(code, "javascript", tokenizer)
    for markup in (code_view.code_html(tokens), code_view.subwords_html(code, units)):
        assert "<script" not in markup and "<b>" not in markup
        assert "&lt;script&gt;" in markup or "&lt;" in markup
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in code_view.code_html(tokens)


def test_code_html_stops_at_max_tokens():
    tokens = tokcore.tokenize_code("a = 1\n" * 50, "python")
    drawn = code_view.code_html(tokens, max_tokens=10)
    assert f"… {len(tokens) - 10} more tokens not drawn" in drawn


def test_identifier_rows_split_once_per_identifier_in_order():
    code = "getUserName(XMLHttpRequest, HTTPServerError, snake_case_name, getUserName)"
    rows = code_view.identifier_rows(tokcore.tokenize_code(code, "javascript"))
    assert [r["identifier"] for r in rows] == ["getUserName", "XMLHttpRequest", "HTTPServerError", "snake_case_name"]
    assert [r["parts"] for r in rows] == ["get · User · Name", "XML · Http · Request", "HTTP · Server · Error",
                                          "snake · case · name"]
    assert rows[0]["occurrences"] == 2 and rows[0]["n parts"] == 3


def test_subwords_html_shows_source_text_ids_and_line_breaks():
    code = "x = 1\nif x:\n    y = x\n"
    tokenizer = tokcore.load(CODE_BPE)
    units = tokcore.encode_code(code, "python", tokenizer)
    drawn = code_view.subwords_html(code, units)
    assert drawn.count("<br>") == sum(1 for u in units if u.type == "newline") == 3
    assert drawn.count('class="ck-chip"') == len(units)
    number = next(u for u in units if u.type == "number")
    assert number.id is None and '<span class="ck-id">–</span>' in drawn
    assert "ck-id" not in code_view.subwords_html(code, units, show_ids=False)
    assert "(no units)" in code_view.subwords_html("", [])


def test_counts_add_up():
    code = code_view.SAMPLES["go"]
    tokens = tokcore.tokenize_code(code, "go")
    tokenizer = tokcore.load(CODE_BPE)
    units = tokcore.encode_code(code, "go", tokenizer)
    rows = code_view.count_rows(tokens, units)
    assert sum(r["syntax tokens"] for r in rows) == len(tokens)
    assert sum(r["syntax-aware subwords"] for r in rows) == len(units)
    plain = len(tokenizer.encode(code, add_special_tokens=False))
    totals = code_view.summary(tokens, units, plain)
    assert totals["syntax tokens"] == len([t for t in tokens if t.type != "whitespace"])
    assert totals["delta"] == len(units) - plain
    assert totals["identifiers"] == len([t for t in tokens if t.type == "identifier"])


def test_legend_and_labels():
    legend = code_view.legend_html()
    for kind in code_view.TYPE_COLORS:
        assert kind in legend
    assert code_view.language_label("cpp") == "C++" and code_view.language_label("csharp") == "C#"
    assert set(code_view.SAMPLES) == set(tokcore.extras.code.SUPPORTED)
    assert code_view.type_color("whitespace") is None


# ---------------------------------------------------------------- the page
def open_code(**state) -> AppTest:
    return run_page(PAGE, **state)


def code_block(at: AppTest) -> str:
    return next(h for h in html_blocks(at) if 'class="ck-code"' in h)


def test_page_opens_with_python_and_the_code_tokenizer():
    at = open_code()
    assert at.title[0].value == "Code"
    assert not at.error
    assert at.selectbox(key="code_lang").value == "python"
    assert at.selectbox(key="code_tok").value == "file:code_bytelevel_bpe.json"
    assert at.text_area(key="code_text").value == code_view.SAMPLES["python"]
    assert list(metrics(at)) == ["Syntax tokens", "Syntax-aware subwords", "Plain subwords", "Difference"]
    assert 'data-type="keyword"' in code_block(at)
    tokenizer = tokcore.load(CODE_BPE)
    plain = len(tokenizer.encode(code_view.SAMPLES["python"], add_special_tokens=False))
    assert metrics(at)["Plain subwords"] == str(plain)
    identifiers = at.dataframe[0].value
    assert "TokenCounter" in list(identifiers["identifier"])


def test_the_page_file_runs_on_its_own():
    at = AppTest.from_file(str(ROOT / PAGE), default_timeout=90).run()
    assert not at.exception
    assert any('class="ck-code"' in h for h in html_blocks(at))


def test_switching_language_loads_its_sample_and_recolours():
    at = open_code()
    at.selectbox(key="code_lang").set_value("go").run()
    assert not at.exception
    assert at.text_area(key="code_text").value == code_view.SAMPLES["go"]
    assert '>func</span>' in code_block(at)
    assert "parseHTTPHeader" in list(at.dataframe[0].value["identifier"])


def test_typed_code_with_syntax_errors_still_tokenizes():
    at = open_code()
    at.text_area(key="code_text").input("def broken(:\n    return )))\n").run()
    assert not at.exception
    assert not at.error
    assert 'data-type="error"' in code_block(at)
    assert any("typed 'error'" in w.value for w in at.warning)


def test_show_switch_changes_what_is_drawn():
    at = open_code()
    both = html_blocks(at)
    assert any('class="ck-strip"' in h for h in both) and any('class="tk-strip"' in h for h in both)
    at.button_group(key="code_show").set_value("Syntax-aware subwords").run()
    only = html_blocks(at)
    assert any('class="ck-strip"' in h for h in only) and not any('class="tk-strip"' in h for h in only)
    at.button_group(key="code_show").set_value("Plain subwords").run()
    assert not any('class="ck-strip"' in h for h in html_blocks(at))


def test_the_tokenizer_choice_changes_the_plain_count():
    at = open_code()
    before = metrics(at)["Plain subwords"]
    at.selectbox(key="code_tok").set_value("builtin:ascii-char").run()
    assert not at.exception
    after = metrics(at)["Plain subwords"]
    assert after == str(len(code_view.SAMPLES["python"])) != before  # one token per ASCII character


def test_script_in_code_is_escaped_on_the_page():
    at = open_code()
    at.text_area(key="code_text").input('x = "<script>alert(1)</script>"  # <b>hi</b>\n').run()
    for block in html_blocks(at):
        assert "<script" not in block and "<b>" not in block


def test_engine_errors_are_shown_as_st_error():
    refusing = SessionTokenizer("session:test-refusing-code", "Refusing", Refusing())
    at = open_code(tokapp_session_tokenizers={refusing.key: refusing})
    at.selectbox(key="code_tok").set_value(refusing.key).run()
    assert not at.exception
    assert [e.value for e in at.error] == [Refusing.message]
    assert 'class="ck-code"' in "".join(html_blocks(at)), "the syntax view still shows"
