"""Separation rule for two balls left moving together after a collision (pooltool 0.6.0).

Not a physics paper model: the phenomenological rule pooltool 0.6.0 applies after EVERY ball-ball
resolution (``CoreBallBallCollision.resolve_continually_touching``), whatever the model, so that
balls driven along their line of centres with almost equal speeds (Newton's cradle, a cue ball
following an object ball) do not trigger an explosion of collisions microseconds apart. Engines
that want pooltool's event sequence call it right after the model's ``resolve``.

Rule, with n = unit(r2 - r1) and line-of-centres speeds u1 = v1 . n, u2 = v2 . n:
if both balls move (|v| > 0), their velocities point the same way (cosine similarity > 0.9) and
|u2 - u1| < 0.01 m/s, the chased ball (the one with the smaller u) takes ``THEFT_FRACTION`` = 10%
of the chaser's line-of-centres speed, which the chaser loses (equal masses: momentum is kept).
Tangential components and spins are unchanged. Otherwise nothing changes.
"""

from __future__ import annotations

import math

from numba import njit

#: fraction of the chaser's line-of-centres speed handed to the chased ball
THEFT_FRACTION = 0.10
#: line-of-centres relative speed (m/s) below which the rule applies
SPEED_THRESHOLD = 0.01
#: minimum cosine similarity of the two velocities for the rule to apply
ALIGNMENT_THRESHOLD = 0.9


@njit(cache=True, no_cfunc_wrapper=True)
def resolve(rvw1, rvw2):
    """Apply the separation rule in place (see module docstring); returns nothing."""
    v1x, v1y, v1z = rvw1[1, 0], rvw1[1, 1], rvw1[1, 2]
    v2x, v2y, v2z = rvw2[1, 0], rvw2[1, 1], rvw2[1, 2]
    s1 = math.sqrt(v1x * v1x + v1y * v1y + v1z * v1z)
    s2 = math.sqrt(v2x * v2x + v2y * v2y + v2z * v2z)
    if not (s1 > 0.0 and s2 > 0.0):
        return
    dx = rvw2[0, 0] - rvw1[0, 0]
    dy = rvw2[0, 1] - rvw1[0, 1]
    dz = rvw2[0, 2] - rvw1[0, 2]
    d = math.sqrt(dx * dx + dy * dy + dz * dz)
    if d == 0.0:
        return
    nx, ny, nz = dx / d, dy / d, dz / d
    u1 = v1x * nx + v1y * ny + v1z * nz
    u2 = v2x * nx + v2y * ny + v2z * nz
    cos_sim = (v1x * v2x + v1y * v2y + v1z * v2z) / (s1 * s2)
    if not (abs(u2 - u1) < SPEED_THRESHOLD and cos_sim > ALIGNMENT_THRESHOLD):
        return
    if u1 > u2:
        stolen = THEFT_FRACTION * u1  # ball 1 chases ball 2
        du1 = -stolen
        du2 = stolen
    else:
        stolen = THEFT_FRACTION * u2
        du1 = stolen
        du2 = -stolen
    rvw1[1, 0] += du1 * nx
    rvw1[1, 1] += du1 * ny
    rvw1[1, 2] += du1 * nz
    rvw2[1, 0] += du2 * nx
    rvw2[1, 1] += du2 * ny
    rvw2[1, 2] += du2 * nz
