"""Cue-ball placement legality: the referee's check, used by every player that places the ball.

A cue ball in hand may be placed at (x, y) when (checked in this order, :class:`PlacementCode`):

* x and y are finite, and the ball lies on the bed: R <= x <= w - R, R <= y <= l - R;
* G-3.10 / G-3.16 / R-2.21 (in hand behind the head string): y < head string (the string
  itself is not part of the kitchen);
* G-3.22: it does not overlap an object ball (centre distance >= 2R - ``touch_eps``);
* 9B-5.10 (``may_touch`` False): it is not frozen to one (distance > 2R + ``touch_eps``);
* it rests on the bed (:func:`rests_on_bed`): at least R from every cushion segment and jaw
  circle, outside every pocket circle (the physics refuses any other layout).

The cushion segments and jaw circles that :func:`placement_code` is given may be only those
that can reach into the bounds box of the first test (:func:`bed_obstacles`, what
:func:`table_arrays` holds): the others lie wholly beyond a cushion-nose line and cannot touch
a ball whose centre passed it, so the codes are the same and the ~30 distance tests of a
point inside the bed are skipped.

:func:`placement_code` is the compiled check; :func:`placement_codes` runs it on B placements
in one call, :func:`placement_error` / :func:`placement_errors` add the message the referee
raises. :func:`nearest_legal_spot` / :func:`nearest_legal_spots` search, for a player or an
action decoder, the spot nearest a wanted one that passes this same check (with the player's
own extra clearance from the balls). A pure-numpy oracle of the rules lives in
``tests/rules/placement_reference.py``.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

__all__ = ["PlacementCode", "placement_code", "placement_codes", "placement_error", "placement_errors",
           "hypot_lt", "hypot_le", "rests_on_bed", "clear_of_cushions", "on_bed", "nearest_legal_spot", "nearest_legal_spots", "table_arrays",
           "bed_obstacles"]


#: relative margin on squared distances beyond which `hypot_lt` / `hypot_le` decide without
#: ``math.hypot`` (rounding of dx*dx + dy*dy and of hypot is ~1e-16 relative)
_SQ_MARGIN = 1e-9
# Typed (not literal) constants for call arguments: a literal makes numba compile the callee once more
# for that literal (here: once more than the typed call of `placement_error`).
_NO_TOUCH = np.bool_(False)
_CUE0 = np.int64(0)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _clear_side(dx, dy, r):
    """+1 when ``hypot(dx, dy)`` is certainly above ``r``, -1 when certainly below (the squared
    distance clear of r**2 by far more than rounding), 0 near the boundary."""
    d2 = dx * dx + dy * dy
    r2 = r * r
    if r >= 0.0 and d2 > r2 * (1.0 + _SQ_MARGIN):
        return 1
    if r > 0.0 and d2 < r2 * (1.0 - _SQ_MARGIN):
        return -1
    return 0


@njit(cache=True, no_cfunc_wrapper=True)
def hypot_lt(dx, dy, r):
    """``math.hypot(dx, dy) < r`` (the same answer), deciding by the squared distance when it is
    clear of r**2 by far more than rounding; ``math.hypot`` only near the boundary."""
    side = _clear_side(dx, dy, r)
    if side != 0:
        return side < 0
    return math.hypot(dx, dy) < r


@njit(cache=True, no_cfunc_wrapper=True)
def hypot_le(dx, dy, r):
    """``math.hypot(dx, dy) <= r`` (the same answer; see `hypot_lt`)."""
    side = _clear_side(dx, dy, r)
    if side != 0:
        return side < 0
    return math.hypot(dx, dy) <= r


@njit(cache=True, no_cfunc_wrapper=True)
def rests_on_bed(x, y, pockets, segs, jaws, R, tol):
    """A ball centred at (x, y) rests on the bed: outside every pocket circle, at least
    R - ``tol`` from every cushion segment and R + r - ``tol`` from every jaw circle."""
    for p in range(pockets.shape[0]):
        if hypot_le(pockets[p, 0] - x, pockets[p, 1] - y, pockets[p, 2]):
            return False
    return clear_of_cushions(x, y, segs, jaws, R, tol)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def clear_of_cushions(x, y, segs, jaws, R, tol):
    """The cushion and jaw part of `rests_on_bed`: a ball centred at (x, y) is at least
    R - ``tol`` from every cushion segment and R + r - ``tol`` from every jaw circle."""
    for q in range(segs.shape[0]):
        ax = segs[q, 0, 0]
        ay = segs[q, 0, 1]
        dx = segs[q, 1, 0] - ax
        dy = segs[q, 1, 1] - ay
        u = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)
        u = min(max(u, 0.0), 1.0)
        if hypot_lt(ax + u * dx - x, ay + u * dy - y, R - tol):
            return False
    for j in range(jaws.shape[0]):
        if hypot_lt(jaws[j, 0] - x, jaws[j, 1] - y, R + jaws[j, 2] - tol):
            return False
    return True


class PlacementCode:
    """Codes of :func:`placement_code` (0 = legal), in the order it checks."""

    OK = 0
    NOT_FINITE = 1
    OFF_BED = 2
    KITCHEN = 3  # G-3.16
    OVERLAP = 4  # G-3.22
    FROZEN = 5  # 9B-5.10
    CUSHION = 6  # touches a cushion segment, a jaw or a pocket opening


@njit(cache=True, no_cfunc_wrapper=True)
def placement_code(x, y, pos, on, kitchen, may_touch, cue_ball, w, l, head_y, pockets, segs, jaws, R, touch_eps,
                   tol):
    """(code :class:`PlacementCode`, nearest object ball or -1) for a cue ball placed at
    (x, y) on a table pos (N, 2) / on (N,) (rules: module docstring)."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return 1, -1
    if not (R <= x <= w - R and R <= y <= l - R):
        return 2, -1
    if kitchen and not (y < head_y):
        return 3, -1
    dmin = math.inf
    near = -1
    for b in range(pos.shape[0]):
        if b == cue_ball or not on[b]:
            continue
        ex = pos[b, 0] - x
        ey = pos[b, 1] - y
        if ex * ex + ey * ey > dmin * dmin * (1.0 + _SQ_MARGIN):
            continue  # certainly farther than the nearest so far
        d = math.hypot(ex, ey)
        if d < dmin:
            dmin = d
            near = b
    if near >= 0:
        if dmin < 2 * R - touch_eps:
            return 4, near
        if not may_touch and dmin <= 2 * R + touch_eps:
            return 5, near
    if not rests_on_bed(x, y, pockets, segs, jaws, R, tol):
        return 6, near
    return 0, near


