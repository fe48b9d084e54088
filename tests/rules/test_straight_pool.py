"""14.1 continuous scenario table (shared/rules/straight_pool.md). Every SIM / DECL rule
ID of the file is named by the tests below (docstrings / parametrize ids); each builds
the situation from hand-built shot records and asserts the verdict."""
import dataclasses

import numpy as np
import pytest

from poolgym.rules import (ChooseOption, CueBallPlacement, FoulKind, GameState, IllegalActionError, Option, Phase,
                           PlaceCueBall, ShotAction)
from poolgym.rules.game import get_discipline
from poolgym.rules.geometry import Rail, ball_radius, get_table, triangle_slots
from poolgym.rules.straight_pool import (RELOCATION_TABLE, Dest, PenaltyBase, StraightPoolConfig, StraightPoolExtra,
                                         ThirdFoulOption, Where15, WhereCue, classify_15th, classify_cue,
                                         in_rack_area, near_rails)
from poolgym.rules.testing import make_state, record

D = get_discipline("straight_pool")
T = get_table("9ft")
R = ball_radius()
HS = T.head_spot
FOOT = T.foot_spot
CENTRE = T.center_spot
SAFE = ShotAction(V0=2.0, phi=90.0, safety=True)
BREAK_SAFE = ShotAction(V0=6.0, phi=90.0)


def call(ball, pocket=5):
    return ShotAction(V0=3.0, phi=90.0, called_ball=ball, called_pocket=pocket)


# An open mid-game position, no ball near a cushion, none in the rack area.
POS = {1: (0.3, 1.3), 2: (0.9, 1.4), 3: (0.5, 0.9), 4: (1.0, 1.0), 7: (0.4, 2.25)}
CUE = (0.635, 1.1)


def play(balls=POS, cue=CUE, config=None, **kw):
    return make_state("straight_pool", balls, cue, config=config or StraightPoolConfig(), **kw)


def with_extra(s, **kw):
    return s.replace(extra=dataclasses.replace(s.extra, **kw))


def break_state(seed=0, config=None):
    s = D.initial_state(config or StraightPoolConfig(), seed=seed)
    return D.apply(s, PlaceCueBall(0.635, 0.4))[0]


def apex(s):
    P = s.positions()
    return int(np.argmin(np.hypot(P[1:, 0] - FOOT[0], P[1:, 1] - FOOT[1]))) + 1


def kinds(v):
    return [f.kind for f in v.fouls]


def rules(v):
    return [f.rule for f in v.fouls]


# ----------------------------------------------------------------------------- SP-6.1 .. SP-6.5
@pytest.mark.rule("SP-6.1")
def test_object_of_game_call_scores_and_continues():
    """SP-6.1: each correctly called and legally pocketed ball scores one point and the
    player continues his inning."""
    s = play()
    s2, v = D.apply_shot_record(s, call(3, 0), record(s, hit=3, pocketed={3: 0}))
    assert not v.fouls and v.legal_pocketed == (3,) and v.points == (1, 0) and v.turn_continues
    assert s2.scores == (1, 0) and s2.seat_to_act == 0 and s2.phase is Phase.PLAY
    assert s2.cue_ball is CueBallPlacement.IN_POSITION


@pytest.mark.rule("SP-6.1")
@pytest.mark.parametrize("target", [150, 3])
def test_target_points_win(target):
    """SP-6.1: the player who reaches the agreed total (default 150) wins at once."""
    cfg = StraightPoolConfig() if target == 150 else StraightPoolConfig(target_points=target)
    assert StraightPoolConfig().target_points == 150
    s = play(config=cfg, scores=(cfg.target_points - 1, 5))
    s2, v = D.apply_shot_record(s, call(3, 0), record(s, hit=3, pocketed={3: 0}))
    assert v.game_over and v.winner == 0 and s2.phase is Phase.GAME_OVER and s2.winner == 0
    assert s2.scores == (cfg.target_points, 5) and "SP-6.1" in v.rule_refs
    with pytest.raises(IllegalActionError):
        D.apply_shot_record(s2, call(1), record(s2, hit=1))


@pytest.mark.rule("SP-6.1")
@pytest.mark.parametrize("bad", [0, -5, 1.5, True])
def test_target_points_validated(bad):
    """SP-6.1: target_points is a positive int (clear ValueError naming the field)."""
    with pytest.raises(ValueError, match="target_points"):
        StraightPoolConfig(target_points=bad)


@pytest.mark.rule("SP-6.2")
def test_two_players():
    """SP-6.2: 2 players (or 2 teams); other seat counts are rejected."""
    s = D.initial_state(StraightPoolConfig(), seed=0)
    assert s.n_players == 2 and s.scores == (0, 0)
    with pytest.raises(ValueError, match="n_players"):
        StraightPoolConfig(n_players=3)


@pytest.mark.rule("SP-6.3")
def test_balls_used():
    """SP-6.3: cue ball plus object balls 1-15 (16 rows)."""
    s = D.initial_state(StraightPoolConfig(), seed=0)
    assert D.n_balls == 16 and s.n_balls == 16 and s.balls_on_table() == tuple(range(1, 16))
    assert not s.on_table[0] and s.cue_ball is CueBallPlacement.IN_HAND_KITCHEN


@pytest.mark.rule("SP-6.4")
@pytest.mark.parametrize("seed", range(6))
def test_rack(seed):
    """SP-6.4: tight triangle, apex on the foot spot, the 1 in the right corner and the 5 in
    the left corner from the racker's view (racker at the foot rail facing the head: right
    = small x), the rest random from the state's RNG (same seed, same rack)."""
    s = D.initial_state(StraightPoolConfig(), seed=seed)
    P = s.positions()
    slots = triangle_slots(T, R, s.config.rack_gap)
    assert sorted(map(tuple, np.round(P[1:], 9))) == sorted(map(tuple, np.round(slots, 9)))
    assert np.allclose(P[1], slots[10]) and np.allclose(P[5], slots[14])
    assert P[1, 0] < P[5, 0] and np.isclose(P[1, 1], P[5, 1])  # back row, 1 at small x
    assert np.allclose(slots[0], FOOT)
    # tight: neighbours 2R + gap apart
    d = np.hypot(*(slots[1] - slots[0]))
    assert abs(d - (2 * R + s.config.rack_gap)) < 1e-12
    assert D.initial_state(StraightPoolConfig(), seed=seed) == s


