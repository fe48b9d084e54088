"""A digest of seeded native vector runs, to show that a change to the env, the referee, the
opponent or the physics leaves every result as it was (run it on both trees and compare).

    python benchmarks/hash_runs.py [--num-envs 32] [--steps 80] [--configs nine_ball,nine_ball:none,...]
                                   [--workers W] [--noise icga] [--action-mode macro|param]

Each configuration is ``discipline[/players][:opponent]`` (opponent ``geometric`` unless
``none``); its run resets with seed 0 and steps seeded uniform Box actions, hashing the
observations, rewards, termination and truncation flags and the infos (arrays by their bytes,
everything else by ``repr``, keys sorted). One line per configuration and the digest of all.
``--workers W`` (> 1) runs the tables sharded over W processes (`ShardedVectorEnv`, what
``gymnasium.make_vec`` does by default with many tables): the digests must not change.
``--noise icga`` plays every configuration under the ICGA execution noise (each table's
strokes perturbed by draws from its own generator), ``--action-mode`` in the macro mode
(seeded uniform choices among each table's unmasked actions) or the param mode (seeded uniform
Box actions): digests of their own.
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np

DEFAULT = ("nine_ball,nine_ball:none,eight_ball,straight_pool,card_ball/6:none,pea_pool/6")


def _feed(h, value) -> None:
    """Add ``value`` to the hash ``h`` (arrays by dtype, shape and bytes; mappings by sorted key)."""
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            for v in value.ravel():
                _feed(h, v)
        else:
            h.update(f"{value.dtype}{value.shape}".encode())
            h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, dict):
        for k in sorted(value, key=repr):
            h.update(repr(k).encode())
            _feed(h, value[k])
    elif isinstance(value, (list, tuple)):
        h.update(f"{type(value).__name__}{len(value)}".encode())
        for v in value:
            _feed(h, v)
    else:
        h.update(repr(value).encode())


def run_digest(config: str, num_envs: int, steps: int, workers: int = 1, noise: str = "none",
               action_mode: str = "box") -> str:
    """The hex digest of one configuration's seeded run (see the module docstring)."""
    from poolgym.envs.vector import PoolVectorEnv
    from poolgym.envs.workers import ShardedVectorEnv

    name, _, opp = config.partition(":")
    disc, _, players = name.partition("/")
    kw = {"players": int(players)} if players else {}
    kw["opponent"] = None if opp == "none" else (opp or "geometric")
    kw["noise"] = noise
    kw["action_mode"] = action_mode
    if workers > 1:
        env = ShardedVectorEnv(disc, num_envs=num_envs, num_workers=workers, **kw)
    else:
        env = PoolVectorEnv(disc, num_envs=num_envs, **kw)
    h = hashlib.sha256()
    rng = np.random.default_rng(12345)
    obs, info = env.reset(seed=0)
    _feed(h, obs)
    _feed(h, info)
    for _ in range(steps):
        if action_mode == "macro":
            a = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in env.action_masks()])
        else:
            a = rng.uniform(-1, 1, (num_envs,) + env.single_action_space.shape).astype(np.float32)
        for part in env.step(a):
            _feed(h, part)
    env.close()
    return h.hexdigest()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--num-envs", type=int, default=32)
    ap.add_argument("--steps", type=int, default=80)
    ap.add_argument("--configs", default=DEFAULT, help="comma-separated discipline[/players][:opponent]")
    ap.add_argument("--workers", type=int, default=1, help="worker processes (ShardedVectorEnv) when > 1")
    ap.add_argument("--noise", default="none", choices=("none", "icga"), help="the envs' execution noise")
    ap.add_argument("--action-mode", default="box", choices=("box", "macro", "param"))
    args = ap.parse_args(argv)
    total = hashlib.sha256()
    for config in args.configs.split(","):
        d = run_digest(config, args.num_envs, args.steps, args.workers, args.noise, args.action_mode)
        total.update(d.encode())
        print(f"{config:24s} {d}", flush=True)
    print(f"{'all':24s} {total.hexdigest()}")


if __name__ == "__main__":
    main()
