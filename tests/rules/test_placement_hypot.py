"""`hypot_lt` / `hypot_le`, the distance comparisons of the referee's placement check
(`placement_code`, `rests_on_bed`: G-3.22, 9B-5.10, on the bed), give exactly the answers of
``math.hypot(dx, dy) < r`` / ``<= r`` compiled (numba's hypot, which can differ from CPython's
in the last bit), also at the boundary (r equal to the distance and one
float step either side), for zero, negative, tiny, huge and non-finite inputs."""

import math

import numpy as np
from numba import njit

from poolgym.rules.placement import hypot_le, hypot_lt


@njit
def _ref_lt(dx, dy, r):
    return math.hypot(dx, dy) < r


@njit
def _ref_le(dx, dy, r):
    return math.hypot(dx, dy) <= r


def _cases():
    rng = np.random.default_rng(0)
    out = []
    for _ in range(3000):
        dx, dy = rng.normal(0, 0.5, 2) * 10.0 ** rng.integers(-6, 2)
        h = math.hypot(dx, dy)
        for r in (h, np.nextafter(h, 0), np.nextafter(h, 1), h * (1 + 2e-9), h * (1 - 2e-9), h * (1 + 1e-10),
                  h * (1 - 1e-10), rng.uniform(0, 2 * h + 1e-12), -h):
            out.append((float(dx), float(dy), float(r)))
    specials = (0.0, -0.0, 1e-200, -1e-170, 1e160, 1e300, math.inf, -math.inf, math.nan, 0.028575)
    for dx in specials:
        for dy in specials:
            for r in specials + (0.05715, math.hypot(dx, dy) if math.isfinite(math.hypot(dx, dy)) else 1.0):
                out.append((dx, dy, r))
    return out


def test_hypot_lt_le_equal_math_hypot():
    n_boundary = 0
    for dx, dy, r in _cases():
        h = math.hypot(dx, dy)
        assert hypot_lt(dx, dy, r) == _ref_lt(dx, dy, r), (dx, dy, r)
        assert hypot_le(dx, dy, r) == _ref_le(dx, dy, r), (dx, dy, r)
        n_boundary += h == r
    assert n_boundary > 1000  # the boundary itself exercised
