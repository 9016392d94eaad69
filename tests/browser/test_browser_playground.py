"""The Playground in a real Chromium: typed text comes back as highlighted tokens, no exception box."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

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


def test_a_link_reopens_the_playground_with_its_tokenizer_and_text(page, app_url):
    # Template tokens of the toy word-level tokenizer are drawn dashed, with no span.
    page.goto(f"{app_url}/?pg_tok=builtin:toy-word-level&pg_text=the+cat+sat")
    wait_for_app(page)
    strip = page.locator(".tk-strip").first
    strip.locator(".tk-tok").first.wait_for()
    expect(page.get_by_role("textbox", name="Text", exact=True)).to_have_value("the cat sat")
    assert strip.locator(".tk-inserted").count() == 2
    assert strip.locator(".tk-gap").count() == 2  # the spaces belong to no token
    assert exception_boxes(page) == 0
    screenshot(page, "playground-word-level-sentinels")


def test_byte_level_tokens_that_cut_a_character_show_their_bytes(page, app_url):
    page.goto(f"{app_url}/?pg_tok=file:english_bytelevel_bpe.json&pg_text=a%F0%9F%99%82b")
    wait_for_app(page)
    strip = page.locator(".tk-strip").first
    strip.locator(".tk-tok").first.wait_for()
    assert strip.locator(".tk-bytes-hex").count() >= 2  # the emoji's 4 bytes are split over tokens
    page.get_by_text("Byte view per token").click()
    page.locator(".tk-bgrid").first.wait_for()
    assert exception_boxes(page) == 0
    screenshot(page, "playground-byte-level")
