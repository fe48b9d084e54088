"""Tables sharded over worker processes (`poolgym.envs.workers.ShardedVectorEnv`,
``num_workers``): the same trajectories as one process and as N single envs, a bad action
changes no table, errors name the global table, and the ``num_threads`` knob."""

import gymnasium as gym
import numpy as np
import pytest

from poolgym.envs.workers import ShardedVectorEnv, shard_bounds, with_threads, without_overlap


def _sharded_and_single(**kw) -> tuple:
    """Nine-ball over 4 tables: in two worker processes, and in this one."""
    return (ShardedVectorEnv("nine_ball", num_envs=4, num_workers=2, **kw),
            gym.make_vec("poolgym/NineBall-v0", num_envs=4, vectorization_mode="vector_entry_point", num_workers=1,
                         **kw))


def _same_steps(venv, ref, rng, n: int, act=None) -> None:
    """``n`` steps of the same actions give the same results in both envs: random Box actions,
    or ``act()``'s."""
    for _ in range(n):
        a = rng.uniform(-1, 1, venv.action_space.shape) if act is None else act()
        r1, r2 = venv.step(a), ref.step(a)
        for k in range(4):
            np.testing.assert_array_equal(r1[k], r2[k])


def _macro_actions(venv, rng):
    return np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])


def test_shard_bounds_cover_the_tables_in_order():
    assert shard_bounds(7, 3) == [(0, 3), (3, 5), (5, 7)]
    assert shard_bounds(4, 4) == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert shard_bounds(5, 1) == [(0, 5)]
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="num_workers"):
            shard_bounds(4, bad)
    with pytest.raises(ValueError, match="must not exceed"):
        shard_bounds(2, 3)


def test_workers_run_the_kernel_on_their_own_thread_unless_told():
    assert without_overlap({}) == {"physics": {"overlap": False}}
    assert without_overlap({"physics": {"max_events": 9}}) == {"physics": {"max_events": 9, "overlap": False}}
    assert without_overlap({"physics": {"overlap": True}}) == {"physics": {"overlap": True}}


def test_a_worker_freezes_its_tables_and_collects_generation_0_less_often():
    import gc

    from poolgym.envs import workers

    before = gc.get_threshold()
    try:
        workers._tune_gc()
        assert gc.get_threshold() == (workers.WORKER_GC_THRESHOLD,) + before[1:]
        assert gc.get_freeze_count() > 0  # what existed then: out of every later collection
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_num_threads_switches_the_batched_physics_to_parallel():
    from poolgym.envs.physics_io import PhysicsModels

    assert with_threads({"max_shots": 3}, None) == {"max_shots": 3}
    assert with_threads({}, 1) == {}
    assert with_threads({"physics": {"overlap": False}}, 4)["physics"] == {"overlap": False, "parallel": True,
                                                                            "num_threads": 4}
    pm = with_threads({"physics": PhysicsModels(max_events=99)}, 2)["physics"]
    assert (pm.parallel, pm.num_threads, pm.max_events) == (True, 2, 99)
    with pytest.raises(ValueError, match="num_threads"):
        gym.make_vec("poolgym/NineBall-v0", num_envs=2, vectorization_mode="vector_entry_point", num_threads=0)


def _layout(x, name="") -> list:
    """``name:dtype`` of every array in ``x`` (lists and dicts, in order)."""
    if isinstance(x, dict):
        return [s for k, v in x.items() for s in [f"{name}/{k}"] + _layout(v, f"{name}/{k}")]
    if isinstance(x, list):
        return [s for i, v in enumerate(x) for s in _layout(v, f"{name}[{i}]")]
    return [f"{name}:{np.asarray(x).dtype.str}"]


