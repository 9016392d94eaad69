"""The pipeline stage by stage, as plain rows with spans: raw input, (optional) lexical
normalization, normalizer, pre-tokenizer pieces, model tokens, post-processor output, and the
alignment from the tokenization text back to the raw input.

Stages are an ordered, extensible list: ``register_stage(Stage(...), before="normalizer")`` adds
one (e.g. another project's extra stage). Each stage reads and extends a ``Context`` and returns a
``StageResult`` (its output text and rows). Every span column names its unit and base: the stage
tables use 0-based half-open CHARACTER spans, ``[start, stop)``, in the named text; the raw input's
UTF-8 bytes and the post-processor's offsets are the contract's 1-based byte spans, ``(start, stop)``,
exactly as ``encode_result`` reports them (``Context.both_units`` adds their character spans).

The added-token split and the pre-tokenizer run over the same segments as ``Tokenizer`` does;
``model_matches_pipeline`` checks the stage-by-stage tokens against ``encode_result``.

Left out: drawing (the page). The post-processor stage pads and truncates as the tokenizer does only when asked.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Callable, Optional

from tokcore.core.components import char_offsets_of_pieces, piece_from_text
from tokcore.core.normalized import NormalizedString
from tokcore.core.offsets import char_to_byte_table

from .tokens import char_span
from .visible import hex_bytes, visible

MAX_ROWS = 2000


@dataclass
class Context:
    """What the stages share: the raw input, the text the tokenizer gets, and each stage's data."""

    tokenizer: object
    raw: str
    text: str = ""  # the tokenizer's input (the raw input, or the lexical normalizer's output)
    lexnorm: object = None  # tokcore LexNormResult when that stage ran
    ns: Optional[NormalizedString] = None
    segments: list = field(default_factory=list)  # (start, stop, AddedToken | None) in the tokenization text
    pieces: list = field(default_factory=list)  # (piece text, (start, stop), added token or None, byte bounds)
    tokens: list = field(default_factory=list)  # (id, token, (start, stop)) in the tokenization text
    padding: bool = False  # the post-processor stage pads as the tokenizer does only when asked
    truncation: bool = False  # ... and truncates as it does (e.g. MiniLM's 128 tokens) only when asked
    both_units: bool = False  # the post-processor rows add character spans beside the byte offsets

    def raw_span(self, start: int, stop: int) -> tuple[int, int]:
        """A character span of the tokenization text mapped back to the raw input."""
        s, e = self.ns.original_span(start, stop) if self.ns is not None else (start, stop)
        if self.lexnorm is not None:
            s, e = self.lexnorm.alignment.original_span(s, e)
        return (s, e)


@dataclass(frozen=True)
class StageResult:
    name: str
    description: str
    text: Optional[str]  # the stage's output text, when it has one
    rows: list
    note: str = ""
    chips: tuple = ()  # (label, highlighted) pieces to draw in order
    total: int = 0  # rows before the MAX_ROWS cap (0: as many as ``rows``)

    def rows_label(self) -> str:
        """``"12 rows"``, or ``"first 2,000 of 5,000 rows"`` when the table was cut."""
        if self.total > len(self.rows):
            return f"first {len(self.rows):,} of {self.total:,} rows"
        return f"{len(self.rows):,} rows"


@dataclass(frozen=True)
class Stage:
    key: str
    name: str
    run: Callable[[Context], StageResult]
    optional: bool = False  # shown only when asked for (e.g. the lexical normalizer)


CHARS = " (characters, 0-based, half-open)"
BYTES = " (bytes, 1-based, half-open)"
BYTES_COL = "UTF-8 span" + BYTES


def _chars(text: str, span) -> str:
    """A contract byte span as a character span label. ``_chars("é!", (3, 4)) == "[1, 2)"``; ``–`` when none."""
    chars = char_span(text, tuple(span)) if tuple(span) != (0, 0) else None
    return "–" if chars is None else span_label(chars)


