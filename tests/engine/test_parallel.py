"""``encode_batch(..., processes=N)`` (``tokcore.parallel``) and its transport (``tokcore.result_pack``).

Results from N processes must equal a single process's, item for item, for every option of
``encode_batch``; results must survive packing into columns unchanged, whatever their kind
(fast-lane and general-path results, pairs, padding, overflowing windows, views that move
characters); the pieces must cover the batch in order; and the worker processes must follow
the tokenizer: kept between calls, replaced when it changes, stopped with it, replaced when one
dies (before or during a call), one call at a time when threads share a tokenizer.
"""

from __future__ import annotations

import copy
import gc
import os
import pickle
import signal
import threading

import fast_pairs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokcore.core.errors import ConfigurationError, WrongTypeError
from tokcore.parallel import batch as parallel
from tokcore.parallel.pack import pack, unpack

WORDS = ["hello", "Hello", " ", "  ", "\n", ".", "it's", "42", "x" * 30, "<|endoftext|>", "[CLS]", "</s>",
         "é", "中", "\ufeff", "▁", "\t"]
texts = st.lists(st.sampled_from(WORDS), max_size=12).map("".join)
items = st.lists(texts | st.tuples(texts, texts), min_size=0, max_size=8)
OPTIONS = [{}, {"return_offsets": True}, {"return_offsets": True, "return_masks": True},
           {"add_special_tokens": False, "return_masks": True}, {"padding": "max_length", "max_length": 12},
           {"truncation": True, "max_length": 6, "stride": 2, "return_offsets": True}]
FILES = [("hf", "gpt2/tokenizer.json"), ("hf", "minilm/tokenizer.json"),
         ("sentencepiece", "botchan_en_unigram_1000.model")]


def fresh(kind: str, name: str):
    """A private copy: these tests start, change and stop worker processes."""
    return copy.deepcopy(fast_pairs.pair_for(kind, name)[0])


@pytest.fixture(scope="module")
def tokenizers():
    toks = {name: fresh(kind, name) for kind, name in FILES}
    yield toks
    for tok in toks.values():
        parallel.drop_pool(tok)