def _run(venv, seed, steps, macro=False):
    rng = np.random.default_rng(11)
    out = [venv.reset(seed=seed)[0]]
    for _ in range(steps):
        if macro:
            a = np.array([rng.choice(np.flatnonzero(m)) for m in venv.unwrapped.action_masks()])
        else:
            a = rng.uniform(-1, 1, venv.action_space.shape).astype(np.float32)
        o, r, te, tr, info = venv.step(a)
        out.append(np.array(_layout([o, r, te, tr, info])))  # keys, order and dtypes, not only values
        out += [o, r, te, tr, info["shots"], info["winner"], info["seat_to_act"],
                *(info["reward_components"][k] for k in sorted(info["reward_components"]))]
        if "final_obs" in info:
            out += [info["_final_obs"], np.stack([x if x is not None else np.zeros_like(o[0])
                                                  for x in info["final_obs"]])]
    return out


@pytest.mark.parametrize("env_id, kwargs", [
    ("poolgym/NineBall-v0", {"max_shots": 12, "noise": "icga"}),
    ("poolgym/NineBall-v0", {"max_shots": 6, "opponent": None, "autoreset_mode": "same_step"}),
    ("poolgym/EightBall-v0", {"max_shots": 8, "action_mode": "macro"}),
    ("poolgym/NineBall-v0", {"max_shots": 8, "action_mode": "param", "noise": "icga"}),
])
def test_sharded_env_equals_one_process(env_id, kwargs):
    n, steps = 5, 12
    runs = []
    for workers in (1, 2):
        venv = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", num_workers=workers,
                            **kwargs)
        try:
            assert venv.observation_space == gym.vector.utils.batch_space(venv.single_observation_space, n)
            runs.append(_run(venv, 17, steps, macro=kwargs.get("action_mode") == "macro"))
        finally:
            venv.close()
    assert len(runs[0]) == len(runs[1])
    for t, (a, b) in enumerate(zip(*runs)):
        np.testing.assert_array_equal(a, b, err_msg=f"item {t}")


def test_sharded_env_bad_action_changes_nothing_and_names_the_global_table():
    kw = dict(max_shots=10, opponent=None)
    venv = ShardedVectorEnv("nine_ball", num_envs=4, num_workers=2, **kw)
    ref = gym.make_vec("poolgym/NineBall-v0", num_envs=4, vectorization_mode="vector_entry_point", **kw)
    try:
        o1, _ = venv.reset(seed=3)
        o2, _ = ref.reset(seed=3)
        bad = np.zeros(venv.action_space.shape)
        bad[3, 1] = np.nan
        with pytest.raises(ValueError, match="table 3: action contains NaN"):
            venv.step(bad)
        with pytest.raises(ValueError, match="shape"):
            venv.step(bad[:3])
        rng = np.random.default_rng(0)
        _same_steps(venv, ref, rng, 4)
    finally:
        venv.close()
        ref.close()


def test_sharded_macro_step_checks_the_range_here_and_changes_nothing():
    """A macro step takes one round trip (masked entries are substituted): an index outside
    the space is refused here with the table's global index and the single env's words, and
    no table changes."""
    venv, ref = _sharded_and_single(max_shots=8, opponent=None, action_mode="macro")
    try:
        rng = np.random.default_rng(4)
        for env in (venv, ref):
            env.reset(seed=2)
        n = venv.single_action_space.n
        for bad in (np.array([0, 1, n, 0]), np.array([-1, 0, 0, 0])):
            errs = []
            for env in (venv, ref):
                with pytest.raises(ValueError, match=r"table \d: macro action must be in") as e:
                    env.step(bad)
                errs.append(str(e.value))
            assert errs[0] == errs[1]
        _same_steps(venv, ref, rng, 4, lambda: _macro_actions(ref, rng))
    finally:
        venv.close()
        ref.close()


