"""Jumped balls and jump shots from real strokes (the three-dimensional physics, ``airborne``):
every game's ruling on an object ball or the cue ball that leaves the table (G-3.28 and each
game's own rule), a legal jump over a blocking ball (G-3.27) and the illegal scoop (G-3.26).

The positions are fixed and the strokes played with the physics the referee uses by default
(`poolgym.rules.game.simulate_record`); each test first checks that the physics really sent
the ball off the table (``Motion.OFF_TABLE`` in the record, with its LEAVE_TABLE event), then
the ruling of the rules file.
"""
from __future__ import annotations

import pytest

from poolgym.rules import CueBallPlacement, FoulKind, ShotAction
from poolgym.rules.game import get_discipline, simulate_record
from poolgym.rules.shot_record import EventKind, Motion
from poolgym.rules.testing import make_state

KITCHEN, ANYWHERE = CueBallPlacement.IN_HAND_KITCHEN, CueBallPlacement.IN_HAND_ANYWHERE
W2 = 0.635  # the long string of the 9 ft table
FAR = {2: (0.3, 2.0), 3: (0.9, 2.1)}

# An object ball near the head rail, hit with a 20-degree jump stroke from 0.15 m: the cue
# ball lands on it and drives it over the head rail; the cue ball stays on the table.
OBJ_OFF = ({1: (W2, 0.15), **FAR}, (W2, 0.30), dict(V0=8.0, phi=270.0, theta=20.0))
# A hard, steep jump stroke straight at the head rail from near it: the cue ball clears it.
CUE_OFF = ({1: (0.3, 1.5), **FAR}, (W2, 0.40), dict(V0=5.0, phi=270.0, theta=60.0))


def _stroke(d, s, kw):
    spec = d.legal_actions(s)
    call = dict(called_ball=1, called_pocket=0) if (spec.call_required or spec.callable_balls) else {}
    return ShotAction(**kw, **call)


def _play(name, layout):
    balls, cue, kw = layout
    d = get_discipline(name)
    s = make_state(name, balls, cue)
    a = _stroke(d, s, kw)
    rec = simulate_record(s, a)
    return d, s, a, rec


def _left(rec, ball):
    """The physics sent ``ball`` off the table: OFF_TABLE, no pocket, a LEAVE_TABLE event."""
    leave = [int(i) for k, i in zip(rec.ev_kind, rec.ev_i) if int(k) == int(EventKind.LEAVE_TABLE)]
    return int(rec.s1[ball]) == int(Motion.OFF_TABLE) and int(rec.pocket[ball]) == -1 and ball in leave


R = pytest.mark.rule
# game: (foul called, ball spotted) for a jumped object ball, read from the game's rules file
OBJECT_CASES = [
    pytest.param("nine_ball", True, False, marks=R("9B-5.11", "G-3.28")),    # foul (C-03), not spotted
    pytest.param("eight_ball", True, False, marks=R("8B-4.17")),             # foul, not spotted (C-02)
    pytest.param("straight_pool", True, True, marks=R("SP-6.9")),            # foul, spotted
    pytest.param("card_ball", True, True, marks=R("CB-12")),                 # foul, spotted in a row
    pytest.param("cribbage", True, True, marks=R("CR-11")),                  # foul, spotted
    pytest.param("honolulu", True, True, marks=R("G-3.28")),                 # the general rule
    pytest.param("cowboy", False, True, marks=R("CW-8")),                    # spotted without penalty
    pytest.param("forty_one", False, True, marks=R("41-11")),
    pytest.param("mr_and_mrs", False, True, marks=R("MM-10")),
    pytest.param("odd_ball", False, True, marks=R("OB-10")),
    pytest.param("pea_pool", False, True, marks=R("PP-11")),
    pytest.param("one_ball_side", False, True, marks=R("1S-9")),
    pytest.param("six_ball", False, True, marks=R("GB-23")),                 # BCA: spotted, no penalty (C-03)
    pytest.param("bowlliards", False, True, marks=R("GB-23")),
    pytest.param("cutthroat", False, False, marks=R("CT-11")),               # the shooter's own ball: stays off
]


