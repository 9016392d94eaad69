"""The worker processes behind ``encode_batch(..., processes=N)`` (``tokcore.parallel``).

A tokenizer's workers are started on first use and kept while it stays as it was, as HF
tokenizers keeps its thread pool: starting processes costs as much as encoding a few thousand
lines. They are stopped when any of its stages changes (the fast lane's rule,
``tokcore.fast.lane.lane_for``), with the tokenizer itself, and at exit.

A call hands every worker the same list of pieces; workers and the caller then take pieces one
at a time from a shared counter, so a faster process simply takes more. A worker sends each
piece's results as columns (``tokcore.result_pack``) from a sender thread, so that a full pipe
never stops it encoding, and ends the call with ``("done",)``.

Workers get the tokenizer by ``fork`` where the platform has it (nothing is serialized and the
parent's word caches come along); elsewhere they rebuild it with its class's ``from_dict`` from
``to_dict()``, which is plain JSON data. Only our own data travels between our own processes.

A worker killed while it holds the counter's lock takes the lock with it: the caller, finding
the lock taken and a worker dead, stops reading the counter, stops the workers and encodes every
piece it has no result for itself.

Left out: a worker that stops mid-call is not restarted during that call (the caller encodes
the pieces it did not send; the next call starts new workers); a worker that hangs (stopped by
a signal, not dead) holds the call up, as a stuck thread would in a thread pool.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import threading
import time
import weakref

from ..core.errors import ConfigurationError
from ..core.gc_pause import paused_gc
from ..fast.lane import lane_for
from .pack import pack

_STARTING = threading.Lock()  # one set of workers per tokenizer, even when threads race


LOCK_POLL = 0.05  # seconds the caller waits for the counter's lock before it checks its workers


def take(counter, procs=None, parent: int | None = None) -> int | None:
    """The next piece's index from the shared ``counter`` (every process draws from it). The
    caller passes its worker ``procs``: ``None`` then means one of them died holding the lock
    (a semaphore is not released by a process's death), so the counter can no longer be read.
    A worker passes its ``parent``'s pid: ``None`` then means the caller is gone."""
    lock = counter.get_lock()
    if not acquire_counter(lock, procs, parent):
        return None
    try:
        i = counter.value
        counter.value = i + 1
    finally:
        lock.release()
    return i


def acquire_counter(lock, procs=None, parent: int | None = None) -> bool:
    """Take the counter's ``lock``; the caller gives up (``False``) once it has waited and one of
    its workers (``procs``) is found dead, whose lock may never come back; a worker waits for it
    (the caller stops it if the lock is lost) unless its ``parent`` is gone."""
    if procs is None:
        while not lock.acquire(True, 1.0):
            if parent is not None and os.getppid() != parent:
                return False
        return True
    while not lock.acquire(True, LOCK_POLL):
        if not all(proc.is_alive() for proc in procs):
            return lock.acquire(True, LOCK_POLL)  # once more: it may have died after releasing it
    return True


def _serve(conn, tokenizer, forked: bool, counter) -> None:
    """A worker: ``(pieces, kwargs)`` in; per piece it takes, ``("piece", i, columns, others)``
    or ``("error", i, exc)`` out; then ``("done",)``."""
    parent = os.getppid()
    if forked:
        _close_inherited_files(conn.fileno())
    else:  # pragma: no cover - platforms without fork
        klass, data = tokenizer
        tokenizer = klass.from_dict(data, source="<parent process>")
    outbox: queue.SimpleQueue = queue.SimpleQueue()
    threading.Thread(target=_send_all, args=(conn, outbox), daemon=True).start()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        pieces, kwargs = task
        while (i := take(counter, parent=parent)) is not None and i < len(pieces):
            try:
                with paused_gc():  # lists, tuples and dicts without cycles, dropped once packed
                    outbox.put(("piece", i, *pack(tokenizer.encode_batch(pieces[i], **kwargs))))
            except Exception as exc:  # the caller raises it, as a single process would
                outbox.put(("error", i, exc))
        if i is None:  # the caller is gone (a worker orphaned while waiting for the counter)
            return
        outbox.put(("done",))


def _close_inherited_files(keep: int) -> None:
    """Close every file descriptor a forked worker got from its parent but its pipe and stdio.

    A kept worker outlives the calls that started it: holding its parent's sockets and pipes (a
    server's port, a browser driver's pipe) would keep them open after the parent closes them,
    and whoever waits for them to close would wait for the worker's end.
    """
    limit = os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else -1
    limit = limit if limit > 0 else 1 << 16
    os.closerange(3, keep)
    os.closerange(keep + 1, limit)


def _send_all(conn, outbox) -> None:
    while True:
        message = outbox.get()
        try:
            conn.send(message)
        except (BrokenPipeError, EOFError, OSError):
            return
        except Exception as exc:  # an error that does not pickle: its message still goes
            conn.send(("error", message[1], ConfigurationError(f"{message[2]!r} (in an encode_batch worker; {exc})")))


class Workers:
    """``n`` worker processes serving one tokenizer, each on its own pipe; one call at a time."""

    def __init__(self, tokenizer, n: int):
        forked = "fork" in mp.get_all_start_methods()
        ctx = mp.get_context("fork" if forked else "spawn")
        arg = tokenizer if forked else (type(tokenizer), tokenizer.to_dict())
        self.lock = threading.Lock()
        self.counter = ctx.Value("i", 0)
        self.conns, self.procs = [], []
        for _ in range(n):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(theirs, arg, forked, self.counter), daemon=True,
                               name="tokcore-encode")
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
        if not _ended_within(proc, 1.0):
            proc.terminate()
            _ended_within(proc, 1.0)


def _ended_within(proc, seconds: float) -> bool:
    """Whether ``proc`` ends within ``seconds``, asked without blocking: ``join(timeout)`` waits on
    the process's sentinel pipe, which a worker closes with its inherited files
    (``_close_inherited_files``), after which ``join`` blocks until the process really ends."""
    end = time.monotonic() + seconds
    while proc.is_alive():
        if time.monotonic() >= end:
            return False
        time.sleep(0.005)
    return True


def workers_for(tokenizer, n: int) -> Workers:
    """The tokenizer's ``n`` workers, started on first use and kept while the tokenizer stays
    as it was (``Tokenizer.__setattr__`` drops them, as it drops the lane)."""
    with _STARTING:
        workers = tokenizer.__dict__.get("_pool")
        if workers is not None:
            # A dead worker may have died holding the counter's lock: a new set, a new counter.
            if len(workers.procs) == n and all(proc.is_alive() for proc in workers.procs):
                return workers
            drop_pool(tokenizer)
        lane_for(tokenizer)  # built before the fork: the workers inherit it, and its word plan
        workers = Workers(tokenizer, n)
        tokenizer.__dict__["_pool"] = workers
        return workers


def drop_pool(tokenizer) -> None:
    """Stop the tokenizer's workers, if it has some (its stages changed, or one stopped)."""
    workers = tokenizer.__dict__.pop("_pool", None)
    if workers is not None:
        workers.stop()
