"""Bowlliards referee (poolgym.rules.games.bowlliards): scenario tables per rule of
bowlliards.md, the ten-pin frame arithmetic against an independent scorer, a perfect game."""
import numpy as np
import pytest

from poolgym.rules import IllegalActionError, Phase, PlaceCueBall, ShotAction
from poolgym.rules.core import CueBallPlacement, FoulKind
from poolgym.rules.game import get_discipline
from poolgym.rules.games.bowlliards import BowlliardsConfig, BowlliardsExtra, CueAfterMiss, bowling_total
from poolgym.rules.geometry import ball_radius, get_table, triangle_slots
from poolgym.rules.testing import record

D = get_discipline("bowlliards")
T = get_table("9ft")
SHOT = ShotAction(3.0, 90.0)


def reference_score(rolls):
    """Independent ten-pin scorer for a COMPLETE game: frames 1-9 from their first roll (strike:
    10 + next two rolls; spare: 10 + next roll; open: the two rolls); frame 10 = the sum of
    every roll left (its two or three rolls)."""
    total, i = 0, 0
    for frame in range(10):
        if frame == 9:
            return total + sum(rolls[i:])
        if rolls[i] == 10:
            total += 10 + rolls[i + 1] + rolls[i + 2]
            i += 1
        elif rolls[i] + rolls[i + 1] == 10:
            total += 10 + rolls[i + 2]
            i += 2
        else:
            total += rolls[i] + rolls[i + 1]
            i += 2
    return total


def place(s, xy=(0.635, 0.4)):
    return D.apply(s, PlaceCueBall(*xy))[0]


def after_break(cfg=None, seed=0):
    s = place(D.initial_state(cfg or BowlliardsConfig(), seed))
    s, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1))
    assert v.rule_refs == ("BW-7",)
    return place(s)


def play(s, **rec):
    return D.apply_shot_record(s, SHOT, record(s, **rec))


@pytest.mark.rule("BW-3", "BW-4")
@pytest.mark.parametrize("seed", range(3))
def test_rack_ten_balls_rows_1_2_3_4(seed):
    """BW-3 ten object balls (rows 1-10); BW-4 rows 1-2-3-4, apex on the foot spot."""
    s = D.initial_state(BowlliardsConfig(), seed)
    slots = triangle_slots(T, ball_radius(), 1e-6)[:10]
    P = s.positions()
    assert s.n_balls == 11 and s.balls_on_table() == tuple(range(1, 11))
    assert sorted(int(np.argmin(np.linalg.norm(slots - P[b], axis=1))) for b in range(1, 11)) == list(range(10))
    assert any(np.allclose(P[b], T.foot_spot) for b in range(1, 11))


@pytest.mark.rule("BW-7")
def test_free_break_no_foul_all_spotted():
    """BW-7: the free break has no requirement and no penalty (scratch, jumped ball); every
    pocketed ball is spotted; the frame starts with cue ball in hand behind the head string."""
    s = place(D.initial_state(BowlliardsConfig(), 0))
    s2, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, pocketed={3: 2, 7: 5}, scratch=0,
                                                                   off_table=(4,)))
    assert v.fouls == () and v.spotted == (3, 4, 7) and v.points == (0,)
    assert s2.balls_on_table() == tuple(range(1, 11)) and s2.phase is Phase.PLAY
    assert s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and s2.extra.attempt == 0 and s2.scores == (0,)


@pytest.mark.rule("BW-6")
def test_each_legal_ball_one_point_and_continue():
    """BW-6: every legally pocketed ball is one point, whatever its number; the attempt goes on."""
    s = after_break()
    s2, v = play(s, hit=1, pocketed={9: 2, 10: 5})
    assert v.legal_pocketed == (9, 10) and v.points == (2,) and s2.scores == (2,) and v.turn_continues
    assert s2.extra.count == 2 and s2.phase is Phase.PLAY


