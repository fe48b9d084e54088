"""Ghost-ball aiming geometry: aim, cut angle, path clearance and pocket aim points.

Pure numpy, vectorised over (target ball x pocket) pairs so geometric players (the built-in
opponent in `poolgym.envs.opponents`, the macro-action space in `poolgym.envs.codec`, the
baseline agents) can score every candidate pot in one call.

Frame and units are those of `physics.Table` (DESIGN §3): metres, x across the width, y along the
length, angles in degrees counter-clockwise from +x (the `physics.Shot.phi` convention).

Geometry used (standard ghost-ball construction, e.g. D. Alciatore, *The Illustrated Principles
of Pool and Billiards*, 2004, ch. 3):

* To send an object ball at ``O`` towards a target point ``T`` the cue ball must be, at contact,
  at the *ghost ball* ``G = O - 2R * (T - O) / |T - O|`` (frictionless, no throw).
* The cue ball is aimed at ``G``: ``phi = atan2(G - C)``.
* The *cut angle* is the angle between the cue ball's path ``G - C`` and the object ball's path
  ``T - O``; a pot is geometrically possible only if ``|cut| < 90 deg``.
* A straight path of a ball centre from ``P0`` to ``P1`` is *clear* of a ball at ``Q`` when the
  distance from ``Q`` to the segment is at least ``2R`` (two radii), and clear of a pocket jaw
  (circular cushion of radius ``r_j`` at ``J``) when the distance is at least ``R + r_j``.

Pocket aim points are jaw-aware: a pocket's two jaws are the two circular cushion segments of
`physics.Table.jaws` closest to its centre; the *mouth* is the segment between the jaw centres
and the aim point is the mouth midpoint moved ``depth`` of the way towards the pocket centre.
`jaw_margin` measures how far a ball's line to the aim point stays from the jaws (the pot's
error window in metres; negative = the ball would hit a jaw on the way in).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: WPA ball radius (m); equals `physics.BallParams().R`.
BALL_RADIUS = 0.028575

POCKET_NAMES = ("lb", "lc", "lt", "rb", "rc", "rt")


@dataclass(frozen=True)
class PocketGeometry:
    """Pocket data of one table, derived once from `physics.Table`.

    Attributes:
        centers: (6, 2) pocket centres, `Table.POCKET_NAMES` order.
        radii: (6,) pocket radii.
        jaw_centers: (6, 2, 2) centres of the two jaws (circular cushions) of each pocket.
        jaw_radii: (6, 2) jaw radii.
        mouth: (6, 2) mouth midpoints (between the jaw centres).
        aim_points: (6, 2) where a potted ball is aimed (mouth moved `depth` towards the centre).
    """

    centers: np.ndarray
    radii: np.ndarray
    jaw_centers: np.ndarray
    jaw_radii: np.ndarray
    mouth: np.ndarray
    aim_points: np.ndarray


def pocket_geometry(table, depth: float = 0.3) -> PocketGeometry:
    """Build the `PocketGeometry` of ``table`` (anything with ``pockets`` (6, 3) and ``jaws``
    (C, 3) arrays as in `physics.Table`). ``depth`` in [0, 1]: 0 aims at the mouth midpoint,
    1 at the pocket centre. If the table has fewer than two jaws per pocket, the mouth is taken
    as the pocket centre."""
    if not 0.0 <= depth <= 1.0:
        raise ValueError(f"depth must be in [0, 1], got {depth!r}")
    pockets = np.asarray(table.pockets, dtype=np.float64)
    if pockets.ndim != 2 or pockets.shape[1] < 3:
        raise ValueError(f"table.pockets must be (P, 3), got shape {pockets.shape}")
    jaws = np.asarray(getattr(table, "jaws", np.zeros((0, 3))), dtype=np.float64).reshape(-1, 3)
    P = pockets.shape[0]
    centers = pockets[:, :2].copy()
    radii = pockets[:, 2].copy()
    jaw_centers = np.repeat(centers[:, None, :], 2, axis=1)
    jaw_radii = np.zeros((P, 2))
    if jaws.shape[0] >= 2 * P:
        d = np.linalg.norm(jaws[None, :, :2] - centers[:, None, :], axis=2)  # (P, C)
        idx = np.argsort(d, axis=1)[:, :2]
        jaw_centers = jaws[idx, :2]
        jaw_radii = jaws[idx, 2]
    mouth = jaw_centers.mean(axis=1)
    aim_points = mouth + depth * (centers - mouth)
    for arr in (centers, radii, jaw_centers, jaw_radii, mouth, aim_points):
        arr.setflags(write=False)
    return PocketGeometry(centers, radii, jaw_centers, jaw_radii, mouth, aim_points)


def _unit(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.where(n > 0, n, 1.0), n[..., 0]


def ghost_ball(obj: np.ndarray, target: np.ndarray, R: float = BALL_RADIUS) -> np.ndarray:
    """Ghost-ball centre(s) ``O - 2R * unit(T - O)``; broadcasts over leading axes."""
    u, _ = _unit(np.asarray(target, float) - np.asarray(obj, float))
    return np.asarray(obj, float) - 2.0 * R * u


@dataclass(frozen=True)
class Aim:
    """Result of `aim` (arrays broadcast to the inputs' leading shape).

    phi: cue direction in degrees [0, 360) CCW from +x; cut: signed cut angle in degrees
    (positive = object ball leaves to the left of the cue ball's path); ghost: (..., 2) ghost
    ball centres; d_cue: cue-ball travel to the ghost ball (m); d_obj: object-ball travel to the
    target (m); feasible: |cut| < 90 deg and the cue ball is not already past the ghost ball.
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
    u_obj, d_obj = _unit(target - obj)
    ghost = obj - 2.0 * R * u_obj
    u_cue, d_cue = _unit(ghost - cue)
    phi = np.degrees(np.arctan2(u_cue[..., 1], u_cue[..., 0])) % 360.0
    cross = u_cue[..., 0] * u_obj[..., 1] - u_cue[..., 1] * u_obj[..., 0]
    dot = np.sum(u_cue * u_obj, axis=-1)
    cut = np.degrees(np.arctan2(cross, dot))
    # the cue ball must reach the ghost ball before touching the object ball
    feasible = (np.abs(cut) < 90.0) & (d_cue > 1e-9)
    return Aim(phi, cut, ghost, d_cue, d_obj, feasible)


def segment_point_distance(p0: np.ndarray, p1: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Distance from points ``q`` (..., M, 2) to segments ``p0 -> p1`` (..., 2) -> (..., M)."""
    p0 = np.asarray(p0, float)[..., None, :]
    p1 = np.asarray(p1, float)[..., None, :]
    q = np.asarray(q, float)
    d = p1 - p0
    L2 = np.sum(d * d, axis=-1)
    t = np.clip(np.sum((q - p0) * d, axis=-1) / np.where(L2 > 0, L2, 1.0), 0.0, 1.0)
    closest = p0 + t[..., None] * d
    return np.linalg.norm(q - closest, axis=-1)


def path_clearance(
    p0: np.ndarray,
    p1: np.ndarray,
    balls: np.ndarray,
    ignore: np.ndarray | None = None,
    R: float = BALL_RADIUS,
) -> np.ndarray:
    """Smallest gap (m) between a ball rolling its centre from ``p0`` to ``p1`` and the balls at
    ``balls`` (M, 2): ``min_k dist(ball_k, segment) - 2R``; ``>= 0`` means clear. ``ignore``
    (..., M) bool masks balls that do not count (the moving balls themselves, balls off the
    table). Broadcasts ``p0``/``p1`` over leading axes; returns ``inf`` when nothing counts."""
    dist = segment_point_distance(p0, p1, np.asarray(balls, float)) - 2.0 * R
    if ignore is not None:
        dist = np.where(ignore, np.inf, dist)
    if dist.shape[-1] == 0:
        return np.full(dist.shape[:-1], np.inf)
    return dist.min(axis=-1)


def jaw_margin(
    obj: np.ndarray, geom: PocketGeometry, R: float = BALL_RADIUS
) -> np.ndarray:
    """Clearance (m) of the straight line from each ``obj`` (..., 2) to each pocket's aim point
    past that pocket's two jaws: ``min_j dist(jaw_j, segment) - R - r_j`` -> (..., 6)."""
    obj = np.asarray(obj, float)
    p0 = np.broadcast_to(obj[..., None, :], obj.shape[:-1] + (geom.aim_points.shape[0], 2))
    p1 = np.broadcast_to(geom.aim_points, p0.shape)
    # q = jaw centres (P, 2, 2) broadcasts against the pocket axis of p0: -> (..., P, 2)
    d = segment_point_distance(p0, p1, geom.jaw_centers)
    return (d - R - geom.jaw_radii).min(axis=-1)


@dataclass(frozen=True)
class PotCandidates:
    """All (target ball, pocket) ghost-ball pots from one cue-ball position.

    Every array has shape (T, P) for T target balls and P pockets. ``score`` is a difficulty-
    based preference in (0, 1] (higher is easier; 0 when not feasible or not clear) following
    the usual heuristic ``cos(cut) / (1 + d_cue) / (1 + d_obj)`` times a jaw-window factor.
    """

    targets: np.ndarray  # (T,) ball indices
    phi: np.ndarray
    cut: np.ndarray
    d_cue: np.ndarray
    d_obj: np.ndarray
    cue_clear: np.ndarray  # gap along the cue ball's path (m)
    obj_clear: np.ndarray  # gap along the object ball's path (m)
    jaw: np.ndarray  # jaw margin (m)
    feasible: np.ndarray  # bool: geometrically possible and both paths clear
    score: np.ndarray

    def best(self) -> tuple[int, int] | None:
        """(target ball, pocket index) of the highest-scoring feasible pot, or None."""
        if not self.feasible.any():
            return None
        k = int(np.argmax(np.where(self.feasible, self.score, -1.0)))
        t, p = divmod(k, self.score.shape[1])
        return int(self.targets[t]), p


def pot_candidates(
    positions: np.ndarray,
    on_table: np.ndarray,
    targets,
    geom: PocketGeometry,
    cue_index: int = 0,
    R: float = BALL_RADIUS,
) -> PotCandidates:
    """Evaluate every ``targets`` x pocket ghost-ball pot for the ball layout ``positions``
    (N, 2) with ``on_table`` (N,) bool; the cue ball is row ``cue_index``."""
    pos = np.asarray(positions, float)[:, :2]
    on = np.asarray(on_table, bool)
    targets = np.asarray(list(targets), dtype=np.int64)
    N = pos.shape[0]
    P = geom.aim_points.shape[0]
    T = targets.shape[0]
    cue = pos[cue_index]
    obj = pos[targets][:, None, :]  # (T, 1, 2)
    tgt = geom.aim_points[None, :, :]  # (1, P, 2)
    a = aim(cue, obj, tgt, R)
    # obstacles: every other ball on the table
    ign = np.broadcast_to(~on, (T, P, N)).copy()
    ign[:, :, cue_index] = True
    ign[np.arange(T), :, targets] = True
    cue_clear = path_clearance(np.broadcast_to(cue, a.ghost.shape), a.ghost, pos, ign, R)
    obj_b = np.broadcast_to(obj, a.ghost.shape)
    obj_clear = path_clearance(obj_b, np.broadcast_to(tgt, a.ghost.shape), pos, ign, R)
    jaw = jaw_margin(pos[targets], geom, R) if T else np.zeros((0, P))
    feasible = a.feasible & (cue_clear >= 0) & (obj_clear >= 0) & (jaw >= 0)
    cosc = np.cos(np.radians(np.clip(np.abs(a.cut), 0, 90)))
    window = np.clip(jaw / R, 0.0, 1.0) * 0.5 + 0.5
    score = np.where(feasible, cosc / (1.0 + a.d_cue) / (1.0 + a.d_obj) * window, 0.0)
    return PotCandidates(
        targets, a.phi, a.cut, a.d_cue, a.d_obj, cue_clear, obj_clear, jaw, feasible, score
    )


def cue_speed_for_distance(
    distance: np.ndarray, cut: np.ndarray | float = 0.0, u_r: float = 0.01, g: float = 9.81,
    M: float = 0.567, m: float = 0.170097, margin: float = 2.0,
) -> np.ndarray:
    """Rough cue-stick speed V0 (m/s) that sends the object ball ``distance`` metres after a cut
    of ``cut`` degrees: rolling deceleration ``u_r g`` gives ``v = sqrt(2 u_r g d)``; an
    elastic cut passes ``cos(cut)`` of the speed; a centre strike gives the cue ball
    ``2M/(M+m) V0`` (pooltool's instantaneous cue impulse) of which 5/7 survives the slide.
    ``margin`` multiplies the result; callers should add the cue-ball travel themselves."""
    d = np.asarray(distance, float)
    v_obj = np.sqrt(2.0 * u_r * g * np.maximum(d, 0.0))
    c = np.cos(np.radians(np.clip(np.abs(np.asarray(cut, float)), 0.0, 85.0)))
    v_cue = v_obj / c
    return margin * v_cue / (5.0 / 7.0) / (2.0 * M / (M + m))