def test_sharded_env_finished_table_is_refused_before_any_worker_steps():
    """Without autoreset a finished table refuses a step (``RuntimeError``, its global index),
    checked before any worker steps (this process tracks which episodes ended): no table
    changes."""
    kw = dict(max_shots=1, opponent=None, autoreset_mode="disabled")
    venv = ShardedVectorEnv("nine_ball", num_envs=4, num_workers=2, **kw)
    try:
        venv.reset(seed=0)
        a = np.zeros(venv.action_space.shape)
        _, _, te, tr, info = venv.step(a)
        assert (te | tr).all()
        with pytest.raises(RuntimeError, match="table 0: step"):
            venv.step(a)
        # a new episode on every table plays as a fresh env's
        ref = gym.make_vec("poolgym/NineBall-v0", num_envs=4, vectorization_mode="vector_entry_point", **kw)
        np.testing.assert_array_equal(venv.reset(seed=9)[0], ref.reset(seed=9)[0])
        r1, r2 = venv.step(a), ref.step(a)
        for k in range(4):
            np.testing.assert_array_equal(r1[k], r2[k])
        ref.close()
    finally:
        venv.close()


def test_sharded_reset_refused_by_one_worker_resets_no_table():
    """A seed one worker refuses (table 3's, negative) leaves every table as it was, the other
    worker's included (two-phase reset): the episodes go on as in one process."""
    venv, ref = _sharded_and_single(max_shots=6, opponent=None)
    try:
        rng = np.random.default_rng(3)
        np.testing.assert_array_equal(venv.reset(seed=0)[0], ref.reset(seed=0)[0])
        _same_steps(venv, ref, rng, 2)
        for env in (venv, ref):
            with pytest.raises(gym.error.Error, match="Seed must be"):
                env.reset(seed=[5, 6, 7, -1])
        _same_steps(venv, ref, rng, 4)
    finally:
        venv.close()
        ref.close()


@pytest.mark.parametrize("mode, cut, stepped", [("box", 1, True), ("box", 2, True), ("macro", 1, True),
                                                ("macro_raise", 1, False), ("macro_raise", 2, True)])
def test_an_interrupted_step_leaves_the_workers_in_step(mode, cut, stepped):
    """Ctrl-C while the caller waits for the workers (they ignore SIGINT and finish the
    command): a one-round step (Box, macro) has run on every table wherever it is cut short; a
    two-phase step (macro actions with ``illegal_macro="raise"``) cut short at the plans (1) on
    no table, at the run (2) on every table. Either way the replies left unread are not taken
    for the next command's."""
    kw = {"action_mode": "box"} if mode == "box" else {"action_mode": "macro"}
    if mode == "macro_raise":
        kw["illegal_macro"] = "raise"
    venv, ref = _sharded_and_single(max_shots=8, opponent=None, **kw)
    try:
        rng = np.random.default_rng(5)
        venv.reset(seed=1)
        ref.reset(seed=1)
        act = None if mode == "box" else (lambda: _macro_actions(ref, rng))
        a = rng.uniform(-1, 1, venv.action_space.shape) if act is None else act()
        calls = []
        real = venv._gather

        def interrupted(workers=None):
            calls.append(workers)
            if len(calls) == cut:
                raise KeyboardInterrupt
            return real(workers)

        venv._gather = interrupted
        with pytest.raises(KeyboardInterrupt):
            venv.step(a)
        del venv._gather
        if stepped:
            ref.step(a)
        _same_steps(venv, ref, rng, 3, act)
    finally:
        venv.close()
        ref.close()


def test_a_box_step_some_workers_refused_asks_for_a_reset():
    """A Box step takes one round trip: a worker refusing its slice after the other stepped
    its own (a defect: every Box row in range is decodable; forced here by ending table 3's
    episode behind the env's back) raises with the table's global index, and every later
    step raises until `reset`, after which the tables play as a fresh env's."""
    kw = dict(max_shots=6, opponent=None)
    venv = ShardedVectorEnv("nine_ball", num_envs=4, num_workers=2, **kw)
    ref = gym.make_vec("poolgym/NineBall-v0", num_envs=4, vectorization_mode="vector_entry_point", num_workers=1,
                       **kw)
    try:
        venv.reset(seed=0)
        (ses,) = venv.table_attrs("session", [3])
        ses.done = True
        venv.set_table_attrs("session", ses, [3])
        a = np.zeros(venv.action_space.shape)
        with pytest.raises(RuntimeError, match="table 3: step"):
            venv.step(a)
        for _ in range(2):
            with pytest.raises(RuntimeError, match="call reset"):
                venv.step(a)
        np.testing.assert_array_equal(venv.reset(seed=9)[0], ref.reset(seed=9)[0])
        _same_steps(venv, ref, np.random.default_rng(2), 3)
    finally:
        venv.close()
        ref.close()


