"""N-seat games in the envs (issue 14 "The environments and agents"): checkers at the smallest
and largest seat count, privacy of every seat's observation / info / frame, declarations as
masked actions, per-seat results, single vs native vector env, a solo game."""

import warnings

import gymnasium as gym
import numpy as np
import pytest

from poolgym.envs.disciplines import SEATED_IDS, seat_edges
from poolgym.rules.core import CueBallPlacement, Declaration, Phase
from poolgym.rules.testing import perturb_secrets

from .conftest import assert_vector_matches_single, gym_check_env, sb3_check_env

#: (env id, discipline, seat count) at the smallest and the largest N each game allows
EDGES = [(env_id, disc, n) for env_id, disc in SEATED_IDS.items() for n in seat_edges(disc)]


def _edge_id(p):
    return f"{p[1]}-{p[2]}"


@pytest.mark.parametrize("mode", ["box", "macro"])
@pytest.mark.parametrize("case", EDGES, ids=_edge_id)
def test_gymnasium_check_env_seated(case, mode):
    env_id, _, n = case
    gym_check_env(env_id, players=n, action_mode=mode, max_shots=20)


@pytest.mark.parametrize("case", EDGES, ids=_edge_id)
def test_sb3_check_env_seated(case):
    env_id, _, n = case
    sb3_check_env(env_id, players=n, max_shots=20)


@pytest.mark.parametrize("mode", ["box", "macro"])
@pytest.mark.parametrize("case", EDGES, ids=_edge_id)
def test_pettingzoo_api_and_seed_seated(case, mode):
    from pettingzoo.test import api_test, seed_test

    from poolgym.pettingzoo import DISCIPLINES, env

    _, disc, n = case
    assert disc in DISCIPLINES
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about Dict observations (action masks)
        e = env(disc, players=n, action_mode=mode, max_shots=10)
        assert e.possible_agents == [f"player_{k}" for k in range(n)]
        api_test(e, num_cycles=10)
        seed_test(lambda: env(disc, players=n, action_mode=mode, max_shots=10), num_cycles=10)


def test_players_argument_is_checked():
    with pytest.raises(ValueError, match="players"):
        gym.make("poolgym/PeaPool-v0", players=1)
    with pytest.raises(ValueError, match="players"):
        gym.make("poolgym/PeaPool-v0", players=16)
    with pytest.raises(ValueError, match="contradicts"):
        gym.make("poolgym/PeaPool-v0", players=3, rules={"n_players": 4})
    env = gym.make("poolgym/PeaPool-v0", players=5)
    assert env.unwrapped.config.n_players == 5


def _decision_states(discipline, n, seed, count, rules=None):
    """States of a seeded game under the real physics where some seat is to act (every
    `count`-th decision), played by `poolgym.rules.testing.random_action`."""
    from poolgym.rules.game import get_discipline
    from poolgym.rules.testing import random_action

    d = get_discipline(discipline)
    cfg = d.config_cls(n_players=n, **(rules or {}))
    st = d.initial_state(cfg, seed)
    rng = np.random.default_rng(seed)
    out = []
    for k in range(400):
        if st.phase is Phase.GAME_OVER or len(out) >= count:
            break
        if k % 3 == 0 or st.phase is Phase.DECLARE:
            out.append(st)
        st, _ = d.apply(st, random_action(st, rng))
    return out


def _own_secret_changed(private):
    """A different secret of the same kind naming other balls (a pea, a hand)."""
    if hasattr(private, "number"):
        return type(private)(private.number % 15 + 1)
    return type(private)(tuple(sorted((c + 4) % 52 for c in private.cards)))


#: games with secrets (env id, discipline, seats, rules)
SECRET_CASES = [
    ("poolgym/PeaPool-v0", "pea_pool", 4, None),
    ("poolgym/PeaPool-v0", "pea_pool", 4, {"variant_points": True, "auto_declare": False}),
    ("poolgym/FortyOne-v0", "forty_one", 5, {"auto_declare": False}),
    ("poolgym/CardBall-v0", "card_ball", 4, None),
]


