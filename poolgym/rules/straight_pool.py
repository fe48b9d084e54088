"""14.1 continuous (straight pool) referee (WPA, shared/rules/straight_pool.md, SP-6.x).

Rules implemented (adjudicator checklist of straight_pool.md section 4):

* SP-6.1 call-shot game to ``target_points`` (default 150): one point per legally
  pocketed ball, the inning continues after a legal pot; the game ends at the end of the
  shot on which the shooter reaches the target.
* SP-6.2 two seats (``n_players`` must be 2). SP-6.3 cue ball + object balls 1-15 (N = 16).
* SP-6.4 rack: tight triangle (``rack_gap``), apex on the foot spot, the 1 in the right
  back corner and the 5 in the left back corner *from the racker's point of view* (racker
  at the foot rail facing the head rail, README "Rack coordinates" / C-24: right = small
  x, triangle slot 10; left = large x, slot 14), the other 13 balls in random order from
  the state's RNG.
* SP-6.5 / SP-6.7.1 calls: every shot (except the opening break) carries either a
  called ball + pocket (``ShotAction.called_ball``, ``called_pocket``) or a declared
  safety (``safety=True``, SP-6.7.4). If the called ball drops in the called pocket on a
  shot without foul, every object ball pocketed on it scores one point; kisses, caroms,
  combinations and banks need no call.
* SP-6.6 opening break: (1) the called ball in the called pocket, or (2) the cue ball
  contacts an object ball and then a cushion, and >= 2 distinct object balls contact a
  cushion. Otherwise a breaking violation: -2 (not a foul for SP-6.12), balls pocketed are
  spotted, and the opponent chooses ``Option.ACCEPT_TABLE`` or ``Option.OPPONENT_REBREAKS``
  (all 15 re-racked, offender breaks again; repeated until the requirements are met or the
  table is accepted). A scratch / cue ball off the table on a legal break is a foul (-1,
  counts toward SP-6.12), incoming player in hand behind the head string. An object ball
  jumped off the table on a legal break is a foul too (SP-6.9, derived). A legal break
  without a successful call ends the inning; its pocketed balls are spotted (SP-6.8).
* SP-6.7.2 legal shot: the cue ball contacts an object ball, then a ball is pocketed or
  the cue ball / an object ball contacts a cushion (G-3.19 with any ball as the legal
  object ball; G-3.38 for frozen balls, G-3.39 / G-3.10 from the kitchen). Near-cushion
  rule (``near_cushion_rule``): a ball not frozen but within one ball diameter of a rail
  is "near" that rail. Per seat the last two shots are remembered as a foul, a
  near-cushion safety on ball b (a legal shot that ends the inning without a score --
  declared safety or, since intent cannot be judged, a missed call -- whose first contact
  was b and which satisfied the rail requirement only through b's near cushion, i.e. it
  would fail G-3.38 (a)-(d) with b frozen to that rail), or anything else. When both of
  the seat's last two shots were fouls or near-cushion safeties on b, a shot whose first
  contact is b is adjudicated as if b were frozen to its near rail (G-3.38). Failure is a
  foul (``FoulKind.FROZEN_RAIL_SAFETY``, SP-6.7.2); if one of those two shots was a foul
  (the note: fouled immediately before / after, or two consecutive fouls) the failure is
  a third consecutive foul (SP-6.12 penalty, plus one point per previous foul when
  ``charge_previous_fouls_again``, C-23).
* SP-6.7.3 / SP-6.7.6 re-rack: after the spotting of a legal scoring shot, when one object
  ball remains (or none: 14th and 15th down together) the 14 pocketed balls are racked
  with the apex vacant (same SP-6.4 pattern where possible), then the 15th ball and the cue
  ball are placed per the rack-break-ball table (:data:`RELOCATION_TABLE`). "In the rack
  area" = the ball's footprint meets the rack outline (the triangle of the 15 rack centres
  grown by R, T-1.5), i.e. its centre is closer than 2R to that triangle; "on the head
  spot" = closer than 2R to the head spot. When both the 14th and the 15th drop, the ball
  pocketed last is the 15th and goes on the foot spot.
* SP-6.7.4 safety: ends the inning, balls pocketed on it are spotted.
* SP-6.7.5 intentional foul: impossible by construction (no hands, no out-of-turn play).
* SP-6.7.7 / C-10 ball in hand behind the head string with every object ball in the
  kitchen: ``Option.SPOT_NEAREST_KITCHEN_BALL`` spots the ball nearest the head string on
  the foot spot (``kitchen_spot_request``; equidistant balls: the player designates one,
  ``ChooseOption(..., ball=k)`` among ``ActionSpec.spot_choices``).
* SP-6.8 illegally pocketed balls (miss, safety, breaking violation) are spotted, no
  penalty. SP-6.9 jumped object balls: foul, spotted. SP-6.10 scratch / cue ball off the
  table: incoming player in hand behind the head string. SP-6.11 every foul -1, cue ball
  in position unless scratched / jumped. G-3.32 spotting after the stroke, before the
  re-rack test.
* SP-6.12 successive fouls: ``state.consecutive_fouls`` counts fouls on consecutive shots
  (turns) and is cleared by any legal shot (a breaking violation leaves it alone). The
  third consecutive foul costs 1 + 15 = 16 points (-18 over the three fouls), clears the
  count, and the opponent chooses ACCEPT_TABLE or OPPONENT_REBREAKS (C-23
  ``third_foul_option``: or a mandatory re-rack).
* SP-6.13 negative scores allowed; C-22 ``penalty_base``: penalties come off the running
  score (default) or off the score at the end of the offender's previous inning.

Verdict: ``points`` per seat (signed), ``legal_pocketed`` the scoring balls, ``spotted``
every ball put back by G-3.32 (the SP-6.7.3 re-rack is reported in ``rule_refs``).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Optional

import numpy as np

from . import general, nine_ball_batch as _nb, queries as q, serialize, straight_pool_batch as _sb
from .core import (CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option, Phase, RulesConfig,
                   ShotAction, Verdict)
from .game import DisciplineBase, draw_rng
from .geometry import ball_radius, get_table, in_kitchen, rack_triangle
from .rails import near_rail_bits
from .shot_record import EventKind

__all__ = [
    "StraightPool", "StraightPoolConfig", "StraightPoolExtra", "ThirdFoulOption", "PenaltyBase",
    "Where15", "WhereCue", "Dest", "RELOCATION_TABLE", "sp_rack", "rack_fourteen", "in_rack_area",
    "on_head_spot", "classify_15th", "classify_cue", "relocate", "near_rails",
    "BREAK_PENALTY", "THIRD_FOUL_EXTRA", "RIGHT_CORNER_SLOT", "LEFT_CORNER_SLOT",
]

BREAK_PENALTY = 2        # SP-6.6: two points per breaking violation
THIRD_FOUL_EXTRA = 15    # SP-6.12: one point plus an additional 15 points
RIGHT_CORNER_SLOT = 10   # SP-6.4: the 1-ball (racker's right = small x, see module docstring)
LEFT_CORNER_SLOT = 14    # SP-6.4: the 5-ball


class ThirdFoulOption(str, Enum):
    """C-23: what follows a third consecutive foul (SP-6.12 vs the SP-6.7.2 note)."""

    ACCEPT_OR_RERACK = "accept_or_rerack"  # SP-6.12 (default): incoming player chooses
    MANDATORY_RERACK = "mandatory_rerack"  # SP-6.7.2 note wording: 15 re-racked, offender breaks


class PenaltyBase(str, Enum):
    """C-22: from which score penalty points are deducted (SP-6.13)."""

    RUNNING_SCORE = "running_score"                                     # default
    SCORE_AT_END_OF_PREVIOUS_INNING = "score_at_end_of_previous_inning"  # literal SP-6.13


@dataclass(frozen=True)
class StraightPoolConfig(RulesConfig):
    """14.1 knobs (straight_pool.md section 5, conflicts.md C-22, C-23).

    target_points: SP-6.1 points needed to win ("usually 150", any agreed number).
    third_foul_option: C-23 / SP-6.12. charge_previous_fouls_again: C-23 -- a third
    consecutive foul also charges one point for each previous foul again.
    penalty_base: C-22 / SP-6.13. near_cushion_rule: SP-6.7.2.
    kitchen_spot_request: SP-6.7.7 (inherited knob, on). max_shots: safety cap (a game to
    150 takes hundreds of shots, so the default is higher than the framework's).
    """

    target_points: int = 150
    third_foul_option: ThirdFoulOption = ThirdFoulOption.ACCEPT_OR_RERACK
    charge_previous_fouls_again: bool = False
    penalty_base: PenaltyBase = PenaltyBase.RUNNING_SCORE
    near_cushion_rule: bool = True
    kitchen_spot_request: bool = True
    max_shots: int = 3000

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.third_foul_option, ThirdFoulOption):
            object.__setattr__(self, "third_foul_option", ThirdFoulOption(self.third_foul_option))
        if not isinstance(self.penalty_base, PenaltyBase):
            object.__setattr__(self, "penalty_base", PenaltyBase(self.penalty_base))
        if isinstance(self.target_points, bool) or not isinstance(self.target_points, int) or self.target_points < 1:
            raise ValueError(f"target_points must be a positive int, got {self.target_points!r}")
        if self.n_players != 2:
            raise ValueError(f"n_players must be 2 for 14.1 continuous (SP-6.2), got {self.n_players!r}")
        for name in ("charge_previous_fouls_again", "near_cushion_rule"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be a bool, got {getattr(self, name)!r}")


@dataclass(frozen=True)
class StraightPoolExtra:
    """14.1 bookkeeping carried in ``GameState.extra``.

    inning_start_scores: per seat, the score when the seat's current (or last) inning
        began = "his score as it stood at the end of his previous inning" (SP-6.13, C-22).
    nc_history: per seat, codes of its last two shots, oldest first (SP-6.7.2):
        -1 foul, b > 0 near-cushion safety on ball b, 0 anything else.
    offender: seat whose breaking violation / third foul created the pending option.
    option_rule: rule ID of the pending option ("SP-6.6", "SP-6.12"), "" if none.
    racks: re-racks so far (SP-6.7.3 14-ball and full 15-ball re-racks).
    """

    inning_start_scores: tuple = (0, 0)
    nc_history: tuple = ((0, 0), (0, 0))
    offender: int = -1
    option_rule: str = ""
    racks: int = 0


class Where15(str, Enum):
    """Rows of the rack-break-ball table (SP-6.7.3): where the 15th ball lies."""

    RACK_AREA = "rack_area"
    POCKETED = "pocketed"
    KITCHEN = "kitchen"        # in the kitchen, not on the head spot
    ELSEWHERE = "elsewhere"    # not in the kitchen, not in the rack area, not on the head spot
    HEAD_SPOT = "head_spot"


class WhereCue(str, Enum):
    """Columns of the rack-break-ball table (SP-6.7.3): where the cue ball lies."""

    RACK_AREA = "rack_area"
    ELSEWHERE = "elsewhere"    # not in the rack area and not on the head spot
    HEAD_SPOT = "head_spot"


class Dest(str, Enum):
    """Cell entries of the rack-break-ball table."""

    STAYS = "stays"
    FOOT_SPOT = "foot_spot"
    HEAD_SPOT = "head_spot"
    CENTRE_SPOT = "centre_spot"
    IN_HAND_KITCHEN = "in_hand_kitchen"


#: SP-6.7.3 / SP-6.7.6 rack-break-ball table: (15th, cue) -> (15th goes, cue goes).
#: Combinations not listed are the hatched "no interference" cells: both stay.
RELOCATION_TABLE = {
    (Where15.RACK_AREA, WhereCue.RACK_AREA): (Dest.FOOT_SPOT, Dest.IN_HAND_KITCHEN),
    (Where15.RACK_AREA, WhereCue.ELSEWHERE): (Dest.HEAD_SPOT, Dest.STAYS),
    (Where15.RACK_AREA, WhereCue.HEAD_SPOT): (Dest.CENTRE_SPOT, Dest.STAYS),
    (Where15.POCKETED, WhereCue.RACK_AREA): (Dest.FOOT_SPOT, Dest.IN_HAND_KITCHEN),
    (Where15.POCKETED, WhereCue.ELSEWHERE): (Dest.FOOT_SPOT, Dest.STAYS),
    (Where15.POCKETED, WhereCue.HEAD_SPOT): (Dest.FOOT_SPOT, Dest.STAYS),
    (Where15.KITCHEN, WhereCue.RACK_AREA): (Dest.STAYS, Dest.HEAD_SPOT),
    (Where15.ELSEWHERE, WhereCue.RACK_AREA): (Dest.STAYS, Dest.IN_HAND_KITCHEN),
    (Where15.HEAD_SPOT, WhereCue.RACK_AREA): (Dest.STAYS, Dest.CENTRE_SPOT),
}

serialize.register(ThirdFoulOption, PenaltyBase, StraightPoolConfig, StraightPoolExtra)


def _xreplace(extra: StraightPoolExtra, **changes) -> StraightPoolExtra:
    """``dataclasses.replace`` for :class:`StraightPoolExtra` without re-running the frozen
    ``__init__`` (no ``__post_init__``; hot path)."""
    new = object.__new__(StraightPoolExtra)
    new.__dict__.update(extra.__dict__)
    new.__dict__.update(changes)
    return new

F_BREAK = Foul(FoulKind.ILLEGAL_BREAK, "SP-6.6")
F_SCRATCH = Foul(FoulKind.SCRATCH, "SP-6.10")
F_CUE_OFF = Foul(FoulKind.CUE_BALL_OFF_TABLE, "SP-6.10")
F_OBJ_OFF = Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "SP-6.9")
F_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "SP-6.7.2")
F_NO_RAIL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "SP-6.7.2")
F_NEAR_RAIL = Foul(FoulKind.FROZEN_RAIL_SAFETY, "SP-6.7.2")
F_THIRD = Foul(FoulKind.THIRD_CONSECUTIVE_FOUL, "SP-6.12")

_CUE_FOUL_MAP = {general.G_SCRATCH: F_SCRATCH, general.G_CUE_OFF: F_CUE_OFF}

# the foul of each `straight_pool_batch` foul bit, in the order `StraightPool.adjudicate` lists them
_FOUL_BITS = ((_nb.MISCUE, general.G_MISCUE), (_nb.ILLEGAL_JUMP, general.G_ILLEGAL_JUMP), (_nb.SCRATCH, F_SCRATCH),
              (_nb.CUE_OFF, F_CUE_OFF), (_nb.KITCHEN, general.G_KITCHEN), (_nb.NO_HIT, F_NO_HIT),
              (_nb.NO_RAIL, F_NO_RAIL), (_nb.OBJ_OFF, F_OBJ_OFF), (_sb.NEAR_RAIL, F_NEAR_RAIL))
_FOUL_TUPLES: dict = {}
_CUE_GONE = _nb.SCRATCH | _nb.CUE_OFF
#: the batched referee's row of a table it leaves to `StraightPool.adjudicate`
_SKIP_ROW = (1, 0, 0, 0, -1, -1, 0, 0, 0)
_BB = int(EventKind.BALL_BALL)
_BC = int(EventKind.BALL_CUSHION)
_BJ = int(EventKind.BALL_JAW)
#: enum members read in the batched referee's loop
_PLAY, _BREAK, _OPTION = Phase.PLAY, Phase.BREAK, Phase.OPTION
_IN_POSITION, _IN_HAND_KITCHEN = CueBallPlacement.IN_POSITION, CueBallPlacement.IN_HAND_KITCHEN
#: the options after a breaking violation (SP-6.6)
_BREAK_OPTIONS = (Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS)


def _fouls(fbits: int) -> tuple:
    """The fouls tuple of `straight_pool_batch` foul bits ``fbits`` (cached)."""
    got = _FOUL_TUPLES.get(fbits)
    if got is None:
        got = _FOUL_TUPLES[fbits] = tuple(foul for bit, foul in _FOUL_BITS if fbits & bit)
    return got


# ----------------------------------------------------------------------------- geometry
def _corner_pattern(balls, slots, rng) -> dict:
    """SP-6.4 assignment of ``balls`` to rack ``slots``: the 1 in the right corner, the 5
    in the left corner (when they are among ``balls`` and the corner is among ``slots``),
    the others in random order (``rng``)."""
    balls = list(balls)
    slots = list(slots)
    out = {}
    for ball, slot in ((1, RIGHT_CORNER_SLOT), (5, LEFT_CORNER_SLOT)):
        if ball in balls and slot in slots:
            out[ball] = slot
            balls.remove(ball)
            slots.remove(slot)
    perm = rng.permutation(len(slots))
    for ball, k in zip(balls, perm):
        out[ball] = slots[int(k)]
    return out


def sp_rack(table, R: float, gap: float, rng: np.random.Generator):
    """SP-6.4 rack: (pos (16, 2), on (16,)) -- all 15 balls in a tight triangle
    (:func:`poolgym.rules.geometry.triangle_slots`), apex on the foot spot, 1 in the right
    corner, 5 in the left corner, the rest random. The cue ball (row 0) is off the table
    (in hand behind the head string, G-3.8) and parked on the head spot."""
    slots = _triangle(table, R, gap)[0]
    pos = np.zeros((16, 2))
    pos[0] = table.head_spot
    for ball, slot in _corner_pattern(range(1, 16), range(15), rng).items():
        pos[ball] = slots[slot]
    on = np.ones(16, bool)
    on[0] = False
    return pos, on


def rack_fourteen(pos: np.ndarray, balls, table, R: float, gap: float, rng: np.random.Generator,
                  apex_ball: Optional[int] = None) -> np.ndarray:
    """SP-6.7.3: the 14 ``balls`` racked "as before, except with the apex space vacant"
    (triangle slots 1-14, SP-6.4 corner pattern where possible, the rest random);
    ``apex_ball`` (the 15th, when it goes to the foot spot) takes slot 0. Returns new
    (N, 2) centres."""
    slots = _triangle(table, R, gap)[0]
    P = np.array(pos, dtype=np.float64).reshape(-1, 2)
    balls = sorted(int(b) for b in balls)
    if len(balls) > 14:
        raise ValueError(f"rack_fourteen: at most 14 balls, got {len(balls)}")
    for ball, slot in _corner_pattern(balls, range(1, 15), rng).items():
        P[ball] = slots[slot]
    if apex_ball is not None:
        P[apex_ball] = slots[0]
    return P


_TRIANGLES: dict = {}


def _triangle(table, R: float, gap: float) -> tuple:
    """(`triangle_slots` (read-only), bounding box (x0, x1, y0, y1) of the rack outline's
    corner centres, slots 0, 10, 14), cached per table, R and gap."""
    key = (id(table), float(R), float(gap))
    got = _TRIANGLES.get(key)
    if got is None or got[0] is not table:
        s = rack_triangle(table, R, gap)
        c = s[[0, 10, 14]]
        box = (float(c[:, 0].min()), float(c[:, 0].max()), float(c[:, 1].min()), float(c[:, 1].max()))
        got = _TRIANGLES[key] = (table, s, box)
    return got[1], got[2]


def _dist_point_triangle(p: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
    """Euclidean distance from point ``p`` to the filled triangle abc (0 inside)."""
    def cross(u, v):
        return u[0] * v[1] - u[1] * v[0]

    s1, s2, s3 = cross(b - a, p - a), cross(c - b, p - b), cross(a - c, p - c)
    if (s1 >= 0 and s2 >= 0 and s3 >= 0) or (s1 <= 0 and s2 <= 0 and s3 <= 0):
        return 0.0

    def seg(p, u, v):
        d = v - u
        t = float(np.clip(np.dot(p - u, d) / np.dot(d, d), 0.0, 1.0))
        return float(np.hypot(*(p - (u + t * d))))

    return min(seg(p, a, b), seg(p, b, c), seg(p, c, a))


def in_rack_area(xy, table, R: float, gap: float = 0.0) -> bool:
    """SP-6.7.6 / T-1.5: the ball at ``xy`` would interfere with the triangle lowered
    vertically onto the rack outline: its centre is closer than 2R to the triangle of the
    15 rack-slot centres (outline = that triangle grown by R; the ball's footprint has
    radius R)."""
    s, (x0, x1, y0, y1) = _triangle(table, R, gap)
    x, y = float(xy[0]), float(xy[1])
    m = 3.0 * R
    if x < x0 - m or x > x1 + m or y < y0 - m or y > y1 + m:
        return False  # outside the triangle's bounding box grown by 3R: farther than 2R from it
    return _dist_point_triangle(np.asarray(xy, dtype=np.float64), s[0], s[10], s[14]) < 2.0 * R


def on_head_spot(xy, table, R: float) -> bool:
    """SP-6.7.3 footnote: the ball interferes with spotting a ball on the head spot
    (centre closer than 2R to it)."""
    hx, hy = (float(v) for v in table.head_spot)
    return float(np.hypot(xy[0] - hx, xy[1] - hy)) < 2.0 * R


def classify_15th(xy: Optional[tuple], table, R: float, gap: float = 0.0) -> Where15:
    """Row of the rack-break-ball table for the 15th ball (``None`` = pocketed)."""
    if xy is None:
        return Where15.POCKETED
    if in_rack_area(xy, table, R, gap):
        return Where15.RACK_AREA
    if on_head_spot(xy, table, R):
        return Where15.HEAD_SPOT
    if bool(in_kitchen(xy[1], table)):
        return Where15.KITCHEN
    return Where15.ELSEWHERE


def classify_cue(xy: tuple, table, R: float, gap: float = 0.0) -> WhereCue:
    """Column of the rack-break-ball table for the cue ball."""
    if in_rack_area(xy, table, R, gap):
        return WhereCue.RACK_AREA
    if on_head_spot(xy, table, R):
        return WhereCue.HEAD_SPOT
    return WhereCue.ELSEWHERE


def relocate(where15: Where15, where_cue: WhereCue) -> tuple:
    """(Dest of the 15th, Dest of the cue ball) per the SP-6.7.3 table (hatched cells:
    both stay)."""
    return RELOCATION_TABLE.get((where15, where_cue), (Dest.STAYS, Dest.STAYS))


def near_rails(xy, table, R: float, frozen_eps: float) -> int:
    """SP-6.7.2: bitmask of :class:`~poolgym.rules.rails.Rail` values the ball at ``xy`` is
    near -- not frozen to the cushion but within one ball diameter of it
    (:func:`~poolgym.rules.rails.near_rail_bits`)."""
    return near_rail_bits(xy[0], xy[1], table, R, frozen_eps)


def _spot_point(name: str, table) -> tuple:
    return tuple(float(v) for v in getattr(table, name))


# ----------------------------------------------------------------------------- discipline
class StraightPool(DisciplineBase):
    """WPA 14.1 continuous (see the module docstring for the rules and their IDs).

    Seats 0 and 1. Ball rows: 0 cue ball, k = ball k (N = 16). Scores in
    ``state.scores`` (may be negative, SP-6.13).

    >>> from poolgym.rules.game import get_discipline
    >>> d = get_discipline("straight_pool")
    >>> s = d.initial_state(StraightPoolConfig(target_points=50), seed=3)
    >>> s.phase.value, s.balls_on_table() == tuple(range(1, 16)), s.scores
    ('break', True, (0, 0))
    """

    name = "straight_pool"
    rules_file = "straight_pool.md"
    n_balls = 16
    config_cls = StraightPoolConfig

    # ------------------------------------------------------------------ set-up
    def rack(self, config: StraightPoolConfig, rng: np.random.Generator):
        """SP-6.4 (see :func:`sp_rack`)."""
        return sp_rack(get_table(config.table), ball_radius(), config.rack_gap, rng)

    def initial_extra(self, config):
        return StraightPoolExtra(inning_start_scores=(0,) * config.n_players,
                                 nc_history=((0, 0),) * config.n_players)

    def spec_key(self, state: GameState):
        """`legal_actions` at the break and in play depends on the phase, the seat, the cue
        ball's placement, the balls on the table (SP-6.7.1: any of them may be hit first
        and called) and, with the cue ball in hand behind the head string, the GW-5 / SP-6.7.7
        kitchen spot request and its choices (they depend on the positions: part of the key
        then); no key in the other phases, nor for a subclass (it may compute its spec from
        more)."""
        ph = state.phase
        if type(self) is not StraightPool or (ph is not Phase.PLAY and ph is not Phase.BREAK):
            return None
        kitchen = ()
        if state.config.kitchen_spot_request and state.cue_ball is CueBallPlacement.IN_HAND_KITCHEN:
            opts = self.extra_options(state)
            if opts:
                kitchen = (opts, self.spot_choices(state))
        return (id(state.config), ph, state.seat_to_act, state.cue_ball, state.cue_placed, state.on_table, kitchen)

    #: the key's seat (`DisciplineBase.spec_key_seat`): the seat enters the spec only as its
    #: ``seat`` field; a position the other seat met (a miss, a safety, a foul that leaves
    #: the balls as they are) reuses that spec with the seat changed
    spec_key_seat = 2

    def shot_spec(self, state: GameState) -> dict:
        """Any ball may be hit first and called (SP-6.7.1); a call or a safety is required
        on every shot but the opening break (SP-6.6: the call is optional there)."""
        balls = state.balls_on_table()
        return {"target_balls": balls, "callable_balls": balls,
                "call_required": state.phase is Phase.PLAY, "safety_allowed": True}

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        """SP-6.7.1 / SP-6.7.4: a called ball with its pocket, or a safety (a safety is
        declared "instead of calling a ball": with ``safety=True`` a call is void); one of
        them on every shot except the opening break (SP-6.6). No push-outs."""
        if action.push_out:
            raise IllegalActionError("14.1 has no push-out")
        has_ball = action.called_ball is not None
        has_pocket = action.called_pocket is not None
        if has_ball != has_pocket:
            raise IllegalActionError("call both a ball and a pocket (SP-6.7.1): called_ball and called_pocket")
        if state.phase is Phase.PLAY and not has_ball and not action.safety:
            raise IllegalActionError("call a ball and a pocket or declare a safety (SP-6.7.1, SP-6.7.4)")

    def _kitchen_spot(self, state: GameState, b: int):
        """SP-6.7.7: the object ball nearest the head string is spotted on the foot spot
        (equidistant balls: the one the player designates)."""
        s, v = super()._kitchen_spot(state, b)
        return s, dataclasses.replace(v, rule_refs=("SP-6.7.7",) + v.rule_refs)

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _penalise(state: GameState, seat: int, points: int) -> tuple:
        """Scores after a penalty of ``points`` for ``seat`` (SP-6.13, C-22)."""
        sc = list(state.scores)
        if state.config.penalty_base is PenaltyBase.SCORE_AT_END_OF_PREVIOUS_INNING:
            sc[seat] = min(sc[seat], state.extra.inning_start_scores[seat]) - points
        else:
            sc[seat] -= points
        return tuple(sc)

    @staticmethod
    def _begin_turn(extra: StraightPoolExtra, seat: int, scores: tuple) -> StraightPoolExtra:
        iss = list(extra.inning_start_scores)
        iss[seat] = scores[seat]
        return _xreplace(extra, inning_start_scores=tuple(iss))

    @staticmethod
    def _push_history(extra: StraightPoolExtra, seat: int, code: int, clear: bool = False) -> StraightPoolExtra:
        h = list(extra.nc_history)
        h[seat] = (0, 0) if clear else (h[seat][1], int(code))
        return _xreplace(extra, nc_history=tuple(h))

    @staticmethod
    def _pass_turn(extra: StraightPoolExtra, seat: int, code: int, opp: int, scores: tuple) -> StraightPoolExtra:
        """`_begin_turn` of ``opp`` after `_push_history` of ``seat``'s ``code``, as one copy."""
        h = list(extra.nc_history)
        h[seat] = (h[seat][1], code)
        iss = list(extra.inning_start_scores)
        iss[opp] = scores[opp]
        return _xreplace(extra, nc_history=tuple(h), inning_start_scores=tuple(iss))

    @staticmethod
    def _keep_turn(extra: StraightPoolExtra, seat: int) -> StraightPoolExtra:
        """`_push_history` of a 0 (a scoring shot) for ``seat``: ``extra`` itself when its
        history is already (0, 0)."""
        h = extra.nc_history
        if h[seat] == (0, 0):
            return extra
        h = list(h)
        h[seat] = (h[seat][1], 0)
        return _xreplace(extra, nc_history=tuple(h))

    def _spot(self, s: GameState, balls, table, R) -> GameState:
        return general.spot(s, balls, table, R)

    def _full_rerack(self, state: GameState, breaker: int) -> GameState:
        """All 15 balls re-racked (SP-6.4 pattern from the state's RNG); ``breaker`` has
        cue ball in hand behind the head string for an opening break (SP-6.6)."""
        rng, new_rng = draw_rng(state)
        pos, on = sp_rack(self.table(state), ball_radius(), state.config.rack_gap, rng)
        ex = state.extra
        # near-cushion safeties referred to balls that are now racked: forget them, keep fouls.
        hist = tuple(tuple(c if c < 0 else 0 for c in h) for h in ex.nc_history)
        ex = dataclasses.replace(ex, nc_history=hist, offender=-1, option_rule="", racks=ex.racks + 1)
        ex = self._begin_turn(ex, breaker, state.scores)
        return state.replace(pos=tuple(pos.reshape(-1).tolist()), on_table=tuple(bool(v) for v in on),
                             rng=new_rng, phase=Phase.BREAK, seat_to_act=breaker, breaker=breaker,
                             cue_ball=CueBallPlacement.IN_HAND_KITCHEN, cue_placed=False, options=(), extra=ex)

    def _rerack_fourteen(self, s: GameState, rec) -> tuple:
        """SP-6.7.3 / SP-6.7.6: rack the 14 pocketed balls and place the 15th and the cue
        ball per :data:`RELOCATION_TABLE`. Returns (state, cue placement, rule refs)."""
        table = self.table(s)
        R = ball_radius()
        gap = s.config.rack_gap
        remaining = s.balls_on_table()
        if len(remaining) == 1:
            fifteenth = remaining[0]
            xy15 = tuple(s.positions()[fifteenth])
        else:  # 14th and 15th pocketed on the same stroke: the last one down is the 15th
            pk = [int(i) for i, k in zip(rec.ev_i, rec.ev_kind)
                  if int(k) == int(EventKind.POCKET) and int(i) != rec.cue_ball]
            fifteenth = pk[-1] if pk else 15
            xy15 = None
        cue_xy = tuple(s.positions()[0])
        w15 = classify_15th(xy15, table, R, gap)
        wc = classify_cue(cue_xy, table, R, gap)
        d15, dc = relocate(w15, wc)
        rng, new_rng = draw_rng(s)
        racked = [b for b in range(1, s.n_balls) if b != fifteenth]
        P = rack_fourteen(s.positions(), racked, table, R, gap, rng,
                          apex_ball=fifteenth if d15 is Dest.FOOT_SPOT else None)
        if d15 is Dest.HEAD_SPOT:
            P[fifteenth] = _spot_point("head_spot", table)
        elif d15 is Dest.CENTRE_SPOT:
            P[fifteenth] = _spot_point("center_spot", table)
        on = [True] * s.n_balls
        cue = CueBallPlacement.IN_POSITION
        if dc is Dest.IN_HAND_KITCHEN:
            on[0] = False
            cue = CueBallPlacement.IN_HAND_KITCHEN
        elif dc is Dest.HEAD_SPOT:
            P[0] = _spot_point("head_spot", table)
        elif dc is Dest.CENTRE_SPOT:
            P[0] = _spot_point("center_spot", table)
        refs = ("SP-6.7.3",) + (("SP-6.7.6",) if (d15, dc) != (Dest.STAYS, Dest.STAYS) else ())
        ex = dataclasses.replace(s.extra, racks=s.extra.racks + 1)
        s = s.replace(pos=tuple(P.reshape(-1).tolist()), on_table=tuple(on), rng=new_rng, cue_ball=cue,
                      cue_placed=False, extra=ex)
        return s, cue, refs

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state: GameState, action: ShotAction, rec):
        """Section 4 checklist: A (opening break) when ``state.phase`` is BREAK, else B."""
        cfg: StraightPoolConfig = state.config
        table = self.table(state)
        R = ball_radius()
        seat = state.seat_to_act
        f = q.shot_facts(rec, table, None, cfg.split_hit_eps)
        pocketed = f.pocketed
        jumped_obj = tuple(b for b in f.jumped if b != rec.cue_ball)
        cue_gone = f.cue_off or q.cue_scratched(rec)
        called = action.called_ball
        call_made = (called is not None and not action.safety
                     and int(rec.pocket[called]) == int(action.called_pocket))
        refs = []
        nc_code = 0
        third_by_nc = False
        nc_prev_fouls = 0

        if state.phase is Phase.BREAK:
            refs.append("SP-6.6")
            first, t0 = f.first, f.t0
            tt, bb = f.cush_t, f.cush_ball
            cue_rail = first is not None and bool(np.any((bb == rec.cue_ball) & (tt > t0)))
            req2 = first is not None and cue_rail and len(f.object_balls_to_rail(rec.cue_ball)) >= 2
            if not (call_made or req2):
                return self._breaking_violation(state, rec, pocketed, jumped_obj, cue_gone, table, R)
            fouls = list(general.stroke_fouls(action, cfg)) + [_CUE_FOUL_MAP[f] for f in general.cue_ball_fouls(rec)]
            if jumped_obj:
                fouls.append(F_OBJ_OFF)
        else:
            kitchen = state.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
            fouls = [_CUE_FOUL_MAP.get(x, x) for x in general.standard_fouls(
                rec, table, R, cfg, (), kitchen=kitchen, no_hit=F_NO_HIT, no_rail=F_NO_RAIL, obj_off=F_OBJ_OFF,
                facts=f, stroke=action)]
            # SP-6.7.2 near-cushion rule.
            first, t0 = f.first, f.t0
            if cfg.near_cushion_rule and first is not None and not pocketed:
                near = near_rails(rec.pos0[first].tolist(), table, R, cfg.frozen_eps)
                if near:
                    rails0, to_cue = q.frozen_ball(rec, table, R, cfg.frozen_eps, first)
                    really_frozen = bool(rails0) or to_cue
                if near and not really_frozen:
                    only_near = not q.frozen_rule_satisfied(rec, table, first, t0, near, R=R, eps=cfg.frozen_eps)
                    hist = state.extra.nc_history[seat]
                    if only_near and all(h in (-1, first) for h in hist):
                        fouls.append(F_NEAR_RAIL)
                        if -1 in hist:
                            third_by_nc = True
                            nc_prev_fouls = sum(1 for h in hist if h == -1)
                    if only_near:
                        nc_code = first
        if fouls:
            return self._foul(state, rec, tuple(fouls), pocketed, jumped_obj, cue_gone, third_by_nc,
                              nc_prev_fouls, refs, table, R)
        return self._legal(state, action, rec, pocketed, call_made, nc_code, refs, table, R)

    def _after(self, state: GameState, rec) -> GameState:
        pos, on = general.after_shot(state, rec)
        return state._evolve({"pos": pos, "on_table": on, "shot_number": state.shot_number + 1, "options": ()})

    def _breaking_violation(self, state, rec, pocketed, jumped_obj, cue_gone, table, R):
        """SP-6.6 A.2: -2, not a foul for SP-6.12; pocketed / jumped balls spotted (SP-6.8,
        SP-6.9); the opponent accepts the table or has the offender re-break."""
        seat = state.seat_to_act
        opp = 1 - seat
        s = self._after(state, rec)
        spotted = tuple(sorted(set(pocketed) | set(jumped_obj)))
        s = self._spot(s, spotted, table, R)
        if cue_gone:
            on = list(s.on_table)
            on[0] = False
            s = s.replace(on_table=tuple(on))
        scores = self._penalise(state, seat, BREAK_PENALTY)
        ex = self._push_history(state.extra, seat, 0)
        ex = dataclasses.replace(ex, offender=seat, option_rule="SP-6.6")
        opts = (Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS)
        s = s.replace(scores=scores, seat_to_act=opp, phase=Phase.OPTION, options=opts, inning=state.inning + 1,
                      cue_ball=CueBallPlacement.IN_HAND_KITCHEN if cue_gone else CueBallPlacement.IN_POSITION,
                      cue_placed=False, extra=ex)
        refs = ("SP-6.6",) + (("SP-6.8",) if pocketed else ()) + (("SP-6.9",) if jumped_obj else ())
        return s, Verdict(fouls=(F_BREAK,), pocketed=pocketed, points=self._delta(state.scores, scores),
                          next_seat=opp, cue_ball=s.cue_ball, options=opts, spotted=spotted, rule_refs=refs)

    @staticmethod
    def _delta(old: tuple, new: tuple) -> tuple:
        return tuple(int(b - a) for a, b in zip(old, new))

    def _foul(self, state, rec, fouls, pocketed, jumped_obj, cue_gone, third_by_nc, nc_prev_fouls, refs,
              table, R):
        """SP-6.11 / SP-6.12 / SP-6.13: penalty, spotting (SP-6.8, SP-6.9, SP-6.13), the
        incoming player's cue ball (SP-6.10, SP-6.11) or option (SP-6.12)."""
        cfg: StraightPoolConfig = state.config
        seat = state.seat_to_act
        opp = 1 - seat
        refs = list(refs) + ["SP-6.11"]
        cf = general.add_foul(state.consecutive_fouls, seat)
        third = cf[seat] >= 3 or third_by_nc
        if third:
            prev = (cf[seat] - 1) if not third_by_nc else nc_prev_fouls
            penalty = 1 + THIRD_FOUL_EXTRA + (prev if cfg.charge_previous_fouls_again else 0)
            fouls = fouls + (F_THIRD,)
            refs.append("SP-6.12")
            cf = general.clear_fouls(cf, seat)
        else:
            penalty = 1
        s = self._after(state, rec)
        spotted = tuple(sorted(set(pocketed) | set(jumped_obj)))
        if spotted:
            refs.append("SP-6.13" if pocketed else "SP-6.9")
            if jumped_obj and pocketed:
                refs.append("SP-6.9")
        s = self._spot(s, spotted, table, R)
        if cue_gone:
            on = list(s.on_table)
            on[0] = False
            s = s.replace(on_table=tuple(on))
            refs.append("SP-6.10")
        scores = self._penalise(state, seat, penalty)
        ex = self._push_history(state.extra, seat, -1, clear=third)
        s = s.replace(scores=scores, consecutive_fouls=cf, inning=state.inning + 1, extra=ex)
        cue = CueBallPlacement.IN_HAND_KITCHEN if cue_gone else CueBallPlacement.IN_POSITION
        pts = self._delta(state.scores, scores)
        if third and cfg.third_foul_option is ThirdFoulOption.MANDATORY_RERACK:
            s = self._full_rerack(s, seat)
            return s, Verdict(fouls=fouls, pocketed=pocketed, points=pts, next_seat=seat,
                              cue_ball=CueBallPlacement.IN_HAND_KITCHEN, spotted=spotted,
                              rule_refs=tuple(refs) + ("SP-6.6",))
        if third:
            opts = (Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS)
            ex = dataclasses.replace(s.extra, offender=seat, option_rule="SP-6.12")
            s = s.replace(seat_to_act=opp, phase=Phase.OPTION, options=opts, cue_ball=cue, cue_placed=False,
                          extra=ex)
            return s, Verdict(fouls=fouls, pocketed=pocketed, points=pts, next_seat=opp, cue_ball=cue,
                              options=opts, spotted=spotted, rule_refs=tuple(refs))
        ex = self._begin_turn(s.extra, opp, scores)
        s.__dict__.update(seat_to_act=opp, phase=Phase.PLAY, cue_ball=cue, cue_placed=False, extra=ex)  # fresh
        return s, Verdict._fast(fouls=fouls, pocketed=pocketed, points=pts, next_seat=opp, cue_ball=cue,
                                spotted=spotted, rule_refs=tuple(refs))

    def _legal(self, state, action, rec, pocketed, call_made, nc_code, refs, table, R):
        """No foul: B.4-B.9 (and A.4 for a legal break)."""
        cfg: StraightPoolConfig = state.config
        seat = state.seat_to_act
        opp = 1 - seat
        refs = list(refs)
        cf = general.clear_fouls(state.consecutive_fouls, seat)
        s = self._after(state, rec)
        scored = call_made and not action.safety
        if scored:
            scores = list(state.scores)
            scores[seat] += len(pocketed)
            scores = tuple(scores)
            refs += ["SP-6.5", "SP-6.7.1"]
            ex = self._push_history(state.extra, seat, 0)
            pts = self._delta(state.scores, scores)
            # ``s`` is the fresh state of `_after`, not yet seen by anyone: its fields are set in place
            fresh = s.__dict__
            if scores[seat] >= cfg.target_points:
                refs.append("SP-6.1")
                fresh.update(scores=scores, consecutive_fouls=cf, extra=ex, phase=Phase.GAME_OVER, winner=seat,
                             seat_to_act=seat, cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False)
                return s, Verdict._fast(legal_pocketed=pocketed, pocketed=pocketed, points=pts, next_seat=seat,
                                        game_over=True, winner=seat, rule_refs=tuple(refs), turn_continues=True)
            cue = CueBallPlacement.IN_POSITION
            fresh.update(scores=scores, consecutive_fouls=cf, extra=ex, seat_to_act=seat, phase=Phase.PLAY,
                         cue_ball=cue, cue_placed=False)
            if len(s.balls_on_table()) <= 1:
                s, cue, rr = self._rerack_fourteen(s, rec)
                refs += list(rr)
            return s, Verdict._fast(legal_pocketed=pocketed, pocketed=pocketed, points=pts, next_seat=seat,
                                    cue_ball=cue, rule_refs=tuple(refs), turn_continues=True)
        # safety (SP-6.7.4) or miss (G-3.5): inning ends, pocketed balls spotted (SP-6.8).
        if action.safety:
            refs.append("SP-6.7.4")
        else:
            refs.append("G-3.5")
        if pocketed:
            refs.append("SP-6.8")
        s = self._spot(s, pocketed, table, R)
        ex = self._push_history(state.extra, seat, nc_code)
        ex = self._begin_turn(ex, opp, state.scores)
        zeros = (0,) * state.n_players
        # ``s`` is fresh (`_after`, then `_spot`'s copy when a ball was spotted): set in place
        s.__dict__.update(consecutive_fouls=cf, seat_to_act=opp, phase=Phase.PLAY,
                          cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False, inning=state.inning + 1, extra=ex)
        return s, Verdict._fast(pocketed=pocketed, points=zeros, next_seat=opp, spotted=tuple(sorted(pocketed)),
                                rule_refs=tuple(refs))

    def adjudicate_batch(self, states, actions, recs) -> list:
        """`adjudicate_validated` of a batch of shots: the fouls and outcome of every break and
        shot in play in one compiled call (`poolgym.rules.straight_pool_batch.outcomes`), then
        each table's state and verdict built as :meth:`_breaking_violation`, :meth:`_foul`,
        :meth:`_legal` and `_post` build them (the balls spotted by `_spot`, the SP-6.7.3 re-rack
        of a scoring shot that leaves one ball or none by :meth:`_rerack_fourteen`); the cases
        that call leaves open (third fouls, G-3.38, G-3.39, ...), the scoring shots that end
        the game (SP-6.1) and records without their batch's facts are ruled by
        :meth:`adjudicate` itself."""
        ruled = self._batch_outcomes(states, actions, recs)
        if ruled is None:
            return super().adjudicate_batch(states, actions, recs)
        code, bits, pmask, jmask, near = ruled
        bf = recs[0].facts[0]
        pos_all, on_all = self._batch_rests(bf, states, recs)
        table = bf.table
        R = ball_radius()
        play, in_position, brk_phase = _PLAY, _IN_POSITION, _BREAK
        out = []
        for k, (st, c) in enumerate(zip(states, code)):
            if c == _sb.FALLBACK:
                out.append(self.adjudicate_validated(st, actions[k], recs[k]))
                continue
            seat = st.seat_to_act
            opp = 1 - seat
            scores = st.scores
            pk = general.ball_tuple(pmask[k])
            pos, on = pos_all[k], on_all[k]
            if c == _sb.VIOLATION:  # SP-6.6: -2, spotted (SP-6.8, SP-6.9), the opponent's option
                spotted = general.ball_tuple(pmask[k] | jmask[k])
                if spotted:
                    pos, on = self._batch_spot(st, pos, on, spotted, table, R)
                cue = in_position
                if bits[k] & _CUE_GONE:
                    on = (False,) + on[1:]
                    cue = _IN_HAND_KITCHEN
                sc = self._penalise(st, seat, BREAK_PENALTY)
                ex = _xreplace(self._push_history(st.extra, seat, 0), offender=seat, option_rule="SP-6.6")
                new = st._evolve({"pos": pos, "on_table": on, "shot_number": st.shot_number + 1,
                                  "options": _BREAK_OPTIONS, "scores": sc, "seat_to_act": opp, "phase": _OPTION,
                                  "inning": st.inning + 1, "cue_ball": cue, "cue_placed": False, "extra": ex})
                v = Verdict._fast(fouls=(F_BREAK,), pocketed=pk, points=self._delta(scores, sc), next_seat=opp,
                                  cue_ball=cue, options=_BREAK_OPTIONS, spotted=spotted,
                                  rule_refs=("SP-6.6",) + (("SP-6.8",) if pk else ()) + (("SP-6.9",) if jmask[k] else ()))
                out.append(self._batch_post(st, new, v, True))
                continue
            brk = ("SP-6.6",) if st.phase is brk_phase else ()  # a legal break (SP-6.6)
            cf = list(st.consecutive_fouls)
            if c == _sb.POT:  # SP-6.5 / SP-6.7.1: every ball pocketed scores, the inning continues
                sc = list(scores)
                sc[seat] += len(pk)
                if sc[seat] >= st.config.target_points:  # SP-6.1
                    out.append(self.adjudicate_validated(st, actions[k], recs[k]))
                    continue
                cf[seat] = 0
                sc = tuple(sc)
                new = st._evolve({"pos": pos, "on_table": on, "shot_number": st.shot_number + 1, "options": (),
                                  "scores": sc, "consecutive_fouls": tuple(cf),
                                  "extra": self._keep_turn(st.extra, seat), "seat_to_act": seat,
                                  "phase": play, "cue_ball": in_position, "cue_placed": False})
                cue = in_position
                refs = brk + ("SP-6.5", "SP-6.7.1")
                if sum(on) - on[0] <= 1:  # SP-6.7.3: one ball left (or none), the 14 re-racked
                    new, cue, rr = self._rerack_fourteen(new, recs[k])
                    refs += rr
                v = Verdict._fast(legal_pocketed=pk, pocketed=pk, points=self._delta(scores, sc), next_seat=seat,
                                  cue_ball=cue, rule_refs=refs, turn_continues=True)
                out.append(self._batch_post(st, new, v, False))
                continue
            if c == _sb.FOUL:  # SP-6.11 (SP-6.12's counter), SP-6.8 / SP-6.9 / SP-6.13 spotting, SP-6.10
                fb = bits[k]
                spotted = general.ball_tuple(pmask[k] | jmask[k])
                refs = [*brk, "SP-6.11"]
                if spotted:
                    refs.append("SP-6.13" if pk else "SP-6.9")
                    if jmask[k] and pk:
                        refs.append("SP-6.9")
                    pos, on = self._batch_spot(st, pos, on, spotted, table, R)
                cue = in_position
                if fb & _CUE_GONE:
                    on = (False,) + on[1:]
                    refs.append("SP-6.10")
                    cue = _IN_HAND_KITCHEN
                cf[seat] += 1
                sc = self._penalise(st, seat, 1)
                new = st._evolve({"pos": pos, "on_table": on, "shot_number": st.shot_number + 1, "options": (),
                                  "scores": sc, "consecutive_fouls": tuple(cf), "inning": st.inning + 1,
                                  "extra": self._pass_turn(st.extra, seat, -1, opp, sc),
                                  "seat_to_act": opp, "phase": play, "cue_ball": cue, "cue_placed": False})
                v = Verdict._fast(fouls=_fouls(fb), pocketed=pk, points=self._delta(scores, sc), next_seat=opp,
                                  cue_ball=cue, spotted=spotted, rule_refs=tuple(refs))
            else:  # MISS: a safety (SP-6.7.4) or a miss (G-3.5), the balls pocketed spotted (SP-6.8)
                ref = "SP-6.7.4" if actions[k].safety else "G-3.5"
                if pk:
                    pos, on = self._batch_spot(st, pos, on, pk, table, R)
                cf[seat] = 0
                new = st._evolve({"pos": pos, "on_table": on, "shot_number": st.shot_number + 1, "options": (),
                                  "consecutive_fouls": tuple(cf), "seat_to_act": opp, "phase": play,
                                  "cue_ball": in_position, "cue_placed": False, "inning": st.inning + 1,
                                  "extra": self._pass_turn(st.extra, seat, near[k], opp, scores)})
                v = Verdict._fast(pocketed=pk, points=(0,) * st.n_players, next_seat=opp, spotted=pk,
                                  rule_refs=brk + ((ref, "SP-6.8") if pk else (ref,)))
            out.append(self._batch_post(st, new, v, True))
        return out

    def compile_batch(self) -> None:
        _sb.outcomes.compile(_sb.signature())

    def _batch_spot(self, state: GameState, pos: tuple, on: tuple, balls: tuple, table, R: float) -> tuple:
        """(pos, on_table) of the balls at rest ``pos`` / ``on`` after ``state``'s shot with
        ``balls`` spotted (G-3.32, as :meth:`_spot`)."""
        s = self._spot(state._evolve({"pos": pos, "on_table": on}), balls, table, R)
        return s.pos, s.on_table

    def _batch_outcomes(self, states, actions, recs):
        """(code, foul bits, pocketed-ball bits, jumped-ball bits, near-cushion ball) lists of
        `straight_pool_batch.outcomes` for the tables, or None when the batch cannot be read
        there (records not from one `BatchFacts` in table order, mixed configs, another table,
        a subclass, a double-hit gap, G-3.38 switched off)."""
        if type(self) is not StraightPool:
            return None
        bf = self._batch_facts(states, recs)
        if bf is None:
            return None
        cfg = states[0].config
        if not cfg.frozen_rule_enabled:
            return None
        tab = []
        stroke = []
        play, brk_phase, kitchen, skip = _PLAY, _BREAK, _IN_HAND_KITCHEN, _SKIP_ROW
        for st, a in zip(states, actions):
            stroke.append((a.theta, a.a, a.b))
            ph = st.phase
            if ph is not play and ph is not brk_phase:
                tab.append(skip)
                continue
            seat = st.seat_to_act
            h = st.extra.nc_history[seat]
            called = a.called_ball
            tab.append((0, st.cue_ball is kitchen, st.consecutive_fouls[seat], bool(a.safety),
                        -1 if called is None else int(called), -1 if called is None else int(a.called_pocket),
                        h[0], h[1], ph is brk_phase))
        table = bf.table
        c = _nb.config_row(cfg, table, ball_radius(), 0.0, 0.0, 1.0, cfg.near_cushion_rule)
        b = bf._batch
        seg_y, jaw_y = q._segment_jaw_y(table)
        out = _sb.outcomes(np.array(tab, np.int64), np.array(stroke, np.float64), c, bf.first_raw, bf.t0_raw,
                           bf.cue_pocketed, bf.pocketed, bf.jumped, bf.start, bf.ct, bf.cb, bf.cr, bf.to_rail, bf.cue_ball,
                           b.pocket, b.rvw0, b.rvw, b.n_events, b.ev_kind, b.ev_i, b.ev_j, b.ev_t, seg_y, jaw_y,
                           _BB, _BC, _BJ)
        return tuple(a.tolist() for a in out)

    # ------------------------------------------------------------------ options
    def apply_option(self, state: GameState, option: Option):
        """SP-6.6 / SP-6.12: ACCEPT_TABLE -- the incoming player shoots from the position
        (cue ball in hand behind the head string if it left the table, SP-6.10);
        OPPONENT_REBREAKS -- all 15 balls re-racked, the offender breaks under the
        opening-break requirements."""
        ex: StraightPoolExtra = state.extra
        rule = ex.option_rule or "SP-6.6"
        zeros = (0,) * state.n_players
        if option is Option.ACCEPT_TABLE:
            cue = CueBallPlacement.IN_POSITION if state.on_table[0] else CueBallPlacement.IN_HAND_KITCHEN
            ex2 = self._begin_turn(dataclasses.replace(ex, offender=-1, option_rule=""), state.seat_to_act,
                                   state.scores)
            s = state.replace(phase=Phase.PLAY, options=(), cue_ball=cue, cue_placed=False, extra=ex2)
            return s, Verdict(points=zeros, next_seat=s.seat_to_act, cue_ball=cue, rule_refs=(rule,))
        if option is Option.OPPONENT_REBREAKS:
            off = ex.offender if ex.offender >= 0 else 1 - state.seat_to_act
            s = self._full_rerack(state, off)
            s = s.replace(inning=state.inning + 1)
            return s, Verdict(points=zeros, next_seat=off, cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                              rule_refs=(rule, "SP-6.6", "SP-6.4"))
        raise IllegalActionError(f"option {option.value} is not a 14.1 option")
