"""Any `Agent` as the opponent of the single-agent envs.

The envs (`poolgym.envs.PoolEnv`, ``opponent=``) take an opponent callable
``(state, spec, rng) -> actions`` (`poolgym.envs.opponents`); the envs cannot import this
package (imports go one way, DESIGN §2), so the bridge lives here:

* `as_opponent(agent_or_name, **kwargs)` wraps an `Agent` (or builds one by registry name)
  as such a callable. A decision is complete when the agent returns a `ShotAction` or a
  `ChooseOption`; a `PlaceCueBall` is applied to a scratch copy of the state and the agent is
  asked again (as `agents.tournament.play_game` does). The agent draws from the env's per-table
  generator (``rng``), so the env's seed fixes the opponent's play, in the single env and the
  native vector env alike. The env adds its own execution noise to the opponent's shot.
* `register_env_opponents()` registers every agent name as the env opponent name
  ``"agent:<name>"`` (e.g. ``gymnasium.make("poolgym/NineBall-v0", opponent="agent:search")``),
  an explicit call, not an import side effect. A trained SB3 policy is the opponent
  ``as_opponent("sb3", model="run/model.zip", algo="maskable_ppo")``.
"""

from __future__ import annotations

from typing import Any

from agents.base import Agent, Observation, make, names
from poolgym.rules.core import ChooseOption, Concede, PlaceCueBall, ShotAction
from poolgym.rules.game import get_discipline
from poolgym.rules.geometry import get_table

#: placements an agent may make before its shot in one decision (then the decision is refused)
MAX_PLACEMENTS = 4


class AgentOpponent:
    """`Agent` -> env opponent callable (see module docstring)."""

    def __init__(self, agent: Agent):
        if not isinstance(agent, Agent):
            raise TypeError(f"AgentOpponent needs an agents.Agent, got {type(agent).__name__}")
        self.agent = agent
        self.name = f"agent:{agent.name}"

    def __call__(self, state, spec, rng) -> list:
        agent = self.agent
        agent.rng = rng  # the env's per-table generator: the env's seed fixes the opponent's play
        disc = get_discipline(state.discipline)
        table = get_table(state.config.table)
        acts: list[Any] = []
        st, sp = state, spec
        for _ in range(MAX_PLACEMENTS + 1):
            a = agent.act(Observation(state=st, spec=sp, table=table, seat=st.seat_to_act,
                                      discipline=st.discipline))
            acts.append(a)
            if isinstance(a, PlaceCueBall):
                st, _ = disc.apply(st, a)  # raises IllegalActionError for an illegal spot
                sp = disc.legal_actions(st)
                continue
            if not isinstance(a, (ShotAction, ChooseOption, Concede)):
                raise TypeError(f"{agent.name}.act returned {type(a).__name__}, not a rules action")
            return acts
        raise RuntimeError(f"{agent.name} placed the cue ball {MAX_PLACEMENTS + 1} times without shooting")

    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return f"AgentOpponent({self.agent!r})"


def as_opponent(agent: Agent | str, seed: int | None = None, **kwargs) -> AgentOpponent:
    """An env opponent from an `Agent` or an agent registry name (built with ``seed`` and
    ``kwargs``, e.g. ``as_opponent("search", noise="icga")``)."""
    if isinstance(agent, str):
        agent = make(agent, seed=seed, **kwargs)
    elif kwargs:
        raise ValueError("as_opponent: keyword options are only for an agent given by name")
    return AgentOpponent(agent)


def register_env_opponents() -> list[str]:
    """Register ``"agent:<name>"`` for every agent name as an env opponent (the factory takes
    the agent's keyword options). Returns the registered names."""
    from poolgym.envs.opponents import register_opponent

    out = []
    for n in names():
        key = f"agent:{n}"
        register_opponent(key, lambda _n=n, **kw: as_opponent(_n, **kw))
        out.append(key)
    return out
