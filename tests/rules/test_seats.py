"""N-seat framework (poolgym.rules.seats; API.md "Seats"): a two-seat WPA game is the N = 2
case of the same state with its JSON unchanged; order of play over the seats still in the
game; chance from the state's RNG recorded publicly without its values; observe() holds
public state + own secret only; declarations only in their window; per-seat returns;
concession with more than two seats."""
import json

import pytest

from poolgym.rules import (Concede, Declaration, Declare, EventType, GameState, IllegalActionError, Phase, SeatView,
                           ShotAction, get_discipline, observe, returns, serialize)
from poolgym.rules.games.pea_pool import Bottle, Pea, PeaPoolConfig
from poolgym.rules.nine_ball import NineBallConfig
from poolgym.rules.seats import active_seats, draw_from, draw_with, next_in_order, set_active, team_of, teammates
from poolgym.rules.testing import check_privacy, make_state, perturb_secrets, record

NB = get_discipline("nine_ball")
PP = get_discipline("pea_pool")
NEW_FIELDS = ("teams", "active", "order", "private", "hidden", "history", "pending")


def test_wpa_state_and_verdict_json_have_no_seat_fields():
    """The two-seat WPA game is the N = 2 case of the same GameState: its seat fields are
    empty and absent from the JSON, which decodes back to an equal state."""
    s = NB.initial_state(NineBallConfig(), seed=3)
    obj = json.loads(s.to_json())
    assert not set(NEW_FIELDS) & set(obj)
    assert all(getattr(s, f) in ((), None) for f in NEW_FIELDS)
    assert GameState.from_json(s.to_json()) == s
    s = make_state("nine_ball", {1: (0.6, 1.6), 9: (0.3, 2.0)}, cue=(0.6, 1.0))
    s2, v = NB.apply_shot_record(s, ShotAction(3.0, 90.0), record(s, hit=1, pocketed={9: 2}))
    assert "events" not in serialize.to_obj(v) and "declarations" not in serialize.to_obj(NB.legal_actions(s))
    assert s2.game_over and returns(s2) == (1.0, -1.0) and returns(s) == (0.0, 0.0)


def test_seat_order_skips_inactive_and_follows_order():
    s = PP.initial_state(PeaPoolConfig(n_players=5), seed=0)
    assert next_in_order(s, 4) == 0 and next_in_order(s, 1) == 2
    s = s.replace(active=set_active(s, 2, False))
    assert next_in_order(s, 1) == 3 and active_seats(s) == (0, 1, 3, 4)
    s = s.replace(order=(4, 3, 2, 1, 0))
    assert next_in_order(s, 3) == 1 and next_in_order(s, 0) == 4
    assert next_in_order(s, 1, include_self=True) == 1 and next_in_order(s, 2, include_self=True) == 1
    assert team_of(s, 3) == 3 and teammates(s, 3) == (3,)
    t = s.replace(teams=(0, 1, 0, 1, 0))
    assert teammates(t, 2) == (0, 2, 4)


def test_chance_draws_from_state_rng_replay_exactly():
    """Deals come from the state's (seed, counter): the same seed gives the same peas, the
    counter advances, and the public history records who drew, never what (PP-5)."""
    s = PP.initial_state(PeaPoolConfig(n_players=6), seed=42)
    t = PP.initial_state(PeaPoolConfig(n_players=6), seed=42)
    assert s == t and s.private == t.private
    assert len({p.number for p in s.private}) == 6
    assert sorted([p.number for p in s.private] + list(s.hidden.peas)) == list(range(1, 16))
    assert [e.kind for e in s.history] == [EventType.DRAW_PEA] * 6
    assert all(e.value == -1 for e in s.history) and [e.seat for e in s.history] == list(range(6))
    others = {tuple(p.number for p in PP.initial_state(PeaPoolConfig(n_players=6), seed=k).private) for k in range(8)}
    assert len(others) > 1
    drawn, rest, s2 = draw_from(s, (1, 2, 3, 4), 2)
    assert s2.rng == (s.rng[0], s.rng[1] + 1) and len(set(drawn)) == 2 and set(drawn) | set(rest) == {1, 2, 3, 4}
    assert draw_from(s, (1, 2, 3, 4), 2)[0] == drawn
    with pytest.raises(ValueError):
        draw_from(s, (1,), 2)
    # the draw on the RNG tuple alone (a referee's hot path) is the same draw
    for pool, k in (((1, 2, 3, 4), 2), (tuple(range(52)), 1), ((7,), 1), ((3, 5), 0)):
        d, r, st = draw_from(s, pool, k)
        assert draw_with(s.rng, pool, k) == (d, r, st.rng)
    with pytest.raises(ValueError):
        draw_with(s.rng, (1,), 2)


