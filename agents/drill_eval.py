"""Success rates of learned policies and baseline agents on the SAME seeded drill positions.

A drill (``poolgym/PotDrill-v0``, ``poolgym/BreakDrill-v0``, ...) is one decision per episode
from a position drawn from the env's seed. `drill_rates` plays every player from the positions
of ``seeds`` (``reset(seed=s)`` of a fresh single env, so every player faces the same tables and
the same execution-noise stream) and reports, per player, the successes (a positive return,
as `agents.sb3.EvalResult`) with a Wilson 95% interval (`agents.stats.wilson_interval`).

Players are named callables:

* `policy_player(model)`: a Stable-Baselines3 model (or anything with ``predict(obs,
  deterministic=True)``) acting in the env's own action space;
* `agent_player(agent)`: an `agents.Agent` (random, geometric, search, ...) deciding from
  the typed rules view (`agents.base.Observation`), its actions stepped through
  ``env.step_action``; re-seeded per episode from the episode's seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from agents.stats import wilson_interval


@dataclass(frozen=True)
class Rate:
    """``successes`` out of ``episodes`` with the Wilson 95% interval (``lo``, ``hi``) and the
    mean return."""

    episodes: int
    successes: int
    lo: float
    hi: float
    mean_return: float

    @property
    def rate(self) -> float:
        return self.successes / self.episodes if self.episodes else 0.0

    def as_dict(self) -> dict:
        return dict(episodes=self.episodes, successes=self.successes, rate=self.rate, lo=self.lo, hi=self.hi,
                    mean_return=self.mean_return)


def policy_player(model, deterministic: bool = True, masked: bool = False) -> Callable:
    """A player that feeds the observation to ``model.predict`` and steps its action
    (``masked``: with the env's ``action_masks()``, as sb3-contrib MaskablePPO needs)."""

    def play(env, obs, seed):
        if masked:
            a, _ = model.predict(obs, deterministic=deterministic, action_masks=env.unwrapped.action_masks())
        else:
            a, _ = model.predict(obs, deterministic=deterministic)
        return env.step(a)

    return play


def agent_player(agent) -> Callable:
    """A player for an `agents.Agent`: typed actions from the rules view (placements first,
    then the shot or decision), stepped with ``env.step_action``."""
    from poolgym.players.view import Observation
    from poolgym.rules.core import PlaceCueBall

    def play(env, obs, seed):
        u = env.unwrapped
        agent.reset(int(seed))
        st, spec = u.state, u.legal_actions()
        acts = []
        for _ in range(5):
            a = agent.act(Observation(state=st, spec=spec, table=u.table, seat=st.seat_to_act,
                                      discipline=st.discipline))
            acts.append(a)
            if not isinstance(a, PlaceCueBall):
                break
            st, _ = u.disc.apply(st, a)
            spec = u.disc.legal_actions(st)
        return u.step_action(acts)

    return play


def drill_rates(players: dict, env_id: str, seeds, env_kwargs: dict | None = None) -> dict:
    """{name: `Rate`} of each player over one episode from each seed of ``seeds`` (see module
    docstring). An episode that needs more than one decision is played on by the same player
    until it ends."""
    return {name: rate_of(r) for name, r in drill_returns(players, env_id, seeds, env_kwargs).items()}


def rate_of(returns) -> Rate:
    """The `Rate` of a sequence of episode returns (a success is a positive return)."""
    r = np.asarray(returns, float)
    k = int((r > 0).sum())
    lo, hi = wilson_interval(k, len(r))
    p = k / len(r) if len(r) else 0.0
    lo, hi = min(lo, p), max(hi, p)  # rounding can put an end a few ulps past p (k = 0 or n)
    return Rate(len(r), k, lo, hi, float(r.mean()) if len(r) else 0.0)


def paired_difference(a, b) -> tuple:
    """Success-rate difference of two players' returns on the same positions, ``(diff, lo,
    hi, a_only, b_only)``: ``a_only`` positions only ``a`` made, ``b_only`` only ``b``, and the
    95% normal interval of the paired difference (the McNemar setting: only the discordant
    positions carry information)."""
    x, y = np.asarray(a, float) > 0, np.asarray(b, float) > 0
    n = len(x)
    if n == 0 or len(y) != n:
        raise ValueError(f"paired_difference needs two equal, non-empty sequences, got {len(x)} and {len(y)}")
    a_only, b_only = int((x & ~y).sum()), int((~x & y).sum())
    d = (a_only - b_only) / n
    se = np.sqrt(max(a_only + b_only - n * d * d, 0.0)) / n
    return d, d - 1.96 * se, d + 1.96 * se, a_only, b_only


def drill_returns(players: dict, env_id: str, seeds, env_kwargs: dict | None = None) -> dict:
    """{name: (len(seeds),) episode returns} of each player, one episode from each seed (the
    same positions and noise streams for every player; `drill_rates`)."""
    import gymnasium as gym

    import poolgym  # noqa: F401  (registers the ids)

    out = {}
    seeds = [int(s) for s in seeds]
    for name, play in players.items():
        env = gym.make(env_id, disable_env_checker=True, **(env_kwargs or {}))
        rets = []
        for s in seeds:
            obs, _ = env.reset(seed=s)
            total = 0.0
            for _ in range(10_000):
                obs, r, term, trunc, _ = play(env, obs, s)
                total += float(r)
                if term or trunc:
                    break
            rets.append(total)
        env.close()
        out[name] = np.asarray(rets, float)
    return out
