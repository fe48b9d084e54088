"""The geometric player with the cue ball in hand behind the head string aims at balls on or
beyond the string (G-3.16, G-3.39), in its one-table and its batched decisions."""
import numpy as np
import pytest

from agents.base import make
from agents.tournament import play_game
from poolgym.players.view import beyond_head_string
from poolgym.rules.core import FoulKind
from poolgym.rules.games.bowlliards import BowlliardsConfig


def test_beyond_head_string_keeps_balls_on_or_past_the_string_else_all():
    balls = np.array([[0.5, 0.3], [0.5, 0.2], [0.5, 0.635], [0.5, 1.5]])
    assert beyond_head_string(balls, 0.635, (1, 2, 3)) == (2, 3)
    assert beyond_head_string(balls, 0.635, (1,)) == (1,)


@pytest.mark.rule("G-3.39")
def test_geometric_bowlliards_from_the_kitchen_commits_no_kitchen_foul():
    kitchen = []

    def on_step(state, action, new_state, verdict):
        if verdict is not None:
            kitchen.extend(f for f in verdict.fouls if f.kind is FoulKind.KITCHEN_RULE)

    rec = play_game("bowlliards", [make("geometric", seed=1)], seed=1, agent_seeds=[1],
                    config=BowlliardsConfig(max_shots=120), max_shots=120, labels=("g",), on_step=on_step)
    assert rec.error is None and kitchen == []
