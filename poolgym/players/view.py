"""What a seat sees (`Observation`) and the planning view of it (`View`): numpy positions,
legal targets and what to do now.

The players (the geometric player here, the agents) all reduce the rules' `GameState` +
`ActionSpec` to this small record before thinking; it is the only place that reads the rules'
types, so the players stay short. Decision order follows the rules' phases (poolgym.rules.core.Phase):

1. ``spec.phase`` is OPTION -> a `ChooseOption` is due (push-out reply 9B-5.6, illegal-break
   options 8B-4.5 / SP-6.6, lag winner's choice G-3.7, ...);
2. ``spec.must_place`` -> a `PlaceCueBall` is due (ball in hand GB-8 / GW-5 / 9B-5.10, or
   behind the head string G-3.10);
3. ``spec.can_shoot`` -> a `ShotAction` (a break in `Phase.BREAK`).

In a declaration window (``Phase.DECLARE``, N-seat games) a `Declare` is due (Decision.DECLARE);
the players make the declarations the rules open (`declared`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from poolgym.planning import TableGeom, table_geom
from poolgym.rules.core import CueBallPlacement, Phase


@dataclass(frozen=True)
class Observation:
    """What one seat may see when it must act.

    Attributes:
        state: the rules `GameState` (the seat's view of it).
        spec: the rules' legal-action spec for `state` (`Discipline.legal_actions(state)`).
        table: the `physics.Table` the game is played on.
        seat: the seat that acts (== state.seat_to_act).
        discipline: discipline name ("nine_ball", "eight_ball", "straight_pool", ...).
    """

    state: Any
    spec: Any
    table: Any
    seat: int
    discipline: str


class Decision(str, Enum):
    """Kind of action the seat must produce now."""

    OPTION = "option"
    PLACE = "place"
    SHOOT = "shoot"
    DECLARE = "declare"
    NONE = "none"


@dataclass(frozen=True)
class View:
    """Numpy view of what the seat sees.

    Attributes:
        decision: which kind of action is due.
        geom: table geometry.
        balls: (N, 2) ball centres; on: (N,) on-table mask (the cue ball is on only when in
            position or placed).
        targets: legal first-contact balls.
        pot_balls: balls worth pocketing directly (targets, restricted to callable balls when a
            call is required, then to the balls the rules say serve this seat, `useful_pots`).
        call_required, safety_allowed, push_out_allowed: from the spec.
        kitchen: a placement must be behind the head string.
        is_break: the next shot is the opening break.
        is_lag: the next shot is a lag shot (G-3.6): no declarations, no object balls.
        danger: balls that lose the game if pocketed now or hit first (eight-ball: the 8 while
            it is not the ball on, 8B-4.19 / 8B-4.20); paths keep extra clearance from them.
        options: the offered options (in Phase.OPTION: one must be chosen; otherwise optional
            requests such as the GW-5 kitchen spot, taken instead of placing/shooting).
    """

    decision: Decision
    geom: TableGeom
    balls: np.ndarray
    on: np.ndarray
    targets: tuple
    pot_balls: tuple
    call_required: bool
    safety_allowed: bool
    push_out_allowed: bool
    kitchen: bool
    is_break: bool
    is_lag: bool
    options: tuple
    danger: tuple
    callable_balls: tuple


@dataclass(frozen=True)
class SpecView:
    """What the rules' `ActionSpec` asks of the seat, as the players read it (the fields of
    `View` that depend on the spec only; ``pot_balls`` before `useful_pots`)."""

    decision: Decision
    targets: tuple
    pot_balls: tuple
    callable_balls: tuple
    call_required: bool
    safety_allowed: bool
    push_out_allowed: bool
    kitchen: bool
    is_break: bool
    is_lag: bool
    options: tuple


_SPEC_VIEWS: dict = {}
_SPEC_VALUES: dict = {}
#: entries of each memo of `spec_view` before it is emptied (a six-seat BCA game on 256 tables
#: meets some 600 new spec values a step: its first-contact balls are the balls on the table)
SPEC_MEMO_SIZE = 16384


def spec_view(spec) -> SpecView:
    """The `SpecView` of ``spec``, memoised per spec object (the rules memoise most of their
    specs, so the same few objects recur) and per spec value (equal specs, equal views)."""
    got = _SPEC_VIEWS.get(id(spec))
    if got is not None and got[0] is spec:
        return got[1]
    # the fields the view reads; enum members by identity (they are singletons, and hashing
    # an Enum runs Python code)
    try:
        key = (id(spec.phase), id(spec.place_cue), spec.must_place, spec.can_shoot, bool(spec.declarations),
               tuple(map(id, spec.options)), spec.target_balls, spec.callable_balls, spec.call_required,
               spec.safety_allowed, spec.push_out_allowed)
        sv = _SPEC_VALUES.get(key)
    except TypeError:  # unhashable ball lists: not memoised by value
        return _spec_view(spec)
    if sv is None:
        sv = _spec_view(spec)
        if len(_SPEC_VALUES) > SPEC_MEMO_SIZE:
            _SPEC_VALUES.clear()
        _SPEC_VALUES[key] = sv
    if len(_SPEC_VIEWS) > SPEC_MEMO_SIZE:
        _SPEC_VIEWS.clear()
    _SPEC_VIEWS[id(spec)] = (spec, sv)  # the spec is kept alive: its id stays unique
    return sv


def _spec_view(spec) -> SpecView:
    phase = spec.phase
    if phase is _P_DECLARE and spec.declarations:
        decision = Decision.DECLARE
    elif phase is _P_OPTION and spec.options:
        decision = Decision.OPTION
    elif spec.must_place:
        decision = Decision.PLACE
    elif spec.can_shoot:
        decision = Decision.SHOOT
    else:
        decision = Decision.NONE
    targets = tuple(map(int, spec.target_balls))
    callable_balls = tuple(map(int, spec.callable_balls))
    if spec.call_required and callable_balls:
        pot = tuple(b for b in targets if b in callable_balls) or callable_balls
    else:
        pot = targets
    # the frozen dataclass's fields set directly (its __init__ sets them one by one: a view is
    # made for every new spec, some 600 a step in a six-seat game)
    sv = object.__new__(SpecView)
    sv.__dict__.update({"decision": decision, "targets": targets, "pot_balls": pot, "callable_balls": callable_balls,
                        "call_required": bool(spec.call_required), "safety_allowed": bool(spec.safety_allowed),
                        "push_out_allowed": bool(spec.push_out_allowed),
                        "kitchen": spec.place_cue is _IN_HAND_KITCHEN, "is_break": phase is _P_BREAK,
                        "is_lag": phase is _P_LAG, "options": tuple(spec.options)})
    return sv


#: enum members `_spec_view` compares by identity
_P_DECLARE, _P_OPTION, _P_BREAK, _P_LAG = Phase.DECLARE, Phase.OPTION, Phase.BREAK, Phase.LAG
_IN_HAND_KITCHEN = CueBallPlacement.IN_HAND_KITCHEN


def view_of(obs, balls: np.ndarray | None = None, on: np.ndarray | None = None) -> View:
    """Build the `View` of an `Observation`; ``balls`` / ``on``: the state's positions and
    on-table mask when the caller has them as arrays already (a batch of tables)."""
    state = obs.state
    sv = spec_view(obs.spec)
    return View(
        decision=sv.decision,
        geom=table_geom(obs.table),
        balls=state.positions() if balls is None else balls,
        on=state.on_mask() if on is None else on,
        targets=sv.targets,
        pot_balls=_kitchen_pots(sv, state, obs, useful_pots(obs.discipline, state, obs.seat, sv.pot_balls), balls),
        call_required=sv.call_required,
        safety_allowed=sv.safety_allowed,
        push_out_allowed=sv.push_out_allowed,
        kitchen=sv.kitchen,
        is_break=sv.is_break,
        is_lag=sv.is_lag,
        options=sv.options,
        danger=danger_balls(obs.discipline, state, sv.targets),
        callable_balls=sv.callable_balls,
    )


def shot_call(sv, ball, pocket) -> tuple:
    """(called_ball, called_pocket) of a pot of ``ball`` into ``pocket`` for ``sv`` (a `View`,
    `SpecView` or the rules' `ActionSpec`; ``ball`` one the view lets it pot): (None, None)
    when the rules take no call; the pocket alone when a call is required but no ball may be
    named (1S-7.2: a pocket on every shot, 1S-7.4: only the 1 may be named -- once the 1 is
    down); else both."""
    if not (sv.call_required or sv.callable_balls):
        return None, None
    if not sv.callable_balls:
        return None, pocket
    return ball, pocket


def declared(spec):
    """The `Declare` a player makes now, or None: every claim or request the rules open is
    true or owed (41-9.6 a 41 claim only at 41, 41-9.7 a bust only over it, PP-7V an
    announcement only for one's own pea ball), so the first that is not ``PASS`` is made, in
    its window or beside a shot; ``PASS`` closes a window with nothing else open."""
    if not spec.declarations:
        return None
    from poolgym.rules.core import Declaration, Declare, Phase

    for d in spec.declarations:
        if d is not Declaration.PASS:
            return Declare(d)
    if spec.phase is Phase.DECLARE:
        return Declare(Declaration.PASS)
    return None


def _kitchen_pots(sv, state, obs, pots: tuple, balls) -> tuple:
    if not sv.kitchen:
        return pots
    return beyond_head_string(state.positions() if balls is None else balls, table_geom(obs.table).head_string_y, pots)


def useful_pots(discipline: str, state, seat: int, pot: tuple) -> tuple:
    """``pot`` restricted to the balls the rules say serve ``seat``
    (`DisciplineBase.useful_balls`: its pea's ball, its cards' balls, balls that keep it at
    most 41, ...), when any of them is among ``pot``; else ``pot`` (every legal ball). One
    rules-level query for every game, asked on the seat's own view."""
    from poolgym.rules.game import DISCIPLINES

    if discipline not in DISCIPLINES:
        return pot
    useful = DISCIPLINES[discipline].useful_balls(state, seat)
    if useful is None:
        return pot
    keep = tuple(b for b in pot if b in useful)
    return keep or pot


def beyond_head_string(balls: np.ndarray, head_string_y: float, chosen: tuple) -> tuple:
    """``chosen`` restricted to balls on or beyond the head string (G-3.16), the balls a cue
    ball in hand in the kitchen may contact first without crossing the string (G-3.39);
    ``chosen`` itself when none of them is."""
    keep = tuple(b for b in chosen if balls[b, 1] >= head_string_y)
    return keep or chosen


def danger_balls(discipline: str, state, targets) -> tuple:
    """Balls to keep away from (see `View.danger`)."""
    if discipline == "eight_ball" and len(state.on_table) > 8 and state.on_table[8] and 8 not in targets:
        return (8,)
    return ()
