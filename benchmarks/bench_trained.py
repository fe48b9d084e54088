"""The trained nine-ball player (`agents.learned`) against the geometric player: a seeded
tournament under ICGA noise, seats alternating, win rate with its Wilson 95% interval, and the
CPU time per decision of the trained player.

    python benchmarks/bench_trained.py --games 400 --seed 2024 [--weights runs/.../train/policy.pt]

Default weights: the shipped policy (`agents.learned.DEFAULT_WEIGHTS`).
"""

from __future__ import annotations

import argparse
import json
import time


def decision_time(weights, games: int, seed: int) -> str:
    """CPU time per decision of the trained player (thread CPU time around its ``act``) over
    ``games`` games against the geometric player."""
    import agents
    from agents.learned import TrainedAgent
    from agents.tournament import game_seeds, play_game

    class Timed(TrainedAgent):
        cpu, n = 0.0, 0

        def act(self, obs):
            t = time.thread_time()
            a = super().act(obs)
            Timed.cpu += time.thread_time() - t
            Timed.n += 1
            return a

    me = Timed(seed=0, **({"weights": weights} if weights else {}))
    geo = agents.make("geometric", seed=1)
    for g in range(games):
        rack, s0, s1, rng = game_seeds(seed, 0, 1, g)
        seats = [me, geo] if g % 2 == 0 else [geo, me]
        play_game("nine_ball", seats, seed=rack, agent_seeds=[s0, s1], noise="icga", noise_rng=rng)
    return (f"trained player: {1e3 * Timed.cpu / max(Timed.n, 1):.1f} ms of CPU per decision "
            f"({Timed.n} decisions, {games} games)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--weights", default=None, help="policy file (default: the shipped one)")
    ap.add_argument("--opponent", default="geometric")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", default=None)
    ap.add_argument("--time-games", type=int, default=10, help="games timed per decision (0: none)")
    a = ap.parse_args(argv)
    from agents.tournament import AgentSpec, TournamentConfig, run_tournament

    kw = {"weights": a.weights} if a.weights else {}
    cfg = TournamentConfig("nine_ball", (AgentSpec("trained", kw), AgentSpec(a.opponent)), a.games, a.seed, "icga")
    t = time.process_time()
    res = run_tournament(cfg, workers=a.workers)
    cpu = time.process_time() - t
    s = res.summary()["agents"]["trained"]
    lo, hi = s["wilson95"]
    print(f"trained vs {a.opponent}, nine-ball, ICGA noise, {a.games} games, seed {a.seed}: "
          f"{s['wins']}-{s['losses']}-{s['draws']}, win rate {s['win_rate']:.3f}, Wilson 95% [{lo:.3f}, {hi:.3f}]; "
          f"fouls/shot {s['foul_rate']:.3f}; errors {res.summary()['errors']}; CPU {cpu:.1f} s (this process)")
    if a.time_games:
        print(decision_time(a.weights, a.time_games, a.seed))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res.to_dict(), f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
