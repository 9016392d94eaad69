"""Warm up a freshly started app server with one script run of the entry page.

Why: with a ``pages/`` folder beside ``app.py``, Streamlit (1.67) serves the very first run
after a server start in its legacy "pages folder" mode; a first visitor who opens a deep link
(``/compare?...``, e.g. a shared link) then gets a "Page not found" dialog over the right page.
One run of ``app.py`` calls ``st.navigation``, which switches that mode off for the whole server.
``bash run.sh app`` and the browser tests run this right after the server answers its health check.

Usage: ``python -m tokapp.warmup http://127.0.0.1:8501``. Exit code 0 when the run finished.
Left out: anything else about the server (this only opens one websocket session and closes it).
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import urllib.request


def wait_healthy(url: str, timeout: float = 120.0) -> bool:
    """Poll ``/_stcore/health`` until it answers 200 or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


async def _run_once(url: str, timeout: float) -> bool:
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.asyncio.client import connect  # a dependency of streamlit itself

    ws = await asyncio.wait_for(
        connect(url.replace("http", "ws", 1) + "/_stcore/stream", subprotocols=["streamlit"], max_size=None), timeout
    )
    try:
        msg = BackMsg()
        msg.rerun_script.query_string = ""
        msg.rerun_script.page_name = ""
        await ws.send(msg.SerializeToString())
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            data = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            if isinstance(data, bytes) and ForwardMsg.FromString(data).WhichOneof("type") == "script_finished":
                return True
        return False
    finally:
        await ws.close()


def warm_up(url: str, *, timeout: float = 60.0) -> bool:
    """Run the entry page once through a websocket session; ``True`` when the run finished.

    Runs in its own thread, so it works beside a running event loop (e.g. Playwright's).
    """
    outcome: list[bool] = []

    def run() -> None:
        try:
            outcome.append(asyncio.run(_run_once(url.rstrip("/"), timeout)))
        except Exception as exc:  # best effort: a cold server only costs the first visitor a dialog
            print(f"[warmup] {type(exc).__name__}: {exc}", file=sys.stderr)
            outcome.append(False)

    thread = threading.Thread(target=run, name="tokapp-warmup", daemon=True)
    thread.start()
    thread.join(timeout + 5)
    return bool(outcome and outcome[0])


def main(argv: list[str]) -> int:
    url = (argv[1] if len(argv) > 1 else "http://127.0.0.1:8501").rstrip("/")
    if not wait_healthy(url):
        print(f"[warmup] {url} did not answer its health check", file=sys.stderr)
        return 1
    ok = warm_up(url)
    print(f"[warmup] {'warmed up' if ok else 'could not warm up'} {url}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
