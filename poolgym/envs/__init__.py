"""Gymnasium, vector and PettingZoo environments (DESIGN §6).

Import what you need from the submodules; this package imports nothing at import time so that
``import poolgym`` stays cheap:

* `poolgym.envs.pool_env.PoolEnv` — the single-agent env (its docstring is the spec);
* `poolgym.envs.disciplines` — the registered per-discipline classes;
* `poolgym.envs.vector.PoolVectorEnv` — native batched vector env;
* `poolgym.envs.sb3.NativeSB3VecEnv` — SB3 `VecEnv` adapter over it;
* `poolgym.envs.codec` — observation encoder / action decoders;
* `poolgym.envs.opponents` — built-in opponents and the opponent registry;
* `poolgym.envs.drills` — the pot and break drills.
"""
