"""Three-dimensional contacts: airborne balls, bounces on the slate, cushions met in the air,
balls clearing the rail, and ball-ball contacts off the bed plane.

Geometry (z up, the bed at z = 0, a ball on the bed has its centre at z = R). A cushion is
modelled by its nose, a horizontal edge at height ``h = Table.cushion_height`` (about 1.28 R
on a WPA table) above the segment line, and the rail top level with it behind the nose
(Mathavan et al. 2010 give the nose height; pooltool's flat model touches the ball there):

- face: a ball in the air whose centre is at or below the nose (z <= h) touches the cushion
  when its centre is R from the segment line (as the flat models do); with no bed under it
  the face acts as a vertical wall (horizontal normal: the contact is found and resolved with
  the same normal, so a ball falling past the face is never pushed into the bed by it);
- nose edge: a ball above the nose (z > h) touches the edge when its centre is R from it,
  ``d^2 + (z - h)^2 = R^2`` (d the centre's distance to the segment line): a 3D contact normal
  that points up, so the ball rebounds upward or rides over the nose;
- clearing: a ball whose centre crosses the nose line above the nose without touching it (it
  is then more than R above it) is over the rail: it leaves the table (LEAVE_TABLE). A ball
  that lands on the rail top is not simulated further (the rail top has no return path in
  this model);
- jaw tips: the rounded jaw (a vertical cylinder of radius ``rj``) is a vertical face below
  the nose, as a segment's; its nose is the horizontal circle of radius ``rj`` at height h
  that joins the nose edges of the rail and the jaw segment (tangent to both at their ends),
  touched by a ball above the nose when its centre is R from that circle
  (:func:`nose_circle_time`; without it a ball coming down over a jaw tip would pass through
  the nose and land inside the cushion); a ball centre above the nose passing over the jaw
  circle is over the rail (cleared).

Contact impulses (:func:`contact`) are rigid, instantaneous and dissipative: Newton restitution
``e`` on the normal relative velocity of the contact point and Coulomb friction ``mu`` on its
slip, limited to the impulse that ends the slip (a sphere's effective tangential mass is
``2/7 m``: Han 2005's ``A = 7 / 2m``, as in ``physics.resolve.cushion.han_2005``). Used for
the slate (``e = BallParams.e_t``, ``mu = u_s``), and for a cushion met in the air
(``e = e_c``, ``mu = f_c``). :func:`ball_ball` is the frictional inelastic ball-ball model of
``physics.resolve.ball_ball.frictional_inelastic`` (Alciatore TP A-14 friction law) with a 3D
line of centres.

Numba caching: these functions are compiled into ``physics.kernel``; after editing this module
delete the stale caches (``find physics -name '*.nb[ic]' -delete``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from physics.detect import T_MAX, TOUCH_GAP, V_APPROACH, _circle_time, is_moving
from physics.motion import AIRBORNE, P_G, P_R, accel
from physics.resolve.ball_ball.frictional_inelastic import EPS_SLIP, alciatore_friction
from physics.roots import first_down_crossing, first_down_crossing4, quadratic_roots, real_roots4

#: kinds returned by the airborne cushion predictors
AIR_NONE, AIR_CONTACT, AIR_CLEAR = 0, 1, 2


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def contact(rv, nx, ny, nz, R, e, mu):
    """Impulse of a fixed body on ball ``rv`` at the contact point ``-R n`` (n: unit normal from
    the body to the ball centre); returns the normal impulse per unit mass (0 if the contact
    point is not approaching). Normal: Newton restitution ``e``. Tangential: Coulomb friction
    ``mu`` times the normal impulse against the slip, at most the impulse that ends the slip
    (``2/7`` of the slip speed per unit mass). The spin changes by ``(5 / 2R) n x J_t``; the
    normal impulse passes through the centre. Kinetic energy never rises."""
    # contact-point velocity u = v + w x (-R n)
    wx, wy, wz = rv[2, 0], rv[2, 1], rv[2, 2]
    ux = rv[1, 0] - R * (wy * nz - wz * ny)
    uy = rv[1, 1] - R * (wz * nx - wx * nz)
    uz = rv[1, 2] - R * (wx * ny - wy * nx)
    un = ux * nx + uy * ny + uz * nz
    if not un < 0.0:
        return 0.0
    jn = -(1.0 + e) * un
    tx, ty, tz = ux - un * nx, uy - un * ny, uz - un * nz
    st = math.sqrt(tx * tx + ty * ty + tz * tz)
    jt = 0.0
    if st > 0.0:
        jt = min(mu * jn, st / 3.5)
        tx, ty, tz = tx / st, ty / st, tz / st
    # J = jn n - jt t_hat (per unit mass)
    rv[1, 0] += jn * nx - jt * tx
    rv[1, 1] += jn * ny - jt * ty
    rv[1, 2] += jn * nz - jt * tz
    k = 2.5 * jt / R  # torque (-R n) x (-jt t_hat) / I = (5 jt / 2R) n x t_hat
    rv[2, 0] += k * (ny * tz - nz * ty)
    rv[2, 1] += k * (nz * tx - nx * tz)
    rv[2, 2] += k * (nx * ty - ny * tx)
    return jn


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def bounce(rv, P, v_settle):
    """An airborne ball meets the slate (its centre at height R): the contact impulse with
    restitution ``e_t`` and cloth friction ``u_s``. Returns True if it leaves the bed again
    (rebound at least ``v_settle``); otherwise it settles: vz = 0, z = R."""
    R = P[P_R]
    rv[0, 2] = R
    contact(rv, 0.0, 0.0, 1.0, R, P[12], P[2])
    if rv[1, 2] >= v_settle:
        return True
    rv[1, 2] = 0.0
    return False


@njit(cache=True, no_cfunc_wrapper=True)
def ball_ball(rv1, rv2, R, e_b, fa, fb, fc, frictional):
    """Collision of two balls along the 3D line of centres n = unit(r2 - r1).

    Normal: restitution ``e_b``, momentum conserved (equal masses). Tangential (``frictional``):
    the slip ``(v1 - v2) + R (w1 + w2) x n`` minus its normal part, Alciatore's friction
    ``u_b(s) = fa + fb exp(-fc s)`` times the normal velocity change, limited to the no-slip
    impulse (a seventh of the slip per unit mass); both spins change by ``(5 / 2R) n x D``.
    With ``frictional`` False: ``e_b`` is taken as given and there is no friction (the elastic
    frictionless model uses e_b = 1). Vertical velocities are kept."""
    dx = rv2[0, 0] - rv1[0, 0]
    dy = rv2[0, 1] - rv1[0, 1]
    dz = rv2[0, 2] - rv1[0, 2]
    d = math.sqrt(dx * dx + dy * dy + dz * dz)
    if d == 0.0:
        return
    nx, ny, nz = dx / d, dy / d, dz / d
    v1n = rv1[1, 0] * nx + rv1[1, 1] * ny + rv1[1, 2] * nz
    v2n = rv2[1, 0] * nx + rv2[1, 1] * ny + rv2[1, 2] * nz
    v1n_f = 0.5 * ((1.0 - e_b) * v1n + (1.0 + e_b) * v2n)
    v2n_f = 0.5 * ((1.0 + e_b) * v1n + (1.0 - e_b) * v2n)
    for c, nc in ((0, nx), (1, ny), (2, nz)):
        rv1[1, c] += (v1n_f - v1n) * nc
        rv2[1, c] += (v2n_f - v2n) * nc
    if not frictional:
        return
    dvn = abs(v2n_f - v1n_f)
    # slip (v1 - v2) + R (w1 + w2) x n, normal part removed (the normal velocities are
    # already final; the tangential part does not depend on them)
    wx = rv1[2, 0] + rv2[2, 0]
    wy = rv1[2, 1] + rv2[2, 1]
    wz = rv1[2, 2] + rv2[2, 2]
    sx = rv1[1, 0] - rv2[1, 0] + R * (wy * nz - wz * ny)
    sy = rv1[1, 1] - rv2[1, 1] + R * (wz * nx - wx * nz)
    sz = rv1[1, 2] - rv2[1, 2] + R * (wx * ny - wy * nx)
    sn = sx * nx + sy * ny + sz * nz
    sx, sy, sz = sx - sn * nx, sy - sn * ny, sz - sn * nz
    s = math.sqrt(sx * sx + sy * sy + sz * sz)
    if s > EPS_SLIP:
        u_b = alciatore_friction(s, fa, fb, fc)
        k = -u_b * dvn / s if s > 7.0 * u_b * dvn else -1.0 / 7.0
    else:
        k = -1.0 / 7.0
    Dx, Dy, Dz = k * sx, k * sy, k * sz
    rv1[1, 0] += Dx
    rv1[1, 1] += Dy
    rv1[1, 2] += Dz
    rv2[1, 0] -= Dx
    rv2[1, 1] -= Dy
    rv2[1, 2] -= Dz
    q = 2.5 / R
    cx = q * (ny * Dz - nz * Dy)
    cy = q * (nz * Dx - nx * Dz)
    cz = q * (nx * Dy - ny * Dx)
    rv1[2, 0] += cx
    rv1[2, 1] += cy
    rv1[2, 2] += cz
    rv2[2, 0] += cx
    rv2[2, 1] += cy
    rv2[2, 2] += cz


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _sphere_time(Cx, Cy, Cz, Bx, By, Bz, Ax, Ay, Az, rad, h):
    """First approach time of a point r(t) = C + B t + A t^2 to distance ``rad`` from the
    origin, in 3D, within (0, h]; 0 if touching and approaching (``detect._circle_time``'s
    rules, with a z component)."""
    if h > T_MAX:
        h = T_MAX
    e = Cx * Cx + Cy * Cy + Cz * Cz - rad * rad
    dist = math.sqrt(Cx * Cx + Cy * Cy + Cz * Cz)
    gap = dist - rad
    d1 = 2.0 * (Bx * Cx + By * Cy + Bz * Cz)
    c2 = Bx * Bx + By * By + Bz * Bz + 2.0 * (Ax * Cx + Ay * Cy + Az * Cz)
    if gap <= TOUCH_GAP:
        vn = 0.5 * d1 / dist if dist > 0.0 else 0.0
        if vn < -V_APPROACH:
            return 0.0
        if c2 < 0.0 and (vn <= 0.0 or (e < 0.0 and d1 * d1 <= 4.0 * e * c2)):
            return 0.0
        if e > 0.0:
            e = 0.0
    # cull: chord of the arc plus its bulge |A| h^2 / 4
    an = math.sqrt(Ax * Ax + Ay * Ay + Az * Az)
    Ex = Cx + (Bx + Ax * h) * h
    Ey = Cy + (By + Ay * h) * h
    Ez = Cz + (Bz + Az * h) * h
    Dx, Dy, Dz = Ex - Cx, Ey - Cy, Ez - Cz
    dd = Dx * Dx + Dy * Dy + Dz * Dz
    u = -(Cx * Dx + Cy * Dy + Cz * Dz) / dd if dd > 0.0 else 0.0
    u = min(max(u, 0.0), 1.0)
    px, py, pz = Cx + u * Dx, Cy + u * Dy, Cz + u * Dz
    if math.sqrt(px * px + py * py + pz * pz) > rad + 0.25 * an * h * h + 1e-12:
        return math.inf
    a = Ax * Ax + Ay * Ay + Az * Az
    b = 2.0 * (Ax * Bx + Ay * By + Az * Bz)
    return first_down_crossing4(a, b, c2, d1, e, 0.0, h)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _path(rv, s, P):
    """(velocity, half acceleration) of a ball's centre in 3D over its current motion state."""
    if s == AIRBORNE:
        return rv[1, 0], rv[1, 1], rv[1, 2], 0.0, 0.0, -0.5 * P[P_G]
    if not is_moving(s):
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    ax, ay = accel(rv, s, P)
    return rv[1, 0], rv[1, 1], 0.0, 0.5 * ax, 0.5 * ay, 0.0


