"""General rules of pocket billiards shared by every discipline (general.md).

Pure functions; disciplines call them and may override any of them by rule text.

* :func:`stroke_fouls` -- fouls of the stroke itself, read from the action (C-55): G-3.26
  illegal jump (elevated cue, tip below centre), G-3.27 miscue on a jump.
* :func:`standard_fouls` -- general.md 7.2, after the stroke fouls: G-3.20 scratch,
  G-3.28 jumped balls, G-3.18 / GB-16 bad hit (with T-1.16.4 / R-2.10 split hits), G-3.39 / G-3.10 / GW-P4
  kitchen rules, G-3.19 / GB-17 legal shot (pocket or cushion after contact),
  G-3.38 / GB-31 frozen balls. Returned most severe first (G-3.30 / GB-24: one foul
  is penalised).
* :func:`after_shot` -- positions / on-table mask after a stroke (G-3.11, G-3.15, C-19:
  physical pocketing; G-3.28 jumped balls leave the table).
* :func:`spot` -- G-3.32 spotting into a state.
* :func:`add_foul`, :func:`clear_fouls` -- consecutive-foul bookkeeping (9B-5.13,
  SP-6.12, R-2.16 / C-67 the counter is always visible).
* :func:`next_breaker` -- G-3.36 / GB-29 / 9B-5.3 / C-06 break order.
* :func:`lag_outcome` -- G-3.6 / GB-5 / GW-2 (C-05 union of the automatic-loss
  conditions) of one lag ball's record; :func:`lag_winner`, :func:`lag_start_position` and
  the simultaneous lag itself are in :mod:`poolgym.rules.lag`.
* :func:`stall_update` -- GW-12 stalemate stand-in (configurable limit).
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from . import queries as q
from .core import BreakOrder, Foul, FoulKind, GameState, RulesConfig, ShotAction
from .geometry import Rail, ball_radius, get_table, spot_balls
from .lag import lag_ball, lag_start_position, lag_winner
from .rails import rail_facts
from .separation import settle
from .shot_facts import rest_mask_and_gap
from .shot_record import EventKind, Motion, ShotRecord

__all__ = [
    "stroke_fouls", "is_miscue", "standard_fouls", "after_shot", "ball_tuple", "spot", "add_foul", "clear_fouls", "next_breaker",
    "lag_outcome", "lag_winner", "lag_start_position", "stall_update", "next_seat",
    "cue_ball_fouls", "G_SCRATCH", "G_CUE_OFF", "G_OBJ_OFF", "G_NO_HIT", "G_BAD_HIT", "G_NO_RAIL",
    "G_FROZEN", "G_KITCHEN", "G_DOUBLE_HIT", "G_ILLEGAL_JUMP", "G_MISCUE", "double_hit",
]

_POCKETED = int(Motion.POCKETED)
_BB = int(EventKind.BALL_BALL)
_OFF = int(Motion.OFF_TABLE)

G_SCRATCH = Foul(FoulKind.SCRATCH, "G-3.20")
G_CUE_OFF = Foul(FoulKind.CUE_BALL_OFF_TABLE, "G-3.28")
G_OBJ_OFF = Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "G-3.28")
G_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "G-3.18")
G_BAD_HIT = Foul(FoulKind.WRONG_BALL_FIRST, "G-3.18")
G_NO_RAIL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "G-3.19")
G_FROZEN = Foul(FoulKind.FROZEN_BALL_RULE, "G-3.38")
G_KITCHEN = Foul(FoulKind.KITCHEN_RULE, "G-3.39")
G_DOUBLE_HIT = Foul(FoulKind.DOUBLE_HIT, "G-3.23")
G_ILLEGAL_JUMP = Foul(FoulKind.ILLEGAL_JUMP, "G-3.26")
G_MISCUE = Foul(FoulKind.MISCUE, "G-3.27")


def next_seat(state: GameState, seat: Optional[int] = None) -> int:
    """The seat after ``seat`` (default the seat to act) in rotation."""
    s = state.seat_to_act if seat is None else seat
    return (s + 1) % state.n_players


def is_miscue(action: ShotAction, config: RulesConfig) -> bool:
    """The tip offset sqrt(a^2 + b^2) of ``action`` lies beyond ``config.miscue_limit``."""
    lim = config.miscue_limit
    return action.a * action.a + action.b * action.b > lim * lim


def stroke_fouls(action: Optional[ShotAction], config: RulesConfig) -> tuple:
    """Fouls of the stroke itself (C-55, the referee calls them; the stroke is played):

    * G-3.27: a miscue (tip offset beyond ``config.miscue_limit``) while executing a jump
      shot, i.e. with the cue elevated (theta > 0);
    * G-3.26: an elevated stroke with the tip below centre (b < 0), the illegal "dig under"
      jump, at any elevation above ``config.dig_under_theta`` (default 1 degree: a level
      stroke's tolerance, see `RulesConfig`).

    ``action`` None (a record without its stroke) gives no stroke fouls.
    """
    if action is None or not action.theta > 0.0:
        return ()
    out = ()
    if is_miscue(action, config):
        out += (G_MISCUE,)
    if action.b < 0.0 and action.theta > config.dig_under_theta:
        out += (G_ILLEGAL_JUMP,)
    return out


def cue_ball_fouls(rec: ShotRecord) -> list:
    """G-3.20 scratch / G-3.28 cue ball jumped off the table."""
    out = []
    if q.cue_scratched(rec):
        out.append(G_SCRATCH)
    if q.cue_off_table(rec):
        out.append(G_CUE_OFF)
    return out


def standard_fouls(
    rec: ShotRecord,
    table,
    R: float,
    config: RulesConfig,
    legal_first: Sequence[int],
    *,
    kitchen: bool = False,
    require_rail: bool = True,
    require_hit: bool = True,
    jumped_is_foul: bool = True,
    bad_hit: Foul = G_BAD_HIT,
    no_hit: Foul = G_NO_HIT,
    no_rail: Foul = G_NO_RAIL,
    obj_off: Foul = G_OBJ_OFF,
    facts: Optional["q.ShotFacts"] = None,
    stroke: Optional[ShotAction] = None,
) -> tuple:
    """Fouls of an ordinary stroke per general.md 7.2, most severe first (G-3.30), after the
    `stroke_fouls` of ``stroke`` (the action played, when given).

    legal_first: balls the cue ball may contact first (G-3.18); empty = any ball.
    kitchen: the cue ball was in hand behind the head string (G-3.10, G-3.39, GW-P4).
    require_rail / require_hit: False on a push-out (9B-5.6 excepts 9B-5.8 and 9B-5.9).
    Rule IDs can be replaced by the discipline's (e.g. ``bad_hit=Foul(..., "9B-5.8")``).
    facts: precomputed ``queries.shot_facts(rec, table, legal_first, split_eps)`` (else computed).
    """
    legal = tuple(legal_first)
    f = facts if facts is not None else q.shot_facts(rec, table, legal if legal else None, config.split_hit_eps)
    fouls = list(stroke_fouls(stroke, config)) if stroke is not None else []
    if f.cue_pocketed:
        fouls.append(G_SCRATCH)
    if f.cue_off:
        fouls.append(G_CUE_OFF)
    first, t0 = f.first, f.t0
    if kitchen:
        # G-3.39: legal if the first object ball's base is outside the kitchen (on or
        # beyond the head string, G-3.16) or the cue ball crossed the head string first.
        # G-3.10 / GW-P4: the cue ball must cross the head string or contact a ball.
        if first is None:
            # (with require_hit the shot is a foul anyway: skip the costly exact path check)
            if not q.cue_left_kitchen_before_contact(rec, table, float("inf"), exact=not require_hit):
                fouls.append(G_KITCHEN)
        elif rec.pos0[first, 1] < float(table.head_string_y):
            if not q.cue_left_kitchen_before_contact(rec, table, t0):
                fouls.append(G_KITCHEN)
            elif config.kitchen_return_requires_foot_rail:
                if not any(t < t0 and b == rec.cue_ball and r == int(Rail.FOOT) for t, b, r in f.cushions):
                    fouls.append(Foul(FoulKind.KITCHEN_RULE, "GB-7"))
    if require_hit:
        if first is None:
            fouls.append(no_hit)
        elif legal and first not in legal:
            fouls.append(bad_hit)
    if require_rail and first is not None and not f.pocketed:
        rails0, to_cue, new_contact = rail_facts(
            rec.pos0, rec.cue_ball, first, t0, float(table.w), float(table.l), R, float(config.frozen_eps),
            bool(config.frozen_rule_enabled), f.cush_t, f.cush_ball, f.cush_rail, rec.ev_kind, rec.ev_i, rec.ev_j,
            rec.ev_t, _BB)
        if rails0 or to_cue:
            if not q.frozen_rule_satisfied(rec, table, first, t0, rails0, R=R, eps=config.frozen_eps):
                fouls.append(G_FROZEN)
        elif not new_contact:
            fouls.append(no_rail)
    if jumped_is_foul and f.jumped and any(b != rec.cue_ball for b in f.jumped):
        fouls.append(obj_off)
    if config.double_hit_gap > 0 and first is not None and double_hit(rec, first, R, config.double_hit_gap):
        fouls.append(G_DOUBLE_HIT)
    return tuple(fouls)


def double_hit(rec: ShotRecord, first: int, R: float, gap: float) -> bool:
    """R-2.20 heuristic for G-3.23 without a cue model: the cue ball started within
    ``gap`` of the ball it hit first and travelled more than half a ball diameter (R)
    further toward it (measured along the initial centre line from its start)."""
    c = rec.cue_ball
    d = rec.pos0[first] - rec.pos0[c]
    dist = float(np.hypot(d[0], d[1]))
    if dist - 2 * R > gap or dist == 0.0:
        return False
    if rec.pocket[c] >= 0:
        return False
    u = d / dist
    travel = float(np.dot(rec.pos1[c] - rec.pos0[c], u))
    return travel > (dist - 2 * R) + R


_BALL_TUPLES: dict = {0: ()}


def ball_tuple(mask: int) -> tuple:
    """The balls of bit mask ``mask`` (bit b = ball b), ascending (cached)."""
    got = _BALL_TUPLES.get(mask)
    if got is None:
        got = _BALL_TUPLES[mask] = tuple(b for b in range(mask.bit_length()) if mask >> b & 1)
    return got


def after_shot(state: GameState, rec: ShotRecord):
    """(pos, on_table) tuples after the stroke: pocketed (G-3.11, C-19) and jumped
    (G-3.28) balls leave the table; the others rest at their final positions, a valid layout
    for the next stroke: overlaps of at most 0.1 mm left by the physics' rounding are
    separated without pushing a ball into a cushion (`poolgym.rules.separation.settle`: a ball
    wedged in a pocket mouth between another ball and a jaw's cushion would otherwise end a
    nanometre inside the cushion, a layout the physics refuses). ``state``: the state the
    stroke was played from (its table; None: the 9 ft table)."""
    R = ball_radius()
    pre = rec.facts
    if pre is not None and pre[0].cue_ball[pre[1]] == rec.cue_ball:
        # the same kernel run once for the record's whole batch (poolgym.rules.shot_facts.BatchFacts.rest)
        pos, on, gap = pre[0].rest(pre[1], R)
        if gap < 1e-9:
            P = settle(rec.pos1, np.array(on, dtype=bool), R, pre[0].table)
            return tuple(P.ravel().tolist()), on
        return pos, on
    on_arr, gap = rest_mask_and_gap(rec.on0, rec.pocket, rec.s1, rec.pos1, R, _POCKETED, _OFF)
    on = tuple(on_arr.tolist())
    if gap < 1e-9:
        P = settle(rec.pos1, on_arr, R, get_table() if state is None else get_table(state.config.table))
        return tuple(P.ravel().tolist()), on
    return tuple(rec.pos1.ravel().tolist()), on


def spot(state: GameState, balls: Sequence[int], table, R: float) -> GameState:
    """Return ``state`` with ``balls`` spotted per G-3.32 (and marked on the table)."""
    balls = tuple(sorted(set(int(b) for b in balls)))
    if not balls:
        return state
    P = spot_balls(balls, state.positions(), state.on_mask(), table, R,
                   cue_gap=state.config.spot_gap, front_order=state.config.spot_front_order)
    on = list(state.on_table)
    for b in balls:
        on[b] = True
    return state.replace(pos=tuple(P.reshape(-1).tolist()), on_table=tuple(on))


def add_foul(fouls: tuple, seat: int) -> tuple:
    """Consecutive-foul counter of ``seat`` + 1 (9B-5.13, SP-6.12)."""
    out = list(fouls)
    if 0 <= seat < len(out):
        out[seat] += 1
    return tuple(out)


def clear_fouls(fouls: tuple, seat: int) -> tuple:
    """A legal shot by ``seat`` resets its counter (9B-5.13)."""
    out = list(fouls)
    if 0 <= seat < len(out):
        out[seat] = 0
    return tuple(out)


def next_breaker(order: BreakOrder, breaker: int, winner: Optional[int], games_won: Sequence[int],
                 n_players: int = 2) -> int:
    """Breaker of the next game (G-3.36, GB-29, 9B-5.3, 8B-4.4; C-06).

    WINNER: winner of the game breaks; ALTERNATE: the seat after the last breaker;
    LOSER: the loser breaks (two players; with more seats the seat after the winner);
    TRAILING: the seat with the fewest games won breaks (ties: the loser of this game).
    A drawn game (winner None) is re-broken by the same breaker.
    """
    order = BreakOrder(order)
    if order is BreakOrder.ALTERNATE:
        return (breaker + 1) % n_players
    if winner is None:
        return breaker
    if order is BreakOrder.WINNER:
        return winner
    if order is BreakOrder.LOSER:
        return (winner + 1) % n_players
    gw = list(games_won)
    low = min(gw)
    trailing = [k for k, v in enumerate(gw) if v == low]
    if len(trailing) == 1:
        return trailing[0]
    loser = (winner + 1) % n_players
    return loser if loser in trailing else trailing[0]


# ----------------------------------------------------------------------------- lag
def lag_outcome(rec: ShotRecord, table, R: float, seat: int) -> float:
    """G-3.6 result of one lag ball in ``rec`` (its cue ball; :func:`poolgym.rules.lag.lag_ball`):
    the distance (m) from the ball to the head-rail cushion nose, or -1.0 if the lag is
    automatically lost ((a) crossing the long string, read from its positions and, for the
    record of a lone lag ball, from its re-simulated path; (b)-(g), C-05)."""
    return lag_ball(rec, table, R, seat, x_range=_lag_path_range(rec, table)).result


def _lag_path_range(rec: ShotRecord, table, n_samples: int = 24):
    """(min, max) x of the lone lag ball sampled along its path, re-simulated from the
    played shot with ``physics.simulate(t_final=...)``; None without a shot, on a stand-in
    table or when other balls are on the table."""
    import physics

    rvw = q.lone_cue_ball(rec, table)
    if rvw is None or rec.ev_t.size == 0 or int(np.count_nonzero(rec.on0)) != 1:
        return None
    c = rec.cue_ball
    t_end = float(rec.ev_t[-1])
    ts = np.unique(np.concatenate([rec.ev_t[rec.ev_i == c], np.linspace(0.0, t_end, n_samples)]))
    xs = []
    try:
        for t in ts:
            xs.append(float(physics.simulate(table, rvw, np.asarray(rec.shot, np.float64), t_final=float(t),
                                             airborne=q.went_airborne(rec)).rvw[0, 0, 0]))
    except ValueError:
        return None
    return min(xs), max(xs)


def stall_update(state: GameState, pocketed_any: bool, inning_ended: bool) -> int:
    """GW-12 stand-in: consecutive innings in which no ball was pocketed."""
    if pocketed_any:
        return 0
    return state.stall_innings + (1 if inning_ended else 0)
