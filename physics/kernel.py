"""The event-based simulation kernel (numba): one table, and a parallel loop over tables.

Algorithm (Kiefl 2020, "pooltool-alg"; pooltool 0.6.0 ``evolution/event_based``):
1. After the cue strike (applied before the kernel, ``physics.strike``), predict for every
   ball its next motion transition and its first contact with every straight cushion
   segment, jaw circle and pocket, and for every pair of balls their first contact
   (``physics.detect``). Predictions are absolute times kept in per-ball arrays and an
   N x N pair table.
2. Repeat: take the earliest prediction (ties: transitions, then pockets, then ball-ball,
   straight cushions, jaws; lower indices first), advance every ball to that time in closed
   form (``physics.motion.evolve_all``), resolve the event, log it, and recompute only the
   predictions involving the balls it touched.
3. Stop when no event is left (every ball stationary or pocketed).

Before a collision is resolved the bodies are placed exactly ``MIN_DIST`` apart along their
velocities (pooltool's ``make_kiss``; fallback along the normal when that would move them
more than ``5 MIN_DIST``), so contacts never start overlapped. If that correction would push
a ball into a third ball (frozen clusters) or into a cushion (a ball wedged between a ball and
a cushion) only one ball is moved, and if both are blocked
(a jam) the contact is resolved at zero gap and, should it not separate, is given a small
separation speed paid from spin energy (``_unjam``) so a friction-driven push cannot loop
at zero time. A ball pushed back into its contacts again sooner than friction alone could
bring it back (``_held``), and within ``D_HOLD`` of where it was, is hemmed in (wedged in a pocket mouth, between a ball and
a cushion): it is held, its slip dissipated at once (``_held``, ``_hold``), instead of an
endless inelastic sequence of ever shorter bounces. Each collision leaves the
balls involved SLIDING, as in pooltool (a held ball: STATIONARY or SPINNING).

Model codes: ball-ball 0 frictionless_elastic, 1 frictional_inelastic; cushion 0 han_2005,
1 mathavan_2010 (the modules in ``physics.resolve``).

Model specialisation: :func:`serial_kernel` and :func:`parallel_kernel` return the table loops
for one (ball-ball, cushion) model pair, with the pair as compile-time constants, so only that
pair's resolution code is compiled (the first shot of a session compiles one cushion model, not
two); :func:`simulate_serial` and :func:`simulate_many` take the models as run-time arguments
and compile every model. The same pair gives the same bits either way. Their ``air3d`` flag
(also compile-time) leaves the three-dimensional code out of the loop for tables with no ball in
the air (`physics.simulate.needs_air3d`): a level shot never compiles it.

Numba caching caveat: ``cache=True`` keys a cached function on its own source file only, and
the resolution models are compiled into this kernel; after editing a module of
``physics/resolve`` delete the stale caches (``find physics -name '*.nb[ic]' -delete``).

Layout of the per-table output: ``ev_t`` (E,), ``ev_kind`` int8, ``ev_i``/``ev_j`` int16;
return value ``(n_events, status)`` with status 0 OK, 1 event-log overflow (simulation
completed, log truncated), 2 iteration cap reached (balls stopped where they were).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from physics import air
from physics.detect import _circle_time, is_moving, pair_time, segment_time
from physics.motion import (
    AIRBORNE, OFF_TABLE, P_EB, P_EC, P_ET, P_FA, P_FB, P_FC, P_FC_ALC, P_G, P_M, P_R, P_UR, P_US,
    P_USP, POCKETED, SLIDING, SPINNING, STATIONARY, V_SETTLE, accel, apply_transition, evolve_all,
    planar_accel, transition_of,
)
from physics.resolve.ball_ball import frictional_inelastic as _bb_fi
from physics.resolve.ball_ball import frictionless_elastic as _bb_fe
from physics.resolve.cushion import han_2005 as _cu_han
from physics.resolve.cushion import mathavan_2010 as _cu_mat

MIN_DIST = 1e-6  # pooltool const.MIN_DIST: gap left between bodies at a resolved contact

K_STRIKE, K_BB, K_CUSHION, K_JAW, K_POCKET = 0, 1, 2, 3, 4

# Typed (not literal) constants for call arguments: a literal int argument, or a variable that
# starts as one, makes numba compile the callee once more for that literal.
_NO = np.int64(-1)  # no ball / no event
_FIRST = np.int64(0)  # ball 0
_SLIDING8 = np.int8(SLIDING)
_AIRBORNE8 = np.int8(AIRBORNE)
K_LIFTOFF, K_BALL_TABLE, K_LEAVE_TABLE = 11, 12, 13


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _smallest_root(al, be, ga):
    """Root of al t^2 + be t + ga = 0 nearest t = 0 (NaN if none or al <= 0), in the
    cancellation-free form q = -(be + sign(be) sqrt(disc)) / 2, roots q/al and ga/q."""
    disc = be * be - 4.0 * al * ga
    if not (al > 0.0 and disc >= 0.0):
        return math.nan
    sq = math.sqrt(disc)
    q = -0.5 * (be + sq) if be >= 0.0 else -0.5 * (be - sq)
    ta = q / al
    tb = ga / q if q != 0.0 else ta
    return ta if abs(ta) < abs(tb) else tb


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _kiss_pair(r1v, r2v, moving1, moving2, R):
    """Move two balls to centre distance 2R + MIN_DIST (pooltool make_kiss)."""
    target = 2.0 * R + MIN_DIST
    Cx = r2v[0, 0] - r1v[0, 0]
    Cy = r2v[0, 1] - r1v[0, 1]
    fallback = True
    if moving1 or moving2:
        Bx = r2v[1, 0] - r1v[1, 0]
        By = r2v[1, 1] - r1v[1, 1]
        al = Bx * Bx + By * By
        be = 2.0 * (Bx * Cx + By * Cy)
        ga = Cx * Cx + Cy * Cy - target * target
        tau = _smallest_root(al, be, ga)
        if tau == tau:
            mx = 0.5 * tau * (r1v[1, 0] + r2v[1, 0])
            my = 0.5 * tau * (r1v[1, 1] + r2v[1, 1])
            if math.sqrt(mx * mx + my * my) <= 5.0 * MIN_DIST:
                r1v[0, 0] += tau * r1v[1, 0]
                r1v[0, 1] += tau * r1v[1, 1]
                r2v[0, 0] += tau * r2v[1, 0]
                r2v[0, 1] += tau * r2v[1, 1]
                fallback = False
    if fallback:
        d = math.sqrt(Cx * Cx + Cy * Cy)
        corr = 0.5 * (target - d)
        ux, uy = Cx / d, Cy / d
        r1v[0, 0] -= corr * ux
        r1v[0, 1] -= corr * uy
        r2v[0, 0] += corr * ux
        r2v[0, 1] += corr * uy


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _kiss_line(rv, nx, ny, px, py, R):
    """Move a ball to distance R + MIN_DIST from the line through (px, py) with normal n."""
    dist = (rv[0, 0] - px) * nx + (rv[0, 1] - py) * ny
    vn = rv[1, 0] * nx + rv[1, 1] * ny
    if vn != 0.0:
        tau = (R + MIN_DIST - dist) / vn
        if abs(tau) * math.sqrt(rv[1, 0] ** 2 + rv[1, 1] ** 2) <= 5.0 * MIN_DIST:
            rv[0, 0] += tau * rv[1, 0]
            rv[0, 1] += tau * rv[1, 1]
            return
    rv[0, 0] += (R + MIN_DIST - dist) * nx
    rv[0, 1] += (R + MIN_DIST - dist) * ny


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _kiss_circle(rv, cx, cy, rad):
    """Move a ball to centre distance rad + MIN_DIST from the fixed point (cx, cy)."""
    target = rad + MIN_DIST
    Dx, Dy = rv[0, 0] - cx, rv[0, 1] - cy
    vx, vy = rv[1, 0], rv[1, 1]
    al = vx * vx + vy * vy
    be = 2.0 * (Dx * vx + Dy * vy)
    ga = Dx * Dx + Dy * Dy - target * target
    tau = _smallest_root(al, be, ga)
    if tau == tau:
        if abs(tau) * math.sqrt(al) <= 5.0 * MIN_DIST:
            rv[0, 0] += tau * vx
            rv[0, 1] += tau * vy
            return
    d = math.sqrt(Dx * Dx + Dy * Dy)
    rv[0, 0] = cx + target * Dx / d
    rv[0, 1] = cy + target * Dy / d


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _creates_overlap(rvw, s, b, ox, oy, skip, R):
    """True if ball b, moved from (ox, oy) to its current position (its height unchanged),
    now overlaps another ball more than it did before (the move of a contact correction must
    not push it into a third ball of a cluster). Distances are 3D (dz = 0 between balls on
    the bed)."""
    lim = 4.0 * R * R
    x, y, z = rvw[b, 0, 0], rvw[b, 0, 1], rvw[b, 0, 2]
    for o in range(rvw.shape[0]):
        if o == b or o == skip or s[o] == POCKETED or s[o] == OFF_TABLE:
            continue
        dx = rvw[o, 0, 0] - x
        dy = rvw[o, 0, 1] - y
        dz = rvw[o, 0, 2] - z
        d2 = dx * dx + dy * dy + dz * dz
        if d2 < lim:
            ex = rvw[o, 0, 0] - ox
            ey = rvw[o, 0, 1] - oy
            if d2 < ex * ex + ey * ey + dz * dz:
                return True
    return False


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _enters_cushion(x, y, ox, oy, R, segs, normals, jaws):
    """True if a ball, moved from (ox, oy) to (x, y), now penetrates a
    straight cushion segment or a jaw circle more than it did before. A ball-ball contact
    correction must not push a ball wedged against a cushion into it: the ball would come to
    rest off the bed (closer than R to the cushion nose), a layout ``physics.simulate``
    rejects as input for the next shot."""
    for q in range(segs.shape[0]):
        ax, ay = segs[q, 0, 0], segs[q, 0, 1]
        dx, dy = segs[q, 1, 0] - ax, segs[q, 1, 1] - ay
        u = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)
        if u < 0.0 or u > 1.0:
            continue
        d_new = (x - ax) * normals[q, 0] + (y - ay) * normals[q, 1]
        if -R < d_new < R:
            d_old = (ox - ax) * normals[q, 0] + (oy - ay) * normals[q, 1]
            if d_new < d_old:
                return True
    for q in range(jaws.shape[0]):
        lim = R + jaws[q, 2]
        ex, ey = x - jaws[q, 0], y - jaws[q, 1]
        d2 = ex * ex + ey * ey
        if d2 < lim * lim:
            fx, fy = ox - jaws[q, 0], oy - jaws[q, 1]
            if d2 < fx * fx + fy * fy:
                return True
    return False


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _blocked(rvw, s, b, ox, oy, skip, R, segs, normals, jaws):
    """A contact correction moved ball b from (ox, oy) into a third ball or a cushion."""
    return (_creates_overlap(rvw, s, b, ox, oy, skip, R)
            or _enters_cushion(rvw[b, 0, 0], rvw[b, 0, 1], ox, oy, R, segs, normals, jaws))


V_SEP = 5e-3  # m/s: least separation speed of a pushed contact (see _unjam)
F_HOLD = 0.9  # a ball pushed again within F_HOLD V_SEP / (u_s g) (2.3 ms) ...
D_HOLD = 1e-5  # m: ... and this close to where it was last pushed is held (see _held)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _held(b, t, rvw, push_t, push_xy, P):
    """Record a pushed contact of ball b (driven into the contact by its own cloth friction,
    separating slower than ``V_SEP``) at time t; True if the ball is held.

    Cloth friction decelerates a ball by at most ``u_s g``, so a contact that ``_unjam`` opened
    at ``V_SEP`` cannot close again by friction alone in less than ``V_SEP / (u_s g)``
    (2.55 ms; both bodies decelerating towards each other). Pushed again sooner (within
    ``F_HOLD`` of that time) and within ``D_HOLD`` of where it was last pushed, the ball was
    returned by the bodies around it: it is hemmed in (wedged between a ball and a cushion,
    in a pocket mouth, in a cluster). Such a resting contact cannot be simulated as a
    sequence of collisions (an inelastic Zeno sequence of ever shorter bounces, or a steady
    kHz rattle); see :func:`_hold`."""
    x, y = rvw[b, 0, 0], rvw[b, 0, 1]
    dx, dy = x - push_xy[b, 0], y - push_xy[b, 1]
    t_hold = F_HOLD * V_SEP / (P[P_US] * P[P_G])
    held = t - push_t[b] <= t_hold and dx * dx + dy * dy <= D_HOLD * D_HOLD
    push_t[b] = t
    push_xy[b, 0] = x
    push_xy[b, 1] = y
    return held


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _hold(rv):
    """Resolve the resting contact of a held ball (see :func:`_held`); returns its new state.

    While the contacts hold the ball in place (v = 0), cloth friction acts on the slip
    ``u = R z x w`` alone and only shrinks it, ``du/dt = -(5/2) u_s g u_hat``, keeping its
    direction (``physics.motion``): the ball stays where it is, pressed into its contacts,
    until the slip is gone, and then rests with ``w_xy = 0``. That end state is applied at
    once (v = 0, w_xy = 0; the slip's energy is what the cloth dissipates); ``w_z`` is kept
    and decays as a SPINNING ball's. (The friction at the contacts, left out, would only
    stop the slip sooner.)"""
    for c in range(3):
        rv[1, c] = 0.0
    rv[2, 0] = 0.0
    rv[2, 1] = 0.0
    return STATIONARY if rv[2, 2] == 0.0 else SPINNING


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _shift_from(rv, ox, oy, target):
    """Move ball rv radially away from the point (ox, oy) to distance ``target``."""
    dx, dy = rv[0, 0] - ox, rv[0, 1] - oy
    d = math.sqrt(dx * dx + dy * dy)
    if d > 0.0:
        rv[0, 0] = ox + target * dx / d
        rv[0, 1] = oy + target * dy / d


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _unjam(rv1, rv2, nx, ny, P):
    """Make a pushed contact separate at ``V_SEP`` without creating energy.

    A contact that separates slower than ``V_SEP`` after resolution while cloth friction drives
    the two bodies together (a ball pushed by its own spin: a push shot, a frozen cluster, a
    jam where no ``MIN_DIST`` clearance could be made) is found again almost at once: event-based
    simulation of a sustained contact chatters, hundreds of events per second of push or, in a
    jam, an endless zero-time loop. We add the
    missing normal separation speed symmetrically (momentum conserved) and pay its kinetic
    energy out of the balls' spin energy (friction drives the push), so total kinetic energy
    does not rise; if there is not enough spin energy the separation is scaled down.
    (n points from ball 1 to ball 2.)
    """
    m, R = P[P_M], P[P_R]
    vrel = (rv2[1, 0] - rv1[1, 0]) * nx + (rv2[1, 1] - rv1[1, 1]) * ny
    need = V_SEP - vrel
    if need <= 0.0:
        return
    I = 0.4 * m * R * R
    e_rot = 0.5 * I * (rv1[2, 0] ** 2 + rv1[2, 1] ** 2 + rv1[2, 2] ** 2
                       + rv2[2, 0] ** 2 + rv2[2, 1] ** 2 + rv2[2, 2] ** 2)
    # kinetic energy added by dv = need/2 on each ball along -n / +n
    v1n = rv1[1, 0] * nx + rv1[1, 1] * ny
    v2n = rv2[1, 0] * nx + rv2[1, 1] * ny
    h = 0.5 * need

    def gain(hh):
        return 0.5 * m * ((v1n - hh) ** 2 - v1n ** 2 + (v2n + hh) ** 2 - v2n ** 2)

    de = gain(h)
    if de > e_rot:
        # largest affordable h: m (hh^2 + hh (v2n - v1n)) = e_rot
        bq = v2n - v1n
        h = 0.5 * (-bq + math.sqrt(bq * bq + 4.0 * e_rot / m))
        if h <= 0.0:
            return
        de = gain(h)
    rv1[1, 0] -= h * nx
    rv1[1, 1] -= h * ny
    rv2[1, 0] += h * nx
    rv2[1, 1] += h * ny
    if e_rot > 0.0 and de > 0.0:
        k = math.sqrt(max(0.0, 1.0 - de / e_rot))
        for c in range(3):
            rv1[2, c] *= k
            rv2[2, c] *= k


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _unjam_cushion(rv, nx, ny, P):
    """Cushion version of :func:`_unjam` (n points from the cushion into the table)."""
    m, R = P[P_M], P[P_R]
    vn = rv[1, 0] * nx + rv[1, 1] * ny
    need = V_SEP - vn
    if need <= 0.0:
        return
    e_rot = 0.5 * 0.4 * m * R * R * (rv[2, 0] ** 2 + rv[2, 1] ** 2 + rv[2, 2] ** 2)
    de = 0.5 * m * ((vn + need) ** 2 - vn ** 2)
    if de > e_rot:
        need = -vn + math.sqrt(max(0.0, vn * vn + 2.0 * e_rot / m))
        if need <= 0.0:
            return
        de = 0.5 * m * ((vn + need) ** 2 - vn ** 2)
    rv[1, 0] += need * nx
    rv[1, 1] += need * ny
    if e_rot > 0.0 and de > 0.0:
        k = math.sqrt(max(0.0, 1.0 - de / e_rot))
        for c in range(3):
            rv[2, c] *= k


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _cushion_push(b, t, rvw, nx, ny, P, jam, push_t, push_xy):
    """After a cushion or jaw collision of ball b (n into the table): a pushed contact
    separates at ``V_SEP`` (:func:`_unjam_cushion`) unless the ball is held
    (:func:`_held`, :func:`_hold`); returns the ball's new motion state."""
    rv = rvw[b]
    if rv[1, 0] * nx + rv[1, 1] * ny < V_SEP:
        ax, ay = accel(rv, _SLIDING8, P)
        if jam or ax * nx + ay * ny < 0.0:
            if ax * nx + ay * ny < 0.0 and _held(b, t, rvw, push_t, push_xy, P):
                return _hold(rv)
            _unjam_cushion(rv, nx, ny, P)
    return SLIDING


