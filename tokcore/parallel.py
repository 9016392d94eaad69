"""Batch encoding across processes: ``Tokenizer.encode_batch(texts, processes=N)``.

The texts are cut into contiguous chunks, each chunk is encoded by a worker process with the
ordinary ``encode_batch``, and the results come back in order, identical to a single-process
run. Workers get the tokenizer by ``fork`` where the platform has it (nothing is serialized and
the parent's word caches come along); elsewhere they rebuild it from ``to_dict()``, which is
plain JSON data. Only our own objects travel between our own processes.

Left out: threads (the GIL makes them useless for pure-Python encoding) and padding to the
batch's longest item, which needs every length first (that case runs in one process).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

_WORKER: dict[str, Any] = {}


def _init_forked(tokenizer) -> None:
    _WORKER["tok"] = tokenizer


def _init_spawned(data: dict) -> None:
    from .io import tokenizer_from_dict

    _WORKER["tok"] = tokenizer_from_dict(data, source="<parent process>")


def _encode_chunk(args):
    texts, kwargs = args
    return _WORKER["tok"].encode_batch(texts, **kwargs)


def chunks_of(items: Sequence, n_chunks: int) -> list[list]:
    """``items`` cut into at most ``n_chunks`` contiguous, nearly equal runs. ``chunks_of("abcde", 2) == [["a", "b", "c"], ["d", "e"]]``."""
    n = len(items)
    n_chunks = max(1, min(n_chunks, n))
    size, extra = divmod(n, n_chunks)
    out, pos = [], 0
    for i in range(n_chunks):
        step = size + (1 if i < extra else 0)
        out.append(list(items[pos : pos + step]))
        pos += step
    return out


def encode_parallel(tokenizer, texts: Sequence, processes: int, kwargs: dict) -> list:
    """``tokenizer.encode_batch(texts, **kwargs)`` computed by ``processes`` worker processes."""
    # A few chunks per worker keeps both busy when texts differ in length, without paying much
    # per-chunk overhead.
    chunks = chunks_of(texts, processes * 4)
    if "fork" in mp.get_all_start_methods():
        ctx = mp.get_context("fork")
        init, arg = _init_forked, tokenizer
    else:  # pragma: no cover - platforms without fork
        ctx = mp.get_context("spawn")
        init, arg = _init_spawned, tokenizer.to_dict()
    with ProcessPoolExecutor(max_workers=processes, mp_context=ctx, initializer=init, initargs=(arg,)) as pool:
        parts = pool.map(_encode_chunk, [(c, kwargs) for c in chunks])
        out = []
        for part in parts:
            out.extend(part)
    return out
