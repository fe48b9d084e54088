"""CI runs the README's test command (lint + tests), and the ``test`` extra installs the linter."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    cmd = re.search(r"^pip install -e \"\.\[all,ray\]\" && (.+)$", readme, re.M)
    assert cmd, "README quickstart test command not found"
    assert ci.endswith(cmd.group(1)) and "ruff check ." in ci and "pytest" in ci


def test_test_extra_installs_ruff_and_ruff_is_configured():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    test_extra = re.search(r"^test = \[(.*)\]$", text, re.M).group(1)
    assert '"ruff' in test_extra
    select = re.search(r"^\[tool\.ruff\.lint\][^\[]*?^select = \[(.*)\]$", text, re.M | re.S).group(1)
    assert '"F"' in select and '"E9"' in select
