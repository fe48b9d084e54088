"""Framework: immutability, equality, JSON round trip, registry, config validation and
illegal actions (IllegalActionError, state unchanged)."""
import dataclasses

import pytest

from poolgym.rules import (DISCIPLINES, ActionSpec, ChooseOption, Concede, CueBallPlacement, Foul, FoulKind,
                           GameState, IllegalActionError, Option, Phase, PlaceCueBall, RulesConfig, ShotAction,
                           Verdict, get_discipline, legal_actions, new_game, next_game, serialize)
from poolgym.rules.eight_ball import EightBallConfig
from poolgym.rules.nine_ball import NineBallConfig
from poolgym.rules.testing import make_state, record

D = get_discipline("nine_ball")
SHOT = ShotAction(V0=3.0, phi=90.0)


def test_registry_lazy_and_module_functions():
    assert "nine_ball" in DISCIPLINES and "eight_ball" in list(DISCIPLINES)
    s = new_game("nine_ball", NineBallConfig(), seed=3)
    assert isinstance(legal_actions(s), ActionSpec)
    with pytest.raises(KeyError):
        get_discipline("snooker")


def test_state_frozen_hashable_equal():
    s = D.initial_state(NineBallConfig(), seed=5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.seat_to_act = 1
    assert s == D.initial_state(NineBallConfig(), seed=5) and hash(s) == hash(D.initial_state(NineBallConfig(), seed=5))
    assert s != D.initial_state(NineBallConfig(), seed=6)


@pytest.mark.parametrize("obj", [
    ShotAction(2.5, 33.3, 5.0, 0.1, -0.2, called_ball=3, called_pocket=4, safety=True),
    PlaceCueBall(0.1234567890123, 0.5), ChooseOption(Option.PASS_BACK), Concede(),
    Verdict(fouls=(Foul(FoulKind.SCRATCH, "G-3.20"),), pocketed=(3,), points=(0, 0), next_seat=1,
            cue_ball=CueBallPlacement.IN_HAND_ANYWHERE, options=(Option.ACCEPT_TABLE,), rule_refs=("9B-5.7",)),
    NineBallConfig(break_order="loser", nine_on_push_out="win"),
])
def test_json_round_trip(obj):
    assert serialize.from_json(serialize.to_json(obj)) == obj


def test_state_json_round_trip_exact_floats():
    s = D.initial_state(NineBallConfig(), seed=11)
    s, _ = D.apply(s, PlaceCueBall(0.1 + 1e-13, 0.3 / 7))
    t = GameState.from_json(s.to_json())
    assert t == s and t.pos == s.pos and isinstance(t.pos, tuple)


def test_config_validation_names_field():
    with pytest.raises(ValueError, match="n_players"):
        NineBallConfig(n_players=3)
    with pytest.raises(ValueError, match="split_hit_eps"):
        NineBallConfig(split_hit_eps=-1.0)
    with pytest.raises(ValueError):
        NineBallConfig(break_order="sometimes")
    with pytest.raises(ValueError, match="config"):
        D.initial_state(RulesConfig(), seed=0)


def test_rng_continues_between_games():
    s = D.initial_state(NineBallConfig(), seed=2)
    g1 = next_game(s.replace(phase=Phase.GAME_OVER, winner=0))
    g2 = next_game(g1.replace(phase=Phase.GAME_OVER, winner=0))
    assert g1.pos != g2.pos and g1.rng != g2.rng and g2.game_number == 2
    with pytest.raises(IllegalActionError):
        next_game(s)


def play():
    return make_state("nine_ball", {1: (0.3, 1.5), 2: (0.9, 1.6), 9: (0.635, 2.2)}, (0.635, 1.0))


@pytest.mark.parametrize("make,action,match", [
    (lambda: play(), ShotAction(3.0, 90.0, called_ball=4, called_pocket=1), "not on the table"),
    (lambda: play(), ShotAction(3.0, 90.0, called_ball=12), "not an object ball"),
    (lambda: play(), ShotAction(-1.0, 90.0), "V0"),
    (lambda: play(), ShotAction(float("nan"), 90.0), "finite"),
    (lambda: play(), ShotAction(True, 90.0), "finite"),
    (lambda: play(), ShotAction(3.0, 90.0, b=True), "finite"),
    (lambda: play(), ShotAction(3.0, 90.0, called_ball=True, called_pocket=2), "not an object ball"),
    (lambda: play(), ShotAction(3.0, 90.0, called_ball=1, called_pocket=False), "pocket index"),
    (lambda: play(), ShotAction(3.0, 90.0, push_out="no"), "push_out must be a bool"),
    (lambda: play(), ShotAction(3.0, 90.0, safety=1), "safety must be a bool"),
    (lambda: D.initial_state(NineBallConfig(), seed=0), PlaceCueBall(True, 0.3), "numbers"),
    (lambda: play(), ShotAction(3.0, 90.0, theta=95.0), "theta"),
    (lambda: play(), ShotAction(3.0, 90.0, safety=True), "safety"),
    (lambda: play(), PlaceCueBall(0.5, 0.5), "not in hand"),
    (lambda: play(), ChooseOption(Option.PASS_BACK), "not offered"),
    (lambda: play(), ChooseOption("pass_back"), "Option"),
    (lambda: D.initial_state(NineBallConfig(), seed=0), SHOT, "place it"),
    (lambda: D.initial_state(NineBallConfig(), seed=0), PlaceCueBall(0.5, 1.0), "head string"),
    (lambda: D.initial_state(NineBallConfig(), seed=0), PlaceCueBall(0.635, 1.905), "head string"),
    (lambda: play().replace(phase=Phase.GAME_OVER, winner=0), SHOT, "over"),
    (lambda: play().replace(phase=Phase.GAME_OVER, winner=0), Concede(), "over"),
    (lambda: play().replace(phase=Phase.OPTION, options=(Option.ACCEPT_TABLE,)), SHOT, "phase"),
    (lambda: play().replace(phase=Phase.OPTION, options=(Option.ACCEPT_TABLE,)), ChooseOption(Option.PASS_BACK),
     "not offered"),
])
def test_illegal_actions_raise_and_leave_state(make, action, match):
    """Bad actions raise IllegalActionError with a clear message; the state is unchanged."""
    s = make()
    before = s.to_json()
    with pytest.raises(IllegalActionError, match=match):
        if isinstance(action, ShotAction):
            D.apply_shot_record(s, action, record(s, hit=1))
        else:
            D.apply(s, action)
    assert s.to_json() == before


def test_placement_on_ball_anywhere_rejected():
    s = make_state("nine_ball", {1: (0.3, 1.5)}, None, cue_ball=CueBallPlacement.IN_HAND_ANYWHERE)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        D.apply(s, PlaceCueBall(0.3, 1.5))
    assert s.to_json() == before


def test_verdict_and_state_consistent():
    """next_seat in the verdict is the seat to act in the new state."""
    s = play()
    for rec_kw in ({"hit": 1, "pocketed": {2: 0}}, {"hit": 2}, {"hit": 1, "obj_rails": (1,)}):
        s2, v = D.apply_shot_record(s, SHOT, record(s, **rec_kw))
        assert v.next_seat == s2.seat_to_act and v.cue_ball is s2.cue_ball


def test_doctests():
    """The docstring examples (the class docstring is the spec) run."""
    import doctest

    from poolgym.rules import nine_ball, serialize as ser
    for mod in (nine_ball, ser):
        res = doctest.testmod(mod)
        assert res.failed == 0 and res.attempted > 0


@pytest.mark.parametrize("change,match", [
    ({"pos": (0.5, 0.5)}, "state.pos must be a tuple of 20"),
    ({"pos": [0.5] * 20}, "state.pos must be a tuple of 20"),
    ({"on_table": (True,) * 9}, "state.on_table must be a tuple of 10 bools"),
    ({"on_table": (1,) * 10}, "state.on_table must be a tuple of 10 bools"),
    ({"seat_to_act": 2}, "seat_to_act must be a seat in \\[0, 2\\)"),
    ({"seat_to_act": True}, "seat_to_act"),
    ({"winner": 5}, "winner"),
    ({"scores": (0, 0, 0)}, "scores must be a tuple with one entry per seat"),
    ({"consecutive_fouls": (0,)}, "consecutive_fouls"),
    ({"phase": "play"}, "state.phase must be a Phase"),
    ({"cue_ball": "in_position"}, "state.cue_ball must be a CueBallPlacement"),
    ({"cue_placed": 0}, "cue_placed must be a bool"),
    ({"options": ("accept_table",)}, "state.options must be a tuple of Option"),
    ({"config": EightBallConfig()}, "state.config must be a NineBallConfig"),
])
def test_malformed_state_is_named_before_the_referee_reads_it(change, match):
    """A hand-made state with a malformed field fails at the rules' entry points with the field
    named (`DisciplineBase.check_state`), where it used to fail deep inside the referee with
    a struct or index error, or be ruled as if it were a game."""
    s = play()
    bad = s.replace(**change)
    with pytest.raises(ValueError, match=match):
        D.apply_shot_record(bad, ShotAction(3.0, 90.0), record(s, hit=1))
    with pytest.raises(ValueError, match=match):
        D.apply(bad, ShotAction(3.0, 90.0))
    D.check_state(s)  # the well-formed state passes
    from poolgym.rules import game

    with pytest.raises(ValueError, match=match):
        game.legal_actions(bad)
    assert game.legal_actions(s) == D.legal_actions(s)
    with pytest.raises(ValueError, match="must be a GameState"):
        game.apply({"pos": s.pos}, ShotAction(3.0, 90.0))


def test_malformed_ball_position_is_named():
    s = play()
    p = list(s.pos)
    p[2] = float("nan")  # ball 1 is on the table
    with pytest.raises(ValueError, match="state.pos of ball 1"):
        D.apply(s.replace(pos=tuple(p)), ShotAction(3.0, 90.0))
    p = list(s.pos)
    p[8] = float("nan")  # ball 4 is off the table: its position is meaningless
    D.check_state(s.replace(pos=tuple(p)))


def test_make_state_checks_what_it_makes():
    with pytest.raises(ValueError, match="not an object ball of nine_ball"):
        make_state("nine_ball", {10: (0.3, 1.5)}, (0.635, 1.0))
    with pytest.raises(ValueError, match="seat_to_act"):
        make_state("nine_ball", {1: (0.3, 1.5)}, (0.635, 1.0), seat=2)
