"""One encoding turned into plain rows and counts: what the pages display, with no streamlit.

``build_view(tokenizer, text)`` runs ``tokcore.encode_result`` with offsets and masks and keeps,
per token, its contract span in the tokenization text, its span in the raw input, the exact
bytes it covers and whether it is special, inserted (the ``(0, 0)`` sentinel) or unknown.
Everything is plain data (picklable), so ``st.cache_data`` can keep it.

Left out: drawing (``tokapp.html``) and choosing the tokenizer (``tokapp.samples``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import tokcore

from .byte_label import piece_text
from .visible import hex_bytes, visible

Span = tuple[int, int]


@dataclass(frozen=True)
class TokenRow:
    """One token. ``offset`` and ``original`` follow the contract (1-based UTF-8, ``(0, 0)`` sentinel)."""

    index: int
    id: int
    token: str
    offset: Span
    original: Span
    special: int
    piece: bytes  # the exact bytes of the tokenization text under ``offset``
    text: str | None  # the substring under ``offset``; None when the span cuts a character
    original_text: str | None
    unknown: bool = False
    # The tokenizer's normalization wrote the unknown token in place of a character it cannot encode
    # (the ASCII tokenizer's ``é`` -> ``<UNK>``): not a special token the user typed.
    normalized_unknown: bool = False

    @property
    def inserted(self) -> bool:
        """Inserted by the template: no source span at all."""
        return not tokcore.has_span(self.offset)

    @property
    def empty(self) -> bool:
        """Has a position but covers nothing (``(k, k)``)."""
        return tokcore.has_span(self.offset) and not tokcore.has_nonempty_span(self.offset)

    @property
    def cuts_character(self) -> bool:
        """Its span starts or stops inside a multi-byte character (byte-level families do this)."""
        return tokcore.has_nonempty_span(self.offset) and self.text is None


@dataclass(frozen=True)
class Counts:
    tokens: int
    characters: int
    bytes: int
    view_characters: int
    view_bytes: int
    special: int
    inserted: int
    unknown: int

    @property
    def chars_per_token(self) -> float | None:
        """Raw-input characters per token; ``None`` when there is no token."""
        return self.characters / self.tokens if self.tokens else None

    @property
    def bytes_per_token(self) -> float | None:
        return self.bytes / self.tokens if self.tokens else None


@dataclass(frozen=True)
class TokenView:
    """A whole encoding: the raw input, the tokenization text the offsets point into, the rows."""

    raw_text: str
    view_text: str
    rows: tuple[TokenRow, ...]
    split_special: bool = False

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def ids(self) -> list[int]:
        return [r.id for r in self.rows]

    @property
    def tokens(self) -> list[str]:
        return [r.token for r in self.rows]

    def counts(self) -> Counts:
        rows = self.rows
        return Counts(
            tokens=len(rows),
            characters=len(self.raw_text),
            bytes=len(self.raw_text.encode("utf-8")),
            view_characters=len(self.view_text),
            view_bytes=len(self.view_text.encode("utf-8")),
            special=sum(1 for r in rows if r.special and not r.normalized_unknown),
            inserted=sum(1 for r in rows if r.inserted),
            unknown=sum(1 for r in rows if r.unknown),
        )


def unk_id(tokenizer) -> int | None:
    """The id of the tokenizer's unknown token, ``None`` when it has none (byte-level ones never give up)."""
    name = getattr(tokenizer, "unk_token", None)
    lookup = getattr(tokenizer, "token_to_id", None)
    return lookup(name) if name and lookup else None


def build_view(tokenizer, text: str, *, split_special: bool = False, add_special_tokens: bool = True,
               padding: bool = False, truncation: bool = True) -> TokenView:
    """Encode ``text`` and keep what the pages show. Engine errors propagate unchanged.

    Padding is off unless asked (``padding=True`` applies the tokenizer's own padding, e.g. MiniLM's 128):
    pad tokens would flood every view of one short text. ``truncation=False`` switches the tokenizer's own
    truncation off, so that the view covers the whole text.

    ``[r.token for r in build_view(tokcore.CharTokenizer(), "Hi").rows] == ["H", "i"]``
    """
    result = tokcore.encode_result(
        tokenizer,
        text,
        return_offsets=True,
        return_masks=True,
        add_special_tokens=add_special_tokens,
        split_special_tokens=split_special,
        padding=None if padding else False,
        truncation=None if truncation else False,
    )
    view_text = result.tokenization_text
    unk = tokenizer.unk_token
    unknown_id = unk_id(tokenizer)  # sentencepiece keeps an unknown piece's own text ("ሰላም", id 0): the id says it
    rows = []
    for i, (id_, token, off, orig, special) in enumerate(
        zip(result.ids, result.tokens, result.offsets, result.original_offsets, result.special_tokens_mask)
    ):
        unknown = unk is not None and (token == unk or id_ == unknown_id)
        original_text = tokcore.try_span_substring(text, orig)
        rows.append(
            TokenRow(
                index=i,
                id=id_,
                token=token,
                offset=tuple(off),
                original=tuple(orig),
                special=int(special),
                piece=tokcore.span_codeunits(view_text, off),
                text=tokcore.try_span_substring(view_text, off),
                original_text=original_text,
                unknown=unknown,
                normalized_unknown=unknown and tokcore.has_nonempty_span(orig) and original_text != token,
            )
        )
    return TokenView(raw_text=text, view_text=view_text, rows=tuple(rows), split_special=split_special)


