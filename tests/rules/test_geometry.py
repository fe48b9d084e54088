"""Racking / spotting / placement geometry against the rule text (G-3.2, G-3.32, C-07,
9B-5.2, 9B-5.10, G-3.16)."""
import numpy as np
import pytest

from poolgym.rules.core import SpotFrontOrder
from poolgym.rules.geometry import (Rail, ball_radius, diamond_slots, frozen_to_rails, get_table, in_kitchen,
                                    jaw_rails, on_bed, placement_error, segment_for_rail, segment_rails, spot_balls,
                                    triangle_slots)

T = get_table("9ft")
R = ball_radius()
FX, FY = (float(v) for v in T.foot_spot)


def dists(P):
    d = np.hypot(P[:, None, 0] - P[None, :, 0], P[:, None, 1] - P[None, :, 1])
    np.fill_diagonal(d, np.inf)
    return d


@pytest.mark.rule("G-3.2", "T-1.16.5")
@pytest.mark.parametrize("size", ["9ft", "8ft", "7ft"])
def test_G_3_2_triangle_tight_apex_on_foot_spot(size):
    """G-3.2 / T-1.16.5: 15 balls, apex on the foot spot, rows 1..5 toward the foot rail,
    neighbours touching; slot 4 is the centre of the rack, 10 and 14 the back corners."""
    t = get_table(size)
    P = triangle_slots(t, R, 0.0)
    assert P.shape == (15, 2) and np.allclose(P[0], t.foot_spot)
    d = dists(P)
    assert d.min() == pytest.approx(2 * R, abs=1e-12)
    assert np.allclose(P[4], (t.w / 2, t.foot_spot[1] + 2 * np.sqrt(3) * R))
    assert P[10][1] == P[14][1] == P[:, 1].max() and P[10][0] < P[14][0]
    assert all(on_bed(x, y, t, R) for x, y in P)


@pytest.mark.rule("9B-5.2")
def test_9B_5_2_diamond_rows():
    """9B-5.2: rows 1-2-3-2-1, the top on the foot spot, the centre in the middle row."""
    P = diamond_slots(T, R, 1e-6)
    ys = np.round(P[:, 1], 9)
    assert [int((ys == y).sum()) for y in sorted(set(ys))] == [1, 2, 3, 2, 1]
    assert np.allclose(P[0], T.foot_spot) and P[4][0] == pytest.approx(FX)
    assert dists(P).min() == pytest.approx(2 * R + 1e-6)


def empty(n=16):
    return np.zeros((n, 2)), np.zeros(n, bool)


@pytest.mark.rule("G-3.32")
def test_G_3_32_1_spot_single_ball_on_foot_spot():
    """G-3.32.1: a single ball on the foot spot."""
    P, on = empty()
    out = spot_balls([5], P, on, T, R)
    assert np.allclose(out[5], T.foot_spot)


@pytest.mark.rule("G-3.32")
def test_G_3_32_2_spot_several_ascending_toward_foot_rail():
    """G-3.32.2: several balls on the long string, ascending from the foot spot toward the
    foot rail, frozen to each other."""
    P, on = empty()
    out = spot_balls([7, 3, 12], P, on, T, R)
    assert np.allclose(out[3], T.foot_spot)
    assert out[7][1] == pytest.approx(FY + 2 * R) and out[12][1] == pytest.approx(FY + 4 * R)
    assert np.allclose(out[[3, 7, 12], 0], FX)


@pytest.mark.rule("G-3.32", "GB-26")
def test_G_3_32_3_spot_interfering_object_ball_frozen():
    """G-3.32.3 / GB-26: an interfering object ball is not moved; the spotted ball is
    placed as close as possible to the foot spot on the long string, frozen to it."""
    P, on = empty()
    P[2], on[2] = (FX, FY), True
    out = spot_balls([9], P, on, T, R)
    assert np.allclose(out[2], (FX, FY))
    assert out[9][0] == pytest.approx(FX) and out[9][1] == pytest.approx(FY + 2 * R)


@pytest.mark.rule("G-3.32", "GW-4")
def test_G_3_32_3_spot_interfering_cue_ball_not_frozen():
    """G-3.32.3 / GW-4: against the cue ball the spotted ball is close but not frozen."""
    P, on = empty()
    P[0], on[0] = (FX + R, FY + R), True
    out = spot_balls([9], P, on, T, R, cue_gap=1e-3)
    d = np.hypot(*(out[9] - P[0]))
    assert d > 2 * R and d == pytest.approx(2 * R + 1e-3, abs=1e-9) and out[9][1] > FY


@pytest.mark.rule("G-3.32")
def test_G_3_32_4_spot_in_front_when_no_room_behind():
    """G-3.32.4 / C-07: with the long string behind the foot spot full, balls go in front
    of it (toward the centre spot), lowest-numbered nearest the foot spot; GB-26 order
    as an option."""
    P, on = empty()
    k = 1
    y = FY
    while y <= T.l - R:
        P[k], on[k] = (FX, y), True
        k += 1
        y += 2 * R
    assert k <= 14
    out = spot_balls([14, 15], P, on, T, R)
    assert out[14][1] == pytest.approx(FY - 2 * R) and out[15][1] == pytest.approx(FY - 4 * R)
    out = spot_balls([14, 15], P, on, T, R, front_order=SpotFrontOrder.LOWEST_FARTHEST)
    assert out[15][1] == pytest.approx(FY - 2 * R) and out[14][1] == pytest.approx(FY - 4 * R)


@pytest.mark.rule("G-3.16", "G-3.10", "9B-5.10", "G-3.22")
def test_G_3_16_kitchen_and_placement():
    """G-3.16 / G-3.10 / 9B-5.10 / G-3.22: placement validity."""
    P, on = empty(10)
    P[1], on[1] = (0.5, 0.3), True
    hs = float(T.head_string_y)
    assert in_kitchen(hs - 1e-9, T) and not in_kitchen(hs, T)
    kw = dict(pos=P, on=on, table=T, R=R)
    assert placement_error(0.8, 0.3, kitchen=True, may_touch=False, **kw) is None
    assert "head string" in placement_error(0.8, hs, kitchen=True, may_touch=False, **kw)
    assert "overlaps" in placement_error(0.5 + R, 0.3, kitchen=False, may_touch=True, **kw)
    assert "frozen" in placement_error(0.5 + 2 * R, 0.3, kitchen=False, may_touch=False, **kw)
    assert placement_error(0.5 + 2 * R, 0.3, kitchen=False, may_touch=True, **kw) is None
    assert placement_error(0.02, 0.02, kitchen=False, may_touch=True, **kw) is not None  # in a pocket mouth
    assert placement_error(np.nan, 0.3, kitchen=False, may_touch=True, **kw) is not None


@pytest.mark.rule("G-3.38")
def test_G_3_38_rails_of_segments_and_frozen():
    """G-3.38 / C-08: every cushion segment and jaw belongs to a rail; frozen detection."""
    sr = segment_rails(T)
    assert set(sr.tolist()) == {0, 1, 2, 3}
    assert len(jaw_rails(T)) == len(np.asarray(T.jaws))
    seg = np.asarray(T.segments)[segment_for_rail(T, Rail.FOOT)]
    assert np.allclose(seg[:, 1], T.l)
    P = np.array([[R, 1.0], [0.6, T.l - R], [0.6, 1.0], [T.w - R - 1e-3, 0.5]])
    m = frozen_to_rails(P, np.ones(4, bool), T, R, 1e-4)
    assert m.tolist() == [1 << Rail.LEFT, 1 << Rail.FOOT, 0, 0]
