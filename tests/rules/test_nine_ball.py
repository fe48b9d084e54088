"""Nine-ball scenario table (shared/rules/nine_ball.md). Each scenario names its rule ID
and asserts the verdict of a hand-built shot record."""
import numpy as np
import pytest

from poolgym.rules import (ChooseOption, CueBallPlacement, FoulKind, IllegalActionError, Option, Phase,
                           PlaceCueBall, ShotAction)
from poolgym.rules.game import get_discipline
from poolgym.rules.geometry import ball_radius, diamond_slots, get_table
from poolgym.rules.nine_ball import NineBallConfig, NineOnPushOut
from poolgym.rules.testing import make_state, record

D = get_discipline("nine_ball")
T = get_table("9ft")
R = ball_radius()
SHOT = ShotAction(V0=3.0, phi=90.0)
PUSH = ShotAction(V0=1.0, phi=45.0, push_out=True)

# An open mid-game position: balls spread, cue ball in the middle.
POS = {1: (0.3, 1.5), 2: (0.9, 1.6), 3: (0.5, 2.0), 9: (0.635, 2.2), 5: (1.0, 0.9)}
CUE = (0.635, 1.0)


def play(balls=POS, cue=CUE, **kw):
    return make_state("nine_ball", balls, cue, **kw)


def broken(seed=0, config=None):
    s = D.initial_state(config or NineBallConfig(), seed=seed)
    return D.apply(s, PlaceCueBall(0.635, 0.4))[0]


def kinds(v):
    return [f.kind for f in v.fouls]


# ----------------------------------------------------------------------------- 9B-5.1
@pytest.mark.rule("9B-5.1")
def test_9B_5_1_lowest_ball_first_and_continue_inning():
    """9B-5.1: first contact must be the lowest ball; a legal pot continues the inning;
    balls need not be pocketed in order (pocketing 3 after hitting 1 counts)."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, pocketed={3: 2}))
    assert not v.fouls and v.legal_pocketed == (3,) and v.turn_continues
    assert s2.seat_to_act == 0 and s2.cue_ball is CueBallPlacement.IN_POSITION
    assert not s2.on_table[3] and s2.on_table[1]


@pytest.mark.rule("9B-5.1", "G-3.5")
def test_9B_5_1_miss_incoming_player_from_position():
    """9B-5.1 / G-3.5: after a miss the incoming player plays from the position left."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=3, moves={0: (0.4, 1.2)}))
    assert not v.fouls and v.next_seat == 1 and s2.seat_to_act == 1
    assert s2.cue_ball is CueBallPlacement.IN_POSITION and s2.positions()[0].tolist() == [0.4, 1.2]


@pytest.mark.rule("9B-5.1", "9B-5.7", "9B-5.10")
def test_9B_5_1_foul_gives_ball_in_hand_anywhere():
    """9B-5.1 / 9B-5.7 / 9B-5.10: after any foul the incoming player has ball in hand
    anywhere on the table."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=2, cue_rail=3))
    assert v.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE and s2.seat_to_act == 1
    spec = D.legal_actions(s2)
    assert spec.must_place and not spec.can_shoot and spec.place_cue is CueBallPlacement.IN_HAND_ANYWHERE
    s3, _ = D.apply(s2, PlaceCueBall(0.2, 2.3))  # in front of the head string: fine
    assert D.legal_actions(s3).can_shoot


# ----------------------------------------------------------------------------- 9B-5.2
@pytest.mark.rule("9B-5.2")
@pytest.mark.parametrize("seed", range(5))
def test_9B_5_2_rack_diamond(seed):
    """9B-5.2: diamond, 1 on the foot spot, 9 in the centre, 2-8 random, tight; the game
    begins with cue ball in hand behind the head string (G-3.8)."""
    s = D.initial_state(NineBallConfig(), seed=seed)
    P = s.positions()
    slots = diamond_slots(T, R, s.config.rack_gap)
    assert np.allclose(P[1], T.foot_spot) and np.allclose(P[9], slots[4])
    assert sorted(map(tuple, np.round(P[1:], 9))) == sorted(map(tuple, np.round(slots, 9)))
    assert not s.on_table[0] and all(s.on_table[1:])
    assert s.phase is Phase.BREAK and s.cue_ball is CueBallPlacement.IN_HAND_KITCHEN


@pytest.mark.rule("9B-5.2")
def test_9B_5_2_rack_random_order_differs_between_seeds():
    """9B-5.2: the other balls are in random order (drawn from the state RNG)."""
    racks = {tuple(np.round(D.initial_state(NineBallConfig(), seed=k).positions()[2:9, 0], 6)) for k in range(10)}
    assert len(racks) > 3
    assert D.initial_state(NineBallConfig(), seed=4) == D.initial_state(NineBallConfig(), seed=4)


# ----------------------------------------------------------------------------- 9B-5.3
@pytest.mark.rule("9B-5.3", "G-3.36", "GB-29")
@pytest.mark.parametrize("order,winner,expect", [("winner", 1, 1), ("alternate", 1, 1), ("loser", 1, 0),
                                                 ("loser", 0, 1), ("winner", 0, 0), ("alternate", 0, 1)])
def test_9B_5_3_break_order(order, winner, expect):
    """9B-5.3 / G-3.36 / GB-29: the next game's breaker by ``break_order``."""
    s = D.initial_state(NineBallConfig(break_order=order), seed=0)  # seat 0 breaks game 0
    s = s.replace(phase=Phase.GAME_OVER, winner=winner)
    n = D.next_game(s)
    assert n.breaker == expect and n.seat_to_act == expect and n.phase is Phase.BREAK
    assert n.games_won[winner] == 1 and n.game_number == 1


