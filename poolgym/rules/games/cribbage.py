"""Cribbage referee (BCA cribbage pocket billiards, shared/rules/cribbage.md, CR-n; title and
CR-1 lost, CR-2 empty).

* CR-2 (C-52) two players. CR-3 balls 1-15.
* CR-4 triangle with the 15 in the centre; the three corner balls (apex and back corners)
  drawn from 1-14 so that no two of them sum to fifteen; the others at random.
* CR-5 first to ``target`` (5) cribbages of the eight possible. CR-6 a cribbage is two
  legally pocketed balls summing to fifteen (1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8); the
  15 alone is one once all seven pairs are down. CR-7 one point a cribbage.
* CR-8 open break (C-26: ``open_break_min_rail_balls`` object balls to a cushion, default
  4); otherwise the incoming player chooses OPPONENT_REBREAKS (the offender re-racks and
  breaks again) or RERACK_AND_BREAK (he breaks himself); no call on the break; a ball
  pocketed on a legal break continues the inning (and counts toward cribbages).
* CR-9.1 / CR-9.3 pair obligation: with an open (unpaired) ball of this inning, the next
  shot must pocket the partner of one of the open balls, else foul; the shooter chooses
  which partner he plays (``called_ball`` may name it; the choice does not change the
  ruling, all open pairs must be closed). CR-9.2 a legal pot continues the inning. CR-9.4
  open balls are spotted when the inning ends (C-58: also after the CR-9.1 foul). CR-9.5
  legal shot: any ball first, then a pot or a ball to a cushion. CR-9.6 three consecutive
  fouls lose (``three_foul_loss``). CR-9.7 a 15 pocketed while any pair ball is on the table
  is spotted after that shot. CR-9.8 cue ball in hand behind the head string with every
  object ball behind it: SPOT_NEAREST_KITCHEN_BALL (the base's GW-5 request).
* CR-10 illegally pocketed balls spotted, no penalty. CR-11 jumped object balls spotted and
  the shot is a foul. CR-12 scratch / cue ball off the table: the next player has cue ball
  in hand behind the head string. CR-13 other fouls: no points lost, the next player
  chooses ACCEPT_TABLE or CUE_IN_HAND_KITCHEN.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import general, serialize
from ..core import (CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option, Phase, RulesConfig,
                    ShotAction, Verdict)
from ..game import DisciplineBase
from .bca import triangle_rack
from ..seats import next_in_order
from .common import game_fouls, hand_over, spot_into, shot_opening

__all__ = ["Cribbage", "CribbageConfig", "CribbageExtra", "partner", "FIFTEEN"]

FIFTEEN = 15
CORNER_SLOTS = (0, 10, 14)
CENTRE_SLOT = 4


def partner(ball: int) -> int:
    """CR-6: the ball completing a cribbage with ``ball`` (1-14)."""
    return FIFTEEN - int(ball)


@dataclass(frozen=True)
class CribbageConfig(RulesConfig):
    """Cribbage knobs: target (CR-5), open_break_min_rail_balls (C-26), three_foul_loss
    (CR-9.6)."""

    target: int = 5
    open_break_min_rail_balls: int = 4
    three_foul_loss: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.n_players != 2:
            raise ValueError(f"n_players must be 2 for cribbage (C-52), got {self.n_players!r}")
        if not isinstance(self.target, int) or not 1 <= self.target <= 8:
            raise ValueError(f"target must be an int in [1, 8], got {self.target!r}")


@dataclass(frozen=True)
class CribbageExtra:
    """open: balls legally pocketed this inning whose partner is not down yet (CR-9.1);
    pairs: the lower ball of every cribbage made (either player)."""

    open: tuple = ()
    pairs: tuple = ()


serialize.register(CribbageConfig, CribbageExtra)

F_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "CR-9.5")
F_NO_RAIL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "CR-9.5")
F_OBJ_OFF = Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "CR-11")
F_UNCLOSED = Foul(FoulKind.UNCLOSED_PAIR, "CR-9.1")
F_THIRD = Foul(FoulKind.THIRD_CONSECUTIVE_FOUL, "CR-9.6")


class Cribbage(DisciplineBase):
    """BCA cribbage (module docstring). Rows: 0 cue ball, 1-15.

    >>> from poolgym.rules import ShotAction
    >>> from poolgym.rules.testing import make_state, record
    >>> d = Cribbage()
    >>> s = make_state("cribbage", {1: (0.3, 1.5), 14: (0.9, 2.0), 15: (0.6, 2.2)}, cue=(0.6, 0.6))
    >>> s2, v = d.apply_shot_record(s, ShotAction(3.0, 90.0), record(s, hit=1, pocketed={1: 2, 14: 5}))
    >>> s2.scores, v.turn_continues, s2.extra.pairs
    ((1, 0), True, (1,))
    """

    name = "cribbage"
    rules_file = "cribbage.md"
    n_balls = 16
    config_cls = CribbageConfig
    n_score_features = 4

    def score_features(self, state: GameState, seat: int) -> tuple:
        """Observation score block (poolgym.envs.scoring): open balls of this inning (CR-9.1,
        / 7; the partners to pocket are the callable balls), cribbages made (/ 7), the
        observer's cribbages to the target (CR-5), the 15 counts now (all seven pairs down,
        CR-6)."""
        ex: CribbageExtra = state.extra
        t = state.config.target
        return (len(ex.open) / 7.0, len(ex.pairs) / 7.0, (t - state.scores[seat]) / t, float(len(ex.pairs) == 7))

    def rack(self, config: CribbageConfig, rng: np.random.Generator):
        """CR-4: the 15 in the centre (slot 4); corners (slots 0, 10, 14) from 1-14 with no
        pair summing to fifteen (three balls from three different pairs); the rest random."""
        pairs = rng.permutation(7)[:3] + 1  # three distinct pairs, one ball of each
        corners = [int(p) if rng.random() < 0.5 else partner(int(p)) for p in pairs]
        fixed = {FIFTEEN: CENTRE_SLOT, **dict(zip(corners, CORNER_SLOTS))}
        return triangle_rack(config, rng, fixed)

    def initial_extra(self, config):
        return CribbageExtra()

    def useful_balls(self, state: GameState, seat: int) -> tuple:
        """The partners of the open balls (CR-9.1) when there are any; else the pair balls
        1-14 on the table (the 15 is spotted while they remain, CR-9.7), and the 15 once all
        seven pairs are down (CR-6)."""
        ex: CribbageExtra = state.extra
        if ex.open:
            return tuple(sorted(partner(b) for b in ex.open if state.on_table[partner(b)]))
        pairs = tuple(b for b in state.balls_on_table() if b != FIFTEEN)
        return pairs if pairs else tuple(b for b in state.balls_on_table() if b == FIFTEEN)

    def shot_spec(self, state: GameState) -> dict:
        ex: CribbageExtra = state.extra
        partners = tuple(sorted(partner(b) for b in ex.open if state.on_table[partner(b)]))
        return {"target_balls": state.balls_on_table(), "callable_balls": partners}

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        """No push-out or safety. A called ball names the shooter's intended ball (CR-9.3: the
        partner he plays next); the ruling does not depend on it -- every open pair must be
        closed and any partner pocketed closes its pair."""
        if action.push_out or action.safety:
            raise IllegalActionError("cribbage has no push-out or safety declaration")

    def adjudicate(self, state: GameState, action: ShotAction, rec):
        cfg: CribbageConfig = state.config
        seat = state.seat_to_act
        ex: CribbageExtra = state.extra
        is_break = state.phase is Phase.BREAK
        f, jumped, ch = shot_opening(state, rec)
        pocketed = f.pocketed
        fouls = list(game_fouls(state, action, rec, f, require_rail=not is_break, jumped_is_foul=True,
                                no_hit=F_NO_HIT, no_rail=F_NO_RAIL, obj_off=F_OBJ_OFF))
        if ex.open and not any(partner(b) in pocketed for b in ex.open):
            fouls.append(F_UNCLOSED)  # CR-9.1 / CR-9.3
        scores = list(state.scores)
        nxt = next_in_order(state, seat)
        zeros = (0,) * state.n_players
        if fouls:
            refs = ["CR-13"] + (["CR-10"] if pocketed else []) + (["CR-9.4"] if ex.open else [])
            spotted = spot_into(state, ch, pocketed + jumped + ex.open)
            cf = general.add_foul(state.consecutive_fouls, seat)
            ch.update(consecutive_fouls=cf, extra=CribbageExtra((), ex.pairs))
            if cfg.three_foul_loss and cf[seat] >= 3:
                ch.update(phase=Phase.GAME_OVER, winner=nxt)
                return state._evolve(ch), Verdict(fouls=tuple(fouls) + (F_THIRD,), pocketed=pocketed, points=zeros,
                                                  next_seat=nxt, spotted=spotted, game_over=True, winner=nxt,
                                                  rule_refs=tuple(refs) + ("CR-9.6",))
            if f.cue_pocketed or f.cue_off:  # CR-12
                hand_over(state, ch, nxt, CueBallPlacement.IN_HAND_KITCHEN)
                return state._evolve(ch), Verdict(fouls=tuple(fouls), pocketed=pocketed, points=zeros,
                                                  next_seat=nxt, cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                                                  spotted=spotted, rule_refs=tuple(refs) + ("CR-12",))
            opts = (Option.ACCEPT_TABLE, Option.CUE_IN_HAND_KITCHEN)  # CR-13
            hand_over(state, ch, nxt, CueBallPlacement.IN_POSITION, phase=Phase.OPTION)
            ch["options"] = opts
            return state._evolve(ch), Verdict(fouls=tuple(fouls), pocketed=pocketed, points=zeros, next_seat=nxt,
                                              options=opts, spotted=spotted, rule_refs=tuple(refs))
        ch["consecutive_fouls"] = general.clear_fouls(state.consecutive_fouls, seat)
        if is_break and not pocketed and len(f.object_balls_to_rail(rec.cue_ball)) < cfg.open_break_min_rail_balls:
            opts = (Option.OPPONENT_REBREAKS, Option.RERACK_AND_BREAK)  # CR-8
            spotted = spot_into(state, ch, jumped)
            hand_over(state, ch, nxt, CueBallPlacement.IN_POSITION, phase=Phase.OPTION)
            ch["options"] = opts
            return state._evolve(ch), Verdict(fouls=(Foul(FoulKind.ILLEGAL_BREAK, "CR-8"),), points=zeros,
                                              next_seat=nxt, options=opts, spotted=spotted, rule_refs=("CR-8",))
        refs = ["CR-8"] if is_break else []
        pool = list(ex.open)
        pairs = list(ex.pairs)
        gained = 0
        early15 = ()
        for b in pocketed:
            if b == FIFTEEN:
                continue
            if partner(b) in pool:
                pool.remove(partner(b))
                pairs.append(min(b, partner(b)))
                gained += 1
            else:
                pool.append(b)
        if FIFTEEN in pocketed:
            if any(ch["on_table"][k] for k in range(1, FIFTEEN)) or pool:
                early15 = (FIFTEEN,)  # CR-9.7
                refs.append("CR-9.7")
            else:
                gained += 1  # CR-6: the 15 alone once all seven pairs are down
                refs.append("CR-6")
        if gained:
            refs += ["CR-6", "CR-7"]
        scores[seat] += gained
        ch["scores"] = tuple(scores)
        spotted = spot_into(state, ch, early15 + jumped)
        legal = tuple(b for b in pocketed if b not in early15)
        if scores[seat] >= cfg.target:  # CR-5
            ch.update(phase=Phase.GAME_OVER, winner=seat, extra=CribbageExtra(tuple(sorted(pool)), tuple(pairs)))
            return state._evolve(ch), Verdict(legal_pocketed=legal, pocketed=pocketed,
                                              points=_delta(state.scores, scores), next_seat=seat, spotted=spotted,
                                              game_over=True, winner=seat, rule_refs=tuple(dict.fromkeys(refs + ["CR-5"])))
        if legal and any(ch["on_table"][1:]):  # CR-9.2
            ch.update(phase=Phase.PLAY, cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False,
                      extra=CribbageExtra(tuple(sorted(pool)), tuple(pairs)))
            return state._evolve(ch), Verdict(legal_pocketed=legal, pocketed=pocketed,
                                              points=_delta(state.scores, scores), next_seat=seat, spotted=spotted,
                                              turn_continues=True, rule_refs=tuple(dict.fromkeys(refs + ["CR-9.2"])))
        spotted = spotted + spot_into(state, ch, tuple(pool))  # CR-9.4: open balls spotted
        if pool:
            refs.append("CR-9.4")
        ch["extra"] = CribbageExtra((), tuple(pairs))
        hand_over(state, ch, nxt, CueBallPlacement.IN_POSITION)
        return state._evolve(ch), Verdict(legal_pocketed=legal, pocketed=pocketed,
                                          points=_delta(state.scores, scores), next_seat=nxt, spotted=spotted,
                                          rule_refs=tuple(dict.fromkeys(refs)))

    def apply_option(self, state: GameState, option: Option):
        """CR-8 after an illegal break: OPPONENT_REBREAKS (the offender re-racks and breaks
        again) or RERACK_AND_BREAK (the incoming player breaks); CR-13 after a foul:
        ACCEPT_TABLE or CUE_IN_HAND_KITCHEN."""
        seat = state.seat_to_act
        zeros = (0,) * state.n_players
        if option in (Option.OPPONENT_REBREAKS, Option.RERACK_AND_BREAK):
            breaker = next_in_order(state, seat) if option is Option.OPPONENT_REBREAKS else seat
            fresh = self.initial_state(state.config, state.rng[0], breaker=breaker, games_won=state.games_won,
                                       game_number=state.game_number, rng_counter=state.rng[1], lag=False)
            s = fresh.replace(consecutive_fouls=state.consecutive_fouls, inning=state.inning + 1,
                              shot_number=state.shot_number)
            return s, Verdict(points=zeros, next_seat=breaker, cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                              rule_refs=("CR-8", "CR-4"))
        if option is Option.ACCEPT_TABLE:
            s = state.replace(phase=Phase.PLAY, options=())
            return s, Verdict(points=zeros, next_seat=seat, rule_refs=("CR-13",))
        if option is Option.CUE_IN_HAND_KITCHEN:
            ch = {"pos": state.pos, "on_table": state.on_table}
            hand_over(state, ch, seat, CueBallPlacement.IN_HAND_KITCHEN, new_inning=False)
            return state._evolve(ch), Verdict(points=zeros, next_seat=seat, cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                                              rule_refs=("CR-13",))
        raise IllegalActionError(f"option {option.value} is not a cribbage option")


def _delta(old, new) -> tuple:
    return tuple(int(b) - int(a) for a, b in zip(old, new))
