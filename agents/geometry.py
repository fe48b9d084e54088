"""Shot geometry for programmatic players, over plain numpy positions.

Everything here is pure and vectorised over small arrays; it needs only the table dimensions,
the pocket circles and the ball radius (a `TableGeom`, built from a `physics.Table` by
`TableGeom.from_table`). It is the planning model of the `geometric` and `search` agents, not a
simulator: the physics engine decides what really happens.

Conventions (DESIGN.md §3): metres, table frame x in [0, w] across, y in [0, l] along; angles
of shots in degrees counter-clockwise from +x, as in `physics.Shot.phi`.

Models used
-----------
* Ghost ball (e.g. Alciatore, *The Illustrated Principles of Pool and Billiards*, 2004, ch. 3):
  to send object ball O towards aim point P, the cue ball centre must arrive at
  ``G = O - 2R * (P - O)/|P - O|``; the cut angle is the angle between the cue path C->G and the
  object path O->P.
* Error propagation for the make-probability estimate: a cue direction error ``dphi`` moves the
  contact point laterally by about ``d1 * dphi``, which turns the object-ball line by
  ``d1 * dphi / (2R cos(cut))``; the ball drops if its line passes within the pocket's effective
  half-width ``h`` at distance ``d2``, i.e. the object-line error stays below ``h / d2``. With a
  Gaussian aim error this gives ``P = erf(h / (d2 * sigma_obj * sqrt 2))``.
* Speeds: a struck cue ball leaves at ``v = 2 V0 / (1 + m/M)`` (centre hit, instantaneous cue
  impulse; Leckie & Greenspan 2006, as in `physics`), then slides with deceleration ``u_s g``
  until it rolls at 5/7 of its initial speed, then rolls with deceleration ``u_r g``. An object
  ball struck at cut angle ``a`` leaves at ``(1 + e_b)/2 * v cos a`` with no spin and follows
  the same slide-then-roll law.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# Pocket kinds by physics.Table.POCKET_NAMES order: lb lc lt rb rc rt.
CORNER_POCKETS = (0, 2, 3, 5)
SIDE_POCKETS = (1, 4)

#: Default ball parameters (physics.BallParams defaults, pooltool 0.6.0).
DEFAULT_R = 0.028575
DEFAULT_M_BALL = 0.170097
DEFAULT_M_CUE = 0.567
DEFAULT_U_S = 0.2
DEFAULT_U_R = 0.01
DEFAULT_E_B = 0.95
G = 9.81

#: Smallest speed (m/s) an object ball should still have when it reaches the pocket mouth.
ARRIVAL_SPEED = 0.35
#: Bounds on the cue-stick speed the agents choose (m/s).
V0_MIN, V0_MAX = 0.4, 7.0


@dataclass(frozen=True)
class TableGeom:
    """The bits of a `physics.Table` that planning needs.

    Attributes:
        w, l: playing area between cushion noses (m).
        R: ball radius (m).
        pockets: (6, 3) array of pocket circles (cx, cy, radius), order lb lc lt rb rc rt.
        head_string_y: y of the head string (kitchen is y < head_string_y).
    """

    w: float
    l: float
    R: float
    pockets: np.ndarray
    head_string_y: float
    jaw_aims: np.ndarray | None = None

    @classmethod
    def from_table(cls, table, R: float = DEFAULT_R) -> "TableGeom":
        """Build from a `physics.Table` (or anything with w, l, pockets and head_string_y).

        When the table has jaws, the pocket aim points are the jaw-aware ones of
        `poolgym.aim.pocket_geometry` (mouth midpoint moved 30% towards the pocket centre).
        """
        pockets = np.asarray(table.pockets, dtype=float).reshape(-1, 3)
        hs = float(getattr(table, "head_string_y", float(table.l) / 4.0))
        jaw_aims = None
        jaws = np.asarray(getattr(table, "jaws", np.zeros((0, 3))), dtype=float).reshape(-1, 3)
        if jaws.shape[0] >= 12:
            from poolgym.aim import pocket_geometry

            jaw_aims = np.array(pocket_geometry(table).aim_points, dtype=float)
        return cls(float(table.w), float(table.l), float(R), pockets, hs, jaw_aims)

    @classmethod
    def wpa(cls, size: str = "9ft", R: float = DEFAULT_R) -> "TableGeom":
        """Approximate WPA table without physics (pocket centres on the cushion-nose corners).

        Used by tests and when `physics` is not importable; real play uses `from_table`.
        """
        dims = {"9ft": (1.27, 2.54), "8ft": (1.1684, 2.3368), "7ft": (0.9906, 1.9812)}
        if size not in dims:
            raise ValueError(f"size: expected one of {sorted(dims)}, got {size!r}")
        w, l = dims[size]
        rc, rs = 0.062, 0.0645
        pockets = np.array(
            [[0.0, 0.0, rc], [-0.02, l / 2, rs], [0.0, l, rc],
             [w, 0.0, rc], [w + 0.02, l / 2, rs], [w, l, rc]]
        )
        return cls(w, l, R, pockets, l / 4)

    def aim_points(self) -> np.ndarray:
        """(6, 2) points to send object balls at: the mouth centre of each pocket.

        Corners: pulled from the pocket centre towards the table by a small amount along the
        diagonal; sides: the point on the cushion-nose line. Aiming at the mouth rather than the
        pocket centre keeps shots away from the jaws.
        """
        pts = self.pockets[:, :2].copy()
        for k in SIDE_POCKETS:
            pts[k, 0] = 0.0 if pts[k, 0] < self.w / 2 else self.w
            pts[k, 1] = self.l / 2
        for k in CORNER_POCKETS:
            cx = 0.0 if pts[k, 0] < self.w / 2 else self.w
            cy = 0.0 if pts[k, 1] < self.l / 2 else self.l
            inward = np.array([self.w / 2 - cx, self.l / 2 - cy])
            inward /= np.linalg.norm(inward)
            pts[k] = np.array([cx, cy]) + 0.3 * self.R * np.sign(inward)
        return pts

    def pocket_axes(self) -> np.ndarray:
        """(6, 2) unit vectors pointing from the table into each pocket (its acceptance axis)."""
        axes = np.zeros((6, 2))
        for k in CORNER_POCKETS:
            sx = -1.0 if self.pockets[k, 0] < self.w / 2 else 1.0
            sy = -1.0 if self.pockets[k, 1] < self.l / 2 else 1.0
            axes[k] = np.array([sx, sy]) / math.sqrt(2.0)
        for k in SIDE_POCKETS:
            axes[k] = np.array([-1.0 if self.pockets[k, 0] < self.w / 2 else 1.0, 0.0])
        return axes

    def mouth_half_widths(self) -> np.ndarray:
        """(6,) half-width (m) of the window a ball centre must pass through, head-on."""
        hw = np.empty(6)
        hw[list(CORNER_POCKETS)] = 0.75 * (self.pockets[list(CORNER_POCKETS), 2])
        hw[list(SIDE_POCKETS)] = 0.70 * (self.pockets[list(SIDE_POCKETS), 2])
        return hw

    def in_bed(self, xy: np.ndarray, margin: float = 0.0) -> np.ndarray:
        """Mask of points whose ball would lie fully on the bed (clear of the cushions)."""
        xy = np.atleast_2d(xy)
        m = self.R + margin
        return (xy[:, 0] >= m) & (xy[:, 0] <= self.w - m) & (xy[:, 1] >= m) & (xy[:, 1] <= self.l - m)


def unit(v: np.ndarray) -> np.ndarray:
    """Unit vector(s) along the last axis; zero vectors stay zero."""
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return np.where(n > 0, v / np.where(n > 0, n, 1.0), 0.0)


def phi_deg(src: np.ndarray, dst: np.ndarray) -> float:
    """Shot direction in degrees CCW from +x, in [0, 360), from point src towards dst."""
    d = np.asarray(dst, float) - np.asarray(src, float)
    return float(math.degrees(math.atan2(d[1], d[0])) % 360.0)


def ghost_ball(obj: np.ndarray, aim: np.ndarray, R: float) -> np.ndarray:
    """Ghost-ball position: where the cue ball centre must be at contact to drive obj at aim."""
    return np.asarray(obj, float) - 2.0 * R * unit(np.asarray(aim, float) - np.asarray(obj, float))


def cut_angle(cue: np.ndarray, ghost: np.ndarray, obj: np.ndarray, aim: np.ndarray) -> float:
    """Cut angle (radians, in [0, pi]) between the cue path cue->ghost and the object path obj->aim."""
    u = unit(np.asarray(ghost, float) - np.asarray(cue, float))
    v = unit(np.asarray(aim, float) - np.asarray(obj, float))
    return float(math.acos(float(np.clip(np.dot(u, v), -1.0, 1.0))))


def segment_clear(a: np.ndarray, b: np.ndarray, balls: np.ndarray, clearance: float) -> bool:
    """True if a ball moving from a to b passes no centre in `balls` closer than `clearance`.

    `balls` is (K, 2) of obstacles (already excluding the moving ball and its target).
    """
    if len(balls) == 0:
        return True
    a = np.asarray(a, float)
    d = np.asarray(b, float) - a
    L2 = float(d @ d)
    rel = balls - a
    t = np.clip(rel @ d / L2, 0.0, 1.0) if L2 > 0 else np.zeros(len(balls))
    closest = a + t[:, None] * d
    dist = np.linalg.norm(balls - closest, axis=1)
    return bool(np.all(dist >= clearance))


def rolled_speed(v0: float, dist: float, u_s: float = DEFAULT_U_S, u_r: float = DEFAULT_U_R) -> float:
    """Speed after travelling `dist` from an initial sliding speed v0 (no spin), 0 if it stops.

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
    """Smallest sliding launch speed that still has speed v_end after `dist` (inverse of rolled_speed)."""
    lo, hi = 0.0, 20.0
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        if rolled_speed(mid, dist, u_s, u_r) >= v_end:
            hi = mid
        else:
            lo = mid
    return hi


