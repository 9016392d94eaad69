"""Plotly figures of the training pages: candidate bars per step (winner and ties marked; the
page's step control is their only play control), the compression curve, Unigram's EM losses, pruning
rounds, removed pieces with loss deltas, and the Viterbi lattice with its best path.

Every function takes plain data (tuples, dicts from ``tokapp.training`` or a model's ``explain``)
and returns a ``plotly.graph_objects.Figure``; nothing here runs a trainer or imports streamlit.

Left out: page layout and caching (the pages), and the data itself (``tokapp.training``).
"""

from __future__ import annotations

import math
from typing import Sequence

import plotly.graph_objects as go

from .visible import visible

WINNER = "#e8590c"
TIE = "#f59f00"
OTHER = "#74c0fc"
PATH = "#d6336c"
NODE = "#adb5bd"


def pair_label(left: str, right: str) -> str:
    """A pair as the bar label. ``pair_label("h", "ug") == "h + ug"``."""
    return f"{visible(left)} + {visible(right)}"


def bar_colors(values: Sequence[float]) -> tuple[list[str], list[str]]:
    """(colour, mark) per candidate: the first wins, others equal to it are ties.

    ``bar_colors([5, 5, 4]) == ([WINNER, TIE, OTHER], ["winner", "tie", ""])``
    """
    colors, marks = [], []
    for i, v in enumerate(values):
        if i == 0:
            colors.append(WINNER), marks.append("winner")
        elif v == values[0]:
            colors.append(TIE), marks.append("tie")
        else:
            colors.append(OTHER), marks.append("")
    return colors, marks


def _bar_trace(rows: Sequence[tuple], value_index: int, value_name: str) -> go.Bar:
    labels = [pair_label(r[0], r[1]) for r in rows]
    values = [r[value_index] for r in rows]
    colors, marks = bar_colors(values)
    text = [f"{_fmt(v)} {m}".strip() for v, m in zip(values, marks)]
    # Reversed so the winner is drawn at the top of a horizontal bar chart.
    return go.Bar(x=values[::-1], y=labels[::-1], orientation="h", marker_color=colors[::-1], text=text[::-1],
                  textposition="auto", name=value_name, hovertemplate="%{y}: %{x}<extra></extra>")


def _fmt(v: float) -> str:
    if isinstance(v, int):
        return str(v)
    return f"{v:.4g}"


def candidate_bars(rows: Sequence[tuple], *, value_index: int = 2, value_name: str = "count",
                   title: str = "") -> go.Figure:
    """Horizontal bars of the candidates before one merge; winner orange, ties amber."""
    fig = go.Figure(_bar_trace(rows, value_index, value_name))
    fig.update_layout(title=title, height=max(220, 32 * len(rows) + 90), margin=dict(l=10, r=10, t=40, b=30),
                      xaxis_title=value_name, showlegend=False)
    if not rows:
        fig.add_annotation(text="no candidate table recorded for this step", showarrow=False)
    return fig


def candidate_chart(tables: Sequence[Sequence[tuple]], current: int, *, value_index: int = 2,
                    value_name: str = "count", label: str = "merge") -> go.Figure:
    """The candidates before step ``current + 1`` (``tables[k]`` = candidates before merge ``k + 1``).

    No slider or play button of its own: the page's step control (slider, previous/next, Play) is the one
    control, so the chart can never run out of step with the rest of the page.
    ``candidate_chart([[("h", "ug", 3)]], 0).layout.updatemenus == ()``
    """
    if not tables:
        return candidate_bars([], value_index=value_index, value_name=value_name)
    current = max(0, min(current, len(tables) - 1))
    return candidate_bars(tables[current], value_index=value_index, value_name=value_name,
                          title=f"Candidates before {label} {current + 1}")


