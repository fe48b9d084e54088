"""Seeded random games of the six scoring games under the real physics: every game ends, and
after every action the state invariants hold (testing.check_invariants), every object ball
is accounted for (off the table = off before + pocketed + jumped - spotted, unless the rack
was set up again), each score is the sum of the verdicts' points, and at the end the
game-specific ledgers agree with the scores (bowlliards: the independent ten-pin scorer of
test_bowlliards.py)."""
import numpy as np
import pytest

from poolgym.rules import ChooseOption, Phase, ShotAction
from poolgym.rules import queries as q
from poolgym.rules.game import get_discipline, simulate_record
from poolgym.rules.games.bowlliards import BowlliardsConfig
from poolgym.rules.games.cowboy import CowboyConfig
from poolgym.rules.games.cribbage import CribbageConfig
from poolgym.rules.games.honolulu import HonoluluConfig
from poolgym.rules.games.side_pocket_one_ball import OneBallSideConfig
from poolgym.rules.games.six_ball import SixBallConfig
from poolgym.rules.testing import check_invariants, random_action

from test_bowlliards import reference_score  # tests/rules is on sys.path (pytest rootdir-relative import)

#: verdict refs that mean the balls were racked or set up again
RESETUP = {"6B-4", "BW-4", "CR-4", "CW-5"}

CASES = [
    ("six_ball", SixBallConfig(), 3),
    ("six_ball", SixBallConfig(n_players=3), 3),
    ("bowlliards", BowlliardsConfig(), 2),
    ("bowlliards", BowlliardsConfig(n_players=2, frames=3), 2),
    ("cowboy", CowboyConfig(max_shots=200), 3),
    ("cowboy", CowboyConfig(n_players=3, max_shots=200), 2),
    ("honolulu", HonoluluConfig(max_shots=150), 2),
    ("cribbage", CribbageConfig(max_shots=200), 3),
    ("one_ball_side", OneBallSideConfig(max_shots=200), 3),
]


def off_table(state):
    return {k for k in range(1, state.n_balls) if not state.on_table[k]}


def play_checked(name, cfg, seed):
    d = get_discipline(name)
    rng = np.random.default_rng(1000 + seed)
    s = d.initial_state(cfg, seed)
    totals = np.zeros(s.n_players, int)
    for _ in range(3000):
        if s.phase is Phase.GAME_OVER:
            return s, totals
        a = random_action(s, rng, aim=0.9)
        before = off_table(s)
        if isinstance(a, ShotAction):
            rec = simulate_record(s, a)
            s2, v = d.apply_shot_record(s, a, rec)
            pocketed, jumped = set(q.pocketed(rec)), {b for b in q.jumped_off_table(rec) if b != 0}
        else:
            s2, v = d.apply(s, a)
            pocketed, jumped = set(), set()
        check_invariants(s2)
        if v is not None:
            if v.points:
                totals += np.asarray(v.points, int)
            if not (RESETUP & set(v.rule_refs)) and not isinstance(a, ChooseOption) and \
                    not (name == "cowboy" and s2.cue_ball.value == "in_hand_kitchen" and 100 in s2.scores):
                assert off_table(s2) == (before | pocketed | jumped) - set(v.spotted), (name, v)
        assert tuple(totals) == s2.scores, (name, v)
        s = s2
    raise AssertionError(f"{name} seed {seed}: the game did not end")


@pytest.mark.parametrize("name, cfg, games", CASES, ids=[f"{c[0]}-{c[1].n_players}p" for c in CASES])
def test_random_games_terminate_with_invariants(name, cfg, games):
    for seed in range(games):
        s, totals = play_checked(name, cfg, seed)
        assert s.phase is Phase.GAME_OVER
        ex = s.extra
        if name == "bowlliards":
            frames = cfg.frames
            for k in range(s.n_players):
                rolls = ex.rolls[k]
                if frames == 10:
                    assert s.scores[k] == reference_score(rolls) - ex.penalties[k]
                assert all(0 <= r <= 10 for r in rolls)
        elif name == "honolulu":
            assert all(s.scores[k] == len(ex.scored[k]) for k in range(2))
        elif name == "cowboy":
            assert all(0 <= v <= 101 for v in s.scores)
        elif name == "cribbage":
            assert sum(s.scores) <= 8 and sum(s.scores) >= len(ex.pairs)
        if s.winner is not None:
            assert 0 <= s.winner < s.n_players
