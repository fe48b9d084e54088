"""Seeded tournaments of N-seat games: agents rotate through the seats, rated with a
multiplayer rating, with per-seat-position win rates.

Game g seats agent ``(g + k) % A`` at seat k (A agents; an agent holds several seats when the
game has more seats than there are agents), so over A consecutive games every agent plays
every seat position. Each game is `agents.tournament.play_game` (the referee driven directly,
execution noise drawn from a per-game RNG, every agent seeing only its own seat's view, see
there), seeded from ``SeedSequence([seed, players, g])``: a game replays from (seed, players, g).

Results per game: the rules' per-seat result (``returns``) ranks the seats (higher is better,
ties share a rank). Statistics:

* per agent: games, wins (a seat of the agent has the best result and not every seat has it),
  draws (every seat equal), win rate (draws count half) with its Wilson 95% interval, the
  Plackett-Luce rating of Weng and Lin (`agents.rating`; mu, sigma, ordinal mu - 3 sigma),
  games applied in game order;
* per agent also its mean result (the rules' ``returns`` of its seats: +1 / shared -1 in the
  games with a winner, the points in the point games, the score out of 300 in solo
  bowlliards) with the normal 95% interval of the mean;
* per seat position k (0 breaks the first game): how often the seat at position k won, with
  its Wilson 95% interval -- the seat-order advantage of the game.

A one-seat game (solo bowlliards, BW-1) has no one to beat: its win rates are None and the
mean result (the score) ranks the agents.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.rating import ranks_from_returns, ratings_from_games
from agents.stats import wilson_interval
from agents.tournament import (AgentSpec, canonical_discipline, check_entrants, make_rules_config, play_game,
                               pool_context)


@dataclass(frozen=True)
class SeatTournamentConfig:
    """``games`` games of ``discipline`` with ``players`` seats among ``agents`` (`AgentSpec`)."""

    discipline: str
    agents: tuple
    players: int
    games: int = 20
    seed: int = 0
    noise: Any = "icga"
    rules: dict = field(default_factory=dict)
    max_shots: int = 300

    def __post_init__(self):
        check_entrants(self.agents, "games", self.games)
        from poolgym.rules.game import get_discipline

        allowed = get_discipline(canonical_discipline(self.discipline)).allowed_players
        if allowed is not None and self.players not in allowed:
            raise ValueError(f"players: {self.discipline} allows {tuple(allowed)}, got {self.players!r}")

    def seating(self, g: int) -> tuple:
        """Agent index at each seat of game g."""
        A = len(self.agents)
        return tuple((g + k) % A for k in range(self.players))


def play_seat_game(cfg: SeatTournamentConfig, g: int) -> dict:
    """Play game g of ``cfg``: {game, seed, seating, players (labels per seat), returns, ranks,
    winner, shots, fouls, illegal, error}."""
    ss = np.random.SeedSequence([int(cfg.seed), int(cfg.players), int(g)])
    s = ss.generate_state(2 + cfg.players, dtype=np.uint32)
    rack_seed, noise_seed, agent_seeds = int(s[0]), int(s[1]), [int(v) for v in s[2:]]
    seating = cfg.seating(g)
    agents = [cfg.agents[i].build(agent_seeds[k]) for k, i in enumerate(seating)]
    labels = tuple(cfg.agents[i].display for i in seating)
    rules = dict(cfg.rules, n_players=cfg.players)
    rules_cfg = make_rules_config(cfg.discipline, rules, cfg.max_shots)
    last = {}

    def on_step(state, action, new_state, verdict):
        last["state"] = new_state

    rec = play_game(cfg.discipline, agents, seed=rack_seed, agent_seeds=agent_seeds, noise=cfg.noise,
                    noise_rng=np.random.default_rng(noise_seed), config=rules_cfg, max_shots=cfg.max_shots,
                    labels=labels, pair=(0, 0), game_index=g, on_step=on_step)
    from poolgym.rules.game import get_discipline

    final = last.get("state")
    disc = get_discipline(canonical_discipline(cfg.discipline))
    if rec.error is None and final is not None and final.game_over:
        rets = [float(v) for v in disc.returns(final)]
    elif rec.error is None and any(rec.illegal):
        rets = [-1.0 if k else 0.0 for k in rec.illegal]  # an illegal action forfeits
    else:
        rets = [0.0] * cfg.players  # unfinished (shot limit) or an error: every seat equal
    return dict(game=g, seed=rack_seed, seating=list(seating), players=list(labels), returns=rets,
                ranks=ranks_from_returns(rets), winner=rec.winner, shots=rec.shots, fouls=rec.fouls,
                illegal=rec.illegal, error=rec.error)


@dataclass
class SeatTournamentResult:
    config: SeatTournamentConfig
    games: list

    def summary(self) -> dict:
        """Per-agent and per-seat-position statistics (module docstring)."""
        c = self.config
        labels = [a.display for a in c.agents]
        per = {lab: dict(games=0, wins=0, draws=0, shots=0, fouls=0, illegal=0) for lab in labels}
        results = {lab: [] for lab in labels}
        seat = [dict(games=0, wins=0, draws=0) for _ in range(c.players)]
        rated = []
        for r in self.games:
            rets = r["returns"]
            all_equal = max(rets) == min(rets)
            best = max(rets)
            for k, lab in enumerate(r["players"]):
                results[lab].append(float(rets[k]))
                per[lab]["shots"] += r["shots"][k]
                per[lab]["fouls"] += r["fouls"][k]
                per[lab]["illegal"] += r["illegal"][k]
                seat[k]["games"] += 1
                if all_equal:
                    seat[k]["draws"] += 1
                elif rets[k] == best:
                    seat[k]["wins"] += 1
            for lab in set(r["players"]):
                idx = [k for k, x in enumerate(r["players"]) if x == lab]
                per[lab]["games"] += 1
                if all_equal:
                    per[lab]["draws"] += 1
                elif any(rets[k] == best for k in idx):
                    per[lab]["wins"] += 1
            rated.append((r["players"], r["ranks"]))
        ratings = ratings_from_games(rated, labels)
        for lab, s in per.items():
            k = s["wins"] + 0.5 * s["draws"]
            s["win_rate"] = k / s["games"] if s["games"] else 0.0
            s["wilson95"] = list(wilson_interval(k, s["games"]))
            rt = ratings[lab]
            s["rating"] = dict(mu=rt.mu, sigma=rt.sigma, ordinal=rt.ordinal)
            s["foul_rate"] = s["fouls"] / s["shots"] if s["shots"] else 0.0
            s["mean_return"], s["return_ci95"] = mean_interval(results[lab])
        for s in seat:
            k = s["wins"] + 0.5 * s["draws"]
            s["win_rate"] = k / s["games"] if s["games"] else 0.0
            s["wilson95"] = list(wilson_interval(k, s["games"]))
        if c.players == 1:  # a solo game has no one to beat: its score is the result (BW-1, BW-5)
            for s in list(per.values()) + seat:
                s["win_rate"], s["wilson95"] = None, None
        errors = [r["error"] for r in self.games if r["error"]]
        return dict(agents=per, seat_positions=seat, errors=len(errors), error_messages=errors[:10])

    def to_dict(self) -> dict:
        c = self.config
        return dict(config=dict(discipline=canonical_discipline(c.discipline), players=c.players,
                                agents=[dict(name=a.name, kwargs=a.kwargs, label=a.display) for a in c.agents],
                                games=c.games, seed=c.seed, noise=c.noise, rules=c.rules, max_shots=c.max_shots),
                    summary=self.summary(), games=self.games)

    def write_json(self, path: str) -> None:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            json.dump(self.to_dict(), f, indent=1, sort_keys=True)
            f.write("\n")


def mean_interval(values) -> tuple:
    """(mean, [lo, hi]) of ``values`` with the normal 95% interval of the mean (1.96 standard
    errors, the sample standard deviation); (0.0, [0.0, 0.0]) for none, the mean itself for
    one."""
    x = np.asarray(values, float)
    if x.size == 0:
        return 0.0, [0.0, 0.0]
    m = float(x.mean())
    h = 1.96 * float(x.std(ddof=1)) / np.sqrt(x.size) if x.size > 1 else 0.0
    return m, [m - h, m + h]


def run_seat_tournament(cfg: SeatTournamentConfig, workers: int = 1) -> SeatTournamentResult:
    """Play every game of ``cfg`` (``workers`` processes; the results do not depend on it)."""
    if workers > 1 and cfg.games > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers, mp_context=pool_context()) as ex:
            games = list(ex.map(play_seat_game, [cfg] * cfg.games, range(cfg.games)))
    else:
        games = [play_seat_game(cfg, g) for g in range(cfg.games)]
    return SeatTournamentResult(cfg, games)


__all__ = ["AgentSpec", "SeatTournamentConfig", "SeatTournamentResult", "mean_interval", "play_seat_game",
           "run_seat_tournament"]
