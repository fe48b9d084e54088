"""Deprecated alias module: the batched shot facts live in :mod:`poolgym.rules.shot_facts`
and the placement check in :mod:`poolgym.rules.placement`."""
from __future__ import annotations

import warnings

_MOVED = {
    "shot_facts_batch": "shot_facts", "BatchFacts": "shot_facts", "rest_batch": "shot_facts",
    "placement_code": "placement", "placement_codes": "placement", "placement_errors": "placement",
    "PlacementCode": "placement", "placement_error_fast": "placement",
}


def __getattr__(name: str):
    mod = _MOVED.get(name)
    if mod is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    target = "placement_error" if name == "placement_error_fast" else name
    warnings.warn(f"poolgym.rules.fast.{name} is deprecated; use poolgym.rules.{mod}.{target}",
                  DeprecationWarning, stacklevel=2)
    import importlib

    return getattr(importlib.import_module(f"poolgym.rules.{mod}"), target)
