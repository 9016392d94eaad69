"""Feeding code to a subword tokenizer, syntax first: every subword keeps its exact span in the source.

Keywords, operators and punctuation stay whole; identifiers are split into words
(``split_identifier``) and each word is subword-encoded; comments are encoded as natural
language; strings and numbers stay single literals; indentation levels are tokens (Python);
newlines are kept and other whitespace is dropped.

Left out: parsing (``tokcore.code``) and the subword algorithms (the tokenizer passed in).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..core.offsets import has_span
from .code import tokenize_code
from .identifiers import split_identifier_spans

WHOLE = frozenset({"keyword", "operator", "punctuation", "string", "number", "newline", "indent", "dedent"})
NATURAL = frozenset({"comment", "error"})


@dataclass(frozen=True)
class CodeSubword:
    """One unit fed to a model: its text, id (``None`` for literals and syntax units not in the vocabulary),
    the syntax type of its source token, contract offsets into the code, and that token's index."""

    text: str
    id: Optional[int]
    type: str
    offsets: tuple[int, int]
    source: int


def _encode_span(tokenizer, text: str, byte_start: int, kind: str, source: int) -> list[CodeSubword]:
    """Subword-encode ``text`` (which starts at 0-based byte ``byte_start`` of the code) and shift its spans."""
    # padding=False: a tokenizer that pads (MiniLM to 128) would pad every identifier piece.
    result = tokenizer.encode_result(text, add_special_tokens=False, return_offsets=True, padding=False)
    out = []
    for id_, tok, o in zip(result.ids, result.tokens, result.original_offsets):
        span = (o[0] + byte_start, o[1] + byte_start) if has_span(o) else (0, 0)
        out.append(CodeSubword(tok, id_, kind, span, source))
    return out


def encode_code(code: str, language: str, tokenizer) -> list[CodeSubword]:
    """Syntax-aware subwords of ``code``. Spans point into ``code`` (1-based UTF-8 bytes)."""
    out: list[CodeSubword] = []
    for index, token in enumerate(tokenize_code(code, language)):
        kind, start = token.type, token.offsets[0]
        if kind == "whitespace":
            continue
        if kind in WHOLE:
            id_ = tokenizer.token_to_id(token.text) if kind not in ("string", "number", "dedent") else None
            out.append(CodeSubword(token.text, id_, kind, token.offsets, index))
        elif kind == "identifier":
            char_to_byte = _char_bytes(token.text)
            for part, (s, _e) in split_identifier_spans(token.text):
                out.extend(_encode_span(tokenizer, part, start - 1 + char_to_byte[s], kind, index))
        else:
            out.extend(_encode_span(tokenizer, token.text, start - 1, kind, index))
    return out


def _char_bytes(text: str) -> list[int]:
    """0-based byte offset of each character boundary. ``_char_bytes("aé") == [0, 1, 3]``."""
    out = [0]
    for ch in text:
        out.append(out[-1] + len(ch.encode("utf-8")))
    return out
