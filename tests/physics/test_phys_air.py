"""Three-dimensional motion (``simulate(..., airborne=True)``; model in ``physics.air``,
``physics/README.md``): the flight and bounce sequence against their closed forms, a jump
over a blocking ball, a ball clearing the rail, energy, sound final layouts, and the flat
engine unchanged for strokes that stay on the bed.
"""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest
from phys_helpers import R, layout

import physics
from physics import fuzz
from physics.enums import EventKind as EK
from physics.motion import V_SETTLE

SIM = importlib.import_module("physics.simulate")  # the module (physics.simulate is the function)
T9 = physics.Table.wpa("9ft")
BP = physics.BallParams()
G, E_T = BP.g, BP.e_t
MODELS = [(bb.value, cu.value) for bb in physics.BallBallModel for cu in physics.CushionModel]


def _post_strike(rvw, shot, **kw):
    return physics.simulate(T9, rvw, shot, airborne=True, t_final=0.0, **kw)


def _kinds(res):
    return [e[1] for e in res.events()]


def _mech_energy(res):
    """Kinetic plus potential energy (height above the bed rest) of the balls on the table."""
    on = (res.s != physics.Motion.POCKETED) & (res.s != physics.Motion.OFF_TABLE)
    rvw = res.rvw
    v2 = (rvw[:, 1] ** 2).sum(-1)
    w2 = (rvw[:, 2] ** 2).sum(-1)
    e = 0.5 * BP.m * v2 + 0.2 * BP.m * BP.R ** 2 * w2 + BP.m * G * (rvw[:, 0, 2] - R)
    return float(e[on].sum())


# ---------------------------------------------------------------------------------------
# the stroke
# ---------------------------------------------------------------------------------------
def test_flat_stroke_is_unchanged_by_the_3d_model():
    """theta = 0, and an elevated stroke whose slate rebound stays below V_SETTLE: the same
    result bit for bit as the flat engine."""
    rvw = layout([[0.6, 0.5], [0.62, 1.4], [0.3, 2.0]])
    for shot in (physics.Shot(3.0, 88.0, 0.0, 0.2, -0.3), physics.Shot(0.05, 88.0, 20.0, 0.0, 0.1)):
        a = physics.simulate(T9, rvw, shot)
        b = physics.simulate(T9, rvw, shot, airborne=True)
        assert b.events()[1][1] != EK.LIFTOFF
        for f in ("rvw", "s", "pocket", "ev_t", "ev_kind", "ev_i", "ev_j"):
            assert np.array_equal(getattr(a, f), getattr(b, f)), f


def test_level_strokes_on_random_layouts_are_the_flat_results_bit_for_bit():
    """A batch of the fuzz's random layouts (frozen to cushions, in jaws, in clusters) struck
    level (theta = 0, any speed and tip offset): ``airborne=True`` gives the flat engine's
    arrays bit for bit (nothing leaves the bed: no 3D code path is taken)."""
    for seed, name in ((21, "9ft"), (22, "7ft")):
        table = physics.Table.wpa(name)
        rvw, s = fuzz.random_layouts(seed, 64, table, R)
        shots = fuzz.random_shots(seed + 1, 64, physics.CueParams().miscue_limit)
        shots[:, 2] = 0.0
        kw = dict(s=s, grow_log=True, ball_ball="frictional_inelastic", cushion="mathavan_2010")
        a = physics.simulate_batch(table, rvw, shots, np.zeros(64, np.int64), **kw)
        b = physics.simulate_batch(table, rvw, shots, np.zeros(64, np.int64), airborne=True, **kw)
        for f in ("rvw", "s", "pocket", "ev_t", "ev_kind", "ev_i", "ev_j", "n_events", "status"):
            assert np.array_equal(getattr(a, f), getattr(b, f)), f


