"""Base classes of the pipeline stages, and the table that turns ``{"type": ...}`` dicts into them.

Stages, in HF tokenizers' order: normalizer -> pre-tokenizer -> model -> post-processor;
the decoder stands apart. Each stage's classes register themselves (``@register``) under the
``"type"`` tag HF's ``tokenizer.json`` uses, so tokcore's native JSON and HF's share one
vocabulary; ``tokcore.serialization.registry`` imports every stage, so the table is complete
before anything is built from a dict.

A tokenizer owns its components (``watch``): setting an option of a component it holds, at any
depth, tells that tokenizer to drop what it derived from the old options (its fast lane, word
plan and worker processes). Nothing global is bumped.

A ``Piece`` is what pre-tokenizers hand to the model: the text the model sees and, for each
of its characters, the byte span it came from in the tokenization text (``bounds`` holds
``len(text) + 1`` non-decreasing 0-based byte offsets). Keeping ``bounds`` next to the text
is what makes offsets exact by construction.

Left out: the concrete algorithms (one folder per stage) and the orchestration
(``tokcore.core.tokenizer``).
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, ClassVar, NamedTuple, Sequence

from .errors import ConfigurationError, TokenizerFileError
from .normalized import NormalizedString

STAGES = ("normalizer", "pre_tokenizer", "model", "post_processor", "decoder")
_REGISTRY: dict[str, dict[str, type]] = {stage: {} for stage in STAGES}


def register(stage: str, name: str | None = None) -> Callable[[type], type]:
    """Class decorator: make ``cls`` buildable from ``{"type": name, ...}`` for ``stage``."""

    def deco(cls: type) -> type:
        tag = name or cls.__name__
        cls.type_name = tag  # type: ignore[attr-defined]
        _REGISTRY[stage][tag] = cls
        return cls

    return deco


def registered(stage: str) -> dict[str, type]:
    """The classes registered for ``stage``, by type tag (complete once ``tokcore`` is imported)."""
    return dict(_REGISTRY[stage])


def build(stage: str, data: Any, *, source: object = "<dict>", where: str = "") -> Any:
    """Build a component of ``stage`` from its dict; ``None`` stays ``None``.

    Unknown or malformed entries raise ``TokenizerFileError`` naming ``source`` and ``where``.
    """
    if data is None:
        return None
    where = where or stage
    if not isinstance(data, dict):
        raise TokenizerFileError(source, f"expected an object for {stage}, got {type(data).__name__}", where=where)
    tag = data.get("type")
    if tag is None and stage == "model":
        tag = _guess_model_type(data)
    cls = _REGISTRY[stage].get(tag) if isinstance(tag, str) else None
    if cls is None:
        known = ", ".join(sorted(_REGISTRY[stage]))
        raise TokenizerFileError(
            source, f"unknown {stage} type {tag!r}", where=where, fix=f"Known types: {known}."
        )
    try:
        return cls.from_dict(data, source=source, where=where)
    except TokenizerFileError:
        raise
    except KeyError as exc:
        raise TokenizerFileError(source, f"malformed {stage} {tag!r}: missing key {exc}", where=where) from None
    except (TypeError, ValueError, AttributeError, IndexError) as exc:
        raise TokenizerFileError(source, f"malformed {stage} {tag!r}: {exc}", where=where) from None


def _guess_model_type(data: dict) -> str | None:
    # Old HF files omit the model's "type"; HF itself guesses from the keys the same way.
    if "merges" in data:
        return "BPE"
    if "continuing_subword_prefix" in data and "max_input_chars_per_word" in data:
        return "WordPiece"
    if isinstance(data.get("vocab"), list):
        return "Unigram"
    if "vocab" in data:
        return "WordLevel"
    return None


class Component:
    """Shared behaviour of every pipeline stage: a type tag, dict (de)serialization, and owners.

    The owners are the tokenizers holding this component (``watch``); they are told when an
    option already set is set again, so their derived plans never go stale. Private
    attributes (``_cache``...) are a component's own business and tell nobody.
    """

    type_name: ClassVar[str] = ""

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        object.__setattr__(self, name, value)
        if name[0] != "_" and "_owners" in d:
            owners = [ref() for ref in d["_owners"].values()]
            for owner in owners:
                if owner is not None:
                    watch(value, owner)
                    owner._stage_changed()

    def __getstate__(self) -> dict:
        # Copies and pickles belong to nobody yet.
        state = dict(self.__dict__)
        state.pop("_owners", None)
        return state

    def to_dict(self) -> dict:
        """The component as a JSON-ready dict with HF's keys and ``"type"`` tag."""
        return {"type": self.type_name}

    @classmethod
    def from_dict(cls, data: dict, *, source: object = "<dict>", where: str = "") -> "Component":
        return cls()

    def __repr__(self) -> str:
        fields = {k: v for k, v in self.to_dict().items() if k != "type"}
        inner = ", ".join(f"{k}={v!r}" for k, v in fields.items() if not isinstance(v, (dict, list)) or len(v) < 8)
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.to_dict() == other.to_dict()  # type: ignore[union-attr]

    __hash__ = object.__hash__


