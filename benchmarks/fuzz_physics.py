"""Physics fuzz: millions of random shots over the documented input ranges, checked for sound
outcomes.

Every batch draws random layouts and shots from the seed (``physics.fuzz``: 1-16 balls, many
frozen to cushions, touching jaws or each other; V0 up to 50 m/s, theta up to 90 with a
quarter of the shots at exactly 90, tip offsets up to the miscue limit), cycles the three WPA
tables and the four model pairs (ball-ball x cushion), simulates the batch with ONE
``physics.simulate_batch(grow_log=True)`` call as the envs do, and counts

* escapes: a ball off the bed after the shot (through a cushion or a jaw, off the table);
* MAX_ITER: the iteration cap was hit (status 2);
* overlaps: two balls closer than 2R - 1e-9 m after the shot (the next shot would be refused);
* overflows: shots with more than ``--max-events`` events (their log was grown);
  truncations: shots whose log is still truncated (status EVENT_LOG_OVERFLOW);
* events per shot: p50 / p99 / max.

With ``--airborne`` the shots are simulated with the three-dimensional model
(``simulate_batch(airborne=True)``: elevated strokes jump, balls may leave the table); a ball
that left the table (OFF_TABLE, ``pocket == -1``) is counted as ``off table``, not as an escape,
and a ball still AIRBORNE at the end, or an OFF_TABLE ball with a pocket, is a failure.

Usage::

    NUMBA_THREADING_LAYER=workqueue python benchmarks/fuzz_physics.py --shots 1000000 --seed 0
    NUMBA_THREADING_LAYER=workqueue python benchmarks/fuzz_physics.py --shots 100000 --airborne

Exit status 1 if any escape, MAX_ITER, overlap or truncation was found (each is printed with
its batch seed, table, models and shot, enough to reproduce it with ``--show``).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's physics

import physics  # noqa: E402
from physics import fuzz  # noqa: E402

MODELS = (("frictional_inelastic", "han_2005"), ("frictionless_elastic", "han_2005"),
          ("frictional_inelastic", "mathavan_2010"), ("frictionless_elastic", "mathavan_2010"))
TABLES = ("9ft", "8ft", "7ft")


@dataclass
class Tally:
    shots: int = 0
    escapes: int = 0
    max_iter: int = 0
    overlaps: int = 0
    overflows: int = 0
    truncated: int = 0
    off_table: int = 0
    in_air: int = 0
    events: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    longest: tuple = (0, "")

    @property
    def bad(self) -> int:
        return self.escapes + self.max_iter + self.overlaps + self.truncated + self.in_air

    def summary(self) -> str:
        ev = np.concatenate(self.events) if self.events else np.zeros(1, np.int64)
        p50, p99 = np.percentile(ev, [50, 99])
        return (f"shots {self.shots}  escapes {self.escapes}  MAX_ITER {self.max_iter}  "
                f"overlaps {self.overlaps}  overflows {self.overflows} (grown)  "
                f"truncated {self.truncated}  off table {self.off_table}  "
                f"left in the air {self.in_air}  events p50 {p50:.0f} p99 {p99:.0f} max {ev.max()}")


def batch_setup(seed: int, k: int, size: int):
    """(table name, (ball_ball, cushion), batch seed, rvw, s, shots) of batch k of a run."""
    name = TABLES[k % len(TABLES)]
    bb, cu = MODELS[(k // len(TABLES)) % len(MODELS)]
    bseed = seed * 1_000_003 + k
    table = physics.Table.wpa(name)
    R = physics.BallParams().R
    rvw, s = fuzz.random_layouts(bseed, size, table, R)
    shots = fuzz.random_shots(bseed + 7_919_000_000, size, physics.CueParams().miscue_limit)
    return name, (bb, cu), bseed, rvw, s, shots


def run_batch(seed: int, k: int, size: int, max_events: int, tally: Tally,
              airborne: bool = False) -> None:
    name, (bb, cu), _, rvw, s, shots = batch_setup(seed, k, size)
    table = physics.Table.wpa(name)
    R = physics.BallParams().R
    res = physics.simulate_batch(table, rvw, shots, np.zeros(size, np.int64), s=s, ball_ball=bb,
                                 cushion=cu, max_events=max_events, grow_log=True, airborne=airborne)
    prob = fuzz.layout_problems(table, res.rvw, res.s, R)
    off = res.s == physics.Motion.OFF_TABLE
    tally.off_table += int(off.sum())
    bad_air = (res.s == physics.Motion.AIRBORNE).any(axis=1) | (off & (res.pocket >= 0)).any(axis=1)
    if off.any():  # an OFF_TABLE ball stays where it left the bed: off it, or above it
        k_off, b_off = np.nonzero(off)
        on = table.on_bed(res.rvw[k_off, b_off, 0, :2], R) & (res.rvw[k_off, b_off, 0, 2] <= R)
        bad_air[k_off[on]] = True
    tally.in_air += int(bad_air.sum())
    prob = np.where(bad_air & (prob == 0), 3, prob)
    tally.shots += size
    tally.escapes += int((prob == 1).sum())
    tally.overlaps += int((prob == 2).sum())
    tally.max_iter += int((res.status == physics.Status.MAX_ITER).sum())
    tally.truncated += int((res.status == physics.Status.EVENT_LOG_OVERFLOW).sum())
    tally.overflows += int((res.n_events > max_events).sum())
    tally.events.append(res.n_events.copy())
    j = int(np.argmax(res.n_events))
    if res.n_events[j] > tally.longest[0]:
        tally.longest = (int(res.n_events[j]), f"--show {k}:{j} ({name}, {bb}, {cu}, shot {shots[j].tolist()}, "
                                               f"{int((s[j] == 0).sum())} balls, "
                                               f"{float(res.ev_t[j, res.n_events[j] - 1]):.1f} s)")
    for j in np.flatnonzero((prob != 0) | (res.status != 0)):
        what = {1: "escape", 2: "overlap", 3: "airborne/off-table state"}.get(
            int(prob[j]), physics.Status(int(res.status[j])).name)
        tally.failures.append(f"{what}: --seed {seed} --batch-size {size} --show {k}:{j} "
                              f"{'--airborne ' if airborne else ''}"
                              f"({name}, {bb}, {cu}, shot {shots[j].tolist()}, "
                              f"{int((s[j] == 0).sum())} balls, {int(res.n_events[j])} events)")


def show(seed: int, size: int, spec: str, airborne: bool = False) -> None:
    """Print the layout, shot and event log of shot ``k:j``."""
    k, j = (int(x) for x in spec.split(":"))
    name, (bb, cu), _, rvw, s, shots = batch_setup(seed, k, size)
    on = s[j] == 0
    print(f"table {name}  models {bb} {cu}\nshot {shots[j].tolist()}")
    print("balls (x, y):", rvw[j, on, 0, :2].tolist())
    res = physics.simulate(physics.Table.wpa(name), rvw[j], shots[j], s=s[j], ball_ball=bb, cushion=cu,
                           grow_log=True, airborne=airborne)
    print(f"status {physics.Status(res.status).name}  events {res.n_events}")
    for ev in res.events()[:60]:
        print(f"  {ev[0]:10.6f} {ev[1].name:20s} {ev[2]:3d} {ev[3]:3d}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shots", type=int, default=1_000_000, help="number of random shots")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch-size", type=int, default=4096, help="tables per simulate_batch call")
    ap.add_argument("--max-events", type=int, default=2000, help="event-log rows (the envs' default)")
    ap.add_argument("--show", metavar="K:J", help="print shot J of batch K and exit")
    ap.add_argument("--airborne", action="store_true", help="the three-dimensional model (jumps, off table)")
    args = ap.parse_args(argv)
    if args.show:
        show(args.seed, args.batch_size, args.show, args.airborne)
        return 0
    tally = Tally()
    t0 = time.perf_counter()
    n_batches = -(-args.shots // args.batch_size)
    for k in range(n_batches):
        size = min(args.batch_size, args.shots - k * args.batch_size)
        run_batch(args.seed, k, size, args.max_events, tally, args.airborne)
        if (k + 1) % 25 == 0:
            print(f"[{time.perf_counter() - t0:7.1f} s] {tally.summary()}", flush=True)
    for f in tally.failures[:50]:
        print(f)
    print(f"longest shot: {tally.longest[0]} events: --seed {args.seed} --batch-size {args.batch_size} "
          f"{tally.longest[1]}")
    print(f"{tally.summary()}  ({time.perf_counter() - t0:.0f} s)")
    return 1 if tally.bad else 0


if __name__ == "__main__":
    sys.exit(main())
