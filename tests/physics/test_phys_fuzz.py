"""Sound outcomes over the whole documented input range (theta up to 90, V0 up to 50 m/s, tip
offsets up to the miscue limit, balls frozen to cushions, in pocket jaws, touching each other):
no ball through a cushion or a ball, every shot settles, no overlap left, no truncated log.

One test per failure found by the physics fuzz (its reproducer, on every model pair), then a
randomised version and a seeded slice of ``benchmarks/fuzz_physics.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from phys_helpers import R, layout

import physics
from physics import fuzz
from physics.stream import simulate_batch_async
from tests.benchmark_modules import load_benchmark

MODELS = [(bb.value, cu.value) for bb in physics.BallBallModel for cu in physics.CushionModel]
T9 = physics.Table.wpa("9ft")
T8 = physics.Table.wpa("8ft")


def _valid_next_input(table, res) -> bool:
    """The final layout is accepted by the next ``physics.simulate`` call."""
    return fuzz.layout_problems(table, res.rvw[None], res.s[None], R)[0] == 0


def _states_sound(table, rvw, shot, s=None, n_samples=12, **kw):
    """Re-simulate to sampled event times (and just before them): no ball off the bed and no
    overlap at any of them (a ball passing through a cushion or a ball ends sound but is
    caught here)."""
    res = physics.simulate(table, rvw, shot, s=s, grow_log=True, **kw)
    times = np.unique(res.ev_t[1:res.n_events])
    if len(times):
        times = times[np.linspace(0, len(times) - 1, min(len(times), n_samples)).astype(int)]
    for t in np.sort(np.concatenate([times, times * 0.999, [1e-3, 1e-2, 0.1]])):
        r = physics.simulate(table, rvw, shot, s=s, t_final=float(t), grow_log=True, **kw)
        assert _valid_next_input(table, r), f"ball off the bed or overlapping at t = {t:.6g} s"
    return res


# ---------------------------------------------------------------------------------------
# 1. a ball frozen to a cushion (gap <= 1e-9 m) struck with theta = 90
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("bb,cu", MODELS)
def test_frozen_to_cushion_massé_does_not_pass_through_the_cushion(bb, cu):
    """Cue ball touching the right rail, struck straight down (theta 90): the strike gives it
    almost no velocity (v cos 90 ~ 1e-15 m/s) and a huge spin whose cloth friction drives it
    into the rail. The touching contact accelerated shut is a collision at once
    (``physics.detect``), not missed because the ball does not yet approach."""
    rvw = layout([[T9.w - R, 0.77]])
    shot = physics.Shot(V0=50, phi=327.35, theta=90, a=-0.0947, b=0.2857)
    res = physics.simulate(T9, rvw, shot, ball_ball=bb, cushion=cu, grow_log=True)
    assert res.status == physics.Status.OK
    first = res.events()[1]
    assert first[0] == 0.0 and first[1] == physics.EventKind.BALL_CUSHION
    assert res.s[0] == physics.Motion.POCKETED or _valid_next_input(T9, res)
    assert np.all(np.abs(res.rvw[0, 0, :2]) < 3.0)  # not hundreds of metres away


def test_frozen_to_cushion_massé_every_state_on_the_bed():
    _states_sound(T9, layout([[T9.w - R, 0.77]]),
                  physics.Shot(V0=50, phi=327.35, theta=90, a=-0.0947, b=0.2857))


# ---------------------------------------------------------------------------------------
# 2. two balls wedged in a corner-pocket mouth, massé: must settle
# ---------------------------------------------------------------------------------------
def _wedge_layout():
    """The reproducer's balls (given to 5 decimals) with ball 0 put back flush on jaw
    segment 15, which the rounding had it overlap by 5.6 um; ball 1 is 0.1 um off segment
    16: the pair fills the mouth of the right-bottom corner pocket."""
    p0 = np.array([1.15189, 0.05733])
    seg, nrm = T8.segments[15], T8.segment_normals[15]
    p0 = p0 + (R - np.dot(p0 - seg[0], nrm)) * nrm
    return layout([p0, [1.11509, 0.01318]])


@pytest.mark.parametrize("bb,cu", MODELS)
def test_balls_wedged_in_pocket_mouth_settle(bb, cu):
    """Ball 0 spun into ball 1, which sits against the other jaw: each push returns it within
    microseconds (an inelastic Zeno sequence that used to hit MAX_ITER); a ball pushed back
    into its contacts sooner than its own friction could bring it back is held
    (``physics.kernel._held``)."""
    rvw = _wedge_layout()
    res = physics.simulate(T8, rvw, physics.Shot(33.37, 118.466, 89.9, -0.2509, -0.3934),
                           ball_ball=bb, cushion=cu)
    assert res.status == physics.Status.OK
    assert res.n_events < 200
    assert np.all(res.s[res.s != physics.Motion.POCKETED] == physics.Motion.STATIONARY)
    assert _valid_next_input(T8, res)


def test_held_ball_rests_where_it_was_pushed_in():
    """The held ball stays in the pocket mouth, pressed into the wedge (it rattles between
    the jaw and ball 1 for a few millimetres before it is held)."""
    rvw = _wedge_layout()
    res = physics.simulate(T8, rvw, physics.Shot(33.37, 118.466, 89.9, -0.2509, -0.3934))
    assert np.hypot(*(res.rvw[0, 0, :2] - rvw[0, 0, :2])) < 5e-3


def test_wedged_balls_every_state_sound():
    _states_sound(T8, _wedge_layout(), physics.Shot(33.37, 118.466, 89.9, -0.2509, -0.3934),
                  ball_ball="frictional_inelastic", cushion="mathavan_2010")


# ---------------------------------------------------------------------------------------
# 3. theta = 90 on touching balls: the cue ball does not enter the object ball
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("bb,cu", MODELS)
@pytest.mark.parametrize("V0,b", [(1.0, 0.1), (5.0, 0.3), (50.0, 0.45)])
def test_massé_into_touching_ball_never_overlaps(bb, cu, V0, b):
    """Cue ball frozen to the 1-ball, top spin at theta 90 drives it straight into it (it
    used to slide through it undetected, and end overlapped or on the far side)."""
    rvw = layout([[0.635, 1.0], [0.635, 1.0 + 2 * R]])
    shot = physics.Shot(V0, 90.0, 90.0, 0.0, b)
    res = _states_sound(T9, rvw, shot, ball_ball=bb, cushion=cu, n_samples=6)
    assert res.status == physics.Status.OK
    assert res.events()[1][:2] == (0.0, physics.EventKind.BALL_BALL)
    # the cue ball stays behind the object ball (it pushed it, never passed it)
    assert res.rvw[0, 0, 1] < res.rvw[1, 0, 1]


# a cluster left wedged in a pocket mouth (fuzz seed 0, batch 197, shot 3032): ball 12,
# sliding along ball 10 (held against the jaw) with a round-off overlap of 7e-18 m and its
# friction pressing it in, must collide, not creep 0.17 um into ball 10
WEDGE16 = [[0.7768459179096662, 0.10641880004997613], [0.3808564244458501, 1.6536121878723427],
           [0.41118982405808263, 1.702047788397762], [0.46231106173124137, 1.7275965963783075],
           [0.18360354338336407, 1.3836437776276702], [0.341201221081367, 1.6947654065597777],
           [0.2181925341373666, 1.4291379998157392], [0.7885426728451733, 1.2620830069386242],
           [0.6718897029769099, 0.22499536547118804], [0.020005628375473747, 1.0385622064356],
           [0.9766127335165576, 0.05428252262870349], [0.9849185492678187, 1.028182795603106],
           [0.7285476181723708, 0.13697034257187465], [0.8135445494089526, 0.28637746636093175],
           [0.4267093477034116, 1.9526249998215954], [0.058094108332580496, 1.9640482936809303]]
WEDGE16_SHOT = (33.363405173989726, 302.71079188827395, 68.71681108188757, 0.022421572047976047,
                -0.05991119308334964)


def test_ball_pressed_into_a_round_off_overlap_collides():
    """A touching pair whose gap round-off left at -7e-18 m, separating at 4e-19 m/s while
    friction presses them together, never gets above zero gap again: a contact now
    (``physics.detect._circle_time``), else ball 12 creeps into ball 10 undetected."""
    t7 = physics.Table.wpa("7ft")
    rvw = layout(WEDGE16)
    shot = physics.Shot(*WEDGE16_SHOT)
    res = physics.simulate(t7, rvw, shot, ball_ball="frictionless_elastic", grow_log=True)
    assert res.status == physics.Status.OK and _valid_next_input(t7, res)
    r = physics.simulate(t7, rvw, shot, ball_ball="frictionless_elastic", t_final=2.5135)
    assert np.hypot(*(r.rvw[10, 0, :2] - r.rvw[12, 0, :2])) >= 2 * R - 1e-9


# fuzz seed 0, batch 148, shot 2150: a massé cue ball frozen in the top-left corner-pocket
# mouth next to ball 1 (frozen to the other jaw): pushed off jaw segment 7 at V_SEP it hits
# ball 1 and is back on segment 7 1.7 ms later, a steady rattle of 15,782 events over 9 s
RATTLE = [[0.05383208615683747, 2.32318669302962], [0.000532152997391136, 2.2987242405705888],
          [0.03652977509235538, 2.2543362490134844], [0.6386718463704121, 0.7151827552485269],
          [0.24638332641521782, 0.883165485990802], [1.0930349945677607, 0.9672976030138576]]
RATTLE_SHOT = (46.52158633698449, 259.6017326195071, 90.0, -0.06780994756124464, -0.4953804709627149)


def test_ball_rattling_in_a_pocket_mouth_is_held():
    """Returned to the jaw by ball 1 in 1.7 ms, sooner than friction alone could bring it
    back (V_SEP / (u_s g) = 2.55 ms), the cue ball is held."""
    res = physics.simulate(T8, layout(RATTLE), physics.Shot(*RATTLE_SHOT), ball_ball="frictionless_elastic")
    assert res.status == physics.Status.OK and res.n_events < 300
    assert _valid_next_input(T8, res)


# ---------------------------------------------------------------------------------------
# 4. more events than the log holds: the log grows, the simulation is the same
# ---------------------------------------------------------------------------------------
PUSH = (layout([[0.635, 1.0], [0.635, 1.0 + 2 * R]]), physics.Shot(50.0, 90.0, 90.0, 0.0, 0.45))


@pytest.mark.parametrize("bb", [m.value for m in physics.BallBallModel])
def test_grow_log_keeps_every_event_of_the_same_simulation(bb):
    """A cue ball pushing the object ball for seconds needs thousands of events. Without
    ``grow_log`` the log is truncated and flagged; with it the table is simulated again
    with room for every event: the same final state and the same first rows."""
    rvw, shot = PUSH
    cut = physics.simulate(T9, rvw, shot, ball_ball=bb)
    full = physics.simulate(T9, rvw, shot, ball_ball=bb, grow_log=True)
    assert cut.status == physics.Status.EVENT_LOG_OVERFLOW and cut.n_events == 2000
    assert full.status == physics.Status.OK and full.n_events > 2000
    assert np.array_equal(cut.rvw, full.rvw) and np.array_equal(cut.s, full.s)
    assert np.array_equal(cut.ev_t, full.ev_t[:2000]) and np.array_equal(cut.ev_i, full.ev_i[:2000])
    assert full.ev_t.shape == (full.n_events,)
    assert all(b >= a for a, b in zip(full.ev_t[:full.n_events - 1], full.ev_t[1:full.n_events]))
    # whatever the first log size
    small = physics.simulate(T9, rvw, shot, ball_ball=bb, grow_log=True, max_events=50)
    assert small.n_events == full.n_events and np.array_equal(small.rvw, full.rvw)


def test_grow_log_batch_stream_and_single_agree():
    """Only the overflowing tables are re-simulated; the batch's arrays are widened to the
    longest log, the other tables unchanged; the streamed batch gives the same arrays."""
    rvw, shot = PUSH
    quiet = layout([[0.3, 0.3], [0.9, 2.0]])
    batch_rvw = np.stack([quiet, rvw, quiet])
    shots = np.stack([[2.0, 80.0, 0.0, 0.0, 0.0], shot.as_array(), [1.0, 45.0, 0.0, 0.0, 0.0]])
    cb = np.zeros(3, np.int64)
    plain = physics.simulate_batch(T9, batch_rvw, shots, cb)
    grown = physics.simulate_batch(T9, batch_rvw, shots, cb, grow_log=True)
    assert plain.status.tolist() == [0, 1, 0] and grown.status.tolist() == [0, 0, 0]
    single = physics.simulate(T9, rvw, shot, grow_log=True)
    assert grown.ev_t.shape[1] == single.n_events == grown.n_events[1]
    for k in (0, 2):
        n = plain.n_events[k]
        assert grown.n_events[k] == n and np.array_equal(grown.ev_t[k, :n], plain.ev_t[k, :n])
    assert np.array_equal(grown.rvw, plain.rvw)
    run = simulate_batch_async(T9, batch_rvw, shots, cb, grow_log=True)
    streamed = run.result()
    for f in ("rvw", "s", "pocket", "ev_t", "ev_kind", "ev_i", "ev_j", "n_events", "status"):
        assert np.array_equal(getattr(streamed, f), getattr(grown, f)), f
    part = run.partial(1, 2)
    assert part.status[0] == 0 and np.array_equal(part.ev_t[0], single.ev_t)


def test_env_records_carry_the_whole_log():
    """The envs' physics bridge (both its plain and its streamed path) hands the referee
    records with every event (flat model: there the push is the long rattle)."""
    from poolgym.envs.physics_io import PhysicsModels, _overlapped, simulate_records

    rvw, shot = PUSH
    s = np.zeros(2, np.int8)
    flat = PhysicsModels(airborne=False)
    recs = simulate_records(T9, [rvw], [s], shot.as_array()[None], flat)
    assert recs[0].status == 0 and len(recs[0].ev_t) > 2000
    got = {}
    rvw_b, s_b = np.stack([rvw] * 8), np.stack([s] * 8)
    _overlapped(T9, rvw_b, s_b, np.tile(shot.as_array(), (8, 1)), flat, None, None, 0.0,
                lambda lo, rs: got.update(enumerate(rs, lo)))
    assert sorted(got) == list(range(8))
    assert all(r.status == 0 and len(r.ev_t) == len(recs[0].ev_t) for r in got.values())


def test_rules_simulate_record_asks_for_the_whole_log(monkeypatch):
    """The rules API (`GameBase.apply` -> `simulate_record`) simulates with ``grow_log``
    unless its caller overrides it: the push shot's record (flat model) holds every event."""
    from poolgym.rules.core import ShotAction
    from poolgym.rules.game import simulate_record
    from poolgym.rules.testing import make_state

    state = make_state("nine_ball", {1: (0.635, 1.0 + 2 * R)}, cue=(0.635, 1.0))
    push = ShotAction(50.0, 90.0, 90.0, 0.0, 0.45)
    seen = []
    real = physics.simulate

    def spy(*a, **kw):
        seen.append(kw.get("grow_log"))
        return real(*a, **kw)

    monkeypatch.setattr(physics, "simulate", spy)
    rec = simulate_record(state, push, airborne=False)
    assert seen == [True] and rec.status == 0 and len(rec.ev_t) > 2000
    cut = simulate_record(state, push, grow_log=False, airborne=False)
    assert seen == [True, False] and cut.status == physics.Status.EVENT_LOG_OVERFLOW


