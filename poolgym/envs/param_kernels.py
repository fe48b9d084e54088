"""Compiled candidate block of the parameterised action mode (`poolgym.envs.param`): the
per-pot features of `ParamCodec.pot_features`, built on the planning geometry's compiled
pot kernel (`planning._pot_run`: the make probability and the reference speed) and ghost-ball
aim (`planning._ghost`, for the in-hand placements), so that one table's block is one call instead of some forty small
numpy calls (the mask's feasibility is `planning.aim_feasible`). `ParamCodec` keeps the
numpy formulas as its reference (`ParamCodec.pot_features_reference`, tested equal).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from poolgym.planning import _ghost, _pot_run, _unit2


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
def pot_features(
    pos,
    on,
    pots,
    in_hand,
    place_d,
    consts,
    aims,
    axes,
    half,
    limit,
    side,
    margin,
    R,
    l,
    v0_max,
    f,
):
    """The `ParamCodec.pot_features` rows ``f`` (P, 9) of the legal pot choices ``pots``
    (ball x 6 + pocket, ball 1 first) on the table ``pos`` (N, 2) / ``on``: from the cue ball,
    or with ``in_hand`` from each pot's default placement ``place_d`` behind its ghost ball;
    ``consts``: `planning.pot_consts` (the drill's aim noise, 80 deg); ``R``, ``l``: the ball
    radius and table length, ``v0_max`` the env's top stick speed (the features' scales)."""
    P, n_pockets = pots.shape[0], aims.shape[0]
    nq = P if in_hand else 1
    Q = np.empty((nq, 2))
    if in_hand:
        for i in range(P):
            b, k = pots[i] // n_pockets + 1, pots[i] % n_pockets
            gx, gy, _, _, _ = _ghost(pos[b, 0], pos[b, 1], aims[k, 0], aims[k, 1], R)
            wx, wy = _unit2(gx - aims[k, 0], gy - aims[k, 1])
            Q[i, 0], Q[i, 1] = gx + place_d * wx, gy + place_d * wy
    else:
        Q[0, 0], Q[0, 1] = pos[0, 0], pos[0, 1]
    # the distinct balls, ascending (`pot_table`'s targets)
    seen = np.zeros(pos.shape[0], np.bool_)
    for i in range(P):
        seen[pots[i] // n_pockets + 1] = True
    targets = np.flatnonzero(seen).astype(np.int64)
    ok, out, tg, ghost = _pot_run(
        consts,
        aims,
        axes,
        half,
        limit,
        pos,
        on,
        targets,
        0,
        np.zeros(0, np.int64),
        4.0,
        Q,
    )
    row = np.full(pos.shape[0], -1, np.int64)
    for t in range(tg.shape[0]):
        row[tg[t]] = t
    for i in range(P):
        b, k = pots[i] // n_pockets + 1, pots[i] % n_pockets
        q = i if in_hand else 0
        # the ghost ball by hypot, as the reference's features (not `_ghost`'s sqrt: a near
        # straight-in's tangent direction is rounding-sensitive, and the block follows its reference)
        ox, oy = pos[b, 0], pos[b, 1]
        tx, ty = aims[k, 0] - ox, aims[k, 1] - oy
        d_obj = math.hypot(tx, ty)
        s = max(d_obj, 1e-12)
        uox, uoy = tx / s, ty / s
        gx, gy = ox - 2.0 * R * uox, oy - 2.0 * R * uoy
        cx, cy = gx - Q[q, 0], gy - Q[q, 1]
        d_cue = math.hypot(cx, cy)
        s = max(d_cue, 1e-12)
        ucx, ucy = cx / s, cy / s
        cos_cut = ucx * uox + ucy * uoy
        cut = math.degrees(math.atan2(ucx * uoy - ucy * uox, cos_cut))
        r = row[b]
        p = out[0, q, r, k] if r >= 0 else 0.0
        v0 = (
            margin * out[5, q, max(r, 0), k]
        )  # (a ball not listed reads the first row, as the reference)
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
