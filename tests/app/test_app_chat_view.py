"""The Chat page's pure helpers without Streamlit: the marked prompt HTML, the counts table, the chat samples, the
user's template and the tools JSON."""

from __future__ import annotations

import json
import re

import pytest

import tokcore
from tokapp import chat_sources, chat_view, samples
from tokapp.tokens import build_view
from tokcore.chat import ChatTemplateError

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi <b>there</b> & *you*"}]


def sample_render(sample: chat_sources.ChatSample, messages=MESSAGES, **options):
    tokenizer = tokcore.load(samples.SAMPLE_DIR / sample.tokenizer_file)
    render = tokcore.render_chat_spans(chat_sources.own_config(sample.tokenizer_key), messages, **options)
    encoding = tokcore.chat_encode(tokenizer, render)
    return render, encoding, build_view(tokenizer, render.text, add_special_tokens=False)


def owners_drawn(markup: str) -> list[str]:
    return re.findall(r'data-owner="([^"]+)"', markup)


@pytest.mark.parametrize("sample", chat_sources.CHAT_SAMPLES, ids=lambda s: s.folder_name)
def test_every_chat_sample_renders_and_its_template_tags_are_single_special_tokens(sample):
    render, encoding, view = sample_render(sample, add_generation_prompt=True)
    assert samples.find_spec(sample.tokenizer_key, samples.file_specs()) is not None, "offered by every picker"
    assert encoding.message_token_counts[0] > 0 and encoding.message_token_counts[1] > 0
    assert encoding.template_token_count > 0
    special = [row.token for row in view.rows if row.special]
    assert special, "the template's tags are the tokenizer's special tokens"
    assert all(encoding.token_messages[row.index] is None for row in view.rows if row.special)


def test_prompt_html_marks_every_template_token_and_escapes_the_user_text():
    render, encoding, view = sample_render(chat_sources.CHAT_SAMPLES[0])
    markup = chat_view.prompt_html(view, encoding.token_messages, render.roles)
    owners = owners_drawn(markup)
    assert len(owners) == len(view.rows)
    assert owners.count("template") == encoding.template_token_count
    assert owners.count("m1") == encoding.message_token_counts[1]
    assert markup.count("ch-tpl") == encoding.template_token_count
    assert "<b>" not in markup and "</b>" not in markup and "&lt;" in markup and "&amp;" in markup
    template_chip = re.search(r'<span class="([^"]*)"[^>]*data-owner="template"', markup).group(1)
    assert "ch-tpl" in template_chip
    assert 'title="' in markup and "message 2 (user)" in markup


def test_prompt_html_refuses_owners_of_another_encoding():
    render, encoding, view = sample_render(chat_sources.CHAT_SAMPLES[0])
    with pytest.raises(ValueError, match="owners"):
        chat_view.prompt_html(view, encoding.token_messages[:-1], render.roles)


def test_the_legend_names_the_template_marks():
    legend = chat_view.legend_html()
    assert "ch-tpl" in legend and "added by the template" in legend and "written by you" in legend
    assert "&lt;s&gt;" in legend and "<s>" not in legend


def test_counts_table_has_a_row_per_message_then_template_and_total():
    rows = chat_view.counts_records(["user", "assistant"], ["hi there", "x" * 100],
                                    [("A", [2, 5], 4), ("A", None, None), ("B", [1, 1], 0)])
    assert [r["role"] for r in rows] == ["user", "assistant", "template", "total"]
    assert rows[0]["content"] == "hi·there" and rows[1]["content"].endswith("…")
    assert rows[-1] == {"#": "", "role": "total", "content": "", "A": 11, "A (2)": None, "B": 2}
    assert rows[0]["A (2)"] is None


def test_md_escape_leaves_no_markdown_or_html_active():
    assert chat_view.md_escape("Uploaded: *x*_y [a](b) <i>") == r"Uploaded\: \*x\*\_y \[a\]\(b\) \<i\>"


