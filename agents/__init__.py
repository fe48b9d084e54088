"""Players for poolgym: the Agent interface, baselines (random, geometric, search), SB3 glue,
and the tournament runner. See `agents.base` for the interface and registry."""

from agents.base import Agent, Observation, make, names, register

__all__ = ["Agent", "Observation", "make", "names", "register"]