@pytest.mark.parametrize("env_id, discipline, n, rules", SECRET_CASES)
def test_privacy_single_env_obs_info_frame_byte_identical(env_id, discipline, n, rules):
    """Issue 14 framework 2: every other seat's secret (and the hidden chance state, the RNG
    seed) changed -> the learner's observation, info, action mask and rgb frame are
    byte-identical; its own secret changed -> the observation changes."""
    env = gym.make(env_id, players=n, render_mode="rgb_array", rules=rules, action_mode="macro").unwrapped
    states = _decision_states(discipline, n, 3, 8, rules)
    assert len(states) >= 4
    for st in states:
        seat = st.seat_to_act
        outs = []
        for s in (st, perturb_secrets(st, seat)):
            obs, info = env.reset(seed=0, options={"state": s, "learner_seat": seat})
            outs.append((obs.tobytes(), repr(info), env.render().tobytes(), env.action_masks().tobytes()))
        assert outs[0] == outs[1], f"seat {seat} sees another seat's secret"
        mine = st.replace(private=tuple(_own_secret_changed(p) if k == seat else p for k, p in enumerate(st.private)))
        obs2, _ = env.reset(seed=0, options={"state": mine, "learner_seat": seat})
        assert obs2.tobytes() != outs[0][0]


@pytest.mark.parametrize("discipline, n", [("pea_pool", 5), ("card_ball", 3)])
def test_privacy_pettingzoo_every_agent(discipline, n):
    """The same for every agent of the AEC env: each agent's observation (and the acting
    agent's frame) is unchanged when every other seat's secrets change."""
    from poolgym.pettingzoo import env as pz_env

    e = pz_env(discipline, players=n, action_mode="macro", render_mode="rgb_array")
    for st in _decision_states(discipline, n, 5, 5):
        for seat in range(n):
            agent = f"player_{seat}"
            outs = []
            for s in (st, perturb_secrets(st, seat)):
                e.reset(seed=0, options={"state": s})
                o = e.observe(agent)
                frame = e.render().tobytes() if seat == st.seat_to_act else b""
                outs.append((o["observation"].tobytes(), o["action_mask"].tobytes(), repr(e.infos[agent]), frame,
                             e.state().tobytes() if seat == st.seat_to_act else b""))
            assert outs[0] == outs[1], f"{agent} sees another seat's secret"


def _declare_state(learner):
    """PP-7V with manual announcements: seat 0 legally pocketed ``learner``'s pea ball; the
    learner's window is open (ANNOUNCE_OWN_BALL or PASS)."""
    from poolgym.rules.game import get_discipline
    from poolgym.rules.games.pea_pool import PeaPoolConfig

    d = get_discipline("pea_pool")
    st = d.initial_state(PeaPoolConfig(n_players=3, variant_points=True, auto_declare=False), 0)
    ex = st.extra.__class__(owed=((learner, 0),))
    return st.replace(phase=Phase.DECLARE, seat_to_act=learner, pending=(2, 0), extra=ex, cue_ball=st.cue_ball)


