"""The parameterised action modes (`poolgym.envs.param`): env checkers on every id, the
decoding of a choice and its corrections against the planning geometry, the rules' mask, bad
input, and the native vector env equal to single envs."""

import math

import gymnasium as gym
import numpy as np
import pytest

from poolgym import planning
from poolgym.envs.param import (CORRECTIONS, MAX_CUT_OFFSET, N_CORRECTIONS, POT_FEATURE_NAMES, POT_FEATURES,
                                ParamKind, POT_SPEED_MARGIN)
from poolgym.envs.pool_env import PoolEnv
from poolgym.rules.core import ChooseOption, Option, PlaceCueBall, ShotAction

from .conftest import ALL_IDS, gym_check_env, sb3_check_env

MODES = ("param", "param_dict")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("env_id", ALL_IDS + ("poolgym/PeaPool-v0", "poolgym/Cowboy-v0"))
def test_gymnasium_check_env(env_id, mode):
    gym_check_env(env_id, skip_render_check=True, action_mode=mode, max_shots=40)


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_sb3_check_env_flat_param(env_id):
    pytest.importorskip("stable_baselines3")
    sb3_check_env(env_id, action_mode="param", max_shots=40)


def _drill(**kw):
    env = PoolEnv("pot_drill", action_mode="param", max_shots=1, **kw)
    env.reset(seed=0)
    return env


def _place(env, cue, obj):
    env.reset(seed=0, options={"balls": {0: cue, 1: obj}})
    return env.state, env.legal_actions()


def test_spaces_and_layout():
    env = _drill()
    pc = env.param
    # pot drill: 6 pots of the 1-ball, hit, safety, break, push, one entry per Option
    assert pc.n_choice == 6 + 1 + 1 + 2 + len(Option)
    assert env.action_space.shape == (pc.n_choice + N_CORRECTIONS,)
    assert len(CORRECTIONS) == N_CORRECTIONS == 7
    assert POT_FEATURES == len(POT_FEATURE_NAMES) == 9
    # the mask, the 9 features of each of the 6 pots, then those of the prior's pick
    assert env.observation_space.shape == (env.codec.cand0 + pc.n_choice + 9 * (6 + 1),)
    d = PoolEnv("pot_drill", action_mode="param_dict")
    assert d.action_space["choice"].n == pc.n_choice
    assert d.action_space["corrections"].shape == (N_CORRECTIONS,)


def test_zero_corrections_play_the_ghost_ball_pot():
    """Choice (1, pocket) with corrections 0: phi and V0 of the ghost-ball aim (`planning.aim`,
    `planning.v0_for_pot` x the geometric margin), centre tip, level cue."""
    env = _drill()
    st, spec = _place(env, (0.6, 0.6), (0.7, 1.6))
    pc = env.param
    for pocket in range(6):
        if not pc.mask(st, spec)[pocket]:
            continue
        acts = pc.decode(pocket, np.zeros(7), st, spec)
        (shot,) = acts
        a = planning.aim(np.array([0.6, 0.6]), np.array([0.7, 1.6]), pc.geom.aims[pocket])
        assert shot.phi == pytest.approx(float(a.phi) % 360.0, abs=1e-9)
        V0 = POT_SPEED_MARGIN * planning.v0_for_pot(float(a.d_cue), float(a.d_obj), math.radians(abs(float(a.cut))))
        assert shot.V0 == pytest.approx(V0)
        assert (shot.a, shot.b, shot.theta, shot.safety) == (0.0, 0.0, 0.0, False)


def test_corrections_offset_aim_speed_spin():
    env = _drill()
    st, spec = _place(env, (0.6, 0.6), (0.7, 1.6))
    pc = env.param
    k = int(np.flatnonzero(pc.mask(st, spec)[:6])[0])
    base = pc.decode(k, np.zeros(7), st, spec)[0]
    s = pc.decode(k, [0.5, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0], st, spec)[0]
    assert s.V0 == pytest.approx(min(2 * base.V0, 8.0))
    assert s.b == pytest.approx(-0.45) and s.a == 0.0  # full draw
    s = pc.decode(k, [0, 0, 1, 1, 0, 0, 0], st, spec)[0]
    assert math.hypot(s.a, s.b) == pytest.approx(0.45)  # projected into the disc


