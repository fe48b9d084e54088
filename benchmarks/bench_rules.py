"""Rules benchmark: random nine-ball games with the real physics, and the adjudication
cost per shot against the physics cost per shot.

    python benchmarks/bench_rules.py [--games 2000] [--discipline nine_ball] [--players N]

Prints games played, shots, how games ended, failures (must be 0), and
"adjudication / physics" time per shot (the ratio the vector env relies on: < 1).
"""
import argparse
import collections
import time

import numpy as np

from poolgym.rules import Phase, ShotAction, get_discipline
from poolgym.rules.game import simulate_record
from poolgym.rules.testing import check_invariants, random_action


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--discipline", default="nine_ball")
    ap.add_argument("--players", type=int, default=0, help="seats (0: the discipline's default)")
    ap.add_argument("--check-every", type=int, default=1, help="invariant check every k actions (0: never)")
    args, _ = ap.parse_known_args()
    d = get_discipline(args.discipline)
    ends = collections.Counter()
    t_sim = t_rule = 0.0
    shots = actions = failures = 0
    t0 = time.perf_counter()
    for seed in range(args.games):
        rng = np.random.default_rng(10_000 + seed)
        s = d.initial_state(d.config_cls(n_players=args.players) if args.players else None, seed)
        try:
            while s.phase is not Phase.GAME_OVER:
                a = random_action(s, rng, aim=0.9)
                if isinstance(a, ShotAction):
                    ta = time.perf_counter()
                    rec = simulate_record(d._lag_state(s), a, only=(0,)) if s.phase is Phase.LAG else simulate_record(s, a)
                    tb = time.perf_counter()
                    s, v = d.apply_shot_record(s, a, rec)
                    tc = time.perf_counter()
                    t_sim += tb - ta
                    t_rule += tc - tb
                    shots += 1
                else:
                    s, v = d.apply(s, a)
                actions += 1
                if args.check_every and actions % args.check_every == 0:
                    check_invariants(s)
            ends[(v.rule_refs[-1] if v.rule_refs else "?")] += 1
        except Exception as e:  # report, keep going
            failures += 1
            print(f"game {seed}: {type(e).__name__}: {e}")
    dt = time.perf_counter() - t0
    print(f"{args.discipline}: {args.games} games, {shots} shots, {actions} actions in {dt:.1f} s; failures {failures}")
    print("endings:", dict(ends))
    print(f"per shot: physics {1e6 * t_sim / max(shots, 1):.0f} us, adjudication {1e6 * t_rule / max(shots, 1):.0f} us, "
          f"ratio adjudication/physics {t_rule / max(t_sim, 1e-12):.3f}")




def batch_ratio(n_tables: int = 256, discipline: str = "nine_ball", breaks: bool = False):
    """Adjudicating a batch of tables vs simulating it with one ``simulate_batch`` call
    (positions from random games; ``breaks``: only opening breaks)."""
    import physics
    from poolgym.rules.geometry import get_table
    from poolgym.rules.shot_record import ShotRecord

    d = get_discipline(discipline)
    pairs = []
    seed = 0
    while len(pairs) < n_tables:
        rng = np.random.default_rng(seed)
        s = d.initial_state(None, seed)
        seed += 1
        while s.phase is not Phase.GAME_OVER and len(pairs) < n_tables:
            a = random_action(s, rng, aim=0.9)
            if breaks and s.phase is Phase.PLAY:
                break
            if isinstance(a, ShotAction) and s.phase is not Phase.LAG:
                pairs.append((s, a))
                s, _ = d.apply_shot_record(s, a, simulate_record(s, a))
            elif isinstance(a, ShotAction):
                s, _ = d.apply(s, a)
            else:
                s, _ = d.apply(s, a)
    ins = [d.shot_inputs(s, a) for s, a in pairs]
    rvw = np.stack([x[0] for x in ins])
    st = np.stack([x[1] for x in ins])
    shots = np.stack([x[2] for x in ins])
    table = get_table(pairs[0][0].config.table)
    cue = np.zeros(len(pairs), np.int64)
    physics.simulate_batch(table, rvw, shots, cue, s=st)  # warm-up
    res = physics.simulate_batch(table, rvw, shots, cue, s=st)

    def cpu(f, n=7):  # CPU time (process_time: robust to other load), best of n
        best = float("inf")
        for _ in range(n):
            t = time.process_time()
            f()
            best = min(best, time.process_time() - t)
        return best

    t_phys = cpu(lambda: physics.simulate_batch(table, rvw, shots, cue, s=st), 5)
    t_rules = cpu(lambda: [d.apply_shot_record(s, a, ShotRecord.from_batch(res, k)) for k, (s, a) in enumerate(pairs)])
    what = "opening breaks" if breaks else "random-game shots"
    print(f"batch of {len(pairs)} {what} (CPU time): simulate_batch {1e3 * t_phys:.1f} ms, records + adjudication "
          f"{1e3 * t_rules:.1f} ms ({1e6 * t_rules / len(pairs):.0f} us/table), ratio rules/physics "
          f"{t_rules / t_phys:.2f}")


if __name__ == "__main__":
    main()
    for _ in range(3):
        batch_ratio()
    batch_ratio(breaks=True)