@njit(cache=True, no_cfunc_wrapper=True)
def ball_ball_time(rv1, s1, rv2, s2, P, h):
    """Time until two balls touch in 3D (at least one of them airborne), inf if not within h."""
    b1x, b1y, b1z, a1x, a1y, a1z = _path(rv1, s1, P)
    b2x, b2y, b2z, a2x, a2y, a2z = _path(rv2, s2, P)
    return _sphere_time(rv2[0, 0] - rv1[0, 0], rv2[0, 1] - rv1[0, 1], rv2[0, 2] - rv1[0, 2],
                        b2x - b1x, b2y - b1y, b2z - b1z, a2x - a1x, a2y - a1y, a2z - a1z,
                        2.0 * P[P_R], h)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _z_at(rv, g, t):
    return rv[0, 2] + (rv[1, 2] - 0.5 * g * t) * t


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _on_segment(rv, t, p1x, p1y, dx, dy):
    px = rv[0, 0] + rv[1, 0] * t
    py = rv[0, 1] + rv[1, 1] * t
    u = ((px - p1x) * dx + (py - p1y) * dy) / (dx * dx + dy * dy)
    return 0.0 <= u <= 1.0


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def segment_time(rv, P, hc, p1x, p1y, p2x, p2y, nx, ny, hz):
    """(dt, kind) of an airborne ball's first meeting with a straight cushion within hz:
    ``AIR_CONTACT`` (the face below the nose or the nose edge), ``AIR_CLEAR`` (its centre
    crosses the nose line above the nose) or ``AIR_NONE`` (dt = inf). ``hc``: nose height."""
    R, g = P[P_R], P[P_G]
    d0 = (rv[0, 0] - p1x) * nx + (rv[0, 1] - p1y) * ny
    vd = rv[1, 0] * nx + rv[1, 1] * ny
    dx, dy = p2x - p1x, p2y - p1y
    best = math.inf
    kind = AIR_NONE
    # a ball behind the line moving forward may cross it in flight past the segment's end (a
    # jaw segment's line runs across the table) and come down on its nose edge (the only
    # contact left to it: d grows, so neither the face nor a clearing)
    if d0 <= 0.0 and vd <= 0.0:
        return best, kind
    # reach (bounded by |vd| hz, and by the drop of the ball below its highest point)
    if d0 > R + abs(vd) * min(hz, T_MAX) + TOUCH_GAP:
        return best, kind
    if vd < -V_APPROACH:
        # face: centre R from the line, below the nose
        t1 = (R - d0) / vd
        if t1 < 0.0:
            t1 = 0.0
        if t1 <= hz and _z_at(rv, g, t1) <= hc and _on_segment(rv, t1, p1x, p1y, dx, dy):
            best = t1
            kind = AIR_CONTACT
        # clearing: centre over the nose line, above the nose
        t3 = -d0 / vd
        if t3 < best and t3 <= hz and _z_at(rv, g, t3) > hc and _on_segment(rv, t3, p1x, p1y, dx, dy):
            best = t3
            kind = AIR_CLEAR
    # nose edge: the distance from the edge (d, z - hc) = (0, 0) reaches R, above the nose
    h = min(hz, best)
    te = _circle_time(d0, rv[0, 2] - hc, vd, rv[1, 2], 0.0, -0.5 * g, R, h)
    if te < best and _edge_contact(rv, g, hc, d0, vd, te, p1x, p1y, dx, dy):
        return te, AIR_CONTACT
    if te < h:
        # that first touch is no contact (the ball was then past the segment's end, in a
        # pocket mouth, or below the nose: a ball beside a jaw starts within R of the line
        # and rises): the later approaches of the same gap function, in order
        te = _next_edge_time(rv, g, hc, d0, vd, te, h, p1x, p1y, dx, dy, R)
        if te < best:
            return te, AIR_CONTACT
    return best, kind


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _edge_contact(rv, g, hc, d0, vd, t, p1x, p1y, dx, dy):
    """A touch of the nose line at t is a contact with the nose edge: above the nose, on the
    playing side and within the segment."""
    return _z_at(rv, g, t) > hc and d0 + vd * t >= 0.0 and _on_segment(rv, t, p1x, p1y, dx, dy)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _next_edge_time(rv, g, hc, d0, vd, t0, h, p1x, p1y, dx, dy, R):
    """First nose-edge contact in (t0, h]: the down-crossings of the quartic gap function
    ``(d0 + vd t)^2 + (Z0 + vz t - g t^2 / 2)^2 - R^2`` after t0 that are contacts
    (:func:`_edge_contact`); inf if none."""
    Z0, vz, A = rv[0, 2] - hc, rv[1, 2], -0.5 * g
    a, b = A * A, 2.0 * A * vz
    c = vd * vd + vz * vz + 2.0 * A * Z0
    d = 2.0 * (d0 * vd + Z0 * vz)
    e = d0 * d0 + Z0 * Z0 - R * R
    out = np.empty(4)
    m = real_roots4(a, b, c, d, e, t0, h, out)
    for k in range(m):
        r = out[k]
        if r <= t0:
            continue
        if ((4.0 * a * r + 3.0 * b) * r + 2.0 * c) * r + d >= 0.0:
            continue  # separating (or a graze)
        if _edge_contact(rv, g, hc, d0, vd, r, p1x, p1y, dx, dy):
            return r
    return math.inf


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _nose_circle_poly_time(X, Y, Z, vx, vy, vz, g, rj, R, h):
    """:func:`nose_circle_time`'s gap function from the given state, first down-crossing in
    (0, h]."""
    p2, p1, p0 = vx * vx + vy * vy, 2.0 * (X * vx + Y * vy), X * X + Y * Y
    z2, z1, z0 = -0.5 * g, vz, Z
    A = np.empty(5)
    A[0] = z2 * z2
    A[1] = 2.0 * z2 * z1
    A[2] = z1 * z1 + 2.0 * z2 * z0 + p2
    A[3] = 2.0 * z1 * z0 + p1
    A[4] = z0 * z0 + p0 + rj * rj - R * R
    F = np.zeros(9)
    for i in range(5):
        for j in range(5):
            F[i + j] += A[i] * A[j]
    k = 4.0 * rj * rj
    F[6] -= k * p2
    F[7] -= k * p1
    F[8] -= k * p0
    return first_down_crossing(F, 0.0, h)


