"""Shared pieces of the benchmark: the machine's description, the text, interleaved timing, the table."""

from __future__ import annotations

import gc
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    """The shared reference data (``$TOKCORE_SHARED_DATA`` or ``../shared/data`` next to the repository)."""
    path = Path(os.environ.get("TOKCORE_SHARED_DATA", ROOT.parent / "shared" / "data"))
    if not path.is_dir():
        raise SystemExit(f"reference data not found at {path}; set TOKCORE_SHARED_DATA to the shared data folder")
    return path


def english_text(n_bytes: int) -> str:
    """Botchan then the inaugural addresses, cut at a line end near ``n_bytes``."""
    corpora = data_dir() / "corpora"
    text = (corpora / "botchan.txt").read_text(encoding="utf-8") + (corpora / "inaugural.txt").read_text(encoding="utf-8")
    while len(text.encode("utf-8")) < n_bytes:
        text += text
    cut = text.rfind("\n", 0, n_bytes)
    return text[: cut + 1]


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_lines() -> list[str]:
    """CPU model, cores, load, Python and library versions."""
    import importlib.metadata as md

    cores = os.cpu_count()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    versions = []
    for pkg in ("tokenizers", "sentencepiece", "tiktoken", "regex"):
        try:
            versions.append(f"{pkg} {md.version(pkg)}")
        except md.PackageNotFoundError:
            versions.append(f"{pkg} (missing)")
    lines = [
        f"machine: {_cpu_model()}, {cores} cores ({usable} usable), {platform.system()} {platform.release()}",
        f"python: {platform.python_implementation()} {platform.python_version()}; peers: {', '.join(versions)}",
        "single thread: TOKENIZERS_PARALLELISM=" + os.environ.get("TOKENIZERS_PARALLELISM", "")
        + ", RAYON_NUM_THREADS=" + os.environ.get("RAYON_NUM_THREADS", ""),
    ]
    if load is not None:
        lines.append(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
                     + ("  (busy machine: ratios are fairer than absolute figures)" if load[0] > (usable or 1) else ""))
    return lines


def _once(fn: Callable) -> float:
    gc.collect()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def time_best(ours: Callable, peer: Callable, *, repeat: int = 3, warmup: bool = True) -> tuple[float, float]:
    """Best wall time of each, the two interleaved so that machine load hits both alike."""
    if warmup:
        ours()
        peer()
    best_ours = best_peer = float("inf")
    for _ in range(repeat):
        best_ours = min(best_ours, _once(ours))
        best_peer = min(best_peer, _once(peer))
    return best_ours, best_peer


class Table:
    """Rows printed as they come, in fixed-width columns."""

    HEADER = f"{'what':<20} {'case':<42} {'tokcore':>12} {'peer':<20} {'peer value':>12} {'x peer':>7} {'target':>8}"

    def __init__(self):
        self.printed_header = False
        self.notes: list[str] = []

    def note(self, text: str) -> None:
        self.notes.append(text)

    def flush(self) -> None:
        for n in self.notes:
            print(f"  ({n})")
        self.notes.clear()

    def _header(self) -> None:
        if not self.printed_header:
            print()
            print(self.HEADER)
            print("-" * len(self.HEADER))
            self.printed_header = True

    def row(self, what: str, case: str, ours: float, peer: str, theirs: float, target: float | None,
            unit: str = "KB/s") -> None:
        """``ours`` and ``theirs`` are rates (higher is better); ``target`` is the minimum ratio."""
        self.flush()
        self._header()
        ratio = ours / theirs if theirs else float("nan")
        goal = "" if target is None else (f">={target:.2g}x " + ("ok" if ratio >= target else "MISS"))
        print(f"{what:<20} {case:<42} {_fmt(ours, unit):>12} {peer:<20} {_fmt(theirs, unit):>12} {ratio:>6.2f}x {goal:>8}",
              flush=True)

    def memory(self, case: str, peak_mb: float, text_mb: float, limit_x: float | None) -> None:
        self.flush()
        self._header()
        ratio = peak_mb / text_mb
        goal = "" if limit_x is None else (f"<{limit_x:g}x " + ("ok" if ratio < limit_x else "MISS"))
        print(f"{'peak RSS':<20} {case:<42} {peak_mb:>9.0f} MB {'text size':<20} {text_mb:>9.1f} MB {ratio:>6.1f}x {goal:>8}",
              flush=True)


def _fmt(rate: float, unit: str) -> str:
    if unit == "KB/s":
        return f"{rate:,.0f} KB/s" if rate < 10_000 else f"{rate / 1000:,.1f} MB/s"
    if unit == "runs/s":
        return f"{1 / rate:.2f} s"
    if unit == "loads/s":
        return f"{1000 / rate:.0f} ms"
    return f"{rate:.3g}"
