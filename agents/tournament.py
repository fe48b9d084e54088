"""Seeded round-robin tournaments between agents on any discipline.

A game is played by driving the referee directly (`poolgym.rules`): ``initial_state(config,
seed)``, then repeatedly ``legal_actions(state)`` -> the seat's agent -> ``apply(state,
action)`` until the game is over or `max_shots` shots were played (a draw). Execution noise
(`physics.ExecutionNoise`, e.g. the ICGA preset) perturbs every stroke after the agent chose
it, drawn from a per-game RNG, so agents never see it.

Seeding: game g of pairing (i, j) uses the seed ``SeedSequence([seed, i, j, g])``; from it come
the rack seed, both agents' RNG seeds and the noise RNG. Seats alternate: in even games agent i
sits at seat 0 (the breaker when the discipline starts without a lag), in odd games agent j.
So every game replays exactly from (seed, i, j, g), whatever order or process plays it, which
lets a tournament resume from a partial results file and run as Ray tasks.

Statistics per agent (`TournamentResult.summary`): games, wins/losses/draws, win rate with its
Wilson 95% interval, Elo (sequential in the fixed game order, agents.stats), shots and fouls
(foul rate = fouls per shot), breaks (legal-break rate, balls pocketed on the break, break and
run rate), run-outs (the winner pocketed every ball left at the start of its final inning, at
least `RUNOUT_MIN_BALLS` of them) and illegal actions (must be 0; an agent producing an
illegal action forfeits the game).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
from physics.noise import perturb_stroke

from agents.base import Agent, Observation, make
from agents.stats import elo_ratings, wilson_interval

RUNOUT_MIN_BALLS = 3

#: Discipline names accepted by tournaments, with their short CLI aliases.
ALIASES = {"9ball": "nine_ball", "nineball": "nine_ball", "8ball": "eight_ball",
           "eightball": "eight_ball", "14.1": "straight_pool", "straight": "straight_pool",
           "straightpool": "straight_pool"}


def canonical_discipline(name: str) -> str:
    """Map CLI aliases ('9ball', '14.1', ...) to the rules' discipline names."""
    return ALIASES.get(name.lower().replace("-", "").replace("_", ""), name) if name else name


@dataclass(frozen=True)
class AgentSpec:
    """An agent entry of a tournament: registry `name`, constructor `kwargs`, display `label`."""

    name: str
    kwargs: dict = field(default_factory=dict)
    label: str = ""

    @property
    def display(self) -> str:
        return self.label or self.name

    def build(self, seed: int | None) -> Agent:
        return make(self.name, seed=seed, **dict(self.kwargs))


@dataclass
class GameRecord:
    """Outcome of one game (JSON-serialisable).

    players: labels at seat 0 and seat 1; winner: winning seat or None (draw / shot limit);
    shots, fouls, illegal: per seat; breaker: seat that broke; break_legal: the break was not
    a foul; break_pocketed: object balls pocketed on the break; break_and_run: the breaker won
    without the other seat ever acting; runout: the winner's last inning cleared the table from
    at least RUNOUT_MIN_BALLS balls; scores: final per-seat scores (14.1 points); error: the
    message when the referee or the physics rejected a position it produced itself (the game is
    then scored as a draw and counted in the summary's ``errors``; should never happen).
    """

    pair: tuple
    game: int
    seed: int
    players: tuple
    winner: int | None
    shots: list
    fouls: list
    illegal: list
    breaker: int | None
    break_legal: bool | None
    break_pocketed: int
    break_and_run: bool
    runout: bool
    scores: list
    error: str | None = None

    def key(self) -> str:
        return f"{self.pair[0]}-{self.pair[1]}-{self.game}"


def game_seeds(seed: int, i: int, j: int, g: int) -> tuple[int, int, int, np.random.Generator]:
    """(rack seed, seed of agent i, seed of agent j, noise RNG) of game g of pairing (i, j)."""
    ss = np.random.SeedSequence([int(seed), int(i), int(j), int(g)])
    s = ss.generate_state(4, dtype=np.uint32)
    return int(s[0]), int(s[1]), int(s[2]), np.random.default_rng(int(s[3]))


