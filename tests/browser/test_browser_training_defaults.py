"""Issue 21: each training page on each built-in corpus at its defaults, in Chromium: a step can be taken
and the chart follows it (no "No step to show"); one screenshot per page and corpus.

Each page opens on its corpus by link (one page load and one script run each): choosing the corpus
in the picker, and the size resetting to the new corpus's default, are tested on the BPE page in
``test_browser_training_links.py`` and on every page by AppTest (``tests/app/test_teaching_training.py``)."""

from __future__ import annotations

from urllib.parse import quote_plus

import pytest
from playwright.sync_api import expect

from browser.browser_helpers import click_until, exception_boxes, screenshot
from browser.test_browser_training import open_page
from tokapp.training import CORPUS_LABELS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PAGES = {"train_bpe": ("tb", "Merge 1:"), "train_wordpiece": ("tw", "Merge 1:"), "train_unigram": ("tu", "Round 1:")}
CORPORA = ("classic", "english", "multilingual", "code")


@pytest.mark.parametrize("path", list(PAGES))
@pytest.mark.parametrize("corpus", CORPORA)
def test_training_page_animates_on_every_corpus(page, app_url, path, corpus):
    prefix, first = PAGES[path]
    query = f"?{prefix}_step=0" + (f"&{prefix}_corpus={quote_plus(CORPUS_LABELS[corpus])}" if corpus != "classic" else "")
    open_page(page, app_url, path, query)
    expect(page.get_by_role("combobox", name="Corpus", exact=True)).to_have_value(CORPUS_LABELS[corpus])
    assert page.get_by_text("No step to show").count() == 0
    click_until(page, "Next ▶", page.locator("h3", has_text=first))
    page.locator(".js-plotly-plot").first.wait_for()
    assert page.locator(".js-plotly-plot .updatemenu-container").count() == 0  # no second play control
    assert exception_boxes(page) == 0
    screenshot(page, f"{path.replace('_', '-')}-{corpus}-defaults")
