"""A training page's run stopped halfway (the person changed something again while it ran) must not
leave the settings of the corpus before: the next run resets them for the new corpus.

The stop is the real one: ``RerunException`` raised where Streamlit raises it (as the size widget is
sent), carrying what the browser sends with its next request (the new corpus, the old size, since the
stopped run's reset never reached it). Streamlit then reruns the page with those widget values.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.testing.v1 import AppTest

from tokapp import training as T
from tokapp.training.defaults import default_vocab, unigram_defaults_for

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"bpe": ("5_Train_BPE.py", "tb"), "wordpiece": ("6_Train_WordPiece.py", "tw"), "unigram": ("7_Train_Unigram.py", "tu")}


def _stop_once_at(monkeypatch, key: str, states) -> list:
    """Make the first ``st.number_input`` with ``key`` stop the run for a rerun with ``states``."""
    real, stops = st.number_input, []

    def number_input(*args, **kwargs):
        if kwargs.get("key") == key and not stops:
            stops.append(key)
            ctx = get_script_run_ctx()
            raise RerunException(RerunData(query_string=ctx.query_string, widget_states=states,
                                           page_script_hash=ctx.page_script_hash))
        return real(*args, **kwargs)

    monkeypatch.setattr(st, "number_input", number_input)
    return stops


@pytest.mark.parametrize("family", list(PAGES))
def test_a_run_stopped_at_the_size_still_gets_the_new_corpus_size(monkeypatch, family):
    name, prefix = PAGES[family]
    at = AppTest.from_file(str(ROOT / "pages" / name), default_timeout=120)
    at.run()
    old = at.number_input(key=f"{prefix}_vocab").value
    if family == "unigram":
        want = unigram_defaults_for(T.builtin_corpus("english")).vocab_size
    else:
        want = default_vocab(family, T.builtin_corpus("english"))
    assert old != want  # else the test could not tell a reset from a stale size
    at.selectbox(key=f"{prefix}_corpus").set_value("english")
    # What the browser sends with its next request: the new corpus, and the size it still shows.
    stops = _stop_once_at(monkeypatch, f"{prefix}_vocab", at._tree.get_widget_states())
    at.run()
    assert stops, "the run was not stopped at the size box"
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=f"{prefix}_corpus").value == "english"
    assert at.number_input(key=f"{prefix}_vocab").value == want