def _object_line(cue, obj, phi, R=planning.BALL_RADIUS):
    """Direction (deg) the object ball leaves in after a straight stroke from ``cue`` at
    ``phi``: the cue ball meets it where their centres are 2R apart, the object ball leaves
    along the line of centres."""
    d = np.array([math.cos(math.radians(phi)), math.sin(math.radians(phi))])
    v = np.asarray(obj, float) - np.asarray(cue, float)
    along = v @ d
    s = along - math.sqrt((2 * R) ** 2 - (v @ v - along * along))
    line = np.asarray(obj, float) - (np.asarray(cue, float) + s * d)
    return math.degrees(math.atan2(line[1], line[0]))


@pytest.mark.parametrize("cue, obj", [((0.6, 0.6), (0.7, 1.6)), ((1.0, 0.4), (0.4, 1.5)), ((0.635, 0.5), (0.635, 1.2))])
def test_cut_offset_turns_the_object_ball_line_thinner_or_thicker(cue, obj):
    """Correction 0 of a pot turns the object ball's line around it by ``MAX_CUT_OFFSET`` u
    degrees, away from the cue ball's path (a thinner cut) for u > 0, towards it for u < 0 (a
    straight-in: to the left), whatever the distances; the ghost-ball line at u = 0 (cuts
    beyond 80 deg, which the prior never picks, skipped)."""
    env = _drill()
    st, spec = _place(env, cue, obj)
    pc = env.param
    assert pc.max_cut_offset == MAX_CUT_OFFSET == 5.0
    for k in np.flatnonzero(pc.mask(st, spec)[:6]):
        a = planning.aim(np.array(cue), np.array(obj), pc.geom.aims[k])
        to_pocket = math.degrees(math.atan2(*(pc.geom.aims[k] - np.array(obj))[::-1]))
        base = pc.decode(int(k), np.zeros(7), st, spec)[0]
        assert _object_line(cue, obj, base.phi) == pytest.approx(to_pocket, abs=1e-6)
        sign = 1.0 if float(a.cut) >= 0 else -1.0
        if abs(float(a.cut)) > 80.0:
            continue  # thinner than 90 deg: the cue ball would meet the object ball elsewhere
        for u in (0.5, -0.3, 1.0):
            s = pc.decode(int(k), [u, 0, 0, 0, 0, 0, 0], st, spec)[0]
            turn = (_object_line(cue, obj, s.phi) - to_pocket + 180.0) % 360.0 - 180.0
            assert turn == pytest.approx(sign * 5.0 * u, abs=1e-6)
            cut = float(planning.aim(np.array(cue), np.array(obj), np.array(obj) + [math.cos(math.radians(to_pocket + turn)),
                                                                                  math.sin(math.radians(to_pocket + turn))]).cut)
            assert (abs(cut) > abs(float(a.cut))) == (u > 0)  # thinner for u > 0
            assert s.V0 == base.V0


def test_argmax_over_the_legal_choices_only():
    """A masked-out choice with the top score is never played: the best legal one is."""
    env = _drill(choice_prior=0.0)
    st, spec = _place(env, (0.635, 0.3), (0.635, 1.0))  # straight up the table
    pc = env.param
    m = pc.mask(st, spec)
    assert not m[pc.option0:].any()  # no options in the pot drill
    assert not m[pc.break_index] and not m[pc.push_index]
    u = np.zeros(pc.box_size)
    u[pc.option0] = 1.0  # illegal option scored highest
    u[pc.hit0] = 0.5  # the legal hit next
    (shot,) = pc.decode_box(u, st, spec)
    assert isinstance(shot, ShotAction)
    assert shot.phi == pytest.approx(90.0)


def test_pots_beyond_a_right_angle_cut_are_masked():
    env = _drill()
    st, spec = _place(env, (0.3, 2.0), (0.3, 1.0))  # object ball between cue and head rail
    m = env.param.mask(st, spec)[:6]
    a = planning.aim(np.array([0.3, 2.0]), np.array([0.3, 1.0]), env.param.geom.aims)
    np.testing.assert_array_equal(m, a.feasible)
    assert not m.all()


