"""tests/rules: ``@pytest.mark.slow`` tests run only with ``-m slow``."""
import pytest


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords and "tests/rules" in str(item.fspath).replace("\\", "/"):
            item.add_marker(skip)
