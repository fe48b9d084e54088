"""Honolulu referee (poolgym.rules.games.honolulu): scenario tables per rule of honolulu.md."""
import numpy as np
import pytest

from poolgym.rules import IllegalActionError, Phase, PlaceCueBall, ShotAction
from poolgym.rules.core import CueBallPlacement
from poolgym.rules.game import get_discipline
from poolgym.rules.games.honolulu import DirectPots, HonoluluConfig, HonoluluExtra, MultiCallShot
from poolgym.rules.geometry import Rail, ball_radius, cushion_pockets, get_table, segment_for_rail, triangle_slots
from poolgym.rules.testing import make_state, record

D = get_discipline("honolulu")
T = get_table("9ft")
LB, LC, LT, RB, RC, RT = range(6)
BALLS = {4: (0.3, 1.5), 7: (0.9, 1.6), 9: (0.5, 2.0), 12: (0.7, 2.2), 15: (1.0, 0.9)}


def st(cfg=None, **kw):
    return make_state("honolulu", BALLS, cue=(0.6, 0.8), config=cfg or HonoluluConfig(), **kw)


def call(ball, pocket, **kw):
    return ShotAction(3.0, 90.0, called_ball=ball, called_pocket=pocket, **kw)


def play(s, action, **rec):
    return D.apply_shot_record(s, action, record(s, **rec))


@pytest.mark.rule("HO-2", "HO-3", "HO-4")
def test_rack_and_players():
    """HO-2 two players (others rejected); HO-3 balls 1-15; HO-4 a random standard triangle."""
    s = D.initial_state(HonoluluConfig(), 3)
    slots = triangle_slots(T, ball_radius(), 1e-6)
    P = s.positions()
    assert s.balls_on_table() == tuple(range(1, 16)) and s.n_players == 2
    assert sorted(int(np.argmin(np.linalg.norm(slots - P[b], axis=1))) for b in range(1, 16)) == list(range(15))
    assert not np.allclose(P[1:], D.initial_state(HonoluluConfig(), 4).positions()[1:])
    with pytest.raises(ValueError):
        HonoluluConfig(n_players=3)


@pytest.mark.rule("HO-6")
@pytest.mark.parametrize("rec, scores", [
    (dict(hit=4, obj_rails=(4,), obj_rail=Rail.FOOT, pocketed={4: LB}), True),     # bank
    (dict(hit=7, obj_contacts=((7, 4),), pocketed={4: LB}), True),                 # combination
    (dict(hit=4, obj_contacts=((4, 9),), pocketed={4: LB}), True),                 # carom (kiss)
    (dict(hit=4, pocketed={4: LB}), False),                                        # straight in (C-50)
    (dict(hit=4, obj_rails=(4,), obj_rail=Rail.FOOT, pocketed={4: LT}), False),    # wrong pocket
], ids=["HO-6-bank", "HO-6-combination", "HO-6-carom", "HO-6-direct-C-50", "HO-6-wrong-pocket"])
def test_called_ball_counts_only_indirect(rec, scores):
    """HO-6: a called ball counts when it drops in its called pocket by a bank, a combination,
    a carom or a kick; a straight-in pot does not score (C-50) and the ball is spotted at the
    end of the inning; the inning ends."""
    s = st()
    s2, v = play(s, call(4, LB), **rec)
    assert "HO-6" in v.rule_refs and not v.fouls
    if scores:
        assert v.legal_pocketed == (4,) and s2.scores == (1, 0) and v.turn_continues and s2.extra.scored == ((4,), ())
    else:
        assert s2.scores == (0, 0) and v.next_seat == 1 and 4 in v.spotted and s2.on_table[4]


def test_direct_pots_option_scores():
    """C-50 ``direct_pots=score``: a straight-in pot of the called ball scores."""
    s = st(HonoluluConfig(direct_pots=DirectPots.SCORE))
    s2, v = play(s, call(4, LB), hit=4, pocketed={4: LB})
    assert s2.scores == (1, 0) and v.turn_continues


@pytest.mark.rule("HO-7")
@pytest.mark.parametrize("rails, connected, scores", [
    ((Rail.LEFT,), True, False),   # a pocket at an end of the left rail section
    ((Rail.LEFT,), False, True),   # the rb corner is not connected with it
    ((Rail.LEFT, Rail.FOOT), True, True),  # two cushions before the contact
], ids=["HO-7-connected", "HO-7-unconnected", "HO-7-two-cushions"])
def test_kick_off_a_cushion_connected_with_the_pocket(rails, connected, scores):
    """HO-7: a kick counts only off a cushion not connected with the called pocket, or off two
    or more cushions."""
    linked = np.flatnonzero(cushion_pockets(T)[segment_for_rail(T, Rail.LEFT)])
    assert len(linked) == 2 and RB not in linked
    pocket = int(linked[0]) if connected else RB
    s = st()
    s2, v = play(s, call(4, pocket), kick_rails=rails, hit=4, pocketed={4: pocket})
    assert (s2.scores == (1, 0)) is scores
    if not scores:
        assert "HO-7" in v.rule_refs and v.next_seat == 1


