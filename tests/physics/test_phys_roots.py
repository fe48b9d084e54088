"""Polynomial root finders against mpmath on hard cases (double roots, grazes, tiny roots):
the quartic ones and ``first_down_crossing`` (degree up to 8)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from physics.roots import (
    first_down_crossing, first_down_crossing4, quadratic_roots, real_roots4, smallest_positive_root4,
)

mpmath.mp.dps = 60


def mp_real_roots(coeffs, lo, hi):
    """Real roots in [lo, hi] of the polynomial with float coefficients, in high precision."""
    c = [mpmath.mpf(float(x)) for x in coeffs]
    while c and c[0] == 0:
        c = c[1:]
    if len(c) < 2:
        return []
    rts = mpmath.polyroots(c, maxsteps=500, extraprec=400)
    out = []
    for r in rts:
        r = mpmath.mpc(r)
        if abs(r.imag) <= mpmath.mpf("1e-25") * max(1, abs(r.real)) and lo <= r.real <= hi:
            out.append(float(r.real))
    return sorted(out)


def ours(coeffs, lo=0.0, hi=100.0):
    out = np.zeros(4)
    m = real_roots4(*[float(x) for x in coeffs], lo, hi, out)
    return list(out[:m])


@pytest.mark.parametrize("roots", [
    [1.0, 2.0, 3.0, 4.0],
    [1e-9, 0.5, 2.0, 7.0],            # one tiny root (touching balls)
    [1e-15, 1.0, 1.5, 30.0],
    [0.25, 0.25 + 1e-7, 3.0, 9.0],    # nearly double root (grazing contact)
    [0.1, 0.1 + 1e-4, 0.1 + 2e-4, 5.0],
])
def test_distinct_roots_match_mpmath(roots):
    coeffs = np.poly(roots)
    ref = mp_real_roots(coeffs, 0.0, 100.0)
    got = ours(coeffs)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert abs(g - r) <= 1e-9 * max(1.0, abs(r)) + 1e-12


def test_double_root_reported_once_and_touch_detected():
    coeffs = np.poly([0.5, 0.5, 2.0, 3.0])  # f >= 0 near 0.5: touches zero (tangent graze)
    got = ours(coeffs)
    assert got[0] == pytest.approx(0.5, abs=1e-7)
    assert got[1:] == pytest.approx([2.0, 3.0], rel=1e-12)


def test_first_down_crossing_skips_separating_roots():
    # f = (t - 1)(t - 2)(t - 3)(t - 4) starts positive: down at 1, up at 2, down at 3
    c = np.poly([1.0, 2.0, 3.0, 4.0])
    assert first_down_crossing4(*c, 0.0, 10.0) == pytest.approx(1.0, rel=1e-14)
    assert first_down_crossing4(*c, 1.5, 10.0) == pytest.approx(3.0, rel=1e-14)
    # starts negative (overlapping and separating): first down crossing is at 3
    c = np.poly([-0.5, 2.0, 3.0, 4.0])
    assert np.polyval(c, 0.0) < 0
    assert first_down_crossing4(*c, 0.0, 10.0) == pytest.approx(3.0, rel=1e-12)
    # nothing inside the horizon
    assert first_down_crossing4(*np.poly([5.0, 6.0, 7.0, 8.0]), 0.0, 4.0) == math.inf


def test_ball_ball_near_tangent_graze():
    """Relative motion C + B t: miss distance d0 from 2R; the contact exists iff d0 < 2R."""
    R2 = 2 * 0.028575
    for miss in (R2 - 1e-9, R2 + 1e-9):
        Cx, Cy, Bx, By = -1.0, miss, 2.0, 0.0
        c = [0.0, 0.0, Bx * Bx + By * By, 2 * (Bx * Cx + By * Cy), Cx * Cx + Cy * Cy - R2 * R2]
        t = first_down_crossing4(*c, 0.0, 10.0)
        ref = mp_real_roots(c, 0.0, 10.0)
        if miss < R2:
            # ill-conditioned (f' ~ 4e-5 at the root): a few 1e-12 s is the float64 limit
            assert t == pytest.approx(ref[0], abs=1e-10)
        else:
            assert t == math.inf and ref == []


def test_random_quartics_vs_mpmath():
    rng = np.random.default_rng(7)
    for _ in range(120):
        scale = 10.0 ** rng.uniform(-3, 2)
        coeffs = rng.normal(size=5) * np.array([1.0, scale, scale**2, scale**3, scale**4])
        ref = [r for r in mp_real_roots(coeffs, 0.0, 50.0) if r > 0]
        got = smallest_positive_root4(*coeffs, 50.0)
        if not ref:
            assert got == math.inf or abs(np.polyval(coeffs, got)) < 1e-9 * np.abs(coeffs).max() * 50**4
            continue
        # a root the reference finds must be found unless it is a numerically double root
        assert got == pytest.approx(ref[0], rel=1e-7, abs=1e-10) or got < ref[0]


def test_quadratic_cancellation_free():
    r1, r2 = quadratic_roots(1.0, -1e8, 1.0)
    assert r1 == pytest.approx(1e-8, rel=1e-15)
    assert r2 == pytest.approx(1e8, rel=1e-15)
    assert math.isnan(quadratic_roots(1.0, 0.0, 1.0)[0])


def test_first_down_crossing_of_degree_8():
    """Degree 8 from its roots: the first root where the polynomial goes from > 0 to <= 0,
    separating roots skipped, a double root (touch from above) found, none past the horizon."""
    c = np.poly([0.3, 0.7, 1.1, 1.9, 2.5, 3.0, 4.2, 6.0])  # positive at 0: down at 0.3, 1.1, ...
    assert first_down_crossing(c, 0.0, 10.0) == pytest.approx(0.3, rel=1e-12)
    assert first_down_crossing(c, 0.5, 10.0) == pytest.approx(1.1, rel=1e-12)
    assert first_down_crossing(c, 2.6, 10.0) == pytest.approx(4.2, rel=1e-12)
    assert first_down_crossing(c, 0.0, 0.2) == math.inf
    touch = np.polymul(np.poly([0.5, 0.5]), np.poly([2.0, 2.5, 3.0, 3.5, 7.0, 8.0]))
    assert first_down_crossing(touch, 0.0, 10.0) == pytest.approx(0.5, abs=1e-7)
    # a quartic padded to degree 8 with leading zeros: a tiny root to a few ulps, a nearly
    # double one (a graze) within the round-off of its coefficients, as first_down_crossing4
    q = np.poly([1e-9, 0.25, 0.25 + 1e-7, 9.0])
    got = first_down_crossing(np.concatenate([np.zeros(4), q]), 0.0, 10.0)
    assert got == pytest.approx(first_down_crossing4(*q, 0.0, 10.0), rel=1e-13)
    q = np.poly([0.25, 0.25 + 1e-7, 3.0, 9.0])
    got = first_down_crossing(np.concatenate([np.zeros(4), q]), 0.0, 10.0)
    assert got == pytest.approx(0.25, abs=1e-9) and first_down_crossing4(*q, 0.0, 10.0) == pytest.approx(0.25, abs=1e-9)


def test_first_down_crossing_random_octics_vs_mpmath():
    rng = np.random.default_rng(8)
    for _ in range(150):
        scale = 10.0 ** rng.uniform(-2, 1)
        coeffs = rng.normal(size=9) * scale ** np.arange(9)
        ref = mp_real_roots(coeffs, 0.0, 20.0)
        # the first root where the sign goes from + to - (or the value at 0 is already <= 0
        # and the first such crossing comes later)
        want = math.inf
        for r in ref:
            if np.polyval(coeffs, r - 1e-9 * max(1.0, r)) > 0 > np.polyval(coeffs, r + 1e-9 * max(1.0, r)):
                want = r
                break
        got = first_down_crossing(coeffs, 0.0, 20.0)
        if want == math.inf:
            assert got == math.inf or abs(np.polyval(coeffs, got)) <= 1e-9 * np.abs(coeffs).max() * 20.0 ** 8
        else:
            assert got == pytest.approx(want, rel=1e-7, abs=1e-10) or got < want
