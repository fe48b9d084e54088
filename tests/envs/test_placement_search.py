"""The env's search for a legal cue-ball spot and its overlap guard, against numpy oracles."""

import numpy as np

from poolgym.envs.codec import nearest_legal_placement
from poolgym.planning import BALL_RADIUS
from poolgym.rules.geometry import placement_error
from poolgym.rules.placement import nearest_legal_spot, table_arrays
from poolgym.rules.separation import separate_overlaps_batch
from tests.rules.placement_reference import placement_error_reference

R = BALL_RADIUS


def _layout(rng, n=10, table=None):
    pos = np.zeros((n, 2))
    k = 0
    while k < n:
        p = np.array([rng.uniform(R, table.w - R), rng.uniform(R, table.l - R)])
        if k == 0 or np.min(np.hypot(*(pos[:k] - p).T)) > 2.05 * R:
            pos[k] = p
            k += 1
    return pos


def test_nearest_legal_spot_is_the_referees_spot_G_3_22_9B_5_10(table9):
    """A spot the search accepts is legal for the rules' oracle with the player's 0.2 mm
    clearance (G-3.22, 9B-5.10, on the bed); an accepted wanted spot is kept as it is."""
    rng = np.random.default_rng(0)
    w, l, hy, pockets, segs, jaws = table_arrays(table9)
    pos = _layout(rng, 10, table9)
    on = np.ones(10, bool)
    on[0] = False
    kept = 0
    for _ in range(3000):
        x, y = rng.uniform(-0.02, table9.w + 0.02), rng.uniform(-0.02, table9.l + 0.02)
        ok, px, py = nearest_legal_spot(x, y, pos, on, False, w, l, hy, pockets, segs, jaws, R, 2e-4, 1e-6,
                                        R / 2, 400)
        assert ok
        assert placement_error_reference(px, py, pos, on, table9, R, kitchen=False, may_touch=False,
                                         touch_eps=2e-4) is None
        kept += (px, py) == (x, y)
        if (px, py) != (x, y) and R + 1e-6 <= x <= table9.w - R - 1e-6 and R + 1e-6 <= y <= table9.l - R - 1e-6:
            assert placement_error_reference(x, y, pos, on, table9, R, kitchen=False, may_touch=False,
                                             touch_eps=2e-4) is not None
    assert kept > 2000


def test_nearest_legal_placement_is_accepted_by_the_rules(table9):
    rng = np.random.default_rng(1)
    for _ in range(200):
        pos = _layout(rng, 16, table9)
        on = np.ones(16, bool)
        kitchen = bool(rng.integers(2))
        x, y = nearest_legal_placement(*pos[int(rng.integers(1, 16))], pos, on, table9, R, kitchen=kitchen)
        assert placement_error(x, y, pos, on, table9, R, kitchen=kitchen, may_touch=False) is None


def _separate_reference(rvw, s, R, tol=1e-5):
    """Oracle: push apart, in place, stationary balls closer than 2R by less than ``tol``,
    each ball of a pair half the deficit (+1e-9 m) along the line of centres."""
    idx = np.flatnonzero(s == 0)
    for _ in range(4):
        P = rvw[idx, 0, :2]
        d = P[:, None, :] - P[None, :, :]
        dist = np.sqrt((d * d).sum(-1))
        np.fill_diagonal(dist, np.inf)
        bad = (dist < 2 * R) & (dist > 2 * R - tol)
        if not bad.any():
            return
        for a, b in zip(*np.nonzero(np.triu(bad))):
            u = d[a, b] / dist[a, b]
            push = (2 * R - dist[a, b]) / 2 + 1e-9
            rvw[idx[a], 0, :2] += u * push
            rvw[idx[b], 0, :2] -= u * push


def test_separate_overlaps_batch_matches_reference():
    rvw = np.zeros((1, 4, 3, 3))
    rvw[0, :, 0, :2] = [[0.5, 0.5], [0.5, 0.5 + 2 * R - 5e-7], [1.0, 1.0], [1.0 + 2 * R - 1e-3, 1.0]]
    s = np.zeros((1, 4), np.int8)
    a, b = rvw.copy(), rvw[0].copy()
    separate_overlaps_batch(a, s, R)
    _separate_reference(b, s[0], R)
    np.testing.assert_allclose(a[0], b, atol=1e-12)
    assert np.linalg.norm(a[0, 0, 0, :2] - a[0, 1, 0, :2]) >= 2 * R
    np.testing.assert_array_equal(a[0, 2:], rvw[0, 2:])  # a deep overlap is left to the physics
