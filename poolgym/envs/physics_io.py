"""The envs' bridge to `physics`: game state -> physics arrays, one batched call -> shot records.

Everything that crosses into the numba kernels goes through here, so the single env and the
native vector env build identical inputs (and get bit-identical outputs, physics/CONTRACT.md:
"same inputs -> bit-identical outputs, whatever the batch size").
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from enum import Enum

import numpy as np

from poolgym.planning import BALL_RADIUS
from poolgym.rules.shot_record import ShotRecord


class NoiseMode(str, Enum):
    """Execution noise presets for the ``noise`` env argument."""

    NONE = "none"
    ICGA = "icga"


def make_noise(noise):
    """``None``/"none" -> None; "icga" -> `physics.ExecutionNoise.icga()`; an
    `ExecutionNoise` (or anything with ``apply(shots, rng)``) is used as given; a mapping is
    passed to `physics.ExecutionNoise(**mapping)`."""
    import physics

    if noise is None:
        return None
    if isinstance(noise, str):
        mode = NoiseMode(noise)
        return None if mode is NoiseMode.NONE else physics.ExecutionNoise.icga()
    if isinstance(noise, dict):
        return physics.ExecutionNoise(**noise)
    if hasattr(noise, "apply"):
        return noise
    raise ValueError(f"noise must be 'none', 'icga', a dict of sigmas or an ExecutionNoise, got {noise!r}")


@dataclass
class PhysicsModels:
    """Model choice and parameters passed to every simulate call (names as physics)."""

    ball_ball: str = "frictional_inelastic"
    cushion: str = "han_2005"
    ball_params: object = None  # physics.BallParams; None = defaults
    cue: object = None  # physics.CueParams; None = defaults
    #: initial event-log rows per table; a shot with more events is simulated again with a
    #: log that holds them all (`physics.simulate_batch(grow_log=True)`), so the referee
    #: never reads a truncated log
    max_events: int = 2000
    #: run batches on numba threads (`simulate_batch(parallel=True)`, same results). Off by
    #: default: on the shared 2-core machine (load average 3-8) two threads were never faster
    #: (re-timed 16:15 UTC, N=256 self-play: physics 0.15 s parallel vs 0.10 s serial);
    #: benchmarks/bench_envs.py --parallel compares.
    parallel: bool = False
    #: batches of at least `OVERLAP_MIN_BATCH` tables (the native vector env) run the physics
    #: kernel on a worker thread without the GIL (`physics.stream.simulate_batch_async`) while
    #: the calling thread adjudicates the tables already simulated (`simulate_sessions`): on
    #: two cores a batched step costs about max(physics, referee) instead of their sum. The
    #: results are the same bit for bit either way (each table is simulated and refereed on
    #: its own). Ignored when ``parallel`` is set.
    overlap: bool = True
    #: numba threads of a ``parallel`` batched call (`numba.set_num_threads` around the call,
    #: capped at ``NUMBA_NUM_THREADS``); None = numba's current setting. The env knob
    #: ``num_threads`` (`poolgym.envs.workers`) sets it with ``parallel``.
    num_threads: int | None = None
    #: the three-dimensional model (`physics.simulate(airborne=True)`, physics/CONTRACT.md
    #: "Three dimensions"): elevated strokes jump and masse, balls fly, land, clear a rail and
    #: leave the table (OFF_TABLE, which the referees judge: G-3.27, G-3.28). A level stroke
    #: gives the flat result bit for bit either way; False plays every stroke on the flat engine.
    airborne: bool = True

    def kwargs(self) -> dict:
        kw = dict(ball_ball=self.ball_ball, cushion=self.cushion, max_events=self.max_events,
                  airborne=self.airborne)
        if self.ball_params is not None:
            kw["ball_params"] = self.ball_params
        if self.cue is not None:
            kw["cue"] = self.cue
        return kw


def _lag_row(row) -> bool:
    """The pending job's stroke ``row`` holds both lag strokes (2, 5) (G-3.6)."""
    return (row.ndim if type(row) is np.ndarray else np.ndim(row)) == 2