def _discipline(name: str):
    from poolgym.rules.game import DISCIPLINES

    name = canonical_discipline(name)
    if name not in DISCIPLINES:
        raise ValueError(f"discipline: unknown {name!r}; known: {', '.join(sorted(DISCIPLINES))}")
    return DISCIPLINES[name]


def make_rules_config(discipline: str, options: dict | None = None, max_shots: int | None = None):
    """The discipline's default config with `options` (conflicts.md keys) applied."""
    import dataclasses

    d = _discipline(discipline)
    cfg = d.default_config() if hasattr(d, "default_config") else d.config_type()
    changes = dict(options or {})
    if max_shots is not None:
        changes["max_shots"] = int(max_shots)
    names = {f.name for f in dataclasses.fields(cfg)}
    for k in changes:
        if k not in names:
            raise ValueError(f"rules option: unknown key {k!r} for {discipline}; known: {', '.join(sorted(names))}")
    # a fresh config, not a replace of the default one: fields that __post_init__ derives from
    # n_players (a handicap per seat, MM-2) then follow the seat count
    return type(cfg)(**changes) if changes else cfg


def _table_for(cfg):
    from poolgym.rules.geometry import get_table

    return get_table(getattr(cfg, "table", "9ft"))


def play_game(discipline: str, agents: Sequence[Agent], *, seed: int, agent_seeds: Sequence[int],
              noise=None, noise_rng: np.random.Generator | None = None, config=None,
              max_shots: int = 300, table=None, on_step: Callable | None = None,
              labels: Sequence[str] = ("p0", "p1"), pair=(0, 1), game_index: int = 0) -> GameRecord:
    """Play one game; `agents[k]` sits at seat k (any number of seats the discipline allows).
    Each agent is given its seat's view (`poolgym.rules.observe`: the public state with the
    seat's own secret and without the state's chance RNG). Returns its `GameRecord`."""
    from poolgym.envs.physics_io import make_noise
    from poolgym.rules.core import IllegalActionError, Phase, ShotAction
    from poolgym.rules.game import observe

    disc = _discipline(discipline)
    name = canonical_discipline(discipline)
    cfg = config if config is not None else make_rules_config(name, max_shots=max_shots)
    table = table if table is not None else _table_for(cfg)
    noise = make_noise(noise)
    noise_rng = noise_rng if noise_rng is not None else np.random.default_rng(seed)
    for a, s in zip(agents, agent_seeds):
        a.reset(int(s))
    n = len(agents)
    state = disc.initial_state(cfg, seed)
    shots, fouls, illegal = [0] * n, [0] * n, [0] * n
    breaker = None
    break_legal = None
    break_pocketed = 0
    acted = [False] * n
    inning_seat, inning_start_balls, inning_pocketed = None, 0, 0
    winner = None
    forfeit = None
    error = None
    total_shots = 0
    while not state.game_over and total_shots < max_shots:
        seat = state.seat_to_act
        spec = disc.legal_actions(state)
        # the seat's view: the public state and its own secret, never the chance RNG (seed,
        # counter) of the state nor another seat's secret
        obs = Observation(observe(state, seat).state, spec, table, seat, name)
        try:
            action = agents[seat].act(obs)
        except Exception as e:  # noqa: BLE001 - an agent crash ends the game, recorded as an error
            error = f"{type(e).__name__} in {labels[seat]}.act: {e} (shot {total_shots}, rack seed {seed})"
            break
        acted[seat] = True
        if isinstance(action, ShotAction):
            is_break = state.phase is Phase.BREAK
            if seat != inning_seat:
                inning_seat, inning_pocketed = seat, 0
                inning_start_balls = len(state.balls_on_table())
            if noise is not None:
                row = perturb_stroke(noise, action.shot_array(), noise_rng)
                action = ShotAction(float(row[0]), float(row[1]), float(row[2]), float(row[3]),
                                    float(row[4]), action.called_ball, action.called_pocket,
                                    action.safety, action.push_out)
        else:
            is_break = False
        try:
            new_state, verdict = disc.apply(state, action)
        except IllegalActionError:
            illegal[seat] += 1
            forfeit = seat
            break
        except Exception as e:  # noqa: BLE001 - physics/referee rejected its own position: record it
            error = f"{type(e).__name__}: {e} (shot {total_shots}, seat {seat}, rack seed {seed})"
            break
        if on_step is not None:
            on_step(state, action, new_state, verdict)
        if isinstance(action, ShotAction):
            shots[seat] += 1
            total_shots += 1
            if verdict is not None:
                if verdict.fouls:
                    fouls[seat] += 1
                inning_pocketed += len(verdict.legal_pocketed)
                if is_break and breaker is None:
                    breaker = seat
                    break_legal = not verdict.fouls
                    break_pocketed = len(verdict.pocketed)
        state = new_state
    if forfeit is not None:
        winner = 1 - forfeit if n == 2 else None
    elif error is not None:
        winner = None
    elif state.game_over:
        winner = state.winner
    b_and_r = bool(winner is not None and breaker is not None and winner == breaker
                   and not any(acted[s] for s in range(n) if s != breaker))
    runout = bool(winner is not None and inning_seat == winner
                  and inning_start_balls >= RUNOUT_MIN_BALLS and inning_pocketed >= inning_start_balls)
    return GameRecord(pair=tuple(pair), game=game_index, seed=int(seed), players=tuple(labels),
                      winner=winner, shots=shots, fouls=fouls, illegal=illegal, breaker=breaker,
                      break_legal=break_legal, break_pocketed=int(break_pocketed),
                      break_and_run=b_and_r, runout=runout, scores=list(state.scores), error=error)


