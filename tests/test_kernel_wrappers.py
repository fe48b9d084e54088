"""Kernels compiled without a CPython wrapper (``no_cpython_wrapper=True``) are called from
other kernels only.

Such a kernel has no entry point for the interpreter: a call from Python crashes the process
instead of raising. Its wrapper is left out because it costs compile time at a cold cache in
the kernel itself and again in every kernel that links it in. This test reads the sources and
fails on any reference to such a kernel from Python code (outside the bodies of jitted
functions and overload implementations), other than reading its compile attributes
(``.compile``, ``.signatures``, ``.py_func``, ...).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DIRS = ("physics", "poolgym", "agents", "experiments", "benchmarks", "tests")
SAFE_ATTRS = {"compile", "signatures", "nopython_signatures", "py_func", "stats", "overloads", "_cache",
              "targetoptions", "inspect_types", "__name__", "__qualname__", "__module__", "__doc__"}


def _kind(decorator: ast.expr) -> str | None:
    text = ast.unparse(decorator)
    if re.match(r"(numba\.)?n?jit\b", text):
        return "jit"
    if re.match(r"(numba\.extending\.)?overload\b", text):
        return "overload"
    return None


def _sources():
    for d in DIRS:
        for p in sorted((REPO / d).rglob("*.py")):
            yield p, ast.parse(p.read_text())


def test_kernels_without_a_cpython_wrapper_are_not_called_from_python():
    trees = list(_sources())
    unwrapped: dict[str, str] = {}
    jitted: dict[Path, list[tuple[int, int]]] = {}
    for p, tree in trees:
        for n in ast.walk(tree):
            if isinstance(n, ast.FunctionDef):
                kinds = [_kind(d) for d in n.decorator_list]
                if any(kinds):
                    jitted.setdefault(p, []).append((n.lineno, n.end_lineno))
                if "jit" in kinds and "no_cpython_wrapper=True" in ast.unparse(n.decorator_list[kinds.index("jit")]):
                    unwrapped[n.name] = f"{p.relative_to(REPO)}:{n.lineno}"
    assert unwrapped  # the physics' inner kernels at least
    calls = []
    for p, tree in trees:
        parent = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
        for n in ast.walk(tree):
            name = n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else None
            if name not in unwrapped or any(a <= n.lineno <= b for a, b in jitted.get(p, ())):
                continue
            up = parent.get(n)
            if isinstance(up, ast.Attribute) and up.value is n and up.attr in SAFE_ATTRS:
                continue
            calls.append(f"{p.relative_to(REPO)}:{n.lineno} uses {name} ({unwrapped[name]})")
    assert not calls, "kernels without a CPython wrapper referenced from Python:\n" + "\n".join(calls)
