"""The geometric player's decisions for many tables in one compiled call.

`decide_tables` is one numba kernel that loops over B tables and, for each, makes the part of
the geometric player's decision (`poolgym.players.geometric`) that is geometry, with the
project's one planning model (`poolgym.planning`: `_pot_run` / `_pot_kernel` for the pot
tables, `_best_placement` for ball in hand, `_seg_dist`, `_rail_distance`, `_kick_point`,
`_v0_for_pot` for safeties and kicks). What a table asks for is its `Kind`:

* `Kind.PLACE`: ball in hand (G-3.10, 9B-5.10, 8B-4.10): `best_straight_in_placement`.
* `Kind.SHOOT`: a shot in play: the best direct pot (highest make probability; ties to the
  lower ball, then the lower pocket, as `pot_candidates` sorts), then the player's rule: push
  out (9B-5.6) below ``push_p``, pot at ``min_p`` or more, else a safety. For a pot on the
  ``preview_ball`` (8B-4.19: the 8 in eight-ball) the three best pots on it are returned
  for the player's noiseless preview, and the safety it falls back to.
* `Kind.OPTION`: the best make probability only (the player's option choice).
* `Kind.SAFETY`: the safety only (G-3.19 / 9B-5.9: drive a legal ball to a rail; else the
  shortest clear one-rail kick; else a soft stroke at the nearest legal ball).

The kernel draws nothing: what needs the player's generator (a push-out's direction, a
safety with no legal ball on the table, a random spot when no straight-in spot is valid) is
reported as an `Outcome` and drawn by the player, table by table, in the order its
one-table decision draws. The player's one-table methods call this same kernel with B = 1,
so a batch decides exactly as table-by-table calls.

Arrays (B tables, N ball rows): ``P`` (B, N, 2) positions, ``ON`` (B, N) on-table mask;
ball lists in one flat array ``L`` with offsets ``OFF`` (B, 4): ``L[OFF[k, 0]:OFF[k, 1]]`` the
legal targets (safeties, in the rules' order), ``L[OFF[k, 1]:OFF[k, 2]]`` the balls to pot (or
to place for), ``L[OFF[k, 2]:OFF[k, 3]]`` the danger balls (kept 4R away, 8B-4.19/8B-4.20); ``flags`` (B,) `KITCHEN` | `PUSH_OUT`.
Outputs (filled for the tables asked): ``code`` (B,) an `Outcome`; ``F`` (B, 5) float:
placement x, y, or pot phi, pot V0 (uncapped), then best p, safety phi, safety V0 (uncapped);
``I`` (B, 5) int: pot ball, pot pocket (also the best pot when a safety is played; -1 = none),
safety found (1/0), safety ball, number of preview pots; ``E`` (B, 3, 3) preview pots
(phi, V0, pocket), best first.
"""

from __future__ import annotations

import math
from enum import IntEnum
from itertools import chain

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

from poolgym.planning import (
    APPROACH_LIMIT,
    PLACEMENT_ANGLES_DEG,
    PLACEMENT_DISTANCES,
    PLACEMENT_MAX_POINTS,
    _best_p_run,
    _best_placement,
    _kick_point,
    _phi_to,
    _pot_run,
    _rail_distance,
    _seg_dist,
    _v0_for_pot,
    pot_consts,
)

#: ``flags`` bits
KITCHEN = 1
PUSH_OUT = 2

#: the cue ball's row, typed (a literal 0 would compile the planning kernels once more for it)
_CUE_ROW = np.int64(0)


class Kind(IntEnum):
    """What `decide_tables` decides for a table."""

    NONE = 0
    PLACE = 1
    SHOOT = 2
    OPTION = 3
    SAFETY = 4


