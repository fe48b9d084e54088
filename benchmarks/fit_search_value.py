"""Fit the search agent's nine-ball position value (`agents.search_value`) to self-play outcomes.

Plays ``--games`` nine-ball games of the search agent against itself (agent settings
``--agent-kwargs``, JSON) under ICGA execution noise, game ``g`` seeded as tournament game
``g`` of pairing (0, 1) with seed ``--seed`` (`agents.tournament.game_seeds`, seats
alternating), and records
every position where a seat is to shoot after the break: object balls left ``n``, the seat's
next pot quality ``q`` (`SearchAgent.quality`, the search agent's own reading of the
position), a placement of the cue ball in hand recorded as such with the quality of the shot
that follows it. Each position is labelled by whether that seat won the game (draws are left
out); the ball-in-hand quality of the table is the mean quality after a placement. The games are appended to
``--jsonl`` as they finish (several files can be fitted together, and a run resumes where
its file ends); then `agents.search_value.fit` prints the table to ship as
``agents.search_value.FITTED``.

Usage::

    python benchmarks/fit_search_value.py --seed 202 --games 300 --jsonl /tmp/selfplay.jsonl
    python benchmarks/fit_search_value.py --fit-only /tmp/selfplay.jsonl [more.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def play(seed: int, start: int, games: int, path: str, agent_kwargs: dict) -> None:
    """Play self-play games ``start .. start+games-1`` and append their positions to ``path``."""
    from agents.search import SearchAgent, _discipline
    from agents.tournament import AgentSpec, _table_for, game_seeds, make_rules_config, play_game
    from poolgym.rules.core import CueBallPlacement, Phase, ShotAction

    disc = _discipline("nine_ball")
    cfg = make_rules_config("nine_ball", {}, 400)
    table = _table_for(cfg)
    probe = SearchAgent(seed=0, **agent_kwargs)
    done = set()
    if os.path.exists(path):
        with open(path) as f:
            done = {json.loads(line)["g"] for line in f if line.strip()}
    with open(path, "a") as out:
        for g in range(start, start + games):
            if g in done:
                continue
            rack, s0, s1, nrng = game_seeds(seed, 0, 1, g)
            sd = (s0, s1) if g % 2 == 0 else (s1, s0)  # seats alternate as in a tournament
            seats = [AgentSpec("search", agent_kwargs).build(s) for s in sd]
            rows = []

            def on_step(st, act, new, verdict, rows=rows):
                if st.phase is Phase.BREAK or not isinstance(act, ShotAction):
                    return
                # a shot from the cue ball just placed in hand: the placement's quality
                placed = st.cue_ball is not CueBallPlacement.IN_POSITION
                rows.append(dict(seat=st.seat_to_act, n=len(st.balls_on_table()),
                                 q=probe.quality(disc, st, table), bih=bool(placed)))

            rec = play_game("nine_ball", seats, seed=rack, agent_seeds=sd, noise="icga", noise_rng=nrng,
                            config=cfg, max_shots=400, on_step=on_step)
            out.write(json.dumps(dict(g=g, winner=rec.winner, rows=rows)) + "\n")
            out.flush()


def fit_files(paths, ridge: float):
    import numpy as np

    from agents.search_value import fit

    n, q, won, after, games = [], [], [], [], 0
    for p in paths:
        with open(p) as f:
            for line in f:
                d = json.loads(line)
                if d["winner"] is None:
                    continue
                games += 1
                for r in d["rows"]:
                    if r["bih"]:
                        after.append(r["q"])
                        continue
                    n.append(r["n"])
                    q.append(r["q"])
                    won.append(r["seat"] == d["winner"])
    return fit(n, q, won, bih_q=float(np.mean(after)) if after else 0.95, ridge=ridge, games=games)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=202)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--jsonl", default="/tmp/poolgym_search_selfplay.jsonl")
    p.add_argument("--agent-kwargs", default='{"value_model": "runout"}')
    p.add_argument("--ridge", type=float, default=1.0)
    p.add_argument("--fit-only", nargs="*", default=None, help="fit these files, play nothing")
    args = p.parse_args(argv)
    paths = args.fit_only
    if paths is None:
        play(args.seed, args.start, args.games, args.jsonl, json.loads(args.agent_kwargs))
        paths = [args.jsonl]
    t = fit_files(paths, args.ridge)
    r = lambda xs: "(" + ", ".join(f"{x:.3f}" for x in xs) + ")"  # noqa: E731
    print(f"FITTED = NineBallValue(\n    a={r(t.a)},\n    b={r(t.b)},\n    bih_q={t.bih_q:.3f},\n"
          f"    games={t.games},\n    positions={t.positions},\n)")
    for k in range(1, 10):
        print(f"n={k}: q=0 {t.win(k, 0.0):.3f}  q=0.5 {t.win(k, 0.5):.3f}  q=1 {t.win(k, 1.0):.3f}  "
              f"ball in hand {t.win(k, 0.0, True):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
