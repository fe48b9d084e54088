"""physics.lag: two lag strokes played at the same instant on one table (G-3.6)."""

from __future__ import annotations

import numpy as np
import pytest

import physics
from physics.lag import simulate_lag

T = physics.Table.wpa("9ft")
R = physics.BallParams().R
Y0 = T.l / 4 - R - 0.01
XY = np.array([[T.w * 0.25, Y0], [T.w * 0.75, Y0]])


def _alone(k, shot, **kw):
    rvw = np.zeros((1, 3, 3))
    rvw[0, 0, :2] = XY[k]
    rvw[0, 0, 2] = R
    return physics.simulate(T, rvw, np.asarray(shot, float), grow_log=True, **kw)


def _sampled_x(k, shot, n=600):
    """x of ball k alone along its path at its event times and n more (the path of a ball
    the other never meets)."""
    alone = _alone(k, shot)
    t_end = float(alone.ev_t[alone.n_events - 1])
    times = np.union1d(alone.ev_t[:alone.n_events], np.linspace(0.0, t_end, n))
    rvw = np.zeros((1, 3, 3))
    rvw[0, 0, :2] = XY[k]
    rvw[0, 0, 2] = R
    return np.array([physics.simulate(T, rvw, np.asarray(shot, float), t_final=float(t)).rvw[0, 0, 0]
                     for t in times])


def test_both_balls_struck_at_t0_and_each_path_is_its_lone_path():
    """Both STRIKE rows at t = 0; two balls that never meet end where each would alone."""
    shots = np.array([[2.0, 90.0, 0.0, 0.0, 0.0], [1.9, 91.0, 0.0, 0.1, -0.1]])
    res = simulate_lag(T, XY, shots)
    ev = res.sim.events()
    assert [(e[0], e[1], e[2]) for e in ev[:2]] == [(0.0, physics.EventKind.STRIKE, 0),
                                                    (0.0, physics.EventKind.STRIKE, 1)]
    assert not any(e[1] == physics.EventKind.BALL_BALL for e in ev)
    assert res.sim.n_events == len(ev) and res.sim.status == 0
    for k in range(2):
        alone = _alone(k, shots[k])
        np.testing.assert_allclose(res.sim.rvw[k, 0], alone.rvw[0, 0], atol=1e-9)
        mine = [e[1:3] for e in ev if e[2] == k]
        theirs = [(e[1], k) for e in alone.events()]
        assert mine == theirs
    np.testing.assert_array_equal(res.shots, shots)


def test_x_extent_is_exact():
    """x_min / x_max bound every sampled point of the path and are reached (to the sampling
    resolution): a straight stroke never leaves its x; an angled one reaches across."""
    straight = simulate_lag(T, XY, np.array([[2.0, 90.0, 0, 0, 0], [2.0, 90.0, 0, 0, 0]]))
    np.testing.assert_allclose(straight.x_min, XY[:, 0], atol=1e-12)  # cos(90 deg) is not 0 in floats
    np.testing.assert_allclose(straight.x_max, XY[:, 0], atol=1e-12)
    shots = np.array([[2.0, 60.0, 0.0, 0.0, 0.0], [1.5, 100.0, 0.0, 0.2, 0.2]])
    res = simulate_lag(T, XY, shots)
    for k in range(2):
        xs = _sampled_x(k, shots[k])
        assert res.x_max[k] >= xs.max() - 1e-12 and res.x_min[k] <= xs.min() + 1e-12
        assert res.x_max[k] - xs.max() < 2e-3 and xs.min() - res.x_min[k] < 2e-3
    assert res.x_max[0] > T.w / 2  # ball 0 went over the long string


def test_balls_on_one_table_collide():
    """A ball sent across the long string hits the other one: the simultaneous strokes
    interact (a BALL_BALL event between the two), which two lone simulations cannot show."""
    res = simulate_lag(T, XY, np.array([[3.0, 0.0, 0, 0, 0], [0.05, 90.0, 0, 0, 0]]))
    bb = [e for e in res.sim.events() if e[1] == physics.EventKind.BALL_BALL]
    assert bb and {bb[0][2], bb[0][3]} == {0, 1}
    assert res.x_max[1] > XY[1, 0] + 0.1  # knocked across its own half


def test_noise_is_seeded_and_drawn_for_both_strokes():
    shots = np.array([[2.0, 90.0, 0.0, 0.0, 0.0], [2.0, 90.0, 0.0, 0.0, 0.0]])
    noise = physics.ExecutionNoise.icga()
    a = simulate_lag(T, XY, shots, noise=noise, rng=np.random.default_rng(5))
    b = simulate_lag(T, XY, shots, noise=noise, rng=np.random.default_rng(5))
    np.testing.assert_array_equal(a.sim.rvw, b.sim.rvw)
    np.testing.assert_array_equal(a.shots, noise.apply(shots, np.random.default_rng(5)))
    assert not np.array_equal(a.shots[0], a.shots[1])


@pytest.mark.parametrize("xy, shots, field", [
    (XY[:1], np.zeros((2, 5)), "xy"),
    (XY, np.zeros((1, 5)), "shots"),
    (np.array([[0.5, 0.5], [0.52, 0.5]]), np.array([[1.0, 90, 0, 0, 0]] * 2), "rvw"),
    (XY, np.array([[1.0, 90, 0, 0, 0], [1.0, 90, 95.0, 0, 0]]), "shot.theta"),
    (XY, np.array([[1.0, 90, 0, 0, 0], [np.nan, 90, 0, 0, 0]]), "shot.V0"),
])
def test_bad_input_names_the_field(xy, shots, field):
    with pytest.raises(ValueError, match=field.replace(".", r"\.")):
        simulate_lag(T, xy, shots)
