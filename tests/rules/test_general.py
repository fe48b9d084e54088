"""General rules (shared/rules/general.md, all parts): one scenario per SIM / DECL rule ID.

The vehicle discipline is nine-ball (a game without rule overrides for most of these);
each test names the general rule it exercises and asserts the ruling.
"""
import dataclasses

import numpy as np
import pytest

from poolgym.rules import (ChooseOption, Concede, CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option,
                           Phase, PlaceCueBall, ShotAction, ShotRecord)
from poolgym.rules import general, queries as q
from poolgym.rules.game import get_discipline, physics_inputs
from poolgym.rules.geometry import Rail, ball_radius, get_table, in_kitchen, segment_for_rail
from poolgym.rules.nine_ball import NineBallConfig
from poolgym.rules.shot_record import EventKind, Motion
from poolgym.rules.testing import make_state, record

D = get_discipline("nine_ball")
T = get_table("9ft")
R = ball_radius()
HS = float(T.head_string_y)
SHOT = ShotAction(V0=3.0, phi=90.0)
POS = {1: (0.3, 1.5), 2: (0.9, 1.6), 3: (0.5, 2.0), 9: (0.635, 2.2), 5: (1.0, 0.9)}
CUE = (0.635, 1.0)


def play(balls=POS, cue=CUE, **kw):
    return make_state("nine_ball", balls, cue, **kw)


def kinds(v):
    return [f.kind for f in v.fouls]


def kitchen_state(balls, cue=(0.635, 0.3), config=None):
    """Cue ball in hand behind the head string, placed (a break-like shot)."""
    return make_state("nine_ball", balls, cue, phase=Phase.BREAK, cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                      config=config)


# ============================================================== Part 1: G-3.x
@pytest.mark.rule("G-3.2", "GB-2", "T-1.16.5")
def test_G_3_2_racking_triangle_apex_on_foot_spot():
    """G-3.2 / GB-2 / T-1.16.5 / R-2.7: apex on the foot spot, balls touching their
    neighbours (as tight as possible; rack_gap apart), all on the bed."""
    s = D.initial_state(NineBallConfig(rack_gap=0.0), seed=0)
    P = s.positions()[1:]
    assert np.allclose(P[0], T.foot_spot)
    d = np.hypot(P[:, None, 0] - P[None, :, 0], P[:, None, 1] - P[None, :, 1])
    np.fill_diagonal(d, np.inf)
    assert d.min() == pytest.approx(2 * R, abs=1e-12)
    assert all((d[k] <= 2 * R + 1e-12).sum() >= 2 for k in range(9))  # every ball touches >= 2
    rec_on = physics_inputs(s.replace(on_table=(True,) + s.on_table[1:], pos=(0.635, 0.3) + s.pos[2:]))
    assert rec_on[1].tolist().count(int(Motion.STATIONARY)) == 10


@pytest.mark.rule("G-3.3", "GB-3")
def test_G_3_3_striking_cue_ball_only_by_construction():
    """G-3.3 / GB-3: only the cue ball is struck: the shot has no target-ball field and
    the physics inputs strike row 0; the record's STRIKE event is on the cue ball."""
    s = play()
    rvw, st, shot = D.shot_inputs(s, SHOT)
    assert shot.shape == (5,) and "cue_ball" not in {f.name for f in dataclasses.fields(ShotAction)}
    rec = record(s, hit=1, cue_rail=Rail.LEFT)
    assert int(rec.ev_kind[0]) == int(EventKind.STRIKE) and int(rec.ev_i[0]) == 0


@pytest.mark.rule("G-3.4", "R-2.8", "GW-6")
def test_G_3_4_calls_are_declarations():
    """G-3.4 / R-2.8 / GW-6: a call is a declaration in the shot (one ball and one pocket,
    by construction a single field each); calling a ball not on the table is illegal."""
    s = play()
    D.apply_shot_record(s, ShotAction(3.0, 90.0, called_ball=1, called_pocket=2), record(s, hit=1, cue_rail=Rail.LEFT))
    with pytest.raises(IllegalActionError, match="not on the table"):
        D.apply_shot_record(s, ShotAction(3.0, 90.0, called_ball=4, called_pocket=2), record(s, hit=1))
    with pytest.raises(IllegalActionError, match="pocket"):
        D.apply_shot_record(s, ShotAction(3.0, 90.0, called_ball=1, called_pocket=7), record(s, hit=1))


