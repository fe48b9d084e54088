"""The eight-ball batched referee (`EightBall.adjudicate_batch`, `poolgym.rules.eight_ball_batch`)
rules every shot as `adjudicate_validated` does, table by table, and decides most shots in
play in its compiled call."""

import pytest

from poolgym.rules import eight_ball_batch as eb, nine_ball_batch as nb
from poolgym.rules.eight_ball import EightBall
from tests.rules.batch_check import compiled_signatures, play_checked


def _play_checked(monkeypatch, kwargs, n, steps, seed):
    return play_checked(monkeypatch, EightBall, "poolgym/EightBall-v0", kwargs, n, steps, seed)


@pytest.mark.parametrize("kwargs", [{}, {"opponent": None, "noise": "icga"}])
def test_batched_referee_equals_the_referee_table_by_table(monkeypatch, kwargs):
    codes, bits = _play_checked(monkeypatch, kwargs, n=32, steps=120, seed=3)
    total = sum(v for c, v in codes.items() if isinstance(c, int))
    assert codes["no batch"] == 0
    for c in (eb.FOUL, eb.POT, eb.MISS, eb.LOSS_FOUL, eb.LOSS_EARLY):
        assert codes[c] > 0, (c, codes)
    for b in (nb.SCRATCH, nb.KITCHEN, nb.NO_HIT, nb.BAD_HIT, nb.NO_RAIL, eb.EIGHT_FIRST):
        assert bits[b] > 0, (b, bits)
    if not kwargs:  # the geometric opponent wins racks
        assert codes[eb.WIN] > 0, codes
    # breaks, balls off the table, G-3.38, G-3.39 ... left to the referee: the breaks and a few shots
    assert codes["break"] <= codes[eb.FALLBACK] < codes["break"] + 0.01 * total, codes


def test_batched_referee_with_jumps_stalemates_and_other_knobs(monkeypatch):
    """Elevated strokes (G-3.26 / G-3.27 stroke fouls, balls off the table), the GW-12
    stalemate re-rack and the max_shots cap, C-04 three-foul loss."""
    rules = {"stalemate_innings": 3, "max_shots": 25, "three_foul_loss": True}
    codes, bits = _play_checked(monkeypatch, {"opponent": None, "theta_max": 30.0, "V0_range": (2.0, 12.0),
                                              "rules": rules}, n=64, steps=60, seed=1)
    assert codes["no batch"] == 0
    assert codes[eb.FOUL] > 0 and codes[eb.MISS] > 0 and codes["GW-12"] > 0
    for b in (nb.ILLEGAL_JUMP, nb.CUE_OFF):
        assert bits[b] > 0, (b, bits)


def test_the_compiled_signature_is_the_referees_call(monkeypatch):
    """`eight_ball_batch.signature` (compiled ahead by a cold start's `EightBall.compile_batch`)
    is the types of the call the single and the native vector env make."""
    seen = compiled_signatures(monkeypatch, eb, "poolgym/EightBall-v0")
    assert seen == {eb.signature()}
    monkeypatch.undo()
    EightBall().compile_batch()
