"""Cowboy referee (poolgym.rules.games.cowboy): scenario tables per rule of cowboy.md."""
import numpy as np
import pytest

from poolgym.rules import ChooseOption, IllegalActionError, Option, Phase, PlaceCueBall, ShotAction
from poolgym.rules.core import CueBallPlacement, FoulKind
from poolgym.rules.game import get_discipline
from poolgym.rules.games.cowboy import CowboyConfig, CowboyExtra, CueAfterScratch, Overshoot100, home_spots
from poolgym.rules.geometry import get_table
from poolgym.rules.testing import make_state, record

D = get_discipline("cowboy")
T = get_table("9ft")
HOME = home_spots(T)
CUE = (0.3, 0.9)


def at(score, cfg=None, seat=0, start=None, balls=None, **kw):
    """Seat ``seat`` to shoot with ``score`` (inning started at ``start``), balls on their spots."""
    scores = [0] * (cfg.n_players if cfg else 2)
    scores[seat] = score
    return make_state("cowboy", balls or HOME, cue=CUE, config=cfg or CowboyConfig(), seat=seat,
                      scores=tuple(scores), extra=CowboyExtra(score if start is None else start), **kw)


def play(s, called_pocket=None, **rec):
    return D.apply_shot_record(s, ShotAction(3.0, 80.0, called_pocket=called_pocket), record(s, **rec))


@pytest.mark.rule("CW-3", "CW-4", "CW-1")
def test_setup_1_3_5_on_the_spots():
    """CW-3 / CW-4: the 1 on the head spot, the 3 on the foot spot, the 5 on the centre spot;
    the opening shot from the kitchen (CW-5)."""
    s = D.initial_state(CowboyConfig(), 0)
    P = s.positions()
    assert s.balls_on_table() == (1, 3, 5)
    assert np.allclose(P[1], T.head_spot) and np.allclose(P[3], T.foot_spot) and np.allclose(P[5], T.center_spot)
    assert s.phase is Phase.BREAK and s.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    assert D.legal_actions(s).must_place


@pytest.mark.rule("CW-5")
@pytest.mark.parametrize("option, shooter", [(Option.OPPONENT_REBREAKS, 0), (Option.BREAK, 1)])
def test_opening_shot_must_hit_the_3(option, shooter):
    """CW-5: the opening shot must contact the 3 first; else the opponent demands a repeat or
    takes the opening shot himself (balls set up again)."""
    s = D.apply(D.initial_state(CowboyConfig(), 0), PlaceCueBall(0.3, 0.4))[0]
    s2, v = D.apply_shot_record(s, ShotAction(3.0, 80.0), record(s, hit=5, obj_rails=(5,)))
    assert v.options == (Option.OPPONENT_REBREAKS, Option.BREAK) and v.next_seat == 1 and "CW-5" in v.rule_refs
    s3, v3 = D.apply(s2, ChooseOption(option))
    assert s3.seat_to_act == shooter and s3.phase is Phase.BREAK and s3.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    assert np.allclose(s3.positions()[[1, 3, 5]], [HOME[1], HOME[3], HOME[5]])
    # hitting the 3 first is a normal scoring shot
    s4, v4 = D.apply_shot_record(s, ShotAction(3.0, 80.0), record(s, hit=(3, 5), obj_rails=(3,)))
    assert v4.points == (1, 0) and v4.turn_continues


@pytest.mark.rule("CW-5")
@pytest.mark.parametrize("rec, pts", [
    (dict(hit=(3, 5), obj_rails=(3,)), 1),                       # carom on two balls
    (dict(hit=(1, 3, 5), obj_rails=(3,)), 2),                    # carom on all three
    (dict(hit=3, pocketed={3: 5}), 3),                           # the 3 pocketed
    (dict(hit=(1, 3, 5), pocketed={1: 0, 3: 5, 5: 1}), 11),      # 9 + 2: the most on one shot
    (dict(hit=(5, 5, 1), obj_rails=(5,)), 1),                    # a ball touched twice counts once
], ids=["CW-5-carom-2", "CW-5-carom-3", "CW-5-pot", "CW-5-eleven", "CW-5-repeat-contact"])
def test_scoring_pots_and_caroms(rec, pts):
    """CW-5: a pocketed ball scores its number, a carom on two balls 1, on three 2, added."""
    s = at(10)
    s2, v = play(s, **rec)
    assert not v.fouls and v.points == (pts, 0) and s2.scores == (10 + pts, 0) and v.turn_continues


