"""Batched numba kernels of the referee's hot path, for vector envs (``@njit(cache=True)``).

A vector env adjudicates hundreds of tables per step. Instead of one Python pass per table,
these kernels answer the same rule questions for ALL tables of a `physics.BatchResult` (or of
a batch of cue-ball placements) in one compiled call. They are transcriptions of the per-record
definitions and are tested against them on many random records (tests/envs/test_rules_fast.py):

* `shot_facts_batch` / `BatchFacts` -- per table: first object ball contacted by the cue ball
  (T-1.16.4 / R-2.10 split hit resolved for the shooter, `queries.first_contact`), cue ball
  pocketed (G-3.20, `queries.cue_scratched`) or off the table (G-3.28,
  `queries.cue_off_table`), object balls pocketed (`queries.pocketed`), balls off the table
  (`queries.jumped_off_table`), every cushion contact as (t, ball, rail)
  (`queries.cushion_events`), cushion contacts after the first contact (G-3.19(b),
  `queries.rails_after_first_contact`) and object balls driven to a rail (9B-5.4, 8B-4.5,
  SP-6.6, `queries.balls_to_rail`). `BatchFacts.facts(k)` returns table k's
  `queries.ShotFacts` (what `queries.shot_facts` returns for that record).
* `placement_codes` / `placement_errors` -- `geometry.placement_error` (G-3.22 overlap,
  9B-5.10 frozen, G-3.16 kitchen, on the bed clear of cushions, jaws and pocket openings) for
  B placements at once; `placement_error_fast` is the one-placement form with the same
  message.
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np
from numba import njit

from ._kernels import rest_mask_and_gap
from .shot_record import EventKind, Motion

__all__ = ["shot_facts_batch", "BatchFacts", "placement_code", "placement_codes", "placement_errors",
           "placement_error_fast", "PlacementCode"]

_BB = int(EventKind.BALL_BALL)
_BC = int(EventKind.BALL_CUSHION)
_BJ = int(EventKind.BALL_JAW)
_OFF = int(Motion.OFF_TABLE)
_POCKETED = int(Motion.POCKETED)


# ----------------------------------------------------------------------------- shot facts
@njit(cache=True)
def shot_facts_batch(n_events, ev_t, ev_kind, ev_i, ev_j, pocket, s1, cue_ball, legal, use_legal, split_eps,
                     lut, n_seg, bb, bc, bj, off_code):
    """Rule facts of B shots in one pass over a batch's event arrays.

    Inputs: n_events (B,), ev_t / ev_kind / ev_i / ev_j (B, E) (only the first n_events[k]
    entries of row k are read), pocket (B, N) (-1 = not pocketed), s1 (B, N) final motion
    codes, cue_ball (B,), legal (B, N) bool and use_legal (B,) bool (split hits resolved
    for the shooter when set), split_eps (s), lut (rail of every segment then jaw), n_seg,
    the event codes bb / bc / bj and the OFF_TABLE motion code.

    Returns (first (B,) int64, -1 = none; t0 (B,) inf when none (both after the split-hit
    rule); first_raw, t0_raw (B,) the plain first contact; cue_pocketed (B,) bool;
    cue_off (B,) bool; pocketed (B, N) bool object balls; jumped (B, N) bool (cue included);
    start (B + 1,) offsets into the flat cushion arrays ct (t), cb (ball), cr (rail);
    rails_after (B,) cushion contacts strictly after t0; to_rail (B, N) bool object balls
    with a cushion contact)."""
    B = n_events.shape[0]
    N = pocket.shape[1]
    n_lut = lut.shape[0]
    first = np.full(B, -1, np.int64)
    t0 = np.full(B, np.inf)
    first_raw = np.full(B, -1, np.int64)
    t0_raw = np.full(B, np.inf)
    cue_pocketed = np.zeros(B, np.bool_)
    cue_off = np.zeros(B, np.bool_)
    pocketed = np.zeros((B, N), np.bool_)
    jumped = np.zeros((B, N), np.bool_)
    to_rail = np.zeros((B, N), np.bool_)
    rails_after = np.zeros(B, np.int64)
    start = np.zeros(B + 1, np.int64)
    total = 0
    for k in range(B):
        for e in range(n_events[k]):
            kk = ev_kind[k, e]
            if kk == bc or kk == bj:
                total += 1
    ct = np.empty(total, np.float64)
    cb = np.empty(total, np.int64)
    cr = np.empty(total, np.int64)
    m = 0
    for k in range(B):
        start[k] = m
        cue = cue_ball[k]
        f = -1
        tf = math.inf
        alt = -1
        alt_t = 0.0
        for e in range(n_events[k]):
            kk = ev_kind[k, e]
            if kk == bb:
                i = ev_i[k, e]
                j = ev_j[k, e]
                if i == cue or j == cue:
                    o = j if i == cue else i
                    t = ev_t[k, e]
                    if f < 0:
                        f = o
                        tf = t
                    elif (alt < 0 and use_legal[k] and not legal[k, f] and legal[k, o]
                          and t <= tf + split_eps):
                        alt = o
                        alt_t = t
            elif kk == bc or kk == bj:
                q = ev_j[k, e] if kk == bc else n_seg + ev_j[k, e]
                hi = n_seg if kk == bc else n_lut
                r = 0
                if hi > 0:
                    r = lut[q if q < hi else hi - 1]
                ct[m] = ev_t[k, e]
                b = ev_i[k, e]
                cb[m] = b
                cr[m] = r
                if b != cue and 0 <= b < N:
                    to_rail[k, b] = True
                m += 1
        first_raw[k] = f
        t0_raw[k] = tf
        if alt >= 0:
            f = alt
            tf = alt_t
        first[k] = f
        t0[k] = tf
        n_after = 0
        for q in range(start[k], m):
            if ct[q] > tf:
                n_after += 1
        rails_after[k] = n_after
        for b in range(N):
            if pocket[k, b] >= 0:
                if b == cue:
                    cue_pocketed[k] = True
                else:
                    pocketed[k, b] = True
            if s1[k, b] == off_code:
                jumped[k, b] = True
                if b == cue:
                    cue_off[k] = True
    start[B] = m
    return first, t0, first_raw, t0_raw, cue_pocketed, cue_off, pocketed, jumped, start, ct, cb, cr, rails_after, \
        to_rail


_SHOT_FACTS_CLS = []


def _shot_facts_cls():
    """`queries.ShotFacts` (imported on first use: queries imports this module's users)."""
    if not _SHOT_FACTS_CLS:
        from .queries import ShotFacts
        _SHOT_FACTS_CLS.append(ShotFacts)
    return _SHOT_FACTS_CLS[0]


@njit(cache=True)
def rest_batch(on0, pocket, s1, pos1, R, pocketed_code, off_code):
    """`_kernels.rest_mask_and_gap` of every table: (on (B, N) bool, gap (B,))."""
    B, N = on0.shape
    on = np.empty((B, N), np.bool_)
    gap = np.empty(B, np.float64)
    for k in range(B):
        o, g = rest_mask_and_gap(on0[k], pocket[k], s1[k], pos1[k], R, pocketed_code, off_code)
        on[k] = o
        gap[k] = g
    return on, gap


class BatchFacts:
    """`shot_facts_batch` of a `physics.BatchResult` (attributes are its outputs).

    Args:
        batch: the `physics.BatchResult` (fields per physics/CONTRACT.md).
        table: the table (rail lookup of cushion segments and jaws).
        legal: per table, the balls legal to hit first (a sequence of ints) or None (the
            split hit is then resolved for that set; ``first_raw`` ignores it).
        split_eps: split-hit window (s), as ``RulesConfig.split_hit_eps``.
    """

    __slots__ = ("first", "t0", "first_raw", "t0_raw", "cue_pocketed", "cue_off", "pocketed", "jumped", "start",
                 "ct", "cb", "cr", "rails_after", "to_rail", "cue_ball", "table", "legal", "split_eps", "_rows",
                 "_batch", "_rest")

    def __init__(self, batch, table, legal: Optional[Sequence] = None, split_eps: float = 0.0):
        from .queries import _rail_lut

        B, N = batch.pocket.shape
        lm = np.zeros((B, N), np.bool_)
        use = np.zeros(B, np.bool_)
        self.legal = None
        if legal is not None:
            if len(legal) != B:
                raise ValueError(f"legal: need {B} entries (one per table), got {len(legal)}")
            self.legal = tuple(None if lg is None else tuple(int(b) for b in lg) for lg in legal)
            for k, lg in enumerate(self.legal):
                if lg is not None:
                    use[k] = True
                    for b in lg:
                        if 0 <= b < N:
                            lm[k, b] = True
        self.split_eps = float(split_eps)
        lut, n_seg = _rail_lut(table)
        self.table = table
        self.cue_ball = np.asarray(batch.cue_ball, np.int64)
        out = shot_facts_batch(np.asarray(batch.n_events, np.int64), batch.ev_t, batch.ev_kind, batch.ev_i,
                               batch.ev_j, batch.pocket, batch.s, self.cue_ball, lm, use, self.split_eps,
                               lut, int(n_seg), _BB, _BC, _BJ, _OFF)
        (self.first, self.t0, self.first_raw, self.t0_raw, self.cue_pocketed, self.cue_off, self.pocketed,
         self.jumped, self.start, self.ct, self.cb, self.cr, self.rails_after, self.to_rail) = out
        self._rows = None
        self._batch = batch
        self._rest = None

    def __len__(self) -> int:
        return self.first.shape[0]

    def lookup(self, k: int, table, legal, split_eps: float):
        """Table k's `queries.ShotFacts` for the question ``queries.shot_facts(rec_k, table,
        legal, split_eps)`` when the precomputed arrays answer it exactly, else None: another
        table object, or a legal set other than the one precomputed whose plain first contact
        is illegal (a split hit to resolve, T-1.16.4)."""
        if table is not self.table:
            return None
        if legal is None:
            return self.facts(k, resolved=False)
        lg = tuple(legal)
        if self.legal is not None and self.legal[k] == lg and self.split_eps == split_eps:
            return self.facts(k, resolved=True)
        first = int(self.first_raw[k])
        if first < 0 or first in lg:
            return self.facts(k, resolved=False)
        return None

    def facts(self, k: int, resolved: bool = True):
        """Table k's `queries.ShotFacts` (equal to ``queries.shot_facts(rec_k, table, legal_k,
        split_eps)``; ``resolved=False``: as with ``legal=None``)."""
        rows = self._rows
        if rows is None:
            rows = self._rows = self._python_rows()
        first_l, t0_l, first_raw_l, t0_raw_l, cue_pk, cue_off, pk, jmp, start = rows
        f = _shot_facts_cls()()
        first = first_l[k] if resolved else first_raw_l[k]
        f.first = None if first < 0 else first
        f.t0 = t0_l[k] if resolved else t0_raw_l[k]
        f.cue_pocketed = cue_pk[k]
        f.cue_off = cue_off[k]
        f.pocketed = pk[k]
        f.jumped = jmp[k]
        a, b = start[k], start[k + 1]
        f.cush_t, f.cush_ball, f.cush_rail = self.ct[a:b], self.cb[a:b], self.cr[a:b]
        f._cushions = None
        return f

    def _python_rows(self) -> tuple:
        """The per-table outputs as Python values, converted once for the whole batch
        (``facts`` is called once per table: one ``tolist`` per array instead of B numpy
        scalar reads each)."""
        def ball_tuples(m):
            out = [()] * m.shape[0]
            for k in np.flatnonzero(m.any(axis=1)).tolist():
                out[k] = tuple(np.flatnonzero(m[k]).tolist())
            return out

        return (self.first.tolist(), self.t0.tolist(), self.first_raw.tolist(), self.t0_raw.tolist(),
                self.cue_pocketed.tolist(), self.cue_off.tolist(), ball_tuples(self.pocketed),
                ball_tuples(self.jumped), self.start.tolist())

    def rest(self, k: int, R: float):
        """Table k's ``(pos, on, gap)`` as ``general.after_shot`` computes them from the record
        (``_kernels.rest_mask_and_gap`` of the final state, then the final centres as a flat
        tuple), computed for the whole batch at the first call (one compiled pass)."""
        got = self._rest
        if got is None or got[0] != R:
            b = self._batch
            P1 = np.asarray(b.rvw)[:, :, 0, :2]
            on, gap = rest_batch(np.asarray(b.s0) != _POCKETED, np.asarray(b.pocket), np.asarray(b.s), P1,
                                 float(R), _POCKETED, _OFF)
            got = self._rest = (R, [tuple(r) for r in P1.reshape(P1.shape[0], -1).tolist()],
                                [tuple(r) for r in on.tolist()], gap.tolist())
        return got[1][k], got[2][k], got[3][k]

    def balls_to_rail(self, k: int) -> np.ndarray:
        """Table k's distinct object balls driven to a cushion (`queries.balls_to_rail`)."""
        return np.flatnonzero(self.to_rail[k])


# ----------------------------------------------------------------------------- placement
class PlacementCode:
    """Codes of `placement_codes` (0 = legal), in the order `geometry.placement_error` checks."""

    OK = 0
    NOT_FINITE = 1
    OFF_BED = 2
    KITCHEN = 3  # G-3.16
    OVERLAP = 4  # G-3.22
    FROZEN = 5  # 9B-5.10
    CUSHION = 6  # touches a cushion segment, a jaw or a pocket opening


@njit(cache=True)
def placement_code(x, y, pos, on, kitchen, may_touch, cue_ball, w, l, head_y, pockets, segs, jaws, R, touch_eps,
                   tol):
    """(code `PlacementCode`, nearest object ball or -1) for a cue ball placed at (x, y) on a
    table pos (N, 2) / on (N,). Same tests, order and tolerances as
    `geometry.placement_error_reference` and `geometry.on_bed` (``tol`` = on_bed's)."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return 1, -1
    if not (R <= x <= w - R and R <= y <= l - R):
        return 2, -1
    if kitchen and not (y < head_y):
        return 3, -1
    dmin = math.inf
    near = -1
    for b in range(pos.shape[0]):
        if b == cue_ball or not on[b]:
            continue
        d = math.hypot(pos[b, 0] - x, pos[b, 1] - y)
        if d < dmin:
            dmin = d
            near = b
    if near >= 0:
        if dmin < 2 * R - touch_eps:
            return 4, near
        if not may_touch and dmin <= 2 * R + touch_eps:
            return 5, near
    for p in range(pockets.shape[0]):
        if math.hypot(pockets[p, 0] - x, pockets[p, 1] - y) <= pockets[p, 2]:
            return 6, near
    for q in range(segs.shape[0]):
        ax = segs[q, 0, 0]
        ay = segs[q, 0, 1]
        dx = segs[q, 1, 0] - ax
        dy = segs[q, 1, 1] - ay
        u = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)
        u = min(max(u, 0.0), 1.0)
        if math.hypot(ax + u * dx - x, ay + u * dy - y) < R - tol:
            return 6, near
    for j in range(jaws.shape[0]):
        if math.hypot(jaws[j, 0] - x, jaws[j, 1] - y) < R + jaws[j, 2] - tol:
            return 6, near
    return 0, near


@njit(cache=True)
def placement_codes(xs, ys, pos, on, kitchen, may_touch, cue_ball, w, l, head_y, pockets, segs, jaws, R,
                    touch_eps, tol):
    """`placement_code` for B placements: xs, ys (B,), pos (B, N, 2), on (B, N), kitchen /
    may_touch (B,) bool. Returns (codes (B,) int8, nearest ball (B,) int64)."""
    B = xs.shape[0]
    codes = np.zeros(B, np.int8)
    near = np.full(B, -1, np.int64)
    for k in range(B):
        c, b = placement_code(xs[k], ys[k], pos[k], on[k], kitchen[k], may_touch[k], cue_ball, w, l, head_y,
                              pockets, segs, jaws, R, touch_eps, tol)
        codes[k] = c
        near[k] = b
    return codes, near


_TABLES: dict = {}


def _table_arrays(table):
    """(w, l, head_y, pockets (P, 3), segments (S, 2, 2), jaws (J, 3)), cached per table."""
    got = _TABLES.get(id(table))
    if got is None or got[0] is not table:
        arrs = (float(table.w), float(table.l), float(table.head_string_y),
                np.ascontiguousarray(np.asarray(table.pockets, np.float64).reshape(-1, 3)),
                np.ascontiguousarray(np.asarray(table.segments, np.float64).reshape(-1, 2, 2)),
                np.ascontiguousarray(np.asarray(getattr(table, "jaws", np.zeros((0, 3))), np.float64)
                                     .reshape(-1, 3)))
        got = _TABLES[id(table)] = (table, arrs)
    return got[1]


def _message(code: int, near: int, x: float, y: float, table, R: float) -> Optional[str]:
    """The `geometry.placement_error` message for a code."""
    if code == PlacementCode.OK:
        return None
    if code == PlacementCode.NOT_FINITE:
        return "x and y must be finite"
    w, l = float(table.w), float(table.l)
    if code == PlacementCode.OFF_BED:
        return f"({x:.4f}, {y:.4f}) is not on the bed (x in [{R:.4f}, {w - R:.4f}], y in [{R:.4f}, {l - R:.4f}])"
    if code == PlacementCode.KITCHEN:
        return f"y={y:.4f} is not behind the head string y={float(table.head_string_y):.4f} (G-3.16)"
    if code == PlacementCode.OVERLAP:
        return f"overlaps ball {near} (G-3.22)"
    if code == PlacementCode.FROZEN:
        return f"frozen to ball {near} (9B-5.10)"
    return "not on the bed (touches a cushion, jaw or pocket opening)"


def placement_errors(xs, ys, pos, on, table, R: float, *, kitchen, may_touch, cue_ball: int = 0,
                     touch_eps: float = 1e-9) -> list:
    """`geometry.placement_error` for B placements in one compiled call: xs, ys (B,),
    pos (B, N, 2) (or (B, 2N)), on (B, N), kitchen / may_touch (B,) or scalars. Returns a
    list of B messages (None = legal)."""
    xs = np.ascontiguousarray(xs, np.float64).reshape(-1)
    B = xs.shape[0]
    ys = np.ascontiguousarray(ys, np.float64).reshape(B)
    P = np.ascontiguousarray(pos, np.float64).reshape(B, -1, 2)
    onm = np.ascontiguousarray(on, np.bool_).reshape(B, -1)
    kit = np.broadcast_to(np.asarray(kitchen, np.bool_), (B,)).copy()
    mt = np.broadcast_to(np.asarray(may_touch, np.bool_), (B,)).copy()
    w, l, hy, pk, sg, jw = _table_arrays(table)
    codes, near = placement_codes(xs, ys, P, onm, kit, mt, int(cue_ball), w, l, hy, pk, sg, jw, float(R),
                                  float(touch_eps), 1e-9)
    out = [None] * B
    for k in np.flatnonzero(codes).tolist():  # messages only for the illegal placements
        out[k] = _message(int(codes[k]), int(near[k]), float(xs[k]), float(ys[k]), table, R)
    return out


def placement_error_fast(x: float, y: float, pos, on, table, R: float, *, kitchen: bool, may_touch: bool,
                         cue_ball: int = 0, touch_eps: float = 1e-9) -> Optional[str]:
    """`geometry.placement_error_reference` (same arguments, same result) through the
    compiled `placement_code`."""
    w, l, hy, pk, sg, jw = _table_arrays(table)
    P = np.asarray(pos, np.float64).reshape(-1, 2)
    onm = np.asarray(on, np.bool_).reshape(-1)
    x = float(x)
    y = float(y)
    code, near = placement_code(x, y, P, onm, bool(kitchen), bool(may_touch), int(cue_ball), w, l, hy, pk, sg,
                                jw, float(R), float(touch_eps), 1e-9)
    return None if code == 0 else _message(int(code), int(near), x, y, table, R)
