"""Shared by the AppTest files of the Code, Noisy text and Beyond text pages: open a page, read what it drew."""

from __future__ import annotations

from shared_data import ROOT
from streamlit.testing.v1 import AppTest

import tokcore

APP = str(ROOT / "app.py")


def run_page(page: str, *, timeout: float = 120, **state) -> AppTest:
    """Run the app on ``page`` (e.g. ``"pages/9_Code.py"``) with ``state`` preset; fail on any exception."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def html_blocks(at: AppTest, *, styles: bool = False) -> list[str]:
    """Every ``st.html`` body drawn (the ``<style>`` blocks left out unless asked for)."""
    return [h.value for h in at.html if styles or not h.value.startswith("<style>")]


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


class Refusing(tokcore.CharTokenizer):
    """A session tokenizer whose every encoding fails with an engine error."""

    message = "this tokenizer refuses the text; pick another one"

    def encode_result(self, text, **options):
        raise tokcore.ConfigurationError(self.message)
