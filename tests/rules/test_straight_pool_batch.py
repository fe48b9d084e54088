"""The 14.1 batched referee (`StraightPool.adjudicate_batch`, `poolgym.rules.straight_pool_batch`)
rules every shot as `adjudicate_validated` does, table by table, and decides most shots in
play in its compiled call."""

import dataclasses
from collections import Counter

import pytest

from poolgym.rules import nine_ball_batch as nb, straight_pool_batch as sb
from poolgym.rules.core import Phase
from poolgym.rules.straight_pool import StraightPool
from poolgym.rules.testing import ruled_both_ways
from tests.rules.batch_check import compiled_signatures, play_checked, play_random


def _play_checked(monkeypatch, kwargs, n, steps, seed):
    return play_checked(monkeypatch, StraightPool, "poolgym/StraightPool-v0", kwargs, n, steps, seed)


def _total(codes) -> int:
    return sum(v for c, v in codes.items() if isinstance(c, int))


@pytest.mark.rule("SP-6.7.3")
@pytest.mark.parametrize("kwargs", [{}, {"opponent": None, "noise": "icga"}])
def test_batched_referee_equals_the_referee_table_by_table(monkeypatch, kwargs):
    """Every batch ruled equal to the referee table by table; against the geometric opponent
    (who runs racks) the SP-6.7.3 re-racks of the fourteen are among the decided shots."""
    codes, bits = _play_checked(monkeypatch, kwargs, n=32, steps=100, seed=3)
    assert codes["no batch"] == 0
    for c in (sb.FOUL, sb.POT, sb.MISS, sb.VIOLATION):
        assert codes[c] > 0, (c, codes)
    if "opponent" not in kwargs:
        assert codes["SP-6.7.3"] > 0, codes
    for b in (nb.SCRATCH, nb.KITCHEN, nb.NO_HIT, nb.NO_RAIL):
        assert bits[b] > 0, (b, bits)
    # third fouls (SP-6.12), G-3.38, G-3.39 ... left to the referee: a few shots
    assert codes[sb.FALLBACK] < 0.08 * _total(codes), codes


def test_batched_referee_with_jumps_stalemates_and_other_knobs(monkeypatch):
    """Elevated strokes (G-3.26 / G-3.27 stroke fouls, balls off the table and spotted,
    SP-6.9), the GW-12 stand-in and the max_shots cap, C-22 penalties off the score at the
    end of the previous inning, a short game (SP-6.1)."""
    rules = {"stalemate_innings": 3, "max_shots": 25, "penalty_base": "score_at_end_of_previous_inning",
             "target_points": 8}
    codes, bits = _play_checked(monkeypatch, {"opponent": None, "theta_max": 30.0, "V0_range": (2.0, 12.0),
                                              "rules": rules}, n=64, steps=60, seed=1)
    assert codes["no batch"] == 0
    assert codes[sb.FOUL] > 0 and codes[sb.MISS] > 0 and codes["GW-12"] > 0
    for b in (nb.ILLEGAL_JUMP, nb.CUE_OFF, nb.OBJ_OFF):
        assert bits[b] > 0, (b, bits)


def test_near_cushion_rule(monkeypatch):
    """SP-6.7.2: with the shooter's last two shots made near-cushion safeties on the ball the
    shot hits first (or a foul and one such safety), the batched referee finds the
    near-cushion foul as the referee does (the third successive foul is left to it)."""
    codes = Counter()
    fouls = Counter()
    real = StraightPool.adjudicate_batch
    histories = (lambda f: (f, f), lambda f: (-1, f), lambda f: (f, -1), lambda f: (0, f))

    def checked(self, states, actions, recs):
        bf = recs[0].facts[0]
        primed = []
        for k, st in enumerate(states):
            f = int(bf.first_raw[k])
            if st.phase is Phase.PLAY and f > 0:
                h = list(st.extra.nc_history)
                h[st.seat_to_act] = histories[k % len(histories)](f)
                st = st.replace(extra=dataclasses.replace(st.extra, nc_history=tuple(h)))
            primed.append(st)
        got = ruled_both_ways(real, self, primed, actions, recs)
        ruled = self._batch_outcomes(primed, actions, recs)
        codes.update(ruled[0])
        fouls.update(fb & sb.NEAR_RAIL for fb in ruled[1])
        codes["near"] += sum(1 for c in ruled[4] if c)
        return got

    monkeypatch.setattr(StraightPool, "adjudicate_batch", checked)
    play_random("poolgym/StraightPool-v0", {"opponent": None}, n=32, steps=60, seed=5)
    assert fouls[sb.NEAR_RAIL] > 0 and codes["near"] > 0, (codes, fouls)


def test_the_compiled_signature_is_the_referees_call(monkeypatch):
    """`straight_pool_batch.signature` (compiled ahead by a cold start's `StraightPool.compile_batch`)
    is the types of the call the single and the native vector env make."""
    seen = compiled_signatures(monkeypatch, sb, "poolgym/StraightPool-v0")
    assert seen == {sb.signature()}
    monkeypatch.undo()
    StraightPool().compile_batch()