def test_num_threads_gives_the_same_trajectories():
    """``num_threads=2`` (numba-parallel batched physics on two threads) changes no result
    (physics/CONTRACT.md: same inputs, bit-identical outputs whatever the batching)."""
    kw = dict(max_shots=8, opponent=None)
    runs = []
    for threads in (None, 2):
        venv = gym.make_vec("poolgym/NineBall-v0", num_envs=9, vectorization_mode="vector_entry_point",
                            num_threads=threads, **kw)
        try:
            assert venv.unwrapped.models.parallel is (threads is not None)
            runs.append(_run(venv, 4, 6))
        finally:
            venv.close()
    for t, (a, b) in enumerate(zip(*runs)):
        np.testing.assert_array_equal(a, b, err_msg=f"item {t}")


def _sb3_run(venv, steps, rng):
    out = [venv.reset()]
    for _ in range(steps):
        venv.step_async(rng.uniform(-1, 1, (venv.num_envs,) + venv.action_space.shape).astype(np.float32))
        o, r, d, infos = venv.step_wait()
        out += [o, r, d, [(i["winner"], i["shots"], i.get("TimeLimit.truncated")) for i in infos],
                [i["terminal_observation"] for i in infos if "terminal_observation" in i]]
    return out


def _assert_runs_equal(a, b):
    assert len(a) == len(b)
    for t, (x, y) in enumerate(zip(a, b)):
        if isinstance(x, list) and x and isinstance(x[0], np.ndarray):
            assert len(x) == len(y)
            for u, v in zip(x, y):
                np.testing.assert_array_equal(u, v, err_msg=f"item {t}")
        elif isinstance(x, list):
            assert x == y, f"item {t}"
        else:
            np.testing.assert_array_equal(x, y, err_msg=f"item {t}")


def test_sb3_vec_env_sharded_equals_one_process_and_pickles_exactly():
    """`NativeSB3VecEnv(num_workers=2)`: the same observations, rewards, dones and infos as one
    process (same seed, same actions), the per-table attribute and method calls of SB3 answered
    by the workers, and a pickle taken between two steps continues exactly as the env it was
    taken from (the experiments' exact checkpoints pickle the vector env)."""
    import pickle

    pytest.importorskip("stable_baselines3")
    from poolgym.envs.sb3 import NativeSB3VecEnv

    n, kw = 5, {"max_shots": 8, "noise": "icga"}
    one = NativeSB3VecEnv("poolgym/NineBall-v0", num_envs=n, seed=4, **kw)
    two = NativeSB3VecEnv("poolgym/NineBall-v0", num_envs=n, seed=4, num_workers=2, **kw)
    try:
        _assert_runs_equal(_sb3_run(one, 10, np.random.default_rng(2)), _sb3_run(two, 10, np.random.default_rng(2)))
        assert two.get_attr("max_shots") == one.get_attr("max_shots") == [8] * n
        assert two.get_attr("action_mode", indices=[4, 0]) == ["box"] * 2
        two.set_attr("max_shots", 9, indices=[1, 3])
        assert two.get_attr("max_shots") == [8, 9, 8, 9, 8]
        two.set_attr("max_shots", 8)
        for venv in (one, two):  # every index is checked before any table changes
            for bad in ([1, n], [2, -1]):
                with pytest.raises(IndexError, match="out of range"):
                    venv.set_attr("max_shots", 7, indices=bad)
            assert venv.get_attr("max_shots") == [8] * n
        assert two.has_attr("action_mode") and not two.has_attr("no_such_attribute") and not two.has_attr("action_masks")
        assert two.env_is_wrapped(object) == [False] * n
        assert two.env_method("state_json", indices=[3, 0]) == one.env_method("state_json", indices=[3, 0])
        copy = pickle.loads(pickle.dumps(two))
        try:
            rng = np.random.default_rng(5)
            acts = [rng.uniform(-1, 1, (n,) + one.action_space.shape).astype(np.float32) for _ in range(8)]
            runs = []
            for venv in (one, two, copy):
                out = []
                for a in acts:
                    venv.step_async(a)
                    o, r, d, infos = venv.step_wait()
                    out += [o, r, d, [(i["winner"], i["shots"]) for i in infos]]
                runs.append(out)
            _assert_runs_equal(runs[0], runs[1])
            _assert_runs_equal(runs[1], runs[2])
        finally:
            copy.close()
    finally:
        one.close()
        two.close()


