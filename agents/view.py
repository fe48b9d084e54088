"""The players' view of an observation, as the agents import it (`poolgym.players.view`)."""

from __future__ import annotations

from poolgym.planning import table_geom
from poolgym.players.view import (Decision, Observation, View, danger_balls, declared, shot_call, useful_pots,
                                  view_of)

__all__ = ["Decision", "Observation", "View", "danger_balls", "declared", "shot_call", "table_geom", "useful_pots",
           "view_of"]
