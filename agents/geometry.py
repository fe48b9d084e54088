"""Deprecated alias module: the planning geometry lives in :mod:`poolgym.planning`."""
from __future__ import annotations

import warnings


def __getattr__(name: str):
    import poolgym.planning as planning

    if name.startswith("__") or not hasattr(planning, name):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"agents.geometry.{name} is deprecated; use poolgym.planning.{name}", DeprecationWarning,
                  stacklevel=2)
    return getattr(planning, name)