@pytest.mark.rule("BW-11", "BW-8")
def test_foul_minus_one_second_attempt_from_kitchen():
    """BW-11: a foul deducts one point, ends the attempt (balls pocketed on it are spotted, C-35);
    BW-8: after the first attempt the second starts with cue ball in hand behind the head string."""
    s = after_break()
    s, _ = play(s, hit=1, pocketed={2: 1})
    s2, v = play(s, hit=1, pocketed={5: 0}, scratch=3)
    assert v.fouls[0].kind is FoulKind.SCRATCH and "BW-11" in v.rule_refs and "BW-8" in v.rule_refs
    assert v.spotted == (5,) and s2.scores == (1 - 1,) and s2.extra.penalties == (1,)
    assert s2.extra.rolls == ((1,),) and s2.extra.attempt == 1 and s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    # a foul in the second attempt ends the frame: next frame with its free break
    s3 = place(s2)
    s4, v4 = play(s3, hit=None)
    assert v4.fouls and s4.phase is Phase.BREAK and s4.extra.frame == 1 and s4.extra.rolls == ((1, 0),)
    assert s4.scores == (1 - 2,)


@pytest.mark.rule("BW-6")
@pytest.mark.parametrize("after_miss, cue", [(CueAfterMiss.IN_PLACE, CueBallPlacement.IN_POSITION),
                                             (CueAfterMiss.KITCHEN, CueBallPlacement.IN_HAND_KITCHEN)])
def test_miss_ends_first_attempt(after_miss, cue):
    """C-35: after a plain miss in the first attempt the second begins from where the cue ball
    lies (default) or from the kitchen (option)."""
    s = after_break(BowlliardsConfig(second_attempt_cue_after_miss=after_miss))
    s2, v = play(s, hit=1, obj_rails=(1,))
    assert not v.fouls and s2.extra.attempt == 1 and s2.cue_ball is cue and s2.extra.rolls == ((0,),)


def clear_rack(s, pockets=None):
    balls = s.balls_on_table()
    s, v = D.apply_shot_record(s, SHOT, record(s, hit=balls[0], pocketed={b: b % 6 for b in balls}))
    return s, v


@pytest.mark.rule("BW-1", "BW-2", "BW-5", "BW-6", "BW-7")
def test_perfect_solo_game_is_300():
    """BW-1 / BW-2 / BW-5: the solo game (one seat, no opponent) has a maximum of 300: twelve
    strikes (ten frames and the tenth frame's two bonus racks, each after a free break)."""
    s = D.initial_state(BowlliardsConfig(), 7)
    assert s.n_players == 1
    total = 0
    racks = 0
    while s.phase is not Phase.GAME_OVER:
        assert s.phase is Phase.BREAK
        s = place(s)
        s, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1))
        s = place(s)
        s, v = clear_rack(s)
        total += v.points[0]
        racks += 1
    assert racks == 12 and s.scores == (300,) and total == 300 and v.winner is None and "BW-5" in v.rule_refs
    assert reference_score(s.extra.rolls[0]) == 300


@pytest.mark.rule("BW-5", "BW-2")
def test_two_players_frame_by_frame_highest_wins():
    """BW-2 / BW-5: players alternate frame by frame; after ten frames the highest total wins."""
    cfg = BowlliardsConfig(n_players=2, frames=1)
    s = place(D.initial_state(cfg, 0))
    s, _ = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1))
    s = place(s)
    s, v = clear_rack(s)  # seat 0: strike in the (only, last) frame -> bonus racks
    assert v.next_seat == 0 and s.phase is Phase.BREAK
    s = place(s)
    s, _ = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1))  # first bonus rack
    s = place(s)
    s, v = play(s, hit=1, obj_rails=(1,))  # miss: the second bonus attempt on the same rack
    assert s.seat_to_act == 0 and s.phase is Phase.PLAY and s.extra.attempt == 2
    s, v = play(s, hit=1, obj_rails=(1,))  # miss: seat 0's frame is over
    assert s.seat_to_act == 1 and s.phase is Phase.BREAK and s.scores == (10, 0)
    s = place(s)
    s, _ = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1))
    s = place(s)
    s, v = play(s, hit=1, pocketed={1: 0, 2: 1, 3: 2})
    s, v = play(s, hit=4, obj_rails=(4,))
    s, v = play(s, hit=4, obj_rails=(4,))
    assert v.game_over and v.winner == 0 and s.scores == (10, 3)


