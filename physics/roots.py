"""Real roots of polynomials on an interval, by monotone bracketing: quartics, and any degree
up to 8 (:func:`first_down_crossing`, for the jaw-tip nose contact of ``physics.air``).

Event times are the first instant a gap function ``f(t)`` (squared distance minus squared
contact distance, or signed distance to a cushion line) crosses zero *downwards* (the
objects approach and touch). Rather than the closed-form Ferrari/Cardano formulas, whose
round-off degrades badly near double roots (grazing contacts) and for tiny roots (touching
balls), we split the interval at the real roots of ``f'`` (found the same way, recursively
down to a closed-form quadratic) so that ``f`` is monotone on every piece, and refine any
sign change with a safeguarded Newton-bisection iteration. The result is accurate to a few
ulps of the root, is exactly monotone in its bracketing, never reports a spurious complex
pair as real, and finds a double root when the polynomial actually touches zero at a
critical point (within round-off of the polynomial value).

All functions are ``@njit(cache=True)``; the quartic ones are allocation-free. Coefficients
are given from the highest power down: ``a t^4 + b t^3 + c t^2 + d t + e``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

_MAXIT = 80


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _eval4(a, b, c, d, e, x):
    """Value and derivative of a t^4 + b t^3 + c t^2 + d t + e at x (Horner)."""
    f = (((a * x + b) * x + c) * x + d) * x + e
    df = ((4.0 * a * x + 3.0 * b) * x + 2.0 * c) * x + d
    return f, df


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _refine(a, b, c, d, e, x0, x1, f0, f1):
    """Root of the (monotone on [x0, x1]) quartic with f0 = f(x0), f1 = f(x1) of opposite sign."""
    if f0 == 0.0:
        return x0
    if f1 == 0.0:
        return x1
    # regula-falsi start, then Newton steps kept inside the shrinking bracket
    x = x0 - f0 * (x1 - x0) / (f1 - f0)
    if not (x0 < x < x1):
        x = 0.5 * (x0 + x1)
    neg0 = f0 < 0.0
    for _ in range(_MAXIT):
        fx, dfx = _eval4(a, b, c, d, e, x)
        if fx == 0.0:
            return x
        if (fx < 0.0) == neg0:
            x0 = x
        else:
            x1 = x
        if x1 - x0 <= 2.0e-16 * max(abs(x0), abs(x1)) or x1 - x0 <= 1e-300:
            return x
        xn = x - fx / dfx if dfx != 0.0 else 0.5 * (x0 + x1)
        if not (x0 < xn < x1):
            xn = 0.5 * (x0 + x1)
        if xn == x:
            return x
        x = xn
    return x


@njit(cache=True, no_cfunc_wrapper=True, error_model="numpy")
def quadratic_roots(a, b, c):
    """Real roots (r1 <= r2) of a x^2 + b x + c; (nan, nan) if none; linear if a == 0.

    Uses the cancellation-free form q = -(b + sign(b) sqrt(disc)) / 2.
    """
    if a == 0.0:
        if b == 0.0:
            return math.nan, math.nan
        r = -c / b
        return r, r
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return math.nan, math.nan
    sq = math.sqrt(disc)
    q = -0.5 * (b + sq) if b >= 0.0 else -0.5 * (b - sq)
    if q == 0.0:
        return 0.0, 0.0
    r1 = q / a
    r2 = c / q
    if r1 > r2:
        return r2, r1
    return r1, r2


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _quadratic_roots_in(qa, qb, qc, lo, hi):
    """``(k, r1, r2)``: the ``k`` distinct real roots of ``qa t^2 + qb t + qc`` strictly inside
    (lo, hi), ascending; the unused entries are ``hi``."""
    q1, q2 = quadratic_roots(qa, qb, qc)
    r1 = r2 = hi
    k = 0
    if not math.isnan(q1):
        if lo < q1 < hi:
            r1 = q1
            k = 1
        if q2 > q1 and lo < q2 < hi:
            if k == 0:
                r1 = q2
            else:
                r2 = q2
            k += 1
    return k, r1, r2


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _breakpoints(a, b, c, d, e, lo, hi):
    """Split [lo, hi] into pieces on which the quartic (a..e) is monotone.

    Returns ``(n, (x_0 = lo, x_1, ..., x_{n-1} = hi, pad...))``: the real roots of the
    derivative cubic inside (lo, hi), bracketed in turn by the roots of its own derivative.
    Allocation-free (tuples of scalars).
    """
    lo = float(lo)
    hi = float(hi)
    A, B, C, D = 4.0 * a, 3.0 * b, 2.0 * c, d
    x3 = hi
    if A == 0.0:
        m, x1, x2 = _quadratic_roots_in(B, C, D, lo, hi)
    else:
        x1 = x2 = hi
        m = 0
        k, e1, e2 = _quadratic_roots_in(3.0 * A, 2.0 * B, C, lo, hi)
        ends = (lo, e1, e2, hi)
        last = lo
        x0 = lo
        g0 = ((A * x0 + B) * x0 + C) * x0 + D
        for s in range(1, k + 2):
            xe = ends[s] if s <= k else hi
            g1 = ((A * xe + B) * xe + C) * xe + D
            if (g0 < 0.0 and g1 > 0.0) or (g0 > 0.0 and g1 < 0.0):
                r = _refine(0.0, A, B, C, D, x0, xe, g0, g1)
                if lo < r < hi and r > last:
                    if m == 0:
                        x1 = r
                    elif m == 1:
                        x2 = r
                    else:
                        x3 = r
                    m += 1
                    last = r
            x0, g0 = xe, g1
    return m + 2, (lo, x1, x2, x3, hi)


@njit(cache=True, no_cfunc_wrapper=True, error_model="numpy")
def first_down_crossing4(a, b, c, d, e, lo, hi):
    """Smallest t in (lo, hi] where the quartic crosses from > 0 to <= 0, else inf.

    This is the contact time of an approaching pair whose gap function is the quartic.
    Roots where the function rises through zero (objects separating) are skipped; a double
    root where the polynomial only touches zero from above counts (grazing contact) only if
    its computed value there is <= 0.

    The monotone pieces are those of :func:`_breakpoints`, taken in order; the breakpoints
    after the piece holding the crossing are not computed (the same pieces and result).
    """
    if not (hi > lo):
        return math.inf
    lo = float(lo)
    hi = float(hi)
    A, B, C, D = 4.0 * a, 3.0 * b, 2.0 * c, d
    if A == 0.0:
        n, pts = _breakpoints(a, b, c, d, e, lo, hi)
        x0 = lo
        f0, _ = _eval4(a, b, c, d, e, x0)
        for k in range(1, n):
            x1 = pts[k] if k < n - 1 else hi
            f1, _ = _eval4(a, b, c, d, e, x1)
            if f0 > 0.0 and f1 <= 0.0:
                r = _refine(a, b, c, d, e, x0, x1, f0, f1)
                if r > lo:
                    return r
            x0, f0 = x1, f1
        return math.inf
    # the derivative f' = A t^3 + B t^2 + C t + D is monotone between the roots of f''
    k, e1, e2 = _quadratic_roots_in(3.0 * A, 2.0 * B, C, lo, hi)
    ends = (lo, e1, e2, hi)
    x0, f0 = lo, _eval4(a, b, c, d, e, lo)[0]  # start of the current piece of f
    last = lo
    y0 = lo
    g0 = ((A * y0 + B) * y0 + C) * y0 + D
    m = 0
    for s in range(1, k + 2):
        ye = ends[s] if s <= k else hi
        g1 = ((A * ye + B) * ye + C) * ye + D
        if (g0 < 0.0 and g1 > 0.0) or (g0 > 0.0 and g1 < 0.0):
            r = _refine(0.0, A, B, C, D, y0, ye, g0, g1)
            if lo < r < hi and r > last and m < 3:
                m += 1
                last = r
                # the piece of f from x0 to this breakpoint
                f1, _ = _eval4(a, b, c, d, e, r)
                if f0 > 0.0 and f1 <= 0.0:
                    t = _refine(a, b, c, d, e, x0, r, f0, f1)
                    if t > lo:
                        return t
                x0, f0 = r, f1
        y0, g0 = ye, g1
    f1, _ = _eval4(a, b, c, d, e, hi)
    if f0 > 0.0 and f1 <= 0.0:
        t = _refine(a, b, c, d, e, x0, hi, f0, f1)
        if t > lo:
            return t
    return math.inf


@njit(cache=True, no_cfunc_wrapper=True, error_model="numpy")
def real_roots4(a, b, c, d, e, lo, hi, out):
    """All real roots of the quartic in [lo, hi] (ascending) written to ``out`` (len >= 4).

    Returns the count. Double roots are reported once. Used by tests and tools; the kernel
    calls :func:`first_down_crossing4`.
    """
    n, pts = _breakpoints(a, b, c, d, e, lo, hi)
    m = 0
    x0 = lo
    f0, _ = _eval4(a, b, c, d, e, x0)
    if f0 == 0.0:
        out[m] = x0
        m += 1
    for k in range(1, n):
        x1 = pts[k] if k < n - 1 else hi
        f1, _ = _eval4(a, b, c, d, e, x1)
        if f1 == 0.0:
            if m < 4 and (m == 0 or out[m - 1] < x1):
                out[m] = x1
                m += 1
        elif (f0 < 0.0 and f1 > 0.0) or (f0 > 0.0 and f1 < 0.0):
            r = _refine(a, b, c, d, e, x0, x1, f0, f1)
            if m < 4 and (m == 0 or out[m - 1] < r):
                out[m] = r
                m += 1
        x0, f0 = x1, f1
    return m


@njit(cache=True, no_cfunc_wrapper=True, error_model="numpy")
def smallest_positive_root4(a, b, c, d, e, hi):
    """Smallest real root of the quartic in (0, hi], or inf."""
    out = np.empty(4)
    m = real_roots4(a, b, c, d, e, 0.0, hi, out)
    for k in range(m):
        if out[k] > 0.0:
            return out[k]
    return math.inf


#: highest degree handled by :func:`first_down_crossing`
DEG_MAX = 8


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _horner(c, j, n, x):
    """Value at x of the degree-n polynomial in row j of ``c`` (highest power first)."""
    f = c[j, 0]
    for k in range(1, n + 1):
        f = f * x + c[j, k]
    return f


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _refine_row(c, j, n, x0, x1, f0, f1):
    """Root of the degree-n polynomial in row j of ``c``, monotone on [x0, x1] with f0, f1 of
    opposite signs: regula falsi with the Illinois modification (a bracket that always
    shrinks, no derivative needed), to a few ulps."""
    if f0 == 0.0:
        return x0
    if f1 == 0.0:
        return x1
    side = 0
    x = x0
    for _ in range(4 * _MAXIT):
        x = (x0 * f1 - x1 * f0) / (f1 - f0)
        if not (x0 < x < x1):
            x = 0.5 * (x0 + x1)
        fx = _horner(c, j, n, x)
        if fx == 0.0:
            return x
        if (fx < 0.0) == (f0 < 0.0):
            x0, f0 = x, fx
            if side == -1:
                f1 *= 0.5
            side = -1
        else:
            x1, f1 = x, fx
            if side == 1:
                f0 *= 0.5
            side = 1
        if x1 - x0 <= 4.0e-16 * max(abs(x0), abs(x1)) or x1 - x0 <= 1e-300:
            break
    return x


@njit(cache=True, no_cfunc_wrapper=True, error_model="numpy")
def first_down_crossing(coef, lo, hi):
    """:func:`first_down_crossing4` for a polynomial of any degree up to ``DEG_MAX``:
    ``coef`` (n + 1,) from the highest power down. The same monotone bracketing: the real
    roots of every derivative are found from the highest derivative down (each is monotone
    between the roots of the next), then the polynomial's first crossing from > 0 to <= 0
    in (lo, hi] is refined on its monotone piece; inf if none."""
    if not (hi > lo):
        return math.inf
    n = coef.shape[0] - 1
    c = np.zeros((n + 1, n + 1))  # row j: the j-th derivative, degree n - j
    for k in range(n + 1):
        c[0, k] = coef[k]
    for j in range(1, n + 1):
        deg = n - j + 1
        for k in range(deg):
            c[j, k] = c[j - 1, k] * (deg - k)
    pts = np.empty(n + 1)  # sign changes of the level above, inside (lo, hi), ascending
    new = np.empty(n + 1)
    m = 0
    for j in range(n - 1, 0, -1):
        deg = n - j
        mm = 0
        x0 = lo
        f0 = _horner(c, j, deg, x0)
        for k in range(m + 1):
            x1 = pts[k] if k < m else hi
            f1 = _horner(c, j, deg, x1)
            r = math.nan
            if (f0 < 0.0 and f1 > 0.0) or (f0 > 0.0 and f1 < 0.0):
                r = _refine_row(c, j, deg, x0, x1, f0, f1)
            elif f1 == 0.0 and k < m:
                r = x1
            if lo < r < hi and (mm == 0 or r > new[mm - 1]):
                new[mm] = r
                mm += 1
            x0, f0 = x1, f1
        for k in range(mm):
            pts[k] = new[k]
        m = mm
    x0 = lo
    f0 = _horner(c, 0, n, x0)
    for k in range(m + 1):
        x1 = pts[k] if k < m else hi
        f1 = _horner(c, 0, n, x1)
        if f0 > 0.0 and f1 <= 0.0:
            r = _refine_row(c, 0, n, x0, x1, f0, f1)
            if r > lo:
                return r
        x0, f0 = x1, f1
    return math.inf
