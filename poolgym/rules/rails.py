"""The four rails: which rail each cushion belongs to, and which balls touch a rail.

Table frame (DESIGN 3): head rail y = 0, foot rail y = l, left rail x = 0, right rail
x = w (cushion-nose lines). A ball's *gap* to a rail is the distance from the ball to that
cushion-nose line (centre distance minus R).

* :class:`Rail`, :func:`segment_rails`, :func:`jaw_rails`, :func:`segment_for_rail`,
  :func:`rail_lut` -- the rail of every linear cushion segment and every jaw;
  :func:`cushion_pockets` -- the pockets each cushion is connected with (HO-7).
* :func:`frozen_rail_bits` -- THE frozen-to-a-rail predicate (G-3.38 *Sim*, C-08): a ball
  is frozen to a rail when its gap to that rail is at most ``eps``, i.e. its centre lies
  within ``R + eps`` of the cushion-nose line. :func:`frozen_to_rails` applies it to every
  ball, :func:`near_bits` / :func:`near_rail_bits` (SP-6.7.2) build on it.
* :func:`contact_is_new` -- G-3.38's last paragraph (general.md 7.1 ``new_contact``): a
  ball touching a rail at the start is not "driven to" that rail unless it first leaves
  it, contacts another ball and then contacts the rail again. The cue ball's own contact
  with the frozen ball counts as that other ball (G-3.38 (b): the cue ball contacting a
  cushion after the first contact is always new); an object ball needs two ball contacts
  (the one that moved it, then another).
* :func:`rail_facts` -- the G-3.19(b) / G-3.38 facts of one shot, from those two;
  :func:`driven_to_cushion` -- its "some ball driven to a cushion after the first contact",
  with the rails of one ball given (SP-6.7.2's near rails).
"""
from __future__ import annotations

import math
from enum import IntEnum
from typing import Optional

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

__all__ = [
    "Rail", "segment_rails", "jaw_rails", "segment_for_rail", "cushion_pockets", "rail_lut", "frozen_rail_bits", "frozen_to_rails",
    "near_rail_bits", "near_bits", "contact_is_new", "rail_facts", "driven_to_cushion",
]


class Rail(IntEnum):
    """The four rails. LEFT is x = 0, RIGHT is x = w."""

    HEAD = 0
    FOOT = 1
    LEFT = 2
    RIGHT = 3


def _nearest_rail(x: np.ndarray, y: np.ndarray, w: float, l: float) -> np.ndarray:
    d = np.stack([np.abs(y), np.abs(l - y), np.abs(x), np.abs(w - x)], axis=-1)
    return np.argmin(d, axis=-1).astype(np.int8)


_RAIL_CACHE: dict = {}


def _rails_cached(table_id: int, table) -> tuple:
    hit = _RAIL_CACHE.get(table_id)
    if hit is not None and hit[0] is table:
        return hit[1], hit[2]
    seg = np.asarray(table.segments, dtype=np.float64).reshape(-1, 2, 2)
    mid = seg.mean(axis=1)
    srails = _nearest_rail(mid[:, 0], mid[:, 1], float(table.w), float(table.l))
    jaws = np.asarray(getattr(table, "jaws", np.zeros((0, 3))), dtype=np.float64).reshape(-1, 3)
    if len(jaws):
        # A jaw is the rounded tip of a cushion: attribute it to the rail whose segment
        # end point is nearest its centre.
        ends = seg.reshape(-1, 2)
        end_rail = np.repeat(srails, 2)
        d = np.linalg.norm(jaws[:, None, :2] - ends[None, :, :], axis=-1)
        jrails = end_rail[np.argmin(d, axis=1)].astype(np.int8)
    else:
        jrails = np.zeros(0, np.int8)
    srails.setflags(write=False)
    jrails.setflags(write=False)
    _RAIL_CACHE[table_id] = (table, srails, jrails)
    return srails, jrails


def segment_rails(table) -> np.ndarray:
    """(S,) int8 :class:`Rail` of every linear cushion segment of ``table``."""
    return _rails_cached(id(table), table)[0]


def jaw_rails(table) -> np.ndarray:
    """(C,) int8 :class:`Rail` of every circular jaw segment of ``table``."""
    return _rails_cached(id(table), table)[1]


