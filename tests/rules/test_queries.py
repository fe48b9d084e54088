"""Shot-record queries (poolgym.rules.queries) on hand-built and simulated records."""
import numpy as np
import pytest

from poolgym.rules import queries as q
from poolgym.rules.geometry import Rail, ball_radius, get_table, segment_for_rail
from poolgym.rules.shot_record import EventKind, ShotRecord

T = get_table("9ft")
R = ball_radius()
BB, BC, PK = int(EventKind.BALL_BALL), int(EventKind.BALL_CUSHION), int(EventKind.POCKET)
FOOT = segment_for_rail(T, Rail.FOOT)
LEFT = segment_for_rail(T, Rail.LEFT, 0.6)
POS = np.array([[0.6, 0.5], [0.6, 1.5], [0.3, 1.8], [0.9, 1.9], [0.6, 2.2]])


def rec(events, **kw):
    return ShotRecord.build(POS, events, **kw)


def test_T_1_16_4_first_contact_and_split_hit():
    """T-1.16.4 / R-2.10: the first object ball; a split hit within eps goes to the legal ball."""
    r = rec([(0.1, BB, 0, 2), (0.10001, BB, 1, 0), (0.2, BB, 2, 3)])
    assert q.first_contact(r) == (2, pytest.approx(0.1))
    assert q.first_ball_hit(r, legal=(1,), split_eps=1e-4) == 1
    assert q.first_ball_hit(r, legal=(1,), split_eps=1e-6) == 2
    assert q.first_contact(rec([]))[0] is None


def test_G_3_19_rails_and_balls_to_rail():
    """G-3.19(b) / 9B-5.4: cushion contacts after the first contact; distinct object balls
    to a cushion (a ball twice counts once, the cue ball never)."""
    r = rec([(0.05, BC, 0, LEFT), (0.1, BB, 0, 1), (0.2, BC, 1, FOOT), (0.3, BC, 1, FOOT), (0.4, BC, 2, LEFT)])
    assert q.rails_after_first_contact(r, T, 0.1) == 3
    assert q.balls_to_rail(r, T).tolist() == [1, 2]
    assert q.is_kick(r, T)
    t, b, rails = q.cushion_events(r, T)
    assert rails.tolist() == [Rail.LEFT, Rail.FOOT, Rail.FOOT, Rail.LEFT]


def test_G_3_11_pockets_jumps_scratch():
    """G-3.11 / G-3.20 / G-3.28: pocketed balls with pockets, scratch, jumped balls."""
    r = rec([(0.1, BB, 0, 1)], pocketed={1: 2, 0: 5}, off_table=(3,))
    assert q.pocketed(r) == (1,) and q.pocketed_with_pockets(r) == {0: 5, 1: 2}
    assert q.cue_scratched(r) and q.jumped_off_table(r) == (3,) and not q.cue_off_table(r)
    assert q.any_pocketed(r)
    assert not q.any_pocketed(rec([], pocketed={0: 1}))


def test_bank_combination_carom():
    """Shot types: bank (object ball off a cushion into the pocket), combination (called
    ball first moved by another object ball), carom (kiss off another ball)."""
    bank = rec([(0.1, BB, 0, 1), (0.2, BC, 1, FOOT), (0.5, PK, 1, 2)], pocketed={1: 2})
    assert q.is_bank(bank, T, 1) and not q.is_combination(bank, 1)
    combo = rec([(0.1, BB, 0, 1), (0.2, BB, 1, 4)], pocketed={4: 2})
    assert q.is_combination(combo, 4) and not q.is_bank(combo, T, 4)
    carom = rec([(0.1, BB, 0, 1), (0.2, BB, 1, 3)], pocketed={1: 5})
    assert q.is_carom(carom, 1) and not q.is_carom(carom, 3)


