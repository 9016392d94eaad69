"""Two people at once: two browser contexts train and save different vocabularies on the same server,
and neither ever sees the other's (per-session state is isolated)."""

from __future__ import annotations

import pytest

from browser.browser_helpers import exception_boxes, open_link, screenshot, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _open(context, app_url):
    page = context.new_page()
    page.set_default_timeout(120_000)
    open_link(page, f"{app_url}/train_bpe?tb_step=0")
    page.get_by_role("heading", name="Train BPE").wait_for()
    return page


def _choose_corpus(page, option: str) -> None:
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(has_text="Corpus").click()
    page.get_by_role("option", name=option).click()
    wait_for_app(page)


def _save(page, name: str) -> None:
    page.get_by_text("Save or export this vocabulary").click()
    box = page.get_by_label("Name")
    box.fill(name)
    box.press("Enter")
    wait_for_app(page)
    page.get_by_role("button", name="Save for this session").click()
    page.get_by_text(f"Saved as “Trained: {name}”").wait_for()


def _offered_tokenizers(page) -> str:
    page.locator('[data-testid="stSidebar"] a', has_text="Playground").first.click()  # keeps the session
    page.get_by_role("heading", name="Playground").wait_for()
    wait_for_app(page)
    picker = page.locator('[data-testid="stSelectbox"]').filter(has_text="Tokenizer").first
    picker.click()
    listing = page.get_by_role("listbox").inner_text()
    page.keyboard.press("Escape")
    return listing


def test_two_sessions_train_at_once_and_stay_apart(browser, app_url):
    ctx_a = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx_b = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        a = _open(ctx_a, app_url)
        b = _open(ctx_b, app_url)
        _choose_corpus(b, "English sample sentences")  # B trains another corpus while A's run is live
        _save(a, "alpha-vocab")
        _save(b, "beta-vocab")
        seen_a = _offered_tokenizers(a)
        seen_b = _offered_tokenizers(b)
        assert "Trained: alpha-vocab" in seen_a and "Trained: beta-vocab" not in seen_a
        assert "Trained: beta-vocab" in seen_b and "Trained: alpha-vocab" not in seen_b
        assert exception_boxes(a) == 0 and exception_boxes(b) == 0
        screenshot(a, "sessions-a-playground")
    finally:
        ctx_a.close()
        ctx_b.close()
