"""Reading ``.tiktoken`` rank files and assembling the byte-level tokenizer tiktoken would run.

A ``.tiktoken`` file is one ``<base64 token bytes> <rank>`` line per token; the rank is both
the token id and its merge priority. The file does not say how text is split before merging
nor which special tokens exist: those come from the standard encoding named by the file
(``cl100k_base.tiktoken`` -> cl100k) or by ``encoding=``; an unnamed file gets the encoding
whose vocabulary size it matches.

Left out: downloading (tiktoken fetches by URL; tokcore reads local files only) and the
Whisper task/language special tokens beyond ``<|endoftext|>``.
"""

from __future__ import annotations

import base64
import binascii
import re
from pathlib import Path

from ..core.errors import ConfigurationError, TokenizerFileError
from ..text.byte_level import BYTE_TO_UNICODE, CL100K_PATTERN, O200K_PATTERN, R50K_PATTERN

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX, FIM_MIDDLE, FIM_SUFFIX = "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

# name -> (pattern, special tokens as name -> id, or None for "<|endoftext|> right after the ranks").
ENCODINGS: dict[str, tuple[str, dict[str, int] | None]] = {
    "gpt2": (R50K_PATTERN, {ENDOFTEXT: 50256}),
    "r50k_base": (R50K_PATTERN, {ENDOFTEXT: 50256}),
    "p50k_base": (R50K_PATTERN, {ENDOFTEXT: 50256}),
    "p50k_edit": (R50K_PATTERN, {ENDOFTEXT: 50256, FIM_PREFIX: 50281, FIM_MIDDLE: 50282, FIM_SUFFIX: 50283}),
    "cl100k_base": (CL100K_PATTERN, {ENDOFTEXT: 100257, FIM_PREFIX: 100258, FIM_MIDDLE: 100259,
                                     FIM_SUFFIX: 100260, ENDOFPROMPT: 100276}),
    "o200k_base": (O200K_PATTERN, {ENDOFTEXT: 199999, ENDOFPROMPT: 200018}),
    # Whisper's rank files split like GPT-2; its special tokens start right after the ranks.
    "multilingual": (R50K_PATTERN, None),
    "whisper": (R50K_PATTERN, None),
}
_B64 = re.compile(rb"[A-Za-z0-9+/]*={0,2}")
MAX_RANK = 2**32  # ranks are token ids, which tokenizer files keep as unsigned 32-bit integers
_ALIASES = {"r50k": "r50k_base", "p50k": "p50k_base", "cl100k": "cl100k_base", "o200k": "o200k_base"}


def read_tiktoken_ranks(path: Path) -> dict[bytes, int]:
    """Ranks of a ``.tiktoken`` file, as tiktoken's ``load_tiktoken_bpe`` returns them.

    A line ``IQ== 0`` gives ``{b"!": 0}``. Malformed lines raise ``TokenizerFileError`` with the line number.
    """
    from .files import read_file_bytes

    raw = read_file_bytes(path)
    ranks: dict[bytes, int] = {}
    seen: dict[int, int] = {}
    for lineno, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise TokenizerFileError(path, f"expected '<base64> <rank>', found {len(parts)} fields", where=f"line {lineno}",
                                     fix="Is this a .tiktoken rank file?")
        try:
            if not _B64.fullmatch(parts[0]):
                raise ValueError("not base64")
            # Non-validating, as tiktoken: Whisper's files hold a lone "=" (the empty token).
            token = base64.b64decode(parts[0])
            rank = int(parts[1])
        except (binascii.Error, ValueError):
            raise TokenizerFileError(path, f"cannot read {line[:40]!r} as base64 bytes and an integer rank",
                                     where=f"line {lineno}", fix="Is this a .tiktoken rank file?") from None
        if rank < 0:
            raise TokenizerFileError(path, f"negative rank {rank}", where=f"line {lineno}")
        if rank >= MAX_RANK:
            raise TokenizerFileError(path, f"rank {rank} is too large (ranks are token ids, below 2**32)",
                                     where=f"line {lineno}")
        if token in ranks:
            raise TokenizerFileError(path, f"token {token!r} appears twice", where=f"line {lineno}")
        if rank in seen:
            raise TokenizerFileError(path, f"rank {rank} is used twice (lines {seen[rank]} and {lineno})", where=f"line {lineno}")
        ranks[token] = rank
        seen[rank] = lineno
    if not ranks:
        raise TokenizerFileError(path, "the file has no ranks", fix="Is this a .tiktoken rank file?")
    return ranks


def encoding_name_for(path: Path, n_ranks: int, encoding: str | None) -> str:
    """The standard encoding to use: ``encoding``, else the file's stem, else by vocabulary size.

    ``encoding_name_for(Path("x/cl100k_base.tiktoken"), 100256, None) == "cl100k_base"``.
    """
    if encoding is not None:
        name = _ALIASES.get(encoding, encoding)
        if name not in ENCODINGS:
            raise ConfigurationError(f"unknown tiktoken encoding {encoding!r}; known: {', '.join(sorted(ENCODINGS))}")
        return name
    stem = path.name.split(".")[0].lower()
    stem = _ALIASES.get(stem, stem)
    if stem in ENCODINGS:
        return stem
    if n_ranks <= 50281:
        return "r50k_base"
    if n_ranks <= 100256:
        return "cl100k_base"
    return "o200k_base"


def special_tokens_for(name: str, n_ranks: int) -> dict[str, int]:
    """Special tokens of encoding ``name`` (``<|endoftext|>`` after the ranks when the encoding has none fixed)."""
    fixed = ENCODINGS[name][1]
    return dict(fixed) if fixed is not None else {ENDOFTEXT: n_ranks}


def load_tiktoken(path: Path, *, encoding: str | None = None, special_tokens: dict[str, int] | None = None):
    """A ``Tokenizer`` equal to tiktoken's ``Encoding`` for this rank file (ids, and bytes per token)."""
    ranks = read_tiktoken_ranks(path)
    name = encoding_name_for(path, len(ranks), encoding)
    pattern = ENCODINGS[name][0]
    specials = special_tokens if special_tokens is not None else special_tokens_for(name, len(ranks))
    taken = set(ranks.values())
    clash = {k: v for k, v in specials.items() if v in taken}
    if clash:
        raise TokenizerFileError(path, f"special token ids {clash} collide with ranks in the file",
                                 fix="Pass special_tokens= with ids above the largest rank, or the right encoding=.")
    return build_tiktoken_tokenizer(ranks, pattern=pattern, special_tokens=specials, name=f"tiktoken:{name}")


def build_tiktoken_tokenizer(ranks: dict[bytes, int], *, pattern: str, special_tokens: dict[str, int], name: str = ""):
    """Regex split -> GPT-2 byte alphabet -> ``RankBPE`` (whole-piece lookup first, as tiktoken); no post-processor."""
    from ..core.tokenizer import Tokenizer

    table = BYTE_TO_UNICODE
    vocab = {"".join(table[b] for b in token): rank for token, rank in ranks.items()}
    data = {
        "name": name,
        "added_tokens": [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True} for t, i in sorted(special_tokens.items(), key=lambda kv: kv[1])],
        "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        ]},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        "model": {"type": "RankBPE", "vocab": vocab, "unk_token": None, "ignore_merges": True},
    }
    return Tokenizer.from_dict(data, source=name or "<tiktoken>")