@pytest.mark.rule("9B-5.3")
def test_9B_5_3_break_order_trailing():
    """9B-5.3 (c): the player trailing in games breaks."""
    s = D.initial_state(NineBallConfig(break_order="trailing"), seed=0).replace(games_won=(3, 1))
    n = D.next_game(s.replace(phase=Phase.GAME_OVER, winner=1))
    assert n.games_won == (3, 2) and n.breaker == 1
    n = D.next_game(s.replace(phase=Phase.GAME_OVER, winner=0, games_won=(1, 3)))
    assert n.games_won == (2, 3) and n.breaker == 0


# ----------------------------------------------------------------------------- 9B-5.4
@pytest.mark.rule("9B-5.4")
def test_9B_5_4_legal_break_four_to_rail():
    """9B-5.4: the 1 first and four numbered balls to a cushion is a legal break."""
    s = broken()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, obj_rails=(2, 3, 4, 5)))
    assert not v.fouls and s2.seat_to_act == 1 and s2.extra.push_out_available


@pytest.mark.rule("9B-5.4")
def test_9B_5_4_break_three_to_rail_is_foul():
    """9B-5.4: fewer than four balls to a cushion and nothing pocketed is a foul; the
    incoming player has ball in hand anywhere."""
    s = broken()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, obj_rails=(2, 3, 4)))
    assert kinds(v) == [FoulKind.ILLEGAL_BREAK] and v.fouls[0].rule == "9B-5.4"
    assert s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE and not s2.extra.push_out_available


@pytest.mark.rule("9B-5.4", "9B-5.14")
def test_9B_5_4_break_must_hit_one_first():
    """9B-5.4 / 9B-5.14: the 1-ball must be legally contacted on the break."""
    s = broken()
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2, 3, 4, 5)))
    assert FoulKind.WRONG_BALL_FIRST in kinds(v) and v.fouls[0].rule == "9B-5.4"


@pytest.mark.rule("9B-5.4", "9B-5.6")
def test_9B_5_4_2_break_scratch_no_push_out():
    """9B-5.4.2 / 9B-5.6: scratch on the break is a foul, in hand anywhere, and the
    incoming player cannot play a push-out."""
    s = broken()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, obj_rails=(2, 3, 4, 5), scratch=0))
    assert FoulKind.SCRATCH in kinds(v)
    s2, _ = D.apply(s2, PlaceCueBall(0.6, 1.0))
    assert not D.legal_actions(s2).push_out_allowed
    with pytest.raises(IllegalActionError):
        D.apply_shot_record(s2, PUSH, record(s2))


@pytest.mark.rule("9B-5.4")
def test_9B_5_4_3_break_object_ball_jumped_not_spotted_nine_spotted():
    """9B-5.4.3: an object ball jumped on the break is a foul and not spotted, except the
    9, which is spotted (G-3.32)."""
    s = broken()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, obj_rails=(2, 3, 4, 5), off_table=(6, 9)))
    assert FoulKind.OBJECT_BALL_OFF_TABLE in kinds(v)
    assert not s2.on_table[6] and s2.on_table[9] and v.spotted == (9,)
    assert s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE


