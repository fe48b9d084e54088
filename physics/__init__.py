"""poolgym physics: exact event-based pool simulator in numba, batched over tables.

Public API (see ``physics/CONTRACT.md``): :class:`Table`, :class:`PocketTableSpecs`,
:class:`BallParams`, :class:`CueParams`, :class:`Shot`, :func:`simulate`,
:func:`simulate_batch`, :class:`SimResult`, :class:`BatchResult`, :class:`ExecutionNoise`
and the enums :class:`Motion`, :class:`EventKind`, :class:`BallBallModel`,
:class:`CushionModel`, :class:`Status`.
"""

from physics.enums import BallBallModel, CushionModel, EventKind, Motion, Status
from physics.noise import ExecutionNoise
from physics.params import BallParams, CueParams
from physics.simulate import BatchResult, Shot, SimResult, simulate, simulate_batch
from physics.table import PocketTableSpecs, Table

__all__ = [
    "BallBallModel", "BallParams", "BatchResult", "CueParams", "CushionModel", "EventKind",
    "ExecutionNoise", "Motion", "PocketTableSpecs", "Shot", "SimResult", "Status", "Table",
    "simulate", "simulate_batch",
]
