"""Pea pool (BCA "Pea (Kelly) Pool", shared/rules/pea_pool.md, PP-n) for 2-15 seats.

* PP-2 two or more players; at most 15 (fifteen peas).
* PP-4 rack: 1 on the foot spot, 2 in the right corner, 3 in the left corner (C-24),
  the others random (state RNG).
* PP-5 after the rack each seat draws a pea from the bottle (``state.private[seat]``,
  :class:`Pea`; the bottle is ``state.hidden``); the draw is a public event, its number
  is not.
* PP-6 / PP-7 basic game: the seat that legally pockets the ball of its pea number wins
  at once. With no private ball left on the table and no winner the game is a draw
  (derived from PP-7V's end condition).
* PP-7V (``variant_points``): a seat legally pocketing its own ball takes 2 points from
  every opponent and the game ends; a seat legally pocketing another seat's private ball
  takes 1 point from its owner, who must announce it before the next shot
  (DECL ``Declaration.ANNOUNCE_OWN_BALL``; ``auto_declare`` does it for him): an owner
  who does not is disqualified and pays 2 instead of 1. When the last private ball is
  down without a winner the game ends; the next game's points are doubled and whoever
  pocketed the last private ball breaks (:meth:`PeaPool.next_game`). Returns are the points.
  With ``auto_declare=False`` every other seat in order gets a declaration window after
  each legal shot that pocketed a ball (so a window says nothing about whose ball fell).
* PP-8 open break (C-26); otherwise the incoming player accepts the position with cue
  ball in hand behind the head string, or re-racks and breaks himself. Balls pocketed on
  the failed break are spotted (PP-10).
* PP-9.1 a legally pocketed ball continues the inning; PP-9.2 no safety (rejected);
  PP-9.3 DECL kitchen request: cue ball in hand behind the head string and the
  lowest-numbered ball in the kitchen -> it may be spotted.
* C-43 legal shot: the lowest-numbered ball first (``first_contact`` lowest | any), then
  G-3.19 pocket or cushion.
* PP-10 illegally pocketed balls and PP-11 jumped balls are spotted, no penalty.
* PP-12 / C-42 cue ball pocketed or off the table: incoming player in hand behind the
  head string (``cue_after_scratch`` kitchen | anywhere).
* PP-13 fouls cost no points; the incoming player accepts the position or makes the
  offender shoot again from it.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional

from .. import serialize
from ..core import (CueBallPlacement, Declaration, EventType, Foul, FoulKind, GameState, Option, Phase, SeatEvent,
                     Verdict)
from ..general import add_foul, clear_fouls
from ..seats import active_seats, draw_from, is_active, set_active
from .bca import (APEX_SLOT, LEFT_CORNER_SLOT, OBJECT_BALLS, RIGHT_CORNER_SLOT, BCAConfig, BCAGame, triangle_rack)

__all__ = ["PeaPool", "PeaPoolConfig", "PeaPoolExtra", "Pea", "Bottle", "FirstContact", "CueAfterScratch"]


class FirstContact(str, Enum):
    """C-43: the ball the cue ball must contact first."""

    LOWEST = "lowest"
    ANY = "any"


class CueAfterScratch(str, Enum):
    """C-42: the incoming player's cue ball after a scratch or a jumped cue ball."""

    KITCHEN = "kitchen"
    ANYWHERE = "anywhere"


@dataclass(frozen=True)
class PeaPoolConfig(BCAConfig):
    """Pea pool knobs (pea_pool.md section 6). n_players: 2-15 (default 4, PP-2)."""

    n_players: int = 4
    first_contact: FirstContact = FirstContact.LOWEST
    variant_points: bool = False
    auto_declare: bool = True
    cue_after_scratch: CueAfterScratch = CueAfterScratch.KITCHEN

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "first_contact", FirstContact(self.first_contact))
        object.__setattr__(self, "cue_after_scratch", CueAfterScratch(self.cue_after_scratch))


@dataclass(frozen=True)
class Pea:
    """A seat's private number (PP-5)."""

    number: int


@dataclass(frozen=True)
class Bottle:
    """Peas still in the bottle (known to no seat)."""

    peas: tuple = ()


@dataclass(frozen=True)
class PeaPoolExtra:
    """offender: seat whose foul / failed break the incoming player rules on (-1 none).
    stake: point multiplier of this game (PP-7V doubling). last_private_by: seat that
    pocketed the last private ball (PP-7V next breaker). owed: (owner, pocketer) pairs of
    private balls legally pocketed by another seat and not yet announced (PP-7V windows).
    """

    offender: int = -1
    stake: int = 1
    last_private_by: int = -1
    owed: tuple = ()


serialize.register(FirstContact, CueAfterScratch, PeaPoolConfig, Pea, Bottle, PeaPoolExtra)

