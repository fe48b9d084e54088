"""Imports run one way: physics <- poolgym.rules <- poolgym (planning, aim, players, render)
<- poolgym.envs <- agents <- experiments (DESIGN.md "Style to follow"). Every import statement
of the packages, module-level or inside a function, is read from the source (ast) and none may
name a module of a higher layer."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("physics", "poolgym", "agents", "experiments")

#: module prefix -> layer (the longest matching prefix wins); a module imports layers <= its own
LAYERS = {
    "physics": 0,
    "poolgym.rules": 1,
    "poolgym.planning": 2, "poolgym.aim": 2, "poolgym.players": 2, "poolgym.render": 2,
    "poolgym": 3, "poolgym.envs": 3, "poolgym.pettingzoo": 3,
    "agents": 4,
    "experiments": 5,
}


def layer(module: str) -> int:
    parts = module.split(".")
    for k in range(len(parts), 0, -1):
        key = ".".join(parts[:k])
        if key in LAYERS:
            return LAYERS[key]
    raise KeyError(module)


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, root: Path = ROOT):
    """(line, module) of every import of a project package in the file at `path`."""
    mod = module_name(path, root)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names = [".".join(base + ([node.module] if node.module else []))]
            else:
                names = [node.module]
        else:
            continue
        for name in names:
            if name.split(".")[0] in PACKAGES:
                yield node.lineno, name


def sources():
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def upward_imports(paths, root: Path = ROOT) -> list[str]:
    bad = []
    for p in paths:
        here = layer(module_name(p, root))
        for line, name in imported(p, root):
            if layer(name) > here:
                bad.append(f"{p.relative_to(root)}:{line} imports {name}")
    return bad


def test_no_upward_import():
    paths = sources()
    assert len(paths) > 50
    bad = upward_imports(paths)
    assert not bad, "imports must run physics <- poolgym.rules <- poolgym.envs <- agents <- experiments:\n" + \
        "\n".join(bad)


@pytest.mark.parametrize("module, source, upward", [
    ("agents/x.py", "def f():\n    from experiments.ray_backend import run_jobs_ray\n", True),
    ("physics/x.py", "import poolgym.rules.core\n", True),
    ("poolgym/rules/x.py", "from poolgym.envs import pool_env\n", True),
    ("poolgym/rules/x.py", "from ..envs import pool_env\n", True),
    ("poolgym/envs/x.py", "from poolgym.rules.core import Phase\nimport physics\n", False),
    ("experiments/x.py", "from agents.tournament import play_job\n", False),
])
def test_scan_finds_upward_imports(tmp_path, module, source, upward):
    """The scan itself: it sees imports inside functions and relative imports."""
    path = tmp_path / module
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    assert bool(upward_imports([path], tmp_path)) is upward
