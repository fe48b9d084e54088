"""The compiled decision paths of the geometric player decide exactly as the plain
composition of the public planning functions they replace (the test oracles below), on
positions from seeded random games of nine-ball, eight-ball and 14.1 and on seeded random
layouts: ball in hand (G-3.10 / 9B-5.10 / 8B-4.10 after a foul; the kitchen after a break
scratch, G-3.16) is placed on the same spot, so the env's opponent plays the same game."""

import numpy as np
import pytest

from poolgym.envs.opponents import GeometricOpponent
from poolgym.planning import (
    TableGeom,
    best_p_from,
    best_straight_in_placement,
    straight_in_placements,
    table_geom,
)
from poolgym.players.geometric import GeometricPlayer
from poolgym.rules.core import PlaceCueBall, Phase
from poolgym.rules.geometry import get_table
from tests.envs.test_batched import _positions


def oracle_straight_in_placement(geom, balls, on, targets, sigma_phi, kitchen=False, danger=()):
    """Test oracle: the valid candidate spots as a list, then `best_p_from` with the cue ball
    lifted, the first best spot (None when no spot is valid)."""
    pts = straight_in_placements(geom, balls, on, targets, kitchen=kitchen)
    if not pts:
        return None
    lifted = np.asarray(on, bool).copy()
    lifted[0] = False
    ps = best_p_from(geom, balls, lifted, np.array(pts), targets, sigma_phi, danger=danger)
    return pts[int(np.argmax(ps))]


class OraclePlayer(GeometricPlayer):
    """Test oracle: the geometric player placing with `oracle_straight_in_placement`."""

    def place(self, v):
        if v.is_break:
            return super().place(v)
        best = oracle_straight_in_placement(v.geom, v.balls, v.on, v.pot_balls or v.targets, self.sigma_phi,
                                            kitchen=v.kitchen, danger=v.danger)
        if best is None:
            return super().place(v)  # the random fallback, identical in both
        return PlaceCueBall(*best)


@pytest.mark.parametrize("discipline", ["nine_ball", "eight_ball", "straight_pool"])
def test_opponent_decisions_equal_oracle(discipline):
    _, pairs = _positions(discipline, n=80, seed=5)
    pairs = [(st, sp) for st, sp in pairs if sp is not None and st.phase is not Phase.GAME_OVER]
    fast, oracle = GeometricOpponent(), GeometricOpponent()
    oracle.player = OraclePlayer()
    placed = 0
    for k, (st, sp) in enumerate(pairs):
        ra, rb = np.random.default_rng(k), np.random.default_rng(k)
        got, ref = fast(st, sp, ra), oracle(st, sp, rb)
        assert got == ref, (k, got, ref)
        assert ra.random() == rb.random()  # the same draws consumed
        placed += isinstance(got[0], PlaceCueBall)
    assert placed >= 5  # ball in hand exercised


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
