"""Determinism across processes: the same seed gives the same trajectories, verdicts and
returns in a fresh interpreter (no hidden global state: hash seeds, import order, numba
caches), for the native vector env with the built-in opponent and ICGA execution noise."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = r"""
import hashlib, json, sys
import numpy as np
from poolgym.envs.vector import PoolVectorEnv

def digest(discipline):
    venv = PoolVectorEnv(discipline, num_envs=3, opponent="geometric", noise="icga", max_shots=12)
    rng = np.random.default_rng(123)
    h = hashlib.sha256()
    obs, _ = venv.reset(seed=77)
    h.update(obs.tobytes())
    for _ in range(8):
        o, r, te, tr, info = venv.step(rng.uniform(-1, 1, (3,) + venv.single_action_space.shape))
        for a in (o, r, te, tr, info["winner"], info["shots"], info["seat_to_act"]):
            h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()

print(json.dumps({d: digest(d) for d in sys.argv[1:]}))
"""

DISCIPLINES = ("nine_ball", "eight_ball", "straight_pool")


def _run_here():
    ns: dict = {}
    code = SCRIPT.split("print(json.dumps")[0]
    exec(compile(code, "<determinism>", "exec"), ns)
    return {d: ns["digest"](d) for d in DISCIPLINES}


def test_same_seed_same_trajectories_in_a_fresh_process():
    here = _run_here()
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", SCRIPT, *DISCIPLINES], capture_output=True, text=True, env=env,
                         timeout=300, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert out.returncode == 0, out.stderr[-2000:]
    import json

    there = json.loads(out.stdout.strip().splitlines()[-1])
    assert there == here
    # the digests see the trajectories: three different games give three different digests
    assert len(set(here.values())) == len(DISCIPLINES)
