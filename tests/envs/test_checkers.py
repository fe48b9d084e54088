"""Gymnasium and SB3 env checkers on every registered id, PettingZoo api/seed tests."""

import warnings

import gymnasium as gym
import pytest

from .conftest import ALL_IDS, gym_check_env, sb3_check_env


@pytest.mark.parametrize("mode", ["box", "macro"])
@pytest.mark.parametrize("env_id", ALL_IDS)
def test_gymnasium_check_env(env_id, mode):
    """Spaces, reset / step semantics and seeding (rendering: the next test)."""
    gym_check_env(env_id, skip_render_check=True, action_mode=mode, max_shots=40)


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_gymnasium_check_env_render_modes(env_id):
    """Every render mode of the metadata ("human" needs pygame: the render extra)."""
    pytest.importorskip("pygame")
    gym_check_env(env_id, max_shots=40)


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_sb3_check_env(env_id):
    pytest.importorskip("stable_baselines3")  # the sb3 extra
    sb3_check_env(env_id, max_shots=40)


def test_registered_ids_have_vector_entry_points():
    for env_id in ALL_IDS:
        spec = gym.spec(env_id)
        assert spec.vector_entry_point is not None


@pytest.mark.parametrize("mode", ["box", "macro"])
@pytest.mark.parametrize("discipline", ["nine_ball", "eight_ball", "straight_pool"])
def test_pettingzoo_api_and_seed(discipline, mode):
    pytest.importorskip("pettingzoo")  # the pettingzoo extra
    from pettingzoo.test import api_test, seed_test

    from poolgym.pettingzoo import DISCIPLINES, env

    assert discipline in DISCIPLINES
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about Dict observations (action masks)
        api_test(env(discipline, action_mode=mode, max_shots=10), num_cycles=15)
        seed_test(lambda: env(discipline, action_mode=mode, max_shots=10), num_cycles=15)


def test_pettingzoo_rejects_unknown_discipline():
    pytest.importorskip("pettingzoo")
    from poolgym.pettingzoo import env

    with pytest.raises(ValueError, match="discipline"):
        env("snooker")
