"""Closed-form ball motion between events (Kiefl 2020, "pooltool-theory", section 3).

States (``physics.enums.Motion``): SLIDING - the contact point slips with relative velocity
``u = v + R z x w`` (here ``(v_x - R w_y, v_y + R w_x)``); kinetic friction ``u_s m g`` acts
against ``u_hat``, which keeps its direction, so
``r(t) = r0 + v0 t - u_s g t^2 u_hat / 2``, ``v(t) = v0 - u_s g t u_hat``,
``w_xy(t) = w0_xy - (5 u_s g t / 2R) (u_hat x z)``, until ``u`` vanishes at
``tau_s = 2 |u0| / (7 u_s g)``. ROLLING - ``r(t) = r0 + v0 t - u_r g t^2 v_hat / 2``,
``v(t) = v0 - u_r g t v_hat``, ``w_xy = z x v / R``, until ``tau_r = |v0| / (u_r g)``.
SPINNING - only ``w_z`` changes. In every moving state ``w_z`` decays linearly to 0 at
``5 u_sp g / (2 R)`` (spin friction; ``tau_sp = 2 R |w_z| / (5 u_sp g)``).

Rolling ends in SPINNING if ``tau_sp > tau_r`` else in STATIONARY. These are pooltool
0.6.0's ``evolve`` conventions; entering SPINNING zeroes v and w_xy, entering STATIONARY
zeroes v and w (the canonical transition model).

AIRBORNE (``physics.air``): a parabola under gravity, ``r(t) = r0 + v0 t - g t^2 z / 2``,
``v(t) = v0 - g t z``, spin constant (no air drag, no Magnus force), until the centre is back at
height R (a BALL_TABLE event, ``air_time``). OFF_TABLE and POCKETED balls do not move.

Parameters arrive packed in a float64 vector ``P`` (see the ``P_*`` indices).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

# indices into the packed parameter vector (BallParams.as_array)
P_M, P_R, P_US, P_UR, P_USP, P_EB, P_EC, P_FC, P_G, P_FA, P_FB, P_FC_ALC, P_ET = range(13)

STATIONARY, SPINNING, SLIDING, ROLLING, POCKETED, AIRBORNE, OFF_TABLE = 0, 1, 2, 3, 4, 5, 6

#: m/s: a ball leaves the bed only if it rebounds from the slate at least this fast; an
#: airborne ball whose rebound is slower settles on the bed (its bounce sequence ends). A
#: rebound at V_SETTLE rises 0.13 mm (V_SETTLE^2 / 2g).
V_SETTLE = 0.05

EPS_SPIN = 2.220446049250313e-14  # pooltool const.EPS: |w_z| below this does not decay


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def rel_velocity(rvw, R):
    """Slip velocity (x, y) of the contact point with the cloth."""
    return rvw[1, 0] - R * rvw[2, 1], rvw[1, 1] + R * rvw[2, 0]


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _slip_time(ux, uy, vz, u_s, g):
    """Sliding time of a ball with slip (ux, uy) and vertical velocity vz."""
    return 2.0 * math.sqrt(ux * ux + uy * uy + vz * vz) / (7.0 * u_s * g)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _stop_time(vx, vy, vz, u_r, g):
    """Rolling time of a ball with velocity (vx, vy, vz)."""
    if u_r == 0.0:
        return math.inf
    return math.sqrt(vx * vx + vy * vy + vz * vz) / (u_r * g)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def slide_time(rvw, R, u_s, g):
    ux, uy = rel_velocity(rvw, R)
    return _slip_time(ux, uy, rvw[1, 2], u_s, g)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def roll_time(rvw, u_r, g):
    return _stop_time(rvw[1, 0], rvw[1, 1], rvw[1, 2], u_r, g)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def spin_time(rvw, R, u_sp, g):
    return _spin_stop_time(rvw[2, 2], R, u_sp, g)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _decay_wz(wz, R, u_sp, g, t):
    if t == 0.0 or abs(wz) < EPS_SPIN:
        return wz
    alpha = 5.0 * u_sp * g / (2.0 * R)
    if t > abs(wz) / alpha:
        t = abs(wz) / alpha
    return wz - alpha * t if wz > 0 else wz + alpha * t


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _slip_accel(vx, vy, wx, wy, R, u_s, g):
    """(ax, ay) of a sliding ball with velocity (vx, vy) and spin (wx, wy): -u_s g u_hat
    (u_hat = +x if there is no slip)."""
    ux, uy = vx - R * wy, vy + R * wx
    n = math.sqrt(ux * ux + uy * uy)
    if n == 0.0:  # no slip: pooltool takes the direction of v (or +x)
        ux, uy = vx, vy
        n = math.sqrt(ux * ux + uy * uy)
        if n == 0.0:
            return -u_s * g, 0.0
    return -u_s * g * ux / n, -u_s * g * uy / n


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _roll_accel(vx, vy, u_r, g):
    n = math.sqrt(vx * vx + vy * vy)
    if n == 0.0:
        return -u_r * g, 0.0
    return -u_r * g * vx / n, -u_r * g * vy / n


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def slide_accel(rvw, R, u_s, g):
    """(ax, ay) of a sliding ball: -u_s g u_hat (u_hat = +x if there is no slip)."""
    return _slip_accel(rvw[1, 0], rvw[1, 1], rvw[2, 0], rvw[2, 1], R, u_s, g)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def roll_accel(rvw, u_r, g):
    return _roll_accel(rvw[1, 0], rvw[1, 1], u_r, g)


@njit(cache=True, no_cfunc_wrapper=True, error_model="numpy")
def accel(rvw, s, P):
    """Planar acceleration of a ball in state s (constant until its next transition)."""
    if s == SLIDING:
        return slide_accel(rvw, P[P_R], P[P_US], P[P_G])
    if s == ROLLING:
        return roll_accel(rvw, P[P_UR], P[P_G])
    return 0.0, 0.0


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def planar_accel(s, vx, vy, wx, wy, R, u_s, u_r, g):
    """:func:`accel` of a ball in state s with velocity (vx, vy) and spin (wx, wy)."""
    if s == SLIDING:
        return _slip_accel(vx, vy, wx, wy, R, u_s, g)
    if s == ROLLING:
        return _roll_accel(vx, vy, u_r, g)
    return 0.0, 0.0


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _slide(x, y, vx, vy, wx, wy, wz, R, u_s, u_sp, g, t):
    """A sliding ball's (x, y, vx, vy, wx, wy, wz) after t seconds."""
    if t == 0.0:
        return x, y, vx, vy, wx, wy, wz
    ux, uy = vx - R * wy, vy + R * wx
    n = math.sqrt(ux * ux + uy * uy)
    if n == 0.0:
        hx, hy = 1.0, 0.0
    else:
        hx, hy = ux / n, uy / n
    k = u_s * g * t
    x += vx * t - 0.5 * k * t * hx
    y += vy * t - 0.5 * k * t * hy
    vx -= k * hx
    vy -= k * hy
    kw = 2.5 / R * k
    # w_xy -= (5 u_s g t / 2R) * (u_hat x z) ; u_hat x z = (hy, -hx)
    wx -= kw * hy
    wy += kw * hx
    return x, y, vx, vy, wx, wy, _decay_wz(wz, R, u_sp, g, t)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _roll(x, y, vx, vy, wx, wy, wz, R, u_r, u_sp, g, t):
    """A rolling ball's (x, y, vx, vy, wx, wy, wz) after t seconds."""
    if t == 0.0:
        return x, y, vx, vy, wx, wy, wz
    n = math.sqrt(vx * vx + vy * vy)
    if n == 0.0:
        hx, hy = 0.0, 0.0
    else:
        hx, hy = vx / n, vy / n
    k = u_r * g * t
    x += vx * t - 0.5 * k * t * hx
    y += vy * t - 0.5 * k * t * hy
    vx -= k * hx
    vy -= k * hy
    return x, y, vx, vy, -vy / R, vx / R, _decay_wz(wz, R, u_sp, g, t)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def air_time(rvw, R, g):
    """Time until an airborne ball's centre comes down to height R (it lands on the bed)."""
    vz = rvw[1, 2]
    dz = rvw[0, 2] - R
    if dz < 0.0:
        dz = 0.0
    return (vz + math.sqrt(vz * vz + 2.0 * g * dz)) / g


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _evolved(x, y, z, vx, vy, vz, wx, wy, wz, s, R, u_s, u_r, u_sp, g, t):
    """The state (x, y, z, vx, vy, vz, wx, wy, wz) of a ball in motion state s after t
    seconds (the closed forms of the module docstring; a scalar function, so that the event
    loop advances its balls without passing arrays: every call of a compiled function with
    an array argument costs two atomic reference-count updates per array).

    If ``t`` overshoots the end of the current state (only ever by round-off, since
    transitions are events) the motion continues in the following state, as pooltool does;
    the state label itself is changed only by transition events."""
    if s == STATIONARY or s == POCKETED or t <= 0.0:
        return x, y, z, vx, vy, vz, wx, wy, wz
    if s >= AIRBORNE:
        if s == AIRBORNE:
            x += vx * t
            y += vy * t
            z += (vz - 0.5 * g * t) * t
            vz -= g * t
        return x, y, z, vx, vy, vz, wx, wy, wz
    if s == SLIDING:
        ts = _slip_time(vx - R * wy, vy + R * wx, vz, u_s, g)
        if t >= ts:
            x, y, vx, vy, wx, wy, wz = _slide(x, y, vx, vy, wx, wy, wz, R, u_s, u_sp, g, ts)
            t -= ts
            s = ROLLING
        else:
            x, y, vx, vy, wx, wy, wz = _slide(x, y, vx, vy, wx, wy, wz, R, u_s, u_sp, g, t)
            return x, y, z, vx, vy, vz, wx, wy, wz
    if s == ROLLING:
        tr = _stop_time(vx, vy, vz, u_r, g)
        if t >= tr:
            x, y, vx, vy, wx, wy, wz = _roll(x, y, vx, vy, wx, wy, wz, R, u_r, u_sp, g, tr)
            t -= tr
            s = SPINNING
        else:
            x, y, vx, vy, wx, wy, wz = _roll(x, y, vx, vy, wx, wy, wz, R, u_r, u_sp, g, t)
            return x, y, z, vx, vy, vz, wx, wy, wz
    if s == SPINNING:
        wz = _decay_wz(wz, R, u_sp, g, t)
    return x, y, z, vx, vy, vz, wx, wy, wz


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def evolve_all(rvw, s, P, t):
    """Advance every ball of a table, ``rvw`` (N, 3, 3) in states ``s`` (N,), in place by
    ``t`` seconds (:func:`evolve`)."""
    R, u_s, u_r, u_sp, g = P[P_R], P[P_US], P[P_UR], P[P_USP], P[P_G]
    for b in range(rvw.shape[0]):
        sb = s[b]
        if sb == STATIONARY or sb == POCKETED or sb == OFF_TABLE:
            continue
        (rvw[b, 0, 0], rvw[b, 0, 1], rvw[b, 0, 2], rvw[b, 1, 0], rvw[b, 1, 1], rvw[b, 1, 2],
         rvw[b, 2, 0], rvw[b, 2, 1], rvw[b, 2, 2]) = _evolved(
            rvw[b, 0, 0], rvw[b, 0, 1], rvw[b, 0, 2], rvw[b, 1, 0], rvw[b, 1, 1], rvw[b, 1, 2],
            rvw[b, 2, 0], rvw[b, 2, 1], rvw[b, 2, 2], sb, R, u_s, u_r, u_sp, g, t)


