"""One table's stroke and aim: the float paths against numpy on a batch of one, in one run.

    python benchmarks/bench_one_table.py [--number 20000] [--repeat 5]

The envs perturb each table's stroke and aim each table's pot one table at a time. Three pairs,
each timed with ``timeit`` (best of ``--repeat`` runs of ``--number`` calls, microseconds per
call), the reference first:

* execution noise of one stroke: `physics.ExecutionNoise.apply` on a (1, 5) array, then V0
  capped as `poolgym.envs.session.Session.commit` caps it, against
  `ExecutionNoise.apply_stroke` (what the sessions call);
* `poolgym.planning.aim` of a batch of one (the numpy formulas) against `aim` of one point;
* `poolgym.planning.unit` of a batch of one against `unit` of one vector.

Each pair's results are compared bit for bit first (the same generator state for the noise);
a difference stops the run. Prints the ratio reference / float path.
"""

from __future__ import annotations

import argparse
import timeit

import numpy as np


def _noise_pair():
    import physics
    from poolgym.rules.game import MAX_CUE_SPEED

    noise = physics.ExecutionNoise.icga()
    row = np.array([3.0, 45.0, 0.0, 0.1, 0.2])
    g_ref, g_new = np.random.default_rng(1), np.random.default_rng(1)

    def ref():
        r = np.asarray(noise.apply(row.reshape(-1, 5), g_ref), float)
        r[:, 0] = np.minimum(r[:, 0], MAX_CUE_SPEED)
        return r.reshape(5)

    def new():
        return noise.apply_stroke(row, g_new, max_speed=MAX_CUE_SPEED)

    return "execution noise, one stroke", ref, new


def _aim_pair():
    from poolgym import planning

    cue, obj, tgt = np.array([1.0, 1.0]), np.array([0.5, 1.5]), np.array([0.0, 2.54])
    c1, o1, t1 = cue[None], obj[None], tgt[None]

    def ref():
        a = planning.aim(c1, o1, t1)
        return np.array([a.phi[0], a.cut[0], *a.ghost[0], a.d_cue[0], a.d_obj[0]])

    def new():
        a = planning.aim(cue, obj, tgt)
        return np.array([a.phi, a.cut, *a.ghost, a.d_cue, a.d_obj])

    return "planning.aim, one pot", ref, new


def _unit_pair():
    from poolgym import planning

    v = np.array([0.3, -1.7])
    v1 = v[None]
    return "planning.unit, one vector", (lambda: planning.unit(v1)[0]), (lambda: planning.unit(v))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    for name, ref, new in (_noise_pair(), _aim_pair(), _unit_pair()):
        if ref().tobytes() != new().tobytes():
            raise SystemExit(f"{name}: the two paths differ")
        t_ref = min(timeit.repeat(ref, number=args.number, repeat=args.repeat)) / args.number * 1e6
        t_new = min(timeit.repeat(new, number=args.number, repeat=args.repeat)) / args.number * 1e6
        print(f"{name:30s} numpy on a batch of one {t_ref:6.2f} us, float path {t_new:6.2f} us: {t_ref / t_new:4.1f}x")


if __name__ == "__main__":
    main()