def span_label(span: tuple[int, int]) -> str:
    """``span_label((0, 3)) == "[0, 3)"``."""
    return f"[{span[0]}, {span[1]})"


# ----------------------------------------------------------------------------- the stages
def _raw(ctx: Context) -> StageResult:
    rows = []
    pos = 0
    for i, ch in enumerate(ctx.raw[:MAX_ROWS]):
        b = ch.encode("utf-8", "surrogatepass")
        rows.append({"char": i, "character": visible(ch), "UTF-8": hex_bytes(b), BYTES_COL: str((pos + 1, pos + 1 + len(b))),
                     "code point": f"U+{ord(ch):04X}"})
        pos += len(b)
    return StageResult("Raw input", "The text as typed: one row per character with its UTF-8 bytes.", ctx.raw, rows,
                       total=len(ctx.raw))


def _lexnorm(ctx: Context) -> StageResult:
    from tokcore.extras.lexnorm import lexical_normalize

    ctx.lexnorm = lexical_normalize(ctx.raw)
    ctx.text = ctx.lexnorm.text
    rows = [{"word": d.source, "becomes": d.output, "reason": d.reason, "input offsets": str(d.span),
             "output offsets": str(d.output_span)} for d in ctx.lexnorm.changes]
    note = "" if rows else "No word changed."
    return StageResult("Lexical normalizer", "tokcore.extras.lexnorm rewrites noisy words (tmrw → tomorrow) before the "
                       "tokenizer; its alignment maps every later span back to what was typed.", ctx.text, rows, note)


def _normalizer(ctx: Context) -> StageResult:
    tok = ctx.tokenizer
    av, norm = tok.added_vocabulary, tok.normalizer
    parts, segs, pos = [], [], 0
    for start, stop, added in av.split_raw(ctx.text):
        chunk = ctx.text[start:stop]
        part = NormalizedString(chunk)
        if added is not None:
            segs.append((pos, pos + len(chunk), added))
        else:
            if norm is not None:
                part = norm.normalize(part)
            segs.extend((pos + a, pos + b, t) for a, b, t in av.split_normalized(part.normalized))
        parts.append(part)
        pos += len(part.normalized)
    ctx.ns = NormalizedString.concat(parts) if parts else NormalizedString(ctx.text)
    ctx.segments = segs
    view = ctx.ns.normalized
    rows = []
    for i, (s, e) in enumerate(ctx.ns.alignments()[:MAX_ROWS]):
        src = ctx.text[s:e]
        rows.append({"char": i, "character": visible(view[i]), "from input" + CHARS: span_label((s, e)),
                     "input text": visible(src), "changed": src != view[i]})
    name = type(norm).__name__ if norm is not None else "none"
    specials = sum(1 for _, _, t in segs if t is not None)
    note = f"{specials} added token(s) matched and left as they are." if specials else ""
    return StageResult("Normalizer", f"Normalizer: {name}. Each character of the tokenization text keeps the span of "
                       "the input it came from.", view, rows, note, total=len(view))


def _pre_tokenizer(ctx: Context) -> StageResult:
    view = ctx.ns.normalized
    table = None if view.isascii() else char_to_byte_table(view)
    pre = ctx.tokenizer.pre_tokenizer
    ctx.pieces = []
    for a, b, added in ctx.segments:
        if b <= a:
            continue
        if added is not None:
            ctx.pieces.append((added.content, (a, b), added, None))
            continue
        piece = piece_from_text(view[a:b], a if table is None else table[a])
        pieces = [p for p in (pre.pre_tokenize([piece]) if pre is not None else [piece]) if p.text]
        for p, (text, span) in zip(pieces, char_offsets_of_pieces(view, pieces)):
            ctx.pieces.append((text, span, None, p.bounds))
    rows = [{"piece": visible(t), "span" + CHARS: span_label(sp), "covers": visible(view[sp[0]:sp[1]]),
             "raw span" + CHARS: span_label(ctx.raw_span(*sp)), "added token": added is not None}
            for t, sp, added, _ in ctx.pieces[:MAX_ROWS]]
    name = type(pre).__name__ if pre is not None else "none"
    return StageResult("Pre-tokenizer", f"Pre-tokenizer: {name}. The pieces the model sees (their text may be "
                       "rewritten, e.g. Ġ or ▁ for spaces) and the span of the tokenization text each covers.",
                       None, rows, chips=tuple((t, added is not None) for t, _, added, _ in ctx.pieces[:MAX_ROWS]),
                       total=len(ctx.pieces))


