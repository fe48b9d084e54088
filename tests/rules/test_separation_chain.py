"""Round-off separation of frozen chains (G-3.32 spots several balls on the long string, each
frozen to the next): neither the referee's separation nor the environments' guard may press a
ball of the chain into its neighbour beyond what the physics accepts (1e-9 m)."""

import numpy as np
import pytest

import physics
from poolgym.rules.geometry import DEFAULT_R as R
from poolgym.rules.geometry import get_table, separate_overlaps, spot_balls
from poolgym.rules.separation import separate_overlaps_batch

pytestmark = pytest.mark.rule("G-3.32")


def _chain(n_spot: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """Cue ball at the head spot; object balls 1..n_spot spotted together (G-3.32.2): a
    chain from the foot spot toward the foot rail, each ball frozen to the next."""
    table = get_table("9ft")
    P = np.zeros((16, 2))
    on = np.zeros(16, bool)
    P[0] = (table.w / 2 - 0.2, table.l / 4)
    on[0] = True
    P = spot_balls(range(1, n_spot + 1), P, on, table, R)
    on[: n_spot + 1] = True
    return P, on


def _min_gap(P, on):
    idx = np.flatnonzero(on)
    Q = P[idx]
    d = np.hypot(*(Q[:, None, :] - Q[None, :, :]).transpose(2, 0, 1))
    d[np.diag_indices(len(idx))] = np.inf
    return d.min() - 2 * R


def test_spotted_chain_is_frozen():
    P, on = _chain()
    gaps = np.diff(P[1:8, 1]) - 2 * R
    assert np.all(np.abs(gaps) < 1e-12) and np.all(P[1:8, 0] == P[1, 0])


@pytest.mark.parametrize("dent", [-2e-16, -4e-10, -3e-9])
def test_guard_leaves_chain_acceptable_to_physics(dent):
    """The environments' guard on a spotted chain with one pair closer than touching (by
    round-off, and by more than the physics accepts): afterwards no pair overlaps by 1e-9 m
    and a shot from that layout is simulated."""
    P, on = _chain()
    P[3, 1] += dent  # press ball 3 toward ball 2
    rvw = np.zeros((1, 16, 3, 3))
    rvw[0, :, 0, :2] = P
    rvw[0, :, 0, 2] = R
    s = np.where(on, 0, 4).astype(np.int8)[None]
    separate_overlaps_batch(rvw, s, R)
    assert _min_gap(rvw[0, :, 0, :2], on) > -1e-9
    if dent > -5e-10:  # what the physics accepts as it is, the guard leaves alone
        assert np.array_equal(rvw[0, :, 0, :2], P)
    table = physics.Table.wpa("9ft")
    res = physics.simulate_batch(table, rvw, np.array([[1.0, 0.0, 0.0, 0.0, 0.0]]),
                                 np.zeros(1, np.int64), s=s)
    assert res.s.shape == (1, 16)


def test_referee_separation_runs_the_push_out_along_the_chain():
    P, on = _chain()
    P[3, 1] -= 5e-8  # a rounding overlap of the size the physics can leave
    Q = separate_overlaps(P, on, R)
    assert _min_gap(Q, on) >= 1e-9 - 1e-15
