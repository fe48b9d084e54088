"""`poolgym.envs.prewarm`: the compiling child of a cold start is started once, only when numba's
cache is cold and not disabled, prints nothing, ends with its parent; its stand-in physics gives
the real physics' arrays (types and shapes) for a stroke where nothing moves."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import physics
from poolgym.envs import physics_io, prewarm
from poolgym.rules.geometry import get_table

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = json.dumps({"discipline": "nine_ball", "opponent": "geometric"})


def _env():
    return dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""),
                **{prewarm.ENV_VAR: "0"})


@pytest.fixture
def fresh(monkeypatch):
    """A process that has not decided about the child yet, and a cold cache."""
    monkeypatch.setattr(prewarm, "_checked", False)
    monkeypatch.setattr(prewarm, "_child", None)
    monkeypatch.setattr(prewarm, "_cold", lambda: True)
    monkeypatch.setenv(prewarm.ENV_VAR, "1")


def test_still_batch_has_the_physics_arrays():
    table = get_table("9ft")
    R = physics.BallParams().R
    rvw = np.zeros((2, 2, 3, 3))
    rvw[:, 0, 0] = [0.6, 0.5, R]
    rvw[:, 1, 0] = [0.6, 1.5, R]
    shots = np.array([[2.0, 90.0, 0.0, 0.0, 0.0]] * 2)
    cue = np.array([0, 1])
    real = physics.simulate_batch(table, rvw, shots, cue, max_events=50, parallel=False)
    still = prewarm.still_batch(table, rvw, shots, cue, max_events=50, airborne=True)
    for f in ("rvw0", "s0", "rvw", "s", "pocket", "ev_t", "ev_kind", "ev_i", "ev_j", "n_events", "status",
              "shot", "cue_ball"):
        a, b = getattr(real, f), getattr(still, f)
        assert (a.dtype, a.shape) == (b.dtype, b.shape), f
    assert np.array_equal(still.rvw, rvw) and np.array_equal(still.rvw0, rvw)
    assert list(still.n_events) == [2, 2] and list(still.ev_i[:, 0]) == [0, 1]
    assert still[1].events() == [(0.0, physics.EventKind.STRIKE, 1, -1), (0.01, physics.EventKind.BALL_BALL, 1, 0)]
    assert (still.pocket == -1).all()
    alone = prewarm.still_batch(table, rvw[:1, :1], shots[:1], cue[:1], max_events=50)  # no ball to touch
    assert list(alone.n_events) == [1]


def test_no_child_when_disabled_warm_or_already_decided(fresh, monkeypatch):
    monkeypatch.setenv(prewarm.ENV_VAR, "0")
    assert prewarm.start("nine_ball") is None
    monkeypatch.setenv(prewarm.ENV_VAR, "1")
    assert prewarm.start("nine_ball") is None  # decided once per process
    monkeypatch.setattr(prewarm, "_checked", False)
    monkeypatch.setattr(prewarm, "_cold", lambda: False)
    assert prewarm.start("nine_ball") is None and prewarm.child() is None


def test_child_compiles_quietly_and_exits(fresh, monkeypatch):
    started = []
    real_popen = subprocess.Popen

    def popen(args, **kw):
        started.append(args)
        kw.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(_env(), **{prewarm.ENV_VAR: "0"}))
        return real_popen(args, **kw)

    monkeypatch.setattr(prewarm.subprocess, "Popen", popen)
    proc = prewarm.start("nine_ball", "geometric")
    assert proc is not None and prewarm.child() is proc
    assert prewarm.start("nine_ball") is None  # one child per process
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0 and out == b"" and err == b"", err.decode()[-2000:]
    assert started[0][1:3] == ["-m", "poolgym.envs.prewarm"]


def test_with_models_this_process_compiles_the_physics_then_waits_for_the_child(fresh, monkeypatch):
    from physics import compile_cache

    calls = []

    class Child:
        def poll(self):
            return None

        def wait(self, timeout=None):
            calls.append(("wait", timeout))
            raise subprocess.TimeoutExpired("child", timeout)  # a slow child is not waited for longer

    monkeypatch.setattr(prewarm.subprocess, "Popen", lambda *a, **kw: Child())
    monkeypatch.setattr(prewarm, "_lock_file", lambda: False)
    monkeypatch.setattr(prewarm.atexit, "register", lambda *a: None)
    monkeypatch.setattr(compile_cache, "warm_up", lambda bb, cu: calls.append(("warm_up", bb, cu)))
    monkeypatch.setattr(prewarm, "_compile_rail_facts", lambda: calls.append(("rail_facts",)))
    monkeypatch.setattr(prewarm, "_compile_batch_referee", lambda d: calls.append(("batch_referee", d)))
    models = physics_io.PhysicsModels(cushion="mathavan_2010")
    assert isinstance(prewarm.start("nine_ball", models=models), Child)
    assert calls == [("warm_up", "frictional_inelastic", "mathavan_2010"), ("batch_referee", "nine_ball"),
                     ("rail_facts",), ("wait", prewarm.WAIT_S)]
    monkeypatch.setattr(prewarm, "_child", None)
    prewarm.wait()  # no child: returns at once


def test_rail_facts_is_compiled_for_the_referees_call(monkeypatch):
    import numba

    from poolgym.envs.pool_env import PoolEnv
    from poolgym.rules import general

    seen = []
    real = general.rail_facts

    def spy(*args):
        seen.append(tuple(numba.typeof(a) for a in args))
        return real(*args)

    monkeypatch.setattr(general, "rail_facts", spy)
    # (six-ball: nine-ball's, eight-ball's and 14.1's common shots are ruled by their batched
    # kernels, poolgym.rules.nine_ball_batch, eight_ball_batch and straight_pool_batch)
    env = PoolEnv("six_ball", opponent="geometric")
    env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(40):
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            env.reset()
        if seen:
            break
    assert seen and set(seen) == {prewarm._rail_facts_signature()}
    prewarm._compile_rail_facts()


def test_the_childs_parts_of_the_physics_compile():
    from physics import compile_cache, kernel

    compile_cache.compile_loop_parts()
    compile_cache.compile_input_check()
    assert kernel._kiss_line.signatures and kernel._kiss_circle.signatures


def test_child_ends_without_its_parent():
    # told a parent pid that is not its parent's: its watchdog ends it at once
    out = subprocess.run([sys.executable, "-m", "poolgym.envs.prewarm", SPEC, "0"], capture_output=True,
                         env=_env(), cwd=REPO, timeout=120)
    assert out.returncode == 0 and out.stdout == b"" and out.stderr == b""


def test_one_child_at_a_time_per_cache(fresh, monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # a lock of this test's own
    held = prewarm._lock_file()
    if held is False:
        pytest.skip("no file locks on this platform")
    popens = []

    class Done:
        def poll(self):
            return 0

    monkeypatch.setattr(prewarm.subprocess, "Popen", lambda *a, **kw: popens.append(kw) or Done())
    assert prewarm.start("nine_ball") is None and popens == []  # another process's child runs
    held.close()
    monkeypatch.setattr(prewarm, "_checked", False)
    prewarm.start("nine_ball")
    assert len(popens) == 1 and len(popens[0]["pass_fds"]) == 1  # the child holds the lock
    monkeypatch.setattr(prewarm, "_child", None)
