"""A tokenizer that truncates and pads every text (as MiniLM's tokenizer.json does at 128 tokens) on the encoding pages:
the whole text is encoded unless "Truncate as the tokenizer does" is on, and the figures follow the switch."""

from __future__ import annotations

from app_pages import open_page

import tokcore
from tokapp import compare

KEY = "session:test-truncating"
TEXT = "abcdefghij" * 30  # 300 characters: one token each with the character tokenizer


def truncating() -> tokcore.CharTokenizer:
    tok = tokcore.CharTokenizer()
    tok.truncation = {"direction": "Right", "max_length": 16, "strategy": "LongestFirst", "stride": 0}
    tok.padding = {"strategy": {"Fixed": 64}, "direction": "Right", "pad_to_multiple_of": None, "pad_id": 0,
                   "pad_type_id": 0, "pad_token": "<UNK>"}  # pads to 64 unless the call says padding=False
    return tok


def _open(page: str, prefix: str, **state):
    at = open_page(page, session={KEY: ("Truncating", truncating())}, state=state)
    if prefix != "cmp":
        at.selectbox(key=f"{prefix}_tok").set_value(KEY).run()
    at.text_area(key=f"{prefix}_text").set_value(TEXT).run()
    assert not at.exception and not at.error
    return at


def test_the_playground_counts_the_whole_text_until_truncation_is_asked_for():
    at = _open("1_Playground.py", "pg")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Tokens"] == "300" and metrics["Characters / token"] == "1.00"
    switch = at.toggle(key="pg_trunc")
    assert switch.value is False and "16 tokens" in switch.label
    switch.set_value(True).run()
    assert {m.label: m.value for m in at.metric}["Tokens"] == "16"


def test_the_inspector_checks_the_whole_text_until_truncation_is_asked_for():
    at = _open("2_Offsets_inspector.py", "oi")
    assert {m.label: m.value for m in at.metric}["Tokens"] == "300"
    at.toggle(key="oi_trunc").set_value(True).run()
    assert {m.label: m.value for m in at.metric}["Tokens"] == "16"


def test_compare_offers_the_switch_when_one_tokenizer_truncates():
    at = _open("3_Compare.py", "cmp", cmp_toks=["builtin:ascii-char", KEY])
    figures = at.dataframe[0].value
    assert list(figures["tokens"]) == [300, 300]
    at.toggle(key="cmp_trunc").set_value(True).run()
    assert sorted(at.dataframe[0].value["tokens"]) == [16, 300] and not at.exception


def test_no_switch_for_a_tokenizer_that_does_not_truncate():
    at = open_page("1_Playground.py")
    assert not [t for t in at.toggle if t.key == "pg_trunc"]


def test_pipeline_stages_cut_the_final_encoding_only_when_asked():
    at = _open("8_Pipeline_stages.py", "ps")
    assert not at.info  # no "stages differ" note: nothing is cut
    at.toggle(key="ps_trunc").set_value(True).run()
    assert any("truncation keeps 16 tokens" in i.value for i in at.info) and not at.exception


def test_across_languages_counts_no_pad_tokens():
    # MiniLM's tokenizer.json pads every sentence to 128: "Across languages" counted 128 tokens for each.
    rows = compare.multilingual_rows("padded", compare.sentence_ids(truncating()), [("English", "a b c")])
    assert rows[0]["tokens"] == 5
    at = _open("3_Compare.py", "cmp", cmp_toks=["builtin:ascii-char", KEY])
    ranking = {r["tokenizer"]: r for r in at.dataframe[2].value.to_dict("records")} if len(at.dataframe) > 2 else {}
    assert ranking and ranking["Truncating"]["tokens per character"] == ranking[
        "ASCII characters (tokcore.CharTokenizer)"]["tokens per character"]


def test_the_playground_says_how_much_of_the_text_truncation_kept():
    at = _open("1_Playground.py", "pg")
    assert not [c for c in at.caption if "truncation kept" in c.value]
    at.toggle(key="pg_trunc").set_value(True).run()
    (note,) = [c.value for c in at.caption if "truncation kept" in c.value]
    assert "kept 16 tokens: they cover the first 16 of the 300 characters" in note