def test_G_3_39_kitchen_crossing_heuristic_and_exact():
    """G-3.39: crossing the head string before the contact, from event positions if the
    record has them, else from cushions lying wholly beyond the head string."""
    hs = float(T.head_string_y)
    p = POS.copy()
    p[0] = (0.6, 0.3)
    p[1] = (0.3, 0.4)  # ball in the kitchen
    r = ShotRecord.build(p, [(0.05, BC, 0, FOOT), (0.1, BB, 0, 1)])
    assert q.cue_left_kitchen_before_contact(r, T, 0.1)
    r = ShotRecord.build(p, [(0.1, BB, 0, 1)])
    assert not q.cue_left_kitchen_before_contact(r, T, 0.1)
    xy = np.array([[0.6, 0.3], [0.6, hs + 0.2], [0.32, 0.45]])
    r = ShotRecord.build(p, [(0.05, 5, 0, -1), (0.1, BB, 0, 1)], ev_xy=xy)
    assert q.cue_left_kitchen_before_contact(r, T, 0.1)


def test_from_sim_real_physics():
    """ShotRecord.from_sim reads a physics.SimResult (contract fields)."""
    import physics

    rvw = np.zeros((3, 3, 3))
    rvw[0, 0] = (0.635, 0.5, R)
    rvw[1, 0] = (0.635, 1.5, R)
    rvw[2, 0] = (0.3, 2.0, R)
    res = physics.simulate(T, rvw, physics.Shot(V0=2.0, phi=90.0))
    r = ShotRecord.from_sim(res)
    assert q.first_ball_hit(r) == 1 and r.ev_kind[0] == int(EventKind.STRIKE)
    assert r.pos0.shape == (3, 2) and r.on0.all()


def test_G_3_39_kitchen_crossing_resimulated_with_physics():
    """G-3.39: with a simulated record (which carries the played shot) the cue ball's path
    before its first contact is re-simulated: a kick off the lower long rail beyond the
    head string that returns to a kitchen ball crosses; a direct backward shot does not."""
    from poolgym.rules.game import simulate_record
    from poolgym.rules.testing import make_state
    from poolgym.rules import Phase, CueBallPlacement, ShotAction
    hs = float(T.head_string_y)
    s = make_state("nine_ball", {1: (0.25, 0.3), 2: (1.0, 2.0)}, (0.9, 0.45), phase=Phase.PLAY,
                   cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    # aim at the left rail at y = 0.95 (beyond the head string): comes back down toward ball 1
    phi = float(np.degrees(np.arctan2(0.95 - 0.45, R - 0.9)))
    r = simulate_record(s, ShotAction(2.0, phi))
    first, t = q.first_contact(r)
    assert r.shot is not None
    assert q._cue_crossed_resimulated(r, T, t if first is not None else np.inf, hs) is True
    r = simulate_record(s, ShotAction(1.0, float(np.degrees(np.arctan2(0.3 - 0.45, 0.25 - 0.9)))))
    first, t = q.first_contact(r)
    assert first == 1 and not q.cue_left_kitchen_before_contact(r, T, t)


def test_shot_facts_agree_with_single_queries():
    """The one-pass ShotFacts (fast path) equals the single queries on simulated shots."""
    from poolgym.rules import Phase, ShotAction, get_discipline
    from poolgym.rules.game import simulate_record
    from poolgym.rules.testing import random_action

    d = get_discipline("nine_ball")
    n = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        s = d.initial_state(None, seed)
        while s.phase is not Phase.GAME_OVER:
            a = random_action(s, rng)
            if not isinstance(a, ShotAction):
                s, _ = d.apply(s, a)
                continue
            r = simulate_record(s, a)
            low = (s.lowest_ball(),)
            f = q.shot_facts(r, T, low, 1e-4)
            assert (f.first, f.t0) == q.first_contact(r, low, 1e-4) or (f.first is None and q.first_contact(r)[0] is None)
            assert f.pocketed == q.pocketed(r) and f.jumped == q.jumped_off_table(r)
            assert f.cue_pocketed == q.cue_scratched(r) and f.cue_off == q.cue_off_table(r)
            assert sorted(f.object_balls_to_rail()) == q.balls_to_rail(r, T).tolist()
            if f.first is not None:
                assert f.rails_after(f.t0) == q.rails_after_first_contact(r, T, f.t0)
            s, _ = d.apply_shot_record(s, a, r)
            n += 1
    assert n > 20