def cue_ball_speed_from_v0(V0: float, m: float = DEFAULT_M_BALL, M: float = DEFAULT_M_CUE) -> float:
    """Cue-ball launch speed of a centre hit with stick speed V0: 2 V0 / (1 + m/M)."""
    return 2.0 * V0 / (1.0 + m / M)


def v0_for_cue_speed(v: float, m: float = DEFAULT_M_BALL, M: float = DEFAULT_M_CUE) -> float:
    """Inverse of `cue_ball_speed_from_v0`."""
    return v * (1.0 + m / M) / 2.0


def v0_for_pot(d1: float, d2: float, cut: float, v_arrive: float = ARRIVAL_SPEED,
               e_b: float = DEFAULT_E_B) -> float:
    """Stick speed V0 so the object ball reaches the pocket (d2 away) with speed v_arrive.

    The cue ball travels d1 to the ghost ball; the object ball leaves at (1+e_b)/2 v cos(cut).
    Returns a value clipped to [V0_MIN, V0_MAX].
    """
    v_obj = launch_speed_for(d2, v_arrive)
    c = max(math.cos(cut), 0.08)
    v_contact = v_obj / (0.5 * (1.0 + e_b) * c)
    v_cue = launch_speed_for(d1, v_contact)
    return float(np.clip(v0_for_cue_speed(v_cue), V0_MIN, V0_MAX))