def test_flat_table_loop_is_the_3d_table_loop_bit_for_bit(monkeypatch):
    """Tables with no ball in the air run the table loop compiled without the 3D code
    (``physics.simulate.needs_air3d``); the loop with it gives the same arrays bit for bit on
    the fuzz's random layouts struck level (serial and parallel loops)."""
    table = physics.Table.wpa("9ft")
    rvw, s = fuzz.random_layouts(23, 48, table, R)
    shots = fuzz.random_shots(24, 48, physics.CueParams().miscue_limit)
    shots[:, 2] = 0.0
    runs = {}
    for forced in (False, True):
        if forced:
            monkeypatch.setattr(SIM, "needs_air3d", lambda s, airborne=True: True)
        for parallel in (False, True):
            runs[forced, parallel] = physics.simulate_batch(
                table, rvw, shots, np.zeros(48, np.int64), s=s, grow_log=True, airborne=True,
                parallel=parallel)
    a = runs[False, False]
    assert (a.s != physics.Motion.AIRBORNE).all() and a.n_events.min() > 1
    for key, b in runs.items():
        for f in ("rvw", "s", "pocket", "ev_t", "ev_kind", "ev_i", "ev_j", "n_events", "status"):
            assert np.array_equal(getattr(a, f), getattr(b, f)), (key, f)


def test_only_a_ball_in_the_air_needs_the_3d_table_loop():
    res = _post_strike(layout([[0.6, 0.5], [0.6, 1.5]]), physics.Shot(3.0, 90.0, 40.0))
    assert SIM.needs_air3d(res.s[None])
    assert not SIM.needs_air3d(res.s[None], airborne=False)  # not looked for without the model
    assert not SIM.needs_air3d(np.array([[0, 2, 4, 6]], np.int8))


def test_elevated_stroke_bounces_off_the_slate():
    """Alciatore's jump: the stroke's vertical component v sin(theta) comes back from the
    slate at e_t v sin(theta); the stroke logs STRIKE then LIFTOFF at t = 0."""
    V0, theta = 3.0, 40.0
    v = 2 * V0 / (1 + BP.m / physics.CueParams().M)
    r = _post_strike(layout([[0.6, 0.5]]), physics.Shot(V0, 90.0, theta))
    assert r.s[0] == physics.Motion.AIRBORNE
    assert r.rvw[0, 1, 2] == pytest.approx(E_T * v * math.sin(math.radians(theta)), rel=1e-12)
    assert _kinds(r)[:2] == [EK.STRIKE, EK.LIFTOFF]
    # the slate's friction slows the slipping ball (no spin: slip = velocity), never reverses it
    assert 0.0 < r.rvw[0, 1, 1] < v * math.cos(math.radians(theta))
    flat = physics.simulate(T9, layout([[0.6, 0.5]]), physics.Shot(V0, 90.0, theta), t_final=0.0)
    assert flat.s[0] == physics.Motion.SLIDING and flat.rvw[0, 1, 2] == 0.0


def test_masse_stroke_turns_spin_into_sideways_velocity_at_the_slate():
    """theta = 90 with side offset: the flat stroke has no velocity at all; the slate's friction
    on the spin gives the jumping ball a sideways velocity (the start of the masse curve)."""
    shot = physics.Shot(2.0, 90.0, 90.0, 0.4, 0.0)
    flat = physics.simulate(T9, layout([[0.6, 1.0]]), shot, t_final=0.0)
    assert np.hypot(*flat.rvw[0, 1, :2]) < 1e-12
    r = _post_strike(layout([[0.6, 1.0]]), shot)
    assert r.s[0] == physics.Motion.AIRBORNE and np.hypot(*r.rvw[0, 1, :2]) > 0.05