def check_entrants(agents: tuple, games_field: str, games: int) -> None:
    """A tournament's entrants and length, checked early: at least two agents (`AgentSpec`)
    with distinct labels, and ``games`` (the config field ``games_field``) at least 1;
    ValueError naming the field otherwise."""
    if len(agents) < 2:
        raise ValueError("agents: a tournament needs at least two agents")
    if int(games) < 1:
        raise ValueError(f"{games_field}: expected >= 1, got {games!r}")
    labels = [a.display for a in agents]
    if len(set(labels)) != len(labels):
        raise ValueError(f"agents: labels must be unique, got {labels}; give each entry a label")


@dataclass(frozen=True)
class TournamentConfig:
    """A round robin: every pair of `agents` plays `games_per_pair` games on `discipline`.

    noise: 'none', 'icga' or a dict of sigmas (physics.ExecutionNoise fields).
    rules: rule options (conflicts.md keys) for the discipline config.
    max_shots: shot limit per game (reaching it is a draw).
    """

    discipline: str
    agents: tuple
    games_per_pair: int = 20
    seed: int = 0
    noise: Any = "icga"
    rules: dict = field(default_factory=dict)
    max_shots: int = 300

    def __post_init__(self):
        check_entrants(self.agents, "games_per_pair", self.games_per_pair)

    def pairings(self) -> list[tuple[int, int]]:
        n = len(self.agents)
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    def jobs(self) -> list[tuple[int, int, int]]:
        return [(i, j, g) for (i, j) in self.pairings() for g in range(self.games_per_pair)]


def play_job(cfg: TournamentConfig, i: int, j: int, g: int) -> GameRecord:
    """Play game g of pairing (i, j) of `cfg` (pure function of its arguments)."""
    rack_seed, si, sj, nrng = game_seeds(cfg.seed, i, j, g)
    ai, aj = cfg.agents[i], cfg.agents[j]
    if g % 2 == 0:
        seats, seeds, labels = (ai.build(si), aj.build(sj)), (si, sj), (ai.display, aj.display)
    else:
        seats, seeds, labels = (aj.build(sj), ai.build(si)), (sj, si), (aj.display, ai.display)
    rules_cfg = make_rules_config(cfg.discipline, cfg.rules, cfg.max_shots)
    return play_game(cfg.discipline, seats, seed=rack_seed, agent_seeds=seeds, noise=cfg.noise,
                     noise_rng=nrng, config=rules_cfg, max_shots=cfg.max_shots, labels=labels,
                     pair=(i, j), game_index=g)


