"""The nine-ball referee's common cases for a batch of tables, decided in one compiled call.

:func:`outcomes` reads the batched shot facts (`poolgym.rules.shot_facts.BatchFacts`, the
physics' event logs and start positions) and a few per-table state fields, and returns per
table an outcome code and the fouls found, exactly as `poolgym.rules.nine_ball.NineBall.adjudicate`
rules them; a table it does not decide exactly gets :data:`FALLBACK` (the Python referee
rules it). Decided here (nine_ball.md, general.md 7.2):

* fouls: G-3.27 miscue on a jump and G-3.26 illegal jump (C-55), G-3.20 scratch, G-3.28 cue
  ball off the table, G-3.10 /
  GW-P4 from the kitchen with no ball hit (the cue ball must cross the head string), 9B-5.8 /
  9B-5.4 no ball or the wrong ball hit first (split hits resolved for the lowest ball,
  T-1.16.4), 9B-5.9 no cushion after contact (a first ball not frozen to a rail or to the
  cue ball at the start, G-3.38's last paragraph for the others), 9B-5.4 fewer than
  ``break_min_rail_balls`` object balls to a cushion on a break that pockets none, G-3.28 an
  object ball off the table (C-03 ``jumped_ball_is_foul``; always on the break, 9B-5.4);
  several fouls are one foul (9B-5.7);
* outcomes: :data:`WIN` (a legal shot pockets the 9, 9B-5.14), :data:`FOUL` (9B-5.7, in hand
  anywhere 9B-5.10), :data:`THIRD_FOUL` (9B-5.13), :data:`POT` (a legal pot, 9B-5.1 / 9B-5.5),
  :data:`MISS` (G-3.5).

Left to the Python referee (:data:`FALLBACK`): push-outs (9B-5.6), the 9 off the table or
pocketed on a foul (spotted, 9B-5.11, 9B-5.7), a cue ball other than row 0, a first object ball frozen to
a rail or to the cue ball (G-3.38), from the kitchen a first ball behind the head string
(G-3.39: the cue ball's path decides), a split hit the batch's facts were not resolved for,
and a table without an object ball.
"""
from __future__ import annotations

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

from .rails import rail_facts

__all__ = ["FALLBACK", "WIN", "FOUL", "THIRD_FOUL", "POT", "MISS", "MISCUE", "ILLEGAL_JUMP", "SCRATCH",
           "CUE_OFF", "KITCHEN", "NO_HIT", "BAD_HIT", "NO_RAIL", "OBJ_OFF", "BAD_BREAK", "JUMPED", "outcomes",
           "first_contact", "shot_fouls", "stroke_foul_bits", "signature"]

#: outcome codes
FALLBACK, WIN, FOUL, THIRD_FOUL, POT, MISS = 0, 1, 2, 3, 4, 5
#: foul bits, in the order the referee lists the fouls (most severe first, G-3.30)
MISCUE, ILLEGAL_JUMP, SCRATCH, CUE_OFF, KITCHEN, NO_HIT, BAD_HIT, NO_RAIL, OBJ_OFF, BAD_BREAK = \
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512
#: not a foul: an object ball left the table (G-3.28; 9B-5.11 is cited)
JUMPED = 1024

#: columns of the per-table int rows (``tab``)
T_BREAK, T_KITCHEN, T_PUSH, T_FOULS, T_LOWEST, T_RESOLVED = range(6)
#: entries of the config row (``cfg``)
C_MISCUE, C_DIG, C_BREAK_RAILS, C_THREE, C_EPS, C_FROZEN, C_W, C_L, C_R, C_HEAD, C_JUMP_FOUL = range(11)
NINE = 9


def config_row(cfg, table, R: float, break_rails=0.0, three_foul=0.0, jump_foul=1.0, *more) -> np.ndarray:
    """The config row (``cfg``) of the batched referees' kernels: the :data:`C_MISCUE` ...
    :data:`C_JUMP_FOUL` entries from the rules config ``cfg``, the table, the ball radius ``R``
    and the game's own ``break_rails`` (:data:`C_BREAK_RAILS`), ``three_foul`` (:data:`C_THREE`)
    and ``jump_foul`` (:data:`C_JUMP_FOUL`), then a kernel's ``more`` entries."""
    return np.array([cfg.miscue_limit, cfg.dig_under_theta, break_rails, three_foul, cfg.frozen_eps,
                     cfg.frozen_rule_enabled, table.w, table.l, R, table.head_string_y, jump_foul, *more], np.float64)


