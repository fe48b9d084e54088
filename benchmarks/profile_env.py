"""Where a native vector env step spends its CPU: time per learner step of each stage, in CPU
time of this thread (``time.thread_time``), so the split holds on a loaded machine too.

    python benchmarks/profile_env.py [--discipline nine_ball] [--opponent geometric|none]
                                     [--num-envs 256] [--steps 16] [--repeat 3] [--players N]
                                     [--noise icga] [--action-mode box|macro|param] [--worker-gc]

The env runs with ``physics={"overlap": False}`` (the kernel on this thread, so every
microsecond of the step is on one clock); with the overlap on, the kernel's time moves to its
worker thread and the rest is the same work. Each stage is timed by wrapping its function
(inclusive of what it calls; results are unchanged; the wrappers add about 1% of their own); the compiled kernels are listed as
their own lines: the physics (``physics.simulate_batch``), the geometric opponent's decisions
(``decide_tables``), the referee's batched shot facts (``shot_facts_batch``) and nine-ball's and eight-ball's
batched referees, 14.1's and the BCA games' batched analysis (``nine_ball_batch.outcomes``,
``eight_ball_batch.outcomes``, ``straight_pool_batch.outcomes``, ``games.bca_batch.outcomes``; "table by table" is
the referee's per-table path). The best of
``--repeat`` runs of the same seeded steps is printed, in microseconds per learner step and
as a share of the step, and the step's CPU outside ``physics.simulate_batch`` over its CPU
(issue 16's "outside/inside physics", <= 1 at N=256 self-play). The env runs its steps with
Python's cyclic garbage collector paused; the collections that then come between the steps are
printed on their own line (``--worker-gc``: with the collector set as a worker process of the
sharded env sets it, `poolgym.envs.workers.WORKER_GC_THRESHOLD`). Issue 16's bars ask the native
env for >= 15,000 steps/s with the opponent (<= 133 us of CPU per step on two cores) and
>= 25,000 self-play (<= 80 us).
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import time
from collections import Counter

import numpy as np

#: (module, attribute path, label): the stages timed, outermost first
STAGES = [
    ("poolgym.envs.vector", "PoolVectorEnv.step", "step (all)"),
    ("poolgym.envs.vector", "PoolVectorEnv._step_prepare", "  decode + check learner actions"),
    ("poolgym.envs.vector", "PoolVectorEnv._decode_all", "    Box decoding (cue placements)"),
    ("poolgym.envs.pool_env", "PoolEnv._step_commit", "  commit learner actions"),
    ("poolgym.envs.pool_env", "PoolEnv._reset_begin", "  autoresets"),
    ("poolgym.envs.vector", "PoolVectorEnv._opponent_round", "  opponent rounds"),
    ("poolgym.envs.opponents", "GeometricOpponent.decide_batch", "    geometric decisions"),
    ("poolgym.players.kernels", "decide_tables", "      decide_tables kernel"),
    ("poolgym.envs.session", "Session.opponent_act", "    apply opponent decisions"),
    ("poolgym.rules.game", "batch_physics_inputs", "  physics inputs"),
    ("physics", "simulate_batch", "  physics.simulate_batch"),
    ("poolgym.envs.physics_io", "_records", "  shot records + batched facts"),
    ("poolgym.rules.shot_facts", "shot_facts_batch", "    shot_facts_batch kernel"),
    ("poolgym.envs.session", "Session.resolve_all", "  referee (resolve)"),
    ("poolgym.rules.game", "DisciplineBase.adjudicate_batch", "    adjudicate"),
    ("poolgym.rules.nine_ball", "NineBall.adjudicate_batch", "    adjudicate"),
    ("poolgym.rules.nine_ball_batch", "outcomes", "      nine-ball outcomes kernel"),
    ("poolgym.rules.eight_ball", "EightBall.adjudicate_batch", "    adjudicate"),
    ("poolgym.rules.eight_ball_batch", "outcomes", "      eight-ball outcomes kernel"),
    ("poolgym.rules.straight_pool", "StraightPool.adjudicate_batch", "    adjudicate"),
    ("poolgym.rules.straight_pool_batch", "outcomes", "      14.1 outcomes kernel"),
    ("poolgym.rules.games.bca", "BCAGame.adjudicate_batch", "    adjudicate"),
    ("poolgym.rules.games.bca_batch", "outcomes", "      BCA analysis kernel"),
    ("poolgym.rules.game", "DisciplineBase._adjudicate", "      table by table"),
    ("poolgym.envs.vector", "PoolVectorEnv._encode", "  observations"),
    ("poolgym.envs.session", "Session.finish_step", "  finish (rewards, flags)"),
    ("poolgym.envs.vector", "PoolVectorEnv._infos", "  infos"),
]


_DEPTHS: dict = {}
#: the CPU of Python's cyclic garbage collections while the steps are timed (between steps)
GC_LABEL = "cyclic GC (between steps)"


def _wrap(acc: Counter, module: str, path: str, label: str) -> None:
    """Replace ``module.path`` by a wrapper adding its CPU time to ``acc[label]`` (the outer
    call only, when the function recurses or calls another function of the same label)."""
    obj = importlib.import_module(module)
    *owners, name = path.split(".")
    for o in owners:
        obj = getattr(obj, o)
    f = getattr(obj, name)
    depth = _DEPTHS.setdefault(label, [0])

    @functools.wraps(f)
    def timed(*a, **k):
        if depth[0]:
            return f(*a, **k)
        depth[0] += 1
        t0 = time.thread_time()
        try:
            return f(*a, **k)
        finally:
            acc[label] += time.thread_time() - t0
            depth[0] -= 1

    for attr in ("compile", "signatures", "py_func"):   # a compiled kernel stays compilable
        if hasattr(f, attr):
            setattr(timed, attr, getattr(f, attr))
    setattr(obj, name, timed)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--discipline", default="nine_ball")
    ap.add_argument("--opponent", default="geometric", help="geometric, random or none (self-play)")
    ap.add_argument("--num-envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=16, help="timed steps per run (after 3 warm-up steps)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--players", type=int, default=None, help="seats of an N-seat game (e.g. card_ball: 6)")
    ap.add_argument("--noise", default="none", choices=("none", "icga"), help="the env's execution noise")
    ap.add_argument("--action-mode", default="box", choices=("box", "macro", "param"),
                    help="macro: uniform indices, masked ones substituted (illegal_macro='substitute')")
    ap.add_argument("--worker-gc", action="store_true",
                    help="this process's garbage collector set as a worker process sets it "
                         "(poolgym.envs.workers.WORKER_GC_THRESHOLD)")
    args = ap.parse_args(argv)

    acc: Counter = Counter()
    for module, path, label in STAGES:
        _wrap(acc, module, path, label)
    from poolgym.envs.vector import PoolVectorEnv

    N = args.num_envs
    seats = {} if args.players is None else {"players": args.players}
    env = PoolVectorEnv(args.discipline, num_envs=N, opponent=None if args.opponent == "none" else args.opponent,
                        physics={"overlap": False}, noise=args.noise, action_mode=args.action_mode, **seats)
    if args.worker_gc:
        from poolgym.envs.workers import _tune_gc

        _tune_gc()
    gc_t = [0.0, None]  # CPU in cyclic collections while timing; a collection's start

    def on_gc(phase, _info):
        if phase == "start":
            gc_t[1] = time.thread_time()
        elif gc_t[1] is not None:
            acc[GC_LABEL] += time.thread_time() - gc_t[1]
            gc_t[1] = None

    gc.callbacks.append(on_gc)
    rng = np.random.default_rng(0)
    space = env.single_action_space
    if args.action_mode == "macro":
        acts = [rng.integers(0, space.n, N) for _ in range(args.steps + 3)]
    else:
        acts = [rng.uniform(-1, 1, (N,) + space.shape).astype(np.float32) for _ in range(args.steps + 3)]
    best = None
    for _ in range(args.repeat):
        env.reset(seed=0)
        for a in acts[:3]:
            env.step(a)
        acc.clear()
        for a in acts[3:]:
            env.step(a)
        if best is None or acc["step (all)"] < best["step (all)"]:
            best = Counter(acc)
    env.close()
    gc.callbacks.remove(on_gc)
    per = 1e6 / (args.steps * N)
    total = best["step (all)"]
    print(f"{args.discipline}{'' if args.players is None else f'/{args.players}'}, opponent={args.opponent}, "
          f"noise={args.noise}, actions={args.action_mode}, N={N}, {args.steps} steps, best of {args.repeat}: "
          f"CPU per learner step (inclusive), share of the step")
    for label in dict.fromkeys(lbl for _, _, lbl in STAGES):
        if label in best:
            print(f"{label:40s} {best[label] * per:8.1f} us  {100 * best[label] / total:5.1f}%")
    kernels = sum(best[k] for k in best if k.strip() in ("physics.simulate_batch", "decide_tables kernel",
                                                         "shot_facts_batch kernel",
                                                         "nine-ball outcomes kernel", "eight-ball outcomes kernel",
                                                         "14.1 outcomes kernel"))
    print(f"{'Python outside the compiled kernels':40s} {(total - kernels) * per:8.1f} us  "
          f"{100 * (total - kernels) / total:5.1f}%")
    phys = best["  physics.simulate_batch"]
    if phys > 0:  # issue 16's "outside/inside physics": the step's CPU outside physics.simulate_batch over it
        print(f"{'outside/inside physics':40s} {(total - phys) / phys:8.2f}     (step - physics.simulate_batch) / "
              f"physics.simulate_batch")
    # the env runs its steps with the collector paused: collections come between steps
    print(f"{GC_LABEL:40s} {best[GC_LABEL] * per:8.1f} us  {100 * best[GC_LABEL] / (total + best[GC_LABEL]):5.1f}% "
          f"of step + collections")
    with open("/proc/loadavg") as fh:
        print("load average:", " ".join(fh.read().split()[:3]))


if __name__ == "__main__":
    main()