@pytest.mark.rule("G-3.5", "GB-4", "G-3.37", "GB-30")
def test_G_3_5_miss_ends_inning():
    """G-3.5 / GB-4 / G-3.37 / GB-30: a legal shot without a pot ends the inning; the
    incoming player accepts the table in position."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=Rail.LEFT))
    assert not v.fouls and v.next_seat == 1 and s2.inning == s.inning + 1
    assert v.cue_ball is CueBallPlacement.IN_POSITION and s2.cue_ball is CueBallPlacement.IN_POSITION


# ---------------------------------------------------------------- lag G-3.6 / GB-5 / GW-2
def lag_rec(seat, events, final, pocket=None, off=False, ev_xy=None):
    x, y = general.lag_start_position(seat, T, R)
    pos0 = np.zeros((10, 2))
    pos0[0] = (x, y)
    on0 = np.zeros(10, bool)
    on0[0] = True
    return ShotRecord.build(pos0, events, on0=on0, pos1={0: final}, pocketed={0: pocket} if pocket is not None else None,
                            off_table=(0,) if off else ())


FOOT = (0.5, int(EventKind.BALL_CUSHION), 0, None)


def foot_ev(t=0.5):
    return (t, int(EventKind.BALL_CUSHION), 0, segment_for_rail(T, Rail.FOOT))


@pytest.mark.rule("G-3.6", "GB-5", "GW-2")
@pytest.mark.parametrize("case,events,final,kw", [
    ("good", [foot_ev()], (0.3, 0.2), {}),
    ("a_crosses_long_string", [foot_ev()], (0.9, 0.2), {}),
    ("b_no_foot_rail", [], (0.3, 0.2), {}),
    ("c_pocketed", [foot_ev()], (0.0, 0.0), {"pocket": 0}),
    ("d_jumped", [foot_ev()], (0.3, 0.2), {"off": True}),
    ("e_long_rail", [foot_ev(), (0.7, int(EventKind.BALL_CUSHION), 0, segment_for_rail(T, Rail.LEFT, 1.8))],
     (0.3, 0.2), {}),
    ("f_in_jaws", [foot_ev()], (0.03, 0.02), {}),
    ("g_foot_rail_twice", [foot_ev(0.5), foot_ev(0.9)], (0.3, 0.2), {}),
])
def test_G_3_6_lag_automatic_loss_conditions(case, events, final, kw):
    """G-3.6 (a)-(g) / GB-5 (1)-(7) / GW-2 / C-05: automatic loss conditions of a lag."""
    res = general.lag_outcome(lag_rec(0, events, final, **kw), T, R, 0)
    if case == "good":
        assert res == pytest.approx(0.2 - R)
    else:
        assert res == -1.0


@pytest.mark.rule("G-3.8", "GB-6")
def test_G_3_8_opening_break_from_kitchen():
    """G-3.8 / GB-6: the opening break is taken with cue ball in hand behind the head
    string."""
    s = D.initial_state(NineBallConfig(), seed=0)
    spec = D.legal_actions(s)
    assert s.phase is Phase.BREAK and spec.must_place and spec.place_cue is CueBallPlacement.IN_HAND_KITCHEN
    with pytest.raises(IllegalActionError):
        D.apply(s, PlaceCueBall(0.6, HS + 0.1))


# ---------------------------------------------------------------- kitchen G-3.10 / G-3.39
@pytest.mark.rule("G-3.10", "G-3.39", "GW-P4")
def test_G_3_10_kitchen_ball_needs_crossing():
    """G-3.10 / G-3.39 / GW-P4: from the kitchen, a first contact with a ball in the
    kitchen before the cue ball leaves the kitchen is a foul; after a cushion beyond the
    head string (cue ball left and came back) it is legal."""
    balls = {1: (0.3, 0.3), 2: (0.6, 1.9), 3: (0.66, 1.95), 4: (0.55, 1.95), 5: (0.7, 2.0)}
    s = kitchen_state(balls)
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1, obj_rails=(1, 2, 3, 4)))
    assert FoulKind.KITCHEN_RULE in kinds(v) and any(f.rule == "G-3.39" for f in v.fouls)
    _, v = D.apply_shot_record(s, SHOT, record(s, kick_rails=(Rail.FOOT,), hit=1, obj_rails=(1, 2, 3, 4)))
    assert FoulKind.KITCHEN_RULE not in kinds(v)


@pytest.mark.rule("GW-P4", "G-3.10")
def test_GW_P4_kitchen_no_contact_no_crossing_is_foul():
    """GW-P4 / G-3.10: the cue ball must cross the head string or hit a ball."""
    s = kitchen_state({1: (0.6, 1.9)})
    _, v = D.apply_shot_record(s, SHOT, record(s, moves={0: (0.6, 0.5)}))
    assert FoulKind.KITCHEN_RULE in kinds(v)


@pytest.mark.rule("GB-7")
def test_GB_7_kitchen_return_requires_foot_rail_option():
    """GB-7 / C-09 option: the return must come off the foot rail."""
    balls = {1: (0.3, 0.3), 2: (0.6, 1.9), 3: (0.66, 1.95), 4: (0.55, 1.95), 5: (0.7, 2.0)}
    cfg = NineBallConfig(kitchen_return_requires_foot_rail=True)
    s = kitchen_state(balls, config=cfg)
    long_upper = segment_for_rail(T, Rail.LEFT, near_y=1.9)
    rec = record(s, hit=1, obj_rails=(1, 2, 3, 4), extra_events=[(0.05, int(EventKind.BALL_CUSHION), 0, long_upper)])
    _, v = D.apply_shot_record(s, SHOT, rec)
    assert any(f.rule == "GB-7" for f in v.fouls)
    _, v = D.apply_shot_record(s.replace(config=NineBallConfig()), SHOT, rec)
    assert FoulKind.KITCHEN_RULE not in kinds(v)
    _, v = D.apply_shot_record(s, SHOT, record(s, kick_rails=(Rail.FOOT,), hit=1, obj_rails=(1, 2, 3, 4)))
    assert FoulKind.KITCHEN_RULE not in kinds(v)


@pytest.mark.rule("G-3.16", "GB-14", "G-3.12", "GB-10", "GW-5")
def test_G_3_16_head_string_ball_is_playable():
    """G-3.16 / GB-14 / G-3.12 / GB-10 / GW-5: a ball whose centre is on the head string
    is not in the kitchen and may be hit directly; the cue ball may not be placed on the
    line."""
    s = kitchen_state({1: (0.3, HS), 2: (0.6, 1.9), 3: (0.66, 1.95), 4: (0.55, 1.95)})
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1, obj_rails=(1, 2, 3, 4)))
    assert FoulKind.KITCHEN_RULE not in kinds(v)
    assert not in_kitchen(HS, T) and in_kitchen(HS - 1e-9, T)
    s0 = D.initial_state(NineBallConfig(), seed=0)
    with pytest.raises(IllegalActionError, match="head string"):
        D.apply(s0, PlaceCueBall(0.5, HS))


@pytest.mark.rule("R-2.21", "GW-P3", "G-3.10")
@pytest.mark.parametrize("y", [HS, HS + R / 2, HS + 0.3])
def test_R_2_21_kitchen_placement_on_or_in_front_of_line_rejected(y):
    """R-2.21 / GW-P3 / G-3.10: placements on the head string or in front of it are
    masked (IllegalActionError), including R-2.21's half-ball warning zone."""
    s0 = D.initial_state(NineBallConfig(), seed=0)
    with pytest.raises(IllegalActionError):
        D.apply(s0, PlaceCueBall(0.5, y))
    D.apply(s0, PlaceCueBall(0.5, HS - 1e-6))


