"""Shot-type queries (poolgym.rules.queries: carom_sequence, kick, bank_cushions,
combination_chain; geometry.cushion_pockets) on REAL simulated shots whose outcome follows
from the geometry, and on hand-made records for the corner cases (CW-5 caroms, HO-6 bank /
combination / carom / kick, HO-7 kicks off a cushion connected with the called pocket)."""
import math

import numpy as np
import pytest

import physics
from poolgym.rules import queries as q
from poolgym.rules.geometry import Rail, ball_radius, cushion_pockets, get_table, segment_for_rail
from poolgym.rules.shot_record import EventKind, ShotRecord

T = get_table("9ft")
R = ball_radius()
LB, LC, LT, RB, RC, RT = range(6)


def simulate(balls, V0, phi, b=0.0, **models):
    """One real shot: ``balls`` {row: (x, y)} (row 0 the cue ball), centre hit unless ``b``."""
    n = max(balls) + 1
    rvw = np.zeros((n, 3, 3))
    s = np.full(n, 4, np.int8)
    for k, (x, y) in balls.items():
        rvw[k, 0] = (x, y, R)
        s[k] = 0
    res = physics.simulate(T, rvw, physics.Shot(V0=V0, phi=phi, b=b), s=s, **models)
    return ShotRecord.from_sim(res)


def unit(deg):
    return np.array([math.cos(math.radians(deg)), math.sin(math.radians(deg))])


def test_cushion_pockets_rail_sections_and_jaws():
    """HO-7: a rail section between two pockets is connected with both; a jaw piece with its
    own pocket only. The left rail section between lb and lc belongs to {lb, lc}; the foot
    rail section to {lt, rt}."""
    link = cushion_pockets(T)
    left_low = segment_for_rail(T, Rail.LEFT, 0.6)
    foot = segment_for_rail(T, Rail.FOOT)
    assert tuple(np.flatnonzero(link[left_low])) == (LB, LC)
    assert tuple(np.flatnonzero(link[foot])) == (LT, RT)
    n_seg = np.asarray(T.segments).reshape(-1, 2, 2).shape[0]
    assert link.shape == (n_seg + len(np.asarray(T.jaws).reshape(-1, 3)), 6)
    assert link.sum(axis=1).max() == 2 and link.sum(axis=1).min() == 1
    assert (link[n_seg:].sum(axis=1) == 1).all()  # rounded jaw tips: one pocket each


def test_kick_real_perpendicular_rebound_HO_7():
    """Kick (HO-6 абриколь): the cue ball at (0.3, 0.6) is shot straight at the left rail
    (phi = 180), rebounds perpendicular and hits the 1-ball on the same line. One cushion
    before the contact: the left rail section between lb and lc, so the kick is "connected"
    (HO-7) with lb and lc and not with the other pockets."""
    rec = simulate({0: (0.3, 0.6), 1: (0.9, 0.6)}, V0=2.0, phi=180.0)
    k = q.kick(rec, T)
    assert k.is_kick and q.is_kick(rec, T)
    assert k.rails == (int(Rail.LEFT),)
    assert k.pockets == ((LB, LC),)
    assert k.connected_with(LB) and k.connected_with(LC)
    assert not any(k.connected_with(p) for p in (LT, RB, RC, RT))
    assert q.carom_sequence(rec) == (1,)
    # without the rebound there is no kick
    direct = simulate({0: (0.3, 0.6), 1: (0.9, 0.6)}, V0=2.0, phi=0.0)
    assert not q.kick(direct, T).is_kick and q.kick(direct, T) == q.Kick()


def test_combination_real_collinear_into_corner():
    """Combination: cue ball, 1 and 2 on the line to the rt corner pocket; a centre hit along
    the line drives 1 into 2 and 2 into the pocket: chain (1, 2); 1 is moved by the cue ball
    (chain (1,)); no cushion for 2 (not a bank)."""
    c = np.array([0.4, 1.0])
    d = np.asarray(T.pockets)[RT, :2] - c
    u = d / np.linalg.norm(d)
    b1, b2 = c + 0.4 * u, c + 0.8 * u
    rec = simulate({0: tuple(c), 1: tuple(b1), 2: tuple(b2)}, V0=3.0, phi=math.degrees(math.atan2(u[1], u[0])))
    assert q.pocketed_with_pockets(rec).get(2) == RT
    assert q.combination_chain(rec, 2) == (1, 2) and q.is_combination(rec, 2)
    assert q.combination_chain(rec, 1) == (1,) and not q.is_combination(rec, 1)
    assert q.bank_cushions(rec, T, 2) == ()
    assert q.carom_sequence(rec)[0] == 1


