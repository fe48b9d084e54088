"""Agents as the envs' opponent (`agents.opponent`): legal decisions through the env, the
env's seed fixes the opponent's play, and registered ``"agent:<name>"`` names."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import poolgym  # noqa: F401  (registers the ids)
from agents.opponent import AgentOpponent, as_opponent, register_env_opponents
from poolgym.envs.pool_env import PoolEnv


def _play(env, steps, seed):
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = [obs]
    for _ in range(steps):
        obs, r, term, trunc, info = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        out += [obs, r, info["shots"], info["seat_to_act"]]
        if term or trunc:
            obs, info = env.reset()
            out.append(obs)
    return out


@pytest.mark.parametrize("discipline", ["nine_ball", "eight_ball"])
def test_geometric_agent_as_opponent_is_reproducible(discipline):
    runs = [_play(PoolEnv(discipline, opponent=as_opponent("geometric"), max_shots=20, noise="icga"), 6, 3)
            for _ in range(2)]
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)
    # the opponent really played: in some episode the shot count exceeds the learner's own steps
    items, k, steps, played = runs[0][1:], 0, 0, False
    while k + 3 < len(items):
        if isinstance(items[k], np.ndarray) and k + 1 < len(items) and isinstance(items[k + 1], np.ndarray):
            k, steps = k + 1, 0  # a reset: the next episode's first observation
            continue
        steps += 1
        played |= int(items[k + 2]) > steps
        k += 4
    assert played


def test_registered_agent_names_work_through_gymnasium_make():
    names = register_env_opponents()
    assert "agent:search" in names and "agent:random" in names
    env = gym.make("poolgym/NineBall-v0", opponent="agent:random", max_shots=10)
    out = _play(env, 4, 1)
    assert len(out) > 4
    env.close()


def test_bad_agents_are_refused():
    with pytest.raises(TypeError):
        AgentOpponent(lambda *a: None)
    with pytest.raises(ValueError):
        as_opponent(as_opponent("random").agent, noise="icga")
    with pytest.raises(ValueError):
        as_opponent("no-such-agent")
