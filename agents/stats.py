"""Statistics of tournaments: Wilson score intervals and Elo ratings.

* Wilson score interval (E. B. Wilson, "Probable inference, the law of succession, and
  statistical inference", JASA 22, 1927): for k successes in n trials and normal quantile z,

      centre = (p + z^2 / 2n) / (1 + z^2 / n),
      half   = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / 4n^2),   p = k / n.

  Draws count as half a win (k may be fractional).
* Elo (A. Elo, *The Rating of Chessplayers*, 1978): expected score
  ``E_a = 1 / (1 + 10^((R_b - R_a) / 400))``; after each game ``R_a += K (S_a - E_a)`` and
  symmetrically for b. Games are applied in the order given (the tournament's fixed,
  seed-determined order), from `ELO_INITIAL` with factor `ELO_K`.
"""

from __future__ import annotations

import math
from typing import Iterable

#: 97.5% standard-normal quantile (two-sided 95% interval).
Z95 = 1.959963984540054
ELO_INITIAL = 1500.0
ELO_K = 16.0


def wilson_interval(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval (lo, hi) for k successes out of n; (0, 1) when n == 0."""
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"k, n: need 0 <= k <= n, got k={k!r}, n={n!r}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_expected(ra: float, rb: float) -> float:
    """Expected score of a player rated ra against one rated rb."""
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))


def elo_ratings(games: Iterable[tuple[str, str, float]], players: Iterable[str] = (),
                k: float = ELO_K, initial: float = ELO_INITIAL) -> dict[str, float]:
    """Sequential Elo over `games` = (player_a, player_b, score_a in {0, 0.5, 1}), in order.

    `players` lists players that should appear even without games.
    """
    r: dict[str, float] = {p: initial for p in players}
    for a, b, s in games:
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"score: expected a value in [0, 1], got {s!r}")
        ra = r.setdefault(a, initial)
        rb = r.setdefault(b, initial)
        ea = elo_expected(ra, rb)
        r[a] = ra + k * (s - ea)
        r[b] = rb + k * ((1.0 - s) - (1.0 - ea))
    return r
