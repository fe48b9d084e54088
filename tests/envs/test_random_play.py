"""OpenSpiel-style invariants over random games: observations inside the space, masks
consistent with the rules' `ActionSpec`, states that round-trip through JSON, rewards bounded."""

import numpy as np
import pytest

from poolgym.envs.pool_env import PoolEnv
from poolgym.rules.core import GameState


@pytest.mark.parametrize("mode", ["box", "macro"])
@pytest.mark.parametrize("discipline", ["nine_ball", "eight_ball", "straight_pool"])
def test_random_games_keep_invariants(discipline, mode):
    env = PoolEnv(discipline, action_mode=mode, max_shots=12, opponent="random", noise="icga")
    rng = np.random.default_rng(0)
    for ep in range(2):
        obs, _ = env.reset(seed=ep)
        done = False
        while not done:
            assert env.observation_space.contains(obs)
            spec = env.legal_actions()
            assert spec is not None and spec.seat == env.state.seat_to_act == env.session.learner_seat
            k = env.codec.N
            target_mask = obs[3 * k : 4 * k]
            assert set(np.flatnonzero(target_mask)) == set(spec.target_balls)
            assert GameState.from_json(env.state.to_json()) == env.state
            if mode == "macro":
                m = env.action_masks()
                a = int(rng.choice(np.flatnonzero(m)))
            else:
                a = rng.uniform(-1, 1, env.action_space.shape).astype(np.float32)
            obs, reward, term, trunc, info = env.step(a)
            assert -1.0 <= reward <= 1.0
            assert not info["illegal_action"]
            done = term or trunc
        if term:
            assert env.state.phase.value == "game_over"
