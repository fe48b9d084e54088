"""The 14.1 continuous referee's common cases for a batch of tables, decided in one compiled call.

:func:`outcomes` reads the batched shot facts (`poolgym.rules.shot_facts.BatchFacts`, the
physics' event logs, start positions and pockets) and a few per-table state fields, and
returns per table an outcome code and the fouls found, exactly as
`poolgym.rules.straight_pool.StraightPool.adjudicate` rules a shot (checklists A and B of
straight_pool.md); a table it does not decide exactly gets :data:`FALLBACK` (the Python
referee rules it). Decided here (any ball may be hit first, SP-6.7.1):

* the opening break (SP-6.6): :data:`VIOLATION` when neither the called ball dropped in the
  called pocket nor the cue ball hit a ball and then a cushion with two or more object balls
  driven to a cushion (-2, not a foul; the opponent's option); a legal break's fouls are the
  stroke fouls, the scratch or the cue ball off the table and an object ball off the table
  (SP-6.9);

* fouls in play (`nine_ball_batch.shot_fouls`): G-3.27 / G-3.26 stroke fouls, SP-6.10 scratch and
  cue ball off the table, G-3.10 / GW-P4 from the kitchen with no ball hit, SP-6.7.2 no
  ball hit and no cushion after the contact, SP-6.9 an object ball off the table, and the
  SP-6.7.2 near-cushion foul (:data:`NEAR_RAIL`: the seat's last two shots were fouls or
  near-cushion safeties on the ball hit first, which was near a rail and was driven to no
  new cushion with its near rails counted as frozen ones);
* outcomes: :data:`FOUL` (SP-6.11, -1; the successive-foul counter, SP-6.12), :data:`POT`
  (the called ball in the called pocket, SP-6.5 / SP-6.7.1: every ball pocketed scores),
  :data:`MISS` (G-3.5, or a declared safety, SP-6.7.4); ``near`` gives the ball of a
  near-cushion safety (SP-6.7.2's history, 0 for none).

Left to the Python referee (:data:`FALLBACK`): the phases without a shot, a third successive foul (SP-6.12, by the counter or by the near-cushion rule), a cue
ball other than row 0, a first object ball frozen to a rail or to the cue ball (G-3.38),
from the kitchen a first ball behind the head string (G-3.39), and a table whose state the
caller flags (``T_SKIP``). The caller itself leaves to the referee the scoring shots that end
the game (SP-6.1) or leave one ball or none (the SP-6.7.3 re-rack) and spots the balls
(SP-6.8, SP-6.9, SP-6.13) with the referee's own function.
"""
from __future__ import annotations

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

from .nine_ball_batch import C_EPS, C_L, C_R, C_W, CUE_OFF, OBJ_OFF, SCRATCH, first_contact, object_masks, shot_fouls
from .rails import driven_to_cushion, near_bits

__all__ = ["FALLBACK", "FOUL", "POT", "MISS", "VIOLATION", "NEAR_RAIL", "outcomes", "signature"]

#: outcome codes
FALLBACK, FOUL, POT, MISS, VIOLATION = range(5)
#: foul bit besides `nine_ball_batch`'s: the SP-6.7.2 near-cushion foul
NEAR_RAIL = 2048

#: columns of the per-table int rows (``tab``)
T_SKIP, T_KITCHEN, T_FOULS, T_SAFETY, T_CALL_BALL, T_CALL_POCKET, T_HIST0, T_HIST1, T_BREAK = range(9)
#: entry of the config row (``cfg``) after `nine_ball_batch`'s: the near-cushion rule is on
C_NEAR = 11


