"""Mr. and Mrs. (BCA, shared/rules/mr_and_mrs.md, MM-n) for 2-6 seats with a handicap each.

* MM-1 / MM-2 two to six players, each ``stronger`` or ``weaker`` (``skill``, one per
  seat, public: the handicap; the seed gives no criterion, so it is configuration).
* MM-3 balls 1-15; MM-4 rack: 1 on the foot spot, 2 right corner, 3 left corner (C-24),
  15 in the centre, the rest random.
* MM-5 / MM-6 every legally pocketed ball scores its number; the game ends as soon as
  the leader cannot be caught (leader minus the best other seat still in the game exceeds
  the points left on the table; two seats: 61); with the table empty, equal totals go to
  the seat that legally pocketed the last ball (a draw when it is not among them).
* MM-7 break: the cue ball must first contact the 1, for every seat; otherwise the incoming
  opponent accepts the position or has the offender re-break a new rack.
* MM-8.1 a legally pocketed ball continues the inning. MM-8.2 a stronger seat must hit the
  lowest-numbered ball first, then pocket a ball or drive a ball to a cushion; MM-8.3 a
  weaker seat may hit any ball first, no calls (C-45 ``weaker_rail_requirement``: the
  pocket-or-cushion rule applies to him too by default).
* MM-8.4 / MM-12 three consecutive fouls lose: with two seats the opponent wins, with
  more the seat is disqualified (``state.active``) and the balls it pocketed stay down.
* MM-8.5 DECL kitchen request of a stronger seat: the lowest ball in the kitchen; MM-8.6 of
  a weaker seat: every ball in the kitchen -> the one nearest the head string.
* MM-9 illegally pocketed and MM-10 jumped balls are spotted, no penalty; MM-12 no points
  are deducted and the incoming seat takes the table in position; MM-11 / C-44 after a
  scratch or a cue ball off the table he has it in hand behind the head string.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum

from .. import serialize
from ..core import EventType, Foul, FoulKind, GameState, Option, Phase, SeatEvent, Verdict
from ..general import add_foul, clear_fouls
from ..seats import active_seats, set_active
from .bca import (APEX_SLOT, CENTRE_SLOT, LEFT_CORNER_SLOT, RIGHT_CORNER_SLOT, BCAConfig, BCAGame, triangle_rack)

__all__ = ["MrAndMrs", "MrAndMrsConfig", "MrAndMrsExtra", "Skill"]


class Skill(str, Enum):
    """MM-8: the handicap class of a seat."""

    STRONGER = "stronger"
    WEAKER = "weaker"


@dataclass(frozen=True)
class MrAndMrsConfig(BCAConfig):
    """Mr. and Mrs. knobs. n_players 2-6 (MM-2). skill: one :class:`Skill` per seat
    (empty = stronger, weaker, stronger, ... in seat order). weaker_rail_requirement: C-45.
    three_foul_loss: MM-8.4."""

    n_players: int = 2
    skill: tuple = ()
    weaker_rail_requirement: bool = True
    three_foul_loss: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        sk = tuple(Skill(v) for v in self.skill) if self.skill else \
            tuple(Skill.STRONGER if k % 2 == 0 else Skill.WEAKER for k in range(self.n_players))
        if len(sk) != self.n_players:
            raise ValueError(f"skill must give one Skill per seat ({self.n_players}), got {len(sk)}")
        object.__setattr__(self, "skill", sk)


@dataclass(frozen=True)
class MrAndMrsExtra:
    """offender: seat whose failed break the incoming player rules on (-1 none).
    last_pocketer: seat that legally pocketed the last ball (MM-6 tie-break)."""

    offender: int = -1
    last_pocketer: int = -1


serialize.register(Skill, MrAndMrsConfig, MrAndMrsExtra)


@functools.lru_cache(maxsize=1024)
def _skill_row(skill: tuple, n: int, seat: int, size: int) -> tuple:
    """`MrAndMrs.score_features` of ``seat`` with the handicaps ``skill`` of ``n`` seats."""
    return tuple((1.0 if skill[(seat + i) % n] is Skill.STRONGER else -1.0) if i < n else 0.0 for i in range(size))

F_BREAK = Foul(FoulKind.ILLEGAL_BREAK, "MM-7")
F_THIRD = Foul(FoulKind.THIRD_CONSECUTIVE_FOUL, "MM-8")


class MrAndMrs(BCAGame):
    """Mr. and Mrs. referee (module docstring)."""

    name = "mr_and_mrs"
    rules_file = "mr_and_mrs.md"
    config_cls = MrAndMrsConfig
    allowed_players = (2, 3, 4, 5, 6)
    legal_shot_rule = "MM-8"
    kitchen_rule = "MM-8"

    def rack(self, config, rng):
        """MM-4: 1 apex, 2 right corner, 3 left corner, 15 centre, others random."""
        return triangle_rack(config, rng, {1: APEX_SLOT, 2: RIGHT_CORNER_SLOT, 3: LEFT_CORNER_SLOT,
                                           15: CENTRE_SLOT})

    def initial_extra(self, config):
        return MrAndMrsExtra()

    #: observation block (`poolgym.envs.scoring`): one entry per possible seat (MM-2: six)
    n_score_features = 6

    def score_features(self, state: GameState, seat: int) -> tuple:
        """Observation block: the public handicap of every seat (MM-8 / C-45), observer
        first then the next seats by number: +1 stronger, -1 weaker, 0 no such seat."""
        return _skill_row(state.config.skill, state.n_players, seat, self.n_score_features)

    def stronger(self, state: GameState, seat: int) -> bool:
        return state.config.skill[seat] is Skill.STRONGER

    def legal_first(self, state):
        if state.phase is Phase.BREAK:
            return (1,) if state.on_table[1] else ()  # MM-7
        if self.stronger(state, state.seat_to_act):  # MM-8.2
            low = state.lowest_ball()
            return (low,) if low is not None else ()
        return ()  # MM-8.3

    def rail_required(self, state):
        return self.stronger(state, state.seat_to_act) or state.config.weaker_rail_requirement

    def kitchen_spot_ball(self, state):
        if self.stronger(state, state.seat_to_act):
            return self.lowest_if_in_kitchen(state)  # MM-8.5
        return self.nearest_if_all_in_kitchen(state, state.balls_on_table())  # MM-8.6

    def option_refs(self, state, option):
        return ("MM-7",)

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state, action, rec):
        cfg: MrAndMrsConfig = state.config
        out = self.analyse(state, action, rec)
        seat = out.seat
        n = state.n_players
        zeros = (0,) * n
        ex: MrAndMrsExtra = state.extra
        nxt = self.next_seat_of(state, seat)
        cue, base = self.ruling_start(state, out)
        base.update(inning=state.inning + 1, seat_to_act=nxt)
        bad_break = out.is_break and out.first != 1
        if out.fouls or bad_break:
            pos, on = self.spotted_after(state, out, out.pocketed + out.jumped)  # MM-9, MM-10
            spotted = tuple(sorted(out.pocketed + out.jumped))
            refs = ("MM-9",) + (("MM-10",) if out.jumped else ())
            fouls = tuple(f for f in out.fouls if not (bad_break and f.kind in (FoulKind.WRONG_BALL_FIRST,
                                                                                  FoulKind.NO_BALL_HIT)))
            if bad_break:
                fouls = (F_BREAK,) + fouls
            cf = add_foul(state.consecutive_fouls, seat)
            base.update(pos=pos, on_table=on, consecutive_fouls=cf, phase=Phase.PLAY)
            if cfg.three_foul_loss and cf[seat] >= 3:  # MM-8.4 / MM-12
                return self._three_fouls(state, base, seat, fouls + (F_THIRD,), out.pocketed, spotted, refs)
            if bad_break:  # MM-7
                opts = (Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS)
                base.update(phase=Phase.OPTION, options=opts, extra=MrAndMrsExtra(offender=seat,
                                                                                  last_pocketer=ex.last_pocketer))
                return state._evolve(base), Verdict._fast(fouls=fouls, pocketed=out.pocketed, points=zeros, next_seat=nxt,
                                                    cue_ball=cue, options=opts, spotted=spotted,
                                                    rule_refs=("MM-7",) + refs)
            return state._evolve(base), Verdict._fast(fouls=fouls, pocketed=out.pocketed, points=zeros, next_seat=nxt,
                                                cue_ball=cue, spotted=spotted, rule_refs=refs + ("MM-12",))
        # legal shot: MM-6 scoring, MM-10 jumped balls spotted
        pos, on = self.spotted(state, out.pos, out.on, out.jumped)
        pts = [0] * n
        pts[seat] = sum(out.pocketed)
        scores = tuple(a + b for a, b in zip(state.scores, pts))
        cont = bool(out.pocketed)
        last = seat if cont else ex.last_pocketer
        refs = (("MM-10",) if out.jumped else ()) + (("MM-6", "MM-8") if cont else ())
        base.update(pos=pos, on_table=on, scores=scores, phase=Phase.PLAY,
                    consecutive_fouls=clear_fouls(state.consecutive_fouls, seat),
                    extra=MrAndMrsExtra(last_pocketer=last))
        if cont:
            base.update(seat_to_act=seat, inning=state.inning)
        s = state._evolve(base)
        s, end_refs = self._game_end(s)
        return s, Verdict._fast(legal_pocketed=out.pocketed, pocketed=out.pocketed, points=tuple(pts),
                          next_seat=s.seat_to_act, spotted=tuple(sorted(out.jumped)), turn_continues=cont and
                          not s.game_over, game_over=s.game_over, winner=s.winner,
                          rule_refs=tuple(dict.fromkeys(refs + end_refs)))

    def _three_fouls(self, state, base, seat, fouls, pocketed, spotted, refs):
        """MM-8.4: two seats -> the opponent wins; more -> the seat is disqualified, its
        pocketed balls stay down, the others play on."""
        n = state.n_players
        zeros = (0,) * n
        if n == 2:
            w = 1 - seat
            s = self.finish(state, base, w)
            return s, Verdict._fast(fouls=fouls, pocketed=pocketed, points=zeros, next_seat=w, spotted=spotted,
                              game_over=True, winner=w, rule_refs=refs + ("MM-8", "MM-12"))
        ev = (SeatEvent(EventType.DISQUALIFIED, seat),)
        s = state._evolve(base)
        s = s._evolve({"active": set_active(s, seat, False), "history": s.history + ev})
        s, end_refs = self._game_end(s)
        return s, Verdict._fast(fouls=fouls, pocketed=pocketed, points=zeros, next_seat=s.seat_to_act, cue_ball=s.cue_ball,
                          spotted=spotted, game_over=s.game_over, winner=s.winner,
                          rule_refs=refs + ("MM-8", "MM-12") + end_refs, events=ev)

    def _game_end(self, state: GameState):
        """MM-6: the leader among the seats still in the game cannot be caught, or the table
        is empty (ties: the last legal pocketer)."""
        seats = active_seats(state)
        if len(seats) == 1:
            return self.finish(state, {"seat_to_act": seats[0]}, seats[0]), ("MM-8",)
        left = sum(b for b in range(1, 16) if state.on_table[b])
        ranked = sorted(seats, key=lambda k: -state.scores[k])
        lead, second = state.scores[ranked[0]], state.scores[ranked[1]]
        if left == 0:
            top = [k for k in seats if state.scores[k] == lead]
            if len(top) == 1:
                w = top[0]
            else:
                w = state.extra.last_pocketer if state.extra.last_pocketer in top else None
            return self.finish(state, {}, w), ("MM-6",)
        if lead - second > left:
            return self.finish(state, {}, ranked[0]), ("MM-6",)
        if state.seat_to_act not in seats:
            return state._evolve({"seat_to_act": self.next_seat_of(state, state.seat_to_act)}), ()
        return state, ()
