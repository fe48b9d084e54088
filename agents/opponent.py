"""Any `Agent` as the opponent of the single-agent envs.

The envs (`poolgym.envs.PoolEnv`, ``opponent=``) take an opponent callable
``(state, spec, rng) -> actions`` (`poolgym.envs.opponents`); the envs cannot import this
package (imports go one way, DESIGN §2), so the bridge lives here:

* `as_opponent(agent_or_name, **kwargs)` wraps an `Agent` (or builds one by registry name)
  as such a callable (`poolgym.players.opponent.PlayerOpponent`). A decision is complete when the agent returns a `ShotAction` or a
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

from agents.base import Agent, make, names
from poolgym.players.opponent import MAX_PLACEMENTS, PlayerOpponent  # noqa: F401 (MAX_PLACEMENTS: public here too)


class AgentOpponent(PlayerOpponent):
    """`Agent` -> env opponent callable (`poolgym.players.opponent.PlayerOpponent`)."""

    def __init__(self, agent: Agent):
        if not isinstance(agent, Agent):
            raise TypeError(f"AgentOpponent needs an agents.Agent, got {type(agent).__name__}")
        super().__init__(agent, f"agent:{agent.name}")
        self.agent = agent


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
