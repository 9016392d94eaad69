"""The Offsets inspector's data: per-token rows, unsafe boundaries, contract verdicts, word alignment, export.

Everything starts from a ``tokens.TokenView`` (one cached encoding) and a choice of coordinates:
``"view"`` checks the contract offsets against the tokenization text, ``"original"`` checks
``original_offsets`` against the raw input. Rows are plain dicts (JSON-ready) so the same data
feeds the table, the JSON and the CSV downloads.

``inspect_rows(build_view(tokcore.CharTokenizer(), "ab"))[1]["offset"] == [2, 3]``

Left out: HTML (``tokapp.inspector_html``) and streamlit (the page).
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import asdict, dataclass

import regex

import tokcore
from tokcore.analysis.alignment import align_words
from tokcore.analysis.boundaries import INSIDE_CHAR, INSIDE_GRAPHEME, BoundaryIssue, token_safety, unsafe_boundaries
from tokcore.core.offsets import char_to_byte_table, first_contract_violation

from .byte_label import byte_piece_text, owner_chars
from .tokens import TokenView, row_kind
from .visible import hex_bytes, visible

COORDS = ("view", "original")
COORD_LABELS = {"view": "tokenization text", "original": "raw input"}
_GRAPHEME = regex.compile(r"\X", regex.DOTALL)  # extended grapheme clusters, as tokcore.boundaries
SAFETY_LABELS = {
    "safe": "safe",
    INSIDE_CHAR: "cuts a character",
    INSIDE_GRAPHEME: "splits a grapheme",
    "sentinel": "no span",
    "empty": "empty span",
    "invalid": "invalid span",
}
CSV_COLUMNS = ("index", "id", "token", "special", "kind", "start", "stop", "char_start", "char_stop",
               "raw_start", "raw_stop", "has_span", "has_nonempty_span", "safety", "raw_safety", "covers", "raw_covers", "bytes")


def _check_coords(coords: str) -> None:
    if coords not in COORDS:
        raise ValueError(f"coords must be 'view' or 'original', got {coords!r}")


def text_and_offsets(view: TokenView, coords: str = "view") -> tuple[str, list[tuple[int, int]]]:
    """The text the chosen spans point into, and those spans (contract convention)."""
    _check_coords(coords)
    if coords == "view":
        return view.view_text, [r.offset for r in view.rows]
    return view.raw_text, [r.original for r in view.rows]


class TextIndex:
    """One text's character and grapheme positions in UTF-8 bytes, built once, then looked up by bisection.

    ``TextIndex("a🙂").char_span((3, 4)) == [1, 2]`` (a cut emoji widens to the whole emoji).
    """

    def __init__(self, text: str):
        self.text = text
        self.table = char_to_byte_table(text)  # 0-based byte offset of every character boundary
        self.n_bytes = self.table[-1] if self.table else 0
        self._graphemes: tuple[list[int], list[str]] | None = None

    def char_span(self, span) -> list[int] | None:
        """A contract span as 0-based characters (widened to whole ones); ``None`` for the sentinel."""
        if tuple(span) == (0, 0):
            return None
        start, stop = span[0] - 1, span[1] - 1
        n = len(self.text)
        cs = bisect_right(self.table, max(start, 0)) - 1
        ce = bisect_left(self.table, max(stop, 0)) if stop > start else cs
        return [max(0, min(cs, n)), max(0, min(ce, n))]

    def char_at(self, idx: int) -> int | None:
        """The character holding 1-based byte ``idx``, or ``None`` past the end."""
        if not 1 <= idx <= self.n_bytes:
            return None
        return bisect_right(self.table, idx - 1) - 1

    def grapheme_at(self, idx: int) -> str:
        """The grapheme cluster 1-based byte ``idx`` falls strictly inside ("" when on a cluster start)."""
        if self._graphemes is None:
            starts, clusters, pos = [], [], 1
            for m in _GRAPHEME.finditer(self.text):
                starts.append(pos)
                clusters.append(m.group())
                pos += len(m.group().encode("utf-8", "surrogatepass"))
            self._graphemes = (starts, clusters)
        starts, clusters = self._graphemes
        k = bisect_right(starts, idx) - 1
        if k < 0:
            return ""
        cluster = clusters[k]
        return cluster if starts[k] < idx < starts[k] + len(cluster.encode("utf-8", "surrogatepass")) else ""


def inspect_rows(view: TokenView) -> list[dict]:
    """One JSON-ready dict per token: spans in both coordinates, 0-based character spans, safety, bytes."""
    offsets = [r.offset for r in view.rows]
    originals = [r.original for r in view.rows]
    safety = token_safety(view.view_text, offsets)
    raw_safety = token_safety(view.raw_text, originals)
    in_view = TextIndex(view.view_text)
    in_raw = in_view if view.raw_text == view.view_text else TextIndex(view.raw_text)
    data = view.view_text.encode("utf-8", "surrogatepass")
    out = []
    for r, s, rs in zip(view.rows, safety, raw_safety):
        owner = owner_chars(data, r.offset[0] - 1, r.offset[1] - 1) if r.text is None and r.offset != (0, 0) else ""
        out.append(
            {
                "index": r.index,
                "id": r.id,
                "token": r.token,
                "special": r.special,
                "kind": row_kind(r),
                "offset": list(r.offset),
                "char_span": in_view.char_span(r.offset),
                "original": list(r.original),
                "original_char_span": in_raw.char_span(r.original),
                "has_span": tokcore.has_span(r.offset),
                "has_nonempty_span": tokcore.has_nonempty_span(r.offset),
                "safety": s,
                "raw_safety": rs,
                "covers": r.text,
                "raw_covers": r.original_text,
                "bytes": hex_bytes(r.piece),
                "bytes_of": owner,
            }
        )
    return out


def _label(span) -> str:
    return "–" if span is None else f"({span[0]}, {span[1]})"


SPAN_COL = "span (bytes, 1-based, half-open)"
CHARS_COL = "chars (characters, 0-based, half-open)"
RAW_SPAN_COL = "raw-input span (bytes, 1-based, half-open)"
RAW_CHARS_COL = "raw-input chars (characters, 0-based, half-open)"


def display_records(rows: list[dict], coords: str = "view", *, both_units: bool = False) -> list[dict]:
    """Rows formatted for ``st.dataframe``; ``covers`` and ``boundary`` follow the chosen coordinates.

    Every span column names its unit and base; ``both_units`` adds the raw input's character span.
    ``RAW_SPAN_COL in display_records(inspect_rows(build_view(tokcore.CharTokenizer(), "a")))[0]``
    """
    _check_coords(coords)
    out = []
    for row in rows:
        safety = row["safety"] if coords == "view" else row["raw_safety"]
        covers = row["covers"] if coords == "view" else row["raw_covers"]
        if row["kind"] == "inserted":
            shown = "∅ inserted"
        elif covers is None:
            shown = (byte_piece_text(bytes.fromhex(row["bytes"]), row.get("bytes_of", "")) if coords == "view"
                     else "‹cuts a character›")
        else:
            shown = visible(covers)
        out.append(
            {
                "#": row["index"],
                "id": row["id"],
                "token": visible(row["token"]),
                "covers": shown,
                SPAN_COL: _label(row["offset"]),
                CHARS_COL: _label(row["char_span"]),
                RAW_SPAN_COL: _label(row["original"]),
                **({RAW_CHARS_COL: _label(row["original_char_span"])} if both_units else {}),
                "special": row["special"],
                "has_span": row["has_span"],
                "has_nonempty_span": row["has_nonempty_span"],
                "boundary": SAFETY_LABELS.get(safety, safety),
            }
        )
    return out


# ------------------------------------------------------------------ unsafe boundaries
def describe_byte(text: str, idx: int, index: TextIndex | None = None) -> str:
    """Where 1-based byte ``idx`` falls. ``describe_byte("a🙂", 3)`` says byte 2 of 4 of '🙂' (U+1F642)."""
    index = index or TextIndex(text)
    k = index.char_at(idx)
    if k is None:
        return f"byte {idx} is the end of the text"
    ch, pos = text[k], index.table[k] + 1
    raw = ch.encode("utf-8", "surrogatepass")
    name = unicodedata.name(ch, "")
    what = f"{visible(ch)!r} U+{ord(ch):04X}" + (f" {name}" if name else "")
    if idx == pos:
        return f"byte {idx} starts {what}"
    return f"byte {idx} is byte {idx - pos + 1} of {len(raw)} of {what} ({hex_bytes(raw)})"


def issue_records(text: str, offsets, tokens) -> list[dict]:
    """Every unsafe span end, explained. Kind ``inside_char`` is red, ``inside_grapheme`` amber."""
    out = []
    index = TextIndex(text)
    for issue in unsafe_boundaries(text, offsets):
        if issue.kind == INSIDE_CHAR:
            where = describe_byte(text, issue.index, index)
        else:
            cluster = index.grapheme_at(issue.index)
            parts = " + ".join(f"U+{ord(c):04X}" for c in cluster)
            where = f"byte {issue.index} splits the grapheme cluster {visible(cluster)!r} ({parts})"
        out.append(
            {
                "token": issue.token,
                "token text": visible(tokens[issue.token]) if issue.token < len(tokens) else "",
                "end": issue.end,
                "byte": issue.index,
                "kind": issue.kind,
                "flag": "red" if issue.kind == INSIDE_CHAR else "amber",
                "explanation": where,
            }
        )
    return out


def issue_points(issues: list[BoundaryIssue] | list[dict]) -> dict[int, str]:
    """Byte index -> worst kind (``inside_char`` beats ``inside_grapheme``)."""
    points: dict[int, str] = {}
    for issue in issues:
        idx, kind = (issue["byte"], issue["kind"]) if isinstance(issue, dict) else (issue.index, issue.kind)
        if points.get(idx) != INSIDE_CHAR:
            points[idx] = kind
    return points


# ------------------------------------------------------------------ verdicts
@dataclass(frozen=True)
class Verdict:
    """One check: the call as written, whether it passed, and the first problem in words."""

    call: str
    ok: bool
    detail: str


def first_overlap(offsets) -> tuple[int, int, str] | None:
    """(index, previous index, rule) of the first span ``offsets_are_nonoverlapping`` rejects, with its defaults.

    ``first_overlap([(1, 3), (2, 4)]) == (1, 0, "starts at 2, before the previous span's stop 3")``
    """
    prev_stop, prev_i = None, None
    for i, o in enumerate(offsets):
        try:
            start, stop = o
        except (TypeError, ValueError):
            return (i, -1, "is not a (start, stop) pair")
        if (start, stop) == (0, 0):
            continue
        if stop < start:
            return (i, -1, f"is inverted (stop {stop} < start {start})")
        if stop == start:
            continue
        if prev_stop is not None and start < prev_stop:
            return (i, prev_i, f"starts at {start}, before the previous span's stop {prev_stop}")
        prev_stop, prev_i = stop, i
    return None


def _violation_text(text: str, offsets, tokens, found) -> str:
    index, offset, rule = found
    tok = f" {visible(tokens[index])!r}" if 0 <= index < len(tokens) else ""
    detail = f"token {index}{tok}, span {offset!r}: {rule}"
    if "inside a UTF-8 character" in rule and isinstance(offset, tuple):
        idx = offset[0] if rule.startswith("start") else offset[1]
        detail += f"; {describe_byte(text, idx)}"
    return detail


def verdicts(text: str, offsets, tokens=()) -> list[Verdict]:
    """The three contract checks on ``offsets`` into ``text``, each with its first violation explained."""
    tokens = list(tokens)
    out = []
    for strict in (False, True):
        call = ("validate_offsets_contract(text, offsets, require_string_boundaries=True)" if strict
                else "validate_offsets_contract(text, offsets)")
        ok = tokcore.validate_offsets_contract(text, offsets, require_string_boundaries=strict)
        if ok:
            detail = ("every span starts and stops on a character boundary" if strict
                      else "every span is the sentinel or lies within 1..n+1 with start <= stop")
        else:
            found = first_contract_violation(text, offsets, require_string_boundaries=strict)
            detail = "first violation: " + _violation_text(text, offsets, tokens, found) if found else "rejected"
            if strict and found and "UTF-8 character" in found[2]:
                detail += " (expected for byte-level tokenizers: the normal check is the contract)"
        out.append(Verdict(call, ok, detail))
    ok = tokcore.offsets_are_nonoverlapping(offsets)
    if ok:
        detail = "read in order, no span starts before the previous one stops (sentinels and empty spans skipped)"
    else:
        found = first_overlap(offsets)
        if found is None:
            detail = "rejected"
        else:
            i, prev, rule = found
            tok = f" {visible(tokens[i])!r}" if i < len(tokens) else ""
            detail = f"first problem: token {i}{tok} {tuple(offsets[i])!r} {rule}"
            if prev >= 0:
                detail += f" (token {prev} {tuple(offsets[prev])!r})"
    out.append(Verdict("offsets_are_nonoverlapping(offsets)", ok, detail))
    return out


# ------------------------------------------------------------------ one pass for the page
def summary(view: TokenView, coords: str = "view") -> dict:
    """What the page shows about the whole text: unsafe boundaries, the three verdicts, counts. Linear time.

    ``summary(build_view(tokcore.CharTokenizer(), "ab"))["tokens"] == 2``
    """
    text, offsets = text_and_offsets(view, coords)
    tokens = view.tokens
    return {
        "tokens": len(offsets),
        "sentinels": sum(1 for o in offsets if not tokcore.has_span(o)),
        "issues": issue_records(text, offsets, tokens),
        "verdicts": verdicts(text, offsets, tokens),
    }


def window_bytes(offsets, lo: int, hi: int, n_bytes: int) -> tuple[int, int]:
    """The bytes ``[first, stop)`` that tokens ``lo..hi-1`` cover (the whole text when they cover none).

    ``window_bytes([(1, 3), (0, 0), (3, 6)], 1, 3, 5) == (3, 6)``
    """
    spans = [o for o in offsets[lo:hi] if tokcore.has_nonempty_span(o)]
    if not spans:
        return 1, n_bytes + 1
    return min(o[0] for o in spans), max(o[1] for o in spans)


# ------------------------------------------------------------------ word alignment
def word_rows(text: str, offsets, tokens, *, within: tuple[int, int] | None = None) -> list[dict]:
    """Words (whitespace-separated) and the tokens covering them; only spans with ``has_nonempty_span`` count.

    ``within`` (1-based bytes, half-open) keeps the words overlapping it (a page's window).
    ``word_rows("ab c", [(0, 0), (1, 2), (2, 3), (4, 5)], ["[CLS]", "a", "b", "c"])[0]["tokens"] == [1, 2]``
    """
    out = []
    for w in align_words(text, offsets, within=within):
        out.append(
            {
                "word": w.number,
                "text": visible(w.word),
                "span": list(w.span),
                "tokens": list(w.tokens),
                "pieces": " · ".join(visible(tokens[i]) for i in w.tokens),
                "count": len(w.tokens),
            }
        )
    return out


def word_display(rows: list[dict]) -> list[dict]:
    """Word rows for ``st.dataframe``."""
    return [
        {
            "word #": r["word"],
            "word": r["text"],
            "span": _label(r["span"]),
            "tokens": (f"{r['tokens'][0]}–{r['tokens'][-1]}" if len(r["tokens"]) > 1
                       else str(r["tokens"][0]) if r["tokens"] else "none"),
            "pieces": r["pieces"],
            "count": r["count"],
        }
        for r in rows
    ]


# ------------------------------------------------------------------ export
def csv_text(rows: list[dict]) -> str:
    """The token table as CSV, spans split into start/stop columns (empty for ``None``)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        cs, raw = r["char_span"] or ["", ""], r["original"]
        writer.writerow(
            {
                "index": r["index"], "id": r["id"], "token": r["token"], "special": r["special"], "kind": r["kind"],
                "start": r["offset"][0], "stop": r["offset"][1], "char_start": cs[0], "char_stop": cs[1],
                "raw_start": raw[0], "raw_stop": raw[1], "has_span": r["has_span"],
                "has_nonempty_span": r["has_nonempty_span"], "safety": r["safety"], "raw_safety": r["raw_safety"],
                "covers": "" if r["covers"] is None else r["covers"],
                "raw_covers": "" if r["raw_covers"] is None else r["raw_covers"], "bytes": r["bytes"],
            }
        )
    return buf.getvalue()


JSON_FORMAT = "tokapp.offsets/2"
# Per-token fields of the JSON download; the rest of a row (has_span, covers, bytes...) follows from these and the texts.
JSON_TOKEN_FIELDS = ("id", "token", "special", "kind", "offset", "char_span", "original", "original_char_span",
                     "safety", "raw_safety")
JSON_ISSUE_FIELDS = ("token", "end", "byte", "kind", "explanation")


def _columns(records: list[dict], fields) -> dict[str, list]:
    """Records as parallel lists, one per field: a 50,000-token text would repeat every key 50,000 times."""
    return {field: [r[field] for r in records] for field in fields}


def json_text(view: TokenView, rows: list[dict], *, tokenizer: str = "", coords: str = "view") -> str:
    """Everything the page checks, as one compact JSON document that states its own conventions.

    Format ``tokapp.offsets/2`` (no indentation; lists run in token order, so entry ``i`` of every list under
    ``"tokens"`` is token ``i``):

    - ``tokens``: ``id``, ``token``, ``special`` (0/1), ``kind`` (token, special, unknown, inserted, empty),
      ``offset`` (contract span ``[start, stop]`` into ``tokenization_text``: UTF-8 bytes, 1-based, half-open,
      ``[0, 0]`` for inserted tokens), ``char_span`` (0-based character indices, ``null`` without a span),
      ``original`` / ``original_char_span`` (the same into ``raw_text``), ``safety`` / ``raw_safety``.
    - ``unsafe_boundaries``: parallel lists ``token``, ``end`` (start/stop), ``byte``, ``kind``, ``explanation``,
      checked against ``checked_against``.
    - ``words``: parallel lists ``span`` (contract bytes) and ``tokens`` (the token indices covering each word).
    - ``verdicts``: one object per contract check.

    Version 1 (one indented object per token) made a 100,000-character text a 36 MB file.
    """
    text, offsets = text_and_offsets(view, coords)
    tokens = view.tokens
    words = align_words(text, offsets)  # not word_rows: the display strings it adds cost more than the alignment
    doc = {
        "format": JSON_FORMAT,
        "tokenizer": tokenizer,
        "convention": {
            "coordinate_system": tokcore.offsets_coordinate_system(),
            "index_base": tokcore.offsets_index_base(),
            "span_style": tokcore.offsets_span_style(),
            "sentinel": list(tokcore.offsets_sentinel()),
            "char_span": "0-based, half-open Python character indices into the tokenization text",
            "layout": "parallel lists: entry i of each list under tokens is token i",
        },
        "raw_text": view.raw_text,
        "tokenization_text": view.view_text,
        "checked_against": COORD_LABELS[coords],
        "tokens": _columns(rows, JSON_TOKEN_FIELDS),
        "verdicts": [asdict(v) for v in verdicts(text, offsets, tokens)],
        "unsafe_boundaries": _columns(issue_records(text, offsets, tokens), JSON_ISSUE_FIELDS),
        "words": {"span": [list(w.span) for w in words], "tokens": [list(w.tokens) for w in words]},
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
