"""BERT ``vocab.txt`` (plus ``tokenizer_config.json`` when present) as a full WordPiece tokenizer.

The pipeline is the one HF's ``BertWordPieceTokenizer`` builds and BERT's ``tokenizer.json``
files hold: BertNormalizer -> BertPreTokenizer -> WordPiece (``##`` continuation, 100
characters per word) -> BertProcessing (``[CLS] A [SEP]``, ``[CLS] A [SEP] B [SEP]``) and the
WordPiece decoder. Lower-casing, accent stripping and CJK spacing follow the config's
``do_lower_case``, ``strip_accents`` and ``tokenize_chinese_chars`` (lower-casing by default, as HF).

Left out: ``never_split`` lists and ``do_basic_tokenize=False`` (HF's fast tokenizers ignore them too).
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import TokenizerFileError

SPECIAL_KEYS = ("pad_token", "unk_token", "cls_token", "sep_token", "mask_token")
DEFAULTS = {"pad_token": "[PAD]", "unk_token": "[UNK]", "cls_token": "[CLS]", "sep_token": "[SEP]", "mask_token": "[MASK]"}


def read_vocab_txt(path: Path) -> dict[str, int]:
    """Token -> line number (0-based), trailing whitespace trimmed as HF does; a repeated token keeps its last line.

    A file ``[PAD]\\n[UNK]\\n`` gives ``{"[PAD]": 0, "[UNK]": 1}``.
    """
    from .files import read_file_bytes

    raw = read_file_bytes(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise TokenizerFileError(path, f"not UTF-8 text (bad byte 0x{raw[exc.start]:02X} at offset {exc.start}, line {line})",
                                 where=f"line {line}", fix="Is this a vocab.txt? It must be UTF-8 text, one token per line.") from None
    nul = text.find("\0")
    if nul >= 0:
        # HF would take NUL-filled lines as tokens; a real vocabulary never holds them, a binary file does.
        line = text.count("\n", 0, nul) + 1
        raise TokenizerFileError(path, f"NUL bytes on line {line}: this looks like a binary file, not a vocab.txt",
                                 where=f"line {line}", fix="Pass the text vocabulary (one token per line).")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise TokenizerFileError(path, "the vocabulary is empty", fix="Expected one token per line.")
    return {line.rstrip(): i for i, line in enumerate(lines)}


def read_config(path: Path) -> dict:
    """``tokenizer_config.json`` beside the vocabulary, or ``{}`` when there is none."""
    if not path.is_file():
        return {}
    from .files import read_json

    data = read_json(path)
    if not isinstance(data, dict):
        raise TokenizerFileError(path, f"expected a JSON object, got {type(data).__name__}", where="top level")
    return data


def _token_name(value, default: str) -> str:
    # Configs store special tokens as a string or as {"content": ...}.
    if isinstance(value, dict):
        value = value.get("content")
    return value if isinstance(value, str) and value else default


def bert_tokenizer_dict(vocab: dict[str, int], config: dict, *, source: object) -> dict:
    """The HF ``tokenizer.json`` dict of a BERT WordPiece tokenizer with this vocabulary and config."""
    names = {k: _token_name(config.get(k), DEFAULTS[k]) for k in SPECIAL_KEYS}
    for key in ("unk_token", "cls_token", "sep_token"):
        if names[key] not in vocab:
            raise TokenizerFileError(source, f"the vocabulary has no {key} {names[key]!r}",
                                     fix=f"Add {names[key]!r} to vocab.txt or set {key} in tokenizer_config.json.")
    lowercase = config.get("do_lower_case", True)
    strip_accents = config.get("strip_accents")
    added, seen = [], set()
    for key in SPECIAL_KEYS:
        name = names[key]
        if name in vocab and name not in seen:
            seen.add(name)
            added.append({"id": vocab[name], "content": name, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True})
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": sorted(added, key=lambda t: t["id"]),
        "normalizer": {"type": "BertNormalizer", "clean_text": True,
                       "handle_chinese_chars": bool(config.get("tokenize_chinese_chars", True)),
                       "strip_accents": None if strip_accents is None else bool(strip_accents),
                       "lowercase": bool(lowercase)},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {"type": "BertProcessing", "sep": [names["sep_token"], vocab[names["sep_token"]]],
                           "cls": [names["cls_token"], vocab[names["cls_token"]]]},
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": names["unk_token"], "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": vocab},
    }


def load_bert_vocab(path: Path, *, config_path: Path | None = None, lowercase: bool | None = None):
    """A BERT WordPiece ``Tokenizer`` from ``vocab.txt``; the config defaults to ``tokenizer_config.json`` beside it."""
    from ..core.tokenizer import Tokenizer

    vocab = read_vocab_txt(path)
    config = read_config(config_path if config_path is not None else path.parent / "tokenizer_config.json")
    if lowercase is not None:
        config = {**config, "do_lower_case": bool(lowercase)}
    tok = Tokenizer.from_dict(bert_tokenizer_dict(vocab, config, source=path), source=path)
    tok.name = tok.name or f"bert:{path.parent.name or path.name}"
    return tok
