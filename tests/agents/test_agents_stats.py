"""Tournament statistics: Wilson score interval and sequential Elo, exact values."""

import math

import pytest

from agents.stats import ELO_INITIAL, elo_expected, elo_ratings, wilson_interval


def test_wilson_known_values():
    # 95 of 100: Wilson (1927) closed form evaluated with mpmath at 30 digits
    lo, hi = wilson_interval(95, 100)
    assert lo == pytest.approx(0.8882495308, abs=1e-9)
    assert hi == pytest.approx(0.9784563208, abs=1e-9)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775327999, abs=1e-9)
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(0.7224672001, abs=1e-9)


def test_wilson_symmetric_and_contains_p():
    for k, n in [(3, 7), (50, 100), (1, 2), (7.5, 20)]:
        lo, hi = wilson_interval(k, n)
        assert lo <= k / n <= hi
        lo2, hi2 = wilson_interval(n - k, n)
        assert lo2 == pytest.approx(1 - hi) and hi2 == pytest.approx(1 - lo)


def test_wilson_bad_input():
    with pytest.raises(ValueError, match="k, n"):
        wilson_interval(5, 3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_exact_sequence():
    r = elo_ratings([("a", "b", 1.0), ("a", "b", 1.0), ("b", "a", 0.5)])
    # game 1: both 1500, E = 0.5 -> a 1508, b 1492
    ra, rb = 1508.0, 1492.0
    # game 2: E_a = 1/(1+10^(-16/400))
    ea = 1.0 / (1.0 + 10 ** ((rb - ra) / 400))
    ra, rb = ra + 16 * (1 - ea), rb - 16 * (1 - ea)
    eb = 1.0 / (1.0 + 10 ** ((ra - rb) / 400))
    rb, ra = rb + 16 * (0.5 - eb), ra - 16 * (0.5 - eb)
    assert r["a"] == pytest.approx(ra, abs=1e-12) and r["b"] == pytest.approx(rb, abs=1e-12)
    assert r["a"] + r["b"] == pytest.approx(2 * ELO_INITIAL)
    assert elo_expected(1500, 1500) == 0.5
    assert math.isclose(elo_expected(1900, 1500), 1 / 1.1)


def test_elo_rejects_bad_score():
    with pytest.raises(ValueError, match="score"):
        elo_ratings([("a", "b", 2.0)])
