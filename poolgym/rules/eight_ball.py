"""Eight-ball referee (WPA, shared/rules/eight_ball.md, 8B-4.x; informal variants INF1/INF2
as options, conflicts.md C-01, C-02, C-04, C-11, C-12, C-13, C-16, C-59).

Balls: row 0 cue ball, row k object ball k (N = 16). Groups (``state.groups`` per seat):
0 open table, 1 solids (1-7), 2 stripes (9-15); the 8 belongs to neither (8B-4.1).

Rules implemented (checklist of eight_ball.md section 5):

* 8B-4.3 rack: 8 in the centre of the triangle (middle of the third row), apex on the
  foot spot, a stripe in one back corner and a solid in the other (which corner is
  random), every other ball random from the state's RNG (``rack_pattern`` WPA); C-59
  ``ALTERNATING`` (INF2-8B-2): solids and stripes alternate along the rows, different
  groups in the back corners.
* 8B-4.4 break order of later games: ``break_order`` (G-3.36, :meth:`next_game`).
* 8B-4.5 legal break (a ball pocketed or >= 4 distinct object balls to a cushion); else
  foul and the incoming player chooses ACCEPT_TABLE / RERACK_AND_BREAK /
  OPPONENT_REBREAKS (no ball in hand, C-12).
* 8B-4.6 scratch (or cue ball off the table, C-12) on a legal break: foul, balls stay
  down, table open, incoming player in hand behind the head string (the GW-5 kitchen
  spot request is available, C-10). Scratch on an illegal break: C-12
  ``break_foul_combination`` MOST_SEVERE offers CUE_IN_HAND_KITCHEN / RERACK_AND_BREAK /
  OPPONENT_REBREAKS; SCRATCH_ONLY gives in hand behind the head string.
* 8B-4.7 object ball jumped on the break: foul, not spotted, incoming player chooses
  ACCEPT_TABLE / CUE_IN_HAND_KITCHEN.
* 8B-4.8 8 pocketed on the break: the breaker chooses RERACK_AND_BREAK (he breaks again)
  or SPOT_EIGHT_AND_PLAY (8 spotted, G-3.32; he continues in position); with a scratch the
  incoming player chooses RERACK_AND_BREAK (he breaks) or SPOT_EIGHT_AND_PLAY (in hand
  behind the head string). C-01 ``eight_on_break``: INFORMAL_OPPONENT_OPTION (INF2-8B-3,
  the opponent chooses; cue in position, or behind the head string after a scratch) or
  LOSS (INF1-8B-5).
* C-13 ``jumped_eight_on_break``: LOSS (8B-4.17 / 8B-4.20(3), default) or TREAT_AS_8B_4_7
  (the 8 is spotted, the break is then adjudicated as a jumped-ball break).
* 8B-4.9 / 8B-4.10 open table: any ball but the 8 may be hit first; the group is chosen
  only by legally pocketing a *called* ball after the break (C-11 ``group_assignment``
  FIRST_BALL_POCKETED_ON_BREAK, INF1-8B-2: the first ball pocketed on a legal break fixes
  the breaker's group).
* 8B-4.2 / GW-6 calls: every shot after the break names one ball and one pocket
  (``require_call_every_shot`` default True). With False, obvious shots need no call: a
  pot counts without a call only if the ball pocketed is the first ball the cue ball
  hit and it did not touch a cushion first (banks and combinations are never obvious,
  8B-4.2); the 8 must always be called (8B-4.20(4), INF1-8B-4).
* 8B-4.11 legal shot: own group first (8 first on an open table is a foul, 8B-4.9; 8
  first before the group is cleared is a foul, 8B-4.15 / C-15), then a ball pocketed or a
  cushion contact after the first contact (G-3.38 frozen balls, G-3.39 kitchen).
* 8B-4.12 safety (``ShotAction.safety``): a legal shot after which the inning ends; balls
  pocketed stay down.
* 8B-4.13 the shooter continues while he legally pockets a called ball of his group; after
  clearing his group he shoots the 8 (8B-4.19: must hit the 8 first).
* 8B-4.14 fouls: cue ball in hand anywhere for the opponent (frozen placement allowed).
* 8B-4.16 illegally pocketed balls stay down and count for their group's owner (the group
  is cleared when all its balls are off the table).
* 8B-4.17 jumped object balls: foul, not spotted (C-02 ``jumped_object_balls`` SPOT,
  INF2-8B-6: spotted on the long string, G-3.32); they count as gone for clearing a group
  (C-16 ``jumped_group_ball_counts_as_pocketed``).
* 8B-4.19 / 8B-4.20 loss of game, in the order of the checklist: the 8 jumped (3); the 8
  pocketed on a foul (1); the 8 pocketed when it is not the legal object ball (5) -- or
  with the last ball of the group (2); the 8 in a pocket other than the called one (4).
  Win: the 8 legally pocketed in the called pocket.
* 8B-4.21 stalemate: re-rack, the same breaker breaks again. Referee stand-in:
  ``stalemate_innings`` consecutive innings with no ball pocketed (GW-12); agreement:
  OFFER_STALEMATE (after ``stalemate_offer_innings`` such innings) answered with
  ACCEPT_STALEMATE or DECLINE. Three consecutive fouls are *not* a loss (8B-4.21 note;
  C-04 ``three_foul_loss`` True makes them one).
* 8B-4.18 (jump / masse foul) needs a cue-stick model and is not adjudicated.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Optional

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit

from . import eight_ball_batch as _eb, general, nine_ball_batch as _nb, queries as q, serialize
from .core import (ChooseOption, CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option,
                   Phase, RulesConfig, ShotAction, Verdict)
from .game import DisciplineBase
from .geometry import ball_radius, get_table, rack_triangle
from .seeding import _next_double, _shuffle, _stream, entropy_words
from .shot_record import EventKind

__all__ = [
    "EightBall", "EightBallConfig", "EightBallExtra", "Group", "EightOnBreak", "JumpedObjectBalls",
    "GroupAssignment", "RackPattern", "BreakFoulCombination", "JumpedEightOnBreak", "OptionContext",
    "LossReason", "SOLIDS", "STRIPES", "EIGHT", "group_of", "legal_object_balls", "group_cleared", "rack_order",
]

EIGHT = 8
SOLIDS = tuple(range(1, 8))
STRIPES = tuple(range(9, 16))


class Group(IntEnum):
    """``state.groups`` values (8B-4.1, 8B-4.9)."""

    OPEN = 0
    SOLIDS = 1
    STRIPES = 2


def group_of(ball: int) -> Group:
    """Group of an object ball: solids 1-7, stripes 9-15; the 8 (and the cue ball) OPEN."""
    if 1 <= ball <= 7:
        return Group.SOLIDS
    if 9 <= ball <= 15:
        return Group.STRIPES
    return Group.OPEN


def _balls_of(g: int) -> tuple:
    return SOLIDS if g == Group.SOLIDS else STRIPES if g == Group.STRIPES else ()


class EightOnBreak(str, Enum):
    """C-01: the 8 pocketed on the break."""

    WPA = "wpa"                                            # 8B-4.8 (default)
    INFORMAL_OPPONENT_OPTION = "informal_opponent_option"  # INF2-8B-3
    LOSS = "loss"                                          # INF1-8B-5 literal reading


class JumpedObjectBalls(str, Enum):
    """C-02: object balls jumped off the table."""

    NOT_SPOTTED = "not_spotted"  # 8B-4.17 (default)
    SPOT = "spot"                # INF2-8B-6: on the long string, ascending (G-3.32)


class GroupAssignment(str, Enum):
    """C-11: when the groups are assigned."""

    CALLED_BALL_AFTER_BREAK = "called_ball_after_break"            # 8B-4.10 (default)
    FIRST_BALL_POCKETED_ON_BREAK = "first_ball_pocketed_on_break"  # INF1-8B-2


class RackPattern(str, Enum):
    """C-59: rack pattern."""

    WPA = "wpa"                  # 8B-4.3 (default)
    ALTERNATING = "alternating"  # INF2-8B-2


class BreakFoulCombination(str, Enum):
    """C-12: scratch (or cue ball off the table) on a break that is also illegal by count."""

    MOST_SEVERE = "most_severe"    # in hand behind the head string, or re-rack (G-3.30)
    SCRATCH_ONLY = "scratch_only"  # 8B-4.6 only: in hand behind the head string


class JumpedEightOnBreak(str, Enum):
    """C-13: the 8 jumped off the table on the break."""

    LOSS = "loss"                        # 8B-4.17 / 8B-4.20(3) (default)
    TREAT_AS_8B_4_7 = "treat_as_8B-4.7"  # spot the 8, then 8B-4.7 options


class OptionContext(str, Enum):
    """Why the seat to act is in :attr:`Phase.OPTION` (decides what each option does)."""

    NONE = "none"
    ILLEGAL_BREAK = "illegal_break"                  # 8B-4.5
    ILLEGAL_BREAK_SCRATCH = "illegal_break_scratch"  # 8B-4.5 + 8B-4.6 (C-12 most severe)
    JUMPED_ON_BREAK = "jumped_on_break"              # 8B-4.7
    EIGHT_ON_BREAK = "eight_on_break"                # 8B-4.8 breaker's option / INF2-8B-3
    STALEMATE_OFFER = "stalemate_offer"              # 8B-4.21 agreement


class LossReason(str, Enum):
    """Why the game was lost (the items of 8B-4.20 and the optional variants)."""

    FOUL_POCKETING_EIGHT = "8B-4.20(1)"
    EIGHT_WITH_LAST_OF_GROUP = "8B-4.20(2)"
    EIGHT_OFF_TABLE = "8B-4.20(3)"
    EIGHT_WRONG_POCKET = "8B-4.20(4)"
    EIGHT_NOT_LEGAL_OBJECT = "8B-4.20(5)"
    EIGHT_ON_BREAK = "INF1-8B-5"        # C-01 eight_on_break = LOSS
    THIRD_CONSECUTIVE_FOUL = "C-04"     # three_foul_loss = True


@dataclass(frozen=True)
class EightBallConfig(RulesConfig):
    """Eight-ball knobs (eight_ball.md section 6, conflicts.md section A); defaults = WPA.

    eight_on_break: C-01. jumped_object_balls: C-02. three_foul_loss: C-04 (8B-4.21 note:
    False). group_assignment: C-11. rack_pattern: C-59. require_call_every_shot: 8B-4.2
    (False: obvious shots need no call). break_foul_combination: C-12.
    jumped_eight_on_break: C-13. jumped_group_ball_counts_as_pocketed: C-16.
    break_min_rail_balls: 8B-4.5 (four numbered balls).
    stalemate_innings (RulesConfig, GW-12 stand-in for the referee's 8B-4.21 judgement):
    innings without a pocketed ball after which the rack is re-racked (0 = never).
    stalemate_agreement / stalemate_offer_innings: 8B-4.21 "both players agree" -- the
    seat to act may offer a stalemate once per inning after that many innings without a
    pocketed ball (3 turns each = 6). The conflicts.md knob ``stalemate_rule`` "off" is
    ``stalemate_innings=0, stalemate_agreement=False``.
    """

    eight_on_break: EightOnBreak = EightOnBreak.WPA
    jumped_object_balls: JumpedObjectBalls = JumpedObjectBalls.NOT_SPOTTED
    three_foul_loss: bool = False
    group_assignment: GroupAssignment = GroupAssignment.CALLED_BALL_AFTER_BREAK
    rack_pattern: RackPattern = RackPattern.WPA
    require_call_every_shot: bool = True
    break_foul_combination: BreakFoulCombination = BreakFoulCombination.MOST_SEVERE
    jumped_eight_on_break: JumpedEightOnBreak = JumpedEightOnBreak.LOSS
    jumped_group_ball_counts_as_pocketed: bool = True
    break_min_rail_balls: int = 4
    stalemate_innings: int = 12
    stalemate_agreement: bool = True
    stalemate_offer_innings: int = 6

    def __post_init__(self) -> None:
        super().__post_init__()
        for name, cls in (("eight_on_break", EightOnBreak), ("jumped_object_balls", JumpedObjectBalls),
                          ("group_assignment", GroupAssignment), ("rack_pattern", RackPattern),
                          ("break_foul_combination", BreakFoulCombination),
                          ("jumped_eight_on_break", JumpedEightOnBreak)):
            v = getattr(self, name)
            if not isinstance(v, cls):
                try:
                    object.__setattr__(self, name, cls(v))
                except ValueError:
                    raise ValueError(f"{name} must be one of {[m.value for m in cls]}, got {v!r}") from None
        for name in ("three_foul_loss", "require_call_every_shot", "jumped_group_ball_counts_as_pocketed",
                     "stalemate_agreement"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be a bool, got {getattr(self, name)!r}")
        if not isinstance(self.break_min_rail_balls, int) or not (0 <= self.break_min_rail_balls <= 15):
            raise ValueError(f"break_min_rail_balls must be an int in [0, 15], got {self.break_min_rail_balls!r}")
        if not isinstance(self.stalemate_offer_innings, int) or self.stalemate_offer_innings < 0:
            raise ValueError(f"stalemate_offer_innings must be a non-negative int, got "
                             f"{self.stalemate_offer_innings!r}")
        if self.n_players != 2:
            raise ValueError(f"n_players must be 2 for eight-ball, got {self.n_players!r}")


@dataclass(frozen=True)
class EightBallExtra:
    """Eight-ball bookkeeping carried in ``state.extra``.

    context: why the seat to act faces :attr:`Phase.OPTION`.
    spot_cue: where the cue ball is after SPOT_EIGHT_AND_PLAY (8B-4.8: in position for the
        breaker, behind the head string after a scratch).
    resume_seat / resume_cue / resume_placed: the shooter's situation while a stalemate
        offer is pending (restored on DECLINE).
    offer_inning: inning in which the last stalemate offer was made (one offer per inning).
    jumped: object balls jumped off the table this rack and not spotted (8B-4.17, C-16).
    loss: why the game was lost (8B-4.20 item), None otherwise.
    reracks: re-racks so far in this game (8B-4.5, 8B-4.8, 8B-4.21).
    """

    context: OptionContext = OptionContext.NONE
    spot_cue: CueBallPlacement = CueBallPlacement.IN_POSITION
    resume_seat: int = -1
    resume_cue: CueBallPlacement = CueBallPlacement.IN_POSITION
    resume_placed: bool = False
    offer_inning: int = -1
    jumped: tuple = ()
    loss: Optional[LossReason] = None
    reracks: int = 0


serialize.register(Group, EightOnBreak, JumpedObjectBalls, GroupAssignment, RackPattern, BreakFoulCombination,
                   JumpedEightOnBreak, OptionContext, LossReason, EightBallConfig, EightBallExtra)

# Fouls with the eight-ball rule that makes them fouls.
F_BAD_HIT = Foul(FoulKind.WRONG_BALL_FIRST, "8B-4.11")
F_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "8B-4.11")
F_NO_RAIL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "8B-4.11")
F_EIGHT_FIRST_OPEN = Foul(FoulKind.EIGHT_FIRST_CONTACT, "8B-4.9")
F_EIGHT_FIRST = Foul(FoulKind.EIGHT_FIRST_CONTACT, "8B-4.15")
F_OBJ_OFF = Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "8B-4.17")
F_BREAK = Foul(FoulKind.ILLEGAL_BREAK, "8B-4.5")
F_BREAK_OBJ_OFF = Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "8B-4.7")
F_THIRD = Foul(FoulKind.THIRD_CONSECUTIVE_FOUL, "C-04")  # option only: 8B-4.21 note says no loss

_ZEROS = (0, 0)
_BB = int(EventKind.BALL_BALL)
_BC = int(EventKind.BALL_CUSHION)
_BJ = int(EventKind.BALL_JAW)
_GROUP_BITS = (0, sum(1 << b for b in range(1, 8)), sum(1 << b for b in range(9, 16)))
# the foul of each `nine_ball_batch` foul bit `eight_ball_batch.outcomes` sets, in the order
# `general.standard_fouls` lists them; the bad hit's foul depends on the ball and the table
_FOUL_BITS = ((_nb.MISCUE, general.G_MISCUE), (_nb.ILLEGAL_JUMP, general.G_ILLEGAL_JUMP),
              (_nb.SCRATCH, general.G_SCRATCH), (_nb.CUE_OFF, general.G_CUE_OFF), (_nb.KITCHEN, general.G_KITCHEN),
              (_nb.NO_HIT, F_NO_HIT), (_nb.BAD_HIT, None), (_nb.NO_RAIL, F_NO_RAIL))
_FOUL_TUPLES: dict = {}
#: the foul bits of the break's stroke and cue ball (`general.stroke_fouls`, `general.cue_ball_fouls`)
_BREAK_CUE_BITS = _nb.MISCUE | _nb.ILLEGAL_JUMP | _nb.SCRATCH


def _fouls(fbits: int, open_table: bool) -> tuple:
    """The fouls tuple of `eight_ball_batch` foul bits ``fbits`` on an open table or not
    (cached)."""
    key = (fbits, open_table)
    got = _FOUL_TUPLES.get(key)
    if got is None:
        bad = (F_EIGHT_FIRST_OPEN if open_table else F_EIGHT_FIRST) if fbits & _eb.EIGHT_FIRST else F_BAD_HIT
        got = _FOUL_TUPLES[key] = tuple(bad if foul is None else foul for bit, foul in _FOUL_BITS if fbits & bit)
    return got


# ----------------------------------------------------------------------------- pure helpers
def _jumped_counts(state: GameState) -> tuple:
    ex = state.extra
    return ex.jumped if (ex is not None and state.config.jumped_group_ball_counts_as_pocketed) else ()


def group_cleared(state: GameState, seat: int) -> bool:
    """8B-4.13: the seat's group is assigned and none of its balls is on the table.

    C-16: a jumped group ball counts as gone (default); with
    ``jumped_group_ball_counts_as_pocketed=False`` a group that lost a ball off the table
    is never cleared."""
    g = state.groups[seat]
    if g == Group.OPEN:
        return False
    balls = _balls_of(g)
    if any(state.on_table[b] for b in balls):
        return False
    if not state.config.jumped_group_ball_counts_as_pocketed and state.extra is not None:
        if any(b in balls for b in state.extra.jumped):
            return False
    return True


def legal_object_balls(state: GameState, seat: Optional[int] = None) -> tuple:
    """The balls the cue ball may contact first (8B-4.11 derived legal set).

    Break: any ball (the first contact on the break is unrestricted, 8B-4.5). Open table:
    any ball except the 8 (8B-4.9); if only the 8 is left, the 8. Group assigned: own
    group balls on the table; group cleared: the 8 (8B-4.13, 8B-4.19)."""
    seat = state.seat_to_act if seat is None else seat
    if state.phase is Phase.BREAK:
        return state.balls_on_table()
    g = state.groups[seat]
    key = (g, state.on_table)
    got = _LEGAL_MEMO.get(key)
    if got is not None:
        return got
    on = state.balls_on_table()
    if g == Group.OPEN:
        rest = tuple(b for b in on if b != EIGHT)
        legal = rest if rest else tuple(b for b in on if b == EIGHT)
    else:
        mine = _balls_of(g)
        legal = tuple(b for b in on if b in mine)
        if not legal:  # depends on more than the key (C-16): not memoised
            return (EIGHT,) if group_cleared(state, seat) and state.on_table[EIGHT] else ()
    if len(_LEGAL_MEMO) > _LEGAL_MEMO_SIZE:
        _LEGAL_MEMO.clear()
    _LEGAL_MEMO[key] = legal
    return legal


#: `legal_object_balls` in play by (group, balls on the table), when the seat's group has a
#: ball on the table or is open (then nothing else decides it); emptied when it grows past
#: `_LEGAL_MEMO_SIZE` entries
_LEGAL_MEMO: dict = {}
_LEGAL_MEMO_SIZE = 16384


def _other(seat: int) -> int:
    return 1 - seat


# ----------------------------------------------------------------------------- discipline
class EightBall(DisciplineBase):
    """WPA eight-ball (the module docstring lists the rules and their IDs).

    Seats 0 and 1. Ball rows: 0 cue ball, k = ball k (N = 16).
    """

    name = "eight_ball"
    rules_file = "eight_ball.md"
    n_balls = 16
    config_cls = EightBallConfig

    # ------------------------------------------------------------------ set-up
    def rack(self, config: EightBallConfig, rng: np.random.Generator):
        """8B-4.3 / INF2-8B-2: tight triangle (``triangle_slots``), apex on the foot spot,
        the 8 in slot 4 (centre), back corners slots 10 and 14 (one stripe, one solid)."""
        table = get_table(config.table)
        slots = rack_triangle(table, ball_radius(), config.rack_gap)
        order = rack_order(config.rack_pattern, rng)
        pos = np.zeros((16, 2))
        pos[0] = table.head_spot
        for slot, ball in enumerate(order):
            pos[ball] = slots[slot]
        on = np.ones(16, bool)
        on[0] = False
        return pos, on

    def rack_tuples(self, config, seed: int, rng_counter: int) -> tuple:
        """`DisciplineBase.rack_tuples` of :meth:`rack`, its draws compiled (`drawn_rack`:
        the same racks as ``rack(config, default_rng([seed, rng_counter]))``)."""
        words = entropy_words([seed, rng_counter])
        if type(self).rack is not EightBall.rack or words is None:
            return super().rack_tuples(config, seed, rng_counter)
        table = get_table(config.table)
        slots = rack_triangle(table, ball_radius(), config.rack_gap)
        alternating = RackPattern(config.rack_pattern) is RackPattern.ALTERNATING
        pos = drawn_rack(words, alternating, slots, np.asarray(table.head_spot, np.float64), _ALTERNATING_CODES)
        return tuple(pos.tolist()), _RACK_ON

    def initial_extra(self, config):
        return EightBallExtra()

    def shot_spec(self, state: GameState) -> dict:
        if state.phase is Phase.BREAK:
            return {"target_balls": state.balls_on_table()}
        legal = legal_object_balls(state)
        cleared = legal == (EIGHT,)
        return {
            "target_balls": legal,
            "callable_balls": legal,
            "call_required": bool(state.config.require_call_every_shot or cleared),
            "safety_allowed": True,
        }

    def spec_key(self, state: GameState):
        """`legal_actions` at the break and in play depends on the phase, the seat, the cue
        ball's placement, the legal object balls (8B-4.11, `legal_object_balls`, which also
        decide the call on the 8, 8B-4.20), the 8B-4.21 stalemate offer and, with the cue
        ball in hand behind the head string, the GW-5 kitchen spot request and its choices
        (they depend on the positions: part of the key then). In :attr:`Phase.OPTION` the
        spec is the seat and the options offered (8B-4.5, 8B-4.7, 8B-4.8, 8B-4.21: none names
        a ball). No key in the other phases, nor for a subclass (it may compute its spec from
        more)."""
        ph = state.phase
        if type(self) is not EightBall:
            return None
        if ph is Phase.OPTION:
            return id(state.config), ph, state.seat_to_act, state.options
        if ph is not Phase.PLAY and ph is not Phase.BREAK:
            return None
        kitchen = ()
        if state.config.kitchen_spot_request and state.cue_ball is CueBallPlacement.IN_HAND_KITCHEN:
            opts = DisciplineBase.extra_options(self, state)
            if opts:
                kitchen = (opts, self.spot_choices(state))
        return (id(state.config), ph, state.seat_to_act, state.cue_ball, state.cue_placed, legal_object_balls(state),
                self._may_offer_stalemate(state), kitchen)

    #: the key's seat (`DisciplineBase.spec_key_seat`): the seat enters the spec only as its
    #: ``seat`` field and through the key's legal balls and stalemate offer; a position the
    #: other seat met with the same legal balls reuses that spec with the seat changed
    spec_key_seat = 2

    def extra_options(self, state: GameState) -> tuple:
        """GW-5 kitchen spot request (base) and the 8B-4.21 stalemate offer."""
        out = super().extra_options(state)
        if self._may_offer_stalemate(state):
            out = out + (Option.OFFER_STALEMATE,)
        return out

    def _may_offer_stalemate(self, state: GameState) -> bool:
        cfg = state.config
        return bool(cfg.stalemate_agreement and state.phase is Phase.PLAY
                    and state.stall_innings >= cfg.stalemate_offer_innings
                    and state.extra.offer_inning != state.inning)

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        """8B-4.2 / 8B-4.12 / GW-6 declarations: the break carries none; afterwards a
        safety or a call of one legal ball and one pocket (the call may be omitted when
        ``require_call_every_shot`` is False, except on the 8)."""
        if action.push_out:
            raise IllegalActionError("eight-ball has no push-out")
        has_ball = action.called_ball is not None
        has_pocket = action.called_pocket is not None
        if state.phase is Phase.BREAK:
            if has_ball or has_pocket or action.safety:
                raise IllegalActionError("the opening break is not a called shot (8B-4.2): no call, no safety")
            return
        if action.safety:
            if has_ball or has_pocket:
                raise IllegalActionError("a safety replaces the call (8B-4.12): called_ball/called_pocket must be None")
            return
        if has_ball != has_pocket:
            raise IllegalActionError("a call names both a ball and a pocket (8B-4.2)")
        legal = legal_object_balls(state)
        if not has_ball:
            if state.config.require_call_every_shot:
                raise IllegalActionError("a call (called_ball and called_pocket) or safety is required (8B-4.2)")
            if legal == (EIGHT,):
                raise IllegalActionError("the 8 must be called with its pocket (8B-4.20(4))")
            return
        if action.called_ball not in legal:
            raise IllegalActionError(f"called_ball {action.called_ball} is not a legal object ball now "
                                     f"(legal: {list(legal)}, 8B-4.11)")

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state: GameState, action: ShotAction, rec):
        if state.phase is Phase.BREAK:
            return self._adjudicate_break(state, action, rec)
        return self._adjudicate_play(state, action, rec)

    def _after(self, state: GameState, rec, jumped_obj: tuple):
        """State after the stroke (positions, shot counter), jumped object balls recorded
        (8B-4.17) or spotted (C-02 SPOT, INF2-8B-6); returns (state, spotted)."""
        table = self.table(state)
        pos, on = general.after_shot(state, rec)
        s = state.replace(pos=pos, on_table=on, shot_number=state.shot_number + 1, options=())
        spotted = ()
        jumped = tuple(b for b in jumped_obj if b != EIGHT)
        if jumped:
            if state.config.jumped_object_balls is JumpedObjectBalls.SPOT:
                s = general.spot(s, jumped, table, ball_radius())
                spotted = tuple(sorted(jumped))
            else:
                s = s.replace(extra=_ex(s, jumped=tuple(sorted(s.extra.jumped + jumped))))
        return s, spotted

    def _lose(self, s: GameState, seat: int, reason: LossReason, fouls, pocketed, spotted, refs):
        opp = _other(seat)
        s = s.replace(phase=Phase.GAME_OVER, winner=opp, options=(), seat_to_act=opp,
                      extra=_ex(s, loss=reason, context=OptionContext.NONE))
        return s, Verdict(fouls=tuple(fouls), pocketed=pocketed, points=_ZEROS, next_seat=opp, spotted=spotted,
                          game_over=True, winner=opp, rule_refs=tuple(refs))

    def _in_hand(self, s: GameState, seat: int, where: CueBallPlacement, **kw) -> GameState:
        on = list(s.on_table)
        on[0] = False
        return s.replace(on_table=tuple(on), seat_to_act=seat, phase=Phase.PLAY, cue_ball=where,
                         cue_placed=False, **kw)

    def _offer(self, s: GameState, seat: int, options: tuple, context: OptionContext, **extra_kw) -> GameState:
        return s.replace(seat_to_act=seat, phase=Phase.OPTION, options=options, cue_placed=False,
                         extra=_ex(s, context=context, **extra_kw))

    def _adjudicate_break(self, state: GameState, action: ShotAction, rec):
        """Checklist A of eight_ball.md (8B-4.5 ... 8B-4.10, C-01, C-12, C-13)."""
        cfg: EightBallConfig = state.config
        f = q.shot_facts(rec, self.table(state))
        pocketed = f.pocketed
        jumped_obj = tuple(b for b in f.jumped if b != 0)
        # G-3.26 / G-3.27 stroke fouls count as the scratch of 8B-4.6: a foul on the break
        cue_fouls = general.stroke_fouls(action, cfg) + tuple(general.cue_ball_fouls(rec))
        legal_by_count = bool(pocketed) or len(f.object_balls_to_rail(rec.cue_ball)) >= cfg.break_min_rail_balls
        s, spotted = self._after(state, rec, jumped_obj)
        return self._rule_break(state, rec, s, spotted, pocketed, jumped_obj, cue_fouls, legal_by_count)

    def _rule_break(self, state: GameState, rec, s: GameState, spotted: tuple, pocketed: tuple, jumped_obj: tuple,
                    cue_fouls: tuple, legal_by_count: bool):
        """Checklist A from the break's facts: ``s`` the state after the stroke (`_after`,
        with ``spotted``), the object balls ``pocketed`` and ``jumped_obj`` off the table,
        the stroke and cue-ball fouls ``cue_fouls`` (the scratch of 8B-4.6) and whether the
        break is legal by count (8B-4.5: a ball pocketed or ``break_min_rail_balls`` object
        balls to a cushion). `adjudicate_batch` rules its breaks here with the facts of its
        compiled call."""
        cfg: EightBallConfig = state.config
        table = self.table(state)
        R = ball_radius()
        seat = state.seat_to_act
        opp = _other(seat)
        scratch = bool(cue_fouls)
        s = s.replace(inning=state.inning, extra=_ex(s, context=OptionContext.NONE))
        refs = []

        # A.2: the 8 pocketed on the break (8B-4.8, C-01).
        if EIGHT in pocketed:
            if cfg.eight_on_break is EightOnBreak.LOSS:
                return self._lose(s, seat, LossReason.EIGHT_ON_BREAK, cue_fouls, pocketed, spotted,
                                  ("INF1-8B-5",))
            opts = (Option.RERACK_AND_BREAK, Option.SPOT_EIGHT_AND_PLAY)
            where = CueBallPlacement.IN_HAND_KITCHEN if scratch else CueBallPlacement.IN_POSITION
            if cfg.eight_on_break is EightOnBreak.INFORMAL_OPPONENT_OPTION:
                chooser, ref = opp, "INF2-8B-3"
            else:
                chooser, ref = (opp if scratch else seat), "8B-4.8"
            if scratch:
                on = list(s.on_table)
                on[0] = False
                s = s.replace(on_table=tuple(on))
            cf = general.add_foul(state.consecutive_fouls, seat) if scratch else state.consecutive_fouls
            s = self._offer(s.replace(consecutive_fouls=cf, cue_ball=where,
                                      inning=state.inning + (1 if chooser != seat else 0)),
                            chooser, opts, OptionContext.EIGHT_ON_BREAK, spot_cue=where)
            return s, Verdict(fouls=cue_fouls, pocketed=pocketed, points=_ZEROS, next_seat=chooser,
                              cue_ball=where, options=opts, spotted=spotted, turn_continues=chooser == seat,
                              rule_refs=(ref,))

        # A.3: the 8 jumped off the table on the break (C-13).
        if EIGHT in jumped_obj:
            if cfg.jumped_eight_on_break is JumpedEightOnBreak.LOSS:
                return self._lose(s, seat, LossReason.EIGHT_OFF_TABLE, (F_BREAK_OBJ_OFF,) + cue_fouls, pocketed,
                                  spotted, ("8B-4.17", "8B-4.20"))
            s = general.spot(s, (EIGHT,), table, R)
            spotted = tuple(sorted(spotted + (EIGHT,)))
            refs.append("C-13")

        fouled = scratch or not legal_by_count or bool(jumped_obj)
        cf = general.add_foul(state.consecutive_fouls, seat) if fouled else general.clear_fouls(
            state.consecutive_fouls, seat)
        s = s.replace(consecutive_fouls=cf)
        # A.5: scratch / cue ball off the table (8B-4.6, C-12).
        if scratch:
            fouls = cue_fouls + (() if legal_by_count else (F_BREAK,)) + ((F_BREAK_OBJ_OFF,) if jumped_obj else ())
            if legal_by_count or cfg.break_foul_combination is BreakFoulCombination.SCRATCH_ONLY:
                s = self._in_hand(s, opp, CueBallPlacement.IN_HAND_KITCHEN, inning=state.inning + 1)
                return s, Verdict(fouls=fouls, pocketed=pocketed, points=_ZEROS, next_seat=opp,
                                  cue_ball=CueBallPlacement.IN_HAND_KITCHEN, spotted=spotted,
                                  rule_refs=tuple(refs) + ("8B-4.6",))
            opts = (Option.CUE_IN_HAND_KITCHEN, Option.RERACK_AND_BREAK, Option.OPPONENT_REBREAKS)
            on = list(s.on_table)
            on[0] = False
            s = self._offer(s.replace(on_table=tuple(on), cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                                      inning=state.inning + 1), opp, opts, OptionContext.ILLEGAL_BREAK_SCRATCH)
            return s, Verdict(fouls=fouls, pocketed=pocketed, points=_ZEROS, next_seat=opp,
                              cue_ball=CueBallPlacement.IN_HAND_KITCHEN, options=opts, spotted=spotted,
                              rule_refs=tuple(refs) + ("8B-4.5", "8B-4.6"))
        # A.6: illegal break by count (8B-4.5).
        if not legal_by_count:
            fouls = (F_BREAK,) + ((F_BREAK_OBJ_OFF,) if jumped_obj else ())
            opts = (Option.ACCEPT_TABLE, Option.RERACK_AND_BREAK, Option.OPPONENT_REBREAKS)
            s = self._offer(s.replace(cue_ball=CueBallPlacement.IN_POSITION, inning=state.inning + 1), opp, opts,
                            OptionContext.ILLEGAL_BREAK)
            return s, Verdict(fouls=fouls, pocketed=pocketed, points=_ZEROS, next_seat=opp, options=opts,
                              spotted=spotted, rule_refs=tuple(refs) + ("8B-4.5",))
        # A.7: object ball(s) jumped on a legal break (8B-4.7).
        if jumped_obj:
            opts = (Option.ACCEPT_TABLE, Option.CUE_IN_HAND_KITCHEN)
            s = self._offer(s.replace(cue_ball=CueBallPlacement.IN_POSITION, inning=state.inning + 1), opp, opts,
                            OptionContext.JUMPED_ON_BREAK)
            return s, Verdict(fouls=(F_BREAK_OBJ_OFF,), pocketed=pocketed, points=_ZEROS, next_seat=opp,
                              options=opts, spotted=spotted, rule_refs=tuple(refs) + ("8B-4.7",))
        # A.8: legal break; table open (8B-4.9, 8B-4.10) or INF1-8B-2 group by first ball.
        if pocketed:
            groups = state.groups
            refs.append("8B-4.2")
            if cfg.group_assignment is GroupAssignment.FIRST_BALL_POCKETED_ON_BREAK:
                g = group_of(_first_pocketed(rec, pocketed))
                groups = _assign(seat, g)
                refs.append("INF1-8B-2")
            else:
                refs.append("8B-4.10")
            s = s.replace(seat_to_act=seat, phase=Phase.PLAY, cue_ball=CueBallPlacement.IN_POSITION,
                          cue_placed=False, groups=groups)
            return s, Verdict(legal_pocketed=pocketed, pocketed=pocketed, points=_ZEROS, next_seat=seat,
                              spotted=spotted, turn_continues=True, rule_refs=tuple(refs))
        s = s.replace(seat_to_act=opp, phase=Phase.PLAY, cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False,
                      inning=state.inning + 1)
        return s, Verdict(points=_ZEROS, next_seat=opp, spotted=spotted, rule_refs=tuple(refs) + ("8B-4.5",))

    def _adjudicate_play(self, state: GameState, action: ShotAction, rec):
        """Checklist B of eight_ball.md (8B-4.9 ... 8B-4.20)."""
        cfg: EightBallConfig = state.config
        table = self.table(state)
        R = ball_radius()
        seat = state.seat_to_act
        opp = _other(seat)
        legal = legal_object_balls(state, seat)
        shooting_eight = legal == (EIGHT,)
        group = state.groups[seat]
        f = q.shot_facts(rec, table, legal if legal else None, cfg.split_hit_eps)
        first = f.first
        if first == EIGHT and not shooting_eight:
            bad_hit = F_EIGHT_FIRST_OPEN if group == Group.OPEN else F_EIGHT_FIRST
        else:
            bad_hit = F_BAD_HIT
        fouls = general.standard_fouls(
            rec, table, R, cfg, legal, kitchen=state.cue_ball is CueBallPlacement.IN_HAND_KITCHEN,
            bad_hit=bad_hit, no_hit=F_NO_HIT, no_rail=F_NO_RAIL, obj_off=F_OBJ_OFF, facts=f, stroke=action)
        if not legal:  # C-16 False: a group that can never be cleared -- every stroke is a bad hit
            fouls = tuple(fouls) + ((F_BAD_HIT,) if F_BAD_HIT not in fouls else ())
        pocketed = f.pocketed
        pockets = q.pocketed_with_pockets(rec) if pocketed or f.cue_pocketed else {}
        jumped_obj = tuple(b for b in f.jumped if b != 0)
        call = self._call(action, rec, table, legal, first)
        s, spotted = self._after(state, rec, jumped_obj)
        foul = bool(fouls)

        # B.4: loss of game (8B-4.20), in the checklist's order.
        if EIGHT in jumped_obj:
            return self._lose(s, seat, LossReason.EIGHT_OFF_TABLE, fouls, pocketed, spotted, ("8B-4.17", "8B-4.20"))
        if EIGHT in pocketed:
            if foul:
                return self._lose(s, seat, LossReason.FOUL_POCKETING_EIGHT, fouls, pocketed, spotted,
                                  ("8B-4.19", "8B-4.20"))
            if not shooting_eight:
                own = _balls_of(group)
                last = bool(own) and any(b in pocketed for b in own) and not any(s.on_table[b] for b in own)
                reason = LossReason.EIGHT_WITH_LAST_OF_GROUP if last else LossReason.EIGHT_NOT_LEGAL_OBJECT
                return self._lose(s, seat, reason, fouls, pocketed, spotted, ("8B-4.20",))
            if call is None or call[0] != EIGHT or pockets[EIGHT] != call[1]:
                return self._lose(s, seat, LossReason.EIGHT_WRONG_POCKET, fouls, pocketed, spotted, ("8B-4.20",))
            # B.5: win (8B-4.1, 8B-4.19).
            s = s.replace(phase=Phase.GAME_OVER, winner=seat, options=(),
                          consecutive_fouls=general.clear_fouls(state.consecutive_fouls, seat))
            return s, Verdict(legal_pocketed=(EIGHT,), pocketed=pocketed, points=_ZEROS, next_seat=seat,
                              spotted=spotted, game_over=True, winner=seat, rule_refs=("8B-4.1", "8B-4.19"))

        # B.6: foul -> in hand anywhere (8B-4.14); balls stay down (8B-4.16, 8B-4.9).
        if foul:
            cf = general.add_foul(state.consecutive_fouls, seat)
            refs = ("8B-4.14",) + (("8B-4.16",) if pocketed else ())
            if cfg.three_foul_loss and cf[seat] >= 3:
                s = s.replace(consecutive_fouls=cf)
                return self._lose(s, seat, LossReason.THIRD_CONSECUTIVE_FOUL, tuple(fouls) + (F_THIRD,), pocketed,
                                  spotted, refs + ("C-04",))
            s = self._in_hand(s, opp, CueBallPlacement.IN_HAND_ANYWHERE, consecutive_fouls=cf,
                              inning=state.inning + 1)
            return s, Verdict(fouls=tuple(fouls), pocketed=pocketed, points=_ZEROS, next_seat=opp,
                              cue_ball=CueBallPlacement.IN_HAND_ANYWHERE, spotted=spotted, rule_refs=refs)

        cf = general.clear_fouls(state.consecutive_fouls, seat)
        s = s.replace(consecutive_fouls=cf, cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False,
                      phase=Phase.PLAY)
        # B.7: safety (8B-4.12).
        if action.safety:
            s = s.replace(seat_to_act=opp, inning=state.inning + 1)
            refs = ("8B-4.12",) + (("8B-4.16",) if pocketed else ())
            return s, Verdict(pocketed=pocketed, points=_ZEROS, next_seat=opp, spotted=spotted, rule_refs=refs)
        made = call is not None and pockets.get(call[0]) == call[1]
        if made:
            refs = []
            if group == Group.OPEN:  # B.8: choice of group (8B-4.10)
                group = group_of(call[0])
                s = s.replace(groups=_assign(seat, group))
                refs.append("8B-4.10")
            refs.append("8B-4.13")
            own = _balls_of(group)
            counted = tuple(b for b in pocketed if b in own)
            if len(counted) < len(pocketed):
                refs.append("8B-4.16")
            s = s.replace(seat_to_act=seat)
            return s, Verdict(legal_pocketed=counted, pocketed=pocketed, points=_ZEROS, next_seat=seat,
                              spotted=spotted, turn_continues=True, rule_refs=tuple(refs))
        # B.8 / B.9: miss (G-3.5); balls pocketed without the call stay down (8B-4.16).
        s = s.replace(seat_to_act=opp, inning=state.inning + 1)
        refs = ("G-3.5",) + (("8B-4.16",) if pocketed else ())
        return s, Verdict(pocketed=pocketed, points=_ZEROS, next_seat=opp, spotted=spotted, rule_refs=refs)

    def adjudicate_batch(self, states, actions, recs) -> list:
        """`adjudicate_validated` of a batch of shots: the fouls and outcome of every shot in
        play and of every opening break in one compiled call
        (`poolgym.rules.eight_ball_batch.outcomes`), then each table's state and verdict built
        as :meth:`_adjudicate_play` and `_post` build them (a break's by `_rule_break`, the
        referee's own checklist A); the cases that call leaves open (balls off the table,
        the 8 on the break, G-3.38, G-3.39, ...) and records without their batch's facts are
        ruled by :meth:`adjudicate` itself."""
        ruled = self._batch_outcomes(states, actions, recs)
        if ruled is None:
            return super().adjudicate_batch(states, actions, recs)
        code, bits, pmask = ruled
        bf = recs[0].facts[0]
        pos_all, on_all = self._batch_rests(bf, states, recs)
        anywhere, in_position, play = CueBallPlacement.IN_HAND_ANYWHERE, CueBallPlacement.IN_POSITION, Phase.PLAY
        out = []
        for k, (st, c) in enumerate(zip(states, code)):
            if c == _eb.FALLBACK:
                out.append(self.adjudicate_validated(st, actions[k], recs[k]))
                continue
            pos, on = pos_all[k], on_all[k]
            seat = st.seat_to_act
            opp = 1 - seat
            pk = general.ball_tuple(pmask[k])
            if c >= _eb.BREAK_SCRATCH:  # checklist A: no ball off the table, the 8 up
                s = st._evolve({"pos": pos, "on_table": on, "shot_number": st.shot_number + 1, "options": ()})
                new, v = self._rule_break(st, recs[k], s, (), pk, (), _fouls(bits[k] & _BREAK_CUE_BITS, True),
                                          not bits[k] & _nb.BAD_BREAK)
                out.append(self._post(st, new, v))
                continue
            cf = list(st.consecutive_fouls)
            if c >= _eb.WIN:  # the 8 pocketed (8B-4.19, 8B-4.20)
                s = st._evolve({"pos": pos, "on_table": on, "shot_number": st.shot_number + 1, "options": ()})
                if c == _eb.WIN:
                    cf[seat] = 0
                    s.__dict__.update(phase=Phase.GAME_OVER, winner=seat, consecutive_fouls=tuple(cf))
                    out.append((s, Verdict._fast(legal_pocketed=(EIGHT,), pocketed=pk, points=_ZEROS, next_seat=seat,
                                                 spotted=(), game_over=True, winner=seat,
                                                 rule_refs=("8B-4.1", "8B-4.19"))))
                elif c == _eb.LOSS_FOUL:
                    out.append(self._lose(s, seat, LossReason.FOUL_POCKETING_EIGHT,
                                          _fouls(bits[k], st.groups[seat] == Group.OPEN), pk, (),
                                          ("8B-4.19", "8B-4.20")))
                elif c == _eb.LOSS_EARLY:
                    own = _GROUP_BITS[st.groups[seat]]
                    last = bool(pmask[k] & own) and not any(on[b] for b in _balls_of(st.groups[seat]))
                    reason = LossReason.EIGHT_WITH_LAST_OF_GROUP if last else LossReason.EIGHT_NOT_LEGAL_OBJECT
                    out.append(self._lose(s, seat, reason, (), pk, (), ("8B-4.20",)))
                else:
                    out.append(self._lose(s, seat, LossReason.EIGHT_WRONG_POCKET, (), pk, (), ("8B-4.20",)))
                continue
            if c == _eb.FOUL:  # 8B-4.14; balls stay down (8B-4.16)
                cf[seat] += 1
                new = st._evolve({"pos": pos, "on_table": (False,) + on[1:], "shot_number": st.shot_number + 1,
                                  "options": (), "seat_to_act": opp, "phase": play, "cue_ball": anywhere,
                                  "cue_placed": False, "consecutive_fouls": tuple(cf), "inning": st.inning + 1})
                v = Verdict._fast(fouls=_fouls(bits[k], st.groups[seat] == Group.OPEN), pocketed=pk, points=_ZEROS,
                                  next_seat=opp, cue_ball=anywhere, spotted=(),
                                  rule_refs=("8B-4.14", "8B-4.16") if pk else ("8B-4.14",))
            else:
                cf[seat] = 0
                fields = {"pos": pos, "on_table": on, "shot_number": st.shot_number + 1, "options": (),
                          "consecutive_fouls": tuple(cf), "cue_ball": in_position, "cue_placed": False,
                          "phase": play}
                if c == _eb.POT:  # 8B-4.13 (8B-4.10: the group of the called ball on an open table)
                    refs = []
                    group = st.groups[seat]
                    if group == Group.OPEN:
                        group = group_of(int(actions[k].called_ball))
                        fields["groups"] = _assign(seat, group)
                        refs.append("8B-4.10")
                    refs.append("8B-4.13")
                    counted = general.ball_tuple(pmask[k] & _GROUP_BITS[group])
                    if len(counted) < len(pk):
                        refs.append("8B-4.16")
                    fields["seat_to_act"] = seat
                    v = Verdict._fast(legal_pocketed=counted, pocketed=pk, points=_ZEROS, next_seat=seat, spotted=(),
                                      turn_continues=True, rule_refs=tuple(refs))
                else:  # SAFETY (8B-4.12) or MISS (G-3.5)
                    fields["seat_to_act"] = opp
                    fields["inning"] = st.inning + 1
                    ref = "8B-4.12" if c == _eb.SAFETY else "G-3.5"
                    v = Verdict._fast(pocketed=pk, points=_ZEROS, next_seat=opp, spotted=(),
                                      rule_refs=(ref, "8B-4.16") if pk else (ref,))
                new = st._evolve(fields)
            out.append(self._batch_post(st, new, v, c != _eb.POT))
        return out

    def compile_batch(self) -> None:
        _eb.outcomes.compile(_eb.signature())

    def _batch_outcomes(self, states, actions, recs):
        """(code, foul bits, pocketed-ball bits) lists of `eight_ball_batch.outcomes` for the
        tables, or None when the batch cannot be read there (records not from one `BatchFacts`
        in table order, mixed configs, another table, a subclass, a double-hit gap)."""
        bf = self._batch_facts(states, recs) if type(self) is EightBall else None
        if bf is None:
            return None
        cfg = states[0].config
        bl = bf.legal if bf.split_eps == cfg.split_hit_eps else None
        tab = []
        stroke = []
        kitchen = CueBallPlacement.IN_HAND_KITCHEN
        play, brk = Phase.PLAY, Phase.BREAK
        for k, (st, a) in enumerate(zip(states, actions)):
            stroke.append((a.theta, a.a, a.b))
            called = a.called_ball
            if st.phase is brk:
                tab.append((0, 0, 0, 1, 0, 0, -1, -1, 1))
                continue
            if st.phase is not play or (called is None and not a.safety):
                tab.append((1, 0, 0, 0, 0, 0, -1, -1, 0))
                continue
            seat = st.seat_to_act
            legal = legal_object_balls(st, seat)
            m = 0
            for b in legal:
                m |= 1 << b
            tab.append((0, st.cue_ball is kitchen, st.consecutive_fouls[seat], m,
                        bl is not None and bl[k] == legal, bool(a.safety), -1 if called is None else int(called),
                        -1 if called is None else int(a.called_pocket), 0))
        table = bf.table
        c = _nb.config_row(cfg, table, ball_radius(), cfg.break_min_rail_balls, cfg.three_foul_loss, 1.0,
                           cfg.break_foul_combination is BreakFoulCombination.SCRATCH_ONLY)
        b = bf._batch
        seg_y, jaw_y = q._segment_jaw_y(table)
        code, bits, pmask = _eb.outcomes(np.array(tab, np.int64), np.array(stroke, np.float64), c, bf.first, bf.t0,
                                         bf.first_raw, bf.t0_raw, bf.cue_pocketed, bf.pocketed, bf.jumped, bf.start,
                                         bf.ct, bf.cb, bf.cr, bf.to_rail, bf.cue_ball, b.pocket, b.rvw0, b.rvw,
                                         b.n_events,
                                         b.ev_kind, b.ev_i, b.ev_j, b.ev_t, seg_y, jaw_y, _BB, _BC, _BJ)
        return code.tolist(), bits.tolist(), pmask.tolist()

    def _call(self, action: ShotAction, rec, table, legal: tuple, first: Optional[int]):
        """The (ball, pocket) call of this shot: declared, or -- with
        ``require_call_every_shot`` False and no declaration -- inferred for an obvious
        shot (8B-4.2): the first ball hit is a legal ball that dropped without touching a
        cushion first (banks and combinations are never obvious). None: no call."""
        if action.safety:
            return None
        if action.called_ball is not None:
            return int(action.called_ball), int(action.called_pocket)
        if first is None or first not in legal or first == EIGHT:
            return None
        pk = q.pocketed_with_pockets(rec).get(first)
        if pk is None or q.is_bank(rec, table, first):
            return None
        return first, pk

    # ------------------------------------------------------------------ options
    def _option(self, state: GameState, action: ChooseOption):
        if action.option is Option.OFFER_STALEMATE and state.phase is not Phase.OPTION:
            if not self._may_offer_stalemate(state):
                raise IllegalActionError("a stalemate offer is not available now (8B-4.21)")
            opp = _other(state.seat_to_act)
            opts = (Option.ACCEPT_STALEMATE, Option.DECLINE)
            s = state.replace(seat_to_act=opp, phase=Phase.OPTION, options=opts,
                              extra=_ex(state, context=OptionContext.STALEMATE_OFFER, resume_seat=state.seat_to_act,
                                        resume_cue=state.cue_ball, resume_placed=state.cue_placed,
                                        offer_inning=state.inning))
            return s, Verdict(points=_ZEROS, next_seat=opp, cue_ball=state.cue_ball, options=opts,
                              rule_refs=("8B-4.21",))
        return super()._option(state, action)

    def apply_option(self, state: GameState, option: Option):
        """The incoming player's (or breaker's) choice, by context:
        ILLEGAL_BREAK (8B-4.5), ILLEGAL_BREAK_SCRATCH (C-12), JUMPED_ON_BREAK (8B-4.7),
        EIGHT_ON_BREAK (8B-4.8 / INF2-8B-3), STALEMATE_OFFER (8B-4.21)."""
        ctx = state.extra.context
        me = state.seat_to_act
        ref = {OptionContext.ILLEGAL_BREAK: "8B-4.5", OptionContext.ILLEGAL_BREAK_SCRATCH: "8B-4.5",
               OptionContext.JUMPED_ON_BREAK: "8B-4.7", OptionContext.EIGHT_ON_BREAK: "8B-4.8",
               OptionContext.STALEMATE_OFFER: "8B-4.21"}.get(ctx, "8B-4.5")
        if ctx is OptionContext.EIGHT_ON_BREAK and state.config.eight_on_break is EightOnBreak.INFORMAL_OPPONENT_OPTION:
            ref = "INF2-8B-3"
        clear = _ex(state, context=OptionContext.NONE)
        if option is Option.ACCEPT_TABLE:
            s = state.replace(phase=Phase.PLAY, options=(), cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False,
                              extra=clear)
            return s, Verdict(points=_ZEROS, next_seat=me, rule_refs=(ref, "G-3.37"))
        if option is Option.CUE_IN_HAND_KITCHEN:
            s = self._in_hand(state.replace(options=(), extra=clear), me, CueBallPlacement.IN_HAND_KITCHEN)
            return s, Verdict(points=_ZEROS, next_seat=me, cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                              rule_refs=(ref, "G-3.10"))
        if option is Option.RERACK_AND_BREAK:
            return self._rerack(state, me, (ref,))
        if option is Option.OPPONENT_REBREAKS:
            return self._rerack(state, _other(me), (ref,))
        if option is Option.SPOT_EIGHT_AND_PLAY:
            table = self.table(state)
            where = state.extra.spot_cue
            s = general.spot(state, (EIGHT,), table, ball_radius())
            if where is CueBallPlacement.IN_POSITION:
                s = s.replace(phase=Phase.PLAY, options=(), cue_ball=where, cue_placed=False, extra=clear)
            else:
                s = self._in_hand(s.replace(options=(), extra=clear), me, where)
            return s, Verdict(points=_ZEROS, next_seat=me, cue_ball=where, spotted=(EIGHT,),
                              turn_continues=me == state.breaker, rule_refs=(ref, "G-3.32"))
        if option is Option.ACCEPT_STALEMATE:
            return self._rerack(state, state.breaker, ("8B-4.21",))
        if option is Option.DECLINE and ctx is OptionContext.STALEMATE_OFFER:
            ex = state.extra
            s = state.replace(phase=Phase.PLAY, options=(), seat_to_act=ex.resume_seat, cue_ball=ex.resume_cue,
                              cue_placed=ex.resume_placed, extra=clear)
            return s, Verdict(points=_ZEROS, next_seat=ex.resume_seat, cue_ball=ex.resume_cue,
                              rule_refs=("8B-4.21",), turn_continues=True)
        raise IllegalActionError(f"option {option.value} is not an eight-ball option here")

    def _rerack(self, state: GameState, breaker: int, refs: tuple):
        """New rack from the state's RNG; ``breaker`` breaks with the cue ball in hand behind
        the head string (8B-4.5, 8B-4.8, 8B-4.21). Shot and inning counters keep running."""
        seed, counter = state.rng
        pos, on = self.rack_tuples(state.config, int(seed), int(counter))  # `draw_rng`'s draws
        ex = EightBallExtra(reracks=state.extra.reracks + 1)
        s = state.replace(pos=pos, on_table=on, rng=(int(seed), int(counter) + 1), seat_to_act=breaker,
                          breaker=breaker, phase=Phase.BREAK, options=(), cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                          cue_placed=False, groups=(0, 0), consecutive_fouls=(0, 0), stall_innings=0, extra=ex)
        return s, Verdict(points=_ZEROS, next_seat=breaker, cue_ball=CueBallPlacement.IN_HAND_KITCHEN,
                          rule_refs=refs + ("8B-4.3",))

    def on_stalemate(self, state: GameState):
        """8B-4.21: re-rack, the breaker of the stalemated game breaks again. The
        ``max_shots`` safety net still ends the game as a draw (GW-12 base behaviour)."""
        cfg = state.config
        if cfg.max_shots and state.shot_number >= cfg.max_shots:
            return super().on_stalemate(state)
        return self._rerack(state, state.breaker, ("8B-4.21",))


# ----------------------------------------------------------------------------- racks
#: INF2-8B-2 alternating pattern over the 15 triangle slots (slot order of
#: ``triangle_slots``: rows 1-2-3-4-5 from the apex): A/B alternate along every row and
#: between rows; the back row's last ball is B so that each group has 7 balls and the back
#: corners (slots 10, 14) differ. "8" marks the centre (slot 4).
_ALTERNATING = ("A",
                "B", "A",
                "A", "8", "B",
                "B", "A", "B", "A",
                "A", "B", "A", "B", "B")


def rack_order(pattern: RackPattern, rng: np.random.Generator) -> tuple:
    """Ball number for each of the 15 triangle slots (8B-4.3 / INF2-8B-2).

    WPA: slot 4 (centre) the 8; back corners 10 and 14 one stripe and one solid (random
    which is where); the 12 other balls in random order in the other slots.
    ALTERNATING: groups by the fixed :data:`_ALTERNATING` pattern (which group is "A" is
    random), numbers random within each group.
    """
    pattern = RackPattern(pattern)
    solids = rng.permutation(np.array(SOLIDS)).tolist()
    stripes = rng.permutation(np.array(STRIPES)).tolist()
    order = [0] * 15
    order[4] = EIGHT
    if pattern is RackPattern.WPA:
        if rng.random() < 0.5:
            order[10], order[14] = solids.pop(), stripes.pop()
        else:
            order[10], order[14] = stripes.pop(), solids.pop()
        rest = rng.permutation(np.array(solids + stripes)).tolist()
        k = 0
        for slot in range(15):
            if slot in (4, 10, 14):
                continue
            order[slot] = rest[k]
            k += 1
        return tuple(order)
    a, b = (solids, stripes) if rng.random() < 0.5 else (stripes, solids)
    for slot, tag in enumerate(_ALTERNATING):
        if tag == "A":
            order[slot] = a.pop()
        elif tag == "B":
            order[slot] = b.pop()
    return tuple(order)


#: :data:`_ALTERNATING` as codes for `drawn_rack`: 1 group "A", 2 group "B", 0 the 8
_ALTERNATING_CODES = np.array([{"A": 1, "B": 2, "8": 0}[t] for t in _ALTERNATING], np.int64)
_ALTERNATING_CODES.setflags(write=False)
#: the on-table mask of a fresh rack: every object ball, the cue ball in hand
_RACK_ON = (False,) + (True,) * 15


@njit(cache=True, no_cfunc_wrapper=True)
def drawn_rack(entropy, alternating, slots, head, pattern):
    """(32,) float64 ball centres (x0, y0, x1, y1, ...) of :meth:`EightBall.rack` drawn from the
    stream of ``default_rng(seed)`` (``entropy``: the seed's words, `seeding.entropy_words`):
    :func:`rack_order`'s draws in its order (the solids, then the stripes shuffled; WPA: one
    uniform draw for the back corners, then the other twelve shuffled; ALTERNATING: one
    uniform draw for which group is "A", ``pattern`` the slots' :data:`_ALTERNATING_CODES`),
    each ball at its triangle slot (``slots`` (15, 2)), the cue ball on ``head``."""
    st = _stream(entropy)
    solids = np.arange(1, 8)
    _shuffle(st, solids)
    stripes = np.arange(9, 16)
    _shuffle(st, stripes)
    order = np.zeros(15, np.int64)
    order[4] = EIGHT
    if not alternating:  # 8B-4.3: a list's pop() takes its last ball
        if _next_double(st) < 0.5:
            order[10], order[14] = solids[6], stripes[6]
        else:
            order[10], order[14] = stripes[6], solids[6]
        rest = np.empty(12, np.int64)
        rest[:6] = solids[:6]
        rest[6:] = stripes[:6]
        _shuffle(st, rest)
        k = 0
        for slot in range(15):
            if slot != 4 and slot != 10 and slot != 14:
                order[slot] = rest[k]
                k += 1
    else:  # INF2-8B-2
        a_is_solids = _next_double(st) < 0.5
        na = nb = 7
        for slot in range(15):
            tag = pattern[slot]
            if tag == 0:
                continue
            if (tag == 1) == a_is_solids:
                na -= 1
                order[slot] = solids[na]
            else:
                nb -= 1
                order[slot] = stripes[nb]
    pos = np.zeros(32)
    pos[0], pos[1] = head[0], head[1]
    for slot in range(15):
        b = order[slot]
        pos[2 * b], pos[2 * b + 1] = slots[slot, 0], slots[slot, 1]
    return pos


# ----------------------------------------------------------------------------- small utilities
_EXTRA0 = EightBallExtra()


def _ex(state: GameState, **kw) -> EightBallExtra:
    """``dataclasses.replace`` of the state's extra (fields by name; no ``__post_init__`` to
    run), built as `GameState.replace` builds states."""
    new = object.__new__(EightBallExtra)
    d = (state.extra if state.extra is not None else _EXTRA0).__dict__.copy()
    d.update(kw)
    object.__setattr__(new, "__dict__", d)
    return new


def _assign(seat: int, g: Group) -> tuple:
    """``groups`` tuple with ``seat`` on group ``g`` and the opponent on the other."""
    other = Group.STRIPES if g == Group.SOLIDS else Group.SOLIDS
    out = [0, 0]
    out[seat] = int(g)
    out[_other(seat)] = int(other)
    return tuple(out)


def _first_pocketed(rec, pocketed: tuple) -> int:
    """INF1-8B-2: the first non-8 object ball to drop on the break (POCKET event order)."""
    from .shot_record import EventKind
    m = np.flatnonzero(rec.ev_kind == int(EventKind.POCKET))
    for k in m:
        b = int(rec.ev_i[k])
        if b != EIGHT and b != rec.cue_ball and b in pocketed:
            return b
    return next(b for b in pocketed if b != EIGHT)