class Outcome(IntEnum):
    """What `decide_tables` decided for a table (``code``)."""

    NONE = 0
    PLACED = 1  # Kind.PLACE: F[0:2] is the spot
    NO_SPOT = 2  # Kind.PLACE: no straight-in spot is valid (the player draws a random one)
    POT = 3  # Kind.SHOOT: pot I[0] into pocket I[1], phi F[0], V0 F[1]
    PUSH_OUT = 4  # Kind.SHOOT: push out (9B-5.6; the player draws the direction)
    SAFETY = 5  # Kind.SHOOT / Kind.SAFETY: the safety in F[3:5], I[2:4]
    DONE = 6  # Kind.OPTION: F[2] holds the best make probability


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _clear(ax, ay, bx, by, balls, on, skip_a, skip_b, clearance):
    """The ball-centre path (ax, ay) -> (bx, by) passes every ball on the table other than
    rows ``skip_a`` and ``skip_b`` at ``clearance`` or more (`planning.segment_clear`)."""
    for o in range(on.shape[0]):
        if on[o] and o != skip_a and o != skip_b:
            if _seg_dist(ax, ay, bx, by, balls[o, 0], balls[o, 1]) < clearance:
                return False
    return True


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _danger_clear(ax, ay, bx, by, balls, danger, clearance):
    """The path passes every danger ball at ``clearance`` or more."""
    for i in range(danger.shape[0]):
        d = danger[i]
        if _seg_dist(ax, ay, bx, by, balls[d, 0], balls[d, 1]) < clearance:
            return False
    return True


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def safety_shot(consts, balls, on, targets, danger):
    """(found, phi, V0, ball) of the player's safety from the cue ball (row 0): each legal
    ball on the table hit full in the face with the speed to drive it to a rail (G-3.19 /
    9B-5.9: a ball must reach a rail after contact), cue path clear of the other balls by
    2R and both paths 4R from the danger balls, the shortest such (cue travel + rail
    distance) wins (the first of equals in ``targets`` order); else the shortest one-rail
    kick with both legs clear; else a soft stroke (V0 1.5) at the nearest legal ball; not
    found when no legal ball is on the table. V0 is before the player's speed margin."""
    w, l, R = consts[0], consts[1], consts[2]
    e_b, m, M, u_s, u_r, g = consts[5], consts[6], consts[7], consts[8], consts[9], consts[10]
    v0_min, v0_max = consts[12], consts[13]
    cx = balls[0, 0]
    cy = balls[0, 1]
    v_arrive = 0.35 if danger.shape[0] > 0 else 0.6
    found = False
    best = 0.0
    phi = 0.0
    V0 = 0.0
    ball = -1
    for i in range(targets.shape[0]):  # direct: drive the ball to a rail
        b = targets[i]
        if not on[b]:
            continue
        ox = balls[b, 0]
        oy = balls[b, 1]
        dx = ox - cx
        dy = oy - cy
        d_rail = _rail_distance(ox, oy, dx, dy, w, l, R)
        d1 = math.sqrt(dx * dx + dy * dy)
        n = max(d1, 1e-9)
        rx = ox + d_rail * dx / n
        ry = oy + d_rail * dy / n
        if not (_danger_clear(cx, cy, ox, oy, balls, danger, 4.0 * R)
                and _danger_clear(ox, oy, rx, ry, balls, danger, 4.0 * R)):
            continue
        if not _clear(cx, cy, ox, oy, balls, on, 0, b, 2.0 * R * 0.999):
            continue
        score = -d1 - d_rail
        if not found or score > best:
            found = True
            best = score
            phi = _phi_to(cx, cy, ox, oy)
            V0 = _v0_for_pot(max(d1 - 2 * R, 0.0), d_rail, 0.0, v_arrive, e_b, m, M, u_s, u_r, g, v0_min, v0_max)
            ball = b
    if found:
        return True, phi, V0, ball
    for i in range(targets.shape[0]):  # one-rail kicks (mirror image)
        b = targets[i]
        if not on[b]:
            continue
        ox = balls[b, 0]
        oy = balls[b, 1]
        for j in range(4):
            axis = 0 if j < 2 else 1
            wall = R if j % 2 == 0 else ((w - R) if j < 2 else (l - R))
            hit, px, py = _kick_point(cx, cy, ox, oy, axis, wall)
            if not hit:
                continue
            if not (_clear(cx, cy, px, py, balls, on, 0, b, 2.0 * R * 0.999)
                    and _clear(px, py, ox, oy, balls, on, 0, b, 2.0 * R * 0.999)):
                continue
            if not (_danger_clear(cx, cy, px, py, balls, danger, 4.0 * R)
                    and _danger_clear(px, py, ox, oy, balls, danger, 4.0 * R)):
                continue
            ax = px - cx
            ay = py - cy
            bx = ox - px
            by = oy - py
            dist = math.sqrt(ax * ax + ay * ay) + math.sqrt(bx * bx + by * by)
            if not found or -dist > best:
                found = True
                best = -dist
                phi = _phi_to(cx, cy, px, py)
                V0 = _v0_for_pot(dist / 0.8, 0.3, 0.0, 0.4, e_b, m, M, u_s, u_r, g, v0_min, v0_max)
                ball = b
    if found:
        return True, phi, V0, ball
    for i in range(targets.shape[0]):  # nothing clear: a soft stroke at the nearest legal ball
        b = targets[i]
        if not on[b]:
            continue
        dx = balls[b, 0] - cx
        dy = balls[b, 1] - cy
        d = math.sqrt(dx * dx + dy * dy)
        if not found or d < best:
            found = True
            best = d
            ball = b
    if found:
        return True, _phi_to(cx, cy, balls[ball, 0], balls[ball, 1]), 1.5, ball
    return False, 0.0, 1.5, -1


