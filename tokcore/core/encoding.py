"""Encodings: the mutable ``Encoding`` the pipeline fills, and the frozen ``EncodeResult`` it returns.

``Encoding`` keeps spans as 0-based half-open byte offsets into the tokenization text, with
``None`` for tokens that have no source (inserted specials, pads); the fast lane may count them
from 1 instead (``spans_base``), the contract's base, when nothing maps them back afterwards. ``EncodeResult`` is the
public view: parallel lists, contract offsets (1-based, ``(0, 0)`` sentinel); a long text's
offsets and word ids as compact ``Spans`` / ``WordIds``.

Left out: truncation and padding logic (``tokcore.truncation``) and how tokens are found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .offsets import SENTINEL, Span
from .optional_ints import WordColumn, WordIds
from .spans import SpanColumn, Spans


@dataclass
class Encoding:
    """One sequence (or a processed pair) while it is being built. Spans: 0-based bytes or ``None``."""

    ids: list[int] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    # Lists; for a long text in the fast lane, spans and word_ids are compact columns with the
    # same reads (SpanColumn, WordColumn), and so may special..attention be (WordColumn).
    spans: list[Optional[tuple[int, int]]] | SpanColumn = field(default_factory=list)
    special: list[int] = field(default_factory=list)
    type_ids: list[int] = field(default_factory=list)
    word_ids: list[Optional[int]] | WordColumn = field(default_factory=list)
    sequence_ids: list[Optional[int]] = field(default_factory=list)
    attention: list[int] = field(default_factory=list)
    overflowing: list["Encoding"] = field(default_factory=list)
    # Not a field: what the spans count from. The lane (tokcore.fast.lane) emits them from 1 where
    # the result's offsets are the spans themselves, so result_state adds nothing to each; the
    # post-processors' fast path keeps it (trim_offsets reads it), every other step expects 0.
    spans_base = 0

    def __len__(self) -> int:
        return len(self.ids)

    def append(self, id: int, token: str, span, *, special: int = 0, type_id: int = 0, word=None, seq=0) -> None:
        self.ids.append(id)
        self.tokens.append(token)
        self.spans.append(span)
        self.special.append(special)
        self.type_ids.append(type_id)
        self.word_ids.append(word)
        self.sequence_ids.append(seq)
        self.attention.append(1)

    def extend(self, other: "Encoding") -> None:
        self.ids += other.ids
        self.tokens += other.tokens
        self.spans += other.spans
        self.special += other.special
        self.type_ids += other.type_ids
        self.word_ids += other.word_ids
        self.sequence_ids += other.sequence_ids
        self.attention += other.attention

    def slice(self, start: int, stop: int) -> "Encoding":
        return Encoding(
            self.ids[start:stop],
            self.tokens[start:stop],
            self.spans[start:stop],
            self.special[start:stop],
            self.type_ids[start:stop],
            self.word_ids[start:stop],
            self.sequence_ids[start:stop],
            self.attention[start:stop],
        )

    def set_type_id(self, type_id: int) -> None:
        self.type_ids = [type_id] * len(self.ids)

    def set_sequence_id(self, seq: int) -> None:
        self.sequence_ids = [seq] * len(self.ids)


def _none() -> None:
    return None


@dataclass(frozen=True)
class EncodeResult:
    """The result of one encoding: parallel lists, one entry per token.

    ``offsets`` follow the contract in the tokenization text; ``original_offsets`` the same
    convention in the raw input. Both are ``None`` unless ``return_offsets=True``, else lists of
    ``(start, stop)`` tuples. A result of more than ``COMPACT_FROM`` (65,536) tokens holds them,
    and ``word_ids``, as compact read-only sequences instead (``Spans`` in ``tokcore.core.spans``,
    ``WordIds`` in ``tokcore.core.optional_ints``): they index, slice, iterate and compare as the
    lists would, ``tolist()`` gives the list, and equal offsets (a normalizer that moved
    nothing) are then one object. A list of tuples costs ~120 bytes a token. The masks are
    ``None`` unless ``return_masks=True``. ``word_ids`` and ``sequence_ids`` are always filled
    (``None`` for inserted tokens). ``tokenization_text`` (and ``tokenization_text_pair``) are
    the texts the offsets point into.

    A result from the single-text fast lane (``tokcore.fast.lane``) fills its lists on first
    read, from the per-word data it keeps (as HF tokenizers builds its Python lists on first
    access): the ids alone from the words' ids, the word ids alone from the words' entries, the
    other lists together (for a sentencepiece ``.model``'s plain line, its tokenization text too).
    When the original offsets are mapped from a view that moved characters, ``offsets`` (the
    view's) waits for its own first read, on any result. The values are the same either way.
    """

    ids: list[int]
    tokens: list[str]
    # Defaults through factories: a plain default would be a class attribute, which hides a
    # field that a lazy result has not filled yet from ``__getattr__``.
    offsets: Optional[list[Span] | Spans] = field(default_factory=_none)
    original_offsets: Optional[list[Span] | Spans] = field(default_factory=_none)
    special_tokens_mask: Optional[list[int]] = field(default_factory=_none)
    attention_mask: Optional[list[int]] = field(default_factory=_none)
    token_type_ids: Optional[list[int]] = field(default_factory=_none)
    word_ids: WordIds | list[Optional[int]] = field(default_factory=list)
    sequence_ids: list[Optional[int]] = field(default_factory=list)
    overflowing: list["EncodeResult"] = field(default_factory=list)
    tokenization_text: str = field(default_factory=str)
    tokenization_text_pair: Optional[str] = None
    raw_text: str = ""
    raw_text_pair: Optional[str] = None

    @classmethod
    def _from_state(cls, state: dict) -> "EncodeResult":
        """A result whose fields are ``state`` (a fresh dict it keeps). A lazy result's state also
        holds its ``"_source"``, which fills the missing fields on first read: ``ids(state)`` for
        the ids alone, ``view(state)`` for the tokenization text, ``fields(state)`` for the rest."""
        self = object.__new__(cls)
        object.__setattr__(self, "__dict__", state)
        return self

    def __getattr__(self, name: str):
        # Only reached for a field a lazy result has not filled yet (or a missing attribute).
        d = self.__dict__
        if name in d:  # filled by another thread since this lookup began
            return d[name]
        if name not in _LAZY_FIELDS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        source = d.get("_source")
        if source is not None:
            if name == "tokenization_text":  # a plain line's view, made on demand
                return d.setdefault(name, source.view(d))
            if "ids" not in d:
                d.setdefault("ids", source.ids(d))
                if name == "ids":
                    return d["ids"]
            # What is set already stays (the ids; from another thread meanwhile: the same values).
            filled = source.fields(d)
            filled.update(d)
            d.update(filled)
            d.pop("_source", None)
            d.pop("_words", None)
            if name in d:
                return d[name]
        if name == "word_ids":
            make = d.get("_word_ids")  # left by the lane (tokcore.fast.lane): made on first read
            if make is not None:
                words = d.setdefault("word_ids", make())
                d.pop("_word_ids", None)
                return words
        later = d.get("_offsets")
        if name == "offsets" and later is not None:  # (spans, base) left by result_state, or the lane's maker
            offsets = d.setdefault("offsets", later() if callable(later) else contract_offsets(*later))
            d.pop("_offsets", None)
            return offsets
        if name in d:  # made by another thread since this lookup began
            return d[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _filled(self) -> dict:
        """The result's state with every lazy field made (what is pickled, what ``tokcore.parallel`` packs)."""
        d = self.__dict__
        if "_source" in d:
            self.__getattr__("tokens")
        if "_offsets" in d:
            self.__getattr__("offsets")
        if "_word_ids" in d:
            self.__getattr__("word_ids")
        return d

    def __getstate__(self) -> dict:
        # Pickled (by encode_batch's worker processes) with every list filled in; the converters'
        # character tables (tokcore.result_views) are made again where they are needed.
        state = dict(self._filled())
        state.pop("_char_table", None)
        state.pop("_char_table_pair", None)
        return state

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def n_tokens(self) -> int:
        return len(self.ids)

    # HF-style converters (0-based characters of the raw input); see tokcore.result_views.
    def char_to_token(self, char_index: int, *, sequence_index: int = 0) -> Optional[int]:
        from .result_views import char_to_token

        return char_to_token(self, char_index, sequence_index=sequence_index)

    def token_to_chars(self, token_index: int) -> Optional[tuple[int, int]]:
        from .result_views import token_to_chars

        return token_to_chars(self, token_index)

    def token_to_word(self, token_index: int) -> Optional[int]:
        return self.word_ids[token_index]

    def word_to_tokens(self, word_index: int, *, sequence_index: int = 0) -> Optional[tuple[int, int]]:
        from .result_views import word_to_tokens

        return word_to_tokens(self, word_index, sequence_index=sequence_index)

    @property
    def position_ids(self) -> list[int]:
        """0..n-1 over real tokens; pads get 0 (see ``tokcore.result_views.position_ids``)."""
        from .result_views import position_ids

        return position_ids(self)

    def to_dict(self) -> dict:
        """Plain JSON-ready data (offsets as ``[start, stop]`` lists)."""
        out = {
            "ids": list(self.ids),
            "tokens": list(self.tokens),
            "offsets": None if self.offsets is None else [list(o) for o in self.offsets],
            "original_offsets": None if self.original_offsets is None else [list(o) for o in self.original_offsets],
            "special_tokens_mask": self.special_tokens_mask,
            "attention_mask": self.attention_mask,
            "token_type_ids": self.token_type_ids,
            "word_ids": list(self.word_ids),
            "sequence_ids": list(self.sequence_ids),
        }
        if self.overflowing:
            out["overflowing"] = [o.to_dict() for o in self.overflowing]
        return out


def contract_offsets(spans: list, base: int) -> list[Span]:
    """Spans counted from ``base`` (0 or 1; ``None`` for an inserted token) as contract offsets.
    ``contract_offsets([None, (0, 2)], 0) == [(0, 0), (1, 3)]``; with base 1 the tuples are reused."""
    if base:
        return [SENTINEL if s is None else s for s in spans]
    return [SENTINEL if s is None else (s[0] + 1, s[1] + 1) for s in spans]


def contract_span(span: Optional[tuple[int, int]]) -> Span:
    """A 0-based internal byte span as a contract span. ``contract_span((0, 2)) == (1, 3)``; ``None`` -> ``(0, 0)``."""
    if span is None:
        return SENTINEL
    return (span[0] + 1, span[1] + 1)


# Filled on first read in a lazy result; the texts are always set (the pair texts may be left
# to their class defaults, None).
_LAZY_FIELDS = frozenset(("ids", "tokenization_text", "tokens", "offsets", "original_offsets", "special_tokens_mask", "attention_mask",
                          "token_type_ids", "word_ids", "sequence_ids", "overflowing"))


class _LazyField:
    """A lazy field's class attribute, set after ``@dataclass`` has read the class: Python looks
    in the result's ``__dict__`` first (a non-data descriptor), so a filled field reads as a plain
    attribute, and an unfilled one comes here instead of failing the lookup first (an
    ``AttributeError`` made, its message formatted, and dropped before ``__getattr__`` runs:
    about a fifth of reading a short lane result's ids)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __get__(self, result, owner=None):
        if result is None:  # on the class, as before: no such attribute
            raise AttributeError(f"type object {owner.__name__!r} has no attribute {self.name!r}")
        return result.__getattr__(self.name)


for _name in _LAZY_FIELDS:
    setattr(EncodeResult, _name, _LazyField(_name))
del _name