@njit(cache=True, no_cfunc_wrapper=True)
def placement_codes(xs, ys, pos, on, kitchen, may_touch, cue_ball, w, l, head_y, pockets, segs, jaws, R,
                    touch_eps, tol):
    """`placement_code` for B placements: xs, ys (B,), pos (B, N, 2), on (B, N), kitchen /
    may_touch (B,) bool. Returns (codes (B,) int8, nearest ball (B,) int64)."""
    B = xs.shape[0]
    codes = np.zeros(B, np.int8)
    near = np.full(B, -1, np.int64)
    for k in range(B):
        c, b = placement_code(xs[k], ys[k], pos[k], on[k], kitchen[k], may_touch[k], cue_ball, w, l, head_y,
                              pockets, segs, jaws, R, touch_eps, tol)
        codes[k] = c
        near[k] = b
    return codes, near


_TABLES: dict = {}


def table_arrays(table):
    """(w, l, head_y, pockets (P, 3), segments (S, 2, 2), jaws (J, 3)) of `placement_code`,
    cached per table: the segments and jaws are the table's `bed_obstacles`."""
    got = _TABLES.get(id(table))
    if got is None or got[0] is not table:
        w, l = float(table.w), float(table.l)
        sg, jw = bed_obstacles(w, l, table.segments, getattr(table, "jaws", np.zeros((0, 3))))
        arrs = (w, l, float(table.head_string_y),
                np.ascontiguousarray(np.asarray(table.pockets, np.float64).reshape(-1, 3)), sg, jw)
        got = _TABLES[id(table)] = (table, arrs)
    return got[1]


