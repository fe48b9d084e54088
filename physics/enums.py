"""Enumerations of the physics contract (see ``physics/CONTRACT.md``).

The integer values of :class:`Motion` equal pooltool's motion-state labels so shot records
can be compared without translation.
"""

from __future__ import annotations

from enum import Enum, IntEnum


class Motion(IntEnum):
    """Motion state of one ball (Kiefl 2020, "pooltool-theory", sections 3-4)."""

    STATIONARY = 0
    SPINNING = 1
    SLIDING = 2
    ROLLING = 3
    POCKETED = 4
    AIRBORNE = 5
    OFF_TABLE = 6


class EventKind(IntEnum):
    """Kind of an event in the event log; ``i``/``j`` meaning is given per member."""

    STRIKE = 0  # i = cue ball
    BALL_BALL = 1  # i, j = balls
    BALL_CUSHION = 2  # i = ball, j = linear segment index into Table.segments
    BALL_JAW = 3  # i = ball, j = jaw index into Table.jaws
    POCKET = 4  # i = ball, j = pocket index (Table.POCKET_NAMES order)
    SLIDING_ROLLING = 5
    ROLLING_SPINNING = 6
    ROLLING_STATIONARY = 7
    SPINNING_STATIONARY = 8
    SLIDING_STATIONARY = 9
    SLIDING_SPINNING = 10
    LIFTOFF = 11  # i = ball, j = -1: the ball leaves the bed (state -> AIRBORNE)
    BALL_TABLE = 12  # i = ball, j = -1: an airborne ball lands on the bed and bounces or settles
    LEAVE_TABLE = 13  # i = ball, j = cushion segment cleared or -1: state -> OFF_TABLE

    @property
    def is_transition(self) -> bool:
        """A motion-state transition of one ball (SLIDING_ROLLING .. SLIDING_SPINNING)."""
        return EventKind.SLIDING_ROLLING <= self <= EventKind.SLIDING_SPINNING


class BallBallModel(str, Enum):
    """Ball-ball collision models (names as in pooltool 0.6.0)."""

    FRICTIONLESS_ELASTIC = "frictionless_elastic"
    FRICTIONAL_INELASTIC = "frictional_inelastic"

    @property
    def code(self) -> int:
        return _BB_CODES[self]


class CushionModel(str, Enum):
    """Ball-cushion collision models, used for straight segments and jaws alike."""

    HAN_2005 = "han_2005"
    MATHAVAN_2010 = "mathavan_2010"

    @property
    def code(self) -> int:
        return _CUSHION_CODES[self]


class Status(IntEnum):
    """Outcome status of one simulated table."""

    OK = 0
    EVENT_LOG_OVERFLOW = 1
    MAX_ITER = 2


_BB_CODES = {BallBallModel.FRICTIONLESS_ELASTIC: 0, BallBallModel.FRICTIONAL_INELASTIC: 1}
_CUSHION_CODES = {CushionModel.HAN_2005: 0, CushionModel.MATHAVAN_2010: 1}