@pytest.mark.rule("SP-6.4")
def test_rack_random_between_seeds():
    """SP-6.4: the other balls are placed at random (different seeds, different racks)."""
    racks = {D.initial_state(StraightPoolConfig(), seed=k).pos for k in range(8)}
    assert len(racks) > 4


@pytest.mark.rule("SP-6.5", "SP-6.7.1")
def test_scoring_all_balls_on_legal_shot():
    """SP-6.5 / SP-6.7.1: every ball pocketed on a legal shot with the called ball counts
    one point (the called ball and any extra balls; combinations and kisses need no call)."""
    s = play()
    rec = record(s, hit=1, obj_contacts=((1, 3),), pocketed={3: 0, 4: 3})
    s2, v = D.apply_shot_record(s, call(3, 0), rec)
    assert not v.fouls and v.legal_pocketed == (3, 4) and v.points == (2, 0) and s2.scores == (2, 0)
    assert v.turn_continues and not s2.on_table[3] and not s2.on_table[4]


# ----------------------------------------------------------------------------- SP-6.6 opening break
@pytest.mark.rule("SP-6.6")
def test_break_called_ball_legal_and_scores():
    """SP-6.6 (1): the breaker designates a ball and a pocket and pockets it: +1 per ball,
    he continues."""
    s = break_state()
    b = apex(s)
    s2, v = D.apply_shot_record(s, call(b, 2), record(s, hit=b, pocketed={b: 2, 9 if b != 9 else 8: 0}))
    assert not v.fouls and v.points == (2, 0) and v.turn_continues and s2.phase is Phase.PLAY
    assert s2.seat_to_act == 0 and s2.cue_ball is CueBallPlacement.IN_POSITION


@pytest.mark.rule("SP-6.6")
def test_break_safe_two_balls_to_rail_legal():
    """SP-6.6 (2): cue ball hits a ball then a cushion, plus two object balls to a cushion:
    legal; no call made, so the inning ends and pocketed balls are spotted (SP-6.8)."""
    s = break_state()
    b = apex(s)
    s2, v = D.apply_shot_record(s, BREAK_SAFE, record(s, hit=b, obj_rails=(2, 3), cue_rail=Rail.LEFT,
                                                      pocketed={6: 0}))
    assert not v.fouls and v.points == (0, 0) and v.next_seat == 1 and s2.phase is Phase.PLAY
    assert v.spotted == (6,) and s2.on_table[6] and np.allclose(s2.positions()[6], FOOT, atol=0.2)
    assert s2.cue_ball is CueBallPlacement.IN_POSITION and s2.scores == (0, 0)


@pytest.mark.rule("SP-6.6")
@pytest.mark.parametrize("case", ["one_ball_to_rail", "no_cue_rail", "no_contact", "wrong_pocket"])
def test_breaking_violation(case):
    """SP-6.6: failing both requirements is a breaking violation: -2, the opponent chooses
    to accept the table or to have the offender re-break; pocketed balls spotted."""
    s = break_state()
    b = apex(s)
    act = BREAK_SAFE
    if case == "one_ball_to_rail":
        rec = record(s, hit=b, obj_rails=(2,), cue_rail=Rail.LEFT)
    elif case == "no_cue_rail":
        rec = record(s, hit=b, obj_rails=(2, 3, 4))
    elif case == "no_contact":
        rec = record(s, cue_rail=Rail.FOOT)
    else:
        act = call(b, 2)
        rec = record(s, hit=b, pocketed={b: 3})
    s2, v = D.apply_shot_record(s, act, rec)
    assert kinds(v) == [FoulKind.ILLEGAL_BREAK] and rules(v) == ["SP-6.6"]
    assert v.points == (-2, 0) and s2.scores == (-2, 0)
    assert s2.phase is Phase.OPTION and s2.seat_to_act == 1
    assert set(s2.options) == {Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS} and v.options == s2.options
    assert s2.consecutive_fouls == (0, 0)  # not a foul for SP-6.12
    if case == "wrong_pocket":
        assert v.spotted == (b,) and s2.on_table[b]


@pytest.mark.rule("SP-6.6")
def test_breaking_violation_accept_table():
    """SP-6.6 option (1): the opponent accepts the table in position."""
    s = break_state()
    s2, _ = D.apply_shot_record(s, BREAK_SAFE, record(s, hit=apex(s), moves={0: (0.5, 1.2)}))
    s3, v = D.apply(s2, ChooseOption(Option.ACCEPT_TABLE))
    assert s3.phase is Phase.PLAY and s3.seat_to_act == 1 and s3.cue_ball is CueBallPlacement.IN_POSITION
    assert s3.positions()[0].tolist() == [0.5, 1.2] and s3.scores == (-2, 0) and "SP-6.6" in v.rule_refs


