"""The geometric player's compiled decisions (`poolgym.players.kernels.decide_tables`, one
kernel over tables) decide as the plain composition of the public planning functions they
replace (the oracle `tests/envs/player_reference.py`), on positions from seeded random games
of nine-ball, eight-ball and 14.1 and on seeded random layouts: the same pot, push-out
(9B-5.6), safety or kick (G-3.19 / 9B-5.9), call (8B-4.2, SP-6.3), 8-ball preview (8B-4.19),
option and ball-in-hand spot (G-3.10 / 9B-5.10 / 8B-4.10; the kitchen after a break scratch,
G-3.16), so the env's opponent plays the same game. The oracle measures lengths with numpy's
norm, whose BLAS dot may fuse a multiply-add, the kernel with sqrt(x^2 + y^2): angles and
speeds agree to 1e-9, everything else exactly. The batched decision of many tables
(`GeometricOpponent.decide_batch`) equals the one-table decisions bit for bit."""

import math

import numpy as np
import pytest

from poolgym.envs.opponents import GeometricOpponent
from poolgym.planning import (
    TableGeom,
    best_straight_in_placement,
    straight_in_placements,
    table_geom,
)
from poolgym.rules.core import ChooseOption, Phase, PlaceCueBall, ShotAction
from poolgym.rules.geometry import get_table
from tests.envs.player_reference import ReferencePlayer, oracle_straight_in_placement
from tests.envs.test_batched import _positions

DISCIPLINES = ["nine_ball", "eight_ball", "straight_pool"]


def _pairs(discipline, n, seed):
    env, pairs = _positions(discipline, n=n, seed=seed)
    return env, [(st, sp) for st, sp in pairs if sp is not None and st.phase is not Phase.GAME_OVER]


def _close(a, b) -> bool:
    """The same action; a shot's phi (mod 360) and V0 within 1e-9."""
    if type(a) is not type(b):
        return False
    if not isinstance(a, ShotAction):
        return a == b
    dphi = abs((a.phi - b.phi + 180.0) % 360.0 - 180.0)
    return (dphi < 1e-9 and math.isclose(a.V0, b.V0, rel_tol=0, abs_tol=1e-9)
            and (a.theta, a.a, a.b, a.called_ball, a.called_pocket, a.safety, a.push_out)
            == (b.theta, b.a, b.b, b.called_ball, b.called_pocket, b.safety, b.push_out))


@pytest.mark.parametrize("discipline", DISCIPLINES)
def test_opponent_decisions_equal_oracle(discipline):
    _, pairs = _pairs(discipline, n=150, seed=5)
    fast, oracle = GeometricOpponent(), GeometricOpponent()
    oracle.player = ReferencePlayer()
    seen = {"place": 0, "pot": 0, "safety": 0, "option": 0}
    for k, (st, sp) in enumerate(pairs):
        ra, rb = np.random.default_rng(k), np.random.default_rng(k)
        got, ref = fast(st, sp, ra), oracle(st, sp, rb)
        assert len(got) == len(ref) and all(_close(a, b) for a, b in zip(got, ref)), (k, got, ref)
        assert ra.random() == rb.random()  # the same draws consumed
        seen["place"] += isinstance(got[0], PlaceCueBall)
        seen["option"] += isinstance(got[-1], ChooseOption)
        if isinstance(got[-1], ShotAction):
            seen["safety" if got[-1].safety or got[-1].called_ball is None and discipline != "nine_ball"
                 else "pot"] += 1
    assert seen["place"] >= 5 and seen["pot"] >= 5, seen  # ball in hand and pots exercised


