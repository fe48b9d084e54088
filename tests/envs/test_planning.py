"""The planning geometry (`poolgym.planning`): ghost-ball aim, the compiled pot table against
its numpy oracle, speeds and placements the referee accepts."""

import math

import numpy as np
import pytest

from poolgym import planning
from poolgym.rules.placement import placement_error
from tests.envs.planning_reference import pot_table_reference

R = planning.BALL_RADIUS


def test_straight_shot_aims_at_object_ball_and_has_zero_cut():
    a = planning.aim(np.array([0.5, 0.5]), np.array([0.5, 1.0]), np.array([0.5, 2.0]))
    assert a.phi == pytest.approx(90.0)
    assert a.cut == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(a.ghost, [0.5, 1.0 - 2 * R])
    assert a.feasible


def test_cut_angle_and_ghost_ball_for_a_45_degree_cut():
    obj = np.array([1.0, 1.0])
    target = obj + np.array([1.0, 1.0])  # object ball leaves at 45 deg
    ghost = obj - 2 * R * np.array([1.0, 1.0]) / np.sqrt(2)
    cue = ghost - np.array([0.0, 0.5])  # cue ball travels along +y
    a = planning.aim(cue, obj, target)
    assert a.phi == pytest.approx(90.0)
    assert a.cut == pytest.approx(-45.0)  # object ball leaves to the right of the cue path
    assert a.feasible
    assert planning.cut_angle(cue, ghost, obj, target) == pytest.approx(math.radians(45.0))


def test_back_cut_beyond_90_degrees_is_infeasible():
    a = planning.aim(np.array([0.5, 1.5]), np.array([0.5, 1.0]), np.array([0.5, 2.0]))
    assert not a.feasible
    assert abs(a.cut) > 90


def test_aim_broadcasts_over_targets_and_pockets():
    obj = np.array([[0.3, 1.0], [0.6, 1.2], [0.9, 1.6]])[:, None, :]
    pockets = np.array([[0.0, 0.0], [0.0, 2.54], [1.27, 2.54]])[None]
    a = planning.aim(np.array([0.6, 0.4]), obj, pockets)
    assert a.phi.shape == (3, 3) and a.ghost.shape == (3, 3, 2)


def test_segment_clear_blocked_and_clear():
    balls = np.array([[0.5, 1.0], [0.8, 1.0]])
    assert not planning.segment_clear(np.array([0.5, 0.5]), np.array([0.5, 1.5]), balls, 2 * R)
    assert planning.segment_clear(np.array([0.5, 0.5]), np.array([0.5, 1.5]), balls[1:], 2 * R)


def test_aim_points_lie_in_the_pocket_mouths(table9):
    g = planning.table_geom(table9)
    lb, lc = g.aims[0], g.aims[1]
    assert lb[0] == pytest.approx(lb[1], abs=1e-9)  # on the corner's diagonal
    assert lc[1] == pytest.approx(table9.l / 2) and lc[0] == 0.0  # side: on the cushion-nose line
    assert planning.best_pocket(g, np.array([0.3, 0.3])) == 0


def test_pot_table_picks_the_clear_straight_pot_and_a_blocker_stops_it(table9):
    g = planning.table_geom(table9)
    lt = g.aims[2]
    obj = np.array([0.3, 2.2])
    u = (obj - lt) / np.linalg.norm(obj - lt)
    cue = obj + 0.4 * u
    pos = np.array([cue, obj, [1.0, 0.5]])
    c = planning.pot_candidates(g, pos, np.ones(3, bool), 0, [1])
    assert (c[0].ball, c[0].pocket) == (1, 2) and c[0].cut < 1e-6 and c[0].p_make > 0.5
    pos2 = np.vstack([pos, obj + 0.2 * u])  # a blocker on the object ball's line
    assert all(k.pocket != 2 for k in planning.pot_candidates(g, pos2, np.ones(4, bool), 0, [1]))


