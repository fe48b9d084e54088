"""Cross-discipline scenario table: the same physical situation adjudicated by each
discipline's own rule text (nine_ball.md, eight_ball.md, straight_pool.md; general.md
where the discipline is silent; conflicts.md decides between them).

| situation                                   | nine-ball                 | eight-ball                     | 14.1                                   |
|---------------------------------------------|---------------------------|--------------------------------|----------------------------------------|
| scratch on a legal break                    | foul, in hand anywhere,   | foul, in hand behind the head  | foul -1 (counts, SP-6.12), in hand     |
|                                             | no push-out (9B-5.4,      | string, balls stay down, table | behind the head string, pocketed balls |
|                                             | 9B-5.6)                   | open (8B-4.6)                  | spotted (SP-6.6, SP-6.10, SP-6.13)     |
| cue ball jumped off the table (break)       | as a scratch (9B-5.4)     | as a scratch (8B-4.6, C-12)    | as a scratch (SP-6.6, SP-6.10)         |
| cue ball jumped off the table (play)        | in hand anywhere (9B-5.7) | in hand anywhere (8B-4.14)     | -1, in hand behind head string SP-6.10 |
| foul while shooting from the kitchen        | in hand anywhere (9B-5.4) | in hand anywhere (8B-4.14)     | -1, cue ball in position (SP-6.11)     |
| cue ball placed frozen to an object ball    | rejected (9B-5.10, C-21)  | allowed (C-21, G-3.22)         | allowed (C-21, G-3.22)                 |
| shot at / away from that frozen ball        | (placement rejected)      | G-3.38 (a)-(d); away = no hit  | G-3.38 (a)-(d); away = no hit          |
| cue ball hits nothing (ordinary shot)       | foul 9B-5.8, anywhere     | foul 8B-4.11, anywhere         | foul SP-6.7.2 -1, in position SP-6.11  |
| cue ball hits nothing (break)               | foul 9B-5.4, anywhere     | illegal break options 8B-4.5   | breaking violation -2, options SP-6.6  |
| object ball jumped off the table (play)     | foul, not spotted 9B-5.11 | foul, not spotted 8B-4.17      | foul -1, spotted SP-6.9                |
| miscue-range tip offset                     | rejected (G-3.27)         | rejected (G-3.27)              | rejected (G-3.27)                      |
"""
import numpy as np
import pytest

from poolgym.rules import (CueBallPlacement, FoulKind, IllegalActionError, Option, Phase, PlaceCueBall,
                           ShotAction)
from poolgym.rules.game import get_discipline
from poolgym.rules.geometry import Rail, ball_radius, get_table
from poolgym.rules.testing import make_state, record

T = get_table("9ft")
R = ball_radius()
DISCIPLINES = ("nine_ball", "eight_ball", "straight_pool")


def _break_state(name, seed=0):
    d = get_discipline(name)
    s = d.initial_state(None, seed=seed)
    return d, d.apply(s, PlaceCueBall(0.635, 0.4))[0]


def _apex(s):
    P = s.positions()
    fx, fy = T.foot_spot
    return int(np.argmin(np.where(s.on_mask()[1:], np.hypot(P[1:, 0] - fx, P[1:, 1] - fy), np.inf))) + 1


def _legal_break_record(s, **kw):
    """A break that meets every discipline's requirement: the apex ball (the 1 in nine-ball)
    first, four object balls to a cushion and the cue ball to a cushion after the contact
    (9B-5.4, 8B-4.5, SP-6.6 (2))."""
    first = _apex(s)
    others = [b for b in s.balls_on_table() if b != first][:3]
    return record(s, hit=first, obj_rails=[first] + others, cue_rail=Rail.LEFT, **kw)


def _play_state(name, cue=(0.635, 1.0), **kw):
    """Mid-game position: 1 and 9 (and 10) on the table, cue ball in position."""
    balls = {1: (0.4, 1.5), 9: (0.9, 1.6), 10: (0.3, 2.0)} if name != "nine_ball" else {1: (0.4, 1.5), 9: (0.9, 1.6)}
    extra = {"groups": (1, 2)} if name == "eight_ball" else {}
    extra.update(kw)
    return make_state(name, balls, cue, **extra)


def _shot(name, ball=1):
    if name == "nine_ball":
        return ShotAction(V0=3.0, phi=90.0)
    return ShotAction(V0=3.0, phi=90.0, called_ball=ball, called_pocket=2)


