"""The referee's hot-path shortcuts (vector envs) give exactly what the plain definitions give:
`general.after_shot` from a batch's precomputed rest state (`shot_facts.BatchFacts.rest`, G-3.11,
G-3.28, C-19) vs the per-record kernel, `game.physics_inputs` vs `make_rvw` + the motion
codes, and the private constructors of `Verdict` / `ActionSpec` / `ShotAction` / `PlaceCueBall` vs their dataclass ``__init__``
(9B-5.2 racks, 9B-5.1 target ball)."""

from types import SimpleNamespace

import numpy as np
import pytest

from poolgym.rules import general
from poolgym.rules.shot_facts import BatchFacts
from poolgym.rules.core import ActionSpec, CueBallPlacement, Phase, PlaceCueBall, ShotAction, Verdict
from poolgym.rules.game import make_rvw, physics_inputs
from poolgym.rules.geometry import ball_radius, get_table
from poolgym.rules.nine_ball import NineBall, NineBallConfig
from poolgym.rules.shot_record import Motion, ShotRecord

TABLE = get_table("9ft")
R = ball_radius()


def _batch(rng, B=300, N=10):
    """BatchResult-like arrays with random final positions (some balls touching or
    overlapping by up to 0.1 mm), pocketed, jumped and already-pocketed balls."""
    rvw1 = np.zeros((B, N, 3, 3))
    rvw1[:, :, 0, :2] = rng.uniform(0.1, 1.0, (B, N, 2))
    for k in range(0, B, 3):  # ball 2 frozen to (or overlapping) ball 1
        u = rng.normal(size=2)
        u /= np.hypot(*u)
        rvw1[k, 2, 0, :2] = rvw1[k, 1, 0, :2] + u * (2 * R + rng.uniform(-1e-4, 1e-9))
    pocket = np.where(rng.random((B, N)) < 0.15, rng.integers(0, 6, (B, N)), -1).astype(np.int8)
    s = np.where(pocket >= 0, int(Motion.POCKETED), int(Motion.STATIONARY)).astype(np.int8)
    s[(rng.random((B, N)) < 0.05) & (pocket < 0)] = int(Motion.OFF_TABLE)
    s0 = np.where(rng.random((B, N)) < 0.1, int(Motion.POCKETED), int(Motion.STATIONARY)).astype(np.int8)
    E = 1
    rvw0 = np.zeros_like(rvw1)
    rvw0[:, :, 0, :2] = rng.uniform(0.1, 1.0, (B, N, 2))  # differs from the final state
    return SimpleNamespace(rvw0=rvw0, s0=s0, rvw=rvw1, s=s, pocket=pocket, ev_t=np.zeros((B, E)),
                           ev_kind=np.zeros((B, E), np.int8), ev_i=np.zeros((B, E), np.int16),
                           ev_j=np.full((B, E), -1, np.int16), n_events=np.ones(B, np.int64),
                           cue_ball=np.zeros(B, np.int64), status=np.zeros(B, np.int64), shot=np.zeros((B, 5)))


@pytest.mark.parametrize("seed", [0, 1])
def test_after_shot_from_batch_rest_equals_per_record(seed):
    """G-3.11 / G-3.28 / C-19: positions and on-table mask after the stroke are the same
    whether read from the batch's precomputed rest state or computed per record."""
    batch = _batch(np.random.default_rng(seed))
    with_facts = ShotRecord.from_batch_all(batch, BatchFacts(batch, TABLE))
    plain = ShotRecord.from_batch_all(batch)
    separated = 0
    for a, b in zip(with_facts, plain):
        pa, oa = general.after_shot(None, a)
        pb, ob = general.after_shot(None, b)
        assert type(pa) is tuple and type(oa) is tuple
        assert pa == pb and oa == ob
        separated += pa != tuple(b.pos1.ravel().tolist())
    assert separated > 0  # the overlap-separation branch was exercised


