"""Pea pool (shared/rules/pea_pool.md): scenario tables per rule ID on hand-built shot records."""
import pytest

from poolgym.rules import (ChooseOption, CueBallPlacement, Declaration, Declare, EventType, FoulKind,
                           IllegalActionError, Option, Phase, PlaceCueBall, ShotAction, get_discipline, returns)
from poolgym.rules.games.bca import LEFT_CORNER_SLOT, RIGHT_CORNER_SLOT
from poolgym.rules.games.pea_pool import FirstContact, Pea, PeaPoolConfig
from poolgym.rules.geometry import ball_radius, get_table, triangle_slots
from poolgym.rules.testing import make_state, record

D = get_discipline("pea_pool")
CFG = PeaPoolConfig(n_players=3)
VAR = PeaPoolConfig(n_players=3, variant_points=True)
MANUAL = PeaPoolConfig(n_players=3, variant_points=True, auto_declare=False)
SHOT = ShotAction(V0=3.0, phi=90.0)


def st(balls, cue=(0.6, 1.0), peas=(5, 7, 9), seat=0, cfg=CFG, **kw):
    s = make_state("pea_pool", {b: xy for b, xy in balls.items()}, cue=cue, config=cfg, seat=seat, **kw)
    return s.replace(private=tuple(Pea(p) for p in peas))


BALLS = {2: (0.3, 1.5), 5: (0.6, 1.6), 7: (0.9, 1.8), 9: (0.4, 2.1), 12: (1.0, 2.2)}


@pytest.mark.rule("PP-1", "PP-2")
@pytest.mark.parametrize("n", [2, 4, 15])
def test_PP_2_seats_two_to_fifteen(n):
    s = D.initial_state(PeaPoolConfig(n_players=n), seed=n)
    assert s.n_players == n and len(s.private) == n and s.teams == ()


@pytest.mark.rule("PP-3", "PP-4")
def test_PP_3_PP_4_rack():
    """PP-4: 1 on the foot spot, 2 right corner, 3 left corner (C-24), 15 balls + cue (PP-3)."""
    s = D.initial_state(CFG, seed=9)
    slots = triangle_slots(get_table("9ft"), ball_radius(), CFG.rack_gap)
    P = s.positions()
    assert tuple(P[1]) == tuple(slots[0]) and tuple(P[2]) == tuple(slots[RIGHT_CORNER_SLOT])
    assert tuple(P[3]) == tuple(slots[LEFT_CORNER_SLOT])
    assert s.on_table == (False,) + (True,) * 15 and s.phase is Phase.BREAK
    others = {tuple(D.initial_state(CFG, seed=k).positions()[4]) for k in range(6)}
    assert len(others) > 1  # the rest is random


@pytest.mark.rule("PP-3", "PP-5")
def test_PP_5_private_peas_drawn_publicly_kept_secret():
    s = D.initial_state(PeaPoolConfig(n_players=5), seed=3)
    assert all(isinstance(p, Pea) and 1 <= p.number <= 15 for p in s.private)
    assert [(e.kind, e.seat, e.value) for e in s.history] == [(EventType.DRAW_PEA, k, -1) for k in range(5)]
    assert D.observe(s, 1).state.private == (None, s.private[1], None, None, None)


@pytest.mark.rule("PP-6", "PP-7")
def test_PP_6_PP_7_own_ball_legally_pocketed_wins():
    s = st(BALLS)
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={5: 2}))
    assert v.game_over and v.winner == 0 and {"PP-6", "PP-7"} <= set(v.rule_refs)
    assert v.events[0].kind is EventType.REVEAL and v.events[0].value == 5
    r = returns(s2)
    assert r[0] == 1.0 and abs(sum(r)) < 1e-12


@pytest.mark.rule("PP-7", "PP-9", "PP-9.1")
def test_PP_7_other_seats_ball_does_not_score_in_the_basic_game():
    s = st(BALLS)
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={7: 2}))
    assert not v.game_over and v.points == (0, 0, 0) and s2.seat_to_act == 0 and v.turn_continues
    assert "PP-9.1" in v.rule_refs


@pytest.mark.rule("PP-7")
def test_PP_7V_points_own_ball_and_others_ball_auto():
    s = st(BALLS, cfg=VAR)
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={7: 2}))
    assert v.points == (1, -1, 0) and s2.scores == (1, -1, 0) and "PP-7V" in v.rule_refs
    s3, v = D.apply_shot_record(s2, SHOT, record(s2, hit=2, pocketed={5: 1}))
    assert v.game_over and v.points == (4, -2, -2) and s3.scores == (5, -3, -2)
    assert returns(s3) == (5.0, -3.0, -2.0)


@pytest.mark.rule("PP-7", "PP-9")
@pytest.mark.parametrize("announce", [True, False])
def test_PP_7V_announcement_window(announce):
    """auto_declare False: after a legal pot every other seat gets a window; the owner who
    announces pays 1, who passes is disqualified and pays 2 (PP-7V)."""
    s = st(BALLS, cfg=MANUAL)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={7: 2}))
    assert s1.phase is Phase.DECLARE and s1.seat_to_act == 1 and v.points == (0, 0, 0)
    assert D.legal_actions(s1).declarations == (Declaration.ANNOUNCE_OWN_BALL, Declaration.PASS)
    d = Declaration.ANNOUNCE_OWN_BALL if announce else Declaration.PASS
    s2, v2 = D.apply(s1, Declare(d))
    assert s2.phase is Phase.DECLARE and s2.seat_to_act == 2
    assert D.legal_actions(s2).declarations == (Declaration.PASS,)  # seat 2's ball did not fall
    with pytest.raises(IllegalActionError):
        D.apply(s2, Declare(Declaration.ANNOUNCE_OWN_BALL))
    s3, _ = D.apply(s2, Declare(Declaration.PASS))
    assert s3.phase is Phase.PLAY and s3.seat_to_act == 0  # the shooter continues (PP-9.1)
    if announce:
        assert s3.scores == (1, -1, 0) and s3.active == ()
    else:
        assert s3.scores == (2, -2, 0) and s3.active == (True, False, True)
        assert v2.events[-1].kind is EventType.DISQUALIFIED