@dataclass
class TournamentResult:
    """All games of a tournament plus the derived statistics."""

    config: TournamentConfig
    games: list

    def summary(self) -> dict:
        """Per-agent statistics and the pairwise table (see module docstring)."""
        labels = [a.display for a in self.config.agents]
        per = {l: dict(games=0, wins=0, losses=0, draws=0, shots=0, fouls=0, illegal=0, breaks=0,
                       legal_breaks=0, break_pocketed=0, break_and_runs=0, runouts=0)
               for l in labels}
        pair_tab: dict[str, dict] = {}
        elo_games = []
        for r in sorted(self.games, key=lambda r: (r.pair, r.game)):
            p0, p1 = r.players
            for seat, lab in enumerate(r.players):
                s = per[lab]
                s["games"] += 1
                s["shots"] += r.shots[seat]
                s["fouls"] += r.fouls[seat]
                s["illegal"] += r.illegal[seat]
                if r.winner is None:
                    s["draws"] += 1
                elif r.winner == seat:
                    s["wins"] += 1
                    s["runouts"] += int(r.runout)
                else:
                    s["losses"] += 1
                if r.breaker == seat:
                    s["breaks"] += 1
                    s["legal_breaks"] += int(bool(r.break_legal))
                    s["break_pocketed"] += r.break_pocketed
                    s["break_and_runs"] += int(r.break_and_run)
            score0 = 0.5 if r.winner is None else (1.0 if r.winner == 0 else 0.0)
            elo_games.append((p0, p1, score0))
            a, b = labels[r.pair[0]], labels[r.pair[1]]
            key = f"{a} vs {b}"
            t = pair_tab.setdefault(key, dict(a=a, b=b, games=0, a_wins=0, b_wins=0, draws=0))
            t["games"] += 1
            if r.winner is None:
                t["draws"] += 1
            elif r.players[r.winner] == a:
                t["a_wins"] += 1
            else:
                t["b_wins"] += 1
        for t in pair_tab.values():
            k = t["a_wins"] + 0.5 * t["draws"]
            t["a_score"] = k / t["games"] if t["games"] else 0.0
            t["a_wilson95"] = list(wilson_interval(k, t["games"]))
        elo = elo_ratings(elo_games, labels)
        for lab, s in per.items():
            k = s["wins"] + 0.5 * s["draws"]
            s["win_rate"] = k / s["games"] if s["games"] else 0.0
            s["wilson95"] = list(wilson_interval(k, s["games"]))
            s["elo"] = elo[lab]
            s["foul_rate"] = s["fouls"] / s["shots"] if s["shots"] else 0.0
            s["legal_break_rate"] = s["legal_breaks"] / s["breaks"] if s["breaks"] else 0.0
            s["break_and_run_rate"] = s["break_and_runs"] / s["breaks"] if s["breaks"] else 0.0
            s["mean_break_pocketed"] = s["break_pocketed"] / s["breaks"] if s["breaks"] else 0.0
        errors = [r.error for r in self.games if r.error]
        return dict(agents=per, pairs=pair_tab, errors=len(errors), error_messages=errors[:10])

    def to_dict(self) -> dict:
        c = self.config
        return dict(
            config=dict(discipline=canonical_discipline(c.discipline),
                        agents=[dict(name=a.name, kwargs=a.kwargs, label=a.display) for a in c.agents],
                        games_per_pair=c.games_per_pair, seed=c.seed, noise=c.noise, rules=c.rules,
                        max_shots=c.max_shots),
            summary=self.summary(),
            games=[asdict(r) for r in sorted(self.games, key=lambda r: (r.pair, r.game))],
        )

    def write_json(self, path: str) -> None:
        """Write results as JSON (sorted keys, stable float formatting -> byte-identical reruns)."""
        from agents.checkpoint import atomic_write_text

        atomic_write_text(path, json.dumps(self.to_dict(), indent=1, sort_keys=True) + "\n")

    def plot(self, path: str) -> None:
        """PNG bar chart of win rates with Wilson 95% error bars and Elo (matplotlib, Agg)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        s = self.summary()["agents"]
        labels = list(s)
        wr = np.array([s[l]["win_rate"] for l in labels])
        lo = np.array([s[l]["wilson95"][0] for l in labels])
        hi = np.array([s[l]["wilson95"][1] for l in labels])
        fig, ax = plt.subplots(1, 2, figsize=(9, 3.6))
        yerr = np.clip([wr - lo, hi - wr], 0.0, None)  # rounding can make a bound cross the rate
        ax[0].bar(labels, wr, yerr=yerr, capsize=4, color="#3a7")
        ax[0].set_ylim(0, 1)
        ax[0].set_ylabel("win rate (Wilson 95%)")
        ax[0].set_title(f"{canonical_discipline(self.config.discipline)}, noise={self.config.noise}")
        ax[1].bar(labels, [s[l]["elo"] for l in labels], color="#37a")
        ax[1].axhline(1500, color="k", lw=0.5)
        ax[1].set_ylabel("Elo")
        fig.tight_layout()
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        fig.savefig(path, dpi=100, metadata={"Software": None})
        plt.close(fig)


def _load_cache(path: str | None) -> dict[str, GameRecord]:
    """The finished games of a cache file; a last line cut by a kill (no newline) is cut off the
    file, so that the games appended next start on a line of their own."""
    done: dict[str, GameRecord] = {}
    if path and os.path.exists(path):
        with open(path, "rb+") as f:
            data = f.read()
            whole = data.rfind(b"\n") + 1
            if whole < len(data):
                f.truncate(whole)
        for line in data[:whole].decode().splitlines():
            line = line.strip()
            if not line:
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError:  # a damaged line: replay that game
                continue
            d["pair"] = tuple(d["pair"])
            d["players"] = tuple(d["players"])
            r = GameRecord(**d)
            done[r.key()] = r
    return done


def run_tournament(cfg: TournamentConfig, *, cache: str | None = None, progress: bool = False,
                   workers: int = 1, run_jobs: Callable | None = None) -> TournamentResult:
    """Play every game of `cfg` and return the result.

    cache: a JSON-lines file of finished games; games already in it are not replayed (resume),
        new games are appended as they finish, one whole line each (a line cut by a kill is
        dropped on the next load and its game replayed).
    workers: processes playing the games when `run_jobs` is None (1: this process).
    run_jobs: a dispatcher ``run_jobs(play_job, cfg, jobs, progress=...)`` yielding
        ``play_job(cfg, *job)`` for each job in job order, wherever it plays them (the Ray
        tasks of `experiments.ray_backend.run_jobs_ray`); None: this process or `workers`
        processes. Every game is a pure function of its job, so any dispatcher gives the same
        result.
    """
    done = _load_cache(cache)
    todo = [job for job in cfg.jobs() if f"{job[0]}-{job[1]}-{job[2]}" not in done]
    sink = open(cache, "a") if cache else None

    def record(r: GameRecord):
        done[r.key()] = r
        if sink is not None:
            sink.write(json.dumps(asdict(r), sort_keys=True) + "\n")
            sink.flush()

    try:
        if run_jobs is not None:
            for r in run_jobs(play_job, cfg, todo, progress=progress):
                record(r)
        else:
            bar = _progress(len(todo), progress, f"{canonical_discipline(cfg.discipline)} games")
            if workers > 1 and len(todo) > 1:
                from concurrent.futures import ProcessPoolExecutor

                with ProcessPoolExecutor(workers, mp_context=pool_context()) as ex:
                    futs = [ex.submit(play_job, cfg, *job) for job in todo]
                    for fu in futs:
                        record(fu.result())
                        bar.update(1)
            else:
                for job in todo:
                    record(play_job(cfg, *job))
                    bar.update(1)
            bar.close()
    finally:
        if sink is not None:
            sink.close()
    return TournamentResult(cfg, [done[f"{i}-{j}-{g}"] for (i, j, g) in cfg.jobs()])


def pool_context():
    """The `multiprocessing` context of the game pools (`run_tournament`,
    `agents.seat_tournament.run_seat_tournament`): the platform's default, except ``spawn``
    once numba's parallel threading layer has started in this process (after any parallel
    batched physics call, e.g. a search agent's): numba's GNU OpenMP pool terminates a process
    forked from it ("fork() called from a process already using GNU OpenMP"), and its TBB pool
    is not fork-safe either. Spawned workers import the caller's ``__main__`` module, so a
    script needs the usual ``if __name__ == "__main__":`` guard."""
    import multiprocessing as mp

    try:
        import numba

        numba.threading_layer()  # ValueError while no parallel kernel has run in this process
    except (ImportError, ValueError):
        return mp.get_context()
    return mp.get_context("spawn")


class _NoBar:
    def update(self, n=1):
        pass

    def close(self):
        pass


def _progress(total: int, enabled: bool, desc: str):
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="game")
