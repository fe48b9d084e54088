"""Shared data types of the poolgym referees (DESIGN.md section 5).

Everything a discipline reads or returns is an immutable value defined here:

* :class:`Phase` -- what kind of decision the seat to act faces now.
* :class:`CueBallPlacement` -- how the cue ball is put in play for the next shot
  (in position, in hand anywhere GB-8/GW-5, in hand behind the head string G-3.10).
* :class:`FoulKind` + :class:`Foul` -- a foul is an enum member plus the rule ID
  (exactly as written in ``shared/rules``) that makes it a foul. No free text.
* :class:`Option` -- the incoming player's choices (accept the table, hand it back,
  re-rack, ...). One shared, append-only enum for every discipline.
* Actions: :class:`ShotAction`, :class:`PlaceCueBall`, :class:`ChooseOption`.
* :class:`Verdict` -- the referee's ruling on one action.
* :class:`RulesConfig` -- general configuration knobs (``conflicts.md`` option keys);
  disciplines subclass it.
* :class:`GameState` -- the whole game position, frozen, hashable, JSON round-trip
  (see :mod:`poolgym.rules.serialize`).
* :class:`ActionSpec` -- what :func:`legal_actions` returns.
* Seats (N-seat games, API.md "Seats"): :class:`Declaration` + :class:`Declare` (claims and
  requests made in their window), :class:`EventType` + :class:`SeatEvent` (public history
  of chance outcomes, declarations, eliminations).
* :class:`IllegalActionError` -- raised for an action the rules do not allow now;
  the state is never changed.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from itertools import compress
from typing import Any, Optional

import numpy as np

from . import serialize

Seat = int

__all__ = [
    "Seat", "Phase", "CueBallPlacement", "FoulKind", "Foul", "Option", "BreakOrder",
    "SpotFrontOrder", "ShotAction", "PlaceCueBall", "ChooseOption", "Concede", "Action", "Verdict",
    "RulesConfig", "GameState", "ActionSpec", "IllegalActionError", "Declaration", "Declare", "EventType",
    "SeatEvent",
]


#: Registry of discipline implementations: name -> "module:Class" (imported lazily).
DISCIPLINE_PATHS = {
    "nine_ball": "poolgym.rules.nine_ball:NineBall",
    "eight_ball": "poolgym.rules.eight_ball:EightBall",
    "straight_pool": "poolgym.rules.straight_pool:StraightPool",
    "six_ball": "poolgym.rules.games.six_ball:SixBall",
    "bowlliards": "poolgym.rules.games.bowlliards:Bowlliards",
    "cowboy": "poolgym.rules.games.cowboy:Cowboy",
    "honolulu": "poolgym.rules.games.honolulu:Honolulu",
    "cribbage": "poolgym.rules.games.cribbage:Cribbage",
    "one_ball_side": "poolgym.rules.games.side_pocket_one_ball:OneBallSide",
    "pea_pool": "poolgym.rules.games.pea_pool:PeaPool",
    "forty_one": "poolgym.rules.games.forty_one:FortyOne",
    "cutthroat": "poolgym.rules.games.cutthroat:CutThroat",
    "card_ball": "poolgym.rules.games.card_ball:CardBall",
    "odd_ball": "poolgym.rules.games.odd_ball:OddBall",
    "mr_and_mrs": "poolgym.rules.games.mr_and_mrs:MrAndMrs",
}


class IllegalActionError(ValueError):
    """An action the rules do not allow in this state (wrong phase, option not offered,
    bad placement, calling a pocketed ball, acting after the game is over, ...).
    The state passed to ``apply`` is never modified (it is immutable anyway)."""


class Phase(str, Enum):
    """Decision the seat to act faces.

    LAG        -- G-3.6: each seat plays one lag shot (ShotAction); both are played at once
                  and adjudicated when the second seat has stroked (poolgym.rules.lag).
    BREAK      -- the opening break shot (G-3.8) is next; cue ball in hand behind the head
                  string (place it first, then shoot).
    PLAY       -- an ordinary shot is next.
    OPTION     -- the seat to act must choose one of ``state.options`` (incoming player's
                  option after a push-out / illegal break / foul, lag winner's choice...).
    GAME_OVER  -- no action is legal; ``state.winner`` holds the result.
    DECLARE    -- the seat to act is in a declaration window (41-9.6 / 41-9.7 claims,
                  PP-7V announcement): it plays one of ``legal_actions(state).declarations``
                  (:class:`Declare`); ``Declaration.PASS`` closes its window.

    Cue ball in hand is not a phase: in BREAK / PLAY with ``cue_ball`` in hand and
    ``cue_placed`` False the seat must place it first (``ActionSpec.must_place``), and may
    re-place it until the shot (GW-5).
    """

    LAG = "lag"
    BREAK = "break"
    PLAY = "play"
    OPTION = "option"
    GAME_OVER = "game_over"
    DECLARE = "declare"


class CueBallPlacement(str, Enum):
    """How the cue ball is put in play for the coming shot (DESIGN 5, general.md 7.4)."""

    IN_POSITION = "in_position"          # G-3.37: incoming player accepts the table
    IN_HAND_ANYWHERE = "in_hand_anywhere"  # GB-8, GW-5 (9B-5.10: not frozen to a ball)
    IN_HAND_KITCHEN = "in_hand_kitchen"    # G-3.10, G-3.16: strictly behind the head string


class FoulKind(str, Enum):
    """Kinds of foul, each produced by some referee. Disciplines may append members (one line
    each). Not kinds: a bad placement (G-3.22) and any illegal declaration are refused with
    `IllegalActionError`; SP-6.7.5's intentional foul (touching moving balls) cannot happen
    in the simulator."""

    SCRATCH = "scratch"                          # G-3.20 cue ball pocketed
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"    # G-3.28
    OBJECT_BALL_OFF_TABLE = "object_ball_off_table"  # G-3.28
    NO_BALL_HIT = "no_ball_hit"                  # G-3.18
    WRONG_BALL_FIRST = "wrong_ball_first"        # G-3.18 / 9B-5.8 / 8B-4.11
    NO_RAIL_AFTER_CONTACT = "no_rail_after_contact"  # G-3.19(b) / 9B-5.9
    FROZEN_BALL_RULE = "frozen_ball_rule"        # G-3.38
    KITCHEN_RULE = "kitchen_rule"                # G-3.39, G-3.10, GW-P4
    ILLEGAL_BREAK = "illegal_break"              # 9B-5.4, 8B-4.5, SP-6.6
    ILLEGAL_JUMP = "illegal_jump"                # G-3.26 / C-55 elevated cue, tip below centre
    MISCUE = "miscue"                            # G-3.27 / C-55 miscue on a jump stroke
    THIRD_CONSECUTIVE_FOUL = "third_consecutive_foul"  # 9B-5.13, SP-6.12
    FROZEN_RAIL_SAFETY = "frozen_rail_safety"    # SP-6.7.2
    EIGHT_FIRST_CONTACT = "eight_first_contact"  # 8B-4.15
    DOUBLE_HIT = "double_hit"                    # G-3.23 / R-2.20 heuristic
    OVERSCORE = "overscore"                      # CW-6.4 past 90, C-38 past 100 (Cowboy)
    POT_NOT_ALLOWED = "pot_not_allowed"          # CW-6.5 object ball pocketed while scoring 91-100
    CUE_BALL_TOUCHED_OTHER = "cue_ball_touched_other"  # CW-6.6 at 100 the cue ball touches a ball other than the 1
    UNCLOSED_PAIR = "unclosed_pair"              # CR-9.1 / CR-9.3 partner of an open cribbage not pocketed
    NO_CARD_FOR_BALL = "no_card_for_ball"        # CB-11 pocketed a ball without holding its card


@dataclass(frozen=True)
class Foul:
    """A foul: its kind and the rule ID (exactly as in ``shared/rules``) that applies."""

    kind: FoulKind
    rule: str


class Option(str, Enum):
    """Choices of the seat to act in :attr:`Phase.OPTION`.

    APPEND-ONLY: the eight-ball and 14.1 engineers may append members, one line each.
    """

    ACCEPT_TABLE = "accept_table"        # shoot from the position (9B-5.6, 8B-4.5, SP-6.6)
    PASS_BACK = "pass_back"              # hand the shot back (9B-5.6 after a push-out)
    RERACK_AND_BREAK = "rerack_and_break"  # incoming player re-racks and breaks (8B-4.5)
    OPPONENT_REBREAKS = "opponent_rebreaks"  # offender must break again (8B-4.5, SP-6.6)
    SPOT_EIGHT_AND_PLAY = "spot_eight_and_play"  # 8B-4.8
    BREAK = "break"                      # G-3.7 lag winner takes the break
    CEDE_BREAK = "cede_break"            # G-3.7 lag winner gives the break away
    SPOT_NEAREST_KITCHEN_BALL = "spot_nearest_kitchen_ball"  # GW-5 request
    DECLINE = "decline"                  # decline an optional request (e.g. GW-5)
    CUE_IN_HAND_KITCHEN = "cue_in_hand_kitchen"  # 8B-4.7 / C-12 take cue ball in hand behind the head string
    OFFER_STALEMATE = "offer_stalemate"  # 8B-4.21 / GW-12 propose a stalemate by agreement
    ACCEPT_STALEMATE = "accept_stalemate"  # 8B-4.21 / GW-12 agree to the proposed stalemate
    SIDE_POCKET_LEFT = "side_pocket_left"  # 1S-7.3 breaker's target pocket for the 1: left side pocket (lc)
    SIDE_POCKET_RIGHT = "side_pocket_right"  # 1S-7.3 breaker's target pocket for the 1: right side pocket (rc)
    OFFENDER_SHOOTS_AGAIN = "offender_shoots_again"  # PP-13 / OB-12 the offender shoots again from the position
    SPOT_PENALTY_BALL = "spot_penalty_ball"  # 41-13 / C-41 player_choice: the fouler designates the pocketed ball to spot


class BreakOrder(str, Enum):
    """G-3.36 / GB-29 / 9B-5.3 / 8B-4.4: who breaks the next game (C-06)."""

    WINNER = "winner"
    ALTERNATE = "alternate"
    LOSER = "loser"
    TRAILING = "trailing"


class SpotFrontOrder(str, Enum):
    """C-07: order of balls spotted in front of the foot spot (G-3.32 vs GB-26)."""

    LOWEST_NEAREST_FOOT_SPOT = "lowest_nearest_foot_spot"  # G-3.32 (default)
    LOWEST_FARTHEST = "lowest_farthest"                    # GB-26


# ----------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class ShotAction:
    """A stroke with its declaration.

    V0, phi, theta, a, b: cue parameters exactly as ``physics.Shot`` (m/s, degrees CCW
    from +x, cue elevation degrees, tip offsets as fractions of R).
    called_ball / called_pocket: the call (G-3.4, GW-6); pocket index in
    ``physics.Table.POCKET_NAMES`` order (lb lc lt rb rc rt).
    safety: declared safety (GW-6, 8B-4.12, SP-6.7.4).
    push_out: declared push-out (9B-5.6).
    """

    V0: float
    phi: float
    theta: float = 0.0
    a: float = 0.0
    b: float = 0.0
    called_ball: Optional[int] = None
    called_pocket: Optional[int] = None
    safety: bool = False
    push_out: bool = False

    @classmethod
    def _fast(cls, V0: float, phi: float, theta: float, a: float, b: float, called_ball, called_pocket,
              safety: bool, push_out: bool) -> "ShotAction":
        """Construct without the frozen-dataclass ``__init__`` (the envs decode one per table
        and step; the same object as ``ShotAction(...)``, which has no ``__post_init__``)."""
        obj = object.__new__(cls)
        obj.__dict__.update({"V0": V0, "phi": phi, "theta": theta, "a": a, "b": b, "called_ball": called_ball,
                             "called_pocket": called_pocket, "safety": safety, "push_out": push_out})
        return obj

    def shot_array(self) -> np.ndarray:
        """(5,) float64 [V0, phi, theta, a, b] -- the batched physics shot row."""
        return np.array([self.V0, self.phi, self.theta, self.a, self.b], dtype=np.float64)


@dataclass(frozen=True)
class PlaceCueBall:
    """Place the cue ball in hand at table coordinates (x, y) in metres (GW-5, G-3.10)."""

    x: float
    y: float

    @classmethod
    def _fast(cls, x: float, y: float) -> "PlaceCueBall":
        """Construct without the frozen-dataclass ``__init__`` (the same object; hot path)."""
        obj = object.__new__(cls)
        obj.__dict__.update({"x": x, "y": y})
        return obj


@dataclass(frozen=True)
class ChooseOption:
    """Choose one of the offered :class:`Option` values.

    ball: the object ball the option names, where the rules let the player designate one
    (GW-5 / SP-6.7.7: of the balls equally near the head string, the one to spot; 41-13 /
    C-41: of the fouler's pocketed balls, the one to spot -- one of
    `ActionSpec.spot_choices`; None there = the first of them); None otherwise.
    """

    option: Option
    ball: Optional[int] = None


@dataclass(frozen=True)
class Concede:
    """The seat to act concedes the game (GW-11, T-1.14): the opponent wins."""


class Declaration(str, Enum):
    """Claims and requests a seat makes as its own act, offered only in their window
    (``ActionSpec.declarations``). Append-only, one line each."""

    PASS = "pass"                    # close this seat's declaration window without a claim
    CLAIM_41 = "claim_41"            # 41-9.6: my points plus my pea make exactly 41
    DECLARE_BUST = "declare_bust"    # 41-9.7: my total is over 41
    DRAW_NEW_PEA = "draw_new_pea"    # 41-9.7 / C-40: after a bust, take a new pea
    ANNOUNCE_OWN_BALL = "announce_own_ball"  # PP-7V: my private ball was pocketed by another player


@dataclass(frozen=True)
class Declare:
    """Make ``declaration`` (one of ``legal_actions(state).declarations``)."""

    declaration: Declaration


class EventType(str, Enum):
    """Kinds of public events in ``GameState.history`` / ``Verdict.events``. Append-only."""

    DRAW_PEA = "draw_pea"          # 41-5 / PP-5: ``seat`` drew a pea (its number is private)
    RETURN_PEA = "return_pea"      # 41-9.7 / C-40: ``seat`` put its pea back in the bottle
    DEAL = "deal"                  # CB-8.2: ``seat`` was dealt ``value`` cards (private)
    DRAW_CARD = "draw_card"        # CB-9: ``seat`` drew a penalty card (private)
    SET_ASIDE = "set_aside"        # CB-9: card ``value`` (public) set aside, its ball is off the table
    DISCARD = "discard"            # CB-8.4: ``seat`` discarded ``value`` cards of a pocketed ball's rank
    REVEAL = "reveal"              # 41-9.6 / PP-3: ``seat`` showed its pea ``value`` as proof
    DECLARED = "declared"          # ``seat`` made declaration ``value`` (index in Declaration)
    ELIMINATED = "eliminated"      # CT-9.3: ``seat`` is out until a foul brings it back
    REENTERED = "reentered"        # CT-9.3 / CT-13: ``seat`` is back in the game
    DISQUALIFIED = "disqualified"  # 41-9.7, PP-7V, MM-8.4: ``seat`` is out for the rest of the game
    RERACK = "rerack"              # OB-7, OB-8.4: a new rack was drawn (``value`` = rack number)
    TIE_DRAW = "tie_draw"          # CB-8.7: ``seat`` won the high-card draw among tied seats


@dataclass(frozen=True)
class SeatEvent:
    """One public event: its kind, the seat it concerns (-1 none) and a public value
    (-1 none). Chance outcomes appear here without their private values."""

    kind: EventType
    seat: int = -1
    value: int = -1


Action = Any  # ShotAction | PlaceCueBall | ChooseOption | Concede | Declare


# ----------------------------------------------------------------------------- verdict
@dataclass(frozen=True)
class Verdict:
    """The referee's ruling on one action (DESIGN 5). No free-text reasons.

    fouls: fouls committed (at most one is penalised, G-3.30; all detected are listed,
        most severe first).
    legal_pocketed: balls pocketed that count for the shooter.
    pocketed: every object ball that dropped on this shot (with or without counting).
    points: per seat, points scored on this action (14.1; zeros elsewhere).
    next_seat: the seat to act next.
    cue_ball: how the next shooter gets the cue ball.
    options: options offered to ``next_seat`` (empty unless an OPTION phase follows).
    spotted: balls put back on the table (G-3.32), in spotting order.
    game_over / winner: result (winner None with game_over = draw/stalemate).
    rule_refs: other rule IDs applied (e.g. "9B-5.6" for a legal push-out).
    turn_continues: the shooter stays at the table.
    events: public :class:`SeatEvent` of this action (chance draws, declarations,
        eliminations; N-seat games), also appended to ``GameState.history``.
    """

    fouls: tuple = ()
    legal_pocketed: tuple = ()
    pocketed: tuple = ()
    points: tuple = ()
    next_seat: int = 0
    cue_ball: CueBallPlacement = CueBallPlacement.IN_POSITION
    options: tuple = ()
    spotted: tuple = ()
    game_over: bool = False
    winner: Optional[int] = None
    rule_refs: tuple = ()
    turn_continues: bool = False
    events: tuple = ()

    @property
    def is_foul(self) -> bool:
        return len(self.fouls) > 0

    @classmethod
    def _fast(cls, **fields: Any) -> "Verdict":
        """Construct without the frozen-dataclass ``__init__`` (referee hot path; the same
        object as ``Verdict(**fields)`` -- Verdict has no ``__post_init__``)."""
        obj = object.__new__(cls)
        d = obj.__dict__
        d.update(_VERDICT_DEFAULTS)
        d.update(fields)
        return obj


_VERDICT_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Verdict)}


# ----------------------------------------------------------------------------- config
@dataclass(frozen=True)
class RulesConfig:
    """General rule knobs shared by every discipline (``conflicts.md`` option keys).

    n_players: seats (2 for the WPA disciplines).
    table: WPA table size name for ``physics.Table.wpa`` ("9ft", "8ft", "7ft").
    lag: start with the G-3.6 lag phase (else seat ``first_breaker`` breaks); two seats only
        (G-3.6: the two players lag), a `ValueError` with any other ``n_players``.
    first_breaker: breaker of the first game when there is no lag.
    break_order: G-3.36 / C-06 (winner, alternate, loser, trailing).
    split_hit_eps: T-1.16.4 / R-2.10 time tolerance (s) for split hits.
    frozen_eps: C-08 distance (m) under which a ball counts as frozen (G-3.38).
    frozen_rule_enabled: C-08 apply G-3.38.
    kitchen_return_requires_foot_rail: C-09 (GB-7 instead of G-3.10).
    kitchen_spot_request: C-10 allow the GW-5 "spot the nearest ball" request.
    spot_front_order: C-07.
    stalemate_innings: GW-12 stand-in for the referee: after this many consecutive
        innings (turns at the table) with no ball pocketed the game is a stalemate;
        0 disables.
    max_shots: hard cap on shots per game (safety net for random play); 0 disables.
        When reached, the game ends as a stalemate (draw).
    miscue_limit: largest tip offset sqrt(a^2 + b^2) (fraction of R) that strikes cleanly
        (physics CueParams.miscue_limit). G-3.27 / C-55: an elevated stroke (theta > 0, a
        jump attempt) beyond it is a miscue, a foul the referee calls (the stroke is played
        with its offset scaled back onto this limit); a level stroke beyond it is refused.
        Offsets beyond 1 (the tip misses the ball) are always refused.
    dig_under_theta: G-3.26 / C-55: a stroke with cue elevation > this (deg) and a
        below-centre tip offset (b < 0) is an illegal jump, a foul the referee calls.
        Default 1 degree: C-55's "elevation > 0" read with a tolerance for a level stroke,
        so that execution noise on the elevation (ICGA: sigma 0.1 deg, clipped at 0) does
        not turn every other level draw stroke into a dig-under jump; 0 is the literal
        reading.
    double_hit_gap: R-2.20 heuristic (no cue model): if the cue ball starts within this gap
        (m) of the ball it contacts first and ends more than half a ball diameter (R) further
        along the line toward that ball, the stroke is a double hit (G-3.23). 0 disables.
    rack_gap: gap (m) between racked balls (T-1.16.5 "as tight as possible"; a tiny gap
        keeps the physics well conditioned).
    spot_gap: gap (m) left between a spotted ball and an interfering cue ball (G-3.32.3).
    """

    n_players: int = 2
    table: str = "9ft"
    lag: bool = False
    first_breaker: int = 0
    break_order: BreakOrder = BreakOrder.WINNER
    split_hit_eps: float = 1e-4
    frozen_eps: float = 1e-4
    frozen_rule_enabled: bool = True
    kitchen_return_requires_foot_rail: bool = False
    kitchen_spot_request: bool = True
    spot_front_order: SpotFrontOrder = SpotFrontOrder.LOWEST_NEAREST_FOOT_SPOT
    stalemate_innings: int = 0
    max_shots: int = 500
    miscue_limit: float = 0.5
    dig_under_theta: float = 1.0
    double_hit_gap: float = 0.0
    rack_gap: float = 1e-6
    spot_gap: float = 1e-3

    def __post_init__(self) -> None:
        if not isinstance(self.n_players, int) or self.n_players < 1:
            raise ValueError(f"n_players must be a positive int, got {self.n_players!r}")
        if not (0 <= self.first_breaker < self.n_players):
            raise ValueError(f"first_breaker must be in [0, n_players), got {self.first_breaker!r}")
        if self.lag and self.n_players != 2:
            raise ValueError(f"lag (G-3.6) is for two seats; set lag=False with {self.n_players} seat(s)")
        for name in ("split_hit_eps", "frozen_eps", "rack_gap", "spot_gap", "miscue_limit", "dig_under_theta",
                     "double_hit_gap"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and np.isfinite(v) and v >= 0):
                raise ValueError(f"{name} must be a finite non-negative number, got {v!r}")
        if self.miscue_limit > 1.0:
            raise ValueError(f"miscue_limit must be <= 1 (fraction of R), got {self.miscue_limit!r}")
        if self.dig_under_theta > 90.0:
            raise ValueError(f"dig_under_theta must be <= 90 degrees, got {self.dig_under_theta!r}")
        for name in ("stalemate_innings", "max_shots"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 0:
                raise ValueError(f"{name} must be a non-negative int, got {v!r}")
        if not isinstance(self.break_order, BreakOrder):
            object.__setattr__(self, "break_order", BreakOrder(self.break_order))
        if not isinstance(self.spot_front_order, SpotFrontOrder):
            object.__setattr__(self, "spot_front_order", SpotFrontOrder(self.spot_front_order))


# ----------------------------------------------------------------------------- state
@dataclass(frozen=True)
class GameState:
    """One game position. Immutable; evolve with :meth:`replace`.

    Balls: N rows (row 0 cue ball, row k object ball k, as physics/CONTRACT.md).
    ``pos`` is the flat tuple (x0, y0, x1, y1, ...) of ball centres (metres); ``on_table``
    the per-ball mask. A ball off the table keeps its last position (meaningless).
    The cue ball is "on the table" only when in position or once placed.

    discipline: registry name ("nine_ball", "eight_ball", "straight_pool").
    config: frozen discipline config (a :class:`RulesConfig` subclass).
    seat_to_act / phase / cue_ball: who decides what now, and how the cue ball is held.
    cue_placed: in-hand cue ball has been placed (may still be re-placed until the shot).
    options: options offered in :attr:`Phase.OPTION`.
    scores: per seat (points in 14.1, unused elsewhere).
    consecutive_fouls: per seat (9B-5.13, SP-6.12; the warning state, R-2.16/C-67).
    inning: turns at the table so far this game; shot_number: shots so far this game.
    breaker: seat that broke (or will break) this game.
    groups: per seat discipline-defined group id (8-ball: 0 open, 1 solids, 2 stripes).
    extra: discipline-specific frozen dataclass (or None).
    rng: (seed, counter) -- chance is drawn from ``numpy.random.default_rng([seed, counter])``
        and the counter advances on every draw (see :func:`poolgym.rules.game.draw_rng`).
    winner: seat that won this game (None while running, or for a draw).
    game_number / games_won: match bookkeeping for the break order (G-3.36).
    stall_innings: consecutive innings with no ball pocketed (GW-12 stalemate counter).
    lag_results: G-3.6 lag results per seat (distance to head rail, or -1.0 = bad), once
        both have lagged (until the winner's G-3.7 choice).
    lag_strokes: the lag strokes played so far, each (V0, phi, theta, a, b): seat 0's stroke
        waits here until seat 1 strokes, then both are played at once (G-3.6 "they shoot
        simultaneously", :mod:`poolgym.rules.lag`).

    Seats (N-seat games; every field below is empty for the WPA games and then absent
    from the JSON, see API.md "Seats"):
    teams: team id per seat (empty = every seat for itself).
    active: per seat, still in this game (False = eliminated or disqualified); empty = all.
    order: seats in order of play (empty = 0, 1, ..., N-1).
    private: per seat its secret (a frozen dataclass, e.g. a pea or a hand), or None.
        Read only through :func:`poolgym.rules.seats.observe` (own entry only).
    hidden: chance state known to no seat (the peas left in the bottle, the deck), or None.
    history: public :class:`SeatEvent` so far this game (chance draws without values).
    pending: seats whose declaration window is still to come after the current one, then
        the seat that plays next (``Phase.DECLARE`` bookkeeping; empty otherwise).
    """

    discipline: str
    config: Any
    pos: tuple
    on_table: tuple
    seat_to_act: int = 0
    phase: Phase = Phase.BREAK
    cue_ball: CueBallPlacement = CueBallPlacement.IN_HAND_KITCHEN
    cue_placed: bool = False
    options: tuple = ()
    scores: tuple = (0, 0)
    consecutive_fouls: tuple = (0, 0)
    inning: int = 0
    shot_number: int = 0
    breaker: int = 0
    groups: tuple = (0, 0)
    extra: Any = None
    rng: tuple = (0, 0)
    winner: Optional[int] = None
    game_number: int = 0
    games_won: tuple = (0, 0)
    stall_innings: int = 0
    lag_results: tuple = ()
    lag_strokes: tuple = ()
    teams: tuple = ()
    active: tuple = ()
    order: tuple = ()
    private: tuple = ()
    hidden: Any = None
    history: tuple = ()
    pending: tuple = ()

    # -- convenience -------------------------------------------------------
    @property
    def n_balls(self) -> int:
        """N rows (cue ball included)."""
        return len(self.on_table)

    @property
    def n_players(self) -> int:
        return len(self.scores)

    def positions(self) -> np.ndarray:
        """(N, 2) float64 copy of the ball centres."""
        return np.asarray(self.pos, dtype=np.float64).reshape(-1, 2)

    def on_mask(self) -> np.ndarray:
        """(N,) bool copy of ``on_table``."""
        return np.asarray(self.on_table, dtype=bool)

    def balls_on_table(self) -> tuple:
        """Object ball numbers on the table, ascending."""
        on = self.on_table
        return tuple(compress(range(1, len(on)), on[1:]))

    def lowest_ball(self) -> Optional[int]:
        """Lowest-numbered object ball on the table (9B-5.1) or None."""
        try:
            return self.on_table.index(True, 1)
        except ValueError:
            return None

    @property
    def game_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def replace(self, **changes: Any) -> "GameState":
        """A copy with ``changes`` applied (like dataclasses.replace, without re-running
        __init__: GameState has no __post_init__, so this is equivalent and ~10x faster)."""
        bad = changes.keys() - _STATE_FIELDS
        if bad:
            raise TypeError(f"GameState has no field(s) {sorted(bad)}")
        new = object.__new__(GameState)
        d = self.__dict__.copy()  # (a copy, then set as the dict: ~2x faster than filling a new one)
        d.update(changes)
        _set_attr(new, "__dict__", d)
        return new

    def _evolve(self, changes: dict) -> "GameState":
        """:meth:`replace` for the referees' hot path: ``changes`` holds field names only
        (not checked)."""
        new = object.__new__(GameState)
        d = self.__dict__.copy()
        d.update(changes)
        _set_attr(new, "__dict__", d)
        return new

    def with_cue_at(self, x: float, y: float) -> "GameState":
        """The state with the cue ball placed at (``x``, ``y``): on the table and
        ``cue_placed`` set. The placement's legality (G-3.22, 9B-5.10, G-3.16) is the
        caller's to check (`DisciplineBase._place`)."""
        return self._evolve({"pos": (x, y) + self.pos[2:], "on_table": (True,) + self.on_table[1:],
                             "cue_placed": True})

    def to_json(self) -> str:
        return serialize.to_json(self)

    @staticmethod
    def from_json(text: str) -> "GameState":
        obj = serialize.from_json(text)
        if not isinstance(obj, GameState):
            raise ValueError("JSON does not hold a GameState")
        return obj


_STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(GameState))
_set_attr = object.__setattr__


@dataclass(frozen=True)
class ActionSpec:
    """What the seat to act may do now (``legal_actions``). Shots are continuous, so
    the spec describes them rather than enumerating them.

    seat, phase: as in the state.
    can_shoot: a ShotAction is legal now.
    place_cue: placement region if PlaceCueBall is legal now (None otherwise).
    must_place: the cue ball must be placed before shooting.
    options: ChooseOption values legal now.
    target_balls: legal first-contact balls (the "ball on").
    callable_balls: balls that may be called (call games; else empty).
    call_required: a called ball+pocket is required on this shot (None call = illegal);
        disciplines with "obvious shots" set it False and accept an optional call.
    safety_allowed / push_out_allowed: declarations allowed on this shot.
    declarations: :class:`Declaration` values legal now (their window is open; N-seat games).
    spot_choices: the balls `Option.SPOT_NEAREST_KITCHEN_BALL` may spot (GW-5, SP-6.7.7):
        the object balls nearest the head string; or, in :attr:`Phase.OPTION`, the balls an
        offered option names (`Option.SPOT_PENALTY_BALL`, 41-13 / C-41: the fouler's pocketed
        balls). When more than one, the player designates one with
        ``ChooseOption(option, ball=k)``. Empty when no such option is offered.
    """

    seat: int
    phase: Phase
    can_shoot: bool = False
    place_cue: Optional[CueBallPlacement] = None
    must_place: bool = False
    options: tuple = ()
    target_balls: tuple = ()
    callable_balls: tuple = ()
    call_required: bool = False
    safety_allowed: bool = False
    push_out_allowed: bool = False
    declarations: tuple = ()
    spot_choices: tuple = ()

    @property
    def has_action(self) -> bool:
        """The seat may do something now: shoot, place the cue ball, choose an option or
        declare (a running game always offers one of them)."""
        return bool(self.can_shoot or self.must_place or self.options or self.declarations)


def _import_disciplines() -> None:
    """Import every registered discipline module (they register their types on import). An
    import error propagates: it is a broken module, not an unknown type."""
    import importlib

    for path in DISCIPLINE_PATHS.values():
        importlib.import_module(path.split(":")[0])


serialize.register(Phase, CueBallPlacement, FoulKind, Foul, Option, BreakOrder, SpotFrontOrder, ShotAction,
                   PlaceCueBall, ChooseOption, Concede, Verdict, RulesConfig, GameState, ActionSpec, Declaration,
                   Declare, EventType, SeatEvent)
serialize.omit_at_default(GameState, {"teams": (), "active": (), "order": (), "private": (), "hidden": None,
                                      "history": (), "pending": (), "lag_strokes": ()})
serialize.omit_at_default(Verdict, {"events": ()})
serialize.omit_at_default(ActionSpec, {"declarations": (), "spot_choices": ()})
serialize.omit_at_default(ChooseOption, {"ball": None})
serialize.add_loader(_import_disciplines)
