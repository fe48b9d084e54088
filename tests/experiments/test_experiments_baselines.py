"""The report shows the trained policy against its baselines on the same seeds: table, picture,
metrics; reruns give the same numbers; a misspelt baseline is a config error."""

import csv
import json

import pytest

from experiments import config as C
from experiments.runner import run_experiment

CFG = """
[experiment]
name = "baselines-test"
seed = 3

[env]
id = "poolgym/PotDrill-v0"
kwargs = { noise = "icga", action_mode = "param" }

[training]
algo = "ppo"
total_timesteps = 128
n_envs = 4
checkpoint_every = 10000
eval_every = 64
eval_episodes = 8
hyperparams = { n_steps = 16, batch_size = 32, n_epochs = 1 }

[evaluation]
episodes = 16
seed = 500
baselines = ["untrained", "random", "geometric"]
baseline_episodes = 24
"""


def test_report_compares_the_trained_policy_with_its_baselines_on_the_same_seeds(tmp_path):
    for extra in ("stable_baselines3", "matplotlib"):
        pytest.importorskip(extra)
    cfg = C.loads(CFG)
    a = run_experiment(cfg, str(tmp_path / "a"), progress=False, quiet=True)
    d = json.loads((tmp_path / "a" / "baselines.json").read_text())
    assert set(d["players"]) == {"trained", "untrained", "random", "geometric"}
    for r in d["players"].values():
        assert r["episodes"] == 24 and r["lo"] <= r["rate"] <= r["hi"]
    # the geometric agent on those positions, replayed on its own, gives the same count
    import agents
    from agents.drill_eval import agent_player, drill_rates

    g = drill_rates({"g": agent_player(agents.make("geometric"))}, "poolgym/PotDrill-v0", range(500, 524),
                    dict(noise="icga", action_mode="param"))["g"]
    assert g.successes == d["players"]["geometric"]["successes"]
    report = (tmp_path / "a" / "report.md").read_text()
    assert "## Trained policy against its baselines" in report and "baselines.png" in report
    assert "| geometric |" in report and (tmp_path / "a" / "baselines.png").stat().st_size > 0
    with open(tmp_path / "a" / "metrics.csv") as f:
        rows = {(r["section"], r["metric"]): r["value"] for r in csv.DictReader(f)}
    assert rows[("baselines", "geometric.successes")] == str(g.successes)
    assert ("baselines", "untrained.wilson95_hi") in rows
    run_experiment(cfg, str(tmp_path / "b"), progress=False, quiet=True)
    assert (tmp_path / "a" / "metrics.csv").read_bytes() == (tmp_path / "b" / "metrics.csv").read_bytes()
    assert a


def test_unknown_baseline_is_a_config_error():
    with pytest.raises(C.ConfigError, match="did you mean 'geometric'"):
        C.loads(CFG.replace('"geometric"]', '"geometrc"]'))
    with pytest.raises(C.ConfigError, match="duplicates"):
        C.loads(CFG.replace('"geometric"]', '"random"]'))


def test_untrained_baseline_starts_as_the_training_does(monkeypatch):
    """``untrained`` is the policy `agents.sb3.train` starts from: with ``mean_init_scale`` and
    ``log_std_init`` its mean-action layer scaled (bias zero) and its log std at that value."""
    pytest.importorskip("stable_baselines3")
    import agents.drill_eval
    from agents import sb3
    from experiments import baselines

    made = []
    real_init = sb3.init_sac_log_std

    def record(model, value):
        real_init(model, value)
        made.append(model)

    monkeypatch.setattr(sb3, "load", lambda path, algo: None)
    monkeypatch.setattr(sb3, "init_sac_log_std", record)
    monkeypatch.setattr(agents.drill_eval, "drill_rates", lambda players, *a, **k: {})
    cfg = C.loads(CFG.replace('algo = "ppo"', 'algo = "sac"\nmean_init_scale = 0.01\nlog_std_init = -2.0')
                  .replace("hyperparams = { n_steps = 16, batch_size = 32, n_epochs = 1 }", "")
                  .replace('baselines = ["untrained", "random", "geometric"]', 'baselines = ["untrained"]'))
    baselines.evaluate_baselines(cfg, "unused.zip", train_seed=0)
    (model,) = made
    assert float(sb3.mean_layer(model).bias.detach().abs().max()) == 0.0
    bias = model.actor.log_std.bias.detach()
    assert float(bias.min()) == float(bias.max()) == -2.0
