"""The trained nine-ball player (agents.learned) and its expert-iteration trainer
(agents.expert_iteration): the shipped policy plays, the features read the layout right, and
the trainer runs, resumes and reproduces on a tiny budget."""

import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import agents  # noqa: E402
from agents import expert_iteration as E  # noqa: E402
from agents.learned import DEFAULT_WEIGHTS, TrainedAgent, layout_of, load_policy, mirror, shot_features  # noqa: E402
from agents.tournament import play_game  # noqa: E402
from poolgym.planning import aim, table_geom  # noqa: E402
from poolgym.rules.geometry import get_table  # noqa: E402

#: a search expert small enough for a test (the trainer's defaults are the search agent's)
TINY_SEARCH = {"budget": 40, "refine_k": 1, "top_k": 1, "n_placements": 1, "speed_factors": [1.0, 1.5],
               "spins": [-0.3, 0.3], "low_p_safeties": 2, "n_safeties": 2}


def test_shipped_policy_is_small_and_plays_a_game():
    assert os.path.getsize(DEFAULT_WEIGHTS) < 5_000_000
    a = agents.make("trained", seed=0)
    assert isinstance(a, TrainedAgent)
    rec = play_game("nine_ball", [a, agents.make("geometric", seed=1)], seed=3, agent_seeds=[0, 1], noise="icga",
                    max_shots=12)
    assert rec.error is None and rec.illegal == [0, 0]
    assert rec.shots[0] + rec.shots[1] > 0


def test_trained_agent_plays_nine_ball_only_and_needs_weights(tmp_path):
    from agents.base import Observation
    from poolgym.rules.game import DISCIPLINES

    d = DISCIPLINES["eight_ball"]
    st = d.initial_state(d.config_cls(), seed=0)
    obs = Observation(st, d.legal_actions(st), get_table("9ft"), st.seat_to_act, "eight_ball")
    with pytest.raises(ValueError, match="nine_ball only"):
        TrainedAgent(seed=0).act(obs)
    with pytest.raises(ValueError, match="no policy file"):
        TrainedAgent(seed=0, weights=str(tmp_path / "none.pt"))


def _layout():
    P = np.zeros((10, 2))
    on = np.zeros(10, bool)
    P[0], P[3], P[7] = (0.6, 0.6), (0.6, 1.4), (0.3, 1.8)
    on[[0, 3, 7]] = True
    return layout_of(P, on)


def test_features_of_a_straight_in_pot():
    """A ghost-ball stroke at the lowest ball: the ray cast finds that ball full in the face
    at the right distance, heading for the pocket it was aimed at (angular error ~0)."""
    g = table_geom(get_table("9ft"))
    lay = _layout()
    a = aim(lay.P[0], lay.P[3], g.aims[2], g.R)  # ball 3 into pocket lt
    shots = np.array([[2.0, float(a.phi), 0.0, 0.0, 0.0], [2.0, (float(a.phi) + 180.0) % 360, 0.0, 0.0, 0.0]])
    f = shot_features(lay, shots, np.ones(2), np.zeros(2), g.aims, g.R, g.w, g.l)
    k = 30  # N_STATE
    assert f[0, k + 7] == 1.0 and f[0, k + 8] == 1.0 and f[0, k + 9] == 0.0  # hits the lowest ball, not the 9
    assert f[0, k + 10] == pytest.approx(float(a.d_cue) / g.l, abs=1e-6)
    assert f[0, k + 16] < 1e-3  # heads for a pocket
    assert f[1, k + 7] == 0.0  # the reverse stroke hits no ball
    assert f[0, 2] == 1.0 and f[0, 3] == pytest.approx(0.6 / g.w)  # slot 0 is ball 3


