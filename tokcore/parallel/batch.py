"""Batch encoding across processes: ``Tokenizer.encode_batch(texts, processes=N)``.

The texts are cut into pieces of nearly equal cost (``split_by_weight``: text length plus a
per-item cost). The calling process and N - 1 kept worker processes (``tokcore.parallel_workers``)
take pieces one at a time from a shared counter until none is left, so the work balances itself
whatever the machine is doing. The caller builds every list of its own pieces' results while
the workers encode theirs, and turns the workers' columns (``tokcore.result_pack``) into results
as they arrive. The results come back in order, identical to a single-process run, every list
built.

Left out: threads (the GIL makes them useless for pure-Python encoding) and padding to the
batch's longest item, which needs every length first (that case runs in one process).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import accumulate
from multiprocessing.connection import wait

from ..core.errors import ConfigurationError
from ..core.gc_pause import paused_gc
from .pack import unpack
from .workers import LOCK_POLL, acquire_counter, drop_pool, take, workers_for

__all__ = ["chunks_of", "drop_pool", "encode_parallel", "split_by_weight", "workers_for"]

# Pieces per process: enough that the last piece to finish leaves the others idle briefly.
PIECES_PER_PROCESS = 8
# What encoding one item costs besides its text, in characters of text (the call, the result).
ITEM_COST = 100


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


def encode_parallel(tokenizer, texts: Sequence, processes: int, kwargs: dict) -> list:
    """``tokenizer.encode_batch(texts, **kwargs)`` computed by this process and ``processes - 1``
    workers. Pieces a worker took but never sent back (it was killed, ran out of memory) are
    encoded here, and the next call starts new workers."""
    workers = workers_for(tokenizer, processes - 1)
    pieces = split_by_weight(texts, [1.0] * (processes * PIECES_PER_PROCESS))
    done: dict[int, list] = {}
    errors: dict[int, BaseException] = {}
    procs = workers.procs
    lost = False  # a worker died holding the counter's lock: nothing more is read from it
    with workers.lock:
        workers.counter.value = 0
        waiting = []
        try:
            for conn in workers.conns:
                try:
                    conn.send((pieces, kwargs))
                    waiting.append(conn)
                except OSError:  # a stopped worker
                    pass
            while (i := take(workers.counter, procs)) is not None and i < len(pieces):
                try:
                    with paused_gc():  # lists, tuples and dicts without cycles
                        done[i] = _built(tokenizer.encode_batch(pieces[i], **kwargs))
                except Exception as exc:
                    errors[i] = exc
                for conn in wait(waiting, timeout=0):  # what the workers sent meanwhile
                    _take_message(conn, waiting, done, errors)
            lost = i is None
        finally:
            # No piece is taken any more (an interrupt here stops the workers at their next
            # piece); every message is read, so that none is left in a pipe.
            lost = lost or not _close_counter(workers.counter, len(pieces), procs)
            while waiting and not lost:
                ready = wait(waiting, timeout=LOCK_POLL * 4)
                for conn in ready:
                    _take_message(conn, waiting, done, errors)
                if not ready and not all(proc.is_alive() for proc in procs):
                    # Live workers wait for a lock a dead one may hold: check it is free.
                    lost = not _close_counter(workers.counter, len(pieces), procs)
    if lost or not all(proc.is_alive() for proc in procs):
        drop_pool(tokenizer)  # the next call starts new workers; the pieces not sent are encoded below
    if errors:
        raise errors[min(errors)]  # the first failing piece, as one process meets it first
    if len(done) < len(pieces):  # a worker stopped with pieces it had taken
        for i in range(len(pieces)):
            if i not in done:
                done[i] = tokenizer.encode_batch(pieces[i], **kwargs)
    return [res for i in range(len(pieces)) for res in done[i]]


def _close_counter(counter, n: int, procs) -> bool:
    """Set the shared counter past the last piece, so every worker ends its call; ``False`` when a
    dead worker holds its lock (the workers are then stopped instead)."""
    lock = counter.get_lock()
    if not acquire_counter(lock, procs):
        return False
    try:
        counter.value = n
    finally:
        lock.release()
    return True


def _built(results: list) -> list:
    for res in results:  # every list built here while the workers encode, as theirs come built
        _ = res.tokens
    return results


def _take_message(conn, waiting: list, done: dict, errors: dict) -> None:
    """Read one message from a worker into ``done`` or ``errors``; a stopped worker is done."""
    try:
        message = conn.recv()
    except (EOFError, OSError):
        waiting.remove(conn)
        return
    except Exception as exc:  # a message that does not unpickle here
        errors[-1] = ConfigurationError(f"an encode_batch worker's reply could not be read: {exc}")
        return
    if message[0] == "piece":
        with paused_gc():  # the results' lists and tuples: many objects, no cycle
            done[message[1]] = unpack(message[2], message[3])
    elif message[0] == "error":
        errors[message[1]] = message[2]
    else:  # "done"
        waiting.remove(conn)
