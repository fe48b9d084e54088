"""Forty-one (shared/rules/forty_one.md): scenario tables per rule ID on hand-built shot records."""
import pytest

from poolgym.rules import (ChooseOption, CueBallPlacement, Declaration, Declare, EventType, FoulKind,
                           IllegalActionError, Option, Phase, PlaceCueBall, ShotAction, get_discipline, returns)
from poolgym.rules.games.forty_one import FortyOneConfig, FortyOneExtra, PenaltyBall
from poolgym.rules.games.pea_pool import Bottle, Pea
from poolgym.rules.testing import check_privacy, make_state, record

D = get_discipline("forty_one")
CFG = FortyOneConfig(n_players=3)
MANUAL = FortyOneConfig(n_players=3, auto_declare=False)
SHOT = ShotAction(V0=3.0, phi=90.0)
BALLS = {2: (0.3, 1.5), 5: (0.6, 1.6), 7: (0.9, 1.8), 9: (0.4, 2.1), 12: (1.0, 2.2)}


def st(balls=BALLS, cue=(0.6, 1.0), peas=(10, 7, 3), seat=0, cfg=CFG, mine=((), (), ()), **kw):
    s = make_state("forty_one", balls, cue=cue, config=cfg, seat=seat, **kw)
    scores = tuple(sum(m) for m in mine)
    rest = tuple(b for b in range(1, 16) if b not in peas)
    return s.replace(private=tuple(Pea(p) for p in peas), hidden=Bottle(rest), scores=scores,
                     extra=FortyOneExtra(pocketed_by=mine))


@pytest.mark.rule("41-1", "41-2")
@pytest.mark.parametrize("n", [2, 5, 15])
def test_41_2_seats(n):
    s = D.initial_state(FortyOneConfig(n_players=n), seed=n)
    assert s.n_players == n and len({p.number for p in s.private}) == n and s.teams == ()
    check_privacy(s)


@pytest.mark.rule("41-3", "41-4")
def test_41_4_random_triangle():
    s = D.initial_state(CFG, seed=1)
    assert s.on_table == (False,) + (True,) * 15
    apex = {int(max(range(1, 16), key=lambda b: -D.initial_state(CFG, seed=k).positions()[b, 1])) for k in range(8)}
    assert len(apex) > 1  # no fixed apex ball


@pytest.mark.rule("41-5")
def test_41_5_peas_drawn_secret():
    s = D.initial_state(CFG, seed=4)
    assert [(e.kind, e.value) for e in s.history] == [(EventType.DRAW_PEA, -1)] * 3
    assert sorted([p.number for p in s.private] + list(s.hidden.peas)) == list(range(1, 16))
    assert D.observe(s, 0).state.private[1] is None


@pytest.mark.rule("41-6", "41-7", "41-9")
def test_41_6_exact_41_wins_with_auto_claim():
    s = st(mine=((12, 7), (), ()), peas=(10, 4, 3), balls={2: (0.3, 1.5), 5: (0.6, 1.6), 9: (0.4, 2.1)})
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={9: 2}, obj_rails=(5,)))
    assert s1.scores[0] == 28 and not v.game_over  # 28 + 10 = 38
    s = st(mine=((12, 7), (), ()), peas=(13, 4, 3), balls={2: (0.3, 1.5), 9: (0.4, 2.1)})
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={9: 2}))
    assert v.game_over and v.winner == 0 and "41-9.6" in v.rule_refs and v.points == (9, 0, 0)
    assert v.events[-1].kind is EventType.REVEAL and v.events[-1].value == 13
    assert returns(s1)[0] == 1.0 and abs(sum(returns(s1))) < 1e-12


@pytest.mark.rule("41-7", "41-9", "41-9.1", "41-9.2")
def test_41_9_one_shot_per_turn_and_any_ball_first():
    s = st()
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=12, pocketed={7: 1}))
    assert not v.fouls and s1.seat_to_act == 1 and not v.turn_continues and s1.scores == (7, 0, 0)
    assert s1.extra.pocketed_by == ((7,), (), ()) and "41-9.2" in v.rule_refs


@pytest.mark.rule("41-9", "41-9.4")
def test_41_9_4_rail_required():
    s = st()
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=5))
    assert v.fouls[0].kind is FoulKind.NO_RAIL_AFTER_CONTACT and v.fouls[0].rule == "41-9.4"


@pytest.mark.rule("41-8")
def test_41_8_open_break_or_foul():
    s = D.initial_state(CFG, seed=0)
    s, _ = D.apply(s, PlaceCueBall(0.6, 0.3))
    low = min(range(1, 16), key=lambda b: s.positions()[b, 1])
    _, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=low, obj_rails=(1, 2, 3)))
    assert v.fouls[-1].kind is FoulKind.ILLEGAL_BREAK and v.fouls[-1].rule == "41-8"
    s1, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=low, obj_rails=(1, 2, 3, 4), pocketed={6: 2}))
    assert not v.fouls and s1.scores == (6, 0, 0) and s1.seat_to_act == 1