# ---------------------------------------------------------------- pocketing
@pytest.mark.rule("G-3.11", "GB-9", "GW-P5")
def test_G_3_11_pocketed_and_rebounding_balls():
    """G-3.11 / GB-9 / GW-P5 / C-19: a ball is pocketed iff the physics puts it in a
    pocket; a ball that hits the jaws and stays on the bed is not pocketed (G-3.33: jawed
    balls decided by the physics' pocket capture)."""
    s = play()
    jaw = (0.3, int(EventKind.BALL_JAW), 3, 0)
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, pocketed={2: 5}, extra_events=[jaw], moves={3: (0.1, 2.4)}))
    assert v.pocketed == (2,) and not s2.on_table[2] and s2.on_table[3]


@pytest.mark.rule("G-3.14", "GB-12", "GW-P1")
def test_G_3_14_balls_at_rest_by_construction():
    """G-3.14 / GB-12 / GW-P1: a shot starts only from rest: the state stores positions
    only, the physics input has zero velocities and only STATIONARY / POCKETED balls."""
    s = play()
    rvw, st, _ = D.shot_inputs(s, SHOT)
    assert np.all(rvw[:, 1:] == 0) and set(st.tolist()) <= {int(Motion.STATIONARY), int(Motion.POCKETED)}


def test_G_3_31_no_spontaneous_motion():
    """G-3.31 / GB-25 / GW-7: balls stay exactly where the stroke left them."""
    s = play()
    s2, _ = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=Rail.LEFT, moves={1: (0.2, 1.7), 0: (0.7, 1.3)}))
    assert s2.positions()[1].tolist() == [0.2, 1.7] and s2.positions()[0].tolist() == [0.7, 1.3]


@pytest.mark.rule("G-3.15", "GB-13")
def test_G_3_15_shot_judged_when_every_ball_has_stopped():
    """G-3.15 / GB-13: the stroke is complete only when every ball has stopped: the
    simulated record ends with every ball at rest or pocketed, and the referee's next
    state holds exactly those final positions (nothing is judged mid-motion)."""
    from poolgym.rules.game import simulate_record

    s = play()
    shot = ShotAction(V0=4.0, phi=80.0, b=0.2)
    rec = simulate_record(s, shot)
    assert rec.status == 0 and set(rec.s1.tolist()) <= {int(Motion.STATIONARY), int(Motion.POCKETED)}
    s2, v = D.apply_shot_record(s, shot, rec)
    rest = [k for k in range(1, len(s2.on_table)) if s2.on_table[k] and k not in v.spotted]
    assert len(rest) >= 3 and np.array_equal(s2.positions()[rest], rec.pos1[rest])
    assert s2.shot_number == s.shot_number + 1


@pytest.mark.rule("G-3.17", "GB-15")
def test_G_3_17_general_foul_rule():
    """G-3.17 / GB-15: on a foul the inning ends, no ball counts, spotting only if the game
    says so (nine-ball: only the 9)."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={3: 1}, cue_rail=Rail.LEFT))
    assert v.fouls and v.legal_pocketed == () and v.pocketed == (3,) and v.spotted == ()
    assert s2.seat_to_act == 1 and not s2.on_table[3]


@pytest.mark.rule("G-3.18", "GB-16", "GB-20")
def test_G_3_18_bad_hit_and_playing_away_from_frozen_ball():
    """G-3.18 / GB-16 / GB-20: no contact is a foul; playing away from a ball frozen to the
    cue ball is not hitting it; a frozen illegal ball must be played away from."""
    s = play(balls={1: (0.3, 1.5), 5: (0.635, 1.0 + 2 * R)}, cue=CUE)
    _, v = D.apply_shot_record(s, SHOT, record(s, cue_rail=Rail.HEAD))
    assert kinds(v)[0] is FoulKind.NO_BALL_HIT and v.fouls[0].rule in ("G-3.18", "9B-5.8")
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=5, cue_rail=Rail.HEAD))
    assert FoulKind.WRONG_BALL_FIRST in kinds(v)


@pytest.mark.rule("G-3.19", "GB-17")
def test_G_3_19_legal_shot_needs_rail_after_contact():
    """G-3.19 / GB-17: contact then pocket or any ball to a cushion; a kick cushion before
    contact does not count (general.md 7.2)."""
    s = play()
    _, v = D.apply_shot_record(s, SHOT, record(s, kick_rails=(Rail.LEFT,), hit=1))
    assert kinds(v) == [FoulKind.NO_RAIL_AFTER_CONTACT]
    _, v = D.apply_shot_record(s, SHOT, record(s, kick_rails=(Rail.LEFT,), hit=1, cue_rail=Rail.FOOT))
    assert not v.fouls
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1, pocketed={2: 3}))
    assert not v.fouls


@pytest.mark.rule("G-3.20", "GB-18", "GW-P5")
def test_G_3_20_scratch():
    """G-3.20 / GB-18 / GW-P5: the cue ball pocketed is a foul."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=Rail.LEFT, scratch=2))
    assert FoulKind.SCRATCH in kinds(v) and any(f.rule == "G-3.20" for f in v.fouls)
    assert not s2.on_table[0]