def test_candidate_block_features():
    env = _drill()
    st, spec = _place(env, (0.6, 0.6), (0.7, 1.6))
    obs = env._obs()
    pc = env.param
    blk = obs[env.codec.cand0:]
    np.testing.assert_array_equal(blk[: pc.n_choice], pc.mask(st, spec).astype(np.float32))
    f = blk[pc.n_choice:].reshape(7, POT_FEATURES)
    cue, obj = np.array([0.6, 0.6]), np.array([0.7, 1.6])
    a = planning.aim(cue, obj, pc.geom.aims)
    for k in range(6):
        if pc.mask(st, spec)[k]:
            assert f[k, 0] == pytest.approx(float(a.cut[k]) / 90.0, abs=1e-6)
            assert f[k, 1] == pytest.approx(float(a.d_cue[k]) / pc.l, abs=1e-6)
            assert f[k, 2] == pytest.approx(float(a.d_obj[k]) / pc.l, abs=1e-6)
            assert 0.0 <= f[k, 3] <= 1.0
            u = planning.unit(pc.geom.aims[k] - obj)
            assert f[k, 4] == pytest.approx(float(u @ pc.geom.axes[k]), abs=1e-6)  # approach cosine
            (shot,) = pc.decode(k, np.zeros(7), st, spec)
            assert f[k, 5] == pytest.approx(shot.V0 / pc.V0_max, abs=1e-6)  # the reference speed
            assert f[k, 6] == (k in planning.SIDE_POCKETS)
            assert 0.0 <= f[k, 7] <= 1.0 and 0.0 <= f[k, 8] <= 1.0
        else:
            assert not f[k].any()
    best = planning.pot_candidates(pc.geom, np.array([[0.6, 0.6], [0.7, 1.6]]), np.ones(2, bool), 0, (1,))[0]
    assert f[best.pocket, 3] == pytest.approx(best.p_make, abs=1e-6)
    # the last 9: the features of the choice the all-zero action plays (the best pot)
    assert pc.choose(np.zeros(pc.box_size), st, spec) == best.pocket
    np.testing.assert_array_equal(f[6], f[best.pocket])


def test_scratch_features_on_the_tangent_and_the_follow_line():
    """A straight-in: the cue ball's own line runs into the pocket (a rolling cue ball follows
    the object ball in: scratch_f ~ 1), the tangent line is undefined (scratch_t = 0). A 45-deg
    cut into lb whose stun line (perpendicular to the object ball's line at the ghost ball)
    runs through rb's aim point: scratch_t ~ 1."""
    env = _drill()
    pc = env.param
    R = planning.BALL_RADIUS
    A = pc.geom.aims
    obj = np.array([0.4, 1.0])
    u = planning.unit(A[0] - obj)
    cue = obj - 0.5 * u  # dead straight into lb
    st, spec = _place(env, tuple(cue), tuple(obj))
    _, pots, f, _ = pc.analysis(st, spec)
    k = int(np.flatnonzero(pots == 0)[0])
    assert f[k, 0] == pytest.approx(0.0, abs=1e-9)
    assert f[k, 8] == pytest.approx(1.0) and f[k, 7] == 0.0

    def tangent_miss(y):  # object ball at (w/2, y): (rb - ghost) . u, zero when the stun line hits rb
        o = np.array([pc.w / 2, y])
        uu = planning.unit(A[0] - o)
        return (A[3] - (o - 2 * R * uu)) @ uu

    lo, hi = 0.3, 1.0  # tangent_miss changes sign between them (Thales circle over lb-rb)
    assert tangent_miss(lo) * tangent_miss(hi) < 0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if tangent_miss(lo) * tangent_miss(mid) > 0 else (lo, mid)
    obj = np.array([pc.w / 2, lo])
    u = planning.unit(A[0] - obj)
    ghost = obj - 2 * R * u
    t = planning.unit(A[3] - ghost)
    cue = ghost - 0.4 * planning.unit(u + t)  # the cue ball's path bisects u and t: a 45-deg cut
    st, spec = _place(env, tuple(cue), tuple(obj))
    _, pots, f, _ = pc.analysis(st, spec)
    k = int(np.flatnonzero(pots == 0)[0])
    assert abs(f[k, 0]) * 90.0 == pytest.approx(45.0, abs=1e-6)
    assert f[k, 7] == pytest.approx(1.0, abs=1e-6)


def test_analysis_is_computed_once_per_state():
    """The observation, the mask and the decoding of the next action share one analysis."""
    env = _drill()
    pc = env.param
    st, spec = env.state, env.legal_actions()
    first = pc.analysis(st, spec)
    assert pc.analysis(st, spec) is first
    np.testing.assert_array_equal(pc.mask(st, spec), first[0])
    pc.mask(st, spec)[:] = False  # a copy: the shared arrays are unchanged
    assert first[0].any()


