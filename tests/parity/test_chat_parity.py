"""render_chat against transformers' apply_chat_template(tokenize=False): every shared config x conversation.

transformers is the oracle (test-only). Its tokenizer is built offline from each config: a tiny WordLevel
``tokenizers.Tokenizer`` holding the config's special tokens, wrapped in ``PreTrainedTokenizerFast`` with the
config's chat template and token names. Nothing touches the network. Both sides see the same frozen clock.
"""

from __future__ import annotations

import datetime as real_datetime
import json
from pathlib import Path

import pytest
from shared_data import require_shared

import tokcore

transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")
template_utils = pytest.importorskip("transformers.utils.chat_template_utils")

pytestmark = pytest.mark.shared_data

FROZEN_NOW = real_datetime.datetime(2024, 7, 26, 9, 30)
STANDARD = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")


class _FrozenDatetime(real_datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return FROZEN_NOW


@pytest.fixture(autouse=True)
def frozen_transformers_clock(monkeypatch):
    monkeypatch.setattr(template_utils, "datetime", _FrozenDatetime)


def _token_value(value):
    if isinstance(value, dict):
        return tokenizers.AddedToken(value["content"], special=True)
    return value


def hf_tokenizer(config: dict):
    """A PreTrainedTokenizerFast carrying the config's chat template and named tokens, built without files."""
    names = {
        key: _token_value(value)
        for key, value in config.items()
        if isinstance(key, str) and key.endswith("_token") and isinstance(value, (str, dict))
    }
    if isinstance(config.get("extra_special_tokens"), dict):
        names["extra_special_tokens"] = {k: _token_value(v) for k, v in config["extra_special_tokens"].items()}
    vocab = {"[UNK]": 0}
    for value in names.values():
        if isinstance(value, (str, tokenizers.AddedToken)):
            vocab.setdefault(str(value), len(vocab))
    backend = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="[UNK]"))
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, chat_template=config.get("chat_template"), **names
    )


def chat_dir() -> Path:
    return require_shared("chat")


def conversations() -> list[dict]:
    path = chat_dir() / "conversations.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def both(config_path, tokenizer, messages, **options):
    """(transformers' result or exception, tokcore's result or exception)."""
    results = []
    for render in (
        lambda: tokenizer.apply_chat_template(messages, tokenize=False, **_hf_options(options)),
        lambda: tokcore.render_chat(config_path, messages, now=FROZEN_NOW, **options),
    ):
        try:
            results.append(render())
        except Exception as exc:  # noqa: BLE001 (compared below)
            results.append(exc)
    return results


def _hf_options(options: dict) -> dict:
    options = dict(options)
    if "template_name" in options:
        options["chat_template"] = options.pop("template_name")
    return options


def assert_same(expected, got, label):
    if isinstance(expected, Exception):
        assert isinstance(got, ValueError), f"{label}: transformers raised {expected!r}, tokcore gave {got!r:.200}"
        if isinstance(expected, TypeError) and "Documents" in str(expected):
            assert isinstance(got, TypeError), label
    else:
        assert not isinstance(got, Exception), f"{label}: tokcore raised {got!r}"
        assert got == expected, f"{label}: renders differ"


def test_every_config_and_conversation_matches_transformers():
    paths = sorted(chat_dir().glob("*.json"))
    cases = conversations()
    assert len(paths) >= 7 and len(cases) >= 29
    identical = 0
    for path in paths:
        config = json.loads(path.read_text(encoding="utf-8"))
        tokenizer = hf_tokenizer(config)
        for case in cases:
            options = {key: case[key] for key in ("tools", "documents") if key in case}
            options["add_generation_prompt"] = case["add_generation_prompt"]
            expected, got = both(path, tokenizer, case["messages"], **options)
            assert_same(expected, got, f"{path.name} x {case['name']}")
            identical += 1
    assert identical == len(paths) * len(cases)


@pytest.mark.parametrize("add_generation_prompt", [True, False])
def test_generation_prompt_both_ways(add_generation_prompt):
    messages = [{"role": "user", "content": "Hello there"}]
    for path in sorted(chat_dir().glob("*.json")):
        tokenizer = hf_tokenizer(json.loads(path.read_text(encoding="utf-8")))
        expected, got = both(path, tokenizer, messages, add_generation_prompt=add_generation_prompt)
        assert_same(expected, got, path.name)


@pytest.mark.parametrize("template_name", ["default", "tool_use", "rag"])
def test_command_r_named_templates(template_name):
    path = chat_dir() / "c4ai-command-r-v01.json"
    tokenizer = hf_tokenizer(json.loads(path.read_text(encoding="utf-8")))
    by_name = {case["name"]: case for case in conversations()}
    for case_name in ("single_user_turn", "documents_rag", "tools_offered_no_call", "system_and_multi_turn"):
        case = by_name[case_name]
        options = {key: case[key] for key in ("tools", "documents") if key in case}
        expected, got = both(
            path, tokenizer, case["messages"], template_name=template_name, add_generation_prompt=True, **options
        )
        assert_same(expected, got, f"{template_name} x {case_name}")


def test_command_r_picks_tool_use_for_an_empty_tool_list():
    path = chat_dir() / "c4ai-command-r-v01.json"
    messages = [{"role": "user", "content": "Hi"}]
    with_tools = tokcore.render_chat(path, messages, tools=[])
    assert with_tools == tokcore.render_chat(path, messages, tools=[], template_name="tool_use")
    assert with_tools != tokcore.render_chat(path, messages)


