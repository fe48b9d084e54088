"""`geometric`: the project's geometric player (`poolgym.players.geometric.GeometricPlayer`,
also the envs' built-in opponent) as an `Agent`: ghost-ball pots scored by make probability,
safeties, kicks, push-outs, options and cue-ball placement; see that module for the strategy."""

from __future__ import annotations

from agents.base import Agent
from poolgym.players.geometric import DEFAULT_SIGMA_PHI, GeometricPlayer

__all__ = ["GeometricAgent", "DEFAULT_SIGMA_PHI"]


class GeometricAgent(GeometricPlayer, Agent):
    """The geometric player with the agent's seeded RNG.

    Args:
        seed: RNG seed (fallback placements, push-out direction).
        noise, min_p, accept_p, push_p, speed_margin: those of `GeometricPlayer`.
    """

    name = "geometric"

    def __init__(self, seed: int | None = None, noise="icga", min_p: float = 0.12,
                 accept_p: float = 0.45, push_p: float = 0.2, speed_margin: float = 1.15):
        Agent.__init__(self, seed)
        GeometricPlayer.__init__(self, noise, min_p, accept_p, push_p, speed_margin)
