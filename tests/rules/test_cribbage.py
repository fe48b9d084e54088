"""Cribbage referee (poolgym.rules.games.cribbage): scenario tables per rule of cribbage.md."""
import numpy as np
import pytest

from poolgym.rules import ChooseOption, IllegalActionError, Option, Phase, PlaceCueBall, ShotAction
from poolgym.rules.core import CueBallPlacement, FoulKind
from poolgym.rules.game import get_discipline
from poolgym.rules.games.cribbage import CORNER_SLOTS, CribbageConfig, CribbageExtra
from poolgym.rules.geometry import ball_radius, get_table, triangle_slots
from poolgym.rules.testing import make_state, record

D = get_discipline("cribbage")
T = get_table("9ft")
BALLS = {1: (0.3, 1.5), 14: (0.9, 1.6), 6: (0.5, 2.0), 9: (0.7, 2.2), 15: (1.0, 0.9), 2: (0.2, 2.3)}
SHOT = ShotAction(3.0, 90.0)


def st(cfg=None, balls=BALLS, **kw):
    return make_state("cribbage", balls, cue=(0.6, 0.8), config=cfg or CribbageConfig(), **kw)


def play(s, action=SHOT, **rec):
    return D.apply_shot_record(s, action, record(s, **rec))


@pytest.mark.rule("CR-3", "CR-4")
@pytest.mark.parametrize("seed", range(6))
def test_rack_15_centre_corners_never_fifteen(seed):
    """CR-3 balls 1-15; CR-4 the 15 in the centre, no two corner balls sum to fifteen."""
    s = D.initial_state(CribbageConfig(), seed)
    slots = triangle_slots(T, ball_radius(), 1e-6)
    P = s.positions()
    at = {int(np.argmin(np.linalg.norm(slots - P[b], axis=1))): b for b in range(1, 16)}
    assert sorted(at) == list(range(15)) and at[4] == 15
    corners = [at[k] for k in CORNER_SLOTS]
    assert 15 not in corners and all(a + b != 15 for a in corners for b in corners if a != b)


@pytest.mark.rule("CR-6", "CR-7", "CR-9", "CR-9.2")
def test_pair_in_one_shot_scores_and_continues():
    """CR-6 / CR-7: two legally pocketed balls summing to fifteen are one cribbage, one point;
    CR-9.2 the shooter continues."""
    s2, v = play(st(), hit=1, pocketed={1: 2, 14: 5})
    assert s2.scores == (1, 0) and v.points == (1, 0) and v.turn_continues and s2.extra.pairs == (1,)
    assert "CR-9.2" in v.rule_refs and "CR-7" in v.rule_refs


@pytest.mark.rule("CR-9", "CR-9.1", "CR-9.4")
def test_pair_obligation_next_shot():
    """CR-9.1: a single pocketed ball obliges the next shot to pocket its partner: doing so
    scores; failing is a foul (UNCLOSED_PAIR) and the single is spotted (CR-9.4, C-58)."""
    s2, v = play(st(), hit=6, pocketed={6: 2})
    assert s2.extra.open == (6,) and v.turn_continues and s2.scores == (0, 0)
    assert D.legal_actions(s2).callable_balls == (9,)
    s3, v3 = play(s2, ShotAction(3.0, 90.0, called_ball=9, called_pocket=1), hit=9, pocketed={9: 1})
    assert s3.scores == (1, 0) and s3.extra.open == ()
    s4, v4 = play(s2, hit=1, pocketed={1: 0})
    assert (FoulKind.UNCLOSED_PAIR, "CR-9.1") in [(f.kind, f.rule) for f in v4.fouls]
    assert set(v4.spotted) == {1, 6} and s4.on_table[6] and "CR-9.4" in v4.rule_refs
    with pytest.raises(IllegalActionError):
        play(s2, ShotAction(3.0, 90.0, safety=True), hit=9)


@pytest.mark.rule("CR-9", "CR-9.3")
def test_several_open_pairs_any_order():
    """CR-9.3: several unpaired balls -- the shooter picks which partner he plays, and must go
    on closing them; a shot closing one of them is legal."""
    s2, v = play(st(), hit=1, pocketed={1: 0, 6: 2})
    assert s2.extra.open == (1, 6) and D.legal_actions(s2).callable_balls == (9, 14)
    s3, v3 = play(s2, hit=9, pocketed={9: 3})
    assert not v3.fouls and s3.scores == (1, 0) and s3.extra.open == (1,) and v3.turn_continues
    s4, v4 = play(s3, hit=2, obj_rails=(2,))  # a miss with an open pair: foul, the 1 spotted
    assert v4.fouls and 1 in v4.spotted


@pytest.mark.rule("CR-9", "CR-9.7")
def test_early_fifteen_spotted_and_last_fifteen_counts():
    """CR-9.7: the 15 pocketed while pair balls remain is spotted after the shot; CR-6 once all
    seven pairs are down the 15 alone is a cribbage."""
    s2, v = play(st(), hit=15, pocketed={15: 0})
    assert v.spotted == (15,) and s2.on_table[15] and "CR-9.7" in v.rule_refs and s2.scores == (0, 0)
    last = st(balls={15: (1.0, 0.9)}, scores=(4, 3), extra=CribbageExtra(pairs=(1, 2, 3, 4, 5, 6, 7)))
    s3, v3 = play(last, hit=15, pocketed={15: 0})
    assert s3.scores == (5, 3) and v3.game_over and v3.winner == 0