def _model_resolve(rv, nx, ny, P, h, cu_model):  # pragma: no cover - compiled via overload
    """Cushion resolution by model code (see :func:`_ol_model_resolve`)."""


@overload(_model_resolve, prefer_literal=True)
def _ol_model_resolve(rv, nx, ny, P, h, cu_model):
    """A literal model code compiles that model only (:func:`serial_kernel`); a run-time code
    compiles both behind a branch."""

    def han(rv, nx, ny, P, h, cu_model):
        _cu_han.resolve(rv, nx, ny, P[P_R], P[P_M], h, P[P_EC], P[P_FC])

    def mathavan(rv, nx, ny, P, h, cu_model):
        _cu_mat.resolve(rv, nx, ny, P[P_R], P[P_M], h, P[P_EC], P[P_FC], P[P_US], P[P_G])

    if isinstance(cu_model, types.IntegerLiteral):
        return han if cu_model.literal_value == 0 else mathavan

    def either(rv, nx, ny, P, h, cu_model):
        if cu_model == 0:
            han(rv, nx, ny, P, h, cu_model)
        else:
            mathavan(rv, nx, ny, P, h, cu_model)
    return either


def _model_collide(r1, r2, P, bb_model):  # pragma: no cover - compiled via overload
    """Ball-ball resolution by model code (see :func:`_ol_model_collide`)."""


