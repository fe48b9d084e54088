"""A few hundred steps of SB3 PPO, SAC and sb3-contrib MaskablePPO on the default spaces."""

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")  # the sb3 extra
pytest.importorskip("stable_baselines3")
torch.set_num_threads(1)


def test_ppo_on_nine_ball_box():
    from stable_baselines3 import PPO

    env = gym.make("poolgym/NineBall-v0", max_shots=8)
    model = PPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(256)
    a, _ = model.predict(env.reset(seed=0)[0], deterministic=True)
    assert env.action_space.contains(a)


def test_ppo_on_native_sb3_vec_env():
    from stable_baselines3 import PPO

    from poolgym.envs.sb3 import NativeSB3VecEnv

    venv = NativeSB3VecEnv("poolgym/PotDrill-v0", num_envs=8, seed=0)
    model = PPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(256)
    assert model.num_timesteps >= 256


def test_sac_on_pot_drill():
    from stable_baselines3 import SAC

    env = gym.make("poolgym/PotDrill-v0")
    model = SAC("MlpPolicy", env, learning_starts=64, batch_size=32, train_freq=8, gradient_steps=1,
                buffer_size=1000, seed=0, device="cpu", policy_kwargs={"net_arch": [32, 32]})
    model.learn(200)
    assert model.num_timesteps >= 200


def test_maskable_ppo_on_nine_ball_macro():
    sb3c = pytest.importorskip("sb3_contrib")
    env = gym.make("poolgym/NineBall-v0", action_mode="macro", max_shots=8)
    model = sb3c.MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(256)
    obs, _ = env.reset(seed=1)
    masks = env.unwrapped.action_masks()
    a, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[int(a)]
    assert np.isfinite(obs).all()


def test_maskable_ppo_on_native_vec_env_macro():
    sb3c = pytest.importorskip("sb3_contrib")
    from poolgym.envs.sb3 import NativeSB3VecEnv

    venv = NativeSB3VecEnv("poolgym/NineBall-v0", num_envs=4, seed=0, action_mode="macro", max_shots=6)
    model = sb3c.MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(128)
    assert model.num_timesteps >= 128
