"""Time pooltool 0.6.0's ``simulate`` on shot recipes (reference for ``bench_physics.py``).

Runs UNDER pooltool's own interpreter (its venv, e.g. ``.pooltool/bin/python``; see
``../shared/crosscheck/README.md`` for the install), never under the project's: pooltool is
imported only here. Usage::

    .pooltool/bin/python benchmarks/pooltool_timer.py RECIPES.json [--repeat 3] [--out T.json]

RECIPES.json has the cross-check schema: ``table.specs`` (pooltool ``PocketTableSpecs`` fields),
``ball_params``, ``cue_specs``, ``physics_models`` (pooltool resolver names, e.g.
``ball_ball.model = frictional_inelastic``, ``ball_linear_cushion.model = han_2005``) and
``shots`` and/or ``random_shots``, each ``{id, balls: {id: [x, y]}, cue: {V0, phi, theta, a, b,
cue_ball_id}}``. ``--ball-ball`` and ``--cushion`` override the file's model names.

The physics engine is built explicitly (pooltool's ``~/.config`` resolver is never read): the
named ball-ball model (``frictional_inelastic`` with Alciatore friction from the file, or
``frictionless_elastic``), the named cushion model for straight and jaw segments (``han_2005``,
or ``mathavan_2010`` with the file's max_steps/delta_p), canonical pocket and transition models,
instantaneous-point cue strike with squirt off. HOME is pointed at a temporary directory before
pooltool is imported (it writes ``~/.config/pooltool`` on import) unless ``--keep-home``.

Every shot is simulated once untimed (numba compilation and warm-up), then ``--repeat`` timed
runs of ``simulate(system, engine, inplace=True)`` on freshly built systems (building excluded).
Prints one JSON object::

    {"shots": {shot_id: {"seconds": median wall time over repeats, "seconds_all": [...],
                         "cpu_seconds": median process CPU time (robust on a loaded machine),
                         "n_events": int, "n_events_expected": int | null}},
     "summary": {"n_shots", "mean_s", "median_s", "p95_s", "max_s", "total_s",
                 "cpu_mean_s", "cpu_median_s", "events_mean", "events_median",
                 "events_p95", "events_max", "n_events_mismatch", "warmup_s", "repeat",
                 "models", "pooltool_version"}}

``n_events`` counts pooltool's events except its two NONE bookends (the cross-check files'
definition); ``n_events_expected`` is the recipe's ``result.n_events`` when present.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time


def _percentile(values, q):
    vals = sorted(values)
    if not vals:
        return float("nan")
    k = (len(vals) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(vals) - 1)
    return vals[lo] + (vals[hi] - vals[lo]) * (k - lo)


def _model_names(recipes, ball_ball, cushion):
    pm = recipes.get("physics_models", {})
    mp = recipes.get("model_parameters", {})
    bb = ball_ball or pm.get("ball_ball", {}).get("model") or mp.get("ball_ball", {}).get("model")
    cu = (cushion or pm.get("ball_linear_cushion", {}).get("model")
          or mp.get("ball_cushion", {}).get("model"))
    return bb or "frictional_inelastic", cu or "han_2005"


def build_engine(recipes, ball_ball, cushion):
    """pooltool PhysicsEngine with the named models (see module docstring)."""
    from pooltool.physics.engine import PhysicsEngine
    from pooltool.physics.resolve.ball_ball.friction import AlciatoreBallBallFriction
    from pooltool.physics.resolve.ball_ball.frictional_inelastic import FrictionalInelastic
    from pooltool.physics.resolve.ball_ball.frictionless_elastic import FrictionlessElastic
    from pooltool.physics.resolve.ball_cushion.han_2005.model import (
        Han2005Circular,
        Han2005Linear,
    )
    from pooltool.physics.resolve.ball_cushion.mathavan_2010.model import (
        Mathavan2010Circular,
        Mathavan2010Linear,
    )
    from pooltool.physics.resolve.ball_pocket import CanonicalBallPocket
    from pooltool.physics.resolve.resolver import VERSION, Resolver
    from pooltool.physics.resolve.stick_ball.instantaneous_point import InstantaneousPoint
    from pooltool.physics.resolve.transition import CanonicalTransition

    pm = recipes.get("physics_models", {})
    if ball_ball == "frictional_inelastic":
        fr = pm.get("ball_ball", {}).get("friction", {})
        bb = FrictionalInelastic(friction=AlciatoreBallBallFriction(
            a=fr.get("a", 0.009951), b=fr.get("b", 0.108), c=fr.get("c", 1.088)))
    elif ball_ball == "frictionless_elastic":
        bb = FrictionlessElastic()
    else:
        raise ValueError(f"ball_ball: unknown model {ball_ball!r}")
    if cushion == "han_2005":
        lin, circ = Han2005Linear(), Han2005Circular()
    elif cushion == "mathavan_2010":
        lp = pm.get("ball_linear_cushion", {})
        cp = pm.get("ball_circular_cushion", {})
        lin = Mathavan2010Linear(max_steps=int(lp.get("max_steps", 1_000_000)),
                                 delta_p=float(lp.get("delta_p", 1e-7)))
        circ = Mathavan2010Circular(max_steps=int(cp.get("max_steps", 1_000_000)),
                                    delta_p=float(cp.get("delta_p", 1e-7)))
    else:
        raise ValueError(f"cushion: unknown model {cushion!r}")
    resolver = Resolver(
        ball_ball=bb,
        ball_linear_cushion=lin,
        ball_circular_cushion=circ,
        ball_pocket=CanonicalBallPocket(),
        stick_ball=InstantaneousPoint(english_throttle=1.0, squirt_throttle=0.0),
        transition=CanonicalTransition(),
        version=VERSION,
    )
    return PhysicsEngine(resolver=resolver)


class SystemFactory:
    """Builds fresh pooltool Systems for shot recipes on the recipes' table."""

    BALL_FIELDS = ("m", "R", "u_s", "u_r", "u_sp_proportionality", "u_b", "e_b", "e_c",
                   "f_c", "g")
    CUE_FIELDS = ("brand", "M", "length", "tip_radius", "shaft_radius_at_tip",
                  "shaft_radius_at_butt", "end_mass")
    TABLE_FIELDS = ("l", "w", "cushion_width", "cushion_height", "corner_pocket_width",
                    "corner_pocket_angle", "corner_pocket_depth", "corner_pocket_radius",
                    "corner_jaw_radius", "side_pocket_width", "side_pocket_angle",
                    "side_pocket_depth", "side_pocket_radius", "side_jaw_radius", "height",
                    "lights_height")

    def __init__(self, recipes):
        import pooltool as pt
        from pooltool.objects.ball.params import BallParams
        from pooltool.objects.cue.datatypes import CueSpecs
        from pooltool.objects.table.specs import PocketTableSpecs

        self.pt = pt
        specs = recipes.get("table", {}).get("specs", {})
        self.table_specs = PocketTableSpecs(
            **{k: specs[k] for k in self.TABLE_FIELDS if k in specs})
        bp = recipes.get("ball_params", {})
        self.ball_params = BallParams(**{k: bp[k] for k in self.BALL_FIELDS if k in bp})
        cs = recipes.get("cue_specs", {})
        self.cue_specs = CueSpecs(**{k: cs[k] for k in self.CUE_FIELDS if k in cs})

    def build(self, shot):
        pt = self.pt
        table = pt.Table.from_table_specs(self.table_specs)
        balls = {}
        for bid, xy in shot["balls"].items():
            ball = pt.Ball.create(bid, xy=xy[:2])
            ball.params = self.ball_params
            ball.state.rvw[0, 2] = self.ball_params.R
            balls[bid] = ball
        c = shot["cue"]
        cue = pt.Cue(V0=c["V0"], phi=c["phi"], theta=c.get("theta", 0.0), a=c.get("a", 0.0),
                     b=c.get("b", 0.0), cue_ball_id=c.get("cue_ball_id", "cue"),
                     specs=self.cue_specs)
        return pt.System(cue=cue, table=table, balls=balls)


