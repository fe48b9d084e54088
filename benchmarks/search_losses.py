"""Where the search agent loses to the geometric player: the lost games of a nine-ball run
replayed, the losing decision found and classified.

The games of a search-vs-geometric run (`agents.tournament`, as `bench_agents.py` plays them:
pairing (search, geometric), ICGA noise, rules defaults) are replayed exactly from their seeds
with every search logged (candidates, kinds, mean values). For each game the search did not
win, the losing decision is the search seat's last action before the opponent's final inning;
it is classified as

* ``opp_break_and_run``: the search seat never acted;
* ``foul``: the stroke fouled (ball in hand for the opponent, 9B-4.1);
* ``push_out``: a push-out (9B-5.6);
* ``missed_pot`` / ``missed_combo``: the searched stroke was a pot (or a combination on the 9)
  and missed;
* ``safety``: a safety stroke, after which the opponent ran out;

and the best candidates of that search are re-simulated `--resim` times from the exact
position under fresh noise draws: each one's value, the chance it keeps the table (a legal pot
without a foul), fouls or wins.

Usage::

    python benchmarks/search_losses.py --seed 31 --games 160 [--resim 200] [--kwargs '{}']

prints one line per lost game and the counts per class.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def _recording_search(**kw):
    """A search agent that logs each decision: its observation, every search's candidates,
    their kinds and mean values, and the action taken."""
    from agents.search import SearchAgent, nine_combos

    class Recording(SearchAgent):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            self.log: list = []
            self._cur: dict | None = None
            self._kinds: list = []

        def act(self, obs):
            self._cur = dict(obs=obs, searches=[])
            a = super().act(obs)
            self._cur["action"] = a
            self.log.append(self._cur)
            return a

        def candidate_actions(self, v, discipline=""):
            out = super().candidate_actions(v, discipline)
            n_pot = len(self.candidates(v)[: self.top_k]) * len(self.speed_factors) * len(self.spins)
            call = v.call_required or bool(v.callable_balls)
            n_combo = 2 * len(nine_combos(v)) if self.combos and discipline == "nine_ball" and not call else 0
            self._kinds = ["pot" if i < n_pot else "combo" if i < n_pot + n_combo else
                           "push" if a.push_out else "safety" for i, a in enumerate(out)]
            return out

        def escape_strokes(self, obs, v, disc):
            out = super().escape_strokes(obs, v, disc)
            self._kinds = self._kinds + ["escape"] * len(out)
            return out

        def searched(self, v, acts, values, counts):
            if self._cur is not None:
                self._cur["searches"].append(dict(acts=list(acts), values=np.asarray(values, float),
                                                  kinds=list(self._kinds)))

    return Recording(**kw)


def replay(seed: int, g: int, kwargs: dict):
    """Game ``g`` of the (search, geometric) pairing of a run with `seed`: (record, the
    recording search agent, its seat, steps (state, action, new state, verdict))."""
    from agents.geometric import GeometricAgent
    from agents.tournament import game_seeds, make_rules_config, play_game

    rack, si, sj, nrng = game_seeds(seed, 0, 1, g)
    s = _recording_search(seed=si, **kwargs)
    seats, seeds = ((s, GeometricAgent(seed=sj)), (si, sj)) if g % 2 == 0 else ((GeometricAgent(seed=sj), s), (sj, si))
    steps: list = []
    rec = play_game("nine_ball", seats, seed=rack, agent_seeds=seeds, noise="icga", noise_rng=nrng,
                    config=make_rules_config("nine_ball", {}, 400), max_shots=400,
                    on_step=lambda st, a, new, ver: steps.append((st, a, new, ver)))
    return rec, s, g % 2, steps


def resimulate(obs, acts: list, S: int, kwargs: dict, seed: int = 12345) -> list[dict]:
    """Each stroke of ``acts`` from ``obs`` under S common noise draws: mean value (the search
    agent's with `kwargs`), the rates of keeping the table, fouling and winning."""
    from agents.search import SearchAgent, _discipline
    from poolgym.rules.core import Phase
    from poolgym.rules.shot_record import ShotRecord

    disc = _discipline("nine_ball")
    probe = SearchAgent(seed=seed, **kwargs)
    res = probe.simulate(obs, probe.perturb(np.stack([a.shot_array() for a in acts]), S))
    me, out = obs.seat, []
    for c, a in enumerate(acts):
        vals, keep, foul, win = [], 0, 0, 0
        for k in range(S):
            new, ver = disc.apply_shot_record(obs.state, a, ShotRecord.from_sim(res[c * S + k]))
            vals.append(probe.value(disc, new, ver, me, obs.table))
            if new.phase is Phase.GAME_OVER:
                win += new.winner == me
            elif new.seat_to_act == me and new.phase is Phase.PLAY:
                keep += not ver.fouls
            foul += bool(ver is not None and ver.fouls)
        out.append(dict(value=round(float(np.mean(vals)), 3), keep=keep / S, foul=foul / S, win=win / S))
    return out


def losing_decision(seed: int, g: int, kwargs: dict, resim: int) -> dict:
    from poolgym.rules.core import ShotAction

    rec, agent, me, steps = replay(seed, g, kwargs)
    k = len(steps)
    while k > 0 and steps[k - 1][0].seat_to_act != me:
        k -= 1
    if k == 0:
        return dict(game=g, cls="opp_break_and_run")
    st, a, _, ver = steps[k - 1]
    entry = agent.log[sum(1 for x in steps[:k] if x[0].seat_to_act == me) - 1]
    d = dict(game=g, balls_left=len(st.balls_on_table()), opp_shots=len(steps) - k)
    if not isinstance(a, ShotAction):
        d["cls"] = "non_shot"
        return d
    search = entry["searches"][-1] if entry["searches"] else None
    kind = None
    if search is not None:
        vals = np.where(np.isfinite(search["values"]), search["values"], -9.0)
        order = list(np.argsort(-vals, kind="stable")[:4])
        kind = search["kinds"][int(order[0])]
        for kd in ("pot", "safety", "combo", "escape"):
            ks = [i for i in range(len(vals)) if search["kinds"][i] == kd and vals[i] > -9.0]
            if ks and max(ks, key=lambda i: vals[i]) not in order:
                order.append(max(ks, key=lambda i: vals[i]))
        sims = resimulate(entry["obs"], [search["acts"][int(i)] for i in order], resim, kwargs)
        d["candidates"] = [dict(kind=search["kinds"][int(i)], searched=round(float(vals[int(i)]), 3), **r)
                           for i, r in zip(order, sims)]
    if a.push_out:
        d["cls"] = "push_out"
    elif ver is not None and ver.fouls:
        d["cls"] = "foul"
    elif kind in ("pot", "combo"):
        d["cls"] = "missed_" + kind
    else:
        d["cls"] = "safety"
    return d


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=31)
    p.add_argument("--games", type=int, default=160)
    p.add_argument("--resim", type=int, default=200)
    p.add_argument("--kwargs", default="{}", help="the search agent's keyword arguments (JSON)")
    args = p.parse_args(argv)
    kw = json.loads(args.kwargs)
    counts: collections.Counter = collections.Counter()
    lost = 0
    for g in range(args.games):
        rec, _, me, _ = replay(args.seed, g, kw)
        if rec.winner == me:
            continue
        lost += 1
        d = losing_decision(args.seed, g, kw, args.resim)
        counts[d["cls"]] += 1
        print(json.dumps(d), flush=True)
    print(f"{lost} of {args.games} games not won (seed {args.seed}): {dict(counts.most_common())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