@pytest.mark.rule("G-3.22")
def test_G_3_22_placement_overlap_rejected():
    """G-3.22: a placement overlapping an object ball is invalid (masked), state unchanged."""
    s = play(cue=None, cue_ball=CueBallPlacement.IN_HAND_ANYWHERE)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="overlaps"):
        D.apply(s, PlaceCueBall(0.3 + R, 1.5))
    assert s.to_json() == before


@pytest.mark.rule("G-3.23", "R-2.20")
def test_G_3_23_double_hit_heuristic():
    """G-3.23 / R-2.20: without a cue model, the R-2.20 heuristic (option
    ``double_hit_gap``): cue ball within the gap of the first ball and travelling more
    than half a ball diameter further toward it is a double hit."""
    cfg = NineBallConfig(double_hit_gap=0.01)
    s = play(balls={1: (0.635, 1.0 + 2 * R + 0.002), 2: (0.9, 1.6)}, config=cfg)
    through = record(s, hit=1, obj_rails=(1,), moves={0: (0.635, 1.0 + 2 * R + 0.01), 1: (0.635, 2.0)})
    _, v = D.apply_shot_record(s, SHOT, through)
    assert FoulKind.DOUBLE_HIT in kinds(v) and any(f.rule == "G-3.23" for f in v.fouls)
    cut = record(s, hit=1, obj_rails=(1,), moves={0: (0.3, 1.0), 1: (0.9, 2.0)})
    _, v = D.apply_shot_record(s, SHOT, cut)
    assert not v.fouls
    _, v = D.apply_shot_record(s.replace(config=NineBallConfig()), SHOT, through)
    assert not v.fouls


def test_G_3_24_push_shot_not_modelled():
    """G-3.24 / GB-21 (SIM if the cue is modelled): the stroke is an instantaneous impulse,
    so a push shot cannot occur; a shot off a nearly frozen ball is judged by the other
    rules only."""
    s = play(balls={1: (0.635, 1.0 + 2 * R + 0.002), 2: (0.9, 1.6)})
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1, obj_rails=(1,), moves={0: (0.635, 1.3)}))
    assert not v.fouls


@pytest.mark.rule("G-3.26", "GB-22")
@pytest.mark.parametrize("theta,b,dig_under_theta,foul", [
    (0.5, -0.3, 0.0, True), (10.0, -0.01, 0.0, True), (45.0, -0.3, 0.0, True), (90.0, -0.45, 0.0, True),
    (0.0, -0.3, 0.0, False), (45.0, 0.0, 0.0, False), (45.0, 0.3, 0.0, False),
    (20.0, -0.3, 30.0, False), (30.0, -0.3, 30.0, False), (30.5, -0.3, 30.0, True),
], ids=lambda v: str(v))
def test_G_3_26_elevated_stroke_below_centre_is_an_illegal_jump_foul(theta, b, dig_under_theta, foul):
    """G-3.26 with C-55: a stroke with the cue elevated (theta above ``dig_under_theta``,
    default 0) and the tip below centre (b < 0) is an illegal jump: a foul the referee calls
    (ball in hand, the foul counted), never a refused action. Level strokes and elevated
    strokes at or above centre are legal (G-3.27)."""
    s = play(config=NineBallConfig(dig_under_theta=dig_under_theta))
    s2, v = D.apply_shot_record(s, ShotAction(3.0, 90.0, theta=theta, b=b), record(s, hit=1, cue_rail=Rail.LEFT))
    assert (Foul(FoulKind.ILLEGAL_JUMP, "G-3.26") in v.fouls) is foul
    assert bool(v.fouls) is foul
    if foul:
        assert s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE and s2.consecutive_fouls == (1, 0)


@pytest.mark.rule("G-3.26")
@pytest.mark.parametrize("theta,foul", [(0.0, False), (0.05, False), (0.3, False), (1.0, False), (1.01, True),
                                        (5.0, True)])
def test_G_3_26_default_tolerates_a_level_stroke_elevated_by_execution_noise(theta, foul):
    """G-3.26 / C-55 with the default ``dig_under_theta`` (1 degree): a draw stroke whose
    elevation is within a degree of level -- what ICGA execution noise (sigma 0.1 degree,
    clipped at 0) makes of a level stroke -- is not a dig-under jump; above it, it is."""
    s = play()
    assert s.config.dig_under_theta == 1.0
    _, v = D.apply_shot_record(s, ShotAction(3.0, 90.0, theta=theta, b=-0.3), record(s, hit=1, cue_rail=Rail.LEFT))
    assert (Foul(FoulKind.ILLEGAL_JUMP, "G-3.26") in v.fouls) is foul


