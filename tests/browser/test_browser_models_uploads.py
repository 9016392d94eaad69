"""What a person sees with real models, their own files and long documents (Chromium, live server).

The server runs offline with caches seeded from the reference data (``conftest._offline_model_caches``):
a preset model loads from the cache and shows its tokens; an uploaded file is selected at once; a
malformed upload shows an error naming the file as uploaded; a 100,000-character document finishes
in the inspector and in Compare (checked for finishing, never timed); ten sessions at once each see only
their own upload and text.
"""

from __future__ import annotations

import json
import re

import pytest
from malformed.cases import valid_tokenizer_json
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from browser.browser_helpers import exception_boxes, open_link, screenshot, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
# 100,000 characters as the browser counts them (UTF-16 units: the text area's cap), emoji and accents included.
LONG = ("The cat sat on the mat, naïve café e\u0301 tokenizers. " * 1900 + "🙂 👩\u200d💻 " * 200)
LONG = LONG.encode("utf-16-le")[: 2 * 100_000].decode("utf-16-le", "ignore")


def _goto(page, url: str, heading: str) -> None:
    open_link(page, url)
    page.get_by_role("heading", name=heading).first.wait_for()


def _sidebar(page):
    return page.locator('[data-testid="stSidebar"]')


def _upload(page, name: str, data: bytes) -> None:
    expander = _sidebar(page).get_by_text("Add a tokenizer file").first
    if not _sidebar(page).locator('input[type="file"]').first.is_visible():
        expander.click()
    _sidebar(page).locator('input[type="file"]').first.set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": data}])
    wait_for_app(page)


def _chosen_tokenizer(page) -> str:
    return page.get_by_role("combobox", name="Tokenizer", exact=True).input_value()


def _tokenizer_json(extra_word: str) -> bytes:
    data = valid_tokenizer_json()
    data["model"]["vocab"][extra_word] = len(data["model"]["vocab"])
    return json.dumps(data).encode()


def test_a_preset_model_loads_from_the_cache_and_shows_its_tokens(page, app_url):
    _goto(page, f"{app_url}/", "Playground")  # the default page lives at the root
    wait_for_app(page)
    _sidebar(page).get_by_text("Model by name").click()
    wait_for_app(page)
    # A rerun that lands while the list is open closes it again: open it until the option shows.
    option = page.get_by_role("option", name="GPT-2 · tokenizer.json (byte-level BPE)")
    for _ in range(4):
        page.get_by_role("combobox", name="Preset", exact=True).click()
        try:
            option.wait_for(timeout=15_000)
            break
        except PlaywrightTimeoutError:
            page.keyboard.press("Escape")
            wait_for_app(page)
    option.click()
    wait_for_app(page)
    _sidebar(page).get_by_role("button", name="Load").click()
    page.locator(".tk-tok", has_text=re.compile(r"world\s*995")).first.wait_for()  # GPT-2's id for "Ġworld"
    wait_for_app(page)
    assert "openai-community/gpt2" in _chosen_tokenizer(page)
    assert exception_boxes(page) == 0
    screenshot(page, "models-preset-gpt2")


def test_an_upload_is_selected_at_once_and_a_malformed_one_names_the_file(page, app_url):
    _goto(page, f"{app_url}/offsets_inspector", "Offsets inspector")
    _upload(page, "my tokenizer.json", _tokenizer_json("zebra"))
    # Chosen with no further click; on a busy machine the rerun that picks it may land after the
    # upload's own rerun settled, so wait (bounded) for what the person sees.
    expect(page.get_by_role("combobox", name="Tokenizer", exact=True)).to_have_value(
        re.compile(r"^Uploaded: my tokenizer\.json · BPE ·"), timeout=120_000)
    _sidebar(page).locator('input[type="file"]').first.set_input_files(files=[])  # the person removes it
    wait_for_app(page)
    _upload(page, "broken.json", b'{"model": {"type": "BPE", "vocab": {"a": -1}, "merges": []}')
    error = page.locator('[data-testid="stAlertContentError"]', has_text="broken.json").first
    error.wait_for(state="attached")
    message = error.text_content()
    assert "broken.json" in message and "tokapp-" not in message and "/tmp" not in message
    assert exception_boxes(page) == 0
    screenshot(page, "uploads-malformed-error")


@pytest.mark.parametrize("path, heading", [("offsets_inspector", "Offsets inspector"), ("compare", "Compare")])
def test_a_hundred_thousand_characters_render(page, app_url, path, heading):
    _goto(page, f"{app_url}/{path}", heading)
    area = page.get_by_role("textbox", name="Text", exact=True)
    area.fill(LONG)
    area.press("Control+Enter")
    page.get_by_text(re.compile(r"^Window \(")).first.wait_for(timeout=180_000)  # only a long text has windows
    wait_for_app(page)
    note = page.locator(".win-note").first.inner_text()
    assert (f"characters 0–1,500 of {len(LONG):,}" in note) if path == "compare" else re.search(
        r"tokens 0–400 of \d\d,\d{3}", note)
    # The first window is drawn: its strips come after the note, so on a busy machine wait (bounded) for them.
    page.locator(".oi-chip, .cmp-strip .tk-tok").nth(399).wait_for(state="attached", timeout=180_000)
    assert exception_boxes(page) == 0
    screenshot(page, f"long-document-{path}")


def test_ten_sessions_at_once_each_see_only_their_own_upload_and_text(browser, app_url):
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(10)]
    seen: dict[int, tuple[str, str]] = {}
    errors: list[BaseException] = []
    try:
        pages = []
        for ctx in contexts:
            page = ctx.new_page()
            page.set_default_timeout(180_000)
            _goto(page, f"{app_url}/offsets_inspector", "Offsets inspector")
            pages.append(page)
        # Ten sessions open on one server; each uploads its own file, then all are sent their texts at once.
        for n, page in enumerate(pages):
            _upload(page, f"session{n}.json", _tokenizer_json(f"word{n}"))
            # The upload is chosen at once: wait until the picker says so before typing (a person does too).
            expect(page.get_by_role("combobox", name="Tokenizer", exact=True)).to_have_value(
                re.compile(rf"session{n}\.json"), timeout=120_000)
            area = page.get_by_role("textbox", name="Text", exact=True)
            area.fill(f"session {n} says hello")
            area.press("Control+Enter")
        for n, page in enumerate(pages):
            wait_for_app(page)
            # What the person sees once the page settles: the upload's rerun may still be running when
            # the text's rerun starts, so wait (bounded) for the picker to show this session's file.
            expect(page.get_by_role("combobox", name="Tokenizer", exact=True)).to_have_value(
                re.compile(rf"session{n}\.json"), timeout=120_000)
            wait_for_app(page)
            listing = _chosen_tokenizer(page)
            text = page.get_by_role("textbox", name="Text", exact=True).input_value()
            seen[n] = (listing, text)
            assert exception_boxes(page) == 0
        for n, (listing, text) in seen.items():
            assert f"session{n}.json" in listing and text == f"session {n} says hello"
            others = [f"session{m}.json" for m in range(10) if m != n]
            options = pages[n]
            options.get_by_role("combobox", name="Tokenizer", exact=True).click()
            offered = options.get_by_role("listbox").inner_text()
            options.keyboard.press("Escape")
            assert not any(o in offered for o in others), offered
    except BaseException as exc:  # keep the first failure, close every context
        errors.append(exc)
    finally:
        for ctx in contexts:
            ctx.close()
    if errors:
        raise errors[0]
    assert len(seen) == 10
