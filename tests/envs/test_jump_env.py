"""A legal jump over a blocking ball through the Box action (G-3.27): with ``theta_max=60``
the elevation is part of the action, and the env's physics flies the ball (airborne)."""
from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import poolgym  # noqa: F401  (registers the ids)
from poolgym.rules.core import Phase

BLOCK = {0: (0.635, 0.5), 1: (0.635, 1.6), 2: (0.635, 0.75), 9: (0.3, 2.2)}


def _box(theta_deg, theta_max=60.0):
    """Box action: V0 2.5 m/s, straight up the table (absolute phi 90), the given elevation,
    tip at the centre."""
    u = np.zeros(gym.make("poolgym/NineBall-v0").action_space.shape, np.float32)
    u[0] = (2.5 - 0.1) / (8.0 - 0.1) * 2 - 1
    u[1] = 0.5
    u[2] = theta_deg / theta_max * 2 - 1
    return u


@pytest.mark.rule("G-3.27")
def test_box_jump_clears_the_blocker_and_the_level_stroke_does_not():
    env = gym.make("poolgym/NineBall-v0", theta_max=60.0, phi_mode="absolute", opponent=None)
    env.reset(seed=0, options={"balls": BLOCK, "phase": "play", "cue_ball": "in_position"})
    _, _, _, _, info = env.step(_box(45.0))
    v = info["verdicts"][0]
    assert v["fouls"] == () and env.unwrapped.session.state.phase is not Phase.GAME_OVER
    env.reset(seed=0, options={"balls": BLOCK, "phase": "play", "cue_ball": "in_position"})
    _, _, _, _, info = env.step(_box(0.0))
    assert info["verdicts"][0]["fouls"]  # the level stroke hits the 2 first: a foul (9B-5.2 / G-3.18)
