"""Bad input through every API: a clear error, and the state exactly as before.

Each rejected input (an action outside the space, an illegal typed action, a stroke faster
than the physics allows, bad reset options or seeds, PettingZoo calls out of turn) must raise
before anything changes: a snapshot of the env (game state, session, RNG states, last step's
log, observation buffers) taken before is byte-identical after. Every point of a Box action
space, whatever ``theta_max``, must be a legal stroke or a foul the rules define (C-55).
"""

import pickle

import gymnasium as gym
import numpy as np
import pytest

import poolgym  # noqa: F401  (registers the ids)
from poolgym.envs.pool_env import PoolEnv
from poolgym.envs.vector import PoolVectorEnv
from poolgym.rules import FoulKind, IllegalActionError, PlaceCueBall, ShotAction
from poolgym.rules.game import MAX_CUE_SPEED, get_discipline


# ----------------------------------------------------------------------------- snapshots
def env_snapshot(env) -> bytes:
    """Everything a `PoolEnv` step or reset can change, pickled."""
    e = env.unwrapped
    s = e.session
    rng = None if s._rng is None else s._rng.bit_generator.state
    np_rng = None if e._np_random is None else e._np_random.bit_generator.state
    return pickle.dumps((
        s.state, s.spec, s.shots, s.done, s.learner_seat, s._rng_seed, rng, s.pending, s.pending_legal,
        s.log.verdicts, s.log.components, [(seat, rvw, s0, row) for seat, rvw, s0, row in s.log.shots],
        s.awaiting_opponent, s.runout_failed, e._np_random_seed, np_rng, e._illegal, e._reset_with_options,
        e._restarts))


def vec_snapshot(venv) -> bytes:
    v = venv.unwrapped if hasattr(venv, "unwrapped") else venv
    return pickle.dumps(([env_snapshot(e) for e in v.envs], v._needs_reset.tobytes(), v._started,
                         v._obs.tobytes()))


def aec_snapshot(aec) -> bytes:
    keys = ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos", "agent_selection")
    return pickle.dumps((env_snapshot(aec._env), [getattr(aec, k, None) for k in keys]))


def rejects(fn, snapshot, exc=(ValueError, RuntimeError), match=None):
    """``fn()`` raises ``exc`` (message matching ``match``) and ``snapshot()`` is unchanged."""
    before = snapshot()
    with pytest.raises(exc, match=match):
        fn()
    assert snapshot() == before


def nine_ball(**kw):
    kw.setdefault("max_shots", 30)
    return gym.make("poolgym/NineBall-v0", **kw).unwrapped


# ----------------------------------------------------------------------------- item 5: V0
def test_shot_faster_than_the_physics_is_an_illegal_action_with_nothing_committed():
    """Issue 12 item 5 reproducer: ``[PlaceCueBall(0.6, 0.3), ShotAction(100.0, 90.0)]`` on
    NineBall-v0 raises IllegalActionError naming V0; the placement is not committed."""
    u = nine_ball()
    u.reset(seed=0)
    rejects(lambda: u.step_action([PlaceCueBall(0.6, 0.3), ShotAction(100.0, 90.0)]), lambda: env_snapshot(u),
            IllegalActionError, "V0")
    u.step_action([PlaceCueBall(0.6, 0.3), ShotAction(MAX_CUE_SPEED, 90.0)])  # the limit itself is legal


