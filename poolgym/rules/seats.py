"""Seats, teams, private state and chance for N-seat games (DESIGN 5 "Seats"; API.md "Seats").

A game state holds N seats (``len(state.scores)``). A two-seat WPA game is the N = 2 case
of the same :class:`~poolgym.rules.core.GameState` with every seat field empty. The
fields (all immutable tuples):

* ``teams`` -- team id per seat, or empty (every seat for itself).
* ``order`` -- seats in order of play, or empty (0, 1, ..., N-1). The rules decide who
  acts; :func:`next_in_order` is the rotation that skips seats out of the game.
* ``active`` -- per seat still in this game, or empty (all). Elimination (CT-9.3) and
  disqualification (41-9.7, PP-7V, MM-8.4) clear it; re-entry (CT-13) sets it again.
* ``private`` -- per seat its secret (a pea, a hand of cards) or None. Only
  :func:`observe` for that seat reads it.
* ``hidden`` -- chance state no seat knows (peas left in the bottle, the deck).
* ``history`` -- public :class:`~poolgym.rules.core.SeatEvent` of the game: chance draws
  (who drew, never what), declarations, eliminations, set-aside cards.

Chance is drawn from the state's RNG (``state.rng = (seed, counter)``, see
:func:`poolgym.rules.game.draw_rng`): :func:`draw_from` takes values out of a pool with
it and returns the state with the counter advanced, so a game replays exactly from its
seed and its actions (OpenSpiel's explicit chance nodes are folded into the seeded RNG).

Observation (OpenSpiel ``information_state`` per player): :func:`observe` gives a
:class:`SeatView` -- the state with every other seat's private entry, the hidden
chance state and the RNG seed removed, plus the seat's own secret. Its JSON is the
byte-level contract that the privacy tests check: changing any other seat's secret
leaves it identical.

Results: :func:`poolgym.rules.game.returns` -- one value per seat at the end of the game
(the discipline's ``returns``), zero-sum where the game is.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from .core import GameState, SeatEvent
from .seeding import permutation_prefix
from . import serialize

__all__ = [
    "SeatView", "observe", "view_of", "order_of", "is_active", "active_seats", "team_of", "teammates",
    "next_in_order", "draw_from", "draw_with", "add_events", "set_private", "set_active",
]


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` may know: ``state`` is the public state (other seats' ``private``
    entries None, ``hidden`` None, ``rng`` empty) and ``private`` the seat's own secret."""

    seat: int
    state: GameState
    private: Any = None

    def to_json(self) -> str:
        return serialize.to_json(self)


serialize.register(SeatView)


def observe(state: GameState, seat: int) -> SeatView:
    """The view of ``seat``: public state plus its own private state only."""
    view, own = view_of(state, seat)
    obj = object.__new__(SeatView)  # SeatView(seat=, state=, private=) without the frozen __init__
    obj.__dict__.update(seat=seat, state=view, private=own)
    return obj


def view_of(state: GameState, seat: int) -> tuple:
    """(public state as ``seat`` sees it, its own secret): the parts of :func:`observe`'s
    `SeatView`, built without it (the envs' hot path)."""
    n = state.n_players
    if not isinstance(seat, int) or not (0 <= seat < n):
        raise ValueError(f"seat must be an int in [0, {n}), got {seat!r}")
    priv = state.private
    if priv:
        own = priv[seat]
        masked = (None,) * seat + (own,) + (None,) * (len(priv) - seat - 1)
    else:
        own, masked = None, ()
    return state._evolve({"private": masked, "hidden": None, "rng": ()}), own


# ----------------------------------------------------------------------------- seats
def order_of(state: GameState) -> tuple:
    """Seats in order of play."""
    return state.order if state.order else tuple(range(state.n_players))


def is_active(state: GameState, seat: int) -> bool:
    """``seat`` is still in this game (not eliminated or disqualified)."""
    return not state.active or bool(state.active[seat])


def active_seats(state: GameState) -> tuple:
    """Seats still in the game, in order of play."""
    return tuple(s for s in order_of(state) if is_active(state, s))


def team_of(state: GameState, seat: int) -> int:
    """Team of ``seat`` (the seat itself when the game has no teams)."""
    return state.teams[seat] if state.teams else seat


def teammates(state: GameState, seat: int) -> tuple:
    """Seats of ``seat``'s team (itself included), ascending."""
    t = team_of(state, seat)
    return tuple(s for s in range(state.n_players) if team_of(state, s) == t)


def next_in_order(state: GameState, seat: Optional[int] = None, *, include_self: bool = False) -> int:
    """The first active seat after ``seat`` (default the seat to act) in order of play;
    ``seat`` itself when no other seat is active (or first when ``include_self`` and it is
    active -- then the search starts at ``seat``)."""
    s = state.seat_to_act if seat is None else seat
    order, act = state.order, state.active
    if not order and not act and type(s) is int and 0 <= s < len(state.scores):
        return s if include_self else (s + 1) % len(state.scores)  # seat order, every seat in
    order = order or range(len(state.scores))  # (order_of without building the tuple)
    i = order.index(s)
    n = len(order)
    for k in range(0 if include_self else 1, n + 1):
        c = order[(i + k) % n]
        if not act or act[c]:
            return c
    return s


def set_active(state: GameState, seat: int, value: bool) -> tuple:
    """The ``active`` tuple with ``seat`` set to ``value``."""
    act = list(state.active) if state.active else [True] * state.n_players
    act[seat] = bool(value)
    return tuple(act)


def set_private(state: GameState, seat: int, value: Any) -> tuple:
    """The ``private`` tuple with ``seat``'s entry replaced by ``value``."""
    priv = list(state.private) if state.private else [None] * state.n_players
    priv[seat] = value
    return tuple(priv)


# ----------------------------------------------------------------------------- chance
def draw_from(state: GameState, pool: Sequence[int], k: int = 1):
    """Draw ``k`` distinct values uniformly from ``pool`` with the state's RNG:
    (drawn tuple in draw order, remaining pool tuple (order kept), state with the RNG
    counter advanced). Raises ValueError if the pool holds fewer than ``k`` values."""
    drawn, rest, new = draw_with(state.rng, pool, k)
    return drawn, rest, state._evolve({"rng": new})


def draw_with(rng: tuple, pool: Sequence[int], k: int = 1):
    """:func:`draw_from` on the RNG tuple ``rng`` (``state.rng``) alone: (drawn, rest, the
    advanced RNG tuple), for a referee that sets the state's ``rng`` with its other changes."""
    pool = tuple(pool)
    if not (0 <= k <= len(pool)):
        raise ValueError(f"cannot draw {k} from a pool of {len(pool)}")
    seed, counter = rng  # the draw of poolgym.rules.game.draw_rng
    new = (int(seed), int(counter) + 1)
    # default_rng([seed, counter]).permutation(len(pool))[:k], compiled (no Generator built)
    idx = permutation_prefix([int(seed), int(counter)], len(pool), k)
    if k == 1:  # (a penalty card, a pea from the bottle: the common case)
        i = idx[0]
        return (pool[i],), pool[:i] + pool[i + 1:], new
    drawn = tuple(pool[i] for i in idx)
    taken = set(idx)
    rest = tuple(v for i, v in enumerate(pool) if i not in taken)
    return drawn, rest, new


def add_events(state: GameState, events: Sequence[SeatEvent]) -> tuple:
    """``state.history`` with ``events`` appended."""
    return tuple(state.history) + tuple(events)
