"""Golden playthroughs of the BCA N-seat games (tests/rules/goldens/bca_*.json, written by
tests/rules/make_bca_goldens.py): a seeded game under the real physics recorded as actions,
shot records and verdicts, replayed through the referee and compared verdict by verdict and
on the final state. A missing golden fails."""
import json
from pathlib import Path

import pytest

from poolgym.rules import serialize
from poolgym.rules.testing import replay_log

from make_bca_goldens import GAMES  # noqa: E402  (tests/rules is on sys.path under pytest's rootdir-relative import)

GOLD = Path(__file__).parent / "goldens"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_replay(name):
    path = GOLD / f"{name}.json"
    assert path.exists(), f"golden {path.name} is missing: run python tests/rules/make_bca_goldens.py"
    doc = json.loads(path.read_text())
    cfg = serialize.from_obj(doc["config"])
    final, verdicts = replay_log(doc["discipline"], cfg, doc["seed"], doc["log"])
    expected = [item["verdict"] for item in doc["log"]]
    assert len(verdicts) == len(expected)
    for k, (got, exp) in enumerate(zip(verdicts, expected)):
        assert got == exp, f"verdict {k} differs"
    assert final == serialize.from_obj(doc["final_state"])
    assert final.game_over
