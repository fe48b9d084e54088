"""Helpers shared by the physics tests (imported as a plain module)."""

from __future__ import annotations

import numpy as np
import physics

R = physics.BallParams().R


def layout(xy) -> np.ndarray:
    """rvw (N, 3, 3) of balls at rest at the given centre positions."""
    xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    rvw = np.zeros((len(xy), 3, 3))
    rvw[:, 0, :2] = xy
    rvw[:, 0, 2] = R
    return rvw


def random_layout(rng: np.random.Generator, table, n: int) -> np.ndarray:
    """n non-overlapping balls placed uniformly on the bed (rejection sampling)."""
    pts = []
    while len(pts) < n:
        p = rng.uniform([R + 1e-3, R + 1e-3], [table.w - R - 1e-3, table.l - R - 1e-3])
        if all(np.hypot(*(p - q)) > 2 * R + 1e-4 for q in pts):
            pts.append(p)
    return layout(pts)


def energy(rvw, s, bp=physics.BallParams()):
    on = s != physics.Motion.POCKETED
    v2 = (rvw[:, 1] ** 2).sum(-1)
    w2 = (rvw[:, 2] ** 2).sum(-1)
    return float((0.5 * bp.m * v2 + 0.5 * 0.4 * bp.m * bp.R ** 2 * w2)[on].sum())