def count_events(system):
    from pooltool.events.datatypes import EventType
    return sum(1 for e in system.events if e.event_type != EventType.NONE)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("recipes", help="recipes JSON (cross-check schema)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per shot (median kept)")
    ap.add_argument("--ball-ball", choices=["frictional_inelastic", "frictionless_elastic"])
    ap.add_argument("--cushion", choices=["han_2005", "mathavan_2010"])
    ap.add_argument("--shots", help="comma-separated shot ids to run (default: all)")
    ap.add_argument("--out", help="also write the JSON here")
    ap.add_argument("--keep-home", action="store_true",
                    help="do not point HOME at a temporary directory")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        raise ValueError("--repeat must be >= 1")

    if not args.keep_home:
        os.environ["HOME"] = tempfile.mkdtemp(prefix="pooltool_home_")
    with open(args.recipes) as f:
        recipes = json.load(f)
    shots = list(recipes.get("shots", [])) + list(recipes.get("random_shots", []))
    if args.shots:
        keep = set(args.shots.split(","))
        shots = [s for s in shots if s["id"] in keep]
    if not shots:
        raise ValueError("recipes: no shots to run")

    import pooltool as pt

    bb_name, cu_name = _model_names(recipes, args.ball_ball, args.cushion)
    engine = build_engine(recipes, bb_name, cu_name)
    factory = SystemFactory(recipes)

    t0 = time.perf_counter()
    for shot in shots:  # warm-up: compile every code path the shots reach (untimed)
        pt.simulate(factory.build(shot), engine=engine, inplace=True)
    warmup = time.perf_counter() - t0

    results = {}
    for shot in shots:
        times = []
        cpu = []
        n_events = None
        for _ in range(args.repeat):
            system = factory.build(shot)
            c = time.process_time()
            t = time.perf_counter()
            pt.simulate(system, engine=engine, inplace=True)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            n_events = count_events(system)
        expected = shot.get("result", {}).get("n_events")
        results[shot["id"]] = {"seconds": statistics.median(times), "seconds_all": times,
                               "cpu_seconds": statistics.median(cpu),
                               "n_events": n_events, "n_events_expected": expected}

    secs = [r["seconds"] for r in results.values()]
    cpus = [r["cpu_seconds"] for r in results.values()]
    evs = [r["n_events"] for r in results.values()]
    summary = {
        "n_shots": len(results),
        "mean_s": statistics.fmean(secs),
        "median_s": statistics.median(secs),
        "p95_s": _percentile(secs, 0.95),
        "max_s": max(secs),
        "total_s": sum(secs),
        "cpu_mean_s": statistics.fmean(cpus),
        "cpu_median_s": statistics.median(cpus),
        "events_mean": statistics.fmean(evs),
        "events_median": statistics.median(evs),
        "events_p95": _percentile(evs, 0.95),
        "events_max": max(evs),
        "n_events_mismatch": sum(1 for r in results.values()
                                 if r["n_events_expected"] is not None
                                 and r["n_events_expected"] != r["n_events"]),
        "warmup_s": warmup,
        "repeat": args.repeat,
        "models": {"ball_ball": bb_name, "cushion": cu_name, "squirt": "off"},
        "pooltool_version": getattr(pt, "__version__", "unknown"),
    }
    out = {"shots": results, "summary": summary}
    text = json.dumps(out, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
