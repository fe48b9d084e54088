"""Shot-record queries (poolgym.rules.queries) on hand-built and simulated records."""
import numpy as np
import pytest

from poolgym.rules import queries as q
from poolgym.rules.geometry import Rail, ball_radius, get_table, segment_for_rail
from poolgym.rules.shot_record import EventKind, Motion, ShotRecord

T = get_table("9ft")
R = ball_radius()
BB, BC, PK = int(EventKind.BALL_BALL), int(EventKind.BALL_CUSHION), int(EventKind.POCKET)
FOOT = segment_for_rail(T, Rail.FOOT)
LEFT = segment_for_rail(T, Rail.LEFT, 0.6)
POS = np.array([[0.6, 0.5], [0.6, 1.5], [0.3, 1.8], [0.9, 1.9], [0.6, 2.2]])


def rec(events, **kw):
    return ShotRecord.build(POS, events, **kw)


def test_first_contact_and_split_hit():
    """T-1.16.4 / R-2.10: the first object ball; a split hit within eps goes to the legal ball."""
    r = rec([(0.1, BB, 0, 2), (0.10001, BB, 1, 0), (0.2, BB, 2, 3)])
    assert q.first_contact(r) == (2, pytest.approx(0.1))
    assert q.first_ball_hit(r, legal=(1,), split_eps=1e-4) == 1
    assert q.first_ball_hit(r, legal=(1,), split_eps=1e-6) == 2
    assert q.first_contact(rec([]))[0] is None


def test_rails_and_balls_to_rail():
    """G-3.19(b) / 9B-5.4: cushion contacts after the first contact; distinct object balls
    to a cushion (a ball twice counts once, the cue ball never)."""
    r = rec([(0.05, BC, 0, LEFT), (0.1, BB, 0, 1), (0.2, BC, 1, FOOT), (0.3, BC, 1, FOOT), (0.4, BC, 2, LEFT)])
    assert q.rails_after_first_contact(r, T, 0.1) == 3
    assert q.balls_to_rail(r, T).tolist() == [1, 2]
    assert q.is_kick(r, T)
    t, b, rails = q.cushion_events(r, T)
    assert rails.tolist() == [Rail.LEFT, Rail.FOOT, Rail.FOOT, Rail.LEFT]


def test_pockets_jumps_scratch():
    """G-3.11 / G-3.20 / G-3.28: pocketed balls with pockets, scratch, jumped balls."""
    r = rec([(0.1, BB, 0, 1)], pocketed={1: 2, 0: 5}, off_table=(3,))
    assert q.pocketed(r) == (1,) and q.pocketed_with_pockets(r) == {0: 5, 1: 2}
    assert q.cue_scratched(r) and q.jumped_off_table(r) == (3,) and not q.cue_off_table(r)
    assert q.any_pocketed(r)
    assert not q.any_pocketed(rec([], pocketed={0: 1}))


def test_bank_combination_carom():
    """Shot types: bank (object ball off a cushion into the pocket), combination (called
    ball first moved by another object ball), carom (kiss off another ball)."""
    bank = rec([(0.1, BB, 0, 1), (0.2, BC, 1, FOOT), (0.5, PK, 1, 2)], pocketed={1: 2})
    assert q.is_bank(bank, T, 1) and not q.is_combination(bank, 1)
    combo = rec([(0.1, BB, 0, 1), (0.2, BB, 1, 4)], pocketed={4: 2})
    assert q.is_combination(combo, 4) and not q.is_bank(combo, T, 4)
    carom = rec([(0.1, BB, 0, 1), (0.2, BB, 1, 3)], pocketed={1: 5})
    assert q.is_carom(carom, 1) and not q.is_carom(carom, 3)


def test_kitchen_crossing_heuristic_and_exact():
    """G-3.39: crossing the head string before the contact, from event positions if the
    record has them, else from cushions lying wholly beyond the head string."""
    hs = float(T.head_string_y)
    p = POS.copy()
    p[0] = (0.6, 0.3)
    p[1] = (0.3, 0.4)  # ball in the kitchen
    r = ShotRecord.build(p, [(0.05, BC, 0, FOOT), (0.1, BB, 0, 1)])
    assert q.cue_left_kitchen_before_contact(r, T, 0.1)
    r = ShotRecord.build(p, [(0.1, BB, 0, 1)])
    assert not q.cue_left_kitchen_before_contact(r, T, 0.1)
    xy = np.array([[0.6, 0.3], [0.6, hs + 0.2], [0.32, 0.45]])
    r = ShotRecord.build(p, [(0.05, 5, 0, -1), (0.1, BB, 0, 1)], ev_xy=xy)
    assert q.cue_left_kitchen_before_contact(r, T, 0.1)


def test_from_sim_real_physics():
    """ShotRecord.from_sim reads a physics.SimResult (contract fields)."""
    physics = pytest.importorskip("physics")
    rvw = np.zeros((3, 3, 3))
    rvw[0, 0] = (0.635, 0.5, R)
    rvw[1, 0] = (0.635, 1.5, R)
    rvw[2, 0] = (0.3, 2.0, R)
    res = physics.simulate(T, rvw, physics.Shot(V0=2.0, phi=90.0))
    r = ShotRecord.from_sim(res)
    assert q.first_ball_hit(r) == 1 and r.ev_kind[0] == int(EventKind.STRIKE)
    assert r.pos0.shape == (3, 2) and r.on0.all()