@pytest.mark.rule("G-3.27")
def test_G_3_27_miscue_on_a_jump_is_a_foul_and_the_stroke_is_played():
    """G-3.27 with C-55: a miscue (tip offset beyond ``miscue_limit``) on an elevated stroke
    is a foul the referee calls; the physics plays the stroke with the offset scaled back
    onto the limit (`stroke_row`). A level stroke beyond the limit and any offset beyond 1
    (the tip misses the ball) are refused."""
    from poolgym.rules.game import stroke_row

    s = play()
    jump_miscue = ShotAction(3.0, 90.0, theta=40.0, a=0.5, b=0.4)
    s2, v = D.apply_shot_record(s, jump_miscue, record(s, hit=1, cue_rail=Rail.LEFT))
    assert v.fouls == (Foul(FoulKind.MISCUE, "G-3.27"),) and s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE
    row = stroke_row(jump_miscue, s.config)
    assert np.hypot(row[3], row[4]) <= s.config.miscue_limit and np.isclose(row[3] / row[4], 0.5 / 0.4)
    assert np.array_equal(stroke_row(SHOT, s.config), SHOT.shot_array())
    # both stroke fouls at once, listed first
    _, v = D.apply_shot_record(s, ShotAction(3.0, 90.0, theta=40.0, a=0.3, b=-0.6), record(s, hit=1))
    assert [f.rule for f in v.fouls][:2] == ["G-3.27", "G-3.26"]
    for bad, msg in ((ShotAction(3.0, 90.0, a=0.5, b=0.4), "level stroke"),
                     (ShotAction(3.0, 90.0, theta=40.0, a=0.8, b=0.8), "misses")):
        with pytest.raises(IllegalActionError, match=msg):
            D.apply_shot_record(s, bad, record(s, hit=1))


@pytest.mark.rule("G-3.27")
def test_G_3_27_miscue_on_a_jump_with_the_physics():
    """G-3.27: the jump miscue is simulated (the cue ball moves) and called as a foul."""
    s = play()
    s2, v = D.apply(s, ShotAction(2.0, 90.0, theta=20.0, a=0.0, b=0.7))
    assert Foul(FoulKind.MISCUE, "G-3.27") in v.fouls
    assert s2.shot_number == s.shot_number + 1 and s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE


@pytest.mark.rule("G-3.28", "GB-23")
def test_G_3_28_jumped_balls():
    """G-3.28 / GB-23 / C-03: a stroke that jumps the cue ball or an object ball off the
    table is a foul; nine-ball overrides GB-23's spotting (only the 9 is spotted)."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=Rail.LEFT, off_table=(0,)))
    assert FoulKind.CUE_BALL_OFF_TABLE in kinds(v) and s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=Rail.LEFT, off_table=(3,)))
    assert FoulKind.OBJECT_BALL_OFF_TABLE in kinds(v) and not s2.on_table[3]


@pytest.mark.rule("G-3.30", "GB-24")
def test_G_3_30_one_foul_per_stroke():
    """G-3.30 / GB-24 / C-56: several fouls on one stroke are penalised as one foul."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=2, scratch=1, off_table=(3,)))
    assert len(v.fouls) >= 3 and s2.consecutive_fouls == (1, 0)


# ---------------------------------------------------------------- spotting G-3.32
@pytest.mark.rule("G-3.32", "GB-26", "GW-4")
def test_G_3_32_1_spotting_single_ball_on_foot_spot():
    """G-3.32.1 / GB-26 / GW-4: a single ball goes on the foot spot."""
    s = play(balls={1: (0.3, 1.5)})
    s2 = general.spot(s, (9,), T, R)
    assert np.allclose(s2.positions()[9], T.foot_spot) and s2.on_table[9]


