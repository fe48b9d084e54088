"""Forty-one (BCA, shared/rules/forty_one.md, 41-n) for 2-15 seats.

* 41-2 two to fifteen players; 41-3 / 41-4 balls 1-15 racked at random (state RNG).
* 41-5 each seat draws a pea (``state.private[seat]``, :class:`~.pea_pool.Pea`; the bottle
  is ``state.hidden``); 41-6 the object: points + pea = exactly 41.
* 41-7 / 41-9.1 every ball pocketed on a legal shot scores its number for the shooter (his
  pocketed balls are public: ``extra.pocketed_by``; ``state.scores`` is their total); any
  ball may be hit first, no calls.
* 41-9.2 one shot per turn: the next seat in order always plays next.
* 41-9.4 legal shot: after the contact a ball is pocketed or reaches a cushion (G-3.19).
* 41-8 open break (C-26); failing it is a foul.
* 41-9.3 / 41-10 / C-39 balls pocketed on a foul do not count and are spotted (the foul is
  the one penalty); 41-11 jumped balls are spotted, no penalty.
* 41-12 cue ball pocketed or off the table: the next seat has it in hand behind the head
  string; 41-9.5 DECL kitchen request: every ball in the kitchen -> the one nearest the
  head string is spotted.
* 41-13 for a foul the shooter spots one ball he pocketed before (C-41
  ``penalty_ball``: most recent | lowest | highest | player_choice), none if he has none.
  With ``player_choice`` and two or more such balls the fouler designates it: the foul
  opens :attr:`Phase.OPTION` for him with `Option.SPOT_PENALTY_BALL` naming one of his
  pocketed balls (``ActionSpec.spot_choices``); then play goes on as after any foul.
* 41-9.6 / 41-9.7 claims. ``auto_declare`` (default): exactly 41 wins at once (the pea is
  revealed); over 41 is a bust -- his balls are spotted, his total is 0 and he takes a new
  pea (C-40 ``return_old_pea_on_bust``; ``new_pea_on_bust``). Without it, after each of
  his shots the shooter has a declaration window (``Phase.DECLARE``, opened after every
  shot so that it tells the others nothing): ``CLAIM_41`` (offered only when true),
  ``DECLARE_BUST`` (offered when over 41, then ``DRAW_NEW_PEA`` or ``PASS``) or ``PASS``.
  An unclaimed 41 may be claimed at his next turn (``CLAIM_41`` beside the shot); an
  undeclared bust disqualifies him (two seats: the opponent wins).
* 41-9.8 table cleared and nobody at 41: the highest total wins; a tie is a draw.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .. import serialize
from ..core import (CueBallPlacement, Declaration, EventType, Foul, FoulKind, GameState, IllegalActionError, Option,
                    Phase, SeatEvent, Verdict)
from ..general import add_foul, clear_fouls
from ..seats import active_seats, draw_from, is_active, set_active, set_private
from .bca import OBJECT_BALLS, BCAConfig, BCAGame, triangle_rack
from .pea_pool import Bottle, Pea

__all__ = ["FortyOne", "FortyOneConfig", "FortyOneExtra", "PenaltyBall", "TARGET"]

TARGET = 41


class PenaltyBall(str, Enum):
    """C-41: which previously pocketed ball the fouler spots (41-13)."""

    MOST_RECENT = "most_recent"
    LOWEST = "lowest"
    HIGHEST = "highest"
    PLAYER_CHOICE = "player_choice"


@dataclass(frozen=True)
class FortyOneConfig(BCAConfig):
    """Forty-one knobs (forty_one.md section 5). n_players 2-15 (default 4, 41-2)."""

    n_players: int = 4
    auto_declare: bool = True
    return_old_pea_on_bust: bool = True
    new_pea_on_bust: bool = True
    penalty_ball: PenaltyBall = PenaltyBall.MOST_RECENT

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "penalty_ball", PenaltyBall(self.penalty_ball))


@dataclass(frozen=True)
class FortyOneExtra:
    """pocketed_by: per seat the balls it pocketed legally, in order (public).
    busted: in a manual declaration window, the shooter has declared his bust.
    """

    pocketed_by: tuple = ()
    busted: bool = False


serialize.register(PenaltyBall, FortyOneConfig, FortyOneExtra)

F_OPEN_BREAK = Foul(FoulKind.ILLEGAL_BREAK, "41-8")


class FortyOne(BCAGame):
    """Forty-one referee (module docstring). Seats 0..N-1 in order of play."""

    name = "forty_one"
    rules_file = "forty_one.md"
    config_cls = FortyOneConfig
    allowed_players = tuple(range(2, 16))
    legal_shot_rule = "41-9.4"
    kitchen_rule = "41-9.5"

    def rack(self, config, rng):
        """41-4: standard triangle, random order."""
        return triangle_rack(config, rng)

    def initial_extra(self, config):
        return FortyOneExtra(pocketed_by=((),) * config.n_players)

    def setup_seats(self, state: GameState) -> GameState:
        """41-5: every seat draws a pea, in order of play."""
        n = state.n_players
        drawn, rest, s = draw_from(state, OBJECT_BALLS, n)
        return s.replace(private=tuple(Pea(int(k)) for k in drawn), hidden=Bottle(tuple(rest)),
                         history=tuple(SeatEvent(EventType.DRAW_PEA, seat) for seat in range(n)))

    def useful_balls(self, state: GameState, seat: int) -> tuple:
        """41-6 / 41-7 / 41-9.7: the balls whose number keeps points + pea at most 41."""
        room = TARGET - self.total(state, seat)
        return tuple(b for b in state.balls_on_table() if b <= room)

    def total(self, state: GameState, seat: int) -> int:
        """Points plus pea of ``seat`` (41-6)."""
        return state.scores[seat] + state.private[seat].number

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state, action, rec):
        cfg: FortyOneConfig = state.config
        out = self.analyse(state, action, rec)
        seat = out.seat
        n = state.n_players
        pts = [0] * n
        fouls = out.fouls + ((F_OPEN_BREAK,) if out.is_break and not out.open_break else ())
        ex: FortyOneExtra = state.extra
        pocketed_by = list(ex.pocketed_by)
        refs = []
        events = []
        if fouls:
            spot = out.pocketed + out.jumped  # 41-9.3 / 41-10, 41-11
            refs += ["41-10"] + (["41-11"] if out.jumped else [])
            mine = list(pocketed_by[seat])
            if cfg.penalty_ball is PenaltyBall.PLAYER_CHOICE and len(mine) > 1:
                return self._penalty_choice(state, out, fouls, spot, refs, pocketed_by)
            if mine:  # 41-13
                b = self._penalty_ball(cfg, mine)
                mine.remove(b)
                pocketed_by[seat] = tuple(mine)
                pts[seat] -= b
                spot = spot + (b,)
                refs.append("41-13")
            cf = add_foul(state.consecutive_fouls, seat)
        else:
            spot = out.jumped
            if out.jumped:
                refs.append("41-11")
            if out.pocketed:
                pocketed_by[seat] = pocketed_by[seat] + tuple(out.pocketed)
                pts[seat] += sum(out.pocketed)
                refs.append("41-7")
            cf = clear_fouls(state.consecutive_fouls, seat)
        pos, on = self.spotted(state, out.pos, out.on, spot)
        cue = CueBallPlacement.IN_POSITION
        if out.cue_down:
            cue = CueBallPlacement.IN_HAND_KITCHEN
            on = self.cue_off(on)
            refs.append("41-12")
        nxt = self.next_seat_of(state, seat)  # 41-9.2
        scores = tuple([a + b for a, b in zip(state.scores, pts)]) if any(pts) else state.scores
        s = state._evolve({"pos": pos, "on_table": on, "shot_number": state.shot_number + 1, "options": (),
                           "consecutive_fouls": cf, "cue_ball": cue, "cue_placed": False, "phase": Phase.PLAY,
                           "seat_to_act": nxt, "inning": state.inning + 1, "scores": scores,
                           "extra": FortyOneExtra(pocketed_by=tuple(pocketed_by))})
        refs.append("41-9.2")
        if not cfg.auto_declare:
            # the shooter's declaration window (41-9.6 / 41-9.7), opened after every shot
            s = s._evolve({"phase": Phase.DECLARE, "seat_to_act": seat, "pending": (nxt,)})
            return s, Verdict._fast(fouls=fouls, legal_pocketed=() if fouls else out.pocketed, pocketed=out.pocketed,
                              points=tuple(pts), next_seat=seat, cue_ball=cue, spotted=tuple(sorted(spot)),
                              rule_refs=tuple(refs))
        t = self.total(s, seat)
        if t == TARGET:
            s = self.finish(s, {}, seat)
            events.append(SeatEvent(EventType.REVEAL, seat, s.private[seat].number))
            refs.append("41-9.6")
        elif t > TARGET:
            s, bust_pts, ev, sp2 = self._bust(s, seat, draw_new=cfg.new_pea_on_bust)
            pts = [a + b for a, b in zip(pts, bust_pts)]
            events += ev
            spot = spot + sp2
            refs.append("41-9.7")
        if not s.game_over:
            s, end_refs = self._table_cleared(s)
            refs += end_refs
        if events:
            s = s._evolve({"history": s.history + tuple(events)})
        return s, Verdict._fast(fouls=fouls, legal_pocketed=() if fouls else out.pocketed, pocketed=out.pocketed,
                          points=tuple(pts), next_seat=s.seat_to_act, cue_ball=s.cue_ball,
                          spotted=tuple(sorted(spot)), game_over=s.game_over, winner=s.winner,
                          rule_refs=tuple(refs), events=tuple(events))

    def _penalty_choice(self, state, out, fouls, spot, refs, pocketed_by):
        """41-13 / C-41 ``player_choice``: the shot's balls spotted, the cue ball as after
        any foul, and the fouler to designate his penalty ball (:attr:`Phase.OPTION`,
        `Option.SPOT_PENALTY_BALL`); the next seat waits in ``pending``."""
        seat = out.seat
        pos, on = self.spotted(state, out.pos, out.on, spot)
        cue = CueBallPlacement.IN_POSITION
        if out.cue_down:
            cue = CueBallPlacement.IN_HAND_KITCHEN
            on = self.cue_off(on)
            refs = refs + ["41-12"]
        nxt = self.next_seat_of(state, seat)
        opts = (Option.SPOT_PENALTY_BALL,)
        s = state._evolve({"pos": pos, "on_table": on, "shot_number": state.shot_number + 1, "options": opts,
                           "consecutive_fouls": add_foul(state.consecutive_fouls, seat), "cue_ball": cue,
                           "cue_placed": False, "phase": Phase.OPTION, "seat_to_act": seat,
                           "inning": state.inning + 1, "pending": (nxt,),
                           "extra": FortyOneExtra(pocketed_by=tuple(pocketed_by))})
        return s, Verdict._fast(fouls=fouls, pocketed=out.pocketed, points=(0,) * state.n_players, next_seat=seat,
                          cue_ball=cue, options=opts, spotted=tuple(sorted(spot)),
                          rule_refs=tuple(refs) + ("41-13",))

    def option_balls(self, state: GameState) -> tuple:
        """41-13 / C-41: the fouler's pocketed balls, one of which he spots."""
        if Option.SPOT_PENALTY_BALL in state.options:
            return tuple(sorted(state.extra.pocketed_by[state.seat_to_act]))
        return ()

    def apply_ball_option(self, state: GameState, option: Option, ball: int):
        """41-13 / C-41: spot the designated ``ball`` (its points leave the fouler's
        total), then the fouler's declaration window (without ``auto_declare``) or the next
        seat in order (41-9.2)."""
        if option is not Option.SPOT_PENALTY_BALL:
            raise IllegalActionError(f"option {option.value} names no ball (ball must be None)")
        seat = state.seat_to_act
        n = state.n_players
        pocketed_by = list(state.extra.pocketed_by)
        mine = list(pocketed_by[seat])
        mine.remove(ball)
        pocketed_by[seat] = tuple(mine)
        pts = [0] * n
        pts[seat] = -ball
        pos, on = self.spotted(state, state.pos, state.on_table, (ball,))
        nxt = state.pending[0]
        scores = tuple(a + b for a, b in zip(state.scores, pts))
        fields = {"pos": pos, "on_table": on, "options": (), "scores": scores,
                  "extra": FortyOneExtra(pocketed_by=tuple(pocketed_by))}
        if state.config.auto_declare:
            fields.update(phase=Phase.PLAY, seat_to_act=nxt, pending=())
        else:
            fields.update(phase=Phase.DECLARE, seat_to_act=seat)
        s = state._evolve(fields)
        return s, Verdict._fast(points=tuple(pts), next_seat=s.seat_to_act, cue_ball=s.cue_ball, spotted=(ball,),
                          rule_refs=("41-13", "41-9.2"))

    @staticmethod
    def _penalty_ball(cfg: FortyOneConfig, mine: list) -> int:
        if cfg.penalty_ball is PenaltyBall.LOWEST:
            return min(mine)
        if cfg.penalty_ball is PenaltyBall.HIGHEST:
            return max(mine)
        return mine[-1]

    def _bust(self, state: GameState, seat: int, draw_new: bool):
        """41-9.7: the seat's pocketed balls are spotted, its total is 0; optionally a new
        pea (C-40: the old one goes back first). Returns (state, points, events, spotted)."""
        n = state.n_players
        mine = state.extra.pocketed_by[seat]
        pts = [0] * n
        pts[seat] = -state.scores[seat]
        pocketed_by = list(state.extra.pocketed_by)
        pocketed_by[seat] = ()
        pos, on = self.spotted(state, state.pos, state.on_table, mine)
        scores = list(state.scores)
        scores[seat] = 0
        s = state._evolve({"pos": pos, "on_table": on, "scores": tuple(scores),
                           "extra": FortyOneExtra(pocketed_by=tuple(pocketed_by), busted=state.extra.busted)})
        events = [SeatEvent(EventType.DECLARED, seat, list(Declaration).index(Declaration.DECLARE_BUST))]
        if draw_new:
            s, ev = self._new_pea(s, seat)
            events += ev
        return s, pts, events, tuple(mine)

    def _new_pea(self, state: GameState, seat: int):
        bottle = state.hidden.peas
        events = []
        if state.config.return_old_pea_on_bust:
            bottle = tuple(sorted(bottle + (state.private[seat].number,)))
            events.append(SeatEvent(EventType.RETURN_PEA, seat))
        if not bottle:
            return state, events
        drawn, rest, s = draw_from(state, bottle, 1)
        events.append(SeatEvent(EventType.DRAW_PEA, seat))
        return s.replace(private=set_private(s, seat, Pea(int(drawn[0]))), hidden=Bottle(rest)), events

    def _table_cleared(self, state: GameState):
        """41-9.8: no ball left and nobody at 41 -> the highest total wins; a tie draws."""
        if any(state.on_table[1:]):  # (balls_on_table() without building it)
            return state, []
        seats = active_seats(state)
        best = max(state.scores[k] for k in seats)
        top = [k for k in seats if state.scores[k] == best]
        return self.finish(state, {}, top[0] if len(top) == 1 else None), ["41-9.8"]

    # ------------------------------------------------------------------ declarations
    def declarations(self, state: GameState) -> tuple:
        cfg = state.config
        if cfg.auto_declare or state.phase is Phase.GAME_OVER:
            return ()
        seat = state.seat_to_act
        t = self.total(state, seat)
        if state.phase is Phase.DECLARE:
            if state.extra.busted:
                return (Declaration.DRAW_NEW_PEA, Declaration.PASS)
            if t == TARGET:
                return (Declaration.CLAIM_41, Declaration.PASS)
            if t > TARGET:
                return (Declaration.DECLARE_BUST, Declaration.PASS)
            return (Declaration.PASS,)
        if state.phase is Phase.PLAY and t == TARGET:
            return (Declaration.CLAIM_41,)  # 41-9.6: a late claim at his next turn
        return ()

    def apply_declaration(self, state: GameState, declaration: Declaration):
        seat = state.seat_to_act
        n = state.n_players
        zeros = (0,) * n
        ev = [SeatEvent(EventType.DECLARED, seat, list(Declaration).index(declaration))]
        if declaration is Declaration.CLAIM_41:
            ev.append(SeatEvent(EventType.REVEAL, seat, state.private[seat].number))
            s = self.finish(state.replace(history=state.history + tuple(ev)), {}, seat)
            return s, Verdict._fast(points=zeros, next_seat=seat, game_over=True, winner=seat, rule_refs=("41-9.6",),
                              events=tuple(ev))
        if declaration is Declaration.DECLARE_BUST:
            s, pts, bev, spotted = self._bust(state, seat, draw_new=False)  # bev: the DECLARED event
            s = s.replace(extra=FortyOneExtra(pocketed_by=s.extra.pocketed_by, busted=True),
                          history=s.history + tuple(bev))
            return s, Verdict._fast(points=tuple(pts), next_seat=seat, cue_ball=s.cue_ball, spotted=tuple(sorted(spotted)),
                              rule_refs=("41-9.7",), events=tuple(bev))
        if declaration is Declaration.DRAW_NEW_PEA:
            s, pev = self._new_pea(state, seat)
            s = s.replace(extra=FortyOneExtra(pocketed_by=s.extra.pocketed_by), history=s.history + tuple(ev) + tuple(pev))
            return self._close_window(s, zeros, ("41-9.7",), tuple(ev) + tuple(pev))
        # PASS
        refs = ()
        s = state.replace(history=state.history + tuple(ev), extra=FortyOneExtra(pocketed_by=state.extra.pocketed_by))
        if not state.extra.busted and self.total(state, seat) > TARGET:
            s = s.replace(active=set_active(s, seat, False), history=s.history + (SeatEvent(EventType.DISQUALIFIED, seat),))
            ev.append(SeatEvent(EventType.DISQUALIFIED, seat))
            refs = ("41-9.7",)
        return self._close_window(s, zeros, refs, tuple(ev))

    def _close_window(self, state: GameState, points: tuple, refs: tuple, events: tuple):
        resume = state.pending[0]
        s = state.replace(phase=Phase.PLAY, pending=())
        if not is_active(s, resume):
            resume = self.next_seat_of(s, resume)
        s = s.replace(seat_to_act=resume)
        left = active_seats(s)
        refs = tuple(refs)
        if len(left) == 1:
            s = self.finish(s, {}, left[0])
        else:
            s, end_refs = self._table_cleared(s)
            refs += tuple(end_refs)
        return s, Verdict._fast(points=points, next_seat=s.seat_to_act, cue_ball=s.cue_ball, game_over=s.game_over,
                          winner=s.winner, rule_refs=refs, events=events)
