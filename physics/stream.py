"""Streaming batch simulation: :func:`simulate_batch_async` runs ONE batched kernel call on a
worker thread and lets the caller consume finished tables while later ones are simulated.

The kernel (``physics.kernel.serial_kernel``) is compiled ``nogil``: while it runs, the
calling thread keeps the GIL and can do Python work on the tables already finished (a rules
referee, observation building). On a machine with two cores the batch then costs about
max(physics, consumer) instead of their sum. Results are bit-identical to
:func:`physics.simulate_batch` (same validation, same per-table kernel, same inputs): every
table is simulated on its own, whatever the batch or how it is consumed.

Visibility of results: the kernel stores table k's outputs, then ``progress[0] = k + 1``.
Compiled code keeps stores to possibly aliasing arrays in program order, and on a
total-store-order CPU (x86-64) another thread that reads ``progress[0] >= k + 1`` then reads
table k's final outputs. On other CPUs (weaker memory order) :func:`overlap_supported` is
False and :meth:`BatchRun.wait` reports tables only once the whole batch is done (the
batch's end is signalled through a lock, which orders memory); the results are the same,
only the overlap is lost.

Usage::

    run = simulate_batch_async(table, rvw, shots, cue_ball, s=s)
    done = 0
    while done < len(run):
        ready = run.wait(done + 1)          # blocks (GIL released) until a table is ready
        part = run.partial(done, ready)     # BatchResult view of tables [done, ready)
        ...
        done = ready
    batch = run.result()                    # waits for the batch; the whole BatchResult
"""

from __future__ import annotations

import functools
import math
import os
import platform
import queue
import threading
import time

import numpy as np
from numba import njit

from physics.kernel import simulate_table
from physics.noise import ExecutionNoise
from physics.params import BallParams, CueParams
from physics.simulate import BatchResult, _geometry, _max_iter, _prepare, grow_logs, needs_air3d
from physics.table import Table

#: CPUs whose memory order makes `progress` safe to read while the kernel runs
_TSO_MACHINES = frozenset({"x86_64", "amd64", "i386", "i686", "x86"})


def overlap_supported() -> bool:
    """True when finished tables can be read while the kernel still runs (x86 memory order)."""
    return platform.machine().lower() in _TSO_MACHINES


@functools.cache
def _clear_and_simulate(bb_model: int, cu_model: int, air3d: bool = True):
    """`physics.kernel.serial_kernel` (one model pair, fixed at compile time; the same loop
    over the tables, ``progress`` as there) on outputs first given the initial contents of
    `physics.simulate._outputs` (pocket -1, the rest 0): the event log of 256 tables is
    megabytes, zeroed here on the worker; one compiled call, so the worker never needs the
    GIL between the two. Called without the two model arguments; ``air3d`` as there."""
    bb_model, cu_model, air3d = int(bb_model), int(cu_model), bool(air3d)

    @njit(cache=True, no_cfunc_wrapper=True, nogil=True)
    def clear_and_simulate(rvw, s, pocket, cue, P, segs, normals, jaws, pockets, cushion_h, drop,
                           ev_t, ev_kind, ev_i, ev_j, n_events, status, max_iter, t_final,
                           progress):
        pocket[...] = -1
        ev_t[...] = 0.0
        ev_kind[...] = 0
        ev_i[...] = 0
        ev_j[...] = 0
        n_events[...] = 0
        status[...] = 0
        for k in range(rvw.shape[0]):
            ne, st = simulate_table(rvw[k], s[k], pocket[k], cue[k], P, bb_model, cu_model, air3d,
                                    segs, normals, jaws, pockets, cushion_h, drop, ev_t[k],
                                    ev_kind[k], ev_i[k], ev_j[k], max_iter, t_final)
            n_events[k] = ne
            status[k] = st
            progress[0] = k + 1

    return clear_and_simulate


def _empty_outputs(B, N, max_events):
    """Uninitialised arrays shaped like `physics.simulate._outputs` (see `_clear_and_simulate`)."""
    return (np.empty((B, N), np.int8), np.empty((B, max_events)), np.empty((B, max_events), np.int8),
            np.empty((B, max_events), np.int16), np.empty((B, max_events), np.int16), np.empty(B, np.int64),
            np.empty(B, np.int64))


class _Worker:
    """A physics worker thread: runs the jobs submitted to it one after the other.

    Each calling thread has its own worker (batches of one caller run in order, batches of
    different callers may run at once, as with a thread per batch), started on its first
    batch -- no import-time thread -- and again in a forked child (threads do not survive
    ``fork``); the workers of callers that have ended are stopped when a new one starts.
    :meth:`submit` returns once the job runs on the worker, so the worker never waits for
    the GIL behind a busy caller (it is handed over once, as by ``Thread.start``), and no
    thread is created per batch."""

    _by_caller: "dict[int, _Worker]" = {}
    _pid = -1
    _lock = threading.Lock()

    def __init__(self):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._loop, name="physics-batch", daemon=True)
        self._thread.start()

    def _loop(self):
        while True:
            job, started = self._jobs.get()
            if job is None:
                return
            started.set()
            job()

    @classmethod
    def get(cls) -> "_Worker":
        """The calling thread's worker."""
        me = threading.current_thread().ident  # (registers a thread Python did not start)
        with cls._lock:
            if cls._pid != os.getpid():  # first use, or a forked child: the threads are gone
                cls._by_caller, cls._pid = {}, os.getpid()
            w = cls._by_caller.get(me)
            if w is None or not w._thread.is_alive():
                cls._retire_ended()
                w = cls._by_caller[me] = cls()
            return w

    @classmethod
    def _retire_ended(cls) -> None:
        """Stop the workers whose calling threads have ended (caller holds ``_lock``)."""
        alive = {th.ident for th in threading.enumerate()}
        for ident in [i for i in cls._by_caller if i not in alive]:
            cls._by_caller.pop(ident)._jobs.put((None, None))

    def submit(self, job) -> None:
        started = threading.Event()
        self._jobs.put((job, started))
        while not started.wait(1.0):
            if not self._thread.is_alive():
                raise RuntimeError("the physics worker thread has stopped")


