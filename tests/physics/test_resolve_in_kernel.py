"""The resolve models are callable from inside numba kernels on views of batched state arrays."""

import numpy as np
from numba import njit

from physics.resolve.ball_ball import (
    continually_touching,
    frictional_inelastic,
    frictionless_elastic,
)
from physics.resolve.cushion import han_2005, mathavan_2010

R, M, H = 0.028575, 0.170097, 0.036576


# not cached on purpose: numba's cache of a caller is not invalidated when a callee module changes
@njit
def _kernel(rvw, which):
    # rvw: (B, N, 3, 3); resolve ball 0 vs 1 of table b with model which[b]
    for b in range(rvw.shape[0]):
        k = which[b]
        if k == 0:
            frictionless_elastic.resolve(rvw[b, 0], rvw[b, 1])
        elif k == 1:
            frictional_inelastic.resolve(rvw[b, 0], rvw[b, 1], R, M, 0.95, 0.009951, 0.108, 1.088)
            continually_touching.resolve(rvw[b, 0], rvw[b, 1])
        elif k == 2:
            han_2005.resolve(rvw[b, 0], 0.0, 1.0, R, M, H, 0.85, 0.2)
        else:
            mathavan_2010.resolve(rvw[b, 0], 0.0, 1.0, R, M, H, 0.85, 0.2, 0.2, 9.81)


def test_models_run_inside_a_kernel_on_views():
    rng = np.random.default_rng(0)
    B = 8
    rvw = np.zeros((B, 3, 3, 3))
    for b in range(B):
        rvw[b, 0, 0] = [0.5, R, R]
        rvw[b, 1, 0] = [0.5 + 2 * R, R, R]
        rvw[b, 0, 1, :2] = [rng.uniform(0.1, 1.0), -rng.uniform(0.2, 2.0)]
        rvw[b, 0, 2] = rng.normal(0, 20, 3)
    which = np.arange(B) % 4
    # ball-ball tables: make ball 0 approach ball 1 along +x
    rvw[which < 2, 0, 1, 0] += 1.0
    expected = rvw.copy()
    for b in range(B):
        e = expected[b]
        if which[b] == 0:
            frictionless_elastic.resolve(e[0], e[1])
        elif which[b] == 1:
            frictional_inelastic.resolve(e[0], e[1], R, M, 0.95, 0.009951, 0.108, 1.088)
            continually_touching.resolve(e[0], e[1])
        elif which[b] == 2:
            han_2005.resolve(e[0], 0.0, 1.0, R, M, H, 0.85, 0.2)
        else:
            mathavan_2010.resolve(e[0], 0.0, 1.0, R, M, H, 0.85, 0.2, 0.2, 9.81)
    before = rvw.copy()
    _kernel(rvw, which)
    assert np.array_equal(rvw, expected)
    assert not np.array_equal(rvw, before)
    assert np.array_equal(rvw[:, 2], before[:, 2]), "untouched balls stay untouched"
