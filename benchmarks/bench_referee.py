"""The batched referee against the referee table by table, on the shots a native vector env plays.

    python benchmarks/bench_referee.py [--discipline nine_ball eight_ball straight_pool]
                                       [--opponent geometric|none] [--num-envs 256] [--steps 40]
                                       [--repeat 8]

Seeded random Box actions are played in ``gym.make_vec(..., vectorization_mode=
"vector_entry_point")`` and every batch of shots the env hands its referee is kept (states,
actions, records with their batch's facts). The same batches are then ruled, interleaved,
``--repeat`` times each way:

* batched: ``DisciplineBase.adjudicate_batch`` (nine-ball, eight-ball, 14.1: the discipline's
  compiled call, then each table's state and verdict built in Python; its fallbacks ruled by
  the referee);
* table by table: ``adjudicate_validated`` of every shot (the reference).

Prints, per discipline, the shots and breaks in the batches, the CPU time of this thread
(other jobs share the cores, so CPU time, not wall time) per shot and per learner step
(``--num-envs`` x ``--steps`` of them) each way, the best of ``--repeat``, and the ratio. The
two give equal states and verdicts (``tests/rules/test_*_batch.py``, `poolgym.rules.testing.
ruled_both_ways`). The time per learner step is the referee's share of
``benchmarks/profile_env.py``'s "adjudicate" line.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

ENV_IDS = {"nine_ball": "poolgym/NineBall-v0", "eight_ball": "poolgym/EightBall-v0",
           "straight_pool": "poolgym/StraightPool-v0"}


def collect(discipline: str, opponent: str, num_envs: int, steps: int, seed: int = 1) -> list:
    """[(discipline object, states, actions, records)] of every batch the native vector env
    ruled in ``steps`` seeded random Box steps."""
    import gymnasium as gym

    import poolgym  # noqa: F401  (registers the env ids)
    from poolgym.rules.game import DisciplineBase

    batches = []
    cls = type(_discipline(discipline))
    own = "adjudicate_batch" in cls.__dict__
    real = cls.adjudicate_batch if own else DisciplineBase.adjudicate_batch

    def keep(self, states, actions, recs):
        batches.append((self, list(states), list(actions), list(recs)))
        return real(self, states, actions, recs)

    kw = {} if opponent == "geometric" else {"opponent": None}
    env = gym.make_vec(ENV_IDS[discipline], num_envs=num_envs, vectorization_mode="vector_entry_point",
                       num_workers=1, **kw)  # this process's referee is recorded
    setattr(cls, "adjudicate_batch", keep)
    try:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
    finally:
        if own:
            setattr(cls, "adjudicate_batch", real)
        else:
            delattr(cls, "adjudicate_batch")
        env.close()
    return batches


def _discipline(name: str):
    from poolgym.rules.game import get_discipline

    return get_discipline(name)


def bench(batches: list, repeat: int) -> tuple:
    """(batched, table by table) thread CPU seconds over all ``batches``, best of ``repeat``."""
    def batched():
        for d, s, a, r in batches:
            d.adjudicate_batch(s, a, r)

    def one_by_one():
        for d, s, a, r in batches:
            for st, act, rec in zip(s, a, r):
                d.adjudicate_validated(st, act, rec)

    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for i, f in enumerate((batched, one_by_one)):
            t0 = time.thread_time()
            f()
            best[i] = min(best[i], time.thread_time() - t0)
    return best[0], best[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--discipline", nargs="+", default=list(ENV_IDS), choices=list(ENV_IDS))
    ap.add_argument("--opponent", default="geometric", choices=("geometric", "none"))
    ap.add_argument("--num-envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=8)
    args = ap.parse_args(argv)
    learner_steps = args.num_envs * args.steps
    print(f"opponent={args.opponent}, N={args.num_envs}, {args.steps} steps; thread CPU, best of {args.repeat}")
    print(f"{'discipline':14s} {'shots':>7s} {'breaks':>7s} {'batched us/shot':>16s} {'one-by-one':>11s} "
          f"{'batched us/step':>16s} {'one-by-one':>11s} {'ratio':>6s}")
    for disc in args.discipline:
        batches = collect(disc, args.opponent, args.num_envs, args.steps)
        shots = sum(len(b[1]) for b in batches)
        breaks = sum(st.phase.value == "break" for b in batches for st in b[1])
        tb, ts = bench(batches, args.repeat)
        print(f"{disc:14s} {shots:7d} {breaks:7d} {tb * 1e6 / shots:16.2f} {ts * 1e6 / shots:11.2f} "
              f"{tb * 1e6 / learner_steps:16.2f} {ts * 1e6 / learner_steps:11.2f} {ts / tb:6.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
