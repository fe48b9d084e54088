"""Ghost-ball geometry of `poolgym.aim`."""

import numpy as np
import pytest

from poolgym import aim

R = aim.BALL_RADIUS


def test_straight_shot_aims_at_object_ball_and_has_zero_cut():
    a = aim.aim(np.array([0.5, 0.5]), np.array([0.5, 1.0]), np.array([0.5, 2.0]))
    assert a.phi == pytest.approx(90.0)
    assert a.cut == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(a.ghost, [0.5, 1.0 - 2 * R])
    assert a.feasible


def test_cut_angle_and_ghost_ball_for_a_45_degree_cut():
    obj = np.array([1.0, 1.0])
    target = obj + np.array([1.0, 1.0])  # object ball leaves at 45 deg
    ghost = obj - 2 * R * np.array([1.0, 1.0]) / np.sqrt(2)
    cue = ghost - np.array([0.0, 0.5])  # cue ball travels along +y
    a = aim.aim(cue, obj, target)
    assert a.phi == pytest.approx(90.0)
    assert a.cut == pytest.approx(-45.0)  # object ball leaves to the right of the cue path
    assert a.feasible


def test_back_cut_beyond_90_degrees_is_infeasible():
    a = aim.aim(np.array([0.5, 1.5]), np.array([0.5, 1.0]), np.array([0.5, 2.0]))
    assert not a.feasible
    assert abs(a.cut) > 90


def test_aim_broadcasts_over_targets_and_pockets():
    obj = np.array([[0.3, 1.0], [0.6, 1.2], [0.9, 1.6]])[:, None, :]
    pockets = np.array([[0.0, 0.0], [0.0, 2.54], [1.27, 2.54]])[None]
    a = aim.aim(np.array([0.6, 0.4]), obj, pockets)
    assert a.phi.shape == (3, 3) and a.ghost.shape == (3, 3, 2)


def test_path_clearance_blocked_and_clear():
    balls = np.array([[0.5, 1.0], [0.8, 1.0]])
    gap = aim.path_clearance(np.array([0.5, 0.5]), np.array([0.5, 1.5]), balls)
    assert gap < 0  # ball 0 sits on the path
    gap = aim.path_clearance(np.array([0.5, 0.5]), np.array([0.5, 1.5]), balls, ignore=np.array([True, False]))
    assert gap == pytest.approx(0.3 - 2 * R)


def test_pocket_geometry_aim_points_are_inside_the_mouths(table9):
    g = aim.pocket_geometry(table9)
    assert g.aim_points.shape == (6, 2)
    # corner mouths lie on the diagonal through the corner, side mouths on y = l/2
    lb, lc = g.aim_points[0], g.aim_points[1]
    assert lb[0] == pytest.approx(lb[1], abs=1e-9)
    assert lc[1] == pytest.approx(table9.l / 2)
    # mouth between the two jaws, nearer the table than the pocket centre
    for p in range(6):
        c = g.centers[p]
        m = g.mouth[p]
        centre = np.array([table9.w / 2, table9.l / 2])
        assert np.linalg.norm(m - centre) < np.linalg.norm(c - centre)
    with pytest.raises(ValueError, match="depth"):
        aim.pocket_geometry(table9, depth=2.0)


def test_jaw_margin_straight_in_is_positive_and_along_the_rail_is_negative(table9):
    g = aim.pocket_geometry(table9)
    # straight into the lb corner along the diagonal: clear of both jaws
    assert aim.jaw_margin(np.array([0.4, 0.4]), g, R)[0] > 0
    # frozen to the far long rail, aiming at the lc side pocket almost along the rail: blocked
    assert aim.jaw_margin(np.array([R, 0.3]), g, R)[1] < 0


def test_pot_candidates_picks_the_clear_straight_pot(table9):
    g = aim.pocket_geometry(table9)
    lt = g.aim_points[2]
    obj = np.array([0.3, 2.2])
    u = (obj - lt) / np.linalg.norm(obj - lt)
    cue = obj + 0.4 * u
    pos = np.array([cue, obj, [1.0, 0.5]])
    c = aim.pot_candidates(pos, np.ones(3, bool), [1], g)
    assert c.best() == (1, 2)
    assert abs(c.cut[0, 2]) < 1e-6
    # a blocker on the line makes that pot infeasible
    pos2 = np.vstack([pos, obj + 0.2 * u])
    c2 = aim.pot_candidates(pos2, np.ones(4, bool), [1], g)
    assert not c2.feasible[0, 2]


def test_cue_speed_grows_with_distance_and_cut():
    v = aim.cue_speed_for_distance(np.array([0.5, 1.0, 2.0]))
    assert np.all(np.diff(v) > 0)
    assert aim.cue_speed_for_distance(1.0, 60.0) > aim.cue_speed_for_distance(1.0, 0.0)
