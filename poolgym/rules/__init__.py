"""poolgym.rules -- referees for pocket billiards (DESIGN.md section 5; API.md here).

Pure functions over immutable data: ``initial_state`` -> ``legal_actions(state)`` ->
``apply(state, action) -> (state, Verdict)``. Disciplines are loaded lazily from
:data:`DISCIPLINES` ("nine_ball", "eight_ball", "straight_pool").
"""
from .core import (Action, ActionSpec, BreakOrder, ChooseOption, Concede, CueBallPlacement, Declaration, Declare,
                   EventType, Foul, FoulKind, GameState, IllegalActionError, Option, Phase, PlaceCueBall, RulesConfig,
                   Seat, SeatEvent, ShotAction, SpotFrontOrder, Verdict)
from .game import (DISCIPLINES, DisciplineBase, apply, apply_shot_record, get_discipline, legal_actions, new_game,
                   next_game, observe, returns)
from .seats import SeatView
from .shot_record import EventKind, Motion, ShotRecord

__all__ = [
    "Action", "ActionSpec", "BreakOrder", "ChooseOption", "Concede", "CueBallPlacement", "Foul", "FoulKind", "GameState",
    "IllegalActionError", "Option", "Phase", "PlaceCueBall", "RulesConfig", "Seat", "ShotAction",
    "SpotFrontOrder", "Verdict", "DISCIPLINES", "DisciplineBase", "apply", "apply_shot_record",
    "get_discipline", "legal_actions", "new_game", "next_game", "EventKind", "Motion", "ShotRecord",
    "Declaration", "Declare", "EventType", "SeatEvent", "SeatView", "observe", "returns",
]
