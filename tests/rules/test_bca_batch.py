"""The BCA games' batched shot analysis (`BCAGame.adjudicate_batch`,
`poolgym.rules.games.bca_batch`) finds every decided shot's `ShotOutcome` as `analyse` does,
and rules every shot as `adjudicate_validated` does, table by table."""

from collections import Counter

import pytest

import poolgym  # noqa: F401  (registers the env ids)
from poolgym.rules import nine_ball_batch as nb
from poolgym.rules.games import bca_batch as bb
from poolgym.rules.games.bca import BCAGame
from poolgym.rules.testing import ruled_both_ways
from tests.rules.batch_check import compiled_signatures, play_random

GAMES = [("poolgym/PeaPool-v0", 6, {}), ("poolgym/FortyOne-v0", 6, {}), ("poolgym/CardBall-v0", 6, {}),
         ("poolgym/CutThroat-v0", 5, {}), ("poolgym/OddBall-v0", 4, {}), ("poolgym/MrAndMrs-v0", 6, {}),
         ("poolgym/PeaPool-v0", 3, {"rules": {"first_contact": "any", "variant_points": True}}),
         ("poolgym/FortyOne-v0", 2, {"opponent": "geometric"})]


def play_checked(monkeypatch, env_id, kwargs, n, steps, seed):
    """Seeded random Box actions in ``env_id``'s native vector env, every batch ruled by
    `BCAGame.adjudicate_batch` and by `adjudicate_validated` one by one (equal states as
    JSON, verdicts as repr), every decided `ShotOutcome` equal to `analyse`'s. Returns the
    counts of decided / left-open tables ("no batch": batches it could not read; "break":
    decided breaks) and of the foul bits."""
    codes, bits = Counter(), Counter()
    batched = BCAGame.adjudicate_batch

    def checked(self, states, actions, recs):
        got = ruled_both_ways(batched, self, states, actions, recs)
        given = self._batch_analyses(states, actions, recs)
        if given is None:
            codes["no batch"] += len(recs)
            return got
        rows = self._batch_outcomes(states, actions, recs)
        for st, a, rec, o, row in zip(states, actions, recs, given, rows):
            codes[row[0]] += 1
            if o is None:
                continue
            assert o == self.analyse(st, a, rec)
            codes["break"] += o.is_break
            codes["open"] += o.open_break
            codes["rail after"] += o.rail_after_contact
            codes["jumped"] += bool(o.jumped)
            bits.update(b for b in (1 << i for i in range(10)) if row[1] & b)
        return got

    monkeypatch.setattr(BCAGame, "adjudicate_batch", checked)
    play_random(env_id, kwargs, n, steps, seed)
    return codes, bits


@pytest.mark.parametrize("env_id,players,kwargs", GAMES)
def test_batched_analysis_equals_the_referee_table_by_table(monkeypatch, env_id, players, kwargs):
    kw = dict({"opponent": None}, players=players, **kwargs)
    codes, bits = play_checked(monkeypatch, env_id, kw, n=24, steps=40, seed=3)
    total = codes[bb.DECIDED] + codes[bb.FALLBACK]
    assert codes["no batch"] == 0 and total > 0
    assert codes["break"] > 0 and codes["rail after"] > 0
    for b in (nb.SCRATCH, nb.NO_HIT):
        assert bits[b] > 0, (b, bits)
    # G-3.38, G-3.39, unresolved split hits: a few shots
    assert codes[bb.FALLBACK] < 0.05 * total, codes


def test_batched_analysis_with_jumps_and_kitchen_fouls(monkeypatch):
    """Elevated strokes (G-3.26 / G-3.27 stroke fouls, balls off the table: a foul in card
    ball, C-03) and the kitchen foul (G-3.10) and wrong first contacts."""
    codes, bits = play_checked(monkeypatch, "poolgym/CardBall-v0",
                               {"opponent": None, "players": 4, "theta_max": 30.0, "V0_range": (2.0, 12.0)},
                               n=48, steps=30, seed=1)
    assert codes["no batch"] == 0 and codes["jumped"] > 0
    for b in (nb.ILLEGAL_JUMP, nb.CUE_OFF, nb.OBJ_OFF, nb.KITCHEN):
        assert bits[b] > 0, (b, bits)
    codes, bits = play_checked(monkeypatch, "poolgym/PeaPool-v0",
                               {"opponent": None, "players": 6, "theta_max": 30.0, "V0_range": (2.0, 12.0)},
                               n=48, steps=30, seed=2)
    assert codes["jumped"] > 0 and bits[nb.BAD_HIT] > 0 and bits[nb.OBJ_OFF] == 0


def test_the_compiled_signature_is_the_referees_call(monkeypatch):
    """`bca_batch.signature` (compiled ahead by a cold start's `BCAGame.compile_batch`) is the
    types of the call the native vector env makes."""
    seen = compiled_signatures(monkeypatch, bb, "poolgym/PeaPool-v0", steps=3)
    assert seen == {bb.signature()}
    monkeypatch.undo()
    BCAGame.compile_batch(None)
