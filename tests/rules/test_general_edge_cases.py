"""Edge cases of the general rules across disciplines (each test names the rule it enforces).

* 8B-4.21 / GW-12: the stalemate verdict keeps the discipline's own rule references.
* G-3.38 (d): an object ball that already touched a cushion at the start is not "driven
  to a cushion with which it was not previously in contact" by being pressed into it.
* G-3.6 / G-3.7: the lag phase in every discipline; G-3.32: spotting in front of the cue ball;
  the compiled kernels equal their Python definitions.
"""
import pytest

from poolgym.rules import CueBallPlacement, FoulKind, Phase, ShotAction
from poolgym.rules.eight_ball import EightBallConfig
from poolgym.rules.game import get_discipline
from poolgym.rules.geometry import Rail, ball_radius, get_table, segment_for_rail
from poolgym.rules.nine_ball import NineBallConfig
from poolgym.rules.shot_record import EventKind
from poolgym.rules.testing import make_state, record

T = get_table("9ft")
R = ball_radius()
BC = int(EventKind.BALL_CUSHION)
BB = int(EventKind.BALL_BALL)


# ----------------------------------------------------------------------------- 8B-4.21 / GW-12
@pytest.mark.rule("8B-4.21")
def test_8B_4_21_stalemate_verdict_keeps_eight_ball_refs():
    """8B-4.21: the stalemate re-rack reached through the shared GW-12 limit reports the
    eight-ball rule (and the 8B-4.3 re-rack), not only GW-12; the next seat is the breaker
    of the stalemated game with the cue ball in hand behind the head string."""
    d = get_discipline("eight_ball")
    s = make_state("eight_ball", {1: (0.4, 1.5), 9: (0.9, 1.6)}, (0.635, 1.0), groups=(1, 2),
                   config=EightBallConfig(stalemate_innings=2), breaker=1, stall_innings=1)
    s2, v = d.apply_shot_record(s, ShotAction(3.0, 90.0, called_ball=1, called_pocket=2),
                                record(s, hit=1, obj_rails=(1,)))
    assert v.rule_refs[0] == "G-3.5"  # the shot's own ruling comes first
    assert "8B-4.21" in v.rule_refs and "8B-4.3" in v.rule_refs and v.rule_refs[-1] == "GW-12"
    assert len(set(v.rule_refs)) == len(v.rule_refs)
    assert v.next_seat == 1 == s2.seat_to_act and s2.phase is Phase.BREAK
    assert v.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and not v.turn_continues and not v.game_over


@pytest.mark.rule("GW-12")
def test_GW_12_draw_verdict_refs_once():
    """GW-12 (base behaviour, nine-ball): a draw; GW-12 is listed once."""
    d = get_discipline("nine_ball")
    s = make_state("nine_ball", {1: (0.4, 1.5), 9: (0.9, 1.6)}, (0.635, 1.0),
                   config=NineBallConfig(stalemate_innings=2), stall_innings=1)
    s2, v = d.apply_shot_record(s, ShotAction(3.0, 90.0), record(s, hit=1, obj_rails=(1,)))
    assert v.game_over and v.winner is None and v.rule_refs.count("GW-12") == 1 and not v.turn_continues


# ----------------------------------------------------------------------------- G-3.38 (d)
def _frozen_pair(name="nine_ball"):
    """Ball 1 frozen to the left rail (first contact); ball 2 frozen to the foot rail."""
    balls = {1: (R, 1.5), 2: (0.9, T.l - R)}
    if name == "eight_ball":
        balls[9] = (0.9, 1.2)
    return make_state(name, balls, (0.4, 1.5), **({"groups": (1, 2)} if name == "eight_ball" else {}))


@pytest.mark.rule("G-3.38")
@pytest.mark.parametrize("name", ["nine_ball", "eight_ball", "straight_pool"])
def test_G_3_38_d_other_frozen_ball_pressed_into_its_rail_is_not_driven(name):
    """G-3.38 (d): after the cue ball hits ball 1 (frozen to the left rail), ball 1 pushes
    ball 2, which was already frozen to the foot rail, into the foot rail: ball 2 was not
    driven to a cushion "with which it was not previously in contact" -> foul in every
    discipline (G-3.38; 14.1 through SP-6.7.2, nine-ball 9B-5.9's frozen case)."""
    d = get_discipline(name)
    s = _frozen_pair(name)
    left = segment_for_rail(T, Rail.LEFT, 1.5)
    foot = segment_for_rail(T, Rail.FOOT)
    ev = [(0.11, BC, 1, left), (0.15, BB, 1, 2), (0.16, BC, 2, foot)]
    act = ShotAction(3.0, 180.0) if name == "nine_ball" else ShotAction(3.0, 180.0, called_ball=1, called_pocket=2)
    _, v = d.apply_shot_record(s, act, record(s, hit=1, extra_events=ev))
    assert [f.kind for f in v.fouls] == [FoulKind.FROZEN_BALL_RULE]
    # The same ball leaving the rail, touching another ball and coming back counts (G-3.38).
    ev2 = ev + [(0.2, BB, 2, 1), (0.3, BC, 2, foot)]
    _, v = d.apply_shot_record(s, act, record(s, hit=1, extra_events=ev2))
    assert not v.fouls
    # A ball that was not touching the rail it reaches satisfies (d) at once.
    ev3 = [(0.11, BC, 1, left), (0.15, BB, 1, 2), (0.16, BC, 2, segment_for_rail(T, Rail.RIGHT, 2.2))]
    _, v = d.apply_shot_record(s, act, record(s, hit=1, extra_events=ev3))
    assert not v.fouls


