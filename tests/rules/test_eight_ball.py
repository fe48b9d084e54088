"""Eight-ball scenario table (shared/rules/eight_ball.md, WPA 8B-4.x and the informal
INF1/INF2 variants). Every scenario names its rule ID(s) and asserts the referee's verdict
on a hand-built shot record (poolgym.rules.testing.record)."""
import numpy as np
import pytest

from poolgym.rules import (BreakOrder, ChooseOption, CueBallPlacement, FoulKind, GameState, IllegalActionError,
                           Option, Phase, PlaceCueBall, ShotAction)
from poolgym.rules.eight_ball import (EIGHT, BreakFoulCombination, EightBallConfig, EightBallExtra, EightOnBreak,
                                      Group, GroupAssignment, JumpedEightOnBreak, JumpedObjectBalls, LossReason,
                                      RackPattern, group_of, legal_object_balls, rack_order)
from poolgym.rules.game import get_discipline
from poolgym.rules.geometry import Rail, ball_radius, get_table, triangle_slots
from poolgym.rules.testing import make_state, record

D = get_discipline("eight_ball")
T = get_table("9ft")
R = ball_radius()
CFG = EightBallConfig()

# Mid-game layout: all 15 balls spread over the table away from the cushions.
POS = {k: (0.2 + 0.2175 * ((k - 1) % 5), 1.2 + 0.3 * ((k - 1) // 5)) for k in range(1, 16)}
CUE = (0.635, 0.9)
KITCHEN_XY = (0.635, 0.4)


def play(balls=None, cue=CUE, groups=(0, 0), config=CFG, **kw):
    """A PLAY position of eight-ball (default: all balls on, open table, seat 0)."""
    b = dict(POS) if balls is None else balls
    return make_state("eight_ball", b, cue, config=config, groups=groups, **kw)


def without(*balls):
    return {k: v for k, v in POS.items() if k not in balls}


def call(ball, pocket, **kw):
    return ShotAction(V0=3.0, phi=90.0, called_ball=ball, called_pocket=pocket, **kw)


SAFETY = ShotAction(V0=2.0, phi=45.0, safety=True)
BREAK = ShotAction(V0=8.0, phi=90.0)
NOCALL = ShotAction(V0=3.0, phi=90.0)


def ready_break(seed=0, config=CFG):
    s = D.initial_state(config, seed=seed)
    return D.apply(s, PlaceCueBall(*KITCHEN_XY))[0]


def apex(s):
    """Ball on the foot spot (slot 0) of a fresh rack."""
    P = s.positions()
    return int(np.argmin(np.hypot(P[1:, 0] - T.foot_spot[0], P[1:, 1] - T.foot_spot[1]))) + 1


def fouls(v):
    return [(f.kind, f.rule) for f in v.fouls]


def snapshot(s):
    return s.to_json()


# ============================================================================ rack
@pytest.mark.rule("8B-4.3")
@pytest.mark.parametrize("seed", range(6))
def test_8B_4_3_rack_wpa(seed):
    """8B-4.3 racking: 8 in the centre (middle of the third row), apex on the foot spot,
    a stripe and a solid in the back corners, tight triangle, 15 balls, cue in hand."""
    s = D.initial_state(CFG, seed=seed)
    slots = triangle_slots(T, R, CFG.rack_gap)
    P = s.positions()
    at = {int(np.argmin(np.hypot(slots[:, 0] - P[b, 0], slots[:, 1] - P[b, 1]))): b for b in range(1, 16)}
    assert sorted(at) == list(range(15))
    assert at[4] == EIGHT
    assert {group_of(at[10]), group_of(at[14])} == {Group.SOLIDS, Group.STRIPES}
    assert np.allclose(P[at[0]], T.foot_spot)
    for b in range(1, 16):  # tight: every ball touches a neighbour (gap rack_gap)
        d = np.hypot(P[1:, 0] - P[b, 0], P[1:, 1] - P[b, 1])
        d = d[d > 0]
        assert abs(d.min() - (2 * R + CFG.rack_gap)) < 1e-9
    assert not s.on_table[0] and all(s.on_table[1:])
    assert s.phase is Phase.BREAK and s.cue_ball is CueBallPlacement.IN_HAND_KITCHEN


@pytest.mark.rule("8B-4.3")
def test_8B_4_3_rack_random_from_state_rng():
    """8B-4.3: other positions random (from the state's seeded RNG): same seed same rack,
    different seeds differ; both corner orders occur."""
    a = D.initial_state(CFG, seed=1)
    assert a == D.initial_state(CFG, seed=1)
    racks = {D.initial_state(CFG, seed=k).pos for k in range(20)}
    assert len(racks) == 20
    corners = {group_of(rack_order(RackPattern.WPA, np.random.default_rng(k))[10]) for k in range(20)}
    assert corners == {Group.SOLIDS, Group.STRIPES}


@pytest.mark.rule("INF2-8B-2")
@pytest.mark.parametrize("seed", range(4))
def test_INF2_8B_2_alternating_rack(seed):
    """INF2-8B-2 / C-59 rack_pattern=alternating: 8 in the centre, groups alternate along
    the rows, different groups in the back corners, 7 of each."""
    order = rack_order(RackPattern.ALTERNATING, np.random.default_rng(seed))
    g = [group_of(b) for b in order]
    assert order[4] == EIGHT and sorted(order) == list(range(1, 16))
    assert g[10] != g[14]
    rows = [(0,), (1, 2), (3, 4, 5), (6, 7, 8, 9), (10, 11, 12, 13)]
    for row in rows:
        for a, b in zip(row, row[1:]):
            if EIGHT not in (order[a], order[b]):
                assert g[a] != g[b]
    s = D.initial_state(EightBallConfig(rack_pattern="alternating"), seed=seed)
    assert s.config.rack_pattern is RackPattern.ALTERNATING


@pytest.mark.rule("8B-4.3")
@pytest.mark.rule("INF2-8B-2")
@pytest.mark.parametrize("pattern", list(RackPattern))
def test_compiled_rack_draws_are_rack_orders(pattern):
    """The racks of fresh games and re-racks (`EightBall.rack_tuples`, drawn compiled) are
    :func:`rack_order`'s, with ``default_rng([seed, counter])``, for every seed form the state
    holds (large seeds and counters included)."""
    from poolgym.rules.game import DisciplineBase

    cfg = EightBallConfig(rack_pattern=pattern)
    rng = np.random.default_rng(4)
    seeds = [0, 1, 2**31 - 2, 2**32 + 5] + [int(x) for x in rng.integers(0, 2**31 - 1, 60)]
    for seed in seeds:
        for counter in (0, 1, 9, 2**33):
            pos, on = D.rack_tuples(cfg, seed, counter)
            assert (pos, on) == DisciplineBase.rack_tuples(D, cfg, seed, counter)
            order = rack_order(pattern, np.random.default_rng([seed, counter]))
            P = np.asarray(pos).reshape(16, 2)
            slots = triangle_slots(T, R, cfg.rack_gap)
            assert all(tuple(P[b]) == tuple(slots[k]) for k, b in enumerate(order))


@pytest.mark.rule("8B-4.21")
def test_8B_4_21_rerack_draws_from_the_state_rng():
    """A re-rack draws its rack from the state's (seed, counter) and advances the counter."""
    s = D.initial_state(CFG, seed=3).replace(rng=(77, 5), extra=EightBallExtra(reracks=1))
    new, _ = D._rerack(s, 1, ("8B-4.21",))
    assert new.rng == (77, 6) and new.extra.reracks == 2
    assert (new.pos, new.on_table) == D.rack_tuples(CFG, 77, 5)
    assert new.phase is Phase.BREAK and new.seat_to_act == 1 and new.breaker == 1


# ============================================================================ break order
@pytest.mark.rule("8B-4.4")
@pytest.mark.parametrize("order,winner,expect", [
    ("winner", 1, 1), ("winner", 0, 0), ("alternate", 0, 1), ("loser", 0, 1), ("loser", 1, 0)])
def test_8B_4_4_break_order(order, winner, expect):
    """8B-4.4: winner breaks the next game, or (organiser option) alternate / loser."""
    s = play(config=EightBallConfig(break_order=order)).replace(phase=Phase.GAME_OVER, winner=winner, breaker=0)
    n = D.next_game(s)
    assert n.breaker == expect and n.seat_to_act == expect and n.phase is Phase.BREAK
    assert n.games_won[winner] == 1


@pytest.mark.rule("8B-4.4")
def test_8B_4_4_trailing_breaks():
    """8B-4.4 (c): the player trailing in games breaks the next game."""
    cfg = EightBallConfig(break_order=BreakOrder.TRAILING)
    s = play(config=cfg).replace(phase=Phase.GAME_OVER, winner=1, breaker=0, games_won=(3, 1))
    assert D.next_game(s).breaker == 1
    s = play(config=cfg).replace(phase=Phase.GAME_OVER, winner=1, breaker=0, games_won=(0, 2))
    assert D.next_game(s).breaker == 0


# ============================================================================ break
@pytest.mark.rule("8B-4.5")
def test_8B_4_5_legal_break_four_balls_to_rail():
    """8B-4.5 (2): four distinct numbered balls to a cushion, nothing pocketed: legal;
    the opponent plays from the position (table open, 8B-4.9)."""
    s = ready_break()
    a = apex(s)
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=a, obj_rails=(1, 2, 3, 4)))
    assert not v.fouls and v.next_seat == 1 and not v.turn_continues
    assert s2.phase is Phase.PLAY and s2.cue_ball is CueBallPlacement.IN_POSITION and s2.groups == (0, 0)


@pytest.mark.rule("8B-4.5")
def test_8B_4_5_illegal_break_options():
    """8B-4.5: three balls to a cushion and nothing pocketed is an illegal break (foul);
    the incoming player may accept the table or re-rack (break himself / offender breaks).
    No ball in hand (C-12)."""
    s = ready_break()
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), obj_rails=(1, 2, 3)))
    assert fouls(v) == [(FoulKind.ILLEGAL_BREAK, "8B-4.5")]
    assert v.options == (Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK, Option.OPPONENT_REBREAKS)
    assert s2.phase is Phase.OPTION and s2.seat_to_act == 1
    assert D.legal_actions(s2).options == v.options
    # (1) accept the table in position
    s3, _ = D.apply(s2, ChooseOption(Option.ACCEPT_TABLE))
    assert s3.phase is Phase.PLAY and s3.seat_to_act == 1 and s3.cue_ball is CueBallPlacement.IN_POSITION
    assert s3.on_table[0] and D.legal_actions(s3).can_shoot
    # (2a) re-rack and break himself
    s4, v4 = D.apply(s2, ChooseOption(Option.RERACK_AND_BREAK))
    assert s4.phase is Phase.BREAK and s4.seat_to_act == 1 and s4.breaker == 1
    assert all(s4.on_table[1:]) and not s4.on_table[0] and s4.extra.reracks == 1
    assert s4.rng != s2.rng and "8B-4.5" in v4.rule_refs
    # (2b) re-rack and the offender re-breaks
    s5, _ = D.apply(s2, ChooseOption(Option.OPPONENT_REBREAKS))
    assert s5.phase is Phase.BREAK and s5.seat_to_act == 0 and s5.breaker == 0


