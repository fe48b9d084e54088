"""Worker processes against one process, and the sharded step's one round trip against two
phases, measured in alternating runs (the box's speed drifts: compare within a round).

    python benchmarks/bench_workers.py [--env-id poolgym/NineBall-v0] [--num-envs 64]
        [--action-mode box|macro|param] [--opponent geometric|none] [--configs 2 1]
        [--rounds 2] [--steps 150]

Each configuration is one ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``
with ``num_workers`` = the configuration's count (``2t``: two workers whose steps take the two
phases, every worker planning before any runs -- the sharded step before it took one round
trip; it sets the env's private ``_one_round`` off, so it is a measurement, not an option).
Every round runs each configuration once: reset, 10 warm-up steps, then ``--steps`` timed
steps of seeded random actions (Box: uniform in [-1, 1]; macro: uniform over the unmasked
actions, drawn before the timing). Printed: steps per second of wall time per run, the load
average before and after. The number of processes ``make_vec`` takes by default
(``num_workers="auto"``) is printed too.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


def run(env_id: str, num_envs: int, config: str, kwargs: dict, steps: int, seed: int = 0) -> float:
    """Steps per second of one configuration (module docstring)."""
    import gymnasium as gym

    import poolgym  # noqa: F401

    two_phase = config.endswith("t")
    venv = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point",
                        num_workers=int(config.rstrip("t")), **kwargs)
    try:
        if two_phase:
            venv._one_round = False
            venv._n_macro = None
        rng = np.random.default_rng(seed)
        venv.reset(seed=seed)
        macro = kwargs.get("action_mode") == "macro"

        def actions():
            if macro:
                return np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
            return rng.uniform(-1, 1, venv.action_space.shape).astype(np.float32)

        for _ in range(10):
            venv.step(actions())
        t = 0.0
        for _ in range(steps):
            a = actions()
            t0 = time.perf_counter()
            venv.step(a)
            t += time.perf_counter() - t0
        return steps * num_envs / t
    finally:
        venv.close()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--env-id", default="poolgym/NineBall-v0")
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--action-mode", default="box", choices=["box", "macro", "param"])
    ap.add_argument("--opponent", default=None, help="geometric or none (default: the id's own)")
    ap.add_argument("--configs", nargs="+", default=["2", "1"],
                    help="worker counts; '2t': two workers stepping in two phases")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--steps", type=int, default=150)
    args = ap.parse_args(argv)
    kwargs = {} if args.action_mode == "box" else {"action_mode": args.action_mode}
    if args.opponent is not None:
        kwargs["opponent"] = None if args.opponent == "none" else args.opponent
    print(f"{args.env_id} N={args.num_envs} {kwargs}; num_workers='auto' gives "
          f"{_auto_workers(args.env_id, args.num_envs, kwargs)}; load {os.getloadavg()[0]:.2f}")
    for r in range(args.rounds):
        row = [f"{c}: {run(args.env_id, args.num_envs, c, kwargs, args.steps):8.0f}" for c in args.configs]
        print(f"round {r}  " + "   ".join(row) + "  steps/s")
    print(f"load {os.getloadavg()[0]:.2f}")


def _auto_workers(env_id: str, num_envs: int, kwargs: dict) -> int:
    """The processes ``make_vec`` shards ``num_envs`` tables over by default."""
    import gymnasium as gym

    import poolgym  # noqa: F401

    venv = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)
    try:
        return len(getattr(venv, "bounds", [None]))
    finally:
        venv.close()


if __name__ == "__main__":
    main()
