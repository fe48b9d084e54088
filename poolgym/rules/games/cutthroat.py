"""Cut-throat (BCA, shared/rules/cutthroat.md, CT-n) for 3 or 5 seats.

* CT-2 three or five players; CT-3 balls 1-15.
* CT-4 rack: 1 on the foot spot, 6 in the right and 11 in the left back corner (C-24),
  the rest random.
* CT-5 groups by position in the order of play (``state.order``): three players 1-5,
  6-10, 11-15; five players 1-3 ... 13-15. ``state.groups[seat]`` is the seat's position
  (its group's index).
* CT-6 / CT-7 the seat that keeps a ball of its group on the table when every other
  group is down wins.
* CT-8 open break (C-26); otherwise the next player accepts the table or re-racks and
  breaks; balls pocketed on the break stay down. The break may hit any ball (derived).
* CT-9.1 legal shot: the cue ball first contacts a ball of an opponent still in the game,
  then G-3.19 pocket or cushion; a legally pocketed ball continues the inning.
* CT-9.2 / CT-10 on a foul opponents' balls pocketed are spotted, the shooter's own stay
  down; a seat whose last ball is down is eliminated by any means.
* CT-9.3 elimination (``state.active``) until the end of the game or a foul by another
  seat; CT-13 a foul ends the inning, spots one previously pocketed ball of each opponent
  who has any (``penalty_spot``: lowest | highest, C-36 (c)), after the shot's own
  spotting (C-36 (b)), and every eliminated seat but the shooter re-enters (C-36 (a)).
* CT-11 jumped balls: as CT-10 (opponents' spotted, own stay off), not a foul in itself.
* CT-12 cue ball pocketed or off the table: the next player has it in hand behind the head
  string; CT-9.4 DECL kitchen request: every opponent's ball in the kitchen -> the ball
  nearest the head string may be spotted.
* CT-9.5 the next game is played in elimination order (the first eliminated breaks, the
  winner shoots last): :meth:`CutThroat.next_game`.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum
from typing import Optional

from .. import serialize
from ..core import EventType, Foul, FoulKind, GameState, Option, Phase, SeatEvent, Verdict
from ..general import add_foul, clear_fouls
from ..seats import is_active, order_of
from .bca import (APEX_SLOT, LEFT_CORNER_SLOT, RIGHT_CORNER_SLOT, BCAConfig, BCAGame, triangle_rack)

__all__ = ["CutThroat", "CutThroatConfig", "CutThroatExtra", "PenaltySpot", "group_balls"]


class PenaltySpot(str, Enum):
    """C-36 (c): which previously pocketed ball of each opponent a foul spots (CT-13)."""

    LOWEST = "lowest"
    HIGHEST = "highest"


@dataclass(frozen=True)
class CutThroatConfig(BCAConfig):
    """Cut-throat knobs (cutthroat.md section 4). n_players 3 or 5 (CT-2)."""

    n_players: int = 3
    penalty_spot: PenaltySpot = PenaltySpot.LOWEST

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "penalty_spot", PenaltySpot(self.penalty_spot))


@dataclass(frozen=True)
class CutThroatExtra:
    """offender: seat whose failed break the incoming player rules on (-1 none).
    eliminated: seats in the order they were (last) eliminated this game (CT-9.5)."""

    offender: int = -1
    eliminated: tuple = ()


serialize.register(PenaltySpot, CutThroatConfig, CutThroatExtra)

F_OPEN_BREAK = Foul(FoulKind.ILLEGAL_BREAK, "CT-8")


def group_balls(state: GameState, seat: int) -> tuple:
    """CT-5: the balls of ``seat``'s group (by its position in the order of play)."""
    return _group_of(len(state.scores), state.groups[seat])


@functools.lru_cache(maxsize=256)
def _group_of(n_players: int, p: int) -> tuple:
    """The balls of group ``p`` with ``n_players`` seats (15 / n each, CT-5), memoised."""
    size = 15 // n_players
    return tuple(range(p * size + 1, (p + 1) * size + 1))


