"""The Code, Noisy text and Beyond text pages in a real Chromium.

Code shows syntax-coloured tokens; typing "new pix coming tmrw" on Noisy text shows "pictures"
and "tomorrow"; Beyond text puts phonemes under a word and draws the MIDI piano roll.
"""

from __future__ import annotations

import pytest

from browser.browser_helpers import exception_boxes, open_link, screenshot, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def open_page(page, app_url: str, path: str) -> None:
    open_link(page, f"{app_url}/{path}")


def wait_for_output(page, expected: str, timeout: float = 30_000) -> None:
    """Wait until the Noisy text page shows ``expected`` as the normalized text."""
    page.wait_for_function(
        "want => { const o = document.querySelector('.ln-text[data-side=\"output\"]');"
        " return o && o.textContent === want; }",
        arg=expected,
        timeout=timeout,
    )


def type_noisy(page, text: str) -> None:
    box = page.get_by_role("textbox", name="Noisy text")
    box.fill(text)
    box.press("Control+Enter")


def background(locator) -> str:
    return locator.evaluate("e => getComputedStyle(e).backgroundColor")


def test_code_page_shows_syntax_coloured_tokens(page, app_url):
    open_page(page, app_url, "code")
    page.get_by_role("heading", name="Code", exact=True).wait_for()
    keyword = page.locator('.ck-code [data-type="keyword"]').first
    keyword.wait_for()
    assert keyword.inner_text() == "def"  # the Python sample opens with a function
    assert background(keyword) == "rgb(208, 191, 255)"
    identifier = page.locator('.ck-code [data-type="identifier"]').first
    assert background(identifier) == "rgb(165, 216, 255)"
    assert background(page.locator('.ck-code [data-type="string"]').first) == "rgb(178, 242, 187)"
    # The syntax-aware and the plain subwords are drawn side by side.
    assert page.locator(".ck-strip .ck-chip").count() > 20
    assert page.locator(".tk-strip .tk-tok").count() > 20
    page.get_by_text("Identifiers, split into words").wait_for()
    assert exception_boxes(page) == 0
    wait_for_app(page)
    screenshot(page, "code-python")


def test_code_page_switches_language(page, app_url):
    open_page(page, app_url, "code")
    page.locator('.ck-code [data-type="keyword"]').first.wait_for()
    page.get_by_role("combobox", name="Language").click()
    page.get_by_role("option", name="Rust").click()
    page.wait_for_function(
        "() => { const k = document.querySelector('.ck-code [data-type=\"keyword\"]');"
        " return k && k.textContent === 'fn'; }"
    )
    assert exception_boxes(page) == 0
    wait_for_app(page)
    screenshot(page, "code-rust")


def test_noisy_text_page_normalizes_typed_text(page, app_url):
    open_page(page, app_url, "noisy_text")
    page.get_by_role("heading", name="Noisy text").wait_for()
    type_noisy(page, "new pix coming tmrw")
    wait_for_output(page, "new pictures coming tomorrow", timeout=60_000)
    # The normalized text is drawn early in the run; the grid below it still holds the previous
    # text's rows until the run ends.
    wait_for_app(page)
    output = page.locator('.ln-text[data-side="output"]')
    assert output.locator("mark").all_inner_texts() == ["pictures", "tomorrow"]
    assert page.locator('.ln-text[data-side="input"] mark').all_inner_texts() == ["pix", "tmrw"]
    changed = page.locator(".ln-grid .ln-changed")
    assert changed.count() == 2
    assert "→ pictures" in changed.first.inner_text()
    assert changed.first.locator(".ln-chip").count() >= 1, "the tokens of 'pictures' sit under 'pix'"
    page.get_by_text("obeys the offsets contract").wait_for()
    assert exception_boxes(page) == 0
    wait_for_app(page)
    screenshot(page, "noisy-text")


def test_beyond_text_page_shows_phonemes_and_the_piano_roll(page, app_url):
    open_page(page, app_url, "beyond_text")
    page.get_by_role("heading", name="Beyond text").wait_for()
    word = page.locator('.bt-word[data-word="quick"]')
    word.wait_for(timeout=60_000)
    assert word.locator(".bt-ph").all_inner_texts() == ["K", "W", "IH1", "K"]
    assert page.locator('.bt-word.bt-fallback[data-word="zorble"]').count() == 1
    assert page.locator(".bt-boundary").count() >= 1
    wait_for_app(page)
    screenshot(page, "beyond-phonemes")
    page.get_by_role("tab", name="Music (MIDI)").click()
    roll = page.locator(".js-plotly-plot").first
    roll.wait_for()
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .bars path').length > 10")
    assert page.locator(".bt-events .bt-merged").count() > 0, "some events are merged by BPE"
    page.get_by_text("keeps all 192 notes").wait_for()
    assert exception_boxes(page) == 0
    wait_for_app(page)
    screenshot(page, "beyond-music")


def test_noisy_text_page_applies_an_uploaded_lexicon(page, app_url):
    open_page(page, app_url, "noisy_text")
    type_noisy(page, "new pix coming tmrw")
    wait_for_output(page, "new pictures coming tomorrow", timeout=60_000)
    page.locator('[data-testid="stMain"] input[type="file"]').set_input_files(  # the sidebar takes tokenizer files
        files=[{"name": "lexicon.csv", "mimeType": "text/csv", "buffer": b"noisy,canonical\npix,photos\n"}]
    )
    page.get_by_text("Loaded 1 entry from lexicon.csv").wait_for()
    wait_for_output(page, "new photos coming tomorrow")
    assert exception_boxes(page) == 0
    wait_for_app(page)
    screenshot(page, "noisy-text-uploaded-lexicon")


def test_beyond_text_upload_a_broken_then_a_real_midi(page, app_url):
    from tokapp.beyond_view import midi_samples

    open_page(page, app_url, "beyond_text")
    page.get_by_role("tab", name="Music (MIDI)").click()
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
    page.get_by_text("Upload your own").click()
    page.get_by_text("Upload a .mid file, or pick one of the samples.").wait_for()
    upload = page.locator('input[type="file"]')
    upload.set_input_files(files=[{"name": "broken.mid", "mimeType": "audio/midi", "buffer": b"not a MIDI file"}])
    error = page.locator('[data-testid="stAlertContentError"]', has_text="broken.mid: not a readable MIDI file")
    error.wait_for()
    assert exception_boxes(page) == 0
    wait_for_app(page)
    screenshot(page, "beyond-music-broken-upload")
    waltz = midi_samples()["waltz 3 4"].read_bytes()
    upload.set_input_files(files=[{"name": "my_waltz.mid", "mimeType": "audio/midi", "buffer": waltz}])
    page.get_by_text("keeps all 32 notes").wait_for()
    page.locator(".js-plotly-plot .gtitle", has_text="my_waltz.mid").wait_for()
    assert exception_boxes(page) == 0
