"""A search-agent variant against the default, paired game for game (search vs geometric).

Both the default search agent and the variant (`--kwargs`, the agent's keyword arguments as
JSON) play the same games against the geometric player (`agents.tournament`, as
`bench_agents.py` plays them: seats alternating, ICGA noise, rules defaults; game g has the
same rack, seeds and noise stream in both runs). Two runs of the same seed agree on most games
(the variant's choices change a game's course only now and then, and most games are won or
lost either way), so the comparison that counts is over the discordant games: the games only
the variant won against the games only the default won, with the exact two-sided McNemar
(sign) test on them. Each line reports wins / games with the Wilson 95% interval.

Usage::

    python benchmarks/search_paired.py --kwargs '{"runout_r": 0.7}' [--seed 31] [--games 400]
                                       [--discipline nine_ball] [--workers 1] [--cache-dir DIR]

With ``--cache-dir`` the games of each run are kept (JSON lines, one file per agent, seed and
game count) and a run that is stopped resumes; the default's file serves every variant.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from agents.stats import wilson_interval  # noqa: E402 - after the path set-up

STRAIGHT_POOL_POINTS = 25


def search_wins(discipline: str, kwargs: dict, games: int, seed: int, workers: int = 1,
                cache: str | None = None) -> dict:
    """{game: 1 if the search agent (with ``kwargs``) won it, else 0} over ``games`` games
    against the geometric player."""
    from agents.tournament import AgentSpec, TournamentConfig, run_tournament

    rules = {"target_points": STRAIGHT_POOL_POINTS} if discipline == "straight_pool" else {}
    cfg = TournamentConfig(discipline, (AgentSpec("search", dict(kwargs)), AgentSpec("geometric")), games, seed,
                           "icga", rules, 400)
    res = run_tournament(cfg, workers=workers, progress=sys.stderr.isatty(), cache=cache)
    return {int(r.game): int(r.winner is not None and r.players[r.winner] == "search") for r in res.games}


def sign_test_p(k: int, n: int) -> float:
    """Two-sided exact binomial p-value of ``k`` successes in ``n`` fair trials (McNemar's
    exact test on ``n`` discordant pairs); 1 when ``n`` is 0."""
    if n == 0:
        return 1.0
    lo = min(k, n - k)
    tail = sum(math.comb(n, i) for i in range(lo + 1)) / 2.0 ** n
    return min(1.0, 2.0 * tail)


def paired(base: dict, new: dict) -> dict:
    """The paired comparison of two {game: won} maps over their common games: games, wins of
    each, the discordant counts (won only by the variant / only by the default) and the sign
    test's p-value on them."""
    common = sorted(set(base) & set(new))
    kb = sum(base[g] for g in common)
    kn = sum(new[g] for g in common)
    only_new = sum(1 for g in common if new[g] and not base[g])
    only_base = sum(1 for g in common if base[g] and not new[g])
    return dict(games=len(common), wins_new=kn, wins_base=kb, only_new=only_new, only_base=only_base,
                p=sign_test_p(only_new, only_new + only_base))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kwargs", required=True, help="the variant's keyword arguments (JSON)")
    p.add_argument("--seed", type=int, default=31)
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--discipline", default="nine_ball")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--cache-dir", default=None)
    args = p.parse_args(argv)
    kw = json.loads(args.kwargs)

    def cache(tag: str):
        if not args.cache_dir:
            return None
        os.makedirs(args.cache_dir, exist_ok=True)
        return os.path.join(args.cache_dir, f"{args.discipline}_{tag}_{args.seed}_{args.games}.jsonl")

    tag = "search_" + hashlib.sha1(json.dumps(kw, sort_keys=True).encode()).hexdigest()[:10]
    base = search_wins(args.discipline, {}, args.games, args.seed, args.workers, cache("search_default"))
    new = search_wins(args.discipline, kw, args.games, args.seed, args.workers, cache(tag))
    d = paired(base, new)
    n = d["games"]
    for name, k in (("default", d["wins_base"]), (f"variant {json.dumps(kw)}", d["wins_new"])):
        lo, hi = wilson_interval(k, n)
        print(f"{name}: {k}/{n} = {k / n:.3f} [{lo:.3f}, {hi:.3f}]")
    print(f"discordant games: variant only {d['only_new']}, default only {d['only_base']}, "
          f"sign test p = {d['p']:.3f} ({args.discipline}, seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
