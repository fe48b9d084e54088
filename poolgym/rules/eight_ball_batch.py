"""The eight-ball referee's common cases for a batch of tables, decided in one compiled call.

:func:`outcomes` reads the batched shot facts (`poolgym.rules.shot_facts.BatchFacts`, the
physics' event logs, start positions and pockets) and a few per-table state fields, and
returns per table an outcome code and the fouls found, exactly as
`poolgym.rules.eight_ball.EightBall.adjudicate` rules a shot in play (checklist B of
eight_ball.md); a table it does not decide exactly gets :data:`FALLBACK` (the Python referee
rules it). Decided here, for a shot in play on an open table or with the groups assigned:

* fouls (`nine_ball_batch.shot_fouls`): G-3.27 / G-3.26 stroke fouls, G-3.20 scratch, G-3.28
  cue ball off the table, G-3.10 / GW-P4 from the kitchen with no ball hit, 8B-4.11 no ball
  or a ball outside the legal set hit first (:data:`EIGHT_FIRST` marks the 8 hit first,
  8B-4.9 / 8B-4.15), 8B-4.11 no cushion after the contact;
* outcomes: :data:`FOUL` (8B-4.14, in hand anywhere; balls stay down, 8B-4.16),
  :data:`SAFETY` (8B-4.12), :data:`POT` (the called ball in the called pocket, 8B-4.13, the
  group chosen on an open table, 8B-4.10), :data:`MISS` (G-3.5); the 8 pocketed (8B-4.20 in
  the checklist's order): :data:`LOSS_FOUL` (on a foul, 8B-4.20(1)), :data:`LOSS_EARLY`
  (not the legal object ball: with the last ball of the group, 8B-4.20(2), or before,
  8B-4.20(5)), :data:`WIN` (called, in the called pocket, 8B-4.19), :data:`LOSS_POCKET`
  (8B-4.20(4)).

and for the opening break (checklist A, 8B-4.5 / 8B-4.6 / C-12), when no ball left the
table and the 8 stayed up: :data:`BREAK_SCRATCH` (a scratch or a stroke foul, in hand behind
the head string for the incoming player; with the break illegal by count too under C-12
SCRATCH_ONLY), :data:`BREAK_SCRATCH_OPTION` (a scratch on a break illegal by count, C-12
MOST_SEVERE: the incoming player's choice), :data:`BREAK_ILLEGAL` (illegal by count, 8B-4.5),
:data:`BREAK_POT` (legal, a ball pocketed: the breaker continues) and :data:`BREAK_DRY`
(legal by count, nothing pocketed); the foul bits then hold the stroke fouls, the scratch and
:data:`~poolgym.rules.nine_ball_batch.BAD_BREAK` when the break is illegal by count. The
state and verdict of a ruled break are built by `EightBall._rule_break`, the Python
referee's own checklist A.

Left to the Python referee (:data:`FALLBACK`): on the break, a ball off the table (8B-4.7,
C-13, C-12) or the 8 pocketed (8B-4.8); in play, object balls off
the table (8B-4.17, C-02, the 8 off the table 8B-4.20(3)), no legal
ball (C-16), a shot without call or safety (8B-4.2's obvious shots), a third foul with
C-04 ``three_foul_loss``, a cue ball other than row 0, a first object ball frozen to a rail
or to the cue ball (G-3.38), from the kitchen a first ball behind the head string (G-3.39),
and a split hit the batch's facts were not resolved for.
"""
from __future__ import annotations

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

from .nine_ball_batch import (BAD_BREAK, BAD_HIT, C_BREAK_RAILS, C_THREE, ILLEGAL_JUMP, MISCUE, SCRATCH, first_contact,
                              shot_fouls, stroke_foul_bits)

__all__ = ["FALLBACK", "FOUL", "SAFETY", "POT", "MISS", "WIN", "LOSS_FOUL", "LOSS_EARLY", "LOSS_POCKET",
           "BREAK_SCRATCH", "BREAK_SCRATCH_OPTION", "BREAK_ILLEGAL", "BREAK_POT", "BREAK_DRY", "EIGHT_FIRST",
           "outcomes", "signature"]

#: outcome codes (shots in play, then the break's)
FALLBACK, FOUL, SAFETY, POT, MISS, WIN, LOSS_FOUL, LOSS_EARLY, LOSS_POCKET = range(9)
BREAK_SCRATCH, BREAK_SCRATCH_OPTION, BREAK_ILLEGAL, BREAK_POT, BREAK_DRY = range(9, 14)
#: foul bit besides `nine_ball_batch`'s: the bad hit was on the 8 (8B-4.9 / 8B-4.15)
EIGHT_FIRST = 2048
EIGHT = 8

#: columns of the per-table int rows (``tab``)
T_SKIP, T_KITCHEN, T_FOULS, T_LEGAL, T_RESOLVED, T_SAFETY, T_CALL_BALL, T_CALL_POCKET, T_BREAK = range(9)
#: the config row's entry after `nine_ball_batch.config_row`'s: C-12 SCRATCH_ONLY (1.0) or MOST_SEVERE (0.0)
C_SCRATCH_ONLY = 11


