"""Behaviour shared by every discipline, checked for each at once.

* Bad actions (calling a pocketed ball, placing the cue ball on another ball or in front of
  the head string when it must go behind it, an option that is not offered, acting after
  the game ended, ...) raise IllegalActionError naming the problem and leave the state
  unchanged (G-3.22, G-3.16, R-2.21, 8B-4.2, SP-6.7.1).
* Break order of the next game (G-3.36 / GB-29 / 8B-4.4 / 9B-5.3, C-06): winner,
  alternate, loser, trailing -- in every discipline.
* Option states (the incoming player's choices) round-trip through JSON.
"""
import pytest

from poolgym.rules import (BreakOrder, ChooseOption, Concede, CueBallPlacement, GameState, IllegalActionError,
                           Option, Phase, PlaceCueBall, ShotAction)
from poolgym.rules.game import get_discipline, next_game
from poolgym.rules.geometry import ball_radius, get_table
from poolgym.rules.testing import make_state, record

T = get_table("9ft")
R = ball_radius()
DISCIPLINES = ("nine_ball", "eight_ball", "straight_pool")


def _play(name, cue=(0.635, 1.0)):
    balls = {1: (0.4, 1.5), 9: (0.9, 1.6)} if name == "nine_ball" else {1: (0.4, 1.5), 9: (0.9, 1.6), 10: (0.3, 2.0)}
    return make_state(name, balls, cue, **({"groups": (1, 2)} if name == "eight_ball" else {}))


def _call(name, ball=1, pocket=2, V0=3.0, **kw):
    if name == "nine_ball":
        return ShotAction(V0, 90.0, **kw)
    return ShotAction(V0, 90.0, called_ball=ball, called_pocket=pocket, **kw)


def _cases(name):
    d = get_discipline(name)
    play = _play(name)
    in_hand = _play(name, cue=None)
    brk = d.initial_state(None, seed=0)
    over = play.replace(phase=Phase.GAME_OVER, winner=0)
    out = [
        ("place when not in hand", play, PlaceCueBall(0.5, 0.5), "not in hand"),
        ("place overlapping a ball", in_hand, PlaceCueBall(0.4, 1.5 + R), "G-3.22"),
        ("place off the bed", in_hand, PlaceCueBall(0.0, 1.0), "bed"),
        ("break placement in front of head string", brk, PlaceCueBall(0.635, 1.0), "head string"),
        ("break placement on the head string", brk, PlaceCueBall(0.635, float(T.head_string_y)), "head string"),
        ("shoot before placing", brk, ShotAction(7.0, 90.0), "place"),
        ("option not offered", play, ChooseOption(Option.PASS_BACK), "not offered"),
        ("not an Option", play, ChooseOption("accept_table"), "Option"),
        ("shot after the game ended", over, _call(name), "over"),
        ("concede after the game ended", over, Concede(), "over"),
        ("placement after the game ended", over.replace(cue_ball=CueBallPlacement.IN_HAND_ANYWHERE),
         PlaceCueBall(0.6, 0.6), "over"),
        ("miscue", play, _call(name, a=0.5, b=0.5), "miscue"),
        ("tip offset beyond the ball", play, _call(name, theta=45.0, a=0.8, b=0.8), "misses"),
        ("faster than the physics allows", play, _call(name, V0=50.001), "V0"),
    ]
    if name != "nine_ball":
        out += [
            ("call a pocketed ball", play, _call(name, ball=5), "not on the table"),
            ("call without a pocket", play, ShotAction(3.0, 90.0, called_ball=1), "pocket"),
            ("call a bad pocket", play, _call(name, pocket=6), "pocket"),
            ("no call, no safety", play, ShotAction(3.0, 90.0), "call"),
            ("push-out", play, _call(name, push_out=True), "push-out"),
        ]
    if name == "eight_ball":
        out += [("call the opponent's ball", play, _call(name, ball=9), "8B-4.11"),
                ("call on the break", d.apply(brk, PlaceCueBall(0.6, 0.4))[0], _call(name), "8B-4.2")]
    if name == "nine_ball":
        out += [("place frozen to a ball", in_hand, PlaceCueBall(0.4, 1.5 - 2 * R - 1e-10), "9B-5.10"),
                ("push-out not after the break", play, ShotAction(3.0, 90.0, push_out=True), "9B-5.6"),
                ("safety", play, ShotAction(3.0, 90.0, safety=True), "safety")]
    return out


ALL = [(name,) + c for name in DISCIPLINES for c in _cases(name)]


