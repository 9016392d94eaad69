"""What the Beyond text page shows: phonemes under words, and MIDI as a piano roll with its BPE tokens.

Phonemes: ``phonemes_html`` draws each word of ``tokcore.phonemize``'s output with its ARPAbet
tokens underneath; words the CMU dictionary lacks (letter-by-letter fallback) are flagged.
Music: REMI events (``tokcore.music``) are placed on the time grid (``event_steps``), notes are
read back with the index of each of their events (``note_events``), and ``piano_roll_figure``
colours every note by the BPE token (``tokcore.music_bpe``) that holds it, outlining tokens
that merge several notes. Everything here is pure: escaped HTML strings and plotly figures.

Left out: streamlit (the page), and the tokenizers themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

from tokcore.extras.music import bar_steps

from . import colors

ROOT = Path(__file__).resolve().parent.parent
MIDI_DIR = ROOT / "sample_vocabs" / "midi"
MIDI_MAX_BYTES = 512 * 1024
MAX_ROLL_NOTES = 3000  # notes drawn on the piano roll; the counts always cover the whole piece
UNMERGED = "#ced4da"  # a note whose Pitch event BPE left on its own
NOTE_NAMES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")

STYLE = """
.bt-words{display:flex;flex-wrap:wrap;align-items:flex-start;gap:6px;padding:10px;border:1px solid #dee2e6;
  border-radius:6px;background:#fff;color:#1a1a1a}
.bt-word{display:inline-flex;flex-direction:column;align-items:center;padding:3px 5px;border-radius:6px;
  background:#f8f9fa;border:1px solid #dee2e6}
.bt-word.bt-fallback{border:2px dashed #e03131;background:#fff5f5}
.bt-wtext{font-size:17px;font-weight:600;white-space:pre}
.bt-flag{font-size:11px;color:#c92a2a}
.bt-word.bt-nonspeech{background:#f1f3f5;border-style:dotted}
.bt-note{font-size:11px;color:#495057}
.bt-phones{display:flex;flex-wrap:wrap;gap:2px;margin-top:3px;justify-content:center}
.bt-ph{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;padding:0 4px;border-radius:4px;
  border:1px solid rgba(0,0,0,.08);color:#1a1a1a}
.bt-boundary{align-self:center;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;color:#495057;
  border:1px dashed #adb5bd;border-radius:4px;padding:0 3px}
.bt-events{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;line-height:1.9;padding:10px;
  max-height:460px;overflow-y:auto;border:1px solid #dee2e6;border-radius:6px;background:#fff;color:#1a1a1a}
.bt-tok{display:inline-block;margin:1px;padding:0 4px;border-radius:4px;border:1px solid rgba(0,0,0,.1)}
.bt-tok.bt-single{background:#f1f3f5;color:#495057}
.bt-more{color:#868e96;font-style:italic}
"""


def style_block() -> str:
    """The ``<style>`` element of the Beyond text page."""
    return f"<style>{STYLE}</style>"


# ---------------------------------------------------------------- phonemes
def phonemes_html(tokens, words, *, palette: str = colors.DEFAULT_PALETTE) -> str:
    """Each word with its phoneme tokens underneath; ``<w>`` boundary tokens between words.

    ``"bt-fallback" in phonemes_html(*tokcore.phonemize("zorbly"))`` (an unknown word is flagged).
    """
    cells: list[str] = []
    by_word: dict[int, list] = {}
    for t in tokens:
        if t.word is not None:
            by_word.setdefault(t.word, []).append(t)
    emitted: set[int] = set()
    k = 0
    for t in tokens:
        if t.word is None:
            cells.append(f'<span class="bt-boundary" title="word boundary, bytes ({t.offsets[0]}, {t.offsets[1]})">'
                         f"{escape(t.token)}</span>")
            continue
        if t.word in emitted:
            continue
        emitted.add(t.word)
        cells.append(_word_cell(words[t.word], by_word[t.word], palette, k))
        k += len(by_word[t.word])
    for i, w in enumerate(words):  # a word that produced no phoneme (no letter the fallback knows)
        if i not in emitted:
            cells.append(_word_cell(w, [], palette, k))
    if not cells:
        cells.append('<span class="bt-more">(no words)</span>')
    return f'<div class="bt-words">{"".join(cells)}</div>'


def _word_cell(word, phones, palette: str, k: int) -> str:
    if getattr(word, "kind", "word") in ("punct", "emoji", "symbol"):
        title = escape(f"{word.text} · bytes ({word.offsets[0]}, {word.offsets[1]}), 1-based · {word.note}", quote=True)
        return (f'<span class="bt-word bt-nonspeech" title="{title}" data-word="{escape(word.text, quote=True)}" '
                f'data-kind="{word.kind}"><span class="bt-wtext">{escape(word.text)}</span>'
                f'<span class="bt-note">{escape(word.note)}</span></span>')
    fallback = not word.in_dictionary
    chips = "".join(
        f'<span class="bt-ph" style="background:{colors.token_color(k + i, palette)}">{escape(p.token)}</span>'
        for i, p in enumerate(phones)
    )
    flag = '<span class="bt-flag">guessed: not in the dictionary</span>' if fallback else ""
    if getattr(word, "note", ""):
        flag += f'<span class="bt-note">{escape(word.note)}</span>'
    title = escape(f"{word.text} · bytes ({word.offsets[0]}, {word.offsets[1]}) · "
                   + ("letter-by-letter fallback" if fallback else "CMU Pronouncing Dictionary"), quote=True)
    cls = "bt-word bt-fallback" if fallback else "bt-word"
    return (f'<span class="{cls}" title="{title}" data-word="{escape(word.text, quote=True)}">'
            f'<span class="bt-wtext">{escape(word.text)}</span><span class="bt-phones">{chips}</span>{flag}</span>')


def phoneme_records(words) -> list[dict]:
    """One row per item: its span, its phonemes, whether the dictionary knew it, and what it is.

    ``phoneme_records(tokcore.phonemize("🙂")[1])[0]["what it is"] == "emoji: no pronunciation"``
    """
    return [{"word": w.text, "span (bytes, 1-based)": f"({w.offsets[0]}, {w.offsets[1]})",
             "phonemes": " ".join(w.phonemes), "in dictionary": w.in_dictionary,
             "what it is": getattr(w, "note", "") or "word"} for w in words]


def spoken_count(words) -> int:
    """Words and numbers (the items that are said). ``spoken_count(tokcore.phonemize("Hi! 42")[1]) == 2``"""
    return sum(1 for w in words if getattr(w, "kind", "word") in ("word", "number"))


# ---------------------------------------------------------------- music
def midi_samples(directory: Path = MIDI_DIR) -> dict[str, Path]:
    """The sample MIDI files by display name. ``"blues 12 bar" in midi_samples()``."""
    if not directory.is_dir():
        return {}
    return {p.stem.replace("_", " "): p for p in sorted(directory.glob("*.mid"))}


def check_midi_size(name: str, data: bytes) -> bytes:
    """``data`` itself, or a ``ValueError`` when it is over the upload cap."""
    if len(data) > MIDI_MAX_BYTES:
        raise ValueError(f"{name}: {len(data) / 1024:.0f} KiB is over the {MIDI_MAX_BYTES // 1024} KiB MIDI limit")
    if not data:
        raise ValueError(f"{name}: the file is empty")
    return data


def event_steps(events: list[str], positions_per_beat: int) -> list[int]:
    """The grid step of every event (a ``Bar`` sits at its bar's first step).

    ``event_steps(["Bar", "Position_2", "Pitch_60", "Bar"], 4) == [0, 2, 2, 16]``
    """
    steps = []
    bar_start, length, position = -1, bar_steps(4, 4, positions_per_beat), 0
    for e in events:
        kind, _, value = e.partition("_")
        if kind == "Bar":
            bar_start = 0 if bar_start < 0 else bar_start + length
            position = 0
        elif kind == "TimeSig":
            num, den = (int(x) for x in value.split("/"))
            length = bar_steps(num, den, positions_per_beat)
        elif kind == "Position":
            position = int(value)
        steps.append(max(bar_start, 0) + position)
    return steps


@dataclass(frozen=True)
class EventNote:
    """A note read back from events, with the indices of its Pitch, Velocity and Duration events."""

    pitch: int
    start: int
    duration: int
    velocity: int
    events: tuple[int, ...]


def note_events(events: list[str], positions_per_beat: int) -> list[EventNote]:
    """Notes of a REMI event list, each with the events it came from (as ``RemiTokenizer.decode`` reads them)."""
    steps = event_steps(events, positions_per_beat)
    notes = []
    pending: dict[str, tuple[int, int]] = {}
    for i, e in enumerate(events):
        kind, _, value = e.partition("_")
        if kind in ("Pitch", "Velocity", "Duration"):
            pending[kind] = (int(value), i)
            if kind == "Duration" and "Pitch" in pending:
                pitch, pi = pending["Pitch"]
                velocity, vi = pending.get("Velocity", (80, None))
                idx = tuple(j for j in (pi, vi, i) if j is not None)
                notes.append(EventNote(pitch, steps[pi], int(value), velocity, idx))
                pending = {}
    return notes


def token_index(bpe_tokens: list[list[str]]) -> list[int]:
    """For every event (in order), the index of the BPE token holding it. ``token_index([["a", "b"], ["c"]]) == [0, 0, 1]``."""
    return [k for k, tok in enumerate(bpe_tokens) for _ in tok]


def note_name(pitch: int) -> str:
    """``note_name(60) == "C4"`` (MIDI's middle C)."""
    return f"{NOTE_NAMES[pitch % 12]}{pitch // 12 - 1}"


def piano_roll_figure(events: list[str], bpe_tokens: list[list[str]], positions_per_beat: int, *,
                      palette: str = colors.DEFAULT_PALETTE, title: str = "", max_notes: int = MAX_ROLL_NOTES):
    """Notes as bars (time x pitch), coloured by their BPE token; tokens holding several notes outlined.

    A note whose Pitch event stayed a token of its own is grey; bar lines are solid, beats dotted.
    Only the first ``max_notes`` notes are drawn (a browser chokes on tens of thousands of shapes).
    """
    import plotly.graph_objects as go

    notes = note_events(events, positions_per_beat)[:max_notes]
    owner = token_index(bpe_tokens)
    steps = event_steps(events, positions_per_beat)
    fig = go.Figure()
    fill, hover = [], []
    members: dict[int, list[EventNote]] = {}
    for n in notes:
        k = owner[n.events[0]] if n.events[0] < len(owner) else -1
        merged = k >= 0 and len(bpe_tokens[k]) > 1
        fill.append(colors.token_color(k, palette) if merged else UNMERGED)
        members.setdefault(k, []).append(n)
        events_of = " ".join(bpe_tokens[k]) if k >= 0 else ""
        if len(events_of) > 160:
            events_of = events_of[:157] + "…"
        hover.append(f"{note_name(n.pitch)} (Pitch_{n.pitch}) · step {n.start} · {n.duration} steps · "
                     f"velocity {n.velocity}<br>BPE token #{k} ({len(bpe_tokens[k]) if k >= 0 else 0} events): "
                     f"{escape(events_of)}")
    fig.add_trace(go.Bar(
        x=[n.duration for n in notes], base=[n.start for n in notes], y=[n.pitch for n in notes],
        orientation="h", width=0.8, marker={"color": fill, "line": {"color": "#343a40", "width": 0.6}},
        hovertext=hover, hoverinfo="text", name="notes", showlegend=False,
    ))
    shapes = []
    end = max(n.start + n.duration for n in notes) if notes else (steps[-1] + 1 if steps else 1)
    for k, group in members.items():
        if k < 0 or len(group) < 2:
            continue
        shapes.append({
            "type": "rect", "xref": "x", "yref": "y", "layer": "above",
            "x0": min(n.start for n in group) - 0.15, "x1": max(n.start + n.duration for n in group) + 0.15,
            "y0": min(n.pitch for n in group) - 0.6, "y1": max(n.pitch for n in group) + 0.6,
            "line": {"color": "#5f3dc4", "width": 1.5, "dash": "dash"}, "fillcolor": "rgba(0,0,0,0)",
        })
    bar_lines = sorted({s for e, s in zip(events, steps) if e == "Bar" and s <= end})
    for s in range(0, end + 1, positions_per_beat):
        if s not in bar_lines:
            shapes.append(_vline(s, "#e9ecef", "dot"))
    for s in bar_lines:
        shapes.append(_vline(s, "#868e96", "solid"))
    pitches = [n.pitch for n in notes] or [60]
    low, high = min(pitches), max(pitches)
    ticks = [p for p in range(low - 1, high + 2) if p % 12 in (0, 4, 7)] or [low]
    fig.update_layout(
        title=title or None, height=max(320, min(700, 22 * (high - low + 3) + 120)), bargap=0,
        margin={"l": 50, "r": 20, "t": 40 if title else 20, "b": 40}, shapes=shapes, plot_bgcolor="#ffffff",
        xaxis={"title": f"time (grid steps, {positions_per_beat} per beat)", "range": [-0.5, end + 0.5],
               "showgrid": False, "zeroline": False},
        yaxis={"title": "pitch", "range": [low - 1.5, high + 1.5], "tickvals": ticks,
               "ticktext": [note_name(p) for p in ticks], "showgrid": True, "gridcolor": "#f1f3f5"},
    )
    return fig


def _vline(x: float, colour: str, dash: str) -> dict:
    return {"type": "line", "xref": "x", "yref": "paper", "x0": x, "x1": x, "y0": 0, "y1": 1, "layer": "below",
            "line": {"color": colour, "width": 1, "dash": dash}}


def event_tokens_html(bpe_tokens: list[list[str]], *, palette: str = colors.DEFAULT_PALETTE,
                      max_tokens: int | None = 400) -> str:
    """The event sequence as BPE tokens: one chip per token listing its events; each bar on a new line."""
    shown = bpe_tokens if max_tokens is None else bpe_tokens[:max_tokens]
    out = []
    for k, tok in enumerate(shown):
        if tok and tok[0] == "Bar" and k:
            out.append("<br>")
        label = escape(" ".join(tok))
        title = escape(f"token #{k}: {len(tok)} event(s)", quote=True)
        if len(tok) > 1:
            out.append(f'<span class="bt-tok bt-merged" style="background:{colors.token_color(k, palette)}" '
                       f'title="{title}">{label}</span>')
        else:
            out.append(f'<span class="bt-tok bt-single" title="{title}">{label}</span>')
    if len(shown) < len(bpe_tokens):
        out.append(f'<span class="bt-more">… {len(bpe_tokens) - len(shown)} more tokens</span>')
    return f'<div class="bt-events">{"".join(out)}</div>'


def bpe_counts(events: list[str], bpe_tokens: list[list[str]]) -> dict:
    """Events before BPE, tokens after, and how many tokens merge several events."""
    merged = sum(1 for t in bpe_tokens if len(t) > 1)
    return {"events": len(events), "tokens": len(bpe_tokens), "merged tokens": merged,
            "events per token": len(events) / len(bpe_tokens) if bpe_tokens else None}


def merge_records(bpe) -> list[dict]:
    """The learned merges in event names: ``#``, the merged events, and how often the pair occurred."""
    back = {c: e for e, c in bpe.symbols.items()}

    def names(s: str) -> str:
        return " ".join(back.get(c, "?") for c in s)

    return [{"#": i + 1, "left": names(s.left), "right": names(s.right), "count": s.count}
            for i, s in enumerate(bpe.steps)]


def same_notes(a, b) -> bool:
    """Whether two scores hold the same notes on the grid (pitch, onset, duration), in any order."""
    key = lambda s: sorted((n.pitch, n.start, n.duration) for n in s.notes)  # noqa: E731
    return key(a) == key(b)
