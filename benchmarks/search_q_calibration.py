"""The search agent's position quality against the make rate it stands for (nine-ball, ICGA noise).

The search agent (`agents.search`) values a nine-ball position by the quality ``q`` of the seat
to act's best pots (`SearchAgent.quality`, from the ghost-ball make estimates of
`poolgym.planning`), which its run-out model reads as the chance of keeping the table.
This measures that chance: over the positions of search-vs-geometric games (the cue ball in
position, some pot open), the geometric player's stroke is simulated `--samples` times under
ICGA noise and counted as kept when it pockets a ball legally without a foul (or wins); the
table prints the mean rate per ``q`` bin.

Usage::

    python benchmarks/search_q_calibration.py [--seed 78] [--games 60] [--samples 64]
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

BINS = ((0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 0.95), (0.95, 1.01))


def measure(seed: int, games: int, samples: int) -> np.ndarray:
    """(K, 2) rows (q, rate kept) over the positions of `games` search-vs-geometric games."""
    from agents.base import Observation
    from agents.geometric import GeometricAgent
    from agents.search import SearchAgent, _discipline
    from agents.tournament import game_seeds, make_rules_config, play_game
    from agents.view import Decision, view_of
    from poolgym.rules.core import CueBallPlacement, Phase, ShotAction
    from poolgym.rules.game import observe
    from poolgym.rules.geometry import get_table
    from poolgym.rules.shot_record import ShotRecord

    disc = _discipline("nine_ball")
    cfg = make_rules_config("nine_ball", {}, 400)
    table = get_table(cfg.table)
    probe, geo = SearchAgent(seed=seed), GeometricAgent(seed=seed)
    rows = []
    for g in range(games):
        rack, s0, s1, nrng = game_seeds(seed, 0, 1, g)
        seats = [SearchAgent(seed=s0), GeometricAgent(seed=s1)][:: 1 if g % 2 == 0 else -1]
        states: list = []
        play_game("nine_ball", seats, seed=rack, agent_seeds=(0, 0), noise="icga", noise_rng=nrng, config=cfg,
                  max_shots=400, on_step=lambda st, a, new, ver: states.append(st))
        for st in states:
            if st.phase is not Phase.PLAY or st.cue_ball is not CueBallPlacement.IN_POSITION or st.cue_placed:
                continue
            seat = st.seat_to_act
            obs = Observation(observe(st, seat).state, disc.legal_actions(st), table, seat, "nine_ball")
            v = view_of(obs)
            if v.decision is not Decision.SHOOT or v.push_out_allowed or not geo.candidates(v):
                continue
            a = geo.act(obs)
            if not isinstance(a, ShotAction) or a.safety:
                continue
            res = probe.simulate(obs, probe.perturb(a.shot_array()[None], samples))
            kept = 0
            for k in range(samples):
                new, ver = disc.apply_shot_record(st, a, ShotRecord.from_sim(res[k]))
                if new.phase is Phase.GAME_OVER:
                    kept += new.winner == seat
                else:
                    kept += new.seat_to_act == seat and new.phase is Phase.PLAY and not ver.fouls
            rows.append((probe.quality(disc, st, table), kept / samples))
    return np.array(rows).reshape(-1, 2)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=78)
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--samples", type=int, default=64)
    args = p.parse_args(argv)
    r = measure(args.seed, args.games, args.samples)
    print(f"{len(r)} positions of {args.games} games (seed {args.seed}), {args.samples} noisy strokes each")
    for lo, hi in BINS:
        m = (r[:, 0] >= lo) & (r[:, 0] < hi)
        if m.any():
            q = float(r[m, 0].mean())
            print(f"q [{lo:.2f}, {hi:.2f}): {int(m.sum()):4d} positions, mean q {q:.3f}, kept {r[m, 1].mean():.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
