"""Honolulu referee (BCA, shared/rules/honolulu.md, HO-n; title and HO-1 lost, HO-9 empty).

* HO-2 / HO-3 / HO-4 two players; balls 1-15 in a standard triangle at random, apex on the
  foot spot; the break is taken with cue ball in hand behind the head string.
* HO-5 first to ``target`` (8) points, one point per legally pocketed ball.
* HO-6 every shot is called: one or more (ball, pocket) pairs (``called_ball`` /
  ``called_pocket`` plus :class:`MultiCallShot` ``more_calls``, at most
  ``max_called_balls``, C-20). The calls count only if every called ball drops in its pocket
  and each pot is indirect: a bank, a combination, a carom (kiss) or a kick, or a mix
  (:func:`pot_is_indirect`, from the shot-type queries); otherwise none counts and the inning
  ends. A straight-in pot does not score (C-50 ``direct_pots`` = no_score | score). Balls
  that do not count are spotted at the end of the inning (at once when the table would be
  empty). A declared safety (``safety=True``, no call) is legal (HO-8's legal-safety
  sentence) and ends the inning.
* HO-7 a kick counts only off a cushion not connected with the called pocket, or off two or
  more cushions (:class:`poolgym.rules.queries.Kick`).
* HO-8 break: a called ball pocketed in its called pocket (calls optional on the break) or
  ``break_min_rail_balls`` (2) object balls to a cushion; otherwise the breaker is charged a
  penalty point and the incoming player must accept the table.
* HO-9 (empty; C-51 defaults): a foul (G-3 catalogue, any ball may be hit first) charges one
  penalty point: the offender's last scored ball is spotted (score - 1) or, with none, he
  owes one (``owed``), and the next ball he legally pockets is spotted instead of scored;
  balls pocketed on the foul are spotted; a scratch or cue ball off the table gives the next
  player cue ball in hand behind the head string, other fouls the table as it lies; no
  three-foul rule (``three_foul_loss`` False); jumped object balls are a foul and spotted
  (G-3.28).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from .. import general, queries as q, serialize
from ..core import (CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option, Phase, RulesConfig,
                    ShotAction, Verdict)
from ..game import DisciplineBase
from .bca import triangle_rack
from ..seats import next_in_order
from .common import game_fouls, hand_over, spot_into, shot_opening

__all__ = ["Honolulu", "HonoluluConfig", "HonoluluExtra", "DirectPots", "MultiCallShot", "pot_is_indirect",
           "calls_of"]


class DirectPots(str, Enum):
    """C-50: does a straight-in pot of a called ball score?"""

    NO_SCORE = "no_score"
    SCORE = "score"


@dataclass(frozen=True)
class MultiCallShot(ShotAction):
    """A shot calling several balls (HO-6, C-20): ``called_ball`` / ``called_pocket`` plus
    ``more_calls`` = ((ball, pocket), ...). All must drop in their pockets or none counts."""

    more_calls: tuple = ()


@dataclass(frozen=True)
class HonoluluConfig(RulesConfig):
    """Honolulu knobs (honolulu.md sections 2-3): target (HO-5), direct_pots (C-50),
    max_called_balls (C-20), break_min_rail_balls (HO-8), three_foul_loss (C-51: none)."""

    target: int = 8
    direct_pots: DirectPots = DirectPots.NO_SCORE
    max_called_balls: int = 15
    break_min_rail_balls: int = 2
    three_foul_loss: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.direct_pots, DirectPots):
            object.__setattr__(self, "direct_pots", DirectPots(self.direct_pots))
        if self.n_players != 2:
            raise ValueError(f"n_players must be 2 for Honolulu (HO-2), got {self.n_players!r}")
        if not isinstance(self.target, int) or not 1 <= self.target <= 15:
            raise ValueError(f"target must be an int in [1, 15], got {self.target!r}")
        if not isinstance(self.max_called_balls, int) or not 1 <= self.max_called_balls <= 15:
            raise ValueError(f"max_called_balls must be an int in [1, 15], got {self.max_called_balls!r}")


@dataclass(frozen=True)
class HonoluluExtra:
    """owed: per seat, penalty points owed (HO-8); scored: per seat, the balls credited, in
    order (a penalty spots the last one); pending: balls to spot at the end of the inning."""

    owed: tuple = (0, 0)
    scored: tuple = ((), ())
    pending: tuple = ()


serialize.register(DirectPots, MultiCallShot, HonoluluConfig, HonoluluExtra)

F_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "G-3.18")
F_NO_RAIL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "HO-8")
F_OBJ_OFF = Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "G-3.28")
F_THIRD = Foul(FoulKind.THIRD_CONSECUTIVE_FOUL, "G-3.30")


def calls_of(action: ShotAction) -> tuple:
    """((ball, pocket), ...) called by ``action`` (HO-6)."""
    first = () if action.called_ball is None else ((int(action.called_ball), int(action.called_pocket)),)
    more = tuple((int(b), int(p)) for b, p in getattr(action, "more_calls", ()))
    return first + more


def pot_is_indirect(rec, table, ball: int, pocket: int) -> bool:
    """HO-6 / HO-7: ``ball`` dropped in ``pocket`` by a bank (it touched a cushion that is
    not its pocket's jaw), a combination (another object ball set it moving), a carom (it
    kissed another ball after being hit) or a kick that counts (the cue ball touched a
    cushion before its first contact, not a single cushion connected with ``pocket``)."""
    if q.bank_cushions(rec, table, ball):
        return True
    if len(q.combination_chain(rec, ball)) >= 2:
        return True
    if q.is_carom(rec, ball):
        return True
    k = q.kick(rec, table)
    return k.is_kick and not k.connected_with(pocket)


class Honolulu(DisciplineBase):
    """BCA Honolulu (module docstring). Rows: 0 cue ball, 1-15.

    >>> from poolgym.rules import PlaceCueBall, ShotAction
    >>> from poolgym.rules.testing import record
    >>> d = Honolulu()
    >>> s = d.initial_state(HonoluluConfig(), seed=0)
    >>> s, _ = d.apply(s, PlaceCueBall(0.635, 0.4))
    >>> s2, v = d.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, obj_rails=(2,)))
    >>> v.next_seat, s2.extra.owed, v.rule_refs
    (1, (1, 0), ('HO-8',))
    """

    name = "honolulu"
    rules_file = "honolulu.md"
    n_balls = 16
    config_cls = HonoluluConfig
    n_score_features = 4
    #: HO-6 / C-20: one shot may call several balls (`MultiCallShot`; the envs' Box and macro
    #: actions carry the further calls)
    multi_call = True

    def score_features(self, state: GameState, seat: int) -> tuple:
        """Observation score block (poolgym.envs.scoring): points owed by the observer and by
        the opponent (HO-8, / target), balls waiting to be spotted at the end of the inning
        (HO-6, / 15), the observer's points to the target (HO-5)."""
        ex: HonoluluExtra = state.extra
        t = state.config.target
        other = (seat + 1) % 2
        return (ex.owed[seat] / t, ex.owed[other] / t, len(ex.pending) / 15.0, (t - state.scores[seat]) / t)

    def rack(self, config: HonoluluConfig, rng: np.random.Generator):
        """HO-4: standard triangle, all balls at random."""
        return triangle_rack(config, rng)

    def initial_extra(self, config):
        return HonoluluExtra()

    def shot_spec(self, state: GameState) -> dict:
        balls = state.balls_on_table()
        return {"target_balls": balls, "callable_balls": balls, "call_required": state.phase is Phase.PLAY,
                "safety_allowed": state.phase is Phase.PLAY}

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        """HO-6: a call (one or more balls, each with a pocket) on every shot after the
        break, unless a safety is declared (then no call)."""
        if action.push_out:
            raise IllegalActionError("Honolulu has no push-out")
        calls = calls_of(action)
        if action.safety:
            if calls:
                raise IllegalActionError("a declared safety carries no call")
            if state.phase is Phase.BREAK:
                raise IllegalActionError("no safety on the break")
            return
        if state.phase is Phase.PLAY and not calls:
            raise IllegalActionError("call a ball and a pocket (HO-6)")
        if len(calls) > state.config.max_called_balls:
            raise IllegalActionError(f"at most {state.config.max_called_balls} called balls (C-20)")
        if len({b for b, _ in calls}) != len(calls):
            raise IllegalActionError("a ball is called twice")
        for b, p in calls:
            if not (1 <= b < 16 and state.on_table[b]):
                raise IllegalActionError(f"called ball {b} is not on the table")
            if not 0 <= p < 6:
                raise IllegalActionError(f"called pocket {p} is not a pocket index 0..5")

    # ------------------------------------------------------------------ scoring helpers
    @staticmethod
    def _penalty(ex: HonoluluExtra, seat: int, scores: list, ch: dict, state) -> tuple:
        """C-51 / HO-8 one penalty point: the offender's last scored ball goes back (score - 1,
        the ball joins ``pending``), or he owes one. Returns (new extra, that ball or None)."""
        owed, scored = list(ex.owed), list(ex.scored)
        if scored[seat]:
            b = scored[seat][-1]
            scored[seat] = scored[seat][:-1]
            scores[seat] -= 1
            return HonoluluExtra(tuple(owed), tuple(scored), ex.pending + (b,)), b
        owed[seat] += 1
        return HonoluluExtra(tuple(owed), tuple(scored), ex.pending), None

    def adjudicate(self, state: GameState, action: ShotAction, rec):
        cfg: HonoluluConfig = state.config
        table = self.table(state)
        seat = state.seat_to_act
        ex: HonoluluExtra = state.extra
        is_break = state.phase is Phase.BREAK
        f, jumped, ch = shot_opening(state, rec)
        pocketed = f.pocketed
        fouls = game_fouls(state, action, rec, f, require_rail=not is_break, jumped_is_foul=True, no_hit=F_NO_HIT,
                           no_rail=F_NO_RAIL, obj_off=F_OBJ_OFF)
        scores = list(state.scores)
        nxt = next_in_order(state, seat)
        calls = calls_of(action)
        dropped = {b: int(rec.pocket[b]) for b in pocketed}
        all_in = bool(calls) and all(dropped.get(b) == p for b, p in calls)
        refs = []
        if fouls:
            ex, back = self._penalty(ex, seat, scores, ch, state)
            spotted = spot_into(state, ch, ex.pending + pocketed + jumped)
            ex = HonoluluExtra(ex.owed, ex.scored, ())
            cf = general.add_foul(state.consecutive_fouls, seat)
            scratch = f.cue_pocketed or f.cue_off
            cue = CueBallPlacement.IN_HAND_KITCHEN if scratch else CueBallPlacement.IN_POSITION
            ch.update(consecutive_fouls=cf, scores=tuple(scores), extra=ex)
            if cfg.three_foul_loss and cf[seat] >= 3:
                ch.update(phase=Phase.GAME_OVER, winner=nxt)
                return state._evolve(ch), Verdict(fouls=tuple(fouls) + (F_THIRD,), pocketed=pocketed,
                                                  points=_delta(state.scores, scores), next_seat=nxt,
                                                  spotted=spotted, game_over=True, winner=nxt,
                                                  rule_refs=("HO-8",) if is_break else ())
            hand_over(state, ch, nxt, cue)
            return state._evolve(ch), Verdict(fouls=tuple(fouls), pocketed=pocketed,
                                              points=_delta(state.scores, scores), next_seat=nxt, cue_ball=cue,
                                              spotted=spotted, rule_refs=("HO-8",) if is_break else ())
        ch["consecutive_fouls"] = general.clear_fouls(state.consecutive_fouls, seat)
        if is_break:
            refs.append("HO-8")
            counted = tuple(b for b, p in calls if dropped.get(b) == p)
            legal_break = bool(counted) or len(f.object_balls_to_rail(rec.cue_ball)) >= cfg.break_min_rail_balls
        else:
            refs.append("HO-6")
            ok = all_in and not action.safety and (
                cfg.direct_pots is DirectPots.SCORE or all(pot_is_indirect(rec, table, b, p) for b, p in calls))
            counted = tuple(b for b, _ in calls) if ok else ()
            if all_in and not ok:
                refs.append("HO-7" if q.kick(rec, table).is_kick else "C-50")
            legal_break = True
        owed, scored = list(ex.owed), list(ex.scored)
        credited, paid = [], []
        for b in counted:  # HO-8: an owed point takes the next ball legally pocketed
            if owed[seat] > 0:
                owed[seat] -= 1
                paid.append(b)
            else:
                credited.append(b)
        scores[seat] += len(credited)
        scored[seat] = scored[seat] + tuple(credited)
        pending = ex.pending + tuple(b for b in pocketed if b not in credited) + jumped
        ex = HonoluluExtra(tuple(owed), tuple(scored), pending)
        ch["scores"] = tuple(scores)
        if scores[seat] >= cfg.target:  # HO-5
            ch.update(phase=Phase.GAME_OVER, winner=seat, extra=ex)
            return state._evolve(ch), Verdict(legal_pocketed=tuple(credited), pocketed=pocketed,
                                              points=_delta(state.scores, scores), next_seat=seat, game_over=True,
                                              winner=seat, rule_refs=tuple(refs) + ("HO-5",))
        if not legal_break:  # HO-8: penalty point, the opponent must accept the table
            ex, back = self._penalty(ex, seat, scores, ch, state)
            ch["scores"] = tuple(scores)
        spotted = ()
        cont = legal_break and bool(counted)
        if not cont or not any(ch["on_table"][1:]):
            spotted = spot_into(state, ch, ex.pending)  # HO-6: at the end of the inning
            ex = HonoluluExtra(ex.owed, ex.scored, ())
        ch["extra"] = ex
        if cont:
            ch.update(phase=Phase.PLAY, cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False)
            return state._evolve(ch), Verdict(legal_pocketed=tuple(credited), pocketed=pocketed,
                                              points=_delta(state.scores, scores), next_seat=seat, spotted=spotted,
                                              turn_continues=True, rule_refs=tuple(refs))
        hand_over(state, ch, nxt, CueBallPlacement.IN_POSITION)
        return state._evolve(ch), Verdict(legal_pocketed=tuple(credited), pocketed=pocketed,
                                          points=_delta(state.scores, scores), next_seat=nxt, spotted=spotted,
                                          rule_refs=tuple(refs))

    def apply_option(self, state: GameState, option: Option):
        raise IllegalActionError(f"option {option.value} is not a Honolulu option")


def _delta(old, new) -> tuple:
    return tuple(int(b) - int(a) for a, b in zip(old, new))
