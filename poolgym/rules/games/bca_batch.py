"""The BCA games' shot analysis (`poolgym.rules.games.bca.BCAGame.analyse`) for a batch of
tables, decided in one compiled call.

:func:`outcomes` reads the batched shot facts (`poolgym.rules.shot_facts.BatchFacts`, the
physics' event logs and start positions) and a few per-table state fields, and returns per
table the facts of a `bca.ShotOutcome` exactly as `BCAGame.analyse` finds them (each game's
referee then rules on them); a table it does not decide exactly is left to ``analyse``
itself. Decided here (general.md 7.2, with the game's legal first contact and rail
requirement):

* fouls (`nine_ball_batch.shot_fouls`, in `general.standard_fouls`' order): G-3.27 / G-3.26
  stroke fouls (C-55), G-3.20 scratch, G-3.28 cue ball off the table, G-3.10 / GW-P4 from the
  kitchen with no ball hit, no ball or a ball outside the game's legal set hit first
  (G-3.18; split hits resolved for the legal ball, T-1.16.4), no cushion after the contact
  (G-3.19, when the game requires it and no object ball dropped), an object ball off the
  table where the game makes it a foul (C-03);
* the object balls pocketed and off the table, the cue ball down, the first object ball hit,
  a cushion contact after it (any ball) and on a break the C-26 open-break count (distinct
  object balls to a cushion).

Left to ``analyse`` (:data:`FALLBACK`): phases other than the break and play, a cue ball
other than row 0, a first object ball frozen to a rail or to the cue ball (G-3.38), from
the kitchen a first ball behind the head string (G-3.39: the cue ball's path decides), and a
split hit the batch's facts were not resolved for.
"""
from __future__ import annotations

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

from .. import nine_ball_batch
from ..nine_ball_batch import C_BREAK_RAILS, C_JUMP_FOUL, OBJ_OFF, first_contact, object_masks, shot_fouls

__all__ = ["FALLBACK", "DECIDED", "OPEN_BREAK", "RAIL_AFTER", "outcomes", "signature",
           "T_SKIP", "T_BREAK", "T_KITCHEN", "T_RAIL", "T_LEGAL", "T_RESOLVED",
           "O_CODE", "O_FOULS", "O_POCKETED", "O_JUMPED", "O_FIRST", "O_FLAGS"]

#: outcome codes
FALLBACK, DECIDED = 0, 1
#: flags
OPEN_BREAK, RAIL_AFTER = 1, 2

#: columns of the per-table int rows (``tab``)
T_SKIP, T_BREAK, T_KITCHEN, T_RAIL, T_LEGAL, T_RESOLVED = range(6)
#: columns of the result rows
O_CODE, O_FOULS, O_POCKETED, O_JUMPED, O_FIRST, O_FLAGS = range(6)


@njit(cache=True, no_cfunc_wrapper=True)
def outcomes(tab, stroke, cfg, first, t0, first_raw, t0_raw, cue_pocketed, pocketed, jumped, start, ct, cb, cr,
             to_rail, cue_ball, rvw0, rvw1, n_events, ev_kind, ev_i, ev_j, ev_t, seg_y, jaw_y, bb, bc, bj):
    """(B, 6) int64 rows of B BCA shots (module docstring): the code (:data:`DECIDED` or
    :data:`FALLBACK`), the `nine_ball_batch` foul bits, the object balls pocketed and off
    the table (bit b for ball b), the first object ball hit (-1 none) and the flags
    :data:`OPEN_BREAK` (C-26 met on a break) and :data:`RAIL_AFTER` (a cushion contact after
    the first contact).

    tab (B, 6) int64 per table: left to ``analyse``; the shot is a break; the cue ball was in
    hand behind the head string; the game requires a cushion after the contact (G-3.19); the
    balls legal to hit first (bit b for ball b; every object ball when the game names none);
    the facts' ``first`` / ``t0`` were resolved for that set (else the plain first contact is
    read). stroke (B, 3): the action's theta, a, b. cfg: `nine_ball_batch.outcomes`' layout,
    with ``open_break_min_rail_balls`` as the break's rail count and the game's jumped-ball
    foul (C-03). The other inputs are `nine_ball_batch.outcomes`'."""
    B = tab.shape[0]
    N = pocketed.shape[1]
    res = np.zeros((B, 6), np.int64)
    for k in range(B):
        cue = cue_ball[k]
        if tab[k, T_SKIP] != 0 or cue != 0:
            continue
        f, tf = first_contact(k, tab[k, T_RESOLVED] != 0, tab[k, T_LEGAL], first, t0, first_raw, t0_raw)
        if f < -1:
            continue  # a split hit to resolve (T-1.16.4)
        pm, jm = object_masks(k, pocketed, jumped)
        fb = shot_fouls(k, f, tf, tab[k, T_LEGAL], tab[k, T_KITCHEN] != 0, tab[k, T_RAIL] != 0 and pm == 0, stroke,
                        cfg, cue_pocketed, jumped, start, ct, cb, cr, cue, rvw0, rvw1, n_events, ev_kind, ev_i, ev_j,
                        ev_t, seg_y, jaw_y, bb, bc, bj)
        if fb < 0:
            continue  # G-3.39 or G-3.38
        if jm != 0 and cfg[C_JUMP_FOUL] != 0.0:
            fb |= OBJ_OFF
        flags = 0
        if tab[k, T_BREAK] != 0:
            n_rail = 0
            for b in range(N):
                if to_rail[k, b]:
                    n_rail += 1
            if n_rail >= cfg[C_BREAK_RAILS]:
                flags |= OPEN_BREAK
        if f >= 0:
            for q in range(start[k], start[k + 1]):
                if ct[q] > tf:
                    flags |= RAIL_AFTER
                    break
        res[k, O_CODE] = DECIDED
        res[k, O_FOULS] = fb
        res[k, O_POCKETED] = pm
        res[k, O_JUMPED] = jm
        res[k, O_FIRST] = f
        res[k, O_FLAGS] = flags
    return res


def signature() -> tuple:
    """The argument types of `BCAGame.adjudicate_batch`'s :func:`outcomes` call: those of
    `nine_ball_batch.outcomes` (the same table rows, stroke, constants, shot facts and physics
    arrays as `physics.simulate_batch` and `shot_facts_batch` make them)."""
    return nine_ball_batch.signature()
