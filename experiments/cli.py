"""The ``poolgym`` command line.

::

    poolgym demo [--quick] [--out runs/demo]
    poolgym experiment run CONFIG.toml [--out DIR] [--backend local|ray] [--no-progress]
    poolgym experiment validate CONFIG.toml
    poolgym tournament --discipline nine_ball --agents geometric,random --games 20 --seed 0 \\
                       --noise icga [--rules target_points=25] [--json OUT.json] [--plot OUT.png]
    poolgym play --discipline nine_ball --agents geometric,human [--seed 0] [--noise icga]
    poolgym bench [--quick] [NAME ...]
    poolgym agents

``demo`` runs the embedded default config (``experiments/configs/demo.toml``): a small PPO
agent trained on the pot drill, a nine-ball tournament against the baselines, the report and a
video in ``runs/demo/``. ``--quick`` shrinks every budget (used by the tests).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from importlib import resources


def demo_config_text() -> str:
    """The embedded demo config."""
    return resources.files("experiments").joinpath("configs/demo.toml").read_text()


def quick_overrides(data: dict) -> dict:
    """Reduced budgets for ``demo --quick`` (a few seconds of training, a handful of games)."""
    data = json.loads(json.dumps(data))
    if "training" in data:
        data["training"].update(total_timesteps=512, n_envs=8, eval_every=256, eval_episodes=16,
                                checkpoint_every=256)
        hp = dict(data["training"].get("hyperparams", {}))
        hp.update(n_steps=32, batch_size=64, n_epochs=2)
        data["training"]["hyperparams"] = hp
    if "evaluation" in data:
        data["evaluation"]["episodes"] = 32
        data["evaluation"]["baseline_episodes"] = 16
        data["evaluation"]["baselines"] = [b for b in data["evaluation"].get("baselines", []) if b != "search"]
    if "tournament" in data:
        data["tournament"]["games_per_pair"] = 2
        data["tournament"]["max_shots"] = 60
        data["tournament"]["agents"] = [a for a in data["tournament"]["agents"]
                                        if (a if isinstance(a, str) else a.get("name")) != "search"]
    if "video" in data:
        data["video"]["max_shots"] = 3
        data["video"]["fps"] = 4
        data["video"]["format"] = "gif"
    return data


class UsageError(Exception):
    """A command's arguments refused before any game is played (an unknown agent or
    discipline, a seat count the rules do not allow, a rules option they refuse): `main`
    prints ``poolgym <command>: error: <message>`` and exits with status 2, as argparse does."""


def _checked(build):
    """``build()``, with the ``ValueError`` of a refused argument raised as `UsageError`."""
    try:
        return build()
    except ValueError as e:
        raise UsageError(str(e)) from e


def _parse_rules(items) -> dict:
    out = {}
    for it in items or []:
        if "=" not in it:
            raise SystemExit(f"--rules: expected KEY=VALUE, got {it!r}")
        k, v = it.split("=", 1)
        try:
            out[k] = json.loads(v)
        except json.JSONDecodeError:
            out[k] = v
    return out


def cmd_demo(args) -> int:
    import tomllib

    from experiments import config as C
    from experiments.runner import run_experiment

    from physics import compile_cache

    if compile_cache.is_cold():
        from poolgym.envs import prewarm

        # the rules' and the geometric player's kernels compile in a second process meanwhile
        prewarm.start("nine_ball")
        print("[poolgym] compiling the physics, rules and player kernels (first run only, ~15 s)...", flush=True)
        t = time.perf_counter()
        compile_cache.warm_up()
        prewarm.wait()
        print(f"[poolgym] compiled in {time.perf_counter() - t:.0f} s; the learning agents compile as "
              "they are first used", flush=True)
    data = tomllib.loads(demo_config_text())
    if args.quick:
        data = quick_overrides(data)
    cfg = C.from_dict(data)
    out = args.out or ("runs/demo-quick" if args.quick else "runs/demo")
    root = run_experiment(cfg, out, backend=args.backend, progress=not args.no_progress)
    print(open(os.path.join(root, "report.md")).read())
    return 0


def cmd_experiment(args) -> int:
    from experiments import config as C

    if args.exp_cmd == "validate":
        cfg = C.load(args.config)
        print(C.dumps(cfg))
        return 0
    from experiments.runner import run_experiment

    cfg = C.load(args.config)
    root = run_experiment(cfg, args.out, backend=args.backend, progress=not args.no_progress)
    print(f"report: {os.path.join(root, 'report.md')}")
    return 0


def _seat_tournament(args, specs) -> int:
    """``--players N``: an N-seat tournament (`agents.seat_tournament`): agents rotate through
    the seats, Plackett-Luce ratings, per-seat-position win rates with Wilson intervals."""
    from agents.seat_tournament import SeatTournamentConfig, run_seat_tournament
    from agents.tournament import make_rules_config

    cfg = _checked(lambda: SeatTournamentConfig(args.discipline, tuple(specs), args.players, args.games, args.seed,
                                                args.noise, _parse_rules(args.rules), args.max_shots))
    _checked(lambda: make_rules_config(cfg.discipline, dict(cfg.rules, n_players=cfg.players), cfg.max_shots))
    res = run_seat_tournament(cfg, workers=args.workers)
    s = res.summary()
    print(f"{cfg.discipline}: {args.players} seat{'s' if args.players != 1 else ''}, {args.games} games, seed {args.seed}, noise {args.noise}")
    if args.players == 1:  # solo: the score is the result (no one to beat, no rating)
        print(f"{'agent':<14} {'games':>5} {'mean result':>12} {'95% interval':>19} {'fouls/shot':>10}")
        for lab, a in s["agents"].items():
            lo, hi = a["return_ci95"]
            print(f"{lab:<14} {a['games']:>5} {a['mean_return']:>12.4f} [{lo:.4f}, {hi:.4f}] {a['foul_rate']:>10.3f}")
    else:
        print(f"{'agent':<14} {'games':>5} {'win rate':>9} {'Wilson 95%':>17} {'PL mu':>7} {'sigma':>6} "
              f"{'ordinal':>8} {'fouls/shot':>10} {'mean result':>12}")
        for lab, a in s["agents"].items():
            lo, hi = a["wilson95"]
            r = a["rating"]
            print(f"{lab:<14} {a['games']:>5} {a['win_rate']:>9.3f} [{lo:.3f}, {hi:.3f}] {r['mu']:>7.2f} "
                  f"{r['sigma']:>6.2f} {r['ordinal']:>8.2f} {a['foul_rate']:>10.3f} {a['mean_return']:>12.3f}")
        for k, p in enumerate(s["seat_positions"]):
            lo, hi = p["wilson95"]
            print(f"seat {k:<9} {p['games']:>5} {p['win_rate']:>9.3f} [{lo:.3f}, {hi:.3f}]")
    if s["errors"]:
        print(f"WARNING: {s['errors']} game(s) ended by a referee/physics error: {s['error_messages'][:3]}")
    if args.json:
        res.write_json(args.json)
        print(f"results: {args.json}")
    return 0


def cmd_tournament(args) -> int:
    from agents.tournament import AgentSpec, TournamentConfig, run_tournament

    from agents.tournament import canonical_discipline, make_rules_config

    names = [a for a in args.agents.split(",") if a]
    n = _checked(lambda: make_rules_config(args.discipline)).n_players  # (a known discipline)
    _check_agents(names, canonical_discipline(args.discipline))
    specs, seen = [], {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        specs.append(AgentSpec(name, {}, name if seen[name] == 1 else f"{name}#{seen[name]}"))
    if args.players is None:
        if n != 2:  # an N-seat game by default (cut-throat 3, pea pool 4, bowlliards 1, ...)
            args.players = n
    if args.players is not None:
        return _seat_tournament(args, specs)
    cfg = _checked(lambda: TournamentConfig(args.discipline, tuple(specs), args.games, args.seed, args.noise,
                                            _parse_rules(args.rules), args.max_shots))
    _checked(lambda: make_rules_config(cfg.discipline, cfg.rules, cfg.max_shots))
    from experiments.ray_backend import dispatcher

    res = run_tournament(cfg, progress=not args.no_progress, workers=args.workers,
                         run_jobs=dispatcher(args.backend))
    s = res.summary()
    print(f"{cfg.discipline}: {args.games} games per pairing, seed {args.seed}, noise {args.noise}")
    print(f"{'agent':<14} {'W-L-D':>11} {'win rate':>9} {'Wilson 95%':>17} {'Elo':>7} {'fouls/shot':>10} "
          f"{'legal brk':>9} {'run-outs':>8}")
    for lab, a in s["agents"].items():
        lo, hi = a["wilson95"]
        print(f"{lab:<14} {a['wins']:>3}-{a['losses']:>3}-{a['draws']:>3} {a['win_rate']:>9.3f} "
              f"[{lo:.3f}, {hi:.3f}] {a['elo']:>7.1f} {a['foul_rate']:>10.3f} {a['legal_break_rate']:>9.3f} "
              f"{a['runouts']:>8}")
    if s["errors"]:
        print(f"WARNING: {s['errors']} game(s) ended by a referee/physics error: {s['error_messages'][:3]}")
    if args.json:
        res.write_json(args.json)
        print(f"results: {args.json}")
    if args.plot:
        res.plot(args.plot)
        print(f"plot: {args.plot}")
    return 0


def _check_players(discipline: str, names: list) -> None:
    """`UsageError` unless ``names`` (one per seat; ``human`` a person) can sit at a game of
    ``discipline``: a known discipline and agents, a seat count its rules allow, every agent
    one that plays it (`Agent.disciplines`) and can be built."""
    from agents.tournament import canonical_discipline, make_rules_config
    from poolgym.rules.game import DISCIPLINES

    name = canonical_discipline(discipline)
    if name not in DISCIPLINES:
        raise UsageError(f"--discipline: unknown {discipline!r}; known: {', '.join(sorted(DISCIPLINES))}")
    _check_agents(names, name, human=True)
    allowed = DISCIPLINES[name].allowed_players
    if allowed is not None and len(names) not in allowed:
        raise UsageError(f"--agents: {name} seats {', '.join(map(str, allowed))} players, got {len(names)}")
    seated = allowed is not None or len(names) != 2
    _checked(lambda: make_rules_config(name, {"n_players": len(names)} if seated else None))


def _check_agents(names: list, discipline: str, human: bool = False) -> None:
    """`UsageError` unless every one of ``names`` is a registered agent (or ``human``, where a
    person may sit) that can be built and plays ``discipline`` (`Agent.disciplines`); each
    agent is built once."""
    from agents.base import make
    from agents.base import names as agent_names

    known = agent_names()
    unknown = [n for n in names if n not in known and not (human and n == "human")]
    if unknown:
        raise UsageError(f"--agents: unknown agent(s) {', '.join(map(repr, unknown))}; known agents: "
                         f"{'human, ' if human else ''}{', '.join(known)}")
    for n in dict.fromkeys(names):
        if n != "human" or not human:
            ds = _checked(lambda: make(n, seed=0)).disciplines  # (sb3 without a model cannot be built)
            if ds is not None and discipline not in ds:
                raise UsageError(f"--agents: {n} plays {', '.join(ds)} only, not {discipline}")


def cmd_play(args) -> int:
    from experiments.play import play

    names = [a for a in args.agents.split(",") if a]
    if not names:
        raise SystemExit("--agents: give one player per seat, e.g. geometric,human (N-seat games: N names)")
    _check_players(args.discipline, names)
    play(args.discipline, names, seed=args.seed, noise=args.noise, max_shots=args.max_shots,
         fps=args.fps, headless=args.headless, lag=args.lag)
    return 0


def _bench_dir() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(here), "benchmarks")


def cmd_bench(args) -> int:
    import runpy

    d = _bench_dir()
    if not os.path.isdir(d):
        raise SystemExit(f"bench: no benchmarks folder at {d} (benchmarks ship with the source checkout)")
    files = sorted(f for f in os.listdir(d) if f.startswith("bench_") and f.endswith(".py"))
    if args.names:
        want = {n if n.startswith("bench_") else f"bench_{n}" for n in args.names}
        files = [f for f in files if f[:-3] in want]
    rc = 0
    for f in files:
        print(f"=== {f}", flush=True)
        argv = sys.argv
        sys.argv = [f] + (["--quick"] if args.quick else [])
        try:
            runpy.run_path(os.path.join(d, f), run_name="__main__")
        except SystemExit as e:
            if e.code not in (None, 0):
                rc = int(e.code) if isinstance(e.code, int) else 1
        finally:
            sys.argv = argv
    return rc


def cmd_agents(args) -> int:
    import agents

    for n in agents.names():
        print(n)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="poolgym", description="poolgym: pool RL environments, agents and experiments")
    sub = p.add_subparsers(dest="cmd", required=True)

    d = sub.add_parser("demo", help="short training run + tournament + report + video (runs/demo)")
    d.add_argument("--quick", action="store_true", help="reduced budgets (seconds)")
    d.add_argument("--out", default=None, help="run folder (default runs/demo)")
    d.add_argument("--backend", choices=("local", "ray"), default="local")
    d.add_argument("--no-progress", action="store_true")
    d.set_defaults(fn=cmd_demo)

    e = sub.add_parser("experiment", help="run or validate an experiment config")
    esub = e.add_subparsers(dest="exp_cmd", required=True)
    er = esub.add_parser("run", help="run (or resume) CONFIG into its run folder")
    er.add_argument("config")
    er.add_argument("--out", default=None)
    er.add_argument("--backend", choices=("local", "ray"), default="local")
    er.add_argument("--no-progress", action="store_true")
    ev = esub.add_parser("validate", help="validate CONFIG and print it resolved")
    ev.add_argument("config")
    e.set_defaults(fn=cmd_experiment)

    t = sub.add_parser("tournament", help="round robin between agents")
    t.add_argument("--discipline", default="nine_ball", help="nine_ball | eight_ball | straight_pool (or 9ball, 8ball, 14.1)")
    t.add_argument("--agents", default="geometric,random", help="comma-separated agent names")
    t.add_argument("--games", type=int, default=20, help="games per pairing (with --players: games in all)")
    t.add_argument("--players", type=int, default=None,
                   help="N-seat game (pea_pool, forty_one, ...): agents rotate through N seats, "
                        "Plackett-Luce ratings and per-seat-position win rates")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--noise", default="icga", choices=("none", "icga"))
    t.add_argument("--rules", nargs="*", help="rule options KEY=VALUE (conflicts.md keys, e.g. target_points=25)")
    t.add_argument("--max-shots", type=int, default=300)
    t.add_argument("--workers", type=int, default=1, help="local processes")
    t.add_argument("--backend", choices=("local", "ray"), default="local")
    t.add_argument("--json", default=None, help="write results JSON here")
    t.add_argument("--plot", default=None, help="write a PNG plot here")
    t.add_argument("--no-progress", action="store_true")
    t.set_defaults(fn=cmd_tournament)

    pl = sub.add_parser("play", help="watch agents, or play against them ('human'), in a pygame window")
    pl.add_argument("--discipline", default="nine_ball")
    pl.add_argument("--agents", default="geometric,geometric",
                    help="one player per seat (N-seat games: N names, e.g. human,geometric,geometric)")
    pl.add_argument("--seed", type=int, default=0)
    pl.add_argument("--noise", default="icga", choices=("none", "icga"))
    pl.add_argument("--max-shots", type=int, default=200)
    pl.add_argument("--fps", type=int, default=30)
    pl.add_argument("--headless", action="store_true", help="no window (SDL dummy driver; for tests)")
    pl.add_argument("--lag", action="store_true",
                    help="open the game with the lag (G-3.6): both seats stroke, the winner chooses who breaks")
    pl.set_defaults(fn=cmd_play)

    b = sub.add_parser("bench", help="run the benchmarks (benchmarks/bench_*.py)")
    b.add_argument("names", nargs="*", help="benchmark names (default: all)")
    b.add_argument("--quick", action="store_true")
    b.set_defaults(fn=cmd_bench)

    a = sub.add_parser("agents", help="list the registered agents")
    a.set_defaults(fn=cmd_agents)
    return p


def main(argv=None) -> int:
    from experiments.config import ConfigError

    args = build_parser().parse_args(argv)
    try:
        return int(args.fn(args) or 0)
    except ConfigError as e:
        print(f"poolgym: config error: {e}", file=sys.stderr)
        return 2
    except UsageError as e:
        print(f"poolgym {args.cmd}: error: {e}", file=sys.stderr)
        return 2
    except ImportError as e:
        print(f"poolgym: {e}", file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