def test_auto_workers_one_per_32_tables_and_core_64_pipelined_once_the_cache_is_warm(monkeypatch):
    from physics import compile_cache
    from poolgym.envs import workers

    monkeypatch.setattr(workers, "usable_cpus", lambda: 2)
    monkeypatch.setattr(compile_cache, "is_cold", lambda *a, **k: False)
    resolve = workers.resolve_num_workers
    assert [resolve("auto", n) for n in (1, 63, 64, 128, 256, 1024)] == [1, 1, 2, 2, 2, 2]
    assert [resolve("auto", n, True) for n in (1, 64, 127, 128, 256, 1024)] == [1, 1, 1, 2, 2, 2]
    asked = []
    assert resolve("auto", 63, lambda: asked.append(1) or True) == 1 and not asked  # asked only when it matters
    assert resolve("auto", 64, lambda: asked.append(1) or True) == 1 and asked == [1]
    monkeypatch.setattr(workers, "usable_cpus", lambda: 64)
    assert [resolve("auto", n) for n in (256, 1000, 2048, 100_000)] == [8, 31, 64, 64]
    assert [resolve("auto", n, True) for n in (256, 1000, 2048, 100_000)] == [4, 15, 32, 64]
    assert resolve(3, 10) == 3 and resolve(1, 10_000) == 1  # a count is the caller's
    monkeypatch.setattr(compile_cache, "is_cold", lambda *a, **k: True)
    assert resolve("auto", 4096) == 1  # the first run compiles once, in this process
    for bad in ("two", "Auto", ""):
        with pytest.raises(ValueError, match="num_workers"):
            resolve(bad, 256)


def test_make_vec_shards_by_default_where_the_cores_allow(monkeypatch):
    """``gymnasium.make_vec`` defaults to ``num_workers="auto"``: 128 tables on two cores are two
    worker processes; fewer tables stay in this process where it pipelines its steps (Box
    self-play without noise), from 64 tables they are two processes where it does not (an
    opponent, execution noise, macro actions); ``num_workers=1`` keeps them here."""
    from physics import compile_cache
    from poolgym.envs import workers
    from poolgym.envs.vector import PoolVectorEnv

    monkeypatch.setattr(workers, "usable_cpus", lambda: 2)
    monkeypatch.setattr(compile_cache, "is_cold", lambda *a, **k: False)
    make = lambda n, **kw: gym.make_vec("poolgym/NineBall-v0", num_envs=n,  # noqa: E731
                                        vectorization_mode="vector_entry_point", max_shots=4, **kw)
    venv = make(128)
    try:
        assert isinstance(venv, ShardedVectorEnv) and venv.num_workers == 2 and venv.bounds == [(0, 64), (64, 128)]
        assert venv.table.name == "wpa_9ft" and venv.models.overlap is False  # the workers' physics
        venv.reset(seed=1)
        venv.step(np.zeros(venv.action_space.shape))
    finally:
        venv.close()
    for venv in (make(127, opponent=None), make(128, num_workers=1), make(63)):
        assert isinstance(venv, PoolVectorEnv)
        venv.close()
    for kw in ({}, {"opponent": None, "noise": "icga"}, {"opponent": None, "action_mode": "macro"}):
        venv = make(64, **kw)
        try:
            assert isinstance(venv, ShardedVectorEnv) and venv.bounds == [(0, 32), (32, 64)], kw
        finally:
            venv.close()