@pytest.mark.rule("9B-5.4")
def test_9B_5_4_break_pocket_counts_without_rails():
    """9B-5.4: pocketing a ball satisfies the break requirement."""
    s = broken()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, pocketed={4: 0}))
    assert not v.fouls and v.turn_continues and s2.seat_to_act == 0


# ----------------------------------------------------------------------------- 9B-5.5
@pytest.mark.rule("9B-5.5")
def test_9B_5_5_breaker_continues_after_pocket_and_may_push():
    """9B-5.5: the breaker who pockets a ball continues; the shot after a legal break may
    be a push-out (whoever shoots it)."""
    s = broken()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, pocketed={4: 0}))
    spec = D.legal_actions(s2)
    assert spec.seat == 0 and spec.push_out_allowed
    # push-out only on that one shot:
    s3, v3 = D.apply_shot_record(s2, SHOT, record(s2, hit=1, pocketed={2: 1}))
    assert v3.turn_continues and not D.legal_actions(s3).push_out_allowed


@pytest.mark.rule("9B-5.5", "9B-5.14")
def test_9B_5_5_nine_on_legal_break_wins():
    """9B-5.5 / 9B-5.14: a 9 pocketed on a legal break wins."""
    s = broken()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, pocketed={9: 2}))
    assert v.game_over and v.winner == 0 and s2.phase is Phase.GAME_OVER and s2.winner == 0


@pytest.mark.rule("9B-5.4", "9B-5.7")
def test_9B_5_4_nine_on_foul_break_spotted():
    """9B-5.4 / 9B-5.7: a 9 pocketed on a foul break is spotted, no win."""
    s = broken()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, pocketed={9: 2}, scratch=5))
    assert not v.game_over and v.spotted == (9,) and s2.on_table[9]
    assert np.allclose(s2.positions()[9], T.foot_spot) or s2.positions()[9][0] == pytest.approx(T.w / 2)


# ----------------------------------------------------------------------------- 9B-5.6
def after_legal_break():
    s = broken()
    return D.apply_shot_record(s, SHOT, record(s, hit=1, obj_rails=(2, 3, 4, 5)))[0]


@pytest.mark.rule("9B-5.6")
def test_9B_5_6_push_out_needs_no_contact_and_gives_option():
    """9B-5.6: on a push-out the cue ball need not contact a ball or a cushion; the
    opponent then chooses to shoot or to pass the shot back."""
    s = after_legal_break()
    assert s.seat_to_act == 1
    s2, v = D.apply_shot_record(s, PUSH, record(s, moves={0: (0.3, 0.5)}))
    assert not v.fouls and "9B-5.6" in v.rule_refs
    assert s2.phase is Phase.OPTION and s2.seat_to_act == 0 and set(v.options) == {Option.ACCEPT_TABLE, Option.PASS_BACK}
    s3, _ = D.apply(s2, ChooseOption(Option.PASS_BACK))
    assert s3.seat_to_act == 1 and s3.phase is Phase.PLAY and s3.cue_ball is CueBallPlacement.IN_POSITION
    assert not D.legal_actions(s3).push_out_allowed
    s4, _ = D.apply(s2, ChooseOption(Option.ACCEPT_TABLE))
    assert s4.seat_to_act == 0 and s4.phase is Phase.PLAY


@pytest.mark.rule("9B-5.6")
def test_9B_5_6_push_out_pocketed_balls_stay_down_nine_spotted():
    """9B-5.6 / C-17: balls pocketed on a push-out do not count and stay down; the 9 is
    spotted (default ``nine_on_push_out='spot'``)."""
    s = after_legal_break()
    s2, v = D.apply_shot_record(s, PUSH, record(s, hit=3, pocketed={3: 0, 9: 2}))
    assert not v.fouls and v.legal_pocketed == () and not s2.on_table[3]
    assert s2.on_table[9] and v.spotted == (9,) and not v.game_over


@pytest.mark.rule("9B-5.6")
def test_9B_5_6_push_out_nine_wins_option():
    """9B-5.6 / C-17 option ``nine_on_push_out='win'``."""
    s = after_legal_break().replace(config=NineBallConfig(nine_on_push_out=NineOnPushOut.WIN))
    _, v = D.apply_shot_record(s, PUSH, record(s, hit=3, pocketed={9: 2}))
    assert v.game_over and v.winner == 1


