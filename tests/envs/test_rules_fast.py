"""The batched shot facts (`poolgym.rules.shot_facts`) agree exactly with the per-record
queries (`poolgym.rules.queries`), and the placement check (`poolgym.rules.placement`) with the
numpy oracle `tests/rules/placement_reference.py`, on many random inputs (G-3.22, 9B-5.10, G-3.16, T-1.16.4, G-3.19, G-3.20, G-3.28, 9B-5.4)."""

from types import SimpleNamespace

import numpy as np
import pytest

from poolgym.rules import placement, queries, shot_facts
from poolgym.rules.geometry import ball_radius, get_table, placement_error
from tests.rules.placement_reference import placement_error_reference as placement_ref
from poolgym.rules.shot_record import EventKind, Motion, ShotRecord

TABLE = get_table("9ft")
R = ball_radius()


def _random_batch(rng, B=400, N=10, E=40):
    """Synthetic BatchResult-like arrays: random event logs (ball-ball contacts with the cue
    ball and between object balls, cushion and jaw contacts, transitions, pockets), some
    contacts within a split-hit window."""
    n_events = rng.integers(0, E + 1, B)
    ev_t = np.zeros((B, E))
    ev_kind = np.zeros((B, E), np.int8)
    ev_i = np.zeros((B, E), np.int16)
    ev_j = np.zeros((B, E), np.int16)
    kinds = np.array([EventKind.BALL_BALL, EventKind.BALL_CUSHION, EventKind.BALL_JAW, EventKind.POCKET,
                      EventKind.SLIDING_ROLLING, EventKind.ROLLING_STATIONARY], np.int8)
    for k in range(B):
        n = n_events[k]
        t = np.sort(rng.uniform(0, 3, n))
        if n > 3 and rng.random() < 0.5:  # near-simultaneous contacts: split hits
            t[1:3] = t[1] + rng.uniform(0, 2e-4, 2)
            t.sort()
        ev_t[k, :n] = t
        for e in range(n):
            kind = kinds[rng.integers(len(kinds))]
            ev_kind[k, e] = kind
            i = rng.integers(0, N)
            if kind == EventKind.BALL_BALL:
                j = (i + rng.integers(1, N)) % N
                if rng.random() < 0.5:
                    i = 0
            elif kind == EventKind.BALL_CUSHION:
                j = rng.integers(0, len(TABLE.segments))
            elif kind == EventKind.BALL_JAW:
                j = rng.integers(0, len(TABLE.jaws))
            elif kind == EventKind.POCKET:
                j = rng.integers(0, 6)
            else:
                j = -1
            ev_i[k, e], ev_j[k, e] = i, j
    pocket = np.where(rng.random((B, N)) < 0.15, rng.integers(0, 6, (B, N)), -1).astype(np.int8)
    s = np.where(pocket >= 0, int(Motion.POCKETED), int(Motion.STATIONARY)).astype(np.int8)
    s[(rng.random((B, N)) < 0.05) & (pocket < 0)] = int(Motion.OFF_TABLE)
    rvw = np.zeros((B, N, 3, 3))
    rvw[:, :, 0, :2] = rng.uniform(0.1, 1.0, (B, N, 2))
    return SimpleNamespace(rvw0=rvw, s0=np.zeros((B, N), np.int8), rvw=rvw, s=s, pocket=pocket, ev_t=ev_t,
                           ev_kind=ev_kind, ev_i=ev_i, ev_j=ev_j, n_events=n_events,
                           status=np.zeros(B, np.int64), shot=np.zeros((B, 5)), cue_ball=np.zeros(B, np.int64))


