"""Malformed tokenizer files for ``tests/robust/test_robust_files.py``, generated into a temporary folder.

Each ``Case`` writes its file(s) from a small VALID base (``valid_*`` below, each checked to load
by the tests) with one defect, and states what ``tokcore.load`` must say about it: the file it
names, words of the problem, and (when the format has positions) where. Nothing here is copied
from the reference data: every byte is produced by this module.

Left out: the assertions themselves (the test module) and valid-file parity (other test modules).
"""

from __future__ import annotations

import base64
import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

# ------------------------------------------------------------------------------------------
# Valid bases


def valid_tokenizer_json() -> dict:
    """A tiny but complete HF tokenizer.json: Whitespace + BPE (unk, one merge) + an added token."""
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [{"id": 4, "content": "[SEP]", "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True}],
        "normalizer": {"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Lowercase"}]},
        "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": None,
        "decoder": {"type": "Fuse"},
        "model": {"type": "BPE", "dropout": None, "unk_token": "[UNK]", "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": {"[UNK]": 0, "a": 1, "b": 2, "ab": 3, "[SEP]": 4}, "merges": [["a", "b"]]},
    }


def varint(n: int) -> bytes:
    """Protobuf base-128 varint. ``varint(300) == b"\\xac\\x02"``."""
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def pb_field(number: int, wire: int, payload: bytes | int) -> bytes:
    """One protobuf record: tag, then the varint value or the length-prefixed / fixed payload."""
    key = varint(number << 3 | wire)
    if wire == 0:
        return key + varint(int(payload))  # type: ignore[arg-type]
    if wire == 2:
        return key + varint(len(payload)) + payload  # type: ignore[arg-type]
    return key + bytes(payload)  # type: ignore[arg-type]


def sp_piece(piece: str | bytes, score: float, type_: int = 1) -> bytes:
    raw = piece.encode("utf-8") if isinstance(piece, str) else piece
    return pb_field(1, 2, pb_field(1, 2, raw) + pb_field(2, 5, struct.pack("<f", score)) + pb_field(3, 0, type_))


def valid_sp_model(*, pieces: Optional[list[bytes]] = None, model_type: int = 1) -> bytes:
    """A tiny sentencepiece ModelProto: <unk>, <s>, </s>, a few pieces; Unigram, identity normalization."""
    if pieces is None:
        pieces = [sp_piece("<unk>", 0.0, 2), sp_piece("<s>", 0.0, 3), sp_piece("</s>", 0.0, 3),
                  sp_piece("\u2581", -1.0), sp_piece("a", -2.0), sp_piece("b", -2.0), sp_piece("\u2581ab", -1.5)]
    trainer = pb_field(3, 0, model_type) + pb_field(4, 0, len(pieces))
    normalizer = pb_field(1, 2, b"identity") + pb_field(3, 0, 1) + pb_field(4, 0, 1) + pb_field(5, 0, 1)
    return b"".join(pieces) + pb_field(2, 2, trainer) + pb_field(3, 2, normalizer)


def valid_tiktoken() -> bytes:
    """A .tiktoken rank file: the 256 single bytes, then two merged tokens."""
    tokens = [bytes([b]) for b in range(256)] + [b"ab", b" the"]
    return b"".join(base64.b64encode(t) + b" " + str(i).encode() + b"\n" for i, t in enumerate(tokens))


VALID_VOCAB_TXT = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\na\nb\n##b\nab\n"
VALID_VOCAB_JSON = {"a": 0, "b": 1, "ab": 2, "\u0120": 3, "\u0120a": 4}
VALID_MERGES_TXT = "#version: 0.2\na b\n\u0120 a\n"

# ------------------------------------------------------------------------------------------
# The corpus


@dataclass(frozen=True)
class Case:
    """One malformed input: ``build(folder)`` writes it and returns the path to pass to ``load``.

    The error message must name ``file`` (default: the returned path's name) and hold every
    string of ``words`` (case-insensitive); ``where`` must be in the error's ``where`` when set.
    """

    name: str
    build: Callable[[Path], Path]
    words: tuple[str, ...]
    file: Optional[str] = None
    where: Optional[str] = None
    xfail: Optional[str] = None  # a known engine bug (temporary; the reason says which)


