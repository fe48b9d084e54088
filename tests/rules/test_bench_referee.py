"""`benchmarks/bench_referee.py` keeps the batches a native env rules and leaves the referee as
it found it."""

from poolgym.rules.eight_ball import EightBall
from poolgym.rules.nine_ball import NineBall
from tests.benchmark_modules import load_benchmark


def test_collects_the_ruled_batches_and_restores_the_referee():
    bench = load_benchmark("bench_referee")
    before = (EightBall.__dict__["adjudicate_batch"], NineBall.__dict__["adjudicate_batch"])
    batches = bench.collect("eight_ball", "none", num_envs=4, steps=3)
    assert (EightBall.__dict__["adjudicate_batch"], NineBall.__dict__["adjudicate_batch"]) == before
    assert batches and all(len(s) == len(a) == len(r) for _, s, a, r in batches)
    assert sum(len(s) for _, s, _, _ in batches) >= 4  # every table broke at least
    batched, one_by_one = bench.bench(batches, repeat=1)
    assert batched > 0.0 and one_by_one > 0.0
