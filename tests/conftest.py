"""Every ``@pytest.mark.rule(...)`` names rule IDs that exist in ``../shared/rules`` (a typo in
a marker would otherwise count nothing, or the wrong rule): an unknown ID fails collection."""
import os

import pytest

from poolgym.rules import coverage

# no compiling child process per test worker at a cold cache (`poolgym.envs.prewarm`): the
# workers compile side by side already; tests/envs/test_prewarm.py runs it on purpose
os.environ.setdefault("POOLGYM_PREWARM", "0")


@pytest.fixture(autouse=True, scope="session")
def _sb3_log_folders_in_the_test_tree(tmp_path_factory):
    """Tests that call SB3's `learn` on their own models: its logger's folder (one per call,
    in the system's temporary directory unless ``SB3_LOGDIR`` names one) goes to this run's
    temporary tree."""
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3_logs"))


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
