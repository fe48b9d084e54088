"""The lag (G-3.6 / GB-5 / GW-2, C-05) and the lag winner's choice (G-3.7 / GB-6): both
strokes played at once on one table (poolgym.rules.lag)."""
from __future__ import annotations

import numpy as np
import pytest

from poolgym.rules import ChooseOption, CueBallPlacement, GameState, IllegalActionError, Option, Phase, ShotAction
from poolgym.rules import lag
from poolgym.rules.game import get_discipline
from poolgym.rules.geometry import Rail, ball_radius, get_table, segment_for_rail
from poolgym.rules.nine_ball import NineBallConfig
from poolgym.rules.shot_record import EventKind, ShotRecord

D = get_discipline("nine_ball")
T = get_table("9ft")
R = ball_radius()
BC = int(EventKind.BALL_CUSHION)
START = np.array([lag.lag_start_position(0, T, R), lag.lag_start_position(1, T, R)])
GOOD_RAILS = {0: [(0.5, BC, 0, segment_for_rail(T, Rail.FOOT, 0.3))],
              1: [(0.6, BC, 1, segment_for_rail(T, Rail.FOOT, 0.9))]}


def two_balls(rest0=(0.3, 0.3), rest1=(0.9, 0.2), events=None, pocketed=None, off=(), x_range=None):
    """A hand-built lag record: ball 0 (seat 0) and ball 1 (seat 1), each sent to the foot
    rail once by default."""
    ev = events if events is not None else GOOD_RAILS[0] + GOOD_RAILS[1]
    rec = ShotRecord.build(START, [(0.0, int(EventKind.STRIKE), 1, -1)] + ev, pos1={0: rest0, 1: rest1},
                           pocketed=pocketed, off_table=off)
    if x_range is None:
        return lag.LagRecord(rec)
    return lag.LagRecord(rec, np.array([x_range[0][0], x_range[1][0]]), np.array([x_range[0][1], x_range[1][1]]))


def side_rail(ball, rail, y):
    return (0.8, BC, ball, segment_for_rail(T, rail, y))


W2 = T.w / 2
# seat 1's ball breaks one condition (seat 0's is a good lag 0.3 - R from the head rail)
CASES = [
    ("good", {}, None),
    ("a_crossed_on_path", {"x_range": ((0.3, 0.3), (W2 - 0.01, 0.9))}, lag.LagFault.CROSSED),
    ("a_rests_in_other_half", {"rest1": (0.4, 0.2)}, lag.LagFault.CROSSED),
    ("b_no_foot_rail", {"events": GOOD_RAILS[0]}, lag.LagFault.NO_FOOT_RAIL),
    ("c_pocketed", {"pocketed": {1: 3}}, lag.LagFault.POCKETED),
    ("d_off_table", {"off": (1,)}, lag.LagFault.OFF_TABLE),
    ("e_long_rail", {"events": GOOD_RAILS[0] + GOOD_RAILS[1] + [side_rail(1, Rail.RIGHT, 1.5)]},
     lag.LagFault.LONG_RAIL),
    ("f_head_jaws", {"rest1": (T.w - 0.03, 0.02)}, lag.LagFault.HEAD_JAWS),
    ("g_foot_rail_twice", {"events": GOOD_RAILS[0] + GOOD_RAILS[1] + [(1.2, BC, 1, GOOD_RAILS[1][0][3])]},
     lag.LagFault.FOOT_RAIL_TWICE),
]


@pytest.mark.rule("G-3.6", "GB-5", "GW-2")
@pytest.mark.parametrize("case,kw,fault", CASES, ids=[c[0] for c in CASES])
def test_G_3_6_each_automatic_loss_condition(case, kw, fault):
    """G-3.6 (a)-(g) = GB-5 (1)-(7) (GW-2's five among them): each condition loses the lag
    for that ball alone; the record carries the facts it is judged by."""
    lr = two_balls(**kw)
    xr = None if lr.x_min is None else (lr.x_min[1], lr.x_max[1])
    b1 = lag.lag_ball(lr.rec, T, R, 1, ball=1, x_range=xr)
    b0 = lag.lag_ball(lr.rec, T, R, 0, ball=0)
    assert b0.faults == () and b0.result == pytest.approx(0.3 - R)
    if fault is None:
        assert b1.faults == () and b1.result == pytest.approx(0.2 - R) and b1.rails == (Rail.FOOT,)
        assert lag.lag_winner((b0.result, b1.result)) == 1
    else:
        assert fault in b1.faults and b1.result == -1.0
        assert lag.lag_winner((b0.result, b1.result)) == 0