def row_kind(row: TokenRow) -> str:
    """``"inserted"``, ``"unknown"`` (written by normalization), ``"special"``, ``"unknown"``, ``"empty"`` or
    ``"token"`` (the first that applies)."""
    if row.inserted:
        return "inserted"
    if row.normalized_unknown:
        return "unknown"
    if row.special:
        return "special"
    if row.unknown:
        return "unknown"
    if row.empty:
        return "empty"
    return "token"


def span_label(span: Span) -> str:
    """A contract span for a table cell. ``span_label((1, 3)) == "(1, 3)"``."""
    return f"({span[0]}, {span[1]})"


BYTE_SPAN = "bytes, 1-based, half-open"
CHAR_SPAN = "characters, 0-based, half-open"


def covered_characters(view: TokenView) -> int:
    """How many characters of the raw input come before the last token's end (all of them unless truncated).

    ``covered_characters(build_view(tokcore.CharTokenizer(), "ab")) == 2``
    """
    stop = max((r.original[1] for r in view.rows if tokcore.has_nonempty_span(r.original)), default=1)
    return len(view.raw_text.encode("utf-8", "surrogatepass")[: stop - 1].decode("utf-8", "ignore"))


def char_span(text: str, span: Span) -> Span | None:
    """A contract byte span as 0-based Python character indices, ``None`` for the sentinel or a cut character.

    ``char_span("é b", (4, 5)) == (2, 3)``
    """
    if not tokcore.has_span(span):
        return None
    data = text.encode("utf-8")
    head, body = data[: span[0] - 1], data[span[0] - 1 : span[1] - 1]
    try:
        start = len(head.decode("utf-8"))
        return (start, start + len(body.decode("utf-8")))
    except UnicodeDecodeError:
        return None


def table_records(view: TokenView, *, both_units: bool = False, start: int = 0, stop: int | None = None) -> list[dict]:
    """One dict per token for ``st.dataframe``: id, visible token, offsets (unit and base in each column's
    name; with ``both_units`` the 0-based character positions too), mask, bytes.

    ``start``/``stop`` pick rows ``[start, stop)`` (a page of a long text; ``#`` stays the token's own index),
    so a page never builds the other twenty thousand rows it does not show.
    """
    records = []
    data = view.view_text.encode("utf-8")
    for r in view.rows[start:stop]:
        if r.inserted:
            covered = "∅ inserted"
        elif r.normalized_unknown:
            covered = f"unknown character {visible(r.original_text or '')} (normalization wrote {r.token})"
        else:
            covered = piece_text(data, r.offset[0] - 1, r.offset[1] - 1)
        record = {
            "#": r.index,
            "id": r.id,
            "token": visible(r.token),
            "covers": covered,
            f"offsets ({BYTE_SPAN})": span_label(r.offset),
            f"raw-input offsets ({BYTE_SPAN})": span_label(r.original),
        }
        if both_units:
            chars, raw_chars = char_span(view.view_text, r.offset), char_span(view.raw_text, r.original)
            record[f"offsets ({CHAR_SPAN})"] = "–" if chars is None else span_label(chars)
            record[f"raw-input offsets ({CHAR_SPAN})"] = "–" if raw_chars is None else span_label(raw_chars)
        record.update({"special": r.special, "bytes": hex_bytes(r.piece), "kind": row_kind(r)})
        records.append(record)
    return records


def table_columns(*, both_units: bool = False) -> list[str]:
    """The columns of ``table_records``, in order (a table with no rows still has them)."""
    spans = [f"offsets ({BYTE_SPAN})", f"raw-input offsets ({BYTE_SPAN})"]
    if both_units:
        spans += [f"offsets ({CHAR_SPAN})", f"raw-input offsets ({CHAR_SPAN})"]
    return ["#", "id", "token", "covers", *spans, "special", "bytes", "kind"]


def table_csv(view: TokenView, *, both_units: bool = False) -> str:
    """Every row of ``table_records`` as CSV (header first): the whole table, however it is paged on screen."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=table_columns(both_units=both_units), lineterminator="\n")
    writer.writeheader()
    writer.writerows(table_records(view, both_units=both_units))
    return buf.getvalue()


@dataclass(frozen=True)
class SpecialComparison:
    """The same text with special tokens parsed, and encoded as plain text."""

    parsed: TokenView
    plain: TokenView

    @property
    def delta(self) -> int:
        """Plain-text tokens minus parsed tokens (positive when parsing saves tokens)."""
        return len(self.plain) - len(self.parsed)

    @property
    def differs(self) -> bool:
        return self.parsed.ids != self.plain.ids


def compare_special(tokenizer, text: str, *, add_special_tokens: bool = True) -> SpecialComparison:
    """Encode ``text`` twice: special tokens parsed, then split as plain text."""
    return SpecialComparison(
        parsed=build_view(tokenizer, text, split_special=False, add_special_tokens=add_special_tokens),
        plain=build_view(tokenizer, text, split_special=True, add_special_tokens=add_special_tokens),
    )


def special_token_strings(tokenizer) -> list[str]:
    """The special added tokens of ``tokenizer``, by id (to tell the user what can be parsed)."""
    tokens = getattr(tokenizer, "added_tokens", [])
    return [t.content for t in sorted(tokens, key=lambda t: t.id) if t.special]
