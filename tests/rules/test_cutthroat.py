"""Cut-throat (shared/rules/cutthroat.md): scenario tables per rule ID on hand-built shot records."""
import pytest

from poolgym.rules import (ChooseOption, CueBallPlacement, EventType, FoulKind, Option, Phase, PlaceCueBall,
                           ShotAction, get_discipline, returns)
from poolgym.rules.games.bca import LEFT_CORNER_SLOT, RIGHT_CORNER_SLOT
from poolgym.rules.games.cutthroat import CutThroatConfig, CutThroatExtra, PenaltySpot, group_balls
from poolgym.rules.geometry import ball_radius, get_table, triangle_slots
from poolgym.rules.testing import make_state, record

D = get_discipline("cutthroat")
CFG = CutThroatConfig(n_players=3)
SHOT = ShotAction(V0=3.0, phi=90.0)
XY = {1: (0.2, 1.3), 2: (0.3, 1.5), 3: (0.2, 1.9), 5: (0.5, 2.3), 6: (0.6, 1.6), 7: (0.9, 1.8), 9: (0.7, 2.0),
      11: (0.4, 2.1), 12: (1.0, 2.2), 14: (1.1, 1.4)}


def st(balls, cue=(0.6, 1.0), seat=0, cfg=CFG, **kw):
    return make_state("cutthroat", {b: XY[b] for b in balls}, cue=cue, config=cfg, seat=seat, **kw)


@pytest.mark.rule("CT-1", "CT-2")
def test_CT_2_three_or_five_players():
    for n in (3, 5):
        assert D.initial_state(CutThroatConfig(n_players=n), seed=0).n_players == n
    for n in (2, 4, 6):
        with pytest.raises(ValueError, match="n_players"):
            D.initial_state(CutThroatConfig(n_players=n), seed=0)


@pytest.mark.rule("CT-4")
def test_CT_4_rack():
    s = D.initial_state(CFG, seed=2)
    slots = triangle_slots(get_table("9ft"), ball_radius(), CFG.rack_gap)
    P = s.positions()
    assert tuple(P[1]) == tuple(slots[0]) and tuple(P[6]) == tuple(slots[RIGHT_CORNER_SLOT])
    assert tuple(P[11]) == tuple(slots[LEFT_CORNER_SLOT]) and s.on_table == (False,) + (True,) * 15


@pytest.mark.rule("CT-5")
def test_CT_5_groups_by_position_in_order():
    s = D.initial_state(CFG, seed=0)
    assert [group_balls(s, k) for k in range(3)] == [(1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (11, 12, 13, 14, 15)]
    s5 = D.initial_state(CutThroatConfig(n_players=5), seed=0)
    assert [group_balls(s5, k) for k in range(5)] == [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12), (13, 14, 15)]
    t = s.replace(order=(2, 0, 1))
    t = t.replace(groups=D.groups_for(t))
    assert group_balls(t, 2) == (1, 2, 3, 4, 5) and group_balls(t, 1) == (11, 12, 13, 14, 15)


@pytest.mark.rule("CT-9.1")
def test_CT_9_1_first_contact_an_opponents_ball():
    s = st((2, 6, 11))
    assert D.legal_actions(s).target_balls == (6, 11)
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,)))
    assert v.fouls[0].kind is FoulKind.WRONG_BALL_FIRST and v.fouls[0].rule == "CT-9.1"
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=6, obj_rails=(6,)))
    assert not v.fouls and s1.seat_to_act == 1
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=6))
    assert v.fouls[0].kind is FoulKind.NO_RAIL_AFTER_CONTACT
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=6, pocketed={11: 2}))
    assert not v.fouls and v.turn_continues and s1.seat_to_act == 0  # a legal pot continues


@pytest.mark.rule("CT-6", "CT-7", "CT-9.3")
def test_CT_7_last_seat_with_balls_wins():
    s = st((2, 6, 11, 12))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=6, pocketed={6: 2}))
    assert s1.active == (True, False, True) and v.events == ((EventType.ELIMINATED and v.events[0]),)
    assert v.events[0].kind is EventType.ELIMINATED and v.events[0].seat == 1 and "CT-9.3" in v.rule_refs
    assert s1.seat_to_act == 0 and D.legal_actions(s1).target_balls == (11, 12)
    s2, v = D.apply_shot_record(s1, SHOT, record(s1, hit=11, pocketed={11: 2, 12: 3}))
    assert v.game_over and v.winner == 0 and "CT-7" in v.rule_refs and s2.extra.eliminated == (1, 2)
    r = returns(s2)
    assert r[0] == 1.0 and abs(sum(r)) < 1e-12


@pytest.mark.rule("CT-7")
def test_CT_7_every_last_ball_on_one_shot_is_a_draw():
    s = st((2, 6, 11))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=6, pocketed={2: 1, 6: 2, 11: 3}))
    assert v.game_over and v.winner is None and s1.game_over and returns(s1) == (0.0, 0.0, 0.0)
    assert v.next_seat == s1.seat_to_act


