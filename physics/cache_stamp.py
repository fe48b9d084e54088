"""Numba's on-disk cache keyed on the whole project's source, not on one file.

Numba stamps a cached kernel with a hash of the source file that defines it. A kernel that
calls a function of another module (the table loop calling ``physics.air``, the referee's
kernels calling ``physics`` and ``poolgym.planning``) is therefore loaded stale after only the
callee's file changed, as a ``git pull`` into an editable install does. :class:`ProjectLocator`
adds a hash of every ``.py`` file of the packages in :data:`PACKAGES` to the stamp of the
functions defined in them, so that any change to the project's source recompiles its kernels
once, and an unchanged checkout keeps its cache (the hash is of the contents, not of mtimes).

:func:`install` puts the locator first in numba's list; ``physics`` and ``poolgym`` call it when
imported, before any of their cached kernels is defined. Functions of other packages keep
numba's own locators. ``NUMBA_CACHE_LOCATOR_CLASSES`` (numba's own override) disables it.
"""
from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

__all__ = ["PACKAGES", "ProjectLocator", "install", "project_hash", "tree_hash"]

_ROOT = Path(__file__).resolve().parent.parent
#: the packages whose cached kernels call each other (physics <- poolgym)
PACKAGES = ("physics", "poolgym")


def tree_hash(root: Path, packages=PACKAGES) -> str:
    """SHA-256 over the relative paths and contents of every ``.py`` file under ``root`` /
    each of ``packages`` (sorted)."""
    h = hashlib.sha256()
    for pkg in packages:
        for path in sorted((Path(root) / pkg).rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(b"\0")
            h.update(path.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def project_hash() -> str:
    """:func:`tree_hash` of this checkout's :data:`PACKAGES` (read once per process)."""
    return tree_hash(_ROOT)


def _in_project(py_file: str) -> bool:
    try:
        rel = Path(os.path.abspath(py_file)).relative_to(_ROOT)
    except ValueError:
        return False
    return len(rel.parts) > 1 and rel.parts[0] in PACKAGES


class ProjectLocator:
    """A numba cache locator: numba's own choice of place for a project function's cache, with
    the project's source hash added to its source stamp."""

    def __init__(self, inner):
        self._inner = inner

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _in_project(py_file):
            return None
        from numba.core.caching import CacheImpl

        for other in CacheImpl._locator_classes:
            if other is cls:
                continue
            inner = other.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner)
        return None

    def ensure_cache_path(self):
        return self._inner.ensure_cache_path()

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return (self._inner.get_source_stamp(), project_hash())

    def get_disambiguator(self):
        return self._inner.get_disambiguator()

    def __getattr__(self, name):
        # numba reads other attributes of its own locators (``_py_file`` in the warning that a
        # kernel cannot be cached): the inner locator's
        if name == "_inner":
            raise AttributeError(name)
        return getattr(self._inner, name)


def install() -> None:
    """Put :class:`ProjectLocator` first among numba's cache locators (idempotent)."""
    from numba.core.caching import CacheImpl

    if ProjectLocator not in CacheImpl._locator_classes:
        CacheImpl._locator_classes.insert(0, ProjectLocator)
