"""The Offsets inspector, Compare and Load and export pages in a real Chromium, and share links.

Each page opens without an exception box and is screenshotted; the inspector flags the cut emoji
of ``a🙂b`` with a byte-level tokenizer and nothing with the ASCII one; Compare draws two columns
side by side; a vocab.json + merges.txt pair uploads; a share link reopens the same view.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import expect

import tokcore
from browser.browser_helpers import exception_boxes, screenshot, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
BYTELEVEL_KEY = "file:english_bytelevel_bpe.json"
BYTELEVEL_LABEL = "Sample: english bytelevel bpe"
ASCII_KEY = "builtin:ascii-char"
ASCII_LABEL = "ASCII characters (tokcore.CharTokenizer)"


def open_page(page, app_url: str, path: str, **params) -> None:
    query = urlencode([(k, v) for k, vs in params.items() for v in (vs if isinstance(vs, list) else [vs])])
    page.goto(f"{app_url}/{path}" + (f"?{query}" if query else ""))
    wait_for_app(page)


def text_box(page):
    return page.get_by_role("textbox", name="Text", exact=True)


def tokenizer_box(page):
    """The page's tokenizer select box (a combobox input whose value is the label shown)."""
    return page.get_by_role("combobox", name="Tokenizer", exact=True)


def test_offsets_inspector_flags_a_cut_emoji_with_a_byte_level_tokenizer(app_url, page):
    open_page(page, app_url, "offsets_inspector", oi_text="a🙂b", oi_tok=BYTELEVEL_KEY)
    page.get_by_role("heading", name="Offsets inspector").wait_for()
    page.locator(".oi-lanes").wait_for()
    # The widgets take the link's values as the page draws them: wait for them (a loaded server may
    # draw the lanes before the text box shows its value), rather than read them once.
    expect(text_box(page)).to_have_value("a🙂b")
    expect(tokenizer_box(page)).to_have_value(BYTELEVEL_LABEL)
    # 🙂 is four bytes; the byte-level BPE gives one token per byte: three boundaries cut it.
    assert page.locator(".oi-lanes .oi-cut-red").count() == 3
    assert page.locator(".oi-lanes .oi-chip.oi-red").count() == 4
    assert page.locator(".oi-grid .oi-bnd-red").count() == 3
    page.get_by_text("3 unsafe boundaries").wait_for()
    colour = page.locator(".oi-lanes .oi-cut-red").first.evaluate("e => getComputedStyle(e).borderLeftColor")
    assert colour == "rgb(224, 49, 49)", "an unsafe boundary inside a character is drawn red"
    assert exception_boxes(page) == 0
    screenshot(page, "offsets-inspector-bytelevel")


def test_offsets_inspector_flags_nothing_with_the_ascii_tokenizer(app_url, page):
    open_page(page, app_url, "offsets_inspector", oi_text="a🙂b", oi_tok=ASCII_KEY)
    page.locator(".oi-lanes").wait_for()
    page.get_by_text("No unsafe boundary").wait_for()
    expect(tokenizer_box(page)).to_have_value(ASCII_LABEL)
    assert page.locator(".oi-lanes .oi-cut").count() == 0
    assert page.locator(".oi-lanes .oi-red, .oi-lanes .oi-amber").count() == 0
    assert page.locator(".oi-grid .oi-bnd-red, .oi-grid .oi-bnd-amber").count() == 0
    assert exception_boxes(page) == 0
    screenshot(page, "offsets-inspector-ascii")


def test_offsets_inspector_reacts_to_typed_text_and_shows_sentinels(app_url, page):
    open_page(page, app_url, "offsets_inspector", oi_tok="builtin:toy-word-level")
    box = text_box(page)
    box.fill("the cat <b>sat</b>")
    box.press("Control+Enter")
    page.wait_for_function("() => document.querySelectorAll('.oi-lanes [data-lane=\"sentinel\"]').length === 2")
    lane_texts = page.locator('.oi-lanes [data-lane="sentinel"] .oi-txt').all_inner_texts()
    assert lane_texts == ["[CLS]", "[SEP]"]
    assert page.locator(".oi-lanes b").count() == 0, "user text must never become markup"
    assert exception_boxes(page) == 0
    screenshot(page, "offsets-inspector-sentinels")
    # Another page and back: the inspector keeps its text for the session.
    page.locator('[data-testid="stSidebarNav"] a', has_text="Compare").click()
    page.get_by_role("heading", name="Compare").wait_for()
    page.locator('[data-testid="stSidebarNav"] a', has_text="Offsets inspector").click()
    page.locator(".oi-lanes").wait_for()
    expect(text_box(page)).to_have_value("the cat <b>sat</b>")


