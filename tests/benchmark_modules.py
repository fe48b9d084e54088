"""Loading a script of ``benchmarks/`` (not a package) as a module, for the tests that run a
seeded slice of it."""

import importlib.util
import sys
from pathlib import Path


def load_benchmark(name: str):
    """``benchmarks/<name>.py`` executed as the module ``name`` (registered in ``sys.modules``
    first: its dataclasses look their module up)."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, mod)
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]
