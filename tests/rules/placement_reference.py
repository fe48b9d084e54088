"""Test oracle: cue-ball placement legality in plain numpy, written from the rule text.

The referee's check is the compiled :func:`poolgym.rules.placement.placement_code`; the tests
compare it with this definition on random placements.
"""
from __future__ import annotations

from typing import Optional

import numpy as np


def placement_error_reference(
    x: float,
    y: float,
    pos: np.ndarray,
    on: np.ndarray,
    table,
    R: float,
    *,
    kitchen: bool,
    may_touch: bool,
    cue_ball: int = 0,
    touch_eps: float = 1e-9,
) -> Optional[str]:
    """Why placing the cue ball at (x, y) is illegal, or None if it is legal.

    * On the bed: R <= x <= w - R, R <= y <= l - R (cushion noses bound the bed).
    * G-3.22: no overlap with an object ball (centre distance >= 2R).
    * 9B-5.10 (``may_touch`` False): not frozen to an object ball (distance > 2R + eps).
    * G-3.10 / G-3.16 / R-2.21 (``kitchen``): the centre strictly behind the head string,
      and the whole ball at least half a ball diameter behind it is not required; we
      mask the head string itself and every point in front of it.
    """
    if not (np.isfinite(x) and np.isfinite(y)):
        return "x and y must be finite"
    w, l = float(table.w), float(table.l)
    if not (R <= x <= w - R and R <= y <= l - R):
        return f"({x:.4f}, {y:.4f}) is not on the bed (x in [{R:.4f}, {w - R:.4f}], y in [{R:.4f}, {l - R:.4f}])"
    if kitchen and not (y < float(table.head_string_y)):
        return f"y={y:.4f} is not behind the head string y={float(table.head_string_y):.4f} (G-3.16)"
    P = np.asarray(pos, dtype=np.float64).reshape(-1, 2)
    onm = np.asarray(on, dtype=bool).copy()
    onm[cue_ball] = False
    if onm.any():
        d = np.hypot(P[onm, 0] - x, P[onm, 1] - y)
        k = np.flatnonzero(onm)[int(np.argmin(d))]
        dmin = float(d.min())
        if dmin < 2 * R - touch_eps:
            return f"overlaps ball {k} (G-3.22)"
        if not may_touch and dmin <= 2 * R + touch_eps:
            return f"frozen to ball {k} (9B-5.10)"
    # Not over a pocket opening, not into a cushion segment or a jaw (the physics refuses
    # such layouts: the ball would not be resting on the bed).
    if not on_bed_reference(x, y, table, R):
        return "not on the bed (touches a cushion, jaw or pocket opening)"
    return None


def on_bed_reference(x: float, y: float, table, R: float, tol: float = 1e-9) -> bool:
    """The ball centred at (x, y) rests on the bed: at least R from every cushion segment
    and jaw-circle edge, outside every pocket circle."""
    pk = np.asarray(table.pockets, dtype=np.float64).reshape(-1, 3)
    if len(pk) and np.any(np.hypot(pk[:, 0] - x, pk[:, 1] - y) <= pk[:, 2]):
        return False
    seg = np.asarray(table.segments, dtype=np.float64).reshape(-1, 2, 2)
    if len(seg):
        a = seg[:, 0]
        d = seg[:, 1] - a
        u = np.clip(((x - a[:, 0]) * d[:, 0] + (y - a[:, 1]) * d[:, 1]) / np.einsum("ij,ij->i", d, d), 0.0, 1.0)
        dist = np.hypot(a[:, 0] + u * d[:, 0] - x, a[:, 1] + u * d[:, 1] - y)
        if np.any(dist < R - tol):
            return False
    jaws = np.asarray(getattr(table, "jaws", np.zeros((0, 3))), dtype=np.float64).reshape(-1, 3)
    if len(jaws) and np.any(np.hypot(jaws[:, 0] - x, jaws[:, 1] - y) < R + jaws[:, 2] - tol):
        return False
    return True
