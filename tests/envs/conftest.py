"""Shared fixtures of the env tests: headless pygame, registered ids, small shot limits, the
Gymnasium / SB3 env checkers with warnings as errors, the native-vector-equals-single-envs
check."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

import poolgym  # noqa: E402,F401  (registers the ids)

ALL_IDS = (
    "poolgym/NineBall-v0",
    "poolgym/EightBall-v0",
    "poolgym/StraightPool-v0",
    "poolgym/NineBallRunout-v0",
    "poolgym/PotDrill-v0",
    "poolgym/BreakDrill-v0",
)


@pytest.fixture(scope="session")
def table9():
    from poolgym.rules.geometry import get_table

    return get_table("9ft")


def assert_vector_matches_single(env_id: str, kwargs: dict, n: int, seed: int, steps: int) -> None:
    """The native vector env of ``n`` copies of ``env_id`` (``kwargs``) gives, from
    ``reset(seed=seed)``, the same observations, rewards and end flags as ``n`` single envs
    in a SyncVectorEnv for ``steps`` steps of the same random actions (legal macro indices
    under ``action_mode="macro"``), with the same autoreset mode (envpool run_align_check),
    bit for bit. The vector env's batched codec and placement checks run as for many tables
    (their small-batch shortcuts, `codec.SMALL_BATCH` and `game.SMALL_PLACEMENT_BATCH`, are the
    single env's own code)."""
    import poolgym.envs.codec as codec
    import poolgym.rules.game as game

    small = codec.SMALL_BATCH, game.SMALL_PLACEMENT_BATCH
    codec.SMALL_BATCH = game.SMALL_PLACEMENT_BATCH = 0
    try:
        _vector_matches_single(env_id, kwargs, n, seed, steps)
    finally:
        codec.SMALL_BATCH, game.SMALL_PLACEMENT_BATCH = small


def _vector_matches_single(env_id, kwargs, n, seed, steps) -> None:
    import gymnasium as gym
    import numpy as np

    native = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    sync = gym.vector.SyncVectorEnv([lambda: gym.make(env_id, **kwargs) for _ in range(n)])
    try:
        assert native.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"]
        o1, _ = native.reset(seed=seed)
        o2, _ = sync.reset(seed=seed)
        assert o1.tobytes() == o2.tobytes()
        rng = np.random.default_rng(0)
        for t in range(steps):
            if kwargs.get("action_mode") == "macro":
                masks = native.unwrapped.action_masks()
                a = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            else:
                a = rng.uniform(-1, 1, native.action_space.shape).astype(np.float32)
            r1, r2 = native.step(a), sync.step(a)
            for k in range(4):
                np.testing.assert_array_equal(r1[k], r2[k], err_msg=f"step {t}, output {k}")
                assert np.asarray(r1[k]).tobytes() == np.asarray(r2[k]).tobytes(), f"step {t}, output {k}: bits"
    finally:
        native.close()
        sync.close()


def gym_check_env(env_id: str, *, skip_render_check: bool = False, **kwargs) -> None:
    """Gymnasium's env checker on ``gym.make(env_id, **kwargs)`` (unwrapped), every warning
    (from the make too) an error."""
    import warnings

    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make(env_id, **kwargs)
        check_env(env.unwrapped, skip_render_check=skip_render_check)
        env.close()


def sb3_check_env(env_id: str, **kwargs) -> None:
    """Stable-Baselines3's env checker on ``gym.make(env_id, **kwargs)``, every warning
    (from the make too) an error."""
    import warnings

    import gymnasium as gym
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make(env_id, **kwargs), warn=True)
