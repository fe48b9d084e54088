"""The scoring games' envs (poolgym/SixBall-v0, Bowlliards-v0, Cowboy-v0, Honolulu-v0,
Cribbage-v0, OneBallSide-v0): Gymnasium and SB3 checkers, PettingZoo api/seed tests, the native
vector env against single envs, the score block of the observation, rewards from the games'
own scoring. (Six-ball and bowlliards are also in `SEATED_IDS`: tests/envs/test_seated.py runs
its checks on them at their smallest and largest seat counts; cowboy, whose innings run long,
is checked here at 2 and 3 seats.)"""

import warnings

import gymnasium as gym
import numpy as np
import pytest

import poolgym  # noqa: F401  (registers the ids)
from poolgym.rules import ShotAction
from poolgym.rules.core import CueBallPlacement, Phase

from .conftest import gym_check_env, sb3_check_env

IDS = ("poolgym/SixBall-v0", "poolgym/Bowlliards-v0", "poolgym/Cowboy-v0", "poolgym/Honolulu-v0",
       "poolgym/Cribbage-v0", "poolgym/OneBallSide-v0")
TWO_SEATS = ("honolulu", "cribbage", "one_ball_side")


@pytest.mark.parametrize("mode", ["box", "macro"])
@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_check_env(env_id, mode):
    gym_check_env(env_id, action_mode=mode, max_shots=20)


@pytest.mark.parametrize("env_id", IDS)
def test_sb3_check_env(env_id):
    sb3_check_env(env_id, max_shots=20)


@pytest.mark.parametrize("mode", ["box", "macro"])
@pytest.mark.parametrize("players", [2, 3])
def test_cowboy_seated_checkers(players, mode):
    from pettingzoo.test import api_test

    from poolgym.pettingzoo import env

    gym_check_env("poolgym/Cowboy-v0", players=players, action_mode=mode, max_shots=60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = env("cowboy", players=players, action_mode=mode, max_shots=10)
        assert e.possible_agents == [f"player_{k}" for k in range(players)]
        api_test(e, num_cycles=10)


@pytest.mark.parametrize("mode", ["box", "macro"])
@pytest.mark.parametrize("discipline", TWO_SEATS)
def test_pettingzoo_api_and_seed(discipline, mode):
    from pettingzoo.test import api_test, seed_test

    from poolgym.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(discipline, action_mode=mode, max_shots=10), num_cycles=10)
        seed_test(lambda: env(discipline, action_mode=mode, max_shots=10), num_cycles=10)


@pytest.mark.parametrize("env_id", IDS)
def test_native_vector_matches_single_envs(env_id):
    """envpool-style alignment: the native vector env (one batched physics call per round)
    gives the single envs' observations, rewards and ends step by step."""
    n = 3
    native = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", max_shots=30)
    sync = gym.vector.SyncVectorEnv([lambda: gym.make(env_id, max_shots=30) for _ in range(n)])
    o1, _ = native.reset(seed=5)
    o2, _ = sync.reset(seed=5)
    np.testing.assert_array_equal(o1, o2)
    rng = np.random.default_rng(0)
    for t in range(12):
        a = rng.uniform(-1, 1, native.action_space.shape).astype(np.float32)
        r1, r2 = native.step(a), sync.step(a)
        for k in range(4):
            np.testing.assert_array_equal(r1[k], r2[k], err_msg=f"{env_id} step {t}, output {k}")
    native.close()
    sync.close()


def test_bowlliards_solo_reward_is_the_score_out_of_300():
    """Bowlliards-v0 is solo (one seat, no opponent); the result reward is the final score / 300
    (the game's own scoring); per-step points sum to the score; the score block carries the
    frame and attempt."""
    env = gym.make("poolgym/Bowlliards-v0", max_shots=200)
    u = env.unwrapped
    assert u.config.n_players == 1 and u.opponent is None
    obs, info = env.reset(seed=3)
    k = u.codec.score0
    assert obs[k] == 0.0 and obs[k + 1] == 0.0  # frame 0, attempt 0
    total, rng = 0.0, np.random.default_rng(3)
    points = 0.0
    while True:
        obs, r, term, trunc, info = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        total += r
        points += info["reward_components"]["points"]
        if term or trunc:
            break
    assert term and u.state.phase is Phase.GAME_OVER
    assert total == pytest.approx(u.state.scores[0] / 300.0) and points == u.state.scores[0]
    assert u.state.extra.frame == 10


def test_cowboy_score_block_and_the_101st_point_through_step_action():
    """Cowboy-v0: the score block holds the points to 90 / 101 and the at-100 flag; at 100 the
    called pocket of the cue ball is part of the typed action."""
    from poolgym.rules.games.cowboy import CowboyExtra, home_spots

    env = gym.make("poolgym/Cowboy-v0", max_shots=50).unwrapped
    table = env.table
    home = home_spots(table)
    obs, _ = env.reset(seed=0, options={"balls": {0: (0.3, 0.9), **home}, "phase": "play", "cue_ball": "in_position",
                                        "scores": (100, 40), "extra": CowboyExtra(100), "shot_number": 5})
    k = env.codec.score0
    assert obs[k] == pytest.approx(-10 / 101) and obs[k + 1] == pytest.approx(1 / 101) and obs[k + 4] == 1.0
    spec = env.legal_actions()
    assert spec.call_required and spec.target_balls == (1,)
    with pytest.raises(Exception):
        env.step_action(ShotAction(2.0, 0.0))  # no pocket called (CW-6.6)