@dataclass(frozen=True)
class PotCandidate:
    """One direct pot: object ball `ball` into pocket `pocket` by ghost-ball aim.

    Attributes:
        ball, pocket: object-ball row and pocket index (physics.Table.POCKET_NAMES order).
        phi: aim direction of the cue (deg CCW from +x).
        cut: cut angle (rad).
        d1, d2: cue-to-ghost and object-to-pocket distances (m).
        p_make: estimated probability of making it under the aim noise (see module doc).
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


def _seg_point_dist(p0: np.ndarray, p1: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Distance from points q (..., M, 2) to segments p0 -> p1 (..., 2), broadcast -> (..., M)."""
    p0 = p0[..., None, :]
    d = p1[..., None, :] - p0
    L2 = np.sum(d * d, axis=-1)
    t = np.clip(np.sum((q - p0) * d, axis=-1) / np.where(L2 > 0, L2, 1.0), 0.0, 1.0)
    return np.linalg.norm(q - (p0 + t[..., None] * d), axis=-1)


def launch_speed_closed(dist, v_end, u_s: float = DEFAULT_U_S, u_r: float = DEFAULT_U_R):
    """Vectorised closed form of `launch_speed_for` (slide then roll, see module doc)."""
    dist = np.maximum(np.asarray(dist, float), 0.0)
    v_end = np.asarray(v_end, float)
    a_s, a_r = u_s * G, u_r * G
    # rolling reached before dist: (25/49) v0^2 = v_end^2 + 2 a_r (dist - (24/49) v0^2 / (2 a_s))
    v0_roll = np.sqrt((v_end ** 2 + 2 * a_r * dist) / (25.0 / 49.0 + a_r * 24.0 / (49.0 * a_s)))
    d_slide = v0_roll ** 2 * (24.0 / 49.0) / (2 * a_s)
    v0_slide = np.sqrt(v_end ** 2 + 2 * a_s * dist)
    return np.where(dist >= d_slide, v0_roll, v0_slide)


