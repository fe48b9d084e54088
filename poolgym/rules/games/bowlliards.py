"""Bowlliards referee (BCA, shared/rules/bowlliards.md, BW-n), solo or any number of players.

* BW-1 / BW-2 / BW-5 any number of players (``n_players``, default 1: the solo game, whose
  maximum is 300); each plays ten frames (``frames``), the players in turn frame by frame;
  the highest total wins (solo: no winner, the score is the result).
* BW-3 / BW-4 ten object balls (rows 1-10) racked in rows 1-2-3-4, apex on the foot spot,
  before every frame.
* BW-7 free break before each rack: no requirement, no foul (a scratch or jumped ball is not
  penalised), every ball pocketed on it is spotted, then the frame's first attempt begins
  with cue ball in hand behind the head string.
* BW-6 scoring "as in bowling" (rules of play lost; C-35 defaults, not seed text): one pin
  per legally pocketed ball; a frame is up to two attempts (innings) at its rack: all ten
  in the first attempt is a strike (10 + the next two attempts), all ten within the frame a
  spare (10 + the next attempt), otherwise the balls pocketed; in the tenth frame a strike
  earns two bonus attempts and a spare one, each on a fresh rack (with its free break) when
  the previous attempt cleared the table, so that twelve strikes make 300.
* An attempt ends on a miss, a foul, or when its rack is cleared (G-3.17).
* BW-8 / BW-11 a foul deducts one point and ends the attempt; balls pocketed on it are
  spotted (C-35); if it was the first attempt, the second starts with cue ball in hand
  behind the head string. After a plain miss in the first attempt the cue ball stays where
  it stopped (``second_attempt_cue_after_miss`` = in_place | kitchen).
* Legal shot G-3.19 with any ball as the ball on; calls are not required
  (``call_shots`` False; True: only the called ball in the called pocket counts, other balls
  pocketed are spotted without penalty). Jumped object balls are spotted, no penalty.

Score bookkeeping: ``state.scores[seat]`` = the bowling total of that seat's attempts so
far (:func:`bowling_total`, bonuses counted as they are earned, the attempt in progress
included) minus its fouls; every Verdict's ``points`` is the change of the scores, so the
scores are the sum of the points.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from .. import serialize
from ..core import (CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option, Phase, RulesConfig,
                    ShotAction, Verdict)
from ..game import DisciplineBase, draw_rng
from ..geometry import ball_radius, get_table, triangle_slots
from .common import game_fouls, hand_over, pocketed_in, spot_into, shot_opening

__all__ = ["Bowlliards", "BowlliardsConfig", "BowlliardsExtra", "CueAfterMiss", "bowling_total", "RACK"]

RACK = 10  # BW-3


class CueAfterMiss(str, Enum):
    """C-35: the cue ball for the second attempt after a plain miss in the first."""

    IN_PLACE = "in_place"
    KITCHEN = "kitchen"


@dataclass(frozen=True)
class BowlliardsConfig(RulesConfig):
    """Bowlliards knobs (bowlliards.md section 5): frames (BW-5), call_shots (seed silent),
    second_attempt_cue_after_miss (C-35). ``n_players`` defaults to 1 (solo, BW-2)."""

    n_players: int = 1
    frames: int = 10
    call_shots: bool = False
    second_attempt_cue_after_miss: CueAfterMiss = CueAfterMiss.IN_PLACE

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.second_attempt_cue_after_miss, CueAfterMiss):
            object.__setattr__(self, "second_attempt_cue_after_miss", CueAfterMiss(self.second_attempt_cue_after_miss))
        if not isinstance(self.frames, int) or not 1 <= self.frames <= 10:
            raise ValueError(f"frames must be an int in [1, 10], got {self.frames!r}")


@dataclass(frozen=True)
class BowlliardsExtra:
    """rolls: per seat, the balls legally pocketed in each finished attempt (bowling rolls);
    penalties: per seat, fouls charged (BW-11); frame: the frame being played (0-based, the
    same for every seat: seats play frame by frame); attempt: the attempt of the seat to act
    within the frame (0, 1; 2 = tenth-frame bonus); count: balls legally pocketed so far in
    this attempt."""

    rolls: tuple = ((),)
    penalties: tuple = (0,)
    frame: int = 0
    attempt: int = 0
    count: int = 0


serialize.register(CueAfterMiss, BowlliardsConfig, BowlliardsExtra)

F_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "G-3.18")
F_NO_RAIL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "G-3.19")
F_OBJ_OFF = Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "G-3.28")


def bowling_total(rolls, frames: int = 10) -> int:
    """Ten-pin total of a sequence of rolls (C-35): strike 10 + next two rolls, spare 10 +
    next roll, open frame its pins; bonuses count as far as they have been rolled; the last
    frame's bonus rolls count only as its bonus."""
    total, i, n = 0, 0, len(rolls)
    for _ in range(frames):
        if i >= n:
            break
        if rolls[i] == RACK:
            total += RACK + sum(rolls[i + 1:i + 3])
            i += 1
        elif i + 1 < n and rolls[i] + rolls[i + 1] == RACK:
            total += RACK + sum(rolls[i + 2:i + 3])
            i += 2
        else:
            total += sum(rolls[i:i + 2])
            i += 2
    return total


