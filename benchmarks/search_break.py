"""The search agent's searched break (`break_search=True`) against the geometric break, on the
same racks and the same execution noise (nine-ball by default).

For each of ``--racks`` racks (rack seeds ``seed .. seed + racks - 1``) each agent places the
cue ball and chooses its break once (its CPU time per break decision measured, placement and
stroke together); the chosen stroke is then played ``--draws`` times under ICGA noise, both
agents drawing the same noise rows. Reported per agent: breaks, fouls (the rules' verdict,
e.g. 9B-5.4), legal breaks with a ball down, 9 down on a legal break (a win), nothing down,
and CPU per break decision (median and mean).

Usage::

    python benchmarks/search_break.py [--racks 50] [--draws 10] [--seed 0] [--discipline nine_ball]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def break_stats(agent, discipline: str, racks: int, draws: int, seed: int) -> dict:
    """Fouls, legal pots, wins and CPU of ``agent``'s breaks (module docstring)."""
    import numpy as np

    from agents.base import Observation
    from agents.tournament import _discipline, _table_for, make_rules_config
    from poolgym.envs.physics_io import make_noise
    from poolgym.rules.core import Phase, ShotAction
    from poolgym.rules.game import observe

    disc = _discipline(discipline)
    cfg = make_rules_config(discipline)
    table = _table_for(cfg)
    noise = make_noise("icga")
    n = dict(breaks=0, fouls=0, legal_pot=0, wins=0, nothing=0)
    cpu = []
    for r in range(racks):
        agent.reset(seed + r)
        state = disc.initial_state(cfg, seed + r)
        t = time.process_time()
        while True:
            obs = Observation(observe(state, state.seat_to_act).state, disc.legal_actions(state), table,
                              state.seat_to_act, discipline)
            act = agent.act(obs)
            if isinstance(act, ShotAction):
                break
            state, _ = disc.apply(state, act)
        cpu.append(time.process_time() - t)
        rng = np.random.default_rng(10_000 + seed + r)
        for _ in range(draws):
            row = noise.apply(act.shot_array()[None, :], rng)[0]
            a = ShotAction(*(float(x) for x in row), act.called_ball, act.called_pocket, act.safety, act.push_out)
            new, verdict = disc.apply(state, a)
            n["breaks"] += 1
            if verdict.fouls:
                n["fouls"] += 1
            elif new.phase is Phase.GAME_OVER:
                n["wins"] += 1
            elif verdict.pocketed:
                n["legal_pot"] += 1
            else:
                n["nothing"] += 1
    n["cpu_median_s"] = float(np.median(cpu))
    n["cpu_mean_s"] = float(np.mean(cpu))
    return n


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--racks", type=int, default=50)
    p.add_argument("--draws", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--discipline", default="nine_ball")
    p.add_argument("--kwargs", default="{}", help="the searched break's extra keyword arguments (JSON)")
    args = p.parse_args(argv)
    from agents.geometric import GeometricAgent
    from agents.search import SearchAgent

    agents = {"geometric break": GeometricAgent(seed=0),
              "searched break": SearchAgent(seed=0, break_search=True, **json.loads(args.kwargs))}
    for name, agent in agents.items():
        n = break_stats(agent, args.discipline, args.racks, args.draws, args.seed)
        b = n["breaks"]
        print(f"{name}: {b} breaks, fouls {n['fouls']} ({n['fouls'] / b:.3f}), legal with a ball down "
              f"{n['legal_pot']} ({n['legal_pot'] / b:.3f}), 9 down {n['wins']}, nothing down {n['nothing']}; "
              f"CPU per break decision median {n['cpu_median_s'] * 1e3:.0f} ms, mean {n['cpu_mean_s'] * 1e3:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
