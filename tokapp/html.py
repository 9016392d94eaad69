"""HTML builders for token strips and byte views. Pure functions: strings in, escaped HTML out.

Every string that comes from the user or a vocabulary goes through ``html.escape``; markup is
only ever produced here. Classes are prefixed ``tk-`` (styled by ``STYLE``); colours are inline
so a palette can change without new CSS.

Left out: layout of the page (the pages do that) and interactivity (no JavaScript at all).
"""

from __future__ import annotations

from html import escape

from . import colors
from .byte_label import byte_piece_html, owner_chars
from .tokens import BYTE_SPAN, CHAR_SPAN, TokenRow, TokenView, char_span, row_kind, span_label
from .visible import visible, visible_segments

STYLE = """
.tk-strip{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:15px;line-height:2.1;
  padding:10px;border:1px solid #dee2e6;border-radius:6px;background:#fff;color:#1a1a1a;overflow-wrap:anywhere}
.tk-tok{display:inline-flex;flex-direction:column;align-items:center;vertical-align:top;margin:2px 1px;
  padding:0 3px;border-radius:4px;line-height:1.25;color:#1a1a1a;border:1px solid rgba(0,0,0,.08)}
.tk-txt{white-space:pre}
.tk-id{font-size:10px;color:#495057;line-height:1.1}
.tk-ws{color:#868e96}
.tk-bytes-hex{color:#862e9c;font-size:12px}
.tk-bytes-of{color:#495057;font-size:11px}
.tk-special{background:#5f3dc4 !important;color:#fff;font-weight:600}
.tk-special .tk-id,.tk-special .tk-ws,.tk-special .tk-byte,.tk-special .tk-bspan,.tk-special .tk-bytes-hex,
.tk-special .tk-bytes-of{color:#fff}
.tk-inserted{background:#fff !important;border:2px dashed #5f3dc4;color:#5f3dc4;font-style:italic}
.tk-inserted .tk-id{color:#5f3dc4}
.tk-unknown{border:2px solid #e03131}
.tk-unk-mark{font-size:10px;color:#c92a2a;line-height:1.1}
.tk-empty{border:2px dotted #495057;min-width:8px}
.tk-overlap{outline:2px dotted #f08c00;outline-offset:-1px}
.tk-gap{color:#868e96;text-decoration:line-through;white-space:pre}
.tk-more{color:#868e96;font-style:italic}
.tk-bgrid{display:flex;flex-wrap:wrap;gap:6px;font-family:ui-monospace,Menlo,Consolas,monospace}
.tk-bblock{border-radius:4px;padding:3px 5px;border:1px solid rgba(0,0,0,.1);color:#1a1a1a;font-size:13px}
.tk-btok{font-weight:600;white-space:pre}
.tk-byte{display:inline-block;margin-right:3px;font-size:12px}
.tk-bspan{font-size:10px;color:#495057}
.tk-legend{line-height:2}
.tk-li{white-space:nowrap;margin-right:14px;font-size:14px}
"""


def style_block() -> str:
    """The ``<style>`` element every page injects once."""
    return f"<style>{STYLE}</style>"


def _segments_html(text: str) -> str:
    """Escaped ``text`` with whitespace and controls as grey markers."""
    parts = []
    for seg, marker in visible_segments(text):
        seg = escape(seg)
        parts.append(f'<span class="tk-ws">{seg}</span>' if marker else seg)
    return "".join(parts)


def _piece_html(data: bytes, start: int, stop: int) -> tuple[str, int]:
    """(HTML of ``data[start:stop]``, how many newlines it holds). Cut characters: their bytes and the
    character they belong to (``tokapp.byte_label``, the app's one byte renderer)."""
    piece = data[start:stop]
    try:
        text = piece.decode("utf-8")
    except UnicodeDecodeError:
        return byte_piece_html(piece, owner_chars(data, start, stop)), 0
    return _segments_html(text), text.count("\n")


