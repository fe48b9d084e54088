"""A planning view of an `Observation`: numpy positions, legal targets and what to do now.

The baselines and the search agent all reduce the rules' `GameState` + `ActionSpec` to this
small record before thinking; it is the only place that reads the rules' types, so the agents
stay short. Decision order follows the rules' phases (poolgym.rules.core.Phase):

1. ``spec.phase`` is OPTION -> a `ChooseOption` is due (push-out reply 9B-5.6, illegal-break
   options 8B-4.5 / SP-6.6, lag winner's choice G-3.7, ...);
2. ``spec.must_place`` -> a `PlaceCueBall` is due (ball in hand GB-8 / GW-5 / 9B-5.10, or
   behind the head string G-3.10);
3. ``spec.can_shoot`` -> a `ShotAction` (a break in `Phase.BREAK`).

In a declaration window (``Phase.DECLARE``, N-seat games) a `Declare` is due (Decision.DECLARE);
the agents make the declarations the rules open (`declared`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from agents.geometry import DEFAULT_R, TableGeom

_GEOM_CACHE: dict[int, TableGeom] = {}


class Decision(str, Enum):
    """Kind of action the seat must produce now."""

    OPTION = "option"
    PLACE = "place"
    SHOOT = "shoot"
    DECLARE = "declare"
    NONE = "none"


def table_geom(table) -> TableGeom:
    """`TableGeom` of a `physics.Table` (cached per table object)."""
    key = id(table)
    g = _GEOM_CACHE.get(key)
    if g is None:
        R = DEFAULT_R if table is None else float(getattr(table, "R", DEFAULT_R))
        g = TableGeom.from_table(table, R=R) if table is not None else TableGeom.wpa()
        if len(_GEOM_CACHE) > 64:
            _GEOM_CACHE.clear()
        _GEOM_CACHE[key] = g
    return g



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


def view_of(obs) -> View:
    """Build the `View` of an `agents.base.Observation`."""
    from poolgym.rules.core import CueBallPlacement, Phase

    state, spec = obs.state, obs.spec
    if spec.phase is Phase.DECLARE and spec.declarations:
        decision = Decision.DECLARE
    elif spec.phase is Phase.OPTION and spec.options:
        decision = Decision.OPTION
    elif spec.must_place:
        decision = Decision.PLACE
    elif spec.can_shoot:
        decision = Decision.SHOOT
    else:
        decision = Decision.NONE
    targets = tuple(int(b) for b in spec.target_balls)
    callable_balls = tuple(int(b) for b in spec.callable_balls)
    if spec.call_required and callable_balls:
        pot = tuple(b for b in targets if b in callable_balls) or callable_balls
    else:
        pot = targets
    pot = useful_pots(obs.discipline, state, obs.seat, pot)
    return View(
        decision=decision,
        geom=table_geom(obs.table),
        balls=state.positions(),
        on=state.on_mask(),
        targets=targets,
        pot_balls=pot,
        call_required=bool(spec.call_required),
        safety_allowed=bool(spec.safety_allowed),
        push_out_allowed=bool(spec.push_out_allowed),
        kitchen=spec.place_cue is CueBallPlacement.IN_HAND_KITCHEN,
        is_break=spec.phase is Phase.BREAK,
        is_lag=spec.phase is Phase.LAG,
        options=tuple(spec.options),
        danger=danger_balls(obs.discipline, state, targets),
        callable_balls=callable_balls,
    )


def declared(spec):
    """The `Declare` an agent makes now, or None: every claim or request the rules open is
    true or owed (a 41 claim is offered only at 41, a bust only over it, an announcement only
    for one's own pea ball), so the first that is not PASS is made, in its window or beside a
    shot; PASS closes an empty window (`poolgym.envs.opponents.declaration_choice`)."""
    if not spec.declarations:
        return None
    from poolgym.envs.opponents import declaration_choice

    return declaration_choice(spec)


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


def danger_balls(discipline: str, state, targets) -> tuple:
    """Balls to keep away from (see `View.danger`)."""
    if discipline == "eight_ball" and len(state.on_table) > 8 and state.on_table[8] and 8 not in targets:
        return (8,)
    return ()