def pot_table(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, cue_xy: np.ndarray, targets,
              sigma_phi_deg: float = 0.125, max_cut_deg: float = 80.0, cue_row: int = 0,
              danger=(), danger_clearance: float = 4.0) -> dict:
    """Every direct pot of each ball in `targets` into each pocket from each cue position.

    cue_xy: (Q, 2) candidate cue-ball positions (the current one, or ball-in-hand spots).
    Returns arrays of shape (Q, T, 6): ``ok`` (feasible: paths clear of every other ball by 2R,
    cut below `max_cut_deg`, ghost ball on the bed, approach inside the pocket's acceptance
    cone; paths also keep `danger_clearance` R from the `danger` balls, e.g. the 8-ball when it
    is not the ball on, 8B-4.19/8B-4.20), ``p`` (make probability, 0 where not ok), ``phi``, ``cut``, ``d1``, ``d2``, ``V0``;
    plus ``targets`` (T,).
    """
    balls = np.asarray(balls, float)
    on = np.asarray(on_table, bool)
    Q = np.atleast_2d(np.asarray(cue_xy, float))
    tg = np.array([b for b in targets if on[b] and b != cue_row], dtype=int)
    nq, nt = Q.shape[0], tg.shape[0]
    R = geom.R
    aims, axes, half = _pocket_arrays(geom)  # (6, 2), (6, 2), (6,)
    if nt == 0:
        z = np.zeros((nq, 0, 6))
        return dict(ok=z.astype(bool), p=z, phi=z, cut=z, d1=z, d2=z, V0=z, targets=tg)
    obj = balls[tg]  # (T, 2)
    to_p = aims[None, :, :] - obj[:, None, :]  # (T, 6, 2)
    d2 = np.linalg.norm(to_p, axis=-1)
    u_p = to_p / np.maximum(d2, 1e-12)[..., None]
    approach = np.sum(u_p * axes[None], axis=-1)  # (T, 6)
    limit = _APPROACH_LIMIT
    ghost = obj[:, None, :] - 2.0 * R * u_p  # (T, 6, 2)
    ghost_ok = geom.in_bed(ghost.reshape(-1, 2)).reshape(nt, 6)
    # object path clear of the other object balls (the cue ball is handled per cue position)
    idx = np.arange(len(on))
    obst_mask = on & (idx != cue_row)
    obst = balls[obst_mask]
    obst_id = idx[obst_mask]
    dist_obj = _seg_point_dist(np.broadcast_to(obj[:, None, :], ghost.shape), aims[None].repeat(nt, 0), obst)
    dist_obj = np.where(obst_id[None, None, :] == tg[:, None, None], np.inf, dist_obj)
    if len(danger):
        need = np.where(np.isin(obst_id, np.asarray(list(danger), dtype=int)), danger_clearance * R, 2 * R * 0.999)
    else:
        need = np.full(len(obst_id), 2 * R * 0.999)
    obj_clear = np.all(dist_obj >= need[None, None, :], axis=-1)  # (T, 6)
    static_ok = (approach >= limit[None]) & ghost_ok & obj_clear & (d2 > 1e-9)
    # cue-dependent parts, (Q, T, 6)
    g = np.broadcast_to(ghost[None], (nq, nt, 6, 2))
    c = np.broadcast_to(Q[:, None, None, :], g.shape)
    v1 = g - c
    d1 = np.linalg.norm(v1, axis=-1)
    u1 = v1 / np.maximum(d1, 1e-12)[..., None]
    cosc = np.clip(np.sum(u1 * u_p[None], axis=-1), -1.0, 1.0)
    cut = np.arccos(cosc)
    dist_cue = _seg_point_dist(c, g, obst)  # (Q, T, 6, M)
    dist_cue = np.where(obst_id[None, None, None, :] == tg[None, :, None, None], np.inf, dist_cue)
    cue_clear = np.all(dist_cue >= need[None, None, None, :], axis=-1)
    # the cue ball itself must not block the object ball's path
    cue_block = _seg_point_dist(np.broadcast_to(obj[:, None, :], ghost.shape), aims[None].repeat(nt, 0),
                                Q)  # (T, 6, Q)
    cue_block_ok = np.moveaxis(cue_block >= 2 * R * 0.999, -1, 0)
    ok = static_ok[None] & cue_clear & cue_block_ok & (cut <= math.radians(max_cut_deg)) & (d1 > 1e-6)
    h_eff = np.maximum(half[None, :] * approach - 0.25 * R, 0.004)  # (T, 6)
    sig = math.radians(max(sigma_phi_deg, 1e-3))
    sig_obj = sig * (1.0 + d1 / (2.0 * R * np.maximum(np.cos(cut), 0.1)))
    arg = h_eff[None] / (np.maximum(d2, 1e-3)[None] * sig_obj * math.sqrt(2.0))
    p = np.where(ok, _erf_np(arg), 0.0)
    v_obj = launch_speed_closed(d2, ARRIVAL_SPEED)[None]
    v_contact = v_obj / (0.5 * (1.0 + DEFAULT_E_B) * np.maximum(np.cos(cut), 0.08))
    v_cue = launch_speed_closed(d1, v_contact)
    V0 = np.clip(v0_for_cue_speed(v_cue), V0_MIN, V0_MAX)
    phi = np.degrees(np.arctan2(u1[..., 1], u1[..., 0])) % 360.0
    return dict(ok=ok, p=p, phi=phi, cut=cut, d1=d1, d2=np.broadcast_to(d2[None], ok.shape), V0=V0,
                targets=tg, ghost=ghost)