def test_one_ball_side_metadata_lists_the_defaults():
    """The seed lost 1S-1..1S-5: the env says which defaults it plays (C-49)."""
    env = gym.make("poolgym/OneBallSide-v0").unwrapped
    d = env.metadata["rules_defaults"]
    assert d["scoring_mode"] == "points" and d["one_ball_wins"] is True and "C-49" in d["source"]
    obs, info = env.reset(seed=0)
    assert info["phase"] == "option"  # 1S-7.3: the breaker chooses his side pocket first


def test_honolulu_score_block_owed_points():
    """Honolulu-v0: the score block carries the owed points (HO-8)."""
    from poolgym.rules.games.honolulu import HonoluluExtra

    env = gym.make("poolgym/Honolulu-v0").unwrapped
    obs, _ = env.reset(seed=0, options={"extra": HonoluluExtra(owed=(2, 1)), "phase": "play",
                                        "cue_ball": "in_hand_anywhere"})
    k = env.codec.score0
    assert obs[k] == pytest.approx(2 / 8) and obs[k + 1] == pytest.approx(1 / 8)
    assert env.state.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE


def test_wpa_spaces_unchanged_by_the_score_block():
    env = gym.make("poolgym/NineBall-v0").unwrapped
    assert env.codec.scores is None and env.codec.score0 == env.codec.obs_size


@pytest.mark.rule("HO-6")
def test_honolulu_multi_call_through_box_and_macro():
    """HO-6 / C-20: a shot calling several balls is reachable through the Box action (the
    further-call block: each ball whose best pocket scores > 0.5, up to max_called_balls)
    and the macro action (a pot with a second called ball), masked to callable balls and
    feasible pots; the referee receives the `MultiCallShot`."""
    from poolgym.rules.games.honolulu import MultiCallShot, calls_of

    env = gym.make("poolgym/Honolulu-v0").unwrapped
    env.reset(seed=0, options={"phase": "play", "cue_ball": "in_hand_anywhere"})
    st, spec = env.state, env.disc.legal_actions(env.state)
    c = env.codec
    assert c.multi_calls and c.box_size == c.calls0 + 15 * 6
    u = np.zeros(c.box_size)
    u[8 + 3] = 1.0                      # first call: ball 3 ...
    u[9 + 15 + 2] = 1.0                 # ... in pocket 2
    u[c.calls0 + (5 - 1) * 6 + 4] = 0.9  # also ball 5 in pocket 4
    u[c.calls0 + (7 - 1) * 6 + 1] = 0.7  # and ball 7 in pocket 1
    u[c.calls0 + (3 - 1) * 6 + 0] = 0.9  # ball 3 again: ignored (it is the first call)
    acts = c.decode_box(u, st, spec)
    shot = acts[-1]
    assert isinstance(shot, MultiCallShot) and calls_of(shot) == ((3, 2), (5, 4), (7, 1))
    u[c.calls0:] = 0.0
    assert not isinstance(c.decode_box(u, st, spec)[-1], MultiCallShot)  # no further call
    # max_called_balls caps the calls (highest scores first)
    env2 = gym.make("poolgym/Honolulu-v0", rules={"max_called_balls": 2}).unwrapped
    env2.reset(seed=0, options={"phase": "play", "cue_ball": "in_hand_anywhere"})
    u[c.calls0 + (5 - 1) * 6 + 4] = 0.9
    u[c.calls0 + (7 - 1) * 6 + 1] = 0.95
    assert calls_of(env2.codec.decode_box(u, env2.state, spec)[-1]) == ((3, 2), (7, 1))
    # macro: two-call pots, masked
    m = c.macro_mask(st, spec)
    idx = [i for i, e in enumerate(c.macro_table) if e.also]
    assert len(idx) == 15 * 6 * 14 and m[idx].any()
    k = next(i for i in idx if m[i])
    e = c.macro_table[k]
    shot = c.decode_macro(k, st, spec)[-1]
    assert isinstance(shot, MultiCallShot) and calls_of(shot)[0] == (e.ball, e.pocket)
    assert calls_of(shot)[1][0] == e.also and len(calls_of(shot)) == 2
    off = st.replace(on_table=tuple(False if b == e.also else v for b, v in enumerate(st.on_table)))
    assert not c.macro_mask(off, env.disc.legal_actions(off))[k]  # the second ball is gone
    em = gym.make("poolgym/Honolulu-v0", action_mode="macro").unwrapped
    em.reset(seed=0, options={"phase": "play", "cue_ball": "in_hand_anywhere"})
    assert em.action_masks()[k]
    _, _, _, _, info = em.step(k)  # the referee takes it
    assert em.state.shot_number >= 1 and not info["illegal_action"]
    env1 = gym.make("poolgym/Honolulu-v0", rules={"max_called_balls": 1}).unwrapped
    env1.reset(seed=0, options={"phase": "play", "cue_ball": "in_hand_anywhere"})
    assert not env1.codec.macro_mask(env1.state, env1.disc.legal_actions(env1.state))[idx].any()