def test_batch_records_equal_per_table_records():
    """`ShotRecord.from_batch_all` (fields sliced on first read) holds the same values as
    `ShotRecord.from_batch` table by table; replace, pickling and `record_to_obj` see them."""
    import dataclasses
    import pickle

    from poolgym.rules.shot_record import record_to_obj

    batch = _batch(np.random.default_rng(5), B=12)
    batch.n_events = np.arange(12) % 2  # rows of 0 and 1 valid events
    for k, rec in enumerate(ShotRecord.from_batch_all(batch)):
        ref = ShotRecord.from_batch(batch, k)
        for f in dataclasses.fields(ShotRecord):
            if f.name == "facts":
                continue
            x, y = getattr(rec, f.name), getattr(ref, f.name)
            assert (x is None and y is None) or (np.array_equal(x, y) and np.asarray(x).dtype == np.asarray(y).dtype), f.name
        assert record_to_obj(rec) == record_to_obj(ref)
        back = pickle.loads(pickle.dumps(rec))
        assert type(back) is ShotRecord and record_to_obj(back) == record_to_obj(ref)
        changed = dataclasses.replace(rec, status=2)
        assert changed.status == 2 and np.array_equal(changed.ev_t, ref.ev_t)


def test_physics_inputs_fast_path_equals_reference():
    """The strided fill of the physics state equals make_rvw + the STATIONARY / POCKETED codes."""
    d = NineBall()
    rng = np.random.default_rng(3)
    for seed in range(20):
        st = d.initial_state(NineBallConfig(), seed)
        on = tuple(bool(v) for v in rng.random(10) < 0.7)
        st = st.replace(on_table=on)
        rvw, s = physics_inputs(st)
        ref = make_rvw(st.positions(), R)
        ref_s = np.where(st.on_mask(), int(Motion.STATIONARY), int(Motion.POCKETED)).astype(np.int8)
        assert rvw.shape == ref.shape and rvw.dtype == ref.dtype and np.array_equal(rvw, ref)
        assert s.dtype == np.int8 and np.array_equal(s, ref_s)
        assert rvw.flags["C_CONTIGUOUS"] and rvw.flags["WRITEABLE"]


def test_fast_constructors_equal_dataclass_init():
    v = Verdict._fast(next_seat=1, fouls=(), rule_refs=("9B-5.1",), turn_continues=True)
    ref = Verdict(next_seat=1, rule_refs=("9B-5.1",), turn_continues=True)
    assert v == ref and hash(v) == hash(ref) and repr(v) == repr(ref) and vars(v) == vars(ref)
    d = NineBall()
    st = d.initial_state(NineBallConfig(), 7)
    spec = d.legal_actions(st)
    ref = ActionSpec(seat=0, phase=Phase.BREAK, can_shoot=False, place_cue=CueBallPlacement.IN_HAND_KITCHEN,
                     must_place=True, options=(), target_balls=(1,), push_out_allowed=False)
    assert spec == ref and hash(spec) == hash(ref) and list(vars(spec)) == list(vars(ref))
    a = ShotAction._fast(2.5, 91.0, 0.0, 0.1, -0.2, 3, 5, False, True)
    ref = ShotAction(V0=2.5, phi=91.0, theta=0.0, a=0.1, b=-0.2, called_ball=3, called_pocket=5, push_out=True)
    assert a == ref and hash(a) == hash(ref) and repr(a) == repr(ref) and list(vars(a)) == list(vars(ref))
    p, ref = PlaceCueBall._fast(0.5, 0.75), PlaceCueBall(0.5, 0.75)
    assert p == ref and hash(p) == hash(ref) and repr(p) == repr(ref) and vars(p) == vars(ref)


def test_nine_ball_rack_cache_gives_the_same_racks():
    """9B-5.2: the cached diamond gives the same rack as a fresh discipline object, and the
    cached slot array is not written to."""
    a, b = NineBall(), NineBall()
    for seed in range(10):
        sa = a.initial_state(NineBallConfig(), seed)
        a.initial_state(NineBallConfig(rack_gap=1e-4), seed)
        assert sa == b.initial_state(NineBallConfig(), seed)
        assert sa.pos[2:4] == tuple(float(v) for v in TABLE.foot_spot)  # the 1 on the foot spot


