"""Test oracle: the shot facts in plain numpy, written from the rule text.

The referees read the compiled scan of :mod:`poolgym.rules.shot_facts`; the tests compare it
with these definitions on hand-built and simulated records.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from poolgym.rules.rails import rail_lut
from poolgym.rules.shot_record import EventKind, ShotRecord

_BB = int(EventKind.BALL_BALL)
_BC = int(EventKind.BALL_CUSHION)
_BJ = int(EventKind.BALL_JAW)


def first_contact_reference(rec: ShotRecord, legal: Optional[Sequence[int]] = None, split_eps: float = 0.0):
    """(ball, t) of the first object ball the cue ball touches, or (None, inf).

    T-1.16.4 / R-2.10 split hit: if ``legal`` is given and a legal ball is touched within
    ``split_eps`` seconds of the first contact, the legal ball is taken as first (the
    decision goes in the shooter's favour).
    """
    c = rec.cue_ball
    m = (rec.ev_kind == _BB) & ((rec.ev_i == c) | (rec.ev_j == c))
    idx = np.flatnonzero(m)
    if idx.size == 0:
        return None, float("inf")
    k0 = idx[0]
    other = np.where(rec.ev_i[idx] == c, rec.ev_j[idx], rec.ev_i[idx]).astype(int)
    t0 = float(rec.ev_t[k0])
    ball = int(other[0])
    if legal is not None and ball not in legal:
        near = np.flatnonzero(rec.ev_t[idx] <= t0 + split_eps)
        for q in near:
            if int(other[q]) in legal:
                return int(other[q]), float(rec.ev_t[idx[q]])
    return ball, t0


def cushion_events_reference(rec: ShotRecord, table):
    """(t, ball, rail) arrays of every cushion contact (segments and jaws)."""
    kind = rec.ev_kind
    m = (kind == _BC) | (kind == _BJ)
    t = rec.ev_t[m]
    b = rec.ev_i[m]
    if t.size == 0:
        return t, b, np.zeros(0, np.int8)
    lut, n_seg = rail_lut(table)
    j = rec.ev_j[m].astype(np.intp) + np.where(kind[m] == _BJ, n_seg, 0)
    return t, b, lut[np.clip(j, 0, lut.size - 1)]