@pytest.mark.parametrize("name", [name for _, name in FILES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(batch=items, options=st.sampled_from(OPTIONS))
def test_packed_results_come_back_unchanged(tokenizers, name, batch, options):
    tok = tokenizers[name]
    try:
        packed = pack(tok.encode_batch(batch, **options))
    except ConfigurationError:  # a stride too long for a pair's windows: nothing to pack
        return
    back = unpack(*pickle.loads(pickle.dumps(packed)))  # as through a pipe
    assert back == tok.encode_batch(batch, **options)
    assert all("_source" not in res.__dict__ for res in back)


@pytest.mark.parametrize("name", [name for _, name in FILES])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(batch=items, options=st.sampled_from(OPTIONS), processes=st.sampled_from([2, 3]))
def test_processes_give_the_single_process_results(tokenizers, name, batch, options, processes):
    tok = tokenizers[name]
    assert outcome(tok, batch, processes=processes, **options) == outcome(tok, batch, **options)


def outcome(tok, batch, **options):
    """The results, or the type of error raised (a stride too long for a pair's windows)."""
    try:
        return tok.encode_batch(batch, **options)
    except ConfigurationError as exc:
        return type(exc)


def test_a_packed_batch_keeps_its_order_around_results_that_travel_as_objects():
    tok = fresh("hf", "gpt2/tokenizer.json")
    batch = ["a b c d e f g h i j k", "short", ("x y z w v u t s r q", "p"), "a b c d e f g h i j k l m"]
    results = tok.encode_batch(batch, truncation=True, max_length=5, return_offsets=True)
    blob, others = pack(results)
    assert sorted(others) == [0, 2, 3]  # overflowing windows travel as objects
    assert unpack(blob, others) == results
    assert unpack(*pack([])) == []
    sp = fresh("sentencepiece", "botchan_en_unigram_1000.model")  # original offsets differ from offsets
    results = sp.encode_batch(["It was a fine day.", " lead", "naïve"], return_offsets=True)
    assert results[0].original_offsets != results[0].offsets
    assert unpack(*pack(results)) == results


@settings(max_examples=200, deadline=None)
@given(batch=st.lists(st.text(max_size=6) | st.tuples(st.text(max_size=3), st.text(max_size=3))),
       weights=st.lists(st.floats(min_value=0.1, max_value=3), min_size=1, max_size=5))
def test_shares_cover_the_batch_in_order(batch, weights):
    shares = parallel.split_by_weight(batch, weights)
    assert [item for share in shares for item in share] == batch
    assert len(shares) == max(1, min(len(weights), len(batch)))
    assert all(shares) or not batch


def test_shares_follow_text_length_and_weights():
    assert parallel.split_by_weight(["x" * 400, "b", "c", "d", "e"], [1, 1]) == [["x" * 400], ["b", "c", "d", "e"]]
    assert parallel.chunks_of("abcde", 2) == [["a", "b", "c"], ["d", "e"]]
    long_then_short = ["x" * 20000] + ["y"] * 100
    assert len(parallel.split_by_weight(long_then_short, [1, 1])[0]) < 5  # a long text weighs more
    first, second = parallel.split_by_weight(["z" * 10] * 100, [3, 1])
    assert 70 <= len(first) <= 80


def _pids(tok) -> list[int]:
    return [proc.pid for proc in tok.__dict__["_pool"].procs]


def test_workers_are_kept_between_calls_and_follow_the_tokenizer():
    tok = fresh("hf", "gpt2/tokenizer.json")
    lines = ["Hello world, it's 42.", "a b c", "x" * 40, "last line"] * 5
    before = tok.encode_batch(lines, processes=2, return_offsets=True)
    pids = _pids(tok)
    assert tok.encode_batch(lines, processes=2, return_offsets=True) == before and _pids(tok) == pids
    tok.encode_batch(lines, processes=3)
    assert len(_pids(tok)) == 2  # a new set for another process count
    # A changed stage reaches new workers: the old ones hold the old tokenizer.
    tok.pre_tokenizer.add_prefix_space = True
    changed = tok.encode_batch(lines, processes=3)
    assert changed[0].ids != before[0].ids
    assert changed == tok.encode_batch(lines)
    tok.post_processor = None
    assert tok.__dict__.get("_pool") is None  # dropped with the old stage
    assert tok.encode_batch(lines, processes=2) == tok.encode_batch(lines)
    # Copies and pickles (of a tokenizer that has encoded: no plan either) start their own.
    assert "_pool" not in copy.copy(tok).__dict__
    again = pickle.loads(pickle.dumps(tok))
    assert "_pool" not in again.__dict__ and again.encode_batch(lines, processes=2) == tok.encode_batch(lines)
    parallel.drop_pool(again)
    parallel.drop_pool(tok)


def test_workers_stop_with_their_tokenizer():
    tok = fresh("hf", "minilm/tokenizer.json")
    tok.encode_batch(["one", "two", "three"], processes=2)
    procs = list(tok.__dict__["_pool"].procs)
    del tok
    gc.collect()
    for proc in procs:
        proc.join(timeout=5)
        assert not proc.is_alive()


def test_a_stopped_worker_costs_nothing_but_time():
    tok = fresh("hf", "gpt2/tokenizer.json")
    lines = [f"line {i}: the quick brown fox" for i in range(30)]
    want = tok.encode_batch(lines, return_offsets=True)
    assert tok.encode_batch(lines, processes=2, return_offsets=True) == want
    (proc,) = tok.__dict__["_pool"].procs
    os.kill(proc.pid, signal.SIGKILL)
    proc.join(timeout=5)
    assert tok.encode_batch(lines, processes=2, return_offsets=True) == want  # its share encoded here
    assert tok.encode_batch(lines, processes=2, return_offsets=True) == want  # new workers
    assert _pids(tok) != [proc.pid]
    parallel.drop_pool(tok)


def _finishes(call, seconds: float = 60):
    """``call()``'s value, or a failure (not a hung test) when it has not returned in ``seconds``."""
    box = []
    thread = threading.Thread(target=lambda: box.append(call()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert box, f"the call did not return within {seconds} s"
    return box[0]


@pytest.mark.parametrize("held_at", ["between calls", "first take", "closing"])
def test_a_worker_that_dies_holding_the_counter_lock_does_not_hang_the_call(held_at, monkeypatch):
    # A semaphore is not released when its holder dies: a worker SIGKILLed inside take() leaves the
    # counter locked for good. Made deterministic: a forked child takes the lock and exits, and a
    # worker is killed, so the caller finds the lock taken and a worker dead: between two calls
    # (the next call starts new workers), at the caller's first take, or as it closes the counter.
    tok = fresh("hf", "gpt2/tokenizer.json")
    lines = [f"line {i}: the quick brown fox jumps over the lazy dog" for i in range(300)]
    want = tok.encode_batch(lines)
    tok.encode_batch(lines[:10], processes=3)  # workers up
    workers = tok.__dict__["_pool"]
    dead, alive = workers.procs

    def lock_for_good():
        os.kill(dead.pid, signal.SIGKILL)
        dead.join(timeout=5)
        pid = os.fork()
        if pid == 0:  # the child takes the lock and dies with it (or the killed worker had it already)
            workers.counter.get_lock().acquire(True, 2.0)
            os._exit(0)
        os.waitpid(pid, 0)

    if held_at == "between calls":
        lock_for_good()
    elif held_at == "first take":
        real_take = parallel.take

        def first(counter, procs=None):
            if not getattr(first, "done", False):
                first.done = True
                lock_for_good()
            return real_take(counter, procs)

        monkeypatch.setattr(parallel, "take", first)
    else:
        real = parallel._close_counter

        def late(counter, n, procs):
            lock_for_good()
            return real(counter, n, procs)

        monkeypatch.setattr(parallel, "take", lambda counter, procs=None: 10 ** 9)  # the caller takes nothing
        monkeypatch.setattr(parallel, "_close_counter", late)
    assert _finishes(lambda: tok.encode_batch(lines, processes=3)) == want
    if held_at == "between calls":  # the call started new workers
        assert not {dead.pid, alive.pid} & set(_pids(tok))
    else:
        assert "_pool" not in tok.__dict__  # stopped, the one waiting for the lock too
    alive.join(timeout=10)
    assert not alive.is_alive()
    monkeypatch.undo()
    assert _finishes(lambda: tok.encode_batch(lines, processes=3)) == want  # new workers, a new counter
    parallel.drop_pool(tok)


def test_a_worker_killed_during_a_call_leaves_its_pieces_to_the_caller():
    tok = fresh("hf", "gpt2/tokenizer.json")
    lines = [f"line {i}: the quick brown fox jumps over the lazy dog" for i in range(4000)]
    want = tok.encode_batch(lines)
    tok.encode_batch(lines[:10], processes=2)  # workers up
    (proc,) = tok.__dict__["_pool"].procs
    threading.Timer(0.02, os.kill, (proc.pid, signal.SIGKILL)).start()
    # Whether the worker had taken pieces or not when it died, every piece comes back once.
    assert tok.encode_batch(lines, processes=2) == want
    proc.join(timeout=5)
    assert tok.encode_batch(lines[:50], processes=2) == want[:50]
    assert _pids(tok) != [proc.pid]
    parallel.drop_pool(tok)


def test_errors_come_back_as_a_single_process_raises_them():
    tok = fresh("hf", "gpt2/tokenizer.json")
    for bad in (["fine"] * 10 + [3], [3] + ["fine"] * 10):  # in a worker's share, in this process's
        with pytest.raises(WrongTypeError):
            tok.encode_batch(bad, processes=2)
        assert tok.encode_batch(["a", "b"], processes=2) == tok.encode_batch(["a", "b"])  # no reply left behind
    parallel.drop_pool(tok)


def test_threads_sharing_a_tokenizer_take_turns_with_its_workers():
    tok = fresh("hf", "gpt2/tokenizer.json")
    batches = [[f"thread {t} line {i} text" for i in range(20)] for t in range(4)]
    want = [tok.encode_batch(b, return_offsets=True) for b in batches]
    got: dict[int, list] = {}

    def run(t):
        got[t] = tok.encode_batch(batches[t], processes=2, return_offsets=True)

    threads = [threading.Thread(target=run, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert [got[t] for t in range(4)] == want
    parallel.drop_pool(tok)


def test_the_collector_pause_restores_its_state():
    from tokcore.core.gc_pause import paused_gc

    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with paused_gc():
            assert not gc.isenabled()
            raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()  # it was off: it stays off
    finally:
        gc.enable()


def test_workers_hold_none_of_the_callers_files():
    # A kept worker must not keep its parent's pipes and sockets open (a browser driver's pipe, a
    # server's port): once the parent closes one, the other end sees it closed.
    import select

    read_end, write_end = os.pipe()
    tok = fresh("hf", "gpt2/tokenizer.json")
    try:
        assert tok.encode_batch(["one text", "two texts"], processes=2) == tok.encode_batch(["one text", "two texts"])
        os.close(write_end)
        ready, _, _ = select.select([read_end], [], [], 10)
        assert ready == [read_end] and os.read(read_end, 1) == b""  # end of file: no one else holds it
    finally:
        os.close(read_end)
        parallel.drop_pool(tok)
