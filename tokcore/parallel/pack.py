"""Encoding results as columns: how ``encode_batch(..., processes=N)``'s workers send them back.

A batch of results becomes a few flat lists of ints and strings: each per-token list of every
result end to end (offsets as flat start, stop ints, back as ``Spans``), the token counts and the texts. Each
column is made in one C-level pass over the batch; the pipe between the processes carries such
lists several times faster than result objects, whose every list and tuple would travel as an
object of its own. ``unpack(*pack(results)) == results``; ``tests/engine/test_parallel.py`` checks it
on every kind of result.

Left out: results with overflowing windows, and results whose optional lists (offsets, masks)
are not there when the first result's are, or the other way round; those travel as objects
next to the columns.
"""

from __future__ import annotations

from itertools import chain
from operator import eq, itemgetter
from typing import Any

from ..core.encoding import EncodeResult
from ..core.optional_ints import WordIds
from ..core.spans import Spans, settled

# Per-token lists that every result has, those the options may leave out (None), and the texts.
_ALWAYS = ("ids", "tokens", "word_ids", "sequence_ids")
_OPTIONAL = ("attention_mask", "special_tokens_mask", "token_type_ids")
_TEXTS = ("tokenization_text", "tokenization_text_pair", "raw_text", "raw_text_pair")


def _shape(state: dict) -> tuple:
    """Which optional lists a result has (offsets first)."""
    return (state["offsets"] is not None, *(state[name] is not None for name in _OPTIONAL))


def pack(results: list) -> tuple[tuple | None, dict]:
    """The results as ``(columns, others)``: the columns of every result shaped as the first one
    without overflowing windows, and the remaining results by position."""
    states = [res._filled() for res in results]  # a lazy result's lists made
    shape = next((_shape(st) for st in states if not st["overflowing"]), None)
    others: dict[int, Any] = {}
    packed = []
    for i, st in enumerate(states):
        if st["overflowing"] or _shape(st) != shape:
            others[i] = results[i]
        else:
            packed.append(st)
    if not packed:
        return None, others
    names = [*_ALWAYS, *(name for name, present in zip(_OPTIONAL, shape[1:]) if present)]
    columns = {name: list(chain.from_iterable(map(itemgetter(name), packed))) for name in names}
    spans = originals = None
    if shape[0]:
        offsets = list(map(itemgetter("offsets"), packed))
        spans = list(chain.from_iterable(chain.from_iterable(offsets)))
        mapped = list(map(itemgetter("original_offsets"), packed))
        if not all(map(eq, mapped, offsets)):  # some view moved characters: send them too
            originals = list(chain.from_iterable(chain.from_iterable(mapped)))
    counts = list(map(len, map(itemgetter("ids"), packed)))
    texts = {name: [st.get(name) for st in packed] for name in _TEXTS}
    return (shape[0], counts, columns, spans, originals, texts), others


def unpack(packed: tuple | None, others: dict) -> list:
    """The results ``pack`` packed, in their first order."""
    if packed is None:
        return [others[i] for i in sorted(others)]
    has_offsets, counts, columns, spans, originals, texts = packed
    absent = [name for name in _OPTIONAL if name not in columns]
    if not has_offsets:
        absent += ["offsets", "original_offsets"]
    rows = iter(range(len(counts)))
    out: list = []
    start = 0
    for i in range(len(counts) + len(others)):
        if i in others:
            out.append(others[i])
            continue
        row = next(rows)
        stop = start + counts[row]
        state = {name: column[start:stop] for name, column in columns.items()}
        for name in absent:
            state[name] = None
        state["word_ids"] = settled(WordIds._of_list(state["word_ids"]))
        if has_offsets:
            # As the encoding process made them (tokcore.core.spans.settled): lists, or for a long
            # result Spans, one object for both when they are equal.
            offsets = settled(Spans.from_flat(spans[2 * start:2 * stop]))
            state["offsets"] = offsets
            state["original_offsets"] = (
                (list(offsets) if type(offsets) is list else offsets) if originals is None
                else settled(Spans.from_flat(originals[2 * start:2 * stop])))
        for name, values in texts.items():
            state[name] = values[row]
        state["overflowing"] = []
        out.append(EncodeResult._from_state(state))
        start = stop
    return out