def shot_rows(rows: list) -> np.ndarray:
    """(B, 5) array of B stroke rows, each a (5,) [V0, phi, theta, a, b] (as ``np.stack``;
    one concatenation, without a view of every row)."""
    return np.concatenate(rows).reshape(len(rows), 5)


#: batches smaller than this run on one thread (`physics.simulate_batch(parallel=False)`)
PARALLEL_MIN_BATCH = 8
#: batches smaller than this are not overlapped (`PhysicsModels.overlap`): handing a batch to
#: the worker thread and polling it cost more than the overlap saves until there is much
#: refereeing to overlap. Nine-ball on a 2-core box, one process, 64 against 8 (alternated,
#: `poolgym.envs.vector.PoolVectorEnv` with the default overlap): with the geometric opponent
#: N=32 +5-11% steps/s and 11-19% less CPU per step (eight-ball, 14.1 and nine-ball alike),
#: N=128 and 256 +2-6%; self-play N=16-64 the same wall with 20% less CPU, N=256 unchanged
#: (its pipelined groups are larger).
OVERLAP_MIN_BATCH = 64
#: the overlapped consumer takes finished tables in chunks of at least this many (each chunk
#: pays one `BatchFacts` kernel call), except for the batch's last tables
OVERLAP_CHUNK = 16


@dataclass
class Timer:
    """Wall-clock split used by the benchmark (seconds): ``physics`` inside
    `physics.simulate_batch`, ``rules`` adjudicating shot records, ``actions`` validating and
    applying actions (cue-ball placement checks, shot inputs, noise), ``other`` the opponent
    choosing its actions, ``obs`` building observations. With `PhysicsModels.overlap`,
    ``physics`` is the kernel's own time (the worker thread's CPU time inside the kernel) and
    ``rules`` runs concurrently with it; ``overlapped`` counts the batches run that way."""

    physics: float = 0.0
    rules: float = 0.0
    actions: float = 0.0
    obs: float = 0.0
    other: float = 0.0
    calls: int = 0
    shots: int = 0
    overlapped: int = 0

    def reset(self):
        self.physics = self.rules = self.actions = self.obs = self.other = 0.0
        self.calls = self.shots = self.overlapped = 0


def _batch_arrays(rvw_list, s_list, shots, models: PhysicsModels, table=None):
    """(rvw (B, N, 3, 3), s (B, N) int8, shots (B, 5), R) ready for the physics: copied (the
    overlap guard works in place; the session logs keep the unseparated inputs) and with
    round-off overlaps separated, without pressing a ball into ``table``'s cushions (one
    compiled call for the batch)."""
    from poolgym.rules.separation import separate_overlaps_batch

    B = len(rvw_list)
    rvw = np.array(rvw_list, np.float64) if isinstance(rvw_list, np.ndarray) else np.stack(rvw_list)
    s = np.asarray(s_list, np.int8) if isinstance(s_list, np.ndarray) else np.stack(s_list).astype(np.int8)
    R = float(models.ball_params.R) if models.ball_params is not None else BALL_RADIUS
    # guard: the rules already separate the <= 0.1 mm overlaps the physics leaves
    # (`poolgym.rules.general.after_shot`); measured at 16:00 UTC on 9,790 tables only a
    # 1.7e-16 m residue reached this point (accepted by the physics)
    separate_overlaps_batch(rvw, s, R, table=table)
    return rvw, s, np.ascontiguousarray(shots, dtype=np.float64).reshape(B, 5)


def _records(res, table, legal, split_eps) -> list[ShotRecord]:
    """`ShotRecord`s of a `physics.BatchResult` carrying the rule facts of its tables
    (`poolgym.rules.shot_facts.BatchFacts`, one compiled pass; the referee's `queries.shot_facts`
    then reads them instead of scanning each record)."""
    from poolgym.rules.shot_facts import BatchFacts

    return ShotRecord.from_batch_all(res, BatchFacts(res, table, legal, split_eps))


