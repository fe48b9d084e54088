"""What the scoring and shot-type games share: the opening of a referee's ruling (the
stroke's facts, jumped balls and table after it; the general.md 7.2 fouls with the game's
rule IDs), handing the table to the next seat, putting the cue ball in hand, spotting, the
balls pocketed in a called pocket. (Seats out of the game
and the order of play are :mod:`poolgym.rules.seats`.)

All functions are pure: they read a state and return new values; the referees build their
new state from the ``changes`` dict these helpers fill (the pattern of
:meth:`poolgym.rules.core.GameState._evolve`).
"""
from __future__ import annotations

from typing import Iterable, Optional

from .. import general, queries as q
from ..core import CueBallPlacement, GameState, Phase
from ..geometry import ball_radius, get_table

__all__ = ["shot_opening", "game_fouls", "hand_over", "spot_into", "pocketed_in"]


def shot_opening(state: GameState, rec, legal: Optional[tuple] = None) -> tuple:
    """``(facts, jumped, changes)`` of the stroke ``rec`` played from ``state``: its
    :func:`poolgym.rules.queries.shot_facts` (``legal``: the balls the cue ball may contact
    first, None = any), the object balls that left the table (G-3.28) and a ``changes`` dict
    holding the table after it (:func:`poolgym.rules.general.after_shot`), the next shot
    number and no options."""
    f = q.shot_facts(rec, get_table(state.config.table), legal, state.config.split_hit_eps)
    jumped = tuple(b for b in f.jumped if b != 0)
    pos, on = general.after_shot(state, rec)
    return f, jumped, {"pos": pos, "on_table": on, "shot_number": state.shot_number + 1, "options": ()}


def game_fouls(state: GameState, action, rec, facts, legal: tuple = (), **rules) -> tuple:
    """:func:`poolgym.rules.general.standard_fouls` of the stroke ``action`` / ``rec`` from
    ``state`` with its ``facts`` (:func:`shot_opening`): the kitchen rules apply when the cue
    ball was in hand behind the head string (G-3.10, G-3.39); ``legal`` and ``rules``
    (``require_rail``, ``jumped_is_foul``, the game's ``no_hit`` / ``no_rail`` / ... fouls)
    as there."""
    return general.standard_fouls(rec, get_table(state.config.table), ball_radius(), state.config, legal,
                                  kitchen=state.cue_ball is CueBallPlacement.IN_HAND_KITCHEN, facts=facts,
                                  stroke=action, **rules)


def hand_over(state: GameState, changes: dict, seat: int, cue: CueBallPlacement, *, new_inning: bool = True,
              phase: Phase = Phase.PLAY) -> dict:
    """Fill ``changes`` so that ``seat`` acts next in ``phase`` with the cue ball ``cue``:
    in hand (G-3.10 behind the head string / GB-8 anywhere) takes the cue ball off the
    table until placed; in position keeps it where it stopped. ``new_inning``: a new turn
    at the table begins (G-3.17)."""
    changes.update(seat_to_act=seat, phase=phase, cue_ball=cue, cue_placed=False, options=(),
                   inning=state.inning + (1 if new_inning else 0))
    if cue is not CueBallPlacement.IN_POSITION:
        on = changes.get("on_table", state.on_table)
        changes["on_table"] = (False,) + tuple(on[1:])
    return changes


def spot_into(state: GameState, changes: dict, balls: Iterable[int]) -> tuple:
    """Spot ``balls`` (G-3.32, on the long string from the foot spot) into the position held
    in ``changes`` (``pos`` / ``on_table``, else the state's); returns the spotted balls in
    ascending order (their rows are marked on the table)."""
    balls = tuple(sorted(set(int(b) for b in balls)))
    if not balls:
        return ()
    cur = state._evolve({"pos": changes.get("pos", state.pos), "on_table": changes.get("on_table", state.on_table)})
    on = list(cur.on_table)
    for b in balls:
        on[b] = False
    cur = cur._evolve({"on_table": tuple(on)})
    sp = general.spot(cur, balls, get_table(state.config.table), ball_radius())
    changes["pos"], changes["on_table"] = sp.pos, sp.on_table
    return balls


def pocketed_in(rec, pocket: Optional[int]) -> tuple:
    """Object balls that dropped in ``pocket`` on this shot, ascending."""
    if pocket is None:
        return ()
    return tuple(int(k) for k in range(1, rec.pocket.shape[0]) if int(rec.pocket[k]) == int(pocket))
