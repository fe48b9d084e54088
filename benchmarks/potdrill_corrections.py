"""What each correction of the parameterised action does on the pot drill: the expected success
of constant actions (the prior's pick with one correction held at a value) against the all-zero
action (the geometric pot), on the same positions and noise draws.

    python benchmarks/potdrill_corrections.py [--positions 600] [--draws 4] [--aim ghost]

``poolgym/PotDrill-v0`` with ``action_mode="param"`` under ICGA noise; each row is a player that
plays the same flat Box action at every position (`agents.drill_eval.drill_returns`, test
seeds 10_000_000 + i, every position replayed under ``--draws`` noise draws), with its expected
success and the paired difference to the all-zero action (95% intervals over positions). A
learner whose policy drifts to one of these values pays about that difference: e.g. a speed
correction near +1 (the stick speed doubled).
"""

from __future__ import annotations

import argparse

import numpy as np

#: (label, correction index, value): the constant actions compared with the all-zero one
#: (`poolgym.envs.param`: 0 cut offset, 1 speed, 2 side, 3 vertical tip, 4 elevation)
VARIANTS = (("cut +0.17", 0, 0.17), ("cut -0.17", 0, -0.17), ("speed +0.25", 1, 0.25), ("speed +0.5", 1, 0.5),
            ("speed +1", 1, 1.0), ("speed -0.25", 1, -0.25), ("side +0.5", 2, 0.5), ("vert +0.5", 3, 0.5),
            ("vert -0.5", 3, -0.5))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=600)
    ap.add_argument("--draws", type=int, default=4)
    ap.add_argument("--aim", default="ghost", choices=("ghost", "window"))
    args = ap.parse_args(argv)
    import gymnasium as gym

    import poolgym  # noqa: F401  (registers the ids)
    from agents.drill_eval import drill_returns, expected_rate, paired_expected_difference

    env_id = "poolgym/PotDrill-v0"
    kw = dict(action_mode="param", noise="icga", param_aim=args.aim)
    probe = gym.make(env_id, **kw)
    n = probe.action_space.shape[0]
    probe.close()
    k0 = n - 7  # the corrections follow the choice scores

    def constant(vec):
        def play(env, obs, seed):
            return env.step(vec)
        return play

    players = {"zero": constant(np.zeros(n, np.float32))}
    for label, i, value in VARIANTS:
        v = np.zeros(n, np.float32)
        v[k0 + i] = value
        players[label] = constant(v)
    seeds = range(10_000_000, 10_000_000 + args.positions)
    r = drill_returns(players, env_id, seeds, kw, draws=args.draws)
    print(f"{env_id}, ICGA noise, aim {args.aim}: {args.positions} positions x {args.draws} draws")
    print(f"{'action':12s} {'expected success':>16s}  {'95%':15s}  vs all-zero (paired)")
    for name, v in r.items():
        e = expected_rate(v)
        d, lo, hi = paired_expected_difference(v, r["zero"])
        print(f"{name:12s} {e.rate:16.3f}  [{e.lo:.3f}, {e.hi:.3f}]  {d:+.3f} [{lo:+.3f}, {hi:+.3f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
