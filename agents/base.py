"""The Agent interface shared by baselines, learned policies and search, and the agent registry.

An agent maps what its seat may see to one typed rules action:

* it is given an `Observation`: the rules' `GameState` (for the three WPA disciplines nothing is
  hidden, so the seat sees the whole state; disciplines with private information pass the
  seat's view), the rules' legal-action spec for that state (`legal_actions(state)`), the
  `physics.Table`, the seat it plays and the discipline;
* it returns a rules action (`ShotAction`, `PlaceCueBall` or `ChooseOption`, see
  `poolgym.rules`);
* it owns a seeded `numpy.random.Generator` (`self.rng`); `reset(seed)` re-seeds it so a
  tournament game is reproducible from its seed alone.

Agents are built by name through the registry::

    >>> import agents
    >>> a = agents.make("random", seed=3)
    >>> a.name
    'random'

New agents register with `register(name, factory)`; the built-in ones are listed lazily (no
import-time side effects) in `BUILTIN`.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import Any, Callable

import numpy as np

from poolgym.players.view import Observation


class Agent(ABC):
    """Base class of every player.

    Subclasses implement `act(obs) -> action`. They must only use `obs` and `self.rng` (never a
    global RNG) so that a seeded game replays exactly.

    Args:
        seed: seed of the agent's RNG (None: fresh entropy).
    """

    #: registry name, set by subclasses
    name: str = "agent"
    #: the disciplines (rules registry names) the agent plays; None: every one
    disciplines: tuple | None = None

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Re-seed the agent's RNG (called by the tournament before each game)."""
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    @abstractmethod
    def act(self, obs: Observation):
        """Return one legal rules action for `obs`."""

    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return f"{type(self).__name__}(seed={self.seed})"


class CallableAgent(Agent):
    """Wrap a plain function `fn(obs, rng) -> action` as an Agent."""

    name = "callable"

    def __init__(self, fn: Callable[[Observation, np.random.Generator], Any], seed: int | None = None,
                 name: str = "callable"):
        super().__init__(seed)
        self.fn = fn
        self.name = name

    def act(self, obs: Observation):
        return self.fn(obs, self.rng)


#: Built-in agents: name -> "module:attribute" of a factory (resolved lazily).
BUILTIN: dict[str, str] = {
    "random": "agents.random_agent:RandomAgent",
    "geometric": "agents.geometric:GeometricAgent",
    "search": "agents.search:SearchAgent",
    "sb3": "agents.sb3:SB3Agent",
    "trained": "agents.learned:TrainedAgent",
}

_REGISTRY: dict[str, Callable[..., Agent]] = {}


def register(name: str, factory: Callable[..., Agent]) -> None:
    """Register an agent factory under `name` (callable accepting `seed=` and keyword options)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"name: expected a non-empty string, got {name!r}")
    _REGISTRY[name] = factory


def names() -> list[str]:
    """All registered agent names (built-in and user-registered)."""
    return sorted(set(BUILTIN) | set(_REGISTRY))


def _resolve(name: str) -> Callable[..., Agent]:
    if name in _REGISTRY:
        return _REGISTRY[name]
    if name in BUILTIN:
        mod, attr = BUILTIN[name].split(":")
        return getattr(importlib.import_module(mod), attr)
    raise ValueError(f"agent: unknown agent {name!r}; known agents: {', '.join(names())}")


def plays(name: str, discipline: str) -> bool:
    """Whether the registered agent ``name`` plays ``discipline`` (its `Agent.disciplines`;
    a factory without the attribute plays every one)."""
    ds = getattr(_resolve(name), "disciplines", None)
    return ds is None or discipline in ds


def make(name: str, seed: int | None = None, **kwargs) -> Agent:
    """Build a registered agent by name, e.g. ``make("geometric", seed=1, noise="icga")``."""
    return _resolve(name)(seed=seed, **kwargs)
