"""PettingZoo AEC environments: every seat is an agent.

    from poolgym.pettingzoo import env, DISCIPLINES
    e = env("nine_ball", action_mode="macro")
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        action = None if term or trunc else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``"player_0" .. "player_{n-1}"`` (seat k). The next agent is chosen by the rules,
not round-robin: a player who pockets a ball keeps shooting, an option after a push-out goes to
the incoming player, and so on (``agent_selection`` = the rules' ``seat_to_act``).

N-seat games (``env("pea_pool", players=6)``; the BCA games of `DISCIPLINES` after the WPA
ones): agents ``player_0 .. player_{N-1}``; a seat's observation is built only from
`poolgym.rules.seats.observe` (the public state and its own secret: its pea, its hand) plus
its legal-action mask; declarations (claim 41, declare a bust, announce a pocketed pea) are
actions, masked outside their window; a seat out of the game (eliminated, disqualified) is
never selected but stays an agent until the game ends (it may re-enter, CT-13).

Spaces are those of `poolgym.envs.pool_env.PoolEnv` for the same discipline, from each seat's
own view:
* ``action_mode="box"``: observation ``Box`` (the legal-decision mask is part of the vector, see
  `poolgym.envs.codec`), action ``Box``;
* ``action_mode="macro"``: observation ``Dict(observation=Box, action_mask=Box(0, 1, (M,), int8))``,
  action ``Discrete(M)``.

Rewards: +1 to the winner and -1 to the others when the game ends (0 each for a draw); in
N-seat games each seat's result from the rules (``returns``: the winning team +1 per seat, the
others share the loss; point games their points); opt-in shaping as in `PoolEnv` (``reward="shaped"`` or weights), credited to the seat that
shot. All agents are truncated after ``max_shots`` shots. ``info`` of the agent to act carries
the last verdict.

Errors, in PettingZoo's terms, each leaving the env unchanged: ``step`` before ``reset`` raises
``RuntimeError("reset() needs to be called before step.")``; ``step(None)`` for a live agent
``ValueError`` (None is the action of a terminated or truncated agent only, and such an agent
accepts nothing else); an action outside the agent's action space ``ValueError``; an illegal
typed decision `IllegalActionError`. Stepping once every agent is done only warns, as
PettingZoo's order-enforcing wrapper does.
"""

from __future__ import annotations

import numpy as np
from gymnasium import logger, spaces

try:
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - optional dependency
    raise ImportError('poolgym.pettingzoo needs pettingzoo: pip install "poolgym[pettingzoo]"') from e

from poolgym.envs.pool_env import PoolEnv
from poolgym.envs.seating import seat_returns, seat_view
from poolgym.envs.session import SHAPING_KEYS, verdict_info
from poolgym.rules.game import DISCIPLINES as _RULES_DISCIPLINES

#: discipline names accepted by `env`: every discipline of the rules registry
#: (`poolgym.rules.game.DISCIPLINES`, in its order: the WPA games, then the BCA games)
DISCIPLINES = tuple(_RULES_DISCIPLINES)


