"""The ray backend of ``poolgym experiment run``: RLlib PPO training (single
agent on a registered id, multi agent through the PettingZoo env), evaluation episodes and
tournament games as Ray tasks, on a local Ray instance with tiny budgets.

The RLlib tests skip when Ray is not installed (``pip install "poolgym[ray]"``); the config
validation tests run everywhere.
"""

import json
import os

import numpy as np
import pytest

from experiments import config as C
from experiments.runner import run_experiment

SINGLE = """
[experiment]
name = "ray-single"
seed = {seed}

[env]
id = "poolgym/PotDrill-v0"

[training]
algo = "ppo"
total_timesteps = 256
n_envs = 4
eval_every = 128
eval_episodes = 8
checkpoint_every = 128
hyperparams = {{ n_steps = 32, batch_size = 64, n_epochs = 2 }}

[evaluation]
episodes = 30
seed = 500
deterministic = false
"""

MULTI = """
[experiment]
name = "ray-multi"
seed = 4

[env]
id = "poolgym/NineBall-v0"
kwargs = {{ max_shots = 8, noise = "icga" }}

[training]
algo = "ppo"
multi_agent = true
policies = "{policies}"
total_timesteps = 64
n_envs = 2
eval_every = 64
eval_episodes = 2
hyperparams = {{ n_steps = 16, batch_size = 32, n_epochs = 1 }}

[evaluation]
episodes = 4
seed = 7
"""

TOURNAMENT = """
[experiment]
name = "ray-tournament"
seed = 5

[tournament]
discipline = "nine_ball"
games_per_pair = 4
noise = "icga"
max_shots = 30
agents = ["geometric", "random"]
"""


@pytest.fixture(scope="module")
def ray_local():
    """A local Ray instance shared by the module's RLlib tests (2 CPUs, no dashboard)."""
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.rllib")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()


