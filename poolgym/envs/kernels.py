"""numba fast paths of the env's per-table geometry (plain loops, ``@njit(cache=True)``).

Each kernel mirrors a numpy reference and is tested against it (tests/envs/test_kernels.py):

* `placement_ok` / `nearest_placement` — `poolgym.rules.geometry.placement_error` with
  ``may_touch=False`` plus `poolgym.rules.geometry.on_bed` (overlap/frozen balls, bed bounds,
  kitchen, cushion segments, jaws, pocket openings); used by `codec.nearest_legal_placement`.
* `separate_overlaps` / `separate_overlaps_batch` — `physics_io.separate_tiny_overlaps`.
* `best_pot` — the highest-scoring feasible pot of `poolgym.aim.pot_candidates`.
* `nearest_placement_batch` — `nearest_placement` for every table of a vector env step
  (`poolgym.envs.codec.Codec.decode_box_batch`).
* `geometric_batch` — the geometric opponent's play-phase decision for many tables
  (`poolgym.envs.opponents.GeometricOpponent.decide_batch`; tested equal to per-table calls).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


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
def placement_ok(x, y, pos, on, pockets, segs, jaws, R, gap, xlo, xhi, ylo, yhi):
    """True if a cue ball at (x, y) is inside [xlo, xhi] x [ylo, yhi], more than ``gap`` from
    every object ball on the table (rows >= 1), outside every pocket circle, at least R from
    every cushion segment and R + r from every jaw circle."""
    if x < xlo or x > xhi or y < ylo or y > yhi:
        return False
    g2 = gap * gap
    for k in range(1, pos.shape[0]):
        if on[k]:
            dx = pos[k, 0] - x
            dy = pos[k, 1] - y
            if dx * dx + dy * dy <= g2:
                return False
    for p in range(pockets.shape[0]):
        dx = pockets[p, 0] - x
        dy = pockets[p, 1] - y
        if math.sqrt(dx * dx + dy * dy) <= pockets[p, 2]:
            return False
    tol = 1e-9
    for q in range(segs.shape[0]):
        ax = segs[q, 0, 0]
        ay = segs[q, 0, 1]
        dx = segs[q, 1, 0] - ax
        dy = segs[q, 1, 1] - ay
        L2 = dx * dx + dy * dy
        u = ((x - ax) * dx + (y - ay) * dy) / L2 if L2 > 0 else 0.0
        u = min(max(u, 0.0), 1.0)
        ex = ax + u * dx - x
        ey = ay + u * dy - y
        if math.sqrt(ex * ex + ey * ey) < R - tol:
            return False
    for j in range(jaws.shape[0]):
        dx = jaws[j, 0] - x
        dy = jaws[j, 1] - y
        if math.sqrt(dx * dx + dy * dy) < R + jaws[j, 2] - tol:
            return False
    return True


@njit(cache=True)
def nearest_placement(x, y, pos, on, pockets, segs, jaws, R, gap, xlo, xhi, ylo, yhi, step, max_rings):
    """(ok, x, y): (x, y) itself if `placement_ok`, else the first legal point on rings of
    radius ``ring * step`` (8 ring points per unit of ring index, counter-clockwise from +x)."""
    x = min(max(x, xlo), xhi)
    y = min(max(y, ylo), yhi)
    if placement_ok(x, y, pos, on, pockets, segs, jaws, R, gap, xlo, xhi, ylo, yhi):
        return True, x, y
    for ring in range(1, max_rings):
        n = 8 * ring
        for k in range(n):
            a = 2.0 * math.pi * k / n
            cx = x + ring * step * math.cos(a)
            cy = y + ring * step * math.sin(a)
            if placement_ok(cx, cy, pos, on, pockets, segs, jaws, R, gap, xlo, xhi, ylo, yhi):
                return True, cx, cy
    return False, x, y


@njit(cache=True)
def separate_overlaps(rvw, s, R, tol):
    """Push apart in place balls (s == 0) closer than 2R by less than ``tol`` (see
    `physics_io.separate_tiny_overlaps`)."""
    n = s.shape[0]
    for _ in range(4):
        moved = False
        for a in range(n):
            if s[a] != 0:
                continue
            for b in range(a + 1, n):
                if s[b] != 0:
                    continue
                dx = rvw[a, 0, 0] - rvw[b, 0, 0]
                dy = rvw[a, 0, 1] - rvw[b, 0, 1]
                d = math.sqrt(dx * dx + dy * dy)
                if d < 2 * R and d > 2 * R - tol:
                    push = (2 * R - d) / 2 + 1e-9
                    ux = dx / d
                    uy = dy / d
                    rvw[a, 0, 0] += ux * push
                    rvw[a, 0, 1] += uy * push
                    rvw[b, 0, 0] -= ux * push
                    rvw[b, 0, 1] -= uy * push
                    moved = True
        if not moved:
            return


@njit(cache=True)
def separate_overlaps_batch(rvw, s, R, tol):
    """`separate_overlaps` on every table of a batch: rvw (B, N, 3, 3), s (B, N)."""
    for k in range(rvw.shape[0]):
        separate_overlaps(rvw[k], s[k], R, tol)


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
                    jaws, R, gap, xlo, xhi, ylo, yhi_kitchen, yhi_bed, step, max_rings, x_default,
                    y_default):
    """The geometric opponent's play-phase decision for B tables in one call
    (`poolgym.envs.opponents.GeometricOpponent`).

    pos (B, N, 2) / on (B, N) the positions (cue ball row 0; updated in place with the chosen
    placement), targets (B, N) the balls the shooter may aim at, in_hand / kitchen (B,) the
    cue ball is in hand (behind the head string). In hand, the cue ball goes 0.25 m behind
    the ghost ball of the `nearest_clear_pot` (else at (x_default, y_default)), moved to the
    `nearest_placement`. Then `best_pot` from the cue ball; without a pot, the nearest target
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
            yhi = yhi_kitchen if kitchen[k] else yhi_bed
            ok, qx, qy = nearest_placement(x0, y0, P, on_k, pockets, segs, jaws, R, gap, xlo, xhi, ylo, yhi,
                                           step, max_rings)
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


@njit(cache=True)
def nearest_placement_batch(xs, ys, pos, on, kitchen, pockets, segs, jaws, R, gap, xlo, xhi, ylo, yhi_kitchen,
                            yhi_bed, step, max_rings):
    """`nearest_placement` for B tables in one call: xs, ys (B,) wanted spots, pos (B, N, 2),
    on (B, N), kitchen (B,) (upper y bound ``yhi_kitchen`` instead of ``yhi_bed``).
    Returns (ok (B,) bool, x (B,), y (B,))."""
    B = xs.shape[0]
    ok = np.zeros(B, np.bool_)
    px = np.zeros(B)
    py = np.zeros(B)
    for k in range(B):
        yhi = yhi_kitchen if kitchen[k] else yhi_bed
        o, x, y = nearest_placement(xs[k], ys[k], pos[k], on[k], pockets, segs, jaws, R, gap, xlo, xhi, ylo, yhi,
                                    step, max_rings)
        ok[k] = o
        px[k] = x
        py[k] = y
    return ok, px, py
