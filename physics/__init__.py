"""poolgym physics: exact event-based pool simulator in numba, batched over tables.

Public API (see ``physics/CONTRACT.md``): :class:`Table`, :class:`PocketTableSpecs`,
:class:`BallParams`, :class:`CueParams`, :class:`Shot`, :func:`simulate`,
:func:`simulate_batch`, :func:`states_at`, :class:`SimResult`, :class:`BatchResult`, :class:`ExecutionNoise`
and the enums :class:`Motion`, :class:`EventKind`, :class:`BallBallModel`,
:class:`CushionModel`, :class:`Status`.
"""

from physics import cache_stamp as _cache_stamp

_cache_stamp.install()  # before any cached kernel is defined (physics.cache_stamp)

from physics.enums import BallBallModel, CushionModel, EventKind, Motion, Status  # noqa: E402
from physics.noise import ExecutionNoise  # noqa: E402
from physics.params import BallParams, CueParams  # noqa: E402
from physics.simulate import BatchResult, Shot, SimResult, simulate, simulate_batch, states_at  # noqa: E402
from physics.table import PocketTableSpecs, Table  # noqa: E402

__all__ = [
    "BallBallModel", "BallParams", "BatchResult", "CueParams", "CushionModel", "EventKind",
    "ExecutionNoise", "Motion", "PocketTableSpecs", "Shot", "SimResult", "Status", "Table",
    "simulate", "simulate_batch", "states_at",
]