def test_compare_shows_two_columns_side_by_side(app_url, page):
    open_page(page, app_url, "compare", cmp_toks=[BYTELEVEL_KEY, ASCII_KEY], cmp_text="unbelievably 🙂 café")
    page.get_by_role("heading", name="Compare").wait_for()
    strips = page.locator(".cmp-strip")
    strips.nth(1).wait_for()  # the columns are drawn one after the other
    assert strips.count() == 2
    first, second = strips.nth(0).bounding_box(), strips.nth(1).bounding_box()
    assert abs(first["y"] - second["y"]) < 5 and second["x"] > first["x"] + first["width"] - 5
    assert page.locator(".cmp-strip .cmp-ring").count() > 0
    page.locator(".js-plotly-plot").first.wait_for()
    assert exception_boxes(page) == 0
    screenshot(page, "compare-two-columns")


def test_load_and_export_opens_and_takes_a_vocab_merges_pair(app_url, page, tmp_path):
    open_page(page, app_url, "load_and_export")
    page.get_by_role("heading", name="Load and export").wait_for()
    page.get_by_text("up to 50 MiB").first.wait_for()
    assert exception_boxes(page) == 0
    screenshot(page, "load-and-export-default")
    model = tokcore.load(ROOT / "sample_vocabs" / "english_bytelevel_bpe.json").to_hf_dict()["model"]
    (tmp_path / "vocab.json").write_text(json.dumps(model["vocab"]), encoding="utf-8")
    merges = [m if isinstance(m, str) else " ".join(m) for m in model["merges"]]
    (tmp_path / "merges.txt").write_text("#version: 0.2\n" + "\n".join(merges) + "\n", encoding="utf-8")
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(
        [str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")])
    page.get_by_text("Loaded vocab.json + merges.txt").wait_for()
    wait_for_app(page)
    page.wait_for_function("() => document.querySelector('input[aria-label=\"Tokenizer\"]').value"
                           ".startsWith('Uploaded: vocab.json + merges.txt · BPE · ')")  # names, kind, short hash
    page.get_by_text("Vocabulary").first.wait_for()
    assert exception_boxes(page) == 0
    screenshot(page, "load-and-export-uploaded")


def test_a_share_link_reopens_the_same_view(app_url, page, browser):
    open_page(page, app_url, "offsets_inspector", oi_tok=ASCII_KEY)
    box = text_box(page)
    box.fill("shared: é🙂")
    box.press("Control+Enter")
    page.get_by_text("raw input (original_offsets)").click()
    page.wait_for_function("() => location.search.includes('oi_coords=original')")
    query = parse_qs(urlsplit(page.url).query)
    assert query["oi_text"] == ["shared: é🙂"] and query["oi_tok"] == [ASCII_KEY]
    # The link shown on the page is the same as the address bar.
    wait_for_app(page)
    page.get_by_text("Share this view").click()
    # The link is redrawn by the run the radio started: poll until it carries the new choice.
    code = page.locator('[data-testid="stCode"] code').last
    expect(code).to_contain_text("oi_coords=original", timeout=30_000)
    shown = code.inner_text().strip()
    assert parse_qs(urlsplit(shown).query) == query
    # Someone else opens it: a new browser context, nothing in common but the URL.
    other = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        reader = other.new_page()
        reader.set_default_timeout(30_000)
        reader.goto(shown)
        wait_for_app(reader)
        reader.locator(".oi-lanes").wait_for()
        expect(text_box(reader)).to_have_value("shared: é🙂")
        expect(tokenizer_box(reader)).to_have_value(ASCII_LABEL)
        assert reader.locator('.oi-lanes[data-coords="original"]').count() == 1
        assert reader.get_by_role("radio", name="raw input (original_offsets)").is_checked()
        assert exception_boxes(reader) == 0
        screenshot(reader, "share-link-reopened")
    finally:
        other.close()
