"""A disk cache of parsed BPE ``tokenizer.json`` files: a second load skips the JSON and the merge pairs.

Loading GPT-2's ``tokenizer.json`` is mostly two things: parsing 3.6 MB of JSON and turning
50,000 ``[left, right]`` string pairs, scattered in memory by the parser, into the merge map. Both
give the same answer for the same bytes, so the first load of a large BPE file keeps what the model
built (its vocabulary, its map of id pairs to ranks, the merged id by rank) in a compact binary file,
and later loads of the same bytes, in any process, read that instead. The file:

- is keyed by the SHA-256 of the tokenizer file's bytes: another file, or one byte changed, is a miss;
- carries the cache format and a stamp of the code that builds what it holds (``_code_stamp``,
  a digest of those modules' sources): a new tokcore or an edited model reads nothing an older
  one wrote;
- holds JSON (the rest of the tokenizer, as the file had it) and arrays of unsigned 32-bit ints and
  UTF-8 text, checked by a BLAKE2b digest of its payload: never a pickle, nothing evaluated;
- is written atomically (a temporary file renamed into place), and any failure to read or write it
  (a missing, unwritable, truncated or tampered-with cache) only means the file is parsed as before.

The folder is ``$TOKCORE_CACHE_DIR``, else ``$XDG_CACHE_HOME/tokcore/parsed``, else
``~/.cache/tokcore/parsed``; ``TOKCORE_CACHE_DIR=off`` (or empty) turns the cache off.

Left out: WordPiece, Unigram and small files (they load in milliseconds; a cache file would not
pay for itself), ``vocab.json`` + ``merges.txt`` pairs, sentencepiece ``.model`` files (their
protobuf reader is already within its target).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from array import array
from pathlib import Path

from ..models.bpe import BPE
from ..models.merge_table import MergeTable

__all__ = ["CACHE_FROM_BYTES", "cache_dir", "cache_key", "read_cached", "write_cached"]

CACHE_FROM_BYTES = 256 * 1024  # smaller files parse in a few milliseconds
FORMAT = 2
MAGIC = b"tokcore-parsed\n\x00"
_HEADER_LEN = 4  # bytes of the header's length, little-endian, after MAGIC
_NO_CACHE = ("", "off", "0", "false", "no")
# Separator candidates for the tokens' text: control characters, then private-use ones.
_SEPARATORS = (*range(0x20), *range(0xE000, 0xF900))


def cache_dir() -> Path | None:
    """The cache folder (see the module docstring), or ``None`` when the cache is off: with
    ``TOKCORE_CACHE_DIR=/tmp/c`` set, the folder ``/tmp/c``."""
    chosen = os.environ.get("TOKCORE_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in _NO_CACHE else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tokcore" / "parsed"


def cache_key(raw: bytes) -> str:
    """The cache file's name for a tokenizer file's bytes.
    ``cache_key(b"{}") == hashlib.sha256(b"{}").hexdigest() + ".tkc"``."""
    return hashlib.sha256(raw).hexdigest() + ".tkc"


def read_cached(raw: bytes, source: object):
    """The tokenizer the cache holds for a file of bytes ``raw`` (``source`` names it in errors),
    or ``None``: no cache, a miss, or a cache file that does not check out."""
    folder = cache_dir()
    if folder is None or len(raw) < CACHE_FROM_BYTES:
        return None
    try:
        blob = (folder / cache_key(raw)).read_bytes()
        data = _unpack(blob)
    except (OSError, ValueError, TypeError, KeyError, IndexError, OverflowError, UnicodeError):
        return None
    if data is None:
        return None
    from ..core.tokenizer import Tokenizer

    try:
        return Tokenizer.from_dict(data, source=source)
    except (ValueError, TypeError):  # a cache file that passed its checks yet holds no tokenizer
        return None


def write_cached(raw: bytes, data: dict, tok) -> bool:
    """Keep ``tok`` (loaded from ``data``, the parsed bytes ``raw``) for later loads; ``True`` when
    written. Only a BPE model is kept; nothing is raised (a read-only home just has no cache)."""
    folder = cache_dir()
    if folder is None or len(raw) < CACHE_FROM_BYTES or type(tok.model) is not BPE:
        return False
    model = data.get("model") if isinstance(data, dict) else None
    if not isinstance(model, dict) or "vocab" not in model or "merges" not in model:
        return False
    try:
        blob = _pack(data, tok.model)
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".writing-", suffix=".tkc")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.replace(tmp, folder / cache_key(raw))
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, ValueError, TypeError, OverflowError, UnicodeError):
        return False
    return True


def _pack(data: dict, model: BPE) -> bytes:
    """The cache file of a BPE tokenizer: MAGIC, the header's length and JSON, then the payload."""
    rest = dict(data)
    rest["model"] = {k: v for k, v in data["model"].items() if k not in ("vocab", "merges")}
    tokens = list(model.vocab)
    # The tokens joined by a character none of them holds: one str.split gives them back.
    every = "".join(tokens)
    sep = next((c for c in map(chr, _SEPARATORS) if c not in every), None)
    if sep is None:
        raise ValueError("every separator candidate stands in a token: not kept")
    text = sep.join(tokens).encode("utf-8")
    pairs = model._merge_map
    sections = [
        array("I", model.vocab.values()),
        array("I", (a for a, _ in pairs)), array("I", (b for _, b in pairs)), array("I", pairs.values()),
        array("I", model._made),
    ]
    payload = text + b"".join(s.tobytes() for s in sections)
    header = {
        "format": FORMAT, "code": _code_stamp(), "byteorder": sys.byteorder,
        "separator": sep, "sizes": [len(text), len(tokens), len(pairs), len(model._made)],
        "payload_blake2b": hashlib.blake2b(payload).hexdigest(), "tokenizer": rest,
    }
    head = json.dumps(header, ensure_ascii=False).encode("utf-8")
    return MAGIC + len(head).to_bytes(_HEADER_LEN, "little") + head + payload