@overload(_model_collide, prefer_literal=True)
def _ol_model_collide(r1, r2, P, bb_model):
    """A literal model code compiles that model only; a run-time code compiles both."""

    def elastic(r1, r2, P, bb_model):
        _bb_fe.resolve(r1, r2)

    def inelastic(r1, r2, P, bb_model):
        _bb_fi.resolve(r1, r2, P[P_R], P[P_M], P[P_EB], P[P_FA], P[P_FB], P[P_FC_ALC])

    if isinstance(bb_model, types.IntegerLiteral):
        return elastic if bb_model.literal_value == 0 else inelastic

    def either(r1, r2, P, bb_model):
        if bb_model == 0:
            elastic(r1, r2, P, bb_model)
        else:
            inelastic(r1, r2, P, bb_model)
    return either


def _model_collide_3d(r1, r2, P, bb_model):  # pragma: no cover - compiled via overload
    """3D ball-ball resolution by model code (see :func:`_ol_model_collide_3d`)."""


@overload(_model_collide_3d, prefer_literal=True)
def _ol_model_collide_3d(r1, r2, P, bb_model):
    """As :func:`_ol_model_collide`, with ``air.ball_ball`` for the frictional model."""

    def elastic(r1, r2, P, bb_model):
        _bb_fe.resolve(r1, r2)

    def inelastic(r1, r2, P, bb_model):
        air.ball_ball(r1, r2, P[P_R], P[P_EB], P[P_FA], P[P_FB], P[P_FC_ALC], True)

    if isinstance(bb_model, types.IntegerLiteral):
        return elastic if bb_model.literal_value == 0 else inelastic

    def either(r1, r2, P, bb_model):
        if bb_model == 0:
            elastic(r1, r2, P, bb_model)
        else:
            inelastic(r1, r2, P, bb_model)
    return either


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _resolve_cushion(rv, nx, ny, P, h, cu_model):
    _model_resolve(rv, nx, ny, P, h, cu_model)
    rv[1, 2] = 0.0


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _arc_range(x0, v, a, h):
    """Range of x0 + v t + a t^2 / 2 over t in [0, h]."""
    x1 = x0 + v * h + 0.5 * a * h * h
    lo = min(x0, x1)
    hi = max(x0, x1)
    if a != 0.0:
        ts = -v / a
        if 0.0 < ts < h:
            xs = x0 + 0.5 * v * ts
            lo = min(lo, xs)
            hi = max(hi, xs)
    return lo, hi


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _ball_box(rv, s, P, h, box):
    """Axis-aligned box of the ball centre's path over the next h seconds (its current
    motion state), used to cull predictions."""
    if not is_moving(s):
        box[0] = box[1] = rv[0, 0]
        box[2] = box[3] = rv[0, 1]
        return
    if h > 1.0e3:
        h = 1.0e3
    ax, ay = accel(rv, s, P)
    box[0], box[1] = _arc_range(rv[0, 0], rv[1, 0], ax, h)
    box[2], box[3] = _arc_range(rv[0, 1], rv[1, 1], ay, h)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _predict_balls(bs, nb, t, rvw, s, P, segs, normals, jaws, pockets, hc,
                   tr_t, tr_k, tr_j, lc_t, lc_j, jw_t, jw_j, pk_t, pk_j, boxes, air3d):
    """Recompute the transition and the cushion, jaw and pocket predictions of balls
    ``bs[:nb]``, in one call and from scalars (every call of a compiled function, and every
    row view, costs two atomic reference-count updates per array)."""
    R, u_s, u_r, u_sp, g = P[P_R], P[P_US], P[P_UR], P[P_USP], P[P_G]
    for qb in range(nb):
        b = bs[qb]
        sb = s[b]
        x0, y0, vx, vy = rvw[b, 0, 0], rvw[b, 0, 1], rvw[b, 1, 0], rvw[b, 1, 1]
        dt, k = transition_of(sb, rvw[b, 0, 2], vx, vy, rvw[b, 1, 2], rvw[b, 2, 0],
                              rvw[b, 2, 1], rvw[b, 2, 2], R, u_s, u_r, u_sp, g)
        tr_t[b] = t + dt
        tr_k[b] = k
        tr_j[b] = -1
        if sb == AIRBORNE:
            _air_predict(air3d, b, t, dt, rvw[b], P, segs, normals, jaws, hc, tr_t, tr_k, tr_j,
                         lc_t, lc_j, jw_t, jw_j, pk_t, pk_j, boxes[b])
            continue
        lc_t[b] = math.inf
        jw_t[b] = math.inf
        pk_t[b] = math.inf
        lc_j[b] = -1
        jw_j[b] = -1
        pk_j[b] = -1
        # the box of the path over dt (_ball_box)
        if not is_moving(sb):
            boxes[b, 0] = boxes[b, 1] = x0
            boxes[b, 2] = boxes[b, 3] = y0
            continue
        ax, ay = planar_accel(sb, vx, vy, rvw[b, 2, 0], rvw[b, 2, 1], R, u_s, u_r, g)
        h = dt
        if h > 1.0e3:
            h = 1.0e3
        boxes[b, 0], boxes[b, 1] = _arc_range(x0, vx, ax, h)
        boxes[b, 2], boxes[b, 3] = _arc_range(y0, vy, ay, h)
        bx0, bx1 = boxes[b, 0] - R, boxes[b, 1] + R
        by0, by1 = boxes[b, 2] - R, boxes[b, 3] + R
        for q in range(segs.shape[0]):
            if (max(segs[q, 0, 0], segs[q, 1, 0]) < bx0 or min(segs[q, 0, 0], segs[q, 1, 0]) > bx1
                    or max(segs[q, 0, 1], segs[q, 1, 1]) < by0
                    or min(segs[q, 0, 1], segs[q, 1, 1]) > by1):
                continue
            tq = segment_time(x0, y0, vx, vy, ax, ay, R, segs[q, 0, 0], segs[q, 0, 1],
                              segs[q, 1, 0], segs[q, 1, 1], normals[q, 0], normals[q, 1], dt)
            if t + tq < lc_t[b]:
                lc_t[b] = t + tq
                lc_j[b] = q
        for q in range(jaws.shape[0]):
            rq = jaws[q, 2]
            if (jaws[q, 0] + rq < bx0 or jaws[q, 0] - rq > bx1 or jaws[q, 1] + rq < by0
                    or jaws[q, 1] - rq > by1):
                continue
            tq = _circle_time(x0 - jaws[q, 0], y0 - jaws[q, 1], vx, vy, 0.5 * ax, 0.5 * ay,
                              jaws[q, 2] + R, dt)
            if t + tq < jw_t[b]:
                jw_t[b] = t + tq
                jw_j[b] = q
        for q in range(pockets.shape[0]):
            rq = pockets[q, 2] - R
            if (pockets[q, 0] + rq < bx0 or pockets[q, 0] - rq > bx1 or pockets[q, 1] + rq < by0
                    or pockets[q, 1] - rq > by1):
                continue
            tq = _circle_time(x0 - pockets[q, 0], y0 - pockets[q, 1], vx, vy, 0.5 * ax,
                              0.5 * ay, pockets[q, 2], dt)
            if t + tq < pk_t[b]:
                pk_t[b] = t + tq
                pk_j[b] = q


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _predict_air(b, t, dt, rv, P, segs, normals, jaws, hc, tr_t, tr_k, tr_j, lc_t, lc_j,
                 jw_t, jw_j, pk_t, pk_j, box):
    """Predictions of an airborne ball (``physics.air``): landing (its transition, BALL_TABLE),
    clearing a cushion (LEAVE_TABLE, also kept as its transition: its flight ends there),
    meeting a cushion face or nose (K_CUSHION) or a jaw face (K_JAW). Pockets are decided
    when it lands."""
    lc_t[b] = math.inf
    jw_t[b] = math.inf
    pk_t[b] = math.inf
    lc_j[b] = -1
    jw_j[b] = -1
    pk_j[b] = -1
    _ball_box(rv, _AIRBORNE8, P, dt, box)
    R = P[P_R]
    bx0, bx1, by0, by1 = box[0] - R, box[1] + R, box[2] - R, box[3] + R
    for q in range(segs.shape[0]):
        if (max(segs[q, 0, 0], segs[q, 1, 0]) < bx0 or min(segs[q, 0, 0], segs[q, 1, 0]) > bx1
                or max(segs[q, 0, 1], segs[q, 1, 1]) < by0 or min(segs[q, 0, 1], segs[q, 1, 1]) > by1):
            continue
        tq, kq = air.segment_time(rv, P, hc, segs[q, 0, 0], segs[q, 0, 1], segs[q, 1, 0],
                                  segs[q, 1, 1], normals[q, 0], normals[q, 1], dt)
        if kq == air.AIR_CONTACT and t + tq < lc_t[b]:
            lc_t[b] = t + tq
            lc_j[b] = q
        elif kq == air.AIR_CLEAR and t + tq < tr_t[b]:
            tr_t[b] = t + tq
            tr_k[b] = K_LEAVE_TABLE
            tr_j[b] = q
    for q in range(jaws.shape[0]):
        rq = jaws[q, 2]
        if (jaws[q, 0] + rq < bx0 or jaws[q, 0] - rq > bx1 or jaws[q, 1] + rq < by0
                or jaws[q, 1] - rq > by1):
            continue
        tq, kq = air.jaw_time(rv, P, hc, jaws[q, 0], jaws[q, 1], rq, dt)
        if kq == air.AIR_CONTACT and t + tq < jw_t[b]:
            jw_t[b] = t + tq
            jw_j[b] = q
        elif kq == air.AIR_CLEAR and t + tq < tr_t[b]:
            tr_t[b] = t + tq
            tr_k[b] = K_LEAVE_TABLE
            tr_j[b] = -1


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, error_model="numpy")
def _predict_pairs(b, lo, t, rvw, s, P, tr_t, bb, boxes, air3d):
    """Recompute the contact predictions of ball b with balls ``lo``.. (all but b), in
    one call: every call of a compiled function updates the reference counts of its array
    arguments (two atomic operations each), too many to pay per pair."""
    N = rvw.shape[0]
    R, u_s, u_r, g = P[P_R], P[P_US], P[P_UR], P[P_G]
    d = 2.0 * R + 1e-9
    for o in range(lo, N):
        if o == b:
            continue
        i, j = (b, o) if b < o else (o, b)
        if (boxes[i, 0] - d > boxes[j, 1] or boxes[j, 0] - d > boxes[i, 1]
                or boxes[i, 2] - d > boxes[j, 3] or boxes[j, 2] - d > boxes[i, 3]):
            bb[i, j] = math.inf
            continue
        h = min(tr_t[i], tr_t[j]) - t
        si, sj = s[i], s[j]
        if si == AIRBORNE or sj == AIRBORNE:
            if si == POCKETED or si == OFF_TABLE or sj == POCKETED or sj == OFF_TABLE:
                bb[i, j] = math.inf
            else:
                bb[i, j] = t + _air_pair_time(air3d, rvw[i], si, rvw[j], sj, P, h)
            continue
        bb[i, j] = t + pair_time(
            si, rvw[i, 0, 0], rvw[i, 0, 1], rvw[i, 1, 0], rvw[i, 1, 1], rvw[i, 2, 0], rvw[i, 2, 1],
            sj, rvw[j, 0, 0], rvw[j, 0, 1], rvw[j, 1, 0], rvw[j, 1, 1], rvw[j, 2, 0], rvw[j, 2, 1],
            R, u_s, u_r, g, h)


