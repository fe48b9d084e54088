"""Analytic cases: rolling stop distance, stun-to-roll 5/7 rule, full-ball stun stop,
frictionless 90-degree rule, cushion rebound through the kernel, pockets."""

from __future__ import annotations

import math

import numpy as np
import pytest

import physics
from physics.enums import EventKind
from physics.motion import evolve
from physics.resolve.cushion import han_2005, mathavan_2010

from phys_helpers import R, layout

BP = physics.BallParams()
CUE = physics.CueParams()


def ball_speed(V0, a=0.0, b=0.0):
    return 2 * V0 / (1 + BP.m / CUE.M + 2.5 * (a * a + b * b))


def first(res, kind):
    for t, k, i, j in res.events():
        if k == kind:
            return t, i, j
    raise AssertionError(f"no {kind} event")


def test_rolling_stop_distance(table9):
    """Natural roll (b = 2/5) from the strike: the ball stops after v^2 / (2 u_r g)."""
    V0 = 0.5
    res = physics.simulate(table9, layout([[0.635, 0.4]]), physics.Shot(V0, 90.0, b=0.4))
    v = ball_speed(V0, b=0.4)
    assert res.rvw[0, 0, 1] - 0.4 == pytest.approx(v * v / (2 * BP.u_r * BP.g), abs=1e-9)
    assert res.rvw[0, 0, 0] == pytest.approx(0.635, abs=1e-12)
    assert res.s[0] == physics.Motion.STATIONARY


def test_stun_to_roll_five_sevenths(table9):
    """A centre-ball hit slides and starts rolling at 5/7 of its initial speed."""
    V0 = 1.0
    rvw = layout([[0.635, 0.4]])
    t_sr, _, _ = first(physics.simulate(table9, rvw, physics.Shot(V0, 90.0)), EventKind.SLIDING_ROLLING)
    v = ball_speed(V0)
    assert t_sr == pytest.approx(2 * v / (7 * BP.u_s * BP.g), rel=1e-12)
    res = physics.simulate(table9, rvw, physics.Shot(V0, 90.0), t_final=t_sr)
    assert res.s[0] == physics.Motion.ROLLING
    assert np.hypot(*res.rvw[0, 1, :2]) == pytest.approx(5 / 7 * v, rel=1e-12)
    # rolling without slipping: w = z x v / R
    assert res.rvw[0, 2, 0] == pytest.approx(-res.rvw[0, 1, 1] / R, rel=1e-9)


def test_full_ball_stun_hit_stops_cue_ball(table9):
    """Frictionless elastic, straight full hit with no spin: the cue ball stops dead and the
    object ball leaves with the cue ball's velocity."""
    # draw chosen so the cue ball arrives without spin: stun
    rvw = layout([[0.635, 0.5], [0.635, 0.5 + 2 * R + 0.002]])
    shot = physics.Shot(1.0, 90.0)
    full = physics.simulate(table9, rvw, shot, ball_ball="frictionless_elastic")
    t_c, i, j = first(full, EventKind.BALL_BALL)
    before = physics.simulate(table9, rvw, shot, ball_ball="frictionless_elastic", t_final=t_c * (1 - 1e-9))
    after = physics.simulate(table9, rvw, shot, ball_ball="frictionless_elastic", t_final=t_c)
    v_in = before.rvw[0, 1, :2]
    assert np.abs(after.rvw[0, 1, :2]).max() < 1e-8
    np.testing.assert_allclose(after.rvw[1, 1, :2], v_in, atol=1e-8)


@pytest.mark.parametrize("cut_deg", [15.0, 30.0, 50.0])
def test_frictionless_ninety_degree_rule(table9, cut_deg):
    """Equal masses, frictionless elastic: the balls separate at 90 degrees."""
    ob = np.array([0.635, 1.2])
    phi = math.radians(90.0 - cut_deg)
    ghost = ob - 2 * R * np.array([0.0, 1.0])  # contact normal along +y, cue aimed cut_deg off
    cue = ghost - 0.3 * np.array([math.cos(phi), math.sin(phi)])
    shot = physics.Shot(1.5, math.degrees(phi), b=0.4)
    rvw = layout([cue, ob])
    full = physics.simulate(table9, rvw, shot, ball_ball="frictionless_elastic")
    t_c, _, _ = first(full, EventKind.BALL_BALL)
    after = physics.simulate(table9, rvw, shot, ball_ball="frictionless_elastic", t_final=t_c)
    v1, v2 = after.rvw[0, 1, :2], after.rvw[1, 1, :2]
    cosang = v1 @ v2 / (np.linalg.norm(v1) * np.linalg.norm(v2))
    assert abs(cosang) < 1e-9


@pytest.mark.parametrize("cushion", ["han_2005", "mathavan_2010"])
def test_cushion_rebound_follows_model(table9, cushion):
    """The kernel applies the named cushion model at the contact: the state right after the
    cushion event equals the model's resolve applied to the state right before it."""
    rvw = layout([[0.4, 1.0]])
    shot = physics.Shot(1.2, 180.0 + 10.0, a=0.2)
    full = physics.simulate(table9, rvw, shot, cushion=cushion)
    t_c, i, j = first(full, EventKind.BALL_CUSHION)
    eps = 1e-7
    before = physics.simulate(table9, rvw, shot, t_final=t_c - eps, cushion=cushion)
    after = physics.simulate(table9, rvw, shot, t_final=t_c, cushion=cushion)
    pre = before.rvw[0].copy()
    evolve(pre, int(before.s[0]), BP.as_array(), eps)
    n = table9.segment_normals[j]
    expect = pre.copy()
    h = table9.cushion_height
    if cushion == "han_2005":
        han_2005.resolve(expect, n[0], n[1], R, BP.m, h, BP.e_c, BP.f_c)
    else:
        mathavan_2010.resolve(expect, n[0], n[1], R, BP.m, h, BP.e_c, BP.f_c, BP.u_s, BP.g)
    np.testing.assert_allclose(after.rvw[0, 1:], expect[1:], rtol=1e-6, atol=1e-9)
    # the ball now moves away from the rail and has lost energy
    assert after.rvw[0, 1, :2] @ n > 0
    assert np.linalg.norm(after.rvw[0, 1]) < np.linalg.norm(pre[1])
    assert after.s[0] == physics.Motion.SLIDING


def test_straight_in_corner_pocket(table9):
    """A ball rolled straight at the lb pocket centre is pocketed there."""
    pk = table9.pockets[0, :2]
    start = np.array([0.4, 0.4])
    d = pk - start
    res = physics.simulate(table9, layout([start]), physics.Shot(1.5, math.degrees(math.atan2(d[1], d[0])), b=0.3))
    assert res.pocket[0] == 0
    assert res.s[0] == physics.Motion.POCKETED
    t, kind, i, j = res.events()[-1]
    assert (kind, i, j) == (EventKind.POCKET, 0, 0)