@pytest.mark.parametrize("discipline", DISCIPLINES)
def test_decide_batch_equals_one_table_calls(discipline):
    """One batched call for 150 tables (one compiled kernel call per round) gives every table
    exactly the actions, and consumes exactly the draws, of its own one-table call."""
    _, pairs = _pairs(discipline, n=150, seed=9)
    opp = GeometricOpponent()
    rngs_a = [np.random.default_rng(k) for k in range(len(pairs))]
    rngs_b = [np.random.default_rng(k) for k in range(len(pairs))]
    got = opp.decide_batch([p[0] for p in pairs], [p[1] for p in pairs], rngs_a)
    ref = [GeometricOpponent()(st, sp, r) for (st, sp), r in zip(pairs, rngs_b)]
    assert got == ref
    assert [r.random() for r in rngs_a] == [r.random() for r in rngs_b]
    assert sum(isinstance(a[0], PlaceCueBall) for a in got) >= 5


def test_safety_and_kick_equal_oracle():
    """Seeded random layouts where nothing is makeable: the safety (direct, one-rail kick,
    soft stroke; with an 8 to avoid, 8B-4.19/8B-4.20) equals the oracle's."""
    from poolgym.players.view import Decision, View

    geom = table_geom(get_table("9ft"))
    rng = np.random.default_rng(11)
    fast, ref = GeometricOpponent().player, ReferencePlayer()
    kinds = set()
    for trial in range(300):
        n = (4, 10, 16)[trial % 3]
        balls = np.column_stack([rng.uniform(geom.R, geom.w - geom.R, n), rng.uniform(geom.R, geom.l - geom.R, n)])
        on = rng.random(n) < 0.9
        on[0] = True
        targets = tuple(int(b) for b in rng.permutation(np.arange(1, n))[: rng.integers(1, 4)])
        danger = (n - 1,) if trial % 4 == 0 and on[n - 1] and n - 1 not in targets else ()
        callable_balls = targets if trial % 5 == 0 else ()
        v = View(Decision.SHOOT, geom, balls, on, targets, targets, bool(callable_balls), trial % 7 == 0, False,
                 False, False, False, (), danger, callable_balls)
        fast.rng, ref.rng = np.random.default_rng(trial), np.random.default_rng(trial)
        a, b = fast.safety(v, []), ref.safety(v, [])
        assert _close(a, b), (trial, a, b)
        kinds.add(round(a.V0 / fast.speed_margin, 9) == 1.5)
    assert kinds == {True, False}  # soft strokes and driven safeties exercised


@pytest.mark.parametrize("n_balls, kitchen", [(2, False), (10, False), (16, False), (16, True), (10, True)])
def test_best_straight_in_placement_equals_oracle(n_balls, kitchen):
    geom = table_geom(get_table("9ft"))
    rng = np.random.default_rng(n_balls + 100 * kitchen)
    found = 0
    for trial in range(60):
        balls = np.column_stack([rng.uniform(geom.R, geom.w - geom.R, n_balls),
                                 rng.uniform(geom.R, geom.l - geom.R, n_balls)])
        on = rng.random(n_balls) < 0.85
        on[0] = True
        targets = tuple(int(b) for b in rng.permutation(np.arange(1, n_balls))[: rng.integers(1, n_balls)])
        danger = (n_balls - 1,) if trial % 3 == 0 and n_balls > 2 else ()
        sigma = (0.125, 0.5)[trial % 2]
        got = best_straight_in_placement(geom, balls, on, targets, sigma, kitchen=kitchen, danger=danger)
        ref = oracle_straight_in_placement(geom, balls, on, targets, sigma, kitchen=kitchen, danger=danger)
        assert got == ref, trial
        found += got is not None
    assert found >= 30


def test_best_straight_in_placement_thins_like_oracle():
    """More than ``max_points`` valid candidates (15 targets x 6 pockets x 15 rays): the same
    evenly thinned set is scored."""
    geom = TableGeom.wpa()
    rng = np.random.default_rng(3)
    balls = np.column_stack([rng.uniform(0.2, geom.w - 0.2, 16), rng.uniform(0.2, geom.l - 0.2, 16)])
    on = np.ones(16, bool)
    targets = tuple(range(1, 16))
    assert len(straight_in_placements(geom, balls, on, targets, max_points=10_000)) > 160
    assert best_straight_in_placement(geom, balls, on, targets) == oracle_straight_in_placement(
        geom, balls, on, targets, 0.125)