def test_shot_speed_randomised_through_the_env_and_the_rules_api():
    """Item 5, randomised: any V0 beyond `MAX_CUE_SPEED` is refused by the rules API and the
    env, before anything changes; noise never pushes a legal speed past the physics."""
    rng = np.random.default_rng(12)
    u = nine_ball(noise="icga")
    u.reset(seed=3)
    D = get_discipline("nine_ball")
    st = u.state
    for V0 in np.concatenate([np.nextafter(MAX_CUE_SPEED, np.inf, dtype=float).reshape(1),
                              rng.uniform(MAX_CUE_SPEED, 1e4, 15)]):
        shot = ShotAction(float(V0), float(rng.uniform(0, 360)))
        with pytest.raises(IllegalActionError, match="V0"):
            D.apply(D.apply(st, PlaceCueBall(0.6, 0.3))[0], shot)
        rejects(lambda: u.step_action([PlaceCueBall(0.6, 0.3), shot]), lambda: env_snapshot(u),
                IllegalActionError, "V0")
    for seed in range(4):  # V0 at the limit with execution noise: simulated, never a physics error
        u.reset(seed=seed)
        u.step_action([PlaceCueBall(0.6, 0.3), ShotAction(MAX_CUE_SPEED, float(rng.uniform(0, 360)))])


# ----------------------------------------------------------------------------- item 6: vector
def _vec(mode="macro", n=4, **kw):
    return PoolVectorEnv("nine_ball", num_envs=n, action_mode=mode, max_shots=20, illegal_macro="raise", **kw)


def test_vector_env_validates_every_table_before_applying_any():
    """Item 6 reproducer: table 2's illegal macro action raises naming table 2, and tables 0
    and 1 (whose actions were legal) are unchanged."""
    v = _vec()
    v.reset(seed=0)
    masks = v.action_masks()
    acts = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    acts[2] = int(np.flatnonzero(~masks[2])[0])
    rejects(lambda: v.step(acts), lambda: vec_snapshot(v), ValueError, "table 2")
    acts[2] = int(np.flatnonzero(masks[2])[0])
    v.step(acts)


@pytest.mark.parametrize("mode", ["macro", "box"])
def test_vector_env_bad_table_randomised(mode):
    """Item 6, randomised: whichever table gets the bad action, no table changes."""
    rng = np.random.default_rng(6)
    v = _vec(mode)
    v.reset(seed=1)
    D = v.single_action_space
    for _ in range(6):
        live = np.flatnonzero(~v._needs_reset)  # a table being reset ignores its action
        if live.size == 0:
            v.step(np.zeros((v.num_envs,) + D.shape) if mode == "box" else np.zeros(v.num_envs, int))
            continue
        k = int(rng.choice(live))
        if mode == "macro":
            masks = v.action_masks()
            acts = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
            acts[k] = int(rng.choice(np.flatnonzero(~masks[k])))
        else:
            acts = rng.uniform(-1, 1, (v.num_envs,) + D.shape)
            acts[k, int(rng.integers(D.shape[0]))] = np.nan
        rejects(lambda: v.step(acts), lambda: vec_snapshot(v), ValueError, f"table {k}")
        v.step(v.action_space.sample(mask=None) if mode == "box" else
               np.array([int(np.flatnonzero(m)[0]) for m in v.action_masks()]))


# ----------------------------------------------------------------------------- item 7: theta_max
def test_every_box_point_is_a_legal_stroke_or_a_rules_foul_at_any_theta_max():
    """Item 7: with ``theta_max`` up to 90 every Box action decodes to actions the referee
    accepts (no IllegalActionError); elevated draw strokes are G-3.26 fouls (C-55)."""
    rng = np.random.default_rng(7)
    for theta_max in (30.0, 60.0, 90.0):
        u = nine_ball(theta_max=theta_max, opponent=None)
        u.reset(seed=int(theta_max))
        D, st, spec = u.disc, u.state, u.session.spec
        box = rng.uniform(-1, 1, (400, u.action_space.shape[0]))
        box[:50, 2:5] = rng.choice([-1.0, 1.0], (50, 3))  # corners of elevation and tip offset
        for row in box:
            acts = u.codec.decode_box(row, st, spec)
            s = st
            for a in acts:
                if isinstance(a, ShotAction):
                    D.shot_inputs(s, a, build=False)  # validates like the env
                else:
                    s = D.apply(s, a)[0]