class CutThroat(BCAGame):
    """Cut-throat referee (module docstring)."""

    name = "cutthroat"
    rules_file = "cutthroat.md"
    config_cls = CutThroatConfig
    allowed_players = (3, 5)
    legal_shot_rule = "CT-9.1"
    kitchen_rule = "CT-9.4"

    def rack(self, config, rng):
        """CT-4: 1 apex, 6 right corner, 11 left corner, others random."""
        return triangle_rack(config, rng, {1: APEX_SLOT, 6: RIGHT_CORNER_SLOT, 11: LEFT_CORNER_SLOT})

    def initial_extra(self, config):
        return CutThroatExtra()

    def setup_seats(self, state: GameState) -> GameState:
        """CT-5: groups by position in the order of play."""
        return state.replace(groups=self.groups_for(state))

    @staticmethod
    def groups_for(state: GameState) -> tuple:
        order = order_of(state)
        return tuple(order.index(s) for s in range(state.n_players))

    def opponents_balls(self, state: GameState, seat: int) -> tuple:
        """Balls on the table of the opponents still in the game (CT-9.1)."""
        on, act, groups = state.on_table, state.active, state.groups
        n = len(state.scores)
        out = []
        for k in range(n):
            if k != seat and (not act or act[k]):
                out += [b for b in _group_of(n, groups[k]) if on[b]]
        return tuple(out)

    def legal_first(self, state):
        if state.phase is Phase.BREAK:
            return ()
        return self.opponents_balls(state, state.seat_to_act)

    def kitchen_spot_ball(self, state):
        return self.nearest_if_all_in_kitchen(state, self.opponents_balls(state, state.seat_to_act))

    def option_refs(self, state, option):
        return ("CT-8",)

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state, action, rec):
        cfg: CutThroatConfig = state.config
        out = self.analyse(state, action, rec)
        seat = out.seat
        n = state.n_players
        zeros = (0,) * n
        own = set(group_balls(state, seat))
        ex: CutThroatExtra = state.extra
        cue, base = self.ruling_start(state, out)
        refs = []
        if out.is_break and not out.open_break:
            # CT-8: the balls pocketed stay down; jumped ones as CT-11
            pos, on = self.spotted_after(state, out, [b for b in out.jumped if b not in own])
            s = state._evolve(dict(base, pos=pos, on_table=on))
            s, elim_ev, refs_e = self._eliminate(s)
            opts = (Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK)
            s = s._evolve({"seat_to_act": self.next_seat_of(s, seat), "phase": Phase.OPTION, "options": opts,
                           "inning": state.inning + 1, "consecutive_fouls": add_foul(state.consecutive_fouls, seat),
                           "extra": CutThroatExtra(offender=seat, eliminated=s.extra.eliminated)})
            s, v = self._result(s, Verdict._fast(fouls=out.fouls + (F_OPEN_BREAK,), pocketed=out.pocketed, points=zeros,
                                           next_seat=s.seat_to_act, cue_ball=cue, options=opts,
                                           rule_refs=("CT-8",) + refs_e, events=elim_ev))
            return s, v
        if out.fouls:
            # CT-13 (+ CT-9.2, CT-10, CT-11, CT-12); C-36 order: the shot's balls, then one per opponent
            back = [b for b in out.pocketed + out.jumped if b not in own]
            pos, on = self.spotted(state, out.pos, out.on, back)
            penalty = []
            for k in range(n):
                if k == seat:
                    continue
                down = [b for b in group_balls(state, k) if not on[b]]
                if down:
                    penalty.append(min(down) if cfg.penalty_spot is PenaltySpot.LOWEST else max(down))
            pos, on = self.spotted(state, pos, on, penalty)
            if out.cue_down:
                on = self.cue_off(on)
            refs += ["CT-13", "CT-10"] + (["CT-11"] if out.jumped else []) + (["CT-12"] if out.cue_down else [])
            s = state._evolve(dict(base, pos=pos, on_table=on, inning=state.inning + 1, phase=Phase.PLAY,
                                   consecutive_fouls=add_foul(state.consecutive_fouls, seat)))
            # CT-9.3 / CT-13: every eliminated seat but the shooter re-enters
            act = list(s.active) if s.active else [True] * n
            events = []
            for k in range(n):
                if k != seat and not act[k]:
                    act[k] = True
                    events.append(SeatEvent(EventType.REENTERED, k))
            elim = tuple(k for k in ex.eliminated if not act[k] or k == seat)
            s = s._evolve({"active": tuple(act), "extra": CutThroatExtra(eliminated=elim)})
            s, elim_ev, refs_e = self._eliminate(s)
            s = s._evolve({"seat_to_act": self.next_seat_of(s, seat), "history": s.history + tuple(events)})
            return self._result(s, Verdict._fast(fouls=out.fouls, pocketed=out.pocketed, points=zeros,
                                           next_seat=s.seat_to_act, cue_ball=cue,
                                           spotted=tuple(sorted(set(back) | set(penalty))),
                                           rule_refs=tuple(refs) + refs_e, events=tuple(events) + elim_ev))
        # legal shot (CT-9.1): opponents' jumped balls spotted (CT-11)
        back = [b for b in out.jumped if b not in own]
        pos, on = self.spotted(state, out.pos, out.on, back)
        if back:
            refs.append("CT-11")
        s = state._evolve(dict(base, pos=pos, on_table=on, phase=Phase.PLAY,
                               consecutive_fouls=clear_fouls(state.consecutive_fouls, seat)))
        s, elim_ev, refs_e = self._eliminate(s)
        cont = bool(out.pocketed) and is_active(s, seat)
        if cont:
            refs.append("CT-9.1")
        play_next = seat if cont else self.next_seat_of(s, seat)
        s = s._evolve({"seat_to_act": play_next, "inning": state.inning + (0 if cont else 1)})
        return self._result(s, Verdict._fast(legal_pocketed=out.pocketed, pocketed=out.pocketed, points=zeros,
                                       next_seat=play_next, spotted=tuple(sorted(back)), turn_continues=cont,
                                       rule_refs=tuple(refs) + refs_e, events=elim_ev))

    def _eliminate(self, state: GameState):
        """CT-9.2 / CT-9.3: every active seat with no ball of its group on the table is out."""
        n = state.n_players
        act = list(state.active) if state.active else [True] * n
        events = []
        elim = list(state.extra.eliminated)
        on = state.on_table
        for k in order_of(state):
            if act[k] and not any(on[b] for b in group_balls(state, k)):
                act[k] = False
                events.append(SeatEvent(EventType.ELIMINATED, k))
                if k in elim:
                    elim.remove(k)
                elim.append(k)
        if not events:
            return state, (), ()
        s = state._evolve({"active": tuple(act), "history": state.history + tuple(events),
                           "extra": CutThroatExtra(offender=state.extra.offender, eliminated=tuple(elim))})
        return s, tuple(events), ("CT-9.3",)

    def _result(self, state: GameState, verdict: Verdict):
        """CT-7: one seat left with balls on the table wins. When the last balls of every
        seat fall on one shot nobody kept a ball: a draw (derived)."""
        left = [k for k in range(state.n_players) if is_active(state, k)]
        if len(left) > 1:
            return state, verdict
        w = left[0] if left else None
        s = self.finish(state, {"seat_to_act": state.seat_to_act if w is None else w}, w)
        return s, Verdict._fast(fouls=verdict.fouls, legal_pocketed=verdict.legal_pocketed, pocketed=verdict.pocketed,
                          points=verdict.points, next_seat=s.seat_to_act, spotted=verdict.spotted, game_over=True,
                          winner=w,
                          rule_refs=verdict.rule_refs + ("CT-7",), events=verdict.events)

    def next_game(self, state: GameState, seed: Optional[int] = None) -> GameState:
        """CT-9.5: the next game is played in the order of elimination, the winner last
        (the first eliminated breaks); groups follow the new order (CT-5)."""
        new = super().next_game(state, seed)
        if state.winner is None:
            return new
        order = tuple(k for k in state.extra.eliminated if k != state.winner)
        order = order + tuple(k for k in order_of(state) if k not in order and k != state.winner) + (state.winner,)
        s = new.replace(order=order, seat_to_act=order[0], breaker=order[0])
        return s.replace(groups=self.groups_for(s))
