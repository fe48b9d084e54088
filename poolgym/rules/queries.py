"""Rule questions about one shot, as pure functions over a :class:`ShotRecord`
(DESIGN 5; general.md Part 7.1). Every discipline uses these; none re-reads events.

The first contact and the cushion contacts come from the one compiled scan of the event log
(:mod:`poolgym.rules.shot_facts`, also re-exported here: :class:`ShotFacts`,
:func:`shot_facts`); frozen balls from the one predicate of :mod:`poolgym.rules.rails`.

Conventions: ball 0 is the cue ball (``rec.cue_ball``); "cushion contact" means a
BALL_CUSHION event (linear segment) or a BALL_JAW event (the rounded cushion tip at a
pocket) -- both are the ball touching a cushion.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from .geometry import ball_radius
from .rails import contact_is_new, cushion_pockets, frozen_rail_bits, frozen_to_rails, rail_lut
from .shot_facts import ShotFacts, _legal_mask, jumped_balls, pocketed_balls, scan_events, shot_facts
from .shot_record import EventKind, Motion, ShotRecord

__all__ = [
    "ShotFacts", "shot_facts", "first_contact", "first_ball_hit", "cushion_events", "rails_after_first_contact",
    "balls_to_rail", "frozen_at_start", "cue_left_kitchen_before_contact", "pocketed",
    "pocketed_with_pockets", "cue_scratched", "jumped_off_table", "cue_off_table",
    "is_bank", "is_kick", "is_combination", "is_carom", "contacts_of", "object_ball_cushion_after",
    "frozen_rule_satisfied", "any_pocketed", "frozen_ball",
    "Kick", "cushion_ids", "carom_sequence", "kick", "bank_cushions", "combination_chain", "pocket_time",
]

_BB = int(EventKind.BALL_BALL)
_BC = int(EventKind.BALL_CUSHION)
_BJ = int(EventKind.BALL_JAW)
_PK = int(EventKind.POCKET)
_OFF = int(Motion.OFF_TABLE)
_LIFT = int(EventKind.LIFTOFF)


_NO_LUT = np.zeros(0, np.int8)


def first_contact(rec: ShotRecord, legal: Optional[Sequence[int]] = None, split_eps: float = 0.0):
    """(ball, t) of the first object ball the cue ball touches, or (None, inf).

    T-1.16.4 / R-2.10 split hit: if ``legal`` is given and a legal ball is touched within
    ``split_eps`` seconds of the first contact, the legal ball is taken as first (the
    decision goes in the shooter's favour).
    """
    use_legal = legal is not None
    mask = _legal_mask(rec.pocket.shape[0], tuple(legal) if use_legal else ())
    first, t0, _, _, _ = scan_events(rec.ev_kind, rec.ev_i, rec.ev_j, rec.ev_t, rec.cue_ball, mask, use_legal,
                                     float(split_eps), _NO_LUT, 0, _BB, _BC, _BJ)
    return (None, float("inf")) if first < 0 else (int(first), float(t0))


def first_ball_hit(rec: ShotRecord, legal: Optional[Sequence[int]] = None, split_eps: float = 0.0) -> Optional[int]:
    """First object ball hit (see :func:`first_contact`), or None."""
    return first_contact(rec, legal, split_eps)[0]


def cushion_events(rec: ShotRecord, table):
    """(t, ball, rail) arrays of every cushion contact (segments and jaws), in time order."""
    lut, n_seg = rail_lut(table)
    _, _, ct, cb, cr = scan_events(rec.ev_kind, rec.ev_i, rec.ev_j, rec.ev_t, rec.cue_ball,
                                   _legal_mask(rec.pocket.shape[0], ()), False, 0.0, lut, n_seg, _BB, _BC, _BJ)
    return ct, cb, cr


def rails_after_first_contact(rec: ShotRecord, table, t0: float) -> int:
    """Number of cushion contacts (any ball) strictly after time ``t0`` (G-3.19(b))."""
    t, _, _ = cushion_events(rec, table)
    return int(np.count_nonzero(t > t0))


def object_ball_cushion_after(rec: ShotRecord, table, t0: float) -> np.ndarray:
    """Distinct object balls with a cushion contact strictly after ``t0``."""
    t, b, _ = cushion_events(rec, table)
    sel = (t > t0) & (b != rec.cue_ball)
    return np.unique(b[sel])


def balls_to_rail(rec: ShotRecord, table) -> np.ndarray:
    """Distinct object balls driven to a cushion on this shot (break requirement,
    9B-5.4, 8B-4.5, SP-6.6). Pocketed balls count only if they touched a cushion."""
    _, b, _ = cushion_events(rec, table)
    return np.unique(b[b != rec.cue_ball])


def contacts_of(rec: ShotRecord, ball: int):
    """(t, other) arrays of ball-ball contacts of ``ball``."""
    m = (rec.ev_kind == _BB) & ((rec.ev_i == ball) | (rec.ev_j == ball))
    other = np.where(rec.ev_i[m] == ball, rec.ev_j[m], rec.ev_i[m]).astype(np.int64)
    return rec.ev_t[m], other


def pocketed(rec: ShotRecord) -> tuple:
    """Object balls pocketed on this shot, ascending (C-19 physical definition)."""
    return pocketed_balls(rec.pocket.tolist(), rec.cue_ball)


def any_pocketed(rec: ShotRecord) -> bool:
    p = rec.pocket >= 0
    return bool(p.any() and (np.count_nonzero(p) > int(p[rec.cue_ball])))


def pocketed_with_pockets(rec: ShotRecord) -> dict:
    """{ball: pocket index} for every ball pocketed on this shot (cue ball included)."""
    return {int(k): int(rec.pocket[k]) for k in np.flatnonzero(rec.pocket >= 0)}


def cue_scratched(rec: ShotRecord) -> bool:
    """G-3.20: the cue ball was pocketed."""
    return bool(rec.pocket[rec.cue_ball] >= 0 or rec.s1[rec.cue_ball] == int(Motion.POCKETED) and rec.on0[rec.cue_ball])


def jumped_off_table(rec: ShotRecord) -> tuple:
    """G-3.28: balls that ended off the playing surface (object and cue), ascending."""
    return jumped_balls(rec.s1.tolist())


def cue_off_table(rec: ShotRecord) -> bool:
    return bool(rec.s1[rec.cue_ball] == int(Motion.OFF_TABLE))


def frozen_at_start(rec: ShotRecord, table, R: float, eps: float):
    """G-3.38 frozen balls at the start of the shot.

    Returns (rails, to_cue): rails (N,) uint8 bitmask of :class:`~poolgym.rules.rails.Rail`
    each ball is frozen to (:func:`~poolgym.rules.rails.frozen_rail_bits`); to_cue (N,)
    bool -- object ball within 2R + eps of the cue ball.
    """
    rails = frozen_to_rails(rec.pos0, rec.on0, table, R, eps)
    c = rec.cue_ball
    d = np.hypot(rec.pos0[:, 0] - rec.pos0[c, 0], rec.pos0[:, 1] - rec.pos0[c, 1])
    to_cue = (d <= 2 * R + eps) & rec.on0
    to_cue[c] = False
    return rails, to_cue


def frozen_ball(rec: ShotRecord, table, R: float, eps: float, ball: int):
    """(rail bitmask, frozen_to_cue) of one ball at the start (scalar form of
    :func:`frozen_at_start`)."""
    x, y = float(rec.pos0[ball, 0]), float(rec.pos0[ball, 1])
    m = frozen_rail_bits(x, y, float(table.w), float(table.l), R + eps)
    c = rec.cue_ball
    to_cue = bool(math.hypot(x - float(rec.pos0[c, 0]), y - float(rec.pos0[c, 1])) <= 2 * R + eps)
    return int(m), to_cue


def frozen_rule_satisfied(rec: ShotRecord, table, ball: int, t0: float, frozen_rails: int, *,
                          R: Optional[float] = None, eps: float = 1e-4) -> bool:
    """G-3.38 (a)-(d) after the cue ball first contacts the frozen ``ball`` at ``t0``:
    (a) a ball pocketed, (b) the cue ball contacts a cushion, (c) the frozen ball is driven
    to a separate cushion, (d) another object ball is driven to a cushion "with which it
    was not previously in contact".

    "Driven to a cushion" is :func:`~poolgym.rules.rails.contact_is_new` (G-3.38's last
    paragraph): for (c) with ``frozen_rails`` as the rails ``ball`` touched at the start
    (SP-6.7.2 passes the rails it was near), for (b) and (d) with the rails the cue ball /
    the other ball was frozen to at the start (:func:`~poolgym.rules.rails.frozen_rail_bits`;
    ``R`` defaults to the ball radius).
    """
    if any_pocketed(rec):
        return True
    t, b, rails = cushion_events(rec, table)
    if R is None:
        R = ball_radius()
    lim = R + eps
    w, l = float(table.w), float(table.l)
    c = rec.cue_ball
    kind, ei, ej, et = rec.ev_kind, rec.ev_i, rec.ev_j, rec.ev_t
    for k in np.flatnonzero(t > t0).tolist():
        bk, r, tk = int(b[k]), int(rails[k]), float(t[k])
        if bk == ball and bk != c:
            bits = int(frozen_rails)
        else:
            bits = frozen_rail_bits(float(rec.pos0[bk, 0]), float(rec.pos0[bk, 1]), w, l, lim)
        if contact_is_new(bits, r, bk, c, tk, kind, ei, ej, et, _BB):
            return True
    return False


def cue_left_kitchen_before_contact(rec: ShotRecord, table, t_contact: float, exact: bool = True) -> bool:
    """G-3.39 / GW-P4: did the cue-ball centre cross the head string before ``t_contact``
    (use ``inf`` for "at any time")?

    Exact when the record carries ``ev_xy`` (position of ball i at each event). Otherwise:
    (1) a cushion contact of the cue ball before ``t_contact`` on a segment / jaw lying
    wholly beyond the head string (foot rail, upper long rails), or for ``t_contact = inf``
    a final position beyond it, proves the crossing; (2) else, when the record carries the
    played ``shot`` and the physics is importable, the cue ball's path alone is re-simulated
    and sampled (``_cue_crossed_resimulated``); (3) else not crossed.
    """
    c = rec.cue_ball
    hs = float(table.head_string_y)
    if not np.isfinite(t_contact) and rec.pos1[c, 1] >= hs:
        return True
    if rec.ev_xy is not None:
        m = (rec.ev_i == c) & (rec.ev_t < t_contact)
        if np.any(rec.ev_xy[m, 1] >= hs):
            return True
        return False
    if _cue_crossed_heuristic(rec, table, t_contact, hs):
        return True
    if not exact:
        return False
    res = _cue_crossed_resimulated(rec, table, t_contact, hs)
    return bool(res) if res is not None else False


def went_airborne(rec: ShotRecord) -> bool:
    """A ball of the shot left the bed (a LIFTOFF event, physics/CONTRACT.md "Three
    dimensions"): its paths are re-simulated with ``airborne=True``. A shot without one
    gives the same result bit for bit with either model, so the flat one re-simulates it."""
    return bool(np.any(rec.ev_kind == _LIFT))


def lone_cue_ball(rec: ShotRecord, table):
    """The played shot's cue ball alone at its start position, as an (1, 3, 3) ``rvw`` for
    re-simulating its path with ``physics.simulate`` (its path before its first ball
    contact does not depend on the other balls). None if the record has no shot or the
    table is a stand-in rather than a ``physics.Table``."""
    import physics

    if rec.shot is None or not isinstance(table, physics.Table):
        return None
    rvw = np.zeros((1, 3, 3))
    rvw[0, 0, :2] = rec.pos0[rec.cue_ball]
    rvw[0, 0, 2] = ball_radius()
    return rvw


@functools.lru_cache(maxsize=1)
def _default_ball():
    """``physics.BallParams()``, built once (its ``kernel_array`` is cached on it)."""
    import physics

    return physics.BallParams()


def _cue_crossed_resimulated(rec: ShotRecord, table, t_contact: float, hs: float, n_samples: int = 12):
    """Re-run the cue ball alone (its path before its first ball contact does not depend on
    the other balls) and report whether its centre reached the head string before
    ``t_contact``. None if the record has no shot or the table is a stand-in.

    Exact piecewise evaluation: one ``physics.simulate`` of the lone ball up to ``t_end``
    gives its cushion contacts; the state right after the strike and right after each
    cushion contact comes from ``physics.states_at`` (``simulate(t_final=...)``'s states:
    events at exactly ``t_final`` are applied), and between two of them the ball moves in
    closed form (``physics.motion.positions_along``, ``evolve``), sampled at ``n_samples``
    points per piece (the path is a parabola while sliding, a straight line while rolling)."""
    import physics
    from physics.motion import positions_along

    rvw0 = lone_cue_ball(rec, table)
    if rvw0 is None:
        return None
    t_end = t_contact
    if not np.isfinite(t_end):
        t_end = float(rec.ev_t[-1]) if rec.ev_t.size else 0.0
    P = _default_ball().kernel_array
    shot = np.asarray(rec.shot, dtype=np.float64)
    try:
        air = went_airborne(rec)
        lone = physics.simulate(table, rvw0, shot, t_final=float(t_end), airborne=air)
        n = int(lone.n_events)
        k, i, tt = np.asarray(lone.ev_kind)[:n], np.asarray(lone.ev_i)[:n], np.asarray(lone.ev_t)[:n]
        hits = np.unique(tt[(i == 0) & ((k == _BC) | (k == _BJ)) & (tt < t_end)])
        starts = [0.0] + [float(x) for x in hits]
        rvws, ss = physics.states_at(table, rvw0, shot, starts, airborne=air)
    except ValueError:
        return None
    for m, t0 in enumerate(starts):
        rvw = rvws[m, 0]
        if rvw[0, 1] >= hs:
            return True
        t1 = starts[m + 1] if m + 1 < len(starts) else float(t_end)
        ys = positions_along(rvw, int(ss[m, 0]), P, np.linspace(0.0, t1 - t0, n_samples + 1)[1:])[:, 1]
        if (ys >= hs).any():
            return True
    return False


_TABLE_Y: dict = {}


def _segment_jaw_y(table):
    """(lowest y of each cushion segment (S,), y of each jaw centre (J,)), cached per table."""
    got = _TABLE_Y.get(id(table))
    if got is None or got[0] is not table:
        if len(_TABLE_Y) > 64:
            _TABLE_Y.clear()
        seg = np.asarray(table.segments, dtype=np.float64).reshape(-1, 2, 2)
        jaws = np.asarray(table.jaws, dtype=np.float64).reshape(-1, 3)
        got = _TABLE_Y[id(table)] = (table, seg[:, :, 1].min(axis=1), jaws[:, 1].copy())
    return got[1], got[2]


def _cue_crossed_heuristic(rec: ShotRecord, table, t_contact: float, hs: float) -> bool:
    c = rec.cue_ball
    mine = (rec.ev_i == c) & (rec.ev_t < t_contact)
    kind = rec.ev_kind
    m_s = mine & (kind == _BC)
    m_j = mine & (kind == _BJ)
    has_s, has_j = m_s.any(), m_j.any()
    if not (has_s or has_j):
        return False
    seg_y, jaw_y = _segment_jaw_y(table)
    if has_s and np.any(seg_y[rec.ev_j[m_s].astype(int)] >= hs):
        return True
    if has_j and np.any(jaw_y[rec.ev_j[m_j].astype(int)] >= hs):
        return True
    return False


def is_kick(rec: ShotRecord, table) -> bool:
    """Kick shot: the cue ball contacts a cushion before its first object-ball contact."""
    _, t0 = first_contact(rec)
    t, b, _ = cushion_events(rec, table)
    return bool(np.any((b == rec.cue_ball) & (t < t0)))


def is_bank(rec: ShotRecord, table, ball: int) -> bool:
    """Bank shot for ``ball``: it touched a cushion before it was pocketed (or, if not
    pocketed, at all)."""
    t, b, _ = cushion_events(rec, table)
    m = np.flatnonzero((rec.ev_kind == _PK) & (rec.ev_i == ball))
    tp = float(rec.ev_t[m[0]]) if m.size else float("inf")
    return bool(np.any((b == ball) & (t < tp)))


def is_combination(rec: ShotRecord, ball: int) -> bool:
    """Combination for ``ball``: the cue ball's first object ball is another ball, and
    ``ball`` was first set in motion by an object ball (not by the cue ball)."""
    first, t0 = first_contact(rec)
    if first is None or first == ball:
        return False
    tb, other = contacts_of(rec, ball)
    if tb.size == 0:
        return False
    return int(other[0]) != rec.cue_ball


def is_carom(rec: ShotRecord, ball: int) -> bool:
    """Carom (kiss-off) for ``ball``: after its first contact it contacted another ball
    before being pocketed (or at all if not pocketed)."""
    tb, other = contacts_of(rec, ball)
    if tb.size < 2:
        return False
    m = np.flatnonzero((rec.ev_kind == _PK) & (rec.ev_i == ball))
    tp = float(rec.ev_t[m[0]]) if m.size else float("inf")
    return bool(np.count_nonzero(tb < tp) >= 2)


# ----------------------------------------------------------------------------- shot types
# DESIGN 5 "shot types are queries on the shot record shared by every discipline": carom
# (object balls the cue ball touched, in order), kick (cue-ball cushions before the first
# contact and the pockets they are connected with), bank (object-ball cushions before it
# dropped), combination (the chain of balls that set a ball in motion). Used by Cowboy
# (CW-5), Honolulu (HO-6, HO-7) and available to every referee. A "cushion" is numbered as
# in :func:`cushion_ids`: linear segment ``j`` -> ``j``, jaw ``j`` -> ``S + j``.


def cushion_ids(rec: ShotRecord, table):
    """(t, ball, cushion id) arrays of every cushion contact: a linear segment keeps its
    index ``j``, a rounded jaw tip becomes ``S + j`` (S = number of segments), the row
    numbering of :func:`poolgym.rules.rails.cushion_pockets`."""
    kind = rec.ev_kind
    m = (kind == _BC) | (kind == _BJ)
    n_seg = int(np.asarray(table.segments).reshape(-1, 2, 2).shape[0])
    cid = rec.ev_j[m].astype(np.int64) + np.where(kind[m] == _BJ, n_seg, 0)
    return rec.ev_t[m], rec.ev_i[m].astype(np.int64), cid


def carom_sequence(rec: ShotRecord) -> tuple:
    """The distinct object balls the cue ball touched on this shot, in the order of its first
    contact with each (CW-5 "carom on two / three object balls"; HO-6 carom). Contacts of
    object balls with each other do not count."""
    _, other = contacts_of(rec, rec.cue_ball)
    seen = []
    for b in other.tolist():
        if b not in seen:
            seen.append(int(b))
    return tuple(seen)


@dataclass(frozen=True)
class Kick:
    """The cue ball's cushion contacts before its first object-ball contact (a kick shot when
    any). cushions: cushion ids (:func:`cushion_ids`) in time order; rails: the
    :class:`~poolgym.rules.rails.Rail` of each; pockets: for each cushion, the pockets
    (ascending indices) it is connected with (:func:`~poolgym.rules.rails.cushion_pockets`)."""

    cushions: tuple = ()
    rails: tuple = ()
    pockets: tuple = ()

    @property
    def is_kick(self) -> bool:
        return len(self.cushions) > 0

    def connected_with(self, pocket: int) -> bool:
        """HO-7: a *single* cushion before the contact, connected with ``pocket`` (a kick
        off two or more cushions is never "connected")."""
        return len(self.cushions) == 1 and int(pocket) in self.pockets[0]


def kick(rec: ShotRecord, table) -> Kick:
    """:class:`Kick` of the shot: every cue-ball cushion contact strictly before its first
    object-ball contact (all of them when it touches no ball)."""
    _, t0 = first_contact(rec)
    t, b, cid = cushion_ids(rec, table)
    sel = (b == rec.cue_ball) & (t < t0)
    if not np.any(sel):
        return Kick()
    ids = tuple(int(c) for c in cid[sel])
    lut, _ = rail_lut(table)
    link = cushion_pockets(table)
    rails = tuple(int(lut[min(c, lut.size - 1)]) for c in ids)
    pockets = tuple(tuple(int(p) for p in np.flatnonzero(link[c])) for c in ids)
    return Kick(ids, rails, pockets)


def pocket_time(rec: ShotRecord, ball: int) -> float:
    """Time ``ball`` dropped into a pocket on this shot (inf if it did not)."""
    m = np.flatnonzero((rec.ev_kind == _PK) & (rec.ev_i == ball))
    return float(rec.ev_t[m[0]]) if m.size else float("inf")


def bank_cushions(rec: ShotRecord, table, ball: int) -> tuple:
    """Cushion ids ``ball`` touched before it dropped (all its contacts if it did not drop),
    leaving out the jaws of the pocket it dropped into (a ball rattling in the jaws of its
    pocket is not banked): a non-empty result is a bank (HO-6 "дуплет"). A jaw piece is a
    cushion connected with that one pocket only (:func:`~poolgym.rules.rails.cushion_pockets`); the rail
    sections either side of the pocket still count."""
    t, b, cid = cushion_ids(rec, table)
    tp = pocket_time(rec, ball)
    ids = cid[(b == ball) & (t < tp)]
    p = int(rec.pocket[ball])
    if p >= 0 and ids.size:
        link = cushion_pockets(table)
        own_jaw = link[ids, p] & (link[ids].sum(axis=1) == 1)
        ids = ids[~own_jaw]
    return tuple(int(c) for c in ids)


def combination_chain(rec: ShotRecord, ball: int) -> tuple:
    """The balls that set ``ball`` in motion, from the cue ball's object ball to ``ball``:
    ``(ball,)`` when the cue ball moved it first, ``(1, 2, ball)`` when the cue ball hit
    the 1, the 1 the 2 and the 2 ``ball``; ``()`` when nothing touched it (or the chain does
    not reach the cue ball). A combination is a chain of length >= 2 (HO-6, 8B-4.15)."""
    chain = [int(ball)]
    cur = int(ball)
    for _ in range(rec.n_balls):
        _, other = contacts_of(rec, cur)
        if other.size == 0:
            return ()
        src = int(other[0])
        if src == rec.cue_ball:
            return tuple(reversed(chain))
        if src in chain:
            return ()
        chain.append(src)
        cur = src
    return ()