@njit(cache=True, no_cfunc_wrapper=True)
def outcomes(tab, stroke, cfg, first, t0, first_raw, t0_raw, cue_pocketed, pocketed, jumped, start, ct, cb, cr,
             to_rail, cue_ball, rvw0, rvw1, n_events, ev_kind, ev_i, ev_j, ev_t, seg_y, jaw_y, bb, bc, bj):
    """(code (B,) int64, fouls (B,) int64 foul bits and :data:`JUMPED`, pocketed (B,) int64
    with bit b set when object ball b dropped) of B nine-ball shots (module docstring;
    ``pocketed`` is set for the tables read past the first checks).

    tab (B, 6) int64 per table: the shot is a break; the cue ball was in hand behind the head
    string; a push-out was declared; the shooter's consecutive fouls before the shot; the
    lowest ball on the table (-1 none); the facts' ``first`` / ``t0`` were resolved for the
    lowest ball (else the plain first contact is read). stroke (B, 3): the action's theta,
    a, b. cfg: miscue_limit, dig_under_theta, break_min_rail_balls, three_foul_loss,
    frozen_eps, frozen_rule_enabled, table w, l, ball radius R, head string y,
    jumped_ball_is_foul. The other inputs are `shot_facts_batch`'s outputs, the batch's
    start and final states and event logs, the lowest y of every cushion segment and the y
    of every jaw centre (G-3.39's crossing test, `queries.cue_left_kitchen_before_contact`
    without the re-simulation) and the BALL_BALL, BALL_CUSHION and BALL_JAW event codes."""
    B = tab.shape[0]
    N = pocketed.shape[1]
    code = np.zeros(B, np.int64)
    bits = np.zeros(B, np.int64)
    pmask = np.zeros(B, np.int64)
    for k in range(B):
        low = tab[k, T_LOWEST]
        is_break = tab[k, T_BREAK] != 0
        if low < 0 or tab[k, T_PUSH] != 0 or low >= N:
            continue
        cue = cue_ball[k]
        if cue != 0 or (N > NINE and jumped[k, NINE]):
            continue  # a jumped 9 is spotted (9B-5.11)
        obj_off = False
        for b in range(1, N):
            if jumped[k, b]:
                obj_off = True
        f, tf = first_contact(k, tab[k, T_RESOLVED] != 0, 1 << low, first, t0, first_raw, t0_raw)
        if f < -1:
            continue  # a split hit to resolve (T-1.16.4)
        pm = 0
        for b in range(N):
            if pocketed[k, b]:
                pm |= 1 << b
        pmask[k] = pm
        any_pk = pm != 0
        fb = shot_fouls(k, f, tf, 1 << low, tab[k, T_KITCHEN] != 0, not is_break and not any_pk, stroke, cfg,
                        cue_pocketed, jumped, start, ct, cb, cr, cue, rvw0, rvw1, n_events, ev_kind, ev_i, ev_j,
                        ev_t, seg_y, jaw_y, bb, bc, bj)
        if fb < 0:
            continue  # G-3.39 or G-3.38
        if obj_off and (is_break or cfg[C_JUMP_FOUL] != 0.0):
            fb |= OBJ_OFF
        if is_break and not any_pk:
            n_rail = 0
            for b in range(N):
                if to_rail[k, b]:
                    n_rail += 1
            if n_rail < cfg[C_BREAK_RAILS]:
                fb |= BAD_BREAK
        nine_down = N > NINE and pocketed[k, NINE]
        if fb == 0:
            code[k] = WIN if nine_down else (POT if any_pk else MISS)
        elif nine_down:
            continue  # the 9 is spotted (9B-5.7)
        else:
            third = cfg[C_THREE] != 0.0 and tab[k, T_FOULS] + 1 >= 3
            code[k] = THIRD_FOUL if third else FOUL
        bits[k] = fb | (JUMPED if obj_off else 0)
    return code, bits, pmask


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def object_masks(k, pocketed, jumped):
    """Table ``k``'s object balls (rows 1 ...) as bit masks: (dropped in a pocket, left the
    table), bit b for ball b."""
    pm = 0
    jm = 0
    for b in range(1, pocketed.shape[1]):
        if pocketed[k, b]:
            pm |= 1 << b
        if jumped[k, b]:
            jm |= 1 << b
    return pm, jm