def test_ball_in_hand_places_behind_the_ghost_ball():
    """Nine-ball, ball in hand: a pot choice places the cue ball on the pot line behind the
    ghost ball (9B-5.10 / GB-8 placement checked by the referee) and calls the ball."""
    env = PoolEnv("nine_ball", action_mode="param", runout=True, max_shots=5)
    env.reset(seed=3)
    st, spec = env.state, env.legal_actions()
    pc = env.param
    assert spec.must_place or not st.cue_placed
    k = int(np.flatnonzero(pc.mask(st, spec)[: pc.n_pot])[0])
    ball, pocket = pc.choices[k].ball, pc.choices[k].pocket
    acts = pc.decode(k, np.zeros(7), st, spec)
    assert isinstance(acts[0], PlaceCueBall) and isinstance(acts[1], ShotAction)
    pos = np.asarray(st.pos).reshape(-1, 2)
    ghost = planning.ghost_ball(pos[ball], pc.geom.aims[pocket])
    a = planning.aim(np.array([acts[0].x, acts[0].y]), pos[ball], pc.geom.aims[pocket])
    assert abs(float(a.cut)) < 5.0  # straight in (unless moved to a legal spot nearby)
    assert np.hypot(*(np.array([acts[0].x, acts[0].y]) - ghost)) == pytest.approx(0.34, abs=0.05)
    env.step_action(acts)  # the referee accepts it


def test_option_phase_offers_only_options_9B_5_6():
    """After a push-out (9B-5.6) the incoming player only chooses: accept or pass back."""
    env = PoolEnv("nine_ball", action_mode="param", max_shots=40, opponent=None)
    env.reset(seed=0)
    pc = env.param
    from poolgym.rules.core import Phase

    for _ in range(40):
        st, spec = env.state, env.legal_actions()
        if st.phase is Phase.OPTION:
            m = pc.mask(st, spec)
            assert set(np.flatnonzero(m)) == {pc._option_index[o] for o in spec.options}
            u = np.zeros(pc.box_size)
            u[pc._option_index[spec.options[-1]]] = 1.0
            assert pc.decode_box(u, st, spec) == [ChooseOption(spec.options[-1])]
            return
        m = pc.mask(st, spec)
        u = np.full(pc.box_size, -1.0)
        if m[pc.push_index]:
            u[pc.push_index] = 1.0
        elif m[pc.break_index]:
            u[pc.break_index] = 1.0
        else:
            u[int(np.flatnonzero(m)[0])] = 1.0
        u[pc.n_choice:] = 0.0
        _, _, term, trunc, _ = env.step(u)
        if term or trunc:
            env.reset()
    pytest.fail("no option phase reached")


def test_dict_mode_substitutes_or_raises_on_a_masked_choice():
    env = PoolEnv("pot_drill", action_mode="param_dict", max_shots=1)
    env.reset(seed=0)
    bad = {"choice": env.param.option0, "corrections": np.zeros(7, np.float32)}
    _, _, _, _, info = env.step(bad)
    assert info["illegal_action"] is True
    env = PoolEnv("pot_drill", action_mode="param_dict", max_shots=1, illegal_macro="raise")
    env.reset(seed=0)
    before = env.state_json()
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)
    assert env.state_json() == before


@pytest.mark.parametrize("bad", [
    {"choice": 0},
    {"choice": 0.5, "corrections": np.zeros(7)},
    {"choice": 999, "corrections": np.zeros(7)},
    {"choice": 0, "corrections": np.zeros(6)},
    {"choice": 0, "corrections": np.full(7, np.nan)},
])
def test_dict_mode_rejects_bad_actions_and_changes_nothing(bad):
    env = PoolEnv("pot_drill", action_mode="param_dict", max_shots=1)
    env.reset(seed=0)
    before = (env.state_json(), env.np_random.bit_generator.state)
    with pytest.raises(ValueError):
        env.step(bad)
    assert (env.state_json(), env.np_random.bit_generator.state) == before


@pytest.mark.parametrize("bad", [np.zeros(5), np.full(32, np.nan), np.zeros(32, np.int64)])
def test_flat_mode_rejects_bad_actions_and_changes_nothing(bad):
    env = _drill()
    before = env.state_json()
    with pytest.raises(ValueError):
        env.step(bad)
    assert env.state_json() == before


