"""`PoolEnv` behaviour: reset options, verdicts in info, bad actions, rewards, macro masks."""

import numpy as np
import pytest

from poolgym import planning
from poolgym.envs.codec import Codec
from poolgym.envs.pool_env import PoolEnv
from poolgym.rules.core import ChooseOption, IllegalActionError, Option, PlaceCueBall, ShotAction

R = planning.BALL_RADIUS


def straight_in_layout(table):
    """Cue ball, 1-ball and the lt (foot-left corner) pocket in one line."""
    lt = planning.table_geom(table).aims[2]
    obj = np.array([0.35, 2.15])
    u = (obj - lt) / np.linalg.norm(obj - lt)
    cue = obj + 0.45 * u
    a = planning.aim(cue, obj, lt)
    return cue, obj, float(a.phi)


def nine_ball_position(env, table, extra_balls=None):
    cue, obj, phi = straight_in_layout(table)
    balls = {k: None for k in range(1, 10)}
    balls.update({0: tuple(cue), 1: tuple(obj), 9: (1.0, 0.6)})
    balls.update(extra_balls or {})
    env.reset(seed=0, options={"balls": balls, "phase": "play", "cue_ball": "in_position",
                               "seat_to_act": 0})
    return phi


def test_reset_options_state_round_trip():
    env = PoolEnv("nine_ball", max_shots=10)
    env.reset(seed=3)
    s = env.state
    env2 = PoolEnv("nine_ball", max_shots=10)
    obs2, _ = env2.reset(seed=11, options={"state": s.to_json()})
    assert env2.state == s
    np.testing.assert_array_equal(obs2, env.codec.encode(s, env.disc.legal_actions(s), 0))


def test_reset_options_place_balls_turn_and_scores(table9):
    env = PoolEnv("straight_pool", max_shots=10)
    env.reset(seed=0, options={"balls": {0: (0.5, 0.5), 5: (0.2, 1.2), 7: None}, "phase": "play",
                               "cue_ball": "in_position", "scores": (12, 30), "seat_to_act": 0})
    st = env.state
    assert st.positions()[5] == pytest.approx((0.2, 1.2))
    assert not st.on_table[7] and st.scores == (12, 30)


@pytest.mark.parametrize("options, match", [
    ({"balls": {0: (0.5, 0.5), 1: (0.5, 0.52)}}, "overlap"),
    ({"balls": {1: (-1.0, 0.5)}}, "off the bed"),
    ({"balls": {12: (0.5, 0.5)}}, "ball 12"),
    ({"colour": "red"}, "unknown keys"),
    ({"seat_to_act": 5}, "seat_to_act"),
    ({"balls": {True: (0.5, 0.5)}}, "not a ball number"),
    ({"balls": {1: (0.5, 0.5, 0.0)}}, r"must be \(x, y\)"),
    ({"extra": 5}, "must be a NineBallExtra"),
    ({"cue_placed": 1}, "cue_placed.. must be a bool"),
    ({"inning": -1}, "inning"),
    ({"shot_number": 2.5}, "shot_number"),
    ({"consecutive_fouls": (-1, 0)}, "non-negative"),
    ({"phase": "option"}, "no legal action"),
])
def test_reset_options_bad_input_names_the_field(options, match):
    env = PoolEnv("nine_ball", max_shots=10)
    with pytest.raises(ValueError, match=match):
        env.reset(seed=0, options=options)


def test_legal_pot_keeps_the_shooter_at_the_table_9B_5_5(table9):
    """9B-5.5: a legal shot that pockets a ball continues the inning."""
    env = PoolEnv("nine_ball", max_shots=10, reward="shaped")
    phi = nine_ball_position(env, table9)
    obs, reward, term, trunc, info = env.step_action(ShotAction(V0=2.0, phi=phi))
    assert not env.state.on_table[1]
    assert info["seat_to_act"] == 0 and not term
    v = info["verdicts"][0]
    assert v["legal_pocketed"] == (1,) and v["fouls"] == ()
    assert info["reward_components"]["legal_pocketed"] == 1
    assert reward == pytest.approx(0.1)


