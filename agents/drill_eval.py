"""Success rates of learned policies and baseline agents on the SAME seeded drill positions.

A drill (``poolgym/PotDrill-v0``, ``poolgym/BreakDrill-v0``, ...) is one decision per episode
from a position drawn from the env's seed. `drill_rates` plays every player from the positions
of ``seeds`` (``reset(seed=s)`` of a fresh single env, so every player faces the same tables and
the same execution-noise stream) and reports, per player, the successes (a positive return,
as `agents.sb3.EvalResult`) with a Wilson 95% interval (`agents.stats.wilson_interval`).
One draw of the execution noise per position leaves a paired difference of two players an
interval of about +-0.02 on 1,000 positions; `drill_returns` with ``draws`` > 1 replays every
position under more noise streams (the same for every player), and `expected_rate` and
`paired_expected_difference` then estimate each player's expected success on the positions.

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


def drill_returns(players: dict, env_id: str, seeds, env_kwargs: dict | None = None, draws: int = 1) -> dict:
    """{name: episode returns} of each player: one episode from each seed (the same positions
    and noise streams for every player; `drill_rates`), a (len(seeds),) array; with ``draws``
    > 1, ``draws`` episodes from each seed's position, a (len(seeds), draws) array: the first
    is the seed's own episode, episode j > 0 replays the position (``reset`` with the seed's
    state as ``options["state"]``) under the noise stream of `draw_seed` (seed, j), the same
    for every player. Several draws per position estimate each player's expected success on
    the positions (`expected_rate`), without the noise of one draw per position."""
    import gymnasium as gym

    import poolgym  # noqa: F401  (registers the ids)

    if not isinstance(draws, int) or draws < 1:
        raise ValueError(f"draws must be a positive int, got {draws!r}")
    out = {}
    seeds = [int(s) for s in seeds]
    for name, play in players.items():
        env = gym.make(env_id, disable_env_checker=True, **(env_kwargs or {}))
        rets = np.zeros((len(seeds), draws))
        for i, s in enumerate(seeds):
            obs, _ = env.reset(seed=s)
            start = env.unwrapped.state
            for j in range(draws):
                if j:
                    obs, _ = env.reset(seed=draw_seed(s, j), options={"state": start})
                total = 0.0
                for _ in range(10_000):
                    obs, r, term, trunc, _ = play(env, obs, s)
                    total += float(r)
                    if term or trunc:
                        break
                rets[i, j] = total
        env.close()
        out[name] = rets[:, 0] if draws == 1 else rets
    return out


def draw_seed(seed: int, j: int) -> int:
    """The env seed of draw ``j`` > 0 from the position of ``seed`` (`drill_returns`)."""
    return int(np.random.SeedSequence([int(seed), int(j)]).generate_state(1, np.uint64)[0] % (2**63))


@dataclass(frozen=True)
class ExpectedRate:
    """A player's success averaged over the noise draws of each position, then over the
    ``positions``: ``rate`` with the 95% normal interval (``lo``, ``hi``) of the mean of the
    per-position rates (the positions are the independent samples)."""

    positions: int
    draws: int
    rate: float
    lo: float
    hi: float

    def as_dict(self) -> dict:
        return dict(positions=self.positions, draws=self.draws, rate=self.rate, lo=self.lo, hi=self.hi)


def _made(returns) -> np.ndarray:
    """(positions, draws) successes (positive returns) of `drill_returns`' returns."""
    return np.asarray(returns, float).reshape(len(returns), -1) > 0


def _mean_interval(x: np.ndarray) -> tuple:
    """(mean, lo, hi): the mean of ``x`` with its 95% normal interval (a point for fewer than 2)."""
    m = float(x.mean()) if len(x) else 0.0
    se = float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0
    return m, m - 1.96 * se, m + 1.96 * se


def expected_rate(returns) -> ExpectedRate:
    """The `ExpectedRate` of (positions, draws) episode returns (a success is a positive return)."""
    made = _made(returns)
    return ExpectedRate(made.shape[0], made.shape[1], *_mean_interval(made.mean(axis=1)))


def paired_expected_difference(a, b) -> tuple:
    """``(diff, lo, hi)``: the difference of two players' expected success on the same
    positions (``a`` and ``b``: (positions, draws) returns of `drill_returns` with the same
    seeds and draws), with the 95% normal interval of the mean of the per-position
    differences."""
    x, y = _made(a).mean(axis=1), _made(b).mean(axis=1)
    if len(x) < 2 or len(y) != len(x):
        raise ValueError(f"paired_expected_difference needs two equal sequences of 2+ positions, got {len(x)} "
                         f"and {len(y)}")
    return _mean_interval(x - y)