@pytest.mark.rule("9B-5.6")
def test_9B_5_6_push_out_scratch_is_foul():
    """9B-5.6: an illegal push-out is penalised by the foul committed (scratch)."""
    s = after_legal_break()
    s2, v = D.apply_shot_record(s, PUSH, record(s, scratch=1))
    assert FoulKind.SCRATCH in kinds(v) and s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE and s2.seat_to_act == 0


@pytest.mark.rule("9B-5.6")
def test_9B_5_6_push_out_not_after_first_shot():
    """9B-5.6: push-out only on the shot immediately after the break."""
    s = play()
    assert not D.legal_actions(s).push_out_allowed
    with pytest.raises(IllegalActionError):
        D.apply_shot_record(s, PUSH, record(s))


@pytest.mark.rule("9B-5.6")
def test_9B_5_6_undeclared_push_is_normal_shot():
    """9B-5.6: without the declaration the shot is a normal shot (no contact = foul)."""
    s = after_legal_break()
    _, v = D.apply_shot_record(s, SHOT, record(s))
    assert kinds(v) == [FoulKind.NO_BALL_HIT]


# ----------------------------------------------------------------------------- 9B-5.7
@pytest.mark.rule("9B-5.7")
def test_9B_5_7_foul_pocketed_balls_stay_down_nine_spotted():
    """9B-5.7: on a foul, pocketed balls are not respotted except the 9; several fouls on
    one shot count as one foul (G-3.30)."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={3: 0, 9: 5}, scratch=1))
    assert len(v.fouls) >= 2 and s2.consecutive_fouls == (1, 0)
    assert not s2.on_table[3] and s2.on_table[9] and v.spotted == (9,) and v.legal_pocketed == ()
    assert s2.seat_to_act == 1 and not v.game_over


# ----------------------------------------------------------------------------- 9B-5.8 / 9B-5.9
@pytest.mark.rule("9B-5.8")
def test_9B_5_8_bad_hit():
    """9B-5.8: first object ball not the lowest on the table is a foul."""
    s = play()
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=2, cue_rail=3))
    assert kinds(v) == [FoulKind.WRONG_BALL_FIRST] and v.fouls[0].rule == "9B-5.8"


@pytest.mark.rule("9B-5.9")
def test_9B_5_9_no_rail():
    """9B-5.9: nothing pocketed and no ball to a cushion after contact is a foul."""
    s = play()
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1))
    assert kinds(v) == [FoulKind.NO_RAIL_AFTER_CONTACT] and v.fouls[0].rule == "9B-5.9"
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=1, obj_rails=(1,)))
    assert not v.fouls


@pytest.mark.rule("9B-5.14", "9B-5.1")
def test_9B_5_14_combination_nine_wins():
    """9B-5.14 / 9B-5.1: a 9 pocketed by combination on a legal shot wins (no call)."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, obj_contacts=[(1, 9)], pocketed={9: 2}))
    assert v.game_over and v.winner == 0 and not v.fouls


# ----------------------------------------------------------------------------- 9B-5.10
@pytest.mark.rule("9B-5.10")
def test_9B_5_10_ball_in_hand_not_frozen():
    """9B-5.10: in hand anywhere but not in contact with an object ball; C-21 option."""
    s = play(cue=None, cue_ball=CueBallPlacement.IN_HAND_ANYWHERE)
    x, y = POS[1]
    with pytest.raises(IllegalActionError, match="frozen"):
        D.apply(s, PlaceCueBall(x + 2 * R, y))
    with pytest.raises(IllegalActionError, match="overlaps"):
        D.apply(s, PlaceCueBall(x + R, y))
    s2, _ = D.apply(s, PlaceCueBall(x + 2 * R + 1e-3, y))
    s2b, _ = D.apply(s2, PlaceCueBall(0.5, 0.5))  # may adjust until the shot
    assert s2b.positions()[0].tolist() == [0.5, 0.5]
    s3 = s.replace(config=NineBallConfig(in_hand_may_touch_ball=True))
    D.apply(s3, PlaceCueBall(x + 2 * R, y))