def _message(code: int, near: int, x: float, y: float, table, R: float) -> Optional[str]:
    """The :func:`placement_error` message for a code."""
    if code == PlacementCode.OK:
        return None
    if code == PlacementCode.NOT_FINITE:
        return "x and y must be finite"
    w, l = float(table.w), float(table.l)
    if code == PlacementCode.OFF_BED:
        return f"({x:.4f}, {y:.4f}) is not on the bed (x in [{R:.4f}, {w - R:.4f}], y in [{R:.4f}, {l - R:.4f}])"
    if code == PlacementCode.KITCHEN:
        return f"y={y:.4f} is not behind the head string y={float(table.head_string_y):.4f} (G-3.16)"
    if code == PlacementCode.OVERLAP:
        return f"overlaps ball {near} (G-3.22)"
    if code == PlacementCode.FROZEN:
        return f"frozen to ball {near} (9B-5.10)"
    return "not on the bed (touches a cushion, jaw or pocket opening)"


def placement_errors(xs, ys, pos, on, table, R: float, *, kitchen, may_touch, cue_ball: int = 0,
                     touch_eps: float = 1e-9) -> list:
    """:func:`placement_error` for B placements in one compiled call: xs, ys (B,),
    pos (B, N, 2) (or (B, 2N)), on (B, N), kitchen / may_touch (B,) or scalars. Returns a
    list of B messages (None = legal)."""
    xs = np.ascontiguousarray(xs, np.float64).reshape(-1)
    B = xs.shape[0]
    ys = np.ascontiguousarray(ys, np.float64).reshape(B)
    P = np.ascontiguousarray(pos, np.float64).reshape(B, -1, 2)
    onm = np.ascontiguousarray(on, np.bool_).reshape(B, -1)
    kit = np.broadcast_to(np.asarray(kitchen, np.bool_), (B,)).copy()
    mt = np.broadcast_to(np.asarray(may_touch, np.bool_), (B,)).copy()
    w, l, hy, pk, sg, jw = table_arrays(table)
    codes, near = placement_codes(xs, ys, P, onm, kit, mt, int(cue_ball), w, l, hy, pk, sg, jw, float(R),
                                  float(touch_eps), 1e-9)
    out = [None] * B
    for k in np.flatnonzero(codes).tolist():  # messages only for the illegal placements
        out[k] = _message(int(codes[k]), int(near[k]), float(xs[k]), float(ys[k]), table, R)
    return out


def placement_error(x: float, y: float, pos, on, table, R: float, *, kitchen: bool, may_touch: bool,
                    cue_ball: int = 0, touch_eps: float = 1e-9) -> Optional[str]:
    """Why placing the cue ball at (x, y) is illegal, or None if it is legal
    (:func:`placement_code` and its message)."""
    w, l, hy, pk, sg, jw = table_arrays(table)
    P = np.asarray(pos, np.float64).reshape(-1, 2)
    onm = np.asarray(on, np.bool_).reshape(-1)
    x = float(x)
    y = float(y)
    code, near = placement_code(x, y, P, onm, bool(kitchen), bool(may_touch), int(cue_ball), w, l, hy, pk, sg,
                                jw, float(R), float(touch_eps), 1e-9)
    return None if code == 0 else _message(int(code), int(near), x, y, table, R)


def on_bed(x: float, y: float, table, R: float, tol: float = 1e-9) -> bool:
    """:func:`rests_on_bed` for ``table`` (every segment and jaw: the point is not
    bounds-checked first)."""
    pk = np.asarray(table.pockets, np.float64).reshape(-1, 3)
    sg = np.asarray(table.segments, np.float64).reshape(-1, 2, 2)
    jw = np.asarray(getattr(table, "jaws", np.zeros((0, 3))), np.float64).reshape(-1, 3)
    return bool(rests_on_bed(float(x), float(y), pk, sg, jw, float(R), float(tol)))


