"""Whether the physics kernels still need compiling, and compiling them up front.

The kernels are numba functions cached on disk (``cache=True``: next to the sources, or under
``NUMBA_CACHE_DIR``). The first run after installing (or after editing ``physics/``) compiles
them, which takes tens of seconds; later runs load them in about a second. Front ends (``poolgym
demo``) use :func:`is_cold` to say so before the pause instead of appearing to hang.
"""

from __future__ import annotations

import numpy as np

from physics.enums import BallBallModel, CushionModel


def is_cold(ball_ball: BallBallModel = BallBallModel.FRICTIONAL_INELASTIC,
            cushion: CushionModel = CushionModel.HAN_2005) -> bool:
    """True if numba's on-disk cache holds no compiled table loop for these models (so the next
    simulation compiles the kernels): the flat loop (`physics.kernel.serial_kernel` with
    ``air3d=False``), which a level shot takes. False when it is cached, or when this cannot be
    told (caching disabled, an unknown numba cache layout)."""
    from physics.kernel import serial_kernel

    disp = serial_kernel(BallBallModel(ball_ball).code, CushionModel(cushion).code, False)
    try:
        return not disp._cache._cache_file._load_index()
    except Exception:  # noqa: BLE001 - numba internals; never fail a front end over a hint
        return False


def warm_up(ball_ball: BallBallModel = BallBallModel.FRICTIONAL_INELASTIC,
            cushion: CushionModel = CushionModel.HAN_2005) -> None:
    """Compile (or load) the kernels of one `physics.simulate` call with these models: a
    level two-ball shot on a 9 ft table (the flat table loop)."""
    from physics.params import BallParams
    from physics.simulate import Shot, simulate
    from physics.table import Table

    R = BallParams().R
    rvw = np.zeros((2, 3, 3))
    rvw[0, 0] = [0.635, 0.5, R]
    rvw[1, 0] = [0.635, 1.5, R]
    simulate(Table.wpa("9ft"), rvw, Shot(V0=2.0, phi=90.0), ball_ball=ball_ball, cushion=cushion)
