"""Six-ball referee (BCA, shared/rules/six_ball.md, 6B-n).

* 6B-1 / 6B-8.1 rotation: the cue ball must first contact the lowest-numbered ball, then a
  ball is pocketed or a ball (object or cue) reaches a cushion; any ball pocketed on a
  legal shot counts, a 6 pocketed on a legal shot wins (also by carom or combination).
* 6B-2 two or more players (``n_players``), seats in rotation.
* 6B-3 / 6B-4 balls 1-6; rack rows 1-2-3, the 1 on the foot spot, the 6 in the centre of
  the back row (C-25 ``six_position``; ``second_row_random`` puts it at random in row 2),
  2-5 random.
* 6B-5 / 6B-6 object: legally pocket the 6; no points.
* 6B-7 break: an open break (C-26: ``open_break_min_rail_balls`` object balls, default 4,
  reach a cushion) or a legally pocketed ball; otherwise the incoming player chooses
  CUE_IN_HAND_KITCHEN (shoot the table as it lies from the kitchen) or RERACK_AND_BREAK
  (re-rack and break himself). The break must hit the 1 first (C-68
  ``break_must_hit_lowest``).
* 6B-8.2 a legal pot continues the inning; 6B-8.3 no "safety and spot": six-ball has no
  safety declaration (a ShotAction with ``safety=True`` is rejected).
* 6B-8.4 (lost; C-27) three consecutive fouls lose (``three_foul_loss``); with more than two
  seats the offender is out of the game (``state.active``, :mod:`poolgym.rules.seats`) and the
  others play on in order, the last one left wins.
* 6B-9 / 6B-10 (orphan paragraph, C-28): illegally pocketed and jumped object balls are
  spotted without penalty (``coin_op_table``: only the 6); jumped balls are no foul
  (``jumped_ball_is_foul`` False) -- a ball pocketed on a foul is spotted.
* 6B-11 cue ball pocketed or off the table: the next player has cue ball in hand anywhere.
* 6B-12 any foul: cue ball in hand anywhere for the next player, inning ends, no points.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from .. import general, serialize
from ..core import (CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option, Phase, RulesConfig,
                    ShotAction, Verdict)
from ..game import DisciplineBase
from ..geometry import ball_radius, get_table, triangle_slots
from ..seats import next_in_order, set_active
from .common import game_fouls, hand_over, spot_into, shot_opening

__all__ = ["SixBall", "SixBallConfig", "SixPosition"]

SIX = 6


class SixPosition(str, Enum):
    """C-25: where the 6 is racked ("centre of the second row" of a 1-2-3 rack has no centre)."""

    BACK_ROW_CENTRE = "back_row_centre"
    SECOND_ROW_RANDOM = "second_row_random"


@dataclass(frozen=True)
class SixBallConfig(RulesConfig):
    """Six-ball knobs (six_ball.md section 4): open_break_min_rail_balls (C-26),
    six_position (C-25), coin_op_table (6B-9/10: only the 6 is spotted), three_foul_loss
    (C-27), jumped_ball_is_foul (C-28, default no penalty), break_must_hit_lowest (C-68)."""

    open_break_min_rail_balls: int = 4
    six_position: SixPosition = SixPosition.BACK_ROW_CENTRE
    coin_op_table: bool = False
    three_foul_loss: bool = True
    jumped_ball_is_foul: bool = False
    break_must_hit_lowest: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.six_position, SixPosition):
            object.__setattr__(self, "six_position", SixPosition(self.six_position))
        if self.n_players < 2:
            raise ValueError(f"n_players must be >= 2 for six-ball (6B-2), got {self.n_players!r}")
        if not isinstance(self.open_break_min_rail_balls, int) or not 0 <= self.open_break_min_rail_balls <= 6:
            raise ValueError(f"open_break_min_rail_balls must be an int in [0, 6], got "
                             f"{self.open_break_min_rail_balls!r}")


serialize.register(SixPosition, SixBallConfig)

F_BAD_HIT = Foul(FoulKind.WRONG_BALL_FIRST, "6B-8.1")
F_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "6B-8.1")
F_NO_RAIL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "6B-8.1")
F_OBJ_OFF = Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "G-3.28")
F_THIRD = Foul(FoulKind.THIRD_CONSECUTIVE_FOUL, "6B-12")


class SixBall(DisciplineBase):
    """BCA six-ball (module docstring). Rows: 0 cue ball, k = ball k (N = 7).

    >>> from poolgym.rules import PlaceCueBall, ShotAction
    >>> from poolgym.rules.testing import record
    >>> d = SixBall()
    >>> s = d.initial_state(SixBallConfig(), seed=1)
    >>> s, _ = d.apply(s, PlaceCueBall(0.635, 0.4))
    >>> s2, v = d.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, pocketed={6: 2}))
    >>> v.game_over, v.winner, v.rule_refs
    (True, 0, ('6B-7', '6B-1'))
    """

    name = "six_ball"
    rules_file = "six_ball.md"
    n_balls = 7
    config_cls = SixBallConfig
    allowed_players = tuple(range(2, 16))  # 6B-2: two or more

    def rack(self, config: SixBallConfig, rng: np.random.Generator):
        """6B-4: rows 1-2-3 from the foot spot (triangle slots 0-5), 1 at the apex, the 6 at
        slot 4 (back-row centre) or at random in row 2 (slots 1, 2), 2-5 random."""
        table = get_table(config.table)
        slots = triangle_slots(table, ball_radius(), config.rack_gap)[:6]
        if config.six_position is SixPosition.BACK_ROW_CENTRE:
            six_slot = 4
        else:
            six_slot = 1 + int(rng.integers(2))
        free = [k for k in range(1, 6) if k != six_slot]
        others = (rng.permutation(4) + 2).tolist()
        pos = np.zeros((7, 2))
        pos[0] = table.head_spot
        pos[1] = slots[0]
        pos[SIX] = slots[six_slot]
        for b, k in zip(others, free):
            pos[b] = slots[k]
        on = np.ones(7, bool)
        on[0] = False
        return pos, on

    def shot_spec(self, state: GameState) -> dict:
        low = state.lowest_ball()
        return {"target_balls": (low,) if low is not None else ()}

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        """6B-8.3: no safety declaration; no push-out."""
        if action.safety:
            raise IllegalActionError("six-ball has no safety declaration (6B-8.3)")
        if action.push_out:
            raise IllegalActionError("six-ball has no push-out")

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state: GameState, action: ShotAction, rec):
        cfg: SixBallConfig = state.config
        seat = state.seat_to_act
        lowest = state.lowest_ball()
        is_break = state.phase is Phase.BREAK
        legal = (lowest,) if (lowest is not None and (cfg.break_must_hit_lowest or not is_break)) else ()
        f, jumped, ch = shot_opening(state, rec, legal or None)
        fouls = game_fouls(state, action, rec, f, legal, require_rail=not is_break,
                           jumped_is_foul=cfg.jumped_ball_is_foul, bad_hit=F_BAD_HIT, no_hit=F_NO_HIT,
                           no_rail=F_NO_RAIL, obj_off=F_OBJ_OFF)
        pocketed = f.pocketed
        refs = ["6B-7"] if is_break else []
        n = state.n_players
        zeros = (0,) * n
        nxt = next_in_order(state, seat)
        if not fouls and SIX in pocketed:  # 6B-1, 6B-5, 6B-6
            ch.update(phase=Phase.GAME_OVER, winner=seat,
                      consecutive_fouls=general.clear_fouls(state.consecutive_fouls, seat))
            return state._evolve(ch), Verdict(legal_pocketed=pocketed, pocketed=pocketed, points=zeros,
                                              next_seat=seat, game_over=True, winner=seat,
                                              rule_refs=tuple(refs) + ("6B-1",))
        if fouls:
            to_spot = (SIX,) if cfg.coin_op_table and SIX in pocketed else (() if cfg.coin_op_table else pocketed)
            spotted = spot_into(state, ch, tuple(to_spot) + jumped)
            refs.append("6B-9")
            cf = general.add_foul(state.consecutive_fouls, seat)
            fouls = tuple(fouls)
            if cfg.three_foul_loss and cf[seat] >= 3:  # 6B-12 -> 6B-8.4 (lost), C-27
                ch["active"] = set_active(state, seat, False)
                left = [s for s in range(n) if ch["active"][s]]
                if len(left) == 1:
                    ch.update(phase=Phase.GAME_OVER, winner=left[0], consecutive_fouls=cf)
                    return state._evolve(ch), Verdict(fouls=fouls + (F_THIRD,), pocketed=pocketed, points=zeros,
                                                      next_seat=left[0], spotted=spotted, game_over=True,
                                                      winner=left[0], rule_refs=tuple(refs) + ("6B-12",))
                fouls = fouls + (F_THIRD,)
            ch["consecutive_fouls"] = cf
            hand_over(state, ch, nxt, CueBallPlacement.IN_HAND_ANYWHERE)
            refs += ["6B-11", "6B-12"] if (f.cue_pocketed or f.cue_off) else ["6B-12"]
            return state._evolve(ch), Verdict(fouls=fouls, pocketed=pocketed, points=zeros, next_seat=nxt,
                                              cue_ball=CueBallPlacement.IN_HAND_ANYWHERE, spotted=spotted,
                                              rule_refs=tuple(refs))
        ch["consecutive_fouls"] = general.clear_fouls(state.consecutive_fouls, seat)
        spotted = spot_into(state, ch, jumped)
        if jumped:
            refs.append("6B-9")
        if is_break and not pocketed and len(f.object_balls_to_rail(rec.cue_ball)) < cfg.open_break_min_rail_balls:
            opts = (Option.CUE_IN_HAND_KITCHEN, Option.RERACK_AND_BREAK)  # 6B-7
            hand_over(state, ch, nxt, CueBallPlacement.IN_POSITION, phase=Phase.OPTION)
            ch["options"] = opts
            return state._evolve(ch), Verdict(pocketed=pocketed, points=zeros, next_seat=nxt, options=opts,
                                              spotted=spotted, rule_refs=tuple(refs))
        if pocketed:  # 6B-8.2
            ch.update(phase=Phase.PLAY, cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False)
            return state._evolve(ch), Verdict(legal_pocketed=pocketed, pocketed=pocketed, points=zeros,
                                              next_seat=seat, spotted=spotted, turn_continues=True,
                                              rule_refs=tuple(refs) + ("6B-8.2",))
        hand_over(state, ch, nxt, CueBallPlacement.IN_POSITION)
        return state._evolve(ch), Verdict(points=zeros, next_seat=nxt, spotted=spotted, rule_refs=tuple(refs))

    # ------------------------------------------------------------------ options
    def apply_option(self, state: GameState, option: Option):
        """6B-7 after a break that met neither requirement: CUE_IN_HAND_KITCHEN (shoot the
        table as it lies, cue ball in hand behind the head string) or RERACK_AND_BREAK (the
        incoming player re-racks and breaks)."""
        seat = state.seat_to_act
        zeros = (0,) * state.n_players
        if option is Option.CUE_IN_HAND_KITCHEN:
            ch = {"pos": state.pos, "on_table": state.on_table}
            hand_over(state, ch, seat, CueBallPlacement.IN_HAND_KITCHEN, new_inning=False)
            s = state._evolve(ch)
            return s, Verdict(points=zeros, next_seat=seat, cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                              rule_refs=("6B-7",))
        if option is Option.RERACK_AND_BREAK:
            fresh = self.initial_state(state.config, state.rng[0], breaker=seat, games_won=state.games_won,
                                       game_number=state.game_number, rng_counter=state.rng[1], lag=False)
            s = fresh.replace(consecutive_fouls=state.consecutive_fouls, inning=state.inning,
                              shot_number=state.shot_number, active=state.active)
            return s, Verdict(points=zeros, next_seat=seat, cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                              rule_refs=("6B-7", "6B-4"))
        raise IllegalActionError(f"option {option.value} is not a six-ball option")