def test_sample_configs_round_trip_through_plain_dicts():
    for sample in chat_sources.CHAT_SAMPLES:
        config = chat_sources.own_config(sample.tokenizer_key)
        assert json.loads(json.dumps(config)) == config and isinstance(config["chat_template"], str)
        direct = tokcore.render_chat(sample.folder, MESSAGES, add_generation_prompt=True)
        assert tokcore.render_chat(config, MESSAGES, add_generation_prompt=True) == direct
    assert chat_sources.own_config("builtin:ascii-char") is None
    assert chat_sources.ordered_keys(["builtin:ascii-char", *chat_sources.DEFAULT_KEYS])[-1] == "builtin:ascii-char"


def test_the_llama_sample_warns_of_a_doubled_bos_and_checks_alternation():
    _render, encoding, _view = sample_render(chat_sources.CHAT_SAMPLES[1])
    assert any("second `<s>`" in warning for warning in encoding.warnings)
    with pytest.raises(ChatTemplateError, match="Roles must alternate"):
        sample_render(chat_sources.CHAT_SAMPLES[1], MESSAGES + [{"role": "user", "content": "again"}])


def test_user_config_from_a_file_a_template_or_both():
    config = json.dumps({"bos_token": "<s>", "chat_template": "{{ bos_token }}{{ messages[0].content }}"}).encode()
    assert chat_sources.user_config("tokenizer_config.json", config) == {
        "chat_template": "{{ bos_token }}{{ messages[0].content }}", "bos_token": "<s>"}
    both = chat_sources.user_config("tokenizer_config.json", config, "[{{ bos_token }}]")
    assert tokcore.render_chat(both, MESSAGES) == "[<s>]"
    jinja = chat_sources.user_config("t.jinja", b"{{ messages | length }}")
    assert tokcore.render_chat(jinja, MESSAGES) == "2"
    assert chat_sources.user_config(None, None, "  ") is None


@pytest.mark.parametrize("name, data, pasted, message", [
    ("tokenizer_config.json", b"{not json", "", "not valid JSON"),
    ("tokenizer_config.json", b"[1, 2]", "", "JSON object"),
    ("tokenizer_config.json", b'{"bos_token": "<s>"}', "", "no chat_template"),
    ("tokenizer_config.json", b"\xff\xfe", "", "not UTF-8"),
    (None, None, "{% for %}", None),
])
def test_user_config_errors_say_what_is_wrong(name, data, pasted, message):
    if message is None:  # a syntax error shows when rendering, with the template's line
        with pytest.raises(ChatTemplateError, match="syntax error"):
            tokcore.render_chat(chat_sources.user_config(name, data, pasted), MESSAGES)
        return
    with pytest.raises(ChatTemplateError, match=message):
        chat_sources.user_config(name, data, pasted)


def test_parse_tools_accepts_lists_and_one_object_and_explains_the_rest():
    assert chat_sources.parse_tools("  ") is None
    assert chat_sources.parse_tools('{"name": "f"}') == [{"name": "f"}]
    assert chat_sources.parse_tools('[{"name": "f"}]') == [{"name": "f"}]
    with pytest.raises(ValueError, match=r"not valid JSON \(line 1, column 2"):
        chat_sources.parse_tools("[oops]")
    with pytest.raises(ValueError, match="list of objects"):
        chat_sources.parse_tools("[1, 2]")


def test_a_new_message_takes_the_other_side():
    assert chat_sources.next_role([]) == "user"
    assert chat_sources.next_role(["user"]) == "assistant"
    assert chat_sources.next_role(["user", "assistant"]) == "user"


def test_deeply_nested_json_is_an_input_error_not_a_recursion_error():
    deep = "[" * 100_000
    with pytest.raises(ValueError, match="nested too deeply"):
        chat_sources.parse_tools(deep)
    with pytest.raises(ValueError, match="nested too deeply"):
        chat_sources.user_config("tokenizer_config.json", deep.encode())