@pytest.mark.rule("CR-5")
def test_first_to_five():
    """CR-5: five cribbages win."""
    s2, v = play(st(scores=(4, 2)), hit=1, pocketed={1: 2, 14: 5})
    assert v.game_over and v.winner == 0 and "CR-5" in v.rule_refs


@pytest.mark.rule("CR-8")
@pytest.mark.parametrize("option, breaker", [(Option.OPPONENT_REBREAKS, 0), (Option.RERACK_AND_BREAK, 1)])
def test_open_break_and_options(option, breaker):
    """CR-8: without an open break (C-26: four balls to a cushion) the incoming player makes the
    offender re-rack and break again, or breaks himself; a ball pocketed on the break
    continues the inning."""
    s = D.apply(D.initial_state(CribbageConfig(), 0), PlaceCueBall(0.635, 0.4))[0]
    s2, v = play(s, hit=1, obj_rails=(2, 3))
    assert v.options == (Option.OPPONENT_REBREAKS, Option.RERACK_AND_BREAK) and v.fouls[0].rule == "CR-8"
    s3, _ = D.apply(s2, ChooseOption(option))
    assert s3.phase is Phase.BREAK and s3.seat_to_act == breaker and s3.balls_on_table() == tuple(range(1, 16))
    _, v4 = play(s, hit=1, pocketed={3: 0})
    assert v4.turn_continues
    _, v5 = play(s, hit=1, obj_rails=(2, 3, 4, 5))
    assert not v5.options and v5.next_seat == 1


@pytest.mark.rule("CR-9", "CR-9.5")
def test_legal_shot_pocket_or_rail():
    """CR-9.5: the cue ball must hit a ball, then a pot or a cushion, else foul."""
    _, v = play(st(), hit=1)
    assert v.fouls[0].kind is FoulKind.NO_RAIL_AFTER_CONTACT and v.fouls[0].rule == "CR-9.5"
    _, v = play(st(), hit=None)
    assert v.fouls[0].rule == "CR-9.5"


@pytest.mark.rule("CR-13")
@pytest.mark.parametrize("option", [Option.ACCEPT_TABLE, Option.CUE_IN_HAND_KITCHEN])
def test_foul_options(option):
    """CR-13: a foul ends the inning, costs no points; the incoming player accepts the table or
    takes cue ball in hand behind the head string."""
    s2, v = play(st(scores=(2, 1)), hit=1)
    assert v.options == (Option.ACCEPT_TABLE, Option.CUE_IN_HAND_KITCHEN) and s2.scores == (2, 1)
    s3, _ = D.apply(s2, ChooseOption(option))
    assert s3.phase is Phase.PLAY and s3.seat_to_act == 1
    assert (s3.cue_ball is CueBallPlacement.IN_HAND_KITCHEN) is (option is Option.CUE_IN_HAND_KITCHEN)


@pytest.mark.rule("CR-12")
def test_scratch_in_hand_kitchen():
    """CR-12: scratch -> the opponent shoots with cue ball in hand from the kitchen."""
    s2, v = play(st(), hit=1, obj_rails=(1,), scratch=3)
    assert s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and s2.phase is Phase.PLAY and "CR-12" in v.rule_refs


@pytest.mark.rule("CR-10", "CR-11")
def test_illegal_and_jumped_balls_spotted():
    """CR-10: balls pocketed on a foul are spotted, no further penalty; CR-11 a jumped object
    ball is spotted and the shot is a foul."""
    s2, v = play(st(), hit=1, pocketed={6: 1}, scratch=2)
    assert v.spotted == (6,) and "CR-10" in v.rule_refs and s2.scores == (0, 0)
    s3, v3 = play(st(), hit=1, obj_rails=(1,), off_table=(9,))
    assert v3.fouls[0].rule == "CR-11" and v3.spotted == (9,) and s3.on_table[9]


@pytest.mark.rule("CR-9", "CR-9.6", "CR-9.8")
def test_three_fouls_lose_and_kitchen_spot_request():
    """CR-9.6 three consecutive fouls lose; CR-9.8 in hand behind the head string with every
    object ball behind it, the nearest ball to the head string may be spotted."""
    _, v = play(st(consecutive_fouls=(2, 0)), hit=None)
    assert v.game_over and v.winner == 1 and "CR-9.6" in v.rule_refs
    s = make_state("cribbage", {3: (0.3, 0.3), 12: (0.8, 0.5)}, config=CribbageConfig(),
                   cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert Option.SPOT_NEAREST_KITCHEN_BALL in D.legal_actions(s).options
    s2, v2 = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    assert v2.spotted == (12,) and np.allclose(s2.positions()[12], T.foot_spot)


@pytest.mark.rule("CR-9", "CR-9.1", "CR-9.7")
def test_useful_balls_are_the_owed_partners():
    """The rules tell agents which balls serve (DisciplineBase.useful_balls): the partners of
    the open balls (CR-9.1), else the pair balls (CR-9.7 spots an early 15)."""
    s2, _ = play(st(), hit=6, pocketed={6: 2})
    assert D.useful_balls(s2, 0) == (9,)
    assert D.useful_balls(st(), 0) == (1, 2, 6, 9, 14)
