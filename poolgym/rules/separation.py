"""Separating the tiny overlaps that the physics' rounding leaves between resting balls,
without pressing a ball into a cushion.

The physics guarantees that no two balls overlap after any event, up to rounding: final
positions can leave two touching balls closer than 2R by a hair, and the physics refuses
overlapping balls as input (tolerance 1e-9 m). One compiled sweep, :func:`separate_pairs`,
pushes such pairs apart; :func:`separate_overlaps_batch` is the environments' guard on a whole
batch of physics inputs. Pushing a pair apart moves both balls: a ball that rests against a
cushion (wedged in a pocket mouth between another ball and a jaw's cushion) would be pressed a
nanometre into it, which the physics refuses too. :func:`settle`, the referee's separation
(``general.after_shot``, on the balls at rest after a stroke), therefore alternates the pair
sweeps with moving every ball more than half the tolerance inside a cushion back out
(:func:`cushion_clearance`: how far the balls stand off the cushions, straight segments and
jaw circles, as the physics' layout check reads them), and so does the guard given the table.
"""
from __future__ import annotations

import math

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

__all__ = ["separate_pairs", "separate_overlaps", "separate_overlaps_batch", "cushion_clearance", "settle",
           "CUSHION_TRIGGER"]


@njit(cache=True, no_cfunc_wrapper=True)
def separate_pairs(P, idx, R, max_fix, trigger, target, max_iter):
    """In place on the centres P (N, >= 2): up to ``max_iter`` sweeps; each sweep finds the
    pairs of the rows ``idx`` (i < j, row-major order) whose gap (centre distance - 2R) is
    in (-max_fix, trigger) at the start of the sweep and pushes each pair apart
    symmetrically along its line of centres to the gap ``target`` (sequentially, with the
    positions as updated so far). Overlaps deeper than ``max_fix`` are left alone. Returns
    the number of pushes."""
    m = idx.shape[0]
    bi = np.empty(m * m, np.int64)
    bj = np.empty(m * m, np.int64)
    pushes = 0
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
        pushes += nb
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
    return pushes


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
def _separate_batch(rvw, s, R, max_fix, trigger, target, max_iter, segs, normals, jaws, cushions):
    for k in range(rvw.shape[0]):
        idx = np.flatnonzero(s[k] == 0)
        if idx.shape[0] > 1:
            P = rvw[k, :, 0, :]
            for _ in range(16):  # as `settle`: a pushed pair may press a ball into a cushion
                if separate_pairs(P, idx, R, max_fix, trigger, target, max_iter) == 0 or not cushions:
                    break
                if _push_from_cushions(P, idx, R, segs, normals, jaws, max_fix, CUSHION_TRIGGER,
                                       _CUSHION_TARGET) == 0:
                    break


#: the physics refuses two balls closer than 2R - 1e-9 m (`physics.simulate`'s layout check);
#: the guard leaves alone what it accepts with half of that to spare
_GUARD_TRIGGER = -0.5e-9


def separate_overlaps_batch(rvw: np.ndarray, s: np.ndarray, R: float, max_fix: float = 1e-5, table=None) -> None:
    """The environments' guard before a batched physics call: in place on rvw (B, N, 3, 3),
    the stationary balls (``s == 0``) of each table that overlap by more than 0.5 nm (half the
    physics' tolerance) and less than ``max_fix`` are pushed apart to 2 nm beyond touching,
    sweeping (:func:`separate_pairs`, at most 64 sweeps) until no pair overlaps by more than
    0.5 nm. A push moves each ball of the pair, so it can press a neighbour of a frozen chain
    (G-3.32 spots a row of balls on the long string, each frozen to the next) into the ball
    behind it: the sweeps go on until the push has run out along the chain, and pairs that only
    touch to round-off (a spotted chain's 1e-16 m) are not pushed at all. With ``table`` (its
    ``segments``, ``segment_normals``, ``jaws``), a table whose pairs were pushed also has its
    balls moved back out of the cushions as `settle` does, alternately (a pushed ball frozen to
    a cushion would otherwise be pressed into it)."""
    if table is None:
        segs, normals, jaws = _NO_SEGS, _NO_NORMALS, _NO_JAWS
    else:
        segs, normals, jaws = table.segments, table.segment_normals, table.jaws
    _separate_batch(rvw, np.ascontiguousarray(s), float(R), float(max_fix), _GUARD_TRIGGER, 2e-9, 64, segs, normals,
                    jaws, table is not None)


_NO_SEGS = np.zeros((0, 2, 2))
_NO_NORMALS = np.zeros((0, 2))
_NO_JAWS = np.zeros((0, 3))


#: a resting ball closer to a cushion than this (m, clearance = distance - contact distance) is
#: moved back out by `settle`: half of the physics' layout tolerance (1e-9 m) inside the nose
CUSHION_TRIGGER = -0.5e-9
#: where `settle` puts such a ball: this far off the cushion (m)
_CUSHION_TARGET = 1e-9


