"""The nine-ball batched referee (`NineBall.adjudicate_batch`, `poolgym.rules.nine_ball_batch`)
rules every shot as `adjudicate_validated` does, table by table, and decides most of them in
its compiled call."""

from collections import Counter

import gymnasium as gym
import pytest

import poolgym  # noqa: F401  (registers the env ids)
from poolgym.rules import nine_ball_batch as nb
from poolgym.rules.nine_ball import NineBall


def _play_checked(monkeypatch, kwargs, n, steps, seed):
    """Play seeded random Box actions in the native vector env with every batch ruled by
    `adjudicate_batch` and by `adjudicate_validated` one by one; both rulings must be equal
    (state as JSON, verdict as repr). Returns the counts of the compiled call's outcome codes
    and of its foul bits."""
    codes, bits = Counter(), Counter()
    batched = NineBall.adjudicate_batch

    def checked(self, states, actions, recs):
        got = batched(self, states, actions, recs)
        want = [self.adjudicate_validated(st, a, rec) for st, a, rec in zip(states, actions, recs)]
        assert len(got) == len(want)
        for (s1, v1), (s2, v2) in zip(got, want):
            assert s1 == s2 and s1.to_json() == s2.to_json()
            assert v1 == v2 and repr(v1) == repr(v2)
        ruled = self._batch_outcomes(states, actions, recs)
        if ruled is None:
            codes["no batch"] += len(recs)
        else:
            codes.update(ruled[0])
            codes["GW-12"] += sum("GW-12" in v.rule_refs for c, (_, v) in zip(ruled[0], got) if c != nb.FALLBACK)
            bits.update(b for fb in ruled[1] for b in (1 << i for i in range(11)) if fb & b)
        return got

    monkeypatch.setattr(NineBall, "adjudicate_batch", checked)
    env = gym.make_vec("poolgym/NineBall-v0", num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    env.action_space.seed(seed)
    env.reset(seed=seed)
    for _ in range(steps):
        env.step(env.action_space.sample())
    env.close()
    return codes, bits


@pytest.mark.parametrize("kwargs", [{}, {"opponent": None, "noise": "icga"}])
def test_batched_referee_equals_the_referee_table_by_table(monkeypatch, kwargs):
    codes, bits = _play_checked(monkeypatch, kwargs, n=32, steps=120, seed=3)
    total = sum(codes.values())
    assert codes["no batch"] == 0
    # breaks, fouls, three-foul losses, pots, misses and wins all decided by the compiled call
    for c in (nb.WIN, nb.FOUL, nb.THIRD_FOUL, nb.POT, nb.MISS):
        assert codes[c] > 0, (c, codes)
    for b in (nb.SCRATCH, nb.KITCHEN, nb.NO_HIT, nb.BAD_HIT, nb.NO_RAIL, nb.BAD_BREAK):
        assert bits[b] > 0, (b, bits)
    # push-outs, jumps, spotted nines, G-3.38 ... left to the referee: a few shots
    assert codes[nb.FALLBACK] > 0
    assert codes[nb.FALLBACK] < 0.02 * total, codes


def test_batched_referee_with_jumps_stalemates_and_other_knobs(monkeypatch):
    """Elevated strokes (G-3.26 / G-3.27 stroke fouls, balls off the table), the
    GW-12 stalemate and the max_shots cap, and non-default nine-ball knobs."""
    rules = {"stalemate_innings": 3, "max_shots": 25, "nine_on_push_out": "win",
             "break_min_rail_balls": 2, "three_foul_loss": False}
    codes, bits = _play_checked(monkeypatch, {"opponent": None, "theta_max": 30.0, "V0_range": (2.0, 12.0),
                                              "rules": rules}, n=64, steps=60, seed=1)
    assert codes["no batch"] == 0
    assert codes[nb.THIRD_FOUL] == 0 and codes[nb.FOUL] > 0 and codes[nb.MISS] > 0 and codes["GW-12"] > 0
    for b in (nb.ILLEGAL_JUMP, nb.CUE_OFF, nb.OBJ_OFF, nb.JUMPED):
        assert bits[b] > 0, (b, bits)
    assert codes[nb.FALLBACK] < 0.1 * sum(codes.values()), codes


def test_the_compiled_signature_is_the_referees_call(monkeypatch):
    """`nine_ball_batch.signature` (compiled ahead by a cold start's `NineBall.compile_batch`)
    is the types of the call the single and the native vector env make."""
    import numba

    seen = set()
    real = nb.outcomes

    def spy(*args):
        seen.add(tuple(numba.typeof(a) for a in args))
        return real(*args)

    monkeypatch.setattr(nb, "outcomes", spy)
    for n in (1, 8):
        env = gym.make_vec("poolgym/NineBall-v0", num_envs=n, vectorization_mode="vector_entry_point")
        env.action_space.seed(0)
        env.reset(seed=0)
        for _ in range(3):
            env.step(env.action_space.sample())
        env.close()
    env = gym.make("poolgym/NineBall-v0")
    env.reset(seed=0)
    env.step(env.action_space.sample())
    env.close()
    assert seen == {nb.signature()}
    monkeypatch.undo()
    NineBall().compile_batch()
