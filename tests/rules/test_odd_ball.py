"""Odd ball (shared/rules/odd_ball.md): scenario tables per rule ID on hand-built shot records."""
import pytest

from poolgym.rules import (ChooseOption, CueBallPlacement, EventType, FoulKind, IllegalActionError, Option, Phase,
                           PlaceCueBall, ShotAction, get_discipline, returns)
from poolgym.rules.games.bca import CENTRE_SLOT, LEFT_CORNER_SLOT, RIGHT_CORNER_SLOT
from poolgym.rules.games.odd_ball import OddBallConfig, OddBallExtra
from poolgym.rules.geometry import ball_radius, get_table, triangle_slots
from poolgym.rules.testing import make_state, record

D = get_discipline("odd_ball")
CFG = OddBallConfig(n_players=4)
SHOT = ShotAction(V0=3.0, phi=90.0)
XY = {2: (0.3, 1.5), 3: (0.2, 1.2), 4: (0.6, 1.6), 5: (0.9, 1.8), 7: (0.4, 2.1), 9: (1.0, 2.2), 10: (0.2, 1.9),
      12: (1.1, 1.4), 14: (0.7, 2.3), 15: (0.5, 1.3)}


def st(balls, cue=(0.6, 1.0), seat=0, cfg=CFG, **kw):
    return make_state("odd_ball", {b: XY[b] for b in balls}, cue=cue, config=cfg, seat=seat, **kw)


@pytest.mark.rule("OB-1", "OB-2")
def test_OB_2_two_teams_alternating():
    s = D.initial_state(CFG, seed=0)
    assert s.teams == (0, 1, 0, 1)
    assert D.initial_state(OddBallConfig(n_players=2), seed=0).teams == (0, 1)
    assert D.initial_state(OddBallConfig(n_players=6), seed=0).teams == (0, 1, 0, 1, 0, 1)
    for n in (3, 5):
        with pytest.raises(ValueError, match="n_players"):
            D.initial_state(OddBallConfig(n_players=n), seed=0)


@pytest.mark.rule("OB-2", "OB-8", "OB-12", "OB-5", "OB-8.5", "OB-8.7", "OB-8.1")
def test_OB_8_5_C_47_consecutive_team_order():
    """OB-8.5 / C-47 ``team_order="consecutive"``: A1, A2, B1, B2 (the first half of the seats
    is team A); a miss passes to the next seat in the fixed order (a teammate here), a foul
    to the incoming opponent (the next seat of the other team, OB-12), who also wins for his
    team on a third foul (OB-8.7)."""
    cfg = OddBallConfig(n_players=4, team_order="consecutive")
    assert D.initial_state(cfg, seed=0).teams == (0, 0, 1, 1)
    assert D.initial_state(OddBallConfig(n_players=6, team_order="consecutive"), seed=0).teams == (0, 0, 0, 1, 1, 1)
    s = st((2, 5, 7), cfg=cfg, teams=(0, 0, 1, 1))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,)))  # a miss
    assert not v.fouls and s1.seat_to_act == 1
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, obj_rails=(5,)))  # wrong ball first: a foul
    assert v.fouls and s1.seat_to_act == 2 and s1.phase is Phase.OPTION
    assert set(s1.options) == {Option.ACCEPT_TABLE, Option.OFFENDER_SHOOTS_AGAIN}
    s = st((2, 5, 7), cfg=cfg, teams=(0, 0, 1, 1), seat=1, consecutive_fouls=(0, 2, 0, 0))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, obj_rails=(5,)))
    assert v.game_over and v.winner == 2 and returns(s1) == (-1.0, -1.0, 1.0, 1.0)
    with pytest.raises(ValueError):
        OddBallConfig(n_players=4, team_order="random")


@pytest.mark.rule("OB-3", "OB-4")
def test_OB_4_rack():
    s = D.initial_state(CFG, seed=5)
    slots = triangle_slots(get_table("9ft"), ball_radius(), CFG.rack_gap)
    P = s.positions()
    for b, k in ((1, 0), (2, RIGHT_CORNER_SLOT), (3, LEFT_CORNER_SLOT), (15, CENTRE_SLOT)):
        assert tuple(P[b]) == tuple(slots[k])
    assert s.on_table == (False,) + (True,) * 15


@pytest.mark.rule("OB-6", "OB-8", "OB-8.2")
def test_OB_6_odd_balls_score_for_the_team_and_continue():
    s = st((2, 5, 7, 12))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={5: 2, 12: 3}))
    assert v.points == (1, 0, 1, 0) and s1.scores == (1, 0, 1, 0) and s1.extra.team_points == (1, 0)
    assert s1.extra.rack_sum == (17, 0) and v.turn_continues and s1.seat_to_act == 0
    s2, v = D.apply_shot_record(s1, SHOT, record(s1, hit=2, obj_rails=(2,)))
    assert s2.seat_to_act == 1 and not v.turn_continues  # OB-8.5 fixed order: the other team
    with pytest.raises(IllegalActionError):
        D.apply_shot_record(s, ShotAction(3.0, 90.0, safety=True), record(s, hit=2))  # OB-8.2


