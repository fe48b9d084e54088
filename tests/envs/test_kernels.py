"""numba fast paths against their numpy references (numbagg/stumpy style)."""

import numpy as np
import pytest

from poolgym import aim
from poolgym.envs import kernels
from poolgym.envs.codec import _table_arrays, nearest_legal_placement
from poolgym.envs.physics_io import separate_tiny_overlaps
from poolgym.rules.geometry import placement_error
from poolgym.rules.geometry import placement_error_reference

R = aim.BALL_RADIUS


def _layout(rng, n=10, table=None):
    pos = np.zeros((n, 2))
    k = 0
    while k < n:
        p = np.array([rng.uniform(R, table.w - R), rng.uniform(R, table.l - R)])
        if k == 0 or np.min(np.hypot(*(pos[:k] - p).T)) > 2.05 * R:
            pos[k] = p
            k += 1
    return pos


def test_placement_ok_matches_rules_placement_error_G_3_22(table9):
    """G-3.22 / 9B-5.10 / on-bed checks: kernel == rules reference on random points."""
    rng = np.random.default_rng(0)
    pockets, segs, jaws = _table_arrays(table9)
    pos = _layout(rng, 10, table9)
    on = np.ones(10, bool)
    on[0] = False
    agree = 0
    for _ in range(3000):
        x, y = rng.uniform(-0.02, table9.w + 0.02), rng.uniform(-0.02, table9.l + 0.02)
        ref = placement_error_reference(x, y, pos, on, table9, R, kitchen=False, may_touch=False,
                                        touch_eps=2e-4) is None
        got = kernels.placement_ok(x, y, pos, on, pockets, segs, jaws, R, 2 * R + 2e-4, R, table9.w - R, R,
                                   table9.l - R)
        agree += ref == got
    assert agree == 3000


def test_nearest_legal_placement_is_accepted_by_the_rules(table9):
    rng = np.random.default_rng(1)
    for _ in range(200):
        pos = _layout(rng, 16, table9)
        on = np.ones(16, bool)
        kitchen = bool(rng.integers(2))
        x, y = nearest_legal_placement(*pos[int(rng.integers(1, 16))], pos, on, table9, R, kitchen=kitchen)
        assert placement_error(x, y, pos, on, table9, R, kitchen=kitchen, may_touch=False) is None


def test_separate_overlaps_matches_reference():
    rvw = np.zeros((3, 3, 3))
    rvw[:, 0, :2] = [[0.5, 0.5], [0.5, 0.5 + 2 * R - 5e-7], [1.0, 1.0]]
    s = np.zeros(3, np.int8)
    a, b = rvw.copy(), rvw.copy()
    kernels.separate_overlaps(a, s, R, 1e-5)
    separate_tiny_overlaps(b, s, R)
    np.testing.assert_allclose(a, b, atol=1e-12)
    assert np.linalg.norm(a[0, 0, :2] - a[1, 0, :2]) >= 2 * R


@pytest.mark.parametrize("seed", range(20))
def test_best_pot_matches_pot_candidates(table9, seed):
    rng = np.random.default_rng(seed)
    g = aim.pocket_geometry(table9)
    pos = _layout(rng, 10, table9)
    on = np.ones(10, bool)
    targets = [1, 2, 3]
    ref = aim.pot_candidates(pos, on, targets, g)
    got = kernels.best_pot(pos, on, np.array(targets), np.ascontiguousarray(g.aim_points),
                           np.ascontiguousarray(g.jaw_centers), np.ascontiguousarray(g.jaw_radii), 0, R)
    best = ref.best()
    if best is None:
        assert got[0] == -1
    else:
        assert (got[0], got[1]) == best
        t = targets.index(best[0])
        assert got[2] == pytest.approx(ref.phi[t, best[1]])
        assert got[6] == pytest.approx(ref.score[t, best[1]])
