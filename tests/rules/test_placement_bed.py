"""`bed_obstacles`: the referee's placement check (`placement_code`: G-3.22, 9B-5.10, on the
bed) gives the same code with only the cushion segments and jaw circles that can reach into
the bed as with all of them, on every WPA table, for points spread over and around the bed,
along the cushion-nose lines, exactly on the bounds and one float step inside or outside,
and around every pocket and jaw tip."""

import numpy as np
import pytest

import physics
from poolgym.rules.placement import bed_obstacles, placement_codes, table_arrays

R = 0.028575


def _points(t):
    w, l = float(t.w), float(t.l)
    rng = np.random.default_rng(0)
    pts = [rng.uniform([-0.05, -0.05], [w + 0.05, l + 0.05], (4000, 2))]
    # along the bounds box: exactly on it and one float step either side
    for v in (R, w - R):
        for x in (v, np.nextafter(v, 0), np.nextafter(v, 1)):
            pts.append(np.column_stack([np.full(400, x), np.linspace(-0.05, l + 0.05, 400)]))
    for v in (R, l - R):
        for y in (v, np.nextafter(v, 0), np.nextafter(v, 1)):
            pts.append(np.column_stack([np.linspace(-0.05, w + 0.05, 400), np.full(400, y)]))
    # around the pockets and the jaw tips
    centres = np.concatenate([np.asarray(t.pockets)[:, :2], np.asarray(t.jaws)[:, :2]])
    for c in centres:
        a = rng.uniform(0, 2 * np.pi, 300)
        d = rng.uniform(0, 0.12, 300)
        pts.append(c + np.column_stack([d * np.cos(a), d * np.sin(a)]))
    return np.concatenate(pts)


@pytest.mark.parametrize("size", ["9ft", "8ft", "7ft"])
def test_codes_equal_with_bed_obstacles(size):
    t = physics.Table.wpa(size)
    w, l, hy, pk, sg, jw = table_arrays(t)
    full_sg = np.ascontiguousarray(np.asarray(t.segments, np.float64).reshape(-1, 2, 2))
    full_jw = np.ascontiguousarray(np.asarray(t.jaws, np.float64).reshape(-1, 3))
    assert sg.shape[0] < full_sg.shape[0]  # the check really is smaller
    P = _points(t)
    B = P.shape[0]
    pos = np.zeros((B, 2, 2))
    pos[:, 1] = (w / 2, l / 2)  # one object ball at the centre spot
    on = np.ones((B, 2), np.bool_)
    seen = set()
    for kitchen in (False, True):
        kit = np.full(B, kitchen)
        mt = np.zeros(B, np.bool_)
        got = placement_codes(P[:, 0].copy(), P[:, 1].copy(), pos, on, kit, mt, 0, w, l, hy, pk, sg, jw, R,
                              1e-9, 1e-9)
        want = placement_codes(P[:, 0].copy(), P[:, 1].copy(), pos, on, kit, mt, 0, w, l, hy, pk, full_sg,
                               full_jw, R, 1e-9, 1e-9)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        seen.update(want[0].tolist())
    assert {0, 2, 3, 4} <= seen  # legal, off the bed, outside the kitchen and overlapping points met


def test_bed_obstacles_keeps_what_reaches_in():
    """A segment crossing into the bed and a jaw circle overlapping it are kept; those wholly
    beyond a nose line are dropped."""
    segs = np.array([[[0.0, 0.1], [0.0, 0.5]],        # on the x = 0 nose line: beyond
                     [[-0.05, 0.0], [0.02, 0.03]],    # reaches into the bed: kept
                     [[0.3, 1.0], [0.6, 1.0]]])       # on y = l (l = 1): beyond
    jaws = np.array([[0.1, -0.02, 0.02],               # tangent to y = 0 from outside: beyond
                     [0.1, -0.01, 0.02]])              # overlaps the bed: kept
    sg, jw = bed_obstacles(0.5, 1.0, segs, jaws)
    np.testing.assert_array_equal(sg, segs[[1]])
    np.testing.assert_array_equal(jw, jaws[[1]])
