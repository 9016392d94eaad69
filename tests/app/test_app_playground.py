"""The Playground page under Streamlit's AppTest: it runs, its widgets react, errors stay friendly."""

from __future__ import annotations

import pytest
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

import tokcore
from tokapp.samples import SessionTokenizer

APP = str(ROOT / "app.py")
PAGE = str(ROOT / "pages" / "1_Playground.py")
PLAIN = "Encode them as plain text"


def run_app(text: str | None = None, **query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if text is not None:
        at.text_area(key="pg_text").input(text).run()
        assert not at.exception
    return at


def table(at: AppTest):
    return at.dataframe[0].value


def strip_html(at: AppTest) -> str:
    """The main token strip (the first block drawn with tk-strip)."""
    return next(h.value for h in at.html if 'class="tk-strip"' in h.value)


def test_app_opens_on_the_playground_with_its_widgets():
    at = run_app()
    assert at.title[0].value == "Playground"
    assert not at.error
    assert at.text_area(key="pg_text").value
    assert at.selectbox(key="pg_tok").value == "builtin:ascii-char"
    assert at.button_group(key="pg_special").value == "Parse special tokens"
    assert at.toggle(key="pg_add_special").value is True
    assert at.radio(key="pg_coords").value == "tokenization text"
    assert [m.label for m in at.metric][:4] == ["Tokens", "Characters", "Bytes (UTF-8)", "Characters / token"]
    assert list(table(at).columns) == ["#", "id", "token", "covers", "offsets (bytes, 1-based, half-open)",
                                       "raw-input offsets (bytes, 1-based, half-open)", "special",
                                       "bytes", "kind"]


def test_the_page_file_runs_on_its_own():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert len(table(at)) > 0


def test_typing_text_changes_the_token_table_and_counts():
    at = run_app("Hi é")
    df = table(at)
    char = tokcore.CharTokenizer()
    assert list(df["id"]) == char.encode("Hi é")
    assert list(df["token"]) == ["H", "i", "·", "<UNK>"]
    assert list(df["offsets (bytes, 1-based, half-open)"]) == ["(1, 2)", "(2, 3)", "(3, 4)", "(4, 9)"]
    assert list(df["raw-input offsets (bytes, 1-based, half-open)"]) == ["(1, 2)", "(2, 3)", "(3, 4)", "(4, 6)"]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Tokens"] == "4" and metrics["Characters"] == "4" and metrics["Bytes (UTF-8)"] == "5"
    assert metrics["Characters / token"] == "1.00"
    assert ">H<" in strip_html(at)
    at.text_area(key="pg_text").input("xyz").run()
    assert list(table(at)["token"]) == ["x", "y", "z"]


def test_special_token_switch_changes_what_is_shown():
    at = run_app("a<UNK>b")
    assert list(table(at)["token"]) == ["a", "<UNK>", "b"]
    assert list(table(at)["special"]) == [0, 1, 0]
    assert "tk-special" in strip_html(at)
    assert any("delta **+4**" in m.value for m in at.markdown)
    at.button_group(key="pg_special").set_value(PLAIN).run()
    assert not at.exception
    assert list(table(at)["token"]) == ["a", "<", "U", "N", "K", ">", "b"]
    assert set(table(at)["special"]) == {0}
    assert "tk-special" not in strip_html(at)


def test_raw_input_view_draws_the_original_characters():
    at = run_app("é")
    assert "&lt;UNK&gt;" in strip_html(at)
    at.radio(key="pg_coords").set_value("raw input").run()
    assert 'data-coords="original"' in strip_html(at)
    assert ">é<" in strip_html(at)


def test_user_markup_is_escaped_in_the_page():
    at = run_app("<b>x</b><script>alert(1)</script>")
    for block in at.html:
        assert "<script" not in block.value and "<b>" not in block.value


def test_template_tokens_appear_as_sentinels_and_can_be_turned_off():
    at = run_app("the cat")
    at.selectbox(key="pg_tok").set_value("builtin:toy-word-level").run()
    assert not at.exception
    df = table(at)
    if "inserted" not in set(df["kind"]):
        pytest.skip("the engine has no BertProcessing yet")
    assert list(df["token"]) == ["[CLS]", "the", "cat", "[SEP]"]
    assert list(df["offsets (bytes, 1-based, half-open)"]) == ["(0, 0)", "(1, 4)", "(5, 8)", "(0, 0)"]
    assert "tk-inserted" in strip_html(at)
    at.toggle(key="pg_add_special").set_value(False).run()
    assert list(table(at)["token"]) == ["the", "cat"]


def test_every_offered_tokenizer_renders_without_exception():
    at = run_app("Hello world! a🙂b café\n\t<|endoftext|> [CLS]")
    for key in at.selectbox(key="pg_tok").options:
        at.selectbox(key="pg_tok").set_value(key).run()
        assert not at.exception, key
        assert not at.error, (key, [e.value for e in at.error])


class _Refusing(tokcore.CharTokenizer):
    def encode_result(self, text, **options):
        raise tokcore.ConfigurationError("this tokenizer refuses the text; pick another one")


def test_engine_errors_are_shown_as_st_error_not_a_traceback():
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["tokapp_session_tokenizers"] = {
        "session:test-refusing": SessionTokenizer("session:test-refusing", "Refusing", _Refusing()),
    }
    at.run()
    at.selectbox(key="pg_tok").set_value("session:test-refusing").run()
    assert not at.exception
    assert [e.value for e in at.error] == ["this tokenizer refuses the text; pick another one"]
    assert not at.dataframe


def test_text_travels_in_the_link():
    at = run_app(pg_text="from a link")
    assert at.text_area(key="pg_text").value == "from a link"
    at.text_area(key="pg_text").input("changed").run()
    assert at.query_params["pg_text"] == "changed"
    at.text_area(key="pg_text").input("y" * 700).run()
    assert "pg_text" not in at.query_params


def test_tokenizer_choice_travels_in_the_link():
    at = run_app(pg_tok="builtin:toy-word-level", pg_text="the cat")
    assert at.selectbox(key="pg_tok").value == "builtin:toy-word-level"
    assert "cat" in list(table(at)["token"])
    at.selectbox(key="pg_tok").set_value("builtin:ascii-char").run()
    assert at.query_params["pg_tok"] == "builtin:ascii-char"
    stale = run_app(pg_tok="session:from-another-session")
    assert stale.selectbox(key="pg_tok").value == "builtin:ascii-char"