def compression_curve(curve: Sequence[float], current: int, *, label: str = "merges") -> go.Figure:
    """Tokens per word after 0..n merges, the current step marked."""
    fig = go.Figure(go.Scatter(x=list(range(len(curve))), y=list(curve), mode="lines", name="tokens per word",
                               line=dict(color="#1c7ed6")))
    if 0 <= current < len(curve):
        fig.add_trace(go.Scatter(x=[current], y=[curve[current]], mode="markers+text", name="now",
                                 text=[f"{curve[current]:.3f}"], textposition="top right", cliponaxis=False,
                                 marker=dict(color=WINNER, size=11)))
    fig.update_layout(title="Compression: tokens per word", xaxis_title=label, yaxis_title="tokens / word",
                      height=300, margin=dict(l=10, r=10, t=40, b=30), showlegend=False)
    return fig


# ----------------------------------------------------------------------------- Unigram
def em_loss_figure(em_losses: Sequence[float], per_round: int, current_round: int | None = None) -> go.Figure:
    """The corpus loss after every EM iteration; dotted lines where a pruning round happened.

    With ``current_round`` (the page's step), iterations after that round's EM are greyed, so the loop
    EM -> prune -> EM reads step by step with the pruning chart.
    """
    xs = list(range(1, len(em_losses) + 1))
    shown = len(em_losses) if current_round is None else min(len(em_losses), per_round * (current_round + 1))
    fig = go.Figure(go.Scatter(x=xs[:shown], y=list(em_losses[:shown]), mode="lines+markers", name="loss",
                               line=dict(color="#1c7ed6")))
    if shown < len(em_losses):
        fig.add_trace(go.Scatter(x=xs[shown - 1 if shown else 0:], y=list(em_losses[shown - 1 if shown else 0:]),
                                 mode="lines+markers", name="later rounds", line=dict(color="#ced4da")))
    # One line per pruning round, handed over at once (add_vline copies every earlier shape: 1 s at 60 rounds).
    rounds = range(per_round, len(em_losses), per_round) if per_round > 0 else ()
    fig.update_layout(shapes=[dict(type="line", x0=r + 0.5, x1=r + 0.5, y0=0, y1=1, xref="x", yref="y domain",
                                   line=dict(dash="dot", color="#868e96")) for r in rounds])
    fig.update_layout(title="Loss per EM iteration (dotted: pruning)", xaxis=dict(title="EM iteration", dtick=1),
                      yaxis_title="negative log-likelihood", height=300, margin=dict(l=10, r=10, t=40, b=30),
                      showlegend=False)
    return fig


def pruning_figure(sizes: Sequence[int], losses: Sequence[float], current: int) -> go.Figure:
    """Loss and vocabulary size per pruning round (round 0 = seed), drawn up to round ``current``.

    ``sizes[r]``/``losses[r]``: pieces and loss after round ``r``. The axes span every round, so the
    page's step control grows the lines in place; the figure has no play control of its own.
    """
    n = len(sizes)
    current = max(0, min(current, n - 1))
    xs = list(range(current + 1))
    fig = go.Figure([go.Scatter(x=xs, y=list(losses[: current + 1]), mode="lines+markers", name="loss",
                                line=dict(color=WINNER)),
                     go.Scatter(x=xs, y=list(sizes[: current + 1]), mode="lines+markers", name="vocabulary size",
                                yaxis="y2", line=dict(color="#1c7ed6", dash="dash"))])
    fig.update_layout(
        title="Pruning rounds: loss and vocabulary size", height=340, margin=dict(l=10, r=10, t=40, b=10),
        xaxis=dict(title="pruning round", range=[-0.3, max(n - 1, 1) + 0.3], dtick=1),
        yaxis=dict(title="loss", range=_padded(losses)),
        yaxis2=dict(title="pieces", overlaying="y", side="right", range=_padded(sizes)),
        legend=dict(orientation="h", y=1.12, x=1, xanchor="right"),
    )
    return fig


def _padded(values: Sequence[float]) -> list[float]:
    finite = [v for v in values if v is not None and math.isfinite(v)] or [0.0]
    lo, hi = min(finite), max(finite)
    pad = (hi - lo) * 0.08 or max(abs(hi) * 0.1, 1.0)
    return [lo - pad, hi + pad]