F_OPEN_BREAK = Foul(FoulKind.ILLEGAL_BREAK, "PP-8")

#: enum members read in the hot paths (a module constant is ~10x faster than the class attribute)
_OPTION, _PLAY, _DECLARE = Phase.OPTION, Phase.PLAY, Phase.DECLARE
_IN_POSITION, _IN_HAND_KITCHEN = CueBallPlacement.IN_POSITION, CueBallPlacement.IN_HAND_KITCHEN
_IN_HAND_ANYWHERE = CueBallPlacement.IN_HAND_ANYWHERE
_ANY, _KITCHEN = FirstContact.ANY, CueAfterScratch.KITCHEN
_RERACK_AND_BREAK = Option.RERACK_AND_BREAK
_BREAK_OPTIONS = (Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK)
_FOUL_OPTIONS = (Option.ACCEPT_TABLE, Option.OFFENDER_SHOOTS_AGAIN)


class PeaPool(BCAGame):
    """Pea pool referee (module docstring). Seats 0..N-1 in order of play."""

    name = "pea_pool"
    rules_file = "pea_pool.md"
    rules_file = "pea_pool.md"
    config_cls = PeaPoolConfig
    allowed_players = tuple(range(2, 16))
    legal_shot_rule = "C-43"
    kitchen_rule = "PP-9.3"
    kitchen_spot_nearest = False  # PP-9.3 names the lowest-numbered ball

    def rack(self, config, rng):
        """PP-4: 1 apex, 2 right corner, 3 left corner, others random."""
        return triangle_rack(config, rng, {1: APEX_SLOT, 2: RIGHT_CORNER_SLOT, 3: LEFT_CORNER_SLOT})

    def initial_extra(self, config):
        return PeaPoolExtra()

    def setup_seats(self, state: GameState) -> GameState:
        """PP-5: every seat draws a pea from the 15 in the bottle, in order of play."""
        n = state.n_players
        drawn, rest, s = draw_from(state, OBJECT_BALLS, n)
        return s.replace(private=tuple(Pea(int(k)) for k in drawn), hidden=Bottle(tuple(rest)),
                         history=tuple(SeatEvent(EventType.DRAW_PEA, seat) for seat in range(n)))

    def legal_first(self, state):
        if state.config.first_contact is _ANY:
            return ()
        low = state.lowest_ball()
        return (low,) if low is not None else ()

    def kitchen_spot_ball(self, state):
        return self.lowest_if_in_kitchen(state)

    def option_refs(self, state, option):
        return ("PP-8",) if _RERACK_AND_BREAK in state.options else ("PP-13",)

    def useful_balls(self, state: GameState, seat: int) -> tuple:
        """PP-6 / PP-7: the ball of the seat's own pea (if still on the table)."""
        b = state.private[seat].number
        return (b,) if 0 < b < len(state.on_table) and state.on_table[b] else ()

    def private_balls(self, state: GameState) -> tuple:
        """Ball numbers of the seats' peas."""
        return tuple(p.number for p in state.private)

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state, action, rec):
        cfg: PeaPoolConfig = state.config
        out = self.analyse(state, action, rec)
        seat = out.seat
        n = state.n_players
        zeros = (0,) * n
        base = {"shot_number": state.shot_number + 1, "options": ()}
        nxt = self.next_seat_of(state, seat)
        if out.is_break and not out.open_break:
            # PP-8: accept with cue ball in hand behind the head string, or re-rack and break
            pos, on = self.spotted(state, out.pos, out.on, out.pocketed + out.jumped)
            opts = _BREAK_OPTIONS
            base.update(pos=pos, on_table=self.cue_off(on), seat_to_act=nxt, phase=_OPTION, options=opts,
                        cue_ball=_IN_HAND_KITCHEN, cue_placed=False, inning=state.inning + 1,
                        consecutive_fouls=add_foul(state.consecutive_fouls, seat),
                        extra=self._extra(state, offender=seat))
            return state._evolve(base), Verdict._fast(
                fouls=out.fouls + (F_OPEN_BREAK,), pocketed=out.pocketed, points=zeros, next_seat=nxt,
                cue_ball=_IN_HAND_KITCHEN, options=opts, spotted=tuple(sorted(out.pocketed + out.jumped)),
                rule_refs=("PP-8", "PP-10"))
        if out.fouls:
            # PP-13 (+ PP-10, PP-11, PP-12 / C-42)
            pos, on = self.spotted(state, out.pos, out.on, out.pocketed + out.jumped)
            cue = _IN_POSITION
            if out.cue_down:
                cue = _IN_HAND_KITCHEN if cfg.cue_after_scratch is _KITCHEN else _IN_HAND_ANYWHERE
                on = self.cue_off(on)
            base.update(pos=pos, on_table=on, seat_to_act=nxt, phase=_OPTION, options=_FOUL_OPTIONS, cue_ball=cue,
                        cue_placed=False, inning=state.inning + 1,
                        consecutive_fouls=self._add_foul(state.consecutive_fouls, seat),
                        extra=self._extra_offender(state, seat))
            return state._evolve(base), self._foul_verdict(out, nxt, cue, n)
        # legal shot
        pos, on = self.spotted(state, out.pos, out.on, out.jumped)
        refs = ["PP-11"] if out.jumped else []
        base.update(pos=pos, on_table=on, consecutive_fouls=clear_fouls(state.consecutive_fouls, seat),
                    cue_ball=_IN_POSITION, cue_placed=False, phase=_PLAY)
        peas = self.private_balls(state)
        ex: PeaPoolExtra = state.extra
        stake = ex.stake
        scores = list(state.scores)
        pts = [0] * n
        owners = {b: k for k, b in enumerate(peas)}
        last_private_by = ex.last_private_by
        if any(b in owners for b in out.pocketed):
            last_private_by = seat
        if peas[seat] in out.pocketed:
            # PP-6 / PP-7: own ball legally pocketed -> win (PP-7V: 2 from each opponent)
            if cfg.variant_points:
                for k in range(n):
                    if k != seat:
                        pts[k] -= 2 * stake
                        pts[seat] += 2 * stake
                for b in out.pocketed:  # others' balls on the same shot (no window is left)
                    k = owners.get(b)
                    if k is not None and k != seat:
                        pts[seat] += stake
                        pts[k] -= stake
                refs.append("PP-7V")
            scores = [a + b for a, b in zip(scores, pts)]
            base.update(scores=tuple(scores), extra=self._extra(state, last_private_by=last_private_by, owed=()))
            s = self.finish(state, base, seat)
            return s, Verdict._fast(legal_pocketed=out.pocketed, pocketed=out.pocketed, points=tuple(pts), next_seat=seat,
                              spotted=tuple(sorted(out.jumped)), game_over=True, winner=seat,
                              rule_refs=tuple(refs) + ("PP-6", "PP-7"),
                              events=(SeatEvent(EventType.REVEAL, seat, peas[seat]),))
        owed = ()
        if cfg.variant_points:
            hit = tuple((owners[b], seat) for b in out.pocketed if b in owners and owners[b] != seat)
            if hit and cfg.auto_declare:
                for owner, by in hit:
                    pts[by] += stake
                    pts[owner] -= stake
                refs.append("PP-7V")
            elif hit:
                owed = hit
        scores = [a + b for a, b in zip(scores, pts)]
        cont = bool(out.pocketed)
        if cont:
            refs.append("PP-9.1")
        play_next = seat if cont else nxt
        base.update(scores=tuple(scores), extra=self._extra(state, last_private_by=last_private_by, owed=owed),
                    seat_to_act=play_next, inning=state.inning + (0 if cont else 1))
        s = state._evolve(base)
        # end: no private ball left on the table (PP-7V; derived for the basic game)
        if all(not on[b] for b in peas):
            s = self._settle_owed(s)
            s = self.finish(s, {}, None)
            return s, Verdict._fast(legal_pocketed=out.pocketed, pocketed=out.pocketed,
                              points=tuple(a - b for a, b in zip(s.scores, state.scores)), next_seat=seat,
                              spotted=tuple(sorted(out.jumped)), game_over=True, winner=None,
                              rule_refs=tuple(refs) + ("PP-7V",), turn_continues=False)
        verdict_kw = dict(legal_pocketed=out.pocketed, pocketed=out.pocketed, points=tuple(pts), next_seat=play_next,
                          spotted=tuple(sorted(out.jumped)), rule_refs=tuple(refs), turn_continues=cont)
        if cfg.variant_points and not cfg.auto_declare and out.pocketed:
            windows = tuple(k for k in active_seats(s) if k != seat)
            if windows:
                s = s._evolve({"phase": Phase.DECLARE, "seat_to_act": windows[0], "pending": windows[1:] + (play_next,)})
                verdict_kw.update(next_seat=windows[0], turn_continues=False)
        return s, Verdict._fast(**verdict_kw)

    def _add_foul(self, fouls: tuple, seat: int) -> tuple:
        """`add_foul`, one tuple per value (shared by the tables)."""
        memo = self.__dict__.get("_add_foul_memo")
        if memo is None:
            memo = self.__dict__["_add_foul_memo"] = {}
        key = (fouls, seat)
        hit = memo.get(key)
        if hit is None:
            if len(memo) > 4096:
                memo.clear()
            hit = memo[key] = add_foul(fouls, seat)
        return hit

    def _foul_verdict(self, out, nxt: int, cue, n: int) -> Verdict:
        """The PP-13 verdict of the foul ``out`` (PP-10, PP-11, PP-12 / C-42), ``nxt`` to choose
        with the cue ball ``cue``; memoised per fouls object, pocketed and jumped balls, next
        seat, cue ball and seat count (verdicts are immutable)."""
        memo = self.__dict__.get("_foul_verdicts")
        if memo is None:
            memo = self.__dict__["_foul_verdicts"] = {}
        fouls = out.fouls
        key = (id(fouls), out.pocketed, out.jumped, out.cue_down, nxt, cue is _IN_POSITION, cue is _IN_HAND_KITCHEN, n)
        hit = memo.get(key)
        if hit is None or hit[0] is not fouls:
            refs = ("PP-13", "PP-10") + (("PP-11",) if out.jumped else ()) + (("PP-12",) if out.cue_down else ())
            v = Verdict._fast(fouls=fouls, pocketed=out.pocketed, points=(0,) * n, next_seat=nxt, cue_ball=cue,
                              options=_FOUL_OPTIONS, spotted=tuple(sorted(out.pocketed + out.jumped)), rule_refs=refs)
            if len(memo) > 4096:
                memo.clear()
            hit = memo[key] = (fouls, v)  # (fouls kept: its id stays unique)
        return hit[1]

    # ------------------------------------------------------------------ PP-7V announcements
    def declarations(self, state: GameState) -> tuple:
        if state.phase is not _DECLARE:
            return ()
        seat = state.seat_to_act
        if any(owner == seat for owner, _ in state.extra.owed):
            return (Declaration.ANNOUNCE_OWN_BALL, Declaration.PASS)
        return (Declaration.PASS,)

    def apply_declaration(self, state: GameState, declaration: Declaration):
        """PP-7V: the owner announces (the pocketer takes 1 point from him) or, passing,
        is disqualified and pays 2; then the next window opens or play resumes."""
        seat = state.seat_to_act
        n = state.n_players
        pts = [0] * n
        stake = state.extra.stake
        events = [SeatEvent(EventType.DECLARED, seat, list(Declaration).index(declaration))]
        owed = state.extra.owed
        mine = tuple(p for p in owed if p[0] == seat)
        active = state.active
        for owner, by in mine:
            k = 1 if declaration is Declaration.ANNOUNCE_OWN_BALL else 2
            pts[by] += k * stake
            pts[owner] -= k * stake
        if mine and declaration is not Declaration.ANNOUNCE_OWN_BALL:
            active = set_active(state, seat, False)
            events.append(SeatEvent(EventType.DISQUALIFIED, seat))
        scores = tuple(a + b for a, b in zip(state.scores, pts))
        rest = state.pending[:-1]
        resume = state.pending[-1]
        extra = self._extra(state, owed=tuple(p for p in owed if p[0] != seat))
        hist = state.history + tuple(events)
        if rest:
            s = state.replace(scores=scores, active=active, history=hist, seat_to_act=rest[0],
                              pending=rest[1:] + (resume,), extra=extra)
        else:
            s = state.replace(scores=scores, active=active, history=hist, phase=Phase.PLAY, pending=(),
                              extra=extra, seat_to_act=resume)
            if not is_active(s, resume):
                s = s.replace(seat_to_act=self.next_seat_of(s, resume), inning=s.inning + 1)
        if len(active_seats(s)) == 1:
            s = self.finish(s, {}, active_seats(s)[0])
        return s, Verdict._fast(points=tuple(pts), next_seat=s.seat_to_act, cue_ball=s.cue_ball, game_over=s.game_over,
                          winner=s.winner, rule_refs=("PP-7V",), events=tuple(events))

    def _settle_owed(self, state: GameState) -> GameState:
        """Transfers still owed when the game ends (no window is left): as announced."""
        owed = state.extra.owed
        if not owed:
            return state
        scores = list(state.scores)
        for owner, by in owed:
            scores[by] += state.extra.stake
            scores[owner] -= state.extra.stake
        return state.replace(scores=tuple(scores), extra=self._extra(state, owed=()))

    # ------------------------------------------------------------------ results
    def returns(self, state: GameState) -> tuple:
        """Basic game: win/loss (zero-sum); PP-7V: the points (zero-sum by construction)."""
        if state.phase is not Phase.GAME_OVER:
            return (0.0,) * state.n_players
        if state.config.variant_points:
            return tuple(float(v) for v in state.scores)
        return super().returns(state)

    def next_game(self, state: GameState, seed: Optional[int] = None) -> GameState:
        """PP-7V: after a game without a winner the points are doubled and whoever pocketed
        the last private ball breaks; otherwise ``break_order`` (G-3.36), stake 1."""
        new = super().next_game(state, seed)
        if state.config.variant_points and state.winner is None and state.extra.last_private_by >= 0:
            b = state.extra.last_private_by
            return new.replace(breaker=b, seat_to_act=b, extra=PeaPoolExtra(stake=2 * state.extra.stake))
        return new
