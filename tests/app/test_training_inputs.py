"""Training pages fed what users really bring: files saved by Windows editors, UTF-16 or binary files, an empty
paste box, a many-script upload on the Unigram page, a vocabulary smaller than the corpus alphabet."""

from __future__ import annotations

import pytest
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

from tokapp import training as T


def page(name: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / name), default_timeout=60)
    at.run()
    return at


def upload(at: AppTest, prefix: str, name: str, data: bytes) -> AppTest:
    at.selectbox(key=f"{prefix}_corpus").set_value("upload").run()
    at.file_uploader(key=f"{prefix}_upload").set_value((name, data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_byte_order_mark_is_not_a_corpus_character():
    corpus = T.upload_corpus("notepad.txt", "\ufeffhug pug\nhug".encode("utf-8"))
    assert corpus.lines == ("hug pug", "hug")
    assert T.word_counts(corpus, "whitespace") == {"hug": 2, "pug": 1}


@pytest.mark.parametrize("data", ["hug pug".encode("utf-16-le"), b"PK\x03\x04\x00\x00abc"])
def test_utf16_and_binary_files_are_refused_with_what_to_do(data):
    with pytest.raises(ValueError, match="NUL characters.*save it as UTF-8"):
        T.upload_corpus("export.txt", data)


@pytest.mark.parametrize("text", ["", "  \n\t\n"])
def test_an_empty_corpus_is_an_error_on_every_page(text):
    with pytest.raises(ValueError, match="no text"):
        T.text_corpus(text)
    for name, prefix in (("5_Train_BPE.py", "tb"), ("7_Train_Unigram.py", "tu")):
        at = page(name)
        at.selectbox(key=f"{prefix}_corpus").set_value("paste").run()
        at.text_area(key=f"{prefix}_text").input(text).run()
        assert not at.exception
        assert any("no text" in e.value and "sentences" in e.value for e in at.error), name
        at = upload(page(name), prefix, "empty.txt", text.encode())
        assert any("no text" in e.value for e in at.error), name
