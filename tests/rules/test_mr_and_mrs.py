"""Mr. and Mrs. (shared/rules/mr_and_mrs.md): scenario tables per rule ID on hand-built shot records."""
import pytest

from poolgym.rules import (ChooseOption, CueBallPlacement, EventType, FoulKind, Option, Phase, PlaceCueBall,
                           ShotAction, get_discipline, returns)
from poolgym.rules.games.bca import CENTRE_SLOT, LEFT_CORNER_SLOT, RIGHT_CORNER_SLOT
from poolgym.rules.games.mr_and_mrs import MrAndMrsConfig, MrAndMrsExtra, Skill
from poolgym.rules.geometry import ball_radius, get_table, triangle_slots
from poolgym.rules.testing import make_state, record

D = get_discipline("mr_and_mrs")
CFG = MrAndMrsConfig(n_players=2)  # seat 0 stronger, seat 1 weaker
SHOT = ShotAction(V0=3.0, phi=90.0)
XY = {2: (0.3, 1.5), 3: (0.2, 1.2), 5: (0.9, 1.8), 7: (0.4, 2.1), 9: (1.0, 2.2), 12: (1.1, 1.4), 15: (0.5, 1.3)}


def st(balls, cue=(0.6, 1.0), seat=0, cfg=CFG, **kw):
    return make_state("mr_and_mrs", {b: XY[b] for b in balls}, cue=cue, config=cfg, seat=seat, **kw)


@pytest.mark.rule("MM-1", "MM-2")
def test_MM_2_seats_and_handicaps():
    assert MrAndMrsConfig(n_players=4).skill == (Skill.STRONGER, Skill.WEAKER, Skill.STRONGER, Skill.WEAKER)
    assert MrAndMrsConfig(n_players=3, skill=("weaker", "weaker", "stronger")).skill[2] is Skill.STRONGER
    with pytest.raises(ValueError, match="skill"):
        MrAndMrsConfig(n_players=3, skill=("weaker",))
    for n in (1, 7):
        with pytest.raises(ValueError, match="n_players"):
            D.initial_state(MrAndMrsConfig(n_players=n, skill=("weaker",) * n), seed=0)


@pytest.mark.rule("MM-3", "MM-4")
def test_MM_4_rack():
    s = D.initial_state(CFG, seed=3)
    slots = triangle_slots(get_table("9ft"), ball_radius(), CFG.rack_gap)
    P = s.positions()
    for b, k in ((1, 0), (2, RIGHT_CORNER_SLOT), (3, LEFT_CORNER_SLOT), (15, CENTRE_SLOT)):
        assert tuple(P[b]) == tuple(slots[k])


@pytest.mark.rule("MM-5", "MM-6", "MM-8.1")
def test_MM_6_ball_numbers_score_and_continue():
    s = st((2, 5, 7, 9, 12, 15))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={5: 1, 12: 2}))
    assert v.points == (17, 0) and s1.scores == (17, 0) and v.turn_continues and s1.seat_to_act == 0
    assert not v.game_over


@pytest.mark.rule("MM-6")
def test_MM_6_game_ends_when_the_leader_cannot_be_caught():
    s = st((2, 5, 12), scores=(40, 20))  # left 19 -> pocket 5: 45 vs 20 with 14 left
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={5: 1}))
    assert v.game_over and v.winner == 0 and "MM-6" in v.rule_refs and returns(s1) == (1.0, -1.0)
    s = st((2, 5, 12), scores=(30, 20))
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={5: 1}))
    assert v.game_over  # 35 - 20 = 15 > 14 left
    s = st((2, 5, 12), scores=(29, 20))
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={5: 1}))
    assert not v.game_over  # 34 - 20 = 14, 14 left: catchable


@pytest.mark.rule("MM-6")
def test_MM_6_empty_table_tie_to_the_last_pocketer():
    s = st((2,), seat=1, scores=(50, 48), extra=MrAndMrsExtra(last_pocketer=0))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={2: 1}))
    assert v.game_over and v.winner == 1