@pytest.mark.parametrize("name,what,state,action,match", ALL, ids=[f"{c[0]}-{c[1]}" for c in ALL])
def test_bad_actions_raise_and_leave_state_unchanged(name, what, state, action, match):
    """G-3.22 / G-3.16 / R-2.21 / G-3.26 / G-3.27 / 8B-4.2 / SP-6.7.1 / 9B-5.6 / 9B-5.10:
    every illegal action raises IllegalActionError (a ValueError) naming the problem; the
    state is unchanged (its JSON is identical) and still accepts a legal action."""
    d = get_discipline(name)
    before = state.to_json()
    rec = record(state, hit=1, obj_rails=(1,)) if state.on_table[0] and isinstance(action, ShotAction) else None
    with pytest.raises(IllegalActionError, match=match):
        if rec is not None:
            d.apply_shot_record(state, action, rec)
        else:
            d.apply(state, action)
    assert state.to_json() == before and GameState.from_json(before) == state


@pytest.mark.rule("G-3.36", "GB-29", "8B-4.4", "9B-5.3")
@pytest.mark.parametrize("name", DISCIPLINES)
@pytest.mark.parametrize("order,expect", [(BreakOrder.WINNER, 1), (BreakOrder.ALTERNATE, 1), (BreakOrder.LOSER, 0),
                                          (BreakOrder.TRAILING, 1)])
def test_G_3_36_break_order_variants_every_discipline(name, order, expect):
    """G-3.36 / GB-29 (8B-4.4, 9B-5.3; 14.1 between games): seat 0 broke, seat 1 won and
    trails 1-2 in games: winner -> 1, alternate -> 1, loser -> 0, trailing -> 1. The next
    game starts with a fresh rack, the breaker in hand behind the head string."""
    d = get_discipline(name)
    s = d.initial_state(d.config_cls(break_order=order), seed=3, breaker=0, games_won=(2, 0))
    over = s.replace(phase=Phase.GAME_OVER, winner=1, shot_number=7, scores=(5, 9), consecutive_fouls=(2, 1))
    g = next_game(over)
    assert g.breaker == expect and g.seat_to_act == expect and g.phase is Phase.BREAK
    assert g.games_won == (2, 1) and g.game_number == 1 and g.shot_number == 0
    assert g.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and not g.cue_placed and not g.on_table[0]
    assert g.consecutive_fouls == (0, 0)  # 9B-5.13: the three fouls must occur in one game
    assert g.balls_on_table() == tuple(range(1, s.n_balls)) and g.pos != s.pos  # new rack from the RNG
    # trailing with the games tied after this game: the loser of this game breaks
    tie = d.initial_state(d.config_cls(break_order=BreakOrder.TRAILING), seed=3, breaker=0, games_won=(1, 0))
    assert next_game(tie.replace(phase=Phase.GAME_OVER, winner=1)).breaker == 0
    # a drawn game (stalemate cap) is re-broken by the same breaker, except when alternating
    draw = next_game(s.replace(phase=Phase.GAME_OVER, winner=None))
    assert draw.breaker == (1 if order is BreakOrder.ALTERNATE else 0)


def test_option_states_round_trip_json():
    """Every OPTION state (9B-5.6 push-out choice, 8B-4.5 / 8B-4.7 / 8B-4.8 break options,
    SP-6.6 / SP-6.12 re-break options) and the state after each choice round-trip through
    JSON."""
    seen = 0
    for name, recs in (
        ("nine_ball", [dict(hit=1, obj_rails=(1, 2, 3, 4))]),
        ("eight_ball", [dict(hit=1, obj_rails=(1,)), dict(hit=1, obj_rails=(1, 2, 3, 4), off_table=(3,)),
                        dict(hit=1, pocketed={8: 5}), dict(hit=1, pocketed={8: 5}, scratch=0)]),
        ("straight_pool", [dict(hit=1, obj_rails=(1,))]),
    ):
        d = get_discipline(name)
        for kw in recs:
            s = d.apply(d.initial_state(None, seed=1), PlaceCueBall(0.6, 0.4))[0]
            s, v = d.apply_shot_record(s, ShotAction(7.0, 90.0), record(s, **kw))
            if name == "nine_ball":  # legal break; the next shot is a push-out
                s, v = d.apply_shot_record(s, ShotAction(1.0, 90.0, push_out=True), record(s))
            assert s.phase is Phase.OPTION and s.options, (name, kw, v)
            assert GameState.from_json(s.to_json()) == s
            for opt in s.options:
                s2, _ = d.apply(s, ChooseOption(opt))
                assert GameState.from_json(s2.to_json()) == s2
                seen += 1
    assert seen >= 12