def test_box_steps_with_elevation_never_raise_and_call_illegal_jumps():
    """Item 7 reproducer (smaller): random Box steps with ``theta_max=60`` never raise; the
    referee calls the G-3.26 illegal jumps among them."""
    env = gym.make("poolgym/NineBall-v0", theta_max=60.0, opponent=None, max_shots=40)
    env.reset(seed=0)
    env.action_space.seed(0)
    calls = 0
    for _ in range(60):
        _, _, term, trunc, info = env.step(env.action_space.sample())
        calls += sum(1 for v in info["verdicts"] for f in v["fouls"] if f == (FoulKind.ILLEGAL_JUMP.value, "G-3.26"))
        if term or trunc:
            env.reset()
    assert calls > 0


# ----------------------------------------------------------------------------- item 8: space
BAD_BOX = {
    "complex": lambda D: np.zeros(D, complex),
    "shape (1, D)": lambda D: np.zeros((1, D), np.float32),
    "shape (D + 1,)": lambda D: np.zeros(D + 1, np.float32),
    "int array": lambda D: np.zeros(D, np.int64),
    "object array": lambda D: np.array([None] * D),
    "string": lambda D: "0" * D,
    "nan": lambda D: np.full(D, np.nan, np.float32),
    "inf": lambda D: np.full(D, np.inf),
    "None": lambda D: None,
    "scalar": lambda D: np.float32(0.0),
}


@pytest.mark.parametrize("kind", sorted(BAD_BOX))
def test_box_actions_outside_the_space_are_refused(kind):
    """Item 8: complex values, wrong shapes, integer arrays, objects, NaN/inf raise
    ValueError saying what is wrong; nothing changes."""
    u = nine_ball()
    u.reset(seed=0)
    rejects(lambda: u.step(BAD_BOX[kind](u.action_space.shape[0])), lambda: env_snapshot(u), ValueError)


def test_box_actions_the_space_contains_are_accepted():
    """Item 8: what Gymnasium's Box contains (float32, float16, bool arrays, lists of
    numbers) is accepted, and float64 arrays; out-of-range values are clipped."""
    D = nine_ball().action_space.shape[0]
    for make in (lambda: np.zeros(D, np.float32), lambda: np.zeros(D, np.float16), lambda: np.zeros(D, bool),
                 lambda: [0] * D, lambda: [0.5] * D, lambda: np.full(D, 3.0)):
        u = nine_ball()
        u.reset(seed=0)
        u.step(make())


def test_box_bad_shapes_randomised():
    """Item 8, randomised: arrays of any shape but (D,) are refused."""
    rng = np.random.default_rng(8)
    u = nine_ball()
    u.reset(seed=0)
    D = u.action_space.shape[0]
    for _ in range(20):
        shape = tuple(int(x) for x in rng.integers(1, D + 3, int(rng.integers(1, 4))))
        if shape == (D,):
            continue
        rejects(lambda: u.step(rng.uniform(-1, 1, shape)), lambda: env_snapshot(u), ValueError, "shape")


@pytest.mark.parametrize("bad", [3.0, np.array([3]), np.array([[3]]), "3", None, np.float32(3), 1 + 0j, 10**9, -1])
def test_macro_actions_outside_the_space_are_refused(bad):
    """Item 8, macro mode: only one integer in [0, M) (what Discrete contains) is accepted."""
    u = nine_ball(action_mode="macro")
    u.reset(seed=0)
    rejects(lambda: u.step(bad), lambda: env_snapshot(u), ValueError)
    u.step(int(np.flatnonzero(u.action_masks())[0]))


