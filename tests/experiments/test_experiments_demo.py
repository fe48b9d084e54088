"""`poolgym demo --quick`: the README's main job in reduced mode; reruns are byte-identical."""

import json
import os

import pytest

from experiments.cli import main


def test_demo_quick_writes_report_and_reruns_identically(tmp_path, capsys):
    for extra in ("stable_baselines3", "tensorboard", "matplotlib", "imageio"):  # the `all` extra
        pytest.importorskip(extra)
    a, b = tmp_path / "a", tmp_path / "b"
    assert main(["demo", "--quick", "--out", str(a), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "## Tournament" in out and "## Evaluation" in out
    for f in ("config.toml", "environment.json", "seeds.json", "metrics.csv", "report.md", "learning_curve.png",
              "evaluation.json", "train/model.zip", "train/learning_curve.csv", "tournament/results.json",
              "tournament/plot.png", "video.gif"):
        assert (a / f).exists(), f
    assert any((a / "train" / "tb").iterdir()), "no TensorBoard log"
    res = json.loads((a / "tournament" / "results.json").read_text())
    assert set(res["summary"]["agents"]) == {"trained", "geometric", "random"}
    assert all(s["illegal"] == 0 for s in res["summary"]["agents"].values())
    ev = json.loads((a / "evaluation.json").read_text())
    assert 0.0 <= ev["success_rate"] <= 1.0 and ev["episodes"] == 32
    assert main(["demo", "--quick", "--out", str(b), "--no-progress"]) == 0
    assert (a / "metrics.csv").read_bytes() == (b / "metrics.csv").read_bytes()
    assert (a / "train" / "learning_curve.csv").read_bytes() == (b / "train" / "learning_curve.csv").read_bytes()


def test_tournament_command_writes_json(tmp_path, capsys):
    out = tmp_path / "t.json"
    rc = main(["tournament", "--discipline", "9ball", "--agents", "geometric,random", "--games", "2",
               "--seed", "1", "--noise", "icga", "--json", str(out), "--no-progress"])
    assert rc == 0
    d = json.loads(out.read_text())
    assert d["config"]["discipline"] == "nine_ball" and d["config"]["seed"] == 1
    assert d["config"]["noise"] == "icga" and d["config"]["games_per_pair"] == 2
    assert "geometric" in capsys.readouterr().out


def test_bad_config_exit_code(tmp_path, capsys):
    p = tmp_path / "bad.toml"
    p.write_text('[experiment]\nname = "x"\n[trainig]\n')
    assert main(["experiment", "run", str(p)]) == 2
    assert "did you mean 'training'" in capsys.readouterr().err


def test_play_headless_watches_two_agents(monkeypatch):
    """`poolgym play` with the SDL dummy driver: a few shots between two agents, no window."""
    pytest.importorskip("pygame")  # the render extra
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from experiments.play import play

    steps = play("nine_ball", ["geometric", "random"], seed=2, noise="icga", max_shots=3, fps=1000,
                 headless=True, hold_s=0.0)
    assert 1 <= sum(s.record is not None for s in steps) <= 3


def test_ray_backend_missing_gives_install_hint(monkeypatch):
    import builtins

    import pytest

    real_import = builtins.__import__

    def fake_import(name, *a, **k):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    from experiments.ray_backend import INSTALL_HINT, _ray

    with pytest.raises(ImportError, match="pip install"):
        _ray()
    assert "ray[rllib]" in INSTALL_HINT


@pytest.mark.rule("G-3.6", "G-3.7")
def test_play_headless_opens_with_the_lag(monkeypatch):
    """`poolgym play --lag`: both seats stroke their lag (G-3.6), the winner chooses who
    breaks (G-3.7), then the break is played."""
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from experiments.play import play
    from poolgym.rules.core import ChooseOption, Phase

    steps = play("nine_ball", ["geometric", "geometric"], seed=2, noise="icga", max_shots=3, fps=1000,
                 headless=True, hold_s=0.0, lag=True)
    phases = [s.before.phase for s in steps]
    assert phases[:2] == [Phase.LAG, Phase.LAG]
    k = phases.index(Phase.OPTION)  # after as many lags as the replays took
    assert all(p is Phase.LAG for p in phases[:k]) and isinstance(steps[k].action, ChooseOption)
    assert steps[k].verdict.rule_refs == ("G-3.7",)


def test_demo_says_it_compiles_only_when_the_cache_is_cold(tmp_path, capsys, monkeypatch):
    import experiments.runner as runner
    from physics import compile_cache

    def fake_run(cfg, out, **kw):
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "report.md"), "w") as f:
            f.write("report")
        return out

    monkeypatch.setattr(runner, "run_experiment", fake_run)
    warmed = []
    monkeypatch.setattr(compile_cache, "warm_up", lambda: warmed.append(True))
    for cold in (True, False):
        monkeypatch.setattr(compile_cache, "is_cold", lambda cold=cold: cold)
        assert main(["demo", "--quick", "--out", str(tmp_path / str(cold)), "--no-progress"]) == 0
        out = capsys.readouterr().out
        assert ("compiling the physics, rules and player kernels (first run only" in out) is cold
    assert warmed == [True]


