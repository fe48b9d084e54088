"""Agent quality benchmarks (issue bars), printed and optionally written as JSON.

1. Nine-ball, eight-ball and 14.1 (to `STRAIGHT_POOL_POINTS` points), ICGA execution noise,
   `--games` games per pairing (default 200, seats alternate):
   geometric vs random (bar: geometric wins >= 95%) and search vs geometric (bar: >= 65%).
2. PotDrill: the shipped training configuration (`experiments/configs/demo.toml` [training],
   with `--potdrill-steps` timesteps) trained on this machine, then the deterministic policy on
   1,000 seeded test positions (bar: >= 60% pocketed, training <= 10 minutes).

Usage::

    python benchmarks/bench_agents.py [--games 200] [--quick] [--only nine_ball,potdrill]
                                      [--workers 2] [--json OUT.json]

Each line reports wins / games, the Wilson 95% interval, the bar and PASS/FAIL.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

STRAIGHT_POOL_POINTS = 25
MATCHUPS = (("geometric", "random", 0.95), ("search", "geometric", 0.65))
#: the disciplines benchmarked
BENCH_DISCIPLINES = ("nine_ball", "eight_ball", "straight_pool")


def bench_matchup(discipline: str, a: str, b: str, games: int, seed: int, workers: int,
                  cache_dir: str | None = None) -> dict:
    from agents.tournament import AgentSpec, TournamentConfig, run_tournament

    rules = {"target_points": STRAIGHT_POOL_POINTS} if discipline == "straight_pool" else {}
    cfg = TournamentConfig(discipline, (AgentSpec(a), AgentSpec(b)), games, seed, "icga", rules, 400)
    t = time.perf_counter()
    cache = None
    if cache_dir:
        os.makedirs(cache_dir, exist_ok=True)
        cache = os.path.join(cache_dir, f"{discipline}_{a}_vs_{b}_{games}_{seed}.jsonl")
    res = run_tournament(cfg, workers=workers, progress=sys.stderr.isatty(), cache=cache)
    s = res.summary()
    sa = s["agents"][a]
    return dict(discipline=discipline, a=a, b=b, games=sa["games"], wins=sa["wins"], losses=sa["losses"],
                draws=sa["draws"], win_rate=sa["win_rate"], wilson95=sa["wilson95"], elo=sa["elo"],
                foul_rate_a=sa["foul_rate"], foul_rate_b=s["agents"][b]["foul_rate"], errors=s["errors"],
                seconds=round(time.perf_counter() - t, 1), seed=seed)


def bench_potdrill(steps: int, seed: int, out_dir: str) -> dict:
    import tomllib

    from agents.sb3 import evaluate, load, train
    from experiments.cli import demo_config_text

    d = tomllib.loads(demo_config_text())
    tr = d["training"]
    env_id, env_kwargs = d["env"]["id"], d["env"].get("kwargs", {})
    t = time.perf_counter()
    c = time.process_time()
    res = train(env_id, tr["algo"], steps, seed=seed, out_dir=out_dir, n_envs=tr["n_envs"],
                hyperparams=tr.get("hyperparams", {}), env_kwargs=env_kwargs,
                checkpoint_every=steps, eval_every=max(steps // 6, 1), eval_episodes=200, resume=False)
    train_s = time.perf_counter() - t
    cpu_s = time.process_time() - c
    ev = evaluate(load(res["model"], tr["algo"]), env_id, 1000, 10_000, env_kwargs, tr["algo"])
    return dict(env=env_id, algo=tr["algo"], timesteps=res["timesteps"], train_seconds=round(train_s, 1),
                train_cpu_seconds=round(cpu_s, 1),
                test_positions=ev.episodes, success_rate=ev.success_rate, curve=res["curve"])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--quick", action="store_true", help="20 games per matchup, short training")
    p.add_argument("--only", default="", help="comma list of: nine_ball, eight_ball, straight_pool, potdrill")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--potdrill-steps", type=int, default=32768)
    p.add_argument("--json", default=None)
    p.add_argument("--cache-dir", default=None, help="keep finished games here (resume; partial results)")
    args = p.parse_args(argv)
    games = 20 if args.quick else args.games
    steps = 4096 if args.quick else args.potdrill_steps
    only = set(filter(None, args.only.split(","))) or set(BENCH_DISCIPLINES) | {"potdrill"}
    out: dict = {"matchups": [], "potdrill": None}
    ok = True
    for disc in BENCH_DISCIPLINES:
        if disc not in only:
            continue
        for a, b, bar in MATCHUPS:
            r = bench_matchup(disc, a, b, games, args.seed, args.workers, args.cache_dir)
            r["bar"] = bar
            r["pass"] = r["win_rate"] >= bar
            ok &= r["pass"]
            out["matchups"].append(r)
            lo, hi = r["wilson95"]
            print(f"{disc:<14} {a:>9} vs {b:<9} {r['wins']:>3}-{r['losses']}-{r['draws']} of {r['games']}: "
                  f"win rate {r['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]  bar {bar:.2f}  "
                  f"{'PASS' if r['pass'] else 'FAIL'}  ({r['seconds']} s, errors {r['errors']})", flush=True)
    if "potdrill" in only:
        r = bench_potdrill(steps, args.seed, os.path.join("/tmp", "poolgym_bench_potdrill"))
        r["pass"] = r["success_rate"] >= 0.60 and r["train_seconds"] <= 600
        ok &= r["pass"]
        out["potdrill"] = r
        print(f"PotDrill {r['algo']} {r['timesteps']} steps in {r['train_seconds']} s "
              f"(CPU {r['train_cpu_seconds']} s): pockets "
              f"{r['success_rate']:.3f} of {r['test_positions']} seeded test positions  bar 0.60 in <= 600 s  "
              f"{'PASS' if r['pass'] else 'FAIL'}", flush=True)
        for row in r["curve"]:
            print(f"   curve {row['timesteps']:>7} steps: eval success {row['eval_success_rate']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
