"""Physics speed benchmark (issue 2 bars; measured, not asserted).

    python benchmarks/bench_physics.py [--quick] [--pooltool-python PATH] [--json OUT]

Suites (han_2005 cushions, frictional_inelastic balls, squirt off, on the cross-check table:
pooltool ``PocketTableSpecs`` of ``../shared/crosscheck/han.json`` when present, else WPA 9 ft):

* ``break9``  - the 9-ball break recipe of the cross-check file (or a generated one),
* ``break15`` - the 15-ball (8-ball) break recipe,
* ``cut30``   - 2-ball 30-degree cut,
* ``midgame`` - 500 seeded random mid-game shots on a 9-ball layout (10 balls placed uniformly,
  V0 ~ U(0.5, 4) m/s, phi ~ U(0, 360), a, b ~ U(-0.3, 0.3)),
* ``midgame16`` - the same with 16 balls (an eight-ball or BCA table), and its cost per shot
  relative to ``midgame``.

Reported: microseconds per shot (mean and median) single-threaded through ``physics.simulate`` (start-up
excluded; process CPU time, best of several runs, so other jobs on the machine matter less),
shots/s through ``physics.simulate_batch`` with B = 1, 64, 1024 (wall clock with all threads,
and shots per CPU-second = per core), events per shot p50/p95/max, cold compile (empty numba cache) and warm start
(import + first shot, cache filled) in fresh subprocesses, and 1,000 seeded random 15-ball
breaks at V0 ~ U(8, 12) m/s (overflow count, events p50/p95/p99/max).

With ``--pooltool-python PATH`` the same shots are written as a recipes JSON (cross-check
schema) and timed by ``PATH benchmarks/pooltool_timer.py RECIPES.json`` (pooltool 0.6.0, same
models, start-up excluded; its JSON ``shots`` entries give ``cpu_seconds`` per shot, compared
with our CPU time per shot); the per-suite ratio pooltool/ours is printed. ``--pooltool-validate N`` additionally simulates
N fresh random mid-game shots in both engines and counts matching outcomes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

# numba's default OpenMP layer busy-waits between parallel regions, which wastes cores (and
# collapses throughput) on a shared, oversubscribed machine; the work-queue layer does not.
# Override with NUMBA_THREADING_LAYER=omp|tbb|workqueue.
os.environ.setdefault("NUMBA_THREADING_LAYER", "workqueue")

import numba  # noqa: E402
import physics  # noqa: E402
from physics.crosscheck import setup_from_doc, shot_inputs  # noqa: E402

SHARED = REPO / ".." / "shared" / "crosscheck" / "han.json"
R = physics.BallParams().R


# ------------------------------------------------------------------------------ recipes
def header() -> dict:
    """Top-level blocks of a recipes document (table, balls, cue, models)."""
    if SHARED.exists():
        doc = json.loads(SHARED.read_text())
        return {k: doc[k] for k in ("table", "ball_params", "cue_specs", "physics_models") if k in doc}
    sp = physics.Table.wpa("9ft").specs
    return {"table": {"specs": {k: getattr(sp, k) for k in sp.__dataclass_fields__}},
            "ball_params": {}, "cue_specs": {"M": 0.567},
            "physics_models": {"ball_ball": {"model": "frictional_inelastic"},
                               "ball_linear_cushion": {"model": "han_2005"},
                               "ball_circular_cushion": {"model": "han_2005"},
                               "stick_ball": {"squirt_throttle": 0.0}}}


def rack_positions(table, n_rows, rng=None, gap=0.0, diamond=False):
    fx, fy = table.foot_spot
    d = 2 * R + gap
    pos = []
    rows = [1, 2, 3, 2, 1] if diamond else list(range(1, n_rows + 1))
    for r, k in enumerate(rows):
        for c in range(k):
            pos.append((fx + (c - (k - 1) / 2) * d, fy + r * d * math.sqrt(3) / 2))
    pos = np.array(pos)
    if rng is not None and gap > 0:
        pos += rng.uniform(-gap / 4, gap / 4, pos.shape)
    return pos


def recipe(sid, xy_by_id, V0, phi, theta=0.0, a=0.0, b=0.0):
    return {"id": sid, "balls": {k: [float(x), float(y)] for k, (x, y) in xy_by_id.items()},
            "cue": {"V0": float(V0), "phi": float(phi), "theta": float(theta), "a": float(a),
                    "b": float(b), "cue_ball_id": "cue"}}


def fixed_suites(table) -> dict:
    if SHARED.exists():
        shots = {s["id"]: s for s in json.loads(SHARED.read_text())["shots"]}
        strip = lambda s: {k: s[k] for k in ("id", "balls", "cue")}  # noqa: E731
        return {"break9": strip(shots["12_break_9ball"]), "break15": strip(shots["13_break_8ball"]),
                "cut30": strip(shots["07_cut30_corner"])}
    p9 = rack_positions(table, 0, diamond=True)
    p15 = rack_positions(table, 5)
    cue = (table.w / 2, table.head_string_y)
    ob = np.array([table.w * 0.75, table.l * 0.4])
    return {
        "break9": recipe("break9", {"cue": cue, **{str(k + 1): p for k, p in enumerate(p9)}}, 5.2, 90.0),
        "break15": recipe("break15", {"cue": cue, **{str(k + 1): p for k, p in enumerate(p15)}}, 5.2, 90.0),
        "cut30": recipe("cut30", {"cue": (ob[0] - 0.3, ob[1] - 0.5), "1": ob}, 2.0,
                        math.degrees(math.atan2(0.5, 0.3)) - 10),
    }


def midgame_recipes(table, n=500, seed=2024, n_balls=10) -> list[dict]:
    rng = np.random.default_rng(seed)
    out = []
    tag = "m" if n_balls == 10 else f"m{n_balls}_"
    for k in range(n):
        pts = []
        while len(pts) < n_balls:
            p = rng.uniform([R + 0.005, R + 0.005], [table.w - R - 0.005, table.l - R - 0.005])
            if all(math.hypot(*(p - q)) > 2 * R + 1e-3 for q in pts):
                pts.append(p)
        a, b = rng.uniform(-0.3, 0.3, 2)
        ids = ["cue"] + [str(i) for i in range(1, n_balls)]
        out.append(recipe(f"{tag}{k:03d}", dict(zip(ids, pts)), rng.uniform(0.5, 4.0),
                          rng.uniform(0, 360), 0.0, a, b))
    return out


def random_breaks(table, n=1000, seed=7, gap=1e-4):
    """(rvw (n, 16, 3, 3), shots (n, 5)): 15-ball racks with random gaps <= ``gap``, cue ball
    behind the head string, aimed at the apex (+-0.3 deg), V0 ~ U(8, 12) m/s, small spin."""
    rng = np.random.default_rng(seed)
    rvw = np.zeros((n, 16, 3, 3))
    shots = np.zeros((n, 5))
    for k in range(n):
        p = rack_positions(table, 5, rng, gap=rng.uniform(0, gap))
        c = np.array([rng.uniform(0.2, table.w - 0.2), rng.uniform(0.1, table.head_string_y)])
        rvw[k, 0, 0, :2] = c
        rvw[k, 1:, 0, :2] = p
        phi = math.degrees(math.atan2(*(p[0] - c)[::-1])) + rng.normal(0, 0.3)
        shots[k] = [rng.uniform(8, 12), phi, 0.0, rng.uniform(-0.2, 0.2), rng.uniform(-0.3, 0.3)]
    rvw[:, :, 0, 2] = R
    return rvw, shots


# ------------------------------------------------------------------------------ timing
def as_arrays(recipes, bp):
    """Stack same-size recipes into (rvw (B, N, 3, 3), shots (B, 5))."""
    rvw, shots = [], []
    for s in recipes:
        _, r, sh = shot_inputs(s, bp.R)
        rvw.append(r)
        shots.append([sh.V0, sh.phi, sh.theta, sh.a, sh.b])
    return np.stack(rvw), np.array(shots)


def time_single(table, recipes, kw, repeat=3):
    """Best-of-``repeat`` time per shot through physics.simulate (process CPU time, which
    is robust to other jobs sharing the machine), and event counts."""
    bp = kw["ball_params"]
    per, ev = [], []
    for s in recipes:
        _, rvw, sh = shot_inputs(s, bp.R)
        best = math.inf
        for _ in range(repeat):
            t0 = time.process_time()
            res = physics.simulate(table, rvw, sh, **kw)
            best = min(best, time.process_time() - t0)
        per.append(best)
        ev.append(res.n_events)
    return np.array(per), np.array(ev)


def time_batch(table, rvw, shots, kw, B, min_time=1.0):
    """(shots/s wall, shots per CPU-second) of repeated simulate_batch calls of size B."""
    n = len(shots)
    idx = np.arange(B) % n
    r, s = rvw[idx], shots[idx]
    cb = np.zeros(B, dtype=np.int64)
    physics.simulate_batch(table, r, s, cb, **kw)
    count, t0, c0 = 0, time.perf_counter(), time.process_time()
    while True:
        physics.simulate_batch(table, r, s, cb, **kw)
        count += B
        el = time.perf_counter() - t0
        if el >= min_time:
            return count / el, count / (time.process_time() - c0)


def start_times():
    """((wall, cpu) cold compile s, (wall, cpu) warm import + first shots s) in fresh
    subprocesses; CPU time is reported too because wall time balloons on a loaded machine."""
    code = ("import time; t0 = time.perf_counter(); c0 = time.process_time(); import numpy as np, physics; "
            "rvw = np.zeros((2, 3, 3)); rvw[0, 0] = [0.6, 0.6, 0.028575]; rvw[1, 0] = [0.6, 1.5, 0.028575]; "
            "physics.simulate(physics.Table.wpa('9ft'), rvw, physics.Shot(2.0, 90.0)); "
            "t1 = time.perf_counter(); c1 = time.process_time(); "
            "physics.simulate_batch(physics.Table.wpa('9ft'), rvw[None].repeat(2, 0), "
            "np.array([[2.0, 90, 0, 0, 0]] * 2), np.zeros(2, dtype=int)); "
            "print(t1 - t0, c1 - c0, time.perf_counter() - t0, time.process_time() - c0)")
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d)

        def run():
            out = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO,
                                 capture_output=True, text=True, check=True).stdout.split()
            return [float(x) for x in out[-4:]]
        cold = run()
        warm = min((run() for _ in range(2)), key=lambda r: r[0])
    return cold, warm


def pooltool_times(py, timer, recipes_doc):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(recipes_doc, f)
        path = f.name
    try:
        out = subprocess.run([py, timer, path],
                             capture_output=True, text=True, cwd=REPO, timeout=3600)
        if out.returncode != 0:
            print("pooltool_timer failed:\n" + out.stderr[-2000:])
            return None
        doc = json.loads(out.stdout[out.stdout.index("{"):])
        shots = doc.get("shots", [])
        if isinstance(shots, dict):  # {id: {"cpu_seconds", "seconds", ...}}
            shots = [dict(v, id=k) for k, v in shots.items()]

        def t(rec):  # prefer process CPU time (as ours), else wall time
            for key in ("cpu_seconds", "cpu_time_s", "time_s", "seconds"):
                if key in rec:
                    return float(rec[key])
            return math.nan
        return {rec["id"]: t(rec) for rec in shots}
    finally:
        os.unlink(path)


# Run under pooltool's python by ``--pooltool-validate``: simulate recipes with pooltool 0.6.0
# (models from the recipes file, built explicitly) and print their outcomes in the cross-check
# schema, so compare.py can judge our engine on fresh random shots.
POOLTOOL_OUTCOMES = r"""
import json, sys
import pooltool as pt
from pooltool.events import EventType
from pooltool.objects.table.specs import PocketTableSpecs
from pooltool.objects.ball.params import BallParams
from pooltool.objects.cue.datatypes import CueSpecs
from pooltool.physics.engine import PhysicsEngine
from pooltool.physics.resolve.resolver import Resolver
from pooltool.physics.resolve.ball_ball.frictional_inelastic import FrictionalInelastic
from pooltool.physics.resolve.ball_ball.frictionless_elastic import FrictionlessElastic
from pooltool.physics.resolve.ball_ball.friction import AlciatoreBallBallFriction
from pooltool.physics.resolve.ball_cushion.han_2005.model import Han2005Linear, Han2005Circular
from pooltool.physics.resolve.ball_pocket import CanonicalBallPocket
from pooltool.physics.resolve.stick_ball.instantaneous_point import InstantaneousPoint
from pooltool.physics.resolve.transition import CanonicalTransition
doc = json.load(open(sys.argv[1]))
sp = {k: v for k, v in doc["table"]["specs"].items() if k != "table_type"}
table = pt.Table.from_table_specs(PocketTableSpecs(**sp))
keys = ("m", "R", "u_s", "u_r", "u_sp_proportionality", "u_b", "e_b", "e_c", "f_c", "g")
bp = BallParams(**{k: doc["ball_params"][k] for k in keys if k in doc.get("ball_params", {})})
bbd = doc["physics_models"]["ball_ball"]
fr = bbd.get("friction", {})
bb = (FrictionalInelastic(friction=AlciatoreBallBallFriction(a=fr["a"], b=fr["b"], c=fr["c"]))
      if bbd["model"] == "frictional_inelastic" else FrictionlessElastic())
