"""Planning geometry for programmatic players: ghost-ball aim, path clearance, pot tables,
speeds and cue-ball placements.

This is the one planning model of the project: the geometric player (`poolgym.players`, also
the envs' built-in opponent and the ``geometric`` agent), the search agent and the envs' macro
actions (`poolgym.envs.codec`) all plan with it. It is not a simulator: the physics engine
decides what really happens. The pot table -- every (cue position, target ball, pocket) ghost-
ball pot with its feasibility, make probability and speed -- is one compiled kernel
(`_pot_kernel`); :func:`pot_table` is its entry point for one layout and many cue positions,
:func:`pot_candidates` / :func:`best_p_from` read it. Placements are checked by the referee's
own check (`poolgym.rules.placement`), so a player never chooses a spot the referee refuses.

Conventions (DESIGN.md §3): metres, table frame x in [0, w] across, y in [0, l] along; shot
angles in degrees counter-clockwise from +x, as in `physics.Shot.phi`; pockets in the order
lb lc lt rb rc rt (`physics.Table.POCKET_NAMES`).

Models used
-----------
* Ghost ball (e.g. D. Alciatore, *The Illustrated Principles of Pool and Billiards*, 2004,
  ch. 3): to send object ball O towards aim point P, the cue ball centre must arrive at
  ``G = O - 2R (P - O)/|P - O|``; the cut angle is the angle between the cue path C->G and
  the object path O->P. A path of a ball centre is clear of a ball when it passes it at 2R
  or more.
* Error propagation for the make probability: a cue direction error ``dphi`` moves the
  contact point laterally by about ``d1 dphi``, which turns the object-ball line by
  ``d1 dphi / (2R cos(cut))``; the ball drops if its line passes within the pocket's
  effective half-width ``h`` at distance ``d2``, i.e. the object-line error stays below
  ``h / d2``. With a Gaussian aim error this gives ``P = erf(h / (d2 sigma_obj sqrt 2))``.
* Speeds: a struck cue ball leaves at ``v = 2 V0 / (1 + m/M)`` (centre hit, instantaneous cue
  impulse; Leckie & Greenspan 2006, as in `physics`), then slides with deceleration ``u_s g``
  until it rolls at 5/7 of its initial speed, then rolls with deceleration ``u_r g``. An
  object ball struck at cut angle ``a`` leaves at ``(1 + e_b)/2 v cos a`` with no spin and
  follows the same slide-then-roll law.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

from poolgym.rules.geometry import DEFAULT_R
from poolgym.rules.placement import bed_obstacles, clear_of_cushions, hypot_lt, placement_code

POCKET_NAMES = ("lb", "lc", "lt", "rb", "rc", "rt")
CORNER_POCKETS = (0, 2, 3, 5)
SIDE_POCKETS = (1, 4)

#: Ball parameters (physics.BallParams defaults, pooltool 0.6.0).
BALL_RADIUS = DEFAULT_R
DEFAULT_M_BALL = 0.170097
DEFAULT_M_CUE = 0.567
DEFAULT_U_S = 0.2
DEFAULT_U_R = 0.01
DEFAULT_E_B = 0.95
G = 9.81

#: Smallest speed (m/s) an object ball should still have when it reaches the pocket mouth.
ARRIVAL_SPEED = 0.35
#: Bounds on the cue-stick speed players choose (m/s).
V0_MIN, V0_MAX = 0.4, 7.0

#: ball-in-hand candidates of `straight_in_placements`: distances (m) behind the ghost ball,
#: ray angles (deg) from the pocket line, at most this many points scored
PLACEMENT_DISTANCES = (0.15, 0.3, 0.5)
PLACEMENT_ANGLES_DEG = (0.0, 12.0, -12.0, 25.0, -25.0)
PLACEMENT_MAX_POINTS = 160

#: smallest cosine between an object ball's path and a pocket's axis (corners, sides)
APPROACH_LIMIT = np.where(np.isin(np.arange(6), SIDE_POCKETS), 0.45, 0.5)


@dataclass(frozen=True, eq=False)
class TableGeom:
    """The bits of a `physics.Table` that planning needs.

    Attributes:
        w, l: playing area between cushion noses (m).
        R: ball radius (m).
        pockets: (6, 3) pocket circles (cx, cy, radius).
        head_string_y: y of the head string (the kitchen is y < head_string_y).
        segments: (S, 2, 2) cushion segments and jaws (J, 3) jaw circles, for the referee's
            placement check: those that can touch a ball placed on the bed
            (`poolgym.rules.placement.bed_obstacles`; empty for `wpa`).
        aims, axes, half_widths: `aim_points`, `pocket_axes`, `mouth_half_widths`.
    """

    w: float
    l: float
    R: float
    pockets: np.ndarray
    head_string_y: float
    segments: np.ndarray
    jaws: np.ndarray
    aims: np.ndarray
    axes: np.ndarray
    half_widths: np.ndarray

    @classmethod
    def build(cls, w: float, l: float, R: float, pockets, head_string_y: float, segments=None,
              jaws=None) -> "TableGeom":
        pk = np.ascontiguousarray(np.asarray(pockets, dtype=float).reshape(-1, 3))
        w, l = float(w), float(l)
        sg, jw = bed_obstacles(w, l, np.zeros((0, 2, 2)) if segments is None else segments,
                               np.zeros((0, 3)) if jaws is None else jaws)
        return cls(w, l, float(R), pk, float(head_string_y), sg, jw, _aim_points(pk, w, l, R),
                   _pocket_axes(pk, w, l), _mouth_half_widths(pk))

    @classmethod
    def from_table(cls, table, R: float = DEFAULT_R) -> "TableGeom":
        """Build from a `physics.Table` (or anything with w, l, pockets, head_string_y and
        optionally segments and jaws)."""
        hs = float(getattr(table, "head_string_y", float(table.l) / 4.0))
        return cls.build(table.w, table.l, R, table.pockets, hs, getattr(table, "segments", None),
                         getattr(table, "jaws", None))

    @classmethod
    def wpa(cls, size: str = "9ft", R: float = DEFAULT_R) -> "TableGeom":
        """Approximate WPA table without physics (pocket centres on the cushion-nose corners,
        no cushion segments). Real play uses `from_table`."""
        dims = {"9ft": (1.27, 2.54), "8ft": (1.1684, 2.3368), "7ft": (0.9906, 1.9812)}
        if size not in dims:
            raise ValueError(f"size: expected one of {sorted(dims)}, got {size!r}")
        w, l = dims[size]
        rc, rs = 0.062, 0.0645
        pockets = np.array(
            [[0.0, 0.0, rc], [-0.02, l / 2, rs], [0.0, l, rc],
             [w, 0.0, rc], [w + 0.02, l / 2, rs], [w, l, rc]]
        )
        return cls.build(w, l, R, pockets, l / 4)

    def aim_points(self) -> np.ndarray:
        """(6, 2) points to send object balls at (see `_aim_points`)."""
        return self.aims

    def pocket_axes(self) -> np.ndarray:
        """(6, 2) unit vectors pointing from the table into each pocket (its acceptance axis)."""
        return self.axes

    def mouth_half_widths(self) -> np.ndarray:
        """(6,) half-width (m) of the window a ball centre must pass through, head-on."""
        return self.half_widths

    def in_bed(self, xy: np.ndarray, margin: float = 0.0) -> np.ndarray:
        """Mask of points whose ball would lie fully on the bed (clear of the cushion lines)."""
        xy = np.atleast_2d(xy)
        m = self.R + margin
        return (xy[:, 0] >= m) & (xy[:, 0] <= self.w - m) & (xy[:, 1] >= m) & (xy[:, 1] <= self.l - m)


def _aim_points(pockets: np.ndarray, w: float, l: float, R: float) -> np.ndarray:
    """The mouth centre of each pocket: corners pulled from the cushion-nose corner towards the
    table by 0.3 R along each axis; sides the point on the cushion-nose line. Aiming at the
    mouth rather than the pocket centre keeps shots away from the jaws."""
    pts = pockets[:, :2].copy()
    for k in SIDE_POCKETS:
        pts[k, 0] = 0.0 if pts[k, 0] < w / 2 else w
        pts[k, 1] = l / 2
    for k in CORNER_POCKETS:
        cx = 0.0 if pts[k, 0] < w / 2 else w
        cy = 0.0 if pts[k, 1] < l / 2 else l
        inward = np.array([w / 2 - cx, l / 2 - cy])
        inward /= np.linalg.norm(inward)
        pts[k] = np.array([cx, cy]) + 0.3 * R * np.sign(inward)
    return np.ascontiguousarray(pts)


def _pocket_axes(pockets: np.ndarray, w: float, l: float) -> np.ndarray:
    axes = np.zeros((6, 2))
    for k in CORNER_POCKETS:
        sx = -1.0 if pockets[k, 0] < w / 2 else 1.0
        sy = -1.0 if pockets[k, 1] < l / 2 else 1.0
        axes[k] = np.array([sx, sy]) / math.sqrt(2.0)
    for k in SIDE_POCKETS:
        axes[k] = np.array([-1.0 if pockets[k, 0] < w / 2 else 1.0, 0.0])
    return axes


def _mouth_half_widths(pockets: np.ndarray) -> np.ndarray:
    hw = np.empty(6)
    hw[list(CORNER_POCKETS)] = 0.75 * (pockets[list(CORNER_POCKETS), 2])
    hw[list(SIDE_POCKETS)] = 0.70 * (pockets[list(SIDE_POCKETS), 2])
    return hw


# Typed (not literal) constants for call arguments: a literal bool or int compiles the callee (the
# whole pot kernel, the referee's placement check) once more per value; typed ones share the
# signature of the Python-side calls.
_ALL_P = np.bool_(False)

_GEOM_CACHE: dict = {}


def table_geom(table, R: float | None = None) -> TableGeom:
    """`TableGeom` of a `physics.Table` (cached per table object; `TableGeom.wpa` for None)."""
    key = id(table)
    got = _GEOM_CACHE.get(key)
    if got is None or got[0] is not table:
        r = DEFAULT_R if R is None else float(R)
        g = TableGeom.from_table(table, R=float(getattr(table, "R", r))) if table is not None else TableGeom.wpa()
        if len(_GEOM_CACHE) > 64:
            _GEOM_CACHE.clear()
        got = _GEOM_CACHE[key] = (table, g)
    return got[1]


# ----------------------------------------------------------------------------- scalar geometry
def _norm(v: np.ndarray, keepdims: bool = False) -> np.ndarray:
    """Euclidean norm along the last axis of a float array: ``np.linalg.norm(v, axis=-1)``'s own
    sum, sqrt(add.reduce(v * v)), to the bit, without its argument handling."""
    return np.sqrt(np.add.reduce(v * v, axis=-1, keepdims=keepdims))


def _unit_xy(x: float, y: float) -> tuple:
    """(ux, uy, length) of the vector (``x``, ``y``) on Python floats, with the IEEE operations
    of `_norm` and `unit` on a (2,) array (a zero or NaN length gives the zero vector)."""
    n = math.sqrt(x * x + y * y)
    return (x / n, y / n, n) if n > 0 else (0.0, 0.0, n)


def unit(v: np.ndarray) -> np.ndarray:
    """Unit vector(s) along the last axis; zero vectors stay zero."""
    v = np.asarray(v, float)
    if v.shape == (2,):  # one vector: the same IEEE operations on Python floats
        ux, uy, _ = _unit_xy(*v.tolist())
        return np.array((ux, uy))
    n = _norm(v, keepdims=True)
    return np.where(n > 0, v / np.where(n > 0, n, 1.0), 0.0)


def phi_deg(src: np.ndarray, dst: np.ndarray) -> float:
    """Shot direction in degrees CCW from +x, in [0, 360), from point src towards dst."""
    d = np.asarray(dst, float) - np.asarray(src, float)
    return float(math.degrees(math.atan2(d[1], d[0])) % 360.0)


def ghost_ball(obj: np.ndarray, aim_at: np.ndarray, R: float = BALL_RADIUS) -> np.ndarray:
    """Ghost-ball centre(s) ``O - 2R unit(P - O)``: where the cue ball centre must be at
    contact to drive the ball at ``obj`` towards ``aim_at``; broadcasts over leading axes."""
    return np.asarray(obj, float) - 2.0 * R * unit(np.asarray(aim_at, float) - np.asarray(obj, float))


@dataclass(frozen=True)
class Aim:
    """Result of `aim` (arrays broadcast to the inputs' leading shape).

    phi: cue direction in degrees [0, 360) CCW from +x; cut: signed cut angle in degrees
    (positive = object ball leaves to the left of the cue ball's path); ghost: (..., 2) ghost
    ball centres; d_cue: cue-ball travel to the ghost ball (m); d_obj: object-ball travel to the
    target (m); feasible: |cut| < 90 deg and the cue ball is not already at the ghost ball.
    """

    phi: np.ndarray
    cut: np.ndarray
    ghost: np.ndarray
    d_cue: np.ndarray
    d_obj: np.ndarray
    feasible: np.ndarray


def aim(cue: np.ndarray, obj: np.ndarray, target: np.ndarray, R: float = BALL_RADIUS) -> Aim:
    """Ghost-ball aim of the cue ball at ``cue`` to send the ball at ``obj`` to ``target``."""
    cue = np.asarray(cue, float)
    obj = np.asarray(obj, float)
    target = np.asarray(target, float)
    if cue.shape == obj.shape == target.shape == (2,):
        return _aim_one(cue, obj, target, R)
    to_t = target - obj
    d_obj = _norm(to_t)
    u_obj = unit(to_t)
    ghost = obj - 2.0 * R * u_obj
    to_g = ghost - cue
    d_cue = _norm(to_g)
    u_cue = unit(to_g)
    phi = np.degrees(np.arctan2(u_cue[..., 1], u_cue[..., 0])) % 360.0
    cross = u_cue[..., 0] * u_obj[..., 1] - u_cue[..., 1] * u_obj[..., 0]
    dot = np.sum(u_cue * u_obj, axis=-1)
    cut = np.degrees(np.arctan2(cross, dot))
    feasible = (np.abs(cut) < 90.0) & (d_cue > 1e-9)
    return Aim(phi, cut, ghost, d_cue, d_obj, feasible)


def _aim_one(cue: np.ndarray, obj: np.ndarray, target: np.ndarray, R: float) -> Aim:
    """`aim` of one cue ball, object ball and target ((2,) float arrays): the same values and
    types, bit for bit. The vector arithmetic runs on Python floats (the IEEE operations of
    `_norm`, `unit` and numpy's sum on two components); the two arctangents go through numpy's own
    ``arctan2`` in one call (its SIMD routine can differ from ``math.atan2`` in the last bit)."""
    cx, cy = cue.tolist()
    ox, oy = obj.tolist()
    tx, ty = target.tolist()
    uox, uoy, d_obj = _unit_xy(tx - ox, ty - oy)
    k = 2.0 * R
    gx, gy = ox - k * uox, oy - k * uoy
    ucx, ucy, d_cue = _unit_xy(gx - cx, gy - cy)
    dot = 0.0 + ucx * uox + ucy * uoy  # numpy's sum starts from +0.0 (the sign of a zero dot)
    deg = np.degrees(np.arctan2(np.array((ucy, ucx * uoy - ucy * uox)), np.array((ucx, dot))))
    cut = deg[1]
    return Aim(deg[0] % 360.0, cut, np.array((gx, gy)), np.float64(d_cue), np.float64(d_obj),
               np.bool_(abs(cut) < 90.0 and d_cue > 1e-9))


def cut_angle(cue: np.ndarray, ghost: np.ndarray, obj: np.ndarray, aim_at: np.ndarray) -> float:
    """Cut angle (radians, in [0, pi]) between the cue path cue->ghost and the object path obj->aim_at."""
    u = unit(np.asarray(ghost, float) - np.asarray(cue, float))
    v = unit(np.asarray(aim_at, float) - np.asarray(obj, float))
    return float(math.acos(float(np.clip(np.dot(u, v), -1.0, 1.0))))


def segment_point_distance(p0: np.ndarray, p1: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Distance from points ``q`` (..., M, 2) to segments ``p0 -> p1`` (..., 2) -> (..., M)."""
    p0 = np.asarray(p0, float)[..., None, :]
    d = np.asarray(p1, float)[..., None, :] - p0
    L2 = np.sum(d * d, axis=-1)
    t = np.clip(np.sum((np.asarray(q, float) - p0) * d, axis=-1) / np.where(L2 > 0, L2, 1.0), 0.0, 1.0)
    return np.linalg.norm(q - (p0 + t[..., None] * d), axis=-1)


def segment_clear(a: np.ndarray, b: np.ndarray, balls: np.ndarray, clearance: float) -> bool:
    """True if a ball centre moving from a to b passes every centre in ``balls`` (K, 2) at
    ``clearance`` or more (2R: the balls do not touch)."""
    balls = np.asarray(balls, float).reshape(-1, 2)
    if len(balls) == 0:
        return True
    return bool(_segment_clear(float(a[0]), float(a[1]), float(b[0]), float(b[1]), balls, float(clearance)))


@njit(cache=True, no_cfunc_wrapper=True)
def _segment_clear(ax, ay, bx, by, balls, clearance):
    for k in range(balls.shape[0]):
        if _seg_dist(ax, ay, bx, by, balls[k, 0], balls[k, 1]) < clearance:
            return False
    return True


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _phi_to(sx, sy, dx, dy):
    """`phi_deg` from (sx, sy) towards (dx, dy), compiled."""
    return math.degrees(math.atan2(dy - sy, dx - sx)) % 360.0


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _rail_distance(px, py, dx, dy, w, l, R):
    """Distance from (px, py) along the direction (dx, dy) to the first cushion line (ball-
    centre frame: x in [R, w - R], y in [R, l - R]); 0.5 for a zero direction, never below 0."""
    n = math.sqrt(dx * dx + dy * dy)
    if n == 0:
        return 0.5
    ux = dx / n
    uy = dy / n
    t = math.inf
    if ux > 1e-9:
        t = min(t, ((w - R) - px) / ux)
    elif ux < -1e-9:
        t = min(t, (R - px) / ux)
    if uy > 1e-9:
        t = min(t, ((l - R) - py) / uy)
    elif uy < -1e-9:
        t = min(t, (R - py) / uy)
    if t == math.inf:
        return 0.5
    return max(t, 0.0)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _kick_point(cx, cy, ox, oy, axis, wall):
    """(ok, x, y): the cushion contact point (ball-centre frame) of a one-rail kick from
    (cx, cy) to (ox, oy) off the cushion line ``axis`` = ``wall`` (mirror image of the object
    ball); not ok when the line to the image does not cross the cushion line between them."""
    ix = 2.0 * wall - ox if axis == 0 else ox
    iy = 2.0 * wall - oy if axis == 1 else oy
    dx = ix - cx
    dy = iy - cy
    da = dx if axis == 0 else dy
    if abs(da) < 1e-9:
        return False, 0.0, 0.0
    t = (wall - (cx if axis == 0 else cy)) / da
    if not 0.0 < t < 1.0:
        return False, 0.0, 0.0
    return True, cx + t * dx, cy + t * dy


def mirror_kick_phis(geom: TableGeom, cue: np.ndarray, obj: np.ndarray) -> list[float]:
    """Aim directions for one-rail kicks at obj off each of the four cushions (mirror method)."""
    R = geom.R
    out = []
    for axis, wall in ((0, R), (0, geom.w - R), (1, R), (1, geom.l - R)):
        img = np.array(obj, float)
        img[axis] = 2.0 * wall - img[axis]
        out.append(phi_deg(cue, img))
    return out


def best_pocket(geom: TableGeom, obj: np.ndarray) -> int:
    """The pocket whose acceptance axis the straight path from ``obj`` to its aim point
    follows best, nearer pockets preferred (``cos(approach) / (1 + distance)``): the pocket to
    call for a ball when no pot is planned."""
    to_p = geom.aims - np.asarray(obj, float)[None, :]
    d = np.linalg.norm(to_p, axis=1)
    approach = np.sum(to_p / np.maximum(d, 1e-12)[:, None] * geom.axes, axis=1)
    return int(np.argmax(approach / (1.0 + d)))


# ----------------------------------------------------------------------------- speeds
@njit(cache=True, no_cfunc_wrapper=True)
def _launch_speed(dist, v_end, u_s, u_r, g):
    """Smallest sliding launch speed that still has speed ``v_end`` after ``dist`` (slide
    then roll, closed form): rolling reached before ``dist`` when ``dist`` >= the sliding
    distance ``(24/49) v0^2 / (2 u_s g)``, then ``(25/49) v0^2 = v_end^2 + 2 u_r g (dist - d_slide)``."""
    dist = max(dist, 0.0)
    a_s = u_s * g
    a_r = u_r * g
    v0_roll = math.sqrt((v_end ** 2 + 2 * a_r * dist) / (25.0 / 49.0 + a_r * 24.0 / (49.0 * a_s)))
    d_slide = v0_roll ** 2 * (24.0 / 49.0) / (2 * a_s)
    if dist >= d_slide:
        return v0_roll
    return math.sqrt(v_end ** 2 + 2 * a_s * dist)


@njit(cache=True, no_cfunc_wrapper=True)
def _v0_for_pot(d1, d2, cut, v_arrive, e_b, m, M, u_s, u_r, g, v0_min, v0_max):
    v_obj = _launch_speed(d2, v_arrive, u_s, u_r, g)
    v_contact = v_obj / (0.5 * (1.0 + e_b) * max(math.cos(cut), 0.08))
    v_cue = _launch_speed(d1, v_contact, u_s, u_r, g)
    return min(max(v_cue * (1.0 + m / M) / 2.0, v0_min), v0_max)


def rolled_speed(v0: float, dist: float, u_s: float = DEFAULT_U_S, u_r: float = DEFAULT_U_R) -> float:
    """Speed after travelling ``dist`` from an initial sliding speed v0 (no spin), 0 if it stops.

    Slide phase: deceleration u_s g until the speed is 5/7 v0 (pure rolling), covering
    (v0^2 - (5v0/7)^2) / (2 u_s g); then rolling deceleration u_r g.
    """
    v0 = max(float(v0), 0.0)
    a_s, a_r = u_s * G, u_r * G
    v_roll = 5.0 / 7.0 * v0
    d_slide = (v0 * v0 - v_roll * v_roll) / (2.0 * a_s)
    if dist <= d_slide:
        return math.sqrt(max(v0 * v0 - 2.0 * a_s * dist, 0.0))
    rem = v_roll * v_roll - 2.0 * a_r * (dist - d_slide)
    return math.sqrt(rem) if rem > 0 else 0.0


def launch_speed_for(dist: float, v_end: float, u_s: float = DEFAULT_U_S, u_r: float = DEFAULT_U_R) -> float:
    """Smallest sliding launch speed that still has speed v_end after ``dist`` (the inverse of
    `rolled_speed`, closed form)."""
    return float(_launch_speed(float(dist), float(v_end), float(u_s), float(u_r), G))


def cue_ball_speed_from_v0(V0: float, m: float = DEFAULT_M_BALL, M: float = DEFAULT_M_CUE) -> float:
    """Cue-ball launch speed of a centre hit with stick speed V0: 2 V0 / (1 + m/M)."""
    return 2.0 * V0 / (1.0 + m / M)


def v0_for_cue_speed(v: float, m: float = DEFAULT_M_BALL, M: float = DEFAULT_M_CUE) -> float:
    """Inverse of `cue_ball_speed_from_v0`."""
    return v * (1.0 + m / M) / 2.0


def v0_for_pot(d1: float, d2: float, cut: float, v_arrive: float = ARRIVAL_SPEED,
               e_b: float = DEFAULT_E_B) -> float:
    """Stick speed V0 so the object ball reaches the pocket (d2 away) with speed v_arrive.

    The cue ball travels d1 to the ghost ball; the object ball leaves at (1+e_b)/2 v cos(cut)
    (``cut`` in radians). Returns a value clipped to [V0_MIN, V0_MAX].
    """
    return float(_v0_for_pot(float(d1), float(d2), float(cut), float(v_arrive), float(e_b), DEFAULT_M_BALL,
                             DEFAULT_M_CUE, DEFAULT_U_S, DEFAULT_U_R, G, V0_MIN, V0_MAX))


# ----------------------------------------------------------------------------- pot table
@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _erf(x):
    """erf for x >= 0 (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7)."""
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * math.exp(-x * x)
    return y if x >= 0 else -y


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _seg_dist(px, py, qx, qy, x, y):
    """Distance from (x, y) to the segment (px, py) -> (qx, qy)."""
    dx = qx - px
    dy = qy - py
    L2 = dx * dx + dy * dy
    u = ((x - px) * dx + (y - py) * dy) / L2 if L2 > 0 else 0.0
    u = min(max(u, 0.0), 1.0)
    ex = px + u * dx - x
    ey = py + u * dy - y
    return math.sqrt(ex * ex + ey * ey)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _p_make(sig, d1, R, cc, h_eff, d2):
    """Make probability of a pot (module docstring: error propagation): aim noise ``sig``
    (rad), cue travel ``d1``, cosine of the cut ``cc``, effective mouth half-width ``h_eff``,
    object travel ``d2``."""
    sig_obj = sig * (1.0 + d1 / (2.0 * R * max(cc, 0.1)))
    return _erf(h_eff / (max(d2, 1e-3) * sig_obj * math.sqrt(2.0)))


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _ghost(ox, oy, ax, ay, R):
    """Ghost-ball aim of the object ball at (ox, oy) towards (ax, ay): (ghost x, y, the object
    ball's unit path x, y, its length)."""
    tx = ax - ox
    ty = ay - oy
    d2 = math.sqrt(tx * tx + ty * ty)
    dd = max(d2, 1e-12)
    ux = tx / dd
    uy = ty / dd
    return ox - 2.0 * R * ux, oy - 2.0 * R * uy, ux, uy, d2


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _path_clear(ax, ay, bx, by, balls, obst, need, skip):
    """The segment (ax, ay) -> (bx, by) passes every obstacle row ``obst`` other than ``skip`` at
    no less than its clearance ``need``."""
    for oi in range(obst.shape[0]):
        o = obst[oi]
        if o != skip and _seg_dist(ax, ay, bx, by, balls[o, 0], balls[o, 1]) < need[oi]:
            return False
    return True


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _cue_leg_clear(R, aims, balls, obst, need, b, k, cx, cy, gx, gy):
    """The cue ball's path from (cx, cy) to the ghost (gx, gy) clear of every obstacle row
    ``obst`` (other than the object ball ``b``) by its clearance ``need``, and the cue ball not
    in ``b``'s way to pocket ``k`` (2R x 0.999)."""
    return (_path_clear(cx, cy, gx, gy, balls, obst, need, b)
            and not _seg_dist(balls[b, 0], balls[b, 1], aims[k, 0], aims[k, 1], cx, cy) < 2 * R * 0.999)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _unit2(x, y):
    """`unit` of one 2-vector: (x, y) / sqrt(x*x + y*y), zero stays zero."""
    n = math.sqrt(x * x + y * y)
    if n > 0:
        return x / n, y / n
    return 0.0, 0.0


@njit(cache=True, no_cfunc_wrapper=True)
def aim_feasible(cue, objs, aims, R, out):
    """``out[i, k]`` = ``aim(cue, objs[i], aims[k], R).feasible`` (|cut| < 90 deg and the cue
    ball not at the ghost ball), compiled: the same formulas, bit for bit (``cue`` (2,),
    ``objs`` (B, 2), ``aims`` (K, 2), ``out`` (B, K) bool)."""
    for i in range(objs.shape[0]):
        for k in range(aims.shape[0]):
            gx, gy, uox, uoy, _ = _ghost(objs[i, 0], objs[i, 1], aims[k, 0], aims[k, 1], R)
            tx, ty = gx - cue[0], gy - cue[1]
            d_cue = math.sqrt(tx * tx + ty * ty)
            ucx, ucy = _unit2(tx, ty)
            cut = math.degrees(math.atan2(ucx * uoy - ucy * uox, ucx * uox + ucy * uoy))
            out[i, k] = abs(cut) < 90.0 and d_cue > 1e-9


# (inline='always': its IR goes into its one caller's, compiled and optimised once there instead of also
# on its own at a cold cache; the same operations, so the same results)
@njit(inline='always', cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _pot_kernel(consts, aims, axes, half, limit, balls, obst, need, tg, Q, ok, out, ghost):
    """Fill the (Q, T, 6) outputs of `pot_table` (``out`` = p, phi, cut, d1, d2, V0) for target
    rows ``tg`` (T,), obstacle rows ``obst`` (every ball on the table but the cue ball) with
    clearances ``need``, and cue positions Q (nq, 2); ``consts`` = (w, l, R, sigma_phi rad,
    max cut rad, e_b, m, M, u_s, u_r, g, arrival speed, V0 min, V0 max)."""
    w, l, R, sig, max_cut, e_b, m, M = consts[0], consts[1], consts[2], consts[3], consts[4], consts[5], \
        consts[6], consts[7]
    u_s, u_r, g, arrival, v0_min, v0_max = consts[8], consts[9], consts[10], consts[11], consts[12], consts[13]
    p = out[0]
    phi = out[1]
    cut = out[2]
    d1o = out[3]
    d2o = out[4]
    V0 = out[5]
    nq = Q.shape[0]
    nt = tg.shape[0]
    for ti in range(nt):
        b = tg[ti]
        ox = balls[b, 0]
        oy = balls[b, 1]
        for k in range(6):
            gx, gy, ux, uy, d2 = _ghost(ox, oy, aims[k, 0], aims[k, 1], R)
            ghost[ti, k, 0] = gx
            ghost[ti, k, 1] = gy
            approach = ux * axes[k, 0] + uy * axes[k, 1]
            static_ok = (approach >= limit[k] and R <= gx <= w - R and R <= gy <= l - R and d2 > 1e-9
                         and _path_clear(ox, oy, aims[k, 0], aims[k, 1], balls, obst, need, b))
            h_eff = max(half[k] * approach - 0.25 * R, 0.004)
            v_obj = _launch_speed(d2, arrival, u_s, u_r, g)
            for q in range(nq):
                cx = Q[q, 0]
                cy = Q[q, 1]
                vx = gx - cx
                vy = gy - cy
                d1 = math.sqrt(vx * vx + vy * vy)
                de = max(d1, 1e-12)
                wx = vx / de
                wy = vy / de
                c = min(max(wx * ux + wy * uy, -1.0), 1.0)
                ct = math.acos(c)
                good = static_ok and ct <= max_cut and d1 > 1e-6
                if good:  # the cue ball's path clear, and the cue ball not in the object ball's way
                    for oi in range(obst.shape[0]):  # (`_cue_leg_clear` inline: this loop is hot)
                        o = obst[oi]
                        if o != b and _seg_dist(cx, cy, gx, gy, balls[o, 0], balls[o, 1]) < need[oi]:
                            good = False
                            break
                    if good and _seg_dist(ox, oy, aims[k, 0], aims[k, 1], cx, cy) < 2 * R * 0.999:
                        good = False
                cc = math.cos(ct)
                ok[q, ti, k] = good
                p[q, ti, k] = _p_make(sig, d1, R, cc, h_eff, d2) if good else 0.0
                v_contact = v_obj / (0.5 * (1.0 + e_b) * max(cc, 0.08))
                v_cue = _launch_speed(d1, v_contact, u_s, u_r, g)
                V0[q, ti, k] = min(max(v_cue * (1.0 + m / M) / 2.0, v0_min), v0_max)
                phi[q, ti, k] = math.degrees(math.atan2(wy, wx)) % 360.0
                cut[q, ti, k] = ct
                d1o[q, ti, k] = d1
                d2o[q, ti, k] = d2


def pot_table(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, cue_xy: np.ndarray, targets,
              sigma_phi_deg: float = 0.125, max_cut_deg: float = 80.0, cue_row: int = 0,
              danger=(), danger_clearance: float = 4.0) -> dict:
    """Every direct pot of each ball in ``targets`` into each pocket from each cue position.

    cue_xy: (Q, 2) candidate cue-ball positions (the current one, or ball-in-hand spots).
    Returns arrays of shape (Q, T, 6): ``ok`` (feasible: paths clear of every other ball by 2R,
    cut below ``max_cut_deg``, ghost ball on the bed, approach inside the pocket's acceptance
    cone, the cue ball not in the object ball's way; paths also keep ``danger_clearance`` R
    from the ``danger`` balls, e.g. the 8-ball when it is not the ball on, 8B-4.19/8B-4.20),
    ``p`` (make probability, 0 where not ok), ``phi``, ``cut`` (rad), ``d1``, ``d2``, ``V0``;
    plus ``targets`` (T,) and ``ghost`` (T, 6, 2).
    """
    Q = np.ascontiguousarray(np.atleast_2d(np.asarray(cue_xy, float)))
    ok, out, tg, ghost = _run_pot_kernel(geom, balls, on_table, Q, targets, sigma_phi_deg, max_cut_deg, cue_row,
                                         danger, danger_clearance)
    p, phi, cut, d1, d2, V0 = out
    return dict(ok=ok, p=p, phi=phi, cut=cut, d1=d1, d2=d2, V0=V0, targets=tg, ghost=ghost)


def pot_consts(geom: TableGeom, sigma_phi_deg: float = 0.125, max_cut_deg: float = 80.0) -> np.ndarray:
    """The ``consts`` row of `_pot_kernel` for ``geom``: (w, l, R, sigma_phi rad, max cut rad,
    e_b, m, M, u_s, u_r, g, arrival speed, V0 min, V0 max)."""
    return np.array([geom.w, geom.l, geom.R, math.radians(max(sigma_phi_deg, 1e-3)), math.radians(max_cut_deg),
                     DEFAULT_E_B, DEFAULT_M_BALL, DEFAULT_M_CUE, DEFAULT_U_S, DEFAULT_U_R, G, ARRIVAL_SPEED, V0_MIN,
                     V0_MAX])


def _rows(balls) -> np.ndarray:
    """Ball indices (targets, danger balls) as an int64 array."""
    return np.array([int(b) for b in balls], dtype=np.int64)


def _run_pot_kernel(geom: TableGeom, balls, on_table, Q: np.ndarray, targets, sigma_phi_deg: float,
                    max_cut_deg: float, cue_row: int, danger, danger_clearance: float):
    """`_pot_run` over cue positions Q (nq, 2, contiguous) from Python arguments."""
    balls = np.ascontiguousarray(np.asarray(balls, float).reshape(-1, 2))
    on = np.ascontiguousarray(np.asarray(on_table, np.bool_))
    return _pot_run(pot_consts(geom, sigma_phi_deg, max_cut_deg), geom.aims, geom.axes, geom.half_widths,
                    APPROACH_LIMIT, balls, on, _rows(targets), int(cue_row), _rows(danger), float(danger_clearance),
                    Q)


@njit(cache=True, no_cfunc_wrapper=True)
def _pot_run(consts, aims, axes, half, limit, balls, on, targets, cue_row, danger, danger_clearance, Q):
    """`_pot_kernel` over cue positions Q (nq, 2): (ok, out (6, nq, T, 6), target rows (T,),
    ghost (T, 6, 2)). The target rows are ``targets`` on the table other than ``cue_row``, in
    their order; the obstacles every other ball on the table, kept 2R (x 0.999) away, the
    ``danger`` rows ``danger_clearance`` R away. All not ok when no target is on the table."""
    nq = Q.shape[0]
    tg = _target_rows(on, targets, cue_row)
    nt = tg.shape[0]
    ok = np.zeros((nq, nt, 6), np.bool_)
    if nt == 0:
        return ok, np.zeros((6, nq, 0, 6)), tg, np.zeros((0, 6, 2))
    obst, need = _obstacles(on, cue_row, danger, danger_clearance, consts[2])
    out = np.empty((6, nq, nt, 6))
    ghost = np.empty((nt, 6, 2))
    _pot_kernel(consts, aims, axes, half, limit, balls, obst, need, tg, Q, ok, out, ghost)
    return ok, out, tg, ghost


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _target_rows(on, targets, cue_row):
    """The rows of ``targets`` on the table other than ``cue_row``, in their order."""
    tg = np.empty(targets.shape[0], np.int64)
    nt = 0
    for i in range(targets.shape[0]):
        b = targets[i]
        if on[b] and b != cue_row:
            tg[nt] = b
            nt += 1
    return tg[:nt].copy()


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _obstacles(on, cue_row, danger, danger_clearance, R):
    """(rows, clearances): every ball on the table other than ``cue_row``, to be passed at 2R
    (x 0.999), the ``danger`` rows at ``danger_clearance`` R."""
    no = 0
    for k in range(on.shape[0]):
        if on[k] and k != cue_row:
            no += 1
    obst = np.empty(no, np.int64)
    need = np.empty(no)
    j = 0
    for k in range(on.shape[0]):
        if on[k] and k != cue_row:
            obst[j] = k
            need[j] = 2 * R * 0.999
            for d in range(danger.shape[0]):
                if danger[d] == k:
                    need[j] = danger_clearance * R
            j += 1
    return obst, need


@njit(cache=True, no_cfunc_wrapper=True)
def _best_p_run(consts, aims, axes, half, limit, balls, on, targets, cue_row, danger, danger_clearance, Q,
                first_best, pick):
    """(nq,) the best make probability from each cue position of Q (nq, 2): the max of `_pot_run`'s
    p over its (target, pocket) entries, 0 when none is feasible (the same value: each pot's p
    is computed as `_pot_kernel` computes it, and only pots that cannot be the best skip it).
    ``first_best``: only the first position of the highest value is asked for (the
    ball-in-hand spot, `_best_placement`): a position's value is then exact when it exceeds
    every earlier one, and may be lower than its own best (never higher) otherwise -- pots
    ranked below the band of the best position so far cannot exceed it (the ranking below), so
    they are not evaluated. ``pick`` (nq, 4) receives each position's best pot: ball, pocket
    (ties to the lower ball, then the lower pocket; -1 when there is none), phi and V0 as
    `_pot_kernel` computes them; a (0, 4) ``pick`` asks for the values only (the same values:
    the ball-in-hand spot needs no stroke).

    Per cue position, the feasible-looking pots (object path clear, cut within the limit,
    `_pot_kernel`'s tests) are ranked by the argument of their make probability's erf without
    its constant factors (``h / d2`` over ``1 + d1 / (2R cos(cut))``, the cut's cosine
    read from the dot product instead of ``cos(acos(.))``: equal to about 1e-15 relative),
    which p increases with; in that order each pot's exact p and paths are checked until the
    first feasible one, then every pot ranked within 1e-6 (relative) of it, far beyond the
    rounding of either side, and on below it while p equals the best (erf saturates at 1)."""
    w, l, R, sig, max_cut = consts[0], consts[1], consts[2], consts[3], consts[4]
    e_b, m_b, M, u_s, u_r, g = consts[5], consts[6], consts[7], consts[8], consts[9], consts[10]
    arrival, v0_min, v0_max = consts[11], consts[12], consts[13]
    picking = pick.shape[0] > 0
    if picking:
        for q in range(Q.shape[0]):
            pick[q, 0] = -1.0
            pick[q, 1] = -1.0
    nq = Q.shape[0]
    best = np.zeros(nq)
    tg = _target_rows(on, targets, cue_row)
    nt = tg.shape[0]
    if nt == 0:
        return best
    obst, need = _obstacles(on, cue_row, danger, danger_clearance, R)
    cos_cut = math.cos(max_cut) - 1e-12  # below it acos is certainly beyond max_cut (rounding ~1e-16)
    # the (target, pocket) pots whose object path is clear: ghost, path direction, h_eff, d2, ball,
    # pocket, h_eff / d2
    G = np.empty((nt * 6, 9))
    n = 0
    for ti in range(nt):
        b = tg[ti]
        ox = balls[b, 0]
        oy = balls[b, 1]
        for k in range(6):
            gx, gy, ux, uy, d2 = _ghost(ox, oy, aims[k, 0], aims[k, 1], R)
            approach = ux * axes[k, 0] + uy * axes[k, 1]
            if not (approach >= limit[k] and R <= gx <= w - R and R <= gy <= l - R and d2 > 1e-9):
                continue
            if not _path_clear(ox, oy, aims[k, 0], aims[k, 1], balls, obst, need, b):
                continue
            h_eff = max(half[k] * approach - 0.25 * R, 0.004)
            G[n, 0] = gx
            G[n, 1] = gy
            G[n, 2] = ux
            G[n, 3] = uy
            G[n, 4] = h_eff
            G[n, 5] = d2
            G[n, 6] = b
            G[n, 7] = k
            G[n, 8] = h_eff / max(d2, 1e-3)
            n += 1
    key = np.empty(n)
    inv2R = 1.0 / (2.0 * R)
    top = 0.0  # ``first_best``: the highest value so far, and the band of keys that may exceed it
    floor = -1.0
    for q in range(nq):
        cx = Q[q, 0]
        cy = Q[q, 1]
        m = 0
        for j in range(n):
            key[j] = -1.0
            vx = G[j, 0] - cx
            vy = G[j, 1] - cy
            d1 = math.sqrt(vx * vx + vy * vy)
            if not d1 > 1e-6:
                continue
            c = (vx * G[j, 2] + vy * G[j, 3]) / d1
            if c < cos_cut - 1e-9:  # certainly beyond the cut limit
                continue
            kj = G[j, 8] / (1.0 + d1 * inv2R / max(c, 0.1))
            if kj < floor:  # ranked below the best position's band: its p cannot exceed that value
                continue
            key[j] = kj
            m += 1
        bp = 0.0
        stop = -1.0
        bb = -1
        bk = -1
        while m > 0:
            jb = -1
            for j in range(n):
                if key[j] >= 0.0 and (jb < 0 or key[j] > key[jb]):
                    jb = j
            if jb < 0:
                break
            kb = key[jb]
            below = kb < stop  # ranked below the band: p at most the best's, equal only where p saturates
            key[jb] = -1.0
            m -= 1
            # `_pot_kernel`'s own computation of this pot
            gx = G[jb, 0]
            gy = G[jb, 1]
            vx = gx - cx
            vy = gy - cy
            d1 = math.sqrt(vx * vx + vy * vy)
            de = max(d1, 1e-12)
            wx = vx / de
            wy = vy / de
            c = min(max(wx * G[jb, 2] + wy * G[jb, 3], -1.0), 1.0)
            if c < cos_cut:
                continue
            ct = math.acos(c)
            if not (ct <= max_cut and d1 > 1e-6):
                continue
            cc = math.cos(ct)
            pq = _p_make(sig, d1, R, cc, G[jb, 4], G[jb, 5])
            if below and pq < bp:  # this pot and every one ranked below it: p below the best's
                break
            b = int(G[jb, 6])
            k = int(G[jb, 7])
            if bb >= 0 and not (pq > bp or (pq == bp and (b < bb or (b == bb and k < bk)))):
                continue
            if _cue_leg_clear(R, aims, balls, obst, need, b, k, cx, cy, gx, gy):
                bp = pq
                bb = b
                bk = k
                if stop < 0.0:
                    stop = kb * (1.0 - 1e-6)
                if picking:
                    v_obj = _launch_speed(G[jb, 5], arrival, u_s, u_r, g)  # `_pot_kernel`'s phi and V0
                    v_contact = v_obj / (0.5 * (1.0 + e_b) * max(cc, 0.08))
                    v_cue = _launch_speed(d1, v_contact, u_s, u_r, g)
                    pick[q, 0] = b
                    pick[q, 1] = k
                    pick[q, 2] = math.degrees(math.atan2(wy, wx)) % 360.0
                    pick[q, 3] = min(max(v_cue * (1.0 + m_b / M) / 2.0, v0_min), v0_max)
        best[q] = bp
        if first_best and bp > top:
            top = bp
            floor = stop
    return best


@dataclass(frozen=True)
class PotCandidate:
    """One direct pot: object ball ``ball`` into pocket ``pocket`` by ghost-ball aim.

    Attributes:
        ball, pocket: object-ball row and pocket index (`POCKET_NAMES` order).
        phi: aim direction of the cue (deg CCW from +x).
        cut: cut angle (rad).
        d1, d2: cue-to-ghost and object-to-pocket distances (m).
        p_make: estimated probability of making it under the aim noise (module docstring).
        V0: suggested stick speed (m/s).
        ghost: ghost-ball point (2,).
    """

    ball: int
    pocket: int
    phi: float
    cut: float
    d1: float
    d2: float
    p_make: float
    V0: float
    ghost: tuple[float, float]


def pot_candidates(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, cue_row: int, targets,
                   sigma_phi_deg: float = 0.125, max_cut_deg: float = 80.0, danger=()) -> list[PotCandidate]:
    """All feasible direct pots from the current cue-ball position, best ``p_make`` first
    (see `pot_table` for the feasibility tests and the scoring)."""
    balls = np.asarray(balls, float)
    t = pot_table(geom, balls, on_table, balls[cue_row][None], targets, sigma_phi_deg, max_cut_deg, cue_row,
                  danger=danger)
    out = []
    for ti, k in zip(*np.nonzero(t["ok"][0])):
        gh = t["ghost"][ti, k]
        out.append(PotCandidate(int(t["targets"][ti]), int(k), float(t["phi"][0, ti, k]),
                                float(t["cut"][0, ti, k]), float(t["d1"][0, ti, k]), float(t["d2"][0, ti, k]),
                                float(t["p"][0, ti, k]), float(t["V0"][0, ti, k]), (float(gh[0]), float(gh[1]))))
    out.sort(key=lambda c: (-c.p_make, c.ball, c.pocket))
    return out


def best_p_from(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, cue_xy: np.ndarray, targets,
                sigma_phi_deg: float = 0.125, danger=()) -> np.ndarray:
    """(Q,) best make probability from each candidate cue position (0 if no pot)."""
    t = pot_table(geom, balls, on_table, cue_xy, targets, sigma_phi_deg, danger=danger)
    if t["p"].shape[1] == 0:
        return np.zeros(len(np.atleast_2d(cue_xy)))
    return t["p"].reshape(t["p"].shape[0], -1).max(axis=1)


# ----------------------------------------------------------------------------- placement
def placements_valid(geom: TableGeom, xy: np.ndarray, balls: np.ndarray, on_table: np.ndarray,
                     cue_row: int = 0, kitchen: bool = False, gap: float = 1e-3) -> np.ndarray:
    """(Q,) bool: the referee accepts the cue ball at each point of xy (Q, 2)
    (`poolgym.rules.placement.placement_code`: on the bed clear of cushions, jaws and pocket
    openings, not touching a ball (9B-5.10, G-3.22), behind the head string when ``kitchen``
    (G-3.10, G-3.16)), and the point keeps the player's margin ``gap`` from the cushion lines,
    the pocket circles, the head string and (beyond 2R) the other balls."""
    xy = np.ascontiguousarray(np.atleast_2d(np.asarray(xy, float)))
    P = np.ascontiguousarray(np.asarray(balls, float).reshape(-1, 2))
    on = np.ascontiguousarray(np.asarray(on_table, np.bool_))
    out = np.zeros(xy.shape[0], np.bool_)
    _placements_ok(xy, P, on, int(cue_row), bool(kitchen), float(gap), geom.w, geom.l, geom.head_string_y,
                   geom.pockets, geom.segments, geom.jaws, geom.R, out)
    return out


@njit(cache=True, no_cfunc_wrapper=True)
def _placements_ok(xy, P, on, cue_row, kitchen, gap, w, l, hs, pockets, segs, jaws, R, out):
    m = R + gap
    for q in range(xy.shape[0]):
        x = xy[q, 0]
        y = xy[q, 1]
        ok = m <= x <= w - m and m <= y <= l - m and (not kitchen or y < hs - gap)
        if ok:
            for p in range(pockets.shape[0]):
                if hypot_lt(x - pockets[p, 0], y - pockets[p, 1], pockets[p, 2] + gap):
                    ok = False
                    break
        if ok:
            for k in range(P.shape[0]):
                if k != cue_row and on[k] and hypot_lt(x - P[k, 0], y - P[k, 1], 2.0 * R + gap):
                    ok = False
                    break
        if ok and gap >= 1e-6:
            # the point passed every test of `placement_code` but the cushions' with a margin
            # far beyond its 1e-9: on the bed, behind the string when asked, 2R + gap or more
            # from every ball (neither overlapping nor frozen), outside the pocket circles
            ok = clear_of_cushions(x, y, segs, jaws, R, 1e-9)
        elif ok:
            ok = placement_code(x, y, P, on, kitchen, _ALL_P, cue_row, w, l, hs, pockets, segs, jaws, R, 1e-9,
                                1e-9)[0] == 0
        out[q] = ok


def placement_is_valid(geom: TableGeom, xy: np.ndarray, balls: np.ndarray, on_table: np.ndarray,
                       cue_row: int = 0, kitchen: bool = False, gap: float = 1e-3) -> bool:
    """`placements_valid` of one point."""
    return bool(placements_valid(geom, np.asarray(xy, float)[None], balls, on_table, cue_row, kitchen, gap)[0])


def straight_in_placements(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, targets,
                           cue_row: int = 0, kitchen: bool = False,
                           distances=PLACEMENT_DISTANCES, angles_deg=PLACEMENT_ANGLES_DEG,
                           max_points: int = PLACEMENT_MAX_POINTS):
    """Candidate cue-ball placements behind each target ball, lined up with each pocket.

    For target O and pocket P, points at ``distances`` behind the ghost ball on rays rotated by
    ``angles_deg`` from the line P->O (a small cut helps position play). Only valid placements
    (`placements_valid`) are kept, at most ``max_points`` of them (evenly thinned,
    deterministic). Returns a list of (x, y).
    """
    tg = [b for b in targets if on_table[b]]
    if not tg:
        return []
    obj = np.ascontiguousarray(np.asarray(balls, float).reshape(-1, 2)[tg])  # (T, 2)
    ang = np.radians(np.asarray(angles_deg, float))
    P = _straight_in_points(obj, geom.aims, geom.R, np.cos(ang), np.sin(ang), np.asarray(distances, float))
    P = P[placements_valid(geom, P, balls, on_table, cue_row, kitchen)]
    if len(P) > max_points:
        P = P[np.linspace(0, len(P) - 1, max_points).astype(np.int64)]
    return list(map(tuple, P.tolist()))


def best_straight_in_placement(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, targets,
                               sigma_phi_deg: float = 0.125, cue_row: int = 0, kitchen: bool = False, danger=(),
                               distances=PLACEMENT_DISTANCES, angles_deg=PLACEMENT_ANGLES_DEG,
                               max_points: int = PLACEMENT_MAX_POINTS):
    """The `straight_in_placements` spot with the best make probability (`best_p_from` with the
    cue ball lifted; the first of equals in candidate order), as (x, y); None when no candidate
    is valid. One compiled pass makes and checks the candidates (the referee's
    `placement_code` through `_placements_ok`), one `_best_p_run` pass scores them."""
    on = np.ascontiguousarray(np.asarray(on_table, np.bool_))
    P = np.ascontiguousarray(np.asarray(balls, float).reshape(-1, 2))
    ang = np.radians(np.asarray(angles_deg, float))
    found, x, y = _best_placement(pot_consts(geom, sigma_phi_deg), geom.aims, geom.axes, geom.half_widths,
                                  APPROACH_LIMIT, P, on, _rows(targets), int(cue_row), bool(kitchen), _rows(danger),
                                  np.cos(ang), np.sin(ang), np.asarray(distances, float), geom.head_string_y,
                                  geom.pockets, geom.segments, geom.jaws, int(max_points))
    return (x, y) if found else None


# (inline='always': as `_pot_kernel`; called from Python it is compiled on its own)
@njit(inline='always', cache=True, no_cfunc_wrapper=True)
def _best_placement(consts, aims, axes, half, limit, P, on, targets, cue_row, kitchen, danger, cos_a, sin_a, dist,
                    hs, pockets, segs, jaws, max_points):
    """(found, x, y) of `best_straight_in_placement` (``consts`` as `pot_consts`)."""
    w, l, R = consts[0], consts[1], consts[2]
    nt = 0
    for i in range(targets.shape[0]):
        if on[targets[i]]:
            nt += 1
    if nt == 0:
        return False, 0.0, 0.0
    obj = np.empty((nt, 2))
    j = 0
    for i in range(targets.shape[0]):
        b = targets[i]
        if on[b]:
            obj[j, 0] = P[b, 0]
            obj[j, 1] = P[b, 1]
            j += 1
    pts = _valid_straight_in_points(obj, aims, R, cos_a, sin_a, dist, P, on, cue_row, kitchen, 1e-3, w, l, hs,
                                    pockets, segs, jaws)
    n = pts.shape[0]
    if n == 0:
        return False, 0.0, 0.0
    if n > max_points:  # evenly thinned as np.linspace(0, n - 1, max_points).astype(int64)
        step = (n - 1) / (max_points - 1)
        thin = np.empty((max_points, 2))
        for i in range(max_points):
            q = n - 1 if i == max_points - 1 else int(float(i) * step)
            thin[i, 0] = pts[q, 0]
            thin[i, 1] = pts[q, 1]
        pts = thin
    lifted = on.copy()
    lifted[cue_row] = False
    # (np.bool_: a plain bool, one compiled version for all callers; an empty pick: the values only)
    best = _best_p_run(consts, aims, axes, half, limit, P, lifted, targets, cue_row, danger, 4.0, pts, np.bool_(True),
                       np.empty((0, 4)))
    q = 0
    for i in range(1, pts.shape[0]):  # the first spot of the best p
        if best[i] > best[q]:
            q = i
    return True, pts[q, 0], pts[q, 1]


# (inline='always': as `_pot_kernel`)
@njit(inline='always', cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _valid_straight_in_points(obj, aims, R, cos_a, sin_a, dist, P, on, cue_row, kitchen, gap, w, l, hs, pockets,
                              segs, jaws):
    """The `_straight_in_points` that `_placements_ok` accepts, in candidate order (k, 2)."""
    pts = _straight_in_points(obj, aims, R, cos_a, sin_a, dist)
    good = np.zeros(pts.shape[0], np.bool_)
    _placements_ok(pts, P, on, cue_row, kitchen, gap, w, l, hs, pockets, segs, jaws, R, good)
    out = np.empty((int(good.sum()), 2))
    j = 0
    for q in range(pts.shape[0]):
        if good[q]:
            out[j, 0] = pts[q, 0]
            out[j, 1] = pts[q, 1]
            j += 1
    return out


@njit(cache=True, no_cfunc_wrapper=True)
def _straight_in_points(obj, aims, R, cos_a, sin_a, dist):
    """The candidate points of `straight_in_placements`, angle-major, then distance, then
    (target, pocket)."""
    T = obj.shape[0]
    out = np.empty((cos_a.shape[0] * dist.shape[0] * T * 6, 2))
    q = 0
    for a in range(cos_a.shape[0]):
        c = cos_a[a]
        s_ = sin_a[a]
        for di in range(dist.shape[0]):
            d = dist[di]
            for t in range(T):
                for k in range(6):
                    vx = aims[k, 0] - obj[t, 0]
                    vy = aims[k, 1] - obj[t, 1]
                    n = math.sqrt(vx * vx + vy * vy)
                    ux = vx / n if n > 0 else 0.0
                    uy = vy / n if n > 0 else 0.0
                    bx = -ux
                    by = -uy
                    out[q, 0] = obj[t, 0] - 2.0 * R * ux + d * (c * bx - s_ * by)
                    out[q, 1] = obj[t, 1] - 2.0 * R * uy + d * (s_ * bx + c * by)
                    q += 1
    return out


def random_placement(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, rng: np.random.Generator,
                     cue_row: int = 0, kitchen: bool = False, tries: int = 200):
    """A uniformly random valid cue-ball placement (rejection sampling); None if none found."""
    ymax = geom.head_string_y if kitchen else geom.l
    for _ in range(tries):
        xy = np.array([rng.uniform(geom.R, geom.w - geom.R), rng.uniform(geom.R, ymax - geom.R)])
        if placement_is_valid(geom, xy, balls, on_table, cue_row, kitchen):
            return float(xy[0]), float(xy[1])
    return None
