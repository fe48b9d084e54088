"""The one frozen-to-a-rail predicate and the one "driven to a cushion" predicate
(`poolgym.rules.rails`), and the referee paths that read them (G-3.38, G-3.19, SP-6.7.2)."""
import numpy as np
import pytest

from poolgym.rules import queries as q
from poolgym.rules.rails import Rail, contact_is_new, frozen_rail_bits, frozen_to_rails, near_rail_bits, rail_facts
from poolgym.rules.geometry import ball_radius, get_table, segment_for_rail
from poolgym.rules.shot_record import EventKind, ShotRecord

T = get_table("9ft")
R = ball_radius()
EPS = 1e-4
BB, BC = int(EventKind.BALL_BALL), int(EventKind.BALL_CUSHION)
HEAD = segment_for_rail(T, Rail.HEAD)
FOOT = segment_for_rail(T, Rail.FOOT)


@pytest.mark.rule("G-3.38")
def test_frozen_means_within_eps_of_the_cushion_nose_line_C_08():
    """G-3.38 Sim / C-08: frozen = distance to the cushion <= eps, per rail; off-table balls
    are frozen to nothing."""
    w, l = float(T.w), float(T.l)
    assert frozen_rail_bits(0.6, R + EPS, w, l, R + EPS) == 1 << Rail.HEAD
    assert frozen_rail_bits(0.6, R + 2 * EPS, w, l, R + EPS) == 0
    assert frozen_rail_bits(R, l - R, w, l, R + EPS) == (1 << Rail.LEFT) | (1 << Rail.FOOT)  # in a corner
    pos = np.array([[0.6, R], [w - R, 1.0], [0.6, 1.0]])
    np.testing.assert_array_equal(frozen_to_rails(pos, np.array([True, False, True]), T, R, EPS),
                                  [1 << Rail.HEAD, 0, 0])


@pytest.mark.rule("SP-6.7.2")
def test_near_a_rail_is_within_a_ball_diameter_but_not_frozen():
    assert near_rail_bits(0.6, R + EPS, T, R, EPS) == 0  # frozen, not near
    assert near_rail_bits(0.6, R + 1e-3, T, R, EPS) == 1 << Rail.HEAD
    assert near_rail_bits(0.6, 3 * R + 1e-3, T, R, EPS) == 0  # more than a diameter away


def _record(pos, events):
    return ShotRecord.build(np.asarray(pos, float), events)


@pytest.mark.rule("G-3.38")
def test_a_cue_ball_starting_on_a_rail_drives_back_to_it_after_the_first_contact():
    """G-3.38 (b) and its last paragraph, one reading: the cue ball frozen to the head rail
    hits an object ball frozen to the same rail; its return to the head rail afterwards is a
    cushion contact (its contact with the object ball is the "other ball" it touched), for the
    frozen-ball rule and for G-3.19's new-cushion test alike."""
    pos = [[0.5, R], [0.5 + 2 * R + 0.05, R], [0.6, 1.5]]
    rec = _record(pos, [(0.1, BB, 0, 1), (0.3, BC, 0, HEAD)])
    t, b, rails = q.cushion_events(rec, T)
    bits = frozen_rail_bits(0.5, R, float(T.w), float(T.l), R + EPS)
    assert contact_is_new(bits, int(rails[0]), 0, 0, float(t[0]), rec.ev_kind, rec.ev_i, rec.ev_j, rec.ev_t, BB)
    rails0, to_cue, new = rail_facts(rec.pos0, 0, 1, 0.1, float(T.w), float(T.l), R, EPS, True, t, b, rails,
                                     rec.ev_kind, rec.ev_i, rec.ev_j, rec.ev_t, BB)
    assert rails0 == 1 << Rail.HEAD and not to_cue and new
    assert q.frozen_rule_satisfied(rec, T, 1, 0.1, rails0, R=R, eps=EPS)


@pytest.mark.rule("G-3.38")
def test_an_object_ball_pressed_into_its_own_rail_is_not_driven_to_it():
    """G-3.38 last paragraph: the frozen object ball forced into the rail it touched counts
    only after it left it, touched another ball and came back; a ball frozen to another rail
    reaching this one is driven to it."""
    pos = [[0.5, 0.3], [0.5, R], [0.8, R], [0.6, 1.5]]
    pressed = _record(pos, [(0.1, BB, 0, 1), (0.11, BC, 1, HEAD)])
    assert not q.frozen_rule_satisfied(pressed, T, 1, 0.1, 1 << Rail.HEAD, R=R, eps=EPS)
    again = _record(pos, [(0.1, BB, 0, 1), (0.2, BB, 1, 2), (0.3, BC, 1, HEAD)])
    assert q.frozen_rule_satisfied(again, T, 1, 0.1, 1 << Rail.HEAD, R=R, eps=EPS)
    other_rail = _record(pos, [(0.1, BB, 0, 1), (0.5, BC, 1, FOOT)])
    assert q.frozen_rule_satisfied(other_rail, T, 1, 0.1, 1 << Rail.HEAD, R=R, eps=EPS)