# Held-out style configs: small templates probing the semantics the README lists.
SEMANTIC_TEMPLATES = {
    "undefined_prints_empty": "[{{ messages[0].missing }}][{{ messages[0].missing is defined }}]",
    "python_str_of_containers": "{{ messages[0] }}|{{ [1, 'x', none, true] }}|{{ messages[0]|string }}",
    "unicode_trim": "{% for m in messages %}<{{ m.content|trim }}>({{ m.content.strip() }}){% endfor %}",
    "tojson_keeps_order": "{{ tools|tojson }}|{{ tools|tojson(indent=2) }}|{{ messages|tojson(separators=(',', ':')) }}",
    "reverse_slice_and_loop": "{% for m in messages[::-1] %}{{ loop.index }}/{{ loop.length }}{{ m.role }}{% if not loop.last %},{% endif %}{% endfor %}",
    "set_scoping": "{% set x = 'outer' %}{% for m in messages %}{% set x = m.role %}{% endfor %}{{ x }}",
    "namespace_and_escapes": "{% set ns = namespace(n=0) %}{% for m in messages %}{% set ns.n = ns.n + 1 %}{% endfor %}{{ ns.n ~ '\\n' ~ 'tab:\\t' }}",
    "tests_and_dict": "{{ messages is iterable }}{{ messages[0] is mapping }}{{ 'x' is string }}{{ dict(a=1) }}{{ dict.fromkeys(['k']) }}",
    "trailing_newline_dropped": "{{ bos_token }}\n{% for m in messages %}\n{{ m.role }}: {{ m.content }}\n{% endfor %}\n",
    "crlf_template_source": "a\r\nb\rc{{ '\r\n' }}{{ eos_token }}",
    "generation_block": "{% for m in messages %}{% generation %}[{{ m.content }}]{% endgeneration %}{% endfor %}",
    "loop_controls": "{% for m in messages %}{% if loop.index > 1 %}{% break %}{% endif %}{{ m.role }}{% continue %}x{% endfor %}",
    "strftime": "{{ strftime_now('%d %B %Y') }}",
    "reasoning_aliases": "{% for m in messages %}{{ m.reasoning_content }}|{{ m.thinking }}|{{ m|list }};{% endfor %}",
    "none_keys_dropped": "{% for m in messages %}{{ m.content is defined }}{{ m.tool_calls is defined }}{% endfor %}",
    "special_tokens": "{{ bos_token }}{{ eos_token }}{{ image_token }}{{ extra_one }}{{ pad_token is defined }}{{ add_bos_token is defined }}",
    "macro": "{% macro tag(r) %}<{{ r|upper }}>{% endmacro %}{% for m in messages %}{{ tag(m.role) }}{{ m.content|indent(2) }}{% endfor %}",
}

SEMANTIC_MESSAGES = [
    {"role": "system", "content": "\u00a0\u3000 sys \u200b", "tool_calls": None},
    {"role": "user", "content": "  Hi\r\nthere  ", "reasoning": "because"},
    {"role": "assistant", "content": None, "thinking": "hmm", "tool_calls": [{"function": {"name": "f", "arguments": {"b": 1, "a": 2}}}]},
]
SEMANTIC_TOOLS = [{"type": "function", "function": {"name": "f", "description": "<b>&'", "parameters": {"z": 1, "a": 2}}}]


@pytest.mark.parametrize("name", sorted(SEMANTIC_TEMPLATES))
def test_semantics_match_transformers(name):
    config = {
        "chat_template": SEMANTIC_TEMPLATES[name],
        "bos_token": {"__type": "AddedToken", "content": "<s>"},
        "eos_token": "</s>",
        "pad_token": None,
        "add_bos_token": True,
        "image_token": "<image>",
        "extra_special_tokens": {"extra_one": "<x1>"},
    }
    tokenizer = hf_tokenizer(config)
    for generation in (True, False):
        expected, got = both(
            config, tokenizer, SEMANTIC_MESSAGES, tools=SEMANTIC_TOOLS, add_generation_prompt=generation
        )
        assert_same(expected, got, name)


def test_the_clock_is_pinned_on_both_sides():
    config = {"chat_template": "{{ strftime_now('%Y-%m-%d') }}"}
    assert tokcore.render_chat(config, [{"role": "user", "content": "x"}], now=FROZEN_NOW) == "2024-07-26"
    assert hf_tokenizer(config).apply_chat_template([{"role": "user", "content": "x"}], tokenize=False) == "2024-07-26"


def test_the_chat_pages_tool_call_example_matches_transformers():
    """The Chat page's built-in tool-call conversation (a call with an id, its result with name and tool_call_id,
    the answer), with and without the tools, through every shared config and the ChatML sample the page offers
    for tools: the prompt the page shows is the one transformers renders."""
    from tokapp import chat_sources, chat_tool_calls

    messages = chat_tool_calls.example_messages()
    configs = [(path.name, path, json.loads(path.read_text(encoding="utf-8"))) for path in sorted(chat_dir().glob("*.json"))]
    chatml = chat_sources.own_config(chat_sources.CHAT_SAMPLES[0].tokenizer_key)
    configs.append(("ChatML sample", chatml, chatml))
    rendered_calls = 0
    for label, source, config in configs:
        tokenizer = hf_tokenizer(config)
        for tools in (chat_tool_calls.EXAMPLE_TOOLS, None):
            expected, got = both(source, tokenizer, messages, tools=tools, add_generation_prompt=False)
            assert_same(expected, got, f"{label} x tool example (tools={tools is not None})")
            rendered_calls += isinstance(got, str) and '"city": "Paris"' in got
    assert rendered_calls >= 4, "Qwen, Llama 3.1, Command R and the ChatML sample write the call"
