"""Every ``@pytest.mark.rule(...)`` names rule IDs that exist in ``../shared/rules`` (a typo in
a marker would otherwise count nothing, or the wrong rule): an unknown ID fails collection."""
import os

import pytest

from poolgym.rules import coverage

# no compiling child process per test worker at a cold cache (`poolgym.envs.prewarm`): the
# workers compile side by side already; tests/envs/test_prewarm.py runs it on purpose
os.environ.setdefault("POOLGYM_PREWARM", "0")


def pytest_collection_modifyitems(config, items):
    known = None
    bad = []
    for item in items:
        for mark in item.iter_markers("rule"):
            if known is None:
                known = {e.rule_id for entries in coverage.rule_table(coverage.default_rules_dir()).values()
                         for e in entries}
            if not mark.args:
                bad.append(f"{item.nodeid}: rule marker without an ID")
            bad += [f"{item.nodeid}: unknown rule ID {rid!r}" for rid in mark.args if rid not in known]
    if bad:
        raise pytest.UsageError("rule markers:\n  " + "\n  ".join(bad))
