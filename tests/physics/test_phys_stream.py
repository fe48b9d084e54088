"""`physics.stream.simulate_batch_async`: one kernel call on a worker thread whose finished
tables are read while later ones run -- the same bits as `physics.simulate_batch`."""

from __future__ import annotations

import numpy as np
import pytest

import physics
from physics.stream import overlap_supported, simulate_batch_async
from test_phys_api import _batch_inputs, _digest

FIELDS = ("rvw0", "s0", "rvw", "s", "pocket", "ev_t", "ev_kind", "ev_i", "ev_j", "n_events", "status", "shot",
          "cue_ball")


def test_async_equals_simulate_batch_bit_for_bit():
    t, rvw, shots, cb = _batch_inputs(seed=11, B=24)
    ref = physics.simulate_batch(t, rvw, shots, cb, parallel=False)
    run = simulate_batch_async(t, rvw, shots, cb)
    assert len(run) == 24
    got = {name: [] for name in FIELDS}
    lo = 0
    while lo < len(run):
        hi = run.wait(lo + 5)
        assert hi > lo
        part = run.partial(lo, hi)
        for name in FIELDS:
            got[name].append(np.array(getattr(part, name)))  # copied while the kernel may still run
        lo = hi
    whole = run.result()
    assert _digest(whole) == _digest(ref)
    for name in FIELDS:
        np.testing.assert_array_equal(np.concatenate(got[name]), getattr(ref, name), err_msg=name)
    assert run.kernel_cpu > 0.0


def test_async_validates_before_running_and_refuses_unfinished_views():
    t, rvw, shots, cb = _batch_inputs(seed=2, B=4)
    bad = shots.copy()
    bad[2, 0] = np.nan
    with pytest.raises(ValueError, match="shot.V0"):
        simulate_batch_async(t, rvw, bad, cb)
    run = simulate_batch_async(t, rvw, shots, cb)
    with pytest.raises(ValueError, match="not all final"):
        run.partial(0, 5)
    run.result()
    assert run.finished() == 4
    np.testing.assert_array_equal(run.partial(1, 3).ev_t, run.result().ev_t[1:3])


def test_overlap_flag_matches_the_platform():
    import platform

    assert overlap_supported() == (platform.machine().lower() in ("x86_64", "amd64", "i386", "i686", "x86"))


def _child_run(q):
    t, rvw, shots, cb = _batch_inputs(seed=5, B=3)
    q.put(_digest(simulate_batch_async(t, rvw, shots, cb).result()))


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_worker_thread_is_restarted_in_a_forked_child():
    """The process's worker thread does not survive fork: a child starts its own."""
    import multiprocessing as mp

    t, rvw, shots, cb = _batch_inputs(seed=5, B=3)
    ref = _digest(simulate_batch_async(t, rvw, shots, cb).result())  # the parent's worker exists
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child_run, args=(q,))
    p.start()
    got = q.get(timeout=60)
    p.join(timeout=60)
    assert p.exitcode == 0 and got == ref


def test_each_calling_thread_has_its_own_worker_and_ended_callers_are_retired():
    """Batches submitted from different threads run on different workers (they may run at
    once); the workers of callers that have ended are stopped."""
    import threading

    from physics.stream import _Worker

    t, rvw, shots, cb = _batch_inputs(seed=8, B=4)
    ref = _digest(physics.simulate_batch(t, rvw, shots, cb, parallel=False))
    got, workers = [], []
    both = threading.Barrier(2)

    def caller():
        both.wait()  # both callers alive at once: two distinct threads
        workers.append(_Worker.get())
        got.append(_digest(simulate_batch_async(t, rvw, shots, cb).result()))
        both.wait()

    th = [threading.Thread(target=caller) for _ in range(2)]
    for x in th:
        x.start()
    for x in th:
        x.join()
    assert got == [ref, ref]
    assert workers[0] is not workers[1]
    with _Worker._lock:
        _Worker._retire_ended()
    for w in workers:
        w._thread.join(timeout=10)
        assert not w._thread.is_alive()
    assert _digest(simulate_batch_async(t, rvw, shots, cb).result()) == ref  # this thread's worker