@pytest.mark.rule("CW-6", "CW-7", "CW-6.1", "CW-6.3")
def test_respot_on_home_spots_and_held_balls():
    """CW-6.3: after every shot pocketed balls go back to their own spots; a ball whose spot is
    occupied stays out until it is free; CW-6.1 a scoring shot continues the inning."""
    s = at(10)
    s2, v = play(s, hit=3, pocketed={3: 5}, moves={0: HOME[3]})  # the cue ball stops on the 3's spot
    assert v.points == (3, 0) and v.turn_continues and "CW-6.1" in v.rule_refs
    assert not s2.on_table[3] and s2.extra.held == (3,) and v.spotted == ()
    s3, v3 = play(s2, hit=5, obj_rails=(5,), moves={0: (0.3, 1.9)})
    assert v3.spotted == (3,) and s3.on_table[3] and np.allclose(s3.positions()[3], HOME[3])
    assert not v3.turn_continues and v3.next_seat == 1  # no points: the inning ends


@pytest.mark.rule("CW-6", "CW-10", "CW-6.2")
def test_no_rail_after_contact_cancels_the_inning():
    """CW-6.2: after the contact a ball must reach a cushion, else foul; CW-10: no points are
    deducted but the inning's points are cancelled; the next player accepts the table."""
    s = at(25, start=15)
    s2, v = play(s, hit=3)
    assert v.fouls[0].rule == "CW-6.2" and s2.scores == (15, 0) and v.points == (-10, 0)
    assert v.next_seat == 1 and s2.cue_ball is CueBallPlacement.IN_POSITION and "CW-10" in v.rule_refs


@pytest.mark.rule("CW-6", "CW-10", "CW-6.4")
def test_exactly_90():
    """CW-6.4: a shot going past 90 is a foul (inning cancelled); landing on 90 is fine."""
    s = at(88, start=80)
    s2, v = play(s, hit=3, pocketed={3: 5})
    assert v.fouls[0].kind is FoulKind.OVERSCORE and v.fouls[0].rule == "CW-6.4" and s2.scores == (80, 0)
    s = at(87)
    s2, v = play(s, hit=3, pocketed={3: 5})
    assert not v.fouls and s2.scores == (90, 0)


@pytest.mark.rule("CW-6", "CW-6.5")
def test_91_to_100_caroms_only_and_overshoot():
    """CW-6.5: from 90 only caroms score, a pocketed ball is a foul; C-38: caroms past 100 are
    a foul (``cap_at_100``: capped)."""
    s = at(95)
    s2, v = play(s, hit=(3, 5), pocketed={5: 1})
    assert v.fouls[0].kind is FoulKind.POT_NOT_ALLOWED and v.fouls[0].rule == "CW-6.5"
    s2, v = play(s, hit=(1, 3, 5), obj_rails=(3,))
    assert not v.fouls and s2.scores == (97, 0)
    s = at(99)
    _, v = play(s, hit=(1, 3, 5), obj_rails=(3,))
    assert v.fouls[0].kind is FoulKind.OVERSCORE and v.fouls[0].rule == "CW-6.5"
    s = at(99, cfg=CowboyConfig(overshoot_100=Overshoot100.CAP_AT_100))
    s2, v = play(s, hit=(1, 3, 5), obj_rails=(3,))
    assert not v.fouls and s2.scores == (100, 0)


@pytest.mark.rule("CW-6", "CW-5", "CW-6.6", "CW-6.7")
def test_the_101st_point():
    """CW-6.6 / CW-5: at 100 the pocket is called; the cue ball caroms off the 1 into it
    touching nothing else -> 101, game over; CW-6.7 that scratch is no foul."""
    s = at(100)
    assert D.legal_actions(s).call_required and D.legal_actions(s).target_balls == (1,)
    with pytest.raises(IllegalActionError, match="CW-6.6"):
        play(s, hit=1, scratch=2)
    s2, v = play(s, called_pocket=2, hit=1, scratch=2)
    assert v.game_over and v.winner == 0 and s2.scores == (101, 0) and not v.fouls and "CW-6.7" in v.rule_refs


