"""Random shots over the documented input ranges, and the soundness checks of their outcomes.

Used by ``benchmarks/fuzz_physics.py`` (millions of shots) and by a seeded slice of it in
``tests/physics/test_phys_fuzz.py``. A fuzz batch is drawn from a seed alone (numba's own
generator, seeded inside the compiled call), so the same seed gives the same shots.

Layouts (``random_layouts``): 1 to 16 balls; each ball is, with equal odds, anywhere on the
bed, frozen to a straight cushion (gap in [0, 1e-9] m, which the validator accepts), touching
a jaw circle (a ball in a pocket mouth) or touching a ball placed before it (clusters,
wedges); candidates the validator would refuse are drawn again.

Shots (``random_shots``): ``V0`` in [0, 50] m/s (half of them below 8 m/s), ``phi`` in
[0, 360), ``theta`` exactly 90 for a quarter, in [85, 90] for a quarter, else in [0, 90];
the tip offset ``(a, b)`` uniform in the disc of the miscue limit, a fifth of them on its
edge.

Checks (``check_batch``): per table its status (MAX_ITER, EVENT_LOG_OVERFLOW), and whether the
final layout is a valid input for the next shot (``physics.simulate``'s own layout check):
a ball off the bed (an escape: through a cushion, off the table) or two balls overlapping.
A ball POCKETED or OFF_TABLE (it left the table over a cushion in the three-dimensional model,
``simulate(..., airborne=True)``) is not on the bed and is not checked; whether it may leave
the table is the caller's question (``benchmarks/fuzz_physics.py --airborne``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from physics.simulate import _layout_problem

#: fraction of shots played with theta exactly 90 and with theta in [85, 90]
P_THETA_90 = 0.25
P_THETA_STEEP = 0.25
#: ball placement modes (equal odds)
FREE, CUSHION, JAW, TOUCH = 0, 1, 2, 3


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _fits(rvw, k, n, x, y, R, segs, normals, jaws, pockets, w, l, cw):
    """True if a ball at (x, y) is on the bed and clear of balls 0..n-1 of table k (the
    validator's tests, ``physics.simulate._layout_problem``, with its tolerance)."""
    rvw[k, n, 0, 0] = x
    rvw[k, n, 0, 1] = y
    tol = 1e-9
    if not (-cw < x < w + cw and -cw < y < l + cw):
        return False
    for q in range(segs.shape[0]):
        p1x, p1y = segs[q, 0, 0], segs[q, 0, 1]
        dist = (x - p1x) * normals[q, 0] + (y - p1y) * normals[q, 1]
        if dist < R - tol:
            dx, dy = segs[q, 1, 0] - p1x, segs[q, 1, 1] - p1y
            u = ((x - p1x) * dx + (y - p1y) * dy) / (dx * dx + dy * dy)
            if 0.0 <= u <= 1.0:
                return False
    for q in range(jaws.shape[0]):
        if math.hypot(x - jaws[q, 0], y - jaws[q, 1]) < R + jaws[q, 2] - tol:
            return False
    for q in range(pockets.shape[0]):
        if math.hypot(x - pockets[q, 0], y - pockets[q, 1]) <= pockets[q, 2]:
            return False
    for j in range(n):
        if math.hypot(x - rvw[k, j, 0, 0], y - rvw[k, j, 0, 1]) < 2.0 * R - tol:
            return False
    return True


@njit(cache=True, no_cfunc_wrapper=True)
def _layouts(seed, B, N, R, segs, normals, jaws, pockets, w, l, cw):
    np.random.seed(seed)
    rvw = np.zeros((B, N, 3, 3))
    s = np.full((B, N), 4, np.int8)
    for k in range(B):
        n_balls = 1 + np.random.randint(N)
        n = 0
        tries = 0
        while n < n_balls and tries < 400:
            tries += 1
            mode = np.random.randint(4)
            gap = np.random.random() * 1e-9
            if mode == CUSHION:
                q = np.random.randint(segs.shape[0])
                u = np.random.random()
                x = segs[q, 0, 0] + u * (segs[q, 1, 0] - segs[q, 0, 0]) + (R + gap) * normals[q, 0]
                y = segs[q, 0, 1] + u * (segs[q, 1, 1] - segs[q, 0, 1]) + (R + gap) * normals[q, 1]
            elif mode == JAW:
                q = np.random.randint(jaws.shape[0])
                ang = 2.0 * math.pi * np.random.random()
                rad = R + jaws[q, 2] + gap
                x = jaws[q, 0] + rad * math.cos(ang)
                y = jaws[q, 1] + rad * math.sin(ang)
            elif mode == TOUCH and n > 0:
                j = np.random.randint(n)
                ang = 2.0 * math.pi * np.random.random()
                x = rvw[k, j, 0, 0] + (2.0 * R + gap) * math.cos(ang)
                y = rvw[k, j, 0, 1] + (2.0 * R + gap) * math.sin(ang)
            else:
                x = R + (w - 2.0 * R) * np.random.random()
                y = R + (l - 2.0 * R) * np.random.random()
            if _fits(rvw, k, n, x, y, R, segs, normals, jaws, pockets, w, l, cw):
                rvw[k, n, 0, 2] = R
                s[k, n] = 0
                n += 1
        for j in range(n, N):  # unused rows: pocketed, parked at pocket 0's centre
            rvw[k, j, 0, 0] = pockets[0, 0]
            rvw[k, j, 0, 1] = pockets[0, 1]
            rvw[k, j, 0, 2] = -0.08
    return rvw, s


def random_layouts(seed: int, B: int, table, R: float, n_max: int = 16):
    """(rvw (B, n_max, 3, 3), s (B, n_max) int8): B random layouts of 1..n_max balls (row 0,
    the cue ball, always on the bed; unused rows POCKETED). Same seed, same layouts."""
    return _layouts(int(seed), int(B), int(n_max), float(R), table.segments, table.segment_normals,
                    table.jaws, table.pockets, float(table.w), float(table.l),
                    float(table.specs.cushion_width))


@njit(cache=True, no_cfunc_wrapper=True)
def _shots(seed, B, miscue):
    np.random.seed(seed)
    out = np.empty((B, 5))
    for k in range(B):
        u = np.random.random()
        out[k, 0] = 8.0 * np.random.random() if u < 0.5 else 50.0 * np.random.random()
        out[k, 1] = 360.0 * np.random.random()
        u = np.random.random()
        if u < P_THETA_90:
            out[k, 2] = 90.0
        elif u < P_THETA_90 + P_THETA_STEEP:
            out[k, 2] = 85.0 + 5.0 * np.random.random()
        else:
            out[k, 2] = 90.0 * np.random.random()
        ang = 2.0 * math.pi * np.random.random()
        rad = miscue * (1.0 - 1e-12) if np.random.random() < 0.2 else miscue * math.sqrt(np.random.random())
        out[k, 3] = rad * math.cos(ang)
        out[k, 4] = rad * math.sin(ang)
    return out


def random_shots(seed: int, B: int, miscue_limit: float = 0.5) -> np.ndarray:
    """(B, 5) shots [V0 phi theta a b] over the documented ranges (see the module docstring)."""
    return _shots(int(seed), int(B), float(miscue_limit))


@njit(cache=True, no_cfunc_wrapper=True)
def _check(rvw, s, R, segs, normals, jaws, pockets, w, l, cw, out):
    for k in range(rvw.shape[0]):
        code, _, _, _ = _layout_problem(rvw[k:k + 1], s[k:k + 1], R, segs, normals, jaws, pockets,
                                        w, l, cw)
        out[k] = code


def layout_problems(table, rvw, s, R: float) -> np.ndarray:
    """Per table: 0 if the layout is a valid input for the next shot, 1 a ball is off the bed
    (escaped), 2 two balls overlap (``physics.simulate``'s layout check, tolerance 1e-9 m)."""
    out = np.zeros(rvw.shape[0], np.int64)
    _check(np.ascontiguousarray(rvw), np.ascontiguousarray(s), float(R), table.segments,
           table.segment_normals, table.jaws, table.pockets, float(table.w), float(table.l),
           float(table.specs.cushion_width), out)
    return out
