"""The lag for the break: G-3.6 / GB-5 / GW-2 (C-05: the union of their conditions) and the
lag winner's choice, G-3.7 / GB-6.

Both players shoot at once ("they shoot simultaneously", G-3.6), each from behind the head
string on its own side of the long string (GW-2: "the referee places a ball on each side of
the table behind and near the head string"), so the two strokes are simulated on one table
(:func:`physics.lag.simulate_lag`): ball 0 is seat 0's, left of the long string, ball 1 seat
1's, right of it. A :class:`LagRecord` is that shot record plus the exact x extent of each
ball's path, and :func:`lag_ball` reads from it everything G-3.6 judges a lag ball by
(:class:`LagBall`): the cushions it touched in order, foot-rail and long-rail contacts,
whether it crossed into the opponent's half, whether it was pocketed or left the table,
where it rests and its distance to the head cushion. :func:`lag_winner` then says who won
or that the lag is replayed.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional, Sequence

import numpy as np

from . import queries as q
from .core import ShotAction
from .geometry import Rail
from .shot_record import Motion, ShotRecord, record_from_obj, record_to_obj

__all__ = ["LagFault", "LagBall", "LagRecord", "lag_start_position", "lag_ball", "lag_winner",
           "simulate_lag_record", "lag_action", "lag_record_to_obj", "lag_record_from_obj"]

_LONG = (int(Rail.LEFT), int(Rail.RIGHT))


class LagFault(Enum):
    """Why a lag is automatically lost (G-3.6 (a)-(g) = GB-5 (1)-(7); GW-2's extra: a foul)."""
    CROSSED = "G-3.6(a)"               # crossed into the opponent's half (the long string)
    NO_FOOT_RAIL = "G-3.6(b)"          # did not contact the foot rail
    POCKETED = "G-3.6(c)"              # dropped into a pocket
    OFF_TABLE = "G-3.6(d)"             # jumped off the table (G-3.28)
    LONG_RAIL = "G-3.6(e)"             # touched a long rail (a side-pocket jaw is part of it)
    HEAD_JAWS = "G-3.6(f)"             # rests in the corner-pocket jaws beyond the head-rail nose
    FOOT_RAIL_TWICE = "G-3.6(g)"       # contacted the foot rail more than once
    STROKE_FOUL = "GW-2"               # a non-object-ball foul on the stroke (G-3.26, G-3.27)


@dataclass(frozen=True)
class LagBall:
    """What G-3.6 judges one lag ball by.

    seat: whose ball (0: left of the long string, 1: right).
    rails: the cushions it touched, in time order (``Rail``; jaws count for their rail).
    crossed: its centre crossed the long string into the opponent's half at some time.
    pocketed / off_table: it dropped into a pocket / left the table (G-3.28).
    rest: (x, y) where it came to rest (meaningless when pocketed or off the table).
    distance: from the ball to the head cushion's nose (m), y - R at rest.
    stroke_fouls: fouls of the lag stroke itself (``general.stroke_fouls``).
    """
    seat: int
    rails: tuple
    crossed: bool
    pocketed: bool
    off_table: bool
    rest: tuple
    distance: float
    stroke_fouls: tuple = ()

    @property
    def foot_contacts(self) -> int:
        return sum(1 for r in self.rails if r is Rail.FOOT)

    @property
    def long_rail(self) -> bool:
        return any(int(r) in _LONG for r in self.rails)

    @property
    def faults(self) -> tuple:
        """Every automatic-loss condition it meets (C-05: G-3.6 (a)-(g) and GW-2), in order."""
        out = []
        if self.crossed:
            out.append(LagFault.CROSSED)
        if self.foot_contacts == 0:
            out.append(LagFault.NO_FOOT_RAIL)
        if self.pocketed:
            out.append(LagFault.POCKETED)
        if self.off_table:
            out.append(LagFault.OFF_TABLE)
        if self.long_rail:
            out.append(LagFault.LONG_RAIL)
        if not (self.pocketed or self.off_table) and self.distance < -1e-9 * (self.rest[1] - self.distance):
            out.append(LagFault.HEAD_JAWS)
        if self.foot_contacts > 1:
            out.append(LagFault.FOOT_RAIL_TWICE)
        if self.stroke_fouls:
            out.append(LagFault.STROKE_FOUL)
        return tuple(out)

    @property
    def result(self) -> float:
        """The distance to the head cushion, or -1.0 when the lag is lost (any fault)."""
        return -1.0 if self.faults else self.distance


@dataclass(frozen=True, eq=False)
class LagRecord:
    """One simultaneous lag: the shot record of both balls (rows 0 and 1 = seats 0 and 1)
    and the smallest / largest x of each ball centre along its path (``x_min``, ``x_max``,
    (2,); None: only the positions the record holds are known)."""
    rec: ShotRecord
    x_min: Optional[np.ndarray] = None
    x_max: Optional[np.ndarray] = None

    @classmethod
    def from_lag(cls, res) -> "LagRecord":
        """From a :class:`physics.lag.LagResult`."""
        return cls(ShotRecord.from_sim(res.sim), np.asarray(res.x_min), np.asarray(res.x_max))


def lag_record_to_obj(lr: LagRecord) -> dict:
    """JSON-able dict of a :class:`LagRecord` (goldens, replays); floats exact."""
    out = {"lag": record_to_obj(lr.rec)}
    if lr.x_min is not None:
        out["x_min"] = np.asarray(lr.x_min, np.float64).tolist()
        out["x_max"] = np.asarray(lr.x_max, np.float64).tolist()
    return out


def lag_record_from_obj(o: dict) -> LagRecord:
    """Inverse of :func:`lag_record_to_obj`."""
    lo, hi = o.get("x_min"), o.get("x_max")
    return LagRecord(record_from_obj(o["lag"]), None if lo is None else np.asarray(lo, np.float64),
                     None if hi is None else np.asarray(hi, np.float64))


def lag_start_position(seat: int, table, R: float) -> tuple:
    """Where the lag ball of ``seat`` stands (GW-2: the referee places one ball on each
    side of the table behind and near the head string; G-3.6: one player left of the head
    spot, the other right)."""
    x = float(table.w) * (0.25 if seat == 0 else 0.75)
    return (x, float(table.head_string_y) - R - 0.01)


def lag_ball(rec: ShotRecord, table, R: float, seat: int, ball: Optional[int] = None,
             x_range: Optional[tuple] = None, stroke_fouls: tuple = ()) -> LagBall:
    """The :class:`LagBall` of ``seat``'s ball (row ``ball``, default the record's cue ball)
    in ``rec``. Crossing the long string (G-3.6 (a)) is read from ``x_range`` (the exact x
    extent of its path) when given, and always from its start, rest and event positions."""
    b = rec.cue_ball if ball is None else int(ball)
    half = float(table.w) / 2
    xs = [float(rec.pos0[b, 0]), float(rec.pos1[b, 0])]
    if x_range is not None:
        xs += [float(x_range[0]), float(x_range[1])]
    if rec.ev_xy is not None:
        xs += [float(x) for x in rec.ev_xy[rec.ev_i == b, 0]]
    pocketed = bool(rec.pocket[b] >= 0 or rec.s1[b] == int(Motion.POCKETED))
    off = bool(rec.s1[b] == int(Motion.OFF_TABLE))
    if pocketed:
        xs = xs[:1] + xs[2:]  # a pocketed ball's stored position is the pocket's
    crossed = any(x > half for x in xs) if seat == 0 else any(x < half for x in xs)
    _, cb, cr = q.cushion_events(rec, table)
    rails = tuple(Rail(int(r)) for r in cr[cb == b])
    x1, y1 = float(rec.pos1[b, 0]), float(rec.pos1[b, 1])
    return LagBall(seat=seat, rails=rails, crossed=crossed, pocketed=pocketed, off_table=off, rest=(x1, y1),
                   distance=y1 - R, stroke_fouls=tuple(stroke_fouls))


def lag_winner(results: Sequence[float]) -> Optional[int]:
    """G-3.6: winner seat of two lag results (distance, or -1.0 for a lost lag), or None
    when the lag is replayed: both lost, or the balls equally near the head rail."""
    a, b = float(results[0]), float(results[1])
    if a < 0 and b < 0:
        return None
    if a < 0:
        return 1
    if b < 0:
        return 0
    if a == b:
        return None
    return 0 if a < b else 1


def simulate_lag_record(table, strokes, R: float, **physics_kwargs) -> LagRecord:
    """Both lag strokes (``strokes`` (2, 5): seat 0's, seat 1's) played at once from the
    G-3.6 start positions with :func:`physics.lag.simulate_lag` (``physics_kwargs``: models,
    ``noise`` and ``rng``, ...; the three-dimensional model unless ``airborne=False``: a lag
    ball may jump off the table, G-3.6 (d))."""
    from physics.lag import simulate_lag

    physics_kwargs.setdefault("airborne", True)

    xy = np.array([lag_start_position(0, table, R), lag_start_position(1, table, R)])
    return LagRecord.from_lag(simulate_lag(table, xy, np.asarray(strokes, np.float64), **physics_kwargs))


def lag_action(row) -> ShotAction:
    """The lag stroke ``row`` [V0 phi theta a b] as a :class:`ShotAction` (no declaration)."""
    V0, phi, theta, a, b = (float(v) for v in row)
    return ShotAction(V0=V0, phi=phi, theta=theta, a=a, b=b)
