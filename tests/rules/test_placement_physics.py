"""Geometry decisions of the referee agree with the physics' layout validation: every cue-ball
placement the rules accept (G-3.22, 9B-5.10, G-3.10) and every G-3.32 spotting result is a
layout physics.simulate accepts (no overlap, on the bed)."""
import numpy as np
from hypothesis import given, settings, strategies as st

import physics
from poolgym.rules.game import make_rvw
from poolgym.rules.geometry import ball_radius, get_table, placement_error, spot_balls, triangle_slots

T = get_table("9ft")
R = ball_radius()


def physics_accepts(P, on):
    rvw = make_rvw(P, R)
    s = np.where(on, 0, 4).astype(np.int8)
    try:
        physics.simulate(T, rvw, physics.Shot(V0=0.0, phi=0.0), s=s)
    except ValueError as e:
        if "overlap" in str(e) or "off the bed" in str(e):
            return False
        raise
    return True


@settings(max_examples=150, deadline=None)
@given(st.floats(-0.05, 1.32), st.floats(-0.05, 2.6), st.booleans(), st.integers(0, 2**31 - 1))
def test_accepted_placement_is_valid_for_physics(x, y, kitchen, seed):
    rng = np.random.default_rng(seed)
    P = np.zeros((10, 2))
    on = np.zeros(10, bool)
    P[1:] = rng.uniform((R, R), (T.w - R, T.l - R), size=(9, 2))
    # keep only a non-overlapping subset of object balls
    for k in range(1, 10):
        if all(np.hypot(*(P[k] - P[j])) >= 2 * R for j in range(1, k) if on[j]) and \
                placement_error(P[k, 0], P[k, 1], P, on, T, R, kitchen=False, may_touch=True) is None:
            on[k] = True
    err = placement_error(x, y, P, on, T, R, kitchen=kitchen, may_touch=True)
    if err is None:
        P[0] = (x, y)
        on[0] = True
        assert physics_accepts(P, on)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 6))
def test_spotted_layout_is_valid_for_physics(seed, n_spot):
    rng = np.random.default_rng(seed)
    P = np.zeros((16, 2))
    on = np.zeros(16, bool)
    slots = triangle_slots(T, R, 1e-6)
    # a crowded foot area: some rack slots occupied, cue ball near the foot spot
    for k, slot in enumerate(slots[: 15 - n_spot]):
        if rng.random() < 0.6:
            P[k + 1] = slot
            on[k + 1] = True
    P[0] = (T.w / 2 + rng.uniform(-0.04, 0.04), T.foot_spot[1] - 0.1)
    on[0] = placement_error(P[0, 0], P[0, 1], P, on, T, R, kitchen=False, may_touch=True) is None
    balls = [b for b in range(1, 16) if not on[b]][:n_spot]
    out = spot_balls(balls, P, on, T, R)
    on2 = on.copy()
    on2[balls] = True
    assert np.allclose(out[balls, 0], T.w / 2)
    assert physics_accepts(out, on2)
