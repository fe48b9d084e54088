"""N-seat games in the envs: what a seat may see, its declarations and its result.

The rules hold N seats, teams, per-seat secrets, a public event history and per-seat results
(`poolgym.rules.seats`, rules API.md "Seats"). The envs read them only through:

* `seat_view` -- `poolgym.rules.observe`: the public state (other seats' secrets,
  the hidden chance state and the RNG seed removed) plus the seat's own secret, as the
  discipline shows it (a secret its rules make public, e.g. card ball's C-33 ``public_hands``). Every
  observation, opponent decision and rendered secret of a seated game is built from it, so a
  seat's observation cannot depend on another seat's secret (tested byte for byte).
* `secret_balls` -- the object balls a seat's own secret names (the ball of its pea, the
  balls of the ranks in its hand): the discipline's ``secret_balls(private)`` when it has one,
  else a private value with an int ``number`` (a pea, PP-5 / 41-5) names that ball.
* `SeatBlock` -- the part of the observation vector that only seated games have (its own
  secret, the declarations open now, which seats are in the game, teammates, whose turn).
* `seat_returns` -- the rules' per-seat result of the game (``returns(state)``).

A discipline is *seated* (`uses_seats`) when it declares the seat counts it allows
(``allowed_players``, the BCA and scoring games) or is configured for more than two seats; the
WPA games (two seats, nothing hidden) and the one-seat drills are not, and their spaces and
observations are exactly as before.
"""

from __future__ import annotations

import numpy as np

from poolgym.rules.core import Declaration, GameState, Phase
from poolgym.rules.game import get_discipline

__all__ = ["DECLARATIONS", "uses_seats", "seat_view", "secret_balls", "SeatBlock", "seat_returns", "seat_bar_args",
           "points_advantage"]

#: every `Declaration`, in enum order (the declaration part of the mask, Box and macro spaces)
DECLARATIONS = tuple(Declaration)
DECL_INDEX = {d: i for i, d in enumerate(DECLARATIONS)}


def uses_seats(disc, config) -> bool:
    """The env encodes seats for this discipline and config (module docstring)."""
    return getattr(disc, "allowed_players", None) is not None or int(config.n_players) > 2


def seat_view(state: GameState, seat: int):
    """(public state as ``seat`` sees it, its own secret): `poolgym.rules.observe`
    (through the discipline's ``view``, the same values without the `SeatView`)."""
    return get_discipline(state.discipline).view(state, int(seat))


def secret_balls(disc, private) -> tuple:
    """Object balls named by ``private`` (a seat's own secret; empty when None)."""
    if private is None:
        return ()
    fn = getattr(disc, "secret_balls", None)
    if fn is not None:
        return tuple(int(b) for b in fn(private))
    number = getattr(private, "number", None)
    if isinstance(number, (int, np.integer)):
        return (int(number),)
    raise ValueError(f"{getattr(disc, 'name', disc)!r}: no ball mapping for the secret {type(private).__name__}; "
                     "give the discipline a secret_balls(private) method")


def points_advantage(points, teams, seat: int) -> float:
    """The ``"points"`` reward component of one verdict for ``seat``: the change of its side's
    score minus the mean change over all sides (its advantage over the table average). A
    side is a team (``teams``, a team id per seat; every member holds the team's points, so a
    side's change is the mean over its members) or, without teams, a seat.

    Summed over a game it is the seat's final score minus the mean final score of the
    sides, so the sides' sums add up to zero, and:

    * where the points are transfers (card ball's payments, pea pool's PP-7V: every verdict's
      points sum to zero) it is exactly the seat's own points -- its score as the game
      scores it, not counted twice;
    * with two sides it is half the score difference (14.1, cowboy, odd ball's teams);
    * a solo game (one side) pays the seat's own points (bowlliards' score)."""
    n = len(points)
    if n == 0 or not any(points):
        return 0.0
    if n == 2 and not teams:  # two seats (14.1's every verdict): the float operations below, unrolled
        a, b = float(points[0]), float(points[1])
        return (a if seat == 0 else b) - (a + b) / 2
    side = list(teams) if teams else list(range(n))
    sums: dict = {}
    for k in range(n):
        tot, cnt = sums.get(side[k], (0.0, 0))
        sums[side[k]] = (tot + float(points[k]), cnt + 1)
    means = {t: tot / cnt for t, (tot, cnt) in sums.items()}
    mine = means[side[seat]]
    if len(means) == 1:
        return mine
    return mine - sum(means.values()) / len(means)


def seat_returns(disc, state: GameState) -> tuple:
    """The rules' per-seat result of ``state`` (zeros while the game runs)."""
    return tuple(float(v) for v in disc.returns(state))