class PoolAECEnv(AECEnv):
    """AEC env of one game of ``discipline`` (see module docstring). Keyword arguments are
    those of `PoolEnv` (``players=N`` for the number of seats) except ``opponent`` and
    ``learner_seat`` (every seat is an agent)."""

    metadata = {"render_modes": ["rgb_array", "human"], "name": "poolgym_v0", "is_parallelizable": False,
                "render_fps": 2}

    def __init__(self, discipline: str = "nine_ball", render_mode=None, **kwargs):
        super().__init__()
        if discipline not in DISCIPLINES:
            raise ValueError(f"discipline must be one of {sorted(DISCIPLINES)}, got {discipline!r}")
        for bad in ("opponent", "learner_seat", "runout"):
            if bad in kwargs:
                raise ValueError(f"{bad} is not an argument of the multi-agent env")
        self._env = PoolEnv(discipline, opponent=None, render_mode=render_mode, **kwargs)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"poolgym_{discipline}_v0")
        n = self._env.config.n_players
        self.possible_agents = [f"player_{k}" for k in range(n)]
        self.agent_name_mapping = {a: k for k, a in enumerate(self.possible_agents)}
        self._macro = self._env.action_mode == "macro"
        obs_box = self._env.observation_space
        if self._macro:
            mask = spaces.Box(0, 1, (self._env.codec.n_macro,), np.int8)
            self.observation_spaces = {a: spaces.Dict({"observation": obs_box, "action_mask": mask})
                                       for a in self.possible_agents}
        else:
            self.observation_spaces = {a: obs_box for a in self.possible_agents}
        self.action_spaces = {a: self._env.action_space for a in self.possible_agents}
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed=None, options=None):
        """``options``: the position keys of `PoolEnv.reset` (``learner_seat`` excluded);
        other keys are ignored (PettingZoo's api_test passes arbitrary options)."""
        from poolgym.envs.pool_env import RESET_OPTION_KEYS

        opts = {k: v for k, v in (options or {}).items() if k in RESET_OPTION_KEYS and k != "learner_seat"}
        self._env.reset(seed=seed, options=opts or None)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._env.state.seat_to_act]

    def observe(self, agent):
        s = self._env.session
        seat = self.agent_name_mapping[agent]
        spec = s.spec if (seat == s.state.seat_to_act and not s.done) else None
        obs = self._encode(s, spec, seat)
        if not self._macro:
            return obs
        mask = self._env.codec.macro_mask(s.state, spec).astype(np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        if not hasattr(self, "agent_selection"):
            raise RuntimeError("reset() needs to be called before step.")
        if not self.agents:
            logger.warn("step() called after all agents are terminated or truncated; call reset()")
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is live (not terminated or truncated): step() needs an action from "
                             f"action_space({agent!r}); None is only for a terminated or truncated agent")
        env = self._env
        s = env.session
        seat = self.agent_name_mapping[agent]
        prepared = env._step_prepare(action)  # raises with nothing changed
        s.learner_seat = seat  # the acting seat is "the learner" for this decision
        env._step_commit(prepared)
        env._run_pending()
        term, trunc, comps = s.finish_step()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        weights = env.weights
        shaping = sum(weights.get(k, 0.0) * v for k, v in comps.items() if k != "result")
        self.rewards[agent] += shaping
        if term and env.seated:
            res = seat_returns(env.disc, s.state)
            for a in self.agents:
                self.rewards[a] += weights.get("result", 1.0) * res[self.agent_name_mapping[a]]
                self.terminations[a] = True
        elif term:
            w = s.state.winner
            for a in self.agents:
                k = self.agent_name_mapping[a]
                self.rewards[a] += weights.get("result", 1.0) * (0.0 if w is None else (1.0 if k == w else -1.0))
                self.terminations[a] = True
        elif trunc:
            for a in self.agents:
                self.truncations[a] = True
        last = [verdict_info(seat_, v) for seat_, v in s.log.verdicts]
        for a in self.agents:
            self.infos[a] = {"verdicts": last, "reward_components": dict(comps) if a == agent else
                             {k: 0.0 for k in SHAPING_KEYS}}
        if not (term or trunc):
            s.done = False
            self.agent_selection = self.possible_agents[s.state.seat_to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        return self._env.render()

    def close(self):
        self._env.close()

    def state(self) -> np.ndarray:
        """Global state: the observation of the seat to act (its own secret only)."""
        s = self._env.session
        return self._encode(s, None, s.state.seat_to_act)

    def _encode(self, s, spec, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` (seated games: from its view only)."""
        if self._env.seated:
            view, secret = seat_view(s.state, seat)
            return self._env.codec.encode(view, spec, seat, s.shots, secret=secret)
        return self._env.codec.encode(s.state, spec, seat, s.shots)


def env(discipline: str = "nine_ball", **options) -> PoolAECEnv:
    """An AEC env for ``discipline`` (one of `DISCIPLINES`); ``options`` as `PoolAECEnv`."""
    return PoolAECEnv(discipline, **options)


def raw_env(discipline: str = "nine_ball", **options) -> PoolAECEnv:
    """Same as `env` (no wrappers are applied)."""
    return PoolAECEnv(discipline, **options)

