"""numba fast paths of the env's per-table geometry (plain loops, ``@njit(cache=True)``).

Each kernel mirrors a numpy reference and is tested against it (tests/envs/test_kernels.py):

* `best_pot` — the highest-scoring feasible pot of `poolgym.aim.pot_candidates`.
* `geometric_batch` — the geometric opponent's play-phase decision for many tables
  (`poolgym.envs.opponents.GeometricOpponent.decide_batch`; tested equal to per-table calls).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from poolgym.rules.placement import nearest_legal_spot


@njit(cache=True)
def _jaw_margin(ox, oy, vx, vy, d, jaw_centers, jaw_radii, p, R):
    """Least clearance (m) between a ball moving from (ox, oy) along (vx, vy) (length d) and
    pocket p's two jaw circles; negative when the path touches a jaw (`poolgym.aim.jaw_margin`)."""
    jm = np.inf
    for j in range(2):
        jx = jaw_centers[p, j, 0]
        jy = jaw_centers[p, j, 1]
        u = ((jx - ox) * vx + (jy - oy) * vy) / (d * d)
        u = min(max(u, 0.0), 1.0)
        ex = ox + u * vx - jx
        ey = oy + u * vy - jy
        m = math.sqrt(ex * ex + ey * ey) - R - jaw_radii[p, j]
        if m < jm:
            jm = m
    return jm


@njit(cache=True)
def _seg_gap(px, py, qx, qy, pos, on, skip_a, skip_b, R):
    """min over balls on the table (not skip_a/skip_b) of dist(ball, segment p->q) - 2R."""
    dx = qx - px
    dy = qy - py
    L2 = dx * dx + dy * dy
    best = np.inf
    for k in range(pos.shape[0]):
        if not on[k] or k == skip_a or k == skip_b:
            continue
        u = ((pos[k, 0] - px) * dx + (pos[k, 1] - py) * dy) / L2 if L2 > 0 else 0.0
        u = min(max(u, 0.0), 1.0)
        ex = px + u * dx - pos[k, 0]
        ey = py + u * dy - pos[k, 1]
        g = math.sqrt(ex * ex + ey * ey) - 2 * R
        if g < best:
            best = g
    return best


@njit(cache=True)
def best_pot(pos, on, targets, aim_points, jaw_centers, jaw_radii, cue, R):
    """Best feasible ghost-ball pot, scored as `poolgym.aim.pot_candidates`.

    Returns (ball, pocket, phi_deg, cut_deg, d_cue, d_obj, score); ball = -1 when none."""
    best = (-1, -1, 0.0, 0.0, 0.0, 0.0, -1.0)
    cx = pos[cue, 0]
    cy = pos[cue, 1]
    for ti in range(targets.shape[0]):
        b = targets[ti]
        ox = pos[b, 0]
        oy = pos[b, 1]
        for p in range(aim_points.shape[0]):
            tx = aim_points[p, 0]
            ty = aim_points[p, 1]
            vx = tx - ox
            vy = ty - oy
            d_obj = math.sqrt(vx * vx + vy * vy)
            if d_obj <= 0:
                continue
            ux = vx / d_obj
            uy = vy / d_obj
            gx = ox - 2 * R * ux
            gy = oy - 2 * R * uy
            wx = gx - cx
            wy = gy - cy
            d_cue = math.sqrt(wx * wx + wy * wy)
            if d_cue <= 1e-9:
                continue
            wx /= d_cue
            wy /= d_cue
            cut = math.degrees(math.atan2(wx * uy - wy * ux, wx * ux + wy * uy))
            if abs(cut) >= 90.0:
                continue
            # jaw margin of the object ball's line to the aim point
            jm = _jaw_margin(ox, oy, vx, vy, d_obj, jaw_centers, jaw_radii, p, R)
            if jm < 0:
                continue
            if _seg_gap(cx, cy, gx, gy, pos, on, cue, b, R) < 0:
                continue
            if _seg_gap(ox, oy, tx, ty, pos, on, cue, b, R) < 0:
                continue
            window = min(max(jm / R, 0.0), 1.0) * 0.5 + 0.5
            score = math.cos(math.radians(abs(cut))) / (1.0 + d_cue) / (1.0 + d_obj) * window
            if score > best[6]:
                phi = math.degrees(math.atan2(wy, wx)) % 360.0
                best = (b, p, phi, cut, d_cue, d_obj, score)
    return best