def bed_obstacles(w: float, l: float, segs, jaws) -> tuple:
    """(segments (S', 2, 2), jaws (J', 3)): the cushion segments and jaw circles of a table
    of playing area ``w`` x ``l`` that can touch a ball whose centre lies in the bounds box
    R <= x <= w - R, R <= y <= l - R of `placement_code` (for every R > 0). Dropped are the
    segments lying wholly on the far side of one of the cushion-nose lines x = 0, x = w,
    y = 0, y = l (at least R from such a centre, so never closer than R - ``tol``) and the
    jaw circles of radius r whose centre is r or more beyond one (at least R + r away): given
    these, `placement_code` returns the same codes for every point, with ``tol`` >= 0 (its
    callers use 1e-9), and skips their distance tests."""
    sg = np.asarray(segs, np.float64).reshape(-1, 2, 2)
    jw = np.asarray(jaws, np.float64).reshape(-1, 3)
    w, l = float(w), float(l)
    x, y = sg[:, :, 0], sg[:, :, 1]
    beyond = (x.max(axis=1) <= 0.0) | (x.min(axis=1) >= w) | (y.max(axis=1) <= 0.0) | (y.min(axis=1) >= l)
    cx, cy, r = jw[:, 0], jw[:, 1], jw[:, 2]
    jaw_beyond = (cx + r <= 0.0) | (cx - r >= w) | (cy + r <= 0.0) | (cy - r >= l)
    return np.ascontiguousarray(sg[~beyond]), np.ascontiguousarray(jw[~jaw_beyond])


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _clear_of_balls(x, y, pos, on, cue_ball, dist):
    """Every object ball on the table is more than ``dist`` from (x, y)."""
    d2 = dist * dist
    for k in range(pos.shape[0]):
        if k != cue_ball and on[k]:
            dx = pos[k, 0] - x
            dy = pos[k, 1] - y
            if dx * dx + dy * dy <= d2:
                return False
    return True


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _spot_ok(x, y, pos, on, kitchen, w, l, head_y, pockets, segs, jaws, R, clearance, xlo, xhi, ylo, yhi):
    if x < xlo or x > xhi or y < ylo or y > yhi:
        return False
    if not _clear_of_balls(x, y, pos, on, 0, 2.0 * R + clearance):
        return False
    code, _ = placement_code(x, y, pos, on, kitchen, _NO_TOUCH, _CUE0, w, l, head_y, pockets, segs, jaws, R, 1e-9, 1e-9)
    return code == 0


@njit(cache=True, no_cfunc_wrapper=True)
def nearest_legal_spot(x, y, pos, on, kitchen, w, l, head_y, pockets, segs, jaws, R, clearance, margin, step,
                       max_rings):
    """(found, x, y): the spot nearest (x, y) where the referee's :func:`placement_code`
    accepts the cue ball (not frozen to a ball, behind the head string when ``kitchen``),
    searched for a player: the wanted spot is first clamped into the bed shrunk by
    ``margin`` (and below the head string by ``margin``), and a spot must also keep
    ``clearance`` more than 2R from every object ball. The clamped spot itself if it
    passes, else the first passing point on rings of radius ``ring * step`` (8 points per
    unit of ring index, counter-clockwise from +x)."""
    xlo = R + margin
    xhi = w - R - margin
    ylo = R + margin
    yhi = head_y - margin if kitchen else l - R - margin
    x = min(max(x, xlo), xhi)
    y = min(max(y, ylo), yhi)
    if _spot_ok(x, y, pos, on, kitchen, w, l, head_y, pockets, segs, jaws, R, clearance, xlo, xhi, ylo, yhi):
        return True, x, y
    for ring in range(1, max_rings):
        n = 8 * ring
        for k in range(n):
            a = 2.0 * math.pi * k / n
            cx = x + ring * step * math.cos(a)
            cy = y + ring * step * math.sin(a)
            if _spot_ok(cx, cy, pos, on, kitchen, w, l, head_y, pockets, segs, jaws, R, clearance, xlo, xhi, ylo,
                        yhi):
                return True, cx, cy
    return False, x, y


@njit(cache=True, no_cfunc_wrapper=True)
def nearest_legal_spots(xs, ys, pos, on, kitchen, w, l, head_y, pockets, segs, jaws, R, clearance, margin, step,
                        max_rings):
    """:func:`nearest_legal_spot` for B tables in one call: xs, ys (B,) wanted spots,
    pos (B, N, 2), on (B, N), kitchen (B,). Returns (found (B,) bool, x (B,), y (B,))."""
    B = xs.shape[0]
    ok = np.zeros(B, np.bool_)
    px = np.zeros(B)
    py = np.zeros(B)
    for k in range(B):
        o, x, y = nearest_legal_spot(xs[k], ys[k], pos[k], on[k], kitchen[k], w, l, head_y, pockets, segs, jaws, R,
                                     clearance, margin, step, max_rings)
        ok[k] = o
        px[k] = x
        py[k] = y
    return ok, px, py