def _title(row: TokenRow, view: TokenView | None = None, *, both_units: bool = False) -> str:
    parts = [f"#{row.index}", f"id {row.id}", f"token {visible(row.token)}",
             f"offsets {span_label(row.offset)} ({BYTE_SPAN})", f"raw-input offsets {span_label(row.original)} "
             f"({BYTE_SPAN})"]
    if both_units and view is not None:
        for name, text, span in (("offsets", view.view_text, row.offset), ("raw-input offsets", view.raw_text,
                                                                            row.original)):
            chars = char_span(text, span)
            parts.append(f"{name} {'–' if chars is None else span_label(chars)} ({CHAR_SPAN})")
    if row.normalized_unknown:
        # The normalizer wrote the unknown token into the tokenization text (the ASCII tokenizer's é), or the
        # model found no token for this text (WordPiece's 🙂) and gave the unknown one.
        who = "the normalizer wrote" if row.text == row.token else "the model has no token for it and gave"
        parts.append(f"unknown character {visible(row.original_text or '')}: {who} {row.token} "
                     "(not typed in the text)")
    elif row.unknown:
        parts.append("unknown: the tokenizer's unknown id (the model has no token for this text)")
    elif row.special:
        parts.append("special")
    if row.inserted:
        parts.append("inserted by the template: no source span")
    if row.cuts_character:
        parts.append("span cuts a UTF-8 character")
    return escape(" · ".join(parts), quote=True)


def _chip(row: TokenRow, inner: str, *, background: str | None, extra: str = "", show_ids: bool = True,
          title: str = "") -> str:
    kind = row_kind(row)
    classes = f"tk-tok tk-{kind}{extra}" + (" tk-normalized-unk" if row.normalized_unknown else "")
    style = f' style="background:{background}"' if background and kind not in ("special", "inserted") else ""
    ident = f'<span class="tk-id">{row.id}</span>' if show_ids else ""
    mark = '<span class="tk-unk-mark">unknown</span>' if row.normalized_unknown else ""
    return (f'<span class="{classes}"{style} title="{title or _title(row)}" data-index="{row.index}">'
            f'<span class="tk-txt">{inner}</span>{mark}{ident}</span>')


def tokens_html(
    view: TokenView,
    *,
    coords: str = "view",
    palette: str = colors.DEFAULT_PALETTE,
    show_ids: bool = True,
    max_tokens: int | None = 2000,
    both_units: bool = False,
) -> str:
    """The text drawn as a strip of token chips, each with its id underneath.

    Tooltips give every span with its unit and base (``both_units``: 0-based characters too). A ``<UNK>``
    the normalizer wrote for a character it cannot encode is drawn as that character, marked unknown.

    ``coords="view"`` draws the tokenization text under the contract offsets; ``"original"``
    draws the raw input under ``original_offsets``. Text no token covers is shown struck
    through; inserted tokens (sentinel spans) appear where the sequence puts them.
    """
    if coords not in ("view", "original"):
        raise ValueError(f"coords must be 'view' or 'original', got {coords!r}")
    text = view.view_text if coords == "view" else view.raw_text
    data = text.encode("utf-8")
    rows = view.rows if max_tokens is None else view.rows[:max_tokens]
    out: list[str] = []
    cursor = 0
    k = 0
    for row in rows:
        span = row.offset if coords == "view" else row.original
        title = _title(row, view, both_units=both_units)
        if row.inserted or span == (0, 0):
            out.append(_chip(row, _segments_html(row.token), background=None, show_ids=show_ids, title=title))
            continue
        start, stop = span[0] - 1, span[1] - 1
        if start > cursor:
            gap, newlines = _piece_html(data, cursor, start)
            out.append(f'<span class="tk-gap" title="not covered by any token">{gap}</span>' + "<br>" * newlines)
        extra = " tk-overlap" if start < cursor else ""
        if row.normalized_unknown:
            inner, newlines = _segments_html(row.original_text or ""), 0  # the source character, not "<UNK>"
        elif stop <= start:
            inner, newlines = _segments_html(row.token), 0
        else:
            inner, newlines = _piece_html(data, start, stop)
        out.append(_chip(row, inner, background=colors.token_color(k, palette), extra=extra, show_ids=show_ids,
                         title=title))
        out.append("<br>" * newlines)
        if not row.special:
            k += 1
        cursor = max(cursor, stop)
    if len(rows) < len(view.rows):
        out.append(f'<span class="tk-more">… {len(view.rows) - len(rows)} more tokens not drawn</span>')
    elif cursor < len(data):
        gap, _ = _piece_html(data, cursor, len(data))
        out.append(f'<span class="tk-gap" title="not covered by any token">{gap}</span>')
    if not view.rows and not text:
        out.append('<span class="tk-more">(empty text: no tokens)</span>')
    return f'<div class="tk-strip" data-coords="{coords}">{"".join(out)}</div>'


