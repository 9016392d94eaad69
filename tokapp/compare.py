"""Compare: several tokenizers on one text. Figures, ringed unshared boundaries, A->B alignment, languages.

Tokenizers normalize differently, so comparisons use the raw input and ``original_offsets``
(the one coordinate system every tokenizer shares). A boundary is a start or stop of a
non-empty span; one that no other chosen tokenizer has is drawn with a ring.

``figure_rows([("ascii", build_view(tokcore.CharTokenizer(), "ab"), "<UNK>")])[0]["tokens"] == 2``

Left out: encoding and caching (the page), and styling of the chips (``tokapp.html.STYLE``,
whose ``tk-`` classes the chips reuse).
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Callable, Iterable, Sequence

from tokcore import encode_result, has_nonempty_span
from tokcore.analysis.alignment import align_tokens, boundary_points, figures

from . import colors
from .byte_label import piece_html
from .span_walk import walk
from .tokens import TokenView, row_kind
from .tokens import unk_id as _unk_id
from .visible import visible, visible_segments

CORPUS = Path(__file__).resolve().parent.parent / "sample_vocabs" / "corpora" / "multilingual.txt"
unk_id = _unk_id  # the pages ask compare.unk_id(tokenizer); tokens.build_view marks unknowns with it too
RING = "#e8590c"
STYLE = f"""
.cmp-ring{{display:inline-block;width:11px;height:11px;border:2.5px solid {RING};border-radius:50%;
  vertical-align:middle;margin:0 1px;box-sizing:border-box}}
