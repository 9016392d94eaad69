"""What the Chat page draws, as pure functions: the rendered prompt with its tokens over it (template-added text
hatched apart from what the user wrote), its legend, and the per-message token counts of every model.

Tokens are drawn over the rendered text (the raw input of the encoding) under their ``original`` spans by the
Playground's own strip (``tokapp.html.tokens_html``): same classes, same escaping, same visible whitespace. Each
chip then gets ``data-owner`` (``template`` or ``m<i>``, the message index), its owner in the tooltip, and the
``ch-tpl`` class when the template added it. Every string from the user, a template or a vocabulary is escaped here (``html.escape``, ``md_escape``).

``owner_label(None, ("user",)) == "template"``

Left out: rendering and encoding (``tokcore.chat``), widgets and caching (``tokapp.st_chat``), and a chip view over
the tokenization text (the Playground's strip shows that).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from . import colors, html
from .tokens import TokenView
from .visible import visible

STYLE = """
.ch-tpl{background:repeating-linear-gradient(135deg,#e9ecef 0 4px,#f8f9fa 4px 8px) !important;color:#495057;
  border:1px dashed #adb5bd}
.ch-tpl.tk-special{background:repeating-linear-gradient(135deg,#5f3dc4 0 4px,#7950f2 4px 8px) !important;color:#fff}
.ch-tpl .tk-id{color:#495057}
.ch-tpl.tk-special .tk-id{color:#e5dbff}
.ch-gap-tpl{background:repeating-linear-gradient(135deg,#e9ecef 0 4px,#f8f9fa 4px 8px)}
.ch-prompt .tk-strip{font-size:14px}
"""


def style_block() -> str:
    """The page's own ``<style>`` element (the chip styles come from ``tokapp.html.style_block``)."""
    return f"<style>{STYLE}</style>"


def md_escape(text: str) -> str:
    r"""``text`` safe to put in Markdown: every Markdown and HTML punctuation mark backslash-escaped.

    ``md_escape("**a** <b>") == r"\*\*a\*\* \<b\>"``
    """
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$:&])", r"\\\1", text)


def owner_label(owner: int | None, roles: Sequence[str | None]) -> str:
    """Who a token belongs to, for a tooltip. ``owner_label(1, ("system", "user")) == "message 2 (user)"``"""
    if owner is None:
        return "template"
    role = roles[owner] if owner < len(roles) and roles[owner] else "no role"
    return f"message {owner + 1} ({role})"


# A chip as tokapp.html writes it: every attribute value there is escaped, so no '"' occurs inside one.
_CHIP = re.compile(r'<span class="(tk-tok [^"]*)"((?: style="[^"]*")?) title="([^"]*)" data-index="(\d+)">')


def prompt_html(view: TokenView, owners: Sequence[int | None], roles: Sequence[str | None], *,
                palette: str = colors.DEFAULT_PALETTE, show_ids: bool = True, max_tokens: int | None = 3000) -> str:
    """The rendered prompt as the Playground's token strip over its text (``html.tokens_html``, raw-input spans),
    each chip marked with its owner: the template's tokens hatched grey (hatched purple when special), the user's
    in alternating colours. ``owners[i]`` is token ``i``'s message, ``None`` for the template
    (``ChatEncoding.token_messages``)."""
    if len(owners) != len(view.rows):
        raise ValueError(f"owners has {len(owners)} entries for {len(view.rows)} tokens; pass the encoding's own")

    def mark(match: re.Match) -> str:
        classes, style, title, index = match.groups()
        owner = owners[int(index)]
        if owner is None:
            classes, style = classes + " ch-tpl", ""
        title += escape(" · " + owner_label(owner, roles), quote=True)
        data_owner = "template" if owner is None else f"m{owner}"
        return f'<span class="{classes}"{style} title="{title}" data-index="{index}" data-owner="{data_owner}">'

    strip = html.tokens_html(view, coords="original", palette=palette, show_ids=show_ids, max_tokens=max_tokens)
    return f'<div class="ch-prompt">{_CHIP.sub(mark, strip)}</div>'


LEGEND: tuple[tuple[str, str, str], ...] = (  # (chip classes, chip text, what it means); colours come from the palette
    ("tk-token ch-tpl", "[INST]", "added by the template"),
    ("tk-special ch-tpl", "<s>", "special token added by the template"),
    ("tk-special", "<|im_end|>", "special token typed in a message"),
    ("tk-unknown", "?", "unknown"),
)


def legend_html(palette: str = colors.DEFAULT_PALETTE) -> str:
    """A one-line key: what the user wrote, what the template added (plain and special), unknown, whitespace."""
    def chip(classes: str, text: str, style: str = "") -> str:
        return f'<span class="tk-tok {classes}"{style}><span class="tk-txt">{escape(text)}</span></span>'

    yours = "".join(chip("tk-token", text, f' style="background:{colors.token_color(k, palette)}"')
                    for k, text in enumerate(("your", "·text")))
    items = [yours + " written by you"] + [chip(classes, text) + " " + meaning for classes, text, meaning in LEGEND]
    items.append('<span class="tk-ws">· ⏎ ⇥</span> space, newline, tab')
    return '<div class="tk-legend">' + "".join(f'<span class="tk-li">{item}</span>' for item in items) + "</div>"


def preview(text: str, limit: int = 48) -> str:
    """A message for a table cell: whitespace made visible, cut at ``limit`` characters.

    ``preview("a b", 2) == "a·…"``
    """
    shown = visible(text)
    return shown if len(shown) <= limit else shown[:limit] + "…"


def unique_labels(labels: Sequence[str]) -> list[str]:
    """Labels made distinct for table columns. ``unique_labels(["a", "a", "b"]) == ["a", "a (2)", "b"]``"""
    out: list[str] = []
    for label in labels:
        name, n = label, 1
        while name in out:
            n += 1
            name = f"{label} ({n})"
        out.append(name)
    return out


def counts_records(roles: Sequence[str], contents: Sequence[str],
                   columns: Sequence[tuple[str, Sequence[int] | None, int | None]]) -> list[dict]:
    """The per-message counts table: one row per message, then ``template`` and ``total``; one column per model
    ``(label, message_token_counts, template_token_count)`` (``None`` counts: the model failed, cells stay empty).

    ``counts_records(["user"], ["hi"], [("m", [1], 3)])[-1] == {"#": "", "role": "total", "content": "", "m": 4}``
    """
    labels = unique_labels([label for label, _counts, _template in columns])
    records: list[dict] = []
    for i, (role, content) in enumerate(zip(roles, contents)):
        row: dict = {"#": str(i + 1), "role": role, "content": preview(content)}
        for label, (_name, counts, _template) in zip(labels, columns):
            row[label] = counts[i] if counts is not None and i < len(counts) else None
        records.append(row)
    template_row: dict = {"#": "", "role": "template", "content": "role tags, separators, BOS/EOS, prompt"}
    total_row: dict = {"#": "", "role": "total", "content": ""}
    for label, (_name, counts, template) in zip(labels, columns):
        template_row[label] = template
        total_row[label] = None if counts is None or template is None else sum(counts) + template
    return records + [template_row, total_row]
