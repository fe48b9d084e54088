"""Any player as the opponent of the single-agent envs.

The envs (`poolgym.envs.PoolEnv`, ``opponent=``) take an opponent callable
``(state, spec, rng) -> actions`` (`poolgym.envs.opponents`). `PlayerOpponent` turns a player
(anything with ``act(obs) -> action`` and an ``rng`` attribute: the geometric player, any
`agents.Agent`) into one. A decision is complete when the player returns a `ShotAction`, a
`ChooseOption`, a `Declare` or a `Concede`; a `PlaceCueBall` is applied to a scratch copy of the state and
the player is asked again (as `agents.tournament.play_game` does). The player draws from the
env's per-table generator (``rng``), so the env's seed fixes the opponent's play, in the single
env and the native vector env alike.
"""

from __future__ import annotations

from typing import Any

from poolgym.players.view import Observation
from poolgym.rules.core import ChooseOption, Concede, Declare, PlaceCueBall, ShotAction
from poolgym.rules.game import get_discipline
from poolgym.rules.geometry import get_table

#: placements a player may make before its shot in one decision (then the decision is refused)
MAX_PLACEMENTS = 4


class PlayerOpponent:
    """Player -> env opponent callable (see module docstring)."""

    def __init__(self, player, name: str | None = None):
        if not callable(getattr(player, "act", None)):
            raise TypeError(f"PlayerOpponent needs a player with act(obs), got {type(player).__name__}")
        self.player = player
        self.name = name or type(player).__name__

    def __call__(self, state, spec, rng) -> list:
        player = self.player
        player.rng = rng  # the env's per-table generator: the env's seed fixes the opponent's play
        disc = get_discipline(state.discipline)
        table = get_table(state.config.table)
        acts: list[Any] = []
        st, sp = state, spec
        for _ in range(MAX_PLACEMENTS + 1):
            a = player.act(Observation(state=st, spec=sp, table=table, seat=st.seat_to_act,
                                       discipline=st.discipline))
            acts.append(a)
            if isinstance(a, PlaceCueBall):
                st, _ = disc.apply(st, a)  # raises IllegalActionError for an illegal spot
                sp = disc.legal_actions(st)
                continue
            if not isinstance(a, (ShotAction, ChooseOption, Concede, Declare)):
                raise TypeError(f"{self.name}.act returned {type(a).__name__}, not a rules action")
            return acts
        raise RuntimeError(f"{self.name} placed the cue ball {MAX_PLACEMENTS + 1} times without shooting")

    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return f"{type(self).__name__}({self.player!r})"
