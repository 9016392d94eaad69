"""A page's run stopped halfway (the person changed something again while it ran) must not leave
the settings of the choice before: on the training pages a new corpus's size, on the Code page a new
language's sample, on the Noisy text page a new example. Nor may it undo what the person typed
meanwhile: a size typed after the change stays.

The stop is the real one: ``RerunException`` raised where Streamlit raises it (as the widget is
sent), carrying what the browser sends with its next request (the new choice, the old value, since
the stopped run's reset never reached it). Streamlit then reruns the page with those widget values.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.testing.v1 import AppTest

from tokapp import code_view
from tokapp import training as T
from tokapp.training.defaults import default_vocab, unigram_defaults_for

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"bpe": ("5_Train_BPE.py", "tb"), "wordpiece": ("6_Train_WordPiece.py", "tw"), "unigram": ("7_Train_Unigram.py", "tu")}


def _stop_once_at(monkeypatch, key: str, states, widget: str = "number_input") -> list:
    """Make the first ``widget`` (``st.number_input``, ``st.text_area``, also on a column) with ``key``
    stop the run for a rerun with ``states``."""
    real, stops = getattr(DeltaGenerator, widget), []

    def stopping(self, *args, **kwargs):
        if kwargs.get("key") == key and not stops:
            stops.append(key)
            ctx = get_script_run_ctx()
            raise RerunException(RerunData(query_string=ctx.query_string, widget_states=states,
                                           page_script_hash=ctx.page_script_hash))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, widget, stopping)
    monkeypatch.setattr(st, widget, lambda *args, **kwargs: stopping(st._main, *args, **kwargs))
    return stops


def _english_default(family: str) -> int:
    if family == "unigram":
        return unigram_defaults_for(T.builtin_corpus("english")).vocab_size
    return default_vocab(family, T.builtin_corpus("english"))


@pytest.mark.parametrize("family", list(PAGES))
def test_a_run_stopped_at_the_size_still_gets_the_new_corpus_size(monkeypatch, family):
    name, prefix = PAGES[family]
    at = AppTest.from_file(str(ROOT / "pages" / name), default_timeout=120)
    at.run()
    old, want = at.number_input(key=f"{prefix}_vocab").value, _english_default(family)
    assert old != want  # else the test could not tell a reset from a stale size
    at.selectbox(key=f"{prefix}_corpus").set_value("english")
    # What the browser sends with its next request: the new corpus, and the size it still shows.
    stops = _stop_once_at(monkeypatch, f"{prefix}_vocab", at._tree.get_widget_states())
    at.run()
    assert stops, "the run was not stopped at the size box"
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=f"{prefix}_corpus").value == "english"
    assert at.number_input(key=f"{prefix}_vocab").value == want


@pytest.mark.parametrize("family", list(PAGES))
def test_a_size_typed_while_the_corpus_run_was_stopped_stays(monkeypatch, family):
    """The person picks a corpus and types a size before that run has passed the size box (seen in CI:
    the typed 300 came back as the level's default 320): the next run keeps the typed size."""
    name, prefix = PAGES[family]
    at = AppTest.from_file(str(ROOT / "pages" / name), default_timeout=120)
    at.run()
    old, default = at.number_input(key=f"{prefix}_vocab").value, _english_default(family)
    typed = max(old, default) + 7
    at.selectbox(key=f"{prefix}_corpus").set_value("english")
    # What the browser sends next: the new corpus and the typed size. The stopped run saw the old size.
    at.number_input(key=f"{prefix}_vocab").set_value(typed)
    states = at._tree.get_widget_states()
    at.number_input(key=f"{prefix}_vocab").set_value(old)
    stops = _stop_once_at(monkeypatch, f"{prefix}_vocab", states)
    at.run()
    assert stops, "the run was not stopped at the size box"
    assert not at.exception, [e.value for e in at.exception]
    assert at.number_input(key=f"{prefix}_vocab").value == typed
    at.run()  # and it stays on the runs after
    assert at.number_input(key=f"{prefix}_vocab").value == typed


def test_a_code_run_stopped_at_the_code_box_still_loads_the_new_language_sample(monkeypatch):
    at = AppTest.from_file(str(ROOT / "pages" / "9_Code.py"), default_timeout=120)
    at.run()
    assert at.text_area(key="code_text").value == code_view.SAMPLES["python"]
    at.selectbox(key="code_lang").set_value("go")
    stops = _stop_once_at(monkeypatch, "code_text", at._tree.get_widget_states(), "text_area")
    at.run()
    assert stops, "the run was not stopped at the code box"
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_area(key="code_text").value == code_view.SAMPLES["go"]
    at.text_area(key="code_text").input("package main\n").run()  # edits stay; a new language loads its sample
    assert at.text_area(key="code_text").value == "package main\n"
    at.selectbox(key="code_lang").set_value("rust").run()
    assert at.text_area(key="code_text").value == code_view.SAMPLES["rust"]


def test_a_noisy_text_run_stopped_at_the_text_box_still_loads_the_example(monkeypatch):
    at = AppTest.from_file(str(ROOT / "pages" / "10_Noisy_text.py"), default_timeout=120)
    at.run()
    before = at.text_area(key="ln_text").value
    example = next(e for e in at.selectbox(key="ln_example").options if e != before)
    at.selectbox(key="ln_example").set_value(example)
    stops = _stop_once_at(monkeypatch, "ln_text", at._tree.get_widget_states(), "text_area")
    at.run()
    assert stops, "the run was not stopped at the text box"
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_area(key="ln_text").value == example