class SeatBlock:
    """The seated part of the observation (float32, entries in [0, 1]; N balls, P seats,
    D = len(Declaration)), appended after the common part of `poolgym.envs.codec`:

    ============  ====  ===========================================================
    part          size  meaning
    ============  ====  ===========================================================
    secret        N     1 if the observer's own secret names ball k (its pea, a card)
    declarations  D     1 if `Declaration` d is open to the observer now (its window)
    active        P     1 if the seat is still in the game, observer first then the
                        next seats by number
    teammates     P     1 if the seat is on the observer's team (observer included)
    to_act        P     one-hot: the seat to act, observer first
    ============  ====  ===========================================================
    """

    def __init__(self, disc, n_balls: int, n_players: int):
        self.disc = disc
        self.N = int(n_balls)
        self.P = int(n_players)
        self.size = self.N + len(DECLARATIONS) + 3 * self.P
        #: id(private) -> (private, its secret's ball columns in the block): secrets are
        #: immutable and recur from step to step (the object is kept so that its id stays unique)
        self._secret_cols: dict = {}

    def encode(self, state: GameState, private, spec, seat: int, o: np.ndarray, k: int) -> None:
        """Write the block for ``seat`` into ``o[k : k + size]`` (zeros there already).
        ``state`` is the seat's view (`seat_view`), ``private`` its own secret, ``spec`` the
        legal actions of the seat to act (its declarations are written only when ``seat``
        is to act)."""
        for b in secret_balls(self.disc, private):
            if 0 <= b < self.N:
                o[k + b] = 1.0
        k += self.N
        if spec is not None and state.seat_to_act == seat and state.phase is not Phase.GAME_OVER:
            for d in spec.declarations:
                o[k + DECL_INDEX[d]] = 1.0
        k += len(DECLARATIONS)
        n = state.n_players
        active, teams = state.active, state.teams
        mine = teams[seat] if teams else seat
        for i in range(min(self.P, n)):
            s_ = (seat + i) % n
            o[k + i] = 1.0 if (not active or active[s_]) else 0.0
            o[k + self.P + i] = 1.0 if (teams[s_] if teams else s_) == mine else 0.0
        k += 2 * self.P
        i = (state.seat_to_act - seat) % n if n else 0
        if i < self.P:
            o[k + i] = 1.0

    def encode_batch(self, states, secrets, specs, seats, out: np.ndarray, k: int) -> None:
        """`encode` for B tables into ``out[:, k : k + size]`` (zeros there already; the same
        values): the per-seat parts as array operations over the tables, the secrets and the
        open declarations by index lists. ``states`` are the observers' views."""
        B = len(states)
        N, D, P = self.N, len(DECLARATIONS), self.P
        n = states[0].n_players
        rows, cols = [], []
        memo = self._secret_cols
        for i, sec in enumerate(secrets):
            if sec is None:
                continue
            hit = memo.get(id(sec))
            if hit is None or hit[0] is not sec:
                if len(memo) > 4096:
                    memo.clear()
                hit = memo[id(sec)] = (sec, tuple(b for b in secret_balls(self.disc, sec) if 0 <= b < N))
            for b in hit[1]:
                rows.append(i)
                cols.append(k + b)
        over = Phase.GAME_OVER
        for i, (st, spec, seat) in enumerate(zip(states, specs, seats)):
            if spec is not None and spec.declarations and st.seat_to_act == seat and st.phase is not over:
                for d in spec.declarations:
                    rows.append(i)
                    cols.append(k + N + DECL_INDEX[d])
        if rows:
            out[rows, cols] = 1.0
        m = min(P, n)
        ar = np.arange(B)
        seat_a = np.asarray(seats, np.int64)
        k1 = k + N + D
        if any(st.active for st in states) or any(st.teams for st in states):
            idx = (seat_a[:, None] + np.arange(m)[None, :]) % n
            full = tuple(range(n))
            act = np.array([st.active if st.active else (True,) * n for st in states], np.bool_).reshape(B, n)
            team = np.array([st.teams if st.teams else full for st in states], np.int64).reshape(B, n)
            out[:, k1 : k1 + m] = act[ar[:, None], idx]
            out[:, k1 + P : k1 + P + m] = team[ar[:, None], idx] == team[ar, seat_a][:, None]
        elif m:
            # every seat active and no teams: all m seats in, the observer its own only teammate
            out[:, k1 : k1 + m] = 1.0
            out[:, k1 + P] = 1.0
        rel = (np.array([st.seat_to_act for st in states], np.int64) - seat_a) % n
        ok = rel < P
        out[ar[ok], k1 + 2 * P + rel[ok]] = 1.0



def seat_bar_args(disc, state: GameState, seat: int) -> tuple:
    """(n_seats, seat to act, active, ``seat``, the balls of ``seat``'s own secret) for
    `poolgym.render.seats.seat_bar`, from ``seat``'s view only."""
    view, secret = seat_view(state, seat)
    to_act = -1 if view.phase is Phase.GAME_OVER else int(view.seat_to_act)
    return view.n_players, to_act, tuple(view.active), int(seat), secret_balls(disc, secret)