@pytest.mark.rule("8B-4.5", "8B-4.2")
def test_8B_4_5_pocket_on_break_is_legal_and_continues():
    """8B-4.5 (1) / 8B-4.2: a ball pocketed on the break makes it legal even without four
    balls to a cushion; the breaker continues; the break is not a called shot."""
    s = ready_break()
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), pocketed={3: 2, 12: 5}))
    assert not v.fouls and v.turn_continues and v.next_seat == 0
    assert v.legal_pocketed == (3, 12)
    assert s2.phase is Phase.PLAY and s2.groups == (0, 0)  # 8B-4.10: table stays open
    assert not s2.on_table[3] and not s2.on_table[12]


@pytest.mark.rule("8B-4.6")
def test_8B_4_6_scratch_on_legal_break():
    """8B-4.6: scratch on a legal break: foul, balls stay down, table open, incoming player
    has cue ball in hand behind the head string."""
    s = ready_break()
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), pocketed={5: 0}, scratch=3))
    assert fouls(v) == [(FoulKind.SCRATCH, "G-3.20")] and "8B-4.6" in v.rule_refs
    assert v.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and v.next_seat == 1
    assert s2.phase is Phase.PLAY and s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and not s2.on_table[0]
    assert not s2.on_table[5] and s2.groups == (0, 0)
    spec = D.legal_actions(s2)
    assert spec.must_place and spec.place_cue is CueBallPlacement.IN_HAND_KITCHEN
    before = snapshot(s2)
    with pytest.raises(IllegalActionError):  # in front of the head string (G-3.10 / G-3.16)
        D.apply(s2, PlaceCueBall(0.635, 1.0))
    with pytest.raises(IllegalActionError):  # on the head string itself
        D.apply(s2, PlaceCueBall(0.635, T.head_string_y))
    assert snapshot(s2) == before
    s3, _ = D.apply(s2, PlaceCueBall(0.3, 0.3))
    assert s3.cue_placed and D.legal_actions(s3).can_shoot