# ---------------------------------------------------------------------------------------
# flight and bounces, against closed forms
# ---------------------------------------------------------------------------------------
def test_vertical_jump_follows_the_parabola_and_the_bounce_sequence():
    """Straight down (theta 90, no offset): no spin, no slip, the ball hops in place. Flight k
    starts at vz_k = e_t^k vz_0, lasts 2 vz_k / g and peaks at R + vz_k^2 / 2g; the sequence
    ends at the first rebound below V_SETTLE, then the ball rests where it started."""
    x0 = np.array([0.6, 1.0])
    rvw = layout([x0])
    shot = physics.Shot(2.0, 90.0, 90.0)
    vz0 = _post_strike(rvw, shot).rvw[0, 1, 2]
    res = physics.simulate(T9, rvw, shot, airborne=True)
    bounces = [e[0] for e in res.events() if e[1] == EK.BALL_TABLE]
    expect, t, vz = [], 0.0, vz0
    while True:
        t += 2 * vz / G
        expect.append(t)
        vz *= E_T
        if vz < V_SETTLE:
            break
    np.testing.assert_allclose(bounces, expect, rtol=1e-12, atol=1e-14)
    assert res.s[0] == physics.Motion.STATIONARY
    np.testing.assert_allclose(res.rvw[0, 0], [x0[0], x0[1], R], atol=1e-12)
    # heights: the apex of every flight, sampled with t_final
    t0, vz = 0.0, vz0
    for tb in expect[:3]:
        apex = physics.simulate(T9, rvw, shot, airborne=True, t_final=t0 + vz / G)
        assert apex.rvw[0, 0, 2] == pytest.approx(R + vz * vz / (2 * G), rel=1e-12)
        assert apex.s[0] == physics.Motion.AIRBORNE
        t0, vz = tb, vz * E_T


def test_flight_is_a_parabola_with_constant_spin():
    rvw = layout([[0.6, 0.4]])
    shot = physics.Shot(2.5, 80.0, 35.0, 0.2, 0.1)
    p = _post_strike(rvw, shot).rvw[0]
    land = 2 * p[1, 2] / G
    for t in (0.25 * land, 0.5 * land, 0.9 * land):
        r = physics.simulate(T9, rvw, shot, airborne=True, t_final=t)
        np.testing.assert_allclose(r.rvw[0, 0], p[0] + p[1] * t + [0, 0, -0.5 * G * t * t], rtol=0, atol=1e-12)
        np.testing.assert_allclose(r.rvw[0, 1], p[1] + [0, 0, -G * t], rtol=0, atol=1e-12)
        np.testing.assert_allclose(r.rvw[0, 2], p[2], rtol=0, atol=0)
    first = [e for e in physics.simulate(T9, rvw, shot, airborne=True).events() if e[1] == EK.BALL_TABLE][0]
    assert first[0] == pytest.approx(land, rel=1e-12)


# ---------------------------------------------------------------------------------------
# jumping a blocking ball; leaving the table
# ---------------------------------------------------------------------------------------
BLOCK = [[0.635, 0.5], [0.635, 0.75], [0.635, 1.6]]  # cue ball, blocker, object ball


@pytest.mark.parametrize("bb,cu", MODELS)
def test_legal_jump_clears_a_blocking_ball_and_hits_the_object_ball(bb, cu):
    """A legal jump stroke (cue elevated 45 degrees, tip at the centre: not a scoop under the
    ball): the cue ball flies over the blocker and its first contact is the object ball; the
    same stroke on the flat engine hits the blocker."""
    shot = physics.Shot(2.5, 90.0, 45.0, 0.0, 0.0)
    res = physics.simulate(T9, layout(BLOCK), shot, ball_ball=bb, cushion=cu, airborne=True)
    firsts = [e for e in res.events() if e[1] == EK.BALL_BALL and 0 in e[2:]]
    assert firsts and set(firsts[0][2:]) == {0, 2}
    t_hit = firsts[0][0]
    assert not any(e[1] == EK.BALL_BALL and 1 in e[2:] for e in res.events() if e[0] < t_hit)
    flat = physics.simulate(T9, layout(BLOCK), shot, ball_ball=bb, cushion=cu)
    assert [set(e[2:]) for e in flat.events() if e[1] == EK.BALL_BALL][0] == {0, 1}