@njit(cache=True, no_cfunc_wrapper=True)
def outcomes(tab, stroke, cfg, first, t0, first_raw, t0_raw, cue_pocketed, pocketed, jumped, start, ct, cb, cr,
             to_rail, cue_ball, pocket, rvw0, rvw1, n_events, ev_kind, ev_i, ev_j, ev_t, seg_y, jaw_y, bb, bc, bj):
    """(code (B,) int64, fouls (B,) int64 foul bits of `nine_ball_batch` and
    :data:`EIGHT_FIRST`, pocketed (B,) int64 with bit b set when object ball b dropped) of B
    eight-ball shots (module docstring).

    tab (B, 9) int64 per table: the table is left to the referee (not a shot in play nor a
    break, no legal ball, no call nor safety); the cue ball was in hand behind the head string; the
    shooter's consecutive fouls before the shot; the legal object balls (bit b for ball b,
    8B-4.11; any non-zero mask on the break); the facts' ``first`` / ``t0`` were resolved for that set (else the plain first
    contact is read); a safety was declared; the called ball (-1 none) and pocket; the shot
    is the opening break. stroke and
    cfg: as `nine_ball_batch.outcomes`' (three_foul_loss is C-04's, break_min_rail_balls
    8B-4.5's), then :data:`C_SCRATCH_ONLY`. to_rail (B, N): the object balls driven to a
    cushion. pocket (B, N): the
    pocket of every ball (-1 none). The other inputs are `nine_ball_batch.outcomes`'."""
    B = tab.shape[0]
    N = pocketed.shape[1]
    code = np.zeros(B, np.int64)
    bits = np.zeros(B, np.int64)
    pmask = np.zeros(B, np.int64)
    for k in range(B):
        legal = tab[k, T_LEGAL]
        cue = cue_ball[k]
        if tab[k, T_SKIP] != 0 or legal == 0 or cue != 0:
            continue
        if tab[k, T_BREAK] != 0:
            code[k], bits[k], pmask[k] = break_outcome(k, stroke, cfg, cue_pocketed, pocketed, jumped, to_rail)
            continue
        off = False
        for b in range(1, N):
            if jumped[k, b]:
                off = True
        if off:
            continue  # 8B-4.17, C-02, the 8 jumped (8B-4.20(3))
        f, tf = first_contact(k, tab[k, T_RESOLVED] != 0, legal, first, t0, first_raw, t0_raw)
        if f < -1:
            continue  # a split hit to resolve (T-1.16.4)
        pm = 0
        for b in range(N):
            if pocketed[k, b]:
                pm |= 1 << b
        fb = shot_fouls(k, f, tf, legal, tab[k, T_KITCHEN] != 0, pm == 0, stroke, cfg, cue_pocketed, jumped, start,
                        ct, cb, cr, cue, rvw0, rvw1, n_events, ev_kind, ev_i, ev_j, ev_t, seg_y, jaw_y, bb, bc, bj)
        if fb < 0:
            continue  # G-3.39 or G-3.38
        pmask[k] = pm
        if N > EIGHT and pocketed[k, EIGHT]:  # 8B-4.19 / 8B-4.20 in the checklist's order
            if fb != 0:
                code[k] = LOSS_FOUL
            elif legal != 1 << EIGHT:
                code[k] = LOSS_EARLY
            elif tab[k, T_SAFETY] == 0 and tab[k, T_CALL_BALL] == EIGHT and pocket[k, EIGHT] == tab[k, T_CALL_POCKET]:
                code[k] = WIN
            else:
                code[k] = LOSS_POCKET
        elif fb != 0:
            if cfg[C_THREE] != 0.0 and tab[k, T_FOULS] + 1 >= 3:
                continue  # C-04
            code[k] = FOUL
        elif tab[k, T_SAFETY] != 0:
            code[k] = SAFETY
        else:
            c = tab[k, T_CALL_BALL]
            code[k] = POT if 0 <= c < N and pocket[k, c] == tab[k, T_CALL_POCKET] and pocket[k, c] >= 0 else MISS
        if fb & BAD_HIT and f == EIGHT:
            fb |= EIGHT_FIRST
        bits[k] = fb
    return code, bits, pmask


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def break_outcome(k, stroke, cfg, cue_pocketed, pocketed, jumped, to_rail):
    """(code, foul bits, pocketed mask) of table k's opening break (module docstring;
    `EightBall._adjudicate_break`'s facts): :data:`FALLBACK` when a ball left the table or
    the 8 dropped."""
    N = pocketed.shape[1]
    for b in range(N):
        if jumped[k, b]:
            return FALLBACK, 0, 0  # 8B-4.7, C-13, C-12 with the cue ball off the table
    if N > EIGHT and pocketed[k, EIGHT]:
        return FALLBACK, 0, 0  # 8B-4.8
    pm = 0
    for b in range(N):
        if pocketed[k, b]:
            pm |= 1 << b
    fb = stroke_foul_bits(k, stroke, cfg)  # G-3.27 / G-3.26
    if cue_pocketed[k]:
        fb |= SCRATCH
    n_rail = 0
    for b in range(N):
        if to_rail[k, b]:
            n_rail += 1
    legal = pm != 0 or n_rail >= cfg[C_BREAK_RAILS]
    if not legal:
        fb |= BAD_BREAK
    if fb & (MISCUE | ILLEGAL_JUMP | SCRATCH):
        code = BREAK_SCRATCH if legal or cfg[C_SCRATCH_ONLY] != 0.0 else BREAK_SCRATCH_OPTION
    elif not legal:
        code = BREAK_ILLEGAL
    elif pm != 0:
        code = BREAK_POT
    else:
        code = BREAK_DRY
    return code, fb, pm


def signature() -> tuple:
    """The argument types of `EightBall.adjudicate_batch`'s :func:`outcomes` call."""
    from numba import types

    f, i, b = types.float64, types.int64, types.boolean
    i1, f1, b1 = i[::1], f[::1], b[::1]
    return (i[:, ::1], f[:, ::1], f1, i1, f1, i1, f1, b1, b[:, ::1], b[:, ::1], i1, f1, i1, i1, b[:, ::1], i1,
            types.int8[:, ::1],
            f[:, :, :, ::1], f[:, :, :, ::1], i1, types.int8[:, ::1], types.int16[:, ::1], types.int16[:, ::1],
            f[:, ::1], f1, f1, i, i, i)