# ----------------------------------------------------------------------------- G-3.6 lag
def _lag_rec(n, seat, events, final):
    import numpy as np

    from poolgym.rules import general
    from poolgym.rules.shot_record import ShotRecord
    x, y = general.lag_start_position(seat, T, R)
    pos0 = np.zeros((n, 2))
    pos0[0] = (x, y)
    on0 = np.zeros(n, bool)
    on0[0] = True
    return ShotRecord.build(pos0, events, on0=on0, pos1={0: final})


@pytest.mark.rule("G-3.6")
def test_G_3_6_e_lag_touching_a_long_rail_jaw_loses():
    """G-3.6 (e): touching a long rail loses the lag -- also when the contact is with the
    rounded cushion tip (jaw) of the side pocket, which belongs to the long rail."""
    import numpy as np

    from poolgym.rules import general
    from poolgym.rules.geometry import jaw_rails
    foot = (0.5, BC, 0, segment_for_rail(T, Rail.FOOT))
    side_jaw = int(np.flatnonzero(jaw_rails(T) == int(Rail.LEFT))[-1])
    good = _lag_rec(10, 0, [foot], (0.3, 0.2))
    bad = _lag_rec(10, 0, [foot, (0.8, int(EventKind.BALL_JAW), 0, side_jaw)], (0.3, 0.2))
    assert general.lag_outcome(good, T, R, 0) == pytest.approx(0.2 - R)
    assert general.lag_outcome(bad, T, R, 0) == -1.0


@pytest.mark.rule("G-3.32", "GW-4")
def test_G_3_32_4_spot_in_front_never_touching_the_cue_ball():
    """G-3.32.3 / G-3.32.4 / GW-4: the long string behind the foot spot is full, the cue
    ball lies just in front of the foot spot: the spotted balls go in front of it (never
    touching it -- a ``spot_gap`` gap), ascending, the lowest nearest the foot spot, frozen
    to each other; interfering balls are not moved."""
    import numpy as np

    from poolgym.rules.geometry import spot_balls
    fx, fy = T.foot_spot
    P = np.zeros((16, 2))
    on = np.zeros(16, bool)
    for k, b in enumerate(range(4, 15)):  # 11 balls frozen in a chain from the foot spot to the rail
        P[b] = (fx, min(fy + 2 * R * k, T.l - R))
        on[b] = True
    assert P[14, 1] == pytest.approx(T.l - R, abs=3 * R)
    P[0] = (fx, fy - 2.5 * R)
    on[0] = True
    Q = spot_balls([2, 1], P, on, T, R, cue_gap=1e-3)
    assert np.array_equal(Q[on], P[on])
    assert Q[1, 0] == Q[2, 0] == fx
    assert Q[1, 1] == pytest.approx(P[0, 1] - 2 * R - 1e-3)       # as close as allowed to the cue ball
    assert Q[2, 1] == pytest.approx(Q[1, 1] - 2 * R)              # frozen behind ball 1, toward the centre
    assert Q[2, 1] > T.l / 2


def test_compiled_kernels_match_python_definitions():
    """The compiled scan of the shot facts (poolgym.rules.shot_facts) agrees with the numpy
    oracle (tests/rules/shot_facts_reference.py) on real simulated shots (T-1.16.4 split hits, G-3.19 cushions, G-3.11
    pocketing, G-3.28 jumped balls)."""
    import numpy as np

    from poolgym.rules import queries as q
    from poolgym.rules.game import simulate_record
    from poolgym.rules.testing import random_action
    from poolgym.rules.geometry import separate_overlaps
    from tests.rules.shot_facts_reference import cushion_events_reference, first_contact_reference
    d = get_discipline("eight_ball")
    n = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        s = d.initial_state(None, seed)
        for _ in range(25):
            if s.phase is Phase.GAME_OVER:
                break
            a = random_action(s, rng, aim=0.8)
            if not isinstance(a, ShotAction):
                s, _ = d.apply(s, a)
                continue
            rec = simulate_record(s, a)
            f = q.shot_facts(rec, T, (1, 2, 3), 1e-3)
            assert (f.first, f.t0) == first_contact_reference(rec, (1, 2, 3), 1e-3) or (
                f.first is None and first_contact_reference(rec)[0] is None)
            assert q.first_contact(rec, (1, 2, 3), 1e-3) == first_contact_reference(rec, (1, 2, 3), 1e-3)
            t, b, r = cushion_events_reference(rec, T)
            t2, b2, r2 = q.cushion_events(rec, T)
            assert (t.tolist(), b.tolist(), r.tolist()) == (t2.tolist(), b2.tolist(), r2.tolist())
            assert f.cushions == list(zip(t.tolist(), b.tolist(), r.tolist()))
            assert f.pocketed == q.pocketed(rec) and f.jumped == q.jumped_off_table(rec)
            from poolgym.rules import general
            pos, on = general.after_shot(s, rec)
            exp_on = rec.on0 & (rec.pocket < 0) & (rec.s1 != 4) & (rec.s1 != 6)
            assert on == tuple(exp_on.tolist())
            n += 1
            s, _ = d.apply_shot_record(s, a, rec)
    assert n >= 10
    # separate_overlaps: tiny overlaps pushed to >= 2R apart, large ones left alone
    P = np.array([[0.5, 0.5], [0.5 + 2 * R - 1e-6, 0.5], [0.9, 0.9], [0.9 + R, 0.9]])
    Q = separate_overlaps(P, np.ones(4, bool), R)
    assert np.hypot(*(Q[1] - Q[0])) >= 2 * R and np.allclose(Q[2:], P[2:])
