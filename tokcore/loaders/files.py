"""Reading tokenizer files safely: size caps, regular files only, strict UTF-8 JSON without lone surrogates.

Every problem is a ``TokenizerFileError`` naming the file, where in it, and what to do. JSON is
parsed, never evaluated; nothing is unpickled.

Left out: what the bytes mean (one reader per format in this package, ``tokcore.serialization``
for ``tokenizer.json`` dicts).
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any

from ..core.errors import TokenizerFileError

MAX_FILE_BYTES = 1 << 30  # 1 GiB: far above any real tokenizer file, far below what would exhaust memory


def check_regular_file(path: Path) -> int:
    """Size of ``path`` in bytes, after checking it is a readable regular file of sane size.

    Devices (``/dev/zero``), pipes and sockets are refused before any read: reading them could
    block or never end.
    """
    try:
        st = path.stat()
    except OSError as exc:
        raise TokenizerFileError(path, f"cannot read the file ({exc.strerror or exc})", fix="Check the path.") from None
    if not stat.S_ISREG(st.st_mode):
        raise TokenizerFileError(path, "not a regular file (a device, pipe or socket)",
                                 fix="Pass a tokenizer file or the directory that holds it.")
    if st.st_size > MAX_FILE_BYTES:
        raise TokenizerFileError(path, f"the file has {st.st_size:,} bytes, more than the {MAX_FILE_BYTES:,} tokcore reads",
                                 fix="Is this really a tokenizer file?")
    return st.st_size


def read_file_bytes(path: Path) -> bytes:
    """The bytes of a tokenizer file (see ``check_regular_file``); failures are ``TokenizerFileError``."""
    check_regular_file(path)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise TokenizerFileError(path, f"cannot read the file ({exc.strerror or exc})") from None
    except MemoryError:
        raise TokenizerFileError(path, "the file does not fit in memory") from None


def read_json(path: Path) -> Any:
    """Parse a JSON file, turning every failure into ``TokenizerFileError`` with line and column."""
    return parse_json_bytes(read_file_bytes(path), path)


def parse_json_bytes(raw: bytes, path: Path) -> Any:
    """``read_json`` of a file whose bytes (``raw``) are read already."""
    if not raw.strip():
        raise TokenizerFileError(path, "the file is empty", fix="Pass a tokenizer file with content.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TokenizerFileError(path, f"not UTF-8 text (bad byte at offset {exc.start})", fix="Is this a binary file?") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TokenizerFileError(
            # json's "Unterminated string starting at" expects the position after it; ours is in ``where``
            path, f"invalid JSON: {exc.msg.removesuffix(' at').removesuffix(' starting')}",
            where=f"line {exc.lineno}, column {exc.colno}",
            fix="The file may be truncated or not JSON.",
        ) from None
    except RecursionError:
        raise TokenizerFileError(path, "JSON nested too deeply") from None
    if _SURROGATE_ESCAPE.search(raw):
        _reject_lone_surrogates(data, path)
    return data


# An escaped UTF-16 surrogate: fine in pairs (an emoji), invalid alone (HF's JSON reader refuses it).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _reject_lone_surrogates(data: Any, path: Path) -> None:
    """Raise if any key or string of the parsed JSON holds a lone surrogate (walked without recursion)."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                stack.append((key, where))
                stack.append((value, f"{where}.{key}" if where else str(key)))
        elif isinstance(node, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(node))
        elif isinstance(node, str) and not node.isascii():
            try:
                node.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise TokenizerFileError(path, f"a string holds a lone surrogate escape \\u{ord(node[exc.start]):04X}, "
                                               "which is not valid Unicode", where=where or "top level",
                                         fix="Surrogate escapes must come in pairs.") from None