@pytest.mark.rule("G-3.34", "GB-27")
def test_G_3_34_additional_balls_count():
    """G-3.34 / GB-27: other balls pocketed on a legal shot count per the game (nine-ball:
    all stay down and the shooter continues)."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, pocketed={2: 1, 5: 3}))
    assert v.legal_pocketed == (2, 5) and v.turn_continues


@pytest.mark.rule("G-3.36", "GB-29")
def test_G_3_36_break_order_configuration():
    """G-3.36 / GB-29 / C-06: next_breaker for each order; a drawn game keeps the breaker."""
    nb = general.next_breaker
    assert nb("winner", 0, 1, (0, 1)) == 1 and nb("loser", 0, 1, (0, 1)) == 0
    assert nb("alternate", 0, 0, (1, 0)) == 1 and nb("trailing", 0, 0, (3, 1)) == 1
    assert nb("winner", 1, None, (0, 0)) == 1


# ---------------------------------------------------------------- frozen balls G-3.38
def frozen_state():
    # ball 1 frozen to the left rail, cue ball in front of it
    return play(balls={1: (R, 1.5), 2: (0.9, 1.6)}, cue=(0.4, 1.5))


@pytest.mark.rule("G-3.38", "GB-31")
def test_G_3_38_frozen_ball_pushed_into_same_rail_is_foul():
    """G-3.38 / GB-31 / C-08: a ball frozen to a cushion that is only pushed into the same
    rail is not "driven to a cushion": foul."""
    s = frozen_state()
    left = segment_for_rail(T, Rail.LEFT, 1.5)
    rec = record(s, hit=1, extra_events=[(0.11, int(EventKind.BALL_CUSHION), 1, left)])
    _, v = D.apply_shot_record(s, SHOT, rec)
    assert kinds(v) == [FoulKind.FROZEN_BALL_RULE] and v.fouls[0].rule == "G-3.38"


@pytest.mark.rule("G-3.38")
@pytest.mark.parametrize("how", ["cue_rail", "other_rail", "other_ball", "pocket", "rebound_after_ball"])
def test_G_3_38_frozen_ball_requirements_met(how):
    """G-3.38 (a)-(d): pocket, cue ball to a cushion, the frozen ball to a separate
    cushion, another ball to a cushion; the same rail counts after a ball contact."""
    s = frozen_state()
    left = segment_for_rail(T, Rail.LEFT, 1.5)
    ev = [(0.11, int(EventKind.BALL_CUSHION), 1, left)]
    kw = {}
    if how == "cue_rail":
        kw["cue_rail"] = Rail.HEAD
    elif how == "other_rail":
        ev.append((0.2, int(EventKind.BALL_CUSHION), 1, segment_for_rail(T, Rail.FOOT)))
    elif how == "other_ball":
        kw.update(obj_rails=(2,), obj_rail=Rail.RIGHT)
    elif how == "pocket":
        kw["pocketed"] = {2: 5}
    else:
        ev += [(0.2, int(EventKind.BALL_BALL), 1, 2), (0.3, int(EventKind.BALL_CUSHION), 1, left)]
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1, extra_events=ev, **kw))
    assert not v.fouls


@pytest.mark.rule("R-2.16")
def test_R_2_16_frozen_flags_visible_and_rule_option():
    """R-2.16 / C-08: frozen balls are detected geometrically and exposed (so the warning
    is always given); ``frozen_rule_enabled=False`` falls back to G-3.19."""
    s = frozen_state()
    rec = record(s, hit=1, extra_events=[(0.11, int(EventKind.BALL_CUSHION), 1, segment_for_rail(T, Rail.LEFT, 1.5))])
    rails, to_cue = q.frozen_at_start(rec, T, R, 1e-4)
    assert rails[1] == 1 << int(Rail.LEFT) and rails[2] == 0 and not to_cue.any()
    s2 = s.replace(config=NineBallConfig(frozen_rule_enabled=False))
    _, v = D.apply_shot_record(s2, SHOT, rec)
    assert not v.fouls


@pytest.mark.rule("G-3.38")
def test_G_3_38_frozen_to_cue_ball():
    """G-3.38: a ball frozen to the cue ball needs the same (a)-(d) outcome."""
    s = play(balls={1: (0.635, 1.0 + 2 * R), 2: (0.9, 1.6)})
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1))
    assert kinds(v) == [FoulKind.FROZEN_BALL_RULE]
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1, obj_rails=(1,)))
    assert not v.fouls


@pytest.mark.rule("G-3.40", "GB-32")
def test_G_3_40_placement_is_separate_action():
    """G-3.40 / GB-32: placing the cue ball is its own action (no verdict, nothing else
    moves) and may be repeated until the shot."""
    s = play(cue=None, cue_ball=CueBallPlacement.IN_HAND_ANYWHERE)
    s1, v = D.apply(s, PlaceCueBall(0.5, 0.5))
    s2, _ = D.apply(s1, PlaceCueBall(0.6, 0.7))
    assert v is None and s2.pos[2:] == s.pos[2:] and s2.positions()[0].tolist() == [0.6, 0.7]


# ============================================================== Part 2/3: GB / GW extras
@pytest.mark.rule("GB-8", "GW-5")
def test_GB_8_ball_in_hand_anywhere():
    """GB-8 / GW-5: ball in hand after a foul: anywhere on the playing surface."""
    s = play(cue=None, cue_ball=CueBallPlacement.IN_HAND_ANYWHERE)
    for xy in [(0.1, 0.1), (1.1, 2.4), (0.635, HS)]:
        D.apply(s, PlaceCueBall(*xy))
    with pytest.raises(IllegalActionError, match="bed"):
        D.apply(s, PlaceCueBall(0.01, 1.0))


@pytest.mark.rule("GW-5")
def test_GW_5_kitchen_spot_request():
    """GW-5 / C-10: in hand behind the head string with every object ball behind it, the
    player may have the ball nearest the head string spotted on the foot spot."""
    cfg = NineBallConfig(kitchen_spot_request=True)
    s = make_state("nine_ball", {1: (0.3, 0.3), 2: (0.8, 0.5)}, None, config=cfg,
                   cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    spec = D.legal_actions(s)
    assert Option.SPOT_NEAREST_KITCHEN_BALL in spec.options
    s2, v = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    assert v.spotted == (2,) and np.allclose(s2.positions()[2], T.foot_spot)
    assert Option.SPOT_NEAREST_KITCHEN_BALL not in D.legal_actions(s2).options
    with pytest.raises(IllegalActionError):
        D.apply(s.replace(config=NineBallConfig()), ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))


@pytest.mark.rule("GW-5")
@pytest.mark.parametrize("chosen", [None, 2, 4])
def test_GW_5_equally_near_balls_the_player_designates_which_is_spotted(chosen):
    """GW-5: "if two or more balls are equally distant from the line, the player may choose
    any of them": the spec lists them (``spot_choices``) and ``ChooseOption(..., ball=k)``
    designates one (None: the lowest); a ball farther from the line is refused."""
    cfg = NineBallConfig(kitchen_spot_request=True)
    s = make_state("nine_ball", {1: (0.3, 0.3), 2: (0.2, 0.5), 4: (0.9, 0.5)}, None, config=cfg,
                   cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert D.legal_actions(s).spot_choices == (2, 4)
    s2, v = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL, ball=chosen))
    b = 2 if chosen is None else chosen
    assert v.spotted == (b,) and "GW-5" in v.rule_refs and np.allclose(s2.positions()[b], T.foot_spot)
    before = s.to_json()
    for bad in (1, 3, 9, True, 2.0):
        with pytest.raises(IllegalActionError, match="GW-5"):
            D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL, ball=bad))
    assert s.to_json() == before
    # one nearest ball: the only choice
    one = s.replace(pos=s.pos[:9] + (0.49,) + s.pos[10:])
    assert D.legal_actions(one).spot_choices == (2,)
    with pytest.raises(IllegalActionError, match="names no ball"):
        D.apply(s.replace(phase=Phase.OPTION, options=(Option.ACCEPT_TABLE,)),
                ChooseOption(Option.ACCEPT_TABLE, ball=2))


@pytest.mark.rule("GW-11", "T-1.14")
def test_GW_11_concession():
    """GW-11 / T-1.14: the seat to act may concede; the opponent wins."""
    s = play()
    s2, v = D.apply(s, Concede())
    assert v.game_over and v.winner == 1 and s2.phase is Phase.GAME_OVER


@pytest.mark.rule("GW-12")
def test_GW_12_stalemate_limit():
    """GW-12: the referee's "no progress" judgement is a configurable limit of innings
    without a pocketed ball; reaching it ends the game without a winner."""
    s = play(config=NineBallConfig(stalemate_innings=2))
    s1, v1 = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=Rail.LEFT))
    assert s1.stall_innings == 1 and not v1.game_over
    s2, v2 = D.apply_shot_record(s1, SHOT, record(s1, hit=1, cue_rail=Rail.LEFT))
    assert v2.game_over and v2.winner is None and "GW-12" in v2.rule_refs and s2.phase is Phase.GAME_OVER
    s1b, _ = D.apply_shot_record(s1, SHOT, record(s1, hit=1, pocketed={2: 0}))
    assert s1b.stall_innings == 0


# ============================================================== Part 4/5: T / R
@pytest.mark.rule("T-1.5")
def test_T_1_5_table_markings():
    """T-1.5: head string l/4, foot spot (w/2, 3l/4), centre spot, long string x = w/2
    (the spotting line)."""
    assert HS == pytest.approx(T.l / 4)
    assert tuple(T.foot_spot) == pytest.approx((T.w / 2, 3 * T.l / 4))
    assert tuple(T.center_spot) == pytest.approx((T.w / 2, T.l / 2))
    s = general.spot(play(balls={1: (0.3, 1.5)}), (2, 3), T, R)
    assert s.positions()[2][0] == pytest.approx(T.w / 2) and s.positions()[3][0] == pytest.approx(T.w / 2)


def test_T_1_8_no_practice_or_unknown_actions():
    """T-1.8 / G-3.41: there is no practice action; unknown actions are rejected."""
    s = play()
    with pytest.raises(IllegalActionError):
        D.apply(s, "practice")


@pytest.mark.rule("T-1.10")
def test_T_1_10_inning_ends_by_construction():
    """T-1.10: when the inning ends the turn passes: the state names only the incoming
    seat as the one to act."""
    s = play()
    s2, _ = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=Rail.LEFT))
    assert D.legal_actions(s2).seat == 1


def test_T_1_11_no_shot_clock():
    """T-1.11 (optional SIM, out of scope): no clock exists; the ruling of a shot does not
    depend on when it is applied."""
    s = play()
    r = record(s, hit=1, cue_rail=Rail.LEFT)
    assert D.apply_shot_record(s, SHOT, r) == D.apply_shot_record(s, SHOT, r)


def test_T_1_16_2_jump_masse_no_cue_model():
    """T-1.16.2 (SIM if the cue is modelled): no cue-stick geometry exists, so the only
    stroke event is the STRIKE on the cue ball; impeding balls move only by contacts."""
    s = play()
    rec = record(s, hit=1, cue_rail=Rail.LEFT)
    assert np.count_nonzero(rec.ev_kind == int(EventKind.STRIKE)) == 1


@pytest.mark.rule("T-1.16.4", "R-2.10")
def test_T_1_16_4_split_hit_in_shooters_favour():
    """T-1.16.4 / R-2.10: a legal and an illegal ball hit within split_hit_eps: the legal
    ball counts as first."""
    s = play(balls={1: (0.6, 1.2), 2: (0.67, 1.2), 9: (0.635, 2.2)})
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=(2, 1), split=1e-5, cue_rail=Rail.LEFT))
    assert not v.fouls
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=(2, 1), split=1e-2, cue_rail=Rail.LEFT))
    assert kinds(v) == [FoulKind.WRONG_BALL_FIRST]


@pytest.mark.rule("R-2.9")
def test_R_2_9_fouls_reported_with_rule_ids():
    """R-2.9: every foul is reported in the verdict with its rule ID; ball in hand is
    announced to the incoming player (verdict.cue_ball)."""
    s = play()
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=2, cue_rail=Rail.LEFT))
    assert all(isinstance(f.rule, str) and f.rule for f in v.fouls)
    assert v.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE


@pytest.mark.rule("R-2.11")
def test_R_2_11_pockets_unlimited():
    """R-2.11: pocket capacity is unlimited: several balls in one pocket are all pocketed."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, pocketed={2: 5, 3: 5, 5: 5}))
    assert v.pocketed == (2, 3, 5) and not any(s2.on_table[k] for k in (2, 3, 5))


