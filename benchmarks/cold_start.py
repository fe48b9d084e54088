"""Cold start of the default environment (issue 16 item 3; measured, not asserted).

    python benchmarks/cold_start.py [--env-id poolgym/NineBall-v0] [--top 25] [--json OUT] [--serial]
    python benchmarks/cold_start.py --env-id physics     # one physics.simulate call only

Runs, each in a NEW Python process, ``import gymnasium, poolgym``, ``gymnasium.make(id)``,
``reset(seed=0)`` and one ``step`` of a seeded random action, twice:

* cold: ``NUMBA_CACHE_DIR`` pointed at a fresh, empty temporary directory (what a newcomer's
  first run in a fresh virtual environment pays: every numba kernel compiled);
* warm: the same directory again, now filled by the cold run (every later run).

Printed per run: wall and process CPU seconds of each phase (import, make, reset, step), and
for the cold run the numba compilations, one line per compiled (function, signature), with the
CPU seconds spent compiling it (compilation is single-threaded): ``incl`` includes the functions it compiled on the way (its
callees), ``self`` excludes them. The bar is <= 15 s wall cold and <= 2 s warm; on a shared
machine compare the CPU seconds.

At a cold cache the env starts a compiling child process (`poolgym.envs.prewarm`) and, inside
``make``, compiles the physics table loop and stroke, then waits for the child: ``make`` holds
the cold start, ``reset`` and ``step`` load from the cache. The cold run's compilations are
this process's, and the child's CPU seconds are printed on their own.
``--serial`` first runs one more cold process without the child (``POOLGYM_PREWARM=0``), for a
same-run comparison. The load average is printed: wall times mean little above 2.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _child(env_id: str) -> dict:
    """Runs in the measured process: the phases, and a record of every numba compilation."""
    t_wall0, t_cpu0 = time.perf_counter(), time.process_time()
    from numba.core import event

    class _Compiles(event.Listener):
        """Inclusive and exclusive seconds per compiled (function, signature)."""

        def __init__(self):
            self.stack: list[list] = []  # [name, start, child seconds]
            self.rows: list[dict] = []

        def on_start(self, ev):
            d = ev.data["dispatcher"]
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
            self.stack.append([name, time.process_time(), 0.0, str(ev.data["args"])])

        def on_end(self, ev):
            name, t0, child, sig = self.stack.pop()
            dt = time.process_time() - t0
            if self.stack:
                self.stack[-1][2] += dt
            self.rows.append({"function": name, "signature": sig, "incl_s": dt, "self_s": dt - child,
                              "depth": len(self.stack)})

    rec = _Compiles()
    event.register("numba:compile", rec)

    phases = {}

    def mark(name, t_wall, t_cpu):
        phases[name] = {"wall_s": time.perf_counter() - t_wall, "cpu_s": time.process_time() - t_cpu}
        return time.perf_counter(), time.process_time()

    import numpy as np

    if env_id == "physics":  # the physics alone: one physics.simulate call
        import physics

        tw, tc = mark("import", t_wall0, t_cpu0)
        rvw = np.zeros((2, 3, 3))
        rvw[0, 0] = [0.635, 0.5, physics.BallParams().R]
        rvw[1, 0] = [0.635, 1.5, physics.BallParams().R]
        physics.simulate(physics.Table.wpa("9ft"), rvw, physics.Shot(V0=2.0, phi=90.0, b=0.2))
        mark("simulate", tw, tc)
        total = {"wall_s": time.perf_counter() - t_wall0, "cpu_s": time.process_time() - t_cpu0}
        return {"phases": phases, "total": total, "compiles": rec.rows,
                "numba": __import__("numba").__version__, "np": np.__version__}

    import gymnasium

    import poolgym  # noqa: F401

    tw, tc = mark("import", t_wall0, t_cpu0)
    env = gymnasium.make(env_id)
    tw, tc = mark("make", tw, tc)
    env.reset(seed=0)
    tw, tc = mark("reset", tw, tc)
    env.action_space.seed(0)
    a = env.action_space.sample()
    env.step(a)
    mark("step", tw, tc)
    env.close()
    total = {"wall_s": time.perf_counter() - t_wall0, "cpu_s": time.process_time() - t_cpu0}
    from poolgym.envs import prewarm

    proc = prewarm.child()
    child = None
    if proc is not None:  # the compiling child (`poolgym.envs.prewarm`): its CPU seconds
        import resource

        child = {"returncode": proc.wait(), "cpu_s": sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f)
                                                          for f in ("ru_utime", "ru_stime"))}
    return {"phases": phases, "total": total, "compiles": rec.rows, "child": child,
            "numba": __import__("numba").__version__, "np": np.__version__}


def run_once(env_id: str, cache_dir: str, prewarm: bool = True) -> dict:
    """One measured process with ``NUMBA_CACHE_DIR=cache_dir``; returns its report."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, POOLGYM_PREWARM="1" if prewarm else "0")
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--child", env_id], env=env, capture_output=True,
                         text=True, check=True)
    rep = json.loads(out.stdout.strip().splitlines()[-1])
    rep["process_wall_s"] = time.perf_counter() - t0  # interpreter start-up included
    rep["stderr"] = out.stderr
    return rep


