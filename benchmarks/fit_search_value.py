"""Fit the search agent's nine-ball position value (`agents.search_value`) to game outcomes.

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

With ``--opponent geometric`` the search agent plays the geometric player instead (seats
alternating) and every row names the agent to act; ``--fit-agent NAME`` fits the table to that
agent's positions only, and ``--fit-runout`` fits the two make probabilities of the asymmetric
run-out model instead (`fit_runout`: ``SearchAgent(runout_r=..., runout_r_other=...)``).

Usage::

    python benchmarks/fit_search_value.py --seed 202 --games 300 --jsonl /tmp/selfplay.jsonl
    python benchmarks/fit_search_value.py --fit-only /tmp/selfplay.jsonl [more.jsonl ...]
    python benchmarks/fit_search_value.py --seed 202 --games 1000 --opponent geometric --jsonl /tmp/vs.jsonl --fit-runout
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def play(seed: int, start: int, games: int, path: str, agent_kwargs: dict, opponent: str = "search") -> None:
    """Play games ``start .. start+games-1`` of the search agent against ``opponent`` (an agent
    name; "search": self-play) and append their positions to ``path``, each with the name of
    the agent to act (``agent``)."""
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
            names = ("search", opponent) if g % 2 == 0 else (opponent, "search")
            seats = [AgentSpec(nm, agent_kwargs if nm == "search" else {}).build(s) for nm, s in zip(names, sd)]
            rows = []

            def on_step(st, act, new, verdict, rows=rows):
                if st.phase is Phase.BREAK or not isinstance(act, ShotAction):
                    return
                # a shot from the cue ball just placed in hand: the placement's quality
                placed = st.cue_ball is not CueBallPlacement.IN_POSITION
                rows.append(dict(seat=st.seat_to_act, agent=names[st.seat_to_act], n=len(st.balls_on_table()),
                                 q=probe.quality(disc, st, table), bih=bool(placed)))

            rec = play_game("nine_ball", seats, seed=rack, agent_seeds=sd, noise="icga", noise_rng=nrng,
                            config=cfg, max_shots=400, on_step=on_step)
            out.write(json.dumps(dict(g=g, winner=rec.winner, rows=rows)) + "\n")
            out.flush()


def _positions(paths):
    """(file and game, position row, winner) of every recorded position of the decided games
    in ``paths`` (JSON lines as `play` writes them)."""
    for p in paths:
        with open(p) as f:
            for line in f:
                d = json.loads(line)
                if d["winner"] is None:
                    continue
                for r in d["rows"]:
                    yield (p, d["g"]), r, d["winner"]


def fit_files(paths, ridge: float, agent: str | None = None):
    """The table fitted to the positions of ``paths`` (``agent``: only those where that agent
    was to act)."""
    import numpy as np

    from agents.search_value import fit

    n, q, won, after = [], [], [], []
    games = set()
    for g, r, winner in _positions(paths):
        games.add(g)
        if agent is not None and r.get("agent", "search") != agent:
            continue
        if r["bih"]:
            after.append(r["q"])
            continue
        n.append(r["n"])
        q.append(r["q"])
        won.append(r["seat"] == winner)
    games = len(games)
    return fit(n, q, won, bih_q=float(np.mean(after)) if after else 0.95, ridge=ridge, games=games)


def fit_runout(paths, grid=0.02) -> dict:
    """Maximum-likelihood make probabilities (r of the search agent, r_other of its opponent)
    of the asymmetric run-out model (`agents.search.runout_value2`, ``SearchAgent(runout_r=r,
    runout_r_other=r_other)``) on the positions of ``paths`` with the cue ball in position:
    the seat to act, with ``n`` balls left and next pot quality ``q``, wins with
    ``runout_value2(q, n, r_seat, r_other_seat)``; a grid search over both in steps of ``grid``.
    Returns the fit with the symmetric model's best fit and their log-likelihoods, and the
    empirical win rate of each side to act per ``n``."""
    import numpy as np

    from agents.search import runout_pair

    rows = [(r.get("agent", "search") == "search", r["n"], r["q"], r["seat"] == winner)
            for _, r, winner in _positions(paths) if not r["bih"]]
    if not rows:
        raise ValueError("fit_runout: no positions")
    me, n, q, won = (np.array(c) for c in zip(*rows))
    n = n.astype(int)

    def loglik(r, ro):
        # runout_value2(q, n, r_seat, r_other) = q A_seat(n-1) + (1 - q)(1 - A_other(n)), tabulated
        mine = np.array([runout_pair(k, r, ro)[0] for k in range(11)])
        other = np.array([runout_pair(k, ro, r)[0] for k in range(11)])
        p = np.where(me, q * mine[n - 1] + (1.0 - q) * (1.0 - other[n]),
                     q * other[n - 1] + (1.0 - q) * (1.0 - mine[n]))
        p = np.clip(p, 1e-6, 1.0 - 1e-6)
        return float(np.sum(np.where(won, np.log(p), np.log(1.0 - p))))

    grid_r = np.round(np.arange(0.3, 0.98 + 1e-9, grid), 4)
    best = max(((loglik(r, ro), r, ro) for r in grid_r for ro in grid_r), key=lambda t: t[0])
    sym = max(((loglik(r, r), r) for r in grid_r), key=lambda t: t[0])
    rates = {side: {int(k): float(np.mean(won[(me == side) & (n == k)]))
                    for k in range(1, 10) if np.any((me == side) & (n == k))} for side in (True, False)}
    return dict(r=best[1], r_other=best[2], loglik=best[0], symmetric_r=sym[1], symmetric_loglik=sym[0],
                positions=len(rows), search_to_act=rates[True], other_to_act=rates[False])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=202)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--jsonl", default="/tmp/poolgym_search_selfplay.jsonl")
    p.add_argument("--agent-kwargs", default='{"value_model": "runout"}')
    p.add_argument("--ridge", type=float, default=1.0)
    p.add_argument("--fit-only", nargs="*", default=None, help="fit these files, play nothing")
    p.add_argument("--opponent", default="search", help="the search agent's opponent (an agent name)")
    p.add_argument("--fit-agent", default=None, help="fit only the positions where this agent is to act")
    p.add_argument("--fit-runout", action="store_true",
                   help="fit the asymmetric run-out model's make probabilities instead of the table")
    args = p.parse_args(argv)
    paths = args.fit_only
    if paths is None:
        play(args.seed, args.start, args.games, args.jsonl, json.loads(args.agent_kwargs), args.opponent)
        paths = [args.jsonl]
    if args.fit_runout:
        f = fit_runout(paths)
        print(f"runout_r={f['r']:.2f} runout_r_other={f['r_other']:.2f}: log-likelihood {f['loglik']:.1f} over "
              f"{f['positions']} positions; symmetric model r={f['symmetric_r']:.2f}: {f['symmetric_loglik']:.1f}")
        for name, key in (("search", "search_to_act"), ("other", "other_to_act")):
            print(f"{name} to act, win rate of the seat to act by balls left: "
                  + " ".join(f"{k}:{v:.2f}" for k, v in f[key].items()))
        return 0
    t = fit_files(paths, args.ridge, args.fit_agent)
    r = lambda xs: "(" + ", ".join(f"{x:.3f}" for x in xs) + ")"  # noqa: E731
    print(f"FITTED = NineBallValue(\n    a={r(t.a)},\n    b={r(t.b)},\n    bih_q={t.bih_q:.3f},\n"
          f"    games={t.games},\n    positions={t.positions},\n)")
    for k in range(1, 10):
        print(f"n={k}: q=0 {t.win(k, 0.0):.3f}  q=0.5 {t.win(k, 0.5):.3f}  q=1 {t.win(k, 1.0):.3f}  "
              f"ball in hand {t.win(k, 0.0, True):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
