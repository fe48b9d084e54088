"""Tournament: fixed-seed statistics, reproducibility, resume from the games file."""

import json

import pytest

from agents.stats import elo_ratings, wilson_interval
from agents.tournament import AgentSpec, TournamentConfig, canonical_discipline, game_seeds, run_tournament


def small_cfg(**kw):
    d = dict(discipline="nine_ball", agents=(AgentSpec("geometric"), AgentSpec("random")), games_per_pair=4,
             seed=3, noise="icga", max_shots=80)
    d.update(kw)
    return TournamentConfig(**d)


def test_fixed_seed_statistics_are_consistent_and_reproducible(tmp_path):
    r1 = run_tournament(small_cfg())
    r2 = run_tournament(small_cfg())
    assert r1.to_dict() == r2.to_dict()
    s = r1.summary()
    g, rnd = s["agents"]["geometric"], s["agents"]["random"]
    assert g["games"] == rnd["games"] == 4
    assert g["wins"] + g["losses"] + g["draws"] == 4
    assert g["wins"] == rnd["losses"] and g["draws"] == rnd["draws"]
    assert g["illegal"] == 0 and rnd["illegal"] == 0
    # geometric beats random
    assert g["wins"] >= 3
    # Wilson and Elo recomputed from the game list
    k = g["wins"] + 0.5 * g["draws"]
    assert g["wilson95"] == list(wilson_interval(k, 4))
    games = [(r.players[0], r.players[1], 0.5 if r.winner is None else float(r.winner == 0))
             for r in sorted(r1.games, key=lambda r: r.game)]
    elo = elo_ratings(games, ["geometric", "random"])
    assert g["elo"] == pytest.approx(elo["geometric"], abs=1e-12)
    assert g["elo"] > 1500 > rnd["elo"]
    # seats alternate: the first seat of game g is agent (g % 2)
    for r in r1.games:
        assert r.players[0] == ("geometric" if r.game % 2 == 0 else "random")
    # JSON
    r1.write_json(str(tmp_path / "res.json"))
    d = json.loads((tmp_path / "res.json").read_text())
    assert d["summary"]["agents"]["geometric"]["wins"] == g["wins"]


def test_tournament_plot(tmp_path):
    pytest.importorskip("matplotlib")  # the render extra
    r = run_tournament(small_cfg(games_per_pair=2))
    r.plot(str(tmp_path / "p.png"))
    assert (tmp_path / "p.png").stat().st_size > 1000


def test_resume_from_cache_gives_same_result(tmp_path):
    cache = tmp_path / "games.jsonl"
    full = run_tournament(small_cfg(games_per_pair=3), cache=str(cache)).to_dict()
    lines = cache.read_text().splitlines()
    assert len(lines) == 3
    # simulate a kill: keep the first game and half a line of the second
    cache.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])
    resumed = run_tournament(small_cfg(games_per_pair=3), cache=str(cache)).to_dict()
    assert resumed == full
    # the cut line was dropped and the replayed games appended on lines of their own
    assert [json.loads(x)["game"] for x in cache.read_text().splitlines()] == [0, 1, 2]


class SpyAgent:
    """Wraps an agent and records the chance RNG and the secrets of every state it is shown."""

    def __init__(self, inner, seen: list):
        self.inner, self.seen = inner, seen

    def reset(self, seed=None):
        self.inner.reset(seed)

    def act(self, obs):
        self.seen.append((obs.state.rng, obs.state.hidden, obs.seat,
                          tuple(k for k, p in enumerate(obs.state.private or ()) if p is not None)))
        return self.inner.act(obs)


@pytest.mark.parametrize("discipline, n", [("nine_ball", 2), ("straight_pool", 2), ("eight_ball", 2),
                                           ("pea_pool", 3)])
def test_agents_never_see_the_chance_rng(discipline, n):
    """play_game hands every agent its seat's view (poolgym.rules.observe): the state's (seed,
    counter) chance RNG is empty and only the seat's own secret is present, in games with and
    without secrets."""
    from agents.base import make
    from agents.tournament import make_rules_config, play_game

    seen: list = []
    cfg = make_rules_config(discipline, {"n_players": n} if n != 2 else None, max_shots=12)
    rec = play_game(discipline, [SpyAgent(make("geometric"), seen) for _ in range(n)], seed=5,
                    agent_seeds=range(n), noise="icga", config=cfg, max_shots=12, labels=[f"p{k}" for k in range(n)])
    assert rec.error is None and len(seen) >= 2
    for rng, hidden, seat, secrets in seen:
        assert rng == () and hidden is None and secrets in ((), (seat,))