@contextlib.contextmanager
def _numba_threads(n: int | None):
    """Run the block with ``n`` numba threads on this thread (restored after); None: as is."""
    if n is None:
        yield
        return
    import numba

    was = numba.get_num_threads()
    numba.set_num_threads(max(1, min(int(n), numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(was)


def simulate_records(table, rvw_list, s_list, shots: np.ndarray, models: PhysicsModels,
                     timer: Timer | None = None, legal=None, split_eps: float = 0.0) -> list[ShotRecord]:
    """Simulate B shots (one per table state) in ONE `physics.simulate_batch` call and return
    their `ShotRecord`s. ``rvw_list``/``s_list``: per-table (N, 3, 3) / (N,) arrays;
    ``shots`` (B, 5) [V0, phi, theta, a, b] (noise already applied). The records carry the
    rule facts of the whole batch (`poolgym.rules.shot_facts.BatchFacts`, one compiled pass), split
    hits resolved for ``legal`` (per table: balls legal to hit first, or None) within
    ``split_eps`` s; the referee uses them whenever they answer its question exactly."""
    import physics

    B = len(rvw_list)
    if B == 0:
        return []
    rvw, s, shots = _batch_arrays(rvw_list, s_list, shots, models, table)
    t0 = time.perf_counter()
    kw = models.kwargs()
    # thread start-up costs more than a few tables (results are the same either way)
    kw["parallel"] = bool(models.parallel and B >= PARALLEL_MIN_BATCH)
    kw["grow_log"] = True  # the referee reads the whole event log: never a truncated one
    args = (table, rvw, shots, np.zeros(B, np.int64))
    with _numba_threads(models.num_threads if kw["parallel"] else None):
        try:
            res = physics.simulate_batch(*args, s=s, **kw)
        except TypeError:  # a physics build without the `parallel` switch (not in CONTRACT.md)
            kw.pop("parallel", None)
            res = physics.simulate_batch(*args, s=s, **kw)
    t1 = time.perf_counter()
    if timer is not None:
        timer.physics += t1 - t0
        timer.calls += 1
        timer.shots += B
    recs = _records(res, table, legal, split_eps)
    if timer is not None:
        timer.rules += time.perf_counter() - t1
    return recs


def _overlapped(table, rvw, s, shots, models: PhysicsModels, timer: Timer | None, legal, split_eps, consume,
                background=None, idle=None):
    """Simulate the batch on a worker thread (`physics.stream.simulate_batch_async`, ONE
    kernel call), run ``background()`` (if given), then call ``consume(lo, records)`` for
    every chunk of tables [lo, lo+len) as soon as it is final, in table order, on this thread
    (see `PhysicsModels.overlap`); ``idle()`` (if given) whenever the next chunk is not final
    yet, before waiting for it."""
    from physics.stream import simulate_batch_async

    B = rvw.shape[0]
    run = simulate_batch_async(table, rvw, shots, np.zeros(B, np.int64), s=s, grow_log=True,
                               **models.kwargs())
    lo = 0
    try:
        if background is not None:
            background()
        while lo < B:
            want = min(B, lo + OVERLAP_CHUNK)
            if idle is not None and run.finished() < want:
                idle()
            hi = run.wait(want)
            t1 = time.perf_counter()
            recs = _records(run.partial(lo, hi), table, None if legal is None else legal[lo:hi], split_eps)
            if timer is not None:
                timer.rules += time.perf_counter() - t1
            consume(lo, recs)
            lo = hi
    finally:
        run.result()  # waits for the whole batch (also when consuming raised)
    if timer is not None:
        timer.physics += run.kernel_cpu
        timer.calls += 1
        timer.shots += B
        timer.overlapped += 1


class Launch:
    """The first physics round of a group of tables, built from their planned states before
    the plans are committed (the native vector env's pipelined step, `PoolVectorEnv`):
    ``states`` the planned states (balls as the shots start), ``rows`` their stroke rows (no
    execution noise to draw), ``legal`` per table the balls legal to hit first (or None), as
    `simulate_sessions` builds them from the sessions' pending jobs. :meth:`start` submits the
    kernel (`physics.stream.simulate_batch_async`); a launch never started changes nothing,
    and one started and never consumed only costs its kernel time."""

    def __init__(self, table, ids: list, states: list, rows: list, legal: list, models: PhysicsModels):
        from poolgym.rules.game import batch_physics_inputs

        rvw_b, s_b = batch_physics_inputs(states)
        self.ids = ids
        self.legal = legal
        self.views = list(zip(rvw_b, s_b))  # per table (rvw, s) as simulated, for the session logs
        self.table = table
        self.models = models
        self.run = None
        self._args = _batch_arrays(rvw_b, s_b, shot_rows(rows), models, table)

    def start(self):
        """The `physics.stream.BatchRun` simulating the group (submitted on the first call)."""
        if self.run is None:
            from physics.stream import simulate_batch_async

            rvw, s, shots = self._args
            self.run = simulate_batch_async(self.table, rvw, shots, np.zeros(rvw.shape[0], np.int64), s=s,
                                            grow_log=True, **self.models.kwargs())
        return self.run


def _consume_launches(launches: list, table, timer: Timer | None, split_eps, consume, background=None, idle=None):
    """`_overlapped` for groups of tables simulated one after the other (`Launch`): the first
    is running, each next one is submitted as soon as the kernel finished the one before (at
    the consumer's next chunk), so the worker thread runs them back to back while this thread
    referees; ``consume(lo, records)`` gets the chunks of all groups in order, ``lo`` counted
    over the groups together; ``idle`` as in `_overlapped`."""
    launches[0].start()
    off = 0
    try:
        if background is not None:
            background()
        for g, L in enumerate(launches):
            run = L.start()
            nxt = launches[g + 1] if g + 1 < len(launches) else None
            B = len(run)
            lo = 0
            while lo < B:
                want = min(B, lo + OVERLAP_CHUNK)
                if idle is not None and run.finished() < want:
                    idle()
                hi = run.wait(want)
                if nxt is not None and nxt.run is None and run.finished() >= B:
                    nxt.start()
                t1 = time.perf_counter()
                recs = _records(run.partial(lo, hi), table, L.legal[lo:hi], split_eps)
                if timer is not None:
                    timer.rules += time.perf_counter() - t1
                consume(off + lo, recs)
                lo = hi
            off += B
    finally:
        for L in launches:
            if L.run is not None:
                L.run.result()  # waits for the batch (also when consuming raised)
    if timer is not None:
        for L in launches:
            if L.run is not None:
                timer.physics += L.run.kernel_cpu
                timer.calls += 1
                timer.shots += len(L.run)
                timer.overlapped += 1


def simulate_lag(table, rvw, rows, models: PhysicsModels, timer: Timer | None = None):
    """The `poolgym.rules.lag.LagRecord` of both lag strokes ``rows`` (2, 5) (noise already
    applied) from the lag balls ``rvw`` (2, 3, 3) (`physics.lag.simulate_lag`)."""
    from physics.lag import simulate_lag as sim
    from poolgym.rules.lag import LagRecord

    t0 = time.perf_counter()
    res = sim(table, np.asarray(rvw)[:, 0, :2], rows, **models.kwargs())
    if timer is not None:
        timer.physics += time.perf_counter() - t0
        timer.calls += 1
        timer.shots += 2
    return LagRecord.from_lag(res)


def simulate_sessions(table, sessions, models: PhysicsModels, timer: Timer | None = None,
                      split_eps: float = 0.0, background=None, resolved=None, launches=None, idle=None) -> None:
    """Simulate the pending shot of every session in ``sessions`` with ONE batched physics
    call and hand each its record (`Session.resolve`). The physics inputs of the tables whose
    job left them to the owner are built together (`poolgym.rules.game.batch_physics_inputs`,
    the same arrays as `physics_inputs` table by table).

    ``background``: optional callable run once while the batch is simulated (with
    `PhysicsModels.overlap`: after the kernel started, before the first record is
    adjudicated; else before the call). It must not touch ``sessions`` (the native vector
    env resets its other tables there). ``resolved(lo, hi)``: optional callable, called
    after ``sessions[lo:hi]`` were resolved (in order, covering them all; with the overlap
    while the kernel simulates later tables): the native vector env finishes those tables'
    steps there. ``launches``: the `Launch` groups already built for ``sessions`` (their
    tables in order; each session's pending job is the plan its group was built from): they
    are simulated and consumed as above, group after group (`_consume_launches`). ``idle()``:
    optional callable, with the overlap called whenever this thread would wait for the kernel
    (the native vector env observes the tables it finished there)."""
    if not sessions:
        if background is not None:
            background()
        return
    from poolgym.envs.session import Session
    from poolgym.rules.game import batch_physics_inputs

    if launches:
        lviews = [v for L in launches for v in L.views]

        def consume_l(lo, recs):
            hi = lo + len(recs)
            Session.resolve_all(sessions[lo:hi], recs, lviews[lo:hi])
            if resolved is not None:
                resolved(lo, hi)

        _consume_launches(launches, table, timer, split_eps, consume_l, background, idle)
        return

    if any(_lag_row(ses.pending[4]) for ses in sessions):
        # G-3.6: a table's two lag strokes are played at once (`simulate_lag`); a round with a
        # lag (the first shot of a match) simulates its tables one by one, in order (each
        # table's result is the same bit for bit as in a batch)
        if background is not None:
            background()
        for k, ses in enumerate(sessions):
            if _lag_row(ses.pending[4]):
                ses.resolve(simulate_lag(table, ses.pending[2], ses.pending[4], models, timer))
            else:
                simulate_sessions(table, [ses], models, timer, split_eps)
            if resolved is not None:
                resolved(k, k + 1)
        return
    jobs = [s.pending for s in sessions]
    build = [k for k, j in enumerate(jobs) if j[2] is None]
    # per table (rvw, s): the lag's own inputs, or built here
    if len(build) == len(jobs):  # the common case: the batch arrays as they are, a view per table
        rvw, s = batch_physics_inputs([ses.state for ses in sessions])
        views = list(zip(rvw, s))
    else:
        views = [(j[2], j[3]) for j in jobs]
        if build:
            rvw_b, s_b = batch_physics_inputs([sessions[k].state for k in build])
            for m, k in enumerate(build):
                views[k] = (rvw_b[m], s_b[m])
        rvw, s = [v[0] for v in views], [v[1] for v in views]
    shots = shot_rows([j[4] for j in jobs])
    legal = [ses.pending_legal for ses in sessions]
    if models.overlap and not models.parallel and len(jobs) >= OVERLAP_MIN_BATCH:
        def consume(lo, recs):
            hi = lo + len(recs)
            Session.resolve_all(sessions[lo:hi], recs, views[lo:hi])
            if resolved is not None:
                resolved(lo, lo + len(recs))

        rvw_a, s_a, shots_a = _batch_arrays(rvw, s, shots, models, table)
        _overlapped(table, rvw_a, s_a, shots_a, models, timer, legal, split_eps, consume, background, idle)
        return
    if background is not None:
        background()
    recs = simulate_records(table, rvw, s, shots, models, timer, legal=legal, split_eps=split_eps)
    Session.resolve_all(sessions, recs, views)
    if resolved is not None:
        resolved(0, len(sessions))
