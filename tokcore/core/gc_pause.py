"""``paused_gc``: the cyclic garbage collector off while many acyclic objects are made.

Loading a tokenizer file or unpacking a batch of results makes hundreds of thousands of lists,
tuples and dicts and no reference cycle. Each few hundred new objects start a collection that
walks the young ones, and the older generations are walked again and again as they grow: a
fifth of a GPT-2 load, two thirds of unpacking a batch. Pausing the collector around such
work is what one does around a big ``json.load``; its earlier state comes back after.

Left out: anything that could make reference cycles runs with the collector on.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Run the ``with`` body with the cyclic collector off, then restore its state.
    ``with paused_gc(): gc.isenabled()`` is ``False``."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