BREAK = ShotAction(V0=7.0, phi=90.0)


@pytest.mark.rule("9B-5.4", "9B-5.6", "8B-4.6", "SP-6.6", "SP-6.10", "SP-6.13")
@pytest.mark.parametrize("how", ["scratch", "cue_off"])
@pytest.mark.parametrize("name,cue,pushout_or_penalty", [
    ("nine_ball", CueBallPlacement.IN_HAND_ANYWHERE, "9B-5.4"),
    ("eight_ball", CueBallPlacement.IN_HAND_KITCHEN, "8B-4.6"),
    ("straight_pool", CueBallPlacement.IN_HAND_KITCHEN, "SP-6.10"),
])
def test_cross_scratch_or_jumped_cue_ball_on_legal_break(name, cue, pushout_or_penalty, how):
    """9B-5.4 / 9B-5.6, 8B-4.6 / C-12, SP-6.6 / SP-6.10 / SP-6.13: scratch (G-3.20) or
    jumped cue ball (G-3.28) on a break that is otherwise legal; a ball also dropped."""
    d, s = _break_state(name)
    pocketed_ball = [b for b in s.balls_on_table() if b not in (1, 9, 8, _apex(s))][0]
    kw = {"scratch": 0} if how == "scratch" else {"off_table": (0,)}
    v_state, v = d.apply_shot_record(s, BREAK, _legal_break_record(s, pocketed={pocketed_ball: 5}, **kw))
    assert v.fouls and v.fouls[0].kind in (FoulKind.SCRATCH, FoulKind.CUE_BALL_OFF_TABLE)
    assert v.next_seat == 1 and v_state.seat_to_act == 1
    assert v.cue_ball is cue and v_state.cue_ball is cue
    assert v_state.phase is Phase.PLAY and not v_state.on_table[0]
    assert pushout_or_penalty in v.rule_refs
    assert v_state.consecutive_fouls == (1, 0)  # a foul that counts (9B-5.13, SP-6.12; informational in 8-ball)
    if name == "nine_ball":
        assert not v_state.extra.push_out_available  # 9B-5.6: no push-out after a break scratch
        assert not v_state.on_table[pocketed_ball]    # 9B-5.7: stays down
        assert not d.legal_actions(v_state.replace(cue_placed=True)).push_out_allowed
    elif name == "eight_ball":
        assert not v_state.on_table[pocketed_ball]    # 8B-4.6 (1): stays down
        assert v_state.groups == (0, 0)               # 8B-4.6 (3): table open
    else:
        assert v.points == (-1, 0) and v_state.scores == (-1, 0)  # SP-6.6: one-point foul
        assert v_state.on_table[pocketed_ball] and pocketed_ball in v.spotted  # SP-6.13


@pytest.mark.rule("G-3.28")
@pytest.mark.parametrize("name,cue,points", [
    ("nine_ball", CueBallPlacement.IN_HAND_ANYWHERE, (0, 0)),
    ("eight_ball", CueBallPlacement.IN_HAND_ANYWHERE, (0, 0)),
    ("straight_pool", CueBallPlacement.IN_HAND_KITCHEN, (-1, 0)),
])
def test_cross_cue_ball_jumped_in_play(name, cue, points):
    """G-3.28 jumped cue ball on an ordinary shot: 9B-5.7 / 8B-4.14 in hand anywhere;
    SP-6.10 in hand behind the head string, SP-6.11 one point."""
    d = get_discipline(name)
    s = _play_state(name)
    s2, v = d.apply_shot_record(s, _shot(name), record(s, hit=1, obj_rails=(1,), off_table=(0,)))
    assert [f.kind for f in v.fouls][:1] == [FoulKind.CUE_BALL_OFF_TABLE]
    assert v.cue_ball is cue and s2.cue_ball is cue and not s2.on_table[0]
    assert v.points == points and s2.seat_to_act == 1