def byte_view_html(view: TokenView, *, palette: str = colors.DEFAULT_PALETTE, max_tokens: int | None = 500) -> str:
    """One block per token: the token, the UTF-8 bytes it covers in hex, its contract span."""
    rows = view.rows if max_tokens is None else view.rows[:max_tokens]
    data = view.view_text.encode("utf-8")
    blocks = []
    k = 0
    for row in rows:
        kind = row_kind(row)
        if row.normalized_unknown:
            shown = _segments_html(row.original_text or "")
        elif row.inserted or not row.piece:
            shown = _segments_html(row.token)
        else:  # what the token covers, never its byte-alphabet spelling (no "Ã©" mojibake)
            shown, _ = _piece_html(data, row.offset[0] - 1, row.offset[1] - 1)
        if kind in ("special", "inserted"):
            style = ""
        else:
            style = f' style="background:{colors.token_color(k, palette)}"'
            k += 1
        if row.inserted:
            cells = '<span class="tk-byte">no bytes</span>'
        elif not row.piece:
            cells = '<span class="tk-byte">0 bytes</span>'
        else:
            cells = "".join(f'<span class="tk-byte">{b:02X}</span>' for b in row.piece)
        blocks.append(
            f'<div class="tk-bblock tk-{kind}"{style} title="{_title(row)}">'
            f'<div class="tk-btok">{shown}</div>'
            f"<div>{cells}</div>"
            f'<div class="tk-bspan">bytes {escape(span_label(row.offset))} (1-based) · id {row.id}</div></div>'
        )
    if len(rows) < len(view.rows):
        blocks.append(f'<div class="tk-more">… {len(view.rows) - len(rows)} more tokens</div>')
    return f'<div class="tk-bgrid">{"".join(blocks)}</div>'


def legend_html(palette: str = colors.DEFAULT_PALETTE) -> str:
    """A one-line key to the chip styles."""
    a, b = colors.token_color(0, palette), colors.token_color(1, palette)
    items = [
        f'<span class="tk-tok" style="background:{a}"><span class="tk-txt">tok</span></span>'
        f'<span class="tk-tok" style="background:{b}"><span class="tk-txt">en</span></span> ordinary (alternating)',
        '<span class="tk-tok tk-special"><span class="tk-txt">[SPECIAL]</span></span> special, typed in the text',
        '<span class="tk-tok tk-unknown"><span class="tk-txt">é</span><span class="tk-unk-mark">unknown</span></span>'
        ' unknown character (the normalizer or the model wrote the unknown token for it)',
        '<span class="tk-tok tk-inserted"><span class="tk-txt">[CLS]</span></span> inserted, span (0, 0)',
        '<span class="tk-tok tk-unknown"><span class="tk-txt">?</span></span> unknown',
        '<span class="tk-gap">gap</span> covered by no token',
        '<span class="tk-ws">· ⏎ ⇥</span> space, newline, tab',
    ]
    return '<div class="tk-legend">' + "".join(f'<span class="tk-li">{item}</span>' for item in items) + "</div>"