@njit(cache=True, no_cfunc_wrapper=True)
def _clearance(x, y, R, segs, normals, jaws, out):
    """The smallest clearance of a ball centred at (x, y) to the cushions, as the physics'
    layout check reads them: per straight segment, the signed distance of the centre to its
    nose line minus R where the centre projects onto the segment; per jaw, the centre
    distance minus (R + the jaw's radius). Writes the outward unit normal of that contact to
    ``out`` (2,) and returns the clearance (inf if no cushion is within R + 1 mm)."""
    best = math.inf
    reach = R + 1e-3
    for q in range(segs.shape[0]):
        ax, ay = segs[q, 0, 0], segs[q, 0, 1]
        d = (x - ax) * normals[q, 0] + (y - ay) * normals[q, 1]
        if not d < reach:
            continue
        dx, dy = segs[q, 1, 0] - ax, segs[q, 1, 1] - ay
        u = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)
        if 0.0 <= u <= 1.0 and d - R < best:
            best = d - R
            out[0] = normals[q, 0]
            out[1] = normals[q, 1]
    for q in range(jaws.shape[0]):
        lim = R + jaws[q, 2]
        ex, ey = x - jaws[q, 0], y - jaws[q, 1]
        if abs(ex) >= lim + 1e-3 or abs(ey) >= lim + 1e-3:
            continue
        d = math.sqrt(ex * ex + ey * ey)
        if d - lim < best and d > 0.0:
            best = d - lim
            out[0] = ex / d
            out[1] = ey / d
    return best


@njit(cache=True, no_cfunc_wrapper=True)
def cushion_clearance(P, on, R, segs, normals, jaws):
    """The smallest cushion clearance (`_clearance`) of the balls ``on`` (N,) at the centres
    P (N, >= 2); inf when none is within 1 mm of a cushion. The physics refuses a layout
    whose clearance is below -1e-9 m."""
    nrm = np.empty(2)
    best = math.inf
    for i in range(P.shape[0]):
        if on[i]:
            c = _clearance(P[i, 0], P[i, 1], R, segs, normals, jaws, nrm)
            if c < best:
                best = c
    return best


@njit(cache=True, no_cfunc_wrapper=True)
def _push_from_cushions(P, idx, R, segs, normals, jaws, max_fix, trigger, target):
    """Move each ball of the rows ``idx`` whose clearance is in (-max_fix, trigger) along its
    contact's normal to the clearance ``target`` (nearest cushion first, again until none is
    left, at most 4 times per ball: a ball in a jaw's corner touches two); returns how many
    moves were made."""
    nrm = np.empty(2)
    moves = 0
    for a in range(idx.shape[0]):
        i = idx[a]
        for _ in range(4):
            c = _clearance(P[i, 0], P[i, 1], R, segs, normals, jaws, nrm)
            if not (-max_fix < c < trigger):
                break
            P[i, 0] += (target - c) * nrm[0]
            P[i, 1] += (target - c) * nrm[1]
            moves += 1
    return moves


@njit(cache=True, no_cfunc_wrapper=True)
def _settle(P, idx, R, segs, normals, jaws, max_fix, margin, rounds):
    for _ in range(rounds):
        separate_pairs(P, idx, R, max_fix, margin, 2.0 * margin, 64)
        if _push_from_cushions(P, idx, R, segs, normals, jaws, max_fix, CUSHION_TRIGGER, _CUSHION_TARGET) == 0:
            break


def settle(pos: np.ndarray, on: np.ndarray, R: float, table, max_fix: float = 1e-4,
           margin: float = 1e-9) -> np.ndarray:
    """The balls at rest after a stroke made a valid layout for the next one: on-table balls
    that overlap by at most ``max_fix`` (or are closer than ``margin`` to touching) are pushed
    apart as by :func:`separate_overlaps`, and balls more than ``CUSHION_TRIGGER`` (0.5 nm)
    and less than ``max_fix`` inside a cushion are moved back out along its normal to 1 nm off
    it; the two alternate (a ball wedged between a ball and a jaw is moved out, which presses
    the other ball, which is moved away) until neither moves anything, at most 16 times.
    Returns the (possibly) corrected (N, 2) array. Where two balls are jammed between two
    cushions (both in one pocket mouth) the moves can only pass the nanometres back and forth:
    if the result is not a layout the physics accepts and ``pos`` was, ``pos`` is returned as
    it is. Larger violations are left alone (the physics' own guarantee is then broken and its
    validation says so)."""
    P = np.array(pos, dtype=np.float64).reshape(-1, 2)
    idx = np.flatnonzero(np.asarray(on, dtype=bool)).astype(np.int64)
    if idx.size == 0:
        return P
    P0 = P.copy()
    _settle(P, idx, float(R), table.segments, table.segment_normals, table.jaws, float(max_fix), float(margin), 16)
    if _layout_problem(P, on, R, table) and not _layout_problem(P0, on, R, table):
        return P0
    return P


def _layout_problem(P, on, R: float, table) -> int:
    """The physics' own layout check (`physics.fuzz.layout_problems`, its 1e-9 m tolerance)
    of the balls ``on`` at the centres P (N, 2): 0 when the physics accepts them as input."""
    from physics.fuzz import layout_problems

    rvw = np.zeros((1, P.shape[0], 3, 3))
    rvw[0, :, 0, :2] = P
    return int(layout_problems(table, rvw, np.where(np.asarray(on, dtype=bool), 0, 4).astype(np.int8)[None],
                               float(R))[0])