@pytest.mark.rule("SP-6.6")
def test_breaking_violation_rebreak_repeats():
    """SP-6.6 option (2): all balls re-racked and the offender breaks again; the choice
    continues until the requirements are met (-2 each time)."""
    s = break_state()
    s2, _ = D.apply_shot_record(s, BREAK_SAFE, record(s, hit=apex(s), pocketed={3: 0}))
    s3, v = D.apply(s2, ChooseOption(Option.OPPONENT_REBREAKS))
    assert s3.phase is Phase.BREAK and s3.seat_to_act == 0 and v.next_seat == 0
    assert s3.balls_on_table() == tuple(range(1, 16)) and s3.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    assert D.legal_actions(s3).must_place and s3.rng != s2.rng
    s4 = D.apply(s3, PlaceCueBall(0.3, 0.3))[0]
    s5, v5 = D.apply_shot_record(s4, BREAK_SAFE, record(s4, hit=apex(s4), obj_rails=(2,)))
    assert kinds(v5) == [FoulKind.ILLEGAL_BREAK] and s5.scores == (-4, 0) and s5.phase is Phase.OPTION
    s6, _ = D.apply(s5, ChooseOption(Option.OPPONENT_REBREAKS))
    s7 = D.apply(s6, PlaceCueBall(0.3, 0.3))[0]
    s8, v8 = D.apply_shot_record(s7, BREAK_SAFE, record(s7, hit=apex(s7), obj_rails=(2, 3), cue_rail=Rail.HEAD))
    assert not v8.fouls and s8.scores == (-4, 0) and s8.seat_to_act == 1 and s8.phase is Phase.PLAY


@pytest.mark.rule("SP-6.6")
def test_breaking_violation_not_counted_as_successive_foul():
    """SP-6.6: the three-consecutive-foul rule does not apply to breaking violations."""
    s = break_state().replace(consecutive_fouls=(2, 0))
    s2, v = D.apply_shot_record(s, BREAK_SAFE, record(s, hit=apex(s)))
    assert s2.consecutive_fouls == (2, 0) and v.points == (-2, 0) and FoulKind.THIRD_CONSECUTIVE_FOUL not in kinds(v)


@pytest.mark.rule("SP-6.6")
def test_break_scratch_on_legal_break_is_foul():
    """SP-6.6: a scratch on a legal opening break is a foul, -1, counts toward successive
    fouls; incoming player in hand behind the head string, object balls in position
    (balls pocketed on the foul stroke spotted, SP-6.13)."""
    s = break_state()
    b = apex(s)
    s2, v = D.apply_shot_record(s, BREAK_SAFE, record(s, hit=b, obj_rails=(2, 3), cue_rail=Rail.LEFT,
                                                      scratch=1, pocketed={4: 0}))
    assert kinds(v) == [FoulKind.SCRATCH] and v.points == (-1, 0) and s2.consecutive_fouls == (1, 0)
    assert s2.seat_to_act == 1 and s2.phase is Phase.PLAY and s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    assert v.spotted == (4,) and s2.on_table[4]
    spec = D.legal_actions(s2)
    assert spec.must_place and spec.place_cue is CueBallPlacement.IN_HAND_KITCHEN


@pytest.mark.rule("SP-6.6", "SP-6.10")
def test_break_violation_with_scratch_accept_gives_kitchen():
    """SP-6.6 + SP-6.10: a breaking violation with a scratch costs the 2 points; if the
    table is accepted the incoming player has cue ball in hand behind the head string."""
    s = break_state()
    s2, v = D.apply_shot_record(s, BREAK_SAFE, record(s, hit=apex(s), obj_rails=(2,), scratch=0))
    assert v.points == (-2, 0) and v.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    s3, _ = D.apply(s2, ChooseOption(Option.ACCEPT_TABLE))
    assert s3.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and D.legal_actions(s3).must_place


@pytest.mark.rule("SP-6.6", "SP-6.7.4")
def test_break_safety_call_is_void():
    """SP-6.6 / SP-6.7.4: a safety declared on the break voids the call, so a ball that
    drops does not meet requirement (1); without requirement (2) it is a violation."""
    s = break_state()
    b = apex(s)
    act = ShotAction(V0=6.0, phi=90.0, called_ball=b, called_pocket=2, safety=True)
    s2, v = D.apply_shot_record(s, act, record(s, hit=b, pocketed={b: 2}))
    assert kinds(v) == [FoulKind.ILLEGAL_BREAK] and v.points == (-2, 0) and v.spotted == (b,)


@pytest.mark.rule("SP-6.6")
def test_break_call_optional_and_push_out_rejected():
    """SP-6.6: the break may carry a call or none; 14.1 has no push-out."""
    s = break_state()
    spec = D.legal_actions(s)
    assert spec.can_shoot and not spec.call_required and spec.safety_allowed
    with pytest.raises(IllegalActionError):
        D.apply_shot_record(s, ShotAction(V0=5.0, phi=90.0, push_out=True), record(s))


# ----------------------------------------------------------------------------- SP-6.7.1 calls
@pytest.mark.rule("SP-6.7.1")
def test_call_required_every_shot():
    """SP-6.7.1: before every shot the player designates ball and pocket (or declares a
    safety, SP-6.7.4); a ball without pocket is not a call."""
    s = play()
    spec = D.legal_actions(s)
    assert spec.call_required and spec.safety_allowed and spec.callable_balls == (1, 2, 3, 4, 7)
    before = s.to_json()
    for bad in (ShotAction(V0=3.0, phi=90.0), ShotAction(V0=3.0, phi=90.0, called_ball=3),
                ShotAction(V0=3.0, phi=90.0, called_pocket=3)):
        with pytest.raises(IllegalActionError):
            D.apply_shot_record(s, bad, record(s, hit=3, pocketed={3: 0}))
    assert s.to_json() == before


@pytest.mark.rule("SP-6.7.1", "SP-6.8")
def test_called_ball_wrong_pocket_no_score():
    """SP-6.7.1 / SP-6.8: the called ball in another pocket is not a legal pot: spotted,
    no penalty, inning over."""
    s = play()
    s2, v = D.apply_shot_record(s, call(3, 0), record(s, hit=3, pocketed={3: 1}))
    assert not v.fouls and v.points == (0, 0) and v.spotted == (3,) and s2.on_table[3]
    assert s2.seat_to_act == 1 and not v.legal_pocketed


