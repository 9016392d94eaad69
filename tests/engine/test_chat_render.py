"""render_chat_spans and chat_encode: exact content spans, per-message token counts, warnings, inputs, errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore
from tokcore.chat import ChatInputError, ChatInputTypeError, ChatTemplateError

pytestmark = pytest.mark.shared_data


def chat_dir() -> Path:
    return require_shared("chat")


def conversations() -> list[dict]:
    text = (chat_dir() / "conversations.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def options_of(case: dict) -> dict:
    options = {key: case[key] for key in ("tools", "documents") if key in case}
    options["add_generation_prompt"] = case["add_generation_prompt"]
    return options


def slice_of(text: str, span) -> str:
    return text.encode("utf-8")[span[0] - 1 : span[1] - 1].decode("utf-8")


def assert_tiling(render):
    """Message spans and template spans cover the text exactly once, in contract form."""
    spans = sorted([s for spans in render.message_spans for s in spans] + list(render.template_spans))
    position = 1
    for start, stop in spans:
        assert start == position and stop > start
        position = stop
    assert position == len(render.text.encode("utf-8")) + 1
    tokcore.assert_offsets_contract(render.text, spans, require_string_boundaries=True)


@pytest.fixture(scope="module")
def llama_bpe():
    return tokcore.load(require_shared("reference", "hf", "trained", "llama_style_bpe.json"))


def test_spans_cover_each_content_in_every_shared_conversation():
    located = string_contents = 0
    for path in sorted(chat_dir().glob("*.json")):
        for case in conversations():
            try:
                render = tokcore.render_chat_spans(path, case["messages"], **options_of(case))
            except ValueError:
                continue
            assert render.text == tokcore.render_chat(path, case["messages"], **options_of(case))
            assert_tiling(render)
            for message, spans in zip(case["messages"], render.message_spans):
                content = message.get("content")
                if not isinstance(content, str) or not content:
                    assert spans == ()
                    continue
                string_contents += 1
                located += bool(spans)
                for span in spans:
                    shown = slice_of(render.text, span)
                    # Exact, or the template's own trimming of it (Gemma, Command-R strip contents).
                    assert shown == content or shown in (content.strip(), content.lstrip(), content.rstrip()), path.name
    # Unlocated contents are ones the template does not print (tool turns in Phi-3, a lone system in Mistral).
    assert located >= string_contents - 10 and located > 300


def test_chatml_spans_are_the_contents_verbatim():
    path = chat_dir() / "qwen2.5-instruct.json"
    for case in conversations():
        if case["name"] in ("empty_conversation", "multimodal_content_parts"):
            continue
        render = tokcore.render_chat_spans(path, case["messages"], **options_of(case))
        for message, spans in zip(case["messages"], render.message_spans):
            if isinstance(message.get("content"), str) and message["content"]:
                assert [slice_of(render.text, s) for s in spans] == [message["content"]], case["name"]


def test_per_message_token_counts_with_a_real_tokenizer(llama_bpe):
    path = chat_dir() / "mistral-7b-instruct-v0.1.json"
    case = {c["name"]: c for c in conversations()}["system_and_multi_turn"]
    render = tokcore.render_chat_spans(path, case["messages"], add_generation_prompt=True)
    encoding = tokcore.chat_encode(llama_bpe, render)
    ids = encoding.result.ids
    assert ids == tokcore.encode_result(llama_bpe, render.text, add_special_tokens=False).ids
    assert sum(encoding.message_token_counts) + encoding.template_token_count == len(ids)
    assert len(encoding.message_token_counts) == len(case["messages"])
    assert ids[0] == llama_bpe.token_to_id("<s>") and encoding.token_messages[0] is None
    # Mistral folds the system message into the first user turn: both are printed, both have tokens.
    assert all(count > 0 for count in encoding.message_token_counts)
    for owner, span in zip(encoding.token_messages, encoding.result.original_offsets):
        if owner is not None:
            assert any(start <= span[0] and span[1] <= stop for start, stop in render.message_spans[owner]) or (
                any(start < span[1] and span[0] < stop for start, stop in render.message_spans[owner])
            )


def test_double_bos_warning(llama_bpe):
    render = tokcore.render_chat_spans(chat_dir() / "mistral-7b-instruct-v0.1.json", [{"role": "user", "content": "Hi"}])
    warnings = tokcore.chat_encode(llama_bpe, render).warnings
    assert any("second `<s>`" in w and "add_special_tokens=True" in w for w in warnings)


def test_missing_bos_and_unknown_template_tokens_are_reported(llama_bpe):
    render = tokcore.render_chat_spans(chat_dir() / "qwen2.5-instruct.json", [{"role": "user", "content": "Hi"}])
    warnings = tokcore.chat_encode(llama_bpe, render).warnings
    assert any("wrote none" in w for w in warnings)
    assert any("`<|im_end|>`" in w and "split" in w for w in warnings)


def test_chat_encode_wants_a_chat_render(llama_bpe):
    with pytest.raises(TypeError, match="render_chat_spans"):
        tokcore.chat_encode(llama_bpe, "<s>[INST] hi [/INST]")


def test_dict_path_and_directory_inputs_agree(tmp_path):
    source = chat_dir() / "tinyllama-1.1b-chat.json"
    messages = [{"role": "user", "content": "Hi"}]
    config = json.loads(source.read_text(encoding="utf-8"))
    shutil.copy(source, tmp_path / "tokenizer_config.json")
    expected = tokcore.render_chat(source, messages, add_generation_prompt=True)
    assert tokcore.render_chat(str(source), messages, add_generation_prompt=True) == expected
    assert tokcore.render_chat(config, messages, add_generation_prompt=True) == expected
    assert tokcore.render_chat(tmp_path, messages, add_generation_prompt=True) == expected
    # As in transformers, a chat_template.jinja file beside the config wins over its key.
    (tmp_path / "chat_template.jinja").write_text("FILE {{ messages[0].content }}", encoding="utf-8")
    assert tokcore.render_chat(tmp_path, messages) == "FILE Hi"


def test_template_raise_names_the_templates_own_message():
    messages = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]
    for name in ("mistral-7b-instruct-v0.1.json", "gemma-it.json"):
        with pytest.raises(ChatTemplateError, match="roles must alternate user/assistant/user/assistant/"):
            tokcore.render_chat(chat_dir() / name, messages)


@pytest.mark.parametrize(
    ("call", "error", "pattern"),
    [
        (lambda p: tokcore.render_chat(p, []), ChatInputError, "empty conversation"),
        (lambda p: tokcore.render_chat(p, "hi"), ChatInputError, "list of dicts"),
        (lambda p: tokcore.render_chat(p, ["hi"]), TypeError, r"messages\[0\] must be a dict"),
        (lambda p: tokcore.render_chat(p, [{"role": "user", "content": "x"}], documents=["doc"]), TypeError, "documents"),
        (lambda p: tokcore.render_chat(p, [{"role": "user", "content": "x"}], tools=[print]), ChatInputError, "JSON-schema"),
        (lambda p: tokcore.render_chat(p, [{"role": "user", "content": "x"}], template_name="rag"), ChatTemplateError, "drop template_name"),
        (lambda p: tokcore.render_chat(p, [{"role": "user", "content": "x"}], timeout_s=0), ChatInputError, "timeout_s"),
        (lambda p: tokcore.render_chat(p.parent / "nope.json", [{"role": "user", "content": "x"}]), ChatTemplateError, "no such file"),
        (lambda p: tokcore.render_chat({"bos_token": "<s>"}, [{"role": "user", "content": "x"}]), ChatTemplateError, "no chat_template"),
        (lambda p: tokcore.render_chat({"chat_template": "{% if %}"}, [{"role": "user", "content": "x"}]), ChatTemplateError, "syntax error at line 1"),
        (lambda p: tokcore.render_chat({"chat_template": "x", "bos_token": 5}, [{"role": "user", "content": "x"}]), ChatTemplateError, "bos_token must be a string"),
    ],
)
def test_user_errors_are_value_or_type_errors_that_say_what_to_do(call, error, pattern):
    with pytest.raises(error, match=pattern) as raised:
        call(chat_dir() / "tinyllama-1.1b-chat.json")
    assert isinstance(raised.value, (ValueError, TypeError))


def test_documents_that_are_not_dicts_are_both_type_and_value_errors():
    with pytest.raises(ChatInputTypeError) as raised:
        tokcore.render_chat({"chat_template": "x"}, [{"role": "user", "content": "x"}], documents=[1])
    assert isinstance(raised.value, TypeError) and isinstance(raised.value, ValueError)


def test_unknown_named_template_lists_the_names():
    with pytest.raises(ChatTemplateError, match=r"\['default', 'rag', 'tool_use'\]"):
        tokcore.render_chat(chat_dir() / "c4ai-command-r-v01.json", [{"role": "user", "content": "x"}], template_name="chat")


def test_bad_json_config_names_the_line(tmp_path):
    path = tmp_path / "tokenizer_config.json"
    path.write_text('{"chat_template": "x",\n oops}', encoding="utf-8")
    with pytest.raises(ChatTemplateError, match="line 2"):
        tokcore.render_chat(path, [{"role": "user", "content": "x"}])


def test_transformed_content_gets_the_transformed_span_or_none():
    trimmed = {"chat_template": "{% for m in messages %}[{{ m.content|trim }}]{% endfor %}"}
    render = tokcore.render_chat_spans(trimmed, [{"role": "user", "content": "  hello  "}])
    assert [slice_of(render.text, s) for s in render.message_spans[0]] == ["hello"]
    assert_tiling(render)
    # A cut the sentinels cannot follow leaves the message without a span rather than a wrong one.
    sliced = {"chat_template": "{% for m in messages %}[{{ m.content|trim }}]({{ m.content[:2] }}){% endfor %}"}
    render = tokcore.render_chat_spans(sliced, [{"role": "user", "content": "  hello  "}])
    assert render.text == "[hello](  )" and render.message_spans == ((),)
    assert render.template_spans == ((1, 12),)


def test_content_printed_twice_gets_two_spans():
    config = {"chat_template": "{% for m in messages %}<{{ m.content }}|{{ m.content }}>{% endfor %}"}
    render = tokcore.render_chat_spans(config, [{"role": "user", "content": "héllo"}])
    assert [slice_of(render.text, s) for s in render.message_spans[0]] == ["héllo", "héllo"]
    assert render.template_spans == ((1, 2), (8, 9), (15, 16))


CONTENT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(CONTENT, min_size=1, max_size=4), st.sampled_from(["qwen2.5-instruct.json", "mistral-7b-instruct-v0.1.json", "gemma-it.json", "tinyllama-1.1b-chat.json"]))
def test_random_contents_slice_back_and_only_chat_errors_escape(contents, config_name):
    messages = [{"role": ("user", "assistant")[i % 2], "content": c} for i, c in enumerate(contents)]
    try:
        render = tokcore.render_chat_spans(chat_dir() / config_name, messages, add_generation_prompt=True)
    except ChatTemplateError:
        return
    assert_tiling(render)
    for message, spans in zip(messages, render.message_spans):
        for span in spans:
            shown = slice_of(render.text, span)
            content = message["content"]
            if config_name == "qwen2.5-instruct.json":
                assert shown == content
            else:
                assert shown in content


def test_public_names_are_lazy_and_import_tokcore_stays_light():
    import subprocess
    import sys

    for name in ("render_chat", "render_chat_spans", "chat_encode", "ChatRender", "ChatEncoding", "ChatTemplateError"):
        assert name in tokcore.__all__ and getattr(tokcore, name) is getattr(tokcore.chat, name)
    code = "import sys, tokcore; assert 'jinja2' not in sys.modules and 'streamlit' not in sys.modules; tokcore.render_chat"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(tokcore.__file__).parent.parent)
