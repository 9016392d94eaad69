"""What the Noisy text page shows: each normalization with its candidates, tokens mapped back, the lexicon table.

``lexical_normalize`` (tokcore.lexnorm) gives per-word decisions and an alignment; this module
turns them into escaped HTML (changes highlighted, an interlinear view noisy word -> normalized
word -> tokens), table records, and converts the editable lexicon table, CSV and JSON files to
and from ``Lexicon``. ``with_lexical_normalizer`` puts a ``LexicalNormalizer`` in front of a
tokenizer's own normalizer, so the lexicon is saved with the tokenizer's JSON.

Left out: streamlit (the page) and the normalization itself (``tokcore.lexnorm``).
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from html import escape

import tokcore
from tokcore.extras.lexnorm import Lexicon, LexNormResult
from tokcore.extras.lexnorm_data import LOOKUP
from tokcore.normalizers.lexical import LexicalNormalizer

from . import colors
from .byte_label import byte_piece_text, owner_chars
from .visible import visible

LEXICON_MAX_BYTES = 1024 * 1024
COLUMNS = ("noisy", "canonical")

STYLE = """
.ln-text{font-size:16px;line-height:2;padding:8px 10px;border:1px solid #dee2e6;border-radius:6px;background:#fff;
  color:#1a1a1a;white-space:pre-wrap;overflow-wrap:anywhere}
.ln-chg{background:#ffe066;border-radius:3px;padding:1px 2px;color:#1a1a1a}
.ln-out{background:#b2f2bb;border-radius:3px;padding:1px 2px;color:#1a1a1a}
.ln-grid{display:flex;flex-wrap:wrap;align-items:flex-start;gap:2px;padding:8px;border:1px solid #dee2e6;
  border-radius:6px;background:#fff;color:#1a1a1a}
.ln-seg{display:inline-flex;flex-direction:column;align-items:flex-start;padding:2px 3px;border-radius:4px}
.ln-seg.ln-changed{background:#fff9db;outline:1px solid #fcc419}
.ln-src{font-size:15px;white-space:pre;font-weight:600}
.ln-arrow{font-size:13px;color:#2b8a3e;white-space:pre}
.ln-same{font-size:13px;color:#adb5bd;white-space:pre}
.ln-toks{display:flex;flex-wrap:wrap;gap:1px;margin-top:2px}
.ln-chip{display:inline-flex;flex-direction:column;align-items:center;padding:0 3px;border-radius:4px;
  border:1px solid rgba(0,0,0,.08);font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;line-height:1.25}
.ln-chip .ln-id{font-size:10px;color:#495057}
"""


def style_block() -> str:
    """The ``<style>`` element of the Noisy text page."""
    return f"<style>{STYLE}</style>"


def _bytes_slice(data: bytes, span, show=str) -> str:
    """``show(text)`` under a contract span; a span that cuts a character gets the app's one byte label
    (``‹E3 81› of あ``, ``tokapp.byte_label``), never a replacement character."""
    s, e = span
    if (s, e) == (0, 0):
        return ""
    piece = data[s - 1 : e - 1]
    try:
        return show(piece.decode("utf-8"))
    except UnicodeDecodeError:
        return byte_piece_text(piece, owner_chars(data, s - 1, e - 1))


def _reason_title(d) -> str:
    return escape(f"{d.source} → {d.output} · {d.reason} · confidence {d.confidence:.0%} · input bytes "
                  f"({d.span[0]}, {d.span[1]}), 1-based, half-open", quote=True)


def changes_html(result: LexNormResult, *, side: str = "input") -> str:
    """The noisy input (``side="input"``) or the normalized text (``"output"``) with each change highlighted.

    ``"ln-chg" in changes_html(tokcore.lexical_normalize("c u tmrw"))``
    """
    if side not in ("input", "output"):
        raise ValueError(f"side must be 'input' or 'output', got {side!r}")
    text = result.original if side == "input" else result.text
    data = text.encode("utf-8")
    out, cursor = [], 1
    for d in result.decisions:
        if not d.changed:
            continue
        s, e = d.span if side == "input" else d.output_span
        out.append(escape(_bytes_slice(data, (cursor, s))))
        cls = "ln-chg" if side == "input" else "ln-out"
        out.append(f'<mark class="{cls}" title="{_reason_title(d)}">{escape(_bytes_slice(data, (s, e)))}</mark>')
        cursor = e
    out.append(escape(_bytes_slice(data, (cursor, len(data) + 1))))
    return f'<div class="ln-text" data-side="{side}">{"".join(out)}</div>'


def _score(value: float) -> str:
    if math.isinf(value):
        return "∞ (lookup list)"
    return f"{value:.2f}"


def candidate_records(decision) -> list[dict]:
    """One row per candidate of a word: text, kind, edit distance, corpus frequency, score, chosen."""
    chosen_done = False
    rows = []
    for c in decision.candidates:
        chosen = not chosen_done and c.text.lower() == decision.output.lower()
        chosen_done = chosen_done or chosen
        rows.append({"candidate": c.text, "kind": c.kind, "distance": c.distance, "frequency": c.frequency,
                     "score": _score(c.score), "chosen": "✓" if chosen else ""})
    return rows


def decision_records(result: LexNormResult) -> list[dict]:
    """One row per word (or many-to-one group): what it became and why."""
    rows = []
    for d in result.decisions:
        rows.append({"word": d.source, "input span (bytes, 1-based)": f"({d.span[0]}, {d.span[1]})",
                     "output": d.output, "output span (bytes, 1-based)": f"({d.output_span[0]}, {d.output_span[1]})",
                     "changed": d.changed, "confidence": f"{d.confidence:.0%}", "reason": d.reason,
                     "candidates": len(d.candidates)})
    return rows


def fix_label(d) -> str:
    """How a fix is named in the "turn a fix off" list; the input span keeps two equal words apart.

    ``fix_label(tokcore.lexical_normalize("c u").changes[0]) == "c u → see you (100%, input bytes (1, 4))"``
    """
    return f"{d.source} → {d.output} ({d.confidence:.0%}, input bytes ({d.span[0]}, {d.span[1]}))"


def fix_options(result: LexNormResult) -> dict[str, tuple[int, int]]:
    """Every fix the user may turn off: its label -> its input span (what ``lexical_normalize(keep=...)`` takes).

    ``list(fix_options(tokcore.lexical_normalize("u ok")).values()) == [(1, 2), (3, 5)]``
    """
    return {fix_label(d): d.span for d in result.changes}


@dataclass(frozen=True)
class MappedToken:
    """A token of the normalized text with its span there and the span it maps back to in the noisy input."""

    index: int
    id: int
    token: str
    normalized: tuple[int, int]
    noisy: tuple[int, int]


def map_tokens(result: LexNormResult, tokenizer, *, padding: bool = False) -> list[MappedToken]:
    """Tokenize the normalized text (no template tokens; no pad tokens unless ``padding``) and map every span
    back to the noisy input."""
    enc = tokcore.encode_result(tokenizer, result.text, return_offsets=True, add_special_tokens=False,
                                padding=None if padding else False)
    spans = [tuple(o) for o in enc.original_offsets]
    back = result.map_offsets(spans)
    return [MappedToken(i, id_, tok, s, tuple(b)) for i, (id_, tok, s, b) in enumerate(zip(enc.ids, enc.tokens, spans, back))]


def mapped_records(result: LexNormResult, tokens: list[MappedToken]) -> list[dict]:
    """Table rows: the token, its span in the normalized text, its span in the noisy input and what it covers there."""
    norm, noisy = result.text.encode("utf-8"), result.original.encode("utf-8")
    return [
        {"#": t.index, "id": t.id, "token": visible(t.token),
         "normalized span (bytes, 1-based, half-open)": f"({t.normalized[0]}, {t.normalized[1]})", "covers": _bytes_slice(norm, t.normalized, visible),
         "noisy span (bytes, 1-based, half-open)": f"({t.noisy[0]}, {t.noisy[1]})", "noisy text": _bytes_slice(noisy, t.noisy, visible)}
        for t in tokens
    ]


def _segments(result: LexNormResult):
    """(decision or None, input span, output span) covering both texts in order; gaps are unchanged text."""
    segs = []
    in_pos, out_pos = 1, 1
    for d in result.decisions:
        if d.span[0] > in_pos:
            segs.append((None, (in_pos, d.span[0]), (out_pos, d.output_span[0])))
        segs.append((d, d.span, d.output_span))
        in_pos, out_pos = d.span[1], d.output_span[1]
    in_end = len(result.original.encode("utf-8")) + 1
    out_end = len(result.text.encode("utf-8")) + 1
    if in_pos < in_end or out_pos < out_end:
        segs.append((None, (in_pos, in_end), (out_pos, out_end)))
    return segs


def aligned_html(result: LexNormResult, tokens: list[MappedToken], *, palette: str = colors.DEFAULT_PALETTE,
                 show_ids: bool = True) -> str:
    """Interlinear view: each noisy word, what it became, and the tokens of that output underneath
    (each chip shows the normalized text it covers; the token string is in its tooltip).

    A token belongs to the segment holding the last byte of its span in the normalized text.
    """
    segs = _segments(result)
    groups: list[list[MappedToken]] = [[] for _ in segs]
    k = 0
    for t in tokens:
        s, e = t.normalized
        last = s if e <= s else e - 1
        while k + 1 < len(segs) and last >= segs[k][2][1]:
            k += 1
        groups[k].append(t)
    noisy, norm = result.original.encode("utf-8"), result.text.encode("utf-8")
    cells = []
    for (d, in_span, _out), group in zip(segs, groups):
        source = _bytes_slice(noisy, in_span)
        if d is None and not group and not source.strip():
            cells.append(f'<span class="ln-seg"><span class="ln-src">{escape(visible(source))}</span></span>')
            continue
        changed = d is not None and d.changed
        head = f'<span class="ln-src">{escape(visible(source))}</span>'
        if changed:
            head += f'<span class="ln-arrow">→ {escape(d.output)}</span>'
        elif d is not None:
            head += '<span class="ln-same">unchanged</span>'
        chips = []
        for t in group:
            bg = colors.token_color(t.index, palette)
            title = escape(f"#{t.index} · token {visible(t.token)} · normalized ({t.normalized[0]}, {t.normalized[1]})"
                           f" · noisy ({t.noisy[0]}, {t.noisy[1]})", quote=True)
            ident = f'<span class="ln-id">{t.id}</span>' if show_ids else ""
            label = _bytes_slice(norm, t.normalized, visible) or visible(t.token)
            chips.append(f'<span class="ln-chip" style="background:{bg}" title="{title}">'
                         f'<span>{escape(label)}</span>{ident}</span>')
        cls = "ln-seg ln-changed" if changed else "ln-seg"
        title = f' title="{_reason_title(d)}"' if d is not None else ""
        cells.append(f'<span class="{cls}"{title}>{head}<span class="ln-toks">{"".join(chips)}</span></span>')
    return f'<div class="ln-grid">{"".join(cells)}</div>'


# ---------------------------------------------------------------- the lexicon table and files
def lexicon_records(lexicon: Lexicon) -> list[dict]:
    """The user's own entries as table rows. ``lexicon_records(Lexicon({"gr8t": "great"}))[0]["canonical"] == "great"``."""
    return [{"noisy": k, "canonical": v} for k, v in lexicon.user.items()]


def builtin_records() -> list[dict]:
    """The built-in lookup list as table rows (read-only in the app)."""
    return [{"noisy": k, "canonical": v} for k, v in LOOKUP.items()]


def cell_text(value) -> str:
    """A table cell as text: missing cells (None, NaN) are empty."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).strip()


def lexicon_from_records(records, *, use_builtin: bool = True) -> tuple[Lexicon, list[str]]:
    """(Lexicon, problems) from table rows with ``noisy``/``canonical``; empty rows are skipped,
    half-filled rows are skipped and reported, a repeated key keeps its last row."""
    entries: dict[str, str] = {}
    problems: list[str] = []
    for i, row in enumerate(records, start=1):
        noisy, canonical = cell_text(row.get("noisy")), cell_text(row.get("canonical"))
        if not noisy and not canonical:
            continue
        if not noisy or not canonical:
            problems.append(f"row {i}: needs both a noisy form and its canonical form ({noisy or canonical!r} skipped)")
            continue
        key = " ".join(noisy.lower().split())
        if key in entries:
            problems.append(f"row {i}: {noisy!r} repeats an earlier row; the later one wins")
        entries[key] = canonical
    return Lexicon(entries, use_builtin=use_builtin), problems


def parse_lexicon_file(name: str, data: bytes) -> tuple[dict[str, str], bool | None]:
    """(entries, use_builtin or None) from an uploaded CSV (``noisy,canonical`` rows, header optional)
    or JSON (``Lexicon.to_dict()`` or a flat ``{noisy: canonical}`` object). Raises ``ValueError``."""
    if len(data) > LEXICON_MAX_BYTES:
        raise ValueError(f"{name}: {len(data) / 1024:.0f} KiB is over the {LEXICON_MAX_BYTES // 2**20} MiB lexicon limit")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name}: not UTF-8 text (byte {exc.start}); save the lexicon as UTF-8") from None
    if name.lower().endswith(".json") or text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{name}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
        except RecursionError:  # json's own limit on nesting: still the file's fault, not a bug
            raise ValueError(f"{name}: the JSON is nested too deeply to read; a lexicon is one flat object") from None
        if not isinstance(obj, dict):
            raise ValueError(f"{name}: expected a JSON object {{noisy: canonical}} or {{'entries': {{...}}}}")
        use_builtin = None
        if "entries" in obj:
            use_builtin = bool(obj.get("use_builtin", True))
            obj = obj["entries"]
        if not isinstance(obj, dict):
            raise ValueError(f"{name}: 'entries' must be an object {{noisy: canonical}}")
        bad = [k for k, v in obj.items() if not isinstance(v, str) or not str(k).strip()]
        if bad:
            raise ValueError(f"{name}: entry {bad[0]!r} must map a non-empty noisy form to a string")
        return {str(k): v for k, v in obj.items()}, use_builtin
    entries: dict[str, str] = {}
    for i, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if i == 1 and [c.lower() for c in cells[:2]] == list(COLUMNS):
            continue
        if len(cells) < 2 or not cells[0] or not cells[1]:
            raise ValueError(f"{name}: line {i} needs two columns, noisy,canonical (got {row!r})")
        entries[cells[0]] = cells[1]
    return entries, None


def lexicon_json(lexicon: Lexicon) -> str:
    """The lexicon as the JSON ``LexicalNormalizer`` saves (``Lexicon.to_dict``)."""
    return json.dumps(lexicon.to_dict(), ensure_ascii=False, indent=2) + "\n"


def lexicon_csv(lexicon: Lexicon) -> str:
    """The user's entries as ``noisy,canonical`` CSV with a header."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for k, v in lexicon.user.items():
        writer.writerow([k, v])
    return buf.getvalue()


def with_lexical_normalizer(tokenizer, lexicon: Lexicon, *, name: str = ""):
    """A copy of ``tokenizer`` whose normalizer first runs ``LexicalNormalizer(lexicon)``, then its own.

    The copy goes through the tokenizer's JSON, so the lexicon is saved with it (``to_dict``).
    """
    if not isinstance(tokenizer, tokcore.Tokenizer):
        raise ValueError(f"only tokcore pipelines can take a normalizer; {type(tokenizer).__name__} cannot")
    from tokcore.normalizers.standard import Sequence

    copy = tokcore.Tokenizer.from_dict(tokenizer.to_dict(), source="the tokenizer being extended")
    first = LexicalNormalizer(lexicon)
    old = copy.normalizer
    if isinstance(old, LexicalNormalizer):
        old = None  # replace a previous lexicon instead of running two
    elif isinstance(old, Sequence):
        rest = [n for n in old.normalizers if not isinstance(n, LexicalNormalizer)]
        old = (rest[0] if len(rest) == 1 else Sequence(rest)) if rest else None
    copy.normalizer = Sequence([first, old]) if old is not None else first
    if name:
        copy.name = name
    return copy
