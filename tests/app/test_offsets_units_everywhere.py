"""Every column and tooltip that shows a span says its unit and base (issue 21): Compare's alignment table and
token chips, and Noisy text's token table, the last ones that did not."""

from __future__ import annotations

import re

from tokapp import compare, lexnorm_view

UNIT = re.compile(r"\((bytes|characters), [01]-based")


def test_compare_alignment_columns_name_their_unit():
    rows = [{"a_index": 0, "a_token": "Hi", "a_span": (1, 3), "b_first": 0, "b_last": 0, "b_tokens": ["Hi"]}]
    (row,) = compare.alignment_display(rows)
    span_cols = [k for k in row if "span" in k]
    assert span_cols and all(UNIT.search(k) for k in span_cols)


def test_compare_chip_tooltips_name_their_unit():
    import tokcore
    from tokapp import tokens

    view = tokens.build_view(tokcore.CharTokenizer(), "Hi")
    html = compare.ringed_html(view, set())
    assert "input span (1, 2) (bytes, 1-based, half-open)" in html


def test_noisy_text_token_table_names_its_units():
    import inspect

    source = inspect.getsource(lexnorm_view)
    for label in re.findall(r'"([a-z ]*span[^"]*)"', source):
        assert UNIT.search(label), label