# --------------------------------------------------------------------------------------------
# Normalizers


class Normalizer(Component):
    """Turns a ``NormalizedString`` into a new one, keeping the alignment to the original."""

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        raise NotImplementedError

    def normalize_str(self, text: str) -> str:
        """Inspector: the normalized text. ``Lowercase().normalize_str("Hi") == "hi"``."""
        return self.normalize(NormalizedString(text)).normalized


# --------------------------------------------------------------------------------------------
# Pre-tokenizers


class Piece(NamedTuple):
    """Text the model sees plus ``len(text) + 1`` byte offsets into the tokenization text."""

    text: str
    bounds: Sequence[int]

    def sub(self, start: int, stop: int) -> "Piece":
        """Characters ``[start, stop)`` of this piece. ``Piece("ab", range(3)).sub(1, 2) == Piece("b", range(1, 3))``."""
        return Piece(self.text[start:stop], self.bounds[start : stop + 1])

    @property
    def span(self) -> tuple[int, int]:
        """0-based half-open byte span in the tokenization text."""
        return (self.bounds[0], self.bounds[-1])


def piece_from_text(text: str, byte_start: int = 0) -> Piece:
    """A piece that is ``text`` verbatim, starting at ``byte_start``. ``piece_from_text("é").bounds == [0, 2]``."""
    if text.isascii():
        return Piece(text, range(byte_start, byte_start + len(text) + 1))
    bounds = [byte_start]
    pos = byte_start
    for ch in text:
        pos += 1 if ch < "\x80" else len(ch.encode("utf-8", "surrogatepass"))
        bounds.append(pos)
    return Piece(text, bounds)


def char_offsets_of_pieces(text: str, pieces: Sequence[Piece]) -> list[tuple[str, tuple[int, int]]]:
    """Pieces as HF's ``pre_tokenize_str`` gives them: ``(piece, (char_start, char_stop))``, 0-based."""
    if text.isascii():
        return [(p.text, (p.bounds[0], p.bounds[-1])) for p in pieces]
    byte_to_char = {}
    pos = 0
    for i, ch in enumerate(text):
        byte_to_char[pos] = i
        pos += len(ch.encode("utf-8", "surrogatepass"))
    byte_to_char[pos] = len(text)
    out = []
    for p in pieces:
        s, e = p.bounds[0], p.bounds[-1]
        out.append((p.text, (byte_to_char.get(s, s), byte_to_char.get(e, e))))
    return out


class PreTokenizer(Component):
    """Splits pieces into smaller pieces (and may rewrite their text, keeping ``bounds`` exact)."""

    def split_piece(self, piece: Piece) -> list[Piece]:
        raise NotImplementedError

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        for piece in pieces:
            out.extend(self.split_piece(piece))
        return out

    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        """Inspector, as in HF: ``[(piece, (start, stop))]`` with 0-based character offsets into ``text``.

        ``WhitespaceSplit().pre_tokenize_str("a b") == [("a", (0, 1)), ("b", (2, 3))]``.
        """
        return char_offsets_of_pieces(text, self.pre_tokenize([piece_from_text(text)]))


# --------------------------------------------------------------------------------------------
# Models

# A model token: (id, value, start, stop) in characters of the piece, or with a fifth item
# (k, n) for a byte-fallback token that is byte k of the n UTF-8 bytes of character ``start``.
ModelToken = tuple