@pytest.mark.rule("MM-7")
def test_MM_7_break_must_hit_the_one():
    s = D.initial_state(CFG, seed=0)
    s, _ = D.apply(s, PlaceCueBall(0.6, 0.3))
    assert D.legal_actions(s).target_balls == (1,)
    s1, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=2, obj_rails=(2, 3, 4, 5)))
    assert v.fouls[0].rule == "MM-7" and v.options == (Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS)
    a, _ = D.apply(s1, ChooseOption(Option.ACCEPT_TABLE))
    assert a.phase is Phase.PLAY and a.seat_to_act == 1
    r, _ = D.apply(s1, ChooseOption(Option.OPPONENT_REBREAKS))
    assert r.phase is Phase.BREAK and r.seat_to_act == 0 and all(r.on_table[1:])
    ok, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, obj_rails=(2, 3)))
    assert not v.fouls and ok.seat_to_act == 1


@pytest.mark.rule("MM-8", "MM-8.2", "MM-8.3")
def test_MM_8_2_MM_8_3_legal_first_contact_by_skill():
    s = st((2, 5, 12))
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=5, obj_rails=(5,)))
    assert v.fouls[0].kind is FoulKind.WRONG_BALL_FIRST and v.fouls[0].rule == "MM-8"  # stronger
    w = st((2, 5, 12), seat=1)
    assert D.legal_actions(w).target_balls == (2, 5, 12)
    _, v = D.apply_shot_record(w, SHOT, record(w, hit=5, obj_rails=(5,)))
    assert not v.fouls  # weaker: any ball
    _, v = D.apply_shot_record(w, SHOT, record(w, hit=5))
    assert v.fouls[0].kind is FoulKind.NO_RAIL_AFTER_CONTACT  # C-45 default
    nr = st((2, 5, 12), seat=1, cfg=MrAndMrsConfig(weaker_rail_requirement=False))
    _, v = D.apply_shot_record(nr, SHOT, record(nr, hit=5))
    assert not v.fouls


@pytest.mark.rule("MM-8", "MM-12", "MM-8.4")
def test_MM_8_4_three_fouls():
    s = st((2, 5, 12), consecutive_fouls=(2, 0))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, obj_rails=(5,)))
    assert v.game_over and v.winner == 1 and v.fouls[-1].kind is FoulKind.THIRD_CONSECUTIVE_FOUL
    three = MrAndMrsConfig(n_players=3)
    s = st((2, 5, 12), cfg=three, consecutive_fouls=(2, 0, 0), scores=(9, 0, 0))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, obj_rails=(5,)))
    assert not v.game_over and s1.active == (False, True, True) and v.events[0].kind is EventType.DISQUALIFIED
    assert s1.seat_to_act == 1 and s1.scores == (9, 0, 0)


@pytest.mark.rule("MM-8", "MM-8.5", "MM-8.6")
def test_MM_8_5_MM_8_6_kitchen_requests_by_skill():
    balls = {2: (0.3, 0.4), 5: (0.6, 1.6)}
    s = make_state("mr_and_mrs", balls, cue=None, config=CFG, cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert D.legal_actions(s).options == (Option.SPOT_NEAREST_KITCHEN_BALL,)  # stronger: lowest in kitchen
    w = s.replace(seat_to_act=1)
    assert D.legal_actions(w).options == ()  # weaker: not every ball is in the kitchen
    allk = make_state("mr_and_mrs", {2: (0.3, 0.4), 5: (0.6, 0.5)}, cue=None, config=CFG, seat=1,
                      cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    _, v = D.apply(allk, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    assert v.spotted == (5,)


@pytest.mark.rule("MM-9", "MM-12")
def test_MM_9_MM_12_foul_spots_no_points_table_in_position():
    s = st((2, 5, 12))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, pocketed={5: 1}))
    assert v.fouls and s1.on_table[5] and v.points == (0, 0) and s1.seat_to_act == 1
    assert s1.phase is Phase.PLAY and s1.cue_ball is CueBallPlacement.IN_POSITION and v.options == ()


@pytest.mark.rule("MM-10")
def test_MM_10_jumped_spotted_no_penalty():
    s = st((2, 5, 12))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,), off_table=(12,)))
    assert not v.fouls and s1.on_table[12] and "MM-10" in v.rule_refs


@pytest.mark.rule("MM-12")
def test_MM_11_scratch_in_hand_kitchen():
    s = st((2, 5, 12))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,), scratch=0))
    assert s1.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and s1.seat_to_act == 1
