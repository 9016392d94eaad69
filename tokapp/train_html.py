"""HTML of the training pages: corpus words drawn as their current symbols, the newest token
highlighted, and WordPiece's longest-match attempts. Every vocabulary string is escaped.

Uses the ``tk-`` chip classes of ``tokapp.html`` plus the few below (``TRAIN_STYLE``).

Left out: figures (``tokapp.train_figures``) and the data (``tokapp.training``).
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from .visible import visible

TRAIN_STYLE = """
.tr-words{display:flex;flex-wrap:wrap;gap:6px 14px;font-family:ui-monospace,Menlo,Consolas,monospace}
.tr-word{white-space:nowrap}
.tr-count{font-size:11px;color:#495057;margin-left:2px}
.tr-sym{display:inline-block;padding:0 4px;margin:0 1px;border-radius:4px;background:#e9ecef;color:#1a1a1a;
  border:1px solid rgba(0,0,0,.08)}
.tr-new{background:#ffa94d;font-weight:700;border:2px solid #e8590c}
.tr-hidden{background:#f1f3f5;color:#868e96;font-style:italic}
.tr-trace td,.tr-trace th{padding:2px 8px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px}
.tr-hit{background:#b2f2bb;font-weight:700}
.tr-miss{color:#868e96;text-decoration:line-through}
"""


def style_block() -> str:
    return f"<style>{TRAIN_STYLE}</style>"


def symbols_html(symbols: Sequence[str], new: str | None = None) -> str:
    """One word's symbols as chips; those equal to ``new`` get the ``tr-new`` highlight.

    ``symbols_html(["h", "ug"], "ug").count("tr-new") == 1``
    """
    parts = []
    for s in symbols:
        cls = "tr-sym tr-new" if new is not None and s == new else "tr-sym"
        parts.append(f'<span class="{cls}">{escape(visible(s))}</span>')
    return "".join(parts)


def words_html(rows: Sequence[tuple[str, int, Sequence[str]]], new: str | None = None) -> str:
    """Corpus words (word, count, symbols) as chip groups with their counts."""
    items = [f'<span class="tr-word" title="{escape(visible(w), quote=True)}">{symbols_html(syms, new)}'
             f'<span class="tr-count">×{c}</span></span>' for w, c, syms in rows]
    return f'<div class="tr-words">{"".join(items)}</div>'


def wordpiece_trace_html(explain: dict) -> str:
    """WordPiece's greedy longest match as a table: per position the candidates tried, the match in green."""
    rows = []
    for att in explain.get("attempts", []):
        cells = []
        for cand in att["candidates"]:
            cls = "tr-hit" if cand == att["match"] else "tr-miss"
            cells.append(f'<span class="tr-sym {cls}">{escape(visible(cand))}</span>')
        found = escape(visible(att["match"])) if att["match"] is not None else "no match: the word is unknown"
        rows.append(f"<tr><td>{att['position']}</td><td>{' '.join(cells)}</td><td>{found}</td></tr>")
    head = "<tr><th>position</th><th>candidates, longest first</th><th>match</th></tr>"
    reason = explain.get("reason")
    note = f"<p>{escape(reason)}</p>" if reason else ""
    return f'<table class="tr-trace">{head}{"".join(rows)}</table>{note}'
