"""Reading ``.tiktoken`` rank files and assembling the byte-level tokenizer tiktoken would run.

A ``.tiktoken`` file is one ``<base64 token bytes> <rank>`` line per token; the rank is both
the token id and its merge priority. The file does not say how text is split before merging
nor which special tokens exist. Those come from, in order: ``encoding=`` (a standard encoding's
name); ``pattern=`` with ``special_tokens=``; the OpenAI encoding whose published file has the
same SHA-256 (``KNOWN_FILES``: r50k/gpt2, p50k, cl100k, o200k, Whisper's multilingual); the
model's ``tokenizer.json`` (its Split pattern and added tokens) or ``tokenizer_config.json``
(special tokens) beside the file. Anything else (Llama-3's ``tokenizer.model`` alone) is refused:
no split pattern can be guessed from the ranks.

Left out: downloading (tiktoken fetches by URL; tokcore reads local files only) and the
Whisper task/language special tokens beyond ``<|endoftext|>``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
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
# SHA-256 of each OpenAI rank file -> the encodings that use it (tiktoken_ext/openai_public.py's
# expected hashes; Whisper's multilingual file hashed here). Whisper's gpt2.tiktoken is r50k's file.
KNOWN_FILES: dict[str, tuple[str, ...]] = {
    "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930": ("r50k_base", "gpt2"),
    "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069": ("p50k_base", "p50k_edit"),
    "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7": ("cl100k_base",),
    "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d": ("o200k_base",),
    "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126": ("multilingual", "whisper"),
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


def encoding_name_for(path: Path, encoding: str | None) -> str | None:
    """The standard encoding to use: ``encoding``, else the one whose published file ``path`` is, else ``None``.

    ``encoding_name_for(Path("x.tiktoken"), "cl100k") == "cl100k_base"``.
    """
    if encoding is not None:
        name = _ALIASES.get(encoding, encoding)
        if name not in ENCODINGS:
            raise ConfigurationError(f"unknown tiktoken encoding {encoding!r}; known: {', '.join(sorted(ENCODINGS))}")
        return name
    from .files import read_file_bytes

    names = KNOWN_FILES.get(hashlib.sha256(read_file_bytes(path)).hexdigest())
    if names is None:
        return None
    stem = _ALIASES.get(path.name.split(".")[0].lower(), path.name.split(".")[0].lower())
    return stem if stem in names else names[0]  # the file's own name when it is one of the encodings


def special_tokens_for(name: str, n_ranks: int) -> dict[str, int]:
    """Special tokens of encoding ``name`` (``<|endoftext|>`` after the ranks when the encoding has none fixed)."""
    fixed = ENCODINGS[name][1]
    return dict(fixed) if fixed is not None else {ENDOFTEXT: n_ranks}


def load_tiktoken(path: Path, *, encoding: str | None = None, special_tokens: dict[str, int] | None = None,
                  pattern: str | None = None):
    """A ``Tokenizer`` equal to tiktoken's ``Encoding`` for this rank file (ids, and bytes per token)."""
    ranks = read_tiktoken_ranks(path)
    name = encoding_name_for(path, encoding) if pattern is None or encoding is not None else None
    if name is not None:
        pattern = ENCODINGS[name][0]
        specials = special_tokens if special_tokens is not None else special_tokens_for(name, len(ranks))
    else:
        from .tiktoken_beside import settings_beside

        found_pattern, found_specials = settings_beside(path)
        pattern = pattern or found_pattern
        specials = special_tokens if special_tokens is not None else found_specials
        if pattern is None or specials is None:
            missing = " and ".join(w for w, v in (("split pattern", pattern), ("special tokens", specials)) if v is None)
            raise TokenizerFileError(
                path, f"not one of OpenAI's encodings (its SHA-256 matches none), so its {missing} cannot be known",
                fix="Pass pattern= (the regex that splits text before merging) and special_tokens= ({token: id}), "
                    "or encoding= for a standard one, or put the model's tokenizer.json (or tokenizer_config.json "
                    "for special tokens) beside it.")
        name = path.stem
    taken = set(ranks.values())
    clash = {k: v for k, v in specials.items() if v in taken}
    if clash:
        raise TokenizerFileError(path, f"special token ids {clash} collide with ranks in the file",
                                 fix="Pass special_tokens= with ids above the largest rank, or the right encoding=.")
    return build_tiktoken_tokenizer(ranks, pattern=pattern, special_tokens=specials, name=f"tiktoken:{name}")


def build_tiktoken_tokenizer(ranks: dict[bytes, int], *, pattern: str, special_tokens: dict[str, int], name: str = ""):
    """Regex split -> GPT-2 byte alphabet -> ``RankBPE`` (whole-piece lookup first, as tiktoken); no post-processor.

    A ``TiktokenTokenizer``: lone surrogates in the text become U+FFFD, as tiktoken makes them.
    """
    from ..presets.tiktoken_tokenizer import TiktokenTokenizer

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
    return TiktokenTokenizer.from_dict(data, source=name or "<tiktoken>")