@pytest.mark.rule("G-3.6", "GW-2")
def test_GW_2_a_foul_stroke_loses_the_lag():
    """GW-2 (C-05 union): a non-object-ball foul on the lag stroke makes the lag bad -- an
    elevated stroke below centre (G-3.26) here, even though the ball itself lags well."""
    s = D.initial_state(NineBallConfig(lag=True), seed=1)
    s1, v1 = D.apply_shot_record(s, ShotAction(V0=1.2, phi=90.0), None)
    dig = ShotAction(V0=1.2, phi=90.0, theta=5.0, b=-0.2)
    s2, v2 = D.apply_shot_record(s1, dig, two_balls(rest0=(0.3, 0.5), rest1=(0.9, 0.1)))
    assert s2.phase is Phase.OPTION and s2.seat_to_act == 0 and s2.lag_results[1] == -1.0


@pytest.mark.rule("G-3.6", "G-3.7", "GB-6", "GW-2")
def test_G_3_6_simultaneous_flow_and_the_winners_choice():
    """G-3.6 / G-3.7 / GB-6: seat 0 strokes (nothing is played yet: they shoot
    simultaneously), seat 1 strokes, both balls are judged together; the nearer ball wins
    and its seat breaks or gives the break away; a tie or two lost lags are replayed."""
    s = D.initial_state(NineBallConfig(lag=True), seed=1)
    assert s.phase is Phase.LAG and D.legal_actions(s).can_shoot and s.seat_to_act == 0
    first = ShotAction(V0=1.2, phi=90.0)
    s1, v1 = D.apply_shot_record(s, first, None)
    assert s1.phase is Phase.LAG and s1.seat_to_act == 1 and s1.lag_strokes == ((1.2, 90.0, 0.0, 0.0, 0.0),)
    assert v1.rule_refs == ("G-3.6",) and s1.lag_results == ()
    assert D.lag_pending(s1) and not D.lag_pending(s)
    with pytest.raises(IllegalActionError):
        D.shot_inputs(s, first)  # the first stroke needs no physics of its own
    rvw, st, rows = D.shot_inputs(s1, ShotAction(V0=1.25, phi=90.0))
    assert rvw.shape == (2, 3, 3) and rows.shape == (2, 5) and rows[0, 0] == 1.2 and rows[1, 0] == 1.25
    np.testing.assert_allclose(rvw[:, 0, :2], START)
    s2, v = D.apply_shot_record(s1, ShotAction(V0=1.25, phi=90.0), two_balls(rest0=(0.3, 0.3), rest1=(0.9, 0.1)))
    assert s2.phase is Phase.OPTION and s2.seat_to_act == 1 and set(s2.options) == {Option.BREAK, Option.CEDE_BREAK}
    assert v.rule_refs == ("G-3.6", "G-3.7") and s2.lag_strokes == ()
    for st_ in (s1, s2):
        assert GameState.from_json(st_.to_json()) == st_
    s3, _ = D.apply(s2, ChooseOption(Option.CEDE_BREAK))
    assert s3.phase is Phase.BREAK and s3.breaker == 0 and s3.seat_to_act == 0
    s3b, _ = D.apply(s2, ChooseOption(Option.BREAK))
    assert s3b.breaker == 1 and s3b.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and not s3b.cue_placed
    tie, _ = D.apply_shot_record(s1, first, two_balls(rest0=(0.3, 0.3), rest1=(0.9, 0.3)))
    assert tie.phase is Phase.LAG and tie.seat_to_act == 0 and tie.lag_strokes == () and tie.lag_results == ()
    both, _ = D.apply_shot_record(s1, first, two_balls(events=[]))
    assert both.phase is Phase.LAG and both.lag_strokes == ()
    with pytest.raises(IllegalActionError):
        D.apply_shot_record(s1, first, ShotRecord.build(np.zeros((10, 2))))  # not a record of two lag balls