class BatchRun:
    """A batch being simulated on a worker thread (see module docstring). ``len(run)`` = B.

    Attributes after :meth:`result`: ``kernel_cpu`` (s), the worker thread's CPU time inside
    the kernel (the physics' own cost, excluding waits for the GIL)."""

    def __init__(self, prep, out, P, bb, cu, geo, max_iter, t_final, overlap: bool, grow=None,
                 air3d: bool = True):
        rvw0, s0, rvw, s, shots, cue_ball = prep
        self._grow = grow
        self._prep = prep
        self._out = out
        self._progress = np.zeros(1, np.int64)
        self._overlap = bool(overlap)
        self._error: BaseException | None = None
        self._finished = threading.Event()
        self.kernel_cpu = 0.0
        pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status = out
        args = (rvw, s, pocket, cue_ball, P, *geo, ev_t, ev_kind, ev_i, ev_j, n_events, status,
                max_iter, t_final, self._progress)
        kernel = _clear_and_simulate(bb, cu, air3d)

        def work():
            try:
                t0 = time.thread_time()
                kernel(*args)
                self.kernel_cpu = time.thread_time() - t0
            except BaseException as exc:  # re-raised by wait()/result() in the caller
                self._error = exc
            finally:
                self._finished.set()

        _Worker.get().submit(work)

    def __len__(self) -> int:
        return self._prep[2].shape[0]

    def finished(self) -> int:
        """Tables whose results are final now (readable with :meth:`partial`)."""
        if self._finished.is_set():
            self._raise()
            return len(self)
        return int(self._progress[0]) if self._overlap else 0

    def wait(self, k: int, timeout: float | None = None) -> int:
        """Block until at least ``min(k, B)`` tables are final; returns how many are. Polls
        with the GIL released (sleeps of ~20 us) so the kernel is never slowed."""
        k = min(int(k), len(self))
        deadline = None if timeout is None else time.perf_counter() + timeout
        while True:
            n = self.finished()
            if n >= k:
                return n
            if deadline is not None and time.perf_counter() > deadline:
                return n
            if not self._overlap:
                self._finished.wait(None if deadline is None else max(0.0, deadline - time.perf_counter()))
            else:
                time.sleep(2e-5)

    def partial(self, lo: int, hi: int) -> BatchResult:
        """`BatchResult` views of tables [lo, hi) (all must be final)."""
        if not (0 <= lo <= hi <= self.finished()):
            raise ValueError(f"tables [{lo}, {hi}) are not all final ({self.finished()} are)")
        return self._view(slice(lo, hi))

    def result(self) -> BatchResult:
        """Wait for the batch and return the whole `BatchResult` (as `physics.simulate_batch`)."""
        self._finished.wait()
        self._raise()
        return self._view(slice(None))

    def _raise(self):
        if self._error is not None:
            raise self._error

    def _view(self, sl) -> BatchResult:
        rvw0, s0, rvw, s, shots, cue_ball = self._prep
        pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status = self._out
        res = BatchResult(rvw0[sl], s0[sl], rvw[sl], s[sl], pocket[sl], ev_t[sl], ev_kind[sl], ev_i[sl],
                          ev_j[sl], n_events[sl], status[sl], shots[sl], cue_ball[sl])
        return res if self._grow is None else self._grow(res)


def simulate_batch_async(table: Table, rvw, shots, cue_ball, *, s=None,
                         ball_params: BallParams = BallParams(), cue: CueParams = CueParams(),
                         ball_ball="frictional_inelastic", cushion="han_2005",
                         noise: ExecutionNoise | None = None, rng: np.random.Generator | None = None,
                         max_events: int = 2000, t_final: float | None = None,
                         grow_log: bool = False, airborne: bool = False) -> BatchRun:
    """Start :func:`physics.simulate_batch` (same arguments and validation, which happens
    here, before anything runs: bad input raises ``ValueError`` at once) on a worker thread;
    returns a :class:`BatchRun` (see module docstring). ``grow_log``: as in
    `physics.simulate_batch`; the tables of a :meth:`BatchRun.partial` or
    :meth:`BatchRun.result` whose log overflowed are simulated again there, on the calling
    thread (`physics.simulate.grow_logs`)."""
    tf = math.inf if t_final is None else float(t_final)
    if not tf >= 0.0:
        raise ValueError(f"t_final must be >= 0, got {t_final!r}")
    rvw0, s0, rvw, s, shots, cue_ball, bb, cu = _prepare(
        table, rvw, shots, cue_ball, s, ball_params, cue, ball_ball, cushion, noise, rng, max_events,
        airborne)
    B, N = s.shape
    grow = None
    if grow_log:
        def grow(res):
            return grow_logs(res, table, ball_params=ball_params, cue=cue, bb_code=bb, cu_code=cu,
                             t_final=tf, airborne=airborne)
    return BatchRun((rvw0, s0, rvw, s, shots, cue_ball), _empty_outputs(B, N, int(max_events)),
                    ball_params.as_array(), bb, cu, _geometry(table), _max_iter(int(max_events)), tf,
                    overlap_supported(), grow, needs_air3d(s, airborne))