engine = PhysicsEngine(resolver=Resolver(
    ball_ball=bb, ball_linear_cushion=Han2005Linear(), ball_circular_cushion=Han2005Circular(),
    ball_pocket=CanonicalBallPocket(), transition=CanonicalTransition(),
    stick_ball=InstantaneousPoint(english_throttle=1.0, squirt_throttle=0.0)))
M = doc.get("cue_specs", {}).get("M", 0.567)
out = []
for s in doc["shots"]:
    balls = {b: pt.Ball.create(b, xy=xy[:2], **{k: getattr(bp, k) for k in keys})
             for b, xy in s["balls"].items()}
    c = s["cue"]
    cue = pt.Cue(cue_ball_id=c["cue_ball_id"], specs=CueSpecs(M=M))
    cue.set_state(V0=c["V0"], phi=c["phi"], theta=c["theta"], a=c["a"], b=c["b"])
    r = pt.simulate(pt.System(cue=cue, table=table, balls=balls), engine=engine)
    first, cush, pk = None, {}, []
    for e in r.events:
        if e.event_type == EventType.BALL_BALL and first is None and c["cue_ball_id"] in e.ids:
            first = [i for i in e.ids if i != c["cue_ball_id"]][0]
        if e.event_type in (EventType.BALL_LINEAR_CUSHION, EventType.BALL_CIRCULAR_CUSHION):
            cush.setdefault(e.ids[0], {"total": 0})["total"] += 1
        if e.event_type == EventType.BALL_POCKET:
            pk.append({"ball": e.ids[0], "pocket": e.ids[1]})
    final = {b: {"x": float(x.state.rvw[0, 0]), "y": float(x.state.rvw[0, 1])} for b, x in r.balls.items()}
    out.append({"id": s["id"], "balls": s["balls"], "cue": c, "sensitivity": {"well_conditioned": True},
                "result": {"final": final, "pocketed": pk, "first_ball_hit_by_cue": first,
                           "cushion_contacts": cush, "n_events": len(r.events) - 2}})
