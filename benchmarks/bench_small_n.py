"""CPU per table-step of the native vector env with a few tables, against the single env
(measured, not asserted).

    python benchmarks/bench_small_n.py [--discipline nine_ball] [--opponent geometric none]
                                       [--sizes 1 2 4 8 16 64] [--steps 12000] [--repeat 3]

What Stable-Baselines3 users with a handful of envs run: ``gymnasium.make_vec(id, num_envs=N,
vectorization_mode="vector_entry_point", num_workers=1)`` (one process, the default for
fewer than 128 tables on two cores) stepped with seeded uniform Box actions, about
``--steps`` table-steps per run after ten warm-up steps, autoresets included. The reference,
measured in the same process: one `PoolEnv` (``gymnasium.make(id).unwrapped``) stepped with
the same kind of actions, the step after an episode's end a reset (as the vector env's
next-step autoreset counts it). Printed per size: CPU microseconds
per table-step (``time.process_time``, the best of ``--repeat`` runs, so other jobs on the
machine matter less) and its ratio to the single env's. A step of N tables pays fixed costs
per physics and opponent round (array set-up, compiled calls) that N tables share, so the
ratio falls with N.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ENV_IDS = {"nine_ball": "poolgym/NineBall-v0", "eight_ball": "poolgym/EightBall-v0",
           "straight_pool": "poolgym/StraightPool-v0"}


def _best(run, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        n = run()
        best = min(best, (time.process_time() - t0) / n)
    return best * 1e6


def single_env_us(env_id: str, kwargs: dict, steps: int, repeat: int) -> float:
    """CPU us per step of one env (the step after an episode's end is its reset)."""
    import gymnasium as gym
    import numpy as np

    env = gym.make(env_id, **kwargs).unwrapped
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    acts = rng.uniform(-1, 1, (steps,) + env.action_space.shape).astype(np.float32)

    done = [False]  # across runs

    def run():
        for a in acts:
            if done[0]:  # as the vector env's next-step autoreset: the step after the end resets
                env.reset()
                done[0] = False
            else:
                _, _, term, trunc, _ = env.step(a)
                done[0] = term or trunc
        return len(acts)

    run()  # warm-up
    us = _best(run, repeat)
    env.close()
    return us


def vector_env_us(env_id: str, kwargs: dict, n: int, steps: int, repeat: int) -> float:
    """CPU us per table-step of the native vector env of ``n`` tables in one process."""
    import gymnasium as gym
    import numpy as np

    env = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", num_workers=1, **kwargs)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    k = max(20, steps // n)
    acts = rng.uniform(-1, 1, (k,) + env.action_space.shape).astype(np.float32)
    for a in acts[:10]:
        env.step(a)

    def run():
        for a in acts:
            env.step(a)
        return len(acts) * n

    us = _best(run, repeat)
    env.close()
    return us


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--discipline", default="nine_ball", choices=sorted(ENV_IDS))
    ap.add_argument("--opponent", nargs="+", default=["geometric", "none"], choices=("geometric", "none"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 4, 8, 16, 64])
    ap.add_argument("--steps", type=int, default=12000, help="table-steps per run")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    import poolgym  # noqa: F401 (registers the ids)

    env_id = ENV_IDS[args.discipline]
    print(f"{args.discipline}: CPU us per table-step, one process, best of {args.repeat}; ratio to the single env")
    for opp in args.opponent:
        kwargs = {} if opp == "geometric" else {"opponent": None}
        ref = single_env_us(env_id, kwargs, min(args.steps, 4000), args.repeat)
        print(f"--- opponent={opp}\nsingle env          : {ref:8.1f} us per step")
        for n in args.sizes:
            us = vector_env_us(env_id, kwargs, n, args.steps, args.repeat)
            print(f"native vector N={n:<4d}: {us:8.1f} us per table-step  ({us / ref:5.2f} x the single env)",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