@njit(cache=True, no_cfunc_wrapper=True)
def _log(n, E, t, kind, i, j, ev_t, ev_kind, ev_i, ev_j):
    """Write event row n if the log has room; returns False if it overflowed."""
    if n < E:
        ev_t[n] = t
        ev_kind[n] = kind
        ev_i[n] = i
        ev_j[n] = j
        return True
    return False


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _pocket_ball(rv, q, pockets, drop):
    """Put a pocketed ball at pocket q's centre, ``drop`` below the bed, at rest."""
    rv[0, 0] = pockets[q, 0]
    rv[0, 1] = pockets[q, 1]
    rv[0, 2] = -drop
    for k in range(3):
        rv[1, k] = 0.0
        rv[2, k] = 0.0


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _off_table(rv):
    """A ball that left the table stays where it left, at rest; returns OFF_TABLE."""
    for k in range(3):
        rv[1, k] = 0.0
        rv[2, k] = 0.0
    return OFF_TABLE


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _landing_site(rvw, s, b, R, segs, normals, jaws, pockets, ext):
    """Where an airborne ball comes down: (K_POCKET, q) inside pocket q's capture circle,
    (K_LEAVE_TABLE, -1) off the bed (outside the table's outline ``ext``, behind a cushion
    line or over a jaw), else (K_BALL_TABLE, -1): on the bed. A ball coming down with its
    centre less than R from a cushion line or a jaw (it passed over a segment end or a jaw
    top, whose noses are not modelled as edges) is set on the bed MIN_DIST clear of it."""
    rv = rvw[b]
    x, y = rv[0, 0], rv[0, 1]
    for q in range(pockets.shape[0]):
        ex, ey = x - pockets[q, 0], y - pockets[q, 1]
        if ex * ex + ey * ey <= pockets[q, 2] * pockets[q, 2]:
            return K_POCKET, q
    if not (ext[0] < x < ext[1] and ext[2] < y < ext[3]):
        return K_LEAVE_TABLE, -1
    for q in range(segs.shape[0]):
        p1x, p1y = segs[q, 0, 0], segs[q, 0, 1]
        dist = (x - p1x) * normals[q, 0] + (y - p1y) * normals[q, 1]
        if dist < 0.0:
            dx, dy = segs[q, 1, 0] - p1x, segs[q, 1, 1] - p1y
            u = ((x - p1x) * dx + (y - p1y) * dy) / (dx * dx + dy * dy)
            if 0.0 <= u <= 1.0:
                return K_LEAVE_TABLE, -1
    for q in range(jaws.shape[0]):
        ex, ey = x - jaws[q, 0], y - jaws[q, 1]
        if ex * ex + ey * ey < jaws[q, 2] * jaws[q, 2]:
            return K_LEAVE_TABLE, -1
    for q in range(segs.shape[0]):
        p1x, p1y = segs[q, 0, 0], segs[q, 0, 1]
        dist = (rv[0, 0] - p1x) * normals[q, 0] + (rv[0, 1] - p1y) * normals[q, 1]
        if dist < R:
            dx, dy = segs[q, 1, 0] - p1x, segs[q, 1, 1] - p1y
            u = ((rv[0, 0] - p1x) * dx + (rv[0, 1] - p1y) * dy) / (dx * dx + dy * dy)
            if 0.0 <= u <= 1.0:
                rv[0, 0] += (R + MIN_DIST - dist) * normals[q, 0]
                rv[0, 1] += (R + MIN_DIST - dist) * normals[q, 1]
    for q in range(jaws.shape[0]):
        lim = R + jaws[q, 2]
        ex, ey = rv[0, 0] - jaws[q, 0], rv[0, 1] - jaws[q, 1]
        if ex * ex + ey * ey < lim * lim:
            _shift_from(rv, jaws[q, 0], jaws[q, 1], lim + MIN_DIST)
    return K_BALL_TABLE, -1


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _settle_or_lift(rv, P):
    """State of a ball that was on the bed after a 3D contact: pressed into the slate
    (vz < 0) it bounces off it (``air.bounce``); it leaves the bed if it rises at least at
    ``V_SETTLE``, else it stays on the bed (vz = 0, SLIDING)."""
    if rv[1, 2] < 0.0:
        if air.bounce(rv, P, V_SETTLE):
            return AIRBORNE
        return SLIDING
    if rv[1, 2] >= V_SETTLE:
        return AIRBORNE
    rv[1, 2] = 0.0
    return SLIDING


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _grounded(rvw, s, b, P):
    """Settle an airborne ball that would settle at its next landing anyway (it lands slower
    than ``V_SETTLE / e_t``, at most 0.5 mm above the bed) when it meets a cushion or a ball:
    z = R, vz = 0, SLIDING, so that the contact is the flat one, with the flat engine's
    treatment of wedges and pushes (``_held``, ``_unjam``) instead of an endless sequence of
    ever smaller bounces between two contacts. A ball that would overlap another ball on the
    bed is not settled. Returns True if it was settled."""
    rv = rvw[b]
    R = P[P_R]
    dz = rv[0, 2] - R
    if dz < 0.0:
        dz = 0.0
    if P[P_ET] * math.sqrt(rv[1, 2] * rv[1, 2] + 2.0 * P[P_G] * dz) >= V_SETTLE:
        return False
    lim = 4.0 * R * R
    for o in range(rvw.shape[0]):
        if o != b and s[o] != POCKETED and s[o] != OFF_TABLE:
            ex, ey, ez = rvw[o, 0, 0] - rv[0, 0], rvw[o, 0, 1] - rv[0, 1], rvw[o, 0, 2] - R
            if ex * ex + ey * ey + ez * ez < lim:
                return False
    rv[0, 2] = R
    rv[1, 2] = 0.0
    return True


