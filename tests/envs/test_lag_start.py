"""Envs opening with the lag (G-3.6 / G-3.7): ``start="lag"``."""
from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import poolgym  # noqa: F401  (registers the ids)
from poolgym.rules import lag
from poolgym.rules.core import ChooseOption, Option, Phase, ShotAction
from poolgym.rules.geometry import ball_radius, get_table


@pytest.mark.rule("G-3.6", "G-3.7")
def test_start_lag_plays_both_strokes_at_once_then_the_winner_chooses():
    """The learner holds both seats: seat 0's stroke waits (nothing simulated), seat 1's plays
    both on one table; the result is the rules' own simultaneous lag of the same strokes."""
    env = gym.make("poolgym/NineBall-v0", start="lag", opponent=None)
    env.reset(seed=0)
    u = env.unwrapped
    assert u.session.state.phase is Phase.LAG and u.session.state.seat_to_act == 0
    u.step_action([ShotAction(V0=1.1, phi=90.0)])
    st = u.session.state
    assert st.phase is Phase.LAG and st.seat_to_act == 1 and u.session.shots == 0
    _, _, _, _, info = u.step_action([ShotAction(V0=1.15, phi=90.0)])
    st = u.session.state
    lr = lag.simulate_lag_record(get_table("9ft"), [[1.1, 90, 0, 0, 0], [1.15, 90, 0, 0, 0]], ball_radius())
    want = tuple(lag.lag_ball(lr.rec, get_table("9ft"), ball_radius(), k, ball=k,
                              x_range=(lr.x_min[k], lr.x_max[k])).result for k in (0, 1))
    assert st.phase is Phase.OPTION and st.lag_results == want and st.seat_to_act == 1
    u.step_action([ChooseOption(Option.CEDE_BREAK)])
    assert u.session.state.phase is Phase.BREAK and u.session.state.breaker == 0


def test_start_lag_vector_env_equals_single_envs():
    """The native vector env (its lag tables simulated one by one in the batched round) gives
    the single envs' results step by step, noise included."""
    kw = dict(start="lag", noise="icga")
    venv = gym.make_vec("poolgym/NineBall-v0", num_envs=3, vectorization_mode="vector_entry_point", **kw)
    singles = [gym.make("poolgym/NineBall-v0", **kw) for _ in range(3)]
    obs_v, _ = venv.reset(seed=7)
    obs_s = [e.reset(seed=7 + k)[0] for k, e in enumerate(singles)]
    np.testing.assert_array_equal(obs_v, np.stack(obs_s))
    rng = np.random.default_rng(0)
    for _ in range(4):
        acts = rng.uniform(-1, 1, (3,) + venv.single_action_space.shape).astype(np.float32)
        obs_v, r_v, te_v, tr_v, _ = venv.step(acts)
        outs = [e.step(a) for e, a in zip(singles, acts)]
        np.testing.assert_array_equal(r_v, [o[1] for o in outs])
        if any(te_v) or any(tr_v):  # (the vector env resets a finished table itself)
            break
        np.testing.assert_array_equal(obs_v, np.stack([o[0] for o in outs]))


def test_start_argument_is_checked():
    with pytest.raises(ValueError, match="start"):
        gym.make("poolgym/NineBall-v0", start="coin")
    with pytest.raises(ValueError, match="two players"):
        gym.make("poolgym/PeaPool-v0", players=3, start="lag")