def _check_against_queries(batch, legal, eps):
    bf = shot_facts.BatchFacts(batch, TABLE, legal, eps)
    recs = ShotRecord.from_batch_all(batch)
    assert len(bf) == len(recs)
    for k, rec in enumerate(recs):
        lg = legal[k]
        ref = queries.shot_facts(rec, TABLE, lg, eps)
        got = bf.facts(k)
        assert (got.first, got.t0) == (ref.first, ref.t0), k
        assert got.first == queries.first_ball_hit(rec, lg, eps)
        assert got.cue_pocketed == ref.cue_pocketed == queries.cue_scratched(rec)
        assert got.cue_off == ref.cue_off == queries.cue_off_table(rec)
        assert got.pocketed == ref.pocketed == queries.pocketed(rec)
        assert got.jumped == ref.jumped == queries.jumped_off_table(rec)
        assert got.cushions == ref.cushions
        t, b, r = queries.cushion_events(rec, TABLE)
        assert got.cushions == list(zip(t.tolist(), b.tolist(), r.tolist()))
        assert int(bf.rails_after[k]) == got.rails_after(got.t0) == \
            queries.rails_after_first_contact(rec, TABLE, ref.t0)
        assert bf.balls_to_rail(k).tolist() == queries.balls_to_rail(rec, TABLE).tolist()
        assert got.object_balls_to_rail() == ref.object_balls_to_rail()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_shot_facts_batch_matches_queries_on_random_logs(seed):
    """T-1.16.4 / R-2.10 split hits, G-3.19 rails after contact, G-3.20, G-3.28, 9B-5.4."""
    rng = np.random.default_rng(seed)
    batch = _random_batch(rng)
    B, N = batch.pocket.shape
    legal = [None if rng.random() < 0.3 else tuple(sorted(set(rng.integers(1, N, rng.integers(1, 4)).tolist())))
             for _ in range(B)]
    _check_against_queries(batch, legal, 1e-4)
    _check_against_queries(batch, [None] * B, 0.0)


def test_shot_facts_batch_matches_queries_on_physics_batch():
    """Real `physics.simulate_batch` records (nine-ball racks, random breaks)."""
    import physics

    from poolgym.rules.game import DISCIPLINES, physics_inputs

    disc = DISCIPLINES["nine_ball"]
    rng = np.random.default_rng(3)
    B = 24
    rvw, s = [], []
    for k in range(B):
        st = disc.initial_state(disc.config_cls(), k)
        pos = list(st.pos)
        pos[0], pos[1] = float(rng.uniform(0.2, 1.0)), 0.5
        on = list(st.on_table)
        on[0] = True
        r, ss = physics_inputs(st.replace(pos=tuple(pos), on_table=tuple(on)))
        rvw.append(r)
        s.append(ss)
    shots = np.column_stack([rng.uniform(1, 8, B), rng.uniform(0, 360, B), np.zeros((B, 3))])
    batch = physics.simulate_batch(TABLE, np.stack(rvw), shots, np.zeros(B, np.int64), s=np.stack(s),
                                   parallel=False)
    assert batch.n_events.max() > 5
    _check_against_queries(batch, [(1,)] * B, 1e-4)