@pytest.mark.rule("8B-4.6", "G-3.39")
def test_8B_4_6_kitchen_ball_must_be_reached_from_outside():
    """8B-4.6 / G-3.39: with cue ball in hand behind the head string, an object ball
    behind the head string may be hit only after the cue ball has left the kitchen."""
    balls = without(1)
    balls[1] = (0.3, 0.5)  # ball 1 in the kitchen
    s = play(balls, cue=None, cue_ball=CueBallPlacement.IN_HAND_KITCHEN, seat=1)
    s = D.apply(s, PlaceCueBall(0.9, 0.3))[0]
    s2, v = D.apply_shot_record(s, call(2, 5), record(s, hit=1, cue_rail=Rail.LEFT))
    assert (FoulKind.KITCHEN_RULE, "G-3.39") in fouls(v)
    assert s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE and s2.seat_to_act == 0
    # cue ball leaves the kitchen (foot-rail cushion first) and comes back: legal
    s3, v3 = D.apply_shot_record(s, call(1, 0), record(s, hit=1, kick_rails=(Rail.FOOT,), pocketed={1: 0}))
    assert not v3.fouls and v3.turn_continues and s3.groups == (2, 1)


@pytest.mark.rule("8B-4.6", "GW-5")
def test_8B_4_6_GW_5_spot_request_when_all_balls_in_kitchen():
    """8B-4.6 with C-10 kitchen_spot_request (GW-5): in hand behind the head string and
    every object ball behind it -> the player may have the nearest ball spotted."""
    s = play({3: (0.3, 0.3), 11: (0.9, 0.5), 8: (0.5, 0.2)}, cue=None,
             cue_ball=CueBallPlacement.IN_HAND_KITCHEN, seat=1)
    spec = D.legal_actions(s)
    assert Option.SPOT_NEAREST_KITCHEN_BALL in spec.options
    s2, v = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    assert v.spotted == (11,) and np.allclose(s2.positions()[11], T.foot_spot)
    off = play({3: (0.3, 0.3), 11: (0.9, 0.5), 8: (0.5, 0.2)}, cue=None,
               cue_ball=CueBallPlacement.IN_HAND_KITCHEN, config=EightBallConfig(kitchen_spot_request=False))
    assert Option.SPOT_NEAREST_KITCHEN_BALL not in D.legal_actions(off).options


@pytest.mark.rule("8B-4.5", "8B-4.6")
def test_C_12_scratch_on_illegal_break_most_severe():
    """8B-4.5 + 8B-4.6 (C-12 most_severe): scratch on a break that is also illegal by count:
    incoming player chooses in hand behind the head string or a re-rack."""
    s = ready_break()
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), obj_rails=(1,), scratch=0))
    assert (FoulKind.SCRATCH, "G-3.20") in fouls(v) and (FoulKind.ILLEGAL_BREAK, "8B-4.5") in fouls(v)
    assert v.options == (Option.CUE_IN_HAND_KITCHEN, Option.RERACK_AND_BREAK, Option.OPPONENT_REBREAKS)
    s3, v3 = D.apply(s2, ChooseOption(Option.CUE_IN_HAND_KITCHEN))
    assert s3.phase is Phase.PLAY and s3.seat_to_act == 1 and s3.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    assert D.legal_actions(s3).must_place
    before = snapshot(s2)
    with pytest.raises(IllegalActionError):  # not offered here
        D.apply(s2, ChooseOption(Option.ACCEPT_TABLE))
    assert snapshot(s2) == before
    cfg = EightBallConfig(break_foul_combination=BreakFoulCombination.SCRATCH_ONLY)
    s = ready_break(config=cfg)
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), obj_rails=(1,), scratch=0))
    assert v.options == () and s2.phase is Phase.PLAY and s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN


@pytest.mark.rule("8B-4.6")
def test_8B_4_6_cue_ball_off_table_on_break_is_a_scratch():
    """8B-4.6 (C-12): a cue ball jumped off the table on a legal break is treated like a
    scratch: in hand behind the head string."""
    s = ready_break()
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), pocketed={2: 1}, off_table=(0,)))
    assert (FoulKind.CUE_BALL_OFF_TABLE, "G-3.28") in fouls(v)
    assert s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and s2.seat_to_act == 1


@pytest.mark.rule("8B-4.7")
def test_8B_4_7_object_ball_jumped_on_break():
    """8B-4.7: an object ball jumped off the table on the break is a foul; the incoming
    player accepts the table in position or takes cue ball in hand behind the head
    string; the jumped ball is not spotted (8B-4.17)."""
    s = ready_break()
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), obj_rails=(1, 2, 3, 4), off_table=(6,)))
    assert fouls(v) == [(FoulKind.OBJECT_BALL_OFF_TABLE, "8B-4.7")]
    assert v.options == (Option.ACCEPT_TABLE, Option.CUE_IN_HAND_KITCHEN) and s2.seat_to_act == 1
    assert not s2.on_table[6] and v.spotted == ()
    a, _ = D.apply(s2, ChooseOption(Option.ACCEPT_TABLE))
    assert a.cue_ball is CueBallPlacement.IN_POSITION and a.on_table[0] and a.phase is Phase.PLAY
    k, _ = D.apply(s2, ChooseOption(Option.CUE_IN_HAND_KITCHEN))
    assert k.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and not k.on_table[0] and k.seat_to_act == 1


@pytest.mark.rule("INF2-8B-6")
def test_INF2_8B_6_jumped_balls_spotted_option():
    """INF2-8B-6 / C-02 jumped_object_balls=spot: jumped object balls are spotted on the
    long string in ascending order from the foot spot (G-3.32)."""
    cfg = EightBallConfig(jumped_object_balls=JumpedObjectBalls.SPOT)
    s = play(without(2, 4), config=cfg)
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=1, obj_rails=(1,), off_table=(9, 3)))
    assert (FoulKind.OBJECT_BALL_OFF_TABLE, "8B-4.17") in fouls(v)
    assert v.spotted == (3, 9) and s2.on_table[3] and s2.on_table[9]
    P = s2.positions()
    assert np.allclose(P[3], T.foot_spot) and P[9][1] > P[3][1] and abs(P[9][0] - T.w / 2) < 1e-9


@pytest.mark.rule("8B-4.8")
@pytest.mark.parametrize("scratch", [False, True])
def test_8B_4_8_eight_on_break(scratch):
    """8B-4.8: 8 pocketed on the break: the breaker chooses re-rack (he breaks again) or
    spot the 8 and continue; after a scratch the incoming player chooses re-rack (he
    breaks) or spot the 8 with cue ball in hand behind the head string."""
    s = ready_break()
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), pocketed={8: 4, 1: 0},
                                                 scratch=3 if scratch else None))
    chooser = 1 if scratch else 0
    assert not v.game_over and v.next_seat == chooser and "8B-4.8" in v.rule_refs
    assert v.options == (Option.RERACK_AND_BREAK, Option.SPOT_EIGHT_AND_PLAY)
    assert s2.phase is Phase.OPTION and s2.seat_to_act == chooser
    sp, vp = D.apply(s2, ChooseOption(Option.SPOT_EIGHT_AND_PLAY))
    P = sp.positions()
    assert vp.spotted == (EIGHT,) and sp.on_table[EIGHT]
    # G-3.32: on the long string, as close to the foot spot as the (unmoved) rack allows
    assert abs(P[EIGHT, 0] - T.w / 2) < 1e-9 and P[EIGHT, 1] >= T.foot_spot[1] - 1e-9
    others = [b for b in range(1, 16) if b != EIGHT and sp.on_table[b]]
    assert np.hypot(*(P[others] - P[EIGHT]).T).min() >= 2 * R - 1e-9
    assert not sp.on_table[1] and sp.phase is Phase.PLAY and sp.seat_to_act == chooser
    if scratch:
        assert sp.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and D.legal_actions(sp).must_place
    else:
        assert sp.cue_ball is CueBallPlacement.IN_POSITION and D.legal_actions(sp).can_shoot
    rr, _ = D.apply(s2, ChooseOption(Option.RERACK_AND_BREAK))
    assert rr.phase is Phase.BREAK and rr.breaker == chooser and all(rr.on_table[1:])