@pytest.mark.parametrize("seed", range(12))
def test_pot_table_kernel_matches_numpy_oracle(table9, seed):
    """The compiled pot table equals the numpy definition (feasibility exactly, numbers to
    rounding) on random layouts, several cue positions, with and without a danger ball."""
    rng = np.random.default_rng(seed)
    g = planning.table_geom(table9)
    n = 10
    pos = np.column_stack([rng.uniform(R, g.w - R, n), rng.uniform(R, g.l - R, n)])
    on = rng.random(n) < 0.8
    on[0] = True
    Q = np.vstack([pos[0], np.column_stack([rng.uniform(R, g.w - R, 7), rng.uniform(R, g.l - R, 7)])])
    targets = [1, 2, 3, 4, 8]
    danger = (8,) if seed % 2 else ()
    got = planning.pot_table(g, pos, on, Q, targets, 0.125, danger=danger)
    ref = pot_table_reference(g, pos, on, Q, targets, 0.125, danger=danger)
    np.testing.assert_array_equal(got["targets"], ref["targets"])
    np.testing.assert_array_equal(got["ok"], ref["ok"])
    for key in ("p", "phi", "cut", "d1", "d2", "V0"):
        np.testing.assert_allclose(np.where(ref["ok"], got[key], 0), np.where(ref["ok"], ref[key], 0), rtol=1e-9,
                                   atol=1e-9, err_msg=key)


def test_pot_speed_grows_with_distance_and_cut():
    v = [planning.v0_for_pot(0.3, d, 0.0) for d in (0.5, 1.0, 2.0)]
    assert np.all(np.diff(v) > 0)
    assert planning.v0_for_pot(0.3, 1.0, math.radians(60.0)) > planning.v0_for_pot(0.3, 1.0, 0.0)
    # the closed-form launch speed inverts the slide-then-roll law
    v0 = planning.launch_speed_for(1.3, 0.4)
    assert planning.rolled_speed(v0, 1.3) == pytest.approx(0.4, rel=1e-9)


def test_player_placements_are_spots_the_referee_accepts_G_3_22_9B_5_10(table9):
    """`placements_valid` keeps only spots the referee's check accepts (jaws and cushion
    segments included), for the whole bed and the kitchen (G-3.10, G-3.16)."""
    rng = np.random.default_rng(3)
    g = planning.table_geom(table9)
    pos = np.column_stack([rng.uniform(R, g.w - R, 10), rng.uniform(R, g.l - R, 10)])
    on = np.ones(10, bool)
    for kitchen in (False, True):
        xy = np.column_stack([rng.uniform(0.0, g.w, 4000), rng.uniform(0.0, g.l, 4000)])
        ok = planning.placements_valid(g, xy, pos, on, kitchen=kitchen)
        assert ok.sum() > 200
        for x, y in xy[ok][:400]:
            assert placement_error(x, y, pos, on, table9, R, kitchen=kitchen, may_touch=False) is None
        spot = planning.random_placement(g, pos, on, rng, kitchen=kitchen)
        assert placement_error(*spot, pos, on, table9, R, kitchen=kitchen, may_touch=False) is None


def test_placements_valid_is_the_referee_check_with_the_players_margin(table9):
    """`placements_valid` accepts exactly the spots the referee's `placement_error` accepts that
    also keep the margin ``gap`` from the cushion lines, the head string, the pocket circles and
    (beyond 2R) the balls; with no margin, exactly the referee's spots."""
    rng = np.random.default_rng(4)
    g = planning.table_geom(table9)
    pos = np.column_stack([rng.uniform(R, g.w - R, 10), rng.uniform(R, g.l - R, 10)])
    on = np.ones(10, bool)
    on[3] = False
    for kitchen in (False, True):
        xy = np.column_stack([rng.uniform(0.0, g.w, 3000), rng.uniform(0.0, g.l, 3000)])
        xy[:200] = pos[1 + np.arange(200) % 9] + 2 * R * np.column_stack([np.cos(np.arange(200)), np.sin(np.arange(200))])
        for gap in (1e-3, 0.0):
            ok = planning.placements_valid(g, xy, pos, on, kitchen=kitchen, gap=gap)
            m = R + gap
            for (x, y), got in zip(xy, ok):
                want = (m <= x <= g.w - m and m <= y <= g.l - m and (not kitchen or y < g.head_string_y - gap)
                        and all(math.hypot(x - px, y - py) >= pr + gap for px, py, pr in g.pockets)
                        and all(math.hypot(x - pos[k, 0], y - pos[k, 1]) >= 2 * R + gap for k in range(1, 10) if on[k])
                        and placement_error(x, y, pos, on, table9, R, kitchen=kitchen, may_touch=False) is None)
                assert got == want