@njit(cache=True, no_cfunc_wrapper=True)
def first_contact(k, resolved, legal, first, t0, first_raw, t0_raw):
    """(first object ball hit, time) of table k: the facts' split hit resolved for the legal
    balls (bit b of ``legal`` for ball b) when ``resolved``, else the plain first contact;
    (-1, t) for none, (-2, t) for an illegal plain first contact (a split hit the facts were
    not resolved for, T-1.16.4)."""
    if resolved:
        return first[k], t0[k]
    f = first_raw[k]
    if f >= 0 and not (legal >> f) & 1:
        return -2, t0_raw[k]
    return f, t0_raw[k]


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def stroke_foul_bits(k, stroke, cfg):
    """:data:`MISCUE` / :data:`ILLEGAL_JUMP` bits of table k's stroke (``stroke`` rows theta,
    a, b; `general.stroke_fouls`): G-3.27 a miscue on an elevated stroke, G-3.26 the tip below
    centre above ``dig_under_theta``."""
    fb = 0
    th = stroke[k, 0]
    if th > 0.0:
        a = stroke[k, 1]
        bs = stroke[k, 2]
        lim = cfg[C_MISCUE]
        if a * a + bs * bs > lim * lim:
            fb |= MISCUE
        if bs < 0.0 and th > cfg[C_DIG]:
            fb |= ILLEGAL_JUMP
    return fb


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def shot_fouls(k, f, tf, legal, kitchen, rail_check, stroke, cfg, cue_pocketed, jumped, start, ct, cb, cr, cue, rvw0,
               rvw1, n_events, ev_kind, ev_i, ev_j, ev_t, seg_y, jaw_y, bb, bc, bj):
    """Foul bits (:data:`MISCUE` ... :data:`NO_RAIL`) of table k's stroke (`general.standard_fouls`
    without the object balls off the table), or -1 for a shot left to the Python referee.

    f / tf: the first object ball hit (-1 none) and the time; legal: bit b set when ball b
    may be hit first (else :data:`BAD_HIT`); kitchen: the cue ball was in hand behind the head
    string (G-3.10 / GW-P4; -1 when the first ball's base is behind the head string, G-3.39);
    rail_check: the shot needs a cushion after the contact (-1 for a first ball frozen to a
    rail or to the cue ball, G-3.38); cue: the cue ball's row. The other arguments are
    :func:`outcomes`'."""
    fb = 0
    if kitchen:
        hs = cfg[C_HEAD]
        if f >= 0:
            if rvw0[k, f, 0, 1] < hs:
                return -1  # G-3.39: the cue ball's path before the contact decides
        elif rvw1[k, cue, 0, 1] < hs:
            # G-3.10 / GW-P4 with no ball hit: a cushion contact wholly beyond the head
            # string proves the crossing (the shot is a foul anyway: no path re-simulated)
            crossed = False
            for e in range(n_events[k]):
                if ev_i[k, e] != cue:
                    continue
                kk = ev_kind[k, e]
                j = ev_j[k, e]
                if kk == bc:
                    if j < 0 or j >= seg_y.shape[0]:
                        return -1  # a cushion or jaw index outside the table's
                    if seg_y[j] >= hs:
                        crossed = True
                elif kk == bj:
                    if j < 0 or j >= jaw_y.shape[0]:
                        return -1
                    if jaw_y[j] >= hs:
                        crossed = True
            if not crossed:
                fb |= KITCHEN
    fb |= stroke_foul_bits(k, stroke, cfg)
    if cue_pocketed[k]:
        fb |= SCRATCH
    if jumped[k, cue]:
        fb |= CUE_OFF
    if f < 0:
        fb |= NO_HIT
    elif not (legal >> f) & 1:
        fb |= BAD_HIT
    if rail_check and f >= 0:
        n = n_events[k]
        lo = start[k]
        hi = start[k + 1]
        rails0, to_cue, new_contact = rail_facts(
            rvw0[k, :, 0, :2], cue, f, tf, cfg[C_W], cfg[C_L], cfg[C_R], cfg[C_EPS], cfg[C_FROZEN] != 0.0,
            ct[lo:hi], cb[lo:hi], cr[lo:hi], ev_kind[k, :n], ev_i[k, :n], ev_j[k, :n], ev_t[k, :n], bb)
        if rails0 != 0 or to_cue:
            return -1  # G-3.38
        if not new_contact:
            fb |= NO_RAIL
    return fb


def signature() -> tuple:
    """The argument types of `NineBall.adjudicate_batch`'s :func:`outcomes` call (the batch's
    shot facts and physics arrays as `physics.simulate_batch` and `shot_facts_batch` make them)."""
    from numba import types

    f, i, b = types.float64, types.int64, types.boolean
    i1, f1, b1 = i[::1], f[::1], b[::1]
    return (i[:, ::1], f[:, ::1], f1, i1, f1, i1, f1, b1, b[:, ::1], b[:, ::1], i1, f1, i1, i1, b[:, ::1], i1,
            f[:, :, :, ::1], f[:, :, :, ::1], i1, types.int8[:, ::1], types.int16[:, ::1], types.int16[:, ::1],
            f[:, ::1], f1, f1, i, i, i)