#: an airborne ball with more contacts than this since it last touched the bed is at rest
#: other than on the bed (on a cushion nose, on another ball: a contact sequence that does not
#: end): it has left the table (G-3.28's "comes to rest other than on the bed")
AIR_STUCK = 100


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _stuck(b, s, air_n):
    """Count a contact in the air of ball b (if airborne); True once it is stuck."""
    if s[b] != AIRBORNE:
        return False
    air_n[b] += 1
    return air_n[b] > AIR_STUCK


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _in_air(i, j, rvw, s, P):
    """A contact of ball i (and ball j, or j = -1 for a cushion) is three-dimensional: one of
    them is AIRBORNE after settling those that would settle at their next landing anyway
    (:func:`_grounded`)."""
    air_ = False
    if s[i] == AIRBORNE:
        if _grounded(rvw, s, i, P):
            s[i] = SLIDING
        else:
            air_ = True
    if j >= 0 and s[j] == AIRBORNE:
        if _grounded(rvw, s, j, P):
            s[j] = SLIDING
        else:
            air_ = True
    return air_


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _collide_air(rvw, s, i, j, P, bb_model, segs, normals, jaws):
    """Ball-ball contact with at least one ball airborne: the pair is set 2R + MIN_DIST
    apart along the 3D line of centres (moving the airborne ball(s) only, and not into a
    third ball or a cushion: then the contact is resolved where it is), resolved with the 3D
    form of the ball-ball model (``air.ball_ball``; the elastic model is already 3D), and a
    ball that was on the bed is returned to the slate or lifted (:func:`_settle_or_lift`).
    Returns the new states."""
    R = P[P_R]
    r1, r2, s1, s2 = rvw[i], rvw[j], s[i], s[j]
    dx = r2[0, 0] - r1[0, 0]
    dy = r2[0, 1] - r1[0, 1]
    dz = r2[0, 2] - r1[0, 2]
    d = math.sqrt(dx * dx + dy * dy + dz * dz)
    if d > 0.0:
        corr = 2.0 * R + MIN_DIST - d
        f1 = 0.5 if s1 == AIRBORNE and s2 == AIRBORNE else (1.0 if s1 == AIRBORNE else 0.0)
        old = np.empty((2, 3))
        for c in range(3):  # element copies: a row copy compiles numba's shape-error text
            old[0, c] = r1[0, c]
            old[1, c] = r2[0, c]
        for c, dc in ((0, dx), (1, dy), (2, dz)):
            r1[0, c] -= f1 * corr * dc / d
            r2[0, c] += (1.0 - f1) * corr * dc / d
        if (_blocked(rvw, s, i, old[0, 0], old[0, 1], j, R, segs, normals, jaws)
                or _blocked(rvw, s, j, old[1, 0], old[1, 1], i, R, segs, normals, jaws)):
            for c in range(3):
                r1[0, c] = old[0, c]
                r2[0, c] = old[1, c]
    _model_collide_3d(r1, r2, P, bb_model)
    n1 = AIRBORNE if s1 == AIRBORNE else _settle_or_lift(r1, P)
    n2 = AIRBORNE if s2 == AIRBORNE else _settle_or_lift(r2, P)
    return n1, n2


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _cushion_air(rvw, s, b, nx, ny, d, P, hc):
    """An airborne ball meets a cushion (horizontal normal (nx, ny), nose line through
    (px, py), the ball's centre at horizontal distance d from it, or the jaw surface): set
    MIN_DIST clear of the contact along the 3D normal (``air.cushion_normal``) and resolve
    with ``air.contact`` (restitution e_c, friction f_c); the clearance is not made if it
    would push the ball into another ball. Returns the new state: OFF_TABLE if it stays on
    the nose edge moving outwards (it rides over onto the rail top), else AIRBORNE."""
    R = P[P_R]
    rv = rvw[b]
    ox, oy, oz = rv[0, 0], rv[0, 1], rv[0, 2]
    n3x, n3y, n3z = air.cushion_normal(rv, nx, ny, d, R, hc)
    if n3z > 0.0:  # the nose edge: along the 3D normal
        de = math.sqrt(d * d + (rv[0, 2] - hc) ** 2)
        corr = R + MIN_DIST - de
        rv[0, 0] += corr * n3x
        rv[0, 1] += corr * n3y
        rv[0, 2] += corr * n3z
    else:  # the face: horizontally, as the flat contacts
        corr = R + MIN_DIST - d
        rv[0, 0] += corr * nx
        rv[0, 1] += corr * ny
    if _creates_overlap(rvw, s, b, ox, oy, _NO, R):
        rv[0, 0], rv[0, 1], rv[0, 2] = ox, oy, oz
    air.contact(rv, n3x, n3y, n3z, R, P[P_EC], P[P_FC])
    if n3z > 0.0:
        vn = rv[1, 0] * n3x + rv[1, 1] * n3y + rv[1, 2] * n3z
        if vn < V_SETTLE and rv[1, 0] * nx + rv[1, 1] * ny <= 0.0:
            return OFF_TABLE
    return AIRBORNE