def test_mirror_images_keep_the_distances_and_compose_to_identity():
    g = table_geom(get_table("9ft"))
    lay = _layout()
    a = aim(lay.P[0], lay.P[3], g.aims[2], g.R)
    shots = np.array([[2.0, float(a.phi), 0.0, 0.1, -0.2]])
    f0 = shot_features(lay, shots, np.ones(1), np.zeros(1), g.aims, g.R, g.w, g.l)
    k = 30
    for mx, my in ((True, False), (False, True), (True, True)):
        lay2, s2 = mirror(lay, shots, g.w, g.l, mx, my)
        f = shot_features(lay2, s2, np.ones(1), np.zeros(1), g.aims, g.R, g.w, g.l)
        for j in (7, 8, 9, 10, 16, 17, 18, 24):  # contact, distances, pocket error: mirror invariant
            assert f[0, k + j] == pytest.approx(f0[0, k + j], abs=1e-5)
        lay3, s3 = mirror(lay2, s2, g.w, g.l, mx, my)
        np.testing.assert_allclose(lay3.P, lay.P, atol=1e-12)
        np.testing.assert_allclose(s3, shots, atol=1e-9)


def test_expert_iteration_tiny_budget_trains_resumes_and_reproduces(tmp_path):
    cfg = dict(iterations=2, games=1, workers=1, epochs=1, hidden=[16, 16], max_shots=12, search=TINY_SEARCH)
    res = E.train(str(tmp_path / "a"), cfg, seed=5)
    assert len(res["curve"]) == 2 and res["positions"] > 0
    net, meta = load_policy(res["model"])
    assert meta["hidden"] == [16, 16]
    with open(res["model"], "rb") as f:
        first = f.read()
    # a rerun in the same folder resumes after the last iteration: same policy, no new games
    again = E.train(str(tmp_path / "a"), cfg, seed=5)
    assert again["timings"] == {}
    # an iteration cut short: remove the last checkpoint, rerun, same weights
    os.remove(tmp_path / "a" / "ckpt" / "iter_1.pt")
    E.train(str(tmp_path / "a"), cfg, seed=5)
    with open(res["model"], "rb") as f:
        assert f.read() == first
    # the learned agent plays with the trained network
    a = TrainedAgent(seed=0, weights=res["model"])
    rec = play_game("nine_ball", [a, agents.make("geometric", seed=1)], seed=1, agent_seeds=[0, 1], noise="icga",
                    max_shots=6)
    assert rec.error is None and rec.illegal == [0, 0]


@pytest.mark.parametrize("hp, match", [
    ({"iterations": 0}, "iterations"),
    ({"league": ["random"]}, "league: unknown opponent 'random'"),
    ({"games": [1, 2]}, "games"),
    ({"epoch": 3}, "unknown expert-iteration setting"),
])
def test_bad_settings_are_refused(hp, match):
    with pytest.raises(ValueError, match=match):
        E.ExpertIterationConfig.from_dict(hp)


def test_experiment_runner_trains_and_plays_the_expert_iteration_player(tmp_path):
    """``training.algo = "expert_iteration"`` through the runner: the policy file, the curve
    rows in metrics.csv, and a tournament of the run's policy against geometric."""
    from experiments import config as C
    from experiments.runner import run_experiment

    text = """
[experiment]
name = "tiny-ei"
seed = 0
[env]
id = "poolgym/NineBall-v0"
[training]
algo = "expert_iteration"
hyperparams = { iterations = 1, games = 1, workers = 1, epochs = 1, hidden = [8], max_shots = 10, search = { budget = 30, refine_k = 1, top_k = 1, n_placements = 1, speed_factors = [1.0], spins = [0.0], low_p_safeties = 1, n_safeties = 1 } }
[tournament]
discipline = "nine_ball"
games_per_pair = 2
max_shots = 10
agents = [ { name = "trained" }, { name = "geometric" } ]
"""
    root = run_experiment(C.loads(text), str(tmp_path / "run"), progress=False, quiet=True)
    assert os.path.exists(os.path.join(root, "train", "policy.pt"))
    with open(os.path.join(root, "metrics.csv")) as f:
        m = f.read()
    assert "train,positions@0," in m and "tournament,trained.games,2" in m
