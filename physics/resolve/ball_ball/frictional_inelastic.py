"""Inelastic ball-ball collision with Alciatore's speed-dependent ball-ball friction.

Sources:
- D. Alciatore, "Technical proofs" TP A-5 (90-degree rule with restitution), TP A-6 (30-degree
  rule) and TP A-14 ("Ball-ball collision-induced throw"): the friction coefficient between two
  balls falls with the sliding speed ``s`` at the contact,

      u_b = a + b * exp(-c * s),   a = 9.951e-3, b = 0.108, c = 1.088 (s in m/s)      (TP A-14)

- pooltool 0.6.0 ``ball_ball/frictional_inelastic`` (Kiefl), which extends TP A-14 to both balls
  moving and to full vector velocities/spins. This module implements the same model.

Model (equal masses m, radii R, moment of inertia I = 2/5 m R^2). Frame: n = unit((r2 - r1) in
the table plane) (normal), t = z x n (tangent), z up.

1. Normal velocities (restitution e_b, momentum conserved):
       v1n' = ((1 - e_b) v1n + (1 + e_b) v2n) / 2,   v2n' = ((1 + e_b) v1n + (1 - e_b) v2n) / 2.
   Normal spin components (about n) are unchanged.
2. Contact slip, evaluated with the normal velocity and normal spin components removed:
       s_vec = (v1 - v2)_tz + R (w1 + w2) x n   (tangential and vertical components),
   whose magnitude is the ``s`` of the friction law, computed from the pre-collision state.
3. Tangential impulse on ball 1 (per unit mass) ``D = -u_b |v2n' - v1n'| unit(s_vec)``; ball 2
   receives ``-D``. Both spins change by ``(5 / (2R)) n x D`` (torque of the contact force about
   each centre, I = 2/5 m R^2). Such an impulse changes the slip to ``s_vec + 7 D``; if that would
   reverse the slip (|s_vec| <= 7 u_b |dv_n|), friction stops the slip instead: the no-slip
   impulse ``D = -s_vec / 7`` (the 1/7 and 5/14 factors of pooltool's no-slip branch).
   With no slip at all (|s_vec| <= EPS), the no-slip branch applies.
4. The vertical velocity is set to zero afterwards (balls stay on the table; the vertical part of
   the impulse still changes the spin), as in pooltool.

Cut shots therefore throw the object ball off the line of centres by a few degrees (Alciatore's
TP A-14 gives up to ~5 degrees for a stun cut at half-ball, less at speed), and spin is
transferred to the object ball.
"""

from __future__ import annotations

import math

from numba import njit

#: Below this slip speed (m/s) the no-slip branch is used (pooltool's ``const.EPS``).
EPS_SLIP = 2.220446049250313e-14


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def alciatore_friction(s, fa, fb, fc):
    """Alciatore TP A-14 ball-ball friction coefficient ``fa + fb * exp(-fc * s)`` at slip ``s``."""
    return fa + fb * math.exp(-fc * s)


@njit(cache=True, no_cfunc_wrapper=True)
def resolve(rvw1, rvw2, R, m, e_b, fa, fb, fc):
    """Resolve a frictional inelastic ball-ball collision, updating both ``rvw`` in place.

    Args:
        rvw1, rvw2: ``(3, 3)`` float64 [position, velocity, angular velocity] at contact.
        R: ball radius (m). m: ball mass (kg); equal masses, so it cancels (kept for the API).
        e_b: ball-ball coefficient of restitution.
        fa, fb, fc: Alciatore friction law parameters (``u_b = fa + fb exp(-fc s)``).
    """
    dx = rvw2[0, 0] - rvw1[0, 0]
    dy = rvw2[0, 1] - rvw1[0, 1]
    d = math.sqrt(dx * dx + dy * dy)
    if d == 0.0:
        return
    nx = dx / d
    ny = dy / d
    # tangent t = z x n = (-ny, nx)

    # components in the (n, t, z) frame
    v1n = rvw1[1, 0] * nx + rvw1[1, 1] * ny
    v1t = -rvw1[1, 0] * ny + rvw1[1, 1] * nx
    v1z = rvw1[1, 2]
    v2n = rvw2[1, 0] * nx + rvw2[1, 1] * ny
    v2t = -rvw2[1, 0] * ny + rvw2[1, 1] * nx
    v2z = rvw2[1, 2]
    w1n = rvw1[2, 0] * nx + rvw1[2, 1] * ny
    w1t = -rvw1[2, 0] * ny + rvw1[2, 1] * nx
    w1z = rvw1[2, 2]
    w2n = rvw2[2, 0] * nx + rvw2[2, 1] * ny
    w2t = -rvw2[2, 0] * ny + rvw2[2, 1] * nx
    w2z = rvw2[2, 2]

    # 1. normal velocities from restitution
    v1n_f = 0.5 * ((1.0 - e_b) * v1n + (1.0 + e_b) * v2n)
    v2n_f = 0.5 * ((1.0 + e_b) * v1n + (1.0 - e_b) * v2n)
    dvn = abs(v2n_f - v1n_f)

    # 2. contact slip (t, z components): (v1 - v2) + R (w1 + w2) x n, with (w x n) = (w_z, -w_t)
    st = v1t - v2t + R * (w1z + w2z)
    sz = v1z - v2z - R * (w1t + w2t)
    s = math.sqrt(st * st + sz * sz)

    # 3. tangential impulse per unit mass on ball 1 (D), limited to the no-slip impulse
    if s > EPS_SLIP:
        u_b = alciatore_friction(s, fa, fb, fc)
        if s > 7.0 * u_b * dvn:
            k = -u_b * dvn / s
        else:
            k = -1.0 / 7.0
    else:
        k = -1.0 / 7.0
    Dt = k * st
    Dz = k * sz
    # spin change of both balls: (5 / 2R) n x D, n x (D_t t + D_z z) = D_t z - D_z t
    dw_t = -2.5 / R * Dz
    dw_z = 2.5 / R * Dt

    v1t += Dt
    v2t -= Dt
    w1t += dw_t
    w2t += dw_t
    w1z += dw_z
    w2z += dw_z

    # back to the table frame; vertical velocity zeroed (balls stay on the table)
    rvw1[1, 0] = v1n_f * nx - v1t * ny
    rvw1[1, 1] = v1n_f * ny + v1t * nx
    rvw1[1, 2] = 0.0
    rvw2[1, 0] = v2n_f * nx - v2t * ny
    rvw2[1, 1] = v2n_f * ny + v2t * nx
    rvw2[1, 2] = 0.0
    rvw1[2, 0] = w1n * nx - w1t * ny
    rvw1[2, 1] = w1n * ny + w1t * nx
    rvw1[2, 2] = w1z
    rvw2[2, 0] = w2n * nx - w2t * ny
    rvw2[2, 1] = w2n * ny + w2t * nx
    rvw2[2, 2] = w2z