# ---------------------------------------------------------------------------------------
# randomised: fuzz layouts (frozen, in jaws, touching) and shots over the full ranges
# ---------------------------------------------------------------------------------------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), model=st.sampled_from(MODELS),
       table=st.sampled_from(["9ft", "8ft", "7ft"]))
def test_random_fuzz_shots_are_sound_at_every_sampled_event(seed, model, table):
    tb = physics.Table.wpa(table)
    rvw, s = fuzz.random_layouts(seed, 2, tb, R, n_max=6)
    shots = fuzz.random_shots(seed + 1, 2)
    for k in range(2):
        res = _states_sound(tb, rvw[k], shots[k], s=s[k], n_samples=5, ball_ball=model[0],
                            cushion=model[1])
        assert res.status == physics.Status.OK


def test_fuzz_slice_is_clean(capsys):
    """A seeded slice of the benchmark (every table and model pair): no escape, MAX_ITER,
    overlap or truncated log."""
    mod = load_benchmark("fuzz_physics")
    assert mod.main(["--shots", "6144", "--batch-size", "512", "--seed", "12"]) == 0
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert "escapes 0  MAX_ITER 0  overlaps 0" in out and "truncated 0" in out


def test_fuzz_draws_are_seeded_and_in_range():
    a = fuzz.random_shots(3, 2000)
    assert np.array_equal(a, fuzz.random_shots(3, 2000))
    assert a[:, 0].min() >= 0 and a[:, 0].max() <= 50 and a[:, 2].max() == 90.0
    assert np.all(np.hypot(a[:, 3], a[:, 4]) <= 0.5) and (a[:, 2] == 90.0).mean() > 0.2
    rvw, s = fuzz.random_layouts(3, 200, T9, R)
    rvw2, s2 = fuzz.random_layouts(3, 200, T9, R)
    assert np.array_equal(rvw, rvw2) and np.array_equal(s, s2)
    assert np.all(s[:, 0] == 0) and fuzz.layout_problems(T9, rvw, s, R).max() == 0
    # the validator accepts them all, and many balls are frozen to a cushion
    physics.simulate_batch(T9, rvw, np.tile([0.0, 0, 0, 0, 0], (200, 1)), np.zeros(200, np.int64), s=s)
    frozen = 0
    for (p1, p2), n in zip(T9.segments, T9.segment_normals):
        d = (rvw[..., 0, :2] - p1) @ n - R
        frozen += int(((s == 0) & (d >= 0) & (d <= 1e-9)).sum())
    assert frozen > 100