def segment_for_rail(table, rail: Rail, near_y: Optional[float] = None) -> int:
    """Index of a linear cushion segment on ``rail`` (the longest one, or the one whose
    midpoint is nearest ``near_y``). For hand-built shot records in tests."""
    seg = np.asarray(table.segments, dtype=np.float64).reshape(-1, 2, 2)
    idx = np.flatnonzero(segment_rails(table) == int(rail))
    if near_y is not None:
        mid_y = seg[idx].mean(axis=1)[:, 1]
        return int(idx[np.argmin(np.abs(mid_y - near_y))])
    length = np.linalg.norm(seg[idx, 1] - seg[idx, 0], axis=1)
    return int(idx[np.argmax(length)])


_POCKET_LINK_CACHE: dict = {}


def cushion_pockets(table) -> np.ndarray:
    """(S + J, P) read-only bool: cushion ``c`` (linear segment ``c < S``, jaw ``c - S``
    otherwise, the numbering of :func:`poolgym.rules.queries.cushion_ids`) is connected
    with pocket ``p`` (HO-7 "a cushion connected with the pocket").

    Each end of a linear segment belongs to the pocket nearest it: a rail section between
    two pockets is connected with both (a corner pocket's short- and long-rail sections, a
    side pocket's two long-rail sections); a jaw facing segment or a rounded jaw tip (its
    centre) with its own pocket only."""
    hit = _POCKET_LINK_CACHE.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    pk = np.asarray(table.pockets, dtype=np.float64).reshape(-1, 3)[:, :2]
    seg = np.asarray(table.segments, dtype=np.float64).reshape(-1, 2, 2)
    jaws = np.asarray(getattr(table, "jaws", np.zeros((0, 3))), dtype=np.float64).reshape(-1, 3)

    def nearest(pts):
        return np.argmin(np.linalg.norm(pts[:, None, :] - pk[None, :, :], axis=-1), axis=1)

    out = np.zeros((len(seg) + len(jaws), len(pk)), bool)
    for end in (0, 1):
        out[np.arange(len(seg)), nearest(seg[:, end])] = True
    if len(jaws):
        out[len(seg) + np.arange(len(jaws)), nearest(jaws[:, :2])] = True
    out.setflags(write=False)
    if len(_POCKET_LINK_CACHE) > 64:
        _POCKET_LINK_CACHE.clear()
    _POCKET_LINK_CACHE[id(table)] = (table, out)
    return out


_LUT: dict = {}


def rail_lut(table) -> tuple:
    """(lut, n_seg): int8 :class:`Rail` of every cushion segment followed by every jaw (the
    rail of a BALL_CUSHION event ``j`` is ``lut[j]``, of a BALL_JAW event ``lut[n_seg + j]``),
    cached per table."""
    hit = _LUT.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1], hit[2]
    s, j = segment_rails(table), jaw_rails(table)
    lut = np.concatenate([s, j]).astype(np.int8)
    _LUT[id(table)] = (table, lut, len(s))
    return lut, len(s)


# ----------------------------------------------------------------------------- frozen
@njit(cache=True, no_cfunc_wrapper=True)
def frozen_rail_bits(x, y, w, l, lim):
    """Bitmask of the rails (bit :class:`Rail`) a ball centred at (x, y) is frozen to:
    its centre within ``lim = R + eps`` of the cushion-nose line (G-3.38 *Sim*, C-08)."""
    m = 0
    if y <= lim:
        m |= 1
    if y >= l - lim:
        m |= 2
    if x <= lim:
        m |= 4
    if x >= w - lim:
        m |= 8
    return m


@njit(cache=True, no_cfunc_wrapper=True)
def _frozen_masks(P, on, w, l, lim):
    n = P.shape[0]
    out = np.zeros(n, np.uint8)
    for k in range(n):
        if on[k]:
            out[k] = frozen_rail_bits(P[k, 0], P[k, 1], w, l, lim)
    return out


def frozen_to_rails(pos: np.ndarray, on: np.ndarray, table, R: float, eps: float) -> np.ndarray:
    """(N,) uint8 bitmask of :class:`Rail` values each ball on the table is frozen to
    (:func:`frozen_rail_bits`; 0 for balls off the table)."""
    P = np.ascontiguousarray(pos, dtype=np.float64).reshape(-1, 2)
    onm = np.ascontiguousarray(on, dtype=np.bool_).reshape(-1)
    return _frozen_masks(P, onm, float(table.w), float(table.l), float(R) + float(eps))


