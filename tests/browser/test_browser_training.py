"""The training pages in a real Chromium: BPE on the classic corpus stepped to merge 3 shows `hug`,
Unigram pruning draws its loss chart, classroom mode hides the next merge and then reveals it,
and the pipeline page draws every stage."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.browser_helpers import click_until, exception_boxes, open_link, screenshot, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def open_page(page, app_url, path: str, query: str = ""):
    open_link(page, f"{app_url}/{path}{query}")


def heading_text(page) -> str:
    return page.locator("h3").filter(has_text="Merge").first.inner_text()


def test_bpe_classic_corpus_step_to_merge_3_shows_hug(page, app_url):
    open_page(page, app_url, "train_bpe", "?tb_step=0")
    page.get_by_role("heading", name="Train BPE").wait_for()
    page.get_by_text("Before any merge").wait_for()
    for want in ("Merge 1", "Merge 2", "Merge 3"):
        click_until(page, "Next ▶", page.locator("h3", has_text=want))
    title = heading_text(page)
    assert "Merge 3" in title and "hug" in title, title
    # The held-out sentence is tokenized with the vocabulary as of merge 3. The title is drawn first:
    # the blocks below it may still show step 2 for a moment (CI once read 'h', 'ug' there), so wait
    # for the chip, which step 2 never shows; the corpus words are drawn before it, in the same run.
    chips = page.locator(".tk-strip .tk-tok .tk-txt")
    expect(chips.filter(has_text=re.compile(r"^hug$")).first).to_be_visible(timeout=20_000)
    # The new token is highlighted in the corpus words (hug x10 and hugs x5 both hold it).
    new = page.locator(".tr-words .tr-new")
    assert new.count() >= 2
    assert {new.nth(i).inner_text() for i in range(new.count())} == {"hug"}
    page.locator(".js-plotly-plot").first.wait_for()
    assert "tb_step=3" in page.url
    assert exception_boxes(page) == 0
    screenshot(page, "train-bpe-merge-3")


def test_classroom_mode_hides_then_reveals(page, app_url):
    open_page(page, app_url, "train_bpe", "?tb_step=0")
    page.get_by_text("Classroom mode").click()
    page.get_by_text("Merge 1 is hidden").wait_for()
    assert page.get_by_text("u + g → ug").count() == 0
    screenshot(page, "train-bpe-classroom-hidden")
    page.get_by_label("Your guess").fill("u g")
    page.get_by_role("button", name="Check my guess").click()
    page.get_by_text("Right! Merge 1: u + g → ug").wait_for()
    assert page.get_by_text("score 1 / 1").count() == 1
    screenshot(page, "train-bpe-classroom-revealed")
    page.get_by_role("button", name="Apply it and hide merge 2").click()
    page.get_by_text("Merge 2 is hidden").wait_for()
    page.get_by_role("button", name="Reveal").click()
    page.get_by_text("Revealed: merge 2").wait_for()
    assert exception_boxes(page) == 0


def test_unigram_pruning_draws_the_loss_chart(page, app_url):
    open_page(page, app_url, "train_unigram")
    page.get_by_role("heading", name="Train Unigram").wait_for()
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(has_text="Corpus").click()
    page.get_by_role("option", name="English sample sentences").click()
    page.get_by_text("Round 0: the seed vocabulary after EM").wait_for(timeout=60_000)  # the loop starts at the seed
    wait_for_app(page)
    click_until(page, "Next ▶", page.get_by_text("Round 1:"))
    plots = page.locator(".js-plotly-plot")
    plots.first.wait_for()
    page.locator(".js-plotly-plot .gtitle", has_text="Pruning rounds").first.wait_for()
    page.locator(".js-plotly-plot .gtitle", has_text="Loss per EM iteration").first.wait_for()
    # Loss and size get one point per round up to the current one (seed and round 1), then up to round 3.
    # Plotly redraws in place and for a moment holds the old traces beside the new ones, so poll
    # for the count rather than reading it once.
    points = page.locator(".js-plotly-plot").filter(has_text="Pruning rounds").locator(".scatterlayer .point")
    expect(points).to_have_count(4)
    for want in ("Round 2:", "Round 3:"):
        click_until(page, "Next ▶", page.get_by_text(want))
    expect(points).to_have_count(8, timeout=30_000)
    assert exception_boxes(page) == 0
    screenshot(page, "train-unigram-english")


def test_pipeline_stages_page_shows_every_stage(page, app_url):
    open_page(page, app_url, "pipeline_stages")
    page.get_by_role("heading", name="Pipeline stages").wait_for()
    for name in ("Raw input", "Normalizer", "Pre-tokenizer", "Model", "Post-processor"):
        page.get_by_role("heading", name=name).first.wait_for()
    assert exception_boxes(page) == 0
    screenshot(page, "pipeline-stages")
