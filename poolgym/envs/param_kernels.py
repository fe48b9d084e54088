"""Compiled parts of the parameterised action mode (`poolgym.envs.param`): which ball x pocket
pots the ghost-ball aim allows, and the candidate block's per-pot features.

Both kernels evaluate the formulas of `planning.aim`, `planning.ghost_ball` and
`ParamCodec.pot_features` element by element in the same order (the make probability and the
reference speed from `planning._pot_run`, the planning geometry's pot kernel), so that one
table's analysis is one call instead of some forty small numpy calls. `ParamCodec` keeps the
numpy formulas as its reference (`ParamCodec.pot_features_reference`, tested equal).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from poolgym.planning import _pot_run

#: pockets of the standard table
N_POCKETS = 6


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _unit2(x, y):
    """`planning.unit` of one 2-vector: (x, y) / sqrt(x*x + y*y), zero stays zero."""
    n = math.sqrt(x * x + y * y)
    if n > 0:
        return x / n, y / n
    return 0.0, 0.0


@njit(cache=True, no_cfunc_wrapper=True)
def pot_feasible(cue, objs, aims, R, out):
    """``out[i, k]``: `planning.aim` of the cue ball at ``cue`` (2,) sending ``objs[i]`` to
    ``aims[k]`` is feasible (|cut| < 90 deg and the cue ball not at the ghost ball)."""
    two_r = 2.0 * R
    for i in range(objs.shape[0]):
        ox, oy = objs[i, 0], objs[i, 1]
        for k in range(aims.shape[0]):
            uox, uoy = _unit2(aims[k, 0] - ox, aims[k, 1] - oy)
            gx, gy = ox - two_r * uox, oy - two_r * uoy
            tx, ty = gx - cue[0], gy - cue[1]
            d_cue = math.sqrt(tx * tx + ty * ty)
            ucx, ucy = _unit2(tx, ty)
            cross = ucx * uoy - ucy * uox
            dot = ucx * uox + ucy * uoy
            cut = math.degrees(math.atan2(cross, dot))
            out[i, k] = abs(cut) < 90.0 and d_cue > 1e-9


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _scratch(aims, half, sx, sy, dx, dy):
    """`ParamCodec._scratch_risk` of one ray (start, direction)."""
    best = 0.0
    for j in range(aims.shape[0]):
        vx, vy = aims[j, 0] - sx, aims[j, 1] - sy
        along = vx * dx + vy * dy
        miss = abs(vx * dy - vy * dx)
        q = miss / half[j]
        r = math.exp(-(q * q)) * (1.0 if along > 0 else 0.0)
        if j == 0 or r > best:
            best = r
    return best * (1.0 if math.hypot(dx, dy) > 0.5 else 0.0)


@njit(cache=True, no_cfunc_wrapper=True)
def pot_features(pos, on, pots, in_hand, place_d, consts, aims, axes, half, limit, side, margin, R, l, v0_max, f):
    """The `ParamCodec.pot_features` rows ``f`` (P, 9) of the legal pot choices ``pots``
    (ball x 6 + pocket, ball 1 first) on the table ``pos`` (N, 2) / ``on``: from the cue ball,
    or with ``in_hand`` from each pot's default placement ``place_d`` behind its ghost ball;
    ``consts``: `planning.pot_consts` (the drill's aim noise, 80 deg); ``R``, ``l``: the ball
    radius and table length, ``v0_max`` the env's top stick speed (the features' scales)."""
    P = pots.shape[0]
    two_r = 2.0 * R
    nq = P if in_hand else 1
    Q = np.empty((nq, 2))
    if in_hand:
        for i in range(P):
            b, k = pots[i] // N_POCKETS + 1, pots[i] % N_POCKETS
            ux, uy = _unit2(aims[k, 0] - pos[b, 0], aims[k, 1] - pos[b, 1])
            gx, gy = pos[b, 0] - two_r * ux, pos[b, 1] - two_r * uy
            wx, wy = _unit2(gx - aims[k, 0], gy - aims[k, 1])
            Q[i, 0], Q[i, 1] = gx + place_d * wx, gy + place_d * wy
    else:
        Q[0, 0], Q[0, 1] = pos[0, 0], pos[0, 1]
    # the distinct balls, ascending (`pot_table`'s targets)
    seen = np.zeros(pos.shape[0], np.bool_)
    for i in range(P):
        seen[pots[i] // N_POCKETS + 1] = True
    targets = np.flatnonzero(seen).astype(np.int64)
    ok, out, tg, ghost = _pot_run(consts, aims, axes, half, limit, pos, on, targets, 0,
                                  np.zeros(0, np.int64), 4.0, Q)
    row = np.full(pos.shape[0], -1, np.int64)
    for t in range(tg.shape[0]):
        row[tg[t]] = t
    for i in range(P):
        b, k = pots[i] // N_POCKETS + 1, pots[i] % N_POCKETS
        q = i if in_hand else 0
        ox, oy = pos[b, 0], pos[b, 1]
        tx, ty = aims[k, 0] - ox, aims[k, 1] - oy
        d_obj = math.hypot(tx, ty)
        s = max(d_obj, 1e-12)
        uox, uoy = tx / s, ty / s
        gx, gy = ox - two_r * uox, oy - two_r * uoy
        cx, cy = gx - Q[q, 0], gy - Q[q, 1]
        d_cue = math.hypot(cx, cy)
        s = max(d_cue, 1e-12)
        ucx, ucy = cx / s, cy / s
        cos_cut = ucx * uox + ucy * uoy
        cut = math.degrees(math.atan2(ucx * uoy - ucy * uox, cos_cut))
        r = row[b]
        p = out[0, q, r, k] if r >= 0 else 0.0
        v0 = margin * out[5, q, max(r, 0), k]  # (a ball not listed reads the first row, as the reference)
        approach = uox * axes[k, 0] + uoy * axes[k, 1]
        nx, ny = ucx - cos_cut * uox, ucy - cos_cut * uoy
        n = math.hypot(nx, ny)
        if n > 1e-6:
            s = max(n, 1e-6)
            nx, ny = nx / s, ny / s
        else:  # none on a straight-in
            nx, ny = 0.0, 0.0
        f[i, 0] = cut / 90.0
        f[i, 1] = min(d_cue / l, 1.0)
        f[i, 2] = min(d_obj / l, 1.0)
        f[i, 3] = p
        f[i, 4] = approach
        f[i, 5] = min(v0 / v0_max, 1.0)
        f[i, 6] = side[k]
        f[i, 7] = _scratch(aims, half, gx, gy, nx, ny)
        f[i, 8] = _scratch(aims, half, gx, gy, ucx, ucy)
