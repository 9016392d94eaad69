"""Batch encoding across processes: ``Tokenizer.encode_batch(texts, processes=N)``.

The texts are cut into N contiguous shares of nearly equal text length. The calling process
encodes the first share itself; N - 1 worker processes encode the others with the ordinary
``encode_batch`` and send their results back as columns (``tokcore.result_pack``). The results
come back in order, identical to a single-process run, every list built.

What keeps the overhead small next to encoding itself:

- The workers stay up between calls (one set per tokenizer and process count), as HF
  tokenizers keeps its thread pool: starting processes costs as much as encoding a few
  thousand lines. They are stopped with the tokenizer, when any of its stages changes (the
  fast lane's rule, ``tokcore.fast_lane.lane_for``), and at exit.
- Each worker has a pipe of its own, read by the calling thread only once its own share is
  encoded: no helper thread competes with it for the GIL while the workers compute.
- The calling process sends nothing back to itself, so its share is a little larger.

Workers get the tokenizer by ``fork`` where the platform has it (nothing is serialized and the
parent's word caches come along); elsewhere they rebuild it from ``to_dict()``, which is plain
JSON data. Only our own data travels between our own processes.

Left out: threads (the GIL makes them useless for pure-Python encoding) and padding to the
batch's longest item, which needs every length first (that case runs in one process).
"""

from __future__ import annotations

import multiprocessing as mp
import threading
import weakref
from bisect import bisect_left
from collections.abc import Sequence
from itertools import accumulate

from . import components
from .errors import ConfigurationError
from .fast_lane import lane_for
from .gc_pause import paused_gc
from .result_pack import pack, unpack

# The calling process's share against a worker's: it neither packs nor unpacks its results.
CALLER_WEIGHT = 1.15
# What encoding one item costs besides its text, in characters of text (the call, the result).
ITEM_COST = 100

_STARTING = threading.Lock()  # one set of workers per tokenizer, even when threads race


def split_by_weight(items: Sequence, weights: Sequence[float]) -> list[list]:
    """``items`` cut into contiguous runs whose costs follow ``weights``, each run non-empty
    while items last. An item costs its text length (both texts of a pair) plus ``ITEM_COST``.
    ``split_by_weight(["x" * 400, "b", "c", "d", "e"], [1, 1]) == [["x" * 400], ["b", "c", "d", "e"]]``."""
    n = len(items)
    k = max(1, min(len(weights), n))
    sizes = list(accumulate(_size(item) + ITEM_COST for item in items))
    total = sizes[-1] if sizes else 0
    bounds = list(accumulate(weights[:k]))
    out, pos = [], 0
    for j in range(1, k + 1):
        # The first item whose running size reaches this run's share of the total ends the run.
        end = n if j == k else max(pos + 1, bisect_left(sizes, total * bounds[j - 1] / bounds[-1]) + 1)
        end = min(end, n - (k - j))  # leave one item for each run still to come
        out.append(list(items[pos:end]))
        pos = end
    return out


def chunks_of(items: Sequence, n_chunks: int) -> list[list]:
    """``split_by_weight`` with equal weights. ``chunks_of("abcde", 2) == [["a", "b", "c"], ["d", "e"]]``."""
    return split_by_weight(items, [1.0] * max(1, n_chunks))


def _size(item) -> int:
    if isinstance(item, str):
        return len(item)
    if isinstance(item, (tuple, list)):
        return sum(len(x) for x in item if isinstance(x, str))
    return 0  # not a text: encode_batch says so, in whichever process meets it


def _serve(conn, tokenizer, forked: bool) -> None:
    """A worker's loop: ``(texts, kwargs)`` in, ``("ok", columns, others)`` or ``("error", exc)`` out."""
    if not forked:  # pragma: no cover - platforms without fork
        from .io import tokenizer_from_dict

        tokenizer = tokenizer_from_dict(tokenizer, source="<parent process>")
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        texts, kwargs = task
        try:
            with paused_gc():  # lists, tuples and dicts without cycles, dropped once packed
                reply = ("ok", *pack(tokenizer.encode_batch(texts, **kwargs)))
        except Exception as exc:  # the caller raises it, as a single process would
            reply = ("error", exc)
        try:
            conn.send(reply)
        except Exception as exc:  # an error that does not pickle: its message still goes
            conn.send(("error", ConfigurationError(f"{reply[1]!r} (in an encode_batch worker; {exc})")))


