"""The app shell in Chromium: every discovered page opens by its link with no exception box."""

from __future__ import annotations

import pytest

from browser.browser_helpers import exception_boxes, screenshot, wait_for_app
from tokapp.pages import discover_pages

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_a_deep_link_opens_its_page_without_a_not_found_dialog(page, app_url):
    target = discover_pages()[-1]
    page.goto(f"{app_url}/{target.url_path}")
    wait_for_app(page)
    assert page.get_by_text("Page not found").count() == 0
    assert exception_boxes(page) == 0


@pytest.mark.parametrize("info", discover_pages(), ids=lambda p: p.url_path)
def test_every_page_opens_without_an_exception_box(page, app_url, info):
    page.goto(f"{app_url}/{'' if info.default else info.url_path}")
    wait_for_app(page)
    page.locator("h1").first.wait_for()
    assert exception_boxes(page) == 0
    assert page.get_by_text("Page not found").count() == 0
    nav = page.locator('[data-testid="stSidebarNav"]')
    if len(discover_pages()) > 1:
        assert nav.get_by_text(info.title, exact=True).count() == 1
    screenshot(page, f"page-{info.url_path}")
