"""Golden nine-ball playthroughs (tests/rules/goldens/nine_ball_*.json): complete games
recorded as actions + shot records + verdicts; replayed through the referee and compared
verdict by verdict (9B-5.1 ... 9B-5.14 end to end; regenerate with
tests/rules/make_nine_ball_goldens.py after an intended rules change)."""
import json
from pathlib import Path

import pytest

from poolgym.rules import serialize
from poolgym.rules.testing import replay_log

GOLDEN_DIR = Path(__file__).parent / "goldens"
# the games tests/rules/make_nine_ball_goldens.py writes
NAMES = ["nine_ball_win_push_out", "nine_ball_win", "nine_ball_three_fouls", "nine_ball_lag_alternate"]
GOLD = [GOLDEN_DIR / f"{name}.json" for name in NAMES]


def test_goldens_are_the_generated_set():
    """Exactly the generated goldens are stored (a missing or stray file fails)."""
    assert sorted(p.name for p in GOLDEN_DIR.glob("nine_ball*.json")) == sorted(p.name for p in GOLD)


@pytest.mark.parametrize("path", GOLD, ids=NAMES)
def test_golden_replay(path):
    assert path.exists(), f"{path.name} missing: run python tests/rules/make_nine_ball_goldens.py"
    doc = json.loads(path.read_text())
    cfg = serialize.from_obj(doc["config"])
    final, verdicts = replay_log(doc["discipline"], cfg, doc["seed"], doc["log"])
    expected = [item["verdict"] for item in doc["log"]]
    for k, (got, exp) in enumerate(zip(verdicts, expected)):
        assert got == exp, f"verdict {k} differs"
    assert len(verdicts) == len(expected)
    assert final == serialize.from_obj(doc["final_state"])
    assert final.game_over


def test_goldens_cover_the_endings():
    """The golden set contains a legal 9 (9B-5.14), a three-foul loss (9B-5.13), a
    push-out (9B-5.6) and a lag (G-3.6)."""
    refs = set()
    pushes = 0
    for p in GOLD:
        doc = json.loads(p.read_text())
        for item in doc["log"]:
            v = item["verdict"]
            if v is not None:
                refs.update(v["rule_refs"])
            pushes += bool(item["action"].get("push_out"))
    assert {"9B-5.14", "9B-5.13", "G-3.6"} <= refs and pushes >= 1
