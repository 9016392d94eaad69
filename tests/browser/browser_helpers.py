"""Helpers shared by the browser tests (fixtures live in ``conftest.py``)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
# Generous: the server shares 2 cores with the other test worker, and training pages run for a while.
SCRIPT_RUN_TIMEOUT_MS = 120_000


def screenshot(page, name: str) -> Path:
    """Save a screenshot of the whole page under test-artifacts/screenshots/ and return its path.

    Streamlit scrolls inside its main container, so ``full_page`` alone would stop at the
    viewport: the viewport is stretched to the content's height for the shot, then restored.
    """
    wait_for_widgets(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    size = page.viewport_size
    height = page.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
        " return Math.max(m ? m.scrollHeight : 0, document.body.scrollHeight); }"
    )
    page.set_viewport_size({"width": size["width"], "height": min(max(height, size["height"]), 8000)})
    page.wait_for_timeout(300)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)
    return path


def open_link(page, url: str) -> None:
    """Open ``url`` as a person following a link would, and wait until its script run is done.

    Fails when Streamlit shows its "Page not found" dialog: the dialog makes the rest of the page
    inert, so clicks would time out far from the cause. After the server's warm-up
    (``tokapp.warmup``) every page's own link opens cleanly; the default page (Playground) lives
    at the root, ``/``, and has no other path.
    """
    page.goto(url)
    wait_for_app(page)
    assert page.get_by_text("Page not found").count() == 0, f"{url} opened with a 'Page not found' dialog"


def wait_for_app(page) -> None:
    """Wait until Streamlit has rendered and finished running the script."""
    page.wait_for_selector('[data-testid="stApp"]')
    page.wait_for_selector('[data-testid="stMainBlockContainer"]')
    # The status widget shows "Running..." while the script runs; wait for it to go.
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')",
        timeout=SCRIPT_RUN_TIMEOUT_MS,
    )
    page.wait_for_selector('[data-testid="stElementContainer"]')
    wait_for_widgets(page)


def wait_for_widgets(page) -> None:
    """Widgets load lazily and show grey skeletons until their code arrives: wait them out."""
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=SCRIPT_RUN_TIMEOUT_MS)
    page.wait_for_timeout(300)


def exception_boxes(page) -> int:
    return page.locator('[data-testid="stException"]').count()


def click_until(page, button: str, shown, *, tries: int = 3, timeout_ms: int = 20_000) -> None:
    """Click ``button`` until the locator ``shown`` appears.

    A click that lands while a loaded server is still rerunning the script can be dropped: after
    the run settles, click again if ``shown`` did not appear (never more than ``tries`` times).
    """
    for _ in range(tries):
        # ``first``: while a rerun redraws the page, Streamlit can show the old button beside the new
        # one for a moment (a strict-mode error on wait_for); a dropped click is retried below.
        target = page.get_by_role("button", name=button).first
        try:
            # A loaded server may still be drawing the page: as long as a script run may take.
            target.wait_for(timeout=SCRIPT_RUN_TIMEOUT_MS)
        except Exception:  # Playwright's TimeoutError: keep what the page showed for the CI artifacts
            page.screenshot(path=str(_failure_shot("click-until-no-button")), full_page=True)
            raise
        target.click()
        wait_for_app(page)
        try:
            shown.wait_for(timeout=timeout_ms)
            return
        except Exception:  # Playwright's TimeoutError: the click may have been lost
            continue
    shown.wait_for()


def _failure_shot(name: str) -> Path:
    """Where a failing wait leaves its screenshot (test-artifacts/screenshots/failed-<name>.png)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"failed-{name}.png"
