"""Racking and spotting geometry, the kitchen, cue-ball placement, rails.

Table frame (DESIGN 3): x across the width [0, w], y along the length [0, l] between
cushion noses; head rail y = 0, head string y = l/4, foot spot (w/2, 3l/4), long string
x = w/2. The table is ``physics.Table.wpa(name)``; while the physics package is not
importable a :class:`RulesTable` with the same public attributes (w, l, pockets,
head_string_y, foot_spot, center_spot, segments) is used instead.

Contents
--------
* :func:`get_table`, :func:`ball_radius` -- cached table and ball size.
* :class:`Rail`, :func:`segment_rails`, :func:`jaw_rails`, :func:`segment_for_rail` --
  which rail (head, foot, left, right) each cushion segment / jaw belongs to.
* :func:`triangle_slots`, :func:`diamond_slots` -- rack positions (G-3.2, T-1.16.5,
  9B-5.2, 8B-4.3, SP-6.4), apex on the foot spot, rows toward the foot rail.
* :func:`spot_balls` -- G-3.32 spotting on the long string (C-07 option).
* :func:`in_kitchen`, :func:`placement_error` -- G-3.10, G-3.16, G-3.22, 9B-5.10, R-2.21.
* :func:`frozen_to_rails` -- G-3.38 frozen-to-cushion test (distance <= eps, C-08).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import IntEnum
from typing import Iterable, Optional

import numpy as np

from .core import SpotFrontOrder

__all__ = [
    "RulesTable", "get_table", "ball_radius", "Rail", "segment_rails", "jaw_rails",
    "segment_for_rail", "cushion_pockets", "triangle_slots", "diamond_slots", "spot_balls", "in_kitchen",
    "placement_error", "placement_error_reference", "on_bed", "frozen_to_rails", "DEFAULT_R",
]

DEFAULT_R = 0.028575  # WPA ball radius (DESIGN 3), physics.BallParams().R

_WPA_SIZES = {"9ft": (1.27, 2.54), "8ft": (1.1684, 2.3368), "7ft": (0.9906, 1.9812)}


@dataclass(frozen=True, eq=False)
class RulesTable:
    """Minimal stand-in for ``physics.Table`` (same attribute names) used only while the
    physics package is not importable. Six straight cushions (one per rail section between
    pockets), no jaws."""

    w: float
    l: float
    pockets: np.ndarray
    segments: np.ndarray
    jaws: np.ndarray
    POCKET_NAMES: tuple = ("lb", "lc", "lt", "rb", "rc", "rt")

    @property
    def head_string_y(self) -> float:
        return self.l / 4

    @property
    def foot_spot(self) -> tuple:
        return (self.w / 2, 3 * self.l / 4)

    @property
    def center_spot(self) -> tuple:
        return (self.w / 2, self.l / 2)

    @property
    def head_spot(self) -> tuple:
        return (self.w / 2, self.l / 4)

    @classmethod
    def wpa(cls, name: str) -> "RulesTable":
        if name not in _WPA_SIZES:
            raise ValueError(f"table must be one of {sorted(_WPA_SIZES)}, got {name!r}")
        w, l = _WPA_SIZES[name]
        r = 0.06
        pockets = np.array([[0, 0, r], [0, l / 2, r], [0, l, r], [w, 0, r], [w, l / 2, r], [w, l, r]], float)
        m = 0.08
        segments = np.array([
            [[m, 0], [w - m, 0]],            # head
            [[m, l], [w - m, l]],            # foot
            [[0, m], [0, l / 2 - m]],        # left lower
            [[0, l / 2 + m], [0, l - m]],    # left upper
            [[w, m], [w, l / 2 - m]],        # right lower
            [[w, l / 2 + m], [w, l - m]],    # right upper
        ], float)
        return cls(w=w, l=l, pockets=pockets, segments=segments, jaws=np.zeros((0, 3)))


@functools.lru_cache(maxsize=8)
def get_table(name: str = "9ft"):
    """``physics.Table.wpa(name)`` (cached); a :class:`RulesTable` if physics is absent."""
    try:
        import physics  # noqa: WPS433 (import inside: physics may be absent)
        return physics.Table.wpa(name)
    except (ImportError, AttributeError):
        return RulesTable.wpa(name)


@functools.lru_cache(maxsize=1)
def ball_radius() -> float:
    """``physics.BallParams().R`` (0.028575 m)."""
    try:
        import physics
        return float(physics.BallParams().R)
    except (ImportError, AttributeError):
        return DEFAULT_R


# ----------------------------------------------------------------------------- rails
class Rail(IntEnum):
    """The four rails. LEFT is x = 0, RIGHT is x = w."""

    HEAD = 0
    FOOT = 1
    LEFT = 2
    RIGHT = 3


def _nearest_rail(x: np.ndarray, y: np.ndarray, w: float, l: float) -> np.ndarray:
    d = np.stack([np.abs(y), np.abs(l - y), np.abs(x), np.abs(w - x)], axis=-1)
    return np.argmin(d, axis=-1).astype(np.int8)


_RAIL_CACHE: dict = {}


def _rails_cached(table_id: int, table) -> tuple:
    hit = _RAIL_CACHE.get(table_id)
    if hit is not None and hit[0] is table:
        return hit[1], hit[2]
    seg = np.asarray(table.segments, dtype=np.float64).reshape(-1, 2, 2)
    mid = seg.mean(axis=1)
    srails = _nearest_rail(mid[:, 0], mid[:, 1], float(table.w), float(table.l))
    jaws = np.asarray(getattr(table, "jaws", np.zeros((0, 3))), dtype=np.float64).reshape(-1, 3)
    if len(jaws):
        # A jaw is the rounded tip of a cushion: attribute it to the rail whose segment
        # end point is nearest its centre.
        ends = seg.reshape(-1, 2)
        end_rail = np.repeat(srails, 2)
        d = np.linalg.norm(jaws[:, None, :2] - ends[None, :, :], axis=-1)
        jrails = end_rail[np.argmin(d, axis=1)].astype(np.int8)
    else:
        jrails = np.zeros(0, np.int8)
    srails.setflags(write=False)
    jrails.setflags(write=False)
    _RAIL_CACHE[table_id] = (table, srails, jrails)
    return srails, jrails


def segment_rails(table) -> np.ndarray:
    """(S,) int8 :class:`Rail` of every linear cushion segment of ``table``."""
    return _rails_cached(id(table), table)[0]


def jaw_rails(table) -> np.ndarray:
    """(C,) int8 :class:`Rail` of every circular jaw segment of ``table``."""
    return _rails_cached(id(table), table)[1]


_POCKET_LINK_CACHE: dict = {}


def cushion_pockets(table) -> np.ndarray:
    """(S + J, P) read-only bool: cushion ``c`` (linear segment ``c < S``, jaw ``c - S``
    otherwise, the numbering of :func:`poolgym.rules.queries.cushion_ids`) is connected
    with pocket ``p`` (HO-7 "a cushion connected with the pocket").

    Each end of a linear segment belongs to the pocket nearest it: a rail section between
    two pockets is connected with both (a corner pocket's short- and long-rail sections, a
    side pocket's two long-rail sections); a jaw facing segment or a rounded jaw tip (its
    centre) with its own pocket only."""
    hit = _POCKET_LINK_CACHE.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    pk = np.asarray(table.pockets, dtype=np.float64).reshape(-1, 3)[:, :2]
    seg = np.asarray(table.segments, dtype=np.float64).reshape(-1, 2, 2)
    jaws = np.asarray(getattr(table, "jaws", np.zeros((0, 3))), dtype=np.float64).reshape(-1, 3)

    def nearest(pts):
        return np.argmin(np.linalg.norm(pts[:, None, :] - pk[None, :, :], axis=-1), axis=1)

    out = np.zeros((len(seg) + len(jaws), len(pk)), bool)
    for end in (0, 1):
        out[np.arange(len(seg)), nearest(seg[:, end])] = True
    if len(jaws):
        out[len(seg) + np.arange(len(jaws)), nearest(jaws[:, :2])] = True
    out.setflags(write=False)
    if len(_POCKET_LINK_CACHE) > 64:
        _POCKET_LINK_CACHE.clear()
    _POCKET_LINK_CACHE[id(table)] = (table, out)
    return out


def segment_for_rail(table, rail: Rail, near_y: Optional[float] = None) -> int:
    """Index of a linear cushion segment on ``rail`` (the longest one, or the one whose
    midpoint is nearest ``near_y``). For hand-built shot records in tests."""
    seg = np.asarray(table.segments, dtype=np.float64).reshape(-1, 2, 2)
    idx = np.flatnonzero(segment_rails(table) == int(rail))
    if near_y is not None:
        mid_y = seg[idx].mean(axis=1)[:, 1]
        return int(idx[np.argmin(np.abs(mid_y - near_y))])
    length = np.linalg.norm(seg[idx, 1] - seg[idx, 0], axis=1)
    return int(idx[np.argmax(length)])


# ----------------------------------------------------------------------------- racks
def triangle_slots(table, R: float, gap: float = 0.0) -> np.ndarray:
    """(15, 2) centres of a tight 15-ball triangle, apex on the foot spot (G-3.2).

    Slot order: row by row from the apex toward the foot rail (rows of 1, 2, 3, 4, 5),
    within a row from x small to x large. Row r (0-based) is at
    y = foot_y + r * sqrt(3) * (R + gap/2), neighbouring centres 2R + gap apart.
    Slot 4 is the centre of the rack (middle of row 3: 8B-4.3, the 8-ball);
    slots 10 and 14 are the back corners; slot 0 the apex.
    """
    return _rack(table, R, gap, (1, 2, 3, 4, 5))


def diamond_slots(table, R: float, gap: float = 0.0) -> np.ndarray:
    """(9, 2) centres of a tight nine-ball diamond (9B-5.2), rows 1-2-3-2-1.

    Slot 0 the top (on the foot spot, the 1-ball); slot 4 the centre (the 9-ball);
    slot 8 the back ball. Same row spacing as :func:`triangle_slots`.
    """
    return _rack(table, R, gap, (1, 2, 3, 2, 1))


def _rack(table, R, gap, rows):
    fx, fy = (float(v) for v in table.foot_spot)
    d = 2.0 * R + gap
    dy = d * np.sqrt(3.0) / 2.0
    out = []
    for r, nrow in enumerate(rows):
        for k in range(nrow):
            out.append((fx + (k - (nrow - 1) / 2.0) * d, fy + r * dy))
    return np.array(out, dtype=np.float64)


# ----------------------------------------------------------------------------- spotting
def spot_balls(
    balls: Iterable[int],
    pos: np.ndarray,
    on: np.ndarray,
    table,
    R: float,
    *,
    cue_gap: float = 1e-3,
    front_order: SpotFrontOrder = SpotFrontOrder.LOWEST_NEAREST_FOOT_SPOT,
    cue_ball: int = 0,
) -> np.ndarray:
    """Spot ``balls`` per G-3.32 and return the new (N, 2) centres (input not modified).

    G-3.32.1: a single ball on the foot spot. G-3.32.2: several balls in ascending
    order from the foot spot toward the foot rail. G-3.32.3: interfering balls are not
    moved; the spotted ball is placed on the long string as close as possible to the foot
    spot, frozen to interfering object balls but ``cue_gap`` away from the cue ball.
    G-3.32.4: with no room behind the foot spot, in front of it (toward the centre spot),
    as near as possible to the foot spot, lowest-numbered nearest the foot spot (C-07
    ``front_order`` flips the order, GB-26).

    The search is exact on the long string: the blocked set of each ball is a union of
    intervals of y (where the circle of radius 2R around an on-table ball meets x = w/2);
    the spot is the admissible y nearest the foot spot on the chosen side.
    """
    P = np.array(pos, dtype=np.float64).reshape(-1, 2)
    onm = np.array(on, dtype=bool).copy()
    balls = sorted(int(b) for b in balls)
    if not balls:
        return P
    x0 = float(table.w) / 2.0
    fy = float(table.foot_spot[1])
    y_hi = float(table.l) - R          # frozen to the foot rail at most
    y_lo = float(table.l) / 2.0        # centre spot: the extension ends there

    def blocked(b_excl: int):
        iv = []
        for k in np.flatnonzero(onm):
            if k == b_excl:
                continue
            dx = P[k, 0] - x0
            rad = 2.0 * R + (cue_gap if k == cue_ball else 0.0)
            if abs(dx) >= rad:
                continue
            h = np.sqrt(rad * rad - dx * dx)
            iv.append((P[k, 1] - h, P[k, 1] + h))
        iv.sort()
        return iv

    def first_free(iv, start, direction, lo, hi):
        """Smallest |y - start| with y in [lo, hi] on side ``direction`` outside all
        open intervals of ``iv``."""
        y = start
        for _ in range(len(iv) + 2):
            moved = False
            for a, b in iv:
                if a + 1e-12 < y < b - 1e-12:
                    y = b if direction > 0 else a
                    moved = True
            if not moved:
                break
        if lo - 1e-12 <= y <= hi + 1e-12:
            return y
        return None

    # Decide behind / in front for the whole group in G-3.32 order.
    behind_pending = []
    for b in balls:
        iv = blocked(b)
        y = first_free(iv, fy, +1, fy, y_hi)
        if y is not None:
            P[b] = (x0, y)
            onm[b] = True
        else:
            behind_pending.append(b)
    if behind_pending:
        order = behind_pending if front_order is SpotFrontOrder.LOWEST_NEAREST_FOOT_SPOT else behind_pending[::-1]
        for b in order:
            iv = blocked(b)
            y = first_free(iv, fy, -1, y_lo, fy)
            if y is None:  # pathological: table full along the string -> nearest free anywhere
                y = first_free(iv, y_lo, -1, R, y_lo)
                if y is None:
                    raise ValueError("no room on the long string to spot ball %d" % b)
            P[b] = (x0, y)
            onm[b] = True
    return P


# ----------------------------------------------------------------------------- kitchen
def in_kitchen(y: float | np.ndarray, table) -> bool | np.ndarray:
    """G-3.16 / GB-14: a point (ball base = centre projection) is in the kitchen iff it
    is strictly behind the head string (y < l/4); the head string itself is not part of
    the kitchen."""
    return np.asarray(y) < float(table.head_string_y)


def placement_error(
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
    """Why placing the cue ball at (x, y) is illegal, or None if it is legal (rules and
    messages: :func:`placement_error_reference`). Runs the compiled
    :func:`poolgym.rules.fast.placement_code` (the referee's hot path; tested equal to the
    reference on random placements in tests/envs/test_rules_fast.py)."""
    from .fast import placement_error_fast

    return placement_error_fast(x, y, pos, on, table, R, kitchen=kitchen, may_touch=may_touch, cue_ball=cue_ball,
                                touch_eps=touch_eps)


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
    if not on_bed(x, y, table, R):
        return "not on the bed (touches a cushion, jaw or pocket opening)"
    return None


def on_bed(x: float, y: float, table, R: float, tol: float = 1e-9) -> bool:
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


def frozen_to_rails(pos: np.ndarray, on: np.ndarray, table, R: float, eps: float) -> np.ndarray:
    """(N,) uint8 bitmask of :class:`Rail` values each ball is frozen to (G-3.38, C-08):
    the centre is within R + eps of the cushion-nose line of that rail."""
    P = np.asarray(pos, dtype=np.float64).reshape(-1, 2)
    w, l = float(table.w), float(table.l)
    lim = R + eps
    m = np.zeros(P.shape[0], np.uint8)
    m |= (P[:, 1] <= lim).astype(np.uint8) << int(Rail.HEAD)
    m |= (P[:, 1] >= l - lim).astype(np.uint8) << int(Rail.FOOT)
    m |= (P[:, 0] <= lim).astype(np.uint8) << int(Rail.LEFT)
    m |= (P[:, 0] >= w - lim).astype(np.uint8) << int(Rail.RIGHT)
    m[~np.asarray(on, dtype=bool)] = 0
    return m


def separate_overlaps(pos: np.ndarray, on: np.ndarray, R: float, max_fix: float = 1e-4,
                      margin: float = 1e-9) -> np.ndarray:
    """Push apart on-table balls that overlap by at most ``max_fix`` (numerical residue of
    the physics' final positions) so that every pair is >= 2R + margin apart; returns the
    (possibly) corrected (N, 2) array. Larger overlaps are left alone (the physics' own
    guarantee is then broken and its validation will say so)."""
    P = np.array(pos, dtype=np.float64).reshape(-1, 2)
    idx = np.flatnonzero(np.asarray(on, dtype=bool))
    if idx.size < 2:
        return P
    Q = P[idx]
    D = Q[:, None, :] - Q[None, :, :]
    d2 = (D * D).sum(-1)
    d2.flat[:: idx.size + 1] = np.inf
    if d2.min() >= (2 * R + margin) ** 2:
        return P
    from ._kernels import separate_pairs  # compiled sweeps (numba)

    separate_pairs(P, idx.astype(np.int64), float(R), float(max_fix), float(margin), 8)
    return P