@pytest.mark.rule("SP-6.7.1")
def test_combination_needs_no_detail():
    """SP-6.7.1: kisses, caroms, combinations, cushions need not be called."""
    s = play()
    rec = record(s, hit=2, obj_contacts=((2, 1),), obj_rails=(1,), pocketed={1: 2})
    s2, v = D.apply_shot_record(s, call(1, 2), rec)
    assert not v.fouls and v.legal_pocketed == (1,) and s2.scores == (1, 0) and v.turn_continues


# ----------------------------------------------------------------------------- SP-6.7.2 legal shot
@pytest.mark.rule("SP-6.7.2")
@pytest.mark.parametrize("case,kind", [("no_hit", FoulKind.NO_BALL_HIT),
                                       ("no_rail", FoulKind.NO_RAIL_AFTER_CONTACT)])
def test_legal_shot_requirements(case, kind):
    """SP-6.7.2: the cue ball must contact an object ball and then pocket a ball or drive
    the cue ball or a numbered ball to a cushion; failure is a foul (-1)."""
    s = play()
    rec = record(s, cue_rail=Rail.LEFT) if case == "no_hit" else record(s, hit=3)
    s2, v = D.apply_shot_record(s, call(3), rec)
    assert kinds(v) == [kind] and rules(v) == ["SP-6.7.2"] and v.points == (-1, 0)
    assert s2.seat_to_act == 1 and s2.cue_ball is CueBallPlacement.IN_POSITION


@pytest.mark.rule("SP-6.7.2")
@pytest.mark.parametrize("case", ["cue_rail", "obj_rail", "pocket"])
def test_legal_shot_ok(case):
    """SP-6.7.2: contact then a cushion (cue or object ball) or a pocketed ball is legal."""
    s = play()
    kw = {"cue_rail": dict(cue_rail=Rail.LEFT), "obj_rail": dict(obj_rails=(3,)),
          "pocket": dict(pocketed={4: 0})}[case]
    _, v = D.apply_shot_record(s, call(3), record(s, hit=3, **kw))
    assert not v.fouls


NEAR = {3: (R + 0.02, 1.2), 4: (1.0, 1.0), 7: (0.4, 2.25)}  # ball 3 near the left rail


def near_safety(s, **kw):
    """Safety on ball 3 that only pushes it into its near (left) rail."""
    return record(s, hit=3, obj_rails=(3,), obj_rail=Rail.LEFT, **kw)


@pytest.mark.rule("SP-6.7.2")
def test_near_cushion_geometry():
    """SP-6.7.2: near = not touching the cushion but within one ball diameter of it."""
    assert near_rails(NEAR[3], T, R, 1e-4) == 1 << int(Rail.LEFT)
    assert near_rails((R, 1.2), T, R, 1e-4) == 0           # frozen: G-3.38 instead
    assert near_rails((3 * R + 0.001, 1.2), T, R, 1e-4) == 0  # farther than a diameter
    assert near_rails((0.6, T.l - R - 0.03), T, R, 1e-4) == 1 << int(Rail.FOOT)


@pytest.mark.rule("SP-6.7.2")
def test_near_cushion_two_safeties_then_frozen():
    """SP-6.7.2: two consecutive near-cushion safeties on the same ball are legal; on the
    third the ball is treated as frozen (G-3.38): only the near cushion again = foul."""
    s = play(NEAR, (0.6, 1.0))
    s2, v = D.apply_shot_record(s, SAFE, near_safety(s))
    assert not v.fouls and s2.extra.nc_history[0] == (0, 3)
    s3 = s2.replace(seat_to_act=0)
    s4, v = D.apply_shot_record(s3, SAFE, near_safety(s3))
    assert not v.fouls and s4.extra.nc_history[0] == (3, 3)
    s5 = s4.replace(seat_to_act=0)
    s6, v = D.apply_shot_record(s5, SAFE, near_safety(s5))
    assert kinds(v) == [FoulKind.FROZEN_RAIL_SAFETY] and rules(v) == ["SP-6.7.2"] and v.points == (-1, 0)
    assert s6.consecutive_fouls == (1, 0)
    # Third shot complying with G-3.38 (cue ball to a cushion) is legal.
    _, v = D.apply_shot_record(s5, SAFE, near_safety(s5, cue_rail=Rail.HEAD))
    assert not v.fouls
    # Another ball first: no frozen treatment.
    _, v = D.apply_shot_record(s5, SAFE, record(s5, hit=4, obj_rails=(4,), obj_rail=Rail.RIGHT))
    assert not v.fouls


@pytest.mark.rule("SP-6.7.2")
def test_near_cushion_rule_off():
    """SP-6.7.2 knob ``near_cushion_rule`` off: no frozen treatment."""
    s = play(NEAR, (0.6, 1.0), config=StraightPoolConfig(near_cushion_rule=False))
    s = with_extra(s, nc_history=((3, 3), (0, 0)))
    _, v = D.apply_shot_record(s, SAFE, near_safety(s))
    assert not v.fouls


@pytest.mark.rule("SP-6.7.2")
@pytest.mark.parametrize("hist", [(-1, 3), (3, -1), (-1, -1)])
def test_near_cushion_after_fouls_is_third_foul(hist):
    """SP-6.7.2 note: after a foul immediately before / after the near-cushion safety, or
    on two consecutive fouls, the frozen-ball requirements apply at once; failure counts as
    a third consecutive foul (SP-6.12 penalty, option to re-rack)."""
    s = play(NEAR, (0.6, 1.0), consecutive_fouls=(hist.count(-1) if hist[1] == -1 else 0, 0))
    s = with_extra(s, nc_history=((hist), (0, 0)))
    s2, v = D.apply_shot_record(s, SAFE, near_safety(s))
    assert FoulKind.FROZEN_RAIL_SAFETY in kinds(v) and FoulKind.THIRD_CONSECUTIVE_FOUL in kinds(v)
    assert v.points == (-16, 0) and s2.consecutive_fouls == (0, 0) and s2.phase is Phase.OPTION
    # C-23 charge_previous_fouls_again: one more point per previous foul.
    cfg = StraightPoolConfig(charge_previous_fouls_again=True)
    s3 = s.replace(config=cfg)
    _, v = D.apply_shot_record(s3, SAFE, near_safety(s3))
    assert v.points == (-16 - hist.count(-1), 0)


