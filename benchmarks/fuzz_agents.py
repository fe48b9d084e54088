"""Agents fuzz: the baseline players in seeded games of every discipline, seat count and drawn
rules reading, played as the tournaments play them (`agents.tournament.play_game`: each seat
decides from its own view, ICGA execution noise, the rules' `apply` with the real physics).

Game ``g`` of a campaign with ``--seed S`` draws from ``default_rng([S, g])``: a discipline
(of ``--only``, default all), a seat count the rules allow (at most ``--max-seats``), with
probability ``--knob-share`` the rules options as ``fuzz_rules.py --knobs`` draws them
(`fuzz_rules.random_rules`), and at every seat an agent of ``--agents`` that plays the
discipline (`Agent.disciplines`: ``trained`` nine-ball only). It asserts

* no agent raises and none makes an illegal action (the game's record has no ``error`` and no
  ``illegal`` count: every baseline must act legally in every position the rules reach);
* the state invariants of `poolgym.rules.testing.check_invariants` after every action, and
  `check_privacy` in the games with per-seat secrets.

Where the env fuzz (``fuzz_rules.py``) drives the envs' decoders and built-in opponent, this
one drives the players a user runs in ``poolgym tournament`` and ``poolgym play``: the random,
geometric, search and trained agents. A failure prints the game's draw and the message; ``--game G``
replays game G alone (with the same ``--seed``).

Usage::

    python benchmarks/fuzz_agents.py --minutes 10
    python benchmarks/fuzz_agents.py --minutes 10 --agents search,geometric,random --seed 3
    python benchmarks/fuzz_agents.py --seed 1 --game 71

Exit status 1 if any check failed.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

import numpy as np

import agents
from agents.base import plays
from agents.tournament import make_rules_config, play_game
from poolgym.rules.game import DISCIPLINES, get_discipline
from poolgym.rules.testing import check_invariants, check_privacy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_rules import random_rules  # noqa: E402  (the rules draw shared with the env fuzz)

STATS: Counter = Counter()


def draw_game(seed: int, g: int, disciplines, names, max_seats: int, knob_share: float) -> dict:
    """Game ``g``'s draw (module docstring): discipline, seats, rules options, agents and seeds."""
    rng = np.random.default_rng([seed, g])
    name = disciplines[int(rng.integers(len(disciplines)))]
    allowed = [n for n in (get_discipline(name).allowed_players or (2,)) if n <= max_seats]
    seats = int(allowed[int(rng.integers(len(allowed)))])
    rules = random_rules(name, rng, seats) if rng.random() < knob_share else {}
    able = [a for a in names if plays(a, name)] or ["random"]
    who = [able[int(rng.integers(len(able)))] for _ in range(seats)]
    return dict(discipline=name, seats=seats, rules=rules, agents=who, rack_seed=int(rng.integers(1 << 30)),
                agent_seeds=[int(rng.integers(1 << 30)) for _ in who])


def play(draw: dict, max_shots: int) -> str | None:
    """Play the drawn game; None when every check held, else what failed."""
    try:
        cfg = make_rules_config(draw["discipline"], dict(draw["rules"], n_players=draw["seats"]), max_shots)
    except ValueError as err:  # a reading the rules refuse with a clear error: not a failure
        return f"skip: {err}"
    players = [agents.make(a, seed=s) for a, s in zip(draw["agents"], draw["agent_seeds"])]

    def on_step(state, action, new, verdict):
        check_invariants(new)
        if new.private:
            check_privacy(new)
        STATS["actions"] += 1

    try:
        rec = play_game(draw["discipline"], players, seed=draw["rack_seed"], agent_seeds=draw["agent_seeds"],
                        noise="icga", config=cfg, max_shots=max_shots, labels=tuple(draw["agents"]),
                        on_step=on_step)
    except Exception as err:  # noqa: BLE001 -- an invariant or privacy check, reported with its place
        return f"{type(err).__name__}: {err}\n{traceback.format_exc(limit=-4)}"
    STATS["shots"] += sum(rec.shots)
    if rec.error is not None:
        return f"error: {rec.error}"
    if any(rec.illegal):
        return f"illegal action by seat {int(np.argmax(rec.illegal))} ({draw['agents'][int(np.argmax(rec.illegal))]})"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--games", type=int, default=10**9, help="at most this many games")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--game", type=int, default=None, help="replay this game of the campaign alone")
    ap.add_argument("--agents", default="geometric,random", help="comma-separated agent names")
    ap.add_argument("--only", nargs="*", default=None, help="disciplines (rules registry names)")
    ap.add_argument("--max-seats", type=int, default=6)
    ap.add_argument("--max-shots", type=int, default=120)
    ap.add_argument("--knob-share", type=float, default=0.7, help="share of games with drawn rules options")
    args = ap.parse_args(argv)
    STATS.clear()
    disciplines = sorted(args.only or DISCIPLINES)
    names = [a for a in args.agents.split(",") if a]
    deadline = time.monotonic() + 60.0 * args.minutes
    games = [args.game] if args.game is not None else range(args.games)
    failures = []
    for g in games:
        if time.monotonic() > deadline:
            break
        draw = draw_game(args.seed, g, disciplines, names, args.max_seats, args.knob_share)
        t0 = time.perf_counter()
        res = play(draw, args.max_shots)
        rules = f" rules={draw['rules']}" if draw["rules"] else ""
        what = f"game {g} {draw['discipline']} seats={draw['seats']} agents={draw['agents']}{rules}"
        if res is not None and res.startswith("skip"):
            STATS["rules refused"] += 1
            print(f"{what}: refused ({res[6:]})", flush=True)
            continue
        STATS["games"] += 1
        print(f"{what}: {'ok' if res is None else 'FAIL'} ({time.perf_counter() - t0:.1f} s)", flush=True)
        if res is not None:
            failures.append((g, what, res))
            print(res, flush=True)
    print(f"\n{STATS['games']} games, {STATS['shots']} shots, {STATS['actions']} actions checked, "
          f"{STATS['rules refused']} draws of the rules refused; {len(failures)} failures")
    for g, what, res in failures:
        print(f"  {what}: {res.splitlines()[0]}  (replay: --seed {args.seed} --game {g})")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
