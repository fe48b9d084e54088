"""A search-agent variant against the default at the decisions where they differ, each decision
played out many times (search vs geometric, ICGA noise).

A whole-game comparison (`search_paired.py`) of a change that acts at a few decisions per game
is mostly noise: once the two agents' games part, who wins is decided by everything that comes
after. Here the positions are taken from the default agent's games (`agents.tournament`, as
`bench_agents.py` plays them), kept when they are of the ``--where`` kind, and the default and
the variant (`--kwargs`) each decide from them. Where the two strokes differ, each stroke is
played ``--rollouts`` times under fresh noise and the game is played out from there (the
default search agent against the geometric player); rollout r of a position uses the same seeds
for both strokes. Each position's figure is the variant's wins minus the default's; the summary
gives their mean with a normal 95% interval over positions, and the sign test over the positions
where the two differ in wins.

``--where``: ``snookered`` (the search to shoot and no legal ball can be hit directly,
`agents.search.direct_hit_possible`) or ``all`` (every shot the search plays with the cue ball
in position).

Usage::

    python benchmarks/search_rollouts.py --kwargs '{"escapes": 6}' [--discipline nine_ball]
                                        [--seed 2024] [--games 100] [--rollouts 16] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

WHERE = ("snookered", "all")


def collect(args: tuple) -> list:
    """The search seat's positions of game ``g`` of the default's run that are of kind ``where``."""
    discipline, seed, g, where = args
    from agents.base import Observation
    from agents.geometric import GeometricAgent
    from agents.search import SearchAgent, _discipline, direct_hit_possible
    from agents.tournament import _table_for, game_seeds, make_rules_config, play_game
    from agents.view import Decision, view_of
    from poolgym.rules.core import CueBallPlacement, Phase
    from poolgym.rules.game import observe

    cfg = make_rules_config(discipline, {}, 400)
    disc, table = _discipline(discipline), _table_for(cfg)
    rack, si, sj, nrng = game_seeds(seed, 0, 1, g)
    me = g % 2
    seats = [SearchAgent(seed=si), GeometricAgent(seed=sj)][:: 1 if me == 0 else -1]
    seeds = (si, sj)[:: 1 if me == 0 else -1]
    out: list = []

    def keep(st, a, new, ver):
        if st.seat_to_act != me or st.phase is not Phase.PLAY or st.cue_ball is not CueBallPlacement.IN_POSITION:
            return
        obs = Observation(observe(st, me).state, disc.legal_actions(st), table, me, discipline)
        v = view_of(obs)
        if v.decision is not Decision.SHOOT or not v.targets or v.options:
            return
        if where == "snookered" and direct_hit_possible(v):
            return
        out.append((g, st))

    play_game(discipline, seats, seed=rack, agent_seeds=seeds, noise="icga", noise_rng=nrng, config=cfg,
              max_shots=400, on_step=keep)
    return out


def decide(args: tuple) -> tuple:
    """(default's stroke, variant's stroke) from position ``st`` (both agents seeded alike)."""
    discipline, k, st, kwargs = args
    from agents.base import Observation
    from agents.search import SearchAgent, _discipline
    from agents.tournament import _table_for
    from poolgym.rules.game import observe

    disc = _discipline(discipline)
    me = st.seat_to_act
    obs = Observation(observe(st, me).state, disc.legal_actions(st), _table_for(st.config), me, discipline)
    return SearchAgent(seed=1000 + k).act(obs), SearchAgent(seed=1000 + k, **kwargs).act(obs)


def rollout(args: tuple) -> int:
    """1 if the seat to act at ``st`` wins after playing ``action`` (noisy), then the default
    search agent for it and the geometric player for the other seat to the end; else 0."""
    discipline, seed, k, r, st, action = args
    from agents.base import Observation
    from agents.geometric import GeometricAgent
    from agents.search import SearchAgent, _discipline
    from agents.tournament import _table_for
    from physics.noise import perturb_stroke
    from poolgym.envs.physics_io import make_noise
    from poolgym.rules.core import ShotAction
    from poolgym.rules.game import observe

    disc, table, noise = _discipline(discipline), _table_for(st.config), make_noise("icga")
    rng = np.random.default_rng([seed, k, r])
    me = st.seat_to_act
    players = {me: SearchAgent(seed=int(rng.integers(2**31))), 1 - me: GeometricAgent(seed=int(rng.integers(2**31)))}
    state, a, shots = st, action, 0
    while not state.game_over and shots < 400:
        if a is None:
            seat = state.seat_to_act
            obs = Observation(observe(state, seat).state, disc.legal_actions(state), table, seat, discipline)
            a = players[seat].act(obs)
        if isinstance(a, ShotAction):
            row = perturb_stroke(noise, a.shot_array(), rng)
            a = ShotAction(float(row[0]), float(row[1]), float(row[2]), float(row[3]), float(row[4]),
                           a.called_ball, a.called_pocket, a.safety, a.push_out)
            shots += 1
        state, _ = disc.apply(state, a)
        a = None
    return int(state.game_over and state.winner == me)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kwargs", required=True, help="the variant's keyword arguments (JSON)")
    p.add_argument("--discipline", default="nine_ball")
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--rollouts", type=int, default=16)
    p.add_argument("--where", choices=WHERE, default="snookered")
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    kwargs = json.loads(args.kwargs)
    from multiprocessing import get_context

    from search_paired import sign_test_p  # benchmarks/, this script's own folder

    R = int(args.rollouts)
    with get_context("spawn").Pool(max(int(args.workers), 1)) as pool:
        found = pool.map(collect, [(args.discipline, args.seed, g, args.where) for g in range(args.games)], chunksize=1)
        pos = [x for part in found for x in part]
        strokes = pool.map(decide, [(args.discipline, k, st, kwargs) for k, (_, st) in enumerate(pos)], chunksize=1)
        differ = [k for k, (a0, a1) in enumerate(strokes) if a0 != a1]
        jobs = [(args.discipline, args.seed, k, r, pos[k][1], strokes[k][j]) for k in differ for j in (0, 1)
                for r in range(R)]
        won = pool.map(rollout, jobs, chunksize=1)
    print(f"{args.discipline}, seed {args.seed}: {len(pos)} {args.where} decisions in {args.games} games, "
          f"{len(differ)} where the variant {args.kwargs} chose another stroke; {R} rollouts each")
    diffs = []
    for i, k in enumerate(differ):
        w0, w1 = sum(won[(2 * i) * R:(2 * i + 1) * R]), sum(won[(2 * i + 1) * R:(2 * i + 2) * R])
        diffs.append((w1 - w0) / R)
        g, st = pos[k]
        print(f"  game {g:4d}, {len(st.balls_on_table()):2d} balls: default {w0:3d}/{R}, variant {w1:3d}/{R}")
    if diffs:
        d = np.array(diffs)
        half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
        better, worse = int((d > 0).sum()), int((d < 0).sum())
        print(f"variant minus default per differing decision: {d.mean():+.3f} [{d.mean() - half:+.3f}, "
              f"{d.mean() + half:+.3f}]; better at {better}, worse at {worse} (sign test p = "
              f"{sign_test_p(better, better + worse):.3f}); per game: {d.sum() / args.games:+.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