def _specs_of_random_play(d, cfg, rng, games: int, shot_for) -> list:
    """The specs met on ``games`` random games of discipline ``d`` with the real physics
    (options chosen at random, stalemate offers half the time, random placements, the shots
    ``shot_for(spec, rng)``), each checked against the spec computed afresh
    (`_legal_actions`) and memoised where the discipline gives a `spec_key`."""
    from poolgym.rules.core import ChooseOption, IllegalActionError, Option, PlaceCueBall

    specs = []
    for game in range(games):
        st = d.initial_state(cfg, game)
        for _ in range(40):
            spec = d.legal_actions(st)
            assert spec == d._legal_actions(st)
            assert d.legal_actions(st) is spec or d.spec_key(st) is None
            specs.append(spec)
            if st.phase is Phase.GAME_OVER:
                break
            if spec.phase is Phase.OPTION:
                st, _ = d.apply(st, ChooseOption(spec.options[int(rng.integers(len(spec.options)))]))
                continue
            if Option.OFFER_STALEMATE in spec.options and rng.random() < 0.5:
                st, _ = d.apply(st, ChooseOption(Option.OFFER_STALEMATE))
                continue
            if spec.must_place:
                for _ in range(50):
                    try:
                        st, _ = d.apply(st, PlaceCueBall(float(rng.uniform(0.1, 1.17)), float(rng.uniform(0.1, 0.6))))
                        break
                    except IllegalActionError:
                        continue
                continue
            st, _ = d.apply(st, shot_for(spec, rng))
    return specs


@pytest.mark.parametrize("kitchen_spot_request", [True, False])
def test_memoised_legal_actions_equal_the_computed_spec(kitchen_spot_request):
    """`DisciplineBase.legal_actions` memoised by `NineBall.spec_key` gives the spec computed
    afresh (`_legal_actions`) on every state of random nine-ball games with the real physics
    (break, fouls and ball in hand 9B-5.10, push-out option 9B-5.6, the 9B-5.1 lowest ball)."""
    from poolgym.rules.core import ShotAction

    def shot(spec, rng):
        return ShotAction(float(rng.uniform(1, 7)), float(rng.uniform(0, 360)),
                          push_out=bool(spec.push_out_allowed and rng.random() < 0.5))

    specs = _specs_of_random_play(NineBall(), NineBallConfig(kitchen_spot_request=kitchen_spot_request),
                                  np.random.default_rng(17), 4, shot)
    assert len({(sp.phase, sp.must_place, bool(sp.options), sp.push_out_allowed) for sp in specs}) >= 4


def test_memoised_eight_ball_specs_equal_the_computed_spec():
    """`EightBall.spec_key` (break, play and the OPTION phase's offers: 8B-4.5 illegal break,
    8B-4.8 the 8 on the break, 8B-4.21 stalemate offers) memoises the spec computed afresh,
    the seat changed where another seat met the same offer, on random games."""
    from poolgym.rules.core import ShotAction
    from poolgym.rules.eight_ball import EightBall, EightBallConfig

    def shot(spec, rng):
        called = spec.callable_balls[0] if spec.callable_balls else None
        return ShotAction(float(rng.uniform(1, 7)), float(rng.uniform(0, 360)), called_ball=called,
                          called_pocket=0 if called is not None else None)

    specs = _specs_of_random_play(EightBall(), EightBallConfig(stalemate_offer_innings=1),
                                  np.random.default_rng(23), 6, shot)
    assert len({sp.options for sp in specs if sp.phase is Phase.OPTION}) >= 2


@pytest.mark.parametrize("discipline, n", [("nine_ball", 2), ("eight_ball", 2), ("straight_pool", 2), ("card_ball", 6)])
def test_initial_state_is_the_dataclass_state(discipline, n):
    """`DisciplineBase.initial_state` (built without the dataclass ``__init__``) is the
    ``GameState(**fields)`` of its fields: equal, same field order, same JSON and pickle."""
    import dataclasses
    import pickle

    from poolgym.rules.core import GameState
    from poolgym.rules.game import _state, get_discipline

    d = get_discipline(discipline)
    cfg = d.config_cls(n_players=n)
    for seed in range(5):
        st = d.initial_state(cfg, seed)
        fields = {f.name: getattr(st, f.name) for f in dataclasses.fields(GameState)}
        ref = GameState(**fields)
        fast = _state(fields)
        for s in (st, fast):
            assert s == ref and list(vars(s)) == list(vars(ref))
            assert s.to_json() == ref.to_json() and pickle.dumps(s) == pickle.dumps(ref)
