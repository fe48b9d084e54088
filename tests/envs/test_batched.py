"""The native vector env's batched paths give exactly the per-table results: Box decoding
(`Codec.decode_box_batch` vs `Codec.decode_box`) and the geometric opponent
(`GeometricOpponent.decide_batch` vs one call per table), on positions from real games."""

import numpy as np
import pytest

from poolgym.envs.opponents import GeometricOpponent
from poolgym.envs.pool_env import PoolEnv
from poolgym.rules.core import CueBallPlacement, Phase, ShotAction


def _positions(discipline, n=40, seed=0):
    """(state, spec) pairs where a seat is to act, from random self-play with ball in hand
    (G-3.20 / 9B-5.10 after fouls) and in position."""
    env = PoolEnv(discipline, opponent=None, max_shots=30)
    rng = np.random.default_rng(seed)
    out = []
    env.reset(seed=seed)
    while len(out) < n:
        s = env.session
        out.append((s.state, s.spec))
        _, _, term, trunc, _ = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        if term or trunc:
            env.reset()
    return env, out


@pytest.mark.parametrize("discipline", ["nine_ball", "eight_ball"])
def test_decode_box_batch_equals_decode_box(discipline):
    env, pairs = _positions(discipline)
    rng = np.random.default_rng(1)
    acts = rng.uniform(-1.3, 1.3, (len(pairs), env.codec.box_size))
    states = [p[0] for p in pairs]
    specs = [p[1] for p in pairs]
    got = env.codec.decode_box_batch(acts, states, specs)
    ref = [env.codec.decode_box(a, st, sp) for a, st, sp in zip(acts, states, specs)]
    assert got == ref
    assert sum(st.cue_ball is not CueBallPlacement.IN_POSITION for st in states) >= 5  # placements exercised
    bad = acts.copy()
    bad[3, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        env.codec.decode_box_batch(bad, states, specs)


@pytest.mark.parametrize("discipline", ["nine_ball", "eight_ball"])
def test_small_batches_decode_and_encode_as_the_array_path(discipline, monkeypatch):
    """Batches of at most `codec.SMALL_BATCH` tables are decoded and encoded table by table:
    the same decisions, stroke rows (bit for bit, NaN where the decision ends without a shot)
    and observations as the array operations give the same tables."""
    import poolgym.envs.codec as codec

    env, pairs = _positions(discipline, n=40, seed=5)
    pairs = [p for p in pairs if p[1] is not None]
    rng = np.random.default_rng(2)
    acts = rng.uniform(-1.3, 1.3, (len(pairs), env.codec.box_size))
    states, specs = [p[0] for p in pairs], [p[1] for p in pairs]
    c = env.codec

    def run(lo, hi):
        rows = np.full((hi - lo, 5), 7.0)
        dec = c.decode_box_batch(acts[lo:hi], states[lo:hi], specs[lo:hi], rows_out=rows)
        obs = c.encode_batch(states[lo:hi], specs[lo:hi], [k % 2 for k in range(lo, hi)], list(range(lo, hi)),
                             np.full((hi - lo, c.obs_size), 7.0, np.float32))
        return dec, rows, obs

    small = [run(lo, min(lo + codec.SMALL_BATCH, len(pairs))) for lo in range(0, len(pairs), codec.SMALL_BATCH)]
    monkeypatch.setattr(codec, "SMALL_BATCH", 0)
    dec, rows, obs = run(0, len(pairs))
    assert [d for s in small for d in s[0]] == dec
    assert np.concatenate([s[1] for s in small]).tobytes() == rows.tobytes()
    assert np.concatenate([s[2] for s in small]).tobytes() == obs.tobytes()
    assert np.isnan(rows[:, 0]).sum() < len(rows) and sum(len(d) == 2 for d in dec) >= 3  # shots and placements


@pytest.mark.parametrize("discipline", ["nine_ball", "eight_ball"])
def test_geometric_decide_batch_equals_per_table_calls(discipline):
    env, pairs = _positions(discipline, n=60, seed=2)
    pairs = [(st, sp) for st, sp in pairs if sp is not None and st.phase is not Phase.GAME_OVER]
    opp = GeometricOpponent()
    rngs_a = [np.random.default_rng(k) for k in range(len(pairs))]
    rngs_b = [np.random.default_rng(k) for k in range(len(pairs))]
    got = opp.decide_batch([p[0] for p in pairs], [p[1] for p in pairs], rngs_a)
    ref = [GeometricOpponent()(st, sp, r) for (st, sp), r in zip(pairs, rngs_b)]
    assert got == ref
    assert [r.random() for r in rngs_a] == [r.random() for r in rngs_b]  # same draws consumed
    # every decision is legal for the rules
    for (st, sp), acts in zip(pairs, got):
        s = st
        for a in acts[:-1]:
            s, _ = env.disc.apply(s, a)
        if isinstance(acts[-1], ShotAction):
            env.disc.shot_inputs(s, acts[-1])  # raises IllegalActionError if illegal
        else:
            env.disc.apply(s, acts[-1])


@pytest.mark.parametrize("discipline", ["nine_ball", "eight_ball"])
def test_decide_batch_placed_states_are_the_rules_placements(discipline):
    """`GeometricOpponent.decide_batch`'s ``placed``: per table the state after its decision's
    placements (`DisciplineBase.place_checked`), None when it placed nothing; the session's
    plan of the decision with it equals the plan without it."""
    from poolgym.envs.session import Session
    from poolgym.rules.core import PlaceCueBall

    env, pairs = _positions(discipline, n=60, seed=2)
    pairs = [(st, sp) for st, sp in pairs if sp is not None and st.phase is not Phase.GAME_OVER]
    placed = []
    got = GeometricOpponent().decide_batch([p[0] for p in pairs], [p[1] for p in pairs],
                                           [np.random.default_rng(k) for k in range(len(pairs))], placed=placed)
    assert len(placed) == len(pairs) and sum(pl is not None for pl in placed) >= 5
    for (st, sp), acts, pl in zip(pairs, got, placed):
        s = st
        for a in acts:
            if isinstance(a, PlaceCueBall):
                s = env.disc.place_checked(s, a)
        assert pl is None if s is st else (pl.pos, pl.on_table, pl.cue_placed) == (s.pos, s.on_table, True)
        ses = Session(env.disc, st.config, None, st.seat_to_act, None, 100)
        ses.state = st
        plans = [ses.plan_common(list(acts), sp, True, pl), ses.plan_common(list(acts), sp, True)]
        a, b = [(p[0].pos, p[0].on_table, p[1], None if p[2] is None else (p[2][:2], p[2][4].tolist()), p[3])
                for p in plans]
        assert a == b


@pytest.mark.parametrize("discipline", ["nine_ball", "eight_ball", "straight_pool"])
def test_encode_batch_equals_encode(discipline):
    env, pairs = _positions(discipline, n=30, seed=4)
    states = [p[0] for p in pairs]
    specs = [p[1] for p in pairs]
    seats = [k % 2 for k in range(len(pairs))]  # the seat to act and the other seat
    shots = list(range(len(pairs)))
    out = np.full((len(pairs), env.codec.obs_size), 7.0, np.float32)
    got = env.codec.encode_batch(states, specs, seats, shots, out)
    ref = np.stack([env.codec.encode(st, sp, se, sh) for st, sp, se, sh in zip(states, specs, seats, shots)])
    assert got.tobytes() == ref.tobytes()  # bit for bit: no -0.0 for a +0.0
    assert got[:, 3 * env.codec.N : 4 * env.codec.N].any()  # masks exercised


def test_batched_placement_check_agrees_with_apply_G_3_16_G_3_22_9B_5_10():
    """`DisciplineBase.placement_errors` (one compiled call for all tables, used by the native
    vector env before `place_checked`) refuses exactly the placements `apply` refuses:
    kitchen (G-3.16), overlap (G-3.22), frozen (9B-5.10 option off), off the bed."""
    import numpy as np

    from poolgym.rules.core import IllegalActionError, PlaceCueBall
    from poolgym.rules.game import get_discipline

    d = get_discipline("nine_ball")
    rng = np.random.default_rng(0)
    states, acts = [], []
    for k in range(300):
        st = d.initial_state(seed=k)
        if k % 2:  # ball in hand anywhere after a foul
            st = st.replace(phase=type(st.phase).PLAY, cue_ball=type(st.cue_ball).IN_HAND_ANYWHERE)
        # half the spots near the rack, so that overlaps and frozen balls occur
        x = rng.uniform(-0.05, 1.32) if k % 3 else st.pos[2] + rng.uniform(-0.07, 0.07)
        y = rng.uniform(-0.05, 2.6) if k % 3 else st.pos[3] + rng.uniform(-0.07, 0.07)
        states.append(st)
        acts.append(PlaceCueBall(float(x), float(y)))
    errs = d.placement_errors(states, acts)
    # batches of at most `SMALL_PLACEMENT_BATCH` are checked one by one: the same messages
    assert [e for k in range(0, 300, 3) for e in d.placement_errors(states[k:k + 3], acts[k:k + 3])] == errs
    refused = 0
    for st, a, err in zip(states, acts, errs):
        try:
            d.apply(st, a)
            assert err is None
        except IllegalActionError as e:
            refused += 1
            assert err is not None and err in str(e)
            continue
        assert d.place_checked(st, a) == d.apply(st, a)[0]
    assert 50 < refused < 290  # both outcomes are exercised


def test_batched_geometric_placements_are_checked_by_the_rules_once(monkeypatch):
    """`GeometricOpponent.placements_checked`: its batched decisions' placements were checked
    by the rules (G-3.16, G-3.22, 9B-5.10), so the native vector env does not check them a
    second time; a subclass deciding otherwise is checked by the env as before."""
    import poolgym.rules.game as game
    from poolgym.envs.vector import PoolVectorEnv

    class Shaky(GeometricOpponent):
        def __call__(self, state, spec, rng):
            return super().__call__(state, spec, rng)

    assert GeometricOpponent().placements_checked() and not Shaky().placements_checked()
    calls = []
    real = game.DisciplineBase.placement_errors
    monkeypatch.setattr(game.DisciplineBase, "placement_errors",
                        lambda self, states, actions, **kw: calls.append(len(states)) or real(self, states, actions,
                                                                                             **kw))
    env = PoolVectorEnv("nine_ball", num_envs=4, opponent="geometric", physics={"overlap": False})
    env.reset(seed=3)
    seen = []
    real_round = PoolVectorEnv._placement_errors
    monkeypatch.setattr(PoolVectorEnv, "_placement_errors",
                        lambda self, disc, states, decisions, *a: seen.append(len(states)) or real_round(
                            self, disc, states, decisions, *a))
    for _ in range(12):  # a scratching learner hands the opponent ball in hand
        env.step(np.tile(np.array([[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] + [0.0] * (
            env.single_action_space.shape[0] - 7)], np.float32), (4, 1)))
    assert calls  # the opponent's own checks (and the learner's)
    n_learner = 12  # `_decode_all` checks the learner's placements once a step (when any)
    assert len(seen) <= n_learner  # the opponent's rounds add none
    env.close()


@pytest.mark.parametrize("rules", [{}, {"stalemate_offer_innings": 1}, {"kitchen_spot_request": True}])
def test_eight_ball_spec_memo_equals_the_computed_spec(rules):
    """`EightBall.spec_key`: the memoised `legal_actions` equals the spec computed afresh on
    every state of random games against the geometric opponent (8B-4.11 legal balls, the
    8B-4.20 call on the 8, the 8B-4.21 stalemate offer, GW-5 kitchen spot request)."""
    from poolgym.rules.core import Option
    from poolgym.rules.game import get_discipline

    d = get_discipline("eight_ball")
    d.__dict__.pop("_spec_cache", None)
    env = PoolEnv("eight_ball", opponent="geometric", rules=rules, max_shots=60)
    rng = np.random.default_rng(5)
    env.reset(seed=5)
    keyed = offers = 0
    for _ in range(150):
        st = env.session.state
        for s in (st, st.replace(seat_to_act=1 - st.seat_to_act)):
            spec = d.legal_actions(s)
            assert spec == d._legal_actions(s)
            if d.spec_key(s) is not None:
                keyed += 1
                assert d.legal_actions(s) is spec
            offers += Option.OFFER_STALEMATE in spec.options
        _, _, term, trunc, _ = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        if term or trunc:
            env.reset()
    assert keyed > 100
    if rules.get("stalemate_offer_innings") == 1:
        assert offers > 0


@pytest.mark.parametrize("rules", [{}, {"kitchen_spot_request": True}])
def test_straight_pool_spec_memo_equals_the_computed_spec(rules):
    """`StraightPool.spec_key`: the memoised `legal_actions` equals the spec computed afresh
    on every state of random games against the geometric opponent, for either seat
    (SP-6.7.1 any ball, SP-6.6 the break's optional call, GW-5 kitchen spot request)."""
    from poolgym.rules.game import get_discipline

    d = get_discipline("straight_pool")
    d.__dict__.pop("_spec_cache", None)
    env = PoolEnv("straight_pool", opponent="geometric", rules=rules, max_shots=60)
    rng = np.random.default_rng(6)
    env.reset(seed=6)
    keyed = 0
    for _ in range(150):
        st = env.session.state
        for s in (st, st.replace(seat_to_act=1 - st.seat_to_act)):
            spec = d.legal_actions(s)
            assert spec == d._legal_actions(s)
            if d.spec_key(s) is not None:
                keyed += 1
                assert d.legal_actions(s) is spec
        _, _, term, trunc, _ = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        if term or trunc:
            env.reset()
    assert keyed > 100


@pytest.mark.rule("SP-6.7.7")
@pytest.mark.parametrize("discipline", ["straight_pool", "eight_ball"])
def test_spec_memo_keys_the_kitchen_spot_request(discipline):
    """With the cue ball in hand behind the head string the GW-5 / SP-6.7.7 spot request
    depends on the positions: `StraightPool.spec_key` and `EightBall.spec_key` hold the
    request and its choices, so the memoised spec equals the computed one for layouts with
    the same balls on the table (every object ball in the kitchen, one beyond the head
    string, two equally near it), for either seat (the other seat's spec derived from the
    first, `spec_key_seat`), one memo kept over all of them."""
    from poolgym.rules.core import Option
    from poolgym.rules.game import get_discipline
    from poolgym.rules.testing import make_state

    d = get_discipline(discipline)
    d.__dict__.pop("_spec_cache", None)
    d.__dict__.pop("_seatless_spec_cache", None)
    cfg = d.config_cls(kitchen_spot_request=True)
    layouts = [{3: (0.3, 0.3), 4: (0.8, 0.5), 9: (1.1, 0.2)},   # all in the kitchen: 4 is spotted
               {3: (0.3, 0.3), 4: (0.8, 0.5), 9: (1.1, 2.0)},   # 9 beyond the head string: no request
               {3: (0.3, 0.5), 4: (0.8, 0.5), 9: (1.1, 0.2)}]   # 3 and 4 equally near: either
    want_choices = [(4,), (), (3, 4)]
    for balls, choices in zip(layouts, want_choices):
        st = make_state(discipline, balls, None, config=cfg, cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
        for seat in (0, 1):
            s = st.replace(seat_to_act=seat)
            assert d.spec_key(s) is not None
            spec = d.legal_actions(s)
            assert spec == d._legal_actions(s) and spec.seat == seat
            assert (Option.SPOT_NEAREST_KITCHEN_BALL in spec.options) == bool(choices)
            assert spec.spot_choices == choices
            assert d.legal_actions(s) is spec
