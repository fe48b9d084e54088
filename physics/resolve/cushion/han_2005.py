"""Han (2005) rigid-cushion impulse model.

Source: Inhwan Han, "Dynamics in carom and three cushion billiards", Journal of Mechanical Science
and Technology 19(4), 976-984 (2005); as implemented in pooltool 0.6.0
``ball_cushion/han_2005`` (equation numbers below are Han's).

The cushion touches the ball above its centre, at height ``h`` above the bed: the contact normal
is tilted by ``theta_a = asin(h / R - 1)`` from the horizontal. In the cushion frame (x towards
and into the cushion, y along it, z up) with incoming velocity v and spin w:

- slip of the contact point, in the contact plane (Eqs 14):
      s_x = v_x sin(theta_a) - v_z cos(theta_a) + R w_y
      s_y = -v_y - R w_z cos(theta_a) + R w_x sin(theta_a)
  and normal approach velocity ``c = -v_x cos(theta_a)`` (planar motion, v_z = 0).
- effective inverse masses (Eqs 16): A = 7 / (2 m), B = 1 / m.
- normal impulse at the end of restitution (Eq 17, Poisson restitution e_c):
      P_zE = -(1 + e_c) c / B;  impulse needed to stop the slip (Eq 20): P_zS = |s| / A.
- if P_zS <= f_c P_zE the contact sticks (Eqs 18): P_xE = s_x / A, P_yE = s_y / A;
  otherwise it slides throughout (Eqs 19): (P_xE, P_yE) = f_c P_zE s / |s|.
- impulse in the rail frame (Eqs 21-22):
      P_X = -P_xE sin(theta_a) - P_zE cos(theta_a),  P_Y = P_yE,
      P_Z =  P_xE cos(theta_a) - P_zE sin(theta_a)
- velocity and spin changes (Eqs 23), I = 2/5 m R^2:
      v_x += P_X / m,  v_y += P_Y / m          (v_z is NOT updated: the ball stays on the bed)
      w_x += -R/I P_Y sin(theta_a)
      w_y +=  R/I (P_X sin(theta_a) - P_Z cos(theta_a))
      w_z +=  R/I P_Y cos(theta_a)

e_c and f_c are constants (no speed dependence), as in pooltool 0.6.0. For a spinless ball
hitting perpendicularly the contact sticks and the rebound normal speed is
``v [(1 + e_c) cos^2(theta_a) + (2/7) sin^2(theta_a) - 1]``, which equals ``e_c v`` only when the
cushion touches at the ball's equator (h = R).
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, no_cfunc_wrapper=True)
def resolve(rvw, nx, ny, R, m, h, e_c, f_c):
    """Resolve a ball-cushion collision with Han's model, updating ``rvw`` in place.

    Args:
        rvw: ``(3, 3)`` float64 [position, velocity, angular velocity] at contact.
        nx, ny: unit contact normal pointing from the cushion into the table (towards the ball).
        R, m: ball radius (m) and mass (kg).
        h: cushion contact height above the bed (m), R <= h < 2R.
        e_c, f_c: cushion coefficient of restitution and of friction.

    A ball not moving towards the cushion (v . n >= 0) is left unchanged.
    """
    # cushion frame: x = -n (into the cushion), y = z x x, z up
    ex = -nx
    ey = -ny
    vx = rvw[1, 0] * ex + rvw[1, 1] * ey
    if not vx > 0.0:
        return
    vy = -rvw[1, 0] * ey + rvw[1, 1] * ex
    vz = rvw[1, 2]
    wx = rvw[2, 0] * ex + rvw[2, 1] * ey
    wy = -rvw[2, 0] * ey + rvw[2, 1] * ex
    wz = rvw[2, 2]

    sin_a = h / R - 1.0
    cos_a = math.sqrt(1.0 - sin_a * sin_a)

    # Eqs 14
    sx = vx * sin_a - vz * cos_a + R * wy
    sy = -vy - R * wz * cos_a + R * wx * sin_a
    c = -vx * cos_a
    # Eqs 16
    A = 3.5 / m
    B = 1.0 / m
    # Eqs 17, 20
    PzE = -(1.0 + e_c) * c / B
    s = math.sqrt(sx * sx + sy * sy)
    PzS = s / A
    if PzS <= f_c * PzE:
        # Eqs 18: the slip stops during the impact
        PxE = sx / A
        PyE = sy / A
    else:
        # Eqs 19: sliding throughout
        PxE = f_c * PzE * sx / s
        PyE = f_c * PzE * sy / s
    # Eqs 21-22
    PX = -PxE * sin_a - PzE * cos_a
    PY = PyE
    PZ = PxE * cos_a - PzE * sin_a
    # Eqs 23 (v_z not updated)
    vx += PX / m
    vy += PY / m
    k = R / (0.4 * m * R * R)
    wx += -k * PY * sin_a
    wy += k * (PX * sin_a - PZ * cos_a)
    wz += k * PY * cos_a

    # back to the table frame
    rvw[1, 0] = vx * ex - vy * ey
    rvw[1, 1] = vx * ey + vy * ex
    rvw[2, 0] = wx * ex - wy * ey
    rvw[2, 1] = wx * ey + wy * ex
    rvw[2, 2] = wz
