"""Issue 21, training pages: every page x built-in corpus at its defaults shows a non-empty animation,
Unigram runs several EM + pruning rounds, and the page's step control is the charts' only control."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tokapp import train_figures as F
from tokapp import training as T
from tokapp.training.defaults import base_vocab, default_vocab, unigram_defaults

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"bpe": ("5_Train_BPE.py", "tb"), "wordpiece": ("6_Train_WordPiece.py", "tw"), "unigram": ("7_Train_Unigram.py", "tu")}
CORPORA = list(T.BUILTIN_CORPORA)


def open_on(family: str, corpus: str) -> AppTest:
    name, prefix = PAGES[family]
    at = AppTest.from_file(str(ROOT / "pages" / name), default_timeout=120)
    at.run()
    at.selectbox(key=f"{prefix}_corpus").set_value(corpus).run()
    assert not at.exception, [e.value for e in at.exception]
    return at




@pytest.mark.parametrize("family", list(PAGES))
@pytest.mark.parametrize("corpus", CORPORA)
def test_every_page_and_corpus_animates_at_its_defaults(family, corpus):
    at = open_on(family, corpus)
    _, prefix = PAGES[family]
    assert not at.error, [e.value for e in at.error]
    assert not [c for c in at.caption if "No step to show" in c.value]
    steps = at.slider(key=f"{prefix}_step")
    if family == "unigram":
        assert steps.max >= 3, f"only {steps.max} pruning rounds on {corpus}"
        at.slider(key=f"{prefix}_step").set_value(2).run()
        assert [m.value for m in at.markdown if m.value.startswith("### Round 2:")]
    else:
        assert steps.max >= 5, f"only {steps.max} merges on {corpus}"
        at.slider(key=f"{prefix}_step").set_value(3).run()
        assert [m.value for m in at.markdown if m.value.startswith("### Merge 3:")]
        # the size control starts above the corpus alphabet and says so beside it
        words = T.word_counts(T.builtin_corpus(corpus), "whitespace")
        base = base_vocab(family, words)
        assert at.number_input(key=f"{prefix}_vocab").value > base
        assert [c for c in at.sidebar.caption if f"starts with {base} tokens" in c.value]


def test_merge_defaults_start_above_the_alphabet_for_bytes_too():
    for name in CORPORA:
        corpus = T.builtin_corpus(name)
        assert default_vocab("bpe", corpus, byte_level=True) > 256
        assert default_vocab("wordpiece", corpus) > base_vocab("wordpiece", T.word_counts(corpus, "whitespace"))


def test_bpe_size_resets_to_the_byte_default_and_warns_below_the_alphabet():
    at = open_on("bpe", "english")
    at.radio(key="tb_level").set_value("bytes").run()
    assert at.number_input(key="tb_vocab").value > 256 and at.slider(key="tb_step").max > 0
    at.number_input(key="tb_vocab").set_value(100).run()
    assert any("cannot hold more than the 256 starting tokens" in w.value for w in at.warning)


def test_unigram_defaults_give_several_rounds_with_their_losses():
    for name in CORPORA:
        d = unigram_defaults(name)
        run = T.train(T.builtin_corpus(name), T.Settings("unigram", d.vocab_size, d.pre_tokenizer,
                                                         seed_size=d.seed_size, shrinking_factor=d.shrinking_factor))
        sizes, losses = T.unigram_curve(run)
        assert len(run.steps) >= 3 and len(losses) == len(run.steps) + 1
        assert sizes == sorted(sizes, reverse=True)


def test_charts_have_no_play_control_of_their_own():
    run = T.train(T.builtin_corpus("classic"), T.Settings("bpe", 30, "whitespace"))
    fig = F.candidate_chart(T.candidate_tables(run), 2)
    assert not fig.frames and not fig.layout.sliders and not fig.layout.updatemenus
    assert fig.layout.title.text == "Candidates before merge 3"
    pr = F.pruning_figure([19, 11, 9, 8], [60.0, 70.0, 80.0, 90.0], 2)
    assert not pr.frames and not pr.layout.updatemenus and list(pr.data[0].y) == [60.0, 70.0, 80.0]
    em = F.em_loss_figure([10.0, 9.0, 12.0, 11.0, 14.0, 13.0], 2, current_round=1)
    assert list(em.data[0].y) == [10.0, 9.0, 12.0, 11.0]  # round 1's EM drawn, round 2's greyed


def _titles(at: AppTest) -> list[str]:
    return [json.loads(c.proto.spec)["layout"].get("title", {}).get("text", "") for c in at.get("plotly_chart")]


def test_the_step_control_drives_the_chart():
    at = open_on("bpe", "classic")
    at.slider(key="tb_step").set_value(4).run()
    assert "Candidates before merge 4" in _titles(at)
    at.button(key="tb_next").click().run()
    assert "Candidates before merge 5" in _titles(at)
    for c in at.get("plotly_chart"):
        layout = json.loads(c.proto.spec)["layout"]
        assert not layout.get("updatemenus") and not layout.get("sliders")
