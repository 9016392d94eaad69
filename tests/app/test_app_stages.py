"""Pipeline stages: every stage's rows and spans, the alignment back to the raw input, the stage list's
extension point, and the page under AppTest. The stage-by-stage tokens must equal the pipeline's."""

from __future__ import annotations

import pytest
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

import tokcore
from tokapp import samples, stages
from tokapp.markdown import md_text

TEXTS = ["Héllo, WORLD!  Tokenizers don't agree 🙂", "a\tb\n c", "", "[CLS] <|endoftext|> <UNK> x",
         "new pix coming tmrw 🙂🙂 café"]


@pytest.fixture(scope="module")
def tokenizers():
    return {spec.key: spec.load() for spec in samples.all_specs()}


def test_stage_tokens_equal_the_pipeline_for_every_sample(tokenizers):
    for key, tok in tokenizers.items():
        for text in TEXTS:
            for optional in ((), ("lexnorm",)):
                ctx, results = stages.run_stages(tok, text, optional=optional)
                assert stages.model_matches_pipeline(ctx), (key, text, optional)
                want = tok.encode_result(ctx.text, add_special_tokens=False, return_offsets=True)
                # Model spans are character spans of the tokenization text: they cover what the offsets cover.
                view = want.tokenization_text.encode("utf-8")
                for (_, _, (s, e)), off in zip(ctx.tokens, want.offsets):
                    covered = want.tokenization_text[s:e].encode("utf-8")
                    if off != (0, 0) and off[1] > off[0]:
                        assert view[off[0] - 1:off[1] - 1] in covered, (key, text)


def test_stage_names_rows_and_spans(tokenizers):
    tok = tokenizers["file:english_wordpiece.json"] if "file:english_wordpiece.json" in tokenizers else \
        tokenizers[samples.DEFAULT_KEY]
    ctx, results = stages.run_stages(tok, "Héllo WORLD")
    assert [r.name for r in results] == ["Raw input", "Normalizer", "Pre-tokenizer", "Model", "Post-processor",
                                         "Alignment"]
    raw = results[0]
    assert raw.rows[1] == {"char": 1, "character": "é", "UTF-8": "C3 A9",
                           "UTF-8 span (bytes, 1-based, half-open)": "(2, 4)", "code point": "U+00E9"}
    norm = results[1]
    assert norm.text == tok.normalize("Héllo WORLD")
    pieces = results[2].rows
    assert all(p["raw span (characters, 0-based, half-open)"].startswith("[") for p in pieces)
    post = results[4]
    res = tok.encode_result("Héllo WORLD", return_offsets=True)
    assert [r["offsets (bytes, 1-based, half-open)"] for r in post.rows] == [str(tuple(o)) for o in res.offsets]


def test_lowercasing_normalizer_alignment_runs():
    from tokcore.normalizers.standard import Lowercase

    tok = tokcore.Tokenizer(tokcore.CharTokenizer().model, normalizer=Lowercase())
    ctx, _ = stages.run_stages(tok, "AbC")
    assert stages.alignment_runs(ctx) == [{"tokenization text" + stages.CHARS: "[0, 3)", "text": "abc",
                                           "raw input" + stages.CHARS: "[0, 3)", "raw text": "AbC", "same": False}]


def test_lexical_normalizer_maps_back_to_what_was_typed():
    tok = tokcore.CharTokenizer()
    ctx, results = stages.run_stages(tok, "new pix coming tmrw", optional=("lexnorm",))
    assert [r.name for r in results][:3] == ["Raw input", "Lexical normalizer", "Normalizer"]
    assert results[1].text == "new pictures coming tomorrow"
    runs = stages.alignment_runs(ctx)
    assert {"tokenization text" + stages.CHARS: "[4, 12)", "text": "pictures", "raw input" + stages.CHARS: "[4, 7)",
            "raw text": "pix", "same": False} in runs
    # the model's first token of "pictures" maps back into "pix"
    p_token = next(t for t in ctx.tokens if t[2] == (4, 5))
    assert ctx.raw_span(*p_token[2]) == (4, 7)


def test_stages_can_be_added_before_or_after_others():
    saved = list(stages.STAGES)
    try:
        extra = stages.Stage("count", "Count", lambda ctx: stages.StageResult("Count", "", None, [{"n": len(ctx.raw)}]))
        stages.register_stage(extra, before="normalizer")
        _, results = stages.run_stages(tokcore.CharTokenizer(), "abc")
        assert [r.name for r in results][:3] == ["Raw input", "Count", "Normalizer"] and results[1].rows == [{"n": 3}]
        stages.register_stage(extra, after="alignment")
        assert [s.key for s in stages.STAGES][-1] == "count" and sum(s.key == "count" for s in stages.STAGES) == 1
    finally:
        stages.STAGES[:] = saved


