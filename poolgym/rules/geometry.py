"""Racking and spotting geometry and the kitchen; the table and the ball size.

Table frame (DESIGN 3): x across the width [0, w], y along the length [0, l] between
cushion noses; head rail y = 0, head string y = l/4, foot spot (w/2, 3l/4), long string
x = w/2. The table is ``physics.Table.wpa(name)``; while the physics package is not
importable a :class:`RulesTable` with the same public attributes (w, l, pockets,
head_string_y, foot_spot, center_spot, segments) is used instead.

Contents
--------
* :func:`get_table`, :func:`ball_radius` -- cached table and ball size.
* :func:`triangle_slots`, :func:`diamond_slots` -- rack positions (G-3.2, T-1.16.5,
  9B-5.2, 8B-4.3, SP-6.4), apex on the foot spot, rows toward the foot rail.
* :func:`spot_balls` -- G-3.32 spotting on the long string (C-07 option).
* :func:`in_kitchen` -- G-3.16.

Also importable from here (they live in the modules named for them): the rails and the
frozen-to-a-rail predicate (:mod:`.rails`: :class:`Rail`, :func:`frozen_to_rails`, ...),
cue-ball placement legality (:mod:`.placement`: :func:`placement_error`, :func:`on_bed`) and
the separation of rounding overlaps (:mod:`.separation`: :func:`separate_overlaps`).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from .core import SpotFrontOrder
from .placement import on_bed, placement_error
from .rails import Rail, cushion_pockets, frozen_to_rails, jaw_rails, segment_for_rail, segment_rails
from .separation import separate_overlaps

__all__ = [
    "RulesTable", "get_table", "ball_radius", "Rail", "segment_rails", "jaw_rails",
    "segment_for_rail", "cushion_pockets", "triangle_slots", "diamond_slots", "spot_balls", "in_kitchen",
    "placement_error", "on_bed", "frozen_to_rails", "separate_overlaps", "DEFAULT_R",
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


_RACK_TRIANGLES: dict = {}


def rack_triangle(table, R: float, gap: float = 0.0) -> np.ndarray:
    """:func:`triangle_slots` of ``table`` as a read-only array, memoised per (table, R, gap)
    while the same table object is passed (the racks and re-racks of every game)."""
    key = (id(table), float(R), float(gap))
    got = _RACK_TRIANGLES.get(key)
    if got is None or got[0] is not table:
        slots = triangle_slots(table, R, gap)
        slots.setflags(write=False)
        if len(_RACK_TRIANGLES) > 64:
            _RACK_TRIANGLES.clear()
        got = _RACK_TRIANGLES[key] = (table, slots)
    return got[1]


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
    # the balls as Python floats (the same IEEE operations as on the array's float64 scalars,
    # without their per-element cost), kept in step with P and onm
    xs, ys, onl = P[:, 0].tolist(), P[:, 1].tolist(), onm.tolist()

    def blocked(b_excl: int):
        iv = []
        for k in range(len(onl)):
            if not onl[k] or k == b_excl:
                continue
            dx = xs[k] - x0
            rad = 2.0 * R + (cue_gap if k == cue_ball else 0.0)
            if abs(dx) >= rad:
                continue
            h = math.sqrt(rad * rad - dx * dx)
            iv.append((ys[k] - h, ys[k] + h))
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
            xs[b], ys[b], onl[b] = x0, float(P[b, 1]), True
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
            xs[b], ys[b], onl[b] = x0, float(P[b, 1]), True
    return P


# ----------------------------------------------------------------------------- kitchen
def in_kitchen(y: float | np.ndarray, table) -> bool | np.ndarray:
    """G-3.16 / GB-14: a point (ball base = centre projection) is in the kitchen iff it
    is strictly behind the head string (y < l/4); the head string itself is not part of
    the kitchen."""
    return np.asarray(y) < float(table.head_string_y)
