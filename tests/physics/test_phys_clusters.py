"""Clusters: frozen racks and touching balls must not make the event count explode."""

from __future__ import annotations

import math

import numpy as np
import pytest

import physics
from physics.detect import ball_ball_time
from phys_helpers import R, layout

P = physics.BallParams().as_array()


def rack15(table, rng, gap):
    fx, fy = table.foot_spot
    d = 2 * R + gap
    pos = np.array([(fx + (c - r / 2) * d, fy + r * d * math.sqrt(3) / 2)
                    for r in range(5) for c in range(r + 1)])
    if gap > 0:
        pos += rng.uniform(-gap / 4, gap / 4, pos.shape)
    return pos


@pytest.mark.parametrize("gap", [0.0, 1e-6, 1e-4])
def test_random_15_ball_breaks_bounded(table9, gap):
    """Seeded random 15-ball breaks at 8-12 m/s on frozen (gap 0) and loose racks."""
    rng = np.random.default_rng(42)
    B = 40
    rvw = np.zeros((B, 16, 3, 3))
    shots = np.zeros((B, 5))
    for k in range(B):
        p = rack15(table9, rng, gap)
        c = np.array([rng.uniform(0.2, table9.w - 0.2), rng.uniform(0.1, table9.head_string_y)])
        rvw[k, 0, 0, :2] = c
        rvw[k, 1:, 0, :2] = p
        phi = math.degrees(math.atan2(p[0, 1] - c[1], p[0, 0] - c[0])) + rng.normal(0, 0.3)
        shots[k] = [rng.uniform(8, 12), phi, 0, rng.uniform(-0.2, 0.2), rng.uniform(-0.3, 0.3)]
    res = physics.simulate_batch(table9, rvw, shots, np.zeros(B, dtype=int))
    assert np.all(res.status == physics.Status.OK)
    assert res.n_events.max() < 600
    assert np.percentile(res.n_events, 90) < 300


def test_touching_pair_not_predicted_at_t0():
    """Two touching balls: no collision now unless they approach; the contact they sit in is
    never reported again, but a later approach is."""
    rv1 = layout([[0.5, 0.5]])[0]
    rv2 = layout([[0.5 + 2 * R, 0.5]])[0]
    # ball 1 rolls away from ball 2
    a = rv1.copy()
    a[1, :2] = [-0.5, 0.0]
    a[2, :2] = [0.0, -0.5 / R]
    assert ball_ball_time(a, 3, rv2, 0, P, 10.0) == math.inf
    # ball 1 rolls into ball 2: collision now
    a[1, :2] = [0.5, 0.0]
    a[2, :2] = [0.0, 0.5 / R]
    assert ball_ball_time(a, 3, rv2, 0, P, 10.0) == 0.0
    # ball 1 slides away but its spin turns it around: a later approach is found
    a[1, :2] = [-0.2, 0.0]
    a[2, :2] = [0.0, 40.0]  # forward (+x) spin: friction turns it around
    t = ball_ball_time(a, 2, rv2, 0, P, 10.0)
    assert 0.0 < t < math.inf


@pytest.mark.parametrize("b", [-0.4, 0.0, 0.4])
@pytest.mark.parametrize("V0", [0.3, 3.0])
def test_frozen_pair_push_shot_is_short(table9, b, V0):
    rvw = layout([[0.635, 0.6], [0.635, 0.6 + 2 * R]])
    res = physics.simulate(table9, rvw, physics.Shot(V0, 90.0, b=b))
    assert res.status == physics.Status.OK and res.n_events < 40
    assert np.hypot(*(res.rvw[0, 0, :2] - res.rvw[1, 0, :2])) >= 2 * R - 1e-9 or res.s[1] == 4


@pytest.mark.parametrize("gap", [0.0, 1e-6])
def test_no_overlap_after_any_event_in_breaks(table9, gap):
    """Contact corrections never push a ball into a third ball of a (frozen) rack."""
    rng = np.random.default_rng(3)
    p = rack15(table9, rng, gap)
    rvw = layout(np.vstack([[table9.w / 2 + 0.1, table9.head_string_y], p]))
    d = p[0] - rvw[0, 0, :2]
    shot = physics.Shot(10.0, math.degrees(math.atan2(d[1], d[0])) + 0.2)
    full = physics.simulate(table9, rvw, shot)
    for t in np.unique(full.ev_t[1:full.n_events]):
        r = physics.simulate(table9, rvw, shot, t_final=float(t))
        xy = r.rvw[r.s != physics.Motion.POCKETED, 0, :2]
        dist = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1))
        dist[np.diag_indices(len(xy))] = np.inf
        assert dist.min() >= 2 * R - 1e-12