def _on_the_eight(n, seed):
    """Eight-ball positions from seeded random games where the seat to act has cleared its
    group (its ball on is the 8, 8B-4.19): its group's balls taken off the table; the seat
    assigned solids when the table is open."""
    from poolgym.rules.game import get_discipline

    disc, (_, pairs) = get_discipline("eight_ball"), _pairs("eight_ball", n, seed)
    out = []
    for st, _ in pairs:
        if st.phase is not Phase.PLAY or not st.on_table[8]:
            continue
        seat = st.seat_to_act
        g = st.groups[seat] or 1
        groups = tuple(g if s == seat else 3 - g for s in range(len(st.groups)))
        group = range(1, 8) if g == 1 else range(9, 16)
        on = tuple(False if b in group else o for b, o in enumerate(st.on_table))
        st2 = st.replace(groups=groups, on_table=on)
        sp = disc.legal_actions(st2)
        if tuple(sp.target_balls) == (8,):
            out.append((st2, sp))
    return out


def test_eight_ball_preview_batched_equals_one_table_and_oracle_8B_4_19():
    """Pots on the 8 are previewed (one batched physics call for all tables of a round)
    exactly as one table at a time, and as the oracle's preview (one call per table):
    the same variant, or the same safety when every variant scratches."""
    import poolgym.players.batch as batch

    pairs = _on_the_eight(200, 13)
    assert len(pairs) >= 20
    seen = []
    real = batch.preview_pots

    def counting(table, states, pots, margin):
        got = real(table, states, pots, margin)
        seen.extend(got)
        return got

    opp, oracle = GeometricOpponent(), GeometricOpponent()
    oracle.player = ReferencePlayer()
    rngs_a = [np.random.default_rng(k) for k in range(len(pairs))]
    batch.preview_pots = counting
    try:
        got = opp.decide_batch([p[0] for p in pairs], [p[1] for p in pairs], rngs_a)
    finally:
        batch.preview_pots = real
    ref = [GeometricOpponent()(st, sp, np.random.default_rng(k)) for k, (st, sp) in enumerate(pairs)]
    assert got == ref
    for k, (st, sp) in enumerate(pairs):
        r = oracle(st, sp, np.random.default_rng(k))
        assert len(r) == len(got[k]) and all(_close(a, b) for a, b in zip(got[k], r)), (k, got[k], r)
    assert len(seen) >= 5 and any(s is not None for s in seen)  # previews made, some of them safe


def test_eight_ball_safeties_keep_the_eight_batched_one_table_and_oracle_8B_4_20():
    """A geometric safety while the 8 is on the table is simulated without noise first and
    played at the first speed factor (`SAFETY_FACTORS`) that leaves the 8 on the bed (8B-4.20:
    pocketing it on a safety loses; 1.0 when none does): batched (one physics call per factor
    for all tables of a round) exactly as one table at a time and as the oracle (one call per
    factor and table); each factor found is the first that keeps the 8, simulated alone."""
    import physics
    import poolgym.players.batch as batch
    from poolgym.planning import V0_MAX
    from poolgym.players.geometric import SAFETY_FACTORS
    from poolgym.rules.game import physics_inputs

    pairs = [p for p in _on_the_eight(400, 17) + _pairs("eight_ball", 120, 19)[1]
             if p[1] is not None and p[0].phase is Phase.PLAY and p[0].on_table[8]]
    calls = []
    real = batch.preview_safeties

    def recording(table, states, strokes, margin, ball=8):
        got = real(table, states, strokes, margin, ball)
        calls.append((table, states, strokes, margin, got))
        return got

    rngs = [np.random.default_rng(k) for k in range(len(pairs))]
    batch.preview_safeties = recording
    try:
        got = GeometricOpponent().decide_batch([p[0] for p in pairs], [p[1] for p in pairs], rngs)
    finally:
        batch.preview_safeties = real
    ref = [GeometricOpponent()(st, sp, np.random.default_rng(k)) for k, (st, sp) in enumerate(pairs)]
    assert got == ref
    oracle = GeometricOpponent()
    oracle.player = ReferencePlayer()
    for k, (st, sp) in enumerate(pairs):
        r = oracle(st, sp, np.random.default_rng(k))
        assert len(r) == len(got[k]) and all(_close(a, b) for a, b in zip(got[k], r)), (k, got[k], r)

    def keeps(table, st, phi, V0):
        rvw, s = physics_inputs(st)
        res = physics.simulate_batch(table, rvw[None].copy(), np.array([[V0, phi, 0.0, 0.0, 0.0]]),
                                     np.zeros(1, np.int64), s=s[None].copy())
        return bool(res.pocket[0, 8] < 0 and res.s[0, 8] != int(physics.Motion.OFF_TABLE))

    factors = []
    for table, states, strokes, margin, out in calls:
        for st, (phi, V0), f in zip(states, strokes, out):
            factors.append(f)
            ok = [keeps(table, st, phi, float(min(V0 * g * margin, V0_MAX))) for g in SAFETY_FACTORS]
            assert f == (SAFETY_FACTORS[ok.index(True)] if any(ok) else 1.0)
    assert len(factors) >= 20 and any(f != 1.0 for f in factors)  # safeties previewed, some played softer