@pytest.mark.rule("PP-7")
def test_declaration_is_a_masked_action_in_its_window_PP_7V():
    """PP-7V: the owner announces his pocketed pea ball (takes 1 point off instead of 2 and
    stays in); the declarations are masked outside the window."""
    from poolgym.envs.seating import DECL_INDEX

    env = gym.make("poolgym/PeaPool-v0", players=3, action_mode="macro",
                   rules={"variant_points": True, "auto_declare": False}, opponent=None).unwrapped
    obs, info = env.reset(seed=0, options={"state": _declare_state(1), "learner_seat": 1})
    m = env.action_masks()
    c = env.codec
    open_ = {Declaration(c.macro_table[i].declaration) for i in np.flatnonzero(m)}
    assert open_ == {Declaration.ANNOUNCE_OWN_BALL, Declaration.PASS}
    blk = c.common_size + c.N  # the seat block's declaration mask
    assert obs[blk + DECL_INDEX[Declaration.ANNOUNCE_OWN_BALL]] == 1.0
    obs, r, term, trunc, info = env.step(c.macro_decl0 + DECL_INDEX[Declaration.ANNOUNCE_OWN_BALL])
    v = info["verdicts"][0]
    assert v["seat"] == 1 and v["points"] == (1, -1, 0) and v["rule_refs"] == ("PP-7V",)
    assert env.state.active in ((), (True, True, True))
    # next window (seat 2, nothing owed): PASS only; then play resumes with seat 0 and no
    # declaration is open any more
    assert env.state.seat_to_act == 2 and env.legal_actions().declarations == (Declaration.PASS,)
    env.step(c.macro_decl0 + DECL_INDEX[Declaration.PASS])
    assert env.state.phase is Phase.PLAY and env.state.seat_to_act == 0
    assert not env.action_masks()[c.macro_decl0:].any()


@pytest.mark.rule("PP-7")
def test_box_declaration_and_failing_to_announce_PP_7V():
    """Box mode: the masked argmax of the declaration scores in the window; passing when the
    own ball was pocketed disqualifies the seat and costs 2 points (PP-7V)."""
    env = gym.make("poolgym/PeaPool-v0", players=3, rules={"variant_points": True, "auto_declare": False},
                   opponent=None).unwrapped
    env.reset(seed=0, options={"state": _declare_state(1), "learner_seat": 1})
    a = np.zeros(env.action_space.shape, np.float32)
    a[env.codec.decl0 + list(Declaration).index(Declaration.PASS)] = 1.0
    a[env.codec.decl0 + list(Declaration).index(Declaration.CLAIM_41)] = 1.0  # not open: ignored
    _, _, _, _, info = env.step(a)
    v = info["verdicts"][0]
    assert v["points"] == (2, -2, 0)
    assert env.state.active == (True, False, True)


@pytest.mark.rule("41-9", "41-9.6")
def test_claim_41_is_an_action_in_the_shooters_window_41_9_6():
    """41-9.6 (auto_declare off): with points + pea = 41 the shooter's window offers CLAIM_41
    (and PASS); claiming wins; an unclaimed 41 is offered again beside his next shot."""
    from poolgym.envs.seating import DECL_INDEX
    from poolgym.rules.game import get_discipline
    from poolgym.rules.games.forty_one import FortyOneConfig

    d = get_discipline("forty_one")
    st = d.initial_state(FortyOneConfig(n_players=3, auto_declare=False), 0)
    pea = st.private[1].number
    st = st.replace(phase=Phase.DECLARE, seat_to_act=1, pending=(2,), scores=(0, 41 - pea, 0),
                    cue_ball=st.cue_ball)
    env = gym.make("poolgym/FortyOne-v0", players=3, action_mode="macro", rules={"auto_declare": False}).unwrapped
    env.reset(seed=0, options={"state": st, "learner_seat": 1})
    c = env.codec
    assert set(np.flatnonzero(env.action_masks())) == {c.macro_decl0 + DECL_INDEX[Declaration.CLAIM_41],
                                                       c.macro_decl0 + DECL_INDEX[Declaration.PASS]}
    _, r, term, _, info = env.step(c.macro_decl0 + DECL_INDEX[Declaration.CLAIM_41])
    assert term and r == 1.0 and info["winner"] == 1
    # beside the shot at his next turn (Box: taken only with a score > 0.5)
    late = st.replace(phase=Phase.PLAY, pending=(), cue_ball=CueBallPlacement.IN_POSITION,
                      on_table=(True,) + st.on_table[1:])  # cue ball on the head spot
    env2 = gym.make("poolgym/FortyOne-v0", players=3, rules={"auto_declare": False}, opponent=None).unwrapped
    env2.reset(seed=0, options={"state": late, "learner_seat": 1})
    assert env2.legal_actions().declarations == (Declaration.CLAIM_41,) and env2.legal_actions().can_shoot
    a = np.zeros(env2.action_space.shape, np.float32)
    a[env2.codec.decl0 + DECL_INDEX[Declaration.CLAIM_41]] = 0.9
    _, r, term, _, _ = env2.step(a)
    assert term and env2.state.winner == 1