def test_scratch_is_reported_with_rule_id_G_3_20(table9):
    """G-3.20: cue ball pocketed -> foul in info, ball in hand for the opponent."""
    env = PoolEnv("pot_drill")
    env.reset(seed=0, options={"balls": {0: (0.25, 0.25), 1: (1.0, 2.0)}})
    _, reward, term, _, info = env.step_action(ShotAction(V0=2.0, phi=225.0))
    fouls = info["verdicts"][0]["fouls"]
    assert ("scratch", "G-3.20") in fouls and ("no_ball_hit", "G-3.18") in fouls
    assert term and reward == 0.0


def test_nan_action_raises_and_leaves_the_state_unchanged():
    env = PoolEnv("nine_ball", max_shots=10)
    env.reset(seed=1)
    before = env.state
    a = np.zeros(env.action_space.shape, np.float32)
    a[1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        env.step(a)
    assert env.state == before
    env.step(np.zeros(env.action_space.shape, np.float32))  # still usable


def test_out_of_bounds_box_action_is_clipped():
    env = PoolEnv("nine_ball", max_shots=10)
    env.reset(seed=1)
    u = np.random.default_rng(0).uniform(-1, 1, env.action_space.shape)
    big = np.sign(u) * 5.0
    assert env.codec.decode_box(big, env.state, env.legal_actions()) == \
        env.codec.decode_box(np.sign(u), env.state, env.legal_actions())


def test_illegal_structured_action_raises_and_state_is_unchanged(table9):
    env = PoolEnv("nine_ball", max_shots=10)
    env.reset(seed=0)
    before = env.state
    # 9B-5.6: no push-out on the break
    with pytest.raises(IllegalActionError):
        env.step_action([PlaceCueBall(0.6, 0.4), ShotAction(V0=5.0, phi=90.0, push_out=True)])
    assert env.state == before
    with pytest.raises(IllegalActionError):
        env.step_action(ChooseOption(Option.PASS_BACK))
    assert env.state == before


def test_stepping_a_finished_episode_raises():
    env = PoolEnv("pot_drill")
    env.reset(seed=0)
    _, _, term, trunc, _ = env.step(env.action_space.sample())
    assert term or trunc
    with pytest.raises(RuntimeError, match="finished"):
        env.step(env.action_space.sample())


def test_shot_limit_truncates():
    env = PoolEnv("nine_ball", max_shots=2, opponent=None)
    env.reset(seed=0)
    done, n = False, 0
    while not done:
        _, _, term, trunc, info = env.step(env.action_space.sample())
        done, n = term or trunc, n + 1
    assert trunc or term
    assert info["shots"] <= 2


def test_runout_drill_ends_when_the_table_is_lost():
    env = PoolEnv("nine_ball", runout=True, max_shots=20)
    env.reset(seed=4)
    spec = env.legal_actions()
    assert spec.must_place
    # a soft shot away from every ball: no contact (9B-5.8) -> opponent's turn -> episode over
    _, reward, term, _, info = env.step_action([PlaceCueBall(0.1, 0.1), ShotAction(V0=0.2, phi=225.0)])
    assert term and reward == -1.0


def test_macro_mode_masks_substitution_and_raise():
    env = PoolEnv("nine_ball", action_mode="macro", max_shots=10)
    env.reset(seed=0)
    m = env.action_masks()
    assert m.shape == (env.action_space.n,) and m.any()
    bad = int(np.flatnonzero(~m)[0])
    _, _, _, _, info = env.step(bad)
    assert info["illegal_action"]
    env2 = PoolEnv("nine_ball", action_mode="macro", max_shots=10, illegal_macro="raise")
    env2.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        env2.step(bad)
    with pytest.raises(ValueError):
        env2.step(env2.action_space.n + 3)


def test_macro_pot_pockets_a_straight_in_ball(table9):
    env = PoolEnv("nine_ball", action_mode="macro", max_shots=10)
    nine_ball_position(env, table9)
    codec = env.codec
    k = next(i for i, e in enumerate(codec.macro_table)
             if e.kind == "pot" and e.ball == 1 and e.pocket == 2 and e.speed == 0 and e.spin == 1)
    assert env.action_masks()[k]
    env.step(k)
    assert not env.state.on_table[1]


def test_codec_is_usable_outside_the_env(table9):
    env = PoolEnv("eight_ball", max_shots=10)
    obs, _ = env.reset(seed=2)
    codec = Codec(16, 2, table9, max_shots=10)
    np.testing.assert_array_equal(codec.encode(env.state, env.legal_actions(), 0, 0), obs)
    acts = codec.decode_box(np.zeros(codec.box_size), env.state, env.legal_actions())
    assert isinstance(acts[-1], ShotAction)


def test_opponent_plays_until_the_learner_is_to_act():
    env = PoolEnv("nine_ball", max_shots=30, opponent="geometric")
    env.reset(seed=5)
    for _ in range(5):
        _, _, term, trunc, info = env.step(env.action_space.sample())
        if term or trunc:
            break
        assert info["seat_to_act"] == info["learner_seat"]


def test_unknown_opponent_and_bad_arguments():
    with pytest.raises(ValueError, match="opponent"):
        PoolEnv("nine_ball", opponent="grandmaster")
    with pytest.raises(ValueError, match="action_mode"):
        PoolEnv("nine_ball", action_mode="joystick")
    with pytest.raises(ValueError, match="discipline"):
        PoolEnv("snooker")
    with pytest.raises(ValueError, match="rules"):
        PoolEnv("nine_ball", rules={"no_such_knob": 1})


def test_rule_options_reach_the_referee():
    env = PoolEnv("nine_ball", rules={"three_foul_loss": False}, table="7ft")
    assert env.config.three_foul_loss is False and env.config.table == "7ft"
    assert env.table.w == pytest.approx(0.9906)


def test_callable_opponent_and_noise():
    calls = []

    def opp(state, spec, rng):
        calls.append(state.seat_to_act)
        from poolgym.envs.opponents import GeometricOpponent

        return GeometricOpponent()(state, spec, rng)

    env = PoolEnv("nine_ball", opponent=opp, noise="icga", max_shots=20)
    env.reset(seed=0)
    for _ in range(4):
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            break
    assert calls and set(calls) == {1}


def test_macro_safety_declaration_8B_4_12(table9):
    """8B-4.12: a declared safety is reachable through the macro space (no call attached)."""
    env = PoolEnv("eight_ball", action_mode="macro", max_shots=10)
    balls = {k: None for k in range(1, 16)}
    balls.update({0: (0.6, 0.5), 3: (0.6, 1.2), 12: (0.3, 1.8), 8: (1.0, 2.0)})
    env.reset(seed=0, options={"balls": balls, "phase": "play", "cue_ball": "in_position", "seat_to_act": 0})
    m = env.action_masks()
    k = next(i for i, e in enumerate(env.codec.macro_table) if e.kind == "safety" and e.ball == 3 and m[i])
    acts = env.codec.decode_macro(k, env.state, env.legal_actions())
    assert acts[-1].safety and acts[-1].called_ball is None
    _, _, _, _, info = env.step(k)
    assert not info["illegal_action"]


def test_docstring_examples():
    import doctest

    from poolgym.envs import pool_env

    res = doctest.testmod(pool_env, optionflags=doctest.ELLIPSIS)
    assert res.attempted >= 4 and res.failed == 0


def test_concede_through_the_structured_api_GW_11():
    """GW-11: the learner may concede through `step_action`; the opponent wins (-1)."""
    from poolgym.rules.core import Concede

    env = PoolEnv("nine_ball", opponent="geometric", learner_seat=0)
    env.reset(seed=4)
    _, reward, term, trunc, info = env.step_action(Concede())
    assert term and not trunc and reward == -1.0
    assert info["winner"] == 1
    assert info["verdicts"][-1]["rule_refs"] == ("GW-11",)


def test_a_noise_model_of_its_own_perturbs_every_stroke():
    """Any object with ``apply(shots, rng)`` is the env's execution noise, and so is an
    `ExecutionNoise` subclass with its own ``apply``: each stroke goes through it."""
    import physics

    class Shift:
        calls = 0

        def apply(self, shots, rng):
            type(self).calls += 1
            out = np.array(shots, float)
            out[:, 1] = (out[:, 1] + 1.0) % 360.0
            return out

    class Loud(physics.ExecutionNoise):
        calls = 0

        def apply(self, shots, rng, **kw):
            type(self).calls += 1
            return super().apply(shots, rng, **kw)

    for model in (Shift(), Loud(sigma_phi=0.5)):
        env = PoolEnv("nine_ball", noise=model, opponent=None)
        env.reset(seed=0)
        env.action_space.seed(0)
        for _ in range(3):
            env.step(env.action_space.sample())
        assert type(model).calls >= 3
        env.close()
