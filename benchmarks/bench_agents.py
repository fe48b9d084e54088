"""Agent quality benchmarks (issue bars), printed and optionally written as JSON.

1. Nine-ball, eight-ball and 14.1 (to `STRAIGHT_POOL_POINTS` points), ICGA execution noise,
   `--games` games per pairing (default 200, seats alternate):
   geometric vs random (bar: geometric wins >= 95%) and search vs geometric (bar: >= 85%),
   then the time per decision: `--timing-games` games of search vs geometric played in this
   process, the CPU time of every `act` call of each (mean and median ms per decision, and the
   search/geometric ratio: a machine-independent figure).
2. PotDrill: the shipped training configuration (`experiments/configs/demo.toml` [training],
   with `--potdrill-steps` timesteps) trained on this machine, then the deterministic policy on
   1,000 seeded test positions (bar: >= 60% pocketed, training <= 10 minutes).

Usage::

    python benchmarks/bench_agents.py [--games 200] [--quick] [--only nine_ball,potdrill]
                                      [--workers 2] [--timing-games 10] [--json OUT.json]

The issue's figure (search vs geometric, 400 games per discipline under ICGA noise)::

    python benchmarks/bench_agents.py --games 400 --only nine_ball,eight_ball,straight_pool

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
MATCHUPS = (("geometric", "random", 0.95), ("search", "geometric", 0.85))
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


class TimedAgent:
    """An agent whose `act` calls are timed in CPU seconds (`time.process_time`)."""

    def __init__(self, inner, times: list):
        self.inner, self.times = inner, times

    def reset(self, seed=None):
        self.inner.reset(seed)

    def act(self, obs):
        t = time.process_time()
        a = self.inner.act(obs)
        self.times.append(time.process_time() - t)
        return a


def bench_decision_time(discipline: str, games: int, seed: int) -> dict:
    """CPU time per decision of search and geometric over `games` games between them (seats
    alternate; this process; the first game also warms the compiled kernels and is not timed)."""
    import numpy as np

    from agents.tournament import AgentSpec, TournamentConfig, game_seeds, make_rules_config, play_game

    rules = {"target_points": STRAIGHT_POOL_POINTS} if discipline == "straight_pool" else {}
    specs = (AgentSpec("search"), AgentSpec("geometric"))
    cfg = TournamentConfig(discipline, specs, max(games, 1), seed, "icga", rules, 400)
    times: dict = {"search": [], "geometric": []}
    rules_cfg = make_rules_config(discipline, rules, cfg.max_shots)
    for g in range(-1, games):
        rack, s0, s1, nrng = game_seeds(seed + 7919, 0, 1, g + 1)
        sink = {k: ([] if g < 0 else times[k]) for k in times}
        seats = [TimedAgent(specs[0].build(s0), sink["search"]), TimedAgent(specs[1].build(s1), sink["geometric"])]
        if g % 2:
            seats.reverse()
        play_game(discipline, seats, seed=rack, agent_seeds=(s0, s1) if g % 2 == 0 else (s1, s0), noise="icga",
                  noise_rng=nrng, config=rules_cfg, max_shots=cfg.max_shots)
    out = {"discipline": discipline, "games": games}
    for k, t in times.items():
        a = np.array(t) * 1e3
        out[k] = dict(decisions=len(a), mean_ms=round(float(a.mean()), 2) if len(a) else None,
                      median_ms=round(float(np.median(a)), 2) if len(a) else None)
    if times["search"] and times["geometric"]:
        out["ratio_mean"] = round(float(np.mean(times["search"]) / np.mean(times["geometric"])), 1)
    return out


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
    p.add_argument("--timing-games", type=int, default=10, help="games timed per discipline (0: none)")
    args = p.parse_args(argv)
    games = 20 if args.quick else args.games
    steps = 4096 if args.quick else args.potdrill_steps
    only = set(filter(None, args.only.split(","))) or set(BENCH_DISCIPLINES) | {"potdrill"}
    out: dict = {"matchups": [], "potdrill": None, "decision_time": []}
    timing_games = min(args.timing_games, 3) if args.quick else args.timing_games
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
        if timing_games > 0:
            t = bench_decision_time(disc, timing_games, args.seed)
            out["decision_time"].append(t)
            se, ge = t["search"], t["geometric"]
            print(f"{disc:<14} CPU per decision over {timing_games} games: search {se['mean_ms']} ms mean "
                  f"({se['median_ms']} median, {se['decisions']} decisions), geometric {ge['mean_ms']} ms mean "
                  f"({ge['decisions']}); search/geometric {t.get('ratio_mean')}x", flush=True)
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