def test_action_masks_match_the_candidate_block():
    env = _drill()
    np.testing.assert_array_equal(env.action_masks(), env._obs()[env.codec.cand0:][: env.param.n_choice] > 0)
    with pytest.raises(AttributeError):
        PoolEnv("pot_drill").action_masks()


def _dict_actions(rng, masks, n_corr=7):
    return {"choice": np.array([rng.choice(np.flatnonzero(m)) for m in masks]),
            "corrections": rng.uniform(-1, 1, (len(masks), n_corr)).astype(np.float32)}


@pytest.mark.parametrize("env_id,mode", [("poolgym/PotDrill-v0", "param"), ("poolgym/NineBall-v0", "param"),
                                         ("poolgym/NineBall-v0", "param_dict"),
                                         ("poolgym/PeaPool-v0", "param")])
def test_native_vector_matches_single_envs(env_id, mode):
    """Bit-identical observations, rewards and end flags, native vector env vs single envs."""
    kw = dict(action_mode=mode, max_shots=12, noise="icga")
    n = 4
    native = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kw)
    sync = gym.vector.SyncVectorEnv([lambda: gym.make(env_id, **kw) for _ in range(n)])
    try:
        o1, _ = native.reset(seed=5)
        o2, _ = sync.reset(seed=5)
        np.testing.assert_array_equal(o1, o2)
        rng = np.random.default_rng(0)
        for t in range(12):
            if mode == "param_dict":
                a = _dict_actions(rng, native.unwrapped.action_masks())
            else:
                a = rng.uniform(-1, 1, native.action_space.shape).astype(np.float32)
            r1, r2 = native.step(a), sync.step(a)
            for k in range(4):
                np.testing.assert_array_equal(r1[k], r2[k], err_msg=f"step {t}, output {k}")
    finally:
        native.close()
        sync.close()


def test_vector_dict_actions_rejected_with_the_table_named():
    v = gym.make_vec("poolgym/PotDrill-v0", num_envs=2, vectorization_mode="vector_entry_point",
                     action_mode="param_dict")
    v.reset(seed=0)
    with pytest.raises(ValueError, match="table 1"):
        v.step({"choice": np.array([0, 999]), "corrections": np.zeros((2, 7))})
    v.close()


def test_sb3_ppo_and_sac_run_on_the_flat_mode():
    pytest.importorskip("stable_baselines3")
    import torch
    from stable_baselines3 import PPO, SAC

    from poolgym.envs.sb3 import NativeSB3VecEnv

    torch.set_num_threads(1)
    venv = NativeSB3VecEnv("poolgym/PotDrill-v0", num_envs=4, seed=0, action_mode="param")
    PPO("MlpPolicy", venv, n_steps=8, batch_size=16, seed=0).learn(32)
    SAC("MlpPolicy", venv, learning_starts=8, batch_size=16, seed=0).learn(32)
    venv.close()


def test_choice_kinds_in_order():
    env = PoolEnv("nine_ball", action_mode="param")
    pc = env.param
    kinds = [c.kind for c in pc.choices]
    assert kinds[: pc.n_pot] == [ParamKind.POT] * 54
    assert kinds[pc.hit0] is ParamKind.HIT and kinds[pc.safety0] is ParamKind.SAFETY
    assert kinds[pc.break_index] is ParamKind.BREAK and kinds[pc.push_index] is ParamKind.PUSH
    assert [c.option for c in pc.choices[pc.option0:]] == list(Option)


def test_all_zero_action_is_the_geometric_players_pot():
    """With the default prior the all-zero action plays the pot of highest make probability
    with the geometric player's aim and speed (`poolgym.players.geometric`)."""
    from poolgym.players.geometric import GeometricPlayer
    from poolgym.players.view import Observation, view_of

    env = _drill()
    g = GeometricPlayer(noise="icga")
    played = 0
    for seed in range(20):
        env.reset(seed=seed)
        st, spec = env.state, env.legal_actions()
        obs = Observation(state=st, spec=spec, table=env.table, seat=0, discipline="pot_drill")
        cands = g.candidates(view_of(obs))
        if not cands or cands[0].p_make < g.min_p:
            continue  # the geometric player plays safe
        ref = g.act(obs)
        (shot,) = env.param.decode_box(np.zeros(env.param.box_size), st, spec)
        assert shot.phi == pytest.approx(ref.phi, abs=1e-6)
        assert shot.V0 == pytest.approx(ref.V0, rel=1e-6)
        played += 1
    assert played >= 10


