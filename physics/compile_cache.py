"""Whether the physics kernels still need compiling, and compiling them up front.

The kernels are numba functions cached on disk (``cache=True``: next to the sources, or under
``NUMBA_CACHE_DIR``). The first run after installing (or after editing ``physics/``) compiles
them, which takes tens of seconds; later runs load them in about a second. Front ends (``poolgym
demo``) use :func:`is_cold` to say so before the pause instead of appearing to hang.
"""

from __future__ import annotations

import math

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


def _two_balls():
    """A 9 ft table and one table of two balls at rest: rvw (1, 2, 3, 3), s (1, 2)."""
    from physics.params import BallParams
    from physics.table import Table

    R = BallParams().R
    rvw = np.zeros((1, 2, 3, 3))
    rvw[0, 0, 0] = [0.635, 0.5, R]
    rvw[0, 1, 0] = [0.635, 1.5, R]
    return Table.wpa("9ft"), rvw, np.zeros((1, 2), np.int8)


def warm_up(ball_ball: BallBallModel = BallBallModel.FRICTIONAL_INELASTIC,
            cushion: CushionModel = CushionModel.HAN_2005) -> None:
    """Compile (or load) the kernels of a `physics.simulate_batch` call with these models and
    no ball in the air: first the table loop (`physics.kernel.serial_kernel` with
    ``air3d=False``, reached through the same path with the same argument types, on a table
    where nothing moves), then the input check and cue strike
    (``physics.simulate._check_and_strike``), whose input check a compiling child may have
    cached meanwhile (:func:`compile_input_check`; `poolgym.envs.prewarm`)."""
    from physics.params import BallParams
    from physics.simulate import _model_code, _run, simulate_batch

    table, rvw, s = _two_balls()
    bb = _model_code(ball_ball, BallBallModel, "ball_ball")
    cu = _model_code(cushion, CushionModel, "cushion")
    _run(table, rvw.copy(), s.copy(), np.zeros((1, 5)), np.zeros(1, np.int64), BallParams().kernel_array, bb, cu,
         10, False, math.inf, False)
    rvw[0, 1] = rvw[0, 0]  # two balls on one spot: the input check refuses it, nothing is simulated
    try:
        simulate_batch(table, rvw, np.zeros((1, 5)), np.zeros(1, np.int64), s=s, ball_ball=ball_ball,
                       cushion=cushion)
    except ValueError:
        pass


def compile_input_check() -> None:
    """Compile (or load) the input check of `physics.simulate_batch`
    (``physics.simulate._check_inputs``, called as `_check_and_strike` calls it): the part of
    :func:`warm_up` that a compiling child takes over."""
    from physics.params import BallParams, CueParams
    from physics.simulate import _check_args, _check_inputs

    table, rvw, s = _two_balls()
    _check_inputs(*_check_args(table, rvw, s, np.zeros((1, 5)), np.zeros(1, np.int64), BallParams(), CueParams()))


def compile_loop_parts() -> None:
    """Compile (or load) two callees of the table loop that it reaches late in its own
    compilation (``physics.kernel._kiss_line`` and ``_kiss_circle``, with the argument types
    the loop calls them with: a ball's (3, 3) state row and floats), so that a compiling child
    takes them over while the table loop compiles (`poolgym.envs.prewarm`). Compiled
    without running; a signature that no longer matches the loop's call costs only this time."""
    from numba import typeof, types

    from physics import kernel

    row = typeof(np.zeros((3, 3)))
    f = types.float64
    kernel._kiss_line.compile((row, f, f, f, f, f))
    kernel._kiss_circle.compile((row, f, f, f))