def test_observe_is_public_state_plus_own_secret():
    s = PP.initial_state(PeaPoolConfig(n_players=4), seed=7)
    v = observe(s, 2)
    assert isinstance(v, SeatView) and v.private == s.private[2]
    assert v.state.private == (None, None, s.private[2], None) and v.state.hidden is None and v.state.rng == ()
    assert serialize.from_json(v.to_json()) == v
    check_privacy(s)
    t = perturb_secrets(s, 2)
    assert t.private[0] != s.private[0] and t.private[2] == s.private[2] and t.hidden != s.hidden
    assert observe(t, 2).to_json() == v.to_json() and observe(t, 0).to_json() != observe(s, 0).to_json()
    with pytest.raises(ValueError, match="seat"):
        observe(s, 4)


def test_declaration_outside_its_window_is_illegal_and_changes_nothing():
    s = PP.initial_state(PeaPoolConfig(n_players=3), seed=1)
    assert PP.legal_actions(s).declarations == ()
    with pytest.raises(IllegalActionError, match="not open"):
        PP.apply(s, Declare(Declaration.ANNOUNCE_OWN_BALL))
    with pytest.raises(IllegalActionError):
        PP.apply(s, Declare("claim_41"))
    assert s == PP.initial_state(PeaPoolConfig(n_players=3), seed=1)


def test_concede_with_more_seats_leaves_the_game():
    """GW-11 with N > 2: the conceding seat leaves, play passes on; the last seat wins."""
    s = make_state("pea_pool", {1: (0.6, 1.6)}, cue=(0.6, 1.0), config=PeaPoolConfig(n_players=3), seat=1)
    s1, v = PP.apply(s, Concede())
    assert not s1.game_over and s1.seat_to_act == 2 and s1.active == (True, False, True)
    assert v.events[0].kind is EventType.DISQUALIFIED and v.rule_refs == ("GW-11",)
    s2, v = PP.apply(s1, Concede())
    assert s2.game_over and s2.winner == 0 and v.winner == 0
    r = returns(s2)
    assert r[0] == 1.0 and abs(sum(r)) < 1e-12


def test_seat_count_validated():
    for bad in (1, 16):
        with pytest.raises(ValueError, match="n_players"):
            PP.initial_state(PeaPoolConfig(n_players=bad), seed=0)
    with pytest.raises(ValueError, match="lag"):
        PeaPoolConfig(n_players=3, lag=True)


def test_returns_default_zero_sum_with_teams():
    s = PP.initial_state(PeaPoolConfig(n_players=4), seed=0).replace(phase=Phase.GAME_OVER, winner=1,
                                                                    teams=(0, 1, 0, 1))
    assert PP.returns(s) == (-1.0, 1.0, -1.0, 1.0)
    s = s.replace(teams=())
    r = PP.returns(s)
    assert r[1] == 1.0 and abs(sum(r)) < 1e-12
    assert PP.returns(s.replace(winner=None)) == (0.0,) * 4


def test_private_state_types_round_trip():
    s = PP.initial_state(PeaPoolConfig(n_players=3), seed=5)
    assert isinstance(s.private[0], Pea) and isinstance(s.hidden, Bottle)
    assert GameState.from_json(s.to_json()) == s
