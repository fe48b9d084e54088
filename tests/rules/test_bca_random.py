"""Seeded random games of the BCA N-seat disciplines under the real physics, for every seat
count each rules file allows (OpenSpiel-style random-play invariants). After every action:
exactly one seat acts and the rules offer it something (testing.check_invariants: JSON round
trip, no overlaps, cue-ball placement); every object ball is accounted for exactly once
(on the table, or where the game keeps pocketed balls); the scores equal the sum of the
verdicts' points; privacy (testing.check_privacy: each seat's observation is byte-identical
when every other seat's secrets change). Each game ends, and `returns` sums to zero where
the game is zero-sum. (Random play fouls on about a third of its shots; in cut-throat and
forty-one a foul spots balls back (CT-13, 41-13), so these random games end by the
``max_shots`` cap; real endings under the physics: tests/agents/test_seat_agents.py.)"""
import numpy as np
import pytest

from poolgym.rules import Phase, ShotAction, get_discipline, returns
from poolgym.rules.game import simulate_record
from poolgym.rules.testing import check_invariants, check_privacy, random_action

SEATS = {
    "pea_pool": tuple(range(2, 16)),
    "forty_one": tuple(range(2, 16)),
    "cutthroat": (3, 5),
    "card_ball": (2, 3, 4, 5, 6),
    "odd_ball": (2, 4, 6),
    "mr_and_mrs": (2, 3, 4, 5, 6),
}
MAX_SHOTS = 120


def _ledger(state) -> list:
    """Where each object ball is: 'table' or the game's own bookkeeping of pocketed balls."""
    name = state.discipline
    places = []
    for b in range(1, 16):
        where = ["table"] if state.on_table[b] else []
        if name == "forty_one":
            where += [f"seat{k}" for k, balls in enumerate(state.extra.pocketed_by) if b in balls]
        elif not state.on_table[b]:
            where.append("pocket")
        places.append(where)
    return places


def _zero_sum(name, cfg) -> bool:
    return True


#: extra configurations played at two and six seats (declarations by hand)
VARIANTS = {
    "pea_pool": {"variant_points": True, "auto_declare": False},
    "forty_one": {"auto_declare": False, "penalty_ball": "player_choice"},
}


def play(name, n, seed, **kw):
    d = get_discipline(name)
    cfg = d.config_cls(n_players=n, max_shots=MAX_SHOTS, **kw)
    rng = np.random.default_rng(1000 + seed)
    s = d.initial_state(cfg, seed)
    totals = np.zeros(n)
    actions = 0
    while s.phase is not Phase.GAME_OVER:
        a = random_action(s, rng)
        if isinstance(a, ShotAction):
            s2, v = d.apply_shot_record(s, a, simulate_record(s, a))
        else:
            s2, v = d.apply(s, a)
        if v is not None:
            assert len(v.points) == n
            totals += np.asarray(v.points, float)
            assert v.next_seat == s2.seat_to_act
        s = s2
        actions += 1
        check_invariants(s)
        check_privacy(s)
        assert all(len(w) == 1 for w in _ledger(s)), _ledger(s)
        assert np.allclose(totals, np.asarray(s.scores, float)), (totals, s.scores)
        assert actions < 20 * MAX_SHOTS
    r = returns(s)
    assert len(r) == n
    if _zero_sum(name, cfg):
        assert abs(sum(r)) < 1e-9
    return s


CASES = [(name, n) for name, ns in SEATS.items() for n in ns]


@pytest.mark.parametrize("name,n", CASES, ids=[f"{a}-{b}" for a, b in CASES])
def test_random_games_terminate_with_invariants(name, n):
    s = play(name, n, seed=n)
    assert s.game_over


VCASES = [(name, n) for name in VARIANTS for n in (SEATS[name][0], 6)]


@pytest.mark.parametrize("name,n", VCASES, ids=[f"{a}-{b}" for a, b in VCASES])
def test_random_games_with_declarations_by_hand(name, n):
    s = play(name, n, seed=100 + n, **VARIANTS[name])
    assert s.game_over


@pytest.mark.parametrize("name", sorted(SEATS))
def test_random_game_replays_from_seed_and_actions(name):
    """A game replays exactly from its seed and actions (chance from the state's RNG)."""
    n = SEATS[name][0]
    assert play(name, n, seed=3) == play(name, n, seed=3)