class Workers:
    """``n`` worker processes serving one tokenizer, each on its own pipe; one call at a time."""

    def __init__(self, tokenizer, n: int):
        forked = "fork" in mp.get_all_start_methods()
        ctx = mp.get_context("fork" if forked else "spawn")
        arg = tokenizer if forked else tokenizer.to_dict()
        self.lock = threading.Lock()
        self.conns, self.procs = [], []
        for _ in range(n):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(theirs, arg, forked), daemon=True, name="tokcore-encode")
            proc.start()
            theirs.close()
            self.conns.append(mine)
            self.procs.append(proc)
        # Stopped with the tokenizer, or at exit.
        self._finalizer = weakref.finalize(tokenizer, _stop, self.conns, self.procs)

    def stop(self) -> None:
        self._finalizer()


def _stop(conns, procs) -> None:
    for conn in conns:
        try:
            conn.send(None)
            conn.close()
        except OSError:
            pass
    for proc in procs:
        proc.join(timeout=1)
        if proc.is_alive():
            proc.terminate()


def workers_for(tokenizer, n: int) -> Workers:
    """The tokenizer's ``n`` workers, started on first use and kept while the tokenizer stays
    as it was (``Tokenizer.__setattr__`` drops them, as it drops the lane)."""
    with _STARTING:
        held = tokenizer.__dict__.get("_pool")
        if held is not None:
            generation, workers = held
            if generation == components.GENERATION[0] and len(workers.procs) == n:
                return workers
            drop_pool(tokenizer)
        lane_for(tokenizer)  # built before the fork: the workers inherit it, and its word plan
        workers = Workers(tokenizer, n)
        tokenizer.__dict__["_pool"] = (components.GENERATION[0], workers)
        return workers


def drop_pool(tokenizer) -> None:
    """Stop the tokenizer's workers, if it has some (its stages changed)."""
    held = tokenizer.__dict__.pop("_pool", None)
    if held is not None:
        held[1].stop()


def encode_parallel(tokenizer, texts: Sequence, processes: int, kwargs: dict) -> list:
    """``tokenizer.encode_batch(texts, **kwargs)`` computed by this process and ``processes - 1``
    workers. A share whose worker has stopped (killed, out of memory) is encoded here instead,
    and the next call starts new workers."""
    workers = workers_for(tokenizer, processes - 1)
    shares = split_by_weight(texts, [CALLER_WEIGHT] + [1.0] * (processes - 1))
    with workers.lock:
        sent = []  # (pipe, share); no pipe: the worker is gone
        try:
            for conn, share in zip(workers.conns, shares[1:]):
                try:
                    conn.send((share, kwargs))
                    sent.append((conn, share))
                except OSError:
                    sent.append((None, share))
            with paused_gc():  # lists, tuples and dicts without cycles
                out = tokenizer.encode_batch(shares[0], **kwargs)
                for res in out:  # every list built while the workers encode, as theirs come built
                    _ = res.tokens
        finally:
            # Every reply is read, even after an error here, so that none is left in a pipe.
            replies = [None if conn is None else _receive(conn) for conn, _ in sent]
            if None in replies:
                drop_pool(tokenizer)
    for reply in replies:
        if reply is not None and reply[0] == "error":
            raise reply[1]
    for (_, share), reply in zip(sent, replies):
        if reply is None:
            out.extend(tokenizer.encode_batch(share, **kwargs))
            continue
        with paused_gc():  # the results' lists and tuples: many objects, no cycle
            out.extend(unpack(reply[1], reply[2]))
    return out


def _receive(conn) -> tuple | None:
    """The worker's reply, or ``None`` when it stopped before sending one."""
    try:
        return conn.recv()
    except (EOFError, OSError):
        return None
    except Exception as exc:  # a reply that does not unpickle here
        return ("error", ConfigurationError(f"an encode_batch worker's reply could not be read: {exc}"))
