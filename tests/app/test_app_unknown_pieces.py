"""sentencepiece models give an unknown piece its own text as the token (id 0, "ሰላም"), as the library does: the
pages count and draw it as unknown by its id, and Compare's unknown rate agrees with the Playground's count."""

from __future__ import annotations

import re

import pytest
from app_pages import open_page
from shared_data import require_shared

import tokcore
from tokapp import compare, html, samples, tokens

TEXT = "ሰላም Zürich ☃"


@pytest.fixture(scope="module")
def spm():
    return tokcore.load(require_shared("reference", "sentencepiece", "botchan_en_unigram_1000.model"))


def test_unknown_pieces_are_found_by_id(spm):
    view = tokens.build_view(spm, TEXT)
    unknown = [r.token for r in view.rows if r.unknown]
    assert unknown == ["ሰላም", "Zü", "☃"] and view.counts().unknown == 3
    assert all(tokens.row_kind(r) == "unknown" for r in view.rows if r.unknown)
    row = compare.figure_rows([("spm", view, spm.unk_token)])[0]
    spanning = sum(1 for r in view.rows if tokcore.has_nonempty_span(r.original))
    assert row["unknown rate"] == round(3 / spanning, 4)


def test_the_playground_reports_them(spm):
    at = open_page("1_Playground.py", session={"session:test-spm": ("spm", spm)})
    at.selectbox(key="pg_tok").set_value("session:test-spm").run()
    at.text_area(key="pg_text").set_value(TEXT).run()
    assert {m.label: m.value for m in at.metric}["Special / unknown"] == "0 / 3"


def _unknown_titles(view) -> list[str]:
    return [t for t in re.findall(r'title="([^"]*)"', html.tokens_html(view)) if "unknown" in t]


def test_tooltips_say_who_gave_up(spm):
    # WordPiece's model, not its normalizer, gives [UNK] for 🙂; the ASCII tokenizer's normalizer writes <UNK> for é.
    wordpiece = tokcore.load(require_shared("reference", "hf", "minilm", "tokenizer.json"))
    (title,) = _unknown_titles(tokens.build_view(wordpiece, "Café 🙂"))
    assert "the model has no token for it and gave [UNK]" in title and "normalizer" not in title
    (title,) = _unknown_titles(tokens.build_view(samples.ascii_char_tokenizer(), "é"))
    assert "the normalizer wrote &lt;UNK&gt;" in title
    (title,) = _unknown_titles(tokens.build_view(spm, "ሰላም"))
    assert "unknown id" in title