@pytest.mark.rule("R-2.16")
def test_R_2_16_warning_state_visible():
    """R-2.16 / C-67: the consecutive-foul counter is in the state (the warning)."""
    s = play()
    s2, _ = D.apply_shot_record(s, SHOT, record(s))
    assert s2.consecutive_fouls == (1, 0)
    assert GameState.from_json(s2.to_json()).consecutive_fouls == (1, 0)


@pytest.mark.rule("G-3.6", "GB-5")
def test_G_3_6_lag_crossing_detected_on_path():
    """G-3.6 (a) / GB-5 (1): a lag ball that crosses the long string and comes back is
    detected on its path (real physics: the exact x extent of the simultaneous lag), not only
    by its final position."""
    from poolgym.rules import lag
    straight = lag.simulate_lag_record(T, [[2.3, 90.0, 0, 0, 0], [2.3, 90.0, 0, 0, 0]], R)
    assert straight.x_max[0] < T.w / 2 < straight.x_min[1]
    across = lag.simulate_lag_record(T, [[2.0, 60.0, 0, 0, 0], [2.3, 90.0, 0, 0, 0]], R)
    b0 = lag.lag_ball(across.rec, T, R, 0, ball=0, x_range=(across.x_min[0], across.x_max[0]))
    assert across.x_max[0] > T.w / 2 and b0.crossed and b0.result == -1.0


