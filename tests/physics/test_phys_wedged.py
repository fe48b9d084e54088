"""A ball wedged between a ball and a cushion comes to rest on the bed.

The layout (seeded random 14.1 games, rack seed 100008, agent seed 8, shot 679): ball 14 in
the top-left corner-pocket mouth between ball 12, the cue ball and the jaw-facing cushion
segment 6. The ball-ball contact correction (``_kiss_pair`` / ``_shift_from``, kernel.py)
treats a cushion like a third ball (``kernel._enters_cushion``), so it never pushes a ball
into a cushion and the next ``physics.simulate`` call accepts the layout.
"""

from __future__ import annotations

import numpy as np

import physics
from physics.simulate import _layout_problem

# (x, y) of balls 0..15 (ball 6 pocketed) and the stroke [V0, phi, theta, a, b]
POS = (0.556335539670021, 1.2052916996186693, 0.8649699912612259, 1.7414627136683685, 0.859364408509169,
       0.9071905551105794, 1.2295559019994107, 0.484645714085887, 0.5130299205134765, 0.686703723175318,
       0.6700378138984522, 2.2963565848862353, 1.299486352775479, -0.029486352775479032, 0.21346129395450905,
       2.482805453786375, 0.1446997487424656, 0.5093117503593958, 0.11485836361335484, 2.488055241717459,
       0.5400432571862125, 1.821550127517877, 0.720121717910996, 1.8087335915759366, 0.05855368008205019,
       2.520966473347241, 0.5546845838262839, 1.4606737959508176, 0.03789466488422638, 2.455850296684701,
       0.6896652246473889, 0.8880470416697751)
SHOT = (2.035586992357738, 111.70880541230346, 0.0, -0.18759813738022596, -0.23589942267501623)


def _on_bed_code(table, res, R):
    return _layout_problem(res.rvw[None].copy(), res.s[None].copy(), R, table.segments,
                           table.segment_normals, table.jaws, table.pockets, table.w, table.l,
                           table.specs.cushion_width)[0]


def test_ball_wedged_against_jaw_cushion_rests_on_bed(table9):
    R = physics.BallParams().R
    P = np.array(POS).reshape(16, 2)
    rvw = np.zeros((16, 3, 3))
    rvw[:, 0, :2] = P
    rvw[:, 0, 2] = R
    s = np.zeros(16, np.int8)
    s[6] = int(physics.Motion.POCKETED)
    res = physics.simulate(table9, rvw, physics.Shot(*SHOT), s=s)
    assert res.status == 0
    # ball 14 touched cushion segment 6 and ball 12 at the same instant (the wedge)
    ev = set(zip(res.ev_kind[:res.n_events].tolist(), res.ev_i[:res.n_events].tolist(),
                 res.ev_j[:res.n_events].tolist()))
    assert (2, 14, 6) in ev and (1, 12, 14) in ev
    seg, nrm = np.asarray(table9.segments)[6], np.asarray(table9.segment_normals)[6]
    gap14 = float(np.dot(res.rvw[14, 0, :2] - seg[0], nrm)) - R
    assert gap14 > -1e-9, f"ball 14 penetrates cushion segment 6 by {-gap14:.3g} m"
    # the final layout is a valid input for the next shot
    assert _on_bed_code(table9, res, R) == 0
    physics.simulate(table9, res.rvw.copy(), physics.Shot(1.0, 90.0, 0.0, 0.0, 0.0), s=res.s.copy())
