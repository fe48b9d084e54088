"""The nine-ball batched referee (`NineBall.adjudicate_batch`, `poolgym.rules.nine_ball_batch`)
rules every shot as `adjudicate_validated` does, table by table, and decides most of them in
its compiled call."""

import gymnasium as gym
import pytest

from poolgym.rules import nine_ball_batch as nb
from poolgym.rules.nine_ball import NineBall
from tests.rules.batch_check import compiled_signatures, play_checked


def _play_checked(monkeypatch, kwargs, n, steps, seed):
    return play_checked(monkeypatch, NineBall, "poolgym/NineBall-v0", kwargs, n, steps, seed, n_bits=11)


@pytest.mark.parametrize("kwargs", [{}, {"opponent": None, "noise": "icga"}])
def test_batched_referee_equals_the_referee_table_by_table(monkeypatch, kwargs):
    codes, bits = _play_checked(monkeypatch, kwargs, n=32, steps=120, seed=3)
    total = sum(v for c, v in codes.items() if isinstance(c, int))
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
    assert codes[nb.FALLBACK] < 0.1 * sum(v for c, v in codes.items() if isinstance(c, int)), codes


def test_the_compiled_signature_is_the_referees_call(monkeypatch):
    """`nine_ball_batch.signature` (compiled ahead by a cold start's `NineBall.compile_batch`)
    is the types of the call the single and the native vector env make."""
    seen = compiled_signatures(monkeypatch, nb, "poolgym/NineBall-v0", steps=3)
    env = gym.make("poolgym/NineBall-v0")
    env.reset(seed=0)
    env.step(env.action_space.sample())
    env.close()
    assert seen == {nb.signature()}
    monkeypatch.undo()
    NineBall().compile_batch()
