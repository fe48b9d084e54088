"""The search agent's fitted nine-ball position value (agents/search_value.py)."""

import numpy as np
import pytest

from agents.search_value import FITTED, N_BALLS, NineBallValue, fit


def test_fit_recovers_a_known_logistic_table():
    """Positions drawn from a known table: the fit gives back its win probabilities."""
    rng = np.random.default_rng(0)
    a = np.linspace(1.0, -0.5, N_BALLS)
    b = np.linspace(2.0, 0.5, N_BALLS)
    n = rng.integers(1, N_BALLS + 1, 40_000)
    q = rng.random(40_000)
    won = rng.random(40_000) < 1.0 / (1.0 + np.exp(-(a[n - 1] + b[n - 1] * q)))
    t = fit(n, q, won, bih_q=0.9, ridge=1e-3)
    truth = NineBallValue(tuple(a), tuple(b), 0.9)
    for k in range(1, N_BALLS + 1):
        for x in (0.0, 0.5, 1.0):
            assert t.win(k, x) == pytest.approx(truth.win(k, x), abs=0.04)
    assert t.win(3, 0.1, ball_in_hand=True) == pytest.approx(t.win(3, 0.9))


def test_sparse_balls_left_borrow_their_neighbours():
    """An n with no positions of its own is fitted on its neighbours' instead of failing."""
    rng = np.random.default_rng(1)
    n = rng.choice([1, 2, 4, 5, 6, 7, 8, 9], 5000)
    q = rng.random(5000)
    won = rng.random(5000) < 0.3 + 0.5 * q
    t = fit(n, q, won, bih_q=0.95)
    assert 0.2 < t.win(3, 0.0) < t.win(3, 1.0) < 0.95


def test_bad_tables_and_data_are_refused():
    with pytest.raises(ValueError, match="9 entries"):
        NineBallValue((0.0,) * 8, (0.0,) * 9, 0.9)
    with pytest.raises(ValueError, match="one length"):
        fit([1, 2], [0.5], [True, False], bih_q=0.9)
    with pytest.raises(ValueError, match="value_model"):
        from agents.search import SearchAgent

        SearchAgent(seed=0, value_model="fitted-ish")


def test_shipped_table_reads_like_nine_ball():
    """The shipped table: probabilities; a better next pot is worth more at every n, and so
    is ball in hand with the 9 alone left."""
    for k in range(1, N_BALLS + 1):
        v = [FITTED.win(k, x) for x in np.linspace(0.0, 1.0, 6)]
        assert all(0.0 < x < 1.0 for x in v)
        assert all(x < y for x, y in zip(v, v[1:]))
    assert FITTED.win(1, 0.0, ball_in_hand=True) > 0.85
    assert FITTED.games > 0 and FITTED.positions > 0