doc["shots"] = out
doc["variant"] = {"name": "pooltool 0.6.0"}
json.dump(doc, open(sys.argv[2], "w"))
"""


def pooltool_validate(py, head, n, seed=99):
    """Fresh random mid-game shots (theta, spin and speed varied) simulated by pooltool and by
    us; returns (matches within 1 mm, n, largest final-position error m)."""
    table, bp, cue, bb, cu = setup_from_doc(head)
    recs = midgame_recipes(table, n, seed=seed)
    rng = np.random.default_rng(seed + 1)
    for r in recs:
        r["cue"].update(theta=float(rng.choice([0, 0, 5, 15, 30])), V0=float(rng.uniform(0.3, 6)),
                        a=float(rng.uniform(-0.4, 0.4)), b=float(rng.uniform(-0.5, 0.5)))
    doc = dict(head, shots=recs)
    from physics.crosscheck import run
    with tempfile.TemporaryDirectory() as d:
        rec, ref = Path(d) / "rec.json", Path(d) / "ref.json"
        rec.write_text(json.dumps(doc))
        subprocess.run([py, "-c", POOLTOOL_OUTCOMES, str(rec), str(ref)], check=True, cwd=d,
                       env=dict(os.environ, HOME=d), capture_output=True, timeout=3600)
        refs = {s["id"]: s["result"] for s in json.loads(ref.read_text())["shots"]}
    ours = {s["id"]: s["result"] for s in run(doc)["shots"]}
    ok, worst = 0, 0.0
    for sid, rr in refs.items():
        cr = ours[sid]
        pk = lambda r: sorted((p["ball"], p["pocket"]) for p in r["pocketed"])  # noqa: E731
        both = {b for b, _ in pk(rr)} & {b for b, _ in pk(cr)}
        err = max([math.hypot(rr["final"][b]["x"] - cr["final"][b]["x"],
                              rr["final"][b]["y"] - cr["final"][b]["y"])
                   for b in rr["final"] if b not in both] or [0.0])
        cush = all(rr["cushion_contacts"].get(b, {}).get("total", 0) ==
                   cr["cushion_contacts"].get(b, {}).get("total", 0) for b in rr["final"])
        worst = max(worst, err)
        ok += (err <= 1e-3 and pk(rr) == pk(cr) and cush
               and rr["first_ball_hit_by_cue"] == cr["first_ball_hit_by_cue"])
    return ok, len(refs), worst


def pct(a, q):
    return float(np.percentile(a, q)) if len(a) else math.nan


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer shots and repetitions")
    ap.add_argument("--pooltool-python", help="python of a pooltool 0.6.0 venv")
    ap.add_argument("--pooltool-timer", default=str(REPO / "benchmarks" / "pooltool_timer.py"),
                    help="script run under --pooltool-python (default benchmarks/pooltool_timer.py)")
    ap.add_argument("--pooltool-validate", type=int, default=0, metavar="N",
                    help="with --pooltool-python: also simulate N fresh random mid-game shots in "
                         "both engines and count outcome matches (final positions within 1 mm, "
                         "pocketed, first hit, cushion counts)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)

    head = header()
    table, bp, cue, bb, cu = setup_from_doc(head)
    kw = dict(ball_params=bp, cue=cue, ball_ball=bb, cushion=cu)
    threads = numba.get_num_threads()
    report = {"threads": threads, "models": [bb, cu],
              "threading_layer": os.environ.get("NUMBA_THREADING_LAYER")}
    print(f"poolgym physics benchmark - {bb} / {cu}, numba threads {threads}, threading layer "
          f"{os.environ.get('NUMBA_THREADING_LAYER')}")

    cold, warm = start_times()
    report["cold_compile"] = dict(zip(("first_shot_wall_s", "first_shot_cpu_s", "with_batch_wall_s",
                                       "with_batch_cpu_s"), cold))
    report["warm_start"] = dict(zip(("first_shot_wall_s", "first_shot_cpu_s", "with_batch_wall_s",
                                     "with_batch_cpu_s"), warm))
    print(f"cold compile, empty cache: import + first simulate {cold[0]:6.2f} s wall ({cold[1]:.2f} s CPU);"
          f" + first simulate_batch {cold[2]:6.2f} s wall ({cold[3]:.2f} s CPU)   [bar < 60 s]")
    print(f"warm start, cache filled:  import + first simulate {warm[0]:6.2f} s wall ({warm[1]:.2f} s CPU);"
          f" + first simulate_batch {warm[2]:6.2f} s wall ({warm[3]:.2f} s CPU)   [bar < 2 s]")

    fixed = fixed_suites(table)
    n_mid = 100 if args.quick else 500
    suites = {"break9": [fixed["break9"]], "break15": [fixed["break15"]], "cut30": [fixed["cut30"]],
              "midgame": midgame_recipes(table, n_mid),
              "midgame16": midgame_recipes(table, n_mid, seed=2025, n_balls=16)}
    reps = 3 if args.quick else 10
    ours = {}
    print(f"\n{'suite':9s} {'shots':>5s} {'us/shot mean':>12s} {'median':>7s} {'events p50/p95/max':>20s}")
    for name, recs in suites.items():
        per, ev = time_single(table, recs, kw, repeat=reps)
        ours[name] = {r["id"]: t for r, t in zip(recs, per)}
        report[name] = {"shots": len(recs), "us_per_shot_mean": per.mean() * 1e6,
                        "us_per_shot_median": float(np.median(per)) * 1e6,
                        "events_p50": pct(ev, 50), "events_p95": pct(ev, 95), "events_max": int(ev.max())}
        print(f"{name:9s} {len(recs):5d} {per.mean() * 1e6:12.1f} {np.median(per) * 1e6:7.1f} "
              f"{pct(ev, 50):7.0f}/{pct(ev, 95):5.0f}/{ev.max():5d}")
    m10, m16 = report["midgame"], report["midgame16"]
    report["midgame16_over_midgame"] = m16["us_per_shot_mean"] / m10["us_per_shot_mean"]
    print(f"16 balls / 10 balls per mid-game shot: {report['midgame16_over_midgame']:.2f}x mean, "
          f"{m16['us_per_shot_median'] / m10['us_per_shot_median']:.2f}x median   "
          f"[bar: median mid-game <= 30 us, breaks <= 250 us]")

    rvw, shots = as_arrays(suites["midgame"], bp)
    print("\nbatched mid-game shots (simulate_batch, all threads):")
    for B in (1, 64, 1024):
        sps, spc = time_batch(table, rvw, shots, kw, B, min_time=0.5 if args.quick else 1.5)
        report[f"batch_B{B}_shots_per_s"] = sps
        report[f"batch_B{B}_shots_per_cpu_s"] = spc
        print(f"  B={B:5d}: {sps:10.0f} shots/s wall, {spc:9.0f} shots per CPU-second (per core)"
              f"   [bar >= 10,000 per core]")

    n_br = 200 if args.quick else 1000
    rb, sb = random_breaks(table, n_br)
    t0 = time.perf_counter()
    res = physics.simulate_batch(table, rb, sb, np.zeros(n_br, dtype=np.int64), **kw)
    el = time.perf_counter() - t0
    ne = res.n_events
    over = int(np.sum(res.status != 0))
    report["random_breaks"] = {"n": n_br, "overflow": over, "events_p50": pct(ne, 50),
                               "events_p95": pct(ne, 95), "events_p99": pct(ne, 99),
                               "events_max": int(ne.max()), "wall_s": el}
    print(f"\n{n_br} random 15-ball breaks at 8-12 m/s: overflow {over}, events p50 {pct(ne, 50):.0f} "
          f"p95 {pct(ne, 95):.0f} p99 {pct(ne, 99):.0f} max {ne.max()}  ({el:.2f} s wall)   "
          f"[bar: no overflow, p99 < 400]")

    if args.pooltool_python:
        doc = dict(head)
        doc["shots"] = [s for recs in suites.values() for s in recs]
        print("\ntiming pooltool 0.6.0 on the same shots ...")
        pt = pooltool_times(args.pooltool_python, args.pooltool_timer, doc)
        if pt:
            print(f"{'suite':9s} {'pooltool us/shot':>17s} {'ours us/shot':>13s} {'ratio':>7s}   [bar >= 20x]")
            for name, recs in suites.items():
                a = np.array([pt.get(r["id"], math.nan) for r in recs])
                b = np.array([ours[name][r["id"]] for r in recs])
                ratio = np.nanmean(a) / b.mean()
                report[name]["pooltool_us_per_shot_mean"] = float(np.nanmean(a) * 1e6)
                report[name]["ratio"] = float(ratio)
                print(f"{name:9s} {np.nanmean(a) * 1e6:17.1f} {b.mean() * 1e6:13.1f} {ratio:7.1f}x")
    if args.pooltool_python and args.pooltool_validate:
        ok, n, worst = pooltool_validate(args.pooltool_python, head, args.pooltool_validate)
        report["pooltool_validate"] = {"match": ok, "n": n, "max_pos_err_m": worst}
        print(f"\nfresh random mid-game shots vs pooltool 0.6.0: {ok}/{n} outcomes match "
              f"(largest final-position difference {worst:.2e} m)")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
