"""Pages catch the errors bad input causes (``st_common.INPUT_ERRORS``) and nothing wider: a bug keeps its
traceback rather than being shown as the user's mistake."""

from __future__ import annotations

import pytest
from app_page_helpers import run_page

import tokcore
from tokapp import st_common
from tokapp.samples import SessionTokenizer

BUG = "a bug in the code, not a mistake of the user"


class _Buggy(tokcore.CharTokenizer):
    def encode_result(self, text, **options):
        raise RuntimeError(BUG)


def test_input_errors_are_the_engines_documented_ones():
    assert issubclass(tokcore.TokcoreError, st_common.INPUT_ERRORS)
    assert issubclass(tokcore.WrongTypeError, st_common.INPUT_ERRORS)
    assert issubclass(UnicodeDecodeError, st_common.INPUT_ERRORS) and issubclass(FileNotFoundError, st_common.INPUT_ERRORS)
    assert not issubclass(RuntimeError, st_common.INPUT_ERRORS)


@pytest.mark.parametrize("page, picker", [("pages/1_Playground.py", "pg_tok"), ("pages/2_Offsets_inspector.py", "oi_tok"),
                                          ("pages/8_Pipeline_stages.py", "ps_tok"), ("pages/10_Noisy_text.py", "ln_tok")])
def test_a_bug_keeps_its_traceback(page, picker):
    buggy = SessionTokenizer("session:test-buggy", "Buggy", _Buggy())
    at = run_page(page, tokapp_session_tokenizers={buggy.key: buggy})
    at.selectbox(key=picker).set_value(buggy.key).run()
    assert [e.value for e in at.exception] == [BUG]
    assert not any(BUG in e.value for e in at.error)
