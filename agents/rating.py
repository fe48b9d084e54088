"""Multiplayer rating: the Plackett-Luce update of Weng and Lin.

R. C. Weng and C.-J. Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12
(2011), Algorithm 4 (the model behind openskill's ``PlackettLuce``). Every player has a
Gaussian skill belief ``N(mu, sigma^2)`` (defaults ``MU`` = 25, ``SIGMA`` = 25/3, the
performance noise ``BETA`` = 25/6). After a game with ranks ``r`` (0 = best, equal ranks are
ties) over players ``i``:

    c        = sqrt(sum_i (sigma_i^2 + BETA^2))
    p_{i,q}  = exp(mu_i / c) / sum_{s : r_s >= r_q} exp(mu_s / c)       for r_q <= r_i
    Omega_i  = sigma_i^2 / c * sum_{q : r_q <= r_i} (delta_{iq} - p_{i,q}) / A_q
    Delta_i  = (sigma_i / c) * sigma_i^2 / c^2 * sum_{q : r_q <= r_i} p_{i,q} (1 - p_{i,q}) / A_q
    mu_i    += Omega_i,    sigma_i^2 *= max(1 - Delta_i, KAPPA)

with ``A_q`` the number of players tied with q (q ranges over every player ranked no worse
than i, i itself included) and ``delta_{iq}`` = 1 for q = i, else 0. The conservative ``ordinal = mu - 3 sigma`` orders players. Two players with ranks (0, 1) move
apart symmetrically; applying games in a fixed order makes the ratings reproducible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 1e-4


@dataclass(frozen=True)
class Rating:
    """A skill belief N(mu, sigma^2)."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate mu - 3 sigma."""
        return self.mu - 3.0 * self.sigma


def rate(ratings: Sequence[Rating], ranks: Sequence[float], beta: float = BETA) -> list[Rating]:
    """New ratings of the players of one game (``ranks``: lower is better, equal = tie)."""
    n = len(ratings)
    if n != len(ranks) or n < 2:
        raise ValueError(f"rate: need >= 2 players with one rank each, got {n} ratings and {len(ranks)} ranks")
    c = math.sqrt(sum(r.sigma ** 2 + beta ** 2 for r in ratings))
    e = [math.exp(r.mu / c) for r in ratings]
    # denominator of q: players ranked no better than q
    den = [sum(e[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    ties = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i, r in enumerate(ratings):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            p = e[i] / den[q]
            omega += ((1.0 if q == i else 0.0) - p) / ties[q]
            delta += p * (1.0 - p) / ties[q]
        s2 = r.sigma ** 2
        omega *= s2 / c
        delta *= (r.sigma / c) * s2 / (c * c)
        out.append(Rating(r.mu + omega, math.sqrt(s2 * max(1.0 - delta, KAPPA))))
    return out


def ratings_from_games(games: Iterable[tuple[Sequence[str], Sequence[float]]], names: Sequence[str]) -> dict:
    """{name: Rating} after applying ``games`` in order: each is (player name per seat, rank per
    seat). A name holding several seats of one game is rated as one player with the best of
    its seats' ranks."""
    cur = {name: Rating() for name in names}
    for players, ranks in games:
        best: dict[str, float] = {}
        for p, r in zip(players, ranks):
            best[p] = min(best.get(p, math.inf), float(r))
        who = list(best)
        if len(who) < 2:
            continue
        new = rate([cur[p] for p in who], [best[p] for p in who])
        for p, r in zip(who, new):
            cur[p] = r
    return cur


def ranks_from_returns(returns: Sequence[float]) -> list[int]:
    """Ranks (0 = best, ties equal) from per-seat results (higher is better)."""
    order = sorted(set(returns), reverse=True)
    return [order.index(v) for v in returns]
