"""Reading sentencepiece ``.model`` files (a serialized ``ModelProto``) without the protobuf package.

Only the fields a tokenizer needs are decoded: the pieces (text, score, type), the trainer spec
(model type, byte fallback, special ids and pieces, whitespace options) and the normalizer spec
(rule name, precompiled charsmap, dummy prefix, whitespace handling), and the denormalizer spec
(the same fields; sentencepiece runs it over decoded text). Unknown fields are skipped, as
protobuf itself does, so newer files still load.

Left out: building the tokenizer from the parsed model (``tokcore.loaders.sentencepiece_build``)
and the self-test data.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import TokenizerFileError
from .protobuf_wire import (
    FIXED32,
    LENGTH,
    VARINT,
    WireError,
    as_float,
    as_int32,
    as_str,
    expect,
    iter_fields,
    read_field,
)

# SentencePiece.Type values.
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
_KNOWN_TYPES = frozenset((NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE))
# TrainerSpec.ModelType values.
MODEL_TYPES = {1: "UNIGRAM", 2: "BPE", 3: "WORD", 4: "CHAR"}


@dataclass(frozen=True)
class SpPiece:
    piece: str
    score: float = 0.0
    type: int = NORMAL


@dataclass
class TrainerSpec:
    """The ``TrainerSpec`` fields that change how text is encoded (defaults as in the .proto)."""

    model_type: int = 1
    vocab_size: int = 8000
    byte_fallback: bool = False
    split_digits: bool = False
    split_by_whitespace: bool = True
    treat_whitespace_as_suffix: bool = False
    allow_whitespace_only_pieces: bool = False
    unk_id: int = 0
    bos_id: int = 1
    eos_id: int = 2
    pad_id: int = -1
    unk_piece: str = "<unk>"
    bos_piece: str = "<s>"
    eos_piece: str = "</s>"
    pad_piece: str = "<pad>"
    unk_surface: str = " \u2047 "
    max_sentencepiece_length: int = 16

    @property
    def model_type_name(self) -> str:
        return MODEL_TYPES.get(self.model_type, f"unknown({self.model_type})")


@dataclass
class NormalizerSpec:
    name: str = ""
    precompiled_charsmap: bytes = b""
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    escape_whitespaces: bool = True
    normalization_rule_tsv: str = ""


@dataclass
class SpModel:
    """A parsed ``.model`` file. The pieces are kept as three columns (text, score, type), as the
    tokenizer is built from them; ``pieces`` gives them as ``SpPiece`` records."""

    piece_texts: list[str] = field(default_factory=list)
    piece_scores: list[float] = field(default_factory=list)
    piece_types: list[int] = field(default_factory=list)
    trainer_spec: TrainerSpec = field(default_factory=TrainerSpec)
    normalizer_spec: NormalizerSpec = field(default_factory=NormalizerSpec)
    denormalizer_spec: NormalizerSpec = field(default_factory=NormalizerSpec)
    has_trainer_spec: bool = False
    has_normalizer_spec: bool = False
    has_denormalizer_spec: bool = False

    @property
    def pieces(self) -> list[SpPiece]:
        return list(map(SpPiece, self.piece_texts, self.piece_scores, self.piece_types))


# field number -> (attribute, kind); kind is "bool", "int32", "str" or "float".
_TRAINER_FIELDS = {
    3: ("model_type", "int32"), 4: ("vocab_size", "int32"), 35: ("byte_fallback", "bool"),
    25: ("split_digits", "bool"), 22: ("split_by_whitespace", "bool"),
    24: ("treat_whitespace_as_suffix", "bool"), 26: ("allow_whitespace_only_pieces", "bool"),
    40: ("unk_id", "int32"), 41: ("bos_id", "int32"), 42: ("eos_id", "int32"), 43: ("pad_id", "int32"),
    45: ("unk_piece", "str"), 46: ("bos_piece", "str"), 47: ("eos_piece", "str"), 48: ("pad_piece", "str"),
    44: ("unk_surface", "str"), 20: ("max_sentencepiece_length", "int32"),
}
_NORMALIZER_FIELDS = {
    1: ("name", "str"), 2: ("precompiled_charsmap", "bytes"), 3: ("add_dummy_prefix", "bool"),
    4: ("remove_extra_whitespaces", "bool"), 5: ("escape_whitespaces", "bool"),
    6: ("normalization_rule_tsv", "str"),
}


def _fill(obj: object, data: bytes, fields: dict, message: str) -> None:
    for number, wire, value in iter_fields(data):
        spec = fields.get(number)
        if spec is None:
            continue
        attr, kind = spec
        name = f"{message}.{attr}"
        if kind in ("str", "bytes"):
            expect(wire, LENGTH, name)
            setattr(obj, attr, as_str(value, field=name) if kind == "str" else bytes(value))  # type: ignore[arg-type]
        else:
            expect(wire, VARINT, name)
            setattr(obj, attr, bool(value) if kind == "bool" else as_int32(value))  # type: ignore[arg-type]


# The layout sentencepiece writes for nearly every piece record: the piece (under 128 bytes), its
# score unless 0 and its type unless NORMAL. ``_COMMON_PIECE`` finds a run of such records in one
# match and ``_ONE_PIECE`` splits it (the same greedy steps, so the same records); their lengths
# are then checked in bulk (``_common_run``). A piece holding byte 0x0a, 0x15 or 0x18 (an ASCII
# control) ends its run early and fails the check; it and anything else (a long piece, another
# field order, unknown fields) take the generic reader, which checks all.
_ONE = rb"\x0a([\x00-\x7f])\x0a([\x00-\x7f])([^\x0a\x15\x18]*)(?:\x15(.{4}))?(?:\x18([\x00-\x7f]))?"
_COMMON_PIECE = re.compile(rb"(?:\x0a[\x00-\x7f]\x0a[\x00-\x7f][^\x0a\x15\x18]*(?:\x15.{4})?(?:\x18[\x00-\x7f])?)+", re.S)
_ONE_PIECE = re.compile(_ONE, re.S)
_TYPE_OF = {b"": NORMAL, **{bytes([t]): t for t in range(128)}}
_ZERO_SCORE = {b"": b"\0\0\0\0"}  # an absent score is 0.0
# Body bytes besides the text, by the bytes of score and type read (0 or 4, 0 or 1): tags add 1 each.
_FIELDS_LEN = {0: 2, 4: 7, 1: 4, 5: 9}
_FIRST_WINDOW = 256  # bytes a run may span after a refused record; doubles with each accepted run


def _common_run(data: bytes, start: int, stop: int) -> tuple[int, list[str], tuple[float, ...], list[int]]:
    """The records of ``data[start:stop]`` (a ``_COMMON_PIECE`` match) whose lengths agree with
    their bytes, up to the first that does not: ``(where they end, texts, scores, types)``.

    Consecutive records that agree tile their span as a protobuf reader reads it.
    ``_common_run(b"\\x0a\\x03\\x0a\\x01a", 0, 5) == (5, ["a"], (0.0,), [1])``.
    """
    records = _ONE_PIECE.findall(data, start, stop)
    outers, inners, texts, scores, types = zip(*records)
    inner, outer = list(b"".join(inners)), list(b"".join(outers))
    extra = list(map(_FIELDS_LEN.__getitem__, map(int.__add__, map(len, scores), map(len, types))))
    ok = len(records)
    if list(map(len, texts)) != inner or list(map(int.__add__, inner, extra)) != outer:
        ok = next(i for i in range(ok) if len(texts[i]) != inner[i] or inner[i] + extra[i] != outer[i])
    try:
        strings = list(map(bytes.decode, texts[:ok]))
    except UnicodeDecodeError:  # the generic reader names the field
        strings = []
        for raw in texts[:ok]:
            try:
                strings.append(raw.decode())
            except UnicodeDecodeError:
                break
        ok = len(strings)
    floats = struct.unpack(f"<{ok}f", b"".join(map(_ZERO_SCORE.get, scores[:ok], scores[:ok])))
    return start + sum(outer[:ok]) + 2 * ok, strings, floats, list(map(_TYPE_OF.__getitem__, types[:ok]))


def _piece(data: bytes, index: int) -> tuple[str, float, int]:
    piece, score, type_ = "", 0.0, NORMAL
    for number, wire, value in iter_fields(data):
        if number == 1:
            expect(wire, LENGTH, f"pieces[{index}].piece")
            piece = as_str(value, field=f"pieces[{index}].piece")  # type: ignore[arg-type]
        elif number == 2:
            expect(wire, FIXED32, f"pieces[{index}].score")
            score = as_float(value)  # type: ignore[arg-type]
        elif number == 3:
            expect(wire, VARINT, f"pieces[{index}].type")
            type_ = as_int32(value)  # type: ignore[arg-type]
    return piece, score, type_


def parse_model_proto(data: bytes) -> SpModel:
    """Decode a serialized ``ModelProto``. Raises ``WireError`` when the bytes are malformed."""
    model = SpModel()
    texts, scores, types = model.piece_texts, model.piece_scores, model.piece_types
    pos, n = 0, len(data)
    window = n
    while pos < n:
        m = _COMMON_PIECE.match(data, pos, min(n, pos + window))
        if m is not None:
            end, strings, floats, kinds = _common_run(data, pos, m.end())
            texts += strings
            scores += floats
            types += kinds
            window = min(n, 2 * window)
            if end == m.end() or end >= n:
                pos = end
                continue
            # A record the shortcut refused: a bounded window next, so that many such records
            # cost no more than reading them one by one.
            pos, window = end, _FIRST_WINDOW
        number, wire, value, pos = read_field(data, pos)
        if number == 1:
            expect(wire, LENGTH, "pieces")
            piece, score, type_ = _piece(value, len(texts))  # type: ignore[arg-type]
            texts.append(piece)
            scores.append(score)
            types.append(type_)
        elif number == 2:
            expect(wire, LENGTH, "trainer_spec")
            model.has_trainer_spec = True
            _fill(model.trainer_spec, value, _TRAINER_FIELDS, "trainer_spec")  # type: ignore[arg-type]
        elif number == 3:
            expect(wire, LENGTH, "normalizer_spec")
            model.has_normalizer_spec = True
            _fill(model.normalizer_spec, value, _NORMALIZER_FIELDS, "normalizer_spec")  # type: ignore[arg-type]
        elif number == 5:
            expect(wire, LENGTH, "denormalizer_spec")
            model.has_denormalizer_spec = True
            _fill(model.denormalizer_spec, value, _NORMALIZER_FIELDS, "denormalizer_spec")  # type: ignore[arg-type]
    return model


def read_sentencepiece_model(path: Path) -> SpModel:
    """Parse a ``.model`` file, turning every problem into a ``TokenizerFileError`` about ``path``."""
    from .files import read_file_bytes

    data = read_file_bytes(path)
    if not data:
        raise TokenizerFileError(path, "the file is empty", fix="Pass a sentencepiece .model file.")
    try:
        model = parse_model_proto(data)
    except WireError as exc:
        raise TokenizerFileError(path, f"not a sentencepiece model: {exc}",
                                 fix="Expected a binary ModelProto written by sentencepiece's trainer.") from None
    texts, types = model.piece_texts, model.piece_types
    if not texts:
        raise TokenizerFileError(path, "the model has no pieces", where="ModelProto.pieces",
                                 fix="Is this a sentencepiece .model file?")
    if not all(texts) or not _KNOWN_TYPES.issuperset(types):
        for i, (text, type_) in enumerate(zip(texts, types)):
            if not text:
                raise TokenizerFileError(path, "a piece is empty", where=f"pieces[{i}]")
            if type_ not in _KNOWN_TYPES:
                raise TokenizerFileError(path, f"piece {text!r} has unknown type {type_}", where=f"pieces[{i}]")
    unknown = [i for i, t in enumerate(types) if t == UNKNOWN] if types.count(UNKNOWN) != 1 else [types.index(UNKNOWN)]
    if not unknown:
        # sentencepiece refuses these too ("unk is not defined"): unknown text would have no token.
        raise TokenizerFileError(path, "no piece has type UNKNOWN (the unknown piece, e.g. '<unk>')",
                                 where="ModelProto.pieces", fix="sentencepiece models define exactly one unknown piece.")
    if len(unknown) > 1:
        raise TokenizerFileError(path, f"several pieces have type UNKNOWN (pieces {unknown[0]} and {unknown[1]})",
                                 where=f"pieces[{unknown[1]}]", fix="sentencepiece models define exactly one unknown piece.")
    if model.trainer_spec.model_type not in MODEL_TYPES:
        raise TokenizerFileError(path, f"unknown model_type {model.trainer_spec.model_type}",
                                 where="trainer_spec.model_type", fix="Expected UNIGRAM (1), BPE (2), WORD (3) or CHAR (4).")
    return model
