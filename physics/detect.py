"""Event-time prediction: the first future contact of a ball with another ball, a straight
cushion segment, a jaw circle or a pocket capture circle.

Within one motion state each ball follows ``r(t) = r0 + v0 t + a t^2 / 2`` with a constant
planar acceleration ``a`` (``physics.motion``), so
- ball-ball: ``|d(t)|^2 - (2R)^2`` with ``d = C + B t + A t^2`` (C, B, A relative position,
  velocity and half acceleration) is a quartic;
- ball-jaw: ``|r(t) - c|^2 - (R + r_jaw)^2`` is a quartic;
- ball-pocket: ``|r(t) - c|^2 - r_pocket^2`` is a quartic (pooltool's canonical pocket: the
  ball centre reaches the capture circle);
- ball-straight cushion: the signed distance of the centre to the segment's line, minus R, is
  a quadratic; the contact point must lie within the segment's end points.
Every prediction is the first DOWNWARD zero crossing (approach) of the gap function inside
the horizon ``h`` (the earliest next motion transition of the balls involved; predictions
are recomputed after every event touching those balls). Pairs that are touching now count
as colliding now only if they approach faster than ``V_APPROACH``, or if they do not
separate and their relative acceleration closes the gap (the t^2 term of the gap function is
negative: a ball frozen to a cushion or a ball, struck at theta = 90, has almost no velocity
but a spin whose cloth friction drives it into the contact; waiting for a down-crossing
would miss it, since the gap starts at zero). A touching pair that is separating (or at
rest relative to each other, not accelerated together) is never predicted to collide at
t = 0, which is what keeps frozen clusters from chattering.
"""

from __future__ import annotations

import math

from numba import njit

from physics.motion import (
    AIRBORNE, P_G, P_R, P_UR, P_US, POCKETED, ROLLING, SLIDING, accel, planar_accel,
)
from physics.roots import first_down_crossing4

#: gaps at or below this (m) count as touching
TOUCH_GAP = 1e-9
#: a touching pair must approach faster than this (m/s) to collide now
V_APPROACH = 1e-9
#: largest horizon (s) searched for roots (motion states are always shorter than this)
T_MAX = 1.0e3


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def is_moving(s):
    return s == SLIDING or s == ROLLING or s == AIRBORNE


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _circle_time(Cx, Cy, Bx, By, Ax, Ay, rad, h):
    """First approach time of a point r(t) = C + B t + A t^2 (relative to a fixed or moving
    centre) to distance ``rad``, within (0, h]; 0 if already touching and approaching."""
    if h > T_MAX:
        h = T_MAX
    dist = math.sqrt(Cx * Cx + Cy * Cy)
    gap = dist - rad
    vn = (Cx * Bx + Cy * By) / dist if dist > 0.0 else 0.0  # d|C|/dt
    if gap <= TOUCH_GAP:
        if vn < -V_APPROACH:
            return 0.0
        c2 = Bx * Bx + By * By + 2.0 * (Ax * Cx + Ay * Cy)
        if c2 < 0.0:
            # accelerating into each other (the t^2 coefficient of |d(t)|^2 is negative): a
            # contact now if they do not separate (vn <= 0), or if the separation cannot
            # lift a gap that round-off left slightly negative above zero before the
            # acceleration closes it again (e + d t + c2 t^2 < 0 for all t: d^2 <= 4 e c2)
            e0 = Cx * Cx + Cy * Cy - rad * rad
            d1 = 2.0 * (Bx * Cx + By * Cy)
            if vn <= 0.0 or (e0 < 0.0 and d1 * d1 <= 4.0 * e0 * c2):
                return 0.0
    # cull: the path d(t) = C + B t + A t^2, t in [0, h], stays within |A| h^2 / 4 of its
    # chord from d(0) to d(h) (a parabola arc and its chord); if the chord keeps farther
    # than rad + that bulge from the origin there is no contact
    an = math.sqrt(Ax * Ax + Ay * Ay)
    Ex = Cx + (Bx + Ax * h) * h
    Ey = Cy + (By + Ay * h) * h
    Dx, Dy = Ex - Cx, Ey - Cy
    dd = Dx * Dx + Dy * Dy
    u = -(Cx * Dx + Cy * Dy) / dd if dd > 0.0 else 0.0
    if u < 0.0:
        u = 0.0
    elif u > 1.0:
        u = 1.0
    px, py = Cx + u * Dx, Cy + u * Dy
    if math.sqrt(px * px + py * py) > rad + 0.25 * an * h * h + 1e-12:
        return math.inf
    a = Ax * Ax + Ay * Ay
    b = 2.0 * (Ax * Bx + Ay * By)
    c = Bx * Bx + By * By + 2.0 * (Ax * Cx + Ay * Cy)
    d = 2.0 * (Bx * Cx + By * Cy)
    e = Cx * Cx + Cy * Cy - rad * rad
    if gap <= TOUCH_GAP and e > 0.0:
        # touching but not approaching: never report the contact we are sitting in
        e = 0.0
    return first_down_crossing4(a, b, c, d, e, 0.0, h)