# ----------------------------------------------------------------------------- SP-6.7.3 / SP-6.7.6 re-rack
FIFTEEN_XY = {
    Where15.RACK_AREA: (FOOT[0] + 0.01, FOOT[1] + 0.05),
    Where15.KITCHEN: (0.3, 0.3),
    Where15.ELSEWHERE: (0.3, 1.2),
    Where15.HEAD_SPOT: (HS[0] + 0.02, HS[1] + 0.01),
}
CUE_XY = {
    WhereCue.RACK_AREA: (FOOT[0] + 0.12, FOOT[1] + 0.16),
    WhereCue.ELSEWHERE: (1.0, 1.5),
    WhereCue.HEAD_SPOT: (HS[0] - 0.01, HS[1] - 0.02),
}
DEST_XY = {Dest.FOOT_SPOT: FOOT, Dest.HEAD_SPOT: HS, Dest.CENTRE_SPOT: CENTRE}
CELLS = [(w, c) for w in Where15 for c in WhereCue if not (w is Where15.HEAD_SPOT and c is WhereCue.HEAD_SPOT)]


@pytest.mark.rule("SP-6.7.3", "SP-6.7.6")
def test_classification_matches_positions():
    """SP-6.7.3 / SP-6.7.6: rack-area / head-spot / kitchen classification of the table
    rows and columns."""
    for w, xy in FIFTEEN_XY.items():
        assert classify_15th(xy, T, R) is w
    assert classify_15th(None, T, R) is Where15.POCKETED
    for c, xy in CUE_XY.items():
        assert classify_cue(xy, T, R) is c
    assert in_rack_area(FOOT, T, R) and not in_rack_area((FOOT[0], FOOT[1] - 2 * R - 1e-3), T, R)


@pytest.mark.rule("SP-6.7.3", "SP-6.7.6")
@pytest.mark.parametrize("w15,wcue", CELLS, ids=[f"SP-6.7.3-SP-6.7.6-{w.value}-{c.value}" for w, c in CELLS])
def test_rerack_fourteen_table(w15, wcue):
    """SP-6.7.3 / SP-6.7.6: the 14th ball is pocketed legally: the 14 pocketed balls are
    racked with the apex vacant, then the 15th ball and the cue ball go where the
    rack-break-ball table says; the shooter continues."""
    s = play({2: (0.9, 1.4), 15: (0.3, 1.6)}, (0.6, 1.0))
    moves = {0: CUE_XY[wcue]}
    pocketed = {2: 5}
    if w15 is Where15.POCKETED:
        pocketed[15] = 2
    else:
        moves[15] = FIFTEEN_XY[w15]
    s2, v = D.apply_shot_record(s, call(2, 5), record(s, hit=2, pocketed=pocketed, moves=moves))
    assert not v.fouls and v.turn_continues and s2.seat_to_act == 0 and s2.phase is Phase.PLAY
    assert "SP-6.7.3" in v.rule_refs and s2.scores == (len(pocketed), 0)
    d15, dcue = RELOCATION_TABLE.get((w15, wcue), (Dest.STAYS, Dest.STAYS))
    P = s2.positions()
    slots = triangle_slots(T, R, s2.config.rack_gap)
    racked = [b for b in range(1, 16) if b != 15]
    assert sorted(map(tuple, np.round(P[racked], 9))) == sorted(map(tuple, np.round(slots[1:], 9)))
    assert np.allclose(P[1], slots[10]) and np.allclose(P[5], slots[14])
    assert all(s2.on_table[1:])
    if d15 is Dest.STAYS:
        assert np.allclose(P[15], FIFTEEN_XY[w15])
    else:
        assert np.allclose(P[15], DEST_XY[d15])
    if dcue is Dest.IN_HAND_KITCHEN:
        assert s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and not s2.on_table[0]
        assert D.legal_actions(s2).must_place and v.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    else:
        assert s2.cue_ball is CueBallPlacement.IN_POSITION and s2.on_table[0]
        assert np.allclose(P[0], CUE_XY[wcue] if dcue is Dest.STAYS else DEST_XY[dcue])
    assert ("SP-6.7.6" in v.rule_refs) == ((d15, dcue) != (Dest.STAYS, Dest.STAYS))
    # no overlap anywhere after the re-rack
    on = s2.on_mask()
    Q = P[on]
    dd = np.hypot(Q[:, None, 0] - Q[None, :, 0], Q[:, None, 1] - Q[None, :, 1]) + np.eye(len(Q))
    assert dd.min() >= 2 * R - 1e-9


def test_rerack_table_cells_exact():
    """SP-6.7.3 rack-break-ball table, cell by cell as written in straight_pool.md."""
    assert RELOCATION_TABLE[(Where15.RACK_AREA, WhereCue.RACK_AREA)] == (Dest.FOOT_SPOT, Dest.IN_HAND_KITCHEN)
    assert RELOCATION_TABLE[(Where15.RACK_AREA, WhereCue.ELSEWHERE)] == (Dest.HEAD_SPOT, Dest.STAYS)
    assert RELOCATION_TABLE[(Where15.RACK_AREA, WhereCue.HEAD_SPOT)] == (Dest.CENTRE_SPOT, Dest.STAYS)
    for c in WhereCue:
        assert RELOCATION_TABLE[(Where15.POCKETED, c)][0] is Dest.FOOT_SPOT
    assert RELOCATION_TABLE[(Where15.KITCHEN, WhereCue.RACK_AREA)] == (Dest.STAYS, Dest.HEAD_SPOT)
    assert RELOCATION_TABLE[(Where15.ELSEWHERE, WhereCue.RACK_AREA)] == (Dest.STAYS, Dest.IN_HAND_KITCHEN)
    assert RELOCATION_TABLE[(Where15.HEAD_SPOT, WhereCue.RACK_AREA)] == (Dest.STAYS, Dest.CENTRE_SPOT)
    assert len(RELOCATION_TABLE) == 9