.cmp-note{{font-size:13px;color:#495057}}
"""


def style_block() -> str:
    return f"<style>{STYLE}</style>"


def original_offsets(view: TokenView) -> list[tuple[int, int]]:
    return [r.original for r in view.rows]


def figure_rows(items: Sequence[tuple[str, TokenView, str | None]]) -> list[dict]:
    """Per tokenizer: counts, characters and bytes per token, fertility (tokens per word), unknown rate."""
    out = []
    for label, view, unk in items:
        f = figures(view.raw_text, view.tokens, original_offsets(view), unk_token=unk)
        spanning = [r for r in view.rows if has_nonempty_span(r.original)]  # as figures counts them
        unknown = sum(1 for r in spanning if r.unknown)  # by id too: a sentencepiece unknown keeps its text
        out.append(
            {
                "tokenizer": label,
                "tokens": f.n_tokens,
                "characters": f.n_chars,
                "bytes": f.n_bytes,
                "chars / token": round(f.chars_per_token, 3),
                "bytes / token": round(f.bytes_per_token, 3),
                "fertility (tokens / word)": round(f.fertility, 3),
                "unknown rate": round(unknown / len(spanning), 4) if spanning else 0.0,
            }
        )
    return out


def unshared_points(views: Sequence[TokenView]) -> list[set[int]]:
    """For each view, the boundaries (1-based byte indices of the raw input) no other view has."""
    points = [boundary_points(original_offsets(v)) for v in views]
    return [mine.difference(*(p for j, p in enumerate(points) if j != i)) for i, mine in enumerate(points)]


def _text_html(text: str) -> str:
    return "".join(f'<span class="tk-ws">{escape(s)}</span>' if m else escape(s) for s, m in visible_segments(text))


def _piece(data: bytes, start: int, stop: int) -> str:
    """``data[start:stop]`` (0-based) through the app's one byte renderer (``tokapp.byte_label``)."""
    return piece_html(data, start, stop, _text_html)


def _ring(idx: int) -> str:
    return f'<span class="cmp-ring" data-byte="{idx}" title="boundary at byte {idx}: no other tokenizer cuts here"></span>'


def ringed_html(view: TokenView, unshared: set[int], *, ring: bool = True, palette: str = colors.DEFAULT_PALETTE,
                show_ids: bool = True, max_tokens: int = 1500, start: int = 0) -> str:
    """Token chips over the raw input; with ``ring``, a ring marks each boundary the others do not share.

    ``start`` and ``max_tokens`` choose the window of tokens drawn.
    """
    data = view.raw_text.encode("utf-8", "surrogatepass")
    out: list[str] = []
    rings = 0
    for event in walk(view.rows, original_offsets(view), data, unshared if ring else set(), max_tokens=max_tokens,
                      start=start):
        what = event[0]
        if what == "before":
            out.append(f'<span class="tk-more">{event[1]} tokens before …</span>')
        elif what == "gap":
            out.append(f'<span class="tk-gap" title="covered by no token">{_piece(data, event[2], event[2] + len(event[1]))}</span>')
        elif what == "mark":
            rings += 1
            out.append(_ring(event[1]))
        elif what == "more":
            out.append(f'<span class="tk-more">… {event[1]} more tokens not drawn</span>')
        else:
            row = event[1]
            kind = row_kind(row)
            ident = f'<span class="tk-id">{row.id}</span>' if show_ids else ""
            title = escape(f"#{row.index} · id {row.id} · token {visible(row.token)} · input span {row.original} (bytes, 1-based, half-open)",
                           quote=True)
            style, inner = "", _text_html(row.token)
            if what == "token":
                start, stop, k = event[2:]
                if stop > start:
                    inner = _piece(data, start - 1, stop - 1)
                if kind not in ("special", "inserted"):
                    style = f' style="background:{colors.token_color(k, palette)}"'
            out.append(f'<span class="tk-tok tk-{kind}"{style} title="{title}"><span class="tk-txt">{inner}</span>'
                       f"{ident}</span>")
    return f'<div class="tk-strip cmp-strip" data-rings="{rings}">{"".join(out)}</div>'


def alignment_rows(view_a: TokenView, view_b: TokenView, window: tuple[int, int] | None = None) -> list[dict]:
    """A's token i covers B's tokens j..k (by overlap in the raw input); ``None`` when it covers none.

    ``window`` keeps A's tokens ``[lo, hi)`` only. Linear time (``tokcore.analysis.alignment.SpanIndex``).
    ``alignment_rows(a, a)[i]["b_first"] == i`` for every token of ``a`` with a non-empty span.
    """
    lo, hi = window if window is not None else (0, len(view_a.rows))
    ranges = align_tokens(original_offsets(view_a)[lo:hi], original_offsets(view_b))
    out = []
    for row, rng in zip(view_a.rows[lo:hi], ranges):
        out.append(
            {
                "a_index": row.index,
                "a_token": row.token,
                "a_span": list(row.original),
                "b_first": None if rng is None else rng[0],
                "b_last": None if rng is None else rng[1],
                "b_tokens": [] if rng is None else [view_b.rows[j].token for j in range(rng[0], rng[1] + 1)],
            }
        )
    return out


def alignment_display(rows: list[dict]) -> list[dict]:
    return [
        {
            "A #": r["a_index"],
            "A token": visible(r["a_token"]),
            "raw span (bytes, 1-based, half-open)": f"({r['a_span'][0]}, {r['a_span'][1]})",
            "B tokens": ("–" if r["b_first"] is None else str(r["b_first"]) if r["b_first"] == r["b_last"]
                         else f"{r['b_first']}–{r['b_last']}"),
            "B pieces": " · ".join(visible(t) for t in r["b_tokens"]),
        }
        for r in rows
    ]


def alignment_json(label_a: str, label_b: str, text: str, rows: list[dict]) -> str:
    """The map as JSON: ``{"a": ..., "b": ..., "map": [{"a_index": 0, "b_first": 0, "b_last": 1, ...}]}``."""
    doc = {
        "a": label_a,
        "b": label_b,
        "text": text,
        "spans": "original_offsets: 1-based, half-open UTF-8 byte spans into the text; (0, 0) = no source",
        "map": rows,
    }
    return json.dumps(doc, ensure_ascii=False, indent=2)


# ------------------------------------------------------------------ multilingual view
def parse_corpus(text: str) -> list[tuple[str, str]]:
    """Lines ``Language: text`` as pairs. ``parse_corpus("French: Le chat.")== [("French", "Le chat.")]``."""
    out = []
    for line in text.splitlines():
        name, sep, sentence = line.partition(":")
        if sep and name.strip() and sentence.strip():
            out.append((name.strip(), sentence.strip()))
    return out


def load_corpus(path: Path = CORPUS) -> list[tuple[str, str]]:
    return parse_corpus(path.read_text(encoding="utf-8")) if path.is_file() else []


def sentence_ids(tokenizer) -> Callable[[str], list[int]]:
    """``encode`` for ``multilingual_rows``: the ids the model gives one sentence, with no template tokens and
    none of the tokenizer's own padding or truncation (MiniLM's tokenizer.json pads every sentence to 128)."""
    return lambda text: encode_result(tokenizer, text, add_special_tokens=False, padding=False, truncation=False).ids


def multilingual_rows(label: str, encode: Callable[[str], Sequence], corpus: Iterable[tuple[str, str]],
                      unk_id: int | None = None) -> list[dict]:
    """Tokens per character of each language's sentence; ``encode(text)`` returns the token ids.

    ``unk_id`` (the tokenizer's unknown token id, if any) counts the tokens where it gave up: fewer tokens
    won by mapping a script to ``[UNK]`` is not packing it tightly. Template tokens are left out by the
    caller (``add_special_tokens=False``) so they do not inflate short sentences.
    """
    out = []
    for language, sentence in corpus:
        ids = list(encode(sentence))
        n = len(ids)
        unknown = sum(1 for i in ids if unk_id is not None and i == unk_id)
        out.append({"language": language, "tokenizer": label, "tokens": n, "characters": len(sentence),
                    "tokens per character": round(n / len(sentence), 4) if sentence else 0.0,
                    "unknown": unknown, "unknown share": round(unknown / n, 4) if n else 0.0})
    return out


UNKNOWN_THRESHOLD = 0.01  # a tokenizer giving up on more than 1 % of its tokens is not ranked


def language_ranking(rows: list[dict], threshold: float = UNKNOWN_THRESHOLD) -> list[dict]:
    """One row per tokenizer: tokens per character over the whole corpus and the unknown share beside it.

    Ranked by tokens per character among tokenizers whose unknown share is at most ``threshold``; the rest
    come last, unranked, with a note: giving up (``[UNK]``) never ranks a tokenizer ahead.
    ``language_ranking([{"tokenizer": "a", "tokens": 2, "characters": 4, "unknown": 1}])[0]["rank"] == "–"``
    """
    totals: dict[str, list[int]] = {}
    for r in rows:
        t = totals.setdefault(r["tokenizer"], [0, 0, 0])
        t[0] += r["tokens"]
        t[1] += r["characters"]
        t[2] += r.get("unknown", 0)
    out = []
    for label, (n, chars, unknown) in totals.items():
        share = unknown / n if n else 0.0
        out.append({"tokenizer": label, "tokens": n, "tokens per character": round(n / chars, 4) if chars else 0.0,
                    "unknown share": round(share, 4), "ranked": share <= threshold})
    out.sort(key=lambda r: (not r["ranked"], r["tokens per character"]))
    rank = 0
    for r in out:
        if r.pop("ranked"):
            rank += 1
            r["rank"], r["note"] = str(rank), ""
        else:
            r["rank"] = "–"
            r["note"] = (f"not ranked: {r['unknown share']:.0%} of its tokens are unknown (over "
                         f"{threshold:.0%}); its few tokens mean it gave up, not that it packs tightly")
    return [{k: r[k] for k in ("rank", "tokenizer", "tokens per character", "unknown share", "tokens", "note")}
            for r in out]


def multilingual_figure(rows: list[dict]):
    """A grouped bar chart (plotly): languages along x, tokens per character, one colour per tokenizer."""
    import plotly.graph_objects as go

    fig = go.Figure()
    languages = list(dict.fromkeys(r["language"] for r in rows))
    for label in dict.fromkeys(r["tokenizer"] for r in rows):
        mine = {r["language"]: r for r in rows if r["tokenizer"] == label}
        fig.add_trace(
            go.Bar(
                name=label,
                x=languages,
                y=[mine[lang]["tokens per character"] if lang in mine else None for lang in languages],
                customdata=[[mine[lang]["tokens"], mine[lang]["characters"], mine[lang].get("unknown share", 0.0)]
                            if lang in mine else [None, None, None] for lang in languages],
                hovertemplate="%{x}: %{y:.2f} tokens/char (%{customdata[0]} tokens, %{customdata[1]} chars, "
                              "%{customdata[2]:.0%} unknown)"
                              "<extra>" + escape(label) + "</extra>",
            )
        )
    fig.update_layout(
        barmode="group",
        height=440,
        margin=dict(l=10, r=10, t=40, b=10),
        yaxis_title="tokens per character",
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
        title=None,
    )
    return fig