@pytest.mark.rule("INF2-8B-3")
def test_INF2_8B_3_eight_on_break_opponent_option():
    """INF2-8B-3 / C-01 eight_on_break=informal_opponent_option: the opponent re-racks and
    breaks, or spots the 8 and plays from the position (from behind the head line after a
    scratch). Break requirements and the jumped-ball option are as WPA."""
    cfg = EightBallConfig(eight_on_break=EightOnBreak.INFORMAL_OPPONENT_OPTION)
    for scratch in (False, True):
        s = ready_break(config=cfg)
        s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), pocketed={8: 1},
                                                     scratch=0 if scratch else None))
        assert v.next_seat == 1 and "INF2-8B-3" in v.rule_refs
        sp, _ = D.apply(s2, ChooseOption(Option.SPOT_EIGHT_AND_PLAY))
        assert sp.seat_to_act == 1 and sp.on_table[EIGHT]
        assert sp.cue_ball is (CueBallPlacement.IN_HAND_KITCHEN if scratch else CueBallPlacement.IN_POSITION)
        rr, _ = D.apply(s2, ChooseOption(Option.RERACK_AND_BREAK))
        assert rr.breaker == 1 and rr.phase is Phase.BREAK
    s = ready_break(config=cfg)
    _, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), obj_rails=(1, 2)))
    assert v.options == (Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK, Option.OPPONENT_REBREAKS)


@pytest.mark.rule("INF1-8B-5")
def test_INF1_8B_5_eight_on_break_loses_option():
    """INF1-8B-5 / C-01 eight_on_break=loss: pocketing the 8 before the group (on the
    break too) loses."""
    cfg = EightBallConfig(eight_on_break=EightOnBreak.LOSS)
    s = ready_break(config=cfg)
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), pocketed={8: 1}))
    assert v.game_over and v.winner == 1 and s2.extra.loss is LossReason.EIGHT_ON_BREAK


def test_C_13_eight_jumped_on_break():
    """C-13: the 8 jumped off the table on the break loses (8B-4.17, 8B-4.20); option
    treat_as_8B-4.7: the 8 is spotted and the incoming player gets the 8B-4.7 options."""
    s = ready_break()
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), obj_rails=(1, 2, 3, 4), off_table=(8,)))
    assert v.game_over and v.winner == 1 and s2.extra.loss is LossReason.EIGHT_OFF_TABLE
    cfg = EightBallConfig(jumped_eight_on_break=JumpedEightOnBreak.TREAT_AS_8B_4_7)
    s = ready_break(config=cfg)
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), obj_rails=(1, 2, 3, 4), off_table=(8,)))
    assert not v.game_over and s2.on_table[EIGHT] and EIGHT in v.spotted
    assert v.options == (Option.ACCEPT_TABLE, Option.CUE_IN_HAND_KITCHEN)


# ============================================================================ open table / groups
@pytest.mark.rule("8B-4.9")
def test_8B_4_9_open_table_any_group_first():
    """8B-4.9: on an open table a solid may be hit first to pocket a called stripe (a
    combination); the group is then stripes (8B-4.10)."""
    s = play()
    s2, v = D.apply_shot_record(s, call(10, 5), record(s, hit=3, obj_contacts=((3, 10),), pocketed={10: 5}))
    assert not v.fouls and v.turn_continues and s2.groups == (Group.STRIPES, Group.SOLIDS)
    assert v.legal_pocketed == (10,)


@pytest.mark.rule("8B-4.9")
def test_8B_4_9_eight_first_on_open_table_is_foul():
    """8B-4.9: open table and the 8 contacted first: foul, nothing scored, in hand for the
    opponent, pocketed balls stay down, table still open."""
    s = play()
    s2, v = D.apply_shot_record(s, call(2, 0), record(s, hit=8, obj_contacts=((8, 2),), pocketed={2: 0}))
    assert fouls(v) == [(FoulKind.EIGHT_FIRST_CONTACT, "8B-4.9")]
    assert s2.groups == (0, 0) and not s2.on_table[2] and v.legal_pocketed == ()
    assert s2.seat_to_act == 1 and s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE


@pytest.mark.rule("8B-4.10", "INF2-8B-4")
def test_8B_4_10_groups_only_by_called_ball_after_break():
    """8B-4.10 / INF2-8B-4: the break never assigns groups; the first legally pocketed
    called ball after the break does (shooter = its group)."""
    s = ready_break()
    s2, _ = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), pocketed={2: 0, 3: 0, 4: 0}))
    assert s2.groups == (0, 0) and legal_object_balls(s2) == tuple(b for b in range(1, 16) if b not in (2, 3, 4, 8))
    s3, v = D.apply_shot_record(s2, call(13, 2), record(s2, hit=13, pocketed={13: 2, 5: 1}))
    assert s3.groups == (Group.STRIPES, Group.SOLIDS) and v.legal_pocketed == (13,)
    assert "8B-4.16" in v.rule_refs  # the solid 5 went down for the opponent's group


@pytest.mark.rule("8B-4.10")
def test_8B_4_10_no_group_on_foul():
    """8B-4.10: a called ball pocketed on a foul does not choose a group."""
    s = play()
    s2, v = D.apply_shot_record(s, call(4, 0), record(s, hit=4, pocketed={4: 0}, scratch=1))
    assert v.fouls and s2.groups == (0, 0)


