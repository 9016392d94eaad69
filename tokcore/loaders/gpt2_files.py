"""GPT-2 style ``vocab.json`` + ``merges.txt`` as a full byte-level BPE tokenizer.

The pipeline is the one GPT-2's ``tokenizer.json`` holds: ByteLevel pre-tokenizer (GPT-2's
split pattern, no prefix space), BPE over the byte-to-unicode alphabet, ByteLevel
post-processor with ``trim_offsets`` off and ByteLevel decoder: what HF's ``ByteLevelBPETokenizer``
and transformers' GPT-2 converter build from these two files, so ``"Ġworld"`` spans its space. ``<|endoftext|>`` becomes a special added
token when the vocabulary has it.

Left out: ``added_tokens.json`` / ``special_tokens_map.json`` of other byte-level models (only
``<|endoftext|>`` is recognised).
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import TokenizerFileError

ENDOFTEXT = "<|endoftext|>"


def read_vocab_json(path: Path) -> dict[str, int]:
    """``vocab.json`` as token -> id, every value checked to be a non-negative integer."""
    from .files import read_json

    data = read_json(path)
    if not isinstance(data, dict):
        raise TokenizerFileError(path, f"expected a JSON object token -> id, got {type(data).__name__}", where="top level")
    for token, id_ in data.items():
        if isinstance(id_, bool) or not isinstance(id_, int) or id_ < 0:
            raise TokenizerFileError(path, f"id {id_!r} of {token!r} is not a non-negative integer", where=f"[{token!r}]")
    return data


def read_merges_txt(path: Path) -> list[tuple[str, str]]:
    """Merge rules in order: one ``left right`` pair a line, a leading ``#version`` line skipped.

    A file ``#version: 0.2\\nĠ t\\n`` gives ``[("Ġ", "t")]``.
    """
    from .files import read_file_bytes

    try:
        text = read_file_bytes(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TokenizerFileError(path, f"not UTF-8 text (bad byte at offset {exc.start})") from None
    merges = []
    for lineno, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line or (lineno == 1 and line.startswith("#version")):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise TokenizerFileError(path, f"expected 'left right', found {line[:60]!r}", where=f"line {lineno}",
                                     fix="Each line of merges.txt holds two tokens separated by one space.")
        merges.append((parts[0], parts[1]))
    return merges


def gpt2_tokenizer_dict(vocab: dict[str, int], merges: list[tuple[str, str]], *, source: object) -> dict:
    """The HF ``tokenizer.json`` dict of a GPT-2 byte-level BPE tokenizer."""
    for i, (a, b) in enumerate(merges):
        for part in (a, b, a + b):
            if part not in vocab:
                raise TokenizerFileError(source, f"merge {i + 1} ({a!r} {b!r}) uses {part!r}, which vocab.json lacks",
                                         where=f"merges[{i}]", fix="vocab.json and merges.txt must come from the same tokenizer.")
    added = []
    if ENDOFTEXT in vocab:
        added.append({"id": vocab[ENDOFTEXT], "content": ENDOFTEXT, "single_word": False, "lstrip": False,
                      "rstrip": False, "normalized": False, "special": True})
    byte_level = {"add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    # HF keeps the leading space inside a token's span for these files (trim_offsets off).
    untrimmed = {**byte_level, "trim_offsets": False}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", **byte_level},
        "post_processor": {"type": "ByteLevel", **untrimmed},
        "decoder": {"type": "ByteLevel", **byte_level},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab, "merges": [list(m) for m in merges]},
    }


def load_gpt2_files(vocab_path: Path, merges_path: Path):
    """A byte-level BPE ``Tokenizer`` from ``vocab.json`` and ``merges.txt``."""
    from ..core.tokenizer import Tokenizer

    vocab = read_vocab_json(vocab_path)
    merges = read_merges_txt(merges_path)
    tok = Tokenizer.from_dict(gpt2_tokenizer_dict(vocab, merges, source=merges_path), source=vocab_path)
    tok.name = tok.name or f"gpt2:{vocab_path.parent.name or vocab_path.name}"
    return tok
