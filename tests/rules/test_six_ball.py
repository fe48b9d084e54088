"""Six-ball referee (poolgym.rules.games.six_ball): scenario tables per rule of six_ball.md."""
import numpy as np
import pytest

from poolgym.rules import ChooseOption, IllegalActionError, Option, Phase, PlaceCueBall, ShotAction
from poolgym.rules.core import CueBallPlacement, FoulKind
from poolgym.rules.game import get_discipline
from poolgym.rules.games.six_ball import SixBallConfig, SixPosition
from poolgym.rules.geometry import ball_radius, get_table, triangle_slots
from poolgym.rules.testing import make_state, record

D = get_discipline("six_ball")
T = get_table("9ft")
SHOT = ShotAction(3.0, 90.0)
LAYOUT = {1: (0.3, 1.5), 2: (0.9, 1.6), 3: (0.5, 2.0), 6: (0.7, 2.2)}


def play(state, **rec):
    return D.apply_shot_record(state, SHOT, record(state, **rec))


def broken(cfg=None, seed=0):
    s = D.initial_state(cfg or SixBallConfig(), seed)
    s, _ = D.apply(s, PlaceCueBall(0.635, 0.4))
    return s


@pytest.mark.rule("6B-3", "6B-4")
@pytest.mark.parametrize("seed", range(4))
def test_rack_rows_1_2_3(seed):
    """6B-3 balls 1-6; 6B-4 rows 1-2-3, the 1 on the foot spot, the 6 in the back-row centre
    (C-25 default), 2-5 in the other slots at random; second_row_random puts the 6 in row 2."""
    s = D.initial_state(SixBallConfig(), seed)
    slots = triangle_slots(T, ball_radius(), 1e-6)
    P = s.positions()
    assert s.n_balls == 7 and s.balls_on_table() == (1, 2, 3, 4, 5, 6) and not s.on_table[0]
    assert np.allclose(P[1], T.foot_spot) and np.allclose(P[6], slots[4])
    assert sorted(int(np.argmin(np.linalg.norm(slots[:6] - P[b], axis=1))) for b in range(1, 7)) == list(range(6))
    s2 = D.initial_state(SixBallConfig(six_position=SixPosition.SECOND_ROW_RANDOM), seed)
    assert any(np.allclose(s2.positions()[6], slots[k]) for k in (1, 2))


@pytest.mark.rule("6B-1", "6B-5", "6B-6")
def test_six_on_a_legal_shot_wins_also_by_carom():
    """6B-1 / 6B-5 / 6B-6: the 1 hit first, the 6 pocketed by carom -> the shooter wins;
    no points are ever awarded."""
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=SixBallConfig())
    s2, v = play(s, hit=1, obj_contacts=((1, 6),), pocketed={6: 5})
    assert v.game_over and v.winner == 0 and "6B-1" in v.rule_refs and s2.scores == (0, 0)


@pytest.mark.rule("6B-8.1", "6B-12", "6B-9")
@pytest.mark.parametrize("kw, kind", [
    (dict(hit=2, pocketed={6: 5}), FoulKind.WRONG_BALL_FIRST),
    (dict(hit=None), FoulKind.NO_BALL_HIT),
    (dict(hit=1), FoulKind.NO_RAIL_AFTER_CONTACT),
], ids=["6B-8.1-bad-hit-6-spotted", "6B-8.1-no-hit", "6B-8.1-no-rail"])
def test_legal_shot_and_foul_penalty(kw, kind):
    """6B-8.1: lowest ball first, then a pot or a cushion, else foul; 6B-12 the next player has
    cue ball in hand anywhere; 6B-9: a 6 pocketed on a foul is spotted (no win)."""
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=SixBallConfig())
    s2, v = play(s, **kw)
    assert [f.kind for f in v.fouls] == [kind] and v.fouls[0].rule == "6B-8.1"
    assert v.next_seat == 1 and s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE and not s2.on_table[0]
    assert not v.game_over and s2.consecutive_fouls == (1, 0)
    if 6 in kw.get("pocketed", {}):
        assert v.spotted == (6,) and s2.on_table[6] and "6B-9" in v.rule_refs


@pytest.mark.rule("6B-9")
def test_coin_op_table_spots_only_the_six():
    """6B-9 / 6B-10 (C-28): balls pocketed on a foul are spotted; on a coin-operated table only
    the 6."""
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=SixBallConfig(coin_op_table=True))
    s2, v = play(s, hit=2, pocketed={6: 5, 3: 2})
    assert v.spotted == (6,) and not s2.on_table[3]
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=SixBallConfig())
    s2, v = play(s, hit=2, pocketed={6: 5, 3: 2})
    assert v.spotted == (3, 6)