class Model(Component):
    """Maps one piece of text to tokens. Subclasses own a vocabulary."""

    unk_token: str | None = None

    def tokenize(self, text: str) -> list[ModelToken]:
        raise NotImplementedError

    def token_to_id(self, token: str) -> int | None:
        raise NotImplementedError

    def id_to_token(self, id: int) -> str | None:
        raise NotImplementedError

    def get_vocab(self) -> dict[str, int]:
        raise NotImplementedError

    @property
    def vocab_size(self) -> int:
        return len(self.get_vocab())


class VocabModel(Model):
    """A model whose vocabulary is a dict token -> id (``self.vocab``) with its inverse (``self._inverse``).

    Subclasses set both in ``__init__``; the lookups below are then shared.
    """

    vocab: dict[str, int]
    _inverse: dict[int, str]

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self._inverse.get(id)

    def get_vocab(self) -> dict[str, int]:
        return dict(self.vocab)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)


# --------------------------------------------------------------------------------------------
# Post-processors and decoders


class PostProcessor(Component):
    """Adds the special tokens a model expects around one sequence or a pair."""

    def added_tokens(self, is_pair: bool) -> int:
        raise NotImplementedError

    def process(self, first, second=None, *, add_special_tokens: bool = True):
        raise NotImplementedError


class Decoder(Component):
    """Turns tokens back into text; ``decode_chain`` exposes the per-token step as HF does."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        raise NotImplementedError

    def decode(self, tokens: list[str]) -> str:
        return "".join(self.decode_chain(list(tokens)))


def watch(value: Any, owner: Any) -> None:
    """Make ``owner`` (a tokenizer) an owner of every component in ``value``, at any depth.

    ``value`` is a component, a list or tuple of them, or anything else (ignored). An owner has a
    ``_stage_changed()`` method; it is held weakly.
    """
    if isinstance(value, Component):
        owners = value.__dict__.get("_owners")
        if owners is None:
            owners = {}
            object.__setattr__(value, "_owners", owners)
        owners[id(owner)] = weakref.ref(owner)
        for name, item in value.__dict__.items():
            if name[0] != "_":
                watch(item, owner)
    elif isinstance(value, (list, tuple)) and value and isinstance(value[0], Component):
        # Only lists of components (a Sequence's items); a vocabulary's long lists hold none.
        for item in value:
            watch(item, owner)


class StageSequence(Component):
    """Components of one stage applied in order; HF's ``Sequence`` of each stage.

    A subclass names its ``stage`` and the dict key of its items (``"normalizers"``,
    ``"pretokenizers"``, ``"processors"``, ``"decoders"``) and applies them.
    """

    stage: ClassVar[str] = ""
    items_key: ClassVar[str] = ""

    def __init__(self, items):
        setattr(self, self.items_key, list(items))

    @property
    def items(self) -> list:
        return getattr(self, self.items_key)

    def to_dict(self) -> dict:
        return {"type": "Sequence", self.items_key: [c.to_dict() for c in self.items]}

    def to_hf_dict(self) -> dict:
        return {"type": "Sequence", self.items_key: [getattr(c, "to_hf_dict", c.to_dict)() for c in self.items]}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        key = cls.items_key
        items = data[key]
        if not isinstance(items, list):
            raise TypeError(f"'{key}' must be a list")
        for i, d in enumerate(items):
            if d is None:  # build() maps null to "no component", which a list cannot hold
                what = cls.stage.replace("_", "-")
                raise TypeError(f"'{key}[{i}]' is null; every item must be a {what} object")
        return cls([build(cls.stage, d, source=source, where=f"{where}.{key}[{i}]") for i, d in enumerate(items)])


def byte_fallback_span(bounds: Sequence[int], char: int, sub: tuple[int, int]) -> tuple[int, int]:
    """Span of byte ``k`` of the ``n`` UTF-8 bytes of a piece character (exact when the bytes map 1:1).

    ``byte_fallback_span([0, 3], 0, (1, 3)) == (1, 2)``: byte 1 of a 3-byte character at 0.
    """
    k, n = sub
    start, stop = bounds[char], bounds[char + 1]
    if stop - start == n:
        return (start + k, start + k + 1)
    # The character was rewritten (e.g. '▁' for a space): only its last byte token carries the span.
    return (start, stop) if k == n - 1 else (start, start)


def require(cond: bool, message: str) -> None:
    """Raise ``ConfigurationError(message)`` unless ``cond``: the engine's replacement for ``assert``."""
    if not cond:
        raise ConfigurationError(message)
