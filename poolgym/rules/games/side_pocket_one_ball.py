"""One-ball-in-the-side referee (shared/rules/side_pocket_one_ball.md, 1S-n; working name).

The seed lost sections 1-5 (type, players, balls, rack, object and scoring). The rules of
those sections here are the DEFAULTS of ``side_pocket_one_ball.md`` section 2 and
``conflicts.md`` C-49, not seed text; every one is a config option:

* players (default): two (``n_players`` 2).
* balls / rack (default): 1-15 and the cue ball, standard triangle at random, apex on the
  foot spot; the break is taken with cue ball in hand behind the head string.
* object / scoring (C-49, ``scoring_mode``): ``points`` (default) -- one point per legally
  pocketed ball; with ``one_ball_wins`` (default True) legally pocketing the 1 wins
  outright, else the 1 counts one point like any ball and the game ends when the table is
  empty (highest score wins, a tie is a draw); ``race`` -- the first to ``race_to`` points
  wins (the 1 counts one point).

Seed rules:

* 1S-6 break: before it, the breaker chooses his side pocket for the 1 (1S-7.3,
  SIDE_POCKET_LEFT / SIDE_POCKET_RIGHT); the break must pocket a ball in the pocket called
  for it (``called_pocket``; the ball need not be named) or, after the cue ball contacts the
  rack, drive the cue ball and two object balls to a cushion. Otherwise the incoming player
  chooses ACCEPT_TABLE or OPPONENT_REBREAKS (re-rack, the offender breaks again); three
  illegal breaks in a row lose.
* 1S-7.1 a legal pot continues the inning. 1S-7.2 every shot calls a pocket
  (``called_pocket``); any ball except the 1 that drops in it counts. 1S-7.3 the opponent's
  pocket for the 1 is the other side pocket. 1S-7.4 the 1 counts only when called
  (``called_ball`` 1) with the shooter's own side pocket as the called pocket, and drops
  there. 1S-7.5 legal shot: after the contact a pot, or the cue ball or an object ball to a
  cushion. 1S-7.6 cue ball in hand behind the head string with every object ball behind it:
  SPOT_NEAREST_KITCHEN_BALL (the base's GW-5 request).
* 1S-8 / 1S-9 illegally pocketed and jumped object balls are spotted, no penalty.
* 1S-10 scratch / cue ball off the table: the next player has cue ball in hand behind the
  head string. 1S-11 fouls cost no points; after other fouls the next player accepts the
  table; three consecutive fouls lose.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from .. import general, serialize
from ..core import (CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option, Phase, RulesConfig,
                    ShotAction, Verdict)
from ..game import DisciplineBase
from .bca import triangle_rack
from ..seats import next_in_order
from .common import game_fouls, hand_over, pocketed_in, spot_into, shot_opening

__all__ = ["OneBallSide", "OneBallSideConfig", "OneBallSideExtra", "ScoringMode", "SIDE_POCKETS", "DEFAULTS"]

LC, RC = 1, 4
SIDE_POCKETS = {Option.SIDE_POCKET_LEFT: LC, Option.SIDE_POCKET_RIGHT: RC}
#: the rules the seed lost, as adopted here (C-49; side_pocket_one_ball.md section 2)
DEFAULTS = {"players": 2, "balls": "1-15 + cue ball", "rack": "standard triangle, random, apex on the foot spot",
            "scoring_mode": "points", "one_ball_wins": True, "race_to": 0,
            "source": "side_pocket_one_ball.md section 2 / conflicts.md C-49 (not seed text)"}


class ScoringMode(str, Enum):
    """C-49: the lost object / scoring section."""

    POINTS = "points"
    RACE = "race"


@dataclass(frozen=True)
class OneBallSideConfig(RulesConfig):
    """Knobs: scoring_mode / one_ball_wins / race_to (C-49 defaults), three_foul_loss and
    three_illegal_breaks_loss (1S-11, 1S-6), break_min_rail_balls (1S-6: two)."""

    scoring_mode: ScoringMode = ScoringMode.POINTS
    one_ball_wins: bool = True
    race_to: int = 8
    three_foul_loss: bool = True
    three_illegal_breaks_loss: bool = True
    break_min_rail_balls: int = 2

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.scoring_mode, ScoringMode):
            object.__setattr__(self, "scoring_mode", ScoringMode(self.scoring_mode))
        if self.n_players != 2:
            raise ValueError(f"n_players must be 2 (1S-7.3: two side pockets), got {self.n_players!r}")
        if not isinstance(self.race_to, int) or not 1 <= self.race_to <= 15:
            raise ValueError(f"race_to must be an int in [1, 15], got {self.race_to!r}")


@dataclass(frozen=True)
class OneBallSideExtra:
    """side: per seat, its side pocket for the 1 (-1 before the choice, 1S-7.3);
    illegal_breaks: consecutive illegal breaks of the breaker (1S-6)."""

    side: tuple = (-1, -1)
    illegal_breaks: int = 0


serialize.register(ScoringMode, OneBallSideConfig, OneBallSideExtra)

F_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "G-3.18")
F_NO_RAIL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "1S-7.5")
F_ILLEGAL_BREAK = Foul(FoulKind.ILLEGAL_BREAK, "1S-6")
F_THIRD = Foul(FoulKind.THIRD_CONSECUTIVE_FOUL, "1S-11")


class OneBallSide(DisciplineBase):
    """One-ball-in-the-side (module docstring: the lost sections are defaults). Rows 0-15.

    >>> from poolgym.rules import ChooseOption, Option
    >>> d = OneBallSide()
    >>> s = d.initial_state(OneBallSideConfig(), seed=0)
    >>> s.phase.value, d.legal_actions(s).options
    ('option', (<Option.SIDE_POCKET_LEFT: 'side_pocket_left'>, <Option.SIDE_POCKET_RIGHT: 'side_pocket_right'>))
    >>> s, v = d.apply(s, ChooseOption(Option.SIDE_POCKET_RIGHT))
    >>> s.extra.side, s.phase.value
    ((4, 1), 'break')
    """

    name = "one_ball_side"
    rules_file = "side_pocket_one_ball.md"
    n_balls = 16
    config_cls = OneBallSideConfig
    n_score_features = 4

    def score_features(self, state: GameState, seat: int) -> tuple:
        """Observation score block (poolgym.envs.scoring): the observer's side pocket for the 1
        (left, right; 1S-7.3; zeros before the choice), consecutive illegal breaks (1S-6, / 3),
        the observer's points to ``race_to`` in race mode (C-49; 0 in points mode)."""
        ex: OneBallSideExtra = state.extra
        cfg = state.config
        race = (cfg.race_to - state.scores[seat]) / cfg.race_to if cfg.scoring_mode is ScoringMode.RACE else 0.0
        return (float(ex.side[seat] == LC), float(ex.side[seat] == RC), ex.illegal_breaks / 3.0, race)

    def rack(self, config, rng: np.random.Generator):
        """Default (C-49): balls 1-15 in a triangle at random, apex on the foot spot."""
        return triangle_rack(config, rng)

    def initial_extra(self, config):
        return OneBallSideExtra()

    def initial_state(self, config=None, seed: int = 0, **kw) -> GameState:
        """1S-7.3: the breaker first chooses his side pocket (an OPTION phase before the break)."""
        s = super().initial_state(config, seed, **kw)
        if s.phase is Phase.BREAK:
            s = s.replace(phase=Phase.OPTION, options=tuple(SIDE_POCKETS))
        return s

    def _lag_choice(self, state: GameState, opt: Option):
        s, v = super()._lag_choice(state, opt)
        return s.replace(phase=Phase.OPTION, options=tuple(SIDE_POCKETS)), v

    def useful_balls(self, state: GameState, seat: int) -> tuple:
        """Every ball but the 1, which scores only when called into the seat's own side pocket
        (1S-7.4); the 1 alone when it is the last ball."""
        balls = state.balls_on_table()
        others = tuple(b for b in balls if b != 1)
        return others if others else balls

    def shot_spec(self, state: GameState) -> dict:
        return {"target_balls": state.balls_on_table(),
                "callable_balls": (1,) if state.on_table[1] and state.phase is Phase.PLAY else (),
                "call_required": state.phase is Phase.PLAY}

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        """1S-7.2 a pocket is called on every shot after the break (optional on it);
        1S-7.4 the only ball that may be named is the 1 (it counts only when the called
        pocket is the shooter's own side pocket and it drops there)."""
        if action.push_out or action.safety:
            raise IllegalActionError("one-ball-in-the-side has no push-out or safety declaration")
        if state.phase is Phase.PLAY and action.called_pocket is None:
            raise IllegalActionError("call a pocket (1S-7.2)")
        if action.called_ball is not None and (action.called_ball != 1 or state.phase is not Phase.PLAY):
            raise IllegalActionError("only the 1 may be named, after the break (1S-7.4)")

    def _winner_by_points(self, scores) -> tuple:
        best = max(scores)
        top = [k for k, v in enumerate(scores) if v == best]
        return top[0] if len(top) == 1 else None

    def adjudicate(self, state: GameState, action: ShotAction, rec):
        cfg: OneBallSideConfig = state.config
        seat = state.seat_to_act
        ex: OneBallSideExtra = state.extra
        is_break = state.phase is Phase.BREAK
        f, jumped, ch = shot_opening(state, rec)
        pocketed = f.pocketed
        fouls = game_fouls(state, action, rec, f, require_rail=not is_break, jumped_is_foul=False, no_hit=F_NO_HIT,
                           no_rail=F_NO_RAIL)
        scores = list(state.scores)
        nxt = next_in_order(state, seat)
        zeros = (0,) * state.n_players
        in_called = pocketed_in(rec, action.called_pocket)
        legal = () if fouls else tuple(b for b in in_called if b != 1)
        one_legal = (not fouls and 1 in in_called and action.called_ball == 1
                     and action.called_pocket == ex.side[seat])  # 1S-7.4
        if one_legal:
            legal = tuple(sorted(legal + (1,)))
        refs = []
        if is_break:
            refs.append("1S-6")
            cue_rail = any(b == rec.cue_ball and t > f.t0 for t, b, _ in f.cushions)
            rails_ok = f.first is not None and cue_rail and len(
                set(b for t, b, _ in f.cushions if b != rec.cue_ball and t > f.t0)) >= cfg.break_min_rail_balls
            if not fouls and not legal and not rails_ok:
                ib = ex.illegal_breaks + 1
                spotted = spot_into(state, ch, pocketed + jumped)
                if cfg.three_illegal_breaks_loss and ib >= 3:
                    ch.update(phase=Phase.GAME_OVER, winner=nxt, extra=OneBallSideExtra(ex.side, ib))
                    return state._evolve(ch), Verdict(fouls=(F_ILLEGAL_BREAK,), pocketed=pocketed, points=zeros,
                                                      next_seat=nxt, spotted=spotted, game_over=True, winner=nxt,
                                                      rule_refs=("1S-6",))
                opts = (Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS)
                hand_over(state, ch, nxt, CueBallPlacement.IN_POSITION, phase=Phase.OPTION)
                ch.update(options=opts, extra=OneBallSideExtra(ex.side, ib))
                return state._evolve(ch), Verdict(fouls=(F_ILLEGAL_BREAK,), pocketed=pocketed, points=zeros,
                                                  next_seat=nxt, options=opts, spotted=spotted, rule_refs=("1S-6",))
            ch["extra"] = OneBallSideExtra(ex.side, 0)
        if fouls:
            spotted = spot_into(state, ch, pocketed + jumped)  # 1S-8, 1S-9
            cf = general.add_foul(state.consecutive_fouls, seat)
            ch["consecutive_fouls"] = cf
            refs += ["1S-11"] + (["1S-8"] if pocketed else [])
            if cfg.three_foul_loss and cf[seat] >= 3:
                ch.update(phase=Phase.GAME_OVER, winner=nxt)
                return state._evolve(ch), Verdict(fouls=tuple(fouls) + (F_THIRD,), pocketed=pocketed, points=zeros,
                                                  next_seat=nxt, spotted=spotted, game_over=True, winner=nxt,
                                                  rule_refs=tuple(refs))
            scratch = f.cue_pocketed or f.cue_off
            cue = CueBallPlacement.IN_HAND_KITCHEN if scratch else CueBallPlacement.IN_POSITION
            if scratch:
                refs.append("1S-10")
            hand_over(state, ch, nxt, cue)
            return state._evolve(ch), Verdict(fouls=tuple(fouls), pocketed=pocketed, points=zeros, next_seat=nxt,
                                              cue_ball=cue, spotted=spotted, rule_refs=tuple(refs))
        ch["consecutive_fouls"] = general.clear_fouls(state.consecutive_fouls, seat)
        scores[seat] += len(legal)
        ch["scores"] = tuple(scores)
        illegal = tuple(b for b in pocketed if b not in legal)
        spotted = spot_into(state, ch, illegal + jumped)  # 1S-8, 1S-9
        if illegal:
            refs.append("1S-8")
        if jumped:
            refs.append("1S-9")
        if legal:
            refs.append("1S-7.2")
        if one_legal:
            refs.append("1S-7.4")
        winner = None
        over = False
        if cfg.scoring_mode is ScoringMode.RACE:
            if scores[seat] >= cfg.race_to:
                winner, over = seat, True
        elif cfg.one_ball_wins and one_legal:
            winner, over = seat, True
        elif not any(ch["on_table"][1:]):
            winner, over = self._winner_by_points(scores), True
        if over:
            ch.update(phase=Phase.GAME_OVER, winner=winner)
            return state._evolve(ch), Verdict(legal_pocketed=legal, pocketed=pocketed,
                                              points=_delta(state.scores, scores), next_seat=seat, spotted=spotted,
                                              game_over=True, winner=winner, rule_refs=tuple(refs) + ("C-49",))
        if legal:  # 1S-7.1
            ch.update(phase=Phase.PLAY, cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False)
            return state._evolve(ch), Verdict(legal_pocketed=legal, pocketed=pocketed,
                                              points=_delta(state.scores, scores), next_seat=seat, spotted=spotted,
                                              turn_continues=True, rule_refs=tuple(refs) + ("1S-7.1",))
        hand_over(state, ch, nxt, CueBallPlacement.IN_POSITION)
        return state._evolve(ch), Verdict(pocketed=pocketed, points=_delta(state.scores, scores), next_seat=nxt,
                                          spotted=spotted, rule_refs=tuple(refs))

    def apply_option(self, state: GameState, option: Option):
        """1S-7.3 side-pocket choice before the break; 1S-6 after an illegal break:
        ACCEPT_TABLE or OPPONENT_REBREAKS (re-rack, the offender breaks again)."""
        seat = state.seat_to_act
        zeros = (0,) * state.n_players
        if option in SIDE_POCKETS:
            mine = SIDE_POCKETS[option]
            side = [LC + RC - mine] * state.n_players
            side[seat] = mine
            s = state.replace(phase=Phase.BREAK, options=(), extra=OneBallSideExtra(tuple(side), 0))
            return s, Verdict(points=zeros, next_seat=seat, cue_ball=s.cue_ball, rule_refs=("1S-7.3",))
        if option is Option.ACCEPT_TABLE:
            s = state.replace(phase=Phase.PLAY, options=())
            return s, Verdict(points=zeros, next_seat=seat, rule_refs=("1S-6",))
        if option is Option.OPPONENT_REBREAKS:
            breaker = next_in_order(state, seat)
            fresh = super().initial_state(state.config, state.rng[0], breaker=breaker, games_won=state.games_won,
                                          game_number=state.game_number, rng_counter=state.rng[1], lag=False)
            s = fresh.replace(consecutive_fouls=state.consecutive_fouls, inning=state.inning + 1,
                              shot_number=state.shot_number, extra=state.extra, scores=state.scores)
            return s, Verdict(points=zeros, next_seat=breaker, cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                              rule_refs=("1S-6",))
        raise IllegalActionError(f"option {option.value} is not a one-ball-in-the-side option")


def _delta(old, new) -> tuple:
    return tuple(int(b) - int(a) for a, b in zip(old, new))