#: smallest cosine between an object ball's path and a pocket's axis (corners, sides)
_APPROACH_LIMIT = np.where(np.isin(np.arange(6), SIDE_POCKETS), 0.45, 0.5)
_POCKET_ARRAYS: dict = {}


def _pocket_arrays(geom: TableGeom):
    """(aim_points, pocket_axes, mouth_half_widths) of `geom`, cached per geometry object."""
    got = _POCKET_ARRAYS.get(id(geom))
    if got is None or got[0] is not geom:
        if len(_POCKET_ARRAYS) > 64:
            _POCKET_ARRAYS.clear()
        got = _POCKET_ARRAYS[id(geom)] = (geom, geom.aim_points(), geom.pocket_axes(), geom.mouth_half_widths())
    return got[1], got[2], got[3]


def _erf_np(x: np.ndarray) -> np.ndarray:
    """Vectorised erf (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7) for x >= 0."""
    x = np.asarray(x, float)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-x * x)
    return np.where(x >= 0, y, -y)


def pot_candidates(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, cue_row: int,
                   targets, sigma_phi_deg: float = 0.125, max_cut_deg: float = 80.0,
                   danger=()) -> list[PotCandidate]:
    """All feasible direct pots from the current cue-ball position, best `p_make` first
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


def placement_is_valid(geom: TableGeom, xy: np.ndarray, balls: np.ndarray, on_table: np.ndarray,
                       cue_row: int = 0, kitchen: bool = False, gap: float = 1e-3) -> bool:
    """True if the cue ball may be put at xy: on the bed, not over a pocket mouth, not touching
    any ball (9B-5.10, G-3.22), strictly behind the head string if asked (G-3.10, G-3.16)."""
    xy = np.asarray(xy, float)
    if not geom.in_bed(xy, margin=gap)[0]:
        return False
    pk = geom.pockets
    if np.any(np.hypot(pk[:, 0] - xy[0], pk[:, 1] - xy[1]) < pk[:, 2] + gap):
        return False
    if kitchen and not xy[1] < geom.head_string_y - gap:
        return False
    mask = np.asarray(on_table, bool).copy()
    mask[cue_row] = False
    others = np.asarray(balls, float)[mask]
    if len(others) and np.min(np.linalg.norm(others - xy, axis=1)) < 2.0 * geom.R + gap:
        return False
    return True


def placements_valid(geom: TableGeom, xy: np.ndarray, balls: np.ndarray, on_table: np.ndarray,
                     cue_row: int = 0, kitchen: bool = False, gap: float = 1e-3) -> np.ndarray:
    """Vectorised `placement_is_valid` over points xy (Q, 2) -> (Q,) bool."""
    xy = np.atleast_2d(np.asarray(xy, float))
    ok = geom.in_bed(xy, margin=gap)
    if kitchen:
        ok &= xy[:, 1] < geom.head_string_y - gap
    pk = geom.pockets
    dp = np.hypot(xy[:, None, 0] - pk[None, :, 0], xy[:, None, 1] - pk[None, :, 1])
    ok &= np.all(dp >= pk[None, :, 2] + gap, axis=1)
    mask = np.asarray(on_table, bool).copy()
    mask[cue_row] = False
    others = np.asarray(balls, float)[mask]
    if len(others):
        db = np.hypot(xy[:, None, 0] - others[None, :, 0], xy[:, None, 1] - others[None, :, 1])
        ok &= np.all(db >= 2.0 * geom.R + gap, axis=1)
    return ok


def straight_in_placements(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, targets,
                           cue_row: int = 0, kitchen: bool = False,
                           distances=(0.15, 0.3, 0.5), angles_deg=(0.0, 12.0, -12.0, 25.0, -25.0),
                           max_points: int = 160):
    """Candidate cue-ball placements behind each target ball, lined up with each pocket.

    For target O and pocket P, points at `distances` behind the ghost ball on rays rotated by
    `angles_deg` from the line P->O (a small cut helps position play). Only valid placements
    are kept, at most `max_points` of them (evenly thinned, deterministic). Returns a list of
    (x, y).
    """
    aims = geom.aim_points()
    tg = [b for b in targets if on_table[b]]
    if not tg:
        return []
    obj = np.asarray(balls, float)[tg]  # (T, 2)
    u = unit(aims[None, :, :] - obj[:, None, :])  # (T, 6, 2)
    ghost = obj[:, None, :] - 2.0 * geom.R * u
    back = -u
    pts = []
    for ang in angles_deg:
        c, s_ = math.cos(math.radians(ang)), math.sin(math.radians(ang))
        dirv = np.stack([c * back[..., 0] - s_ * back[..., 1], s_ * back[..., 0] + c * back[..., 1]], -1)
        for d in distances:
            pts.append((ghost + d * dirv).reshape(-1, 2))
    P = np.concatenate(pts)
    P = P[placements_valid(geom, P, balls, on_table, cue_row, kitchen)]
    if len(P) > max_points:
        P = P[np.linspace(0, len(P) - 1, max_points).astype(int)]
    return [(float(x), float(y)) for x, y in P]


def random_placement(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, rng: np.random.Generator,
                     cue_row: int = 0, kitchen: bool = False, tries: int = 200):
    """A uniformly random valid cue-ball placement (rejection sampling); None if none found."""
    ymax = geom.head_string_y if kitchen else geom.l
    for _ in range(tries):
        xy = np.array([rng.uniform(geom.R, geom.w - geom.R), rng.uniform(geom.R, ymax - geom.R)])
        if placement_is_valid(geom, xy, balls, on_table, cue_row, kitchen):
            return float(xy[0]), float(xy[1])
    return None


def mirror_kick_phis(geom: TableGeom, cue: np.ndarray, obj: np.ndarray) -> list[float]:
    """Aim directions for one-rail kicks at obj off each of the four cushions (mirror method)."""
    R = geom.R
    out = []
    for axis, wall in ((0, R), (0, geom.w - R), (1, R), (1, geom.l - R)):
        img = np.array(obj, float)
        img[axis] = 2.0 * wall - img[axis]
        out.append(phi_deg(cue, img))
    return out
