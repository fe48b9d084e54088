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