# ----------------------------------------------------------------------------- 9B-5.11
@pytest.mark.rule("9B-5.11", "G-3.28")
def test_9B_5_11_jumped_object_ball_foul_not_spotted():
    """9B-5.11 / G-3.28 / INF2-9B-10: a jumped object ball is a foul (C-03 default) and
    not respotted; a jumped 9 is respotted."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=3, off_table=(2, 9)))
    assert FoulKind.OBJECT_BALL_OFF_TABLE in kinds(v)
    assert not s2.on_table[2] and s2.on_table[9] and v.spotted == (9,)


@pytest.mark.rule("9B-5.11")
def test_9B_5_11_jumped_object_ball_literal_option():
    """9B-5.11 literal (C-03 ``jumped_ball_is_foul=False``): play continues, no foul."""
    s = play(config=NineBallConfig(jumped_ball_is_foul=False))
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=3, off_table=(2,)))
    assert not v.fouls and not s2.on_table[2] and s2.seat_to_act == 1


# ----------------------------------------------------------------------------- 9B-5.12
def test_9B_5_12_jump_masse_foul_not_modelled():
    """9B-5.12 (HUMAN / SIM if cue modelled): the cue stick is not modelled, so an
    impeding ball can only move through ball contacts, which the normal rules judge:
    a jump over a ball that the cue ball does not touch is legal."""
    s = play()
    jump = ShotAction(V0=4.0, phi=90.0, theta=45.0, b=0.2)
    _, v = D.apply_shot_record(s, jump, record(s, hit=1, cue_rail=3))
    assert not v.fouls


# ----------------------------------------------------------------------------- 9B-5.13
@pytest.mark.rule("9B-5.13", "R-2.16")
def test_9B_5_13_three_consecutive_fouls_lose_with_warning_visible():
    """9B-5.13 / R-2.16 / C-67: the counter is visible after each foul; the third
    consecutive foul loses; a legal shot resets the counter."""
    s = play()
    s1, v1 = D.apply_shot_record(s, SHOT, record(s, hit=2, cue_rail=3))
    assert s1.consecutive_fouls == (1, 0)
    # opponent misses legally, back to seat 0 with ball in position
    s1, _ = D.apply(s1, PlaceCueBall(0.635, 1.0))
    s1, _ = D.apply_shot_record(s1, SHOT, record(s1, hit=1, cue_rail=3))
    assert s1.seat_to_act == 0 and s1.consecutive_fouls == (1, 0)
    s2, _ = D.apply_shot_record(s1, SHOT, record(s1, hit=2, cue_rail=3))
    assert s2.consecutive_fouls == (2, 0)  # the warning state
    s2, _ = D.apply(s2, PlaceCueBall(0.635, 1.0))
    s2, _ = D.apply_shot_record(s2, SHOT, record(s2, hit=1, cue_rail=3))
    s3, v3 = D.apply_shot_record(s2, SHOT, record(s2))
    assert v3.game_over and v3.winner == 1 and any(f.rule == "9B-5.13" for f in v3.fouls)
    assert s3.phase is Phase.GAME_OVER


@pytest.mark.rule("9B-5.13")
def test_9B_5_13_legal_shot_resets_foul_counter():
    """9B-5.13: fouls must be consecutive; a legal shot resets the counter."""
    s = play().replace(consecutive_fouls=(2, 0))
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, cue_rail=3))
    assert s2.consecutive_fouls == (0, 0)


@pytest.mark.rule("9B-5.13")
def test_9B_5_13_three_foul_option_off():
    """9B-5.13 option ``three_foul_loss=False``."""
    s = play(config=NineBallConfig(three_foul_loss=False)).replace(consecutive_fouls=(2, 0))
    s2, v = D.apply_shot_record(s, SHOT, record(s))
    assert not v.game_over and s2.consecutive_fouls == (3, 0)


# ----------------------------------------------------------------------------- 9B-5.14
@pytest.mark.rule("9B-5.14")
def test_9B_5_14_nine_on_foul_does_not_win():
    """9B-5.14: the game ends only on a legal shot that pockets the 9."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={9: 2}))
    assert not v.game_over and s2.on_table[9]


@pytest.mark.rule("9B-5.14")
def test_9B_5_14_acting_after_game_over_raises():
    """9B-5.14: after the game ended no action is legal; state unchanged."""
    s = play()
    s2, v = D.apply_shot_record(s, SHOT, record(s, hit=1, pocketed={9: 2}))
    before = s2.to_json()
    for a in (SHOT, PlaceCueBall(0.5, 0.5), ChooseOption(Option.ACCEPT_TABLE)):
        with pytest.raises(IllegalActionError):
            D.apply(s2, a)
    assert s2.to_json() == before
    assert D.legal_actions(s2).can_shoot is False