@pytest.mark.rule("G-3.39", "G-3.10")
@pytest.mark.parametrize("name,cue,points", [
    ("eight_ball", CueBallPlacement.IN_HAND_ANYWHERE, (0, 0)),
    ("straight_pool", CueBallPlacement.IN_POSITION, (-1, 0)),
])
def test_cross_foul_while_in_hand_behind_head_string(name, cue, points):
    """G-3.39 / G-3.10: cue ball in hand behind the head string (after a break scratch,
    8B-4.6 / SP-6.10) plays a ball lying in the kitchen without first leaving it. The
    penalty is each game's: 8B-4.14 in hand anywhere; SP-6.11 -1 and the incoming player
    accepts the cue ball in position (it was not a cue-ball scratch or jump)."""
    d = get_discipline(name)
    balls = {1: (0.3, 0.4), 9: (0.9, 1.6)}
    s = make_state(name, balls, (0.6, 0.3), cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                   **({"groups": (1, 2)} if name == "eight_ball" else {}))
    assert s.cue_placed
    s2, v = d.apply_shot_record(s, _shot(name), record(s, hit=1, obj_rails=(1,)))
    assert [f.kind for f in v.fouls] == [FoulKind.KITCHEN_RULE] and v.fouls[0].rule == "G-3.39"
    assert v.cue_ball is cue and s2.cue_ball is cue and v.points == points
    assert s2.on_table[0] is (cue is CueBallPlacement.IN_POSITION)


@pytest.mark.rule("9B-5.4")
def test_cross_nine_ball_break_foul_from_kitchen_gives_in_hand_anywhere():
    """9B-5.4 (2): the only kitchen shot of nine-ball is the break; its fouls (here G-3.18
    no ball hit) give the incoming player the cue ball in hand anywhere."""
    d, s = _break_state("nine_ball")
    s2, v = d.apply_shot_record(s, BREAK, record(s, cue_rail=Rail.FOOT, cue_pos=None))
    assert "9B-5.4" in [f.rule for f in v.fouls]
    assert s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE


@pytest.mark.parametrize("name,allowed", [("nine_ball", False), ("eight_ball", True), ("straight_pool", True)])
def test_cross_cue_ball_placed_frozen_to_object_ball(name, allowed):
    """9B-5.10 forbids placing the cue ball in contact with an object ball; the other games
    allow it (C-21, G-3.22); overlapping is rejected everywhere (G-3.22)."""
    d = get_discipline(name)
    s = _play_state(name, cue=None)
    assert s.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE
    x1, y1 = s.positions()[1]
    frozen = PlaceCueBall(float(x1), float(y1 - 2 * R - 1e-10))
    if allowed:
        s2, v = d.apply(s, frozen)
        assert v is None and s2.cue_placed
    else:
        with pytest.raises(IllegalActionError, match="9B-5.10"):
            d.apply(s, frozen)
    with pytest.raises(IllegalActionError, match="G-3.22"):
        d.apply(s, PlaceCueBall(float(x1), float(y1 - 1.5 * R)))


def test_cross_nine_ball_frozen_placement_option():
    """C-21 ``in_hand_may_touch_ball`` True lifts the 9B-5.10 restriction."""
    from poolgym.rules.nine_ball import NineBallConfig
    d = get_discipline("nine_ball")
    s = make_state("nine_ball", {1: (0.4, 1.5), 9: (0.9, 1.6)}, None, config=NineBallConfig(in_hand_may_touch_ball=True))
    s2, _ = d.apply(s, PlaceCueBall(0.4, 1.5 - 2 * R - 1e-10))
    assert s2.cue_placed


@pytest.mark.rule("G-3.18")
@pytest.mark.parametrize("name,rule,cue,points", [
    ("nine_ball", "9B-5.8", CueBallPlacement.IN_HAND_ANYWHERE, (0, 0)),
    ("eight_ball", "8B-4.11", CueBallPlacement.IN_HAND_ANYWHERE, (0, 0)),
    ("straight_pool", "SP-6.7.2", CueBallPlacement.IN_POSITION, (-1, 0)),
])
def test_cross_cue_ball_hits_nothing(name, rule, cue, points):
    """G-3.18 no ball hit on an ordinary shot: 9B-5.8 / 8B-4.11 foul with in hand
    anywhere; SP-6.7.2 foul, SP-6.11 -1 and the cue ball stays in position."""
    d = get_discipline(name)
    s = _play_state(name)
    s2, v = d.apply_shot_record(s, _shot(name), record(s, cue_rail=Rail.FOOT))
    assert [f.kind for f in v.fouls] == [FoulKind.NO_BALL_HIT] and v.fouls[0].rule == rule
    assert v.cue_ball is cue and s2.cue_ball is cue and v.points == points
    assert s2.seat_to_act == 1 and s2.consecutive_fouls == (1, 0)


