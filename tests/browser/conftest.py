"""Browser test harness: a Streamlit server on 127.0.0.1 and Debian's Chromium driven by Playwright.

``playwright install`` cannot download browsers here, so the tests launch ``/usr/bin/chromium``
(override with ``TOKCORE_CHROMIUM``). Outside CI a missing Chromium or Playwright skips with the
reason; with ``CI=true`` it fails. Screenshots go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tokapp.warmup import warm_up

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_TIMEOUT = 90  # seconds; a cold start imports pandas, plotly and the engine


def _skip_or_fail(message: str) -> None:
    if IN_CI:
        pytest.fail(message + " (CI=true requires the browser tests to run)")
    pytest.skip(message)


def chromium_path() -> str | None:
    candidate = os.environ.get("TOKCORE_CHROMIUM", "/usr/bin/chromium")
    if os.path.exists(candidate) and os.access(candidate, os.X_OK):
        return candidate
    return shutil.which("chromium")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_serving(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"streamlit did not serve within {SERVER_START_TIMEOUT}s:\n{log.read_text(errors='replace')[-3000:]}")


def _offline_model_caches(tmp_path_factory) -> dict[str, str]:
    """The server never reaches the Hub: HF_HUB_OFFLINE=1, and caches seeded with the reference models if present."""
    root = tmp_path_factory.mktemp("model-caches")
    try:
        from hub_seed import seed_reference_models

        return seed_reference_models(root)
    except BaseException:  # no reference data here (require_shared skips): empty caches, still offline
        return {"HF_HUB_CACHE": str(root / "hub"), "HF_HUB_OFFLINE": "1", "TIKTOKEN_CACHE_DIR": str(root / "tiktoken")}


@pytest.fixture(scope="session")
def app_url(tmp_path_factory) -> str:
    """Start ``streamlit run app.py`` on a free local port; yield its URL; stop it afterwards."""
    port = free_port()
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", **_offline_model_caches(tmp_path_factory))
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(url, proc, log)
        # One run of app.py first, so a deep link opened first gets no "Page not found" (tokapp.warmup).
        if not warm_up(url):
            raise RuntimeError(f"could not warm up {url}:\n{log.read_text(errors='replace')[-3000:]}")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    if path is None:
        _skip_or_fail("Debian's chromium is not installed (bash run.sh test installs it: apt-get install -y chromium)")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        _skip_or_fail("the playwright package is missing (pip install -e '.[test]')")
    # expect() waits 5 s by default, actions 60 s (the page fixture): on a loaded 2-core machine a
    # rerun can keep the sidebar's widgets from the page for longer, so assertions wait as long as
    # actions. A passing assertion returns at once; only a failing one waits the whole time.
    expect.set_options(timeout=60_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failed browser test, say what the page showed: its address, any open dialog (a modal makes
    the rest of the page inert, which a click then waits out) and a screenshot's path. A flaky failure
    seen once in CI is then readable from the log alone."""
    outcome = yield
    report = outcome.get_result()
    page = item.funcargs.get("page") if report.when == "call" and report.failed else None
    if page is None:
        return
    from browser.browser_helpers import SCREENSHOTS

    try:
        dialogs = page.locator('[role="dialog"]')
        texts = [dialogs.nth(i).inner_text(timeout=2_000).strip() for i in range(dialogs.count())]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / ("failed-" + "".join(c if c.isalnum() else "-" for c in item.name)[:120] + ".png")
        page.screenshot(path=str(path), timeout=10_000)
        state = f"address: {page.url}\nopen dialogs: {texts or 'none'}\nscreenshot: {path}"
    except Exception as exc:  # noqa: BLE001 - the page may be gone; the test's own failure stands
        state = f"the page could not be read: {type(exc).__name__}: {exc}"
    report.sections.append(("browser state at failure", state))