def _next_attempt(frame: int, last_frame: int, attempt: int, frame_rolls: tuple):
    """After an attempt ending with ``frame_rolls`` (this frame's rolls, the one just
    finished last): ("same" | "fresh", next attempt) within the frame, or None when the
    frame is over (ten-pin frame structure, C-35)."""
    c = frame_rolls[-1]
    if frame < last_frame:
        return ("same", 1) if attempt == 0 and c < RACK else None
    if attempt == 0:
        return ("fresh", 1) if c == RACK else ("same", 1)
    if attempt == 1:
        first = frame_rolls[0]
        if first == RACK:
            return ("fresh", 2) if c == RACK else ("same", 2)
        return ("fresh", 2) if first + c == RACK else None
    return None


class Bowlliards(DisciplineBase):
    """BCA bowlliards (module docstring). Rows: 0 cue ball, 1-10 the ten object balls.

    >>> from poolgym.rules import PlaceCueBall, ShotAction
    >>> from poolgym.rules.testing import record
    >>> d = Bowlliards()
    >>> s = d.initial_state(BowlliardsConfig(), seed=0)
    >>> s, _ = d.apply(s, PlaceCueBall(0.635, 0.4))
    >>> s, v = d.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, pocketed={3: 2}, scratch=5))
    >>> v.fouls, v.spotted, s.phase.value, s.cue_ball.value
    ((), (3,), 'play', 'in_hand_kitchen')
    """

    name = "bowlliards"
    rules_file = "bowlliards.md"
    n_balls = 11
    config_cls = BowlliardsConfig
    allowed_players = tuple(range(1, 16))  # BW-2: any number, one included
    n_score_features = 6

    def score_features(self, state: GameState, seat: int) -> tuple:
        """Observation score block (poolgym.envs.scoring): frame / frames, attempt / 2, balls
        of this attempt / 10, balls still on the table / 10, the observer's total / 300 and
        its fouls / 10 (bowlliards.md BW-5, BW-6, BW-11)."""
        ex: BowlliardsExtra = state.extra
        on = sum(1 for k in range(1, RACK + 1) if state.on_table[k])
        return (ex.frame / state.config.frames, ex.attempt / 2, ex.count / RACK, on / RACK,
                state.scores[seat] / 300.0, min(ex.penalties[seat], 10) / 10.0)

    def returns(self, state: GameState) -> tuple:
        """Solo (BW-1, BW-5): the score out of 300 (the game's own metric); with more seats the
        highest total wins (the base's +1 / shared -1; a tie gives zeros)."""
        if state.n_players == 1:
            return (state.scores[0] / 300.0,) if state.phase is Phase.GAME_OVER else (0.0,)
        return super().returns(state)

    def rack(self, config: BowlliardsConfig, rng: np.random.Generator):
        """BW-4: rows 1-2-3-4, apex on the foot spot (triangle slots 0-9); BW-3 "any ten
        balls": the balls 1-10 in random order."""
        table = get_table(config.table)
        slots = triangle_slots(table, ball_radius(), config.rack_gap)[:RACK]
        pos = np.zeros((RACK + 1, 2))
        pos[0] = table.head_spot
        pos[1 + rng.permutation(RACK)] = slots
        on = np.ones(RACK + 1, bool)
        on[0] = False
        return pos, on

    def initial_extra(self, config):
        n = config.n_players
        return BowlliardsExtra(rolls=((),) * n, penalties=(0,) * n)

    def shot_spec(self, state: GameState) -> dict:
        balls = state.balls_on_table()
        call = bool(state.config.call_shots) and state.phase is Phase.PLAY
        return {"target_balls": balls, "callable_balls": balls if call else (), "call_required": call}

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        if action.push_out or action.safety:
            raise IllegalActionError("bowlliards has no push-out or safety declaration")
        if self.shot_spec(state)["call_required"] and (action.called_ball is None or action.called_pocket is None):
            raise IllegalActionError("call_shots: call a ball and a pocket")

    # ------------------------------------------------------------------ bookkeeping
    def _scores(self, state: GameState, ex: BowlliardsExtra, seat: int) -> tuple:
        sc = list(state.scores)
        rolls = ex.rolls[seat] + ((ex.count,) if ex.count else ())
        sc[seat] = bowling_total(rolls, state.config.frames) - ex.penalties[seat]
        return tuple(sc)

    def _fresh_rack(self, state: GameState, ch: dict) -> None:
        """A new rack (BW-4, drawn from the state's RNG) and its free break (BW-7)."""
        rng, ctr = draw_rng(state)
        pos, on = self.rack(state.config, rng)
        ch.update(pos=tuple(np.asarray(pos, float).reshape(-1).tolist()), on_table=tuple(bool(v) for v in on), rng=ctr)

    def adjudicate(self, state: GameState, action: ShotAction, rec):
        cfg: BowlliardsConfig = state.config
        seat = state.seat_to_act
        ex: BowlliardsExtra = state.extra
        f, jumped, ch = shot_opening(state, rec)
        pocketed = f.pocketed
        n = state.n_players
        if state.phase is Phase.BREAK:  # BW-7 free break
            spotted = spot_into(state, ch, pocketed + jumped)
            hand_over(state, ch, seat, CueBallPlacement.IN_HAND_KITCHEN, new_inning=False)
            ch["extra"] = ex
            return state._evolve(ch), Verdict(pocketed=pocketed, points=(0,) * n, next_seat=seat,
                                              cue_ball=CueBallPlacement.IN_HAND_KITCHEN, spotted=spotted,
                                              turn_continues=True, rule_refs=("BW-7",))
        fouls = game_fouls(state, action, rec, f, jumped_is_foul=False, no_hit=F_NO_HIT, no_rail=F_NO_RAIL,
                           obj_off=F_OBJ_OFF)
        refs = ["BW-6"]
        if fouls:
            legal = ()
            refs.append("BW-11")
            ex = BowlliardsExtra(ex.rolls, _bump(ex.penalties, seat), ex.frame, ex.attempt, ex.count)
        elif cfg.call_shots:
            legal = tuple(b for b in pocketed_in(rec, action.called_pocket) if b == action.called_ball)
        else:
            legal = pocketed
        spotted = spot_into(state, ch, tuple(b for b in pocketed if b not in legal) + jumped)
        ex = BowlliardsExtra(ex.rolls, ex.penalties, ex.frame, ex.attempt, ex.count + len(legal))
        cleared = not any(ch["on_table"][1:])
        if legal and not cleared:  # the attempt goes on
            ch.update(extra=ex, scores=self._scores(state, ex, seat), phase=Phase.PLAY,
                      cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False)
            return state._evolve(ch), Verdict(legal_pocketed=legal, pocketed=pocketed,
                                              points=_delta(state.scores, ch["scores"]), next_seat=seat,
                                              spotted=spotted, turn_continues=True, rule_refs=tuple(refs))
        # the attempt ends: miss, foul or rack cleared
        rolls = list(ex.rolls)
        rolls[seat] = rolls[seat] + (ex.count,)
        done_frame = _frame_rolls(tuple(rolls[seat]), ex.frame)
        step = _next_attempt(ex.frame, cfg.frames - 1, ex.attempt, done_frame)
        if step is not None:
            kind, att = step
            ex = BowlliardsExtra(tuple(rolls), ex.penalties, ex.frame, att, 0)
            if kind == "fresh":
                self._fresh_rack(state, ch)
                hand_over(state, ch, seat, CueBallPlacement.IN_HAND_KITCHEN, phase=Phase.BREAK)
                cue = CueBallPlacement.IN_HAND_KITCHEN
            else:
                miss_in_place = cfg.second_attempt_cue_after_miss is CueAfterMiss.IN_PLACE
                cue = (CueBallPlacement.IN_POSITION if not fouls and miss_in_place and ch["on_table"][0]
                       else CueBallPlacement.IN_HAND_KITCHEN)
                hand_over(state, ch, seat, cue)
                refs.append("BW-8" if cue is CueBallPlacement.IN_HAND_KITCHEN else "BW-6")
            ch.update(extra=ex, scores=self._scores(state, ex, seat))
            return state._evolve(ch), Verdict(fouls=tuple(fouls), legal_pocketed=legal, pocketed=pocketed,
                                              points=_delta(state.scores, ch["scores"]), next_seat=seat,
                                              cue_ball=cue, spotted=spotted, turn_continues=True,
                                              rule_refs=tuple(dict.fromkeys(refs)))
        # the frame is over: next seat, or next frame, or the end of the game. The seats play
        # each frame in turn from the game's first breaker (the order of players by lag or
        # agreement, bowlliards.md section 3: G-3.6's lag winner, C-06's break order), so a
        # frame is over for everyone when the turn comes back to that seat.
        nxt = (seat + 1) % n
        frame = ex.frame + (1 if nxt == state.breaker else 0)
        ex = BowlliardsExtra(tuple(rolls), ex.penalties, frame, 0, 0)
        scores = self._scores(state, ex, seat)
        ch.update(extra=ex, scores=scores)
        if frame >= cfg.frames:  # BW-5: highest total wins; solo: no winner
            best = max(scores)
            top = [k for k in range(n) if scores[k] == best]
            w = top[0] if n > 1 and len(top) == 1 else None
            ch.update(phase=Phase.GAME_OVER, winner=w)
            return state._evolve(ch), Verdict(fouls=tuple(fouls), legal_pocketed=legal, pocketed=pocketed,
                                              points=_delta(state.scores, scores), next_seat=seat, spotted=spotted,
                                              game_over=True, winner=w, rule_refs=tuple(refs) + ("BW-5",))
        self._fresh_rack(state, ch)
        hand_over(state, ch, nxt, CueBallPlacement.IN_HAND_KITCHEN, phase=Phase.BREAK)
        return state._evolve(ch), Verdict(fouls=tuple(fouls), legal_pocketed=legal, pocketed=pocketed,
                                          points=_delta(state.scores, scores), next_seat=nxt,
                                          cue_ball=CueBallPlacement.IN_HAND_KITCHEN, spotted=spotted,
                                          rule_refs=tuple(refs) + ("BW-4",))

    def apply_option(self, state: GameState, option: Option):
        raise IllegalActionError(f"option {option.value} is not a bowlliards option")


def _bump(t: tuple, k: int) -> tuple:
    out = list(t)
    out[k] += 1
    return tuple(out)


def _delta(old: tuple, new: tuple) -> tuple:
    return tuple(int(b) - int(a) for a, b in zip(old, new))


def _frame_rolls(rolls: tuple, frame: int) -> tuple:
    """The rolls of frame ``frame`` (0-based) within a seat's roll sequence."""
    i = 0
    for _ in range(frame):
        i += 1 if rolls[i] == RACK else 2
    return rolls[i:]
