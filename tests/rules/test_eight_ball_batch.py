"""The eight-ball batched referee (`EightBall.adjudicate_batch`, `poolgym.rules.eight_ball_batch`)
rules every shot as `adjudicate_validated` does, table by table, and decides most shots in
play and most opening breaks (checklist A) in its compiled call."""

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
    # every outcome of checklist A that the compiled call decides (8B-4.5, 8B-4.6, C-12)
    for c in (eb.BREAK_SCRATCH, eb.BREAK_SCRATCH_OPTION, eb.BREAK_ILLEGAL, eb.BREAK_POT, eb.BREAK_DRY):
        assert codes[c] > 0, (c, codes)
    assert bits[nb.BAD_BREAK] > 0, bits
    # balls off the table, the 8 on the break, G-3.38, G-3.39 ... left to the referee: a few shots
    assert 0 < codes[eb.FALLBACK] < 0.01 * total, codes


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


@pytest.mark.parametrize("rules", [
    # C-12 SCRATCH_ONLY: a scratch on a break illegal by count is in hand behind the head string
    # (8B-4.6) with both fouls listed; INF1-8B-2: the group of the first ball down on the break
    {"break_foul_combination": "scratch_only", "group_assignment": "first_ball_pocketed_on_break"},
    {"break_min_rail_balls": 2},  # 8B-4.5's count as a knob: fewer and more balls to a cushion
    {"break_min_rail_balls": 7},
])
def test_batched_breaks_under_the_rules_knobs(monkeypatch, rules):
    """Checklist A's knobs read by the compiled call (C-12, INF1-8B-2, 8B-4.5's count) rule
    as the referee does: every batch is ruled both ways and compared."""
    codes, bits = _play_checked(monkeypatch, {"opponent": None, "rules": rules}, n=64, steps=20, seed=5)
    assert codes["no batch"] == 0
    decided = {c: codes[c] for c in (eb.BREAK_SCRATCH, eb.BREAK_SCRATCH_OPTION, eb.BREAK_ILLEGAL, eb.BREAK_POT,
                                     eb.BREAK_DRY)}
    assert decided[eb.BREAK_POT] > 0 and decided[eb.BREAK_SCRATCH] > 0, decided
    if rules.get("break_foul_combination") == "scratch_only":
        assert decided[eb.BREAK_SCRATCH_OPTION] == 0, decided
    if rules.get("break_min_rail_balls") == 2:
        assert decided[eb.BREAK_DRY] > 0, decided
    if rules.get("break_min_rail_balls") == 7:
        assert decided[eb.BREAK_ILLEGAL] > 0, decided


def test_the_compiled_signature_is_the_referees_call(monkeypatch):
    """`eight_ball_batch.signature` (compiled ahead by a cold start's `EightBall.compile_batch`)
    is the types of the call the single and the native vector env make."""
    seen = compiled_signatures(monkeypatch, eb, "poolgym/EightBall-v0")
    assert seen == {eb.signature()}
    monkeypatch.undo()
    EightBall().compile_batch()
