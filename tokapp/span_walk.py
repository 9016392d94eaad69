"""Walk a token sequence over its text once, in order: what the span-drawing pages draw, as events.

``walk(rows, spans, data, marked)`` yields, in order:
- ``("sentinel", row)`` for a token with the ``(0, 0)`` span (drawn where the sequence puts it);
- ``("gap", bytes)`` for text no token covers;
- ``("mark", idx)`` for a marked boundary (1-based byte index in ``marked``), once each, placed
  before the token starting there or after the token stopping there;
- ``("token", row, start, stop, colour_index)``; ``colour_index`` counts ordinary tokens only
  (special and inserted ones have fixed styles), so neighbours alternate colours;
- ``("more", n)`` when ``max_tokens`` cut the sequence, else ``("gap", tail)`` for uncovered text at the end.

Left out: the HTML (``tokapp.inspector_html`` and ``tokapp.compare`` draw the events their way).
"""

from __future__ import annotations

from typing import Iterator, Sequence

from tokcore.core.offsets import has_nonempty_span, has_span

from .tokens import TokenRow, row_kind


def walk(rows: Sequence[TokenRow], spans: Sequence[tuple[int, int]], data: bytes, marked, *,
         max_tokens: int | None = None) -> Iterator[tuple]:
    """Events for drawing ``rows`` over ``data`` (the UTF-8 text ``spans`` point into).

    ``[e[0] for e in walk(rows, [(1, 2), (3, 4)], b"a b", set())] == ["token", "gap", "token"]``
    """
    shown = list(zip(rows, spans))[: max_tokens if max_tokens is not None else len(rows)]
    spanning = [i for i, (_, o) in enumerate(shown) if has_nonempty_span(o)]
    next_start = {a: shown[b][1][0] for a, b in zip(spanning, spanning[1:])}
    drawn: set[int] = set()
    cursor, k = 1, 0
    for i, (row, span) in enumerate(shown):
        if not has_span(span):
            yield ("sentinel", row)
            continue
        start, stop = span
        if start > cursor:
            yield ("gap", data[cursor - 1 : start - 1])
        if start in marked and start not in drawn:
            drawn.add(start)
            yield ("mark", start)
        colour = k
        if row_kind(row) not in ("special", "inserted"):
            k += 1
        yield ("token", row, start, stop, colour)
        if stop in marked and stop not in drawn and next_start.get(i) != stop:
            drawn.add(stop)
            yield ("mark", stop)
        cursor = max(cursor, stop)
    if len(shown) < len(rows):
        yield ("more", len(rows) - len(shown))
    elif cursor <= len(data):
        yield ("gap", data[cursor - 1 :])
