"""The Chat page in a real Chromium: two built-in chat samples side by side on the default conversation, the
template's tokens drawn hatched apart from the user's, per-message counts, and a message typed in the editor."""

from __future__ import annotations

import pytest

from browser.browser_helpers import SCRIPT_RUN_TIMEOUT_MS, exception_boxes, screenshot, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def open_chat(page, app_url: str) -> None:
    page.goto(f"{app_url}/chat")
    wait_for_app(page)
    page.get_by_role("heading", name="Chat", exact=True).wait_for()
    # Both samples: the columns are drawn one after the other, and the status widget that
    # wait_for_app watches may not have appeared yet when the page first shows.
    page.locator(".ch-prompt").nth(1).wait_for(timeout=SCRIPT_RUN_TIMEOUT_MS)


def test_two_chat_samples_side_by_side_with_template_tokens_marked_and_counts(app_url, page):
    open_chat(page, app_url)
    prompts = page.locator(".ch-prompt")
    assert prompts.count() == 2, "the defaults put two chat samples side by side"
    for i in range(2):
        strip = prompts.nth(i)
        template = strip.locator('[data-owner="template"]')
        user = strip.locator('[data-owner="m1"]')
        assert template.count() > 0 and user.count() > 0
        # Template tokens are hatched (a gradient background); the user's are plain colours.
        assert "repeating-linear-gradient" in template.first.evaluate("e => getComputedStyle(e).backgroundImage")
        assert user.first.evaluate("e => getComputedStyle(e).backgroundImage") == "none"
    def drawn(i: int) -> str:
        return "".join(prompts.nth(i).locator(".tk-txt").all_inner_texts())

    assert drawn(0).startswith("<|im_start|>system⏎") and drawn(1).startswith("<s>[INST]·<<SYS>>⏎")
    page.get_by_text("added by the template", exact=False).first.wait_for()  # the legend
    table = page.locator('[data-testid="stDataFrame"]')
    table.wait_for()
    page.get_by_text("Tokens per message").wait_for()
    page.get_by_text("Totals:", exact=False).wait_for()
    metrics = page.locator('[data-testid="stMetricValue"]')
    metrics.nth(3).wait_for()
    assert metrics.count() == 4 and all(int(metrics.nth(i).inner_text()) > 0 for i in range(4))
    assert page.locator('[data-testid="stAlert"]').filter(has_text="would add a second").count() == 1  # Llama's BOS
    assert exception_boxes(page) == 0
    screenshot(page, "chat-two-samples")


def test_a_typed_message_lands_in_every_prompt_as_user_text(app_url, page):
    open_chat(page, app_url)
    box = page.get_by_role("textbox", name="Message 2", exact=True)
    box.fill("Spell 'tokenizer', please.")
    box.press("Control+Enter")
    wait_for_app(page)
    # The host is shared: wait for the rerun's strips themselves rather than a fixed time.
    page.wait_for_function(
        "() => [...document.querySelectorAll('.ch-prompt')].length === 2 && [...document.querySelectorAll('.ch-prompt')]"
        ".every(p => [...p.querySelectorAll('[data-owner=\"m1\"] .tk-txt')].map(e => e.textContent).join('')"
        ".includes('Spell'))", timeout=SCRIPT_RUN_TIMEOUT_MS)
    for i in range(2):
        user_text = "".join(page.locator(".ch-prompt").nth(i).locator('[data-owner="m1"] .tk-txt').all_inner_texts())
        assert "Spell" in user_text and "please" in user_text, user_text
    assert exception_boxes(page) == 0
