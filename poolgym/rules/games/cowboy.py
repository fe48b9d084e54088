"""Cowboy referee (BCA, shared/rules/cowboy.md, CW-n).

* CW-1 / CW-2 / CW-3 carom and pocket scoring with the 1, 3 and 5 (rows 1, 3, 5; rows 2 and
  4 never come into play); two or more players (``n_players``) in rotation.
* CW-4 set-up: 1 on the head spot, 3 on the foot spot, 5 on the centre spot; the opening
  shot is taken with cue ball in hand behind the head string.
* CW-5 scoring up to 90: a pocketed ball scores its number, a carom on two object balls 1,
  on all three 2 (:func:`poolgym.rules.queries.carom_sequence`), all added (at most 11 a
  shot); the 101st point only by caroming the cue ball off the 1 into a called pocket
  (``called_pocket``, ``called_ball`` None) touching no other ball. Opening shot: the cue
  ball must hit the 3 first, else the next player chooses OPPONENT_REBREAKS (the offender
  repeats the opening shot) or BREAK (he takes the opening shot himself); either way the
  balls are set up again (derived: the opening shot is replayed from the set-up).
* CW-6.1 a scoring shot continues the inning; CW-6.2 after the contact a ball must reach a
  cushion (or the cue ball drop, at 100); CW-6.3 pocketed balls are spotted on their own
  spots after every shot, held out while the spot is occupied; an incoming player on 100
  whose 1-spot is occupied gets all balls set up again and cue ball in hand behind the head
  string; CW-6.4 going past 90 is a foul; CW-6.5 from 90 to 100 only caroms score, a
  pocketed object ball is a foul; past 100 with caroms: foul (C-38 ``overshoot_100`` =
  foul | cap_at_100); CW-6.6 at 100 a foul if the cue ball misses the 1, touches another
  ball or drops in an uncalled pocket; CW-6.7 a scratch is a foul except on the winning
  shot; CW-6.8 three consecutive fouls lose (with more than two players the offender is out).
* CW-7 / CW-8 illegally pocketed and jumped object balls are spotted (CW-6.3) without
  penalty.
* CW-9 (empty; C-37) after a scratch or a cue ball off the table the next player has cue
  ball in hand behind the head string (``cue_after_scratch`` = kitchen | anywhere).
* CW-10 a foul costs no points, but every point of that inning is cancelled; the next
  player accepts the table unless the cue ball was pocketed or jumped.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from .. import general, queries as q, serialize
from ..core import (CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option, Phase, RulesConfig,
                    ShotAction, Verdict)
from ..game import DisciplineBase
from ..geometry import ball_radius, get_table
from ..seats import next_in_order, set_active
from .common import game_fouls, hand_over, shot_opening

__all__ = ["Cowboy", "CowboyConfig", "CowboyExtra", "CueAfterScratch", "Overshoot100", "BALLS", "home_spots"]

BALLS = (1, 3, 5)  # CW-3
EXACT = 90  # CW-6.4
LAST = 100  # CW-6.6


class CueAfterScratch(str, Enum):
    """C-37: cue ball for the next player after a scratch or a jumped cue ball."""

    KITCHEN = "kitchen"
    ANYWHERE = "anywhere"


class Overshoot100(str, Enum):
    """C-38: caroms that would carry the score past 100."""

    FOUL = "foul"
    CAP_AT_100 = "cap_at_100"


@dataclass(frozen=True)
class CowboyConfig(RulesConfig):
    """Cowboy knobs (cowboy.md section 4): target (CW-5, 101), cue_after_scratch (C-37),
    overshoot_100 (C-38), three_foul_loss (CW-6.8)."""

    target: int = 101
    cue_after_scratch: CueAfterScratch = CueAfterScratch.KITCHEN
    overshoot_100: Overshoot100 = Overshoot100.FOUL
    three_foul_loss: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        for name, cls in (("cue_after_scratch", CueAfterScratch), ("overshoot_100", Overshoot100)):
            v = getattr(self, name)
            if not isinstance(v, cls):
                object.__setattr__(self, name, cls(v))
        if self.n_players < 2:
            raise ValueError(f"n_players must be >= 2 for cowboy, got {self.n_players!r}")
        if self.target != LAST + 1:
            raise ValueError(f"target must be {LAST + 1} (CW-5), got {self.target!r}")


@dataclass(frozen=True)
class CowboyExtra:
    """inning_start: the shooter's score when his inning began (CW-10 cancels back to it);
    held: pocketed balls waiting for their occupied spot (CW-6.3). Seats out of the game
    (CW-6.8 with more than two players) are ``state.active``."""

    inning_start: int = 0
    held: tuple = ()


serialize.register(CueAfterScratch, Overshoot100, CowboyConfig, CowboyExtra)

F_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "G-3.18")
F_NO_RAIL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "CW-6.2")
F_SCRATCH = Foul(FoulKind.SCRATCH, "CW-6.7")
F_PAST_90 = Foul(FoulKind.OVERSCORE, "CW-6.4")
F_PAST_100 = Foul(FoulKind.OVERSCORE, "CW-6.5")
F_POT_91 = Foul(FoulKind.POT_NOT_ALLOWED, "CW-6.5")
F_MISS_ONE = Foul(FoulKind.WRONG_BALL_FIRST, "CW-6.6")
F_OTHER = Foul(FoulKind.CUE_BALL_TOUCHED_OTHER, "CW-6.6")
F_UNCALLED = Foul(FoulKind.SCRATCH, "CW-6.6")
F_THIRD = Foul(FoulKind.THIRD_CONSECUTIVE_FOUL, "CW-6.8")


def home_spots(table) -> dict:
    """CW-4: {ball: (x, y)} -- 1 on the head spot, 3 on the foot spot, 5 on the centre spot."""
    return {1: tuple(map(float, table.head_spot)), 3: tuple(map(float, table.foot_spot)),
            5: tuple(map(float, table.center_spot))}


def carom_points(sequence: tuple) -> int:
    """CW-5: a carom on two object balls scores 1, on all three 2."""
    n = len(set(sequence))
    return 2 if n >= 3 else (1 if n == 2 else 0)


class Cowboy(DisciplineBase):
    """BCA cowboy (module docstring). Rows 0-5 (the 2 and the 4 never on the table).

    >>> from poolgym.rules import PlaceCueBall, ShotAction
    >>> from poolgym.rules.testing import record
    >>> d = Cowboy()
    >>> s = d.initial_state(CowboyConfig(), seed=0)
    >>> s, _ = d.apply(s, PlaceCueBall(0.3, 0.4))
    >>> s2, v = d.apply_shot_record(s, ShotAction(3.0, 80.0), record(s, hit=(3, 5), pocketed={5: 2}))
    >>> v.points, v.turn_continues, v.spotted
    ((6, 0), True, (5,))
    """

    name = "cowboy"
    rules_file = "cowboy.md"
    n_balls = 6
    config_cls = CowboyConfig
    allowed_players = tuple(range(2, 16))  # CW-2: any number
    n_score_features = 8

    def score_features(self, state: GameState, seat: int) -> tuple:
        """Observation score block (poolgym.envs.scoring): the observer's points to 90 and to
        101 (/ 101), its score at the start of the inning (/ 101, CW-10 cancels back to it),
        caroms-only (90-99, CW-6.5) and at-100 (CW-6.6) flags, and the balls held off their
        occupied spots (1, 3, 5; CW-6.3)."""
        ex: CowboyExtra = state.extra
        s = state.scores[seat]
        start = ex.inning_start if seat == state.seat_to_act else s
        return ((EXACT - s) / 101.0, (LAST + 1 - s) / 101.0, start / 101.0, float(EXACT <= s < LAST),
                float(s == LAST)) + tuple(float(b in ex.held) for b in BALLS)

    def rack(self, config: CowboyConfig, rng: np.random.Generator):
        table = get_table(config.table)
        pos = np.zeros((6, 2))
        on = np.zeros(6, bool)
        pos[0] = (float(table.w) / 2, float(table.head_string_y) / 2)
        pos[2] = pos[4] = pos[0]
        for b, xy in home_spots(table).items():
            pos[b] = xy
            on[b] = True
        return pos, on

    def initial_extra(self, config):
        return CowboyExtra()

    def useful_balls(self, state: GameState, seat: int) -> tuple:
        """Below 90 the balls whose number keeps the score at most 90 (CW-6.4); from 90 on no
        pot serves (CW-6.5: caroms only)."""
        s = state.scores[seat]
        if s >= EXACT:
            return ()
        return tuple(b for b in state.balls_on_table() if s + b <= EXACT)

    def shot_spec(self, state: GameState) -> dict:
        at_100 = state.phase is Phase.PLAY and state.scores[state.seat_to_act] == LAST
        if state.phase is Phase.BREAK:
            return {"target_balls": (3,)}
        if at_100:
            return {"target_balls": (1,), "call_required": True}
        return {"target_balls": state.balls_on_table()}

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        """CW-6.6: at 100 the cue ball's pocket must be called (``called_pocket``, no ball)."""
        if action.push_out or action.safety:
            raise IllegalActionError("cowboy has no push-out or safety declaration")
        if self.shot_spec(state).get("call_required") and action.called_pocket is None:
            raise IllegalActionError("at 100 call the pocket for the cue ball (CW-6.6)")
        if action.called_ball is not None:
            raise IllegalActionError("cowboy calls only a pocket for the cue ball (CW-5)")

    # ------------------------------------------------------------------ spotting
    def _respot(self, state: GameState, ch: dict, balls: tuple, held: tuple):
        """CW-6.3: put ``balls`` and the held balls back on their home spots when free;
        returns (spotted, still held)."""
        table = self.table(state)
        R = ball_radius()
        P = np.asarray(ch["pos"], float).reshape(-1, 2)
        on = list(ch["on_table"])
        spotted, wait = [], []
        for b in sorted(set(balls) | set(held)):
            xy = np.asarray(home_spots(table)[b])
            others = [k for k in range(len(on)) if on[k] and k != b]
            if others and np.min(np.hypot(*(P[others] - xy).T)) < 2 * R:
                wait.append(b)
                on[b] = False
                continue
            P[b] = xy
            on[b] = True
            spotted.append(b)
        ch["pos"], ch["on_table"] = tuple(P.reshape(-1).tolist()), tuple(on)
        return tuple(spotted), tuple(wait)

    def _setup_again(self, state: GameState, ch: dict) -> None:
        """CW-6.3 / CW-4: every ball back on its spot, cue ball off the table (in hand)."""
        pos, on = self.rack(state.config, None)
        ch["pos"], ch["on_table"] = tuple(pos.reshape(-1).tolist()), tuple(bool(v) for v in on)

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state: GameState, action: ShotAction, rec):
        cfg: CowboyConfig = state.config
        seat = state.seat_to_act
        ex: CowboyExtra = state.extra
        n = state.n_players
        s0, s = ex.inning_start, state.scores[seat]
        f, jumped, ch = shot_opening(state, rec)
        pocketed = f.pocketed
        caroms = q.carom_sequence(rec)
        zeros = (0,) * n
        nxt = next_in_order(state, seat)
        if state.phase is Phase.BREAK and f.first != 3:  # CW-5 opening shot
            self._setup_again(state, ch)
            opts = (Option.OPPONENT_REBREAKS, Option.BREAK)
            hand_over(state, ch, nxt, CueBallPlacement.IN_HAND_KITCHEN, phase=Phase.OPTION)
            ch["options"] = opts
            return state._evolve(ch), Verdict(pocketed=pocketed, points=zeros, next_seat=nxt, options=opts,
                                              rule_refs=("CW-5",))
        fouls = list(game_fouls(state, action, rec, f, jumped_is_foul=False, no_hit=F_NO_HIT, no_rail=F_NO_RAIL))
        refs = ["CW-5"]
        won = False
        gain = 0
        if s == LAST:  # CW-6.6
            fouls = [x for x in fouls if x.kind is not FoulKind.SCRATCH]
            if f.first != 1:
                fouls.append(F_MISS_ONE)
            if any(b != 1 for b in caroms):
                fouls.append(F_OTHER)
            if f.cue_pocketed and int(rec.pocket[rec.cue_ball]) != action.called_pocket:
                fouls.append(F_UNCALLED)
            if pocketed:
                fouls.append(F_POT_91)
            fouls = [x for x in fouls if not (x is F_NO_RAIL and f.cue_pocketed)]
            if f.cue_pocketed and not fouls and not f.cue_off:
                won, gain = True, 1
            refs.append("CW-6.6")
        else:
            if f.cue_pocketed:
                fouls = [F_SCRATCH if x.kind is FoulKind.SCRATCH else x for x in fouls]
            pts_pot = sum(pocketed)
            pts_carom = carom_points(caroms)
            if s < EXACT:
                gain = pts_pot + pts_carom
                if s + gain > EXACT:
                    fouls.append(F_PAST_90)
            else:  # 90..99: caroms only (CW-6.5)
                gain = pts_carom
                if pocketed:
                    fouls.append(F_POT_91)
                if s + gain > LAST:
                    if cfg.overshoot_100 is Overshoot100.FOUL:
                        fouls.append(F_PAST_100)
                    else:
                        gain = LAST - s
        scores = list(state.scores)
        if fouls:
            scores[seat] = s0  # CW-10: the inning's points are cancelled
            spotted, held = self._respot(state, ch, pocketed + jumped, ex.held)
            cf = general.add_foul(state.consecutive_fouls, seat)
            fouls_t = tuple(fouls)
            refs += ["CW-10", "CW-7"] if pocketed else ["CW-10"]
            if jumped:
                refs.append("CW-8")
            if cfg.three_foul_loss and cf[seat] >= 3:  # CW-6.8
                ch["active"] = set_active(state, seat, False)
                fouls_t = fouls_t + (F_THIRD,)
                left = [k for k in range(n) if ch["active"][k]]
                if len(left) == 1:
                    ch.update(phase=Phase.GAME_OVER, winner=left[0], consecutive_fouls=cf, scores=tuple(scores),
                              extra=CowboyExtra(s0, held))
                    return state._evolve(ch), Verdict(fouls=fouls_t, pocketed=pocketed,
                                                      points=_delta(state.scores, scores), next_seat=left[0],
                                                      spotted=spotted, game_over=True, winner=left[0],
                                                      rule_refs=tuple(refs) + ("CW-6.8",))
            scratch = f.cue_pocketed or f.cue_off
            cue = ((CueBallPlacement.IN_HAND_KITCHEN if cfg.cue_after_scratch is CueAfterScratch.KITCHEN
                    else CueBallPlacement.IN_HAND_ANYWHERE) if scratch else CueBallPlacement.IN_POSITION)
            ch.update(consecutive_fouls=cf, scores=tuple(scores))
            cue = self._incoming(state, ch, nxt, cue, scores[nxt], CowboyExtra(scores[nxt], held))
            return state._evolve(ch), Verdict(fouls=fouls_t, pocketed=pocketed, points=_delta(state.scores, scores),
                                              next_seat=nxt, cue_ball=cue, spotted=spotted, rule_refs=tuple(refs))
        scores[seat] = s + gain
        ch["consecutive_fouls"] = general.clear_fouls(state.consecutive_fouls, seat)
        ch["scores"] = tuple(scores)
        if won:
            ch.update(phase=Phase.GAME_OVER, winner=seat)
            return state._evolve(ch), Verdict(points=_delta(state.scores, scores), next_seat=seat, game_over=True,
                                              winner=seat, rule_refs=tuple(refs) + ("CW-6.7",))
        spotted, held = self._respot(state, ch, pocketed + jumped, ex.held)
        if pocketed:
            refs.append("CW-6.3")
        if jumped:
            refs.append("CW-8")
        if gain > 0:  # CW-6.1
            refs.append("CW-6.1")
            cue = self._incoming(state, ch, seat, CueBallPlacement.IN_POSITION, scores[seat],
                                 CowboyExtra(s0, held), new_inning=False)
            return state._evolve(ch), Verdict(legal_pocketed=pocketed, pocketed=pocketed,
                                              points=_delta(state.scores, scores), next_seat=seat, cue_ball=cue,
                                              spotted=spotted, turn_continues=True, rule_refs=tuple(refs))
        cue = self._incoming(state, ch, nxt, CueBallPlacement.IN_POSITION, scores[nxt],
                             CowboyExtra(scores[nxt], held))
        return state._evolve(ch), Verdict(pocketed=pocketed, points=_delta(state.scores, scores), next_seat=nxt,
                                          cue_ball=cue, spotted=spotted, rule_refs=tuple(refs))

    def _incoming(self, state: GameState, ch: dict, seat: int, cue: CueBallPlacement, score: int,
                  extra: CowboyExtra, new_inning: bool = True) -> CueBallPlacement:
        """Hand the table to ``seat``; CW-6.3: a shooter on 100 whose 1 cannot be on its spot
        gets every ball set up again and cue ball in hand behind the head string."""
        if score == LAST and 1 in extra.held:
            self._setup_again(state, ch)
            extra = CowboyExtra(extra.inning_start, ())
            cue = CueBallPlacement.IN_HAND_KITCHEN
        ch["extra"] = extra
        if cue is CueBallPlacement.IN_POSITION and not ch["on_table"][0]:
            cue = CueBallPlacement.IN_HAND_KITCHEN
        hand_over(state, ch, seat, cue, new_inning=new_inning)
        return cue

    # ------------------------------------------------------------------ options
    def apply_option(self, state: GameState, option: Option):
        """CW-5 opening shot that missed the 3: OPPONENT_REBREAKS (the offender repeats it) or
        BREAK (the incoming player takes it); the balls are already set up again."""
        seat = state.seat_to_act
        if option is Option.OPPONENT_REBREAKS:
            shooter = state.breaker  # the seat that played the opening shot
        elif option is Option.BREAK:
            shooter = seat
        else:
            raise IllegalActionError(f"option {option.value} is not a cowboy option")
        s = state.replace(phase=Phase.BREAK, seat_to_act=shooter, breaker=shooter, options=(),
                          cue_ball=CueBallPlacement.IN_HAND_KITCHEN, cue_placed=False,
                          extra=CowboyExtra(state.scores[shooter], ()))
        return s, Verdict(points=(0,) * state.n_players, next_seat=shooter,
                          cue_ball=CueBallPlacement.IN_HAND_KITCHEN, rule_refs=("CW-5",))


def _delta(old, new) -> tuple:
    return tuple(int(b) - int(a) for a, b in zip(old, new))
