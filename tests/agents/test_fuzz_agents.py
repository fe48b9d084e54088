"""A seeded slice of ``benchmarks/fuzz_agents.py`` (the baseline players in games of every
discipline, seat count and drawn rules reading), and proof that its checks can fail."""

from agents.random_agent import RandomAgent
from poolgym.rules.core import ShotAction
from tests.benchmark_modules import load_benchmark

ARGS = ["--games", "12", "--seed", "5", "--max-shots", "40"]


def test_fuzz_agents_slice_is_clean(capsys):
    mod = load_benchmark("fuzz_agents")
    assert mod.main(ARGS) == 0
    out = capsys.readouterr().out
    assert "0 failures" in out and mod.STATS["games"] + mod.STATS["rules refused"] == 12
    assert mod.STATS["actions"] > 100


def test_fuzz_agents_draws_are_seeded():
    mod = load_benchmark("fuzz_agents")
    names = sorted(mod.DISCIPLINES)
    a = mod.draw_game(5, 3, names, ["geometric", "random"], 6, 0.7)
    assert a == mod.draw_game(5, 3, names, ["geometric", "random"], 6, 0.7)
    assert a != mod.draw_game(5, 4, names, ["geometric", "random"], 6, 0.7)
    draws = [mod.draw_game(5, g, names, ["random"], 6, 0.7) for g in range(60)]
    assert {d["discipline"] for d in draws} == set(names)
    assert all(d["seats"] <= 6 for d in draws) and any(d["rules"] for d in draws)
    assert mod.plays("trained", "nine_ball") and not mod.plays("trained", "eight_ball") and mod.plays("random", "cowboy")
    trained = [mod.draw_game(5, g, names, ["trained"], 6, 0.7) for g in range(30)]
    assert all(set(d["agents"]) == ({"trained"} if d["discipline"] == "nine_ball" else {"random"}) for d in trained)


def test_fuzz_agents_reports_an_agent_acting_illegally(monkeypatch, capsys):
    """An agent that never calls its shot is caught where the rules require a call, and the
    failure names the game to replay."""
    mod = load_benchmark("fuzz_agents")
    real = RandomAgent.act

    def no_call(self, obs):
        a = real(self, obs)
        if isinstance(a, ShotAction) and a.called_ball is not None:
            return ShotAction(a.V0, a.phi, a.theta, a.a, a.b)
        return a

    monkeypatch.setattr(RandomAgent, "act", no_call)
    args = ["--games", "6", "--seed", "5", "--max-shots", "40", "--agents", "random",
            "--only", "eight_ball", "straight_pool"]
    assert mod.main(args) == 1
    out = capsys.readouterr().out
    assert "illegal action by seat" in out and "(replay: --seed 5 --game" in out