def test_low_jump_lands_on_the_blocker():
    """Too little elevation: the cue ball does not clear the blocker and hits it in the air
    (a 3D contact: the blocker is pressed into the slate)."""
    res = physics.simulate(T9, layout(BLOCK), physics.Shot(1.5, 90.0, 20.0), airborne=True)
    hit = [e for e in res.events() if e[1] == EK.BALL_BALL][0]
    assert set(hit[2:]) == {0, 1}
    r = physics.simulate(T9, layout(BLOCK), physics.Shot(1.5, 90.0, 20.0), airborne=True,
                         t_final=hit[0])
    assert r.rvw[0, 0, 2] > R  # the cue ball was in the air when it hit


@pytest.mark.parametrize("bb,cu", MODELS)
def test_fast_steep_jump_leaves_over_the_rail(bb, cu):
    """A hard jump stroke straight at the head rail from close to it clears the cushion: a
    LEAVE_TABLE event naming the head-rail segment, state OFF_TABLE, no pocket, at rest where
    its centre crossed the nose line."""
    rvw = layout([[0.635, 0.4]])
    res = physics.simulate(T9, rvw, physics.Shot(5.0, 270.0, 60.0), ball_ball=bb, cushion=cu,
                           airborne=True)
    assert res.s[0] == physics.Motion.OFF_TABLE and res.pocket[0] == -1
    leave = [e for e in res.events() if e[1] == EK.LEAVE_TABLE]
    assert len(leave) == 1 and leave[0][2] == 0
    assert T9.segment_ids[leave[0][3]] == "18"  # the head rail y = 0
    assert res.rvw[0, 0, 1] == pytest.approx(0.0, abs=1e-9) and res.rvw[0, 0, 2] > T9.cushion_height
    assert not res.rvw[0, 1:].any()
    # the next stroke accepts the ball as off the table
    nxt = physics.simulate(T9, layout([[0.6, 1.0], [0.3, 0.3]]), physics.Shot(1.0, 0.0),
                           s=np.array([0, physics.Motion.OFF_TABLE], np.int8))
    assert nxt.s[1] == physics.Motion.OFF_TABLE


@pytest.mark.parametrize("xy,phi,V0,theta,seg", [
    ([0.635, 0.4], 235.0, 6.0, 60.0, "18"),  # oblique, over the head rail
    ([0.3, 1.0], 180.0, 5.0, 55.0, "3"),     # over a long rail
])
def test_oblique_jump_leaves_over_the_rail(xy, phi, V0, theta, seg):
    """Jump strokes reaching a rail at an angle, high: LEAVE_TABLE over that rail, the ball
    OFF_TABLE on its nose line above the nose."""
    res = physics.simulate(T9, layout([xy]), physics.Shot(V0, phi, theta), airborne=True)
    leave = [e for e in res.events() if e[1] == EK.LEAVE_TABLE]
    assert res.s[0] == physics.Motion.OFF_TABLE and len(leave) == 1
    q = leave[0][3]
    assert T9.segment_ids[q] == seg
    p1, n = T9.segments[q, 0], T9.segment_normals[q]
    assert (res.rvw[0, 0, :2] - p1) @ n == pytest.approx(0.0, abs=1e-9)
    assert res.rvw[0, 0, 2] > T9.cushion_height


@pytest.mark.parametrize("xy,phi", [([0.635, 0.3], 270.0), ([0.635, 1.2], 200.0),
                                    ([0.3, 2.2], 60.0), ([0.2, 0.3], 225.0)])