@pytest.mark.parametrize("name,options,points", [
    ("nine_ball", (), (0, 0)),
    ("eight_ball", (Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK, Option.OPPONENT_REBREAKS), (0, 0)),
    ("straight_pool", (Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS), (-2, 0)),
])
def test_cross_break_hits_nothing(name, options, points):
    """A break on which the cue ball touches nothing: 9B-5.4 foul (in hand anywhere, the
    breaker's foul counts); 8B-4.5 illegal break (incoming player's options, no ball in
    hand); SP-6.6 breaking violation (-2, options, not a foul for SP-6.12)."""
    d, s = _break_state(name)
    s2, v = d.apply_shot_record(s, BREAK, record(s, cue_rail=Rail.FOOT))
    assert v.fouls and v.options == options and v.points == points and v.next_seat == 1
    if name == "nine_ball":
        assert s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE and s2.consecutive_fouls == (1, 0)
    else:
        assert s2.phase is Phase.OPTION
        # 8B-4.5 "it is a foul" (counter informational, 8B-4.21 note); SP-6.6: the
        # three-consecutive-foul rule does not apply to breaking violations.
        assert s2.consecutive_fouls == ((1, 0) if name == "eight_ball" else (0, 0))


@pytest.mark.rule("G-3.28")
@pytest.mark.parametrize("name,spotted,points", [
    ("nine_ball", False, (0, 0)), ("eight_ball", False, (0, 0)), ("straight_pool", True, (-1, 0)),
])
def test_cross_object_ball_jumped_in_play(name, spotted, points):
    """G-3.28 jumped object ball: 9B-5.11 (C-03) foul, not spotted; 8B-4.17 foul, not
    spotted; SP-6.9 foul, spotted (-1, SP-6.11)."""
    d = get_discipline(name)
    s = _play_state(name)
    s2, v = d.apply_shot_record(s, _shot(name), record(s, hit=1, obj_rails=(1,), off_table=(1,)))
    assert [f.kind for f in v.fouls] == [FoulKind.OBJECT_BALL_OFF_TABLE]
    assert s2.on_table[1] is spotted and (1 in v.spotted) is spotted and v.points == points


@pytest.mark.rule("G-3.27")
@pytest.mark.parametrize("name", DISCIPLINES)
@pytest.mark.parametrize("a,b", [(0.5, 0.3), (0.0, -0.51), (0.4, 0.4)])
def test_cross_miscue_range_rejected(name, a, b):
    """G-3.27: a tip offset beyond ``miscue_limit`` would miscue; every discipline rejects
    the stroke with IllegalActionError and the state is unchanged."""
    d = get_discipline(name)
    s = _play_state(name)
    before = s.to_json()
    act = ShotAction(V0=3.0, phi=90.0, a=a, b=b, **({} if name == "nine_ball" else
                                                    {"called_ball": 1, "called_pocket": 2}))
    with pytest.raises(IllegalActionError, match="miscue"):
        d.apply_shot_record(s, act, record(s, hit=1, obj_rails=(1,)))
    assert s.to_json() == before


@pytest.mark.parametrize("name,rule", [("eight_ball", "8B-4.11"), ("straight_pool", "SP-6.7.2")])
def test_cross_shot_from_a_frozen_placement(name, rule):
    """After a frozen placement (allowed here, C-21): playing the touching ball is a G-3.38
    shot (frozen to the cue ball: (a)-(d) needed, else foul); playing away from it does not
    count as hitting it (G-3.18 / GB-16) -- with nothing else hit it is the game's no-hit
    foul (8B-4.11 / SP-6.7.2)."""
    d = get_discipline(name)
    s = _play_state(name, cue=None)
    x1, y1 = (float(v) for v in s.positions()[1])
    s, _ = d.apply(s, PlaceCueBall(x1, y1 - 2 * R - 1e-10))
    shot = _shot(name)
    _, v = d.apply_shot_record(s, shot, record(s, hit=1))
    assert [f.kind for f in v.fouls] == [FoulKind.FROZEN_BALL_RULE] and v.fouls[0].rule == "G-3.38"
    _, v = d.apply_shot_record(s, shot, record(s, hit=1, obj_rails=(1,), obj_rail=Rail.FOOT))
    assert not v.fouls
    _, v = d.apply_shot_record(s, shot, record(s, cue_rail=Rail.HEAD))
    assert [f.kind for f in v.fouls] == [FoulKind.NO_BALL_HIT] and v.fouls[0].rule == rule
