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
from .protobuf_wire import FIXED32, LENGTH, VARINT, WireError, as_float, as_int32, as_str, expect, iter_fields

# SentencePiece.Type values.
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
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
    """A parsed ``.model`` file."""

    pieces: list[SpPiece] = field(default_factory=list)
    trainer_spec: TrainerSpec = field(default_factory=TrainerSpec)
    normalizer_spec: NormalizerSpec = field(default_factory=NormalizerSpec)
    denormalizer_spec: NormalizerSpec = field(default_factory=NormalizerSpec)
    has_trainer_spec: bool = False
    has_normalizer_spec: bool = False
    has_denormalizer_spec: bool = False


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


# The layout sentencepiece writes for nearly every piece: the piece (under 128 bytes), its score,
# and its type when not NORMAL. One match replaces three generic records; anything else (a long
# piece, another field order, unknown fields) takes the generic loop below, which checks all.
_COMMON_PIECE = re.compile(rb"\x0a([\x00-\x7f])(.*)\x15(.{4})(?:\x18([\x00-\x06]))?", re.S)
_FLOAT = struct.Struct("<f").unpack


def _piece(data: bytes, index: int) -> SpPiece:
    m = _COMMON_PIECE.fullmatch(data)
    if m is not None:
        raw, text, score, type_ = m.groups()
        if raw[0] == len(text):
            try:
                return SpPiece(text.decode("utf-8"), _FLOAT(score)[0], NORMAL if type_ is None else type_[0])
            except UnicodeDecodeError:
                pass  # the generic loop names the field
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
    return SpPiece(piece, score, type_)


def parse_model_proto(data: bytes) -> SpModel:
    """Decode a serialized ``ModelProto``. Raises ``WireError`` when the bytes are malformed."""
    model = SpModel()
    for number, wire, value in iter_fields(data):
        if number == 1:
            expect(wire, LENGTH, "pieces")
            model.pieces.append(_piece(value, len(model.pieces)))  # type: ignore[arg-type]
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
    if not model.pieces:
        raise TokenizerFileError(path, "the model has no pieces", where="ModelProto.pieces",
                                 fix="Is this a sentencepiece .model file?")
    for i, p in enumerate(model.pieces):
        if not p.piece:
            raise TokenizerFileError(path, "a piece is empty", where=f"pieces[{i}]")
        if p.type not in (NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE):
            raise TokenizerFileError(path, f"piece {p.piece!r} has unknown type {p.type}", where=f"pieces[{i}]")
    unknown = [i for i, p in enumerate(model.pieces) if p.type == UNKNOWN]
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