def near_rail_bits(x: float, y: float, table, R: float, eps: float) -> int:
    """SP-6.7.2: bitmask of the rails a ball at (x, y) is *near* (:func:`near_bits`)."""
    return near_bits(float(x), float(y), float(table.w), float(table.l), float(R), float(eps))


@njit(cache=True, no_cfunc_wrapper=True)
def near_bits(x, y, w, l, R, eps):
    """SP-6.7.2: bitmask of the rails (bit :class:`Rail`) a ball centred at (x, y) is *near*:
    not frozen to it (:func:`frozen_rail_bits` with ``lim = R + eps``) but within one ball
    diameter of it (gap <= 2R)."""
    frozen = frozen_rail_bits(x, y, w, l, R + eps)
    m = 0
    if not frozen & 1 and y - R <= 2.0 * R:  # HEAD
        m |= 1
    if not (frozen >> 1) & 1 and l - y - R <= 2.0 * R:  # FOOT
        m |= 2
    if not (frozen >> 2) & 1 and x - R <= 2.0 * R:  # LEFT
        m |= 4
    if not (frozen >> 3) & 1 and w - x - R <= 2.0 * R:  # RIGHT
        m |= 8
    return m


@njit(cache=True, no_cfunc_wrapper=True)
def contact_is_new(frozen_bits, rail, ball, cue, t, kind, ei, ej, et, bb):
    """Whether a cushion contact of ``ball`` on ``rail`` at time ``t`` counts as the ball
    being driven to that rail (G-3.38, last paragraph): always when the ball was not frozen
    to that rail at the start (bit ``rail`` of ``frozen_bits``); otherwise only after it
    touched other balls before ``t`` (ball-ball events ``bb`` in the log kind / ei / ej /
    et): one contact for the cue ball, two for an object ball."""
    if not (frozen_bits >> rail) & 1:
        return True
    need = 1 if ball == cue else 2
    cnt = 0
    for e in range(kind.shape[0]):
        if kind[e] == bb and et[e] < t and (ei[e] == ball or ej[e] == ball):
            cnt += 1
    return cnt >= need


@njit(cache=True, no_cfunc_wrapper=True)
def rail_facts(pos0, cue, first, t0, w, l, R, eps, frozen_enabled, ct, cb, cr, kind, ei, ej, et, bb):
    """G-3.19(b) / G-3.38 facts of a shot whose first object ball is ``first`` (hit at
    ``t0``): (rails, to_cue, new_contact).

    rails: :func:`frozen_rail_bits` of ``first`` at the start; to_cue: it touched the cue
    ball (centres within 2R + eps) -- both 0 when ``frozen_enabled`` is False.
    new_contact: some ball has a cushion contact (ct, cb, cr) after ``t0`` that
    :func:`contact_is_new` accepts (every one counts when ``frozen_enabled`` is False)."""
    lim = R + eps
    rails = 0
    to_cue = False
    if frozen_enabled:
        x = pos0[first, 0]
        y = pos0[first, 1]
        rails = frozen_rail_bits(x, y, w, l, lim)
        dx = x - pos0[cue, 0]
        dy = y - pos0[cue, 1]
        to_cue = math.sqrt(dx * dx + dy * dy) <= 2.0 * R + eps
    if not frozen_enabled:
        new_contact = False
        for k in range(ct.shape[0]):
            if ct[k] > t0:
                new_contact = True
                break
        return rails, to_cue, new_contact
    return rails, to_cue, driven_to_cushion(pos0, cue, t0, w, l, lim, ct, cb, cr, kind, ei, ej, et, bb, -1, 0)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def driven_to_cushion(pos0, cue, t0, w, l, lim, ct, cb, cr, kind, ei, ej, et, bb, ball, ball_rails):
    """Some ball has a cushion contact (ct, cb, cr) after ``t0`` that :func:`contact_is_new`
    accepts (G-3.38, last paragraph), every ball's rails at the start being
    :func:`frozen_rail_bits` of its start position (``lim = R + eps``) except ``ball``'s,
    which are ``ball_rails`` (SP-6.7.2: the rails a ball was near; -1: no such ball)."""
    for k in range(ct.shape[0]):
        t = ct[k]
        if t <= t0:
            continue
        b = cb[k]
        bits = ball_rails if b == ball else frozen_rail_bits(pos0[b, 0], pos0[b, 1], w, l, lim)
        if contact_is_new(bits, cr[k], b, cue, t, kind, ei, ej, et, bb):
            return True
    return False