def test_vector_actions_outside_the_space_are_refused():
    """Item 8, native vector env: wrong shapes or dtypes of the batch raise; nothing changes."""
    for mode, bads in (("box", [lambda n, D: np.zeros((n, D), complex), lambda n, D: np.zeros((1, n, D)),
                                lambda n, D: np.zeros((n + 1, D)), lambda n, D: np.zeros((n, D), int)]),
                       ("macro", [lambda n, D: np.zeros(n), lambda n, D: np.zeros((n, 1), int),
                                  lambda n, D: np.zeros(n + 1, int), lambda n, D: [0.0] * n])):
        v = _vec(mode, n=3)
        v.reset(seed=0)
        D = v.single_action_space.shape[0] if mode == "box" else 1
        for make in bads:
            rejects(lambda: v.step(make(3, D)), lambda: vec_snapshot(v), ValueError)


# ----------------------------------------------------------------------------- item 9: PettingZoo
def test_pettingzoo_out_of_turn_calls_raise_in_pettingzoos_terms():
    """Item 9: step before reset -> RuntimeError "reset() needs to be called before step.";
    step(None) for a live agent -> ValueError; neither changes anything."""
    from poolgym.pettingzoo import env as aec_env

    e = aec_env("nine_ball", action_mode="macro", max_shots=10)
    rejects(lambda: e.step(0), lambda: aec_snapshot(e), RuntimeError, "reset")
    e.reset(seed=0)
    rejects(lambda: e.step(None), lambda: aec_snapshot(e), ValueError, "live")
    rejects(lambda: e.step(np.array([0])), lambda: aec_snapshot(e), ValueError)
    obs = e.observe(e.agent_selection)
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_pettingzoo_random_bad_actions_randomised():
    """Item 9, randomised: bad actions interleaved with legal play never change the env."""
    from poolgym.pettingzoo import env as aec_env

    rng = np.random.default_rng(9)
    e = aec_env("eight_ball", max_shots=12)
    e.reset(seed=1)
    D = e.action_space(e.possible_agents[0]).shape[0]
    for agent in e.agent_iter(40):
        _, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        bad = [None, np.zeros((1, D)), np.full(D, np.nan), np.zeros(D, complex)][int(rng.integers(4))]
        rejects(lambda: e.step(bad), lambda: aec_snapshot(e), ValueError)
        e.step(rng.uniform(-1, 1, D).astype(np.float32))


# ----------------------------------------------------------------------------- item 10: reset
BAD_OPTIONS = [
    {"phase": "no_such_phase"},
    {"balls": {1: (0.5, 0.5), 2: (0.5, 0.5)}},
    {"balls": {1: (np.nan, 0.5)}},
    {"no_such_key": 1},
    {"learner_seat": 5},
    {"seat_to_act": 7},
    {"scores": (1, 2, 3)},
    {"state": "not json"},
    {"extra": 5},
    {"cue_placed": "yes"},
    {"inning": -1},
    {"phase": "option"},
    {"balls": {1: (0.5, 1.5, 0.1)}},
]


@pytest.mark.parametrize("options", BAD_OPTIONS, ids=lambda o: f"{next(iter(o))}-{BAD_OPTIONS.index(o)}")
def test_failed_reset_leaves_the_env_as_it_was(options):
    """Item 10 reproducer: ``reset(seed, options)`` with bad options raises and leaves the env
    exactly as before -- its RNG not re-seeded; the next plain reset continues as if the failed
    call had not happened."""
    a, b = nine_ball(), nine_ball()
    for env in (a, b):
        env.reset(seed=4)
        env.step(np.zeros(env.action_space.shape, np.float32))
    rejects(lambda: a.reset(seed=123, options=options), lambda: env_snapshot(a), (ValueError, TypeError))
    assert pickle.dumps(a.reset()) == pickle.dumps(b.reset())


