"""Frictionless, perfectly elastic, instantaneous collision of two equal balls.

The textbook model (e.g. Kiefl 2020, "pooltool-theory", section "elastic, instantaneous,
frictionless"; pooltool 0.6.0 ``ball_ball/frictionless_elastic``): with the line-of-centres unit
vector ``n = unit(r2 - r1)`` and equal masses, momentum and kinetic energy conservation with no
tangential force give

    v1' = v1 - ((v1 - v2) . n) n
    v2' = v2 + ((v1 - v2) . n) n

i.e. the balls exchange their normal velocity components and keep their tangential ones. Spins
are unchanged (no friction, no torque). The 90-degree rule follows: a moving ball hitting a ball at
rest leaves along the tangent line, perpendicular to the object ball.

The model applies the exchange whatever the sign of the approach speed; the caller only resolves
approaching pairs.
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, no_cfunc_wrapper=True)
def resolve(rvw1, rvw2):
    """Resolve an elastic frictionless collision, updating ``rvw1`` and ``rvw2`` in place.

    Args:
        rvw1, rvw2: ``(3, 3)`` float64 arrays [position, velocity, angular velocity] of the two
            balls at contact.
    """
    dx = rvw2[0, 0] - rvw1[0, 0]
    dy = rvw2[0, 1] - rvw1[0, 1]
    dz = rvw2[0, 2] - rvw1[0, 2]
    d = math.sqrt(dx * dx + dy * dy + dz * dz)
    if d == 0.0:
        return
    nx = dx / d
    ny = dy / d
    nz = dz / d
    # normal component of the relative velocity, handed over from ball 1 to ball 2
    vn = ((rvw1[1, 0] - rvw2[1, 0]) * nx + (rvw1[1, 1] - rvw2[1, 1]) * ny
          + (rvw1[1, 2] - rvw2[1, 2]) * nz)
    rvw1[1, 0] -= vn * nx
    rvw1[1, 1] -= vn * ny
    rvw1[1, 2] -= vn * nz
    rvw2[1, 0] += vn * nx
    rvw2[1, 1] += vn * ny
    rvw2[1, 2] += vn * nz