def _module_state(train_dir, pid):
    """Weights (name -> array) of the checkpointed RLModule `pid`."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    from experiments.ray_backend import module_path

    m = RLModule.from_checkpoint(module_path(str(train_dir), pid))
    return {k: v.detach().numpy().copy() for k, v in m.state_dict().items()}


def _count_ray_jobs(monkeypatch, RB) -> list:
    """Record the number of jobs of each `run_jobs_ray` call (the real function still runs)."""
    calls, real = [], RB.run_jobs_ray

    def counting(fn, cfg, jobs, progress=False):
        calls.append(len(jobs))
        return real(fn, cfg, jobs, progress)

    monkeypatch.setattr(RB, "run_jobs_ray", counting)
    return calls


def _same_weights(a, b) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


# ----------------------------------------------------------------------------- validation (no ray)
@pytest.mark.parametrize("text, msg", [
    (SINGLE.format(seed=0).replace('algo = "ppo"', 'algo = "ppo"\nmulti_agent = true'),
     r"training.multi_agent: env.id must be one of \['poolgym/EightBall-v0'"),
    (MULTI.format(policies="each"), r"training.policies: expected one of \['shared', 'per_seat'\], got 'each'"),
    (MULTI.format(policies="shared").replace('algo = "ppo"', 'algo = "sac"'),
     r"training.multi_agent: multi-agent training is RLlib PPO"),
])
def test_multi_agent_config_errors_name_the_key(text, msg):
    with pytest.raises(C.ConfigError, match=msg):
        C.loads(text)


def test_backend_specific_errors(tmp_path):
    """multi_agent needs --backend ray; the ray backend trains PPO on box actions and rejects
    hyperparameters it cannot map, before any stage runs."""
    with pytest.raises(C.ConfigError, match="multi-agent training runs on RLlib: use --backend ray"):
        run_experiment(C.loads(MULTI.format(policies="shared")), str(tmp_path / "a"), quiet=True)
    sac = C.loads(SINGLE.format(seed=0).replace('algo = "ppo"', 'algo = "sac"')
                  .replace("hyperparams = { n_steps = 32, batch_size = 64, n_epochs = 2 }", ""))
    with pytest.raises(C.ConfigError, match="training.algo: the ray backend trains RLlib PPO only"):
        run_experiment(sac, str(tmp_path / "b"), backend="ray", quiet=True)
    macro = C.loads(SINGLE.format(seed=0).replace('id = "poolgym/PotDrill-v0"',
                                                   'id = "poolgym/PotDrill-v0"\nkwargs = { action_mode = "macro" }'))
    with pytest.raises(C.ConfigError, match="env.kwargs.action_mode"):
        run_experiment(macro, str(tmp_path / "c"), backend="ray", quiet=True)
    bad_hp = C.loads(SINGLE.format(seed=0).replace("n_epochs = 2", "n_epoch = 2"))
    with pytest.raises(C.ConfigError, match=r"training.hyperparams: unknown for the ray backend: \['n_epoch'\]"):
        run_experiment(bad_hp, str(tmp_path / "d"), backend="ray", quiet=True)
    assert not (tmp_path / "d" / "config.toml").exists()


def test_sb3_hyperparameters_map_onto_rllib():
    """The same [training] table runs on both backends: SB3 names (over the tuned defaults of
    agents.sb3) become PPOConfig.training keywords; the batch is n_steps x n_envs as in SB3."""
    from experiments.ray_backend import rllib_settings

    cfg = C.loads(SINGLE.format(seed=0).replace("n_epochs = 2 }", "n_epochs = 2, ent_coef = 0.01, "
                                                "num_env_runners = 3, lambda_ = 0.9 }"))
    s = rllib_settings(cfg)
    assert s["training"] == {"train_batch_size_per_learner": 128, "minibatch_size": 64, "num_epochs": 2,
                             "lr": 1e-3, "gamma": 0.0, "lambda_": 0.9, "entropy_coeff": 0.01, "clip_param": 0.2}
    assert s["model"] == {"fcnet_hiddens": [128, 128]} and s["log_std_init"] == -1.0
    assert (s["num_envs"], s["num_env_runners"], s["num_learners"]) == (4, 3, 0)


# ----------------------------------------------------------------------------- RLlib (ray)
def test_policy_head_is_initialised_like_sb3(ray_local):
    """The Gaussian head starts as SB3's: mean outputs near zero (the last layer's mean rows at
    1% of RLlib's init, zero bias), log-std = policy_kwargs.log_std_init (PotDrill default -1),
    in the learner and in the sampling module; another seed still gives other weights."""
    from experiments.ray_backend import build_algo

    heads = []
    for seed in (1, 2):
        algo = build_algo(C.loads(SINGLE.format(seed=0)), seed=seed)
        try:
            learner = algo.learner_group.get_weights()["default_policy"]
            runner = {k: v.numpy() for k, v in algo.get_module().state_dict().items()}
        finally:
            algo.stop()
        for w in (learner, runner):
            b, W = w["pi.net.mlp.0.bias"], w["pi.net.mlp.0.weight"]
            n = b.shape[0] // 2  # (means, log-stds) of the action dimensions
            assert np.all(b[n:] == -1.0) and np.all(b[:n] == 0.0)
            assert 0 < np.abs(W[:n]).max() < 0.01 < np.abs(W[n:]).max()
        assert np.array_equal(learner["pi.net.mlp.0.weight"], runner["pi.net.mlp.0.weight"])
        heads.append(learner["pi.net.mlp.0.weight"])
    assert not np.array_equal(heads[0], heads[1])


def test_single_agent_ppo_via_cli_is_reproducible(ray_local, tmp_path):
    """`poolgym experiment run --backend ray`: RLlib PPO on poolgym/PotDrill-v0 writes the
    checkpoint, the learning curve (eval every 128 steps), the evaluation and the metrics; the
    same seed gives identical weights and metrics (everything runs in the driver), another seed
    different weights."""
    from experiments.cli import main

    cfg = tmp_path / "single.toml"
    cfg.write_text(SINGLE.format(seed=3))
    runs = [tmp_path / "a", tmp_path / "b"]
    for out in runs:
        assert main(["experiment", "run", str(cfg), "--out", str(out), "--backend", "ray", "--no-progress"]) == 0
    a = runs[0]
    for f in ("config.toml", "metrics.csv", "report.md", "evaluation.json", "train/learning_curve.csv",
              "train/rllib_run.json", "learning_curve.png"):
        assert (a / f).exists(), f
    curve = (a / "train" / "learning_curve.csv").read_text().splitlines()
    assert curve[0] == "timesteps,eval_success_rate,eval_mean_return,train_mean_return"
    assert [int(r.split(",")[0]) for r in curve[1:]] == [128, 256]
    info = json.loads((a / "stages" / "train.done").read_text())
    assert info["timesteps"] == 256 and info["policies"] == ["default_policy"]
    ev = json.loads((a / "evaluation.json").read_text())
    assert ev["episodes"] == 30 and ev["backend"] == "ray" and 0.0 <= ev["success_rate"] <= 1.0
    assert (a / "metrics.csv").read_bytes() == (runs[1] / "metrics.csv").read_bytes()
    assert _same_weights(_module_state(a / "train", "default_policy"), _module_state(runs[1] / "train",
                                                                                      "default_policy"))
    other = tmp_path / "c"
    run_experiment(C.loads(SINGLE.format(seed=4)), str(other), backend="ray", quiet=True, stop_after="train")
    assert not _same_weights(_module_state(a / "train", "default_policy"),
                             _module_state(other / "train", "default_policy"))


def test_native_vector_env_samples_equal_gymnasium_sync(ray_local):
    """RLlib sampling through the native batched env (vector_entry_point, training.vector =
    "auto") gives the same episodes (observations, actions, rewards) as Gymnasium's SyncVectorEnv
    of single envs: the autoreset and seeding conventions agree."""
    import dataclasses

    from experiments.ray_backend import build_algo

    base = C.loads(SINGLE.format(seed=0))
    out = {}
    for vec in ("native", "sync"):
        algo = build_algo(dataclasses.replace(base, training=dataclasses.replace(base.training, vector=vec)), 5)
        try:
            eps = algo.env_runner.sample(num_timesteps=32, random_actions=False)
        finally:
            algo.stop()
        out[vec] = [[np.asarray(x) for x in (e.get_observations(), e.get_actions(), e.get_rewards())] for e in eps]
    assert len(out["native"]) == len(out["sync"]) >= 32
    for a, b in zip(out["native"], out["sync"]):
        assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_evaluation_tasks_equal_in_process_play(ray_local, tmp_path, monkeypatch):
    """The evaluation stage plays its episodes as Ray tasks (chunks of EVAL_CHUNK): the result
    equals playing the same seeded episodes with the checkpointed policy in this process."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    from experiments import ray_backend as RB

    calls = _count_ray_jobs(monkeypatch, RB)
    cfg = C.loads(SINGLE.format(seed=3))
    out = tmp_path / "run"
    run_experiment(cfg, str(out), backend="ray", quiet=True, stop_after="evaluate")
    assert calls == [2]  # 30 episodes in tasks of 25
    ev = json.loads((out / "evaluation.json").read_text())
    module = RLModule.from_checkpoint(RB.module_path(str(out / "train"), "default_policy"))
    seeds = range(500, 530)
    r = np.array(RB.policy_returns(module, cfg.env.id, {}, seeds, deterministic=False))
    assert cfg.evaluation.episodes > RB.EVAL_CHUNK  # several tasks
    assert ev["episodes"] == 30
    assert ev["mean_return"] == pytest.approx(float(r.mean()), abs=0)
    assert ev["success_rate"] == pytest.approx(float((r > 0).mean()), abs=0)


