"""One-shot practice disciplines on physics alone: the pot drill and the break drill.

They implement the same `poolgym.rules.game.DisciplineBase` protocol as the game referees
(so `PoolEnv` runs them unchanged) with one seat and one shot per episode. Each stores its
result in ``state.extra`` (`DrillResult`), which is the env's reward.

* `PotDrill` (``"pot_drill"``): the cue ball and the 1-ball at seeded random spots on the bed
  (at least ``margin`` from the cushion noses and ``min_separation`` apart). Result +1 if the
  1-ball is pocketed and the cue ball stays on the table (no G-3.20 scratch, no G-3.28 jump)
  on a legal stroke (no G-3.26 illegal jump, no G-3.27 miscue on a jump), else 0.
* `BreakDrill` (``"break_drill"``): a nine-ball diamond (9B-5.2: 1 on the foot spot, 9 in the
  centre, the rest at random), cue ball in hand behind the head string (G-3.8). The break is
  judged by 9B-5.4: the stroke must be legal (G-3.26, G-3.27), the 1-ball must be hit first, the cue ball must not be pocketed or leave
  the table, no object ball may leave the table, and a ball must be pocketed or at least four
  object balls driven to a cushion. Result: -1 illegal break; 0 legal break with nothing
  pocketed (the table passes to the opponent); +1 legal break with a ball pocketed (the
  breaker keeps the table), plus 0.1 per extra object ball pocketed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from poolgym.rules import general, queries
from poolgym.rules.core import (
    CueBallPlacement,
    Foul,
    FoulKind,
    GameState,
    Phase,
    RulesConfig,
    ShotAction,
    Verdict,
)
from poolgym.rules.game import DisciplineBase
from poolgym.rules.geometry import ball_radius, diamond_slots
from poolgym.rules.shot_record import Motion, ShotRecord


@dataclass(frozen=True)
class DrillResult:
    """Outcome of a drill: ``value`` (the reward) and the balls pocketed."""

    value: float = 0.0
    pocketed: tuple = ()


@dataclass(frozen=True)
class PotDrillConfig(RulesConfig):
    """Pot-drill options: ``margin`` (m) from the cushions, ``min_separation`` (m) between the
    cue ball and the object ball centres."""

    n_players: int = 1
    margin: float = 0.08
    min_separation: float = 0.15


@dataclass(frozen=True)
class BreakDrillConfig(RulesConfig):
    """Break-drill options (the general `RulesConfig` knobs, one seat)."""

    n_players: int = 1


def _after_shot(state: GameState, rec: ShotRecord) -> tuple:
    on = tuple(bool(v) for v in (rec.s1 != int(Motion.POCKETED)) & (rec.s1 != int(Motion.OFF_TABLE)))
    return tuple(np.asarray(rec.pos1, float).reshape(-1).tolist()), on


def _basic_fouls(rec: ShotRecord, legal_first: int, action: ShotAction, config) -> list:
    """The stroke fouls (G-3.26, G-3.27: `general.stroke_fouls`), then G-3.20 / G-3.28 / G-3.18."""
    fouls = list(general.stroke_fouls(action, config))
    if queries.cue_scratched(rec):
        fouls.append(Foul(FoulKind.SCRATCH, "G-3.20"))
    if queries.cue_off_table(rec):
        fouls.append(Foul(FoulKind.CUE_BALL_OFF_TABLE, "G-3.28"))
    first = queries.first_ball_hit(rec)
    if first is None:
        fouls.append(Foul(FoulKind.NO_BALL_HIT, "G-3.18"))
    elif first != legal_first:
        fouls.append(Foul(FoulKind.WRONG_BALL_FIRST, "9B-5.8"))
    return fouls


#: fouls that make a pot-drill shot fail (a pot off a wrong first ball still counts)
_FAILS_POT = (FoulKind.SCRATCH, FoulKind.CUE_BALL_OFF_TABLE, FoulKind.ILLEGAL_JUMP, FoulKind.MISCUE)


class PotDrill(DisciplineBase):
    """Cue ball + 1-ball at random spots; pocket the 1-ball in one shot."""

    name = "pot_drill"
    n_balls = 2
    config_cls = PotDrillConfig

    def rack(self, config, rng):
        R = ball_radius()
        table = self.table_for(config)
        lo = R + config.margin
        p = np.empty((2, 2))
        for _ in range(1000):
            p[:, 0] = rng.uniform(lo, table.w - lo, 2)  # x of both balls, then y
            p[:, 1] = rng.uniform(lo, table.l - lo, 2)
            if np.hypot(*(p[0] - p[1])) >= max(config.min_separation, 2.5 * R):
                return p, np.ones(2, bool)
        raise ValueError("margin/min_separation leave no room on the table")

    def table_for(self, config):
        from poolgym.rules.geometry import get_table

        return get_table(config.table)

    def initial_state(self, config=None, seed: int = 0, **kw) -> GameState:
        st = super().initial_state(config, seed, lag=False)
        return st.replace(phase=Phase.PLAY, cue_ball=CueBallPlacement.IN_POSITION, cue_placed=True,
                          extra=DrillResult())

    def shot_spec(self, state: GameState) -> dict:
        return {"target_balls": (1,) if state.on_table[1] else ()}

    def adjudicate(self, state: GameState, action: ShotAction, rec: ShotRecord):
        fouls = _basic_fouls(rec, 1, action, state.config)
        pk = queries.pocketed(rec)
        ok = 1 in pk and not any(f.kind in _FAILS_POT for f in fouls)
        pos, on = _after_shot(state, rec)
        new = state.replace(pos=pos, on_table=on, phase=Phase.GAME_OVER, winner=0 if ok else None,
                            shot_number=state.shot_number + 1, extra=DrillResult(1.0 if ok else 0.0, pk))
        v = Verdict(fouls=tuple(fouls), legal_pocketed=pk if ok else (), pocketed=pk, points=(0,),
                    next_seat=0, game_over=True, winner=new.winner)
        return new, v


class BreakDrill(DisciplineBase):
    """Nine-ball rack, cue ball in the kitchen; make a legal break (9B-5.4)."""

    name = "break_drill"
    n_balls = 10
    config_cls = BreakDrillConfig

    def rack(self, config, rng):
        from poolgym.rules.geometry import get_table

        R = ball_radius()
        slots = diamond_slots(get_table(config.table), R, config.rack_gap)
        pos = np.zeros((10, 2))
        pos[1] = slots[0]
        pos[9] = slots[4]
        rest = [2, 3, 4, 5, 6, 7, 8]
        others = [1, 2, 3, 5, 6, 7, 8]
        for b, s in zip(rng.permutation(rest), others):
            pos[b] = slots[s]
        on = np.ones(10, bool)
        on[0] = False
        return pos, on

    def initial_state(self, config=None, seed: int = 0, **kw) -> GameState:
        return super().initial_state(config, seed, lag=False).replace(extra=DrillResult())

    def shot_spec(self, state: GameState) -> dict:
        return {"target_balls": (1,)}

    def adjudicate(self, state: GameState, action: ShotAction, rec: ShotRecord):
        from poolgym.rules.geometry import get_table

        fouls = _basic_fouls(rec, 1, action, state.config)
        if any(k != 0 for k in queries.jumped_off_table(rec)):
            fouls.append(Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "9B-5.4"))
        pk = queries.pocketed(rec)
        to_rail = queries.balls_to_rail(rec, get_table(state.config.table))
        if not pk and len(to_rail) < 4:
            fouls.append(Foul(FoulKind.ILLEGAL_BREAK, "9B-5.4"))
        if fouls:
            value = -1.0
        elif pk:
            value = 1.0 + 0.1 * (len(pk) - 1)
        else:
            value = 0.0
        pos, on = _after_shot(state, rec)
        new = state.replace(pos=pos, on_table=on, phase=Phase.GAME_OVER,
                            winner=0 if value > 0 else None, shot_number=state.shot_number + 1,
                            extra=DrillResult(value, pk))
        v = Verdict(fouls=tuple(fouls), legal_pocketed=() if fouls else pk, pocketed=pk, points=(0,),
                    next_seat=0, game_over=True, winner=new.winner, rule_refs=("9B-5.4",))
        return new, v


DRILLS = {"pot_drill": PotDrill, "break_drill": BreakDrill}


def _register_serialisation() -> None:
    from poolgym.rules import serialize

    try:
        serialize.register(PotDrillConfig, BreakDrillConfig, DrillResult)
    except ValueError:  # already registered (module reloaded)
        pass


_register_serialisation()