@njit(cache=True, no_cfunc_wrapper=True)
def outcomes(tab, stroke, cfg, first_raw, t0_raw, cue_pocketed, pocketed, jumped, start, ct, cb, cr, to_rail, cue_ball,
             pocket, rvw0, rvw1, n_events, ev_kind, ev_i, ev_j, ev_t, seg_y, jaw_y, bb, bc, bj):
    """(code (B,) int64, fouls (B,) int64 foul bits of `nine_ball_batch` and :data:`NEAR_RAIL`,
    pocketed (B,) int64 and jumped (B,) int64 with bit b set when object ball b dropped / left
    the table, near (B,) int64 the ball of a near-cushion safety or 0) of B 14.1 shots
    (module docstring).

    tab (B, 9) int64 per table: the table is left to the referee; the cue ball was in hand
    behind the head string (in play); the shooter's successive fouls before the shot; a
    safety was declared; the called ball (-1 none) and pocket; the shooter's last two shot
    codes (`StraightPoolExtra.nc_history`); the shot is the opening break. stroke and cfg: as
    `nine_ball_batch.outcomes`' (its frozen_rule_enabled must be on), cfg[:data:`C_NEAR`] the
    near-cushion rule. pocket (B, N): the pocket of every ball (-1 none). A :data:`VIOLATION`'s
    foul bits are only `nine_ball_batch`'s ``SCRATCH`` / ``CUE_OFF`` (the cue ball left the
    table, SP-6.10). The other inputs are `nine_ball_batch.outcomes`' (``first_raw`` /
    ``t0_raw``: the plain first contact, any ball being legal)."""
    B = tab.shape[0]
    N = pocketed.shape[1]
    code = np.zeros(B, np.int64)
    bits = np.zeros(B, np.int64)
    pmask = np.zeros(B, np.int64)
    jmask = np.zeros(B, np.int64)
    near_of = np.zeros(B, np.int64)
    legal = (1 << N) - 2
    for k in range(B):
        cue = cue_ball[k]
        if tab[k, T_SKIP] != 0 or cue != 0:
            continue
        f, tf = first_contact(k, False, legal, first_raw, t0_raw, first_raw, t0_raw)
        pm, jm = object_masks(k, pocketed, jumped)
        c = tab[k, T_CALL_BALL]
        called = tab[k, T_SAFETY] == 0 and c > 0 and pocket[k, c] == tab[k, T_CALL_POCKET]
        is_break = tab[k, T_BREAK] != 0
        if is_break:  # SP-6.6
            req = False
            if f >= 0:
                for q in range(start[k], start[k + 1]):
                    if cb[q] == cue and ct[q] > tf:  # the cue ball to a cushion after the contact
                        n_rail = 0
                        for b in range(1, N):
                            if to_rail[k, b]:
                                n_rail += 1
                        req = n_rail >= 2
                        break
            if not (called or req):
                code[k] = VIOLATION
                bits[k] = (SCRATCH if cue_pocketed[k] else 0) | (CUE_OFF if jumped[k, cue] else 0)
                pmask[k] = pm
                jmask[k] = jm
                continue
            if f < 0:
                continue
        fb = shot_fouls(k, f, tf, legal, not is_break and tab[k, T_KITCHEN] != 0, not is_break and pm == 0, stroke,
                        cfg, cue_pocketed, jumped, start, ct, cb, cr, cue, rvw0, rvw1, n_events, ev_kind, ev_i, ev_j,
                        ev_t, seg_y, jaw_y, bb, bc, bj)
        if fb < 0:
            continue  # G-3.39 or G-3.38
        if jm != 0:
            fb |= OBJ_OFF
        nc = 0
        if cfg[C_NEAR] != 0.0 and not is_break and f >= 0 and pm == 0:  # SP-6.7.2 near-cushion rule
            R = cfg[C_R]
            x = rvw0[k, f, 0, 0]
            y = rvw0[k, f, 0, 1]
            near = near_bits(x, y, cfg[C_W], cfg[C_L], R, cfg[C_EPS])
            if near != 0:
                n = n_events[k]
                lo = start[k]
                hi = start[k + 1]
                if not driven_to_cushion(rvw0[k, :, 0, :2], cue, tf, cfg[C_W], cfg[C_L], R + cfg[C_EPS], ct[lo:hi],
                                         cb[lo:hi], cr[lo:hi], ev_kind[k, :n], ev_i[k, :n], ev_j[k, :n],
                                         ev_t[k, :n], bb, f, near):
                    nc = f
                    h0 = tab[k, T_HIST0]
                    h1 = tab[k, T_HIST1]
                    if (h0 == -1 or h0 == f) and (h1 == -1 or h1 == f):
                        if h0 == -1 or h1 == -1:
                            continue  # a third successive foul (SP-6.7.2 note, SP-6.12)
                        fb |= NEAR_RAIL
        if fb != 0:
            if tab[k, T_FOULS] + 1 >= 3:
                continue  # SP-6.12
            code[k] = FOUL
        elif called:
            code[k] = POT
        else:
            code[k] = MISS
        bits[k] = fb
        pmask[k] = pm
        jmask[k] = jm
        near_of[k] = nc
    return code, bits, pmask, jmask, near_of


def signature() -> tuple:
    """The argument types of `StraightPool.adjudicate_batch`'s :func:`outcomes` call."""
    from numba import types

    f, i, b = types.float64, types.int64, types.boolean
    i1, f1, b1 = i[::1], f[::1], b[::1]
    return (i[:, ::1], f[:, ::1], f1, i1, f1, b1, b[:, ::1], b[:, ::1], i1, f1, i1, i1, b[:, ::1], i1, types.int8[:, ::1],
            f[:, :, :, ::1], f[:, :, :, ::1], i1, types.int8[:, ::1], types.int16[:, ::1], types.int16[:, ::1],
            f[:, ::1], f1, f1, i, i, i)