def test_fast_ball_on_the_bed_never_rides_over_the_rail(xy, phi):
    """A ball on the bed, however fast, never leaves the bed at a cushion or a jaw: the nose
    is above its centre (h = 1.27 R on a WPA table), so the contact force, along the line from
    the nose to the centre, points down and presses the ball into the slate (Mathavan et al.
    2010's contact geometry; the cushion's deformation, which can lift a real ball, is not
    modelled). Strokes at theta = 0 up to V0 = 10 m/s (a ball at 15 m/s) into rails, a corner
    and jaws: no LIFTOFF, no LEAVE_TABLE, every ball ends on the bed plane."""
    assert T9.cushion_height > R
    for V0, a, b in ((10.0, 0.0, 0.0), (10.0, 0.0, 0.4), (6.0, 0.3, -0.3)):
        res = physics.simulate(T9, layout([xy, [0.9, 1.9]]), physics.Shot(V0, phi, 0.0, a, b),
                               airborne=True, grow_log=True)
        kinds = set(_kinds(res))
        assert EK.LIFTOFF not in kinds and EK.LEAVE_TABLE not in kinds and EK.BALL_TABLE not in kinds
        on = res.s != physics.Motion.POCKETED
        assert (res.rvw[on, 0, 2] == R).all()
        assert fuzz.layout_problems(T9, res.rvw[None], res.s[None], R)[0] == 0


def test_low_flight_rebounds_from_the_cushion_face():
    """A low hop reaching the rail below the nose rebounds (BALL_CUSHION) and stays on the
    table."""
    res = physics.simulate(T9, layout([[0.635, 0.08]]), physics.Shot(2.0, 270.0, 15.0), airborne=True)
    assert res.s[0] in (physics.Motion.STATIONARY, physics.Motion.SPINNING)
    kinds = _kinds(res)
    assert EK.BALL_CUSHION in kinds and EK.LEAVE_TABLE not in kinds


def test_ball_above_the_nose_hits_the_nose_edge():
    """Centre above the nose but less than R above it at the nose line: a contact with the nose
    edge (3D normal pointing up), after which the ball is higher than before or off the
    table; never through the cushion."""
    seen = False
    for V0, theta in ((2.0, 30.0), (2.5, 30.0), (3.0, 28.0), (2.2, 35.0), (3.5, 25.0)):
        res = physics.simulate(T9, layout([[0.635, 0.25]]), physics.Shot(V0, 270.0, theta),
                               airborne=True)
        for t, k, i, j in res.events():
            if k == EK.BALL_CUSHION:
                r = physics.simulate(T9, layout([[0.635, 0.25]]), physics.Shot(V0, 270.0, theta),
                                     airborne=True, t_final=t)
                if r.rvw[0, 0, 2] > T9.cushion_height:
                    seen = True
                    assert r.s[0] in (physics.Motion.AIRBORNE, physics.Motion.OFF_TABLE)
                    if r.s[0] == physics.Motion.AIRBORNE:
                        assert r.rvw[0, 1, 2] > 0.0  # thrown up by the edge
        assert res.s[0] == physics.Motion.OFF_TABLE or fuzz.layout_problems(
            T9, res.rvw[None], res.s[None], R)[0] == 0
    assert seen


# ---------------------------------------------------------------------------------------
# the noses of the jaw tips
# ---------------------------------------------------------------------------------------
def _nose_gap(X, Y, Z, vx, vy, vz, rj, t):
    """Distance from the jaw-tip nose circle minus R along a flight, at times t."""
    x, y, z = X + vx * t, Y + vy * t, Z + vz * t - 0.5 * G * t * t
    return np.hypot(np.hypot(x, y) - rj, z) - R


