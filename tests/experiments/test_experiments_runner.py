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


def test_killed_run_resumes_to_identical_metrics(tmp_path):
    pytest.importorskip("matplotlib")  # the run folder's plots: the render extra
    cfg_path = tmp_path / "exp.toml"
    cfg_path.write_text(TOURNAMENT_ONLY)
    killed = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "experiment", "run", str(cfg_path),
                             "--out", str(killed), "--no-progress"], cwd=ROOT, env=_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    games = killed / "tournament" / "games.jsonl"
    deadline = time.time() + 240
    try:
        while time.time() < deadline and proc.poll() is None:
            if games.exists() and games.read_text().count("\n") >= 1:
                break
            time.sleep(0.02)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert (killed / "stages" / "setup.done").exists()
    was_interrupted = not (killed / "stages" / "tournament.done").exists()
    # resume in-process
    run_experiment(str(cfg_path), str(killed), progress=False, quiet=True)
    ref = tmp_path / "ref"
    run_experiment(str(cfg_path), str(ref), progress=False, quiet=True)
    assert (killed / "metrics.csv").read_bytes() == (ref / "metrics.csv").read_bytes()
    assert (killed / "tournament" / "results.json").read_bytes() == (ref / "tournament" / "results.json").read_bytes()
    assert was_interrupted, "the run finished before it could be killed; the resume path was not exercised"


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
