"""Ball trajectories of a shot, sampled from the physics' own closed-form motion.

`physics.simulate_batch(..., t_final=t)` returns the exact state at time ``t`` (the event loop
stops there), so re-running one shot with K stop times samples every ball's path
exactly (one B = 1 call per sample time) — no second implementation of the equations of
motion.
"""

from __future__ import annotations

import numpy as np


def sample_shot(table, rvw: np.ndarray, s: np.ndarray, shot: np.ndarray, n_samples: int = 60,
                duration: float | None = None, **physics_kwargs):
    """Positions of every ball during a shot.

    Args:
        table: `physics.Table`.
        rvw, s: (N, 3, 3) / (N,) state before the shot (as passed to `physics.simulate`).
        shot: (5,) [V0, phi, theta, a, b] (noise already applied).
        n_samples: number of sample times, evenly spaced over ``[0, duration]``.
        duration: seconds; default the time of the shot's last event (all balls at rest).
        physics_kwargs: models/parameters as for `physics.simulate_batch`.

    Returns:
        (times (K,), positions (K, N, 2), on_table (K, N) bool).
    """
    import physics

    rvw = np.asarray(rvw, float)
    s = np.asarray(s, np.int8)
    shot = np.asarray(shot, float).reshape(5)
    if n_samples < 2:
        raise ValueError(f"n_samples must be >= 2, got {n_samples}")
    if duration is None:
        full = physics.simulate_batch(table, rvw[None], shot[None], np.zeros(1, np.int64), s=s[None],
                                      **physics_kwargs)
        n = int(full.n_events[0])
        duration = float(full.ev_t[0, n - 1]) if n else 0.0
    times = np.linspace(0.0, max(duration, 1e-6), n_samples)
    K = n_samples
    pos = np.empty((K, rvw.shape[0], 2))
    on = np.empty((K, rvw.shape[0]), bool)
    # `t_final` is one value per call, so each sample time is its own (B = 1) call
    for k, t in enumerate(times):
        r = physics.simulate_batch(table, rvw[None], shot[None], np.zeros(1, np.int64), s=s[None],
                                   t_final=float(t), **physics_kwargs)
        pos[k] = r.rvw[0, :, 0, :2]
        on[k] = (r.s[0] != 4) & (r.s[0] != 6)
    return times, pos, on


def polylines(pos: np.ndarray, on: np.ndarray, moved_only: bool = True) -> list:
    """Per-ball polylines (K_b, 2) from `sample_shot` output (balls that moved, by default)."""
    out = []
    for b in range(pos.shape[1]):
        sel = on[:, b]
        pts = pos[sel, b]
        if pts.shape[0] < 2:
            continue
        if moved_only and np.allclose(pts[0], pts[-1]) and np.ptp(pts, axis=0).max() < 1e-6:
            continue
        out.append(pts)
    return out