@pytest.mark.rule("OB-6")
def test_OB_6_bonus_at_61_once_per_rack():
    s = st((2, 5, 7, 12), extra=OddBallExtra(team_points=(3, 2), rack_sum=(55, 20)))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={7: 2}))
    assert s1.extra.rack_sum == (62, 20) and s1.extra.team_points == (3 + 1 + 2, 2) and s1.extra.bonus == (2, 0)
    assert v.points == (3, 0, 3, 0)
    s2, v = D.apply_shot_record(s1, SHOT, record(s1, hit=2, pocketed={5: 2}))
    assert s2.extra.team_points == (7, 2)  # no second bonus


@pytest.mark.rule("OB-6", "OB-8", "OB-8.4")
def test_OB_6_60_60_split_and_OB_8_4_next_breaker():
    s = st((14,), seat=1, extra=OddBallExtra(team_points=(4, 4), rack_sum=(60, 46)))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=14, pocketed={14: 2}))
    assert s1.extra.team_points == (5, 5) and v.points == (1, 1, 1, 1)  # 60-60: one each
    assert s1.phase is Phase.BREAK and s1.seat_to_act == 1 and s1.breaker == 1 and all(s1.on_table[1:])
    assert s1.extra.rack_sum == (0, 0) and s1.extra.rack == 1 and v.events[0].kind is EventType.RERACK


@pytest.mark.rule("OB-8", "OB-8.3")
def test_OB_8_3_early_rack_end_when_only_even_balls_remain():
    s = st((2, 4, 5, 12), extra=OddBallExtra(team_points=(6, 3), rack_sum=(58, 40), bonus=(0, 0)))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={5: 2}))  # 63: bonus; 2, 4, 12 left
    assert s1.extra.team_points == (9, 3) and s1.phase is Phase.BREAK and s1.breaker == 0
    assert "OB-8" in v.rule_refs


@pytest.mark.rule("OB-5")
def test_OB_5_first_team_to_21_wins():
    s = st((2, 5, 7), seat=3, extra=OddBallExtra(team_points=(10, 20), rack_sum=(10, 20)))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={5: 2}))
    assert v.game_over and v.winner == 3 and returns(s1) == (-1.0, 1.0, -1.0, 1.0) and "OB-5" in v.rule_refs


@pytest.mark.rule("OB-7")
def test_OB_7_failed_open_break_three_options():
    s = D.initial_state(CFG, seed=0)
    s, _ = D.apply(s, PlaceCueBall(0.6, 0.3))
    s1, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, obj_rails=(2, 3), pocketed={5: 1}))
    assert v.options == (Option.OPPONENT_REBREAKS, Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK)
    assert s1.seat_to_act == 1 and s1.on_table[5] and s1.extra.team_points == (0, 0)
    r, _ = D.apply(s1, ChooseOption(Option.OPPONENT_REBREAKS))
    assert r.phase is Phase.BREAK and r.seat_to_act == 0
    r, _ = D.apply(s1, ChooseOption(Option.RERACK_AND_BREAK))
    assert r.phase is Phase.BREAK and r.seat_to_act == 1
    a, _ = D.apply(s1, ChooseOption(Option.ACCEPT_TABLE))
    assert a.phase is Phase.PLAY and a.seat_to_act == 1


@pytest.mark.rule("OB-9", "OB-12")
def test_OB_9_OB_12_foul_spots_no_points_options():
    s = st((2, 5, 7))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, pocketed={7: 2}))
    assert v.fouls[0].kind is FoulKind.WRONG_BALL_FIRST and v.fouls[0].rule == "OB-8"
    assert s1.on_table[7] and v.points == (0, 0, 0, 0) and v.options == (Option.ACCEPT_TABLE,
                                                                          Option.OFFENDER_SHOOTS_AGAIN)
    again, _ = D.apply(s1, ChooseOption(Option.OFFENDER_SHOOTS_AGAIN))
    assert again.seat_to_act == 0


@pytest.mark.rule("OB-10")
def test_OB_10_jumped_spotted_no_penalty():
    s = st((2, 5, 7))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,), off_table=(7,)))
    assert not v.fouls and s1.on_table[7] and "OB-10" in v.rule_refs


@pytest.mark.rule("OB-11")
def test_OB_11_scratch_in_hand_kitchen():
    s = st((2, 5, 7))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,), scratch=0))
    assert s1.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and s1.seat_to_act == 1 and "OB-11" in v.rule_refs


@pytest.mark.rule("OB-8", "OB-12", "OB-8.7")
def test_OB_8_7_three_consecutive_fouls_lose_for_the_team():
    s = st((2, 5, 7), seat=2, consecutive_fouls=(0, 0, 2, 0))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, obj_rails=(5,)))
    assert v.game_over and v.winner == 3 and v.fouls[-1].kind is FoulKind.THIRD_CONSECUTIVE_FOUL
    assert returns(s1) == (-1.0, 1.0, -1.0, 1.0)


@pytest.mark.rule("OB-8", "OB-8.6")
def test_OB_8_6_kitchen_request_lowest_ball():
    s = make_state("odd_ball", {2: (0.3, 0.4), 5: (0.6, 1.6)}, cue=None, config=CFG,
                   cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert D.legal_actions(s).options == (Option.SPOT_NEAREST_KITCHEN_BALL,)
    s1, v = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    assert v.spotted == (2,)