def test_best_p_run_is_the_pot_tables_best_p():
    """`_best_p_run` (the scoring of ball-in-hand spots) gives, for every cue position, exactly
    the max of the full pot table's p over its (target, pocket) entries (0 without a pot), with
    and without danger balls, for crowded and sparse layouts, with cut limits of 80 and 88 deg
    (whose cosine is below p's floor of 0.1); asked for the first position of the best value only
    (``first_best``), that position and value are the same and no value is above the exact one."""
    rng = np.random.default_rng(6)
    g = planning.TableGeom.wpa()
    potted = 0
    for trial in range(60):
        consts = planning.pot_consts(g, 0.125, 80.0 if trial % 4 else 88.0)  # cos(88 deg) < 0.1
        n = 16
        balls = np.column_stack([rng.uniform(R, g.w - R, n), rng.uniform(R, g.l - R, n)])
        on = rng.random(n) < (0.9 if trial % 2 else 0.4)
        on[0] = False
        targets = np.array([b for b in range(1, n) if rng.random() < 0.5], np.int64)
        danger = np.array([8] if trial % 3 == 0 else [], np.int64)
        Q = np.column_stack([rng.uniform(R, g.w - R, 200), rng.uniform(R, g.l - R, 200)])
        Q[:40] = balls[1 + np.arange(40) % (n - 1)] + rng.uniform(-0.3, 0.3, (40, 2))
        _, out, tg, _ = planning._pot_run(consts, g.aims, g.axes, g.half_widths, planning.APPROACH_LIMIT, balls, on,
                                          targets, np.int64(0), danger, 4.0, Q)
        want = out[0].reshape(len(Q), -1).max(axis=1) if tg.shape[0] else np.zeros(len(Q))
        got = planning._best_p_run(consts, g.aims, g.axes, g.half_widths, planning.APPROACH_LIMIT, balls, on,
                                   targets, np.int64(0), danger, 4.0, Q, False, np.empty((len(Q), 4)))
        assert np.array_equal(got, want)
        # only the first position of the best value asked for: that position and value exact,
        # no value above the exact one
        first = planning._best_p_run(consts, g.aims, g.axes, g.half_widths, planning.APPROACH_LIMIT, balls, on,
                                     targets, np.int64(0), danger, 4.0, Q, True, np.empty((len(Q), 4)))
        assert int(np.argmax(first)) == int(np.argmax(want)) and first.max() == want.max()
        assert (first <= want).all()
        # an empty ``pick``: the values only, the same
        for fb, same in ((False, got), (True, first)):
            values = planning._best_p_run(consts, g.aims, g.axes, g.half_widths, planning.APPROACH_LIMIT, balls, on,
                                          targets, np.int64(0), danger, 4.0, Q, fb, np.empty((0, 4)))
            assert np.array_equal(values, same)
        potted += int((want > 0).sum())
    assert potted > 1000


