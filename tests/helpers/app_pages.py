"""Helpers for the AppTest tests of single pages: open a page (optionally from a link), a refusing tokenizer."""

from __future__ import annotations

from shared_data import ROOT
from streamlit.testing.v1 import AppTest

import tokcore
from tokapp.samples import SessionTokenizer

PAGES = ROOT / "pages"
REFUSAL = "this tokenizer refuses the text; pick another one"
REFUSING_KEY = "session:test-refusing"


def open_page(name: str, *, session: dict | None = None, state: dict | None = None, **params) -> AppTest:
    """Run ``pages/<name>`` once, with ``params`` as the URL's query, ``session`` tokenizers and ``state`` preset in
    the session state; no exception."""
    at = AppTest.from_file(str(PAGES / name), default_timeout=60)
    for key, value in (state or {}).items():
        at.session_state[key] = value
    for key, value in params.items():
        at.query_params[key] = value
    if session:
        at.session_state["tokapp_session_tokenizers"] = {
            key: SessionTokenizer(key, label, tokenizer) for key, (label, tokenizer) in session.items()
        }
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


class RefusingTokenizer(tokcore.CharTokenizer):
    """Raises the engine's own error type on every encode, as a broken upload would."""

    def encode_result(self, text, **options):
        raise tokcore.ConfigurationError(REFUSAL)


def with_refusing_tokenizer(name: str) -> AppTest:
    return open_page(name, session={REFUSING_KEY: ("Refusing", RefusingTokenizer())})