def test_opponents_decide_from_their_own_view_and_rewards_are_the_rules_returns():
    """Every opponent seat is handed `observe(state, seat)` (no other seat's pea); the final
    reward is the rules' per-seat result of the learner's seat."""
    from poolgym.envs.seating import seat_returns

    seen = []

    def spy(state, spec, rng):
        seen.append((state.seat_to_act, state.private, state.hidden, state.rng))
        from poolgym.envs.opponents import GeometricOpponent

        return GeometricOpponent()(state, spec, rng)

    env = gym.make("poolgym/PeaPool-v0", players=4, opponent=spy, max_shots=60, learner_seat=2).unwrapped
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(40):
        _, r, term, trunc, _ = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        if term or trunc:
            break
    assert seen
    for seat, priv, hidden, rng_ in seen:
        assert seat != 2 and hidden is None and rng_ == ()
        assert all(p is None for k, p in enumerate(priv) if k != seat) and priv[seat] is not None
    if term:
        assert r == seat_returns(env.disc, env.state)[2]


@pytest.mark.parametrize("kwargs", [
    {"players": 3, "max_shots": 25, "noise": "icga", "learner_seat": "random"},
    {"players": 6, "max_shots": 25, "action_mode": "macro"},
    {"players": 4, "max_shots": 20, "opponent": None, "rules": {"variant_points": True, "auto_declare": False}},
])
def test_native_vector_matches_single_envs_seated(kwargs):
    assert_vector_matches_single("poolgym/PeaPool-v0", kwargs, n=3, seed=11, steps=15)


@pytest.mark.parametrize("env_id", ["poolgym/NineBall-v0", "poolgym/EightBall-v0", "poolgym/StraightPool-v0",
                                    "poolgym/NineBallRunout-v0", "poolgym/PotDrill-v0", "poolgym/BreakDrill-v0"])
def test_wpa_and_drill_spaces_have_no_seat_block(env_id):
    """The WPA games and the drills are not seated: no seat block, no declaration actions, the
    observation as the codec without seats encodes it (what agents.sb3 builds)."""
    from poolgym.envs.codec import Codec

    env = gym.make(env_id).unwrapped
    assert not env.seated and env.codec.seats is None
    assert env.codec.box_size == env.codec.decl0
    assert all(e.kind != "declare" for e in env.codec.macro_table)
    plain = Codec(env.disc.n_balls, env.config.n_players, env.table, max_shots=env.max_shots)
    assert env.observation_space.shape == (plain.obs_size,)


@pytest.mark.parametrize("env_id", sorted(SEATED_IDS))
def test_make_vec_for_every_seated_id(env_id):
    lo, hi = seat_edges(SEATED_IDS[env_id])
    venv = gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point", players=hi, max_shots=6)
    obs, info = venv.reset(seed=0)
    assert obs.shape == (2,) + venv.single_observation_space.shape
    obs, rew, term, trunc, info = venv.step(venv.action_space.sample())
    assert venv.observation_space.contains(obs)
    venv.close()


