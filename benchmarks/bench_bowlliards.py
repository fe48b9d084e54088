"""Solo bowlliards (poolgym/Bowlliards-v0's game): the score out of 300 of the baseline agents
under ICGA execution noise, ``--games`` seeded games each (game g: rack seed g, agent seed g,
noise RNG seeded from g), played through `agents.tournament.play_game`.

Usage::

    python benchmarks/bench_bowlliards.py [--games 20] [--agents geometric,search] [--json OUT.json]

Prints per agent: mean score, its standard error, min / max, fouls per game, illegal actions.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def main(argv=None) -> int:
    import numpy as np

    from agents.base import make
    from agents.tournament import play_game
    from poolgym.rules.games.bowlliards import BowlliardsConfig

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--agents", default="geometric,search")
    ap.add_argument("--noise", default="icga")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    out = {}
    for name in args.agents.split(","):
        t0 = time.time()
        scores, fouls, illegal, errors = [], [], 0, 0
        for g in range(args.games):
            rec = play_game("bowlliards", [make(name, seed=g)], seed=g, agent_seeds=[g], noise=args.noise,
                            noise_rng=np.random.default_rng([g, 300]), config=BowlliardsConfig(max_shots=400),
                            max_shots=400, labels=(name,))
            scores.append(rec.scores[0])
            fouls.append(rec.fouls[0])
            illegal += rec.illegal[0]
            errors += rec.error is not None
        s = np.asarray(scores, float)
        row = {"games": args.games, "mean": float(s.mean()), "sem": float(s.std(ddof=1) / np.sqrt(len(s))) if len(s) > 1
               else 0.0, "min": int(s.min()), "max": int(s.max()), "fouls_per_game": float(np.mean(fouls)),
               "illegal": illegal, "errors": errors, "seconds": round(time.time() - t0, 1)}
        out[name] = row
        print(f"{name:10s} bowlliards solo ({args.noise}): {row['mean']:.1f} +- {row['sem']:.1f} / 300 "
              f"(min {row['min']}, max {row['max']}, {row['fouls_per_game']:.1f} fouls/game, "
              f"illegal {illegal}, errors {errors}, {args.games} games, {row['seconds']} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
