"""Native vector env: same trajectories as N single envs (envpool run_align_check style),
autoreset modes, the SB3 adapter, and rule-chosen seats in the PettingZoo env."""

import gymnasium as gym
import numpy as np
import pytest

from poolgym.envs.disciplines import ENV_IDS

from .conftest import ALL_IDS, assert_vector_matches_single


@pytest.mark.parametrize("env_id, kwargs", [
    ("poolgym/NineBall-v0", {"max_shots": 12}),
    ("poolgym/NineBall-v0", {"max_shots": 12, "noise": "icga", "learner_seat": "random"}),
    ("poolgym/PotDrill-v0", {}),
    ("poolgym/EightBall-v0", {"max_shots": 8, "action_mode": "macro"}),
    # batched geometric opponent with calls (8B-4.2 called shots) and self-play
    ("poolgym/EightBall-v0", {"max_shots": 10}),
    ("poolgym/StraightPool-v0", {"max_shots": 10, "noise": "icga"}),
    ("poolgym/NineBall-v0", {"max_shots": 12, "opponent": None}),
])
def test_native_vector_matches_single_envs_step_by_step(env_id, kwargs):
    assert_vector_matches_single(env_id, kwargs, n=4, seed=7, steps=25)


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_make_vec_for_every_id(env_id):
    venv = gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point", max_shots=3)
    obs, info = venv.reset(seed=0)
    assert obs.shape == (2,) + venv.single_observation_space.shape
    obs, rew, term, trunc, info = venv.step(venv.action_space.sample())
    assert venv.observation_space.contains(obs)
    venv.close()


def test_same_step_autoreset_reports_final_observation():
    from poolgym.envs.vector import PoolVectorEnv

    venv = PoolVectorEnv("pot_drill", num_envs=3, autoreset_mode="same_step", max_shots=1)
    venv.reset(seed=0)
    obs, rew, term, trunc, info = venv.step(venv.action_space.sample())
    assert (term | trunc).all()
    assert info["_final_obs"].all() and info["final_obs"][0].shape == obs[0].shape
    # the returned observation is already the next episode's first one
    obs2, *_ = venv.step(venv.action_space.sample())
    assert obs2.shape == obs.shape


def test_vector_env_rejects_bad_arguments():
    from poolgym.envs.vector import PoolVectorEnv

    with pytest.raises(ValueError, match="num_envs"):
        PoolVectorEnv("nine_ball", num_envs=0)
    with pytest.raises(ValueError, match="autoreset_mode"):
        PoolVectorEnv("nine_ball", num_envs=1, autoreset_mode="sometimes")


def test_sb3_native_vec_env():
    pytest.importorskip("stable_baselines3")  # the sb3 extra
    from stable_baselines3.common.vec_env import VecEnv

    from poolgym.envs.sb3 import NativeSB3VecEnv

    venv = NativeSB3VecEnv("poolgym/PotDrill-v0", num_envs=4, seed=0)
    assert isinstance(venv, VecEnv)
    obs = venv.reset()
    assert obs.shape == (4,) + venv.observation_space.shape
    venv.step_async(np.stack([venv.action_space.sample() for _ in range(4)]))
    obs, rew, dones, infos = venv.step_wait()
    assert dones.all() and "terminal_observation" in infos[0] and rew.dtype == np.float32


def test_pettingzoo_player_who_pockets_keeps_shooting_9B_5_5(table9):
    """Seats follow the rules, not round-robin: a legal pot keeps the shooter (9B-5.5)."""
    from poolgym import aim
    pytest.importorskip("pettingzoo")  # the pettingzoo extra
    from poolgym.pettingzoo import env

    from .test_pool_env import straight_in_layout

    e = env("nine_ball", max_shots=10)
    cue, obj, phi = straight_in_layout(table9)
    balls = {k: None for k in range(1, 10)}
    balls.update({0: tuple(cue), 1: tuple(obj), 9: (1.0, 0.6)})
    e.reset(seed=0, options={"balls": balls, "phase": "play", "cue_ball": "in_position", "seat_to_act": 0})
    assert e.agent_selection == "player_0"
    a = np.zeros(e.action_space("player_0").shape, np.float32)
    # V0 = 2 m/s; phi relative to the line to the 1-ball = 0 (straight at it)
    a[0] = (2.0 - 0.1) / (8.0 - 0.1) * 2 - 1
    e.step(a)
    assert e.agent_selection == "player_0"
    # a miss (no contact) hands the table to the other seat (9B-5.8 foul)
    a[0], a[1] = -0.95, 1.0
    e.step(a)
    assert e.agent_selection == "player_1"
    assert aim is not None