@pytest.mark.rule("CT-9.2")
def test_CT_9_2_own_last_ball_eliminates_the_shooter():
    s = st((2, 6, 11))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=6, pocketed={2: 1}, obj_rails=(6,)))
    assert s1.active == (False, True, True) and s1.seat_to_act == 1 and not v.turn_continues
    assert not v.game_over


@pytest.mark.rule("CT-10", "CT-13", "CT-9.2", "CT-9.3")
def test_CT_13_foul_spots_theirs_keeps_own_one_each_and_reentry():
    # seat 1 eliminated; seat 2 has 11 on the table and 12-15 down; seat 0 has 2 only
    s = st((2, 11, 7), active=(True, False, True), extra=CutThroatExtra(eliminated=(1,)))
    s = s.replace(on_table=tuple(b in (2, 11) for b in range(16)))  # 7 is down too (seat 1 out)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=11, pocketed={11: 2, 2: 3}, scratch=4))
    assert v.fouls[0].kind is FoulKind.SCRATCH
    assert s1.on_table[11] and not s1.on_table[2]  # CT-10: theirs spotted, own stays down
    assert s1.on_table[6] and s1.on_table[12]  # one (the lowest) of each opponent's pocketed balls
    assert sum(s1.on_table[b] for b in range(6, 11)) == 1 and sum(s1.on_table[b] for b in range(11, 16)) == 2
    assert s1.active == (False, True, True)  # seat 1 re-enters; the shooter's last ball fell (C-36 (a))
    kinds = [(e.kind, e.seat) for e in v.events]
    assert (EventType.REENTERED, 1) in kinds and (EventType.ELIMINATED, 0) in kinds
    assert s1.seat_to_act == 1 and s1.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and "CT-13" in v.rule_refs
    hi = CutThroatConfig(n_players=3, penalty_spot=PenaltySpot.HIGHEST)
    t = st((2, 6, 11), cfg=hi)
    t1, v = D.apply_shot_record(t, SHOT, record(t, hit=2, obj_rails=(2,)))
    assert t1.on_table[10] and t1.on_table[15] and set(v.spotted) == {10, 15}


@pytest.mark.rule("CT-11")
def test_CT_11_jumped_balls_like_illegally_pocketed_no_foul():
    s = st((2, 3, 6, 7, 11))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=6, obj_rails=(6,), off_table=(7, 3)))
    assert not v.fouls and s1.on_table[7] and not s1.on_table[3] and v.spotted == (7,) and "CT-11" in v.rule_refs


@pytest.mark.rule("CT-12")
def test_CT_12_scratch_next_in_hand_kitchen():
    s = st((2, 6, 11))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=6, obj_rails=(6,), scratch=0))
    assert s1.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and s1.seat_to_act == 1 and "CT-12" in v.rule_refs


@pytest.mark.rule("CT-9.4")
def test_CT_9_4_kitchen_request_when_all_opponents_balls_in_kitchen():
    balls = {2: (0.3, 1.5), 6: (0.6, 0.3), 11: (0.4, 0.5)}
    s = make_state("cutthroat", balls, cue=None, config=CFG, cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert D.legal_actions(s).options == (Option.SPOT_NEAREST_KITCHEN_BALL,)
    s1, v = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    assert v.spotted == (11,) and v.rule_refs == ("CT-9.4",)
    s = make_state("cutthroat", {2: (0.3, 0.2), 6: (0.6, 1.3), 11: (0.4, 0.5)}, cue=None, config=CFG,
                   cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert D.legal_actions(s).options == ()


@pytest.mark.rule("CT-8")
def test_CT_8_failed_open_break():
    s = D.initial_state(CFG, seed=0)
    s, _ = D.apply(s, PlaceCueBall(0.6, 0.3))
    s1, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, obj_rails=(2, 3), pocketed={8: 2}))
    assert v.options == (Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK) and v.fouls[-1].rule == "CT-8"
    assert not s1.on_table[8] and s1.seat_to_act == 1  # pocketed balls stay down
    a, _ = D.apply(s1, ChooseOption(Option.ACCEPT_TABLE))
    assert a.phase is Phase.PLAY and a.seat_to_act == 1
    b, _ = D.apply(s1, ChooseOption(Option.RERACK_AND_BREAK))
    assert b.phase is Phase.BREAK and b.breaker == 1 and all(b.on_table[1:])
    ok, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, obj_rails=(2, 3, 4, 5)))
    assert not v.fouls and ok.phase is Phase.PLAY


@pytest.mark.rule("CT-9.5")
def test_CT_9_5_next_game_in_elimination_order():
    s = st((2,), extra=CutThroatExtra(eliminated=(2, 1)))
    s = s.replace(phase=Phase.GAME_OVER, winner=0, active=(True, False, False))
    n = D.next_game(s)
    assert n.order == (2, 1, 0) and n.breaker == 2 and n.seat_to_act == 2
    assert group_balls(n, 2) == (1, 2, 3, 4, 5) and group_balls(n, 0) == (11, 12, 13, 14, 15)
    assert n.active == () and n.phase is Phase.BREAK