def _unpack(blob: bytes) -> dict | None:
    """The tokenizer dict a cache file holds (its model's vocab and merges rebuilt), or ``None``."""
    if not blob.startswith(MAGIC):
        return None
    at = len(MAGIC)
    size = int.from_bytes(blob[at:at + _HEADER_LEN], "little")
    at += _HEADER_LEN
    header = json.loads(blob[at:at + size].decode("utf-8"))
    at += size
    if (not isinstance(header, dict) or header.get("format") != FORMAT or header.get("code") != _code_stamp()
            or header.get("byteorder") != sys.byteorder):
        return None
    payload = memoryview(blob)[at:]
    if hashlib.blake2b(payload).hexdigest() != header.get("payload_blake2b"):
        return None
    n_text, n_tokens, n_pairs, n_made = header["sizes"]
    counts = (n_tokens, n_pairs, n_pairs, n_pairs, n_made)
    if n_text + 4 * sum(counts) != len(payload):
        return None
    tokens = bytes(payload[:n_text]).decode("utf-8").split(header["separator"]) if n_tokens else []
    at = n_text
    ids, lefts, rights, ranks, made = (array("I") for _ in counts)
    for part, n in zip((ids, lefts, rights, ranks, made), counts):
        part.frombytes(payload[at:at + 4 * n])
        at += 4 * n
    if len(tokens) != n_tokens:
        return None
    # Lists first: iterating an array makes an int object per item as well, but slower.
    vocab = dict(zip(tokens, ids.tolist()))
    table = MergeTable(dict(zip(zip(lefts.tolist(), rights.tolist()), ranks.tolist())), made.tolist())
    if len(vocab) != n_tokens or len(table.ranks) != n_pairs:
        return None
    data = header["tokenizer"]
    data["model"]["vocab"], data["model"]["merges"] = vocab, table
    return data


_STAMP: list = []


def _code_stamp() -> str:
    """A digest of the sources that build what the cache holds (BPE's merge map, this format), so a
    changed tokcore never reads an older layout; without readable sources (a zipped install), a
    stamp that never matches one written by a readable tree, and the format number alone after."""
    if not _STAMP:
        from ..models import bpe, merge_table

        digest = hashlib.sha256()
        try:
            for module in (bpe, merge_table, sys.modules[__name__]):
                digest.update(Path(module.__file__).read_bytes())
            _STAMP.append(digest.hexdigest())
        except (OSError, TypeError, AttributeError):
            _STAMP.append("no-sources")
    return _STAMP[0]