@pytest.mark.rule("CW-6", "CW-10", "CW-6.6")
@pytest.mark.parametrize("rec, rule, kind", [
    (dict(hit=1, scratch=5), "CW-6.6", FoulKind.SCRATCH),                 # uncalled pocket
    (dict(hit=(1, 3), scratch=2), "CW-6.6", FoulKind.CUE_BALL_TOUCHED_OTHER),
    (dict(hit=3, obj_rails=(3,)), "CW-6.6", FoulKind.WRONG_BALL_FIRST),   # missed the 1
    (dict(hit=1), "CW-6.2", FoulKind.NO_RAIL_AFTER_CONTACT),
], ids=["CW-6.6-uncalled", "CW-6.6-other-ball", "CW-6.6-missed-1", "CW-6.2-at-100"])
def test_fouls_at_100(rec, rule, kind):
    """CW-6.6: at 100 a foul if the cue ball drops in an uncalled pocket, touches another ball
    or misses the 1 (CW-10: the inning's points go)."""
    s = at(100, start=98)
    s2, v = play(s, called_pocket=2, **rec)
    assert (kind, rule) in [(f.kind, f.rule) for f in v.fouls] and not v.game_over and s2.scores == (98, 0)


@pytest.mark.rule("CW-6", "CW-10", "CW-6.7")
@pytest.mark.parametrize("cfg, cue", [(CowboyConfig(), CueBallPlacement.IN_HAND_KITCHEN),
                                      (CowboyConfig(cue_after_scratch=CueAfterScratch.ANYWHERE),
                                       CueBallPlacement.IN_HAND_ANYWHERE)])
def test_scratch_is_a_foul(cfg, cue):
    """CW-6.7 a scratch before 100 is a foul; CW-9 (empty, C-37): the next player has cue ball
    in hand behind the head string (option: anywhere); the ball pocketed on it is re-spotted
    on its spot (CW-7, no further penalty)."""
    s = at(20, cfg=cfg, start=14)
    s2, v = play(s, hit=3, pocketed={3: 5}, scratch=4)
    assert v.fouls[0].rule == "CW-6.7" and s2.cue_ball is cue and s2.scores == (14, 0)
    assert v.spotted == (3,) and np.allclose(s2.positions()[3], HOME[3]) and "CW-7" in v.rule_refs


@pytest.mark.rule("CW-8")
def test_jumped_balls_spotted_no_penalty():
    """CW-8: a jumped object ball is re-spotted on its spot, no penalty."""
    s = at(20)
    s2, v = play(s, hit=(3, 5), obj_rails=(3,), off_table=(5,))
    assert not v.fouls and v.spotted == (5,) and "CW-8" in v.rule_refs and s2.scores == (21, 0)


@pytest.mark.rule("CW-6", "CW-2", "CW-6.8")
def test_three_fouls_and_more_players():
    """CW-6.8: three consecutive fouls lose; CW-2 any number of players: with three the
    offender is out, the next seat plays on."""
    cfg = CowboyConfig(n_players=3)
    s = at(5, cfg=cfg, seat=0, consecutive_fouls=(2, 0, 0))
    s2, v = play(s, hit=None)
    assert v.fouls[-1].rule == "CW-6.8" and not v.game_over and s2.active == (False, True, True) and v.next_seat == 1
    s = at(5, consecutive_fouls=(2, 0))
    _, v = play(s, hit=None)
    assert v.game_over and v.winner == 1 and "CW-6.8" in v.rule_refs


@pytest.mark.rule("CW-6", "CW-6.3")
def test_incoming_player_at_100_with_the_1_held_out():
    """CW-6.3: the incoming player on 100 whose 1-spot is occupied (the 1 waiting to be
    spotted) gets all balls set up again and cue ball in hand behind the head string."""
    s = at(40).replace(scores=(40, 100))
    s2, v = play(s, hit=(1, 3), pocketed={1: 0}, moves={3: HOME[1]}, obj_rails=(3,))
    assert v.points == (1 + 1, 0) and v.turn_continues and s2.extra.held == (1,)  # the 3 sits on the 1's spot
    s4, v4 = play(s2, hit=5, obj_rails=(5,))  # a miss hands the table to seat 1, on 100
    assert v4.next_seat == 1 and s4.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    assert np.allclose(s4.positions()[[1, 3, 5]], [HOME[1], HOME[3], HOME[5]]) and s4.extra.held == ()


@pytest.mark.rule("CW-6", "CW-6.4", "CW-6.5")
def test_useful_balls_keep_exactly_90():
    """useful_balls: below 90 the balls that keep the score at most 90 (CW-6.4); from 90 none
    (CW-6.5)."""
    assert D.useful_balls(at(86), 0) == (1, 3)
    assert D.useful_balls(at(92), 0) == ()