@pytest.mark.rule("41-10", "41-13", "41-9", "41-9.3")
@pytest.mark.parametrize("choice,spot", [(PenaltyBall.MOST_RECENT, 3), (PenaltyBall.LOWEST, 1), (PenaltyBall.HIGHEST, 8)])
def test_41_10_41_13_foul_spots_shot_balls_and_one_of_his(choice, spot):
    cfg = FortyOneConfig(n_players=3, penalty_ball=choice)
    s = st(cfg=cfg, mine=((8, 1, 3), (), ()))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, pocketed={9: 2}))  # no rail for 5, 9 down: foul? no: pot
    assert not v.fouls  # a pot makes it legal (41-9.4)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, pocketed={9: 2}, scratch=3))
    assert v.fouls[0].kind is FoulKind.SCRATCH and set(v.spotted) == {9, spot}
    assert s1.on_table[9] and s1.on_table[spot] and s1.scores[0] == 12 - spot and v.points == (-spot, 0, 0)
    assert "41-10" in v.rule_refs and "41-13" in v.rule_refs
    s = st(cfg=cfg)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5))
    assert v.fouls and "41-13" not in v.rule_refs and s1.scores == (0, 0, 0)  # nothing to spot


@pytest.mark.rule("41-13", "41-10")
@pytest.mark.parametrize("manual", [False, True])
@pytest.mark.parametrize("ball", [8, 1, 3])
def test_41_13_C_41_player_choice_the_fouler_designates_his_penalty_ball(ball, manual):
    """41-13 / C-41 ``player_choice``: after a foul the fouler (two or more pocketed balls)
    chooses which one to spot: `Option.SPOT_PENALTY_BALL` naming one of them (offered to him
    alone, ``spot_choices`` = his balls); its points leave his total, then the next seat
    plays (or, without ``auto_declare``, his declaration window opens first)."""
    cfg = FortyOneConfig(n_players=3, penalty_ball=PenaltyBall.PLAYER_CHOICE, auto_declare=not manual)
    s = st(cfg=cfg, mine=((8, 1, 3), (), ()))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, pocketed={9: 2}, scratch=3))
    assert v.fouls and v.spotted == (9,) and s1.on_table[9] and s1.scores == (12, 0, 0)
    assert s1.phase is Phase.OPTION and s1.seat_to_act == 0 and v.next_seat == 0
    spec = D.legal_actions(s1)
    assert spec.options == (Option.SPOT_PENALTY_BALL,) and spec.spot_choices == (1, 3, 8)
    assert s1.cue_ball is CueBallPlacement.IN_HAND_KITCHEN  # for the next seat (41-12)
    with pytest.raises(IllegalActionError):
        D.apply(s1, ChooseOption(Option.SPOT_PENALTY_BALL, ball=9))  # not one of his balls
    s2, v2 = D.apply(s1, ChooseOption(Option.SPOT_PENALTY_BALL, ball=ball))
    assert v2.spotted == (ball,) and s2.on_table[ball] and v2.points == (-ball, 0, 0)
    assert s2.scores == (12 - ball, 0, 0) and sorted(s2.extra.pocketed_by[0]) == sorted({8, 1, 3} - {ball})
    if manual:
        assert s2.phase is Phase.DECLARE and s2.seat_to_act == 0 and s2.pending == (1,)
        s3, _ = D.apply(s2, Declare(Declaration.PASS))
        assert s3.seat_to_act == 1 and s3.phase is Phase.PLAY
    else:
        assert s2.phase is Phase.PLAY and s2.seat_to_act == 1 and s2.pending == ()
    # one pocketed ball: nothing to choose, it is spotted at once
    s = st(cfg=cfg, mine=((8,), (), ()))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5))
    assert v.fouls and v.spotted == (8,) and s1.phase is not Phase.OPTION and s1.scores == (0, 0, 0)


@pytest.mark.rule("41-11")
def test_41_11_jumped_spotted_no_penalty():
    s = st()
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, obj_rails=(5,), off_table=(12,)))
    assert not v.fouls and v.spotted == (12,) and s1.on_table[12] and "41-11" in v.rule_refs


@pytest.mark.rule("41-12")
def test_41_12_scratch_in_hand_kitchen():
    s = st()
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=5, obj_rails=(5,), scratch=0))
    assert s1.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and s1.seat_to_act == 1 and "41-12" in v.rule_refs


