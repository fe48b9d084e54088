"""Separating the tiny overlaps that the physics' rounding leaves between resting balls.

The physics guarantees that no two balls overlap after any event, up to rounding: final
positions can leave two touching balls closer than 2R by a hair, and the physics refuses
overlapping balls as input. One compiled sweep, :func:`separate_pairs`, pushes such pairs
apart; :func:`separate_overlaps` is the referee's use of it (``general.after_shot``, on the
balls at rest after a stroke) and :func:`separate_overlaps_batch` the environments' guard on a
whole batch of physics inputs.
"""
from __future__ import annotations

import math

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

__all__ = ["separate_pairs", "separate_overlaps", "separate_overlaps_batch"]


@njit(cache=True, no_cfunc_wrapper=True)
def separate_pairs(P, idx, R, max_fix, trigger, target, max_iter):
    """In place on the centres P (N, >= 2): up to ``max_iter`` sweeps; each sweep finds the
    pairs of the rows ``idx`` (i < j, row-major order) whose gap (centre distance - 2R) is
    in (-max_fix, trigger) at the start of the sweep and pushes each pair apart
    symmetrically along its line of centres to the gap ``target`` (sequentially, with the
    positions as updated so far). Overlaps deeper than ``max_fix`` are left alone."""
    m = idx.shape[0]
    bi = np.empty(m * m, np.int64)
    bj = np.empty(m * m, np.int64)
    for _ in range(max_iter):
        nb = 0
        for a in range(m):
            i = idx[a]
            for b in range(a + 1, m):
                j = idx[b]
                dx = P[i, 0] - P[j, 0]
                dy = P[i, 1] - P[j, 1]
                gap = math.sqrt(dx * dx + dy * dy) - 2.0 * R
                if gap < trigger and gap > -max_fix:
                    bi[nb] = i
                    bj[nb] = j
                    nb += 1
        if nb == 0:
            break
        for k in range(nb):
            i = bi[k]
            j = bj[k]
            vx = P[j, 0] - P[i, 0]
            vy = P[j, 1] - P[i, 1]
            n = math.sqrt(vx * vx + vy * vy)
            if n > 0:
                ux = vx / n
                uy = vy / n
            else:
                ux = 1.0
                uy = 0.0
            push = (2.0 * R + target - n) / 2.0
            P[i, 0] -= ux * push
            P[i, 1] -= uy * push
            P[j, 0] += ux * push
            P[j, 1] += uy * push


def separate_overlaps(pos: np.ndarray, on: np.ndarray, R: float, max_fix: float = 1e-4,
                      margin: float = 1e-9) -> np.ndarray:
    """Push apart on-table balls that overlap by at most ``max_fix`` (or are closer than
    ``margin`` to touching) so that every such pair ends 2R + 2 ``margin`` apart (sweeps of
    :func:`separate_pairs` until none is left, at most 64: a frozen chain passes the push on
    ball by ball); returns the (possibly) corrected (N, 2) array. Larger overlaps
    are left alone (the physics' own guarantee is then broken and its validation says so)."""
    P = np.array(pos, dtype=np.float64).reshape(-1, 2)
    idx = np.flatnonzero(np.asarray(on, dtype=bool))
    if idx.size < 2:
        return P
    Q = P[idx]
    D = Q[:, None, :] - Q[None, :, :]
    d2 = (D * D).sum(-1)
    d2.flat[:: idx.size + 1] = np.inf
    if d2.min() >= (2 * R + margin) ** 2:
        return P
    separate_pairs(P, idx.astype(np.int64), float(R), float(max_fix), float(margin), 2.0 * float(margin), 64)
    return P


@njit(cache=True, no_cfunc_wrapper=True)
def _separate_batch(rvw, s, R, max_fix, trigger, target, max_iter):
    for k in range(rvw.shape[0]):
        idx = np.flatnonzero(s[k] == 0)
        if idx.shape[0] > 1:
            separate_pairs(rvw[k, :, 0, :], idx, R, max_fix, trigger, target, max_iter)


#: the physics refuses two balls closer than 2R - 1e-9 m (`physics.simulate`'s layout check);
#: the guard leaves alone what it accepts with half of that to spare
_GUARD_TRIGGER = -0.5e-9


def separate_overlaps_batch(rvw: np.ndarray, s: np.ndarray, R: float, max_fix: float = 1e-5) -> None:
    """The environments' guard before a batched physics call: in place on rvw (B, N, 3, 3),
    the stationary balls (``s == 0``) of each table that overlap by more than 0.5 nm (half the
    physics' tolerance) and less than ``max_fix`` are pushed apart to 2 nm beyond touching,
    sweeping (:func:`separate_pairs`, at most 64 sweeps) until no pair overlaps by more than
    0.5 nm. A push moves each ball of the pair, so it can press a neighbour of a frozen chain
    (G-3.32 spots a row of balls on the long string, each frozen to the next) into the ball
    behind it: the sweeps go on until the push has run out along the chain, and pairs that only
    touch to round-off (a spotted chain's 1e-16 m) are not pushed at all."""
    _separate_batch(rvw, np.ascontiguousarray(s), float(R), float(max_fix), _GUARD_TRIGGER, 2e-9, 64)