@pytest.mark.parametrize("argv,match", [
    (["--agents", "geometric,nosuch"], "unknown agent(s) 'nosuch'"),
    (["--discipline", "nosuch"], "discipline: unknown 'nosuch'"),
    (["--discipline", "pea_pool", "--players", "20"], "pea_pool allows"),
    (["--discipline", "cutthroat", "--players", "4"], "cutthroat allows (3, 5)"),
    (["--games", "0"], "expected >= 1"),
    (["--rules", "nope=1"], "unknown key 'nope'"),
    (["--rules", "break_order=sideways"], "not a valid BreakOrder"),
    (["--discipline", "pea_pool", "--players", "3", "--rules", "lag=true"], "lag"),
    (["--discipline", "eight_ball", "--agents", "trained,geometric"], "trained plays nine_ball only"),
    (["--agents", "sb3,geometric"], "needs a trained model"),
])
def test_tournament_usage_errors_exit_2_before_any_game(argv, match, capsys):
    """A refused argument is a usage error, as argparse reports its own: ``poolgym tournament:
    error: ...`` on stderr, exit status 2, no traceback and no game played."""
    base = {"--discipline": "nine_ball", "--agents": "geometric,random", "--games": "2"}
    args = list(argv)
    for k, v in base.items():
        if k not in args:
            args += [k, v]
    assert main(["tournament", *args, "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("poolgym tournament: error: ") and match in err and "Traceback" not in err
    assert "games" not in out


def test_solo_tournament_prints_scores(capsys):
    """Solo bowlliards (BW-1): the table gives each agent's mean score, not a win rate."""
    rc = main(["tournament", "--discipline", "bowlliards", "--agents", "geometric,random", "--games", "2",
               "--rules", "frames=1", "--no-progress"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "bowlliards: 1 seat, 2 games" in out and "mean result" in out and "win rate" not in out


@pytest.mark.parametrize("argv,match", [
    (["--discipline", "nosuch", "--agents", "geometric,random"], "--discipline: unknown 'nosuch'"),
    (["--discipline", "nine_ball", "--agents", "geometric,nosuch"], "unknown agent(s) 'nosuch'"),
    (["--discipline", "nine_ball", "--agents", "geometric"], "n_players must be 2"),
    (["--discipline", "cutthroat", "--agents", "geometric,random,random,random"], "cutthroat seats 3, 5 players"),
    (["--discipline", "eight_ball", "--agents", "trained,human"], "trained plays nine_ball only"),
])
def test_play_usage_errors_exit_2_before_a_window_opens(argv, match, capsys):
    assert main(["play", *argv, "--headless"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("poolgym play: error: ") and match in err