def test_nose_circle_time_is_the_first_touch_of_the_tip_nose():
    """``air.nose_circle_time`` (a degree-8 gap function) against the distance from the nose
    circle sampled along random flights past a jaw tip: the same first touch (to 1e-9 s), none
    when the flight keeps clear of it."""
    from physics.air import nose_circle_time
    rng = np.random.default_rng(3)
    rj = T9.jaws[0, 2]
    hit = miss = 0
    for _ in range(300):
        ang = rng.uniform(0, 2 * np.pi)
        rad = rng.uniform(0.03, 0.09)
        X, Y, Z = rad * np.cos(ang), rad * np.sin(ang), rng.uniform(-0.005, 0.08)
        sp = rng.uniform(0.1, 3.0)
        aim = ang + np.pi + rng.normal(0, 0.5)
        vx, vy, vz = sp * np.cos(aim), sp * np.sin(aim), rng.uniform(-2.0, 1.5)
        h = 0.2
        if _nose_gap(X, Y, Z, vx, vy, vz, rj, 0.0) <= 0.0:
            continue
        t = nose_circle_time(X, Y, Z, vx, vy, vz, G, rj, R, h)
        ts = np.linspace(0.0, h, 200001)
        g = _nose_gap(X, Y, Z, vx, vy, vz, rj, ts)
        below = np.flatnonzero(g <= 0.0)
        if below.size == 0:
            if g.min() > 1e-7:  # clear misses only (a graze is within round-off either way)
                assert t == math.inf
                miss += 1
            continue
        lo, hi = ts[below[0] - 1], ts[below[0]]
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if _nose_gap(X, Y, Z, vx, vy, vz, rj, mid) > 0 else (lo, mid)
        assert t == pytest.approx(hi, abs=1e-9)
        hit += 1
    assert hit > 20 and miss > 20
    # a fall from high up (from 3 to 50 m above the nose) onto the tip's nose: the touch, not
    # lost to round-off over the long flight
    for Z0 in (3.0, 12.0, 50.0):
        vz = 0.0
        tf = math.sqrt(2 * Z0 / G)  # time to fall to the nose height, centre over the nose
        t = nose_circle_time(rj + 0.01, 0.0, Z0, 0.0, 0.0, vz, G, rj, R, tf + 0.1)
        want = math.sqrt(2 * (Z0 - math.sqrt(R * R - 0.01 ** 2)) / G)
        assert t == pytest.approx(want, abs=1e-9)


