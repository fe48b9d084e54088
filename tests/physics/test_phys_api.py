"""Public API: batch == single bit for bit, thread/process determinism, bad input errors."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import numpy as np
import pytest

import physics
from phys_helpers import R, layout, random_layout

REPO = Path(__file__).resolve().parents[2]


def _batch_inputs(seed=3, B=12, N=6):
    t = physics.Table.wpa("9ft")
    rng = np.random.default_rng(seed)
    rvw = np.stack([random_layout(rng, t, N) for _ in range(B)])
    shots = np.column_stack([rng.uniform(0.5, 6, B), rng.uniform(0, 360, B), rng.uniform(0, 20, B),
                             rng.uniform(-0.3, 0.3, B), rng.uniform(-0.3, 0.3, B)])
    return t, rvw, shots, np.zeros(B, dtype=np.int64)


def _digest(res) -> str:
    h = hashlib.sha256()
    for a in (res.rvw, res.s, res.pocket, res.ev_t, res.ev_kind, res.ev_i, res.ev_j, res.n_events):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def test_batch_equals_single_bit_for_bit():
    t, rvw, shots, cb = _batch_inputs()
    batch = physics.simulate_batch(t, rvw, shots, cb)
    for k in range(len(shots)):
        one = physics.simulate(t, rvw[k], physics.Shot(*shots[k]))
        for name in ("rvw", "s", "pocket", "ev_t", "ev_kind", "ev_i", "ev_j"):
            assert np.array_equal(getattr(one, name), getattr(batch[k], name)), name
        assert one.n_events == batch[k].n_events and one.status == batch[k].status == 0
    # a sub-batch gives the same bits as the full batch
    sub = physics.simulate_batch(t, rvw[3:5], shots[3:5], cb[3:5])
    assert np.array_equal(sub.rvw, batch.rvw[3:5]) and np.array_equal(sub.ev_t, batch.ev_t[3:5])


def test_thread_count_does_not_change_results():
    t, rvw, shots, cb = _batch_inputs(seed=5)
    n0 = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = physics.simulate_batch(t, rvw, shots, cb)
        numba.set_num_threads(n0)
        many = physics.simulate_batch(t, rvw, shots, cb)
    finally:
        numba.set_num_threads(n0)
    assert _digest(one) == _digest(many)


def test_determinism_across_processes():
    code = textwrap.dedent("""
        import hashlib, numpy as np, sys
        sys.path.insert(0, %r); sys.path.insert(0, %r)
        import test_phys_api as m, physics
        t, rvw, shots, cb = m._batch_inputs(seed=11)
        print(m._digest(physics.simulate_batch(t, rvw, shots, cb)))
    """ % (str(REPO), str(Path(__file__).parent)))
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           cwd=REPO).stdout.strip() for _ in range(2)}
    t, rvw, shots, cb = _batch_inputs(seed=11)
    outs.add(_digest(physics.simulate_batch(t, rvw, shots, cb)))
    assert len(outs) == 1


def _ok():
    return physics.Table.wpa("9ft"), layout([[0.5, 0.5], [0.6, 1.5]])


@pytest.mark.parametrize("mutate,field", [
    (lambda r, s: r.__setitem__((0, 0, 0), np.nan), "rvw"),
    (lambda r, s: r.__setitem__((1, 0, 0), np.inf), "rvw"),
    (lambda r, s: r.__setitem__((1, 0, slice(0, 2)), [0.5 + R, 0.5]), "overlap"),
    (lambda r, s: r.__setitem__((1, 0, slice(0, 2)), [-0.2, 0.5]), "off the bed"),
    (lambda r, s: r.__setitem__((1, 1, 0), 0.3), "at rest"),
])
def test_bad_layout_raises(mutate, field):
    t, rvw = _ok()
    mutate(rvw, None)
    with pytest.raises(ValueError, match=field):
        physics.simulate(t, rvw, physics.Shot(1.0, 90.0))


@pytest.mark.parametrize("shot,field", [
    (physics.Shot(-1.0, 90.0), "shot.V0"),
    (physics.Shot(float("nan"), 90.0), "shot.V0"),
    (physics.Shot(1.0, float("inf")), "shot.phi"),
    (physics.Shot(1.0, 90.0, theta=-5.0), "shot.theta"),
    (physics.Shot(1.0, 90.0, a=0.4, b=0.4), "miscue"),
    (physics.Shot(1.0, 90.0, cue_ball=7), "cue_ball"),
])
def test_bad_shot_raises(shot, field):
    t, rvw = _ok()
    with pytest.raises(ValueError, match=field):
        physics.simulate(t, rvw, shot)


def test_bad_shapes_and_names_raise():
    t, rvw = _ok()
    with pytest.raises(ValueError, match="rvw"):
        physics.simulate(t, rvw[:, :2], physics.Shot(1.0, 90.0))
    with pytest.raises(ValueError, match="shots"):
        physics.simulate_batch(t, rvw[None], np.zeros((1, 4)), np.zeros(1, dtype=int))
    with pytest.raises(ValueError, match="cue_ball"):
        physics.simulate_batch(t, rvw[None], np.zeros((1, 5)), np.zeros(1))
    with pytest.raises(ValueError, match="ball_ball"):
        physics.simulate(t, rvw, physics.Shot(1.0, 90.0), ball_ball="sticky")
    with pytest.raises(ValueError, match="cushion"):
        physics.simulate(t, rvw, physics.Shot(1.0, 90.0), cushion="rubber")
    with pytest.raises(ValueError, match="s:"):
        physics.simulate(t, rvw, physics.Shot(1.0, 90.0), s=np.array([0, 2]))
    with pytest.raises(ValueError, match="cue_ball"):
        physics.simulate(t, rvw, physics.Shot(1.0, 90.0), s=np.array([4, 0]))


def test_pocketed_balls_are_ignored_and_log_starts_with_strike():
    t = physics.Table.wpa("9ft")
    rvw = layout([[0.635, 0.5], [0.635, 1.0]])
    rvw[1, 0] = [*t.pockets[2, :2], -0.08]  # parked in a pocket, not on the bed
    res = physics.simulate(t, rvw, physics.Shot(2.0, 90.0), s=np.array([0, 4], dtype=np.int8))
    assert res.s[1] == physics.Motion.POCKETED and res.pocket[1] == -1
    assert all(i != 1 and j != 1 for _, k, i, j in res.events() if k == physics.EventKind.BALL_BALL)
    assert res.events()[0] == (0.0, physics.EventKind.STRIKE, 0, -1)


def test_event_log_overflow_is_flagged():
    t, rvw = _ok()
    rvw, shots, cb = rvw[None], np.array([[4.0, 80.0, 0.0, 0.0, 0.0]]), np.zeros(1, dtype=int)
    full = physics.simulate_batch(t, rvw, shots, cb)
    small = physics.simulate_batch(t, rvw, shots, cb, max_events=3)
    assert full.status[0] == 0 and full.n_events[0] > 3
    assert small.status[0] == physics.Status.EVENT_LOG_OVERFLOW and small.n_events[0] == 3
    assert np.array_equal(small.rvw, full.rvw)  # the simulation itself still completes


def test_noise_seeded_and_icga_preset():
    n = physics.ExecutionNoise.icga()
    assert (n.sigma_phi, n.sigma_theta, n.sigma_V0) == (0.125, 0.1, 0.075)
    assert n.sigma_a * R == pytest.approx(0.0005)
    shots = np.tile([2.0, 90.0, 5.0, 0.0, 0.49], (50, 1))
    a = n.apply(shots, np.random.default_rng(1))
    b = n.apply(shots, np.random.default_rng(1))
    assert np.array_equal(a, b) and not np.array_equal(a, shots)
    assert np.all(np.hypot(a[:, 3], a[:, 4]) <= 0.5)
    t, rvw = _ok()
    r1 = physics.simulate(t, rvw, physics.Shot(1.0, 90.0), noise=n, rng=np.random.default_rng(4))
    r2 = physics.simulate(t, rvw, physics.Shot(1.0, 90.0), noise=n, rng=np.random.default_rng(4))
    assert np.array_equal(r1.shot, r2.shot) and np.array_equal(r1.rvw, r2.rvw)
    with pytest.raises(ValueError, match="rng"):
        physics.simulate(t, rvw, physics.Shot(1.0, 90.0), noise=n)


def _stroke_cases():
    """Strokes inside and on the edges of the clipping (V0 near 0 and at 50, theta at 0 and at
    its maximum, tip offsets inside, on and beyond the miscue limit), with the noise that
    pushes them across."""
    rr = np.random.default_rng(77)
    for k in range(3000):
        kind = k % 6
        V0 = (rr.uniform(0.01, 8), rr.uniform(0, 0.2), 49.99, 50.0, rr.uniform(0.5, 60), 0.0)[kind]
        theta = (0.0, rr.uniform(0, 90), 90.0, rr.uniform(0, 1), 89.9, 0.0)[kind]
        rad = (rr.uniform(0, 0.5), 0.5, 0.4999999999, rr.uniform(0.45, 0.55), 0.0, rr.uniform(0, 1))[kind]
        ang = rr.uniform(0, 2 * np.pi)
        yield k, np.array([V0, rr.uniform(-400, 800), theta, rad * np.cos(ang), rad * np.sin(ang)])


@pytest.mark.parametrize("noise", [physics.ExecutionNoise.icga(), physics.ExecutionNoise(0.5, 2.0, 3.0, 0.3, 0.3),
                                   physics.ExecutionNoise(), physics.ExecutionNoise(sigma_V0=1, sigma_theta=2)])
def test_noise_apply_stroke_is_apply_bit_for_bit(noise):
    """One stroke through `ExecutionNoise.apply_stroke` (float arithmetic, the envs' path) gives
    the values of `apply` on a one-row array, then V0 capped, bit for bit, and leaves the
    generator where `apply` leaves it."""
    for k, row in _stroke_cases():
        for lim, tmax, vmax in ((0.5, 90.0, 50.0), (0.5, 60.0, np.inf), (0.3, 90.0, 7.0)):
            g1, g2 = np.random.default_rng(k), np.random.default_rng(k)
            ref = noise.apply(row[None], g1, miscue_limit=lim, theta_max=tmax)
            ref[:, 0] = np.minimum(ref[:, 0], vmax)
            got = noise.apply_stroke(row, g2, miscue_limit=lim, theta_max=tmax, max_speed=vmax)
            assert got.shape == (5,) and got.dtype == np.float64
            assert ref[0].tobytes() == got.tobytes(), (k, row, ref[0], got)
            assert g1.bit_generator.state == g2.bit_generator.state
    with pytest.raises(ValueError, match="rng"):
        physics.ExecutionNoise.icga().apply_stroke(np.zeros(5), None)


def test_perturb_stroke_is_apply_on_the_rows_then_capped():
    """`physics.noise.perturb_stroke`: one stroke or several (the lag's two), through an
    `ExecutionNoise` or a subclass of it, gives ``apply`` on the rows with V0 capped, bit for
    bit, in the input's shape, and leaves the generator where ``apply`` leaves it."""
    from physics.noise import perturb_stroke

    class Doubled(physics.ExecutionNoise):  # another model: its own apply
        def apply(self, shots, rng, **kw):
            return 2.0 * super().apply(shots, rng, **kw)

    for noise in (physics.ExecutionNoise.icga(), Doubled(0.5, 2.0, 3.0, 0.3, 0.3)):
        for k, row in list(_stroke_cases())[:300]:
            rows = row if k % 2 else np.stack([row, row[::-1] * 0.01])
            g1, g2 = np.random.default_rng(k), np.random.default_rng(k)
            ref = noise.apply(np.reshape(rows, (-1, 5)), g1)
            ref[:, 0] = np.minimum(ref[:, 0], 7.0)
            got = perturb_stroke(noise, rows, g2, max_speed=7.0)
            assert got.shape == np.shape(rows) and got.dtype == np.float64
            assert ref.reshape(np.shape(rows)).tobytes() == got.tobytes(), (k, rows)
            assert g1.bit_generator.state == g2.bit_generator.state


def test_strike_centre_hit_and_squirt():
    from physics.strike import strike_velocity
    bp = physics.BallParams()
    v, w = strike_velocity(np.array([[1.0, 0.0, 0.0, 0.0, 0.0]]), bp, physics.CueParams())
    assert v[0, 0] == pytest.approx(2 / (1 + bp.m / 0.567)) and np.allclose(w, 0)
    v, _ = strike_velocity(np.array([[1.0, 90.0, 0.0, 0.3, 0.0]]), bp, physics.CueParams(squirt=True))
    assert v[0, 0] > 0  # left english squirts the ball to the right (+x when aiming +y)


@pytest.mark.parametrize("airborne", [False, True])
def test_states_at_is_simulate_to_each_time(airborne):
    """`physics.states_at`: row t is ``simulate(..., t_final=times[t])``'s rvw and s, bit for
    bit (mid-shot, at an event time, at 0 and after the balls stopped)."""
    t, rvw, shots, _ = _batch_inputs(seed=11, B=3)
    for k in range(3):
        shot = shots[k] if not airborne else np.r_[shots[k][:2], 25.0, 0.0, 0.2]
        full = physics.simulate(t, rvw[k], shot, airborne=airborne)
        times = [0.0, float(full.ev_t[1]), 0.37, float(full.ev_t[full.n_events - 1]) + 1.0]
        got_rvw, got_s = physics.states_at(t, rvw[k], shot, times, airborne=airborne)
        assert got_rvw.shape == (4,) + rvw[k].shape and got_s.dtype == np.int8
        for m, tf in enumerate(times):
            ref = physics.simulate(t, rvw[k], shot, t_final=tf, airborne=airborne)
            assert np.array_equal(got_rvw[m], ref.rvw) and np.array_equal(got_s[m], ref.s)
    with pytest.raises(ValueError, match="times"):
        physics.states_at(t, rvw[0], shots[0], [0.1, -1.0])
    with pytest.raises(ValueError, match="off the bed|overlap|NaN"):
        physics.states_at(t, np.full_like(rvw[0], np.nan), shots[0], [0.1])


def test_positions_along_is_evolve_of_a_copy():
    """`physics.motion.positions_along`: the centre after each dt is `evolve`'s, bit for bit."""
    from physics.motion import evolve, positions_along

    t, rvw, shots, _ = _batch_inputs(seed=12, B=1)
    P = physics.BallParams().as_array()
    struck, s = physics.states_at(t, rvw[0], shots[0], [0.0])
    dts = np.linspace(0.0, 0.8, 13)[1:]
    got = positions_along(struck[0, 0], int(s[0, 0]), P, dts)
    for k, dt in enumerate(dts):
        q = struck[0, 0].copy()
        evolve(q, int(s[0, 0]), P, float(dt))
        assert np.array_equal(got[k], q[0])
