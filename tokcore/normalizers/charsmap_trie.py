"""Reading sentencepiece's ``precompiled_charsmap`` blob: its double-array trie of rewrite rules.

The blob is ``<u32 little-endian trie size><trie units (u32 LE)><replacement strings, NUL-ended>``.
The trie is darts-clone's double array: from a node at ``pos``, byte ``c`` leads to unit
``pos ^ offset ^ c`` if that unit's label is ``c``; a unit with the leaf bit set has its value
(a byte offset into the replacement strings) in the unit at its child base. ``charsmap_rules``
walks it once into a ``{source: replacement}`` dict.

Left out: matching rules in text (``tokcore.normalizers.precompiled``).
"""

from __future__ import annotations

import struct

from ..core.errors import ConfigurationError

_MAX_RULE_BYTES = 256
WINDOW = 16  # characters looked at for the longest rule (nmt_nfkc rules span at most 4)


def _trie_size(blob: bytes) -> int:
    """The trie's size in bytes from the blob's header, checked against the blob. ``_trie_size(b"\\4\\0\\0\\0\\1\\0\\0\\0") == 4``."""
    if len(blob) <= 4:
        raise ConfigurationError("precompiled_charsmap is too short to hold a trie; pass sentencepiece's blob unchanged")
    (size,) = struct.unpack_from("<I", blob)
    if size >= len(blob) - 3 or size % 4:
        raise ConfigurationError(
            f"precompiled_charsmap says its trie has {size} bytes but the blob has {len(blob) - 4} after the header; "
            "the blob is truncated or not a sentencepiece charsmap"
        )
    return size


def split_charsmap(blob: bytes) -> tuple[tuple[int, ...], bytes]:
    """The trie units and the replacement strings. ``split_charsmap(b"\\4\\0\\0\\0\\1\\0\\0\\0ab") == ((1,), b"ab")``."""
    size = _trie_size(blob)
    units = struct.unpack_from(f"<{size // 4}I", blob, 4)
    return units, blob[4 + size :]


def _offset(unit: int) -> int:
    return (unit >> 10) << ((unit & (1 << 9)) >> 6)


def charsmap_rules(blob: bytes) -> dict[str, str]:
    """Every rewrite rule of a charsmap, as ``{source: replacement}``."""
    units, strings = split_charsmap(blob)
    if not units:
        return {}
    # Invert the trie once: a unit with label c at index i is a child of the node whose base is i ^ c.
    children: dict[int, list[tuple[int, int]]] = {}
    for i, unit in enumerate(units):
        label = unit & 0x800000FF
        if 0 < label < 256:
            children.setdefault(i ^ label, []).append((label, i))
    # The trie is a DAG (darts-clone shares suffixes), so a node may be reached more than once;
    # only a corrupt blob makes paths longer than any rule could be.
    rules: dict[str, str] = {}
    stack = [(_offset(units[0]), b"")]
    while stack:
        base, key = stack.pop()
        if len(key) >= _MAX_RULE_BYTES:
            raise ConfigurationError("precompiled_charsmap's trie has a path longer than any rule; the blob is corrupt")
        for label, i in children.get(base, ()):
            unit = units[i]
            child = i ^ _offset(unit)
            source = key + bytes((label,))
            if (unit >> 8) & 1 and child < len(units):
                rules_value = units[child] & 0x7FFFFFFF
                end = strings.find(b"\0", rules_value)
                raw = strings[rules_value : end if end >= 0 else len(strings)]
                try:
                    rules[source.decode("utf-8")] = raw.decode("utf-8")
                except UnicodeDecodeError:
                    pass  # a rule on a partial character can never match whole characters
            stack.append((child, source))
    return rules


def _replacement(strings: bytes, unit: int) -> str:
    """The replacement a leaf's value unit points at. ``_replacement(b"ab\\0c", 0) == "ab"``."""
    start = unit & 0x7FFFFFFF
    stop = strings.find(b"\0", start)
    return strings[start : stop if stop >= 0 else len(strings)].decode("utf-8", "replace")


def _ascii_source_rules(units, strings: bytes) -> tuple[dict[str, str], int]:
    """Every rule whose source is pure ASCII, ``{source: replacement}`` (a walk over ASCII labels only),
    and the longest ASCII path the trie holds (any node, not only a rule's end; ``WINDOW`` when the
    walk stopped there)."""
    found: dict[str, str] = {}
    reach = 0
    stack = [(_offset(units[0]), b"")] if units else []
    size = len(units)
    while stack:
        base, path = stack.pop()
        reach = max(reach, len(path))
        if len(path) >= WINDOW:
            continue
        for c in range(1, 128):
            i = base ^ c
            if i < size and units[i] & 0x800000FF == c:
                child = i ^ _offset(units[i])
                if (units[i] >> 8) & 1 and child < size:
                    found[(path + bytes([c])).decode("ascii")] = _replacement(strings, units[child])
                stack.append((child, path + bytes([c])))
    return found, reach