@pytest.mark.rule("INF1-8B-2")
def test_INF1_8B_2_group_by_first_ball_on_break():
    """INF1-8B-2 / C-11 group_assignment=first_ball_pocketed_on_break: the breaker who
    pockets a ball plays the kind of the first ball that dropped; with nothing pocketed
    the next player comes in."""
    cfg = EightBallConfig(group_assignment=GroupAssignment.FIRST_BALL_POCKETED_ON_BREAK)
    s = ready_break(config=cfg)
    from poolgym.rules.shot_record import EventKind
    rec = record(s, hit=apex(s), pocketed={3: 0, 12: 1},
                 extra_events=())
    # 12 drops first: rebuild the record with explicit pocket times
    rec = record(s, hit=apex(s), extra_events=[(0.40, int(EventKind.POCKET), 12, 1), (0.45, int(EventKind.POCKET), 3, 0)],
                 pocketed={12: 1, 3: 0})
    s2, v = D.apply_shot_record(s, BREAK, rec)
    assert v.turn_continues and s2.groups == (Group.STRIPES, Group.SOLIDS)
    s = ready_break(config=cfg)
    s2, v = D.apply_shot_record(s, BREAK, record(s, hit=apex(s), obj_rails=(1, 2, 3, 4)))
    assert s2.seat_to_act == 1 and s2.groups == (0, 0)


# ============================================================================ legal shot
@pytest.mark.rule("8B-4.11", "INF1-8B-3")
def test_8B_4_11_opponent_ball_first_is_foul():
    """8B-4.11 / INF1-8B-3: with groups assigned the shooter must hit his own group first
    ("you may not hit the opponent's balls")."""
    s = play(groups=(1, 2))
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=9, cue_rail=Rail.LEFT, obj_contacts=((9, 1),),
                                                      pocketed={1: 0}))
    assert fouls(v) == [(FoulKind.WRONG_BALL_FIRST, "8B-4.11")]
    assert s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE and s2.seat_to_act == 1


@pytest.mark.rule("8B-4.11", "INF2-8B-5")
def test_8B_4_11_rail_after_contact_required():
    """8B-4.11 / INF2-8B-5: after the contact a ball must be pocketed or the cue ball or a
    numbered ball must reach a cushion; a cushion before the contact (kick) is not enough."""
    s = play(groups=(1, 2))
    _, v = D.apply_shot_record(s, call(1, 0), record(s, hit=1))
    assert fouls(v) == [(FoulKind.NO_RAIL_AFTER_CONTACT, "8B-4.11")]
    _, v = D.apply_shot_record(s, call(1, 0), record(s, kick_rails=(Rail.LEFT,), hit=1))
    assert fouls(v) == [(FoulKind.NO_RAIL_AFTER_CONTACT, "8B-4.11")]
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, kick_rails=(Rail.LEFT,), hit=1, obj_rails=(1,)))
    assert not v.fouls and s2.seat_to_act == 1 and s2.cue_ball is CueBallPlacement.IN_POSITION


@pytest.mark.rule("INF2-8B-7")
def test_INF2_8B_7_fouls_give_ball_in_hand_anywhere():
    """INF2-8B-7: cue ball misses everything; no cushion after contact; scratch; cue ball
    jumped off -- each is a foul and the opponent places the cue ball anywhere."""
    s = play(groups=(1, 2))
    cases = [(record(s, cue_rail=Rail.FOOT), FoulKind.NO_BALL_HIT),
             (record(s, hit=1), FoulKind.NO_RAIL_AFTER_CONTACT),
             (record(s, hit=1, obj_rails=(1,), scratch=2), FoulKind.SCRATCH),
             (record(s, hit=1, obj_rails=(1,), off_table=(0,)), FoulKind.CUE_BALL_OFF_TABLE)]
    for rec, kind in cases:
        s2, v = D.apply_shot_record(s, call(1, 0), rec)
        assert v.fouls[0].kind is kind
        assert s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE and s2.seat_to_act == 1 and not s2.on_table[0]


@pytest.mark.rule("8B-4.12", "INF1-8B-4")
def test_8B_4_12_safety_ends_inning():
    """8B-4.12 / INF1-8B-4: a declared safety is a legal shot after which the inning ends
    even if own balls drop; they stay pocketed."""
    s = play(groups=(1, 2))
    s2, v = D.apply_shot_record(s, SAFETY, record(s, hit=1, pocketed={1: 0, 2: 3}))
    assert not v.fouls and not v.turn_continues and v.next_seat == 1 and v.legal_pocketed == ()
    assert not s2.on_table[1] and not s2.on_table[2] and s2.cue_ball is CueBallPlacement.IN_POSITION
    # without the declaration the shooter pockets his called ball and must shoot again
    s3, v3 = D.apply_shot_record(s, call(1, 0), record(s, hit=1, pocketed={1: 0}))
    assert v3.turn_continues and s3.seat_to_act == 0


@pytest.mark.rule("8B-4.12")
def test_8B_4_12_safety_on_open_table_keeps_table_open():
    """8B-4.12: balls pocketed on a safety do not choose a group."""
    s = play()
    s2, v = D.apply_shot_record(s, SAFETY, record(s, hit=3, pocketed={3: 0}))
    assert s2.groups == (0, 0) and s2.seat_to_act == 1


@pytest.mark.rule("8B-4.13")
def test_8B_4_13_continue_then_shoot_eight():
    """8B-4.13: the shooter continues while he legally pockets called balls of his group;
    after the last one his legal object ball is the 8."""
    s = play({1: (0.4, 1.3), 8: (0.6, 1.9), 9: (0.9, 1.4)}, groups=(1, 2))
    assert legal_object_balls(s) == (1,)
    s2, v = D.apply_shot_record(s, call(1, 2), record(s, hit=1, pocketed={1: 2}))
    assert v.turn_continues and v.legal_pocketed == (1,) and s2.seat_to_act == 0
    spec = D.legal_actions(s2)
    assert spec.target_balls == (EIGHT,) and spec.callable_balls == (EIGHT,) and spec.call_required
    assert legal_object_balls(s2, 1) == (9,)


@pytest.mark.rule("8B-4.14")
def test_8B_4_14_foul_ball_in_hand_anywhere():
    """8B-4.14: after a foul the opponent places the cue ball anywhere (not restricted to
    the kitchen; frozen to a ball allowed, overlapping not)."""
    s = play(groups=(1, 2))
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=9, obj_rails=(9,)))
    assert v.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE
    x, y = POS[5]
    s3, _ = D.apply(s2, PlaceCueBall(x, y + 2 * R + 1e-6))  # frozen to ball 5: allowed in eight-ball
    assert s3.cue_placed
    before = snapshot(s2)
    with pytest.raises(IllegalActionError):
        D.apply(s2, PlaceCueBall(x, y + R))  # overlaps ball 5 (G-3.22)
    assert snapshot(s2) == before
    s4, _ = D.apply(s2, PlaceCueBall(0.6, 2.3))  # beyond the head string: fine
    assert s4.positions()[0].tolist() == [0.6, 2.3]


@pytest.mark.rule("8B-4.15")
def test_8B_4_15_eight_first_before_group_cleared_is_foul():
    """8B-4.15: the 8 cannot be the first ball of a combination: first contact with the
    8 while it is not the legal object ball is a foul (C-15)."""
    s = play(groups=(1, 2))
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=8, obj_contacts=((8, 1),), pocketed={1: 0}))
    assert fouls(v) == [(FoulKind.EIGHT_FIRST_CONTACT, "8B-4.15")]
    assert not v.game_over and s2.seat_to_act == 1 and not s2.on_table[1]


