"""Compiled inner loops of the referee's hot path (``@njit(cache=True)``).

The vector env adjudicates hundreds of tables per step, so the two per-shot scans that
touch every event or every ball pair run compiled:

* :func:`scan_events` -- one pass over a shot's event log: the first object ball the cue
  ball contacts (T-1.16.4 / R-2.10 split hit resolved for the shooter) and every cushion
  contact as (t, ball, rail) arrays (queries.ShotFacts).
* :func:`rest_mask_and_gap` -- which balls are still on the bed after the stroke (G-3.11,
  G-3.28, C-19) and the smallest gap between two of them (general.after_shot uses it to
  decide whether the physics left a rounding overlap to separate).

Both are exact transcriptions of the pure-Python definitions they replace; the tests in
``tests/rules/test_queries.py`` compare them with the single queries.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["scan_events", "rest_mask_and_gap"]


@njit(cache=True)
def scan_events(kind, ei, ej, et, cue, legal_mask, use_legal, split_eps, lut, n_seg, bb, bc, bj):
    """(first, t0, ct, cb, cr): ``first`` object ball contacted by ball ``cue`` (-1 if none)
    and its time (inf); with ``use_legal`` a legal ball (``legal_mask``) contacted within
    ``split_eps`` of an illegal first contact is taken as first. ct/cb/cr: time, ball and
    rail (``lut`` over segments then jaws; ``n_seg`` segments) of every BALL_CUSHION
    (``bc``) / BALL_JAW (``bj``) event, in log order."""
    n = kind.shape[0]
    n_lut = lut.shape[0]
    first = -1
    t0 = math.inf
    alt = -1
    alt_t = 0.0
    ct = np.empty(n, np.float64)
    cb = np.empty(n, np.int64)
    cr = np.empty(n, np.int64)
    m = 0
    for k in range(n):
        kk = kind[k]
        if kk == bb:
            i = ei[k]
            j = ej[k]
            if i == cue or j == cue:
                o = j if i == cue else i
                t = et[k]
                if first < 0:
                    first = o
                    t0 = t
                elif (alt < 0 and use_legal and not legal_mask[first] and legal_mask[o]
                      and t <= t0 + split_eps):
                    alt = o
                    alt_t = t
        elif kk == bc or kk == bj:
            q = ej[k] if kk == bc else n_seg + ej[k]
            hi = n_seg if kk == bc else n_lut
            r = 0
            if hi > 0:
                r = lut[q if q < hi else hi - 1]
            ct[m] = et[k]
            cb[m] = ei[k]
            cr[m] = r
            m += 1
    if alt >= 0:
        first = alt
        t0 = alt_t
    return first, t0, ct[:m], cb[:m], cr[:m]


@njit(cache=True)
def rest_mask_and_gap(on0, pocket, s1, pos1, R, pocketed_code, off_code):
    """(on (N,) bool, min_gap): balls on the bed after the stroke (in play before, not
    pocketed, not jumped) and the smallest centre distance minus 2R between two of them
    (1.0 when no pair is within 2R*1.00005, inf with fewer than two balls)."""
    n = on0.shape[0]
    on = np.empty(n, np.bool_)
    for k in range(n):
        on[k] = on0[k] and pocket[k] < 0 and s1[k] != pocketed_code and s1[k] != off_code
    best = math.inf
    cnt = 0
    for a in range(n):
        if not on[a]:
            continue
        cnt += 1
        xa = pos1[a, 0]
        ya = pos1[a, 1]
        for b in range(a + 1, n):
            if not on[b]:
                continue
            dx = pos1[b, 0] - xa
            dy = pos1[b, 1] - ya
            d2 = dx * dx + dy * dy
            if d2 < best:
                best = d2
    if cnt < 2:
        return on, math.inf
    if best < 4.0 * R * R * 1.0001:
        return on, math.sqrt(best) - 2.0 * R
    return on, 1.0


@njit(cache=True)
def rail_facts(pos0, cue, first, t0, w, l, R, eps, frozen_enabled, ct, cb, cr, kind, ei, ej, et, bb):
    """G-3.19(b) / G-3.38 facts of a shot whose first object ball is ``first`` (hit at
    ``t0``): (rails, to_cue, new_contact).

    rails: bitmask of the rails (HEAD 0, FOOT 1, LEFT 2, RIGHT 3) ``first`` touched at the
    start (centre within R + eps of the cushion-nose line); to_cue: it touched the cue ball
    (both 0 when ``frozen_enabled`` is False). new_contact: some ball has a cushion contact
    (ct, cb, cr) after ``t0`` that is "new" (general.md 7.1): with ``frozen_enabled`` a
    ball that touched that rail at the start counts only after it touched another ball
    (the cue ball: one ball contact; an object ball: two -- the one that moved it, then
    another), G-3.38 last paragraph."""
    lim = R + eps
    rails = 0
    to_cue = False
    if frozen_enabled:
        x = pos0[first, 0]
        y = pos0[first, 1]
        if y <= lim:
            rails |= 1
        if y >= l - lim:
            rails |= 2
        if x <= lim:
            rails |= 4
        if x >= w - lim:
            rails |= 8
        dx = x - pos0[cue, 0]
        dy = y - pos0[cue, 1]
        to_cue = math.sqrt(dx * dx + dy * dy) <= 2.0 * R + eps
    new_contact = False
    for k in range(ct.shape[0]):
        t = ct[k]
        if t <= t0:
            continue
        if not frozen_enabled:
            new_contact = True
            break
        b = cb[k]
        r = cr[k]
        x = pos0[b, 0]
        y = pos0[b, 1]
        frozen_here = ((r == 0 and y <= lim) or (r == 1 and y >= l - lim) or (r == 2 and x <= lim)
                       or (r == 3 and x >= w - lim))
        if not frozen_here:
            new_contact = True
            break
        need = 1 if b == cue else 2
        cnt = 0
        for e in range(kind.shape[0]):
            if kind[e] == bb and et[e] < t and (ei[e] == b or ej[e] == b):
                cnt += 1
        if cnt >= need:
            new_contact = True
            break
    return rails, to_cue, new_contact


@njit(cache=True)
def separate_pairs(P, idx, R, max_fix, margin, max_iter):
    """In place on P (N, 2): up to ``max_iter`` sweeps; each sweep finds the pairs of the
    rows ``idx`` (i < j, row-major order) whose gap is in (-max_fix, margin) at the start of
    the sweep and pushes each pair apart symmetrically to 2R + 2*margin (sequentially, with
    the positions as updated so far) -- geometry.separate_overlaps."""
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
                if gap < margin and gap > -max_fix:
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
            push = (2.0 * R + 2.0 * margin - n) / 2.0
            P[i, 0] -= ux * push
            P[i, 1] -= uy * push
            P[j, 0] += ux * push
            P[j, 1] += uy * push