# fuzz shots (``fuzz_physics.py --airborne --seed 0``) whose flying ball passed through a
# cushion nose and landed inside the cushion (then set clear of it by the landing correction,
# into a ball in the pocket mouth in the first two): a ball coming down over a jaw tip (its
# nose was not modelled); a ball jumped from a side-pocket mouth along the rail, which starts
# within R of the rail's nose line beside the segment (the first touch of the line is then
# no contact, and the later one was not searched); a ball that started behind a jaw
# segment's line (not searched at all); a fall from high up (lost to round-off): (table, models, shot, balls, first contact of the
# cue ball in flight, the jaw or segment id)
NOSE_SHOTS = {
    "31:2088": ("8ft", ("frictional_inelastic", "mathavan_2010"), [2.628060714087778, 194.65228410494524, 87.39385308008346,
                        0.1807968123956381, 0.13684727674886726],
                [[0.208846528616217, 0.028575000625135495], [0.21085159848663115, 0.08568981751226301],
                 [0.16023464662200138, 0.11222369763252499], [0.02857500059869428, 0.5015571424062388],
                 [0.24879061845297162, 2.3082249990865917], [-0.002444859253374544, 0.034489931216290515],
                 [0.671420095104382, 1.8616631948644151], [0.575961984422621, 0.8115117748559569],
                 [0.2058522643516903, 0.1466497847356617], [0.14648424901990573, 0.1676948536445803],
                 [1.1712159662547086, 2.302757069850676], [0.5580670040369128, 1.033091628705159],
                 [1.1574990502971232, 1.2085843103092442], [0.29425416146171973, 0.028575000848129715],
                 [-0.008210170015629946, 1.1337688865072377]], EK.BALL_JAW, "1t"),
    "210:3328": ("9ft", ("frictional_inelastic", "mathavan_2010"), [3.668912602768768, 104.62600392925697, 73.59185196178406,
                         -0.3681153869032838, 0.034246676208442184],
                 [[0.917958553763261, 1.935630614193007], [0.5249773895592977, 2.396121605602943],
                  [0.8638171494796882, 1.9539289981345187], [0.556442229314828, 1.886944812967076],
                  [0.5721621385669592, 2.363876885405959], [0.25178484007870483, 1.6426826018867768],
                  [0.6853897416402265, 0.13979274864782504], [0.22298255635057174, 1.6920440347306174],
                  [0.7681167775958889, 1.8266837484800291], [0.5902614005330479, 1.1369785231660132],
                  [1.0551991699850152, 0.5857720901267025], [1.2356201673408023, 2.5425362650797902]],
                 EK.BALL_JAW, "11t"),
    "39:2741": ("9ft", ("frictionless_elastic", "han_2005"), [3.912294562758791, 323.97286186673415,
                                                              22.889112679968267, -0.11429889941331592,
                                                              0.2590983868585849],
                [[1.2431709275718383, 1.3303111807012462], [0.6746759461535896, 2.19366003104617],
                 [1.1983338525172074, 1.2948744875253864], [0.03450395318755553, 2.542433218344309],
                 [1.179782771945257, 1.3489298289485134], [1.116004218472065, 0.44375301327110434],
                 [1.2142596965651131, 2.52480246083963], [1.1363418060994084, 1.3860647856646346]],
                EK.BALL_CUSHION, "15"),
    # a high jump across the table, coming down on a corner jaw's nose edge from its playing
    # side after flying over the jaw line's extension (the ball started behind that line)
    "15:2681": ("9ft", ("frictionless_elastic", "han_2005"), [6.384028435314376, 158.33210383963618,
                                                              81.18233695000086, -0.010559180897494354,
                                                              0.35358782849237896],
                [[1.2414249990618689, 0.6658879733399737], [1.213090754198305, 0.7155195467433799],
                 [1.0655275901930525, 0.3455573461923259], [-0.005668575384308823, 0.03060694659194785],
                 [1.273282730456233, 0.033480710040726655], [0.8862371459167133, 0.8499866855583205],
                 [0.14616796655475767, 0.7080179048062004], [0.7433250517051725, 1.349815789040781],
                 [1.25267864082977, 1.2249023147551878], [1.2043151754242776, 1.1944540336295275],
                 [0.9194494173264665, 0.803477894824018], [0.4842447169630015, 1.6476345413507498],
                 [0.04155229514509145, 0.40056078312606913], [0.5412460908551391, 1.6517535153035854]],
                EK.BALL_CUSHION, "1"),
    # a massé at 42 m/s sends the ball some 50 m up: it comes down on a jaw tip at 31 m/s
    # after 6.4 s (the nose's gap polynomial over the whole flight lost the contact)
    "16:3814": ("8ft", ("frictionless_elastic", "han_2005"), [42.20326793186941, 298.9325044473844,
                                                              88.05604377459528, 0.09323501762543049,
                                                              -0.08208369459971837],
                [[0.30560952730518826, 0.6000505907133622], [0.3357760359528382, 0.6485903091466195],
                 [0.904526936778759, 1.9208633026715818], [0.6909518142746248, 0.8356949228467938],
                 [0.6970930483828122, 2.079250983331739]], EK.BALL_JAW, "16t"),
}