def test_play_hands_agents_the_seat_view(monkeypatch):
    """``poolgym play`` (experiments.play) shows agents the seat's view too: no chance RNG."""
    import agents.base as base
    from agents.geometric import GeometricAgent
    from experiments.play import play

    seen: list = []
    monkeypatch.setitem(base._REGISTRY, "spy", lambda seed=None: SpyAgent(GeometricAgent(seed=seed), seen))
    play("nine_ball", ["spy", "spy"], seed=2, max_shots=6, headless=True, hold_s=0.0)
    assert len(seen) >= 2 and all(rng == () and hidden is None for rng, hidden, _, _ in seen)


def test_game_seeds_depend_on_every_index():
    seen = {game_seeds(0, i, j, g)[:3] for i in range(3) for j in range(3) for g in range(3)}
    assert len(seen) == 27


def test_config_errors():
    with pytest.raises(ValueError, match="at least two"):
        TournamentConfig("nine_ball", (AgentSpec("random"),))
    with pytest.raises(ValueError, match="labels must be unique"):
        TournamentConfig("nine_ball", (AgentSpec("random"), AgentSpec("random")))
    with pytest.raises(ValueError, match="discipline"):
        run_tournament(TournamentConfig("snooker", (AgentSpec("random"), AgentSpec("geometric"))))
    assert canonical_discipline("9ball") == "nine_ball" and canonical_discipline("14.1") == "straight_pool"


def test_plot_with_perfect_record(tmp_path):
    """10 wins of 10: the Wilson upper bound rounds just below 1 (0.9999999999999999); the
    plot's error bars must stay valid."""
    pytest.importorskip("matplotlib")  # the render extra
    from agents.tournament import GameRecord, TournamentResult

    cfg = small_cfg(games_per_pair=10)
    games = [GameRecord(pair=(0, 1), game=g, seed=g, players=("geometric", "random") if g % 2 == 0 else
                        ("random", "geometric"), winner=0 if g % 2 == 0 else 1, shots=[5, 2], fouls=[0, 2],
                        illegal=[0, 0], breaker=0, break_legal=True, break_pocketed=1, break_and_run=False,
                        runout=False, scores=[0, 0]) for g in range(10)]
    r = TournamentResult(cfg, games)
    s = r.summary()["agents"]["geometric"]
    assert s["wins"] == 10 and s["wilson95"][1] < 1.0
    r.plot(str(tmp_path / "p.png"))
    assert (tmp_path / "p.png").exists()


def test_tournament_workers_after_parallel_physics_in_this_process():
    """Game workers after a numba-parallel physics call in this process (a search agent's):
    numba's GNU OpenMP pool terminates a process forked from it, so the pool spawns its
    workers then (`agents.tournament.pool_context`), and the games are those of one process."""
    import numpy as np

    import physics
    from agents.tournament import pool_context

    table = physics.Table.wpa("9ft")
    rvw = np.zeros((8, 2, 3, 3))
    rvw[:, :, 0, 2] = physics.BallParams().R
    rvw[:, 0, 0, :2] = (0.6, 0.6)
    rvw[:, 1, 0, :2] = (0.6, 1.6)
    physics.simulate_batch(table, rvw, np.tile([2.0, 90.0, 0.0, 0.0, 0.0], (8, 1)), np.zeros(8, int), parallel=True)
    assert pool_context().get_start_method() == "spawn"
    # the workers run parallel kernels too (the search agent's batches); forked, they were terminated
    cfg = TournamentConfig("eight_ball", (AgentSpec("search", {"budget": 120, "refine_samples": 8}),
                                          AgentSpec("geometric")), games_per_pair=2, seed=3, max_shots=12)
    assert run_tournament(cfg, workers=2).summary() == run_tournament(cfg).summary()