def test_games_decided_before_the_learner_acts_are_replayed():
    """With the opponent breaking, every reset still hands the learner a decision; where the
    opponent's break uses the whole shot limit the learner never acts, and the reset says so
    after `PoolEnv.MAX_RESTARTS` new games (here 50)."""
    def soft_break(state, spec, rng):
        from poolgym.rules.core import PlaceCueBall, ShotAction

        return [PlaceCueBall(0.6, 0.3), ShotAction(V0=0.2, phi=90.0)] if spec.must_place else \
            [ShotAction(V0=0.2, phi=90.0)]

    from poolgym.envs.pool_env import PoolEnv

    env = PoolEnv("nine_ball", learner_seat=1, opponent=soft_break, max_shots=1)
    env.MAX_RESTARTS = 50
    with pytest.raises(RuntimeError, match="never gets a decision"):
        env.reset(seed=0)  # the opponent's break uses the only shot: replayed, then refused
    assert env._restarts == env.MAX_RESTARTS
    env2 = PoolEnv("nine_ball", learner_seat=1, max_shots=20)
    for seed in range(3):
        env2.reset(seed=seed)
        assert env2.session.learner_to_act()


def test_pause_gc_restores_the_collector_and_changes_nothing():
    """`PoolVectorEnv(pause_gc=True)` pauses the cyclic GC only inside reset/step (restored
    after an error too) and gives the same trajectories as ``pause_gc=False``."""
    import gc

    import numpy as np

    from poolgym.envs.vector import PoolVectorEnv

    outs = []
    for pause in (True, False):
        venv = PoolVectorEnv("nine_ball", num_envs=3, opponent=None, max_shots=20, pause_gc=pause)
        rng = np.random.default_rng(5)
        obs, _ = venv.reset(seed=11)
        traj = [obs]
        for _ in range(6):
            assert gc.isenabled()
            o, r, te, tr, _ = venv.step(rng.uniform(-1, 1, (3,) + venv.single_action_space.shape))
            traj += [o, r, te, tr]
        outs.append(traj)
        assert gc.isenabled()
        bad = np.full((3,) + venv.single_action_space.shape, np.nan)
        try:
            venv.step(bad)
        except ValueError:
            pass
        assert gc.isenabled()
    for a, b in zip(*outs):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("env_id, kwargs", [
    ("poolgym/NineBall-v0", {"max_shots": 12, "opponent": None, "reward": "shaped"}),
    ("poolgym/NineBall-v0", {"max_shots": 12, "noise": "icga", "learner_seat": "random"}),
    ("poolgym/StraightPool-v0", {"max_shots": 8, "noise": "icga"}),
    ("poolgym/PotDrill-v0", {"autoreset_mode": "same_step"}),
    ("poolgym/PeaPool-v0", {"players": 6, "max_shots": 12, "opponent": None}),
])
def test_overlapped_physics_changes_nothing(env_id, kwargs, monkeypatch):
    """`PhysicsModels.overlap` (tables refereed and reset while the batch's kernel runs on a
    worker thread; used from `physics_io.OVERLAP_MIN_BATCH` tables, 4 here) gives the trajectories of
    the plain batched call and of N single envs, step by step, autoresets included (tables
    finished in the overlap observed in groups of 3, opponents deciding in groups of 2, to
    exercise the grouping; self-play pea pool: the tables deciding an option are committed,
    finished and observed in the overlap; self-play without noise: the first round planned and
    simulated in pipelined groups of >= 3 tables)."""
    from poolgym.envs import physics_io, vector

    monkeypatch.setattr(vector, "OBS_GROUP", 3)
    monkeypatch.setattr(vector, "OPP_GROUP", 2)
    monkeypatch.setattr(vector, "PIPELINE_MIN_GROUP", 3)
    monkeypatch.setattr(physics_io, "OVERLAP_MIN_BATCH", 4)
    pipelined = []
    consume = physics_io._consume_launches
    monkeypatch.setattr(physics_io, "_consume_launches", lambda ls, *a, **k: pipelined.append(len(ls)) or
                        consume(ls, *a, **k))

    n = 10
    runs = []
    for overlap in (True, False):
        venv = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point",
                            physics={"overlap": overlap}, **kwargs)
        rng = np.random.default_rng(3)
        out = [venv.reset(seed=21)[0]]
        for _ in range(20):
            o, r, te, tr, info = venv.step(rng.uniform(-1, 1, venv.action_space.shape).astype(np.float32))
            comps = np.stack([info["reward_components"][k] for k in sorted(info["reward_components"])])
            out += [o, r, te, tr, info["shots"], info["winner"], comps]
        runs.append(out)
        assert (venv.unwrapped.timer.overlapped > 0) == overlap
        s0 = venv.unwrapped.envs[0].session
        assert bool(pipelined) == (overlap and s0.opponent is None and s0.noise is None)
        assert all(g > 1 for g in pipelined)
        pipelined.clear()
        venv.close()
    kw = {k: v for k, v in kwargs.items() if k != "autoreset_mode"}
    mode = gym.vector.AutoresetMode.SAME_STEP if "autoreset_mode" in kwargs else gym.vector.AutoresetMode.NEXT_STEP
    sync = gym.vector.SyncVectorEnv([lambda: gym.make(env_id, **kw) for _ in range(n)], autoreset_mode=mode)
    rng = np.random.default_rng(3)
    ref = [sync.reset(seed=21)[0]]
    for _ in range(20):
        o, r, te, tr, info = sync.step(rng.uniform(-1, 1, sync.action_space.shape).astype(np.float32))
        ref += [o, r, te, tr]
    sync.close()
    for t, (a, b) in enumerate(zip(runs[0], runs[1])):
        np.testing.assert_array_equal(a, b, err_msg=f"overlap on/off, item {t}")
    ref_items = [x for k, x in enumerate(runs[0]) if k == 0 or (k - 1) % 7 < 4]
    for t, (a, b) in enumerate(zip(ref_items, ref)):
        np.testing.assert_array_equal(a, b, err_msg=f"native vs Sync, item {t}")


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_every_id_native_vector_matches_single_envs(env_id):
    """Every registered id: the native vector env equals N single envs over seeded random
    episodes (observations, rewards, end flags step by step, autoresets included)."""
    assert_vector_matches_single(env_id, {"max_shots": 6}, n=3, seed=5, steps=10)


def test_tables_share_one_config_object_and_unequal_configs_stay_apart():
    """`pool_env.shared_config`: equal discipline configs are one object (the rules' spec memo
    is keyed by it), configs differing in any field value -- also -0.0 against 0.0 -- are not."""
    from poolgym.envs.pool_env import PoolEnv
    from poolgym.envs.vector import PoolVectorEnv
    from poolgym.rules.game import get_discipline

    env = PoolVectorEnv("nine_ball", num_envs=3)
    assert len({id(e.config) for e in env.envs} | {id(e.session.config) for e in env.envs}) == 1
    env.reset(seed=0)
    assert all(e.session.state.config is env.envs[0].config for e in env.envs)
    env.close()
    cfg = get_discipline("nine_ball").config_cls
    assert PoolEnv("nine_ball", rules={"double_hit_gap": 0.0}).config is PoolEnv(
        "nine_ball", rules=cfg(double_hit_gap=0.0)).config
    a = PoolEnv("nine_ball", rules={"double_hit_gap": 0.0}).config
    b = PoolEnv("nine_ball", rules={"double_hit_gap": -0.0}).config
    c = PoolEnv("nine_ball", rules={"three_foul_loss": False}).config
    assert a is not b and a is not c and not c.three_foul_loss