# ---- the three-dimensional code, compiled only into table loops built with air3d ----
@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _land_or_leave(kind, ei, ej, rvw, s, pocket, P, segs, normals, jaws, pockets, ext, drop,
                   air_n):
    """Resolve an airborne ball's BALL_TABLE (it comes down: in a pocket, off the bed, or on
    the bed, bouncing) or LEAVE_TABLE (it cleared cushion ``ej``) transition; returns the
    event's (kind, j)."""
    if kind == K_BALL_TABLE:
        R = P[P_R]
        rv = rvw[ei]
        rv[0, 2] = R
        kind, ej = _landing_site(rvw, s, ei, R, segs, normals, jaws, pockets, ext)
        if kind == K_POCKET:
            _pocket_ball(rv, ej, pockets, drop)
            s[ei] = POCKETED
            pocket[ei] = ej
        elif kind == K_LEAVE_TABLE:
            s[ei] = _off_table(rv)
        else:
            s[ei] = AIRBORNE if air.bounce(rv, P, V_SETTLE) else SLIDING
            air_n[ei] = 0
    else:  # K_LEAVE_TABLE: cleared a cushion
        s[ei] = _off_table(rvw[ei])
    return kind, ej


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _in_air_contact(kind, ei, ej, rvw, s, P):
    """A ball-ball, cushion or jaw contact that is three-dimensional (:func:`_in_air`)."""
    if kind == K_BB:
        return _in_air(ei, ej, rvw, s, P)
    if kind == K_CUSHION or kind == K_JAW:
        return _in_air(ei, _NO, rvw, s, P)
    return False


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _resolve_in_air(kind, ei, ej, rvw, s, P, bb_model, segs, normals, jaws, hc, air_n, touched):
    """Resolve a three-dimensional contact (:func:`_in_air_contact`); returns the event's
    (kind, i, j), the ball lifted off the bed by it (or -1) and the number of balls touched
    (their indices in ``touched``)."""
    lift = _NO
    nt = 1
    if kind == K_BB:
        if _stuck(ei, s, air_n) or _stuck(ej, s, air_n):
            b = ei if air_n[ei] > AIR_STUCK else ej
            s[b] = _off_table(rvw[b])
            kind, ei, ej = K_LEAVE_TABLE, b, _NO
            touched[0] = b
        else:
            on1, on2 = s[ei] != AIRBORNE, s[ej] != AIRBORNE
            s[ei], s[ej] = _collide_air(rvw, s, ei, ej, P, bb_model, segs, normals, jaws)
            if on1 and s[ei] == AIRBORNE:
                lift = ei
            elif on2 and s[ej] == AIRBORNE:
                lift = ej
            touched[1] = ej
            nt = 2
    elif kind == K_CUSHION:
        rv = rvw[ei]
        nx, ny = normals[ej, 0], normals[ej, 1]
        d = (rv[0, 0] - segs[ej, 0, 0]) * nx + (rv[0, 1] - segs[ej, 0, 1]) * ny
        if not _stuck(ei, s, air_n):
            s[ei] = _cushion_air(rvw, s, ei, nx, ny, d, P, hc)
        if air_n[ei] > AIR_STUCK or s[ei] == OFF_TABLE:
            s[ei] = _off_table(rv)
            kind = K_LEAVE_TABLE
    else:  # K_JAW
        rv = rvw[ei]
        dx, dy = rv[0, 0] - jaws[ej, 0], rv[0, 1] - jaws[ej, 1]
        dd = math.sqrt(dx * dx + dy * dy)
        if not _stuck(ei, s, air_n):
            s[ei] = _cushion_air(rvw, s, ei, dx / dd, dy / dd, dd - jaws[ej, 2], P, hc)
        if air_n[ei] > AIR_STUCK or s[ei] == OFF_TABLE:
            s[ei] = _off_table(rv)
            kind = K_LEAVE_TABLE
            ej = _NO
    return kind, ei, ej, lift, nt


def _air_predict(air3d, b, t, dt, rv, P, segs, normals, jaws, hc, tr_t, tr_k, tr_j, lc_t, lc_j,
                 jw_t, jw_j, pk_t, pk_j, box):  # pragma: no cover - compiled via overload
    """:func:`_predict_air` where ``air3d``; nothing (no ball can be airborne) where not."""


def _air_pair_time(air3d, r1, s1, r2, s2, P, h):  # pragma: no cover - compiled via overload
    """``air.ball_ball_time`` where ``air3d``; inf (no ball can be airborne) where not."""


def _air_transition(air3d, kind, ei, ej, rvw, s, pocket, P, segs, normals, jaws, pockets, ext,
                    drop, air_n):  # pragma: no cover - compiled via overload
    """:func:`_land_or_leave` where ``air3d``; never reached where not."""


def _air_contact(air3d, kind, ei, ej, rvw, s, P):  # pragma: no cover - compiled via overload
    """:func:`_in_air_contact` where ``air3d``; False where not."""


def _resolve_air_contact(air3d, kind, ei, ej, rvw, s, P, bb_model, segs, normals, jaws, hc, air_n,
                         touched):  # pragma: no cover - compiled via overload
    """:func:`_resolve_in_air` where ``air3d``; never reached where not."""


def _flat(air3d):
    """Whether a table loop's ``air3d`` flag is a literal False (the flat table loop)."""
    return isinstance(air3d, types.BooleanLiteral) and not air3d.literal_value


@overload(_air_predict, prefer_literal=True)
def _ol_air_predict(air3d, b, t, dt, rv, P, segs, normals, jaws, hc, tr_t, tr_k, tr_j, lc_t, lc_j,
                    jw_t, jw_j, pk_t, pk_j, box):
    if _flat(air3d):
        return lambda air3d, b, t, dt, rv, P, segs, normals, jaws, hc, tr_t, tr_k, tr_j, lc_t, \
            lc_j, jw_t, jw_j, pk_t, pk_j, box: None

    def impl(air3d, b, t, dt, rv, P, segs, normals, jaws, hc, tr_t, tr_k, tr_j, lc_t, lc_j, jw_t,
             jw_j, pk_t, pk_j, box):
        _predict_air(b, t, dt, rv, P, segs, normals, jaws, hc, tr_t, tr_k, tr_j, lc_t, lc_j,
                     jw_t, jw_j, pk_t, pk_j, box)
    return impl


@overload(_air_pair_time, prefer_literal=True)
def _ol_air_pair_time(air3d, r1, s1, r2, s2, P, h):
    if _flat(air3d):
        return lambda air3d, r1, s1, r2, s2, P, h: math.inf
    return lambda air3d, r1, s1, r2, s2, P, h: air.ball_ball_time(r1, s1, r2, s2, P, h)


