"""Win probability of the seat to act in nine-ball, fitted to the outcomes of search self-play.

The search agent (`agents.search`) values the position a stroke leaves by the chance that the
seat to act there wins the game; with ``value_model="fitted"`` that chance is read here. `NineBallValue` is that chance as a small fitted table: for
each number of object balls left ``n`` (1-9),

* the cue ball in position, the seat's best next pot of quality ``q`` (the search agent's
  `SearchAgent.quality`, PickPocket's weighted best pots):
  ``P(win) = sigmoid(a[n] + b[n] q)``;
* ball in hand (9B-4.1 after a foul): as in position with ``q = bih_q``, the mean quality of
  the shot the search player takes after placing the cue ball (the search places it well:
  its next pots are near-certain).

It is fitted (`fit`, ridge-regularised logistic regression per ``n``) to every shooting
position of search-vs-search games under ICGA noise, the label being whether the seat to act
there went on to win the game (`benchmarks/fit_search_value.py` plays the games and prints the
table shipped as `FITTED`). Unlike the symmetric run-out model (`agents.search.runout_value`,
every shot made with one probability, a miss handing the same position over), the fitted table
knows what the search player does with a poor position: it plays safe, so a seat without a pot
is far from lost, and a seat with ball in hand late in the rack has nearly won.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: object balls of a nine-ball rack
N_BALLS = 9


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(frozen=True)
class NineBallValue:
    """The fitted table (module docstring): ``a``, ``b`` per ``n`` = 1..9 (index n-1), the
    ball-in-hand quality ``bih_q``; ``games`` and ``positions``: how much data it was fitted to."""

    a: tuple
    b: tuple
    bih_q: float
    games: int = 0
    positions: int = 0

    def __post_init__(self):
        for k in ("a", "b"):
            if len(getattr(self, k)) != N_BALLS:
                raise ValueError(f"NineBallValue.{k}: {N_BALLS} entries (n = 1..9) expected")

    def win(self, n: int, q: float, ball_in_hand: bool = False) -> float:
        """Probability that the seat to act wins with ``n`` object balls left (clamped to
        1..9), next pot quality ``q`` in [0, 1] (unused with ``ball_in_hand``)."""
        i = min(max(int(n), 1), N_BALLS) - 1
        if ball_in_hand:
            q = self.bih_q
        return _sigmoid(self.a[i] + self.b[i] * float(min(max(q, 0.0), 1.0)))


def _logistic(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """(intercept, slopes) of a logistic regression of ``y`` on the columns of ``x`` by Newton's
    method, the slopes (not the intercept) shrunk by ``ridge``."""
    A = np.column_stack([np.ones(len(y)), x])
    pen = np.full(A.shape[1], float(ridge))
    pen[0] = 1e-3
    w = np.zeros(A.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(A @ w)))
        H = A.T @ (A * (p * (1.0 - p))[:, None]) + np.diag(pen)
        step = np.linalg.solve(H, A.T @ (y - p) - pen * w)
        w += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def fit(n, q, won, bih_q: float, ridge: float = 1.0, games: int = 0) -> NineBallValue:
    """Fit the table to positions with the cue ball in position (arrays: balls left ``n``,
    quality ``q``, ``won``: the seat to act went on to win); ``bih_q`` is taken as given. Each
    ``n`` is fitted on its own positions (an ``n`` with fewer than 20 borrows its neighbours',
    n-1 and n+1, as well)."""
    n = np.asarray(n, int)
    q = np.asarray(q, float)
    y = np.asarray(won, float)
    if not (len(n) == len(q) == len(y)) or len(y) == 0:
        raise ValueError("fit: n, q and won must be non-empty and of one length")
    a, b = [], []
    for k in range(1, N_BALLS + 1):
        for width in range(N_BALLS):
            near = np.abs(n - k) <= width
            if np.sum(near) >= 20 or width == N_BALLS - 1:
                break
        w = _logistic(q[near, None], y[near], ridge)
        a.append(float(w[0]))
        b.append(float(w[1]))
    return NineBallValue(tuple(a), tuple(b), float(bih_q), games=int(games), positions=int(len(y)))


#: the shipped table (`benchmarks/fit_search_value.py`)
FITTED = NineBallValue(
    a=(0.111, 0.168, 0.341, 0.077, 0.036, -0.111, -0.116, -0.103, -0.110),
    b=(2.794, 1.388, 0.884, 0.663, 0.375, 0.429, 0.410, 0.486, 0.501),
    bih_q=0.966,
    games=300,
    positions=2902,
)