@pytest.mark.rule("8B-4.16")
def test_8B_4_16_illegally_pocketed_balls():
    """8B-4.16: a called ball missing its pocket makes other pocketed balls illegal: they
    stay down, count for their group's owner, and the inning ends."""
    s = play({1: (0.4, 1.3), 2: (0.5, 1.6), 9: (0.9, 1.4), 8: (0.6, 1.9)}, groups=(1, 2))
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=1, obj_contacts=((1, 2), (1, 9)),
                                                      pocketed={2: 3, 9: 4}))
    assert not v.fouls and v.legal_pocketed == () and v.pocketed == (2, 9) and s2.seat_to_act == 1
    assert "8B-4.16" in v.rule_refs
    assert legal_object_balls(s2, 1) == (EIGHT,)  # the stripe 9 counted for seat 1: its group is cleared


@pytest.mark.rule("8B-4.17")
def test_8B_4_17_jumped_object_ball():
    """8B-4.17: an object ball jumped off the table is a foul and loss of turn; it is not
    spotted and counts as gone for clearing the group (C-16)."""
    s = play({1: (0.4, 1.3), 9: (0.9, 1.4), 8: (0.6, 1.9)}, groups=(1, 2))
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=1, obj_rails=(1,), off_table=(1,)))
    assert fouls(v) == [(FoulKind.OBJECT_BALL_OFF_TABLE, "8B-4.17")] and v.spotted == ()
    assert not s2.on_table[1] and s2.extra.jumped == (1,) and s2.seat_to_act == 1
    assert legal_object_balls(s2, 0) == (EIGHT,)


@pytest.mark.rule("8B-4.17")
def test_C_16_jumped_group_ball_not_counted_option():
    """8B-4.17 / C-16 jumped_group_ball_counts_as_pocketed=False: a group that lost a ball
    off the table can never be cleared (not recommended, but selectable)."""
    cfg = EightBallConfig(jumped_group_ball_counts_as_pocketed=False)
    s = play({1: (0.4, 1.3), 9: (0.9, 1.4), 8: (0.6, 1.9)}, groups=(1, 2), config=cfg)
    s2, _ = D.apply_shot_record(s, call(1, 0), record(s, hit=1, obj_rails=(1,), off_table=(1,)))
    assert legal_object_balls(s2, 0) == ()


def test_8B_4_18_not_adjudicated_without_cue_model():
    """8B-4.18 (HUMAN / SIM if the cue is modelled): there is no cue-stick model, so a jump
    shot over an impeding ball is judged only by the ball contacts: a clean jump to a legal
    ball that then reaches a cushion is legal."""
    s = play(groups=(1, 2))
    _, v = D.apply_shot_record(s, ShotAction(V0=4.0, phi=90.0, theta=60.0, b=0.3, called_ball=1, called_pocket=0),
                               record(s, hit=1, obj_rails=(1,)))
    assert not v.fouls


@pytest.mark.rule("8B-4.19")
def test_8B_4_19_foul_on_eight_without_pocketing_is_not_loss():
    """8B-4.19: shooting at the 8, a scratch or foul is not loss of game if the 8 is not
    pocketed or jumped; the incoming player has cue ball in hand."""
    s = play({8: (0.6, 1.9), 9: (0.9, 1.4)}, groups=(1, 2))
    s2, v = D.apply_shot_record(s, call(8, 5), record(s, hit=8, obj_rails=(8,), scratch=0))
    assert v.fouls and not v.game_over and s2.seat_to_act == 1
    assert s2.cue_ball is CueBallPlacement.IN_HAND_ANYWHERE


@pytest.mark.rule("8B-4.19")
def test_8B_4_19_combination_cannot_pocket_eight():
    """8B-4.19: a combination can never legally pocket the 8 unless the 8 is hit first:
    own ball (none left) or opponent's ball first, then the 8 drops -> foul -> loss."""
    s = play({8: (0.6, 1.9), 9: (0.9, 1.4)}, groups=(1, 2))
    s2, v = D.apply_shot_record(s, call(8, 5), record(s, hit=9, obj_contacts=((9, 8),), pocketed={8: 5}))
    assert v.game_over and v.winner == 1 and s2.extra.loss is LossReason.FOUL_POCKETING_EIGHT


# ============================================================================ win / loss
@pytest.mark.rule("8B-4.1", "INF1-8B-1", "INF2-8B-1")
def test_8B_4_1_win_by_legal_eight():
    """8B-4.1 / INF1-8B-1 / INF2-8B-1: the player who has pocketed his group and then
    legally pockets the called 8 in the called pocket wins."""
    s = play({8: (0.6, 1.9), 9: (0.9, 1.4)}, groups=(1, 2))
    s2, v = D.apply_shot_record(s, call(8, 5), record(s, hit=8, pocketed={8: 5}))
    assert v.game_over and v.winner == 0 and s2.phase is Phase.GAME_OVER and s2.winner == 0
    assert v.legal_pocketed == (EIGHT,)
    before = snapshot(s2)
    with pytest.raises(IllegalActionError):  # acting after the game ended
        D.apply(s2, call(9, 0))
    assert snapshot(s2) == before


@pytest.mark.rule("8B-4.20", "INF2-8B-8", "INF1-8B-5")
@pytest.mark.parametrize("case", ["1_foul", "2_last_of_group", "3_jumped", "4_wrong_pocket", "5_not_legal"])
def test_8B_4_20_loss_of_game(case):
    """8B-4.20 / INF2-8B-8 / INF1-8B-5: (1) foul when pocketing the 8; (2) the 8 on the same
    stroke as the last of the group; (3) the 8 jumped off the table (any time); (4) the 8
    in a pocket other than the called one; (5) the 8 when it is not the legal object ball."""
    if case == "1_foul":
        s = play({8: (0.6, 1.9), 9: (0.9, 1.4)}, groups=(1, 2))
        rec, act, reason = record(s, hit=8, pocketed={8: 5}, scratch=2), call(8, 5), LossReason.FOUL_POCKETING_EIGHT
    elif case == "2_last_of_group":
        s = play({1: (0.4, 1.3), 8: (0.6, 1.9), 9: (0.9, 1.4)}, groups=(1, 2))
        rec, act = record(s, hit=1, obj_contacts=((1, 8),), pocketed={1: 2, 8: 5}), call(1, 2)
        reason = LossReason.EIGHT_WITH_LAST_OF_GROUP
    elif case == "3_jumped":
        s = play({8: (0.6, 1.9), 9: (0.9, 1.4)}, groups=(1, 2))
        rec, act, reason = record(s, hit=8, obj_rails=(8,), off_table=(8,)), call(8, 5), LossReason.EIGHT_OFF_TABLE
    elif case == "4_wrong_pocket":
        s = play({8: (0.6, 1.9), 9: (0.9, 1.4)}, groups=(1, 2))
        rec, act, reason = record(s, hit=8, pocketed={8: 2}), call(8, 5), LossReason.EIGHT_WRONG_POCKET
    else:
        s = play(groups=(1, 2))
        rec, act = record(s, hit=1, obj_contacts=((1, 8),), pocketed={8: 5}), call(1, 2)
        reason = LossReason.EIGHT_NOT_LEGAL_OBJECT
    s2, v = D.apply_shot_record(s, act, rec)
    assert v.game_over and v.winner == 1 and s2.winner == 1 and s2.phase is Phase.GAME_OVER
    assert s2.extra.loss is reason and "8B-4.20" in v.rule_refs