@pytest.mark.rule("HO-6")
def test_several_called_balls_all_or_nothing():
    """HO-6 / C-20: several balls may be called; all must drop in their pockets or none counts
    (the others are spotted, the inning ends); uncalled balls are spotted at the end of the
    inning, not while it lasts."""
    s = st()
    two = MultiCallShot(3.0, 90.0, called_ball=4, called_pocket=LB, more_calls=((9, RT),))
    s2, v = play(s, two, hit=7, obj_contacts=((7, 4), (7, 9)), pocketed={4: LB, 9: RT, 12: LC})
    assert s2.scores == (2, 0) and v.turn_continues and s2.extra.pending == (12,) and not s2.on_table[12]
    s3, v3 = play(s, two, hit=7, obj_contacts=((7, 4), (7, 9)), pocketed={4: LB})
    assert s3.scores == (0, 0) and v3.next_seat == 1 and v3.spotted == (4,)
    # the inning ends on a miss: the pending ball is spotted then
    s4, v4 = play(s2, call(7, RC), hit=7, obj_rails=(7,))
    assert 12 in v4.spotted and s4.on_table[12] and s4.extra.pending == ()
    with pytest.raises(IllegalActionError):
        play(s, ShotAction(3.0, 90.0), hit=4, obj_rails=(4,))  # no call
    with pytest.raises(IllegalActionError):
        play(s, MultiCallShot(3.0, 90.0, called_ball=4, called_pocket=LB, more_calls=((4, RT),)), hit=4)
    with pytest.raises(IllegalActionError):
        play(st(HonoluluConfig(max_called_balls=1)), two, hit=4)


@pytest.mark.rule("HO-5")
def test_first_to_eight():
    """HO-5: the player who reaches 8 points wins."""
    s = st(scores=(7, 5), extra=HonoluluExtra(scored=((1, 2, 3, 5, 6, 8, 10), (11, 13, 14, 0, 0)[:3])))
    s2, v = play(s, call(4, LB), hit=4, obj_rails=(4,), obj_rail=Rail.FOOT, pocketed={4: LB})
    assert v.game_over and v.winner == 0 and s2.scores == (8, 5) and "HO-5" in v.rule_refs


@pytest.mark.rule("HO-8")
def test_break_requirement_and_owed_point():
    """HO-8: the break pockets a called ball or drives two object balls to a cushion; otherwise
    the breaker is charged a penalty point (owed, nothing to spot yet) and the opponent must
    accept the table; the owed point takes his next legally pocketed ball (spotted)."""
    s = D.apply(D.initial_state(HonoluluConfig(), 0), PlaceCueBall(0.635, 0.4))[0]
    s2, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, obj_rails=(2,)))
    assert s2.extra.owed == (1, 0) and v.next_seat == 1 and s2.phase is Phase.PLAY and not v.options
    assert s2.cue_ball is CueBallPlacement.IN_POSITION and "HO-8" in v.rule_refs
    _, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, obj_rails=(2, 3)))
    assert v.next_seat == 1 and not v.fouls
    s3, v = D.apply_shot_record(s, ShotAction(8.0, 90.0, called_ball=5, called_pocket=RT),
                                record(s, hit=1, pocketed={5: RT}))
    assert s3.scores == (1, 0) and v.turn_continues
    # the owed point: the next counted ball is spotted instead of scored
    s4 = st(extra=HonoluluExtra(owed=(1, 0)))
    s5, v5 = play(s4, call(4, LB), hit=4, obj_rails=(4,), obj_rail=Rail.FOOT, pocketed={4: LB})
    assert s5.scores == (0, 0) and s5.extra.owed == (0, 0) and v5.turn_continues and s5.extra.pending == (4,)


@pytest.mark.rule("HO-9", "HO-8")
def test_foul_penalty_point_defaults():
    """HO-9 (empty; C-51): a foul costs one point -- the offender's last scored ball is spotted,
    or he owes one; a scratch gives cue ball in hand behind the head string, other fouls the
    table as it lies; balls pocketed on the foul are spotted."""
    s = st(scores=(2, 0), extra=HonoluluExtra(scored=((3, 5), ())))
    s2, v = play(s, call(4, LB), hit=4, obj_rails=(4,), pocketed={9: RC}, scratch=LT)
    assert v.fouls and s2.scores == (1, 0) and s2.extra.scored == ((3,), ()) and set(v.spotted) == {5, 9}
    assert s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and v.next_seat == 1
    s3, v3 = play(st(), call(4, LB), hit=4)  # no rail: owes one, the opponent takes the table
    assert s3.extra.owed == (1, 0) and s3.cue_ball is CueBallPlacement.IN_POSITION and v3.next_seat == 1


def test_safety_declaration():
    """A declared safety carries no call and ends the inning (HO-8's legal safety)."""
    s = st()
    s2, v = play(s, ShotAction(2.0, 90.0, safety=True), hit=4, obj_rails=(4,))
    assert not v.fouls and v.next_seat == 1
    with pytest.raises(IllegalActionError):
        play(s, call(4, LB, safety=True), hit=4, obj_rails=(4,))
