"""Walk a token sequence over its text once, in order: what the span-drawing pages draw, as events.

``walk(rows, spans, data, marked)`` yields, in order:
- ``("sentinel", row)`` for a token with the ``(0, 0)`` span (drawn where the sequence puts it);
- ``("gap", bytes, start)`` for text no token covers (``start``: its 0-based byte offset in ``data``);
- ``("mark", idx)`` for a marked boundary (1-based byte index in ``marked``), once each, placed
  before the token starting there or after the token stopping there;
- ``("token", row, start, stop, colour_index)``; ``colour_index`` counts ordinary tokens only
  (special and inserted ones have fixed styles), so neighbours alternate colours;
- ``("more", n)`` when ``max_tokens`` cut the sequence, else ``("gap", tail, start)`` for uncovered text at
  the end.

``start`` draws a window of the sequence from token ``start`` on (at most ``max_tokens``): it begins with
``("before", start)`` and no leading gap, and colours stay those of the whole sequence.

Left out: the HTML (``tokapp.inspector_html`` and ``tokapp.compare`` draw the events their way).
"""

from __future__ import annotations

from typing import Iterator, Sequence

from tokcore.core.offsets import has_nonempty_span, has_span

from .tokens import TokenRow, row_kind


def walk(rows: Sequence[TokenRow], spans: Sequence[tuple[int, int]], data: bytes, marked, *,
         max_tokens: int | None = None, start: int = 0) -> Iterator[tuple]:
    """Events for drawing ``rows`` over ``data`` (the UTF-8 text ``spans`` point into).

    ``[e[0] for e in walk(rows, [(1, 2), (3, 4)], b"a b", set())] == ["token", "gap", "token"]``
    """
    start = max(0, min(start, len(rows)))
    stop = len(rows) if max_tokens is None else min(len(rows), start + max_tokens)
    shown = list(zip(rows[start:stop], spans[start:stop]))
    spanning = [i for i, (_, o) in enumerate(shown) if has_nonempty_span(o)]
    next_start = {a: shown[b][1][0] for a, b in zip(spanning, spanning[1:])}
    drawn: set[int] = set()
    cursor, k = 1, 0
    if start:
        yield ("before", start)
        k = sum(1 for r in rows[:start] if row_kind(r) not in ("special", "inserted"))
        cursor = shown[spanning[0]][1][0] if spanning else len(data) + 1
    for i, (row, span) in enumerate(shown):
        if not has_span(span):
            yield ("sentinel", row)
            continue
        first, last = span
        if first > cursor:
            yield ("gap", data[cursor - 1 : first - 1], cursor - 1)
        if first in marked and first not in drawn:
            drawn.add(first)
            yield ("mark", first)
        colour = k
        if row_kind(row) not in ("special", "inserted"):
            k += 1
        yield ("token", row, first, last, colour)
        if last in marked and last not in drawn and next_start.get(i) != last:
            drawn.add(last)
            yield ("mark", last)
        cursor = max(cursor, last)
    if stop < len(rows):
        yield ("more", len(rows) - stop)
    elif cursor <= len(data):
        yield ("gap", data[cursor - 1 :], cursor - 1)