@pytest.mark.rule("G-3.19", "G-3.38")
def test_G_3_19_frozen_other_ball_pushed_into_own_rail_is_not_a_new_contact():
    """G-3.19 / G-3.38 / general.md 7.1 new_contact: when the only cushion contact after
    the hit is a ball that was frozen to that rail being pushed into it, no ball was
    "driven to a cushion"."""
    # ball 2 frozen to the left rail; ball 1 hit into ball 2, which is pressed into the rail
    s = play(balls={1: (0.3, 1.5), 2: (R, 1.5), 9: (0.635, 2.2)}, cue=(0.635, 1.5))
    left = segment_for_rail(T, Rail.LEFT, 1.5)
    ev = [(0.15, int(EventKind.BALL_BALL), 1, 2), (0.16, int(EventKind.BALL_CUSHION), 2, left)]
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1, extra_events=ev))
    assert kinds(v) == [FoulKind.NO_RAIL_AFTER_CONTACT]
    ev2 = ev + [(0.3, int(EventKind.BALL_BALL), 2, 9), (0.4, int(EventKind.BALL_CUSHION), 2, left)]
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1, extra_events=ev2))
    assert not v.fouls


def test_every_declared_foul_kind_is_produced_by_a_referee():
    """Every `FoulKind` member is produced by some referee (a kind no rule can call is not
    declared): each is named outside its declaration in `poolgym`."""
    import pathlib
    import re

    import poolgym

    root = pathlib.Path(poolgym.__file__).parent
    text = "\n".join(p.read_text() for p in root.rglob("*.py") if p.name != "core.py")
    for kind in FoulKind:
        assert re.search(rf"FoulKind\.{kind.name}\b", text), kind


def test_shot_speed_limit_is_the_physics_limit():
    """A stroke faster than the physics simulates (V0 > `MAX_CUE_SPEED`) is an illegal
    action, refused before anything is simulated; the limit is the physics' own."""
    import physics
    from poolgym.rules.game import MAX_CUE_SPEED

    s = play()
    rvw, st = physics_inputs(s)
    physics.simulate(T, rvw, physics.Shot(V0=MAX_CUE_SPEED, phi=90.0), s=st)
    with pytest.raises(ValueError):
        physics.simulate(T, rvw, physics.Shot(V0=np.nextafter(MAX_CUE_SPEED, 99.0), phi=90.0), s=st)
    rng = np.random.default_rng(5)
    for V0 in [100.0, np.nextafter(MAX_CUE_SPEED, 99.0)] + rng.uniform(MAX_CUE_SPEED, 1e6, 20).tolist():
        with pytest.raises(IllegalActionError, match="V0"):
            D.apply(s, ShotAction(float(V0), 90.0))


@pytest.mark.rule("G-3.6")
@pytest.mark.parametrize("discipline, n", [("bowlliards", 1), ("pea_pool", 4), ("cutthroat", 3)])
def test_G_3_6_lag_is_for_two_seats(discipline, n):
    """G-3.6: the two players lag; a config asking for the lag with any other seat count is
    refused when it is made (every discipline's config, solo games included), and the env
    refuses it at ``make``."""
    import gymnasium as gym

    import poolgym  # noqa: F401

    from poolgym.rules.game import get_discipline

    cls = get_discipline(discipline).config_cls
    with pytest.raises(ValueError, match="lag"):
        cls(n_players=n, lag=True)
    assert cls(n_players=n, lag=False).n_players == n
    if discipline == "bowlliards":
        with pytest.raises(ValueError, match="lag"):
            gym.make("poolgym/Bowlliards-v0", players=n, rules={"lag": True})
