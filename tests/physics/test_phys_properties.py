"""Property tests over random layouts and shots (hypothesis): after every event no two balls
overlap and no ball is off the bed unless pocketed; kinetic energy never rises after the
strike; every shot terminates with status OK."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import physics
from phys_helpers import R, energy, random_layout

TABLE = physics.Table.wpa("9ft")
MODELS = [("frictional_inelastic", "han_2005"), ("frictionless_elastic", "han_2005"),
          ("frictional_inelastic", "mathavan_2010")]

shot_st = st.tuples(
    st.floats(0.1, 8.0), st.floats(0.0, 360.0, exclude_max=True), st.floats(0.0, 30.0),
    st.floats(-0.35, 0.35), st.floats(-0.35, 0.35),
)


def _check_state(rvw, s):
    on = s != physics.Motion.POCKETED
    xy = rvw[on, 0, :2]
    assert TABLE.on_bed(xy, R, tol=1e-7).all(), "ball off the bed"
    if len(xy) > 1:
        d = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
        d[np.diag_indices(len(xy))] = np.inf
        assert d.min() >= 2 * R - 1e-9, f"overlap {2 * R - d.min():.3g} m"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 7), shot=shot_st,
       model=st.sampled_from(MODELS))
def test_invariants_after_every_event(seed, n, shot, model):
    rng = np.random.default_rng(seed)
    rvw = random_layout(rng, TABLE, n)
    bb, cu = model
    kw = dict(ball_ball=bb, cushion=cu)
    res = physics.simulate(TABLE, rvw, physics.Shot(*shot), **kw)
    assert res.status == physics.Status.OK  # terminated, log complete
    assert np.all(res.s[res.s != physics.Motion.POCKETED] == physics.Motion.STATIONARY)
    _check_state(res.rvw, res.s)
    # state right after sampled events (t_final = event time) and between them
    times = np.unique(res.ev_t[1:res.n_events])
    pick = times[np.linspace(0, len(times) - 1, min(len(times), 8)).astype(int)] if len(times) else times
    e_prev = np.inf
    for t in np.sort(np.concatenate([pick, pick * 0.999])):
        r = physics.simulate(TABLE, rvw, physics.Shot(*shot), t_final=float(t), **kw)
        _check_state(r.rvw, r.s)
        e = energy(r.rvw, r.s)
        assert e <= e_prev * (1 + 1e-12) + 1e-12, "kinetic energy rose"
        e_prev = e