@pytest.mark.rule("SP-6.7.3")
def test_rerack_not_on_scratch_with_fourteenth():
    """SP-6.7.3 / C-24: cue ball scratched with the 14th ball: foul, the 14th is spotted,
    no re-rack, incoming player in hand behind the head string."""
    s = play({2: (0.9, 1.4), 15: (0.3, 1.6)}, (0.6, 1.0))
    s2, v = D.apply_shot_record(s, call(2, 5), record(s, hit=2, pocketed={2: 5}, scratch=3))
    assert kinds(v) == [FoulKind.SCRATCH] and s2.balls_on_table() == (2, 15) and v.spotted == (2,)
    assert "SP-6.7.3" not in v.rule_refs and s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN


@pytest.mark.rule("SP-6.7.3")
def test_rerack_shooter_may_shoot_any_ball():
    """SP-6.7.3: after the re-rack the shooter need not shoot the 15th ball."""
    s = play({2: (0.9, 1.4), 15: (0.3, 1.6)}, (0.6, 1.0))
    s2, _ = D.apply_shot_record(s, call(2, 5), record(s, hit=2, pocketed={2: 5}))
    spec = D.legal_actions(s2)
    assert spec.target_balls == tuple(range(1, 16)) and spec.callable_balls == tuple(range(1, 16))
    s3, v = D.apply_shot_record(s2, call(4, 0), record(s2, hit=4, pocketed={4: 0}))
    assert not v.fouls and s3.scores == (2, 0)


# ----------------------------------------------------------------------------- SP-6.7.4 safety
@pytest.mark.rule("SP-6.7.4")
def test_safety_spots_pocketed_and_ends_inning():
    """SP-6.7.4: a declared safety ends the inning; balls pocketed on it do not score and
    are spotted."""
    s = play()
    s2, v = D.apply_shot_record(s, SAFE, record(s, hit=3, pocketed={3: 0}))
    assert not v.fouls and v.points == (0, 0) and v.spotted == (3,) and s2.on_table[3]
    assert s2.seat_to_act == 1 and "SP-6.7.4" in v.rule_refs and np.allclose(s2.positions()[3], FOOT)


@pytest.mark.rule("SP-6.7.4")
def test_safety_must_still_be_legal():
    """SP-6.7.4: safeties must comply with the applicable rules (no rail = foul)."""
    s = play()
    _, v = D.apply_shot_record(s, SAFE, record(s, hit=3))
    assert kinds(v) == [FoulKind.NO_RAIL_AFTER_CONTACT] and v.points == (-1, 0)


@pytest.mark.rule("SP-6.7.4")
def test_safety_overrides_call():
    """SP-6.7.4: a safety is declared "instead of calling a ball": the call is void."""
    s = play()
    act = ShotAction(V0=2.0, phi=90.0, called_ball=3, called_pocket=0, safety=True)
    s2, v = D.apply_shot_record(s, act, record(s, hit=3, pocketed={3: 0}))
    assert v.points == (0, 0) and v.spotted == (3,) and s2.seat_to_act == 1


# ----------------------------------------------------------------------------- SP-6.7.5
def test_intentional_foul_impossible_by_construction():
    """SP-6.7.5: no hands touch balls in the simulator; the only actions are shots,
    placements and options, and any other object is rejected."""
    s = play()
    before = s.to_json()
    for bad in (object(), "catch ball", None):
        with pytest.raises(IllegalActionError):
            D.apply(s, bad)
    assert s.to_json() == before


# ----------------------------------------------------------------------------- SP-6.7.7
def kitchen_state(config=None, balls=None):
    return make_state("straight_pool", balls or {3: (0.3, 0.3), 4: (0.8, 0.5), 9: (1.1, 0.2)}, None,
                      config=config or StraightPoolConfig(), cue_ball=CueBallPlacement.IN_HAND_KITCHEN)


@pytest.mark.rule("SP-6.7.7")
def test_kitchen_spot_request():
    """SP-6.7.7: in hand behind the head string with every object ball in the kitchen, the
    ball nearest the head string is spotted on the foot spot at the player's request."""
    s = kitchen_state()
    spec = D.legal_actions(s)
    assert Option.SPOT_NEAREST_KITCHEN_BALL in spec.options
    s2, v = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    assert v.spotted == (4,) and np.allclose(s2.positions()[4], FOOT) and "SP-6.7.7" in v.rule_refs
    assert s2.seat_to_act == 0 and D.legal_actions(s2).must_place


@pytest.mark.rule("SP-6.7.7")
def test_SP_6_7_7_equidistant_balls_the_player_designates_which_is_spotted():
    """SP-6.7.7: "if two or more balls are equidistant from the head string, the player may
    designate which of them is spotted" -- ``ChooseOption(..., ball=k)`` among
    ``ActionSpec.spot_choices``."""
    s = kitchen_state(balls={3: (0.3, 0.5), 4: (0.8, 0.5), 9: (1.1, 0.2)})
    assert D.legal_actions(s).spot_choices == (3, 4)
    s2, v = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL, ball=4))
    assert v.spotted == (4,) and np.allclose(s2.positions()[4], FOOT) and "SP-6.7.7" in v.rule_refs
    assert s2.on_table[3] and np.allclose(s2.positions()[3], (0.3, 0.5))
    with pytest.raises(IllegalActionError, match="SP-6.7.7"):
        D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL, ball=9))