@pytest.mark.parametrize("discipline, n", [("odd_ball", 4), ("cutthroat", 5), ("forty_one", 3), ("card_ball", 4)])
def test_batched_seat_block_equals_the_single_encoder(discipline, n):
    """`Codec.encode_batch` (array seat block) == `Codec.encode` table by table, for every
    seat of states from seeded games (teams, eliminated seats, secrets, declarations)."""
    from poolgym.envs.pool_env import PoolEnv
    from poolgym.envs.seating import seat_view

    rules = {"auto_declare": False} if discipline == "forty_one" else None
    env = PoolEnv(discipline, players=n, rules=rules)
    d = env.disc
    states = _decision_states(discipline, n, 9, 12, rules)
    rows, args = [], []
    for st in states:
        for seat in range(n):
            view, sec = seat_view(st, seat)
            spec = d.legal_actions(st)
            rows.append(env.codec.encode(view, spec, seat, 3, secret=sec))
            args.append((view, spec, seat, sec))
    for _ in range(2):  # the second time with the secrets' balls memoised
        out = np.zeros((len(args), env.codec.obs_size), np.float32)
        env.codec.encode_batch([a[0] for a in args], [a[1] for a in args], [a[2] for a in args], [3] * len(args),
                               out, secrets=[a[3] for a in args])
        assert out.tobytes() == np.stack(rows).tobytes()  # bit for bit: no -0.0 for a +0.0


@pytest.mark.rule("MM-2", "MM-8")
def test_mr_and_mrs_handicaps_are_in_the_observation():
    """MM-2 / MM-8: every seat's public handicap is in the learner's observation (observer
    first: +1 stronger, -1 weaker, 0 no seat), not only in the mask -- swapping the
    handicaps changes the observation of a state where the mask is the same."""
    from poolgym.rules.games.mr_and_mrs import Skill

    S, W = Skill.STRONGER, Skill.WEAKER
    obs = {}
    for skill in ((S, W, S), (S, S, W)):
        env = gym.make("poolgym/MrAndMrs-v0", players=3, rules={"skill": skill}).unwrapped
        o, _ = env.reset(seed=4)
        k = env.codec.score0
        obs[skill] = o[k : k + 6]
        env.close()
    # the learner is seat 0 (the breaker); observer first, then seats 1 and 2
    np.testing.assert_array_equal(obs[(S, W, S)], [1, -1, 1, 0, 0, 0])
    np.testing.assert_array_equal(obs[(S, S, W)], [1, 1, -1, 0, 0, 0])


@pytest.mark.rule("CB-8")
@pytest.mark.parametrize("public", [False, True])
def test_card_ball_public_hands_are_encoded_only_when_public_C_33(public):
    """C-33: with ``public_hands`` the ranks in the other seats' hands are in the learner's
    observation (a changed hand changes it, and the block decodes to the hands); without it
    the block is zeros and the observation is byte-identical when the others' hands change
    (the hidden hands never leak)."""
    from poolgym.rules.games.card_ball import rank

    n = 3
    env = gym.make("poolgym/CardBall-v0", players=n, rules={"public_hands": public}).unwrapped
    st = _decision_states("card_ball", n, 2, 1, {"public_hands": public})[0]
    seat = st.seat_to_act
    o1, _ = env.reset(seed=0, options={"state": st, "learner_seat": seat})
    others = st.replace(private=tuple(p if j == seat else _own_secret_changed(p) for j, p in enumerate(st.private)))
    o2, _ = env.reset(seed=0, options={"state": others, "learner_seat": seat})
    k = env.codec.score0
    np.testing.assert_allclose(o1[k : k + n], [c / 7 for c in (st.extra.card_counts[(seat + i) % n] for i in range(n))])
    hands = o1[k + 6 : k + 6 + 5 * 13].reshape(5, 13)
    if public:
        assert o1.tobytes() != o2.tobytes()
        for i in range(1, n):
            want = np.zeros(13)
            for c in st.private[(seat + i) % n].cards:
                want[rank(c) - 1] += 0.25
            np.testing.assert_allclose(hands[i - 1], want)
        assert not hands[n - 1 :].any()
    else:
        assert o1.tobytes() == o2.tobytes()
        assert not hands.any()
    env.close()


