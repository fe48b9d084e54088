"""The geometric opponent's decisions: one batched call for many tables against one call per table.

    python benchmarks/bench_opponent.py [--tables 400] [--repeat 3] [--discipline nine_ball eight_ball straight_pool]

Positions are collected from seeded random self-play (random Box actions foul often, so most
positions are ball in hand, as in the default env's opponent turns); for each discipline the
same positions are decided by ``GeometricOpponent.decide_batch`` (one compiled kernel call per
round, `poolgym.players.batch.decide_all`) and by one ``GeometricOpponent`` call per table,
each table with its own seeded generator, interleaved, best of ``--repeat``. Prints the CPU
time of this thread per table (other jobs share the cores, so CPU time, not wall time) and the
share of the compiled kernel in the batched call. The two give the same actions (tested in
``tests/envs/test_opponent_oracle.py``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def positions(discipline: str, n: int, seed: int = 3) -> list:
    """(state, spec) pairs with a seat to act, from seeded random self-play."""
    from poolgym.envs.pool_env import PoolEnv
    from poolgym.rules.core import Phase

    env = PoolEnv(discipline, opponent=None, max_shots=30)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    out = []
    while len(out) < n:
        s = env.session
        if s.spec is not None and s.state.phase is not Phase.GAME_OVER:
            out.append((s.state, s.spec))
        _, _, term, trunc, _ = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        if term or trunc:
            env.reset()
    return out


def bench(discipline: str, n: int, repeat: int) -> tuple:
    """(batched, one-table, kernel) thread CPU seconds per table, best of ``repeat``."""
    from poolgym.envs.opponents import GeometricOpponent

    try:
        import poolgym.players.kernels as kernels
    except ImportError:  # a checkout from before the compiled decisions: no kernel share
        kernels = None

    pairs = positions(discipline, n)
    states, specs = [p[0] for p in pairs], [p[1] for p in pairs]
    opp = GeometricOpponent()
    opp.decide_batch(states[:40], specs[:40], [np.random.default_rng(k) for k in range(40)])  # compile / load
    kernel = [0.0]
    run = kernels.decide_tables if kernels is not None else None

    def timed(*args):
        t0 = time.thread_time()
        run(*args)
        kernel[0] += time.thread_time() - t0

    batched, single, in_kernel = [], [], []
    for _ in range(repeat):
        kernel[0] = 0.0
        if kernels is not None:
            kernels.decide_tables = timed
        try:
            t0 = time.thread_time()
            opp.decide_batch(states, specs, [np.random.default_rng(k) for k in range(n)])
            batched.append((time.thread_time() - t0) / n)
        finally:
            if kernels is not None:
                kernels.decide_tables = run
        in_kernel.append(kernel[0] / n)
        t0 = time.thread_time()
        for k, (st, sp) in enumerate(pairs):
            opp(st, sp, np.random.default_rng(k))
        single.append((time.thread_time() - t0) / n)
    best = int(np.argmin(batched))
    return batched[best], min(single), in_kernel[best]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=400, help="positions per discipline")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--discipline", nargs="+", default=["nine_ball", "eight_ball", "straight_pool"])
    args = ap.parse_args(argv)
    for d in args.discipline:
        b, s, k = bench(d, args.tables, args.repeat)
        print(f"{d:14s}: batched {b * 1e6:7.1f} us/table (kernel {k * 1e6:6.1f}), one call per table "
              f"{s * 1e6:7.1f} us/table: {s / b:4.1f}x  (thread CPU, {args.tables} positions)")


if __name__ == "__main__":
    main()