def _print_run(label: str, rep: dict) -> None:
    ph = rep["phases"]
    parts = "  ".join(f"{k} {v['wall_s']:6.2f}s ({v['cpu_s']:.2f} cpu)" for k, v in ph.items())
    print(f"{label:5s} process {rep['process_wall_s']:6.2f} s wall; in-process {rep['total']['wall_s']:6.2f} s "
          f"wall, {rep['total']['cpu_s']:6.2f} s cpu | {parts}")
    if rep.get("child"):
        print(f"      compiling child (poolgym.envs.prewarm): {rep['child']['cpu_s']:.2f} s cpu, "
              f"exit code {rep['child']['returncode']}")


def _print_compiles(rows: list[dict], top: int) -> None:
    if not rows:
        print("  no numba compilation")
        return
    tot_self = sum(r["self_s"] for r in rows)
    print(f"  {len(rows)} numba compilations, {tot_self:.2f} CPU s in total (sum of self):")
    print(f"  {'self s':>7} {'incl s':>7}  function (signature), CPU seconds")
    for r in sorted(rows, key=lambda r: -r["self_s"])[:top]:
        sig = r["signature"]
        sig = sig if len(sig) <= 70 else sig[:67] + "..."
        print(f"  {r['self_s']:7.2f} {r['incl_s']:7.2f}  {r['function']} {sig}")
    if len(rows) > top:
        rest = sorted(rows, key=lambda r: -r["self_s"])[top:]
        print(f"  {sum(r['self_s'] for r in rest):7.2f}          ... {len(rest)} more")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env-id", default="poolgym/NineBall-v0")
    ap.add_argument("--top", type=int, default=25, help="compilations listed (by self seconds)")
    ap.add_argument("--json", help="write both runs' reports here")
    ap.add_argument("--serial", action="store_true",
                    help="also a cold run without the compiling child (POOLGYM_PREWARM=0), first")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child)))
        return 0
    load0 = os.getloadavg()[0]
    serial = None
    if args.serial:
        with tempfile.TemporaryDirectory(prefix="poolgym-numba-cache-") as d:
            serial = run_once(args.env_id, d, prewarm=False)
    with tempfile.TemporaryDirectory(prefix="poolgym-numba-cache-") as d:
        cold = run_once(args.env_id, d)
        warm = run_once(args.env_id, d)
    print(f"{args.env_id}: import + make + reset + step in a new process (numba {cold['numba']}), "
          f"load average {load0:.1f} before, {os.getloadavg()[0]:.1f} after")
    if serial is not None:
        _print_run("cold1", serial)
        print(f"  (cold1: no compiling child, {len(serial['compiles'])} compilations in this process)")
    _print_run("cold", cold)
    _print_compiles(cold["compiles"], args.top)
    _print_run("warm", warm)
    if warm["compiles"]:
        _print_compiles(warm["compiles"], args.top)
    for label, rep in (("cold", cold), ("warm", warm)):
        if rep["stderr"].strip():
            print(f"{label} stderr:\n{rep['stderr']}")
    print(f"bar: cold <= 15 s wall ({'met' if cold['process_wall_s'] <= 15 else 'NOT met'}), "
          f"warm <= 2 s wall ({'met' if warm['process_wall_s'] <= 2 else 'NOT met'})")
    if args.json:
        Path(args.json).write_text(json.dumps({"cold": cold, "warm": warm, "cold_serial": serial}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
