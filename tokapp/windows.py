"""Windows over long token streams: which tokens a page draws, and a minimap of where the window sits.

A 100,000-character document has some 25,000 tokens; a page draws one window of them (the
Offsets inspector by token count, Compare by a stretch of the raw input so that every tokenizer
shows the same text) and a minimap: a bar over the whole document with the window shaded and
ticks where something needs a look (red and amber boundaries).

``token_window(25_000, 2, 400) == (800, 1200)``; ``window_count(25_000, 400) == 63``

Left out: the widgets (the pages) and the drawing of the tokens themselves.
"""

from __future__ import annotations

from html import escape
from typing import Iterable, Sequence

from tokcore.analysis.alignment import SpanIndex

WINDOW_TOKENS = 400  # tokens drawn at once on the Offsets inspector
WINDOW_CHARS = 1500  # characters of the raw input drawn at once on Compare
TABLE_ROWS = 500  # token-table rows sent at once on the Playground (20,000 rows were 2 MB on every rerun)
MAX_TEXT_CHARS = 100_000  # the text areas' cap, stated on the pages
MAX_TICKS = 400  # minimap ticks drawn at most (evenly thinned)
STYLE = """
.win-map{position:relative;height:16px;background:#f1f3f5;border:1px solid #dee2e6;border-radius:4px;margin:4px 0 2px}
.win-sel{position:absolute;top:0;bottom:0;background:rgba(34,139,230,.35);border:1px solid #1c7ed6;min-width:3px}
.win-tick{position:absolute;top:2px;bottom:2px;width:2px}
.win-red{background:#e03131}
.win-amber{background:#f08c00}
.win-note{font-size:12px;color:#495057}
"""


def window_count(n: int, size: int) -> int:
    """How many windows of ``size`` cover ``n`` items (at least one)."""
    return max(1, -(-n // size))


def token_window(n: int, number: int, size: int) -> tuple[int, int]:
    """Tokens ``[lo, hi)`` of 0-based window ``number`` (clamped to the last window)."""
    number = max(0, min(number, window_count(n, size) - 1))
    return number * size, min(n, (number + 1) * size)


def char_window(n_chars: int, number: int, size: int) -> tuple[int, int]:
    """Characters ``[lo, hi)`` of 0-based window ``number``. ``char_window(3000, 1, 1500) == (1500, 3000)``."""
    return token_window(n_chars, number, size)


def tokens_in_bytes(offsets: Sequence[Sequence[int]], first: int, stop: int, *, whole: bool = False) -> tuple[int, int]:
    """Tokens ``[lo, hi)`` whose non-empty spans overlap bytes ``[first, stop)``; all tokens when ``whole``.

    Sentinel tokens between them come along. ``tokens_in_bytes([(1, 3), (3, 5), (5, 7)], 3, 5) == (1, 2)``
    """
    if whole:
        return 0, len(offsets)
    hits = SpanIndex(offsets).covering((first, stop))
    if not hits:
        return 0, 0
    return hits[0], hits[-1] + 1


def minimap_html(total: int, lo: int, hi: int, marks: Iterable[tuple[int, str]] = (), *, unit: str = "tokens") -> str:
    """A bar for ``total`` items with ``[lo, hi)`` shaded and ``marks`` (position, ``"red"``/``"amber"``) ticked."""
    total = max(total, 1)
    marks = list(marks)
    step = max(1, len(marks) // MAX_TICKS)
    ticks = "".join(f'<span class="win-tick win-{escape(kind)}" style="left:{100 * pos / total:.3f}%"></span>'
                    for pos, kind in marks[::step])
    left, width = 100 * lo / total, 100 * max(hi - lo, 0) / total
    note = f"{unit} {lo:,}–{hi:,} of {total:,}" + (f" · {len(marks):,} marked" if marks else "")
    return (f'<div class="win-map" data-lo="{lo}" data-hi="{hi}" data-total="{total}" title="{escape(note)}">{ticks}'
            f'<span class="win-sel" style="left:{left:.3f}%;width:{width:.3f}%"></span></div>'
            f'<div class="win-note">Showing {escape(note)}</div>')


def style_block() -> str:
    return f"<style>{STYLE}</style>"
