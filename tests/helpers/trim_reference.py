"""HF's ``process_offsets`` (ByteLevel / Roberta ``trim_offsets``) written out token by token, with
nothing cached: the slow reference that ``tokcore.processors.merge.trim_offsets`` is pinned to."""

from __future__ import annotations

# Rust's char::is_whitespace (the White_Space property).
WHITESPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(
    chr(c) for c in range(0x2000, 0x200B))


def space_run(chars) -> tuple[int, int]:
    """(count, bytes) of the whitespace run that starts ``chars``; ``Ġ`` is one space byte.
    ``space_run("Ġ\\u3000a") == (2, 4)``."""
    count = size = 0
    for ch in chars:
        if ch == "Ġ":
            size += 1
        elif ch in WHITESPACE:
            size += len(ch.encode("utf-8"))
        else:
            break
        count += 1
    return count, size


def trim_reference(tokens: list, spans: list, base: int, add_prefix_space: bool) -> list:
    """The trimmed spans (a new list). Spans count from ``base``; a first token (index 0, or one
    starting at ``base``) keeps a one-character leading space when ``add_prefix_space``.
    ``trim_reference(["a", "Ġb"], [(0, 1), (1, 3)], 0, False) == [(0, 1), (2, 3)]``."""
    out = []
    for i, (token, span) in enumerate(zip(tokens, spans)):
        if span is None:
            out.append(None)
            continue
        start, stop = span
        count, size = space_run(token)
        if count:
            if (i == 0 or start == base) and add_prefix_space and count == 1:
                size = 0
            start = min(start + size, stop)
        count, size = space_run(reversed(token))
        if count and stop >= size:
            stop = max(stop - size, start)
        out.append((start, stop))
    return out