def test_placement_errors_match_geometry_on_random_spots():
    """G-3.22 overlap, 9B-5.10 frozen, G-3.16 kitchen, on the bed: same verdict and message."""
    rng = np.random.default_rng(7)
    N, B = 10, 3000
    pos = rng.uniform(0, 1, (B, N, 2)) * [TABLE.w, TABLE.l]
    on = rng.random((B, N)) < 0.7
    xs = rng.uniform(-0.05, TABLE.w + 0.05, B)
    ys = rng.uniform(-0.05, TABLE.l + 0.05, B)
    # a third of the spots near a ball (overlap / frozen / just clear), some exactly frozen
    near = rng.random(B) < 0.35
    ang = rng.uniform(0, 2 * np.pi, B)
    dist = 2 * R + rng.choice([-1e-3, 0.0, 1e-10, 1e-3], B)
    xs[near] = pos[near, 1, 0] + dist[near] * np.cos(ang[near])
    ys[near] = pos[near, 1, 1] + dist[near] * np.sin(ang[near])
    on[near, 1] = True
    ys[:20] = np.nan
    kitchen = rng.random(B) < 0.3
    may_touch = rng.random(B) < 0.3
    got = placement.placement_errors(xs, ys, pos, on, TABLE, R, kitchen=kitchen, may_touch=may_touch)
    kinds = set()
    for k in range(B):
        ref = placement_ref(float(xs[k]), float(ys[k]), pos[k], on[k], TABLE, R, kitchen=bool(kitchen[k]),
                            may_touch=bool(may_touch[k]))
        assert got[k] == ref, (k, got[k], ref)
        if k < 300:  # the rules' public name runs the compiled path
            assert placement_error(float(xs[k]), float(ys[k]), pos[k], on[k], TABLE, R, kitchen=bool(kitchen[k]),
                                   may_touch=bool(may_touch[k])) == ref
        kinds.add(None if ref is None else ref.split(" ")[0])
        if k < 200:
            assert placement.placement_error(float(xs[k]), float(ys[k]), pos[k], on[k], TABLE, R,
                                             kitchen=bool(kitchen[k]), may_touch=bool(may_touch[k])) == ref
    assert {None, "overlaps", "frozen", "x"} <= kinds  # every verdict was exercised
    assert any(k is not None and k.startswith("y=") for k in kinds)  # kitchen (G-3.16)
    assert any(k is not None and k.startswith("(") for k in kinds)  # off the bed
    # spots over pockets / into cushions / jaws (on_bed): a stand-in table whose pocket circle,
    # cushion segment and jaw lie inside the bed so that every on_bed test is reached
    fake = SimpleNamespace(w=TABLE.w, l=TABLE.l, head_string_y=TABLE.head_string_y,
                           pockets=np.array([[0.3, 0.6, 0.06]]), segments=np.array([[[0.6, 0.8], [1.0, 1.2]]]),
                           jaws=np.array([[0.5, 1.8, 0.01]]))
    xs2 = rng.uniform(R, TABLE.w - R, 2000)
    ys2 = rng.uniform(R, TABLE.l - R, 2000)
    empty = np.zeros((2000, N), bool)
    got = placement.placement_errors(xs2, ys2, np.zeros((2000, N, 2)), empty, fake, R, kitchen=False, may_touch=False)
    ref = [placement_ref(float(x), float(y), np.zeros((N, 2)), empty[0], fake, R, kitchen=False,
                         may_touch=False) for x, y in zip(xs2, ys2)]
    assert got == ref
    assert sum(r is not None and r.startswith("not on the bed (touches") for r in ref) > 10


@pytest.mark.parametrize("seed", [5, 6])
def test_records_carrying_batch_facts_answer_shot_facts_like_plain_records(seed):
    """`queries.shot_facts` on records built with ``from_batch_all(batch, BatchFacts(...))``
    equals the scan of the same records without facts, for every legal set (the split hit,
    T-1.16.4, falls back to the scan)."""
    rng = np.random.default_rng(seed)
    batch = _random_batch(rng, B=300)
    B, N = batch.pocket.shape
    pre_legal = [None if k % 3 == 0 else (1 + k % (N - 1),) for k in range(B)]
    with_facts = ShotRecord.from_batch_all(batch, shot_facts.BatchFacts(batch, TABLE, pre_legal, 1e-4))
    plain = ShotRecord.from_batch_all(batch)
    assert all(r.facts is not None for r in with_facts) and all(r.facts is None for r in plain)
    used = 0
    for k in range(B):
        for legal in (None, (1,), (2, 3), tuple(range(1, N)), pre_legal[k]):
            a = queries.shot_facts(with_facts[k], TABLE, legal, 1e-4)
            b = queries.shot_facts(plain[k], TABLE, legal, 1e-4)
            assert (a.first, a.t0, a.cue_pocketed, a.cue_off, a.pocketed, a.jumped, a.cushions) == \
                (b.first, b.t0, b.cue_pocketed, b.cue_off, b.pocketed, b.jumped, b.cushions)
            if legal is not None and tuple(legal) == pre_legal[k]:
                used += with_facts[k].facts[0].lookup(k, TABLE, legal, 1e-4) is not None
    other = SimpleNamespace(**{k: getattr(TABLE, k) for k in ("w", "l", "segments", "jaws", "pockets")})
    for k in range(20):  # another table object: the precomputed facts are not used
        a = queries.shot_facts(with_facts[k], other, None, 0.0)
        b = queries.shot_facts(plain[k], other, None, 0.0)
        assert (a.first, a.cushions) == (b.first, b.cushions)
        used += 1
    assert used >= 20 + B // 2  # the precomputed legal set always answers
