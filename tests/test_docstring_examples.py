"""Every ``>>>`` example in a docstring of the project's packages runs and prints what it shows
(``doctest``). Modules are found by scanning the source for ``>>>``, so a new example is run
without registering it here."""
import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("physics", "poolgym", "agents", "experiments")


def _modules_with_examples():
    out = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if ">>>" in path.read_text(encoding="utf-8"):
                rel = path.relative_to(ROOT).with_suffix("")
                parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
                out.append(".".join(parts))
    return out


MODULES = _modules_with_examples()


def test_examples_found():
    """The scan finds the documented examples (a broken scan must not pass vacuously)."""
    assert {"poolgym.rules.serialize", "poolgym.envs.pool_env"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    res = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert res.attempted > 0, f"{name}: no example ran"
    assert res.failed == 0, f"{name}: {res.failed} of {res.attempted} examples failed (run python -m doctest -v)"
