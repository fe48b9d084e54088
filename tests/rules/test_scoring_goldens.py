"""Golden playthroughs of the six scoring games (tests/rules/goldens/<game>_golden.json): one
complete seeded game each, recorded as actions + shot records + verdicts; replayed through the
referee and compared verdict by verdict. A missing golden FAILS (regenerate with
tests/rules/make_scoring_goldens.py after an intended rules change)."""
import json
from pathlib import Path

import pytest

from poolgym.rules import serialize
from poolgym.rules.testing import replay_log

GOLD = Path(__file__).parent / "goldens"
GAMES = ("six_ball", "bowlliards", "cowboy", "honolulu", "cribbage", "one_ball_side")
RULES = {"six_ball": "6B-1", "bowlliards": "BW-6", "cowboy": "CW-5", "honolulu": "HO-6", "cribbage": "CR-9",
         "one_ball_side": "1S-6"}


@pytest.mark.parametrize("name", GAMES, ids=[f"{g}-{RULES[g]}" for g in GAMES])
def test_golden_replay(name):
    path = GOLD / f"{name}_golden.json"
    assert path.exists(), f"golden {path.name} is missing: run tests/rules/make_scoring_goldens.py"
    doc = json.loads(path.read_text())
    assert doc["discipline"] == name
    cfg = serialize.from_obj(doc["config"])
    final, verdicts = replay_log(name, cfg, doc["seed"], doc["log"])
    expected = [item["verdict"] for item in doc["log"]]
    assert len(verdicts) == len(expected) > 10
    for k, (got, exp) in enumerate(zip(verdicts, expected)):
        assert got == exp, f"{name}: verdict {k} differs"
    assert final == serialize.from_obj(doc["final_state"]) and final.game_over