@pytest.mark.rule("41-9", "41-9.5")
def test_41_9_5_kitchen_request_all_balls_in_kitchen():
    s = st(balls={2: (0.3, 0.3), 5: (0.6, 0.5)}, cue=None, cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert D.legal_actions(s).options == (Option.SPOT_NEAREST_KITCHEN_BALL,)
    s1, v = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    assert v.spotted == (5,) and v.rule_refs == ("41-9.5",)
    s = st(balls={2: (0.3, 0.3), 5: (0.6, 1.5)}, cue=None, cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert D.legal_actions(s).options == ()


@pytest.mark.rule("41-9", "41-9.7")
def test_41_9_7_auto_bust_spots_his_balls_and_draws_new_pea():
    s = st(mine=((15, 14), (), ()), peas=(10, 4, 3), balls={2: (0.3, 1.5), 5: (0.6, 1.6)})
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={5: 2}))  # 29 + 5 + 10 = 44 > 41
    assert s1.scores == (0, 0, 0) and s1.extra.pocketed_by == ((), (), ())
    assert set(v.spotted) == {5, 14, 15} and v.points == (-29, 0, 0) and "41-9.7" in v.rule_refs
    kinds = [e.kind for e in v.events]
    assert EventType.RETURN_PEA in kinds and EventType.DRAW_PEA in kinds
    assert s1.private[0].number not in s1.hidden.peas and len(s1.hidden.peas) == 12  # 10 went back, one drawn
    assert s1.history[-len(v.events):] == v.events
    check_privacy(s1)


@pytest.mark.rule("41-9", "41-9.6")
def test_41_9_6_manual_claim_window_and_late_claim():
    s = st(cfg=MANUAL, mine=((12, 7), (), ()), peas=(13, 4, 3), balls={2: (0.3, 1.5), 9: (0.4, 2.1), 5: (0.6, 1.6)})
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={9: 2}))
    assert s1.phase is Phase.DECLARE and s1.seat_to_act == 0 and not v.game_over
    assert D.legal_actions(s1).declarations == (Declaration.CLAIM_41, Declaration.PASS)
    won, vw = D.apply(s1, Declare(Declaration.CLAIM_41))
    assert won.game_over and won.winner == 0 and vw.rule_refs == ("41-9.6",)
    s2, _ = D.apply(s1, Declare(Declaration.PASS))  # forgot: play passes on
    assert s2.phase is Phase.PLAY and s2.seat_to_act == 1 and D.legal_actions(s2).declarations == ()
    with pytest.raises(IllegalActionError):
        D.apply(s2, Declare(Declaration.CLAIM_41))  # only the seat to act may declare
    s3 = s2.replace(seat_to_act=0)  # his next turn
    assert D.legal_actions(s3).declarations == (Declaration.CLAIM_41,)
    s4, v4 = D.apply(s3, Declare(Declaration.CLAIM_41))
    assert s4.winner == 0 and v4.events[-1].kind is EventType.REVEAL


@pytest.mark.rule("41-9", "41-9.7")
def test_41_9_7_manual_bust_declared_or_disqualified():
    base = st(cfg=MANUAL, mine=((15, 14), (), ()), peas=(10, 4, 3), balls={2: (0.3, 1.5), 5: (0.6, 1.6)})
    s1, _ = D.apply_shot_record(base, SHOT, record(base, hit=2, pocketed={5: 2}))
    assert D.legal_actions(s1).declarations == (Declaration.DECLARE_BUST, Declaration.PASS)
    b, vb = D.apply(s1, Declare(Declaration.DECLARE_BUST))
    assert b.phase is Phase.DECLARE and b.scores[0] == 0 and set(vb.spotted) == {5, 14, 15} and vb.points == (-34, 0, 0)
    assert D.legal_actions(b).declarations == (Declaration.DRAW_NEW_PEA, Declaration.PASS)
    c, _ = D.apply(b, Declare(Declaration.DRAW_NEW_PEA))
    assert c.phase is Phase.PLAY and c.seat_to_act == 1 and c.history[-1].kind is EventType.DRAW_PEA
    d, vd = D.apply(s1, Declare(Declaration.PASS))  # did not declare in time
    assert d.active == (False, True, True) and d.seat_to_act == 1 and vd.events[-1].kind is EventType.DISQUALIFIED
    two = st(cfg=FortyOneConfig(n_players=2, auto_declare=False), peas=(10, 4), mine=((15, 14), ()),
             balls={2: (0.3, 1.5), 5: (0.6, 1.6)})
    t1, _ = D.apply_shot_record(two, SHOT, record(two, hit=2, pocketed={5: 2}))
    t2, v2 = D.apply(t1, Declare(Declaration.PASS))
    assert t2.game_over and t2.winner == 1 and v2.winner == 1  # two players: the opponent wins


@pytest.mark.rule("41-9", "41-9.8")
def test_41_9_8_table_cleared_highest_wins_or_draw():
    s = st(mine=((3,), (8,), (1,)), balls={2: (0.3, 1.5)})
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={2: 1}))  # 5 vs 8: seat 1 wins
    assert v.game_over and v.winner == 1 and "41-9.8" in v.rule_refs
    s = st(mine=((6,), (8,), (1,)), balls={2: (0.3, 1.5)})
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={2: 1}))
    assert v.game_over and v.winner is None and returns(s1) == (0.0, 0.0, 0.0)