@njit(cache=True)
def nearest_clear_pot(pos, targets, aim_points, jaw_centers, jaw_radii, R):
    """(ball, pocket) with the shortest object-ball path to a pocket aim point among those
    whose line clears both jaws (`poolgym.aim.jaw_margin` >= 0); (-1, -1) when none. Used to
    place a cue ball in hand behind the ghost ball."""
    best_d = np.inf
    bb = -1
    bp = -1
    for ti in range(targets.shape[0]):
        b = targets[ti]
        ox = pos[b, 0]
        oy = pos[b, 1]
        for p in range(aim_points.shape[0]):
            vx = aim_points[p, 0] - ox
            vy = aim_points[p, 1] - oy
            d = math.sqrt(vx * vx + vy * vy)
            if d <= 0 or d >= best_d:
                continue
            jm = _jaw_margin(ox, oy, vx, vy, d, jaw_centers, jaw_radii, p, R)
            if jm >= 0:
                best_d = d
                bb = b
                bp = p
    return bb, bp


@njit(cache=True)
def geometric_batch(pos, on, targets, in_hand, kitchen, aim_points, jaw_centers, jaw_radii, pockets, segs,
                    jaws, w, l, head_y, R, clearance, margin, step, max_rings, x_default, y_default):
    """The geometric opponent's play-phase decision for B tables in one call
    (`poolgym.envs.opponents.GeometricOpponent`).

    pos (B, N, 2) / on (B, N) the positions (cue ball row 0; updated in place with the chosen
    placement), targets (B, N) the balls the shooter may aim at, in_hand / kitchen (B,) the
    cue ball is in hand (behind the head string). In hand, the cue ball goes 0.25 m behind
    the ghost ball of the `nearest_clear_pot` (else at (x_default, y_default)), moved to the
    nearest spot the referee accepts (`poolgym.rules.placement.nearest_legal_spot`). Then `best_pot` from the cue ball; without a pot, the nearest target
    ball is hit full.

    Returns (placed (B,) int8: 1 placed, 0 not in hand, -1 no legal spot; px, py; ball,
    pocket (-1 = no pot); phi (deg, pot or full hit); cut, d_cue, d_obj; near (B,) the
    ball hit full when there is no pot)."""
    B = pos.shape[0]
    N = pos.shape[1]
    placed = np.zeros(B, np.int8)
    px = np.zeros(B)
    py = np.zeros(B)
    ball = np.full(B, -1, np.int64)
    pocket = np.full(B, -1, np.int64)
    phi = np.zeros(B)
    cut = np.zeros(B)
    d_cue = np.zeros(B)
    d_obj = np.zeros(B)
    near = np.full(B, -1, np.int64)
    tbuf = np.empty(N, np.int64)
    for k in range(B):
        nt = 0
        for b in range(1, N):
            if targets[k, b]:
                tbuf[nt] = b
                nt += 1
        tg = tbuf[:nt]
        P = pos[k]
        on_k = on[k]
        if in_hand[k]:
            b, p = nearest_clear_pot(P, tg, aim_points, jaw_centers, jaw_radii, R)
            if b >= 0:
                tx = aim_points[p, 0]
                ty = aim_points[p, 1]
                vx = tx - P[b, 0]
                vy = ty - P[b, 1]
                n = math.sqrt(vx * vx + vy * vy)
                if n > 0:
                    vx /= n
                    vy /= n
                gx = P[b, 0] - 2.0 * R * vx
                gy = P[b, 1] - 2.0 * R * vy
                ux = gx - tx
                uy = gy - ty
                n = math.sqrt(ux * ux + uy * uy)
                if n > 0:
                    ux /= n
                    uy /= n
                x0 = gx + 0.25 * ux
                y0 = gy + 0.25 * uy
            else:
                x0 = x_default
                y0 = y_default
            ok, qx, qy = nearest_legal_spot(x0, y0, P, on_k, kitchen[k], w, l, head_y, pockets, segs, jaws, R,
                                            clearance, margin, step, max_rings)
            if not ok:
                placed[k] = -1
                continue
            placed[k] = 1
            px[k] = qx
            py[k] = qy
            P[0, 0] = qx
            P[0, 1] = qy
            on_k[0] = True
        bb, pp, ph, ct, dc, do, _ = best_pot(P, on_k, tg, aim_points, jaw_centers, jaw_radii, 0, R)
        ball[k] = bb
        pocket[k] = pp
        if bb >= 0:
            phi[k] = ph
            cut[k] = ct
            d_cue[k] = dc
            d_obj[k] = do
        elif nt > 0:
            best = np.inf
            for ti in range(nt):
                b = tg[ti]
                dx = P[b, 0] - P[0, 0]
                dy = P[b, 1] - P[0, 1]
                d = math.hypot(dx, dy)
                if d < best:
                    best = d
                    near[k] = b
                    phi[k] = math.degrees(math.atan2(dy, dx))
    return placed, px, py, ball, pocket, phi, cut, d_cue, d_obj, near