@pytest.mark.rule("PP-7")
def test_PP_7V_last_private_ball_ends_game_and_doubles_next():
    s = st({2: (0.3, 1.5), 7: (0.9, 1.8)}, cfg=VAR, peas=(5, 7, 9))
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={7: 2}))
    assert v.game_over and v.winner is None and s2.scores == (1, -1, 0)
    nxt = D.next_game(s2)
    assert nxt.extra.stake == 2 and nxt.breaker == 0 and nxt.seat_to_act == 0 and nxt.phase is Phase.BREAK


def _break_state(cfg=CFG):
    s = D.initial_state(cfg, seed=1)
    s, _ = D.apply(s, PlaceCueBall(0.6, 0.3))
    return s


@pytest.mark.rule("PP-8", "PP-10")
def test_PP_8_failed_open_break_options():
    s = _break_state()
    s1, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, obj_rails=(2, 3), pocketed={4: 5}))
    assert v.fouls[-1].rule == "PP-8" and v.options == (Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK)
    assert s1.phase is Phase.OPTION and s1.seat_to_act == 1 and s1.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    assert s1.on_table[4] and v.spotted == (4,)  # PP-10
    a, va = D.apply(s1, ChooseOption(Option.ACCEPT_TABLE))
    assert a.phase is Phase.PLAY and a.seat_to_act == 1 and D.legal_actions(a).must_place and va.rule_refs == ("PP-8",)
    b, vb = D.apply(s1, ChooseOption(Option.RERACK_AND_BREAK))
    assert b.phase is Phase.BREAK and b.seat_to_act == 1 and b.breaker == 1 and all(b.on_table[1:])
    assert vb.events[0].kind is EventType.RERACK and b.rng[1] == s1.rng[1] + 1


@pytest.mark.rule("PP-8")
def test_PP_8_open_break_legal():
    s = _break_state()
    s1, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, obj_rails=(2, 3, 4, 5)))
    assert not v.fouls and s1.phase is Phase.PLAY and s1.seat_to_act == 1 and s1.cue_ball is CueBallPlacement.IN_POSITION


@pytest.mark.rule("PP-9", "PP-9.2")
def test_PP_9_2_no_safety():
    s = st(BALLS)
    with pytest.raises(IllegalActionError, match="safety"):
        D.apply_shot_record(s, ShotAction(3.0, 90.0, safety=True), record(s, hit=2))


@pytest.mark.rule("PP-9", "PP-9.3")
def test_PP_9_3_kitchen_request_lowest_ball():
    low_in_kitchen = {2: (0.3, 0.4), 5: (0.6, 1.6), 7: (0.9, 1.8)}
    s = st(low_in_kitchen, cue=None, cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert D.legal_actions(s).options == (Option.SPOT_NEAREST_KITCHEN_BALL,)
    s2, v = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    assert v.spotted == (2,) and v.rule_refs == ("PP-9.3",) and s2.positions()[2, 1] > 1.8
    s = st(BALLS, cue=None, cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert D.legal_actions(s).options == ()


@pytest.mark.rule("PP-10", "PP-13")
def test_PP_10_PP_13_foul_spots_pocketed_and_offers_options():
    s = st(BALLS)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, pocketed={5: 2}))  # own ball, but bad hit (C-43)
    assert not v.game_over and v.fouls[0].kind is FoulKind.WRONG_BALL_FIRST and v.fouls[0].rule == "C-43"
    assert v.spotted == (5,) and s1.on_table[5] and "PP-10" in v.rule_refs and "PP-13" in v.rule_refs
    assert s1.phase is Phase.OPTION and v.options == (Option.ACCEPT_TABLE, Option.OFFENDER_SHOOTS_AGAIN)
    assert s1.seat_to_act == 1 and v.points == (0, 0, 0)  # PP-13 no points
    a, _ = D.apply(s1, ChooseOption(Option.OFFENDER_SHOOTS_AGAIN))
    assert a.seat_to_act == 0 and a.phase is Phase.PLAY and a.pos == s1.pos
    b, _ = D.apply(s1, ChooseOption(Option.ACCEPT_TABLE))
    assert b.seat_to_act == 1 and b.phase is Phase.PLAY


@pytest.mark.rule("PP-11")
def test_PP_11_jumped_ball_spotted_no_penalty():
    s = st(BALLS)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,), off_table=(9,)))
    assert not v.fouls and v.spotted == (9,) and s1.on_table[9] and "PP-11" in v.rule_refs
    assert s1.seat_to_act == 1


@pytest.mark.rule("PP-12", "PP-13")
def test_PP_12_scratch_in_hand_behind_head_string():
    s = st(BALLS)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,), scratch=0))
    assert v.fouls[0].kind is FoulKind.SCRATCH and s1.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    assert "PP-12" in v.rule_refs and not s1.on_table[0]


@pytest.mark.rule("PP-9")
def test_C_43_first_contact_option():
    s = st(BALLS, cfg=PeaPoolConfig(n_players=3, first_contact=FirstContact.ANY))
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=9, obj_rails=(9,)))
    assert not v.fouls
    assert D.legal_actions(st(BALLS)).target_balls == (2,)
