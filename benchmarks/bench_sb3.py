"""PPO training throughput on the native SB3 vector env, in one process against sharded.

    python benchmarks/bench_sb3.py [--env-id poolgym/NineBall-v0] [--num-envs 256] [--workers 1 2] [--rollouts 4]

For each ``--workers`` value: `poolgym.envs.sb3.NativeSB3VecEnv` of ``--num-envs`` tables
(``num_workers`` processes), Stable-Baselines3 PPO (``n_steps`` 32, ``batch_size`` 2048, one
epoch, one torch thread), one rollout and update to warm up, then ``--rollouts`` more timed:
environment steps per wall second of the whole loop (rollouts, the policy's forward passes
and the updates, which run in this process beside the workers).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def ppo_rate(env_id: str, num_envs: int, workers: int, rollouts: int) -> float:
    """Environment steps per wall second of PPO training (module docstring)."""
    import torch
    from stable_baselines3 import PPO

    from poolgym.envs.sb3 import NativeSB3VecEnv

    torch.set_num_threads(1)
    venv = NativeSB3VecEnv(env_id, num_envs=num_envs, seed=0, num_workers=workers)
    try:
        n_steps = 32
        model = PPO("MlpPolicy", venv, n_steps=n_steps, batch_size=2048, n_epochs=1, seed=0, verbose=0)
        model.learn(n_steps * num_envs)
        t0 = time.perf_counter()
        model.learn(n_steps * num_envs * rollouts, reset_num_timesteps=False)
        return n_steps * num_envs * rollouts / (time.perf_counter() - t0)
    finally:
        venv.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--env-id", default="poolgym/NineBall-v0")
    ap.add_argument("--num-envs", type=int, default=256)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rollouts", type=int, default=4)
    args = ap.parse_args(argv)
    for w in args.workers:
        print(f"{args.env_id}, {args.num_envs} tables, num_workers={w}: "
              f"{ppo_rate(args.env_id, args.num_envs, w, args.rollouts):8.0f} env steps/s of PPO training")
    print(f"load average: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
