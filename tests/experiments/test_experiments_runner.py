"""Experiment runner: a killed run resumes to the same numbers; reruns are byte-identical."""

import os
import signal
import subprocess
import sys
import time

import pytest

from experiments import config as C
from experiments.runner import run_experiment

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TOURNAMENT_ONLY = """
[experiment]
name = "resume-test"
seed = 5

[tournament]
discipline = "nine_ball"
games_per_pair = 3
noise = "icga"
max_shots = 40
agents = ["search", "geometric"]
"""


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


#: the small config of the kill test: training (exact checkpoints), evaluation and a tournament
TRAIN_EVAL_TOURNAMENT = """
[experiment]
name = "kill-test"
seed = 5

[env]
id = "poolgym/PotDrill-v0"
kwargs = { noise = "icga" }

[training]
algo = "ppo"
total_timesteps = 448
n_envs = 4
checkpoint_every = 64
eval_every = 96
eval_episodes = 8
hyperparams = { n_steps = 16, batch_size = 32, n_epochs = 2 }

[evaluation]
episodes = 600
seed = 10000

[tournament]
discipline = "nine_ball"
games_per_pair = 3
noise = "icga"
max_shots = 30
agents = ["trained", "geometric"]
"""

#: when each kill's clock starts: the stage under way. Mid-training it starts when a seeded early
#: checkpoint is written (training then has several rollouts to go) and waits a fraction of a
#: rollout, so the kill lands inside training however fast the machine is.
def _kill_targets(rng):
    step = 64 * int(rng.integers(1, 4))
    return {"train": (lambda run: (run / "train" / "checkpoints" / f"state_{step}.pkl").exists(),
                      float(rng.uniform(0.0, 0.05))),
            "evaluate": (lambda run: (run / "stages" / "train.done").exists(), float(rng.uniform(0.0, 0.4))),
            "tournament": (lambda run: (run / "stages" / "evaluate.done").exists(), float(rng.uniform(0.0, 0.4)))}


def _run_until_killed(cmd, run, started, delay: float) -> str:
    """Start `cmd`, SIGKILL its process group `delay` seconds after `started(run)` holds; returns
    the stage it was in when killed ('' if it finished first)."""
    proc = subprocess.Popen(cmd, cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.time() + 300
    try:
        while time.time() < deadline and proc.poll() is None and not started(run):
            time.sleep(0.01)
        time.sleep(delay)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return next((s for s in ("train", "evaluate", "tournament", "report")
                         if not (run / "stages" / f"{s}.done").exists()), "")
        proc.wait()
    return ""


def test_run_killed_at_random_moments_resumes_byte_identical(tmp_path):
    """A run SIGKILLed at seeded random moments (mid-training after a checkpoint, mid-evaluation,
    mid-tournament) and restarted each time with the same command ends with a metrics.csv,
    learning curve and tournament results byte-identical to an uninterrupted run's."""
    pytest.importorskip("stable_baselines3")  # the sb3 extra
    pytest.importorskip("matplotlib")  # the run folder's plots: the render extra
    import numpy as np

    cfg_path = tmp_path / "exp.toml"
    cfg_path.write_text(TRAIN_EVAL_TOURNAMENT)
    run = tmp_path / "killed"
    cmd = [sys.executable, "-m", "experiments.cli", "experiment", "run", str(cfg_path), "--out", str(run),
           "--no-progress"]
    targets = _kill_targets(np.random.default_rng(17))
    killed_in = [_run_until_killed(cmd, run, started, delay) for started, delay in targets.values()]
    subprocess.run(cmd, cwd=ROOT, env=_env(), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ref = tmp_path / "ref"
    run_experiment(str(cfg_path), str(ref), progress=False, quiet=True)
    for f in ("metrics.csv", "train/learning_curve.csv", "evaluation.json", "tournament/results.json"):
        assert (run / f).read_bytes() == (ref / f).read_bytes(), f
    assert all(killed_in), f"a run finished before it could be killed: {killed_in}"
    assert "train" in killed_in, killed_in


def test_stage_markers_skip_finished_stages(tmp_path):
    pytest.importorskip("matplotlib")  # the run folder's plots: the render extra
    cfg = C.loads(TOURNAMENT_ONLY.replace('["search", "geometric"]', '["geometric", "random"]'))
    out = tmp_path / "run"
    run_experiment(cfg, str(out), progress=False, quiet=True, stop_after="setup")
    assert (out / "config.toml").exists() and (out / "environment.json").exists()
    assert not (out / "stages" / "tournament.done").exists()
    assert C.loads((out / "config.toml").read_text()) == cfg
    run_experiment(cfg, str(out), progress=False, quiet=True)
    for s in ("setup", "train", "evaluate", "tournament", "video", "report"):
        assert (out / "stages" / f"{s}.done").exists()
    text = (out / "metrics.csv").read_text()
    assert "tournament,geometric.win_rate," in text
    with pytest.raises(C.ConfigError, match="backend"):
        run_experiment(cfg, str(out), backend="spark", quiet=True)