@pytest.mark.rule("SP-6.7.7")
def test_kitchen_spot_request_not_offered():
    """SP-6.7.7: not offered when a ball lies outside the kitchen, nor when disabled."""
    s = kitchen_state(balls={3: (0.3, 0.3), 4: (0.8, 0.9)})
    assert Option.SPOT_NEAREST_KITCHEN_BALL not in D.legal_actions(s).options
    with pytest.raises(IllegalActionError):
        D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    s = kitchen_state(config=StraightPoolConfig(kitchen_spot_request=False))
    assert Option.SPOT_NEAREST_KITCHEN_BALL not in D.legal_actions(s).options


# ----------------------------------------------------------------------------- SP-6.8 .. SP-6.11
@pytest.mark.rule("SP-6.8")
def test_illegally_pocketed_spotted_no_penalty():
    """SP-6.8: uncalled balls pocketed when the called ball is not legally pocketed are
    spotted; no penalty."""
    s = play()
    s2, v = D.apply_shot_record(s, call(3, 0), record(s, hit=3, obj_rails=(3,), pocketed={1: 2, 4: 0}))
    assert not v.fouls and v.points == (0, 0) and v.spotted == (1, 4) and s2.on_table[1] and s2.on_table[4]
    assert "SP-6.8" in v.rule_refs and s2.seat_to_act == 1
    P = s2.positions()
    assert np.allclose(P[1], FOOT) and P[4, 1] > P[1, 1] and np.isclose(P[4, 0], FOOT[0])


@pytest.mark.rule("SP-6.9")
def test_jumped_object_ball_foul_spotted():
    """SP-6.9: an object ball jumped off the table is a foul; it is spotted (and the
    called ball pocketed on the foul stroke too, SP-6.13)."""
    s = play()
    s2, v = D.apply_shot_record(s, call(3, 0), record(s, hit=3, pocketed={3: 0}, off_table=(4,)))
    assert kinds(v) == [FoulKind.OBJECT_BALL_OFF_TABLE] and rules(v) == ["SP-6.9"]
    assert v.points == (-1, 0) and v.spotted == (3, 4) and s2.on_table[3] and s2.on_table[4]
    assert s2.cue_ball is CueBallPlacement.IN_POSITION and s2.seat_to_act == 1


@pytest.mark.rule("SP-6.10")
@pytest.mark.parametrize("how", ["scratch", "off_table"])
def test_cue_ball_scratch_or_jumped(how):
    """SP-6.10: scratch or cue ball off the table: incoming player has cue ball in hand
    behind the head string (placements on/over the head string are rejected)."""
    s = play()
    rec = record(s, hit=3, cue_rail=Rail.LEFT, scratch=2) if how == "scratch" else \
        record(s, hit=3, cue_rail=Rail.LEFT, off_table=(0,))
    s2, v = D.apply_shot_record(s, call(3), rec)
    assert rules(v) == ["SP-6.10"] and v.points == (-1, 0) and s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    assert s2.seat_to_act == 1 and not s2.on_table[0]
    before = s2.to_json()
    for bad in (PlaceCueBall(0.6, T.head_string_y), PlaceCueBall(0.6, 1.0), PlaceCueBall(*POS[3])):
        with pytest.raises(IllegalActionError):
            D.apply(s2, bad)
    assert s2.to_json() == before
    with pytest.raises(IllegalActionError):  # must place before shooting
        D.apply_shot_record(s2, call(3), record(s2, hit=3))
    s3, _ = D.apply(s2, PlaceCueBall(0.6, 0.3))
    assert D.legal_actions(s3).can_shoot


@pytest.mark.rule("SP-6.10", "G-3.39")
def test_kitchen_rule_applies_in_hand_behind_head_string():
    """SP-6.10 / G-3.39: from the kitchen, a ball in the kitchen may not be hit before the
    cue ball leaves the kitchen."""
    s = play({3: (0.3, 0.4), 4: (0.8, 1.2)}, (0.6, 0.3), cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
             cue_placed=True)
    _, v = D.apply_shot_record(s, call(3), record(s, hit=3, cue_rail=Rail.LEFT))
    assert FoulKind.KITCHEN_RULE in kinds(v) and v.points == (-1, 0)


@pytest.mark.rule("SP-6.11")
def test_ordinary_foul_minus_one_cue_in_position():
    """SP-6.11: one point per foul; the incoming player accepts the cue ball in position."""
    s = play(scores=(10, 3))
    s2, v = D.apply_shot_record(s, call(3), record(s, hit=3, moves={0: (0.7, 1.3)}))
    assert v.points == (-1, 0) and s2.scores == (9, 3) and s2.cue_ball is CueBallPlacement.IN_POSITION
    assert s2.positions()[0].tolist() == [0.7, 1.3] and s2.seat_to_act == 1 and s2.on_table[0]


# ----------------------------------------------------------------------------- SP-6.12
@pytest.mark.rule("SP-6.12")
def test_three_consecutive_fouls():
    """SP-6.12: fouls on three consecutive turns: -1, -1, then -16 (-18 in all); the count
    is cleared; the incoming player accepts the table or has all 15 re-racked with the
    offender breaking under the opening-break rules."""
    s = play()
    for k in range(3):
        s = s.replace(seat_to_act=0)
        s, v = D.apply_shot_record(s, call(3), record(s, hit=3))
        assert s.consecutive_fouls[0] == (k + 1) % 3
    assert v.points == (-16, 0) and s.scores == (-18, 0) and FoulKind.THIRD_CONSECUTIVE_FOUL in kinds(v)
    assert "SP-6.12" in rules(v) and s.phase is Phase.OPTION and s.seat_to_act == 1
    assert set(v.options) == {Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS}
    sa, va = D.apply(s, ChooseOption(Option.ACCEPT_TABLE))
    assert sa.phase is Phase.PLAY and sa.seat_to_act == 1 and sa.cue_ball is CueBallPlacement.IN_POSITION
    sr, vr = D.apply(s, ChooseOption(Option.OPPONENT_REBREAKS))
    assert sr.phase is Phase.BREAK and sr.seat_to_act == 0 and sr.balls_on_table() == tuple(range(1, 16))
    assert "SP-6.12" in vr.rule_refs and sr.consecutive_fouls == (0, 0)