_NO_GUARD = """
import os, sys
import numpy as np, gymnasium as gym
import poolgym  # noqa: F401

env = gym.make_vec("poolgym/NineBall-v0", num_envs=4, vectorization_mode="vector_entry_point",
                   num_workers=2, max_shots=4, opponent=None)
obs, _ = env.reset(seed=5)
obs, r, te, tr, _ = env.step(np.zeros(env.action_space.shape))
print("PIDS", *[p.pid for p in env._procs], flush=True)
print("OBS", float(np.abs(obs).sum()), flush=True)
if sys.argv[1] == "die":
    os._exit(0)  # no close() and no clean-up: the workers must end by themselves
if sys.argv[1] == "close":
    env.close()
"""


def test_workers_start_from_a_script_without_a_main_guard_and_end_with_it(tmp_path):
    """A script with no ``if __name__ == "__main__":`` guard can use workers (they are fresh
    interpreters that do not re-import the script), leaves no shared memory warnings, and its
    workers end when it ends without closing the env, also when it is killed (then its
    `multiprocessing.resource_tracker` removes the shared memory, saying so)."""
    import os
    import subprocess
    import sys
    import time

    script = tmp_path / "no_guard.py"
    script.write_text(_NO_GUARD)
    ref = gym.make_vec("poolgym/NineBall-v0", num_envs=4, vectorization_mode="vector_entry_point", num_workers=1,
                       max_shots=4, opponent=None)
    ref.reset(seed=5)
    want = float(np.abs(ref.step(np.zeros(ref.action_space.shape))[0]).sum())
    ref.close()
    for how in ("close", "end", "die"):
        run = subprocess.run([sys.executable, str(script), how], capture_output=True, text=True, timeout=300,
                             cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        assert "OBS" in run.stdout and float(run.stdout.split("OBS")[1].split()[0]) == want
        assert "Traceback" not in run.stderr, run.stderr
        assert how == "die" or "Warning" not in run.stderr, run.stderr
        pids = [int(p) for p in run.stdout.split("PIDS")[1].split("\n")[0].split()]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            alive = []
            for pid in pids:
                try:
                    os.kill(pid, 0)
                    with open(f"/proc/{pid}/stat") as f:
                        if f.read().split(") ")[1][0] != "Z":
                            alive.append(pid)
                except (ProcessLookupError, FileNotFoundError):
                    pass
            if not alive:
                break
            time.sleep(0.1)
        assert not alive, f"{how}: workers {alive} still running"


def test_workers_leave_ctrl_c_to_the_caller():
    """The terminal's Ctrl-C reaches the whole process group; a worker ignores it (the caller
    decides, and its workers end with it), so the env goes on stepping."""
    import os
    import signal

    venv = ShardedVectorEnv("nine_ball", num_envs=4, num_workers=2, max_shots=4, opponent=None)
    procs = list(venv._procs)
    try:
        venv.reset(seed=2)
        for p in procs:
            os.kill(p.pid, signal.SIGINT)
        for _ in range(3):
            venv.step(np.zeros(venv.action_space.shape))
        assert all(p.is_alive() for p in procs)
    finally:
        venv.close()
    assert not any(p.is_alive() for p in procs)


def test_a_multiprocessing_start_method_gives_the_same_trajectories():
    kw = dict(max_shots=6, noise="icga")
    runs = []
    for ctx in ("auto", "spawn"):
        venv = ShardedVectorEnv("nine_ball", num_envs=4, num_workers=2, mp_context=ctx, **kw)
        try:
            runs.append(_run(venv, 3, 5))
        finally:
            venv.close()
    for t, (a, b) in enumerate(zip(*runs)):
        np.testing.assert_array_equal(a, b, err_msg=f"item {t}")
    with pytest.raises(ValueError, match="mp_context"):
        ShardedVectorEnv("nine_ball", num_envs=4, num_workers=2, mp_context="threads")
