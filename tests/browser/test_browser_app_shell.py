"""The app shell in Chromium: a deep link opens its page, and every discovered page opens from the
sidebar with no exception box."""

from __future__ import annotations

import pytest

from browser.browser_helpers import exception_boxes, open_link, screenshot, wait_for_app
from tokapp.pages import discover_pages

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_a_deep_link_opens_its_page_without_a_not_found_dialog(page, app_url):
    target = discover_pages()[-1]
    page.goto(f"{app_url}/{target.url_path}")
    wait_for_app(page)
    assert page.get_by_text("Page not found").count() == 0
    assert exception_boxes(page) == 0


def test_every_page_opens_from_the_sidebar_without_an_exception_box(page, app_url):
    """One visit, as a person browses it: every discovered page in turn from the sidebar's links, each
    showing its title, no exception box and no "Page not found", and listed once in the navigation.
    (Each page's own link is opened by the page's own browser tests; one load of the app here
    instead of one per page saves Chromium a start of the whole frontend per page.)"""
    open_link(page, f"{app_url}/")
    nav = page.locator('[data-testid="stSidebarNav"]')
    pages = discover_pages()
    for info in pages:
        if len(pages) > 1:
            link = nav.get_by_text(info.title, exact=True)
            assert link.count() == 1, info.title
            link.click()
        heading = page.get_by_role("heading", name=info.title, level=1)
        heading.wait_for()
        wait_for_app(page)
        assert exception_boxes(page) == 0, info.title
        assert page.get_by_text("Page not found").count() == 0, info.title
        path = page.evaluate("() => location.pathname")
        assert path.rstrip("/").endswith("" if info.default else f"/{info.url_path}"), (info.title, path)
        screenshot(page, f"page-{info.url_path}")