def test_failed_reset_randomised_single_and_vector():
    """Item 10, randomised: random seeds with bad options never change a single or vector
    env (a vector reset checks every table before resetting any)."""
    rng = np.random.default_rng(10)
    u = nine_ball()
    u.reset(seed=0)
    v = _vec("box", n=3)
    v.reset(seed=0)
    for _ in range(8):
        options = BAD_OPTIONS[int(rng.integers(len(BAD_OPTIONS)))]
        seed = int(rng.integers(2**31))
        rejects(lambda: u.reset(seed=seed, options=options), lambda: env_snapshot(u), (ValueError, TypeError))
        rejects(lambda: v.reset(seed=seed, options=options), lambda: vec_snapshot(v), (ValueError, TypeError))
    rejects(lambda: v.reset(seed=[1, 2]), lambda: vec_snapshot(v), ValueError)
    rejects(lambda: u.reset(seed=-5), lambda: env_snapshot(u), Exception)


# ----------------------------------------------------------------------------- env-wide
def _rejected_inputs():
    """(name, make env, call that must be rejected, snapshot) for every API."""
    def single(mode="box"):
        u = nine_ball(action_mode=mode)
        u.reset(seed=2)
        return u

    def vec(mode="box"):
        v = _vec(mode, n=3)
        v.reset(seed=2)
        return v

    def aec():
        from poolgym.pettingzoo import env as aec_env

        e = aec_env("nine_ball", max_shots=10)
        e.reset(seed=2)
        return e

    D = nine_ball().action_space.shape[0]
    S = env_snapshot
    return [
        ("single complex", single, lambda u: u.step(np.zeros(D, complex)), S),
        ("single (1, D)", single, lambda u: u.step(np.zeros((1, D), np.float32)), S),
        ("single V0 > 50", single, lambda u: u.step_action([PlaceCueBall(0.6, 0.3), ShotAction(60.0, 0.0)]), S),
        ("single bad placement", single, lambda u: u.step_action([PlaceCueBall(-1.0, 0.3), ShotAction(2.0, 0.0)]),
         S),
        ("single shot before placing", single, lambda u: u.step_action(ShotAction(2.0, 0.0)), S),
        ("single bad reset", single, lambda u: u.reset(seed=9, options={"phase": "x"}), S),
        ("single macro float", lambda: single("macro"), lambda u: u.step(2.0), S),
        ("vector NaN", vec, lambda v: v.step(np.full((3, D), np.nan)), vec_snapshot),
        ("vector wrong rows", vec, lambda v: v.step(np.zeros((2, D))), vec_snapshot),
        ("vector bad reset", vec, lambda v: v.reset(seed=9, options={"balls": {1: (0.5, 0.5), 2: (0.5, 0.5)}}),
         vec_snapshot),
        ("pettingzoo None", aec, lambda e: e.step(None), aec_snapshot),
        ("pettingzoo complex", aec, lambda e: e.step(np.zeros(D, complex)), aec_snapshot),
    ]


@pytest.mark.parametrize("case", _rejected_inputs(), ids=lambda c: c[0])
def test_every_rejected_input_leaves_every_env_byte_identical(case):
    """Env-wide: after each rejected input the env's snapshot (state, session, RNGs, last
    step's log, buffers) is byte-identical to before, and the env still plays on."""
    _, make, call, snap = case
    env = make()
    rejects(lambda: call(env), lambda: snap(env), (ValueError, RuntimeError, TypeError))


def test_rules_state_is_unchanged_by_rejected_actions():
    """Env-wide, rules API: a rejected action leaves the (immutable) state's JSON unchanged."""
    D = get_discipline("nine_ball")
    st = D.initial_state(None, seed=0)
    before = st.to_json()
    for bad in (ShotAction(60.0, 0.0), PlaceCueBall(0.6, 2.0), ShotAction(2.0, 0.0, a=0.8, b=0.8)):
        with pytest.raises(IllegalActionError):
            D.apply(st, bad)
        assert st.to_json() == before


def test_pool_env_step_before_reset_is_a_clear_error():
    """`PoolEnv.step` before `reset` raises RuntimeError (not an AttributeError)."""
    u = PoolEnv("nine_ball")
    with pytest.raises(RuntimeError, match="reset"):
        u.step(np.zeros(u.action_space.shape, np.float32))
