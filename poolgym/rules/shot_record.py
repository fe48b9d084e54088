"""What the referees read from the physics: one shot's record (DESIGN 5, general.md 7.1).

A :class:`ShotRecord` holds numpy arrays only: initial and final ball centres, the
per-ball final motion state and pocket, and the ordered event log (t, kind, i, j) in
the encoding of physics/CONTRACT.md (``EventKind``, ``Motion``). It is built either
from a ``physics.SimResult`` (:meth:`ShotRecord.from_sim`) or by hand for tests
(:meth:`ShotRecord.build`). All rule questions about a shot are answered by pure
functions over it in :mod:`poolgym.rules.queries`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Iterable, Mapping, Optional, Sequence

import numpy as np

from physics.enums import EventKind, Motion  # the physics package owns these (physics/CONTRACT.md)

_POCKETED = int(Motion.POCKETED)

__all__ = ["ShotRecord", "EventKind", "Motion", "record_to_obj", "record_from_obj"]


@dataclass(frozen=True, eq=False)
class ShotRecord:
    """One shot as the referee sees it.

    pos0: (N, 2) ball centres before the shot; on0: (N,) bool balls in play before.
    pos1: (N, 2) centres after the shot; s1: (N,) int8 final ``Motion`` state.
    pocket: (N,) int8 pocket index (0..5, ``Table.POCKET_NAMES`` order) the ball fell in
        on this shot, -1 if none.
    ev_t, ev_kind, ev_i, ev_j: the valid event rows (time order, STRIKE first).
    ev_xy: optional (E, 2) centre of ball ``ev_i`` at each event (used for the kitchen
        test G-3.39 when the physics provides it; None otherwise).
    cue_ball: row of the struck ball (0).
    status: physics status (0 OK, 1 event log overflow, 2 max iterations).
    shot: optional (5,) shot actually played (after noise) -- lets queries re-run the
        cue ball's path (G-3.39 kitchen crossing) with ``physics.simulate(t_final=...)``.
    facts: optional ``(poolgym.rules.shot_facts.BatchFacts, k)``: the facts of this record
        precomputed for its whole batch in one compiled pass (vector envs); lets
        :func:`queries.shot_facts` skip its own scan. Never set it by hand.
    """

    pos0: np.ndarray
    on0: np.ndarray
    pos1: np.ndarray
    s1: np.ndarray
    pocket: np.ndarray
    ev_t: np.ndarray
    ev_kind: np.ndarray
    ev_i: np.ndarray
    ev_j: np.ndarray
    ev_xy: Optional[np.ndarray] = None
    cue_ball: int = 0
    status: int = 0
    shot: Optional[np.ndarray] = None
    facts: Optional[tuple] = field(default=None, repr=False)

    @property
    def n_balls(self) -> int:
        return int(self.pos0.shape[0])

    # ------------------------------------------------------------------ builders
    @classmethod
    def from_sim(cls, res) -> "ShotRecord":
        """From a ``physics.SimResult`` (fields per physics/CONTRACT.md)."""
        n = int(res.n_events)
        s0 = np.asarray(res.s0)
        rvw0 = np.asarray(res.rvw0)
        rvw1 = np.asarray(res.rvw)
        ev_xy = getattr(res, "ev_xy", None)
        if ev_xy is not None:
            ev_xy = np.asarray(ev_xy)[:n]
        return cls(
            pos0=rvw0[:, 0, :2],
            on0=s0 != int(Motion.POCKETED),
            pos1=rvw1[:, 0, :2],
            s1=np.asarray(res.s),
            pocket=np.asarray(res.pocket),
            ev_t=np.asarray(res.ev_t)[:n],
            ev_kind=np.asarray(res.ev_kind)[:n],
            ev_i=np.asarray(res.ev_i)[:n],
            ev_j=np.asarray(res.ev_j)[:n],
            ev_xy=ev_xy,
            cue_ball=int(getattr(res, "cue_ball", 0)),
            status=int(getattr(res, "status", 0)),
            shot=None if getattr(res, "shot", None) is None else np.asarray(res.shot, dtype=np.float64).reshape(5),
        )

    @classmethod
    def _fast(cls, pos0, on0, pos1, s1, pocket, ev_t, ev_kind, ev_i, ev_j, ev_xy, cue_ball, status, shot,
              facts=None):
        """Construct without the frozen-dataclass ``__init__`` (hot path; same fields)."""
        obj = object.__new__(cls)
        obj.__dict__.update(pos0=pos0, on0=on0, pos1=pos1, s1=s1, pocket=pocket, ev_t=ev_t, ev_kind=ev_kind,
                            ev_i=ev_i, ev_j=ev_j, ev_xy=ev_xy, cue_ball=cue_ball, status=status, shot=shot,
                            facts=facts)
        return obj

    @classmethod
    def from_batch(cls, batch, k: int) -> "ShotRecord":
        """Record of table ``k`` of a ``physics.BatchResult`` (no intermediate SimResult)."""
        n = int(batch.n_events[k])
        return cls._fast(batch.rvw0[k, :, 0, :2], batch.s0[k] != _POCKETED, batch.rvw[k, :, 0, :2], batch.s[k],
                         batch.pocket[k], batch.ev_t[k, :n], batch.ev_kind[k, :n], batch.ev_i[k, :n],
                         batch.ev_j[k, :n], None, int(batch.cue_ball[k]), int(batch.status[k]), batch.shot[k])

    @classmethod
    def from_batch_all(cls, batch, facts=None) -> list:
        """Records of every table of a ``physics.BatchResult``, in table order (the same
        fields as ``[from_batch(batch, k) for k in range(B)]``; each array field is sliced
        from the batch when first read, see `_BatchRecord`). ``facts``: the batch's
        ``poolgym.rules.shot_facts.BatchFacts`` (attached to each record as ``(facts, k)``)."""
        src = _BatchArrays(batch)
        new = object.__new__
        out = []
        for k, (n, c, s) in enumerate(zip(batch.n_events.tolist(), batch.cue_ball.tolist(), batch.status.tolist())):
            r = new(_BatchRecord)
            r.__dict__.update(_src=src, _k=k, _n=n, cue_ball=c, status=s, facts=None if facts is None else (facts, k))
            out.append(r)
        return out

    @classmethod
    def build(
        cls,
        pos0: np.ndarray | Sequence,
        events: Iterable[tuple] = (),
        *,
        on0: Optional[Sequence[bool]] = None,
        pos1: Optional[np.ndarray | Mapping[int, tuple]] = None,
        pocketed: Optional[Mapping[int, int]] = None,
        off_table: Iterable[int] = (),
        ev_xy: Optional[Sequence] = None,
        cue_ball: int = 0,
    ) -> "ShotRecord":
        """Hand-built record for tests.

        pos0: (N, 2) initial centres. events: (t, kind, i, j) tuples (a STRIKE at t=0 is
        prepended if missing; POCKET events for ``pocketed`` balls are appended if
        missing). pos1: final centres, either (N, 2) or a mapping ball -> (x, y) of the
        balls that moved (others stay). pocketed: ball -> pocket index. off_table: balls
        that ended off the table (jumped, G-3.28).
        """
        p0 = np.asarray(pos0, dtype=np.float64).reshape(-1, 2)
        n = p0.shape[0]
        on = np.ones(n, bool) if on0 is None else np.asarray(on0, dtype=bool).copy()
        if isinstance(pos1, Mapping):
            p1 = p0.copy()
            for k, xy in pos1.items():
                p1[int(k)] = xy
        elif pos1 is None:
            p1 = p0.copy()
        else:
            p1 = np.asarray(pos1, dtype=np.float64).reshape(-1, 2).copy()
        s1 = np.where(on, int(Motion.STATIONARY), int(Motion.POCKETED)).astype(np.int8)
        pk = np.full(n, -1, np.int8)
        ev = [tuple(e) for e in events]
        if not ev or int(ev[0][1]) != int(EventKind.STRIKE):
            ev.insert(0, (0.0, int(EventKind.STRIKE), cue_ball, -1))
        t_last = max((float(e[0]) for e in ev), default=0.0)
        for b, p in (pocketed or {}).items():
            pk[int(b)] = int(p)
            s1[int(b)] = int(Motion.POCKETED)
            if not any(int(e[1]) == int(EventKind.POCKET) and int(e[2]) == int(b) for e in ev):
                t_last += 0.01
                ev.append((t_last, int(EventKind.POCKET), int(b), int(p)))
        for b in off_table:
            s1[int(b)] = int(Motion.OFF_TABLE)
        ev.sort(key=lambda e: float(e[0]))
        arr = np.array([(float(e[0]), int(e[1]), int(e[2]), int(e[3])) for e in ev], dtype=np.float64)
        xy = None if ev_xy is None else np.asarray(ev_xy, dtype=np.float64).reshape(-1, 2)
        return cls(
            pos0=p0, on0=on, pos1=p1, s1=s1, pocket=pk,
            ev_t=arr[:, 0].copy(), ev_kind=arr[:, 1].astype(np.int8), ev_i=arr[:, 2].astype(np.int16),
            ev_j=arr[:, 3].astype(np.int16), ev_xy=xy, cue_ball=cue_ball,
        )


class _BatchArrays:
    """The per-batch arrays the records of a ``physics.BatchResult`` are views of."""

    __slots__ = ("P0", "ON0", "P1", "S1", "PK", "T", "K", "I", "J", "SH")

    def __init__(self, batch):
        self.P0, self.P1 = batch.rvw0[:, :, 0, :2], batch.rvw[:, :, 0, :2]
        self.ON0 = batch.s0 != _POCKETED
        self.S1, self.PK, self.SH = batch.s, batch.pocket, batch.shot
        self.T, self.K, self.I, self.J = batch.ev_t, batch.ev_kind, batch.ev_i, batch.ev_j


class _view:
    """A field of `_BatchRecord` made (a numpy view) on first read and kept in the instance
    (a non-data descriptor, like ``functools.cached_property`` without its lock)."""

    __slots__ = ("fn", "name")

    def __init__(self, fn):
        self.fn = fn

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        v = obj.__dict__[self.name] = self.fn(obj)
        return v


class _BatchRecord(ShotRecord):
    """The `ShotRecord` of table ``_k`` of a batch (`ShotRecord.from_batch_all`): the same
    fields and values, but each array field is a view made when first read (a referee reading
    the batch's precomputed facts touches few of them; the vector env makes hundreds of
    records per step). ``dataclasses.replace`` and `record_to_obj` work as on any record."""

    pos0 = _view(lambda self: self._src.P0[self._k])
    on0 = _view(lambda self: self._src.ON0[self._k])
    pos1 = _view(lambda self: self._src.P1[self._k])
    s1 = _view(lambda self: self._src.S1[self._k])
    pocket = _view(lambda self: self._src.PK[self._k])
    ev_t = _view(lambda self: self._src.T[self._k, :self._n])
    ev_kind = _view(lambda self: self._src.K[self._k, :self._n])
    ev_i = _view(lambda self: self._src.I[self._k, :self._n])
    ev_j = _view(lambda self: self._src.J[self._k, :self._n])
    shot = _view(lambda self: self._src.SH[self._k])
    ev_xy = None

    def __reduce__(self):
        # pickled as the plain record it stands for (not the whole batch it views)
        return (_plain_record, (tuple(getattr(self, f.name) for f in fields(ShotRecord)),))


def _plain_record(values) -> ShotRecord:
    return ShotRecord._fast(*values)


def record_to_obj(rec: ShotRecord) -> dict:
    """JSON-able dict of a record (goldens, replays); floats exact."""
    out = {
        "pos0": rec.pos0.tolist(), "on0": rec.on0.astype(bool).tolist(), "pos1": rec.pos1.tolist(),
        "s1": rec.s1.astype(int).tolist(), "pocket": rec.pocket.astype(int).tolist(),
        "ev": [[float(t), int(k), int(i), int(j)] for t, k, i, j in zip(rec.ev_t, rec.ev_kind, rec.ev_i, rec.ev_j)],
        "cue_ball": int(rec.cue_ball), "status": int(rec.status),
    }
    if rec.shot is not None:
        out["shot"] = np.asarray(rec.shot).tolist()
    if rec.ev_xy is not None:
        out["ev_xy"] = np.asarray(rec.ev_xy).tolist()
    return out


def record_from_obj(o: dict) -> ShotRecord:
    """Inverse of :func:`record_to_obj`."""
    ev = np.asarray(o["ev"], dtype=np.float64).reshape(-1, 4)
    return ShotRecord(
        pos0=np.asarray(o["pos0"], np.float64), on0=np.asarray(o["on0"], bool), pos1=np.asarray(o["pos1"], np.float64),
        s1=np.asarray(o["s1"], np.int8), pocket=np.asarray(o["pocket"], np.int8), ev_t=ev[:, 0].copy(),
        ev_kind=ev[:, 1].astype(np.int8), ev_i=ev[:, 2].astype(np.int16), ev_j=ev[:, 3].astype(np.int16),
        ev_xy=None if o.get("ev_xy") is None else np.asarray(o["ev_xy"], np.float64),
        cue_ball=int(o.get("cue_ball", 0)), status=int(o.get("status", 0)),
        shot=None if o.get("shot") is None else np.asarray(o["shot"], np.float64),
    )
