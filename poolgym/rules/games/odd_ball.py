"""Odd ball («Нечет», shared/rules/odd_ball.md, OB-n): two teams, 2, 4 or 6 seats.

* OB-1 / OB-2 two teams (``state.teams``), best two against two, one on one allowed;
  OB-8.5 / C-47 the order of play is fixed for the game (seat order); ``team_order``
  (:class:`TeamOrder`) says how the teams interleave in it: ``alternating`` (default, A1,
  B1, A2, B2: seat k plays for team k % 2) or ``consecutive`` (A1, A2, B1, B2: the first
  half of the seats is team A).
* OB-3 balls 1-15; OB-4 rack: 1 on the foot spot, 2 right corner, 3 left corner (C-24), 15
  in the centre, the rest random; re-racked for every rack of the game.
* OB-5 / OB-6 each legally pocketed odd ball scores one point for the team; a team whose
  pocketed ball numbers reach 61 in a rack scores 2 bonus points at once (C-48), 60-60
  gives each team 1 at the end of the rack; the first team to 21 wins (checked after every
  scoring event). ``state.scores[seat]`` is the seat's team's points.
* OB-7 open break (C-26) on every rack; otherwise the incoming opponent (the next seat of
  the other team, :meth:`OddBall.next_opponent`) makes the breaker
  re-break a new rack, accepts the table, or re-racks and breaks himself.
* OB-8.1 legal shot: the lowest-numbered ball first, then G-3.19 pocket or cushion; a
  legally pocketed ball continues the inning (OB-8.2: no safety-and-spot, safety rejected).
* OB-8.3 a team at 61 or more and only even balls left: the rack ends (the remaining
  balls count for the last scorer, for no points). OB-8.4 the next rack is broken by the
  player who pocketed the last ball.
* OB-8.6 DECL kitchen request: the lowest ball in the kitchen may be spotted.
* OB-8.7 / OB-12 / C-46 three consecutive fouls by one player: his team loses.
* OB-9 illegally pocketed and OB-10 jumped balls are spotted, no penalty; OB-11 cue ball
  pocketed or off: in hand behind the head string; OB-12 no points are deducted, the
  incoming opponent accepts the position or makes the offender shoot again.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .. import serialize
from ..core import CueBallPlacement, Foul, FoulKind, GameState, Option, Phase, Verdict
from ..general import add_foul, clear_fouls
from ..seats import order_of, team_of
from .bca import (APEX_SLOT, CENTRE_SLOT, LEFT_CORNER_SLOT, RIGHT_CORNER_SLOT, BCAConfig, BCAGame, triangle_rack)

__all__ = ["OddBall", "OddBallConfig", "OddBallExtra", "TeamOrder"]


class TeamOrder(str, Enum):
    """C-47: how the two teams' members interleave in the fixed order of play (OB-8.5)."""

    ALTERNATING = "alternating"    # A1, B1, A2, B2, ... (default)
    CONSECUTIVE = "consecutive"    # A1, A2, ..., B1, B2, ...


