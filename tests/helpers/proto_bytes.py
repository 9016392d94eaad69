"""Protocol-buffer bytes for hand-made ``.model`` files in tests.

Left out: reading them (``tokcore.loaders.protobuf_wire`` does).
"""

from __future__ import annotations


def varint(n: int) -> bytes:
    """``n`` (>= 0) as a protobuf varint. ``varint(300) == b"\\xac\\x02"``."""
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)
