"""The lag for the break: two balls struck at the same instant on one table.

G-3.6 / GB-5: "they shoot simultaneously, with ball in hand from behind the head string, to
the foot rail and back toward the head rail". :func:`simulate_lag` plays both strokes on ONE
table: each ball gets its post-strike velocity and spin from the same strike model as
:func:`physics.simulate` (``physics.strike``), both at t = 0, and the event kernel then runs
from that state, so the two balls can meet (a ball that crosses the long string may hit the
other one) exactly as any two moving balls do.

The result is a :class:`LagResult`: the two-ball :class:`physics.SimResult` (its log starts
with one STRIKE row per ball at t = 0), the strokes as played (after execution noise), and
the exact extent in x of each ball centre along its whole path (``x_min``, ``x_max``), from
which a referee decides whether a ball crossed into the opponent's half (G-3.6 (a)). The
extent is exact, not sampled: between two consecutive events every ball moves with a
constant planar acceleration (sliding, rolling, ``physics.motion``; no planar acceleration in
flight), so x(t) is a parabola whose extreme lies at an end of the interval or at its vertex;
the state after each event is the same simulation stopped there (``t_final``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from physics.enums import EventKind, Motion
from physics.motion import accel
from physics.noise import ExecutionNoise
from physics.params import BallParams, CueParams
from physics.simulate import SimResult, _max_iter, _prepare, _run, needs_air3d
from physics.table import Table

__all__ = ["LagResult", "simulate_lag"]

_POCKETED = int(Motion.POCKETED)
_AIRBORNE = int(Motion.AIRBORNE)


@dataclass(frozen=True)
class LagResult:
    """Outcome of one simultaneous lag.

    sim: the two-ball :class:`physics.SimResult` (rows 0 and 1 are the two lag balls; its
        ``shot`` / ``cue_ball`` are those of ball 0, ``shots`` has both).
    shots: (2, 5) strokes [V0 phi theta a b] as played (after noise), row k for ball k.
    x_min, x_max: (2,) smallest and largest x of each ball centre along its path (m).
    """

    sim: SimResult
    shots: np.ndarray
    x_min: np.ndarray
    x_max: np.ndarray


def simulate_lag(table: Table, xy, shots, *, ball_params: BallParams = BallParams(),
                 cue: CueParams = CueParams(), ball_ball="frictional_inelastic",
                 cushion="han_2005", noise: ExecutionNoise | None = None,
                 rng: np.random.Generator | None = None, max_events: int = 2000,
                 airborne: bool = False) -> LagResult:
    """Simulate two lag strokes played at once: ``xy`` (2, 2) the two ball centres at rest,
    ``shots`` (2, 5) [V0 phi theta a b] the stroke on ball 0 and on ball 1. ``noise`` (with
    ``rng``) perturbs both strokes, ball 0's first. The event log always holds every event
    (a log that overflows ``max_events`` is simulated again with room for all of them).
    ``airborne``: the three-dimensional model, as in :func:`physics.simulate` (an elevated
    stroke may make its ball jump, G-3.6 (d)). Bad input raises ``ValueError`` naming the field, as :func:`physics.simulate` does."""
    xy = np.asarray(xy, dtype=np.float64)
    if xy.shape != (2, 2):
        raise ValueError(f"xy must have shape (2, 2), got {xy.shape}")
    shots = np.asarray(shots, dtype=np.float64)
    if shots.shape != (2, 5):
        raise ValueError(f"shots must have shape (2, 5), got {shots.shape}")
    if noise is not None:
        if not isinstance(noise, ExecutionNoise):
            raise ValueError("noise must be a physics.ExecutionNoise or None")
        if rng is None:
            raise ValueError("rng: a numpy.random.Generator is required when noise is given")
        shots = noise.apply(shots, rng, miscue_limit=cue.miscue_limit)
    rvw = np.zeros((2, 2, 3, 3))
    rvw[:, :, 0, :2] = xy
    rvw[:, :, 0, 2] = ball_params.R
    # Two copies of the table, each striking one of the balls: the validation and the strike
    # of `physics.simulate`, once per stroke; ball 1's struck row then joins table 0.
    rvw0, s0, struck, s, shots, _, bb, cu = _prepare(
        table, rvw, shots, np.array([0, 1]), None, ball_params, cue, ball_ball, cushion, None, None,
        max_events, airborne)
    start = struck[:1].copy()
    start[0, 1] = struck[1, 1]
    s_start = s[:1].copy()
    s_start[0, 1] = s[1, 1]
    P = ball_params.as_array()
    air3d = needs_air3d(s_start, airborne)

    def run(t_final, n_log):
        r, st = start.copy(), s_start.copy()
        out = _run(table, r, st, shots[:1], np.zeros(1, np.int64), P, bb, cu, n_log, False, t_final,
                   air3d)
        return r[0], st[0], out

    E = int(max_events)
    r1, s1, out = run(math.inf, E)
    if int(out[6][0]) == 1:  # log overflow: the same simulation with room for every event
        E = _max_iter(E) + 1
        r1, s1, out = run(math.inf, E)
    pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status = out
    n = int(n_events[0])
    # the kernel logs the STRIKE of ball 0 (and its LIFTOFF if the stroke made it jump); ball 1
    # was struck at the same instant
    at = 1 + int(s_start[0, 0] == _AIRBORNE)
    rows = [(int(EventKind.STRIKE), 1)] + ([(int(EventKind.LIFTOFF), 1)] if s_start[0, 1] == _AIRBORNE else [])
    t = np.insert(ev_t[0, :n], at, [0.0] * len(rows))
    k = np.insert(ev_kind[0, :n], at, [r[0] for r in rows])
    i = np.insert(ev_i[0, :n], at, [r[1] for r in rows])
    j = np.insert(ev_j[0, :n], at, [-1] * len(rows))
    sim = SimResult(rvw0[0], s0[0], r1, s1, pocket[0], t, k, i, j, n + len(rows), int(status[0]),
                    shots[0].copy(), 0)
    x_min, x_max = _x_extent(start[0], t, run, E, P)
    return LagResult(sim=sim, shots=shots.copy(), x_min=x_min, x_max=x_max)


def _x_extent(r0, ev_t, run, E, P):
    """Exact (x_min, x_max) of each ball centre over the whole simulation (module docstring);
    a pocketed ball's path ends where it dropped (its stored position, the pocket, is not
    part of it)."""
    lo = r0[:, 0, 0].copy()
    hi = lo.copy()
    times = np.unique(ev_t)
    bounds = np.append(times, math.inf)
    for t_a, t_b in zip(bounds[:-1], bounds[1:]):
        r, s, _ = run(float(t_a), E)  # the state just after the events at t_a
        dt = t_b - t_a
        for b in range(r.shape[0]):
            if int(s[b]) == _POCKETED:
                continue
            x0, vx = r[b, 0, 0], r[b, 1, 0]
            lo[b] = min(lo[b], x0)
            hi[b] = max(hi[b], x0)
            ax = accel(r[b], int(s[b]), P)[0]
            if ax != 0.0 and vx != 0.0:
                tv = -vx / ax
                if 0.0 < tv < dt:
                    xv = x0 + vx * tv + 0.5 * ax * tv * tv
                    lo[b] = min(lo[b], xv)
                    hi[b] = max(hi[b], xv)
    return lo, hi
