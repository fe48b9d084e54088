"""JSON round trip for states, actions, verdicts and configs.

Encoding: a registered frozen dataclass becomes ``{"__t__": "<Name>", field: value...}``;
an enum ``{"__e__": "<EnumName>", "v": value}``; tuples become JSON lists and every JSON
list decodes back to a tuple (all rules data are immutable tuples); floats round-trip
exactly (``repr``). Fields added for the N-seat games (``GameState.teams`` ... ``pending``,
``Verdict.events``, ``ActionSpec.declarations``) are written only when they differ from
their default (:func:`omit_at_default`), so the JSON of a two-seat WPA game is what it always
was. The rules' core types and every discipline's config / extra dataclasses and enums are
registered with :func:`register` when their module is imported (no other side effect); a type
not yet registered is looked up after the loaders added with :func:`add_loader` ran
(``poolgym.rules.core`` adds one that imports the discipline modules). This module imports
nothing of the rules.

    >>> from poolgym.rules.core import ShotAction
    >>> from_json(to_json(ShotAction(2.0, 90.0))) == ShotAction(2.0, 90.0)
    True
"""
from __future__ import annotations

import dataclasses
import json
from enum import Enum
from typing import Any

import numpy as np

__all__ = ["register", "omit_at_default", "add_loader", "to_json", "from_json", "to_obj", "from_obj"]

_TYPES: dict = {}
_LOADERS: list = []


def register(*classes: type) -> None:
    """Make dataclasses / enums known to the decoder (by class name, which must be unique)."""
    for cls in classes:
        prev = _TYPES.get(cls.__name__)
        if prev is not None and prev is not cls and prev.__qualname__ != cls.__qualname__:
            raise ValueError(f"serialize: two classes named {cls.__name__!r}")
        _TYPES[cls.__name__] = cls


#: class -> {field: default} written only when the value differs from the default (N-seat fields).
_OMIT_AT_DEFAULT: dict = {}


def omit_at_default(cls: type, defaults: dict) -> None:
    """Write the fields ``defaults`` of ``cls`` only when they differ from these values."""
    _OMIT_AT_DEFAULT[cls] = dict(defaults)


def add_loader(loader) -> None:
    """``loader()`` imports modules that register more types; run when a name is unknown."""
    if loader not in _LOADERS:
        _LOADERS.append(loader)


def to_obj(x: Any) -> Any:
    """Plain JSON-able structure for ``x``."""
    if isinstance(x, Enum):
        return {"__e__": type(x).__name__, "v": x.value}
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        name = type(x).__name__
        if _TYPES.get(name) is not type(x):
            raise ValueError(f"serialize: {name} is not registered (call serialize.register)")
        out = {"__t__": name}
        omit = _OMIT_AT_DEFAULT.get(type(x), ())
        for f in dataclasses.fields(x):
            v = getattr(x, f.name)
            if f.name in omit and v == omit[f.name]:
                continue
            out[f.name] = to_obj(v)
        return out
    if isinstance(x, (tuple, list)):
        return [to_obj(v) for v in x]
    if isinstance(x, (bool, int, str)) or x is None:
        return x
    if isinstance(x, float):
        return x
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return [to_obj(v) for v in x.tolist()]
    raise ValueError(f"serialize: cannot encode {type(x).__name__}")


def _lookup(name: str):
    cls = _TYPES.get(name)
    if cls is None:
        for loader in tuple(_LOADERS):
            loader()
        cls = _TYPES.get(name)
    return cls


def from_obj(o: Any) -> Any:
    """Inverse of :func:`to_obj`."""
    if isinstance(o, list):
        return tuple(from_obj(v) for v in o)
    if isinstance(o, dict):
        if "__e__" in o:
            cls = _lookup(o["__e__"])
            if cls is None:
                raise ValueError(f"serialize: unknown enum {o['__e__']!r}")
            return cls(o["v"])
        if "__t__" in o:
            cls = _lookup(o["__t__"])
            if cls is None:
                raise ValueError(f"serialize: unknown type {o['__t__']!r}")
            kw = {k: from_obj(v) for k, v in o.items() if k != "__t__"}
            return cls(**kw)
        raise ValueError("serialize: untagged JSON object")
    return o


def to_json(x: Any) -> str:
    """JSON text for ``x`` (compact, exact floats)."""
    return json.dumps(to_obj(x), separators=(",", ":"), allow_nan=False)


def from_json(text: str) -> Any:
    """Decode text written by :func:`to_json`."""
    return from_obj(json.loads(text))
