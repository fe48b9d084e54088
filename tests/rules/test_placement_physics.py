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


def _string_layout(rng, n_on: int):
    """A layout of ``n_on`` balls (the cue ball possibly among them) crowding the long string
    behind the centre, some frozen to others (what the spotting search must step around)."""
    P = np.zeros((16, 2))
    on = np.zeros(16, bool)
    for b in rng.permutation(16)[:n_on]:
        for _ in range(60):
            if rng.random() < 0.7:
                xy = np.array([T.w / 2 + rng.normal(0.0, 2 * R), rng.uniform(T.l / 2, T.l - R)])
            else:
                xy = rng.uniform((R, R), (T.w - R, T.l - R))
            if on.any() and rng.random() < 0.3:
                k = rng.choice(np.flatnonzero(on))
                a = rng.uniform(0.0, 2 * np.pi)
                xy = P[k] + 2 * R * (1 + 1e-12) * np.array([np.cos(a), np.sin(a)])
            if _free(xy, P, on):
                P[b] = xy
                on[b] = True
                break
    while not on[0]:  # the physics needs a cue ball on the bed
        xy = rng.uniform((R, R), (T.w - R, T.l - R))
        if _free(xy, P, on):
            P[0], on[0] = xy, True
    return P, on


def _free(xy, P, on) -> bool:
    """On the bed (the referee's placement check) and at least 2R from every ball."""
    return placement_error(xy[0], xy[1], P, on, T, R, kitchen=False, may_touch=True) is None and \
        all(np.hypot(*(P[k] - xy)) >= 2 * R for k in np.flatnonzero(on))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(0, 15), st.integers(1, 15), st.integers(0, 3))
def test_spot_into_twice_keeps_the_layout_valid_for_physics(seed, n_on, n_spot, split):
    """G-3.32 through the games' helper (`games.common.spot_into`, as cribbage spots the
    early 15 and jumped balls, then the open balls, CR-9.4 / CR-9.7): whatever the table --
    balls crowding the long string, balls frozen together, the cue ball anywhere -- the
    spotted balls lie on the long string, clear of every ball (the cue ball by ``spot_gap``),
    and physics.simulate accepts the layout."""
    from poolgym.rules.games.common import spot_into
    from poolgym.rules.testing import make_state

    rng = np.random.default_rng(seed)
    P, on = _string_layout(rng, n_on)
    off = [b for b in range(1, 16) if not on[b]]
    if not off:
        return
    balls = sorted(rng.choice(off, size=min(n_spot, len(off)), replace=False).tolist())
    first, second = balls[:split], balls[split:]
    s = make_state("cribbage", {b: tuple(P[b]) for b in range(1, 16) if on[b]}, cue=tuple(P[0]))
    ch = {}
    try:
        spot_into(s, ch, first)
        spot_into(s, ch, second)
    except ValueError:  # no room on the long string at all (a full string): refused, nothing placed
        return
    out = np.asarray(ch["pos"]).reshape(-1, 2)
    on2 = np.asarray(ch["on_table"], bool)
    assert on2[balls].all() and np.allclose(out[balls, 0], T.w / 2)
    keep = [b for b in range(16) if on[b]]
    assert np.array_equal(out[keep], P[keep])  # interfering balls are not moved (G-3.32.3)
    idx = np.flatnonzero(on2)
    for i in balls:
        for j in idx:
            if j != i:
                gap = 2 * R + (s.config.spot_gap if j == 0 else 0.0)
                assert np.hypot(*(out[i] - out[j])) >= gap - 1e-9, (i, j)
    assert physics_accepts(out, on2)
