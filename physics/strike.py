"""Cue strike: instantaneous point impulse of a cue of mass M on the cue ball.

Model (Leckie & Greenspan; Alciatore TP A-30; pooltool ``stick_ball/instantaneous_point``
with the tip radius not used): the tip hits the ball at offsets ``a`` (side, +1 = leftmost
point, left english) and ``b`` (height, +1 = top) in units of R, with the cue direction
``phi`` (deg CCW from +x) and elevation ``theta`` (deg). With I = 2/5 m R^2 the ball speed
is

    v = 2 V0 / (1 + m/M + 5/2 (a^2 + b^2))          (independent of theta)

and, in the table frame,

    velocity = v cos(theta) (cos phi, sin phi, 0)
    omega    = (5 v / 2R) (-b sin phi - a sin theta cos phi,
                            b cos phi - a sin theta sin phi,
                            -a cos theta)

(the vertical velocity component is dropped: the ball stays on the bed). The ball starts
SLIDING. A centre hit gives ``v = 2 V0 / (1 + m/M)``, about 1.54 V0 for pool masses.

Jump (``simulate(..., airborne=True)``, :func:`slate_bounce`): the stroke's vertical component
``-v sin(theta)`` drives the ball into the slate, which returns it at once (Alciatore's
jump-shot analysis: the cue-ball velocity into the table bounces off the slate with the
ball-table restitution ``e_t``), with the cloth's friction impulse on the slip of the contact
point (the same contact model as every bounce, ``physics.air.contact``). If the rebound
``e_t v sin(theta)`` reaches ``physics.motion.V_SETTLE`` the ball leaves the bed (AIRBORNE);
otherwise the stroke is the flat one above, bit for bit. The masse curve comes from the
spin components ``-a sin(theta)`` about the horizontal axes: cloth friction turns them into
a sideways velocity at the slate bounce and while the ball slides.

Squirt (optional, ``CueParams.squirt``, off by default): the velocity is turned by
``-atan2(5/2 a sqrt(1 - a^2), 1 + m/m_e + 5/2 (1 - a^2))`` (Alciatore TP A-31, cue end mass
``m_e``), i.e. left english squirts the ball to the right.

Miscue: a tip offset ``sqrt(a^2 + b^2) > CueParams.miscue_limit`` (default 0.5 R) is rejected
by the validating wrapper with ``ValueError`` (field ``shot.a``/``shot.b``); the kernel never
sees it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from physics.air import contact
from physics.params import BallParams, CueParams


def strike_velocity(shots: np.ndarray, ball: BallParams, cue: CueParams) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised strike: shots (B, 5) [V0, phi, theta, a, b] -> (v (B, 3), w (B, 3))."""
    shots = np.asarray(shots, dtype=np.float64).reshape(-1, 5)
    V0, phi_d, theta_d, a, b = shots.T
    phi = np.deg2rad(phi_d)
    theta = np.deg2rad(theta_d)
    m, R = ball.m, ball.R
    v = 2.0 * V0 / (1.0 + m / cue.M + 2.5 * (a * a + b * b))
    ct, st = np.cos(theta), np.sin(theta)
    cp, sp = np.cos(phi), np.sin(phi)
    vel = np.zeros((len(shots), 3))
    vel[:, 0] = v * ct * cp
    vel[:, 1] = v * ct * sp
    k = 5.0 * v / (2.0 * R)
    w = np.empty((len(shots), 3))
    w[:, 0] = k * (-b * sp - a * st * cp)
    w[:, 1] = k * (b * cp - a * st * sp)
    w[:, 2] = k * (-a * ct)
    if cue.squirt:
        A = 1.0 - a * a
        alpha = -np.arctan2(2.5 * a * np.sqrt(A), 1.0 + m / cue.end_mass + 2.5 * A)
        ca, sa = np.cos(alpha), np.sin(alpha)
        vx = ca * vel[:, 0] - sa * vel[:, 1]
        vy = sa * vel[:, 0] + ca * vel[:, 1]
        vel[:, 0], vel[:, 1] = vx, vy
    return vel, w


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def strike_one(V0, phi_deg, theta_deg, a, b, m, R, M, squirt, end_mass):
    """Scalar form of :func:`strike_velocity` used by the validating wrapper (same formula)."""
    phi = phi_deg * math.pi / 180.0
    theta = theta_deg * math.pi / 180.0
    v = 2.0 * V0 / (1.0 + m / M + 2.5 * (a * a + b * b))
    ct, st = math.cos(theta), math.sin(theta)
    cp, sp = math.cos(phi), math.sin(phi)
    k = 5.0 * v / (2.0 * R)
    vx, vy = v * ct * cp, v * ct * sp
    if squirt:
        A = 1.0 - a * a
        alpha = -math.atan2(2.5 * a * math.sqrt(A), 1.0 + m / end_mass + 2.5 * A)
        ca, sa = math.cos(alpha), math.sin(alpha)
        vx, vy = ca * vx - sa * vy, sa * vx + ca * vy
    return ((vx, vy, 0.0),
            (k * (-b * sp - a * st * cp), k * (b * cp - a * st * sp), k * (-a * ct)))


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def slate_bounce(rv, V0, theta_deg, a, b, m, R, M, e_t, u_s, v_settle):
    """The slate's answer to an elevated stroke (see the module docstring). ``rv`` holds the
    flat post-strike state; if the rebound from the slate reaches ``v_settle`` it is replaced
    by the state after the bounce (vz > 0) and True is returned, else it is left unchanged."""
    v = 2.0 * V0 / (1.0 + m / M + 2.5 * (a * a + b * b))
    tmp = rv.copy()
    tmp[1, 2] = -v * math.sin(theta_deg * math.pi / 180.0)
    contact(tmp, 0.0, 0.0, 1.0, R, e_t, u_s)
    if tmp[1, 2] >= v_settle:
        # element loop: ``rv[...] = tmp`` compiles numba's shape-mismatch error formatting
        # (string machinery, seconds of a cold start) for a case that cannot occur
        for r in range(rv.shape[0]):
            for c in range(rv.shape[1]):
                rv[r, c] = tmp[r, c]
        return True
    return False
