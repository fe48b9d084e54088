"""Cross-check CLI: simulate shot recipes in the schema of ``../shared/crosscheck/README.md``.

    python -m physics.crosscheck RECIPES.json OUT.json [--repeat K]

Reads the table specs (``table.specs``, pooltool ``PocketTableSpecs`` names), ball parameters
(``ball_params``), cue mass (``cue_specs.M``), the physics model names (``physics_models``:
ball-ball model and Alciatore friction constants, cushion model, squirt throttle) and every
shot under ``shots`` and/or ``random_shots``; writes the same shots, each with a ``result``
holding ``final`` ({ball: {x, y, state}}), ``pocketed`` ([{ball, pocket, time}] in event
order), ``first_ball_hit_by_cue``, ``cushion_contacts`` ({ball: {linear, circular, total,
sequence}}; every ball-cushion event counts, straight or jaw), ``n_events`` (strike +
collisions + transitions, comparable to pooltool's count) and ``sim_time_s`` (wall time of
the simulate call). A top-level ``timing`` block gives the total simulate time, excluding
start-up (the first shot is simulated once untimed to load the compiled kernel).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from physics.enums import EventKind, Motion
from physics.params import BallParams, CueParams
from physics.simulate import Shot, simulate
from physics.table import PocketTableSpecs, Table

STATE_NAMES = {int(m): m.name.lower() for m in Motion}


def setup_from_doc(doc: dict):
    """(table, ball_params, cue, ball_ball, cushion) described by a recipes document."""
    table = Table.from_specs(PocketTableSpecs.from_dict(doc["table"]["specs"]), name="crosscheck")
    bp = doc.get("ball_params", {})
    models = doc.get("physics_models", {})
    bb = models.get("ball_ball", {}) or {}
    fr = bb.get("friction", {}) or {}
    kw = {k: float(bp[k]) for k in ("m", "R", "u_s", "u_r", "u_sp_proportionality", "e_b", "e_c",
                                    "f_c", "g") if k in bp}
    for k in ("a", "b", "c"):
        if k in fr:
            kw[k] = float(fr[k])
    ball_params = BallParams(**kw)
    cue_specs = doc.get("cue_specs", {})
    sb = models.get("stick_ball", {}) or {}
    cue = CueParams(M=float(cue_specs.get("M", 0.567)),
                    squirt=float(sb.get("squirt_throttle", 0.0)) != 0.0,
                    end_mass=float(cue_specs.get("end_mass", 0.0056699)),
                    miscue_limit=1.0)  # pooltool has no miscue limit
    ball_ball = bb.get("model", "frictional_inelastic")
    cushion = (models.get("ball_linear_cushion", {}) or {}).get("model", "han_2005")
    circ = (models.get("ball_circular_cushion", {}) or {}).get("model", cushion)
    if circ != cushion:
        raise ValueError(f"physics_models: different linear ({cushion}) and circular ({circ}) "
                         "cushion models are not supported")
    return table, ball_params, cue, ball_ball, cushion


def shot_inputs(shot: dict, R: float):
    """(ids, rvw (N,3,3), Shot) for one recipe shot; the cue ball is row 0."""
    cue = shot["cue"]
    cue_id = cue.get("cue_ball_id", "cue")
    ids = [cue_id] + [b for b in shot["balls"] if b != cue_id]
    rvw = np.zeros((len(ids), 3, 3))
    for k, b in enumerate(ids):
        x, y = shot["balls"][b][:2]
        rvw[k, 0] = (float(x), float(y), R)
    sh = Shot(V0=float(cue["V0"]), phi=float(cue["phi"]), theta=float(cue.get("theta", 0.0)),
              a=float(cue.get("a", 0.0)), b=float(cue.get("b", 0.0)), cue_ball=0)
    return ids, rvw, sh


def result_dict(res, ids: list[str], table: Table) -> dict:
    """Outcome of one simulated shot in the cross-check schema."""
    cushions = {b: {"linear": 0, "circular": 0, "total": 0, "sequence": []} for b in ids}
    pocketed = []
    first = None
    for t, kind, i, j in res.events():
        if kind == EventKind.BALL_BALL and first is None and (i == 0 or j == 0):
            first = ids[j if i == 0 else i]
        elif kind == EventKind.BALL_CUSHION:
            c = cushions[ids[i]]
            c["linear"] += 1
            c["total"] += 1
            c["sequence"].append(table.segment_ids[j])
        elif kind == EventKind.BALL_JAW:
            c = cushions[ids[i]]
            c["circular"] += 1
            c["total"] += 1
            c["sequence"].append(table.jaw_ids[j])
        elif kind == EventKind.POCKET:
            pocketed.append({"ball": ids[i], "pocket": table.POCKET_NAMES[j], "time": t})
    final = {b: {"x": float(res.rvw[k, 0, 0]), "y": float(res.rvw[k, 0, 1]),
                 "z": float(res.rvw[k, 0, 2]), "state": STATE_NAMES[int(res.s[k])]}
             for k, b in enumerate(ids)}
    return {
        "final": final,
        "pocketed": pocketed,
        "first_ball_hit_by_cue": first,
        "cushion_contacts": cushions,
        "n_events": int(res.n_events),
        "status": int(res.status),
    }


def run(doc: dict, repeat: int = 1) -> dict:
    table, bp, cue, bb, cu = setup_from_doc(doc)
    out = {k: v for k, v in doc.items() if k not in ("shots", "random_shots")}
    out["variant"] = {"name": f"poolgym ({bb}, {cu})", "description": "physics.crosscheck"}
    keys = [k for k in ("shots", "random_shots") if doc.get(k)]
    prepared = []
    for key in keys:
        for shot in doc[key]:
            prepared.append((key, shot, *shot_inputs(shot, bp.R)))
    if prepared:  # load / compile outside the timed region
        _, _, _, rvw, sh = prepared[0]
        simulate(table, rvw, sh, ball_params=bp, cue=cue, ball_ball=bb, cushion=cu)
    results = {k: [] for k in keys}
    total = 0.0
    for key, shot, ids, rvw, sh in prepared:
        best = np.inf
        try:
            for _ in range(max(1, repeat)):
                t0 = time.perf_counter()
                res = simulate(table, rvw, sh, ball_params=bp, cue=cue, ball_ball=bb, cushion=cu)
                best = min(best, time.perf_counter() - t0)
        except ValueError as exc:  # report the rejected shot, keep going with the others
            print(f"{shot['id']}: rejected: {exc}", file=sys.stderr)
            r = {"error": str(exc), "final": {b: {"x": float(rvw[k, 0, 0]), "y": float(rvw[k, 0, 1])}
                                               for k, b in enumerate(ids)},
                 "pocketed": [], "first_ball_hit_by_cue": None, "cushion_contacts": {}}
            results[key].append({"id": shot["id"], "balls": shot["balls"], "cue": shot["cue"],
                                 "result": r})
            continue
        total += best
        r = result_dict(res, ids, table)
        r["sim_time_s"] = best
        results[key].append({"id": shot["id"], "balls": shot["balls"], "cue": shot["cue"],
                             "result": r})
    out.update(results)
    out["timing"] = {"shots": len(prepared), "total_simulate_s": total,
                     "mean_per_shot_s": total / max(1, len(prepared)),
                     "repeat_min_of": max(1, repeat)}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("recipes")
    ap.add_argument("out")
    ap.add_argument("--repeat", type=int, default=1, help="time each shot as the min of K runs")
    args = ap.parse_args(argv)
    with open(args.recipes) as f:
        doc = json.load(f)
    out = run(doc, args.repeat)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    t = out["timing"]
    print(f"{t['shots']} shots, simulate time {t['total_simulate_s'] * 1e3:.2f} ms "
          f"({t['mean_per_shot_s'] * 1e6:.1f} us/shot)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