@pytest.mark.parametrize("points,teams,want", [
    ((2, -1, -1), (), (2.0, -1.0, -1.0)),          # a transfer: each seat's own points, once
    ((1, -1, 0), (), (1.0, -1.0, 0.0)),            # PP-7V: the shooter pays the owner
    ((3, 0), (), (1.5, -1.5)),                     # two seats: half the difference
    ((3, 0, 0), (), (2.0, -1.0, -1.0)),            # own minus the table mean
    ((1, 0, 1, 0), (0, 1, 0, 1), (0.5, -0.5, 0.5, -0.5)),  # teams hold the team's points
    ((7,), (), (7.0,)),                            # solo: own points
])
def test_points_shaping_is_the_advantage_over_the_table_mean(points, teams, want):
    """The "points" component (`points_advantage`): a side's change minus the mean over the
    sides; zero-sum over the sides, transfers counted once, solo = own points."""
    from poolgym.envs.seating import points_advantage

    got = tuple(points_advantage(points, teams, k) for k in range(len(points)))
    assert got == pytest.approx(want)
    if len(points) > 1:
        assert sum(got) == pytest.approx(0.0)


def test_two_seat_points_advantage_is_the_general_sum_bit_for_bit():
    """Two seats without teams (14.1): `points_advantage` is exactly the side-mean formula
    (each seat its own side, its change minus the mean of the two) and the general sum over
    sides, float for float."""
    from poolgym.envs.seating import points_advantage

    rng = np.random.default_rng(3)
    for p in [(1, 0), (0, -1), (-15, 0), (3, -2), (0, 0)] + [tuple(rng.integers(-20, 21, 2).tolist()) for _ in range(300)]:
        for seat in (0, 1):
            m0, m1 = (0.0 + float(p[0])) / 1, (0.0 + float(p[1])) / 1
            want = 0.0 if not any(p) else (m0, m1)[seat] - sum((m0, m1)) / 2
            got = points_advantage(p, (), seat)
            general = points_advantage(p, (0, 1), seat)  # the same sides, through the general sum
            assert type(got) is float and repr(got) == repr(want) == repr(general)


@pytest.mark.parametrize("env_id, n, rules", [
    ("poolgym/PeaPool-v0", 3, {"variant_points": True}),
    ("poolgym/OddBall-v0", 4, None),
    ("poolgym/StraightPool-v0", 2, None),
])
def test_shaped_points_sum_to_the_games_scoring(env_id, n, rules):
    """Summed over an episode the points reward is the learner's final score minus the mean
    of the sides' final scores (`points_advantage`): with transfers (PP-7V) exactly its own
    score, with two sides half the score difference."""
    kw = {"players": n} if n > 2 else {}
    env = gym.make(env_id, rules=rules, max_shots=40, reward={"points": 1.0, "result": 0.0}, **kw)
    u = env.unwrapped
    rng = np.random.default_rng(0)
    env.reset(seed=2)
    total = 0.0
    while True:
        _, r, term, trunc, info = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        total += r
        if term or trunc:
            break
    st = u.state
    me = info["learner_seat"]
    side = st.teams if st.teams else tuple(range(n))
    means = {t: np.mean([st.scores[k] for k in range(n) if side[k] == t]) for t in set(side)}
    want = means[side[me]] - np.mean(list(means.values()))
    if rules and rules.get("variant_points"):
        assert sum(st.scores) == 0 and want == pytest.approx(st.scores[me])
    assert any(st.scores), "the game scored nothing: pick another seed"
    assert total == pytest.approx(want)
    env.close()


def test_pettingzoo_disciplines_are_the_rules_registry():
    """`poolgym.pettingzoo.DISCIPLINES` is derived from the rules registry (no second list):
    every registered discipline has an AEC env, in the registry's order."""
    from poolgym.pettingzoo import DISCIPLINES, env
    from poolgym.rules.game import DISCIPLINES as RULES

    assert DISCIPLINES == tuple(RULES) and len(DISCIPLINES) == 15
    with pytest.raises(ValueError, match="discipline"):
        env("snooker")


_SIX = [("card_ball", 6, None), ("card_ball", 3, {"public_hands": True}), ("forty_one", 6, {"auto_declare": False}),
        ("pea_pool", 6, {"variant_points": True, "auto_declare": False}), ("cutthroat", 5, None),
        ("odd_ball", 4, None), ("mr_and_mrs", 6, None)]