def removed_figure(removed_losses: Sequence[tuple[str, float]], *, limit: int = 30) -> go.Figure:
    """Pieces removed in one round with their estimated loss delta (cheapest first), at most ``limit``."""
    rows = list(removed_losses)[:limit]
    fig = go.Figure(go.Bar(x=[d for _, d in rows][::-1], y=[visible(p) for p, _ in rows][::-1], orientation="h",
                           marker_color=OTHER, text=[f"{d:.3g}" for _, d in rows][::-1], textposition="auto"))
    fig.update_layout(title="Removed pieces and their loss delta", xaxis_title="estimated loss increase",
                      height=max(220, 24 * len(rows) + 90), margin=dict(l=10, r=10, t=40, b=30))
    if not rows:
        fig.add_annotation(text="nothing removed", showarrow=False)
    return fig


LATTICE_MAX_CHARS = 64  # a longer word's lattice is unreadable (and slow to draw): the page shows its start


def lattice_lanes(nodes: Sequence[dict]) -> list[int]:
    """A lane per node so that nodes in one lane never overlap (greedy interval colouring).

    ``lattice_lanes([{"start": 0, "stop": 2}, {"start": 1, "stop": 2}, {"start": 2, "stop": 3}]) == [0, 1, 0]``
    """
    lane_end: list[int] = []
    lanes = [0] * len(nodes)
    for i in sorted(range(len(nodes)), key=lambda i: (nodes[i]["start"], -nodes[i]["stop"])):
        s, e = nodes[i]["start"], nodes[i]["stop"]
        for lane, end in enumerate(lane_end):
            if end <= s:
                lane_end[lane] = e
                lanes[i] = lane
                break
        else:
            lanes[i] = len(lane_end)
            lane_end.append(e)
    return lanes


def lattice_figure(explain: dict) -> go.Figure:
    """The Viterbi lattice of one word (``Unigram.explain``): every candidate piece as an arc from its
    start to its stop boundary, with its log-probability; the best path drawn thick in pink."""
    word = explain.get("text", "")
    nodes = explain.get("nodes", [])
    on_path = set(explain.get("path", []))
    lanes = lattice_lanes(nodes)
    # Traces and annotations are collected, then handed to plotly once: adding them one by one copies
    # every earlier one each time, which took 80 s for a 400-character word.
    traces, notes = [], []
    for k, (nd, lane) in enumerate(zip(nodes, lanes)):
        best = k in on_path
        y = -(lane + 1)
        label = visible(nd["piece"]) + (" ?" if nd.get("unknown") else "")
        traces.append(go.Scatter(
            x=[nd["start"], nd["stop"]], y=[y, y], mode="lines+markers",
            line=dict(color=PATH if best else NODE, width=7 if best else 3),
            marker=dict(size=8, color=PATH if best else NODE), showlegend=False,
            hovertemplate=f"{label}: log p = {nd['score']:.3f}<extra></extra>"))
        notes.append(dict(x=(nd["start"] + nd["stop"]) / 2, y=y, text=f"<b>{_esc(label)}</b> {nd['score']:.2f}",
                          showarrow=False, yshift=12, font=dict(color=PATH if best else "#495057", size=12)))
    for i, ch in enumerate(word):
        notes.append(dict(x=i + 0.5, y=0.3, text=_esc(visible(ch)), showarrow=False, font=dict(size=16)))
    traces.append(go.Scatter(x=list(range(len(word) + 1)), y=[0] * (len(word) + 1), mode="markers+text",
                             text=[str(i) for i in range(len(word) + 1)], textposition="bottom center",
                             marker=dict(size=9, color="#495057"), showlegend=False, hoverinfo="skip"))
    fig = go.Figure(data=traces, layout=dict(annotations=notes))
    depth = max(lanes, default=0) + 1
    score = explain.get("score")
    title = "Viterbi lattice: pink is the best path"
    if score is not None and math.isfinite(score):
        title += f" (log p = {score:.3f})"
    fig.update_layout(title=title, height=140 + 46 * depth, margin=dict(l=10, r=10, t=40, b=10),
                      xaxis=dict(title="character boundary", dtick=1, range=[-0.3, len(word) + 0.3]),
                      yaxis=dict(visible=False, range=[-(depth + 0.6), 0.8]))
    return fig


def _esc(text: str) -> str:
    """Plotly annotations render a little HTML: escape the piece text."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
