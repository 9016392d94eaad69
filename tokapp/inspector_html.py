"""The Offsets inspector's HTML: spans on two lanes, the byte grid, verdict cards. Pure and escaped.

- ``lanes_html``: one column per token in sequence order. Tokens with a span sit on the text lane
  over the text they cover; sentinel tokens (``(0, 0)``, inserted by the template) sit on a lane
  of their own below, where the sequence puts them. Unsafe boundaries get a marker between the
  columns: red when the boundary is inside a UTF-8 character, amber inside a grapheme cluster.
- ``byte_grid_html``: every byte of the text under its character, characters grouped by grapheme
  cluster, each byte coloured by the token that covers it, and each token boundary drawn as a bar
  before the byte it falls on (red/amber when unsafe).

Classes are prefixed ``oi-``; ``STYLE`` styles them. Every user or vocabulary string is escaped.

Left out: the data itself (``tokapp.inspector``) and the chip strips shared with the Playground
(``tokapp.html``).
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from html import escape

import regex

import tokcore
from tokcore.analysis.boundaries import INSIDE_CHAR, INSIDE_GRAPHEME
from tokcore.core.offsets import char_to_byte_table

from . import colors
from .byte_label import piece_html
from .inspector import SAFETY_LABELS, Verdict, text_and_offsets
from .span_walk import walk
from .tokens import BYTE_SPAN, CHAR_SPAN, TokenView, char_span, row_kind, span_label
from .visible import BASE_FOR_MARK, visible, visible_char

_GRAPHEME = regex.compile(r"\X", regex.DOTALL)
RED, AMBER = "#e03131", "#f08c00"

STYLE = f"""
.oi-lanes{{display:flex;flex-wrap:wrap;align-items:stretch;font-family:ui-monospace,Menlo,Consolas,monospace;
  font-size:15px;padding:10px;border:1px solid #dee2e6;border-radius:6px;background:#fff;color:#1a1a1a;row-gap:8px}}
.oi-col{{display:flex;flex-direction:column;padding:0 1px}}
.oi-top,.oi-bot{{min-height:40px;display:flex;align-items:flex-start;justify-content:center}}
.oi-bot{{border-top:1px dashed #ced4da;padding-top:3px}}
.oi-chip{{display:inline-flex;flex-direction:column;align-items:center;padding:1px 4px;border-radius:4px;
  border:1px solid rgba(0,0,0,.1);line-height:1.25;color:#1a1a1a}}
.oi-txt{{white-space:pre}}
.oi-meta{{font-size:10px;color:#495057;line-height:1.1}}
.oi-special{{background:{colors.SPECIAL_BG};color:#fff}}
.oi-special .oi-meta{{color:#e5dbff}}
.oi-inserted{{background:#fff;border:2px dashed {colors.INSERTED_BORDER};color:{colors.INSERTED_BORDER};font-style:italic}}
.oi-ws{{color:#868e96}}
.oi-gap{{color:#868e96;text-decoration:line-through;white-space:pre;padding:1px 2px}}
.oi-red{{box-shadow:0 0 0 2px {RED}}}
.oi-amber{{box-shadow:0 0 0 2px {AMBER}}}
.oi-cut{{display:inline-block;height:36px;border-left:3px solid;margin:0 2px 0 3px;padding-left:1px;font-size:11px;
  font-weight:700;line-height:1}}
.oi-cut-mini{{height:16px;vertical-align:middle}}
.oi-nolane .oi-bot{{display:none}}
.oi-cut-red{{border-color:{RED};color:{RED}}}
.oi-cut-amber{{border-color:{AMBER};color:{AMBER}}}
.oi-grid{{display:flex;flex-wrap:wrap;row-gap:10px;font-family:ui-monospace,Menlo,Consolas,monospace;padding:10px;
  border:1px solid #dee2e6;border-radius:6px;background:#fff;color:#1a1a1a}}
.oi-gc{{display:inline-flex;margin-right:4px;padding:1px;border-radius:4px}}
.oi-gc-multi{{outline:1px dotted #868e96}}
.oi-ch{{display:inline-flex;flex-direction:column;align-items:stretch}}
.oi-glyph{{text-align:center;font-size:16px;min-height:22px;white-space:pre}}
.oi-bytes{{display:flex}}
.oi-byte{{font-size:11px;padding:2px 3px;border-left:2px solid transparent;min-width:18px;text-align:center}}
.oi-nocover{{background:#f1f3f5;color:#868e96}}
.oi-bnd{{border-left-color:#1a1a1a}}
.oi-bnd-red{{border-left:4px solid {RED}}}
.oi-bnd-amber{{border-left:4px solid {AMBER}}}
.oi-tix{{display:flex}}
.oi-tix span{{font-size:9px;color:#495057;min-width:18px;padding:0 3px;border-left:2px solid transparent}}
.oi-end{{align-self:stretch;border-left:2px solid #1a1a1a}}
.oi-verdicts{{display:flex;flex-direction:column;gap:6px}}
.oi-verdict{{padding:8px 10px;border-radius:6px;border:1px solid;font-size:14px}}
.oi-pass{{background:#ebfbee;border-color:#2f9e44}}
.oi-fail{{background:#fff5f5;border-color:{RED}}}
.oi-call{{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:600}}
.oi-legend{{font-size:14px;line-height:2}}
.oi-legend > span{{margin-right:16px;white-space:nowrap}}
"""


def style_block() -> str:
    return f"<style>{STYLE}</style>"


def _text_html(text: str) -> str:
    """Escaped text, whitespace and invisible characters as grey markers."""
    out = []
    for i, ch in enumerate(text):
        shown = visible_char(ch)
        if shown is None and i == 0 and unicodedata.category(ch) in ("Mn", "Mc", "Me"):
            shown = BASE_FOR_MARK + ch
        out.append(f'<span class="oi-ws">{escape(shown)}</span>' if shown else escape(ch))
    return "".join(out)


def _bytes_html(data: bytes, start: int, stop: int) -> str:
    """``data[start:stop]`` (0-based): its text, or its bytes and the character they belong to."""
    return piece_html(data, start, stop, _text_html)


def _cut(idx: int, kind: str, text: str) -> str:
    colour = "red" if kind == INSIDE_CHAR else "amber"
    title = escape(f"byte {idx}: boundary {SAFETY_LABELS[kind]}", quote=True)
    return f'<span class="oi-cut oi-cut-{colour}" data-byte="{idx}" data-kind="{kind}" title="{title}">✂</span>'


def _chip(classes: str, inner: str, meta: str, title: str, style: str = "") -> str:
    return (f'<span class="oi-chip {classes}"{style} title="{escape(title, quote=True)}">'
            f'<span class="oi-txt">{inner}</span><span class="oi-meta">{escape(meta)}</span></span>')


def lanes_html(view: TokenView, points: dict[int, str], *, coords: str = "view",
               palette: str = colors.DEFAULT_PALETTE, show_ids: bool = True, max_tokens: int = 1500,
               start: int = 0, both_units: bool = False) -> str:
    """Tokens on two lanes (text spans above, sentinels below) with unsafe boundaries marked.

    Tooltips name the span's text, unit and base; ``both_units`` adds the 0-based character span.

    ``points`` maps 1-based byte indices to ``inside_char``/``inside_grapheme`` (``inspector.issue_points``);
    ``start`` and ``max_tokens`` choose the window of tokens drawn.
    """
    text, offsets = text_and_offsets(view, coords)
    data = text.encode("utf-8", "surrogatepass")
    where = "tokenization-text" if coords == "view" else "raw-input"

    def col(top: str = "", bottom: str = "", extra: str = "") -> str:
        return f'<span class="oi-col"{extra}><span class="oi-top">{top}</span><span class="oi-bot">{bottom}</span></span>'

    def chip(row, span, classes: str, inner: str, style: str = "") -> str:
        meta = f"#{row.index}" + (f" · {row.id}" if show_ids else "") + (" · unk" if row.unknown else "")
        title = (f"#{row.index} · id {row.id} · token {visible(row.token)} · {where} span {span_label(span)} "
                 f"({BYTE_SPAN})")
        if both_units and tokcore.has_span(span):
            chars = char_span(text, span)
            title += f" · {'–' if chars is None else span_label(chars)} ({CHAR_SPAN})"
        return _chip(classes, inner, meta, title, style)

    cols: list[str] = []
    for event in walk(view.rows, offsets, data, points, max_tokens=max_tokens, start=start):
        what = event[0]
        if what == "before":
            cols.append(f'<span class="oi-gap">{event[1]} tokens before …</span>')
        elif what == "sentinel":
            row = event[1]
            cols.append(col(bottom=chip(row, (0, 0), "oi-inserted", _text_html(row.token)), extra=' data-lane="sentinel"'))
        elif what == "gap":
            gap = _bytes_html(data, event[2], event[2] + len(event[1]))
            cols.append(col(top=f'<span class="oi-gap" title="covered by no token">{gap}</span>'))
        elif what == "mark":
            cols.append(col(top=_cut(event[1], points[event[1]], text)))
        elif what == "more":
            cols.append(f'<span class="oi-gap">… {event[1]} more tokens not drawn</span>')
        else:
            _, row, start, stop, k = event
            kind = row_kind(row)
            if stop > start:
                inner = _bytes_html(data, start - 1, stop - 1)
            else:
                inner = f'<span class="oi-ws">{_text_html(row.token) or "∅"}</span>'
            classes, style = f"oi-{kind}", ""
            ends = {points.get(start), points.get(stop)} if stop > start else set()
            if INSIDE_CHAR in ends:
                classes += " oi-red"
            elif INSIDE_GRAPHEME in ends:
                classes += " oi-amber"
            if kind not in ("special", "inserted"):
                style = f' style="background:{colors.token_color(k, palette)}"'
            cols.append(col(top=chip(row, (start, stop), classes, inner, style), extra=' data-lane="text"'))
    if not view.rows:
        cols.append('<span class="oi-gap">(no tokens)</span>')
    lane = "" if any(not tokcore.has_span(o) for o in offsets) else " oi-nolane"  # no sentinel: one lane
    return f'<div class="oi-lanes{lane}" data-coords="{coords}">{"".join(cols)}</div>'


def _grid_tokens(view: TokenView, offsets, first: int, stop: int, palette: str):
    """For bytes ``[first, stop)`` only: byte -> first covering token, boundaries, token starts, token colours.

    Colours count every ordinary token before the window, so they match the lanes above.
    """
    owner: dict[int, int] = {}
    bounds: set[int] = set()
    starts: dict[int, int] = {}
    colour_of: dict[int, str] = {}
    k = 0
    for i, (r, o) in enumerate(zip(view.rows, offsets)):
        if not tokcore.has_nonempty_span(o):
            continue
        s0, s1 = o
        if s1 >= first and s0 <= stop:
            colour_of[i] = colors.SPECIAL_BG if r.special else colors.token_color(k, palette)
            for b in range(max(s0, first), min(s1, stop)):
                owner.setdefault(b, i)
            bounds.update((s0, s1))
            starts.setdefault(s0, i)
        if not r.special:
            k += 1
    return owner, bounds, starts, colour_of


def byte_grid_html(view: TokenView, points: dict[int, str], *, coords: str = "view",
                   palette: str = colors.DEFAULT_PALETTE, max_bytes: int = 1500, start_byte: int = 1) -> str:
    """Every byte under its character, coloured by token, with token boundaries as bars.

    ``start_byte`` (1-based) and ``max_bytes`` choose the window drawn (from the character holding ``start_byte``).
    """
    text, offsets = text_and_offsets(view, coords)
    data = text.encode("utf-8", "surrogatepass")
    parts: list[str] = []
    first_char, pos = 0, 1  # the first character drawn; 1-based byte index of the next byte
    if start_byte > 1:
        table = char_to_byte_table(text)
        first_char = max(0, bisect_right(table, start_byte - 1) - 1)
        pos = table[first_char] + 1
        if first_char:
            parts.append(f'<span class="oi-gap">{pos - 1:,} bytes before …</span>')
    end = pos + max_bytes
    owner, bounds, starts, colour_of = _grid_tokens(view, offsets, pos, end + 64, palette)  # 64: a cluster's tail
    for m in _GRAPHEME.finditer(text, first_char):
        if pos >= end:
            break
        chars = []
        for ch in m.group():
            raw = ch.encode("utf-8", "surrogatepass")
            glyph = visible_char(ch)
            if glyph is None and unicodedata.category(ch) in ("Mn", "Mc", "Me"):
                glyph = BASE_FOR_MARK + ch
            cells, labels = [], []
            for b in raw:
                cls = "oi-byte"
                if pos in bounds or pos in points:
                    kind = points.get(pos)
                    cls += " oi-bnd-red" if kind == INSIDE_CHAR else " oi-bnd-amber" if kind == INSIDE_GRAPHEME else " oi-bnd"
                t = owner.get(pos)
                if t is None:
                    cls += " oi-nocover"
                    style = ""
                else:
                    fg = ";color:#fff" if colour_of.get(t) == colors.SPECIAL_BG else ""
                    style = f' style="background:{colour_of.get(t, "#fff")}{fg}"'
                title = f"byte {pos} = {b:02X}" + (f" · token {t}" if t is not None else " · no token")
                if pos in points:
                    title += f" · boundary {SAFETY_LABELS[points[pos]]}"
                cells.append(f'<span class="{cls}"{style} title="{escape(title, quote=True)}" data-byte="{pos}">{b:02X}</span>')
                label = f"t{starts[pos]}" if pos in starts else ""
                labels.append(f"<span>{label}</span>")
                pos += 1
            name = unicodedata.name(ch, "") if len(ch) == 1 else ""
            title = f"U+{ord(ch):04X} {name}".strip()
            chars.append(f'<span class="oi-ch" title="{escape(title, quote=True)}">'
                         f'<span class="oi-glyph">{escape(glyph if glyph is not None else ch)}</span>'
                         f'<span class="oi-bytes">{"".join(cells)}</span><span class="oi-tix">{"".join(labels)}</span></span>')
        multi = " oi-gc-multi" if len(m.group()) > 1 else ""
        gtitle = " + ".join(f"U+{ord(c):04X}" for c in m.group())
        parts.append(f'<span class="oi-gc{multi}" title="grapheme cluster {escape(gtitle, quote=True)}">{"".join(chars)}</span>')
    if pos <= len(data):
        parts.append(f'<span class="oi-gap">… {len(data) - pos + 1} more bytes not drawn</span>')
    elif (len(data) + 1) in bounds:
        parts.append('<span class="oi-end" title="end of text"></span>')
    if not data:
        parts.append('<span class="oi-gap">(empty text: no bytes)</span>')
    return f'<div class="oi-grid" data-coords="{coords}">{"".join(parts)}</div>'


def verdicts_html(items: list[Verdict]) -> str:
    cards = []
    for v in items:
        mark, cls = ("✓ passes", "oi-pass") if v.ok else ("✗ fails", "oi-fail")
        cards.append(f'<div class="oi-verdict {cls}" data-ok="{str(v.ok).lower()}"><span class="oi-call">{escape(v.call)}</span>'
                     f" {mark}<br>{escape(v.detail)}</div>")
    return f'<div class="oi-verdicts">{"".join(cards)}</div>'


def legend_html() -> str:
    items = [
        '<span class="oi-chip" style="background:#ffd8a8"><span class="oi-txt">tok</span></span> token with a span (text lane)',
        '<span class="oi-chip oi-inserted"><span class="oi-txt">[CLS]</span></span> sentinel (0, 0): its own lane',
        '<span class="oi-chip oi-red"><span class="oi-txt">‹F0›</span></span>'
        '<span class="oi-cut oi-cut-red oi-cut-mini">✂</span> boundary inside a UTF-8 character',
        '<span class="oi-chip oi-amber"><span class="oi-txt">e</span></span>'
        '<span class="oi-cut oi-cut-amber oi-cut-mini">✂</span> boundary inside a grapheme cluster',
        '<span class="oi-gap">gap</span> covered by no token',
    ]
    return '<div class="oi-legend">' + "".join(f"<span>{i}</span>" for i in items) + "</div>"