@njit(cache=True, no_cfunc_wrapper=True, error_model="numpy")
def ball_ball_time(rvw1, s1, rvw2, s2, P, h):
    """Time from now until balls 1 and 2 collide (inf if not within ``h``)."""
    return pair_time(s1, rvw1[0, 0], rvw1[0, 1], rvw1[1, 0], rvw1[1, 1], rvw1[2, 0], rvw1[2, 1],
                     s2, rvw2[0, 0], rvw2[0, 1], rvw2[1, 0], rvw2[1, 1], rvw2[2, 0], rvw2[2, 1],
                     P[P_R], P[P_US], P[P_UR], P[P_G], h)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def pair_time(s1, x1, y1, vx1, vy1, wx1, wy1, s2, x2, y2, vx2, vy2, wx2, wy2, R, u_s, u_r, g,
              h):
    """:func:`ball_ball_time` of balls in states s1, s2 at (x, y) with velocity (vx, vy) and
    spin (wx, wy) (scalars: the event loop calls it for many pairs, and every call of a
    compiled function with an array argument costs two atomic reference-count updates per
    array)."""
    if not (is_moving(s1) or is_moving(s2)):
        return math.inf
    if s1 >= POCKETED or s2 >= POCKETED:  # POCKETED, OFF_TABLE (airborne pairs: physics.air)
        return math.inf
    a1x, a1y = planar_accel(s1, vx1, vy1, wx1, wy1, R, u_s, u_r, g)
    a2x, a2y = planar_accel(s2, vx2, vy2, wx2, wy2, R, u_s, u_r, g)
    if not is_moving(s1):
        b1x, b1y = 0.0, 0.0
    else:
        b1x, b1y = vx1, vy1
    if not is_moving(s2):
        b2x, b2y = 0.0, 0.0
    else:
        b2x, b2y = vx2, vy2
    return _circle_time(
        x2 - x1, y2 - y1,
        b2x - b1x, b2y - b1y,
        0.5 * (a2x - a1x), 0.5 * (a2y - a1y),
        2.0 * R, h,
    )


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def ball_circle_time(rvw, s, P, cx, cy, rad, h):
    """Time until the ball centre comes within ``rad`` of the fixed point (cx, cy)."""
    if not is_moving(s):
        return math.inf
    ax, ay = accel(rvw, s, P)
    return _circle_time(rvw[0, 0] - cx, rvw[0, 1] - cy, rvw[1, 0], rvw[1, 1],
                        0.5 * ax, 0.5 * ay, rad, h)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def ball_segment_time(rvw, s, P, p1x, p1y, p2x, p2y, nx, ny, h):
    """Time until the ball touches the straight cushion segment from its playing side.

    (nx, ny) is the segment's unit normal pointing to the playing side; contact is when the
    centre's signed distance to the line equals R while approaching, with the contact point
    between the end points.
    """
    if not is_moving(s):
        return math.inf
    ax, ay = accel(rvw, s, P)
    return segment_time(rvw[0, 0], rvw[0, 1], rvw[1, 0], rvw[1, 1], ax, ay, P[1], p1x, p1y,
                        p2x, p2y, nx, ny, h)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def segment_time(x0, y0, vx, vy, ax, ay, R, p1x, p1y, p2x, p2y, nx, ny, h):
    """:func:`ball_segment_time` of a moving ball at (x0, y0) with velocity (vx, vy) and
    acceleration (ax, ay) (scalars, for the event loop: see :func:`pair_time`)."""
    if h > T_MAX:
        h = T_MAX
    g0 = (x0 - p1x) * nx + (y0 - p1y) * ny - R
    g1 = vx * nx + vy * ny
    g2 = 0.5 * (ax * nx + ay * ny)
    if -0.5 * R < g0 <= TOUCH_GAP and (g1 < -V_APPROACH or (g2 < 0.0 and (
            g1 <= 0.0 or (g0 < 0.0 and g1 * g1 <= 4.0 * g0 * g2)))):
        # touching and approaching, or accelerated into the cushion and not separating (or
        # separating too slowly to lift a round-off negative gap above zero): contact now
        t = 0.0
    else:
        if g0 > abs(g1) * h + abs(g2) * h * h:
            return math.inf
        if g0 <= TOUCH_GAP and g0 > 0.0:
            g0 = 0.0  # touching and not approaching: not a contact now
        t = first_down_crossing4(0.0, 0.0, g2, g1, g0, 0.0, h)
        if t == math.inf:
            return t
    # contact point within the segment?
    px = x0 + vx * t + 0.5 * ax * t * t
    py = y0 + vy * t + 0.5 * ay * t * t
    dx, dy = p2x - p1x, p2y - p1y
    u = ((px - p1x) * dx + (py - p1y) * dy) / (dx * dx + dy * dy)
    if u < 0.0 or u > 1.0:
        return math.inf
    return t
