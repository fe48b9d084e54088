"""A seeded slice of ``benchmarks/fuzz_rules.py`` (long random play of the env ids with every
batch ruled both ways and every table's state checked), and proof that its checks can fail."""

import dataclasses

from poolgym.rules.nine_ball import NineBall
from tests.benchmark_modules import load_benchmark


ARGS = ["--only", "poolgym/NineBall-v0", "poolgym/PeaPool-v0", "--modes", "macro", "--opponents", "geometric",
        "--players", "3", "--tables", "4", "--steps", "10", "--seeds", "1", "--seed", "7"]


def test_fuzz_slice_is_clean(capsys):
    """Nine-ball and three-seat pea pool with the geometric opponent: every check holds, the
    batched referees were checked, and they are restored afterwards."""
    mod = load_benchmark("fuzz_rules")
    before = NineBall.__dict__["adjudicate_batch"]
    assert mod.main(ARGS) == 0
    out = capsys.readouterr().out
    assert "0 failures" in out
    assert mod.STATS["shots ruled both ways"] > 0 and mod.STATS["table steps"] == 2 * 4 * 10
    assert NineBall.__dict__["adjudicate_batch"] is before


def test_fuzz_reports_a_referee_that_differs_from_its_batch(monkeypatch, capsys):
    """A table-by-table referee that disagrees with the batched one (a planted rule ref) is a
    failure of the run, reported with its seed and configuration."""
    mod = load_benchmark("fuzz_rules")
    real = NineBall.adjudicate_validated

    def planted(self, state, action, rec):
        st, v = real(self, state, action, rec)
        return st, dataclasses.replace(v, rule_refs=v.rule_refs + ("X-0",))

    monkeypatch.setattr(NineBall, "adjudicate_validated", planted)
    assert mod.main(ARGS[:2] + ARGS[3:]) == 1
    out = capsys.readouterr().out
    assert "batch != single: verdict" in out and "seed 7 ('poolgym/NineBall-v0'" in out


def test_fuzz_with_drawn_rules_knobs(capsys):
    """``--knobs``: each run draws its rules options from the seed (the same draw every time;
    the G-3.6 lag only with two seats); a draw the env refuses with a clear error at ``make``
    is counted, not failed, and the configuration plays its next seed."""
    mod = load_benchmark("fuzz_rules")
    a = mod.knobs_for("poolgym/EightBall-v0", 3)
    assert a == mod.knobs_for("poolgym/EightBall-v0", 3) and a != mod.knobs_for("poolgym/EightBall-v0", 4)
    assert mod.knobs_for("poolgym/PotDrill-v0", 3) is None
    draws = [mod.random_rules("eight_ball", mod.np.random.default_rng(s)) for s in range(40)]
    assert any(d.get("lag") for d in draws) and any(not d.get("lag") for d in draws)
    assert not any(mod.random_rules("bowlliards", mod.np.random.default_rng(s)).get("lag") for s in range(40))
    assert not any(mod.random_rules("pea_pool", mod.np.random.default_rng(s), 4).get("lag") for s in range(40))
    args = ["--knobs", "--only", "poolgym/EightBall-v0", "poolgym/Bowlliards-v0", "--modes", "box",
            "--opponents", "geometric", "--players", "1", "--tables", "4", "--steps", "8", "--seeds", "3",
            "--seed", "11"]
    real = mod.random_rules
    # a draw the env refuses: the lag asked of a one-seat game
    mod.random_rules = lambda d, rng, seats=None: dict(real(d, rng, seats), lag=True) if d == "bowlliards" else \
        real(d, rng, seats)
    try:
        assert mod.main(args) == 0
    finally:
        mod.random_rules = real
    out = capsys.readouterr().out
    assert "0 failures" in out and "rules={" in out
    assert "refused (lag (G-3.6) is for two seats" in out and mod.STATS["rules refused"] == 3


def test_fuzz_sharded_twin_matches_and_a_difference_is_caught(monkeypatch, capsys):
    """``--sharded 2``: each run is replayed in a twin env over two worker processes, compared
    step by step; a planted difference in this process's env (a reward changed) is a failure."""
    mod = load_benchmark("fuzz_rules")
    args = ["--only", "poolgym/NineBall-v0", "--modes", "box", "--opponents", "geometric", "--tables", "3",
            "--steps", "6", "--seeds", "1", "--seed", "5", "--sharded", "2"]
    assert mod.main(args) == 0
    assert "0 failures" in capsys.readouterr().out
    from poolgym.envs.vector import PoolVectorEnv

    real = PoolVectorEnv.step

    def planted(self, actions):
        obs, r, te, tr, info = real(self, actions)
        return obs, r + 1.0, te, tr, info

    monkeypatch.setattr(PoolVectorEnv, "step", planted)
    assert mod.main(args) == 1
    assert "the sharded twin's step differs" in capsys.readouterr().out
