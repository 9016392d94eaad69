"""Hostile chat templates (uploads, the Hub) end with a clear ChatTemplateError in bounded time.

No wall-clock assertions: each test simply has to finish. The time-bound cases use a short ``timeout_s`` so the
suite stays quick; the size cases are refused before the value is built.
"""

from __future__ import annotations

import pytest

import tokcore
from tokcore.chat import ChatTemplateError, ChatTemplateLimitError

MESSAGES = [{"role": "user", "content": "hi"}]

RUNAWAY_LOOPS = {
    "nested_ranges": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "nested_ranges_printing": "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}",
    "exponential_macro": "{% macro f(n) %}{% if n %}{{ f(n-1) }}{{ f(n-1) }}{% endif %}{% endmacro %}{{ f(60) }}",
    "buffered_macro": "{% macro m() %}{% for i in range(100000) %}{% for j in range(100000) %}{{ 'abcdefghij' }}"
    "{% endfor %}{% endfor %}{% endmacro %}{% set x = m() %}{{ x|length }}",
    "loop_length_materialized": "{% for i in range(100000) %}{% for j in range(100000)|map('string') %}"
    "{{ loop.length }}{% endfor %}{% endfor %}",
}

HUGE_VALUES = {
    "repeated_string": "{% set s = 'x' * 10**9 %}{{ s|length }}",
    "repeated_list": "{{ ([1] * 10**8)|length }}",
    "namespace_doubling_tilde": "{% set ns = namespace(s='x') %}{% for i in range(100) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}",
    "namespace_doubling_plus": "{% set ns = namespace(s='x') %}{% for i in range(100) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
    "integer_squaring": "{% set ns = namespace(x=3) %}{% for i in range(100) %}{% set ns.x = ns.x * ns.x %}{% endfor %}{{ ns.x }}",
    "power": "{{ 7 ** (10 ** 8) }}",
    "center_method": "{{ 'x'.center(10**9) }}",
    "center_filter": "{{ 'x'|center(2000000) }}",
    "join_method": "{% set big = 'y' * 900000 %}{{ big.join(range(2000)|map('string')) }}",
    "join_filter": "{% set big = 'y' * 900000 %}{{ range(2000)|join(big) }}",
    "lipsum": "{{ lipsum(10**7) }}",
    "printf_width": "{{ '%1000000000d' % 1 }}",
    "format_width": "{{ '{:>1000000000}'.format(1) }}",
    "tojson_indent": "{{ messages|tojson(indent=10**8) }}",
    "indent_filter": "{{ 'a\nb\nc'|indent(10**7) }}",
    "replace_filter": "{{ ('a'*1000)|replace('', 'b'*10000) }}",
    "replace_method": "{{ ('a'*1000).replace('a', 'b'*10000) }}",
    "expandtabs": "{{ ('\t'*1000).expandtabs(10**6) }}",
    "translate": "{{ ('a'*100000).translate({97: 'b'*100}) }}",
    "to_bytes": "{{ (1).to_bytes(10**9, 'big') }}",
    "batch_fill": "{{ [1]|batch(10**8, 0)|list }}",
    "quadratic_sum": "{{ ([[1]] * 100000)|sum(start=[]) }}",
    "printed_output": "{% for i in range(100000) %}{{ 'z' * 100 }}{% endfor %}",
}

SANDBOX_ESCAPES = {
    "class_mro": "{{ ''.__class__.__mro__ }}",
    "cycler_globals": "{{ cycler.__init__.__globals__ }}",
    "joiner_globals": "{{ joiner.__init__.__globals__['os'] }}",
    "namespace_dunder": "{% set ns = namespace(_secret=1) %}",
    "list_append": "{% set l = [] %}{{ l.append(1) }}",
    "dict_update": "{% set d = {} %}{{ d.update(a=1) }}",
    "getitem_dunder": "{{ messages['__class__']['__base__'] }}",
    "include": "{% include '/etc/passwd' %}",
}


@pytest.mark.parametrize("name", sorted(RUNAWAY_LOOPS))
def test_runaway_loops_stop_at_the_deadline(name):
    with pytest.raises(ChatTemplateLimitError, match="did not finish within 0.3 s"):
        tokcore.render_chat({"chat_template": RUNAWAY_LOOPS[name]}, MESSAGES, timeout_s=0.3)


@pytest.mark.parametrize("name", sorted(HUGE_VALUES))
def test_huge_values_are_refused_before_they_are_built(name):
    with pytest.raises(ChatTemplateLimitError, match="limit") as raised:
        tokcore.render_chat({"chat_template": HUGE_VALUES[name]}, MESSAGES)
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("name", sorted(SANDBOX_ESCAPES))
def test_sandbox_escapes_are_errors(name):
    with pytest.raises(ChatTemplateError):
        tokcore.render_chat({"chat_template": SANDBOX_ESCAPES[name]}, MESSAGES)


def test_format_fields_cannot_reach_internals():
    # Jinja's sandboxed formatter turns the unsafe field into an empty undefined, as in transformers.
    assert tokcore.render_chat({"chat_template": "[{{ '{0.__class__}'.format('') }}]"}, MESSAGES) == "[]"


def test_unbounded_recursion_is_an_error():
    with pytest.raises(ChatTemplateLimitError, match="recursed too deeply"):
        tokcore.render_chat({"chat_template": "{% macro f(n) %}{{ f(n+1) }}{% endmacro %}{{ f(0) }}"}, MESSAGES)


def test_output_cap_is_a_keyword_option():
    template = {"chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}"}
    assert tokcore.render_chat(template, [{"role": "user", "content": "x" * 500}], max_output_chars=1000)
    with pytest.raises(ChatTemplateLimitError, match="max_output_chars"):
        tokcore.render_chat(template, [{"role": "user", "content": "x" * 5000}], max_output_chars=1000)


def test_ordinary_operators_still_work_after_a_hostile_render():
    with pytest.raises(ChatTemplateLimitError):
        tokcore.render_chat({"chat_template": HUGE_VALUES["repeated_string"]}, MESSAGES)
    template = "{{ '-' * 3 }}{{ 2 ** 10 }}{{ 'a' + 'b' }}{{ '%05d|%s' % (42, 'x') }}{{ '{:>4}'.format(7) }}{{ [1] * 2 }}"
    assert tokcore.render_chat({"chat_template": template}, MESSAGES) == "---1024ab00042|x   7[1, 1]"


def test_hostile_span_renders_also_end():
    with pytest.raises(ChatTemplateLimitError):
        tokcore.render_chat_spans({"chat_template": RUNAWAY_LOOPS["nested_ranges"]}, MESSAGES, timeout_s=0.3)
    # A template that only runs away on the sentinel render: the real render succeeds, the span is just absent.
    sly = "{% for m in messages %}{{ m.content }}{% if m.content != 'hi' %}{% for i in range(100000) %}" \
          "{% for j in range(100000) %}{% endfor %}{% endfor %}{% endif %}{% endfor %}"
    render = tokcore.render_chat_spans({"chat_template": sly}, MESSAGES, timeout_s=0.3)
    assert render.text == "hi" and render.message_spans == ((),)