def test_prior_weight_zero_is_the_plain_argmax():
    env = _drill(choice_prior=0.0)
    st, spec = env.state, env.legal_actions()
    assert not env.param.prior(st, spec, env.param.mask(st, spec)).any()
    with pytest.raises(ValueError, match="choice_prior"):
        PoolEnv("pot_drill", action_mode="param", choice_prior=-1.0)


# ---------------------------------------------------------------- the window aim (param_aim)
def _window_made(env, st, ball, pocket, shots):
    """For each stroke row: ``ball`` in ``pocket`` and the cue ball left on the table, simulated
    without noise with the env's physics (what `ParamCodec.window_phi` sweeps)."""
    import physics
    from physics.enums import Motion
    from poolgym.rules.game import physics_inputs

    rvw, s = physics_inputs(st)
    B = len(shots)
    res = physics.simulate_batch(env.table, np.repeat(rvw[None], B, 0), np.asarray(shots, float),
                                 np.zeros(B, np.int64), s=np.repeat(s[None], B, 0), parallel=False, grow_log=True,
                                 **env.models.kwargs())
    down, off = int(Motion.POCKETED), int(Motion.OFF_TABLE)
    return (res.s[:, ball] == down) & (res.pocket[:, ball] == pocket) & (res.s[:, 0] != down) & (res.s[:, 0] != off)


def test_window_aim_needs_the_models_and_a_known_mode():
    from poolgym.envs.param import ParamCodec
    from poolgym.rules.geometry import get_table

    with pytest.raises(ValueError, match="aim must be one of"):
        PoolEnv("pot_drill", action_mode="param", param_aim="centre")
    with pytest.raises(ValueError, match="models"):
        ParamCodec(2, get_table("9ft"), aim="window")
    assert PoolEnv("pot_drill", action_mode="param").param.aim == "ghost"  # the default


@pytest.mark.parametrize("cue, obj", [((0.6, 0.6), (0.7, 1.6)), ((1.0, 0.4), (0.4, 1.5)), ((0.9, 0.8), (0.35, 1.9))])
def test_window_aim_is_the_centre_of_the_noise_free_pocketing_window(cue, obj):
    """``param_aim="window"``: with corrections 0 a pot is aimed at the middle of the run of
    aims that pocket the ball in the chosen pocket without noise, the run nearest the
    ghost-ball aim (its edges found here on a 0.01 deg grid); the speed and spin are those of
    the ghost-ball stroke; a correction turns the aim by what it turns the ghost-ball aim."""
    ghost, win = _drill(), _drill(param_aim="window")
    st, spec = _place(win, cue, obj)
    _place(ghost, cue, obj)
    pc = win.param
    checked = 0
    for k in np.flatnonzero(pc.mask(st, spec)[:6]):
        g = ghost.param.decode(int(k), np.zeros(7), st, spec)[0]
        w = pc.decode(int(k), np.zeros(7), st, spec)[0]
        assert (w.V0, w.theta, w.a, w.b) == (g.V0, g.theta, g.a, g.b)
        grid = np.arange(-5.0, 5.0001, 0.01)
        ok = _window_made(win, st, 1, int(k), [[g.V0, (g.phi + d) % 360.0, 0.0, 0.0, 0.0] for d in grid])
        if not ok.any():
            assert w.phi == g.phi  # no window: the ghost-ball aim
            continue
        idx = np.flatnonzero(ok)
        runs = np.split(idx, np.flatnonzero(np.diff(idx) > 1) + 1)
        run = min(runs, key=lambda r: (max(grid[r[0]], -grid[r[-1]], 0.0), -len(r)))
        centre = (grid[run[0]] + grid[run[-1]]) / 2
        off = (w.phi - g.phi + 180.0) % 360.0 - 180.0
        assert off == pytest.approx(centre, abs=0.03)
        assert _window_made(win, st, 1, int(k), [[w.V0, w.phi, 0.0, 0.0, 0.0]])[0]
        gu = ghost.param.decode(int(k), [0.3, 0, 0, 0, 0, 0, 0], st, spec)[0]
        wu = pc.decode(int(k), [0.3, 0, 0, 0, 0, 0, 0], st, spec)[0]
        assert (wu.phi - w.phi) % 360.0 == pytest.approx((gu.phi - g.phi) % 360.0, abs=1e-9)
        checked += 1
    assert checked >= 2


