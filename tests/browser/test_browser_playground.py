"""The Playground in a real Chromium: typed text comes back as highlighted tokens, no exception box."""

from __future__ import annotations

import pytest

import tokcore

from browser.browser_helpers import exception_boxes, screenshot, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_app_opens_on_the_playground(page, app_url):
    page.goto(app_url)
    wait_for_app(page)
    page.get_by_role("heading", name="Playground").wait_for()
    page.locator(".tk-strip .tk-tok").first.wait_for()
    assert exception_boxes(page) == 0
    screenshot(page, "playground-default")


def test_typed_text_is_highlighted_as_tokens(page, app_url):
    page.goto(app_url)
    wait_for_app(page)
    box = page.get_by_role("textbox", name="Text", exact=True)
    box.fill("Hi <script>x</script>\tyo")
    box.press("Control+Enter")
    typed = "Hi <script>x</script>\tyo"
    # One chip per character with the ASCII tokenizer; wait for the rerun to draw them.
    page.wait_for_function(
        "n => { const s = document.querySelector('.tk-strip');"
        " return s && s.querySelectorAll('.tk-tok').length === n; }",
        arg=len(typed),
    )
    strip = page.locator(".tk-strip").first
    chips = strip.locator(".tk-tok")
    assert "".join(chips.nth(i).locator(".tk-txt").inner_text() for i in range(3, 11)) == "<script>"
    assert chips.nth(0).locator(".tk-txt").inner_text() == "H"
    assert chips.nth(2).locator(".tk-txt").inner_text() == "·"
    assert chips.nth(0).locator(".tk-id").inner_text() == str(tokcore.CharTokenizer().token_to_id("H"))
    colours = {chips.nth(i).evaluate("e => getComputedStyle(e).backgroundColor") for i in range(2)}
    assert len(colours) == 2, "neighbouring tokens must have different colours"
    assert page.locator("script:has-text('x')").count() == 0, "user text must never become markup"
    assert exception_boxes(page) == 0
    screenshot(page, "playground-typed")