@pytest.mark.rule("8B-4.20", "INF1-8B-5")
def test_8B_4_20_open_table_eight_pocketed_loses():
    """8B-4.20 (5) / INF1-8B-5: on an open table the 8 is never the legal object ball:
    pocketing it (even on a legal hit of another ball) is premature and loses."""
    s = play()
    s2, v = D.apply_shot_record(s, call(3, 0), record(s, hit=3, obj_contacts=((3, 8),), pocketed={3: 0, 8: 1}))
    assert v.game_over and v.winner == 1 and s2.extra.loss is LossReason.EIGHT_NOT_LEGAL_OBJECT


@pytest.mark.rule("8B-4.20")
def test_8B_4_20_safety_on_eight_pocketing_it_loses():
    """8B-4.20 (4): a safety names no pocket, so pocketing the 8 on it is a pocket other
    than the one designated."""
    s = play({8: (0.6, 1.9), 9: (0.9, 1.4)}, groups=(1, 2))
    s2, v = D.apply_shot_record(s, SAFETY, record(s, hit=8, pocketed={8: 0}))
    assert v.game_over and s2.extra.loss is LossReason.EIGHT_WRONG_POCKET


@pytest.mark.rule("INF1-8B-5")
def test_INF1_8B_5_called_ball_missed_turn_passes():
    """INF1-8B-5: failing to pocket into the indicated pocket passes the turn."""
    s = play(groups=(1, 2))
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=1, pocketed={1: 3}))
    assert not v.fouls and not v.turn_continues and s2.seat_to_act == 1 and not s2.on_table[1]


# ============================================================================ calls
@pytest.mark.rule("8B-4.2", "GW-6")
def test_8B_4_2_call_required_and_validated():
    """8B-4.2 / GW-6: every shot after the break names one legal ball and a pocket (or a
    safety); the break carries no call. Bad declarations raise and change nothing."""
    s = play(without(3), groups=(1, 2))
    spec = D.legal_actions(s)
    assert spec.call_required and spec.safety_allowed and 9 not in spec.callable_balls
    before = snapshot(s)
    for bad in (NOCALL, ShotAction(V0=3.0, phi=0.0, called_ball=1),          # no pocket
                call(3, 0),                                                 # pocketed ball
                call(9, 0),                                                 # opponent's ball
                call(8, 0),                                                 # 8 before clearing
                call(1, 7),                                                 # no such pocket
                call(1, 0, safety=True),                                    # safety replaces the call
                ShotAction(V0=3.0, phi=0.0, push_out=True)):                # no push-out in 8-ball
        with pytest.raises(IllegalActionError):
            D.apply(s, bad)
    assert snapshot(s) == before
    b = ready_break()
    with pytest.raises(IllegalActionError):
        D.apply(b, call(1, 0))
    with pytest.raises(IllegalActionError):
        D.apply(D.initial_state(CFG, seed=0), BREAK)  # cue ball not yet placed


@pytest.mark.rule("8B-4.2")
def test_8B_4_2_balls_pocketed_on_foul_remain_pocketed():
    """8B-4.2: any balls pocketed on a foul remain pocketed, whoever they belong to."""
    s = play(groups=(1, 2))
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=1, pocketed={1: 0, 10: 1}, scratch=2))
    assert v.fouls and not s2.on_table[1] and not s2.on_table[10] and v.pocketed == (1, 10)


@pytest.mark.rule("8B-4.2")
@pytest.mark.parametrize("kind", ["direct", "bank", "combination"])
def test_8B_4_2_obvious_shots_need_no_call(kind):
    """8B-4.2 with require_call_every_shot=False: an obvious pot needs no call; bank shots
    and combinations are not obvious, so without a call they do not count."""
    cfg = EightBallConfig(require_call_every_shot=False)
    s = play(groups=(1, 2), config=cfg)
    assert not D.legal_actions(s).call_required
    if kind == "direct":
        rec = record(s, hit=1, pocketed={1: 0})
    elif kind == "bank":
        rec = record(s, hit=1, obj_rails=(1,), pocketed={1: 0})
    else:
        rec = record(s, hit=2, obj_contacts=((2, 1),), pocketed={1: 0})
    s2, v = D.apply_shot_record(s, NOCALL, rec)
    assert not v.fouls
    assert v.turn_continues is (kind == "direct") and s2.seat_to_act == (0 if kind == "direct" else 1)
    # calling a bank makes it count
    if kind == "bank":
        s3, v3 = D.apply_shot_record(s, call(1, 0), rec)
        assert v3.turn_continues


@pytest.mark.rule("INF1-8B-4")
def test_INF1_8B_4_eight_must_be_called():
    """INF1-8B-4: to pocket the 8 the player must name the pocket, even when ordinary
    obvious shots need no call."""
    cfg = EightBallConfig(require_call_every_shot=False)
    s = play({8: (0.6, 1.9), 9: (0.9, 1.4)}, groups=(1, 2), config=cfg)
    assert D.legal_actions(s).call_required
    with pytest.raises(IllegalActionError):
        D.apply(s, NOCALL)


# ============================================================================ stalemate / fouls
@pytest.mark.rule("8B-4.21")
def test_8B_4_21_three_fouls_not_a_loss():
    """8B-4.21 note: three consecutive fouls by one player are not a loss of game."""
    s = play(groups=(1, 2))
    for k in range(3):
        s = s.replace(seat_to_act=0, cue_ball=CueBallPlacement.IN_POSITION, on_table=(True,) + s.on_table[1:])
        s, v = D.apply_shot_record(s, call(1, 0), record(s, hit=9, obj_rails=(9,)))
        assert v.fouls and not v.game_over
    assert s.consecutive_fouls[0] == 3 and s.phase is Phase.PLAY


@pytest.mark.rule("8B-4.21")
def test_C_04_three_foul_loss_option():
    """8B-4.21 / C-04 three_foul_loss=True: the third consecutive foul loses."""
    cfg = EightBallConfig(three_foul_loss=True)
    s = play(groups=(1, 2), config=cfg, consecutive_fouls=(2, 0))
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=9, obj_rails=(9,)))
    assert v.game_over and v.winner == 1 and v.fouls[-1].kind is FoulKind.THIRD_CONSECUTIVE_FOUL