@pytest.mark.parametrize("discipline, n, rules", _SIX)
def test_fast_views_and_memoised_specs_equal_the_plain_ones(discipline, n, rules):
    """The envs' hot path gives what the plain API gives, on states of seeded games: a
    seat's view (`DisciplineBase.view`) is `observe`'s state and secret (JSON byte for
    byte); the memoised `legal_actions` (BCA `spec_key`) equals the spec computed afresh,
    also where it is derived from another seat's spec (`spec_key_seat`);
    the batched score block equals the per-table one."""
    from poolgym.envs.pool_env import PoolEnv
    from poolgym.rules.game import get_discipline, observe

    d = get_discipline(discipline)
    env = PoolEnv(discipline, players=n, rules=rules)
    states = _decision_states(discipline, n, 5, 10, rules)
    assert states
    views, seats = [], []
    for st in states:
        assert d.legal_actions(st) == d._legal_actions(st)
        assert d.legal_actions(st) == d._legal_actions(st)  # the memo hit, too
        for other in range(n):  # the spec derived for another seat in the same position
            moved = st.replace(seat_to_act=other)
            d.__dict__.pop("_spec_cache", None)
            assert d.legal_actions(moved) == d._legal_actions(moved)
        for seat in range(n):
            view, own = d.view(st, seat)
            v = observe(st, seat)
            assert view.to_json() == v.state.to_json() and own == v.private
            views.append(view)
            seats.append(seat)
    block = env.codec.scores
    if block is not None:
        out = np.zeros((len(views), block.size), np.float32)
        block.encode_batch(views, seats, out, 0)
        for i, (view, seat) in enumerate(zip(views, seats)):
            row = np.zeros(block.size, np.float32)
            block.encode(view, seat, row, 0)
            np.testing.assert_array_equal(out[i], row)


@pytest.mark.parametrize("discipline, n", [("pea_pool", 6), ("cutthroat", 5), ("odd_ball", 4), ("mr_and_mrs", 6)])
def test_memoised_option_specs_equal_the_computed_spec(discipline, n):
    """In an OPTION phase (PP-8, PP-13, 41-13 naming balls, CT-8, OB-7, MM-7) the memoised
    `legal_actions` (BCA `spec_key`: phase, seat, options, `option_balls`) equals the spec
    computed afresh on every option state of seeded random games, one memo kept over all of
    them, for the seat to act and derived for every other seat."""
    from poolgym.rules.game import get_discipline
    from poolgym.rules.testing import random_action

    d = get_discipline(discipline)
    d.__dict__.pop("_spec_cache", None)
    d.__dict__.pop("_seatless_spec_cache", None)
    seen = 0
    for seed in range(6):
        st = d.initial_state(d.config_cls(n_players=n), seed)
        rng = np.random.default_rng(seed)
        for _ in range(150):
            if st.phase is Phase.GAME_OVER:
                break
            if st.phase is Phase.OPTION:
                seen += 1
                spec = d.legal_actions(st)
                assert spec == d._legal_actions(st)
                assert d.legal_actions(st) is spec
                for other in range(n):
                    moved = st.replace(seat_to_act=other)
                    assert d.legal_actions(moved) == d._legal_actions(moved)
            st, _ = d.apply(st, random_action(st, rng))
    assert seen >= 3


def test_memoised_option_specs_name_the_offered_balls():
    """41-13: the memoised OPTION spec of forty-one names the fouler's own pocketed balls
    (`option_balls`): two positions alike but for them get their own specs."""
    import dataclasses

    from poolgym.rules.core import Option
    from poolgym.rules.game import get_discipline

    d = get_discipline("forty_one")
    st = d.initial_state(d.config_cls(n_players=4), 3)
    specs = []
    for balls in [(2, 7), (5,), (2, 7)]:
        pocketed = ((),) * 2 + (balls,) + ((),)
        s = st.replace(phase=Phase.OPTION, seat_to_act=2, options=(Option.SPOT_PENALTY_BALL,),
                       extra=dataclasses.replace(st.extra, pocketed_by=pocketed))
        specs.append(d.legal_actions(s))
        assert specs[-1] == d._legal_actions(s) and specs[-1].spot_choices == tuple(sorted(balls))
    assert specs[0] is specs[2]