def test_window_aim_pots_more_of_the_drill_under_noise():
    """The all-zero action under ICGA noise on the same 120 drill positions and noise streams:
    the window aim pots more than the ghost-ball aim (the figures on 1,000 positions are in
    the `poolgym.envs.param` docstring)."""
    made = {}
    for aim in ("ghost", "window"):
        env = PoolEnv("pot_drill", action_mode="param", noise="icga", max_shots=1, param_aim=aim)
        n = 0
        for i in range(120):
            env.reset(seed=10_000_000 + i)
            n += env.step(np.zeros(env.action_space.shape, np.float32))[1] > 0
        made[aim] = n
    assert made["window"] > made["ghost"] + 3, made


def test_window_aim_vector_env_matches_single_envs():
    """The native vector env with the window aim gives each table what a single env gives
    for the same seed and action (one-shot drill episodes over three seeds)."""
    from poolgym.envs.vector import PoolVectorEnv

    kw = dict(action_mode="param", noise="icga", param_aim="window")
    venv = PoolVectorEnv("pot_drill", num_envs=4, **kw)
    single = PoolEnv("pot_drill", **kw)
    rng = np.random.default_rng(3)
    for seed in (7, 70, 700):
        obs, _ = venv.reset(seed=seed)
        act = rng.uniform(-1, 1, (4,) + venv.single_action_space.shape).astype(np.float32)
        act[:2, :-7] = 0.0  # two tables play the prior's pot
        obs2, rew, term, trunc, _ = venv.step(act)
        for i in range(4):
            assert np.array_equal(single.reset(seed=seed + i)[0], obs[i])
            o, r, t, tr, _ = single.step(act[i])
            assert np.array_equal(o, obs2[i]) and (r, t, tr) == (rew[i], term[i], trunc[i])
    venv.close()


@pytest.mark.parametrize("env_id", ["poolgym/PotDrill-v0", "poolgym/NineBall-v0", "poolgym/EightBall-v0",
                                    "poolgym/StraightPool-v0"])
def test_compiled_candidate_block_equals_its_numpy_formulas(env_id):
    """`param_kernels.pot_features` against `ParamCodec.pot_features_reference` and the mask's
    feasibility against `planning.aim`, on the positions of seeded random play (ball in hand
    included): the same features to the last bit but one of float64 (the compiled exp and
    atan2 against numpy's vector ones) and bit for bit as the observation's float32."""
    venv = gym.make_vec(env_id, num_envs=16, vectorization_mode="vector_entry_point", num_workers=1,
                        action_mode="param", noise="icga")
    venv.reset(seed=3)
    rng = np.random.default_rng(1)
    seen = in_hand = 0
    try:
        for _ in range(12):
            for e in venv.envs:
                st, sp, c = e.session.state, e.session.spec, e.param
                if sp is None:
                    continue
                m = c._mask(st, sp)
                (pots, f), (pots_ref, f_ref) = c.pot_features(st, sp, m), c.pot_features_reference(st, sp, m)
                np.testing.assert_array_equal(pots, pots_ref)
                np.testing.assert_allclose(f, f_ref, rtol=4.5e-16, atol=1e-300)
                np.testing.assert_array_equal(f.astype(np.float32), f_ref.astype(np.float32))
                seen += pots.size > 0
                if c._in_hand(st, sp):
                    in_hand += 1
                    continue
                shoot = sp.callable_balls if sp.call_required and sp.callable_balls else sp.target_balls
                balls = [b for b in shoot if st.on_table[b]]
                if balls:
                    pos = np.asarray(st.pos, float).reshape(-1, 2)
                    ref = planning.aim(pos[0], pos[balls][:, None, :], c.geom.aims[None], c.R).feasible
                    for i, b in enumerate(balls):
                        np.testing.assert_array_equal(m[(b - 1) * 6 : b * 6], ref[i])
            venv.step(np.clip(rng.normal(0, 0.3, venv.action_space.shape), -1, 1))
    finally:
        venv.close()
    assert seen > 50
    if env_id == "poolgym/NineBall-v0":
        assert in_hand > 0