@pytest.mark.rule("8B-4.21")
def test_8B_4_21_stalemate_rerack_same_breaker():
    """8B-4.21: stalemate (referee stand-in: stalemate_innings innings with no ball
    pocketed, GW-12): the balls are re-racked and the breaker of the stalemated game
    breaks again."""
    cfg = EightBallConfig(stalemate_innings=2)
    s = play(groups=(1, 2), config=cfg, breaker=1, stall_innings=1)
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=1, obj_rails=(1,)))
    assert "GW-12" in v.rule_refs and not v.game_over
    assert s2.phase is Phase.BREAK and s2.seat_to_act == 1 and s2.breaker == 1
    assert all(s2.on_table[1:]) and s2.groups == (0, 0) and s2.stall_innings == 0


@pytest.mark.rule("8B-4.21")
def test_8B_4_21_stalemate_by_agreement():
    """8B-4.21 (DECL): after three turns each without progress the players may agree to a
    stalemate: one offers, the other accepts (re-rack, same breaker) or declines (play
    resumes unchanged; one offer per inning)."""
    s = play(groups=(1, 2), breaker=0, stall_innings=6, seat=1, inning=9)
    assert Option.OFFER_STALEMATE in D.legal_actions(s).options
    assert Option.OFFER_STALEMATE not in D.legal_actions(s.replace(stall_innings=5)).options
    o, v = D.apply(s, ChooseOption(Option.OFFER_STALEMATE))
    assert o.phase is Phase.OPTION and o.seat_to_act == 0 and v.options == (Option.ACCEPT_STALEMATE, Option.DECLINE)
    a, _ = D.apply(o, ChooseOption(Option.ACCEPT_STALEMATE))
    assert a.phase is Phase.BREAK and a.breaker == 0 and a.seat_to_act == 0
    d, _ = D.apply(o, ChooseOption(Option.DECLINE))
    assert d.phase is Phase.PLAY and d.seat_to_act == 1 and d.pos == s.pos and d.cue_ball is s.cue_ball
    assert Option.OFFER_STALEMATE not in D.legal_actions(d).options
    with pytest.raises(IllegalActionError):
        D.apply(d, ChooseOption(Option.OFFER_STALEMATE))


@pytest.mark.rule("GW-12")
def test_max_shots_cap_is_a_draw():
    """GW-12 safety net (``max_shots``): the game ends without a winner."""
    cfg = EightBallConfig(max_shots=3)
    s = play(groups=(1, 2), config=cfg, shot_number=2)
    s2, v = D.apply_shot_record(s, call(1, 0), record(s, hit=1, obj_rails=(1,)))
    assert v.game_over and v.winner is None and s2.phase is Phase.GAME_OVER


# ============================================================================ config / serialisation
def test_config_validation_and_json():
    """EightBallConfig validates its fields (ValueError naming the field) and round-trips
    through JSON with the state (C-01 ... C-16 option keys)."""
    with pytest.raises(ValueError, match="eight_on_break"):
        EightBallConfig(eight_on_break="sometimes")
    with pytest.raises(ValueError, match="three_foul_loss"):
        EightBallConfig(three_foul_loss=1)
    with pytest.raises(ValueError, match="n_players"):
        EightBallConfig(n_players=3)
    cfg = EightBallConfig(eight_on_break="loss", jumped_object_balls="spot", group_assignment=GroupAssignment(
        "first_ball_pocketed_on_break"), rack_pattern="alternating", jumped_eight_on_break="treat_as_8B-4.7")
    s = D.initial_state(cfg, seed=5)
    s2 = GameState.from_json(s.to_json())
    assert s2 == s and s2.config.eight_on_break is EightOnBreak.LOSS and isinstance(s2.extra, EightBallExtra)
    assert hash(s2) == hash(s)


def test_wrong_discipline_state_rejected():
    """Bad actions: a nine-ball state is not an eight-ball state; an unknown action type
    raises; options outside an option phase raise; a shot while an option is pending
    raises. State unchanged."""
    nine = get_discipline("nine_ball").initial_state(None, seed=0)
    with pytest.raises(IllegalActionError):
        D.apply(nine, PlaceCueBall(0.6, 0.3))
    b = ready_break()
    pending, _ = D.apply_shot_record(b, BREAK, record(b, hit=apex(b), obj_rails=(1,)))
    before = snapshot(pending)
    with pytest.raises(IllegalActionError):
        D.apply(pending, call(1, 0))
    with pytest.raises(IllegalActionError):
        D.apply(pending, ChooseOption(Option.SPOT_EIGHT_AND_PLAY))
    with pytest.raises(IllegalActionError):
        D.apply(pending, ChooseOption("accept_table"))
    assert snapshot(pending) == before
    s = play()
    before = snapshot(s)
    with pytest.raises(IllegalActionError):
        D.apply(s, "shoot")
    with pytest.raises(IllegalActionError):
        D.apply(s, ChooseOption(Option.RERACK_AND_BREAK))
    with pytest.raises(IllegalActionError):
        D.apply(s, PlaceCueBall(0.5, 0.5))  # cue ball is in position, not in hand
    assert snapshot(s) == before


@pytest.mark.rule("8B-4.11")
def test_legal_object_balls_memo_equals_the_rule():
    """8B-4.11 / 8B-4.9 / 8B-4.13 / C-16: the legal object balls, asked twice (the second
    answer from the memo) for random layouts, groups, seats and jumped balls under both C-16
    settings, equal the rule computed from the state."""
    rng = np.random.default_rng(5)
    for cfg in (CFG, EightBallConfig(jumped_group_ball_counts_as_pocketed=False)):
        for _ in range(300):
            on = [k for k in range(1, 16) if rng.random() < 0.3]
            s = play({k: POS[k] for k in on}, groups=tuple(int(g) for g in rng.choice(3, 2)), config=cfg,
                     extra=EightBallExtra(jumped=tuple(int(b) for b in rng.choice(15, rng.integers(3)) + 1
                                                       if b + 1 not in on)))
            for seat in (0, 1):
                g = s.groups[seat]
                mine = () if g == Group.OPEN else (tuple(range(1, 8)) if g == Group.SOLIDS else tuple(range(9, 16)))
                if g == Group.OPEN:
                    want = tuple(b for b in on if b != EIGHT) or tuple(b for b in on if b == EIGHT)
                else:
                    want = tuple(b for b in on if b in mine)
                    jumped_bar = not cfg.jumped_group_ball_counts_as_pocketed and any(b in mine for b in s.extra.jumped)
                    if not want:
                        want = (EIGHT,) if EIGHT in on and not jumped_bar else ()
                assert legal_object_balls(s, seat) == want
                assert legal_object_balls(s, seat) == want