@pytest.mark.rule("G-3.6", "G-3.7")
def test_G_3_6_real_lag_both_strokes_on_one_table():
    """G-3.6 with the physics: both strokes are played at once on one table; of two lags
    that touch the foot rail once and nothing else, the firmer one (V0 1.15 vs 1.1) comes
    back nearer the head rail and wins."""
    s = D.initial_state(NineBallConfig(lag=True), seed=1)
    s1, _ = D.apply(s, ShotAction(V0=1.1, phi=90.0))
    s2, v = D.apply(s1, ShotAction(V0=1.15, phi=90.0))
    lr = lag.simulate_lag_record(T, [[1.1, 90, 0, 0, 0], [1.15, 90, 0, 0, 0]], R)
    b = [lag.lag_ball(lr.rec, T, R, k, ball=k, x_range=(lr.x_min[k], lr.x_max[k])) for k in (0, 1)]
    assert [x.rails for x in b] == [(Rail.FOOT,), (Rail.FOOT,)] and not b[0].crossed and not b[1].crossed
    assert b[1].distance < b[0].distance
    assert s2.phase is Phase.OPTION and s2.seat_to_act == 1 and s2.lag_results == (b[0].result, b[1].result)


@pytest.mark.rule("G-3.6")
def test_G_3_6_a_real_crossing_ball_hits_the_other_and_both_lose():
    """G-3.6 (a) with both balls on one table: seat 0's ball sent across the long string hits
    seat 1's ball. Seat 0's lag is lost for the crossing; seat 1's ball, knocked off its line,
    is judged by where it went: here it too breaks a condition, so the lag is replayed."""
    lr = lag.simulate_lag_record(T, [[3.0, 10.0, 0, 0, 0], [0.6, 90, 0, 0, 0]], R)
    kinds = [(int(k), int(i), int(j)) for k, i, j in zip(lr.rec.ev_kind, lr.rec.ev_i, lr.rec.ev_j)]
    assert any(k == int(EventKind.BALL_BALL) and {i, j} == {0, 1} for k, i, j in kinds)
    b = [lag.lag_ball(lr.rec, T, R, k, ball=k, x_range=(lr.x_min[k], lr.x_max[k])) for k in (0, 1)]
    assert lag.LagFault.CROSSED in b[0].faults and b[1].faults
    s = D.initial_state(NineBallConfig(lag=True), seed=1)
    s1, _ = D.apply(s, ShotAction(V0=3.0, phi=10.0))
    s2, _ = D.apply(s1, ShotAction(V0=0.6, phi=90.0))
    assert s2.phase is Phase.LAG and s2.seat_to_act == 0 and s2.lag_strokes == ()


@pytest.mark.rule("G-3.6", "G-3.7", "8B-4.4", "9B-5.3")
@pytest.mark.parametrize("name", ["nine_ball", "eight_ball", "straight_pool"])
def test_G_3_6_G_3_7_lag_phase_in_every_discipline(name):
    """G-3.6 / G-3.7 (8B-4.4, 9B-5.3, SP procedures): the optional lag phase -- both
    seats lag, the ball nearer the head rail wins, the winner breaks or cedes the break;
    every intermediate state round-trips through JSON; the rack is untouched."""
    d = get_discipline(name)
    s = d.initial_state(d.config_cls(lag=True), seed=4)
    s1, _ = d.apply_shot_record(s, ShotAction(2.0, 90.0), None)
    s2, v = d.apply_shot_record(s1, ShotAction(2.0, 90.0), two_balls(rest0=(0.3, 0.3), rest1=(0.9, 0.12)))
    for st in (s1, s2):
        assert GameState.from_json(st.to_json()) == st
    assert v.next_seat == 1 and s2.phase is Phase.OPTION and set(s2.options) == {Option.BREAK, Option.CEDE_BREAK}
    s3, _ = d.apply(s2, ChooseOption(Option.CEDE_BREAK))
    assert s3.phase is Phase.BREAK and s3.breaker == 0 and s3.seat_to_act == 0
    assert s3.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and not s3.cue_placed
    assert s3.balls_on_table() == s.balls_on_table() and s3.pos[2:] == s.pos[2:]