def test_eight_ball_preview_first_variants_then_the_rest_equals_one_batch_8B_4_19():
    """`preview_pots` (every table's first variant, then the rest of the tables whose first
    one failed) gives per table the first variant that pockets the 8 without a scratch, as
    one batched call of every variant does; a table whose layout the physics refuses (cue
    ball overlapping the 8) previews nothing, the other tables are unaffected."""
    from poolgym.players.geometric import PREVIEW_VARIANTS, V0_MAX, _preview_batch, preview_pots
    from poolgym.rules.game import physics_inputs

    pairs = _on_the_eight(120, 5)
    table = get_table(pairs[0][0].config.table)
    rng = np.random.default_rng(3)
    states, pots = [], []
    for k, (st, _) in enumerate(pairs):
        P = np.array(st.pos, np.float64).reshape(-1, 2)
        cue, eight = P[0], P[8]
        phi = math.degrees(math.atan2(*(eight - cue)[::-1]))
        E = np.array([[phi + rng.normal(0, 2), rng.uniform(0.8, 4.0), rng.integers(6)] for _ in range(k % 3)])
        if k == 4:  # the cue ball on the 8
            P[0] = P[8]
            st = st.replace(pos=tuple(P.ravel().tolist()))
        states.append(st)
        pots.append(E.reshape(-1, 3))
    for margin in (1.0, 1.1):
        rows = [[(phi, min(max(V0 * margin * f, 0.2), V0_MAX), b, int(p)) for phi, V0, p in E.tolist()
                 for f, b in PREVIEW_VARIANTS] for E in pots]
        inputs = [physics_inputs(st) if len(E) else None for st, E in zip(states, pots)]
        one = _preview_batch(table, inputs, rows, [None] * len(states))
        got = preview_pots(table, states, pots, margin)
        assert got == one
        assert got[4] is None and any(g is not None for g in got)
        assert any(g is not None and g != r[0] for g, r in zip(got, rows))  # some found after the first


@pytest.mark.parametrize("env_id", ["poolgym/NineBall-v0", "poolgym/EightBall-v0", "poolgym/StraightPool-v0"])
def test_native_vector_equals_single_envs_with_the_geometric_opponent(env_id):
    """Seeded episodes (random Box actions, autoreset) of 8 tables: the native vector env,
    whose opponent decides for all tables at once, gives the observations, rewards and ends
    of 8 single envs, whose opponent decides one table at a time."""
    from .conftest import assert_vector_matches_single

    assert_vector_matches_single(env_id, {"max_shots": 30, "opponent": "geometric"}, n=8, seed=21, steps=30)
