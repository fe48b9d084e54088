"""Public simulation API: :func:`simulate` (one table) and :func:`simulate_batch` (B tables).

Thin validating Python wrappers around the numba kernel in ``physics.kernel``. The cue strike
(``physics.strike``) and optional execution noise (``physics.noise``) are applied here, in
NumPy, before the kernel; the kernel runs one table per iteration of a ``prange`` loop, so
every table's result is the same bit for bit whatever the batch size or thread count.

Bad input raises ``ValueError`` whose message starts with the offending field name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

import numba
import numpy as np
from numba import njit

from physics.enums import BallBallModel, CushionModel, EventKind
from physics.kernel import parallel_kernel, serial_kernel
from physics.noise import ExecutionNoise
from physics.params import BallParams, CueParams
from physics.motion import AIRBORNE, V_SETTLE
from physics.strike import slate_bounce, strike_one
from physics.table import Table

SHOT_COLUMNS = ("V0", "phi", "theta", "a", "b")


@dataclass(frozen=True)
class Shot:
    """One cue strike: V0 cue-stick speed (m/s), phi aim (deg CCW from +x), theta cue
    elevation (deg), a/b tip offsets (fractions of R; a > 0 left, b > 0 top), cue ball row."""

    V0: float
    phi: float
    theta: float = 0.0
    a: float = 0.0
    b: float = 0.0
    cue_ball: int = 0

    def as_array(self) -> np.ndarray:
        return np.array([self.V0, self.phi, self.theta, self.a, self.b], dtype=np.float64)


@dataclass(frozen=True)
class SimResult:
    """Outcome of one table (see CONTRACT.md). The first ``n_events`` log rows are valid."""

    rvw0: np.ndarray
    s0: np.ndarray
    rvw: np.ndarray
    s: np.ndarray
    pocket: np.ndarray
    ev_t: np.ndarray
    ev_kind: np.ndarray
    ev_i: np.ndarray
    ev_j: np.ndarray
    n_events: int
    status: int
    shot: np.ndarray
    cue_ball: int

    @classmethod
    def _of(cls, *values) -> "SimResult":
        """``SimResult(*values)`` without the frozen dataclass's ``object.__setattr__`` per
        field (2 us, a tenth of a mid-game shot's ``simulate`` call): the same object."""
        obj = object.__new__(cls)
        obj.__dict__.update(zip(_SIM_FIELDS, values))
        return obj

    def events(self) -> list[tuple[float, EventKind, int, int]]:
        n = self.n_events
        return [(float(self.ev_t[k]), EventKind(int(self.ev_kind[k])), int(self.ev_i[k]),
                 int(self.ev_j[k])) for k in range(n)]


_SIM_FIELDS = tuple(SimResult.__dataclass_fields__)


@dataclass(frozen=True)
class BatchResult:
    """Outcomes of B tables: every array of :class:`SimResult` with a leading B axis."""

    rvw0: np.ndarray
    s0: np.ndarray
    rvw: np.ndarray
    s: np.ndarray
    pocket: np.ndarray
    ev_t: np.ndarray
    ev_kind: np.ndarray
    ev_i: np.ndarray
    ev_j: np.ndarray
    n_events: np.ndarray
    status: np.ndarray
    shot: np.ndarray
    cue_ball: np.ndarray

    def __len__(self) -> int:
        return self.rvw.shape[0]

    def __getitem__(self, k: int) -> SimResult:
        return SimResult._of(self.rvw0[k], self.s0[k], self.rvw[k], self.s[k], self.pocket[k],
                         self.ev_t[k], self.ev_kind[k], self.ev_i[k], self.ev_j[k],
                         int(self.n_events[k]), int(self.status[k]), self.shot[k],
                         int(self.cue_ball[k]))

    def __iter__(self) -> Iterator[SimResult]:
        for k in range(len(self)):
            yield self[k]


# ----------------------------------------------------------------------------------------
# validation helpers
# ----------------------------------------------------------------------------------------
@njit(cache=True, no_cfunc_wrapper=True)
def _layout_problem(rvw, s, R, segs, normals, jaws, pockets, w, l, cw):
    """(code, table, ball, other): 0 ok, 1 off the bed, 2 overlap.

    Each exact test (segment band, jaw / pocket / ball distance) is preceded by a cheaper one
    that only skips pairs the exact test would pass (the signed distance to a cushion line
    before the projection's division; coordinate gaps before a hypot), so the verdict is
    the exact test's: a batch of 256 tables is checked in about a third of the time."""
    B, N = s.shape
    tol = 1e-9
    for k in range(B):
        for i in range(N):
            if s[k, i] >= 4:  # POCKETED, AIRBORNE (a t_final state), OFF_TABLE: not on the bed
                continue
            x, y = rvw[k, i, 0, 0], rvw[k, i, 0, 1]
            if not (-cw < x < w + cw and -cw < y < l + cw):
                return 1, k, i, -1
            for q in range(segs.shape[0]):
                p1x, p1y = segs[q, 0, 0], segs[q, 0, 1]
                dist = (x - p1x) * normals[q, 0] + (y - p1y) * normals[q, 1]
                if not dist < R - tol:
                    continue
                dx, dy = segs[q, 1, 0] - p1x, segs[q, 1, 1] - p1y
                u = ((x - p1x) * dx + (y - p1y) * dy) / (dx * dx + dy * dy)
                if 0.0 <= u <= 1.0:
                    return 1, k, i, -1
            for q in range(jaws.shape[0]):
                lim = R + jaws[q, 2] - tol
                ex, ey = x - jaws[q, 0], y - jaws[q, 1]
                if abs(ex) >= lim or abs(ey) >= lim:
                    continue  # hypot(ex, ey) >= max(|ex|, |ey|) >= lim
                if math.hypot(ex, ey) < lim:
                    return 1, k, i, -1
            for q in range(pockets.shape[0]):
                ex, ey = x - pockets[q, 0], y - pockets[q, 1]
                if abs(ex) > pockets[q, 2] or abs(ey) > pockets[q, 2]:
                    continue
                if math.hypot(ex, ey) <= pockets[q, 2]:
                    return 1, k, i, -1
            d2 = 2.0 * R - tol
            for j in range(i + 1, N):
                if s[k, j] >= 4:
                    continue
                ex, ey = x - rvw[k, j, 0, 0], y - rvw[k, j, 0, 1]
                if abs(ex) >= d2 or abs(ey) >= d2:
                    continue
                if math.hypot(ex, ey) < d2:
                    return 2, k, i, j
    return 0, -1, -1, -1


_CODES = {BallBallModel: {m.value: m.code for m in BallBallModel},
          CushionModel: {m.value: m.code for m in CushionModel}}


def _model_code(value, enum, field):
    if isinstance(value, str):  # fast path (str-valued enum members are str too)
        code = _CODES[enum].get(str.__str__(value) if not isinstance(value, enum) else value.value)
        if code is not None:
            return code
    try:
        return enum(value).code
    except ValueError:
        names = [m.value for m in enum]
        raise ValueError(f"{field} must be one of {names}, got {value!r}") from None


def _prepare(table, rvw, shots, cue_ball, s, ball_params, cue, ball_ball, cushion, noise, rng,
             max_events, airborne=False):
    if not isinstance(table, Table):
        raise ValueError("table must be a physics.Table")
    if not isinstance(ball_params, BallParams):
        raise ValueError("ball_params must be a physics.BallParams")
    if not isinstance(cue, CueParams):
        raise ValueError("cue must be a physics.CueParams")
    bb_code = _model_code(ball_ball, BallBallModel, "ball_ball")
    cu_code = _model_code(cushion, CushionModel, "cushion")
    if isinstance(max_events, bool) or not isinstance(max_events, (int, np.integer)) or max_events < 1:
        raise ValueError(f"max_events must be a positive int, got {max_events!r}")
    if not isinstance(airborne, (bool, np.bool_)):
        raise ValueError(f"airborne must be a bool, got {airborne!r}")

    rvw = np.array(rvw, dtype=np.float64, copy=True)
    if rvw.ndim != 4 or rvw.shape[2:] != (3, 3) or rvw.shape[1] < 1:
        raise ValueError(f"rvw must have shape (B, N, 3, 3), got {rvw.shape}")
    B, N = rvw.shape[:2]
    if N > 32767:
        raise ValueError("rvw: too many balls")
    shots = np.array(shots, dtype=np.float64, copy=True)
    if shots.shape != (B, 5):
        raise ValueError(f"shots must have shape ({B}, 5), got {shots.shape}")
    cue_ball = np.asarray(cue_ball)
    if cue_ball.shape != (B,) or cue_ball.dtype.kind not in "iu":
        raise ValueError(f"cue_ball must be an int array of shape ({B},)")
    cue_ball = cue_ball.astype(np.int64)
    if s is None:
        s = np.zeros((B, N), dtype=np.int8)
    else:
        s = np.asarray(s)
        if s.shape == (N,):
            s = np.broadcast_to(s, (B, N))
        if s.shape != (B, N):
            raise ValueError(f"s must have shape ({B}, {N}) or ({N},), got {s.shape}")
        if s.dtype.kind not in "iu":
            raise ValueError("s must be an integer array of Motion codes")
        s = np.array(s, dtype=np.int8, copy=True)
    if noise is not None:
        if not isinstance(noise, ExecutionNoise):
            raise ValueError("noise must be a physics.ExecutionNoise or None")
        if rng is None:
            raise ValueError("rng: a numpy.random.Generator is required when noise is given")
        shots = noise.apply(shots, rng, miscue_limit=cue.miscue_limit)

    rvw0 = np.empty_like(rvw)
    s0 = np.empty_like(s)
    code, k, i, j = _check_and_strike(*_check_args(table, rvw, s, shots, cue_ball, ball_params, cue),
                                      rvw0, s0, *_strike_params(ball_params, cue, airborne))
    if code:
        raise ValueError(_ERRORS[code].format(k=k, i=i, j=j, col=SHOT_COLUMNS[j] if 0 <= j < len(SHOT_COLUMNS) else j,
                                              lim=cue.miscue_limit))
    return rvw0, s0, rvw, s, shots, cue_ball, bb_code, cu_code


_ERRORS = {
    1: "rvw: ball {i} (table {k}) is off the bed (outside the cushions or in a pocket)",
    2: "rvw: balls {i} and {j} (table {k}) overlap",
    3: "rvw contains NaN or inf (table {k}, ball {i})",
    4: "rvw: balls must be at rest (ball {i}, table {k} has velocity or spin)",
    5: "s: balls must be STATIONARY (0), POCKETED (4) or OFF_TABLE (6) before a shot (ball {i}, "
       "table {k})",
    6: "cue_ball must index a ball row (table {k})",
    7: "cue_ball: the cue ball is POCKETED or OFF_TABLE (table {k})",
    8: "shot.{col} is NaN or inf (table {k})",
    9: "shot.V0 must be in [0, 50] m/s (table {k})",
    10: "shot.theta must be in [0, 90] degrees (table {k})",
    11: "shot.a/shot.b: tip offset sqrt(a^2+b^2) exceeds the miscue limit {lim} (fraction of R) "
        "(table {k})",
}


def _check_args(table, rvw, s, shots, cue_ball, ball_params, cue):
    """The arguments of :func:`_check_inputs` (the first ones of :func:`_check_and_strike`)."""
    return (rvw, s, shots, cue_ball, ball_params.R, cue.miscue_limit, table.segments, table.segment_normals,
            table.jaws, table.pockets, table.w, table.l, table.specs.cushion_width)


def _strike_params(ball_params, cue, airborne):
    """The parameters of the stroke in :func:`_check_and_strike` after rvw0, s0."""
    return (ball_params.m, cue.M, cue.squirt, cue.end_mass, bool(airborne), ball_params.e_t, ball_params.u_s)


@njit(cache=True, no_cfunc_wrapper=True)
def _check_inputs(rvw, s, shots, cue_ball, R, miscue, segs, normals, jaws, pockets, w, l, cw):
    """(code, table, i, j): 0 if the inputs are valid, else an ``_ERRORS`` key."""
    B, N = s.shape
    for k in range(B):
        for c in range(5):
            if not math.isfinite(shots[k, c]):
                return 8, k, -1, c
        if not (0.0 <= shots[k, 0] <= 50.0):
            return 9, k, -1, -1
        if not (0.0 <= shots[k, 2] <= 90.0):
            return 10, k, -1, -1
        if math.hypot(shots[k, 3], shots[k, 4]) > miscue:
            return 11, k, -1, -1
        cb = cue_ball[k]
        if cb < 0 or cb >= N:
            return 6, k, -1, -1
        for i in range(N):
            if s[k, i] != 0 and s[k, i] != 4 and s[k, i] != 6:
                return 5, k, i, -1
            for a in range(3):
                for c in range(3):
                    if not math.isfinite(rvw[k, i, a, c]):
                        return 3, k, i, -1
            if s[k, i] == 4 or s[k, i] == 6:
                continue
            for a in range(1, 3):
                for c in range(3):
                    if rvw[k, i, a, c] != 0.0:
                        return 4, k, i, -1
            rvw[k, i, 0, 2] = R
        if s[k, cb] == 4 or s[k, cb] == 6:
            return 7, k, -1, -1
    code, k, i, j = _layout_problem(rvw, s, R, segs, normals, jaws, pockets, w, l, cw)
    return code, k, i, j


@njit(cache=True, no_cfunc_wrapper=True)
def _check_and_strike(rvw, s, shots, cue_ball, R, miscue, segs, normals, jaws, pockets, w, l, cw,
                      rvw0, s0, m, M, squirt, end_mass, airborne, e_t, u_s):
    """Validate (see :func:`_check_inputs`); if valid, keep the initial state in rvw0/s0 and
    apply the cue strike to rvw/s. One compiled call keeps the per-shot overhead low."""
    code, k, i, j = _check_inputs(rvw, s, shots, cue_ball, R, miscue, segs, normals, jaws,
                                  pockets, w, l, cw)
    if code == 0:
        # element loops: a whole-array copy would compile numba's shape-mismatch error
        # formatting (string machinery, seconds of a cold start) for a case that cannot occur
        for kk in range(rvw.shape[0]):
            for b in range(rvw.shape[1]):
                s0[kk, b] = s[kk, b]
                for a in range(3):
                    for c in range(3):
                        rvw0[kk, b, a, c] = rvw[kk, b, a, c]
        _apply_strike(rvw, s, shots, cue_ball, m, R, M, squirt, end_mass, airborne, e_t, u_s)
    return code, k, i, j


@njit(cache=True, no_cfunc_wrapper=True)
def _apply_strike(rvw, s, shots, cue_ball, m, R, M, squirt, end_mass, airborne, e_t, u_s):
    """Set the cue ball's post-strike velocity and spin (``physics.strike`` formula); with
    ``airborne`` an elevated stroke also bounces the ball off the slate and may make it jump
    (``physics.strike.slate_bounce``)."""
    for k in range(shots.shape[0]):
        V0 = shots[k, 0]
        if V0 <= 0.0:
            continue
        vel, w = strike_one(V0, shots[k, 1], shots[k, 2], shots[k, 3], shots[k, 4], m, R, M,
                            squirt, end_mass)
        cb = cue_ball[k]
        for c in range(3):
            rvw[k, cb, 1, c] = vel[c]
            rvw[k, cb, 2, c] = w[c]
        s[k, cb] = 2
        if airborne and shots[k, 2] > 0.0:
            if slate_bounce(rvw[k, cb], V0, shots[k, 2], shots[k, 3], shots[k, 4], m, R, M,
                            e_t, u_s, V_SETTLE):
                s[k, cb] = 5


def _outputs(B, N, max_events):
    """Kernel output arrays for B tables of N balls: pocket, ev_t, ev_kind, ev_i, ev_j,
    n_events, status (zeroed, but pocket, which the kernel fills)."""
    # pocket: the kernel sets every row to -1 before anything else
    return (np.empty((B, N), dtype=np.int8), np.zeros((B, max_events)),
            np.zeros((B, max_events), dtype=np.int8), np.zeros((B, max_events), dtype=np.int16),
            np.zeros((B, max_events), dtype=np.int16), np.zeros(B, dtype=np.int64),
            np.zeros(B, dtype=np.int64))


def _geometry(table):
    return (table.segments, table.segment_normals, table.jaws, table.pockets,
            float(table.cushion_height), float(table.specs.pocket_drop))


def _max_iter(max_events):
    return max(20 * max_events, 10000)


def needs_air3d(s, airborne: bool = True) -> bool:
    """Whether post-strike states ``s`` need the kernel's three-dimensional code: a ball is
    AIRBORNE (a jump stroke; never without the ``airborne`` model, which is not then looked
    for). Only a ball in the air puts another in the air, so tables without one run the flat
    table loop (``air3d=False`` in `physics.kernel.serial_kernel`) with the same results, and
    a session that never jumps a ball never compiles the 3D code."""
    return bool(airborne) and bool((s == AIRBORNE).any())


def _run(table, rvw, s, shots, cue_ball, P, bb_code, cu_code, max_events, parallel, t_final,
         air3d):
    B, N = s.shape
    pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status = _outputs(B, N, max_events)
    max_iter = _max_iter(max_events)
    geo = _geometry(table)
    if parallel and B > 1:
        # shots differ wildly in length: hand tables out one at a time (dynamic schedule)
        old = numba.set_parallel_chunksize(1)
        try:
            parallel_kernel(bb_code, cu_code, air3d)(rvw, s, pocket, cue_ball, P, *geo, ev_t,
                                                     ev_kind, ev_i, ev_j, n_events, status,
                                                     max_iter, t_final)
        finally:
            numba.set_parallel_chunksize(old)
    else:
        # one compiled loop over the tables (no per-table dispatch)
        serial_kernel(bb_code, cu_code, air3d)(rvw, s, pocket, cue_ball, P, *geo, ev_t, ev_kind,
                                               ev_i, ev_j, n_events, status, max_iter, t_final,
                                               np.zeros(1, np.int64))
    return pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status


def grow_logs(res: BatchResult, table: Table, *, ball_params: BallParams = BallParams(),
              cue: CueParams = CueParams(), bb_code: int, cu_code: int,
              t_final: float = math.inf, airborne: bool = False) -> BatchResult:
    """``res`` with every EVENT_LOG_OVERFLOW table simulated again with a log that holds all
    its events; the same simulation bit for bit (the same post-strike state, kernel and
    iteration cap ``_max_iter(E)`` of the log size E it ran with), so only the log differs.
    The event arrays of the batch are widened to the longest log (zero-padded, as unused
    rows always are); the status of those tables becomes OK. ``res`` itself is unchanged;
    with no overflow it is returned as it is.

    Every kernel iteration logs one event and there are at most ``_max_iter(E)`` of them,
    so a log of ``_max_iter(E) + 1`` rows always suffices (one re-run per table)."""
    over = np.flatnonzero(res.status == 1)
    if over.size == 0:
        return res
    E = res.ev_t.shape[1]
    max_iter = _max_iter(E)
    rvw = np.array(res.rvw0[over], dtype=np.float64)
    s = np.array(res.s0[over], dtype=np.int8)
    shots = np.ascontiguousarray(res.shot[over], dtype=np.float64)
    cb = np.ascontiguousarray(res.cue_ball[over], dtype=np.int64)
    _apply_strike(rvw, s, shots, cb, ball_params.m, ball_params.R, cue.M, cue.squirt, cue.end_mass,
                  bool(airborne), ball_params.e_t, ball_params.u_s)
    pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status = _outputs(over.size, s.shape[1], max_iter + 1)
    kernel = serial_kernel(bb_code, cu_code, needs_air3d(s, airborne))
    kernel(rvw, s, pocket, cb, ball_params.kernel_array, *_geometry(table), ev_t, ev_kind, ev_i, ev_j,
           n_events, status, max_iter, t_final, np.zeros(1, np.int64))
    E2 = max(E, int(n_events.max()))
    B = res.ev_t.shape[0]
    wide = []
    for old, new in ((res.ev_t, ev_t), (res.ev_kind, ev_kind), (res.ev_i, ev_i), (res.ev_j, ev_j)):
        arr = np.zeros((B, E2), dtype=old.dtype)
        arr[:, :E] = old
        arr[over] = new[:, :E2]
        wide.append(arr)
    out = [np.array(a) for a in (res.rvw, res.s, res.pocket, res.n_events, res.status)]
    for dst, src in zip(out, (rvw, s, pocket, n_events, status)):
        dst[over] = src
    r_rvw, r_s, r_pocket, r_n, r_status = out
    return BatchResult(res.rvw0, res.s0, r_rvw, r_s, r_pocket, *wide, r_n, r_status, res.shot,
                       res.cue_ball)


def simulate_batch(table: Table, rvw, shots, cue_ball, *, s=None, ball_params: BallParams = BallParams(),
                   cue: CueParams = CueParams(), ball_ball="frictional_inelastic",
                   cushion="han_2005", noise: ExecutionNoise | None = None,
                   rng: np.random.Generator | None = None, max_events: int = 2000,
                   parallel: bool = True, t_final: float | None = None,
                   grow_log: bool = False, airborne: bool = False) -> BatchResult:
    """Simulate B tables: rvw (B, N, 3, 3), shots (B, 5) [V0 phi theta a b], cue_ball (B,).

    Tables run in parallel (numba ``prange``) unless ``parallel=False``; results do not
    depend on that choice, on B or on the thread count. ``t_final`` (s, optional) stops every
    table at that time and returns the state then (balls may still be moving), e.g. to
    sample trajectories. ``grow_log``: a table whose events do not fit in ``max_events``
    rows is simulated again with a log that holds them all (:func:`grow_logs`), so no
    table ends with EVENT_LOG_OVERFLOW; the event arrays are then wider than
    ``max_events``. Without it such a table's log is truncated and flagged (status 1).
    ``airborne``: the three-dimensional model (jump strokes, balls in the air, off the table;
    see ``physics/CONTRACT.md``); off, the vertical part of the stroke is dropped.
    """
    tf = math.inf if t_final is None else float(t_final)
    if not tf >= 0.0:
        raise ValueError(f"t_final must be >= 0, got {t_final!r}")
    rvw0, s0, rvw, s, shots, cue_ball, bb, cu = _prepare(
        table, rvw, shots, cue_ball, s, ball_params, cue, ball_ball, cushion, noise, rng, max_events,
        airborne)
    out = _run(table, rvw, s, shots, cue_ball, ball_params.kernel_array, bb, cu, int(max_events),
               parallel, tf, needs_air3d(s, airborne))
    pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status = out
    res = BatchResult(rvw0, s0, rvw, s, pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status,
                      shots, cue_ball)
    if grow_log:
        res = grow_logs(res, table, ball_params=ball_params, cue=cue, bb_code=bb, cu_code=cu,
                        t_final=tf, airborne=airborne)
    return res


def _one_table(rvw, shot, s) -> tuple:
    """(rvw (N, 3, 3) float64, shot row (5,), cue ball, s as (1, N) or None) of one table's
    `simulate` arguments, checked (ValueError)."""
    if isinstance(shot, Shot):
        arr, cb = shot.as_array(), shot.cue_ball
    else:
        arr = np.asarray(shot, dtype=np.float64)
        if arr.shape != (5,):
            raise ValueError(f"shot must be a physics.Shot or a (5,) array, got shape {arr.shape}")
        cb = 0
    if isinstance(cb, bool) or not isinstance(cb, (int, np.integer)):
        raise ValueError("shot.cue_ball must be an int")
    rvw = np.asarray(rvw, dtype=np.float64)
    if rvw.ndim != 3:
        raise ValueError(f"rvw must have shape (N, 3, 3), got {rvw.shape}")
    if s is not None:
        s = np.asarray(s)
        if s.ndim != 1:
            raise ValueError(f"s must have shape (N,), got {s.shape}")
        s = s[None]
    return rvw, arr, cb, s


def states_at(table: Table, rvw, shot, times, *, ball_params: BallParams = BallParams(),
              cue: CueParams = CueParams(), ball_ball="frictional_inelastic", cushion="han_2005",
              max_events: int = 2000, s=None, airborne: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(rvw (T, N, 3, 3), s (T, N) int8): the table's balls at each of the T ``times`` (s) of one
    shot, row t exactly ``simulate(table, rvw, shot, t_final=times[t], ...)``'s ``rvw`` and
    ``s`` (the same arguments otherwise; no execution noise): the inputs checked and the cue
    struck once, then the kernel run from the struck state to each time."""
    rvw, arr, cb, s = _one_table(rvw, shot, s)
    tfs = [float(t) for t in times]
    if not all(t >= 0.0 for t in tfs):
        raise ValueError(f"times must be >= 0, got {times!r}")
    _, _, rvw1, s1, shots, cue_ball, bb, cu = _prepare(
        table, rvw[None], arr[None], np.array([cb]), s, ball_params, cue, ball_ball, cushion, None, None,
        max_events, airborne)
    air3d = needs_air3d(s1, airborne)
    out_rvw = np.empty((len(tfs),) + rvw1.shape[1:])
    out_s = np.empty((len(tfs), s1.shape[1]), np.int8)
    for k, tf in enumerate(tfs):
        r, q = rvw1.copy(), s1.copy()
        _run(table, r, q, shots, cue_ball, ball_params.kernel_array, bb, cu, int(max_events), False, tf, air3d)
        out_rvw[k], out_s[k] = r[0], q[0]
    return out_rvw, out_s


def simulate(table: Table, rvw, shot, *, ball_params: BallParams = BallParams(),
             cue: CueParams = CueParams(), ball_ball="frictional_inelastic", cushion="han_2005",
             noise: ExecutionNoise | None = None, rng: np.random.Generator | None = None,
             max_events: int = 2000, s=None, t_final: float | None = None,
             grow_log: bool = False, airborne: bool = False) -> SimResult:
    """Simulate one shot on one table. rvw (N, 3, 3) balls at rest; shot a :class:`Shot`
    (or a length-5 array [V0 phi theta a b] with the cue ball in row 0). ``grow_log``: as
    in :func:`simulate_batch` (the log then holds every event, whatever ``max_events``).
    ``airborne``: the three-dimensional model, as in :func:`simulate_batch`."""
    rvw, arr, cb, s = _one_table(rvw, shot, s)
    tf = math.inf if t_final is None else float(t_final)
    if not tf >= 0.0:
        raise ValueError(f"t_final must be >= 0, got {t_final!r}")
    rvw0, s0, rvw, s, shots, cue_ball, bb, cu = _prepare(
        table, rvw[None], arr[None], np.array([cb]), s, ball_params, cue, ball_ball, cushion,
        noise, rng, max_events, airborne)
    out = _run(table, rvw, s, shots, cue_ball, ball_params.kernel_array, bb, cu, int(max_events),
               False, tf, needs_air3d(s, airborne))
    pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status = out
    if grow_log and status[0] == 1:
        b = grow_logs(BatchResult(rvw0, s0, rvw, s, pocket, ev_t, ev_kind, ev_i, ev_j, n_events,
                                  status, shots, cue_ball), table, ball_params=ball_params,
                      cue=cue, bb_code=bb, cu_code=cu, t_final=tf, airborne=airborne)
        return b[0]
    return SimResult._of(rvw0[0], s0[0], rvw[0], s[0], pocket[0], ev_t[0], ev_kind[0], ev_i[0],
                     ev_j[0], int(n_events[0]), int(status[0]), shots[0], int(cue_ball[0]))
