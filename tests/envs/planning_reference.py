"""Test oracle: the planning pot table in plain numpy (`poolgym.planning.pot_table` is the
compiled kernel the players use; the tests compare the two)."""
from __future__ import annotations

import math

import numpy as np

from poolgym.planning import (APPROACH_LIMIT, ARRIVAL_SPEED, DEFAULT_E_B, DEFAULT_U_R, DEFAULT_U_S, G, V0_MAX,
                              V0_MIN, TableGeom, v0_for_cue_speed)


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


def pot_table_reference(geom: TableGeom, balls: np.ndarray, on_table: np.ndarray, cue_xy: np.ndarray, targets,
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
    aims, axes, half = geom.aims, geom.axes, geom.half_widths  # (6, 2), (6, 2), (6,)
    if nt == 0:
        z = np.zeros((nq, 0, 6))
        return dict(ok=z.astype(bool), p=z, phi=z, cut=z, d1=z, d2=z, V0=z, targets=tg)
    obj = balls[tg]  # (T, 2)
    to_p = aims[None, :, :] - obj[:, None, :]  # (T, 6, 2)
    d2 = np.linalg.norm(to_p, axis=-1)
    u_p = to_p / np.maximum(d2, 1e-12)[..., None]
    approach = np.sum(u_p * axes[None], axis=-1)  # (T, 6)
    limit = APPROACH_LIMIT
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


def _erf_np(x: np.ndarray) -> np.ndarray:
    """Vectorised erf (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7) for x >= 0."""
    x = np.asarray(x, float)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-x * x)
    return np.where(x >= 0, y, -y)