def _json(name: str, data) -> Callable[[Path], Path]:
    def build(folder: Path) -> Path:
        path = folder / name
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    return build


def _bytes(name: str, data: bytes) -> Callable[[Path], Path]:
    def build(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path

    return build


def _files(files: dict[str, bytes | str | None], target: str) -> Callable[[Path], Path]:
    """Several files in one folder (``None`` makes a sub-directory); returns ``folder/target``."""

    def build(folder: Path) -> Path:
        for name, content in files.items():
            path = folder / name
            if content is None:
                path.mkdir(parents=True, exist_ok=True)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return folder / target if target else folder

    return build


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _symlink(path: Path, target: Path) -> Path:
    path.symlink_to(target)
    return path


def _sparse(path: Path, size: int) -> Path:
    with path.open("wb") as fh:
        fh.truncate(size)  # no data written: the file system keeps it sparse
    return path


def _tok(**changes) -> dict:
    data = valid_tokenizer_json()
    data.update(changes)
    return data


def _model(**changes) -> dict:
    data = valid_tokenizer_json()
    data["model"] = {**data["model"], **changes}
    return data


def _without(key: str) -> dict:
    data = valid_tokenizer_json()
    del data[key]
    return data


def _model_without(key: str) -> dict:
    data = valid_tokenizer_json()
    del data["model"][key]
    return data


_TRUNCATED = json.dumps(valid_tokenizer_json(), indent=2)
# 450 nested Sequence normalizers: shallow enough for the JSON parser, too deep to build.
_NESTED_SEQUENCE = json.dumps(valid_tokenizer_json()).replace(
    '"normalizer": {', '"normalizer": ' + '{"type": "Sequence", "normalizers": [' * 450 + '{', 1)
_NESTED_SEQUENCE = _NESTED_SEQUENCE.replace('{"type": "Lowercase"}]}', '{"type": "Lowercase"}]}' + ']}' * 450, 1)
_SP = valid_sp_model()
_BAD_TYPE_PIECES = [sp_piece("<unk>", 0.0, 2), sp_piece("a", -1.0, 9)]
_BAD_UTF8_PIECES = [sp_piece("<unk>", 0.0, 2), sp_piece(b"\xff\xfe", -1.0)]
_TT = valid_tiktoken()

CASES: list[Case] = [
    # --- JSON files (HF tokenizer.json / tokcore JSON) --------------------------------------
    Case("json_empty", _bytes("tokenizer.json", b""), ("empty",)),
    Case("json_whitespace_only", _bytes("tokenizer.json", b"  \n\t\n"), ("empty",)),
    Case("json_truncated", _bytes("tokenizer.json", _TRUNCATED[: len(_TRUNCATED) // 2].encode()),
         ("invalid json", "truncated"), where="line "),
    Case("json_trailing_garbage", _bytes("tokenizer.json", (json.dumps(valid_tokenizer_json()) + " }").encode()),
         ("invalid json", "extra data"), where="column"),
    Case("json_top_level_list", _json("tokenizer.json", [valid_tokenizer_json()]), ("json object", "list")),
    Case("json_top_level_number", _bytes("tokenizer.json", b"42"), ("json object", "int")),
    Case("json_no_model", _json("tokenizer.json", _without("model")), ("no 'model' section",), where="top level"),
    Case("json_model_is_null", _json("tokenizer.json", _tok(model=None)), ("'model' is null",), where="model"),
    Case("json_model_is_list", _json("tokenizer.json", _tok(model=[1, 2])), ("expected an object", "list"),
         where="model"),
    Case("json_unknown_model_type", _json("tokenizer.json", _model(type="Transformer")),
         ("unknown model type 'transformer'", "known types", "bpe"), where="model"),
    Case("json_unknown_normalizer", _json("tokenizer.json", _tok(normalizer={"type": "Rot13"})),
         ("unknown normalizer type 'rot13'", "known types"), where="normalizer"),
    Case("json_unknown_nested_normalizer",
         _json("tokenizer.json", _tok(normalizer={"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Zalgo"}]})),
         ("unknown normalizer type 'zalgo'",), where="normalizer.normalizers[1]"),
    Case("json_unknown_pre_tokenizer", _json("tokenizer.json", _tok(pre_tokenizer={"type": "SplitOnVibes"})),
         ("unknown pre_tokenizer type",), where="pre_tokenizer"),
    Case("json_unknown_post_processor", _json("tokenizer.json", _tok(post_processor={"type": "Nope"})),
         ("unknown post_processor type",), where="post_processor"),
    Case("json_unknown_decoder", _json("tokenizer.json", _tok(decoder={"type": "Nope"})),
         ("unknown decoder type",), where="decoder"),
    Case("json_sequence_null_normalizer", _json("tokenizer.json", _tok(normalizer={"type": "Sequence", "normalizers": [None]})),
         ("normalizers[0]", "null"), where="normalizer"),
    Case("json_sequence_null_pre_tokenizer",
         _json("tokenizer.json", _tok(pre_tokenizer={"type": "Sequence", "pretokenizers": [{"type": "Whitespace"}, None]})),
         ("pretokenizers[1]", "null"), where="pre_tokenizer"),
    Case("json_sequence_null_decoder", _json("tokenizer.json", _tok(decoder={"type": "Sequence", "decoders": [None]})),
         ("decoders[0]", "null"), where="decoder"),
    Case("json_sequence_null_post_processor",
         _json("tokenizer.json", _tok(post_processor={"type": "Sequence", "processors": [None]})),
         ("processors[0]", "null"), where="post_processor"),
    Case("json_type_not_a_string", _json("tokenizer.json", _tok(normalizer={"type": ["NFC"]})),
         ("unknown normalizer type ['nfc']",), where="normalizer"),
    Case("json_component_without_type", _json("tokenizer.json", _tok(normalizer={"lowercase": True})),
         ("unknown normalizer type none",), where="normalizer"),
    Case("json_vocab_is_list", _json("tokenizer.json", _model(vocab=["a", "b"])), ("'vocab'",), where="model"),
    Case("json_missing_vocab", _json("tokenizer.json", _model_without("vocab")), ("'vocab'",), where="model"),
    Case("json_wordpiece_missing_vocab", _json("tokenizer.json", _tok(model={"type": "WordPiece", "unk_token": "[UNK]"})),
         ("missing", "'vocab'"), where="model"),
    Case("json_missing_merges", _json("tokenizer.json", _model_without("merges")), ("'merges'",), where="model"),
    Case("json_vocab_id_string", _json("tokenizer.json", _model(vocab={"[UNK]": 0, "a": "1", "b": 2, "ab": 3})),
         ("'a'", "int id"), where="model"),
    Case("json_vocab_id_negative", _json("tokenizer.json", _model(vocab={"[UNK]": 0, "a": -1, "b": 2, "ab": 3})),
         ("'a'", "int id"), where="model"),
    Case("json_vocab_id_huge", _json("tokenizer.json", _model(vocab={"[UNK]": 0, "a": 2**40, "b": 2, "ab": 3})),
         ("'a'", "1099511627776", "2**32"), where="model"),
    Case("json_vocab_duplicate_ids", _json("tokenizer.json", _model(vocab={"[UNK]": 0, "a": 1, "b": 1, "ab": 3})),
         ("duplicate id 1", "'a'", "'b'"), where="model.vocab"),
    Case("json_merge_not_in_vocab", _json("tokenizer.json", _model(merges=[["a", "z"]])),
         ("merge #0", "'z'", "not in the vocabulary"), where="model"),
    Case("json_merge_result_not_in_vocab", _json("tokenizer.json", _model(merges=[["b", "a"]])),
         ("merge #0", "'ba'", "not in the vocabulary"), where="model"),
    Case("json_merge_three_parts", _json("tokenizer.json", _model(merges=["a b c"])),
         ("merge #0", "exactly one space"), where="model"),
    Case("json_merge_wrong_shape", _json("tokenizer.json", _model(merges=[["a", "b", "c"]])),
         ("merge #0",), where="model"),
    Case("json_merges_not_list", _json("tokenizer.json", _model(merges=42)), ("merges", "int"), where="model"),
    Case("json_bool_option_string", _json("tokenizer.json", _model(byte_fallback="yes")),
         ("'byte_fallback'", "true or false"), where="model"),
    Case("json_unigram_bad_entry", _json("tokenizer.json", _tok(model={"type": "Unigram", "unk_id": 0,
                                                                         "vocab": [["<unk>", 0.0], ["a"]]})),
         ("entry 1", "pair"), where="model"),
    Case("json_unigram_unk_out_of_range", _json("tokenizer.json", _tok(model={"type": "Unigram", "unk_id": 5,
                                                                                "vocab": [["<unk>", 0.0], ["a", -1.0]]})),
         ("unk_id 5", "outside"), where="model"),
    Case("json_unigram_score_string", _json("tokenizer.json", _tok(model={"type": "Unigram", "unk_id": 0,
                                                                            "vocab": [["<unk>", "zero"]]})),
         ("entry 0",), where="model"),
    Case("json_added_tokens_not_list", _json("tokenizer.json", _tok(added_tokens={"id": 4})),
         ("'added_tokens' must be a list",), where="added_tokens"),
    Case("json_added_token_no_content", _json("tokenizer.json", _tok(added_tokens=[{"id": 4, "special": True}])),
         ("'content'",), where="added_tokens[0]"),
    Case("json_added_token_bad_id", _json("tokenizer.json", _tok(added_tokens=[{"id": "4", "content": "[SEP]"}])),
         ("'[sep]'", "integer 'id'"), where="added_tokens[0]"),
    Case("json_added_tokens_duplicate_id",
         _json("tokenizer.json", _tok(added_tokens=[{"id": 4, "content": "[SEP]"}, {"id": 4, "content": "[CLS]"}])),
         ("duplicate id 4", "'[sep]'", "'[cls]'"), where="added_tokens[1]"),
    Case("json_truncation_bad", _json("tokenizer.json", _tok(truncation={"max_length": "long"})),
         ("max_length",), where="truncation"),
    Case("json_padding_bad", _json("tokenizer.json", _tok(padding={"strategy": "Sideways"})),
         ("padding strategy",), where="padding"),
    Case("json_tokcore_future_version", _json("tokenizer.json", _tok(format="tokcore", version=99)),
         ("version 99", "not supported"), where="version"),
    Case("json_deep_nesting_brackets", _bytes("tokenizer.json", b"[" * 200_000 + b"]" * 200_000), ("nested too deeply",)),
    Case("json_deep_component_nesting", _bytes("tokenizer.json", _NESTED_SEQUENCE.encode()),
         ("nested too deeply",), where="normalizer"),
    Case("json_lone_surrogate_in_vocab", _bytes("tokenizer.json", json.dumps(valid_tokenizer_json()).replace(
        '"ab": 3', '"a\\ud800": 3').encode()), ("lone surrogate", "\\ud800"), where="model.vocab"),
    Case("json_lone_low_surrogate_in_added_token", _bytes("tokenizer.json", json.dumps(valid_tokenizer_json()).replace(
        '"content": "[SEP]"', '"content": "\\udc00[SEP]"').encode()), ("lone surrogate", "\\udc00"),
         where="added_tokens[0].content"),
    Case("json_binary_garbage", _bytes("tokenizer.json", bytes(range(256)) * 4), ("not utf-8",)),
    Case("json_utf16", _bytes("tokenizer.json", json.dumps(valid_tokenizer_json()).encode("utf-16")), ("not utf-8",)),
    Case("json_regex_bad", _json("tokenizer.json", _tok(pre_tokenizer={"type": "Split", "pattern": {"Regex": "(unclosed"},
                                                                       "behavior": "Isolated", "invert": False})),
         ("regex",), where="pre_tokenizer"),
    # --- directories and file names -------------------------------------------------------------
    Case("dir_empty", _files({"empty": None}, "empty"), ("no tokenizer file found", "found: nothing")),
    Case("dir_unrelated_files", _files({"d/README.md": "hello", "d/weights.bin": b"\x00\x01"}, "d"),
         ("no tokenizer file found", "readme.md", "weights.bin")),
    Case("dir_two_models", _files({"d/a.model": _SP, "d/b.model": _SP}, "d"), ("several .model files", "a.model", "b.model")),
    Case("path_missing", lambda folder: folder / "nope" / "tokenizer.json", ("no such file",)),
    Case("wrong_extension_text", _bytes("notes.md", b"# not a tokenizer\n"), ("unknown tokenizer file type", "'.md'")),
    Case("no_extension_binary", _bytes("tokenizer", b"\x00\x01\x02garbage\xff"), ("unknown tokenizer file type",)),
    Case("pickle_file", _bytes("tokenizer.pkl", b"\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00}\x94."),
         ("unknown tokenizer file type", "'.pkl'")),
    Case("json_extension_holding_sp_model", _bytes("tokenizer.json", _SP), ("not utf-8",)),
    Case("fifo_named_tokenizer_json", lambda folder: _fifo(folder / "tokenizer.json"), ("not a regular file",)),
    Case("symlink_to_dev_zero", lambda folder: _symlink(folder / "tokenizer.json", Path("/dev/zero")), ("not a regular file",)),
    Case("symlink_loop", lambda folder: _symlink(folder / "a.json", _symlink(folder / "b.json", folder / "a.json")),
         ("no such file",)),
    Case("huge_sparse_file", lambda folder: _sparse(folder / "tokenizer.json", 3 << 30), ("3,221,225,472 bytes", "more than")),
    Case("name_too_long", lambda folder: folder / ("x" * 5000 + ".json"), ("not a usable path",), file="xxxxxxxxxx"),
    Case("dir_tokenizer_json_is_a_directory", _files({"d/tokenizer.json/inner.txt": "x"}, "d"), ("no tokenizer file found",
                                                                                                "tokenizer.json/")),
    # --- GPT-2 vocab.json + merges.txt ----------------------------------------------------------
    Case("vocab_json_without_merges", _json("vocab.json", VALID_VOCAB_JSON), ("no merges.txt",)),
    Case("merges_without_vocab", _bytes("merges.txt", VALID_MERGES_TXT.encode()), ("needs vocab.json",)),
    Case("merges_bad_line", _files({"vocab.json": json.dumps(VALID_VOCAB_JSON), "merges.txt": "#version: 0.2\na b\na b c\n"},
                                   "merges.txt"), ("expected 'left right'",), where="line 3"),
    Case("merges_unknown_token", _files({"vocab.json": json.dumps(VALID_VOCAB_JSON), "merges.txt": "a b\nb q\n"},
                                        "merges.txt"), ("merge 2", "'q'", "vocab.json lacks"), where="merges[1]"),
    Case("merges_not_utf8", _files({"vocab.json": json.dumps(VALID_VOCAB_JSON), "merges.txt": b"a b\n\xff\xfe\n"},
                                   "merges.txt"), ("not utf-8",)),
    Case("vocab_json_string_id", _files({"d/vocab.json": json.dumps({"a": 0, "b": "1"}), "d/merges.txt": "a b\n"}, "d"),
         ("'b'", "not a non-negative integer"), file="vocab.json"),
    Case("vocab_json_truncated", _files({"d/vocab.json": '{"a": 0, "b": 1', "d/merges.txt": "a b\n"}, "d"),
         ("invalid json",), file="vocab.json", where="line 1"),
    # --- BERT vocab.txt ---------------------------------------------------------------------
    Case("vocab_txt_empty", _bytes("vocab.txt", b""), ("vocabulary is empty",)),
    Case("vocab_txt_not_utf8", _bytes("vocab.txt", b"[UNK]\n[CLS]\nab\xff\n"), ("not utf-8", "line 3"), where="line 3"),
    Case("vocab_txt_binary", _bytes("vocab.txt", b"[UNK]\n[CLS]\n\x00\x00\x00\x01\n[SEP]\n"), ("nul", "binary"),
         where="line 3"),
    Case("vocab_txt_no_unk", _bytes("vocab.txt", b"[PAD]\n[CLS]\n[SEP]\na\n"), ("no unk_token '[unk]'",)),
    Case("vocab_txt_no_cls", _bytes("vocab.txt", b"[UNK]\n[SEP]\na\n"), ("no cls_token '[cls]'",)),
    Case("vocab_txt_bad_config", _files({"vocab.txt": VALID_VOCAB_TXT, "tokenizer_config.json": '{"do_lower_case": tru'},
                                        "vocab.txt"), ("invalid json",), file="tokenizer_config.json"),
    Case("vocab_txt_config_list", _files({"vocab.txt": VALID_VOCAB_TXT, "tokenizer_config.json": "[1, 2]"}, "vocab.txt"),
         ("expected a json object",), file="tokenizer_config.json"),
    # --- sentencepiece .model ---------------------------------------------------------------
    Case("sp_empty", _bytes("m.model", b""), ("empty",)),
    Case("sp_garbage", _bytes("m.model", b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"), ("not a sentencepiece model",)),
    Case("sp_text_file", _bytes("m.model", b"this is plain text, not a protobuf\n"), ("not a sentencepiece model",)),
    Case("sp_truncated", _bytes("m.model", _SP[: len(_SP) - 5]), ("not a sentencepiece model", "remain")),
    Case("sp_length_overflow", _bytes("m.model", b"\x0a\xff\xff\xff\xff\x0f"), ("not a sentencepiece model", "claims")),
    Case("sp_no_pieces", _bytes("m.model", pb_field(2, 2, pb_field(3, 0, 1))), ("no pieces",), where="pieces"),
    Case("sp_piece_unknown_type", _bytes("m.model", valid_sp_model(pieces=_BAD_TYPE_PIECES)), ("unknown type 9",),
         where="pieces[1]"),
    Case("sp_piece_bad_utf8", _bytes("m.model", valid_sp_model(pieces=_BAD_UTF8_PIECES)), ("pieces[1].piece", "utf-8")),
    Case("sp_unknown_model_type", _bytes("m.model", valid_sp_model(model_type=9)), ("unknown model_type 9",),
         where="model_type"),
    Case("sp_score_wrong_wire", _bytes("m.model", pb_field(1, 2, pb_field(1, 2, b"a") + pb_field(2, 0, 5))),
         ("pieces[0].score", "wire type")),
    Case("sp_no_unknown_piece", _bytes("m.model", sp_piece("a", -1.0) + pb_field(2, 2, pb_field(40, 0, 7))),
         ("no piece has type unknown",), where="pieces"),
    Case("sp_two_unknown_pieces", _bytes("m.model", valid_sp_model(pieces=[sp_piece("<unk>", 0.0, 2), sp_piece("<u>", 0.0, 2),
                                                                           sp_piece("a", -1.0)])),
         ("several pieces have type unknown",), where="pieces[1]"),
    # --- .tiktoken --------------------------------------------------------------------------
    Case("tt_empty", _bytes("r.tiktoken", b""), ("no ranks",)),
    Case("tt_bad_base64", _bytes("r.tiktoken", _TT + b"!!not*base64 300\n"), ("base64",), where="line 259"),
    Case("tt_bad_padding", _bytes("r.tiktoken", _TT + b"YWJjZ 300\n"), ("base64",), where="line 259"),
    Case("tt_bad_rank", _bytes("r.tiktoken", _TT + b"YWJj ten\n"), ("integer rank",), where="line 259"),
    Case("tt_three_fields", _bytes("r.tiktoken", b"YQ== 0 extra\n"), ("found 3 fields",), where="line 1"),
    Case("tt_duplicate_rank", _bytes("r.tiktoken", _TT + b"YWJj 257\n"), ("rank 257 is used twice",), where="line 259"),
    Case("tt_duplicate_token", _bytes("r.tiktoken", _TT + b"YWI= 300\n"), ("appears twice",), where="line 259"),
    Case("tt_negative_rank", _bytes("r.tiktoken", b"YQ== -1\n"), ("negative rank",), where="line 1"),
    Case("tt_binary", _bytes("r.tiktoken", b"\x00\xff\x10 \x01\n" * 3), ("base64",), where="line 1"),
    Case("tt_huge_rank", _bytes("r.tiktoken", _TT + b"YWJj 99999999999999999999\n"), ("rank", "too large"),
         where="line 259"),
]