@pytest.mark.parametrize("name,foul,spotted", OBJECT_CASES)
def test_object_ball_jumped_off_the_table_by_a_real_stroke(name, foul, spotted):
    d, s, a, rec = _play(name, OBJ_OFF)
    assert _left(rec, 1) and int(rec.s1[0]) != int(Motion.OFF_TABLE)
    s2, v = d.apply_shot_record(s, a, rec)
    assert (FoulKind.OBJECT_BALL_OFF_TABLE in [f.kind for f in v.fouls]) is foul
    assert (1 in v.spotted) is spotted and bool(s2.on_table[1]) is spotted


# game: where the incoming player gets the cue ball after it jumped off the table
CUE_CASES = [
    pytest.param("nine_ball", ANYWHERE, marks=R("9B-5.7", "G-3.28")),
    pytest.param("eight_ball", ANYWHERE, marks=R("8B-4.14")),
    pytest.param("straight_pool", KITCHEN, marks=R("SP-6.10")),
    pytest.param("six_ball", ANYWHERE, marks=R("6B-11")),
    pytest.param("card_ball", KITCHEN, marks=R("CB-13")),
    pytest.param("cowboy", KITCHEN, marks=R("CW-9")),
    pytest.param("cribbage", KITCHEN, marks=R("CR-12")),
    pytest.param("cutthroat", KITCHEN, marks=R("CT-12")),
    pytest.param("forty_one", KITCHEN, marks=R("41-12")),
    pytest.param("mr_and_mrs", KITCHEN, marks=R("MM-11")),
    pytest.param("odd_ball", KITCHEN, marks=R("OB-11")),
    pytest.param("pea_pool", KITCHEN, marks=R("PP-12")),
    pytest.param("one_ball_side", KITCHEN, marks=R("1S-10")),
]


@pytest.mark.parametrize("name,cue", CUE_CASES)
def test_cue_ball_jumped_off_the_table_by_a_real_stroke(name, cue):
    d, s, a, rec = _play(name, CUE_OFF)
    assert _left(rec, 0)
    s2, v = d.apply_shot_record(s, a, rec)
    assert FoulKind.CUE_BALL_OFF_TABLE in [f.kind for f in v.fouls]
    assert v.cue_ball is cue and s2.cue_ball is cue and not s2.on_table[0]
    assert s2.seat_to_act != s.seat_to_act


BLOCK = {1: (W2, 1.6), 2: (W2, 0.75), 9: (0.3, 2.2)}  # the 1 behind the 2, seen from the cue ball


@pytest.mark.rule("G-3.27", "GB-22")
def test_legal_jump_over_a_blocking_ball():
    """G-3.27 / GB-22: the cue elevated 45 degrees, the tip at the centre: the cue ball
    flies over the 2 and its first contact is the 1 -- a legal shot, no foul. The same stroke
    on the flat engine hits the blocker first (9B-5.2 / G-3.18 foul)."""
    d = get_discipline("nine_ball")
    s = make_state("nine_ball", BLOCK, (W2, 0.5))
    a = ShotAction(V0=2.5, phi=90.0, theta=45.0)
    rec = simulate_record(s, a)
    assert int(EventKind.LIFTOFF) in [int(k) for k in rec.ev_kind]
    s2, v = d.apply_shot_record(s, a, rec)
    assert not v.fouls and s2.seat_to_act in (0, 1)
    bb = [(int(i), int(j)) for k, i, j in zip(rec.ev_kind, rec.ev_i, rec.ev_j) if int(k) == int(EventKind.BALL_BALL)]
    assert bb[0] in ((0, 1), (1, 0))
    _, flat = d.apply_shot_record(s, a, simulate_record(s, a, airborne=False))
    assert FoulKind.WRONG_BALL_FIRST in [f.kind for f in flat.fouls]


@pytest.mark.rule("G-3.26", "GB-22")
def test_scooping_under_the_ball_to_jump_is_a_foul():
    """G-3.26 / GB-22 (C-55): the same jump with the tip below centre (a scoop under the
    cue ball) is an illegal jump, whatever it hits."""
    d = get_discipline("nine_ball")
    s = make_state("nine_ball", BLOCK, (W2, 0.5))
    a = ShotAction(V0=2.5, phi=90.0, theta=45.0, b=-0.3)
    _, v = d.apply(s, a)
    assert FoulKind.ILLEGAL_JUMP in [f.kind for f in v.fouls]
