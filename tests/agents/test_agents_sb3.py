"""SB3 entry points (PPO, SAC, MaskablePPO) and trained policies as tournament agents."""

import pytest

pytest.importorskip("stable_baselines3")  # the sb3 extra
pytest.importorskip("sb3_contrib")

from agents.sb3 import DEFAULTS, SB3Agent, default_hyperparams, evaluate, train
from agents.tournament import AgentSpec, TournamentConfig, run_tournament

TINY = dict(n_steps=16, batch_size=32, n_epochs=1)


@pytest.mark.parametrize("algo, hp", [
    ("ppo", TINY),
    ("maskable_ppo", TINY),
    ("sac", dict(learning_starts=8, batch_size=16, buffer_size=1000)),
])
def test_train_pot_drill_smoke(tmp_path, algo, hp):
    res = train("poolgym/PotDrill-v0", algo, 64, seed=1, out_dir=str(tmp_path), n_envs=4, hyperparams=hp,
                env_kwargs={"noise": "icga"}, checkpoint_every=32, eval_every=32, eval_episodes=8,
                mean_init_scale=0.01 if algo == "sac" else None, log_std_init=-2.0 if algo == "sac" else None)
    assert res["timesteps"] >= 64
    assert (tmp_path / "model.zip").exists() and (tmp_path / "learning_curve.csv").exists()
    assert any((tmp_path / "checkpoints").iterdir())
    assert len(res["curve"]) >= 1
    # the drill policy is a shot maker in full nine-ball games; never illegal
    cfg = TournamentConfig("nine_ball", (AgentSpec("sb3", dict(model=res["model"], algo=algo), "trained"),
                                         AgentSpec("random")), games_per_pair=1, seed=4, max_shots=30)
    s = run_tournament(cfg).summary()
    assert s["agents"]["trained"]["illegal"] == 0 and s["errors"] == 0


def test_full_discipline_policy_as_agent(tmp_path):
    """A policy trained on NineBall-v0 itself encodes/decodes through the env codec."""
    res = train("poolgym/NineBall-v0", "ppo", 32, seed=0, out_dir=str(tmp_path), n_envs=2,
                hyperparams=TINY, checkpoint_every=32, eval_every=1000, eval_episodes=2)
    cfg = TournamentConfig("nine_ball", (AgentSpec("sb3", dict(model=res["model"], env_id="poolgym/NineBall-v0"),
                                                   "nn"), AgentSpec("geometric")), games_per_pair=1, seed=2,
                           max_shots=20)
    s = run_tournament(cfg).summary()
    assert s["agents"]["nn"]["illegal"] == 0


def test_defaults_and_errors():
    assert default_hyperparams("ppo", "poolgym/PotDrill-v0") == DEFAULTS[("ppo", "poolgym/PotDrill-v0")]
    assert default_hyperparams("ppo", "poolgym/Unknown-v0") == DEFAULTS[("ppo", "*")]
    with pytest.raises(ValueError, match="algo"):
        default_hyperparams("dqn", "poolgym/PotDrill-v0")
    with pytest.raises(ValueError, match="model"):
        SB3Agent(seed=0)
    assert callable(evaluate)


@pytest.mark.parametrize("env_id, discipline, players, algo, env_kwargs", [
    ("poolgym/SixBall-v0", "six_ball", 3, "ppo", {"players": 3}),
    ("poolgym/CardBall-v0", "card_ball", 3, "maskable_ppo", {"players": 3, "action_mode": "macro"}),
    ("poolgym/Honolulu-v0", "honolulu", 2, "ppo", {}),
])
def test_policy_trained_on_a_seated_or_scoring_env_plays_as_an_agent(tmp_path, env_id, discipline, players, algo,
                                                                    env_kwargs):
    """A policy trained on an N-seat / scoring env (seat block, score block, multi-call Box)
    is wrapped as an agent through that env's own codec and plays a whole seat tournament
    game legally."""
    from agents.seat_tournament import SeatTournamentConfig, run_seat_tournament
    from agents.tournament import TournamentConfig

    res = train(env_id, algo, 16, seed=0, out_dir=str(tmp_path), n_envs=1, hyperparams=dict(TINY, batch_size=16),
                env_kwargs=env_kwargs, checkpoint_every=10_000, eval_every=10_000, eval_episodes=1, tensorboard=False)
    spec = AgentSpec("sb3", dict(model=res["model"], algo=algo, env_id=env_id, env_kwargs=env_kwargs), "nn")
    if players > 2:
        cfg = SeatTournamentConfig(discipline, (spec, AgentSpec("geometric")), players=players, games=1, seed=1,
                                   max_shots=12)
        s = run_seat_tournament(cfg)
        assert s.summary()["errors"] == 0 and all(not any(g["illegal"]) for g in s.games), s.games
    else:
        cfg = TournamentConfig(discipline, (spec, AgentSpec("geometric")), games_per_pair=1, seed=1, max_shots=12)
        s = run_tournament(cfg).summary()
        assert s["errors"] == 0 and s["agents"]["nn"]["illegal"] == 0, s


@pytest.mark.parametrize("algo", ["ppo", "sac"])
def test_mean_init_scale_starts_the_policy_at_the_zero_action(algo):
    """`scale_mean_layer(model, 0)`: the fresh policy's deterministic action is exactly zero (in
    the parameterised modes: the prior's pick, uncorrected); other scales shrink it."""
    import numpy as np

    from agents.sb3 import algo_class, init_sac_log_std, mean_layer, scale_mean_layer
    from poolgym.envs.sb3 import NativeSB3VecEnv

    venv = NativeSB3VecEnv("poolgym/PotDrill-v0", num_envs=2, seed=3, action_mode="param")
    try:
        obs = venv.reset()
        model = algo_class(algo)("MlpPolicy", venv, seed=1, **({"learning_starts": 8} if algo == "sac" else {}))
        before = np.abs(model.predict(obs, deterministic=True)[0]).max()
        w = mean_layer(model).weight.detach().clone()
        scale_mean_layer(model, 0.5)
        assert np.allclose(mean_layer(model).weight.detach().numpy(), 0.5 * w.numpy())
        assert not mean_layer(model).bias.detach().numpy().any()
        scale_mean_layer(model, 0.0)
        assert before > 0 and not model.predict(obs, deterministic=True)[0].any()
        if algo == "sac":  # its exploration starts narrow too: log std -2 at every state
            import torch

            init_sac_log_std(model, -2.0)
            with torch.no_grad():
                _, log_std, _ = model.actor.get_action_dist_params(torch.as_tensor(obs).float())
            assert np.allclose(log_std.numpy(), -2.0)
        else:
            with pytest.raises(ValueError, match="SAC"):
                init_sac_log_std(model, -2.0)
    finally:
        venv.close()
