"""The rule facts of a shot: one compiled scan of its event log, for one record or a batch.

Every referee reads the shot through these facts (DESIGN 5, general.md 7.1):

* :class:`ShotFacts` -- per shot: the first object ball contacted by the cue ball (T-1.16.4 /
  R-2.10 split hit resolved for the shooter), cue ball pocketed (G-3.20) or off the table
  (G-3.28), object balls pocketed, balls off the table, and every cushion contact as
  (t, ball, rail) arrays (G-3.19(b), 9B-5.4, 8B-4.5, SP-6.6).
* :func:`scan_events` -- the compiled scan of one event log; :func:`shot_facts` runs it on a
  :class:`~poolgym.rules.shot_record.ShotRecord`, :func:`shot_facts_batch` on every table of a
  `physics.BatchResult` (the same per-table scan, once per table, in one compiled call) and
  :class:`BatchFacts` hands each table its :class:`ShotFacts`.
* :func:`rest_mask_and_gap` / :func:`rest_batch` -- the balls still on the bed after the stroke
  (G-3.11, G-3.28, C-19) and the smallest gap between two of them (``general.after_shot``
  separates rounding overlaps when it is tiny, keeping the balls out of the cushions:
  `poolgym.rules.separation.settle`).

A pure-numpy oracle of these definitions lives in ``tests/rules/shot_facts_reference.py``.
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

from .rails import rail_lut
from .rows import bool_tuples
from .shot_record import EventKind, Motion, ShotRecord

__all__ = ["ShotFacts", "shot_facts", "pocketed_balls", "jumped_balls", "scan_events", "shot_facts_batch", "BatchFacts", "rest_mask_and_gap",
           "rest_batch"]

_BB = int(EventKind.BALL_BALL)
_BC = int(EventKind.BALL_CUSHION)
_BJ = int(EventKind.BALL_JAW)
_OFF = int(Motion.OFF_TABLE)
_POCKETED = int(Motion.POCKETED)


class ShotFacts:
    """The rule-relevant facts of one shot, extracted in one pass over the event log.

    first / t0: first object ball contacted (split hits resolved for ``legal``) and time.
    cue_pocketed / cue_off: G-3.20 / G-3.28 for the cue ball.
    pocketed: object balls pocketed (ascending); jumped: balls off the table (ascending,
    cue ball included). cushions: list of (t, ball, rail) cushion contacts in time order
    (built on first access from the arrays ``cush_t``, ``cush_ball``, ``cush_rail``).
    """

    __slots__ = ("first", "t0", "cue_pocketed", "cue_off", "pocketed", "jumped", "cush_t", "cush_ball",
                 "cush_rail", "_cushions")

    @property
    def cushions(self) -> list:
        c = self._cushions
        if c is None:
            c = self._cushions = list(zip(self.cush_t.tolist(), self.cush_ball.tolist(), self.cush_rail.tolist()))
        return c

    def rails_after(self, t: float) -> int:
        """Cushion contacts (any ball) strictly after ``t``."""
        return int(np.count_nonzero(self.cush_t > t))

    def object_balls_to_rail(self, cue_ball: int = 0) -> set:
        """Distinct object balls with a cushion contact (break requirement)."""
        return set(self.cush_ball[self.cush_ball != cue_ball].tolist())


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _scan(kind, ei, ej, et, n, cue, legal_mask, use_legal, split_eps, lut, n_seg, bb, bc, bj, ct, cb, cr):
    """The scan of the first ``n`` events behind :func:`scan_events` (writes the cushion
    contacts into ct / cb / cr): (first, t0, first_raw, t0_raw, count)."""
    n_lut = lut.shape[0]
    first = -1
    t0 = math.inf
    alt = -1
    alt_t = 0.0
    m = 0
    for k in range(n):
        kk = kind[k]
        if kk == bb:
            i = ei[k]
            j = ej[k]
            if i == cue or j == cue:
                o = j if i == cue else i
                t = et[k]
                if first < 0:
                    first = o
                    t0 = t
                elif (alt < 0 and use_legal and not legal_mask[first] and legal_mask[o]
                      and t <= t0 + split_eps):
                    alt = o
                    alt_t = t
        elif kk == bc or kk == bj:
            q = ej[k] if kk == bc else n_seg + ej[k]
            hi = n_seg if kk == bc else n_lut
            r = 0
            if hi > 0:
                r = lut[q if q < hi else hi - 1]
            ct[m] = et[k]
            cb[m] = ei[k]
            cr[m] = r
            m += 1
    if alt >= 0:
        return alt, alt_t, first, t0, m
    return first, t0, first, t0, m


@njit(cache=True, no_cfunc_wrapper=True)
def scan_events(kind, ei, ej, et, cue, legal_mask, use_legal, split_eps, lut, n_seg, bb, bc, bj):
    """(first, t0, ct, cb, cr): ``first`` object ball contacted by ball ``cue`` (-1 if none)
    and its time (inf); with ``use_legal`` a legal ball (``legal_mask``) contacted within
    ``split_eps`` of an illegal first contact is taken as first (T-1.16.4 / R-2.10).
    ct/cb/cr: time, ball and rail (``lut`` over segments then jaws; ``n_seg`` segments) of
    every BALL_CUSHION (``bc``) / BALL_JAW (``bj``) event, in log order."""
    n = kind.shape[0]
    ct = np.empty(n, np.float64)
    cb = np.empty(n, np.int64)
    cr = np.empty(n, np.int64)
    first, t0, _, _, m = _scan(kind, ei, ej, et, n, cue, legal_mask, use_legal, split_eps, lut, n_seg, bb, bc,
                               bj, ct, cb, cr)
    return first, t0, ct[:m], cb[:m], cr[:m]


def pocketed_balls(pocket: list, cue_ball: int) -> tuple:
    """Object balls pocketed on the shot (C-19 physical definition), ascending: the rows
    with a pocket index (``pocket`` as a list, -1 = not pocketed) other than the cue ball."""
    return tuple(k for k, p in enumerate(pocket) if p >= 0 and k != cue_ball)


def jumped_balls(s1: list) -> tuple:
    """G-3.28: the balls (object and cue) whose final motion state (``s1`` as a list) is off
    the table, ascending."""
    return tuple(k for k, v in enumerate(s1) if v == _OFF)


_LEGAL_MASKS: dict = {}


def _legal_mask(n: int, legal) -> np.ndarray:
    """Read-only (n,) bool mask of the balls in ``legal`` (cached; bounded)."""
    key = (n, legal)
    m = _LEGAL_MASKS.get(key)
    if m is None:
        if len(_LEGAL_MASKS) > 4096:
            _LEGAL_MASKS.clear()
        m = np.zeros(n, np.bool_)
        for b in legal:
            if 0 <= int(b) < n:
                m[int(b)] = True
        m.setflags(write=False)
        _LEGAL_MASKS[key] = m
    return m


def shot_facts(rec: ShotRecord, table, legal: Optional[Sequence[int]] = None, split_eps: float = 0.0) -> ShotFacts:
    """:class:`ShotFacts` of ``rec`` (:func:`scan_events`). A record from a batch carrying
    precomputed facts (``rec.facts``, :class:`BatchFacts`) returns those when they answer
    exactly (:meth:`BatchFacts.lookup`)."""
    pre = rec.facts
    if pre is not None and int(pre[0].cue_ball[pre[1]]) == rec.cue_ball:
        got = pre[0].lookup(pre[1], table, legal, split_eps)
        if got is not None:
            return got
    c = rec.cue_ball
    n = rec.pocket.shape[0]
    lut, n_seg = rail_lut(table)
    use_legal = legal is not None
    mask = _legal_mask(n, tuple(legal) if use_legal else ())
    first, t0, ct, cb, cr = scan_events(rec.ev_kind, rec.ev_i, rec.ev_j, rec.ev_t, c, mask, use_legal,
                                        float(split_eps), lut, n_seg, _BB, _BC, _BJ)
    f = ShotFacts()
    f.first = None if first < 0 else int(first)
    f.t0 = float(t0)
    pk = rec.pocket.tolist()
    s1 = rec.s1.tolist()
    f.cue_pocketed = pk[c] >= 0
    f.cue_off = s1[c] == _OFF
    f.pocketed = pocketed_balls(pk, c)
    f.jumped = jumped_balls(s1)
    f.cush_t, f.cush_ball, f.cush_rail = ct, cb, cr
    f._cushions = None
    return f


@njit(cache=True, no_cfunc_wrapper=True)
def shot_facts_batch(n_events, ev_t, ev_kind, ev_i, ev_j, pocket, s1, cue_ball, legal, use_legal, split_eps,
                     lut, n_seg, bb, bc, bj, off_code):
    """:func:`scan_events` of B shots in one compiled call (the same scan, table by table).

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
        f, tf, f_raw, tf_raw, cnt = _scan(ev_kind[k], ev_i[k], ev_j[k], ev_t[k], n_events[k], cue, legal[k],
                                          use_legal[k], split_eps, lut, n_seg, bb, bc, bj, ct[m:], cb[m:], cr[m:])
        first[k] = f
        t0[k] = tf
        first_raw[k] = f_raw
        t0_raw[k] = tf_raw
        n_after = 0
        for q in range(m, m + cnt):
            b = cb[q]
            if b != cue and 0 <= b < N:
                to_rail[k, b] = True
            if ct[q] > tf:
                n_after += 1
        rails_after[k] = n_after
        m += cnt
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