@pytest.mark.rule("6B-9")
def test_jumped_ball_spotted_no_penalty():
    """6B-9 / 6B-10 (C-28): a jumped object ball is spotted, no foul (jumped_ball_is_foul False)."""
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=SixBallConfig())
    s2, v = play(s, hit=1, obj_rails=(1,), off_table=(3,))
    assert not v.fouls and v.spotted == (3,) and s2.on_table[3] and v.next_seat == 1


@pytest.mark.rule("6B-11", "6B-12")
def test_scratch_gives_ball_in_hand_anywhere():
    """6B-11: cue ball pocketed -> the opponent has cue ball in hand anywhere."""
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=SixBallConfig())
    s2, v = play(s, hit=1, obj_rails=(1,), scratch=0)
    assert v.fouls[0].kind is FoulKind.SCRATCH and "6B-11" in v.rule_refs
    assert s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE


@pytest.mark.rule("6B-8.2")
def test_legal_pot_continues():
    """6B-8.2: a legally pocketed ball continues the inning (any ball counts, 6B-1)."""
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=SixBallConfig())
    s2, v = play(s, hit=1, pocketed={3: 2})
    assert v.turn_continues and v.next_seat == 0 and v.legal_pocketed == (3,) and "6B-8.2" in v.rule_refs
    s3, v3 = play(s, hit=1, obj_rails=(1,))
    assert not v3.fouls and v3.next_seat == 1 and s3.cue_ball is CueBallPlacement.IN_POSITION


@pytest.mark.rule("6B-8.3")
def test_no_safety_declaration():
    """6B-8.3: a player may not declare a safety (pocket and spot)."""
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=SixBallConfig())
    with pytest.raises(IllegalActionError, match="6B-8.3"):
        D.apply_shot_record(s, ShotAction(3.0, 90.0, safety=True), record(s, hit=1))
    assert not D.legal_actions(s).safety_allowed


@pytest.mark.rule("6B-7")
@pytest.mark.parametrize("option", [Option.CUE_IN_HAND_KITCHEN, Option.RERACK_AND_BREAK])
def test_break_requirement_and_options(option):
    """6B-7: neither an open break (4 balls to a cushion, C-26) nor a pocketed ball -> the
    incoming player chooses: cue ball in hand in the kitchen, or re-rack and break himself."""
    s = broken()
    s2, v = play(s, hit=1, obj_rails=(2, 3))
    assert v.options == (Option.CUE_IN_HAND_KITCHEN, Option.RERACK_AND_BREAK) and v.next_seat == 1
    assert s2.phase is Phase.OPTION and not v.fouls
    s3, v3 = D.apply(s2, ChooseOption(option))
    assert s3.seat_to_act == 1 and "6B-7" in v3.rule_refs
    if option is Option.CUE_IN_HAND_KITCHEN:
        assert s3.phase is Phase.PLAY and s3.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and s3.pos == s2.pos
    else:
        assert s3.phase is Phase.BREAK and s3.breaker == 1 and s3.balls_on_table() == (1, 2, 3, 4, 5, 6)
    # an open break or a pocketed ball is legal
    _, v4 = play(s, hit=1, obj_rails=(2, 3, 4, 5))
    assert not v4.options and v4.next_seat == 1
    _, v5 = play(s, hit=1, pocketed={4: 0})
    assert v5.turn_continues
    _, v6 = play(s, hit=2, obj_rails=(2, 3, 4, 5))  # C-68: the break must hit the 1
    assert v6.fouls[0].kind is FoulKind.WRONG_BALL_FIRST
    _, v7 = play(s, hit=1, pocketed={6: 3})
    assert v7.winner == 0


@pytest.mark.rule("6B-2", "6B-12")
def test_three_players_and_three_fouls():
    """6B-2 more than two players rotate; 6B-12 / 6B-8.4 (C-27): the third consecutive foul
    loses -- with three seats the offender is out and the others play on."""
    cfg = SixBallConfig(n_players=3)
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=cfg, consecutive_fouls=(0, 2, 0), seat=1)
    s2, v = play(s, hit=None)
    assert v.fouls[-1].kind is FoulKind.THIRD_CONSECUTIVE_FOUL and not v.game_over
    assert s2.active == (True, False, True) and v.next_seat == 2
    s3 = s2.replace(seat_to_act=2, consecutive_fouls=(2, 3, 2), cue_ball=CueBallPlacement.IN_POSITION,
                    on_table=(True,) + s2.on_table[1:], pos=(0.3, 0.8) + s2.pos[2:])
    _, v3 = play(s3, hit=None)
    assert v3.game_over and v3.winner == 0
    # two players: the opponent wins
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=SixBallConfig(), consecutive_fouls=(2, 0))
    _, v = play(s, hit=None)
    assert v.game_over and v.winner == 1 and "6B-12" in v.rule_refs
    # a miss passes to the next of three seats
    s = make_state("six_ball", LAYOUT, cue=(0.3, 0.8), config=cfg, seat=2)
    _, v = play(s, hit=1, obj_rails=(1,))
    assert v.next_seat == 0
