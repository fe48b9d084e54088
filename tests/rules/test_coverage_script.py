"""``python -m poolgym.rules.coverage``: the rule-ID parser finds every SIM / DECL rule of the
four WPA files and the script prints ``covered X/Y``."""
import subprocess
import sys
from pathlib import Path

import pytest

from poolgym.rules import coverage

RULES = coverage._default_rules_dir()


@pytest.mark.skipif(not RULES.is_dir(), reason="shared/rules not available")
def test_parser_finds_labelled_ids():
    ids = coverage.rule_ids(RULES)
    nine = ids["nine_ball.md"]
    assert nine[0] == "9B-5.1" and "9B-5.14" in nine and "9B-5.12" in nine  # HUMAN / SIM if cue modelled
    gen = ids["general.md"]
    assert {"G-3.6", "G-3.39", "GW-P4", "T-1.16.4", "R-2.21"} <= set(gen)
    assert "G-3.1" not in gen and "G-3.13" not in gen  # HUMAN only
    assert "SP-6.7.2" in ids["straight_pool.md"]  # bold paragraph form


@pytest.mark.skipif(not RULES.is_dir(), reason="shared/rules not available")
def test_script_prints_covered():
    out = subprocess.run([sys.executable, "-m", "poolgym.rules.coverage"], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2], check=True).stdout
    last = out.strip().splitlines()[-1]
    assert last.startswith("covered ") and "/" in last
    x, y = map(int, last.split()[1].split("/"))
    assert y >= 150 and 0 <= x <= y