@pytest.mark.parametrize("spec", sorted(NOSE_SHOTS))
def test_flying_ball_meets_the_cushion_nose(spec):
    """The flying cue ball's first contact is the nose (of the jaw tip, of the rail) above the
    nose height; the shot ends with no ball inside another or inside a cushion, and a ball
    off the table off the bed; energy never rises (the fuzz's models)."""
    name, (bb, cu), shot, xy, kind, elem = NOSE_SHOTS[spec]
    table = physics.Table.wpa(name)
    kw = dict(ball_ball=bb, cushion=cu, airborne=True)
    res = physics.simulate(table, layout(xy), np.array(shot), grow_log=True, **kw)
    assert res.status == physics.Status.OK
    # the first contact of the cue ball in its flight (after the stroke's own at t = 0)
    first = [e for e in res.events() if e[2] == 0 and e[1] in (EK.BALL_JAW, EK.BALL_CUSHION,
                                                               EK.BALL_BALL, EK.LEAVE_TABLE)
             and e[0] > 0.05][0]
    assert first[1] == kind
    assert (table.jaw_ids if kind == EK.BALL_JAW else table.segment_ids)[first[3]] == elem
    at = physics.simulate(table, layout(xy), np.array(shot), t_final=first[0], **kw)
    assert at.s[0] == physics.Motion.AIRBORNE and at.rvw[0, 0, 2] > table.cushion_height
    assert fuzz.layout_problems(table, res.rvw[None], res.s[None], R)[0] == 0
    off = res.s == physics.Motion.OFF_TABLE
    assert not (table.on_bed(res.rvw[off][:, 0, :2], R) & (res.rvw[off][:, 0, 2] <= R)).any()
    assert not (res.s == physics.Motion.AIRBORNE).any()
    # energy never rises through the nose contacts (as test_energy_never_rises)
    e_prev = _mech_energy(physics.simulate(table, layout(xy), np.array(shot), t_final=0.0, **kw))
    for t in np.unique(res.ev_t[1:res.n_events]):
        e = _mech_energy(physics.simulate(table, layout(xy), np.array(shot), t_final=float(t), **kw))
        assert e <= e_prev + 1e-6, (t, e, e_prev)
        e_prev = e


# ---------------------------------------------------------------------------------------
# energy, sound layouts, fuzz
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("bb,cu", MODELS)
def test_energy_never_rises(bb, cu):
    """Kinetic + potential energy of the balls on the table, just after every event, never
    exceeds its value after the previous one (1 uJ: the MIN_DIST contact corrections)."""
    rvw = layout([[0.635, 0.5], [0.635, 0.75], [0.66, 1.2], [0.3, 1.8]])
    for shot in (physics.Shot(2.5, 90.0, 45.0), physics.Shot(3.0, 91.0, 30.0, 0.3, -0.2),
                 physics.Shot(4.0, 120.0, 70.0, -0.2, 0.3)):
        res = physics.simulate(T9, rvw, shot, ball_ball=bb, cushion=cu, airborne=True)
        times = np.unique(res.ev_t[1:res.n_events])[:40]
        e_prev = _mech_energy(_post_strike(rvw, shot, ball_ball=bb, cushion=cu))
        for t in times:
            e = _mech_energy(physics.simulate(T9, rvw, shot, ball_ball=bb, cushion=cu,
                                              airborne=True, t_final=float(t)))
            assert e <= e_prev + 1e-6, (shot, t, e, e_prev)
            e_prev = e


def test_fuzz_slice_of_elevated_strokes():
    """A seeded slice of ``benchmarks/fuzz_physics.py --airborne``: random layouts and
    elevated strokes over the whole range; every shot settles, and no ball ends off the bed
    or inside another ball except through OFF_TABLE (a ball off the table has left it over a
    cushion or landed off the bed)."""
    for seed, name in ((11, "9ft"), (12, "7ft")):
        table = physics.Table.wpa(name)
        rvw, s = fuzz.random_layouts(seed, 96, table, R)
        shots = fuzz.random_shots(seed + 1, 96, physics.CueParams().miscue_limit)
        res = physics.simulate_batch(table, rvw, shots, np.zeros(96, np.int64), s=s, airborne=True,
                                     grow_log=True)
        assert (res.status == physics.Status.OK).all()
        assert (fuzz.layout_problems(table, res.rvw, res.s, R) == 0).all()
        off = res.s == physics.Motion.OFF_TABLE
        assert off.any() and (res.pocket[off] == -1).all()
        # left where it left the bed: off it, or above it (at rest on a nose or on a ball)
        assert not (table.on_bed(res.rvw[off][:, 0, :2], R) & (res.rvw[off][:, 0, 2] <= R)).any()
        assert not np.isin(res.s, [physics.Motion.AIRBORNE]).any()
        assert (np.abs(res.rvw[..., 0, 2][res.s <= physics.Motion.ROLLING] - R) == 0).all()
