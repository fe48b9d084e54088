"""Experiment config validation: every error names the bad key."""

import pytest

from experiments import config as C
from experiments.cli import demo_config_text

BASE = '[experiment]\nname = "x"\n'


@pytest.mark.parametrize("text, match", [
    (BASE + "[trainig]\nalgo = 'ppo'\n", r"unknown key 'trainig' in the top level \(did you mean 'training'\?\)"),
    (BASE + "[training]\ntotal_timesteps = 'many'\n", r"training.total_timesteps: expected an integer, got 'many'"),
    (BASE + "[training]\nalgo = 'dqn'\n", r"training.algo: expected one of"),
    (BASE + "[training]\nn_envs = 0\n", r"training.n_envs: expected a positive number"),
    (BASE + "[training]\nnum_workers = 0\n", r"training.num_workers: expected a positive number"),
    (BASE + "[training]\nn_envs = 2\nnum_workers = 3\n", r"training.num_workers \(3\) must not exceed"),
    (BASE + "[training]\nnum_workers = 1.5\n", r"training.num_workers"),
    (BASE + "[training]\nlr = 3\n", r"unknown key 'lr' in \[training\]"),
    (BASE + "[tournament]\nagents = ['geometrc', 'random']\n",
     r"tournament.agents\[0\].name: unknown agent 'geometrc' \(did you mean 'geometric'\?\)"),
    (BASE + "[tournament]\nagents = ['random']\n", r"tournament.agents: a tournament needs at least two agents"),
    (BASE + "[tournament]\nagents = ['random', 'random']\n", r"duplicate agent labels"),
    (BASE + "[tournament]\nagents = ['random', 'trained']\n", r"agent 'trained' needs a \[training\] section"),
    (BASE + "[tournament]\nnoise = 'loud'\nagents = ['random', 'geometric']\n", r"tournament.noise: expected one of"),
    (BASE + "[evaluation]\nepisodes = 10\n", r"evaluation: evaluating a trained policy needs a \[training\] section"),
    (BASE + "[video]\nagents = ['geometric']\n", r"video.agents: expected two agent names"),
    (BASE + "[experiment.extra]\n", r"unknown key 'extra' in \[experiment\]"),
    ("[experiment]\nseed = 1\n", r"experiment.name: missing required key"),
    ("[training]\nalgo = 'ppo'\n", r"missing required section \[experiment\]"),
    (BASE + "[env\n", r"TOML syntax error"),
    (BASE + "[training]\nhyperparams = 3\n", r"training.hyperparams: expected a table"),
    (BASE + "[experiment2]\n", r"unknown key 'experiment2'"),
    (BASE + "[training]\nalgo = 'expert_iteration'\nhyperparams = { epoch = 3 }\n",
     r"training.hyperparams: unknown expert-iteration setting"),
    (BASE + "[training]\nalgo = 'expert_iteration'\n[evaluation]\nepisodes = 10\n",
     r"evaluation: the expert-iteration nine-ball player is evaluated by its \[tournament\]"),
    (BASE + "[training]\nalgo = 'ppo'\nlog_std_init = -2.0\n", r"training.log_std_init: SAC's initial log standard"),
    (BASE + "[training]\nalgo = 'sac'\nlog_std_init = nan\n", r"training.log_std_init: expected a finite number"),
    (BASE + "[training]\nmean_init_scale = 0\n", r"training.mean_init_scale: expected a positive number"),
    (BASE + "[training]\nmean_init_scale = 'small'\n", r"training.mean_init_scale: expected a number"),
])
def test_validation_errors_name_the_key(text, match):
    with pytest.raises(C.ConfigError, match=match):
        C.loads(text)


def test_demo_config_is_valid_and_round_trips():
    cfg = C.loads(demo_config_text())
    assert cfg.training.algo in C.ALGOS
    assert C.loads(C.dumps(cfg)) == cfg
    names = [a.name for a in cfg.tournament.agents]
    assert "trained" in names and "geometric" in names and "random" in names


def test_load_names_the_file(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text(BASE + "[training]\nalgo = 1\n")
    with pytest.raises(C.ConfigError, match=r"bad.toml: training.algo: expected a string, got 1"):
        C.load(str(p))


def test_every_shipped_config_validates():
    import os

    import experiments

    d = os.path.join(os.path.dirname(experiments.__file__), "configs")
    files = [f for f in os.listdir(d) if f.endswith(".toml")]
    assert "demo.toml" in files
    for f in files:
        C.load(os.path.join(d, f))


def test_policy_initialisation_reaches_the_trainer(monkeypatch, tmp_path):
    """``training.mean_init_scale`` / ``log_std_init`` are passed to `agents.sb3.train`."""
    import agents.sb3
    from experiments import runner

    seen = {}

    def fake_train(env_id, algo, total, **kw):
        seen.update(kw)
        return {"model": str(tmp_path / "m.zip"), "timesteps": total}

    monkeypatch.setattr(agents.sb3, "train", fake_train)
    cfg = C.loads(BASE + "[env]\nid = 'poolgym/PotDrill-v0'\n[training]\nalgo = 'sac'\nmean_init_scale = 0.01\n"
                         "log_std_init = -2.0\n")
    run = runner.Run(str(tmp_path / "run"))  # the trainer writes the model under <run>/train
    runner._train(cfg, run, {"train": 0}, "local", False)
    assert seen["mean_init_scale"] == 0.01 and seen["log_std_init"] == -2.0


def test_ray_backend_refuses_an_sb3_initialisation():
    from experiments.ray_backend import check_config

    cfg = C.loads(BASE + "[env]\nid = 'poolgym/PotDrill-v0'\n[training]\nalgo = 'ppo'\nmean_init_scale = 0.01\n")
    with pytest.raises(C.ConfigError, match="training.mean_init_scale: .*ray backend"):
        check_config(cfg)