@njit(cache=True, no_cfunc_wrapper=True)
def nose_circle_time(X, Y, Z, vx, vy, vz, g, rj, R, h):
    """First time within (0, h] at which a ball in flight touches the nose of a jaw tip: the
    horizontal circle of radius ``rj`` at the nose height around the jaw's axis (the rounded
    nose that joins a rail's nose edge to its jaw's). (X, Y, Z): the ball centre relative to
    the circle's centre, (vx, vy, vz) its velocity, ``g`` gravity; 0 if touching and
    approaching (or resting on it: above it, not separating); inf if not within h.

    With rho the centre's horizontal distance from the axis, the distance to the circle is
    ``sqrt((rho - rj)^2 + Z^2)``; it equals R where ``A = 2 rj rho``, A = rho^2 + rj^2 + Z^2
    - R^2, so the gap function ``F = A^2 - 4 rj^2 rho^2`` (negative exactly inside the tube
    of radius R around the circle, outside the spindle where the centre is within R of the
    whole circle, which a ball enters only through the tube) is a polynomial of degree 8 in
    t (rho^2 is quadratic, Z quadratic): :func:`physics.roots.first_down_crossing`. A touch
    needs |Z| <= R, so it is searched only over the spans of the flight where that holds,
    each from its own start: over a whole long flight (a ball falling from metres up) the
    polynomial's terms would be some 1e15 times the tube's, beyond float64."""
    if h > T_MAX:
        h = T_MAX
    # cull: the straight horizontal path keeps farther than rj + R from the axis
    v2 = vx * vx + vy * vy
    tc = -(X * vx + Y * vy) / v2 if v2 > 0.0 else 0.0
    tc = min(max(tc, 0.0), h)
    cx, cy = X + vx * tc, Y + vy * tc
    if cx * cx + cy * cy > (rj + R) * (rj + R):
        return math.inf
    rho = math.sqrt(X * X + Y * Y)
    dist = math.sqrt((rho - rj) ** 2 + Z * Z)
    if dist - R <= TOUCH_GAP and dist > 0.0:
        drho = (X * vx + Y * vy) / rho if rho > 0.0 else 0.0
        vn = ((rho - rj) * drho + Z * vz) / dist
        if vn < -V_APPROACH or (Z > 0.0 and vn <= 0.0):
            return 0.0
    # the spans of (0, h) where |Z(t)| <= R: cut at the times Z = +R and Z = -R
    cuts = np.empty(6)
    cuts[0] = 0.0
    nc = 1
    for level in (R, -R):
        r1, r2 = quadratic_roots(-0.5 * g, vz, Z - level)
        for r in (r1, r2):
            if 0.0 < r < h:
                cuts[nc] = r
                nc += 1
    cuts[nc] = h
    nc += 1
    cuts[:nc].sort()
    for k in range(nc - 1):
        ta, tb = cuts[k], cuts[k + 1]
        if not tb > ta:
            continue
        tm = 0.5 * (ta + tb)
        if abs(Z + (vz - 0.5 * g * tm) * tm) > R:
            continue
        za = Z + (vz - 0.5 * g * ta) * ta
        r = _nose_circle_poly_time(X + vx * ta, Y + vy * ta, za, vx, vy, vz - g * ta, g, rj, R,
                                   tb - ta)
        if r < math.inf:
            return ta + r
    return math.inf


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def jaw_time(rv, P, hc, cx, cy, rj, hz):
    """(dt, kind) of an airborne ball's first meeting with a jaw (its circle: centre cx, cy,
    radius rj): its face below the nose (``AIR_CONTACT``), the nose of its tip above it
    (:func:`nose_circle_time`, ``AIR_CONTACT``), or its centre passing over the jaw circle
    above the nose (``AIR_CLEAR``)."""
    R, g = P[P_R], P[P_G]
    X, Y, vx, vy = rv[0, 0] - cx, rv[0, 1] - cy, rv[1, 0], rv[1, 1]
    best = math.inf
    kind = AIR_NONE
    tf = _circle_time(X, Y, vx, vy, 0.0, 0.0, R + rj, hz)
    if tf < math.inf and _z_at(rv, g, tf) <= hc:
        best = tf
        kind = AIR_CONTACT
    tc = _circle_time(X, Y, vx, vy, 0.0, 0.0, rj, min(hz, best))
    if tc < best and _z_at(rv, g, tc) > hc:
        best = tc
        kind = AIR_CLEAR
    tn = nose_circle_time(X, Y, rv[0, 2] - hc, vx, vy, rv[1, 2], g, rj, R, min(hz, best))
    if tn < best and _z_at(rv, g, tn) > hc:
        best = tn
        kind = AIR_CONTACT
    return best, kind


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def cushion_normal(rv, nx, ny, d, R, hc):
    """3D unit normal (from the cushion to the ball centre) of a contact with a cushion whose
    horizontal normal is (nx, ny), the centre at horizontal distance d from the nose line:
    horizontal for the face below the nose, from the nose edge above it."""
    dz = rv[0, 2] - hc
    if dz <= 0.0:
        return nx, ny, 0.0
    n = math.sqrt(d * d + dz * dz)
    return d / n * nx, d / n * ny, dz / n