@overload(_air_transition, prefer_literal=True)
def _ol_air_transition(air3d, kind, ei, ej, rvw, s, pocket, P, segs, normals, jaws, pockets, ext,
                       drop, air_n):
    if _flat(air3d):
        return lambda air3d, kind, ei, ej, rvw, s, pocket, P, segs, normals, jaws, pockets, ext, \
            drop, air_n: (kind, ej)
    return lambda air3d, kind, ei, ej, rvw, s, pocket, P, segs, normals, jaws, pockets, ext, \
        drop, air_n: _land_or_leave(kind, ei, ej, rvw, s, pocket, P, segs, normals, jaws, pockets,
                                    ext, drop, air_n)


@overload(_air_contact, prefer_literal=True)
def _ol_air_contact(air3d, kind, ei, ej, rvw, s, P):
    if _flat(air3d):
        return lambda air3d, kind, ei, ej, rvw, s, P: False
    return lambda air3d, kind, ei, ej, rvw, s, P: _in_air_contact(kind, ei, ej, rvw, s, P)


@overload(_resolve_air_contact, prefer_literal=True)
def _ol_resolve_air_contact(air3d, kind, ei, ej, rvw, s, P, bb_model, segs, normals, jaws, hc,
                            air_n, touched):
    if _flat(air3d):
        return lambda air3d, kind, ei, ej, rvw, s, P, bb_model, segs, normals, jaws, hc, air_n, \
            touched: (kind, ei, ej, _NO, 1)
    return lambda air3d, kind, ei, ej, rvw, s, P, bb_model, segs, normals, jaws, hc, air_n, \
        touched: _resolve_in_air(kind, ei, ej, rvw, s, P, bb_model, segs, normals, jaws, hc, air_n,
                                 touched)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def simulate_table(rvw, s, pocket, cue, P, bb_model, cu_model, air3d, segs, normals, jaws,
                   pockets, cushion_h, drop, ev_t, ev_kind, ev_i, ev_j, max_iter, t_final):
    """Simulate one table in place from the post-strike state; see the module docstring.

    If the next event lies beyond ``t_final`` the balls are advanced to ``t_final`` and the
    simulation stops there (``rvw``/``s`` then hold the state at ``t_final``).

    ``air3d``: the three-dimensional code (airborne balls) is compiled in; a literal False
    compiles the table loop without it, for tables with no ball AIRBORNE after the strike (only
    a ball in the air puts another in the air, so such a table never needs it: the same
    results bit for bit, and a first shot that compiles about a third less code).
    """
    N = rvw.shape[0]
    E = ev_t.shape[0]
    inf = math.inf
    tr_t = np.full(N, inf)
    tr_k = np.full(N, -1, dtype=np.int64)
    tr_j = np.full(N, -1, dtype=np.int64)
    lc_t = np.full(N, inf)
    lc_j = np.full(N, -1, dtype=np.int64)
    jw_t = np.full(N, inf)
    jw_j = np.full(N, -1, dtype=np.int64)
    pk_t = np.full(N, inf)
    pk_j = np.full(N, -1, dtype=np.int64)
    bb = np.full((N, N), inf)
    boxes = np.zeros((N, 4))
    push_t = np.full(N, -inf)
    push_xy = np.zeros((N, 2))
    air_n = np.zeros(N, dtype=np.int64)  # contacts in the air since the last landing
    for b in range(N):
        pocket[b] = -1

    t = 0.0
    n = 0
    status = 0
    if n < E:
        ev_t[n] = 0.0
        ev_kind[n] = K_STRIKE
        ev_i[n] = cue
        ev_j[n] = -1
    n += 1
    if s[cue] == AIRBORNE:  # a jump stroke: the ball left the slate at once
        _log(n, E, 0.0, K_LIFTOFF, cue, _NO, ev_t, ev_kind, ev_i, ev_j)
        n += 1
    # the table's outline (the outer ends of the jaw segments) for landings
    ext = np.empty(4)
    ext[0] = ext[1] = segs[0, 0, 0]
    ext[2] = ext[3] = segs[0, 0, 1]
    for q in range(segs.shape[0]):
        for e in range(2):
            ext[0] = min(ext[0], segs[q, e, 0])
            ext[1] = max(ext[1], segs[q, e, 0])
            ext[2] = min(ext[2], segs[q, e, 1])
            ext[3] = max(ext[3], segs[q, e, 1])

    _predict_balls(np.arange(N), N, t, rvw, s, P, segs, normals, jaws, pockets, cushion_h,
                   tr_t, tr_k, tr_j, lc_t, lc_j, jw_t, jw_j, pk_t, pk_j, boxes, air3d)
    for i in range(N):
        _predict_pairs(i, i + 1, t, rvw, s, P, tr_t, bb, boxes, air3d)

    R = P[P_R]
    touched = np.empty(2, dtype=np.int64)
    it = 0
    while True:
        # ---- earliest event (deterministic tie-break by scan order and strict <) ----
        best = inf
        kind = _NO
        ei = _NO
        ej = _NO
        for b in range(N):
            if tr_t[b] < best:
                best = tr_t[b]
                kind = tr_k[b]
                ei = b
                ej = tr_j[b]
        for b in range(N):
            if pk_t[b] < best:
                best = pk_t[b]
                kind = K_POCKET
                ei = b
                ej = pk_j[b]
        for i in range(N):
            for j in range(i + 1, N):
                if bb[i, j] < best:
                    best = bb[i, j]
                    kind = K_BB
                    ei = i
                    ej = j
        for b in range(N):
            if lc_t[b] < best:
                best = lc_t[b]
                kind = K_CUSHION
                ei = b
                ej = lc_j[b]
        for b in range(N):
            if jw_t[b] < best:
                best = jw_t[b]
                kind = K_JAW
                ei = b
                ej = jw_j[b]
        if best > t_final:
            dt = t_final - t
            if dt > 0.0:
                evolve_all(rvw, s, P, dt)
            break
        if kind == -1:
            break
        it += 1
        if it > max_iter:
            status = 2
            for b in range(N):
                if s[b] != POCKETED and s[b] != OFF_TABLE:
                    if s[b] == AIRBORNE:
                        rvw[b, 0, 2] = R
                    for k in range(3):
                        rvw[b, 1, k] = 0.0
                        rvw[b, 2, k] = 0.0
                    s[b] = 0
            break

        # ---- advance everything to the event time ----
        dt = best - t
        if dt > 0.0:
            evolve_all(rvw, s, P, dt)
        t = best

        # ---- resolve ----
        nt = 1
        touched[0] = ei
        lift = _NO  # a ball lifted off the bed by this event (LIFTOFF logged after it)
        if kind >= 5:
            if kind <= 10:
                s[ei] = apply_transition(rvw[ei], kind)
            else:  # K_BALL_TABLE, K_LEAVE_TABLE: an airborne ball's
                kind, ej = _air_transition(air3d, kind, ei, ej, rvw, s, pocket, P, segs, normals,
                                           jaws, pockets, ext, drop, air_n)
        elif kind == K_POCKET:
            _pocket_ball(rvw[ei], ej, pockets, drop)
            s[ei] = POCKETED
            pocket[ei] = ej
        elif _air_contact(air3d, kind, ei, ej, rvw, s, P):
            kind, ei, ej, lift, nt = _resolve_air_contact(air3d, kind, ei, ej, rvw, s, P, bb_model,
                                                          segs, normals, jaws, cushion_h, air_n,
                                                          touched)
        elif kind == K_BB:
            r1 = rvw[ei]
            r2 = rvw[ej]
            x1, y1, x2, y2 = r1[0, 0], r1[0, 1], r2[0, 0], r2[0, 1]
            _kiss_pair(r1, r2, is_moving(s[ei]), is_moving(s[ej]), R)
            jam = False
            if (_blocked(rvw, s, ei, x1, y1, ej, R, segs, normals, jaws)
                    or _blocked(rvw, s, ej, x2, y2, ei, R, segs, normals, jaws)):
                # a third ball or a cushion is in the way: give the clearance by moving one
                # ball only
                r1[0, 0], r1[0, 1], r2[0, 0], r2[0, 1] = x1, y1, x2, y2
                _shift_from(r2, x1, y1, 2.0 * R + MIN_DIST)
                if _blocked(rvw, s, ej, x2, y2, ei, R, segs, normals, jaws):
                    r2[0, 0], r2[0, 1] = x2, y2
                    _shift_from(r1, x2, y2, 2.0 * R + MIN_DIST)
                    if _blocked(rvw, s, ei, x1, y1, ej, R, segs, normals, jaws):
                        r1[0, 0], r1[0, 1] = x1, y1
                        jam = True
            _model_collide(r1, r2, P, bb_model)
            # a pushed contact (separating slower than V_SEP while friction drives the balls
            # together) would chatter: make it separate at V_SEP, paid from spin energy
            dx, dy = r2[0, 0] - r1[0, 0], r2[0, 1] - r1[0, 1]
            dn = math.sqrt(dx * dx + dy * dy)
            nx, ny = dx / dn, dy / dn
            vrel = (r2[1, 0] - r1[1, 0]) * nx + (r2[1, 1] - r1[1, 1]) * ny
            s1 = SLIDING
            s2 = SLIDING
            if vrel < V_SEP:
                a1x, a1y = accel(r1, _SLIDING8, P)
                a2x, a2y = accel(r2, _SLIDING8, P)
                if jam or (a2x - a1x) * nx + (a2y - a1y) * ny < 0.0:
                    # which ball does its own friction drive into the other?
                    h1 = a1x * nx + a1y * ny > 0.0 and _held(ei, t, rvw, push_t, push_xy, P)
                    h2 = a2x * nx + a2y * ny < 0.0 and _held(ej, t, rvw, push_t, push_xy, P)
                    if h1:
                        s1 = _hold(r1)
                    if h2:
                        s2 = _hold(r2)
                    if not (h1 or h2):
                        _unjam(r1, r2, nx, ny, P)
            r1[1, 2] = 0.0
            r2[1, 2] = 0.0
            s[ei] = s1
            s[ej] = s2
            touched[1] = ej
            nt = 2
        elif kind == K_CUSHION:
            rv = rvw[ei]
            nx, ny = normals[ej, 0], normals[ej, 1]
            x1, y1 = rv[0, 0], rv[0, 1]
            _kiss_line(rv, nx, ny, segs[ej, 0, 0], segs[ej, 0, 1], R)
            jam = _creates_overlap(rvw, s, ei, x1, y1, _NO, R)
            if jam:
                rv[0, 0], rv[0, 1] = x1, y1
            _resolve_cushion(rv, nx, ny, P, cushion_h, cu_model)
            s[ei] = _cushion_push(ei, t, rvw, nx, ny, P, jam, push_t, push_xy)
        else:  # K_JAW
            rv = rvw[ei]
            cx, cy = jaws[ej, 0], jaws[ej, 1]
            x1, y1 = rv[0, 0], rv[0, 1]
            _kiss_circle(rv, cx, cy, jaws[ej, 2] + R)
            jam = _creates_overlap(rvw, s, ei, x1, y1, _NO, R)
            if jam:
                rv[0, 0], rv[0, 1] = x1, y1
            dx, dy = rv[0, 0] - cx, rv[0, 1] - cy
            d = math.sqrt(dx * dx + dy * dy)
            nx, ny = dx / d, dy / d
            _resolve_cushion(rv, nx, ny, P, cushion_h, cu_model)
            s[ei] = _cushion_push(ei, t, rvw, nx, ny, P, jam, push_t, push_xy)

        if n < E:
            ev_t[n] = t
            ev_kind[n] = kind
            ev_i[n] = ei
            ev_j[n] = ej
        else:
            status = 1
        n += 1
        if lift >= 0:
            if not _log(n, E, t, K_LIFTOFF, lift, _NO, ev_t, ev_kind, ev_i, ev_j):
                status = 1
            n += 1

        # ---- recompute predictions involving the touched balls ----
        _predict_balls(touched, nt, t, rvw, s, P, segs, normals, jaws, pockets, cushion_h,
                       tr_t, tr_k, tr_j, lc_t, lc_j, jw_t, jw_j, pk_t, pk_j, boxes, air3d)
        for q in range(nt):
            _predict_pairs(touched[q], _FIRST, t, rvw, s, P, tr_t, bb, boxes, air3d)
    if n > E:
        n = E
    return n, status


