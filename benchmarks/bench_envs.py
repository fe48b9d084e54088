"""Env throughput (nine-ball by default): single env, SyncVectorEnv of single envs, native vector env.

    python benchmarks/bench_envs.py [--steps 3000] [--sizes 64 256] [--opponent none geometric] [--repeat 3] [--discipline nine_ball] [--workers W] [--noise icga]
    python benchmarks/bench_envs.py --scaling 1024 [--steps 20480] [--repeat 2] [--workers 2]
    python benchmarks/bench_envs.py --phases 256 --opponent geometric [--steps 51200] [--workers 2]
    python benchmarks/bench_envs.py --seated card_ball --players 6 --sizes 256 [--reference eight_ball]

Two configurations, in one run (``--opponent`` lists them, the first is the headline):

* ``none`` -- self-play (the learner plays every seat): one env step = one shot = one batched
  physics call for all tables per step. This is the issue's "one step = one shot" and the
  headline figure.
* ``geometric`` -- the default single-agent env: the built-in opponent's shots are played
  inside the learner's step (about 1.6 shots and 2-3 batched physics calls per step).

One env step = one decision of the learner (a shot with its placement, or an option);
all shots (incl. the opponent's) are counted as "shots". Actions are uniform random Box actions
from a fixed seed (random play fouls on most shots, so most steps also place the cue ball in
hand). Prints steps/s (wall clock and per CPU-second of this process: other jobs share the
cores), the ratio native / SyncVectorEnv at each N, and the native env's time split: physics
(the batched kernel's own time), adjudication (rules over the shot records), actions
(validating and applying actions: cue-ball placement checks, shot inputs), opponent (choosing
its actions), observation building and the rest (decoding, bookkeeping, resets). Also times an
`rgb_array` frame.

Seated games (``--seated pea_pool --players 6``): the native vector env of an N-seat game
against nine-ball's in the same run, self-play (one step = one shot in both, so the figure
compares the per-shot cost of the seat layer: views, the seat block, per-seat results),
runs interleaved, best of ``--repeat``; prints steps/s of each, shots/s and the ratio
(bar, issue 14: the seated game within 20% of nine-ball, ratio >= 0.8). ``--reference
eight_ball`` also prints the ratio against eight-ball, a 15-ball rack like the BCA games'
(nine-ball's rack has nine: the physics of a 16-ball table costs about twice as much per
shot, which the seat layer cannot win back).

Bars (issue 16), native N=256 on 2 cores: the default env (geometric opponent) >= 15,000
steps/s and >= 5x SyncVectorEnv; self-play >= 25,000 steps/s; outside/inside physics <= 1; the
1 -> 2 core scaling >= 1.7x at N >= 1024 (``--scaling``). rgb_array frame < 2 ms.

Workers (``--workers W``): the native env's tables sharded over W processes
(`poolgym.envs.workers.ShardedVectorEnv`, ``num_workers``); the split and the CPU are summed
over the workers, and each worker runs the physics kernel on its own thread (the library's
default for workers; ``--worker-overlap`` overlaps it in each worker as in one process).
``--scaling N``: only the 1 -> 2 core scaling at N tables (`run_scaling`:
one process pinned to one CPU against ``--workers`` processes, default 2, pinned to two),
with steps per CPU-second and outside/inside physics (CPU outside the kernel over the
kernel's) of each.

Overlap (`PhysicsModels.overlap`, on by default; ``--no-overlap`` turns it off): the native env
runs the kernel on a worker thread while this thread referees finished tables and resets ended
episodes. "outside/inside" is then the step's wall time not covered by the running kernel over
the kernel's time (its worker thread's CPU time); refereeing that runs concurrently with the
kernel is not "outside". For the full picture the CPU split is printed too: this (main)
thread's CPU time, which is all the Python, against the kernel's.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

#: the discipline benchmarked (``--discipline``; the bars are defined on nine-ball)
DISCIPLINE = ["nine_ball"]


def _actions(space, n, rng):
    return rng.uniform(-1, 1, (n,) + space.shape).astype(np.float32)


def bench_single(steps, kwargs):
    from poolgym.envs.pool_env import PoolEnv

    env = PoolEnv(DISCIPLINE[0], **kwargs)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    env.timer.reset()
    t0 = time.perf_counter()
    n = 0
    while n < steps:
        _, _, term, trunc, _ = env.step(_actions(env.action_space, 1, rng)[0])
        n += 1
        if term or trunc:
            env.reset()
    dt = time.perf_counter() - t0
    return n / dt, env.timer


def bench_sync(N, steps, kwargs):
    import gymnasium as gym

    from poolgym.envs.pool_env import PoolEnv

    venv = gym.vector.SyncVectorEnv([lambda: PoolEnv(DISCIPLINE[0], **kwargs) for _ in range(N)])
    rng = np.random.default_rng(0)
    venv.reset(seed=0)
    t0, c0 = time.perf_counter(), time.process_time()
    n = 0
    while n < steps:
        venv.step(_actions(venv.single_action_space, N, rng))
        n += N
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    venv.close()
    return n / dt, n / cpu


def bench_native(N, steps, kwargs, workers=1):
    """(steps/s, wall s, timer, steps per CPU-second) of the native vector env; ``workers`` >
    1: sharded over that many processes (`ShardedVectorEnv`), the timer and CPU summed over
    the workers (``main_cpu`` = the workers' CPU time outside the physics kernel's thread)."""
    from poolgym.envs.physics_io import Timer
    from poolgym.envs.vector import PoolVectorEnv
    from poolgym.envs.workers import ShardedVectorEnv

    if workers > 1:
        venv = ShardedVectorEnv(DISCIPLINE[0], num_envs=N, num_workers=workers, **kwargs)
    else:
        venv = PoolVectorEnv(DISCIPLINE[0], num_envs=N, **kwargs)
    rng = np.random.default_rng(0)
    venv.reset(seed=0)
    if workers > 1:
        before = venv.worker_stats()
    else:
        venv.timer.reset()
    t0, c0, m0 = time.perf_counter(), time.process_time(), time.thread_time()
    n = 0
    while n < steps:
        venv.step(_actions(venv.single_action_space, N, rng))
        n += N
    dt, cpu, main = time.perf_counter() - t0, time.process_time() - c0, time.thread_time() - m0
    if workers > 1:
        after = venv.worker_stats()
        tm = Timer()
        for (t_a, c_a), (t_b, c_b) in zip(after, before):
            for f in ("physics", "rules", "actions", "obs", "other", "calls", "shots", "overlapped"):
                setattr(tm, f, getattr(tm, f) + getattr(t_a, f) - getattr(t_b, f))
            cpu += c_a - c_b
        main = cpu - tm.physics
        venv.close()
    else:
        tm = venv.timer
    tm.main_cpu = main
    return n / dt, dt, tm, n / cpu


def bench_cores(N, steps, cores, workers, kwargs, discipline="nine_ball"):
    """(steps/s, steps per CPU-second, outside/inside) of the native env of N tables run on
    ``cores`` CPUs (this process's affinity, inherited by its worker processes) with
    ``workers`` worker processes (1: `PoolVectorEnv` in this process). CPU = this process
    plus its workers; outside/inside = that CPU outside the physics kernel over the kernel's
    (NaN without the overlap: the kernel's own CPU time is not measured then)."""
    import os

    from poolgym.envs.vector import PoolVectorEnv
    from poolgym.envs.workers import ShardedVectorEnv

    avail = sorted(os.sched_getaffinity(0))
    if cores > len(avail):
        raise SystemExit(f"--scaling needs {cores} CPUs, this process may use {len(avail)}")

    def pin(cpus):
        # every thread of this process (the physics' worker thread and numba's pool were
        # started before); threads and processes started later inherit it
        for tid in os.listdir("/proc/self/task"):
            try:
                os.sched_setaffinity(int(tid), cpus)
            except OSError:  # a thread that ended meanwhile
                pass

    pin(avail[:cores])
    try:
        if workers == 1:
            venv = PoolVectorEnv(discipline, num_envs=N, **kwargs)
        else:
            venv = ShardedVectorEnv(discipline, num_envs=N, num_workers=workers, **kwargs)
        try:
            rng = np.random.default_rng(0)
            venv.reset(seed=0)
            for _ in range(3):
                venv.step(_actions(venv.single_action_space, N, rng))

            def cpu_phys():
                # (CPU s, physics kernel CPU s or NaN: the kernel's own CPU time is measured
                # when every batched call ran overlapped, else the timer holds wall time)
                if workers == 1:
                    tm = venv.timer
                    return time.process_time(), tm.physics if tm.overlapped == tm.calls else float("nan")
                st = venv.worker_stats()
                ok = all(t.overlapped == t.calls for t, _ in st)
                return (time.process_time() + sum(c for _, c in st),
                        sum(t.physics for t, _ in st) if ok else float("nan"))

            c0, p0 = cpu_phys()
            t0 = time.perf_counter()
            n = 0
            while n < steps:
                venv.step(_actions(venv.single_action_space, N, rng))
                n += N
            dt = time.perf_counter() - t0
            c1, p1 = cpu_phys()
        finally:
            venv.close()
    finally:
        pin(avail)
    cpu, phys = c1 - c0, p1 - p0
    return n / dt, n / cpu, (cpu - phys) / max(phys, 1e-9)


def run_phases(args) -> None:
    """Where a sharded step's wall time goes (``--phases N``): N tables over ``--workers``
    processes (default 2), each with its default physics (the kernel on its own thread), the
    first ``--opponent``; after 20 warm-up steps, ``--steps`` learner steps driven phase by
    phase through the workers' pipes (`ShardedVectorEnv.step`'s two phases: every worker
    checks and plans its slice, then every worker runs it). Printed: the mean time per step
    until the first and until the last worker answers each phase, and the share of the run
    phase the others spend waiting for the last (the workers' idle time)."""
    from multiprocessing.connection import wait

    from poolgym.envs.workers import ShardedVectorEnv

    N, W = args.phases, 2 if args.workers == "auto" else max(2, args.workers)
    opp = args.opponent[0]
    venv = ShardedVectorEnv(DISCIPLINE[0], num_envs=N, num_workers=W, opponent=None if opp == "none" else opp,
                            max_shots=args.max_shots)
    try:
        rng = np.random.default_rng(0)
        venv.reset(seed=0)
        for _ in range(20):
            venv.step(_actions(venv.single_action_space, N, rng))
        steps = max(1, args.steps // N)
        times = {"prepare": [], "run": []}
        t_all = time.perf_counter()
        for _ in range(steps):
            venv._act[...] = _actions(venv.single_action_space, N, rng)
            for phase in ("prepare", "run"):
                t0 = time.perf_counter()
                for c in venv._conns:
                    c.send((phase, None))
                pending, done = list(venv._conns), []
                while pending:
                    for c in wait(pending):
                        status, val = c.recv()
                        if status != "ok":
                            raise RuntimeError(f"a worker refused the {phase} phase: {val}")
                        done.append(time.perf_counter() - t0)
                        pending.remove(c)
                times[phase].append((min(done), max(done)))
        wall = time.perf_counter() - t_all
    finally:
        venv.close()
    print(f"{DISCIPLINE[0]}, opponent={opp}, N={N} over {W} workers, {steps} steps: "
          f"{steps * N / wall:.0f} steps/s")
    for phase, rows in times.items():
        a = np.array(rows) * 1e3
        print(f"  {phase:8s}: first worker done {a[:, 0].mean():6.3f} ms, last {a[:, 1].mean():6.3f} ms per step")
    run = np.array(times["run"])
    print(f"  the others wait for the last worker {(run[:, 1] - run[:, 0]).sum() / run[:, 1].sum():.3f} of the run phase")


def run_scaling(args) -> float:
    """The whole env's 1 -> 2 core scaling (issue 16, item 4): native vector env, N =
    ``--scaling`` tables, self-play unless ``--opponent`` says otherwise. 1 core: one process
    (`PoolVectorEnv`, kernel on its own thread) pinned to one CPU; 2 cores: ``--workers``
    processes (default 2) pinned to two CPUs. Runs interleaved, best of ``--repeat``. Returns the ratio."""
    N = args.scaling
    opp = args.opponent[0]
    kwargs = {"opponent": None if opp == "none" else opp, "max_shots": args.max_shots,
              "physics": {"parallel": args.parallel}}
    # one core: the kernel on the calling thread (an overlap thread only competes for the
    # core); the workers: their default (`poolgym.envs.workers.without_overlap`) unless
    # --no-overlap
    one_kw = dict(kwargs, physics=dict(kwargs["physics"], overlap=False))
    two_kw = one_kw if args.no_overlap else kwargs
    W = args.workers if args.workers != "auto" and args.workers > 1 else 2
    one, two = [], []
    for _ in range(args.repeat):
        one.append(bench_cores(N, args.steps, 1, 1, one_kw, args.discipline))
        two.append(bench_cores(N, args.steps, 2, W, two_kw, args.discipline))
    a, b = max(one), max(two)
    ratio = b[0] / a[0]
    print(f"--- scaling: {args.discipline}, native vector N={N}, opponent={opp}, best of {args.repeat}")
    # cores obtained = wall throughput / per-CPU-second throughput: below 1 (2) the machine's
    # other jobs took the rest, and the wall-clock scaling understates the env's own
    print(f"1 core , 1 process  : {a[0]:9.0f} steps/s ({a[1]:7.0f} per CPU-second, {a[0] / a[1]:4.2f} cores "
          f"obtained; outside/inside physics {a[2]:4.2f})")
    print(f"2 cores, {W} workers : {b[0]:9.0f} steps/s ({b[1]:7.0f} per CPU-second, {b[0] / b[1]:4.2f} cores "
          f"obtained; outside/inside physics {b[2]:4.2f})")
    print(f"scaling 1 -> 2 cores = {ratio:4.2f}x (bar >= 1.7: {'PASS' if ratio >= 1.7 else 'FAIL'}); "
          f"per CPU-second 2 cores / 1 core = {b[1] / a[1]:4.2f} (1.00 = no overhead from sharding)")
    return ratio


def bench_native_of(discipline, N, steps, kwargs):
    """`bench_native` of another discipline (the seated comparison)."""
    old = DISCIPLINE[0]
    DISCIPLINE[0] = discipline
    try:
        return bench_native(N, steps, kwargs)
    finally:
        DISCIPLINE[0] = old


def run_seated(args) -> float:
    """Steps/s of ``args.seated`` with ``args.players`` seats vs nine-ball (and any other
    ``--reference`` WPA game, e.g. eight_ball: a 15-ball rack like the BCA games'), native
    vector env at the largest ``--sizes`` N, self-play, runs interleaved, best of
    ``--repeat``; returns the ratio seated / nine-ball (the bar)."""
    N = args.sizes[-1]
    base = {"opponent": None, "max_shots": args.max_shots,
            "physics": {"parallel": args.parallel, "overlap": not args.no_overlap}}
    seated = dict(base, players=args.players)
    refs = ["nine_ball"] + [r for r in args.reference if r != "nine_ball"]
    bench_native_of(args.seated, 8, 16, seated)  # warm-up
    for r in refs[1:]:
        bench_native_of(r, 8, 16, base)
    runs = {r: [] for r in refs}
    seats = []
    for _ in range(args.repeat):
        for r in refs:
            runs[r].append(bench_native_of(r, N, args.steps, base))
        seats.append(bench_native_of(args.seated, N, args.steps, seated))
    best = {r: max(v, key=lambda x: x[0]) for r, v in runs.items()}
    seat = max(seats, key=lambda r: r[0])
    ratio = seat[0] / best["nine_ball"][0]
    print(f"--- seated: {args.seated} with {args.players} seats vs {', '.join(refs)}, native vector N={N}, self-play")
    for name, (sps, dt, tm, cpu) in list(best.items()) + [(f"{args.seated}/{args.players}", seat)]:
        print(f"{name:14s}: {sps:9.0f} steps/s ({cpu:7.0f} per CPU-second; {tm.shots / dt:7.0f} shots/s)  "
              f"split: physics {tm.physics:5.2f}s adjudication {tm.rules:5.2f}s actions {tm.actions:5.2f}s "
              f"obs {tm.obs:5.2f}s")
    for r in refs[1:]:
        print(f"ratio {args.seated}/{args.players} : {r} = {seat[0] / best[r][0]:.2f}  (for information)")
    print(f"ratio {args.seated}/{args.players} : nine_ball = {ratio:.2f}  "
          f"(bar >= 0.80: {'PASS' if ratio >= 0.8 else 'FAIL'})")
    return ratio


def bench_render(frames=500):
    from poolgym.envs.pool_env import PoolEnv

    env = PoolEnv("nine_ball", render_mode="rgb_array")
    env.reset(seed=0)
    env.render()
    t0 = time.perf_counter()
    for _ in range(frames):
        f = env.render()
    return (time.perf_counter() - t0) / frames * 1e3, f.shape


def run_config(opponent, args):
    """Print the figures of one opponent configuration; returns (native, sync, outside, physics)
    of the last size."""
    kwargs = {"opponent": None if opponent == "none" else opponent, "max_shots": args.max_shots,
              "physics": {"parallel": args.parallel, "overlap": not args.no_overlap}, "noise": args.noise}
    # sharded: each worker its default (`poolgym.envs.workers.without_overlap`: the kernel on the
    # worker's own thread) unless --worker-overlap
    from poolgym.envs.disciplines import pipelines
    from poolgym.envs.workers import resolve_num_workers

    label = "self-play, one shot per step" if opponent == "none" else f"opponent={opponent}"
    print(f"--- {label}")
    sps, tm = bench_single(max(args.steps // 5, 200), kwargs)
    print(f"single env            : {sps:9.0f} steps/s  ({tm.shots} shots incl. opponent)")
    for N in args.sizes:
        # best of --repeat runs (timeit's convention: other jobs only ever slow a run down),
        # Sync and native interleaved so that both meet the same load
        # "auto": as gymnasium.make_vec would shard N tables
        W = resolve_num_workers(args.workers, N, lambda: pipelines(args.discipline, **kwargs))
        wkwargs = kwargs if W == 1 or args.worker_overlap else dict(kwargs, physics={"parallel": args.parallel})
        syncs, nats = [], []
        for _ in range(args.repeat):
            syncs.append(bench_sync(N, args.steps, kwargs))
            nats.append(bench_native(N, args.steps, wkwargs, W))
        sync, sync_cpu = max(syncs)
        nat, dt, tm, nat_cpu = max(nats, key=lambda r: r[0])
        outside = dt - tm.physics
        # the main thread's other work (decoding, bookkeeping, resets); with the overlap the
        # physics runs on another thread, so this is taken from the main thread's CPU time
        rest = (tm.main_cpu if tm.overlapped else dt - tm.physics) - tm.rules - tm.actions - tm.other - tm.obs
        print(f"SyncVectorEnv N={N:<4d}  : {sync:9.0f} steps/s  ({sync_cpu:7.0f} per CPU-second)")
        print(f"native vector N={N:<4d}: {nat:9.0f} steps/s  = {nat / sync:4.1f}x Sync  "
              f"({nat_cpu:7.0f} per CPU-second; {tm.shots / dt:7.0f} shots/s, {tm.calls} batched calls; "
              f"{W} process{'es' if W > 1 else ''}{' (--workers auto)' if args.workers == 'auto' else ''})")
        if W > 1:
            # the workers' timers are summed: per-process wall-clock splits do not add up to
            # this run's wall clock; the CPU split is meaningful when the kernel's CPU time is
            # measured (every call overlapped)
            if tm.overlapped == tm.calls:
                outside = tm.main_cpu  # CPU outside the kernel (the bar line divides by its CPU)
                print(f"   CPU of {W} workers: outside the kernel {tm.main_cpu:5.2f}s, physics kernel "
                      f"{tm.physics:5.2f}s (outside/inside physics = {tm.main_cpu / max(tm.physics, 1e-9):4.2f}); "
                      f"wall {dt:5.2f}s")
            elif tm.overlapped == 0:
                # the kernel runs on each worker's own thread: its timer (wall around the call)
                # is its CPU time while the worker holds its core
                outside = tm.main_cpu
                print(f"   CPU of {W} workers: outside the kernel {tm.main_cpu:5.2f}s, physics kernel "
                      f"{tm.physics:5.2f}s (outside/inside physics = {tm.main_cpu / max(tm.physics, 1e-9):4.2f}, "
                      f"kernel timed by the clock on the workers' threads); wall {dt:5.2f}s")
            else:
                outside = float("nan")
                print(f"   CPU of {W} workers: {tm.main_cpu + tm.physics:5.2f}s (the kernel's own CPU time is "
                      f"measured when every call is overlapped or none is); wall {dt:5.2f}s")
            continue
        print(f"   split: physics {tm.physics:5.2f}s  adjudication {tm.rules:5.2f}s  actions {tm.actions:5.2f}s  "
              f"opponent {tm.other:5.2f}s  obs {tm.obs:5.2f}s  rest {rest:5.2f}s  "
              f"| outside/inside physics = {outside / max(tm.physics, 1e-9):4.2f}")
        print(f"   CPU: main thread (all Python) {tm.main_cpu:5.2f}s, physics kernel {tm.physics:5.2f}s "
              f"(ratio {tm.main_cpu / max(tm.physics, 1e-9):4.2f}); {tm.overlapped}/{tm.calls} batched calls "
              f"overlapped; wall {dt:5.2f}s")
    return nat, sync, outside, tm.physics


def _workers_arg(text: str):
    """``--workers``: a positive int or ``auto``."""
    if text == "auto":
        return text
    w = int(text)
    if w < 1:
        raise argparse.ArgumentTypeError(f"--workers must be >= 1 or 'auto', got {text}")
    return w


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=3000, help="learner steps per configuration")
    ap.add_argument("--worker-overlap", action="store_true",
                    help="with --workers: each worker overlaps its kernel too (by default a worker runs it "
                         "on its own thread, poolgym.envs.workers.without_overlap)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[64, 256])
    ap.add_argument("--opponent", nargs="+", default=["none", "geometric"],
                    help="configurations: 'none' (self-play), 'geometric', 'random'; the first is the headline")
    ap.add_argument("--max-shots", type=int, default=100)
    ap.add_argument("--noise", default="none", choices=("none", "icga"),
                    help="the envs' execution noise (the bars are defined without; ICGA is the research setting)")
    ap.add_argument("--discipline", default="nine_ball", choices=("nine_ball", "eight_ball", "straight_pool"),
                    help="the bars are defined on nine-ball; the others are for information")
    ap.add_argument("--parallel", action="store_true", help="numba-parallel batched physics")
    ap.add_argument("--no-overlap", action="store_true",
                    help="run the physics kernel on this thread (PhysicsModels.overlap=False)")
    ap.add_argument("--repeat", type=int, default=3, help="vector-env runs per size; the best is reported")
    ap.add_argument("--workers", type=_workers_arg, default=1,
                    help="native env sharded over this many worker processes (num_workers), or 'auto' (what "
                         "gymnasium.make_vec does by default: poolgym.envs.workers.resolve_num_workers); with "
                         "--scaling and --phases: the processes of the 2-core run (default 2)")
    ap.add_argument("--scaling", type=int, default=None, metavar="N",
                    help="only measure the 1 -> 2 core scaling of the native env at N tables (see run_scaling)")
    ap.add_argument("--phases", type=int, default=None, metavar="N",
                    help="only time the two phases of a sharded step at N tables (see run_phases)")
    ap.add_argument("--seated", default=None,
                    help="only compare this N-seat discipline (e.g. pea_pool) with nine-ball (see module doc)")
    ap.add_argument("--players", type=int, default=6, help="seats of the --seated game")
    ap.add_argument("--reference", nargs="+", default=["nine_ball"],
                    help="with --seated: games to compare with besides nine_ball (e.g. eight_ball, 16 balls)")
    args = ap.parse_args(argv)
    if args.seated is not None:
        run_seated(args)
        return
    if args.phases is not None:
        DISCIPLINE[0] = args.discipline
        run_phases(args)
        return
    if args.scaling is not None:
        DISCIPLINE[0] = args.discipline
        bench_native(8, 16, {"opponent": None, "max_shots": args.max_shots})  # warm-up
        run_scaling(args)
        return
    DISCIPLINE[0] = args.discipline
    import numba

    print(f"{args.discipline}, numba threads={numba.get_num_threads()}, parallel physics={args.parallel}, "
          f"overlap={not args.no_overlap}, "
          f"{args.steps} learner steps per configuration, best of {args.repeat}")
    # warm-up (numba compile / cache load)
    bench_native(8, 16, {"opponent": "geometric", "max_shots": args.max_shots})
    results = {opp: run_config(opp, args) for opp in args.opponent}
    ms, shape = bench_render()
    print(f"rgb_array frame {shape}: {ms:.3f} ms")
    N = args.sizes[-1]
    for i, (opp, (nat, sync, outside, phys)) in enumerate(results.items()):
        tag = "headline" if i == 0 else "also"
        # Issue 16: the default env (geometric opponent) >= 15,000 steps/s and >= 5x Sync,
        # self-play >= 25,000 steps/s; outside/inside physics <= 1 for both.
        floor = 15000 if opp == "geometric" else 25000
        sync_bar = (f"; >= 5x Sync: {'PASS' if nat >= 5 * sync else 'FAIL'} ({nat / sync:.1f}x)"
                    if opp == "geometric" else f"; {nat / sync:.1f}x Sync")
        print(f"bars at N={N} ({tag}: opponent={opp}): >= {floor} steps/s: "
              f"{'PASS' if nat >= floor else 'FAIL'} ({nat:.0f}){sync_bar}; "
              f"outside <= inside physics: {'PASS' if outside <= phys else 'FAIL'} "
              f"({outside / max(phys, 1e-9):.2f})")
    print(f"frame < 2 ms: {'PASS' if ms < 2 else 'FAIL'}")
    try:
        import os

        print(f"load average during the run: {os.getloadavg()} on {os.cpu_count()} cores")
    except OSError:
        pass


if __name__ == "__main__":
    main()