def test_training_resumes_from_checkpoint(ray_local, tmp_path):
    """A second call with a larger budget continues from the saved checkpoint: the curve keeps
    its first point and the run reports the total steps (not twice the first budget)."""
    import dataclasses

    from experiments.ray_backend import train_rllib

    cfg = C.loads(SINGLE.format(seed=3))
    short = dataclasses.replace(cfg, training=dataclasses.replace(cfg.training, total_timesteps=128))
    out = tmp_path / "train"
    assert train_rllib(short, str(out), seed=11)["timesteps"] == 128
    first = (out / "learning_curve.csv").read_text().splitlines()
    w1 = _module_state(out, "default_policy")
    res = train_rllib(cfg, str(out), seed=11)
    assert res["timesteps"] == 256
    rows = (out / "learning_curve.csv").read_text().splitlines()
    assert rows[:2] == first and [int(r.split(",")[0]) for r in rows[1:]] == [128, 256]
    assert not _same_weights(w1, _module_state(out, "default_policy"))


@pytest.mark.parametrize("policies, pids", [("per_seat", ["player_0", "player_1"]), ("shared", ["shared"])])
def test_multi_agent_self_play(ray_local, tmp_path, policies, pids):
    """Multi-agent PPO through the PettingZoo nine-ball env (RLlib PettingZooEnv): one module per
    seat or one shared; the evaluated policy plays the registered single-agent env against the
    built-in opponent (returns are game results in {-1, 0, 1})."""
    from experiments import ray_backend as RB

    out = tmp_path / policies
    run_experiment(C.loads(MULTI.format(policies=policies)), str(out), backend="ray", quiet=True)
    info = json.loads((out / "stages" / "train.done").read_text())
    assert info["policies"] == pids and info["timesteps"] >= 64
    rl = os.path.join(str(out / "train"), "rllib", "learner_group", "learner", "rl_module")
    assert sorted(d for d in os.listdir(rl) if os.path.isdir(os.path.join(rl, d))) == pids
    ev = json.loads((out / "evaluation.json").read_text())
    assert ev["episodes"] == 4 and ev["policy"] == pids[0]
    assert ev["mean_return"] in {x / 4 for x in range(-4, 5)}
    curve = (out / "train" / "learning_curve.csv").read_text().splitlines()
    assert len(curve) == 2 and curve[1].startswith(str(info["timesteps"]))
    # the PettingZoo wrapper hands out +-1 results to both seats at the end of a game
    disc, kw = RB.multi_agent_spec(C.loads(MULTI.format(policies=policies)))
    env = RB.MultiAgentCreator(disc, kw)({})
    obs, _ = env.reset(seed=0)
    total, done = {}, False
    while not done:
        (aid,) = obs.keys()
        obs, rew, term, trunc, _ = env.step({aid: env.action_spaces[aid].sample()})
        for k, v in rew.items():
            total[k] = total.get(k, 0.0) + v
        done = term["__all__"] or trunc["__all__"]
    assert sorted(total) == ["player_0", "player_1"] and sum(total.values()) == 0.0


def test_tournament_through_ray_equals_local(ray_local, tmp_path, monkeypatch):
    """Tournament games as Ray tasks give the same games and byte-identical metrics as the
    local backend (each game is a pure function of config, pairing and game index)."""
    from experiments import ray_backend as RB

    calls = _count_ray_jobs(monkeypatch, RB)
    cfg = C.loads(TOURNAMENT)
    a = run_experiment(cfg, str(tmp_path / "ray"), backend="ray", quiet=True)
    assert calls == [4]
    b = run_experiment(cfg, str(tmp_path / "local"), backend="local", quiet=True)
    ga = (tmp_path / "ray" / "tournament" / "games.jsonl").read_text().splitlines()
    gb = (tmp_path / "local" / "tournament" / "games.jsonl").read_text().splitlines()
    assert len(ga) == 4 and ga == gb
    assert open(os.path.join(a, "metrics.csv"), "rb").read() == open(os.path.join(b, "metrics.csv"), "rb").read()