@pytest.mark.parametrize("env_id", ["poolgym/CardBall-v0", "poolgym/FortyOne-v0", "poolgym/CutThroat-v0",
                                    "poolgym/OddBall-v0", "poolgym/MrAndMrs-v0"])
def test_native_vector_matches_single_envs_every_seated_game(env_id):
    hi = seat_edges(SEATED_IDS[env_id])[1]
    assert_vector_matches_single(env_id, {"players": hi, "max_shots": 25, "opponent": None}, n=3, seed=5, steps=12)


def test_memoised_specs_follow_the_kitchen_spot_request():
    """C-10 / PP-9.3: with the cue ball in hand behind the head string the memoised spec
    (BCA `spec_key`) offers the kitchen spot request exactly when the lowest ball lies in
    the kitchen; positions alike but for that ball get their own specs, equal to the specs
    computed afresh."""
    from poolgym.rules.core import CueBallPlacement, Option
    from poolgym.rules.game import get_discipline
    from poolgym.rules.geometry import get_table

    d = get_discipline("pea_pool")
    st = d.initial_state(d.config_cls(n_players=4), 1)
    hs = float(get_table(st.config.table).head_string_y)
    specs = []
    for y in (hs + 0.3, hs - 0.2, hs + 0.3, hs - 0.25):
        pos = list(st.pos)
        pos[3] = y  # ball 1's y
        s = st.replace(phase=Phase.PLAY, cue_ball=CueBallPlacement.IN_HAND_KITCHEN, cue_placed=False,
                       on_table=(False,) + st.on_table[1:], pos=tuple(pos))
        spec = d.legal_actions(s)
        assert spec == d._legal_actions(s)
        assert (Option.SPOT_NEAREST_KITCHEN_BALL in spec.options) == (y < hs)
        specs.append(spec)
    assert specs[0] is specs[2] and specs[1] is specs[3] and specs[0] != specs[1]


def test_many_seats_before_the_learner_start_over_until_it_acts(monkeypatch):
    """Fifteen-seat six-ball with seat 6 breaking: nine seats shoot before the learner's seat 0
    and often run the six balls, so a reset starts new games until the learner has a decision
    (a fifth of these resets need more than 20); every episode of the single and the native
    vector env then starts with the learner to act, and the vector env steps on. A
    configuration in which the learner never acts stops at `PoolEnv.MAX_RESTARTS` with a
    clear error, in the single env and naming the table in the vector env."""
    from poolgym.envs.pool_env import PoolEnv

    kw = dict(players=15, rules={"first_breaker": 6}, noise="icga", action_mode="macro")
    env = gym.make("poolgym/SixBall-v0", **kw)
    u = env.unwrapped
    restarts = []
    for seed in range(12):
        env.reset(seed=seed)
        assert u.session.learner_to_act()
        restarts.append(u._restarts)
    assert max(restarts) > 20
    v = gym.make_vec("poolgym/SixBall-v0", num_envs=8, vectorization_mode="vector_entry_point", **kw)
    v.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(12):
        v.step(np.array([int(rng.choice(np.flatnonzero(m))) for m in v.action_masks()]))
    monkeypatch.setattr(PoolEnv, "MAX_RESTARTS", 1)
    seed = next(s for s, n in enumerate(restarts) if n > 1)
    with pytest.raises(RuntimeError, match="ended 1 games in a row before the learner's seat 0 could act"):
        env.reset(seed=seed)
    with pytest.raises(RuntimeError, match=r"table \d+: the other seats ended 1 games"):
        for s in range(4):
            v.reset(seed=s)