@njit(cache=True, no_cfunc_wrapper=True, parallel=True)
def simulate_many(rvw, s, pocket, cue, P, bb_model, cu_model, air3d, segs, normals, jaws, pockets,
                  cushion_h, drop, ev_t, ev_kind, ev_i, ev_j, n_events, status, max_iter,
                  t_final):
    """Run :func:`simulate_table` on every table (leading axis B) in parallel, in place."""
    B = rvw.shape[0]
    for k in prange(B):
        ne, st = simulate_table(rvw[k], s[k], pocket[k], cue[k], P, bb_model, cu_model, air3d,
                                segs, normals, jaws, pockets, cushion_h, drop, ev_t[k],
                                ev_kind[k], ev_i[k], ev_j[k], max_iter, t_final)
        n_events[k] = ne
        status[k] = st


@njit(cache=True, no_cfunc_wrapper=True, nogil=True)
def simulate_serial(rvw, s, pocket, cue, P, bb_model, cu_model, segs, normals, jaws, pockets,
                    cushion_h, drop, ev_t, ev_kind, ev_i, ev_j, n_events, status, max_iter,
                    t_final, progress):
    """Run :func:`simulate_table` on every table in order on the calling thread, in place,
    without holding the GIL. After table k's outputs are written, ``progress[0] = k + 1``
    (stores are issued in program order: a reader that sees ``progress[0] >= k + 1`` on a
    total-store-order CPU also sees table k's results; see ``physics.stream``)."""
    B = rvw.shape[0]
    for k in range(B):
        ne, st = simulate_table(rvw[k], s[k], pocket[k], cue[k], P, bb_model, cu_model, True,
                                segs, normals, jaws, pockets, cushion_h, drop, ev_t[k],
                                ev_kind[k], ev_i[k], ev_j[k], max_iter, t_final)
        n_events[k] = ne
        status[k] = st
        progress[0] = k + 1


@functools.cache
def serial_kernel(bb_model: int, cu_model: int, air3d: bool = True):
    """:func:`simulate_serial` for one model pair (codes as in the module docstring), the pair
    fixed at compile time; called without the two model arguments. ``air3d=False``: the table
    loop without the three-dimensional code (see :func:`simulate_table`), for tables with no
    ball AIRBORNE."""
    bb_model, cu_model, air3d = int(bb_model), int(cu_model), bool(air3d)

    @njit(cache=True, no_cfunc_wrapper=True, nogil=True)
    def simulate_serial_models(rvw, s, pocket, cue, P, segs, normals, jaws, pockets, cushion_h,
                               drop, ev_t, ev_kind, ev_i, ev_j, n_events, status, max_iter,
                               t_final, progress):
        for k in range(rvw.shape[0]):
            ne, st = simulate_table(rvw[k], s[k], pocket[k], cue[k], P, bb_model, cu_model, air3d,
                                    segs, normals, jaws, pockets, cushion_h, drop, ev_t[k],
                                    ev_kind[k], ev_i[k], ev_j[k], max_iter, t_final)
            n_events[k] = ne
            status[k] = st
            progress[0] = k + 1

    return simulate_serial_models


@functools.cache
def parallel_kernel(bb_model: int, cu_model: int, air3d: bool = True):
    """:func:`simulate_many` for one model pair, the pair fixed at compile time; called without
    the two model arguments. ``air3d`` as in :func:`serial_kernel`."""
    bb_model, cu_model, air3d = int(bb_model), int(cu_model), bool(air3d)

    @njit(cache=True, no_cfunc_wrapper=True)
    def simulate_many_models(rvw, s, pocket, cue, P, segs, normals, jaws, pockets, cushion_h,
                             drop, ev_t, ev_kind, ev_i, ev_j, n_events, status, max_iter, t_final):
        simulate_many(rvw, s, pocket, cue, P, bb_model, cu_model, air3d, segs, normals, jaws,
                      pockets, cushion_h, drop, ev_t, ev_kind, ev_i, ev_j, n_events, status,
                      max_iter, t_final)

    return simulate_many_models