def test_bowling_total_matches_reference_on_random_games():
    """The running ten-pin total equals the independent scorer on random complete games."""
    rng = np.random.default_rng(0)
    for _ in range(300):
        rolls = []
        for frame in range(10):
            a = int(rng.integers(0, 11))
            rolls.append(a)
            if frame < 9:
                if a < 10:
                    rolls.append(int(rng.integers(0, 11 - a)))
                continue
            b = int(rng.integers(0, 11 if a == 10 else 11 - a))
            rolls.append(b)
            if a == 10:
                rolls.append(int(rng.integers(0, 11 if b == 10 else 11 - b)))
            elif a + b == 10:
                rolls.append(int(rng.integers(0, 11)))
        assert bowling_total(rolls) == reference_score(rolls)
    assert bowling_total([10] * 12) == 300 and bowling_total([9, 1] * 10 + [9]) == 190


def test_call_shots_option():
    """call_shots: a call is required and only the called ball in the called pocket counts;
    the others are spotted without penalty."""
    s = after_break(BowlliardsConfig(call_shots=True))
    with pytest.raises(IllegalActionError):
        play(s, hit=1, pocketed={2: 1})
    s2, v = D.apply_shot_record(s, ShotAction(3.0, 90.0, called_ball=2, called_pocket=1),
                                record(s, hit=1, pocketed={2: 1, 3: 4}))
    assert v.legal_pocketed == (2,) and v.spotted == (3,) and s2.scores == (1,) and not v.fouls


def test_state_extra_round_trip():
    s = after_break()
    assert isinstance(s.extra, BowlliardsExtra)
    from poolgym.rules import GameState
    assert GameState.from_json(s.to_json()) == s


def open_frame(s):
    """A frame of a free break, then two misses (an open frame of 0)."""
    assert s.phase is Phase.BREAK
    s = place(s)
    s, _ = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1))
    s = place(s)
    s, _ = play(s, hit=1, obj_rails=(1,))
    if s.cue_ball is not CueBallPlacement.IN_POSITION:
        s = place(s)
    s, v = play(s, hit=1, obj_rails=(1,))
    return s, v


@pytest.mark.rule("BW-2", "BW-5")
@pytest.mark.parametrize("n,first", [(2, 1), (3, 1), (3, 2), (4, 0)])
def test_every_seat_plays_every_frame_from_the_first_breaker(n, first):
    """BW-5 ("ten frames per player"; order of players by lag or agreement): the seats play
    each frame in turn from the game's first breaker (here `first_breaker`; the G-3.6 lag
    winner the same way), and the game ends when the last of them has played the last
    frame -- every seat plays exactly ``frames`` frames."""
    cfg = BowlliardsConfig(n_players=n, frames=3, first_breaker=first)
    s = D.initial_state(cfg, 0)
    order = []
    while s.phase is not Phase.GAME_OVER:
        order.append((s.extra.frame, s.seat_to_act))
        s, v = open_frame(s)
    seats = [(first + k) % n for k in range(n)]
    assert order == [(f, seat) for f in range(3) for seat in seats]
    assert all(len(r) == 2 * 3 for r in s.extra.rolls)  # two rolls of every open frame, every seat


def test_two_seats_after_the_lag_play_their_frames():
    """G-3.6 lag, then BW-5 with the lag winner breaking first: random play with the real
    physics to the end, every seat's frames complete, whichever seat won the lag."""
    from poolgym.rules.testing import play_game

    cfg = BowlliardsConfig(n_players=2, lag=True, frames=2)
    breakers = set()
    for seed in range(8):
        s, _ = play_game("bowlliards", cfg, seed=seed, agent_seed=seed, check=True)
        assert s.phase is Phase.GAME_OVER
        breakers.add(s.breaker)
        assert all(len(r) >= 2 * 2 for r in s.extra.rolls)
    assert breakers == {0, 1}