def test_decide_tables_best_pot_is_the_pot_tables_best():
    """The geometric player's pot (`poolgym.players.kernels.decide_tables`, `Kind.SHOOT`, with
    no preview ball) is the pot table's (`_pot_run`) feasible entry of the highest p, ties to the
    lower ball, then the lower pocket, with its phi and V0, or none when no entry is feasible,
    for crowded and sparse layouts, with and without danger balls."""
    from poolgym.players.kernels import Kind, TableBatch

    rng = np.random.default_rng(11)
    g = planning.TableGeom.wpa()
    consts = planning.pot_consts(g, 0.125)
    B, n = 400, 16
    t = TableBatch(B, n)
    want = []
    for k in range(B):
        balls = np.column_stack([rng.uniform(R, g.w - R, n), rng.uniform(R, g.l - R, n)])
        on = rng.random(n) < (0.9 if k % 2 else 0.4)
        on[0] = True
        pots = tuple(b for b in range(1, n) if rng.random() < 0.6)
        danger = (8,) if k % 3 == 0 and 8 not in pots else ()
        t.P[k], t.ON[k] = balls, on
        t.set(k, Kind.SHOOT, pots, pots, danger)
        ok, out, tg, _ = planning._pot_run(consts, g.aims, g.axes, g.half_widths, planning.APPROACH_LIMIT, balls,
                                           on, np.array(pots, np.int64), np.int64(0), np.array(danger, np.int64),
                                           4.0, balls[0:1])
        cands = [(-out[0, 0, ti, pk], int(tg[ti]), pk, out[1, 0, ti, pk], out[5, 0, ti, pk])
                 for ti in range(tg.shape[0]) for pk in range(6) if ok[0, ti, pk]]
        want.append(min(cands) if cands else None)
    t.run(g, 0.125, 0.0, 0.0, -1)
    found = 0
    for k in range(B):
        w = want[k]
        if w is None:
            assert t.I[k, 0] == -1 and t.F[k, 2] == 0.0
            continue
        found += 1
        assert (int(t.I[k, 0]), int(t.I[k, 1])) == (w[1], w[2])
        assert (t.F[k, 0], t.F[k, 1], t.F[k, 2]) == (w[3], w[4], -w[0])
    assert found > 200


def test_norm_is_numpys_to_the_bit():
    """`planning._norm` (used by `unit` and `aim`) equals ``np.linalg.norm(v, axis=-1)`` bit for
    bit over scales from 1e-8 to 1e3 and the shapes the planners pass."""
    rng = np.random.default_rng(0)
    for shape in [(2,), (5, 2), (3, 6, 2), (1, 1, 2), (7, 1, 2)]:
        v = rng.normal(size=shape) * 10 ** rng.uniform(-8, 3, size=shape)
        np.testing.assert_array_equal(planning._norm(v), np.linalg.norm(v, axis=-1))
        np.testing.assert_array_equal(planning._norm(v, keepdims=True), np.linalg.norm(v, axis=-1, keepdims=True))


def _one_vector_cases():
    """Cue, object and target points: random, and the degenerate ones (object on its target,
    cue ball on the ghost ball, all on one spot, integer spots, tiny coordinates)."""
    rng = np.random.default_rng(11)
    for k in range(4000):
        cue, obj, tgt = rng.uniform(-0.1, 2.6, (3, 2))
        if k % 7 == 1:
            obj = tgt.copy()
        elif k % 7 == 2:
            cue = planning.ghost_ball(obj, tgt)
        elif k % 7 == 3:
            cue = obj = tgt
        elif k % 7 == 4:
            cue, obj, tgt = rng.integers(0, 3, (3, 2)).astype(float)
        elif k % 7 == 5:
            cue, obj = cue * 1e-8, obj * 1e-8
        yield cue, obj, tgt


def test_aim_and_unit_of_one_vector_are_the_batched_formulas_bit_for_bit():
    """`aim` and `unit` of single (2,) points (their float fast path) give the values and
    types of the same call on a batch of one, bit for bit (signed zeros included)."""
    for cue, obj, tgt in _one_vector_cases():
        one = planning.aim(cue, obj, tgt)
        batch = planning.aim(cue[None], obj[None], tgt[None])
        for f in ("phi", "cut", "ghost", "d_cue", "d_obj", "feasible"):
            a, b = getattr(one, f), getattr(batch, f)[0]
            assert type(a) is type(b) and np.asarray(a).tobytes() == np.asarray(b).tobytes(), (f, cue, obj, tgt)
        for v in (tgt - obj, cue - obj, np.zeros(2), -np.zeros(2)):
            assert planning.unit(v).tobytes() == planning.unit(v[None])[0].tobytes()