# (inline='always': as `poolgym.planning._pot_kernel`)
@njit(inline='always', cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _best_pots(consts, aims, axes, half, limit, balls, on, pots, danger, preview_ball, k, F, I, E):
    """The best direct pot from the cue ball into I[k, 0:2], F[k, 0:3] (ball, pocket; phi, V0,
    p; -1 and p 0 when there is none), and the best three on ``preview_ball`` (by p, then
    pocket) into E[k] (I[k, 4] of them); returns whether a pot exists."""
    I[k, 0] = -1
    I[k, 1] = -1
    I[k, 4] = 0
    F[k, 2] = 0.0
    if not on[0]:
        return False
    previewed = False
    for i in range(pots.shape[0]):
        if pots[i] == preview_ball and preview_ball != 0 and on[preview_ball]:
            previewed = True
    if not previewed:  # the best pot only, ranked (`_best_p_run`): the same pot as the whole table's below
        pick = np.empty((1, 4))
        cue = np.empty((1, 2))  # (a new array: the layout of `_best_placement`'s call)
        cue[0, 0] = balls[0, 0]
        cue[0, 1] = balls[0, 1]
        # (np.bool_: a plain bool, not a literal, so both callers share one compiled version)
        bp = _best_p_run(consts, aims, axes, half, limit, balls, on, pots, _CUE_ROW, danger, 4.0, cue, np.bool_(False),
                         pick)[0]
        if pick[0, 0] < 0:
            return False
        I[k, 0] = int(pick[0, 0])
        I[k, 1] = int(pick[0, 1])
        F[k, 0] = pick[0, 2]
        F[k, 1] = pick[0, 3]
        F[k, 2] = bp
        return True
    ok, out, tg, _ = _pot_run(consts, aims, axes, half, limit, balls, on, pots, _CUE_ROW, danger, 4.0, balls[0:1])
    found = False
    bp = 0.0
    bb = 0
    bk = 0
    bt = 0
    for ti in range(tg.shape[0]):
        b = tg[ti]
        for pk in range(6):
            if not ok[0, ti, pk]:
                continue
            p = out[0, 0, ti, pk]
            if not found or p > bp or (p == bp and (b < bb or (b == bb and pk < bk))):
                found = True
                bp = p
                bb = b
                bk = pk
                bt = ti
    if not found:
        return False
    I[k, 0] = bb
    I[k, 1] = bk
    F[k, 0] = out[1, 0, bt, bk]
    F[k, 1] = out[5, 0, bt, bk]
    F[k, 2] = bp
    for ti in range(tg.shape[0]):
        if tg[ti] != preview_ball:
            continue
        taken = np.zeros(6, np.bool_)
        for j in range(3):  # selection by (-p, pocket)
            sel = -1
            for pk in range(6):
                if ok[0, ti, pk] and not taken[pk] and (sel < 0 or out[0, 0, ti, pk] > out[0, 0, ti, sel]):
                    sel = pk
            if sel < 0:
                break
            taken[sel] = True
            E[k, j, 0] = out[1, 0, ti, sel]
            E[k, j, 1] = out[5, 0, ti, sel]
            E[k, j, 2] = sel
            I[k, 4] = j + 1
    return True


@njit(cache=True, no_cfunc_wrapper=True)
def decide_tables(kind, P, ON, L, OFF, flags, consts, aims, axes, half, limit, hs, pockets,
                  segs, jaws, cos_a, sin_a, dist, max_points, params, preview_ball, code, F, I, E):
    """Decide for every table whose ``kind`` is not `Kind.NONE` (module docstring);
    ``consts`` as `planning.pot_consts` (the player's aim noise, 80 deg cut limit), ``params``
    = (min_p, push_p), the placement candidates' ``cos_a``, ``sin_a``, ``dist`` and
    ``max_points`` as `planning.best_straight_in_placement`."""
    min_p, push_p = params[0], params[1]
    for k in range(kind.shape[0]):
        K = kind[k]
        if K == Kind.NONE:
            continue
        balls = P[k]
        on = ON[k]
        targets = L[OFF[k, 0]: OFF[k, 1]]
        pots = L[OFF[k, 1]: OFF[k, 2]]
        danger = L[OFF[k, 2]: OFF[k, 3]]
        if K == Kind.PLACE:
            found, x, y = _best_placement(consts, aims, axes, half, limit, balls, on, pots, _CUE_ROW,
                                          (flags[k] & KITCHEN) != 0, danger, cos_a, sin_a, dist, hs, pockets, segs,
                                          jaws, max_points)
            code[k] = Outcome.PLACED if found else Outcome.NO_SPOT
            F[k, 0] = x
            F[k, 1] = y
            continue
        if K == Kind.SAFETY:
            s_ok, s_phi, s_v0, s_b = safety_shot(consts, balls, on, targets, danger)
            code[k] = Outcome.SAFETY
            F[k, 3] = s_phi
            F[k, 4] = s_v0
            I[k, 2] = 1 if s_ok else 0
            I[k, 3] = s_b
            continue
        has = _best_pots(consts, aims, axes, half, limit, balls, on, pots, danger, preview_ball, k, F, I, E)
        if K == Kind.OPTION:
            code[k] = Outcome.DONE
            continue
        bp = F[k, 2]
        if (flags[k] & PUSH_OUT) != 0 and bp < push_p:
            code[k] = Outcome.PUSH_OUT
            continue
        if has and bp >= min_p:
            code[k] = Outcome.POT
            if I[k, 0] != preview_ball:
                continue
        else:
            code[k] = Outcome.SAFETY
        s_ok, s_phi, s_v0, s_b = safety_shot(consts, balls, on, targets, danger)
        F[k, 3] = s_phi
        F[k, 4] = s_v0
        I[k, 2] = 1 if s_ok else 0
        I[k, 3] = s_b


#: placement candidates (`planning.best_straight_in_placement`'s defaults) as kernel arrays
_ANG = np.radians(np.asarray(PLACEMENT_ANGLES_DEG, float))
_COS_A, _SIN_A = np.cos(_ANG), np.sin(_ANG)
_DIST = np.asarray(PLACEMENT_DISTANCES, float)


class TableBatch:
    """Inputs and outputs of `decide_tables` for ``B`` tables of ``N`` ball rows (module
    docstring); the caller fills ``P`` and ``ON`` and describes each table with `set`."""

    def __init__(self, B: int, N: int):
        self.B, self.N = B, N
        self.kind = np.zeros(B, np.int64)
        self.P = np.zeros((B, N, 2))
        self.ON = np.zeros((B, N), np.bool_)
        self.flags = np.zeros(B, np.int64)
        self._lists: list = [((), (), ())] * B
        self.code = np.zeros(B, np.int64)
        self.F = np.zeros((B, 5))
        self.I = np.zeros((B, 5), np.int64)
        self.E = np.zeros((B, 3, 3))

    def set(self, k: int, kind: Kind, targets=(), pots=(), danger=(), kitchen: bool = False,
            push_out: bool = False) -> None:
        """Table ``k`` asks for ``kind`` with these ball lists (module docstring)."""
        self.kind[k] = kind
        self._lists[k] = (targets, pots, danger)
        self.flags[k] = (KITCHEN if kitchen else 0) | (PUSH_OUT if push_out else 0)

    def _flat(self, flat=None):
        """(L, OFF): every table's ball lists in one array with their offsets (module
        docstring); ``flat`` = (per table its three lists as one tuple, their three lengths)
        when the caller has them, else from `set`'s lists."""
        if flat is None:
            lists = self._lists
            flat = ([a + b + c for a, b, c in lists], [(len(a), len(b), len(c)) for a, b, c in lists])
        cats, lens = flat
        L = np.fromiter(chain.from_iterable(cats), np.int64)
        OFF = np.zeros((self.B, 4), np.int64)
        OFF[:, 1:] = lens
        OFF = OFF.reshape(-1).cumsum().reshape(self.B, 4)
        return L, OFF

    def run(self, geom, sigma_phi: float, min_p: float, push_p: float, preview_ball: int = -1,
            flat=None) -> "TableBatch":
        """`decide_tables` on ``geom`` (a `planning.TableGeom`) for a player with aim noise
        ``sigma_phi`` (deg) and thresholds ``min_p``, ``push_p``; ``flat`` as in `_flat`;
        returns self."""
        L, OFF = self._flat(flat)
        decide_tables(self.kind, self.P, self.ON, L, OFF, self.flags,
                      pot_consts(geom, sigma_phi), geom.aims, geom.axes, geom.half_widths, APPROACH_LIMIT,
                      geom.head_string_y, geom.pockets, geom.segments, geom.jaws, _COS_A, _SIN_A, _DIST,
                      PLACEMENT_MAX_POINTS, np.array([min_p, push_p]), int(preview_ball), self.code, self.F, self.I,
                      self.E)
        return self