@dataclass(frozen=True)
class OddBallConfig(BCAConfig):
    """Odd ball knobs. n_players 2, 4 or 6 (OB-2); target_points 21 (OB-5); bonus_sum 61
    (OB-6); three_foul_loss (OB-8.7); team_order (C-47, :class:`TeamOrder`)."""

    n_players: int = 4
    target_points: int = 21
    bonus_sum: int = 61
    three_foul_loss: bool = True
    team_order: TeamOrder = TeamOrder.ALTERNATING

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "team_order", TeamOrder(self.team_order))
        for name in ("target_points", "bonus_sum"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be a positive int, got {v!r}")


@dataclass(frozen=True)
class OddBallExtra:
    """offender: seat whose foul / failed break the incoming player rules on (-1 none).
    team_points: points of team 0 and team 1 (the game). rack_sum: per team, the sum of the
    numbers of the balls it pocketed legally in this rack. bonus: per team, bonus points
    given in this rack. last_pocketer: seat that legally pocketed the last ball (OB-8.4).
    rack: rack number in this game."""

    offender: int = -1
    team_points: tuple = (0, 0)
    rack_sum: tuple = (0, 0)
    bonus: tuple = (0, 0)
    last_pocketer: int = -1
    rack: int = 0


serialize.register(TeamOrder, OddBallConfig, OddBallExtra)

F_OPEN_BREAK = Foul(FoulKind.ILLEGAL_BREAK, "OB-7")
F_THIRD = Foul(FoulKind.THIRD_CONSECUTIVE_FOUL, "OB-8")


class OddBall(BCAGame):
    """Odd ball referee (module docstring). Teams by seat as ``team_order`` says (C-47)."""

    name = "odd_ball"
    rules_file = "odd_ball.md"
    config_cls = OddBallConfig
    allowed_players = (2, 4, 6)
    legal_shot_rule = "OB-8"
    kitchen_rule = "OB-8"

    def useful_balls(self, state: GameState, seat: int) -> tuple:
        """OB-5: the odd balls on the table (each scores a point for the team)."""
        return tuple(b for b in state.balls_on_table() if b % 2 == 1)

    def rack(self, config, rng):
        """OB-4: 1 apex, 2 right corner, 3 left corner, 15 centre, others random."""
        return triangle_rack(config, rng, {1: APEX_SLOT, 2: RIGHT_CORNER_SLOT, 3: LEFT_CORNER_SLOT,
                                           15: CENTRE_SLOT})

    def initial_extra(self, config):
        return OddBallExtra()

    def setup_seats(self, state: GameState) -> GameState:
        """OB-2 / C-47: the team of each seat in the order of play (``team_order``)."""
        n = state.n_players
        if state.config.team_order is TeamOrder.CONSECUTIVE:
            return state.replace(teams=tuple(0 if k < n // 2 else 1 for k in range(n)))
        return state.replace(teams=tuple(k % 2 for k in range(n)))

    def legal_first(self, state):
        low = state.lowest_ball()
        return (low,) if low is not None else ()

    def kitchen_spot_ball(self, state):
        return self.lowest_if_in_kitchen(state)

    def option_refs(self, state, option):
        return ("OB-7",) if Option.RERACK_AND_BREAK in state.options else ("OB-12",)

    def on_rerack(self, state: GameState) -> GameState:
        ex = state.extra
        return state.replace(extra=OddBallExtra(team_points=ex.team_points, rack=ex.rack + 1,
                                                last_pocketer=ex.last_pocketer))

    def next_opponent(self, state: GameState, seat: int) -> int:
        """The first seat of the other team after ``seat`` in the order of play: the
        "incoming opponent" who rules on a foul or failed break (OB-7, OB-12) and the seat
        named winner for the other team (OB-5, OB-8.7). With alternating teams (C-47
        default) it is simply the next seat."""
        order = order_of(state)
        i = order.index(seat)
        mine = team_of(state, seat)
        for k in range(1, len(order)):
            c = order[(i + k) % len(order)]
            if team_of(state, c) != mine:
                return c
        raise ValueError("odd ball needs two teams")

    def _seat_scores(self, state: GameState, team_points: tuple) -> tuple:
        return tuple(team_points[team_of(state, k)] for k in range(state.n_players))

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state, action, rec):
        cfg: OddBallConfig = state.config
        out = self.analyse(state, action, rec)
        seat = out.seat
        n = state.n_players
        zeros = (0,) * n
        ex: OddBallExtra = state.extra
        nxt = self.next_seat_of(state, seat)
        opp = self.next_opponent(state, seat)
        cue, base = self.ruling_start(state, out)
        if (out.is_break and not out.open_break) or out.fouls:
            # OB-7 failed break / OB-12 foul: no points, balls spotted (OB-9, OB-10)
            pos, on = self.spotted_after(state, out, out.pocketed + out.jumped)
            base.update(pos=pos, on_table=on, seat_to_act=opp, phase=Phase.OPTION, inning=state.inning + 1,
                        extra=OddBallExtra(offender=seat, team_points=ex.team_points, rack_sum=ex.rack_sum,
                                           bonus=ex.bonus, last_pocketer=ex.last_pocketer, rack=ex.rack))
            spotted = tuple(sorted(out.pocketed + out.jumped))
            refs = ["OB-9"] + (["OB-10"] if out.jumped else []) + (["OB-11"] if out.cue_down else [])
            if not out.fouls:
                opts = (Option.OPPONENT_REBREAKS, Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK)
                base["options"] = opts
                return state._evolve(base), Verdict._fast(
                    fouls=(F_OPEN_BREAK,), pocketed=out.pocketed, points=zeros, next_seat=opp, cue_ball=cue,
                    options=opts, spotted=spotted, rule_refs=("OB-7",) + tuple(refs))
            cf = add_foul(state.consecutive_fouls, seat)
            base["consecutive_fouls"] = cf
            fouls = out.fouls + ((F_OPEN_BREAK,) if out.is_break and not out.open_break else ())
            if cfg.three_foul_loss and cf[seat] >= 3:  # OB-8.7
                s = self.finish(state, base, opp)
                return s, Verdict._fast(fouls=fouls + (F_THIRD,), pocketed=out.pocketed, points=zeros, next_seat=opp,
                                  spotted=spotted, game_over=True, winner=opp, rule_refs=("OB-8",) + tuple(refs))
            opts = ((Option.OPPONENT_REBREAKS, Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK)
                    if out.is_break and not out.open_break else (Option.ACCEPT_TABLE, Option.OFFENDER_SHOOTS_AGAIN))
            base["options"] = opts
            return state._evolve(base), Verdict._fast(
                fouls=fouls, pocketed=out.pocketed, points=zeros, next_seat=opp, cue_ball=cue, options=opts,
                spotted=spotted, rule_refs=tuple(refs) + ("OB-12",))
        # legal shot: OB-6 scoring, OB-10 jumped balls spotted
        pos, on = self.spotted(state, out.pos, out.on, out.jumped)
        team = team_of(state, seat)
        tp = list(ex.team_points)
        rs = list(ex.rack_sum)
        bonus = list(ex.bonus)
        refs = ["OB-10"] if out.jumped else []
        for b in out.pocketed:
            rs[team] += b
            tp[team] += b % 2
        if out.pocketed:
            refs += ["OB-6", "OB-8"]
        if rs[team] >= cfg.bonus_sum and not bonus[team]:  # C-48: +2 at once
            bonus[team] = 2
            tp[team] += 2
        last = seat if out.pocketed else ex.last_pocketer
        remaining = [b for b in range(1, 16) if on[b]]
        rack_over = not remaining or (any(v >= cfg.bonus_sum for v in rs) and all(b % 2 == 0 for b in remaining))
        if rack_over and remaining:
            refs.append("OB-8")  # OB-8.3 early end
        if rack_over and rs[0] == rs[1] == sum(range(1, 16)) // 2:  # 60-60
            bonus = [1, 1]
            tp = [tp[0] + 1, tp[1] + 1]
        pts_team = (tp[0] - ex.team_points[0], tp[1] - ex.team_points[1])
        pts = self._seat_scores(state, pts_team)
        cf = clear_fouls(state.consecutive_fouls, seat)
        scores = self._seat_scores(state, tuple(tp))
        extra = OddBallExtra(team_points=tuple(tp), rack_sum=tuple(rs), bonus=tuple(bonus), last_pocketer=last,
                             rack=ex.rack)
        base.update(pos=pos, on_table=on, consecutive_fouls=cf, scores=scores, extra=extra, phase=Phase.PLAY)
        if max(tp) >= cfg.target_points:  # OB-5
            w = seat if tp[team] >= cfg.target_points else opp
            s = self.finish(state, base, w)
            return s, Verdict._fast(legal_pocketed=out.pocketed, pocketed=out.pocketed, points=pts, next_seat=w,
                              spotted=tuple(sorted(out.jumped)), game_over=True, winner=w,
                              rule_refs=tuple(refs) + ("OB-5",))
        if rack_over:  # OB-8.4: the player who pocketed the last ball breaks the next rack
            b = last if last >= 0 else seat
            s = self.rerack(state._evolve(base), b)
            return s, Verdict._fast(legal_pocketed=out.pocketed, pocketed=out.pocketed, points=pts, next_seat=b,
                              cue_ball=CueBallPlacement.IN_HAND_KITCHEN, spotted=tuple(sorted(out.jumped)),
                              rule_refs=tuple(refs) + ("OB-8",), events=s.history[len(state.history):],
                              turn_continues=b == seat)
        cont = bool(out.pocketed)
        play_next = seat if cont else nxt
        base.update(seat_to_act=play_next, inning=state.inning + (0 if cont else 1))
        return state._evolve(base), Verdict._fast(legal_pocketed=out.pocketed, pocketed=out.pocketed, points=pts,
                                            next_seat=play_next, spotted=tuple(sorted(out.jumped)),
                                            turn_continues=cont, rule_refs=tuple(refs))