@pytest.mark.rule("SP-6.12")
def test_successive_fouls_cleared_by_legal_shot():
    """SP-6.12 example: on two fouls, a legal pot clears them; a scratch later in that
    inning is then the first foul again."""
    s = play(consecutive_fouls=(2, 0))
    s2, v = D.apply_shot_record(s, call(3, 0), record(s, hit=3, pocketed={3: 0}))
    assert s2.consecutive_fouls == (0, 0)
    s3, v = D.apply_shot_record(s2, call(4, 0), record(s2, hit=4, pocketed={4: 0}, scratch=5))
    assert s3.consecutive_fouls == (1, 0) and v.points == (-1, 0)


@pytest.mark.rule("SP-6.12")
def test_third_foul_mandatory_rerack_option():
    """SP-6.12 / C-23 ``third_foul_option = mandatory_rerack``: no choice, the offender
    breaks a new rack at once."""
    s = play(config=StraightPoolConfig(third_foul_option=ThirdFoulOption.MANDATORY_RERACK),
             consecutive_fouls=(2, 0))
    s2, v = D.apply_shot_record(s, call(3), record(s, hit=3))
    assert v.points == (-16, 0) and not v.options and s2.phase is Phase.BREAK and s2.seat_to_act == 0
    assert s2.balls_on_table() == tuple(range(1, 16)) and D.legal_actions(s2).must_place


@pytest.mark.rule("SP-6.12")
def test_third_foul_charge_previous_again():
    """SP-6.12 / C-23 ``charge_previous_fouls_again``: the previous two fouls are charged
    again (-18 on the third foul)."""
    s = play(config=StraightPoolConfig(charge_previous_fouls_again=True), consecutive_fouls=(2, 0))
    _, v = D.apply_shot_record(s, call(3), record(s, hit=3))
    assert v.points == (-18, 0)


# ----------------------------------------------------------------------------- SP-6.13
@pytest.mark.rule("SP-6.13")
def test_negative_scores():
    """SP-6.13: penalties may make the score negative."""
    s = play()
    s2, v = D.apply_shot_record(s, call(3), record(s, hit=3))
    assert s2.scores == (-1, 0)


@pytest.mark.rule("SP-6.13")
@pytest.mark.parametrize("base,expect", [(PenaltyBase.RUNNING_SCORE, 6),
                                         (PenaltyBase.SCORE_AT_END_OF_PREVIOUS_INNING, 4)])
def test_foul_with_pocket_spotted_penalty_base(base, expect):
    """SP-6.13 / C-22: a ball pocketed on a foul is spotted and does not score; the penalty
    comes off the running score (default) or off the score at the end of the previous
    inning (literal option)."""
    s = play(config=StraightPoolConfig(penalty_base=base), scores=(5, 0))
    s = with_extra(s, inning_start_scores=(5, 0))
    s, v = D.apply_shot_record(s, call(3, 0), record(s, hit=3, pocketed={3: 0}))
    s, v = D.apply_shot_record(s, call(4, 0), record(s, hit=4, pocketed={4: 0}))
    assert s.scores == (7, 0)
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=1, pocketed={1: 0}, scratch=2))
    assert s2.scores == (expect, 0) and v.spotted == (1,) and not v.legal_pocketed
    assert v.points == (expect - 7, 0)


# ----------------------------------------------------------------------------- bad actions
def test_bad_actions_leave_state_unchanged():
    """Bad actions raise IllegalActionError and never change the state: calling a
    pocketed ball, a bad pocket, an option that is not offered, acting after the end."""
    s = play()
    before = s.to_json()
    bad = [ShotAction(V0=3.0, phi=90.0, called_ball=5, called_pocket=0),   # 5 not on the table
           ShotAction(V0=3.0, phi=90.0, called_ball=3, called_pocket=6),
           ShotAction(V0=-1.0, phi=90.0, called_ball=3, called_pocket=0),
           ShotAction(V0=3.0, phi=90.0, called_ball=3, called_pocket=0, push_out=True),
           PlaceCueBall(0.3, 0.3), ChooseOption(Option.ACCEPT_TABLE), ChooseOption(Option.OPPONENT_REBREAKS)]
    for a in bad:
        with pytest.raises(IllegalActionError):
            if isinstance(a, ShotAction):
                D.apply_shot_record(s, a, record(s, hit=3))
            else:
                D.apply(s, a)
    assert s.to_json() == before
    opt = break_state()
    opt, _ = D.apply_shot_record(opt, BREAK_SAFE, record(opt, hit=apex(opt)))
    for a in (ChooseOption(Option.PASS_BACK), ChooseOption(Option.SPOT_EIGHT_AND_PLAY), call(3)):
        with pytest.raises(IllegalActionError):
            D.apply(opt, a)
    over = play(config=StraightPoolConfig(target_points=1))
    over, v = D.apply_shot_record(over, call(3, 0), record(over, hit=3, pocketed={3: 0}))
    assert v.game_over
    for a in (call(4), PlaceCueBall(0.3, 0.3), ChooseOption(Option.ACCEPT_TABLE)):
        with pytest.raises(IllegalActionError):
            D.apply(over, a)


def test_state_json_round_trip_with_extra():
    """States (with the 14.1 config and extra) survive a JSON round trip exactly."""
    s = play(config=StraightPoolConfig(target_points=40, penalty_base=PenaltyBase.SCORE_AT_END_OF_PREVIOUS_INNING,
                                       third_foul_option=ThirdFoulOption.MANDATORY_RERACK))
    s = with_extra(s, nc_history=((3, -1), (0, 4)), inning_start_scores=(-3, 7))
    assert GameState.from_json(s.to_json()) == s
    assert isinstance(GameState.from_json(s.to_json()).extra, StraightPoolExtra)
