"""The score state of the scoring games in the observation (`ScoreBlock`).

A discipline whose result depends on more than the scores of `poolgym.envs.codec` (tanh of
each seat's score) -- bowlliards' frame and attempt, cowboy's distance to 90 and 101,
Honolulu's owed points, cribbage's open pairs, the one-ball side pocket; Mr. and Mrs.'
handicaps, card ball's card counts and, when public (C-33), the others' hands -- declares
``n_score_features`` and ``score_features(state, seat) -> tuple of floats in [-1, 1]`` (the
observer's view), and may give ``score_features_batch(states, seats)`` (every table's row at
once, for the vector env). The block is appended at the end of the observation (after the seat
block of an N-seat game); disciplines without the hook (the WPA games) have none, so their
spaces are unchanged.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ScoreBlock", "score_block"]


class ScoreBlock:
    """``size`` = the discipline's ``n_score_features``; `encode` writes its
    ``score_features(state, seat)`` (clipped to [-1, 1]) at ``o[k : k + size]``."""

    def __init__(self, disc):
        self.disc = disc
        self.size = int(disc.n_score_features)

    def encode(self, state, seat: int, o: np.ndarray, k: int) -> None:
        vals = self.disc.score_features(state, int(seat))
        if len(vals) != self.size:
            raise ValueError(f"{self.disc.name}: score_features gave {len(vals)} values, expected {self.size}")
        o[k : k + self.size] = np.clip(np.asarray(vals, np.float32), -1.0, 1.0)

    def encode_batch(self, states, seats, out: np.ndarray, k: int) -> None:
        """`encode` of B tables into ``out[:, k : k + size]`` (the same values): the features
        of every table, then one conversion and clip. A discipline with
        ``score_features_batch(states, seats)`` gives the (B, size) float64 rows of all tables
        at once (equal to its ``score_features`` row by row)."""
        batch = getattr(self.disc, "score_features_batch", None)
        if batch is not None:
            rows = np.asarray(batch(states, [int(seat) for seat in seats]), np.float64)
            if rows.shape != (len(states), self.size):
                raise ValueError(f"{self.disc.name}: score_features_batch gave shape {rows.shape}, expected "
                                 f"{(len(states), self.size)}")
            out[:, k : k + self.size] = np.clip(rows.astype(np.float32), -1.0, 1.0)
            return
        fn = self.disc.score_features
        rows = [fn(st, int(seat)) for st, seat in zip(states, seats)]
        for vals in rows:
            if len(vals) != self.size:
                raise ValueError(f"{self.disc.name}: score_features gave {len(vals)} values, expected {self.size}")
        out[:, k : k + self.size] = np.clip(np.array(rows, np.float32).reshape(len(rows), self.size), -1.0, 1.0)


def score_block(disc):
    """A `ScoreBlock` for ``disc`` when it declares score features, else None."""
    return ScoreBlock(disc) if int(getattr(disc, "n_score_features", 0) or 0) > 0 else None