def _model(ctx: Context) -> StageResult:
    model = ctx.tokenizer.model
    view = ctx.ns.normalized
    table = None if view.isascii() else char_to_byte_table(view)
    ctx.tokens = []
    rows = []
    for text, (a, b), added, bounds in ctx.pieces:
        if added is not None:
            ctx.tokens.append((added.id, added.content, (a, b)))
            continue
        for t in model.tokenize(text):
            if len(t) > 4:  # byte fallback: byte k of character t[2]; the span is the whole character
                s, e = t[2], t[2] + 1
            else:
                s, e = t[2], t[3]
            # A byte-level token may start or stop inside a character: widen to whole characters.
            ctx.tokens.append((t[0], t[1], (_char_floor(bounds[s], table), _char_ceil(bounds[e], table))))
    for i, (id_, value, span) in enumerate(ctx.tokens[:MAX_ROWS]):
        rows.append({"#": i, "id": id_, "token": visible(value), "span" + CHARS: span_label(span),
                     "covers": visible(view[span[0]:span[1]]), "raw span" + CHARS: span_label(ctx.raw_span(*span))})
    return StageResult("Model", f"Model: {type(model).__name__}. Tokens of each piece, with the span of the "
                       "tokenization text each covers.", None, rows,
                       chips=tuple((v, False) for _, v, _ in ctx.tokens[:MAX_ROWS]), total=len(ctx.tokens))


def _char_floor(byte: int, table: Optional[list]) -> int:
    """The character holding ``byte`` (``table[i]`` = byte offset of character i, plus the end)."""
    return byte if table is None else bisect_right(table, byte) - 1


def _char_ceil(byte: int, table: Optional[list]) -> int:
    """The first character boundary at or after ``byte``."""
    return byte if table is None else bisect_left(table, byte)


def _post(ctx: Context) -> StageResult:
    res = ctx.tokenizer.encode_result(ctx.text, return_offsets=True, return_masks=True, add_special_tokens=True,
                                      padding=None if ctx.padding else False,
                                      truncation=None if ctx.truncation else False)
    rows = []
    for i, (id_, value, off, orig, special, type_id) in enumerate(zip(
            res.ids, res.tokens, res.offsets, res.original_offsets, res.special_tokens_mask, res.token_type_ids)):
        if i >= MAX_ROWS:
            break
        both = {}
        if ctx.both_units:
            both = {"offsets" + CHARS: _chars(res.tokenization_text, off),
                    "original offsets" + CHARS: _chars(ctx.text, orig)}
        rows.append({"#": i, "id": id_, "token": visible(value), "offsets" + BYTES: str(tuple(off)),
                     "original offsets" + BYTES: str(tuple(orig)), **both, "type id": type_id, "special": special,
                     "inserted": tuple(off) == (0, 0)})
    post = ctx.tokenizer.post_processor
    name = type(post).__name__ if post is not None else "none"
    note = "" if model_matches_pipeline(ctx, res) else (
        "The stage-by-stage tokens differ from the pipeline's own encoding; the table below is the pipeline's.")
    if res.overflowing:
        note = (f"The tokenizer's own truncation keeps {len(res.ids)} tokens here ({len(res.overflowing)} overflowing "
                f"window{'' if len(res.overflowing) == 1 else 's'} left out); the stages above cover the whole text. "
                + note).strip()
    return StageResult("Post-processor", f"Post-processor: {name}. The final encoding: template tokens get the "
                       "(0, 0) sentinel; offsets are 1-based UTF-8 byte spans (the offsets contract).", None, rows,
                       note, chips=tuple((visible(t), bool(s)) for t, s in zip(res.tokens[:MAX_ROWS],
                                                                                res.special_tokens_mask)),
                       total=len(res.ids))


