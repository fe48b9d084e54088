"""Short learning tests that can fail: a learner on the parameterised actions must beat its own
untrained policy and the random agent on the same seeded pot-drill positions.

The drill is noise-free and the choice prior is off (``choice_prior=0``), so the learner has
to learn *which* pocket to play from the candidate block itself: the untrained policy's
argmax is an arbitrary legal pocket. A few thousand PPO steps (~10 s of CPU) are enough.
"""

import pytest

pytest.importorskip("stable_baselines3")

ENV_KW = dict(action_mode="param", choice_prior=0.0)
SEEDS = range(5000, 5300)


def test_ppo_learns_the_pot_drill_choice_in_a_few_thousand_steps():
    import torch
    from stable_baselines3 import PPO

    import agents
    from agents.drill_eval import agent_player, drill_rates, policy_player
    from poolgym.envs.sb3 import NativeSB3VecEnv

    torch.set_num_threads(1)
    venv = NativeSB3VecEnv("poolgym/PotDrill-v0", num_envs=16, seed=0, **ENV_KW)
    model = PPO("MlpPolicy", venv, n_steps=16, batch_size=128, n_epochs=10, learning_rate=1e-3, gamma=0.0,
                gae_lambda=1.0, policy_kwargs=dict(net_arch=[64, 64], log_std_init=-2.0), seed=0)
    before = drill_rates({"untrained": policy_player(model)}, "poolgym/PotDrill-v0", SEEDS, ENV_KW)["untrained"]
    model.learn(4096)
    venv.close()
    after = drill_rates({"trained": policy_player(model), "random": agent_player(agents.make("random"))},
                        "poolgym/PotDrill-v0", SEEDS, ENV_KW)
    trained, rnd = after["trained"], after["random"]
    # Wilson 95% intervals apart: the learner beats both, on the same 300 positions
    assert trained.lo > before.hi, (trained, before)
    assert trained.lo > rnd.hi, (trained, rnd)
    assert trained.rate >= 0.65


def test_drill_rates_are_reproducible_and_on_the_same_positions():
    """The same players on the same seeds give the same counts (the geometric agent, twice)."""
    import agents
    from agents.drill_eval import agent_player, drill_rates

    a = drill_rates({"g": agent_player(agents.make("geometric"))}, "poolgym/PotDrill-v0", range(40),
                    dict(noise="icga"))["g"]
    b = drill_rates({"g": agent_player(agents.make("geometric"))}, "poolgym/PotDrill-v0", range(40),
                    dict(noise="icga"))["g"]
    assert a == b and a.episodes == 40 and a.lo <= a.rate <= a.hi


def test_draws_replay_each_position_under_new_noise_the_same_for_every_player():
    """``draws`` > 1: the first draw is the seed's own episode, the others replay the seed's
    position under other noise streams, the same for every player; the expected rates and the
    paired difference are the per-position means' (a player equal to itself differs by 0)."""
    import numpy as np

    import agents
    from agents.drill_eval import (agent_player, drill_returns, expected_rate, paired_expected_difference)

    kw = dict(noise="icga")
    g = {"g": agent_player(agents.make("geometric"))}
    one = drill_returns(g, "poolgym/PotDrill-v0", range(30), kw)["g"]
    many = drill_returns(g, "poolgym/PotDrill-v0", range(30), kw, draws=8)["g"]
    again = drill_returns({"h": agent_player(agents.make("geometric"))}, "poolgym/PotDrill-v0", range(30), kw,
                          draws=8)["h"]
    assert many.shape == (30, 8) and np.array_equal(many[:, 0], one) and np.array_equal(many, again)
    # the noise differs between draws: some position is made on one draw and missed on another
    assert ((many > 0).any(axis=1) & ~(many > 0).all(axis=1)).any()
    r = expected_rate(many)
    assert (r.positions, r.draws) == (30, 8)
    assert r.rate == pytest.approx(float((many > 0).mean())) and r.lo < r.rate < r.hi
    assert paired_expected_difference(many, again) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="draws"):
        drill_returns(g, "poolgym/PotDrill-v0", range(3), kw, draws=0)


@pytest.mark.parametrize("env_id", ["poolgym/PotDrill-v0", "poolgym/NineBall-v0"])
def test_param_policies_play_nine_ball_as_agents(tmp_path, env_id):
    """A policy trained on the parameterised actions plays tournament games: the pot-drill one
    as the shot maker (calling the pocket it chose), the nine-ball one for every decision."""
    from agents.sb3 import train
    from agents.tournament import AgentSpec, TournamentConfig, run_tournament

    kw = dict(action_mode="param", noise="icga")
    res = train(env_id, "ppo", 32, seed=0, out_dir=str(tmp_path), n_envs=2, env_kwargs=kw,
                hyperparams=dict(n_steps=16, batch_size=32, n_epochs=1), checkpoint_every=10**6, eval_every=10**6,
                eval_episodes=2, tensorboard=False)
    spec = AgentSpec("sb3", dict(model=res["model"], env_id=env_id, env_kwargs=kw), "nn")
    cfg = TournamentConfig("nine_ball", (spec, AgentSpec("geometric")), games_per_pair=1, seed=2, max_shots=30,
                           noise="icga")
    s = run_tournament(cfg).summary()
    assert s["errors"] == 0 and s["agents"]["nn"]["illegal"] == 0


def test_paired_difference_counts_the_discordant_positions():
    from agents.drill_eval import paired_difference, rate_of

    a = [1, 1, 0, 1, 0, 1, 1, 1]
    b = [1, 0, 0, 1, 1, 0, 0, 1]
    d, lo, hi, a_only, b_only = paired_difference(a, b)
    assert (a_only, b_only) == (3, 1) and d == pytest.approx(2 / 8) and lo < d < hi
    assert paired_difference(a, a)[:3] == (0.0, 0.0, 0.0)
    assert rate_of(a).successes == 6 and rate_of(a).episodes == 8
    with pytest.raises(ValueError, match="equal"):
        paired_difference(a, b[:-1])