@njit(cache=True, no_cfunc_wrapper=True)
def rest_mask_and_gap(on0, pocket, s1, pos1, R, pocketed_code, off_code):
    """(on (N,) bool, min_gap): balls on the bed after the stroke (in play before, not
    pocketed, not jumped) and the smallest centre distance minus 2R between two of them
    (1.0 when no pair is within 2R*1.00005, inf with fewer than two balls)."""
    n = on0.shape[0]
    on = np.empty(n, np.bool_)
    for k in range(n):
        on[k] = on0[k] and pocket[k] < 0 and s1[k] != pocketed_code and s1[k] != off_code
    best = math.inf
    cnt = 0
    for a in range(n):
        if not on[a]:
            continue
        cnt += 1
        xa = pos1[a, 0]
        ya = pos1[a, 1]
        for b in range(a + 1, n):
            if not on[b]:
                continue
            dx = pos1[b, 0] - xa
            dy = pos1[b, 1] - ya
            d2 = dx * dx + dy * dy
            if d2 < best:
                best = d2
    if cnt < 2:
        return on, math.inf
    if best < 4.0 * R * R * 1.0001:
        return on, math.sqrt(best) - 2.0 * R
    return on, 1.0



@njit(cache=True, no_cfunc_wrapper=True)
def rest_batch(on0, pocket, s1, pos1, R, pocketed_code, off_code):
    """`rest_mask_and_gap` of every table: (on (B, N) bool, gap (B,))."""
    B, N = on0.shape
    on = np.empty((B, N), np.bool_)
    gap = np.empty(B, np.float64)
    for k in range(B):
        o, g = rest_mask_and_gap(on0[k], pocket[k], s1[k], pos1[k], R, pocketed_code, off_code)
        for i in range(N):  # element loop: a row assignment compiles numba's shape-error formatting
            on[k, i] = o[i]
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
        B, N = batch.pocket.shape
        # the legal mask (B, N) and its rows' flags (B,) as bytes set item by item, then viewed
        # as bool arrays (no numpy item access per table)
        lmb = bytearray(B * N)
        useb = bytearray(B)
        self.legal = None
        if legal is not None:
            if len(legal) != B:
                raise ValueError(f"legal: need {B} entries (one per table), got {len(legal)}")
            memo = {}  # a legal tuple -> (its balls as ints, those in 0..N-1): tables share a few
            norm = []
            for k, lg in enumerate(legal):
                if lg is None:
                    norm.append(None)
                    continue
                hit = memo.get(lg) if type(lg) is tuple else None
                if hit is None:
                    t = tuple(int(b) for b in lg)
                    hit = (t, [b for b in t if 0 <= b < N])
                    if type(lg) is tuple:
                        memo[lg] = hit
                norm.append(hit[0])
                useb[k] = 1
                for b in hit[1]:
                    lmb[k * N + b] = 1
            self.legal = tuple(norm)
        lm = np.frombuffer(lmb, np.bool_).reshape(B, N)
        use = np.frombuffer(useb, np.bool_)
        self.split_eps = float(split_eps)
        lut, n_seg = rail_lut(table)
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
        """Table k's `ShotFacts` for the question ``shot_facts(rec_k, table,
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
        """Table k's `ShotFacts` (equal to ``shot_facts(rec_k, table, legal_k,
        split_eps)``; ``resolved=False``: as with ``legal=None``)."""
        rows = self._rows
        if rows is None:
            rows = self._rows = self._python_rows()
        first_l, t0_l, first_raw_l, t0_raw_l, cue_pk, cue_off, pk, jmp, start = rows
        f = ShotFacts()
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
        (:func:`rest_mask_and_gap` of the final state, then the final centres as a flat
        tuple), computed for the whole batch at the first call (one compiled pass)."""
        got = self.rests(R)
        return got[0][k], got[1][k], got[2][k]

    def rests(self, R: float) -> tuple:
        """`rest` of every table: (pos tuples, on tuples, gaps), lists in table order."""
        got = self._rest
        if got is None or got[0] != R:
            b = self._batch
            P1 = np.asarray(b.rvw)[:, :, 0, :2]
            on, gap = rest_batch(np.asarray(b.s0) != _POCKETED, np.asarray(b.pocket), np.asarray(b.s), P1,
                                 float(R), _POCKETED, _OFF)
            got = self._rest = (R, [tuple(r) for r in P1.reshape(P1.shape[0], -1).tolist()],
                                bool_tuples(on), gap.tolist())
        return got[1], got[2], got[3]

    def balls_to_rail(self, k: int) -> np.ndarray:
        """Table k's distinct object balls driven to a cushion (as `queries.balls_to_rail`)."""
        return np.flatnonzero(self.to_rail[k])