@njit(cache=True, no_cfunc_wrapper=True, error_model="numpy")
def evolve(rvw, s, P, t):
    """Advance one ball's ``rvw`` (3, 3) in place by ``t`` seconds from motion state ``s``.

    If ``t`` overshoots the end of the current state (only ever by round-off, since
    transitions are events) the motion continues in the following state, as pooltool does;
    the state label itself is changed only by transition events.
    """
    (rvw[0, 0], rvw[0, 1], rvw[0, 2], rvw[1, 0], rvw[1, 1], rvw[1, 2],
     rvw[2, 0], rvw[2, 1], rvw[2, 2]) = _evolved(
        rvw[0, 0], rvw[0, 1], rvw[0, 2], rvw[1, 0], rvw[1, 1], rvw[1, 2],
        rvw[2, 0], rvw[2, 1], rvw[2, 2], s, P[P_R], P[P_US], P[P_UR], P[P_USP], P[P_G], t)


@njit(cache=True, no_cfunc_wrapper=True, error_model="numpy")
def positions_along(rvw, s, P, dts):
    """(T, 3) centres of one ball, ``rvw`` (3, 3) in motion state ``s``, after each of the
    ``dts`` (T,) seconds: :func:`evolve` of a copy by each (the same arithmetic)."""
    out = np.empty((dts.shape[0], 3))
    q = np.empty((3, 3))
    for k in range(dts.shape[0]):
        for a in range(3):
            for c in range(3):
                q[a, c] = rvw[a, c]
        evolve(q, s, P, dts[k])
        for c in range(3):
            out[k, c] = q[0, c]
    return out


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def next_transition(rvw, s, P):
    """(dt, kind) of the ball's next motion transition; kind is an EventKind code, -1 none."""
    return transition_of(s, rvw[0, 2], rvw[1, 0], rvw[1, 1], rvw[1, 2], rvw[2, 0], rvw[2, 1],
                         rvw[2, 2], P[P_R], P[P_US], P[P_UR], P[P_USP], P[P_G])


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _spin_stop_time(wz, R, u_sp, g):
    """Time until the spin w_z about the vertical has decayed."""
    if u_sp == 0.0:
        return math.inf
    return abs(wz) * 2.0 / 5.0 * R / u_sp / g


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def transition_of(s, z, vx, vy, vz, wx, wy, wz, R, u_s, u_r, u_sp, g):
    """:func:`next_transition` of a ball in state s at height z with velocity (vx, vy, vz)
    and spin (wx, wy, wz) (scalars, for the event loop: see :func:`_evolved`)."""
    if s == SLIDING:
        return _slip_time(vx - R * wy, vy + R * wx, vz, u_s, g), 5  # SLIDING_ROLLING
    if s == ROLLING:
        tr = _stop_time(vx, vy, vz, u_r, g)
        if _spin_stop_time(wz, R, u_sp, g) > tr:
            return tr, 6  # ROLLING_SPINNING
        return tr, 7  # ROLLING_STATIONARY
    if s == SPINNING:
        return _spin_stop_time(wz, R, u_sp, g), 8  # SPINNING_STATIONARY
    if s == AIRBORNE:
        dz = z - R
        if dz < 0.0:
            dz = 0.0
        return (vz + math.sqrt(vz * vz + 2.0 * g * dz)) / g, 12  # BALL_TABLE (air_time)
    return math.inf, -1


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def apply_transition(rvw, kind):
    """Canonical transition resolution (kinds 5..10); returns the new motion state."""
    if kind == 5:
        return ROLLING
    if kind == 6 or kind == 10:
        rvw[1, 0] = 0.0
        rvw[1, 1] = 0.0
        rvw[1, 2] = 0.0
        rvw[2, 0] = 0.0
        rvw[2, 1] = 0.0
        return SPINNING
    # 7, 8, 9: stationary
    for k in range(3):
        rvw[1, k] = 0.0
        rvw[2, k] = 0.0
    return STATIONARY


@njit(cache=True, no_cfunc_wrapper=True, error_model="numpy")
def energy(rvw, m, R):
    """Kinetic energy (translational + rotational, I = 2/5 m R^2)."""
    v2 = rvw[1, 0] ** 2 + rvw[1, 1] ** 2 + rvw[1, 2] ** 2
    w2 = rvw[2, 0] ** 2 + rvw[2, 1] ** 2 + rvw[2, 2] ** 2
    return 0.5 * m * v2 + 0.5 * (0.4 * m * R * R) * w2
