"""Stable-Baselines3 `VecEnv` over the native batched `PoolVectorEnv`.

SB3's own `DummyVecEnv` would step the tables one by one; `NativeSB3VecEnv` hands all actions
to `PoolVectorEnv.step` (one batched physics call per round) and converts the result to SB3's
conventions: same-step autoreset, ``info["terminal_observation"]`` and
``info["TimeLimit.truncated"]`` on the step that ended an episode, float32 rewards.

    from stable_baselines3 import PPO
    from poolgym.envs.sb3 import NativeSB3VecEnv
    venv = NativeSB3VecEnv("poolgym/NineBall-v0", num_envs=64, seed=0)
    PPO("MlpPolicy", venv).learn(100_000)

``action_masks`` (via ``env_method("action_masks")``) serves sb3-contrib MaskablePPO with
``action_mode="macro"``. ``num_workers=W`` (> 1) shards the tables over W processes
(`poolgym.envs.workers.ShardedVectorEnv`, bit-identical to one process): on two cores the
default nine-ball env then steps about 1.5x faster (README, "Native vector env"); the script
that makes it needs the ``if __name__ == "__main__":`` guard of the ``spawn`` start method.
Such an env pickles with its tables' states (the experiments' exact checkpoints).
"""

from __future__ import annotations

import numpy as np

try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv
except ImportError as e:  # pragma: no cover - optional dependency
    raise ImportError('poolgym.envs.sb3 needs stable-baselines3: pip install "poolgym[sb3]"') from e

from poolgym.envs import disciplines


def _discipline_of(env_id: str):
    """(discipline, default kwargs) for a registered poolgym id or a discipline name."""
    import gymnasium

    import poolgym  # noqa: F401  (registers the ids)

    if env_id in gymnasium.registry:
        spec = gymnasium.registry[env_id]
        make = getattr(disciplines, spec.vector_entry_point.split(":")[1])
        return make.discipline, dict(make.defaults)
    return env_id, {}


class NativeSB3VecEnv(VecEnv):
    """SB3 `VecEnv` of ``num_envs`` tables of ``env_id`` (a registered id such as
    ``"poolgym/NineBall-v0"`` or a discipline name), in this process or, ``num_workers`` > 1,
    sharded over that many worker processes (``num_threads``: as in
    `poolgym.envs.workers.ShardedVectorEnv`; ``"auto"``, the default: as ``gymnasium.make_vec``
    decides, `poolgym.envs.workers.resolve_num_workers`); other kwargs go to `PoolEnv`."""

    def __init__(self, env_id: str = "poolgym/NineBall-v0", num_envs: int = 8, seed: int | None = None,
                 num_workers="auto", num_threads: int | None = None, **kwargs):
        disc, defaults = _discipline_of(env_id)
        for k, v in defaults.items():
            kwargs.setdefault(k, v)
        self.venv = disciplines.make_vector(disc, num_envs, num_workers, num_threads, autoreset_mode="same_step", **kwargs)
        super().__init__(num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        self._seed = seed
        self._actions = None

    # ------------------------------------------------------------------ VecEnv API
    def reset(self):
        seed = self._seed
        self._seed = None  # later resets continue the tables' RNG streams
        obs, _ = self.venv.reset(seed=seed)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def seed(self, seed=None):
        self._seed = seed
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def step_async(self, actions):
        self._actions = actions

    def step_wait(self):
        obs, rew, term, trunc, infos = self.venv.step(self._actions)
        dones = term | trunc
        out = []
        for i in range(self.num_envs):
            info = {"winner": int(infos["winner"][i]), "shots": int(infos["shots"][i])}
            if dones[i]:
                info["terminal_observation"] = infos["final_obs"][i]
                info["TimeLimit.truncated"] = bool(trunc[i] and not term[i])
                fi = infos["final_info"][i]
                info["winner"] = -1 if fi["winner"] is None else int(fi["winner"])
                info["shots"] = int(fi["shots"])
            out.append(info)
        return obs, rew.astype(np.float32), dones, out

    def close(self):
        self.venv.close()

    def _indices(self, indices) -> list:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name, indices=None):
        return self.venv.table_attrs(attr_name, self._indices(indices))

    def set_attr(self, attr_name, value, indices=None):
        self.venv.set_table_attrs(attr_name, value, self._indices(indices))

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        return self.venv.call_tables(method_name, method_args, method_kwargs, self._indices(indices))

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        if attr_name == "action_masks":
            return self.venv.table_attrs("action_mode", [0])[0] == "macro"
        try:
            self.venv.table_attrs(attr_name, [0])
        except AttributeError:
            return False
        return True

    def action_masks(self) -> np.ndarray:
        return self.venv.action_masks()