def test_pipeline_page_under_apptest():
    at = AppTest.from_file(str(ROOT / "pages" / "8_Pipeline_stages.py"), default_timeout=60).run()
    assert not at.exception
    assert [s.value for s in at.subheader] == ["1. Raw input", "2. Normalizer", "3. Pre-tokenizer", "4. Model",
                                               "5. Post-processor", "6. Alignment"]
    at.toggle(key="ps_lexnorm").set_value(True).run()
    assert [s.value for s in at.subheader][1] == "2. Lexical normalizer"
    at.text_area(key="ps_text").input("<b>x</b>").run()
    for block in at.html:
        assert "<b>x" not in block.value
    for key in at.selectbox(key="ps_tok").options:
        at.selectbox(key="ps_tok").set_value(key).run()
        assert not at.exception and not at.error, key


def test_a_link_to_an_unknown_tokenizer_says_which_and_what_is_shown_instead():
    page = str(ROOT / "pages" / "8_Pipeline_stages.py")
    at = AppTest.from_file(page, default_timeout=60)
    at.query_params["ps_tok"] = "file:gone_tokenizer.json"
    at.run()
    assert not at.exception and not at.error
    fallback = next(s for s in samples.builtin_specs() if s.key == samples.DEFAULT_KEY)
    assert at.selectbox(key="ps_tok").value == fallback.key
    [warning] = at.warning
    assert f"({md_text('file:gone_tokenizer.json')})" in warning.value and f"“{fallback.label}” instead" in warning.value
    at.text_area(key="ps_text").input("another text").run()  # still true, still said
    assert len(at.warning) == 1
    at.selectbox(key="ps_tok").set_value("file:english_wordpiece.json").run()  # the person chose: no more
    assert not at.warning
    at = AppTest.from_file(page, default_timeout=60)
    at.query_params["ps_tok"] = "file:english_wordpiece.json"
    at.run()
    assert at.selectbox(key="ps_tok").value == "file:english_wordpiece.json" and not at.warning


def test_one_input_character_written_as_many_is_one_run():
    ctx, _ = stages.run_stages(tokcore.CharTokenizer(), "Héllo 🙂")
    assert [(r["text"], r["raw text"]) for r in stages.alignment_runs(ctx)] == [
        ("H", "H"), ("<UNK>", "é"), ("llo·", "llo·"), ("<UNK>", "🙂")]


def _padded_and_truncated():
    """A tokenizer that pads every text to 16 tokens and cuts it at 16, as MiniLM's tokenizer.json does at 128."""
    tok = tokcore.load(ROOT / "sample_vocabs" / "english_wordpiece.json")
    tok.truncation = {"direction": "Right", "max_length": 16, "strategy": "LongestFirst", "stride": 0}
    tok.padding = {"strategy": {"Fixed": 16}, "direction": "Right", "pad_to_multiple_of": None, "pad_id": 0,
                   "pad_type_id": 0, "pad_token": "[PAD]"}
    return tok


def _post_note(results) -> str:
    return next(r for r in results if r.name == "Post-processor").note


def test_padding_or_truncation_is_no_disagreement_between_stages_and_pipeline():
    tok = _padded_and_truncated()
    ctx, results = stages.run_stages(tok, "Hello world")  # no pads asked: the pipeline's own pads are no mismatch
    assert stages.model_matches_pipeline(ctx) and _post_note(results) == ""
    text = "the cat sat on the mat " * 20
    ctx, results = stages.run_stages(tok, text)
    assert len(next(r for r in results if r.name == "Post-processor").rows) > 16 and _post_note(results) == ""
    ctx, results = stages.run_stages(tok, text, truncation=True, padding=True)
    post = next(r for r in results if r.name == "Post-processor")
    assert len(post.rows) == 16 and "truncation keeps 16 tokens" in post.note and "differ" not in post.note


def test_cut_tables_say_how_many_rows_they_leave_out():
    at = AppTest.from_file(str(ROOT / "pages" / "8_Pipeline_stages.py"), default_timeout=60)
    at.run()
    text = "ab " * 1000  # 3,000 characters: over the 2,000 rows a table holds
    at.text_area(key="ps_text").set_value(text).run()
    labels = [e.label for e in at.expander]
    assert f"first {stages.MAX_ROWS:,} of 3,000 rows" in labels and not at.exception
    at.text_area(key="ps_text").set_value("ab").run()
    assert "2 rows" in [e.label for e in at.expander]