def test_bank_real_one_rail_into_side_pocket():
    """Bank (HO-6 дуплет): the 1 at (0.9, 0.6) is driven at the mirror image of the lc side
    pocket across the right rail; the real cushion shortens the rebound, so the aim is 3.5 deg
    longer than the mirror line (the middle of the window 2.5..5 deg that pockets it). The 1
    drops in lc after one cushion, on the right rail: a bank, with that rail as its only
    cushion. Driven straight at rc instead it is not a bank."""
    lc = np.asarray(T.pockets)[LC, :2]
    ob = np.array([0.9, 0.6])
    mirror = np.array([2 * T.w - lc[0], lc[1]])
    phi = math.degrees(math.atan2(*(mirror - ob)[::-1])) + 3.5
    rec = simulate({0: tuple(ob - 0.3 * unit(phi)), 1: tuple(ob)}, V0=2.0, phi=phi)
    assert q.pocketed_with_pockets(rec) == {1: LC}
    cush = q.bank_cushions(rec, T, 1)
    assert len(cush) == 1
    link = cushion_pockets(T)
    assert tuple(np.flatnonzero(link[cush[0]])) == (RB, RC)  # the right rail section below rc
    assert q.is_bank(rec, T, 1)
    # straight in: the 1 on the line to rc
    rc = np.asarray(T.pockets)[RC, :2]
    ob2 = np.array([0.7, 1.27])
    phi2 = math.degrees(math.atan2(*(rc - ob2)[::-1]))
    rec2 = simulate({0: tuple(ob2 - 0.3 * unit(phi2)), 1: tuple(ob2)}, V0=2.0, phi=phi2)
    assert q.pocketed_with_pockets(rec2) == {1: RC}
    assert q.bank_cushions(rec2, T, 1) == ()
    assert q.combination_chain(rec2, 1) == (1,)


def test_carom_real_tangent_line_CW_5():
    """Carom (CW-5 "carom on two object balls"): a stun half-ball hit on the 1 sends the cue
    ball along the tangent line (90-degree rule, frictionless elastic balls, the cue ball
    still sliding), where the 2 waits 0.3 m away: the cue ball touches 1 then 2 (carom
    sequence (1, 2)); the 2 is moved by the cue ball, not by the 1 (no combination)."""
    c = np.array([0.3, 0.5])
    b1 = np.array([0.3 + R, 1.0])  # half-ball: centre offset R from the cue ball's line
    ghost = np.array([0.3, b1[1] - math.sqrt((2 * R) ** 2 - R ** 2)])
    n = (b1 - ghost) / np.linalg.norm(b1 - ghost)
    tang = np.array([-n[1], n[0]])
    tang = tang if tang[1] > 0 else -tang
    b2 = ghost + 0.3 * tang
    rec = simulate({0: tuple(c), 1: tuple(b1), 2: tuple(b2)}, V0=2.0, phi=90.0, ball_ball="frictionless_elastic")
    assert q.carom_sequence(rec) == (1, 2)
    assert q.combination_chain(rec, 2) == (2,)
    assert q.combination_chain(rec, 1) == (1,)


BB, BC, BJ, PK = (int(EventKind.BALL_BALL), int(EventKind.BALL_CUSHION), int(EventKind.BALL_JAW),
                  int(EventKind.POCKET))
POS = np.array([[0.6, 0.5], [0.6, 1.5], [0.3, 1.8], [0.9, 1.9], [0.6, 2.2]])


def test_hand_made_corner_cases():
    """Repeat contacts count once in a carom; a jaw of the pocket the ball drops in is not a
    bank, a rail section is; two cushions before the contact are never "connected" (HO-7);
    a chain that does not reach the cue ball is no combination."""
    left = segment_for_rail(T, Rail.LEFT, 0.6)
    foot = segment_for_rail(T, Rail.FOOT)
    rec = ShotRecord.build(POS, [(0.05, BC, 0, left), (0.06, BC, 0, foot), (0.1, BB, 0, 2), (0.2, BB, 0, 2),
                                 (0.3, BB, 0, 3), (0.35, BB, 3, 4), (0.4, BB, 0, 1)], pocketed={4: LT})
    assert q.carom_sequence(rec) == (2, 3, 1)
    k = q.kick(rec, T)
    assert len(k.cushions) == 2 and not k.connected_with(LB) and not k.connected_with(LT)
    assert q.combination_chain(rec, 4) == (3, 4)
    n_seg = np.asarray(T.segments).reshape(-1, 2, 2).shape[0]
    jaws = np.asarray(T.jaws).reshape(-1, 3)
    lt_jaw = int(np.argmin(np.linalg.norm(jaws[:, :2] - np.asarray(T.pockets)[LT, :2], axis=1)))
    rattle = ShotRecord.build(POS, [(0.1, BB, 0, 1), (0.2, BJ, 1, lt_jaw)], pocketed={1: LT})
    assert q.bank_cushions(rattle, T, 1) == ()
    banked = ShotRecord.build(POS, [(0.1, BB, 0, 1), (0.2, BC, 1, foot), (0.3, BJ, 1, lt_jaw)], pocketed={1: LT})
    assert q.bank_cushions(banked, T, 1) == (foot,)
    assert n_seg + lt_jaw < cushion_pockets(T).shape[0]
    orphan = ShotRecord.build(POS, [(0.1, BB, 2, 3)], pocketed={3: LT})
    assert q.combination_chain(orphan, 3) == () and q.combination_chain(orphan, 4) == ()
    assert q.pocket_time(banked, 1) == pytest.approx(banked.ev_t[-1]) and q.pocket_time(banked, 2) == math.inf