def model_matches_pipeline(ctx: Context, result=None) -> bool:
    """Do the model-stage ids equal ``encode_result(add_special_tokens=False)``'s, without padding or truncation?"""
    if (result is None or ctx.padding or ctx.truncation
            or any(tuple(o) == (0, 0) for o in (result.offsets or []))):
        result = ctx.tokenizer.encode_result(ctx.text, add_special_tokens=False, padding=False, truncation=False)
    return [t[0] for t in ctx.tokens] == list(result.ids)


def alignment_runs(ctx: Context) -> list[dict]:
    """The tokenization text cut into runs mapped to one input span each (identity runs joined).

    For ``"Ab"`` lower-cased: one run ``[0, 2) "ab" <- [0, 2) "Ab"``.
    """
    view = ctx.ns.normalized
    groups: list[list] = []  # [start, stop, raw start, raw stop]: consecutive characters from one input span
    for i in range(len(view)):
        s, e = ctx.raw_span(i, i + 1)
        if groups and (groups[-1][2], groups[-1][3]) == (s, e):
            groups[-1][1] = i + 1
        else:
            groups.append([i, i + 1, s, e])
    runs: list[list] = []  # one-to-one groups that follow each other are joined
    for a, b, s, e in groups:
        one = b - a == 1 and e - s == 1
        last = runs[-1] if runs else None
        if one and last is not None and last[4] and last[1] == a and last[3] == s:
            last[1], last[3] = b, e
        else:
            runs.append([a, b, s, e, one])
    out = []
    for a, b, s, e, _ in runs:
        out.append({"tokenization text" + CHARS: span_label((a, b)), "text": visible(view[a:b]),
                    "raw input" + CHARS: span_label((s, e)), "raw text": visible(ctx.raw[s:e]),
                    "same": view[a:b] == ctx.raw[s:e]})
    return out


def _alignment(ctx: Context) -> StageResult:
    runs = alignment_runs(ctx)
    return StageResult("Alignment", "How the tokenization text maps back to the raw input: runs of characters "
                       "with the input span they came from.", None, runs[:MAX_ROWS], total=len(runs))


# ----------------------------------------------------------------------------- the registry
STAGES: list[Stage] = [
    Stage("raw", "Raw input", _raw),
    Stage("lexnorm", "Lexical normalizer", _lexnorm, optional=True),
    Stage("normalizer", "Normalizer", _normalizer),
    Stage("pre_tokenizer", "Pre-tokenizer", _pre_tokenizer),
    Stage("model", "Model", _model),
    Stage("post_processor", "Post-processor", _post),
    Stage("alignment", "Alignment", _alignment),
]


def register_stage(stage: Stage, *, before: str | None = None, after: str | None = None) -> None:
    """Insert ``stage`` before or after the stage with that key (at the end otherwise); a same key is replaced."""
    global STAGES
    STAGES = [s for s in STAGES if s.key != stage.key]
    keys = [s.key for s in STAGES]
    if before in keys:
        STAGES.insert(keys.index(before), stage)
    elif after in keys:
        STAGES.insert(keys.index(after) + 1, stage)
    else:
        STAGES.append(stage)


def run_stages(tokenizer, text: str, *, optional: tuple[str, ...] = (), padding: bool = False,
               truncation: bool = False, both_units: bool = False) -> tuple[Context, list[StageResult]]:
    """Run every stage in order (optional ones only when their key is in ``optional``); no pad tokens unless
    ``padding`` (then the tokenizer's own padding, e.g. MiniLM's 128), no cut unless ``truncation``."""
    ctx = Context(tokenizer, text, text, padding=padding, truncation=truncation, both_units=both_units)
    results = []
    for stage in STAGES:
        if stage.optional and stage.key not in optional:
            continue
        results.append(stage.run(ctx))
    return ctx, results
