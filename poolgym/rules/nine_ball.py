"""Nine-ball referee (WPA, shared/rules/nine_ball.md, 9B-5.x).

Rules implemented (checklist of nine_ball.md section 5):

* 9B-5.1 the first ball contacted must be the lowest-numbered ball on the table; balls
  need not be pocketed in order; no calls; a legal pot continues the inning; after a
  miss the incoming player plays from the position, after any foul with cue ball in hand
  anywhere.
* 9B-5.2 diamond rack: 1 on the foot spot, 9 in the centre, 2-8 random (state RNG);
  the game begins with cue ball in hand behind the head string.
* 9B-5.3 break order of later games: ``break_order`` (winner / alternate / loser /
  trailing), G-3.36.
* 9B-5.4 legal break: the 1 first, then a ball pocketed or >= 4 object balls driven to a
  cushion (``break_min_rail_balls``); a scratch, a cue ball off the table, an object ball
  off the table or a failed requirement is a foul: incoming player in hand anywhere, no
  push-out; a jumped 9 is spotted, other jumped balls are not.
* 9B-5.5 legal break: pocketed -> breaker continues; either way the next shot may be a
  push-out; a 9 legally pocketed on the break wins (9B-5.14).
* 9B-5.6 push-out (DECL ``ShotAction.push_out``) only on the shot immediately after a
  legal break: 9B-5.8 / 9B-5.9 do not apply, other fouls do; balls pocketed stay down and
  do not count; the 9 is spotted (C-17 ``nine_on_push_out`` = spot | win); the opponent
  then chooses ACCEPT_TABLE or PASS_BACK.
* 9B-5.7 fouls: inning ends, pocketed balls stay down except the 9 (spotted), in hand
  anywhere; several fouls on one stroke are one foul.
* 9B-5.8 bad hit, 9B-5.9 no rail (+ G-3.38 frozen balls), 9B-5.10 ball in hand anywhere
  but not frozen to an object ball (C-21 ``in_hand_may_touch_ball``), 9B-5.11 jumped
  object balls not spotted except the 9 (C-03 ``jumped_ball_is_foul``, default foul per
  G-3.28 / INF2-9B-10).
* 9B-5.13 three consecutive fouls lose (``three_foul_loss``); the counter is in
  ``state.consecutive_fouls`` at all times (the R-2.16 warning, C-67).
* 9B-5.14 the game ends at the end of a legal shot that pockets the 9.
* 9B-5.12 (jump / masse foul) needs a cue-stick model and is not adjudicated.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from . import general, nine_ball_batch as _nb, queries as q, serialize
from .core import (CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option, Phase, RulesConfig,
                   ShotAction, Verdict)
from .core import _VERDICT_DEFAULTS
from .game import DisciplineBase
from .geometry import ball_radius, diamond_slots, get_table
from .rows import float_rows, int_rows
from .seeding import permutation_prefix
from .shot_record import EventKind

__all__ = ["NineBall", "NineBallConfig", "NineBallExtra", "NineOnPushOut"]


class NineOnPushOut(str, Enum):
    """C-17: what a 9 pocketed on a legal push-out does."""

    SPOT = "spot"  # default: spotted, no win (analogy with 9B-5.7)
    WIN = "win"    # literal reading of "except the 9"


@dataclass(frozen=True)
class NineBallConfig(RulesConfig):
    """Nine-ball knobs (nine_ball.md section 6, conflicts.md).

    nine_on_push_out: C-17. jumped_ball_is_foul: C-03 (G-3.28 / INF2-9B-10 default True;
    False = literal 9B-5.11 for shots other than the break -- 9B-5.4.3 always fouls).
    in_hand_may_touch_ball: C-21 (9B-5.10 default False). three_foul_loss: 9B-5.13.
    break_min_rail_balls: 9B-5.4 (four numbered balls to a cushion).
    """

    nine_on_push_out: NineOnPushOut = NineOnPushOut.SPOT
    jumped_ball_is_foul: bool = True
    in_hand_may_touch_ball: bool = False
    three_foul_loss: bool = True
    break_min_rail_balls: int = 4
    kitchen_spot_request: bool = False  # no nine-ball rule; in hand is anywhere after the break

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.nine_on_push_out, NineOnPushOut):
            object.__setattr__(self, "nine_on_push_out", NineOnPushOut(self.nine_on_push_out))
        if not isinstance(self.break_min_rail_balls, int) or not (0 <= self.break_min_rail_balls <= 9):
            raise ValueError(f"break_min_rail_balls must be an int in [0, 9], got {self.break_min_rail_balls!r}")
        if self.n_players != 2:
            raise ValueError(f"n_players must be 2 for nine-ball, got {self.n_players!r}")


@dataclass(frozen=True)
class NineBallExtra:
    """push_out_available: the next shot is the first after a legal break (9B-5.5/5.6).
    pushed_by: seat that played the pending legal push-out (during the option), else -1."""

    push_out_available: bool = False
    pushed_by: int = -1


serialize.register(NineOnPushOut, NineBallConfig, NineBallExtra)

F_BREAK = Foul(FoulKind.ILLEGAL_BREAK, "9B-5.4")
F_BREAK_BAD_HIT = Foul(FoulKind.WRONG_BALL_FIRST, "9B-5.4")
F_BREAK_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "9B-5.4")
F_BREAK_OBJ_OFF = Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "9B-5.4")
F_BAD_HIT = Foul(FoulKind.WRONG_BALL_FIRST, "9B-5.8")
F_NO_HIT = Foul(FoulKind.NO_BALL_HIT, "9B-5.8")
F_NO_RAIL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "9B-5.9")
F_OBJ_OFF = Foul(FoulKind.OBJECT_BALL_OFF_TABLE, "G-3.28")
F_THIRD = Foul(FoulKind.THIRD_CONSECUTIVE_FOUL, "9B-5.13")

NINE = 9
_BB = int(EventKind.BALL_BALL)
_BC = int(EventKind.BALL_CUSHION)
_BJ = int(EventKind.BALL_JAW)
# shared immutable extras (frozen, compared by value: the same as fresh instances)
_EXTRA_NONE = NineBallExtra()
_EXTRA_PUSH = NineBallExtra(push_out_available=True)


_NINE_ON = np.ones(10, bool)
_NINE_ON[0] = False  # the cue ball starts in hand (9B-5.3)
_NINE_ON.setflags(write=False)


# The verdict fields an outcome of `nine_ball_batch.outcomes` fixes (then completed per table),
# every Verdict field in declaration order; indexed by "the shot is a break" + 2 * "an object
# ball left the table" (9B-5.11 is cited, except for a win).
def _verdict_templates(tail, win=False, **fixed) -> tuple:
    return tuple(dict(_VERDICT_DEFAULTS, points=(0, 0), rule_refs=("9B-5.4",) * brk + ("9B-5.11",) * (jmp and not win)
                      + tail[brk], **fixed) for jmp in (0, 1) for brk in (0, 1))


_V_WIN = _verdict_templates((("9B-5.14",),) * 2, win=True, game_over=True)
_V_THIRD = _verdict_templates((("9B-5.7", "9B-5.13"),) * 2, game_over=True)
_V_FOUL = _verdict_templates((("9B-5.7", "9B-5.10"),) * 2, cue_ball=CueBallPlacement.IN_HAND_ANYWHERE)
_V_POT = _verdict_templates((("9B-5.1",), ("9B-5.5",)), turn_continues=True)
_V_MISS = _verdict_templates((("G-3.5",),) * 2)


#: enum members read in the batched referee's loop (a module constant is ~10x faster than the
#: class attribute)
_GAME_OVER, _PLAY, _BREAK = Phase.GAME_OVER, Phase.PLAY, Phase.BREAK
_IN_POSITION, _IN_HAND_ANYWHERE = CueBallPlacement.IN_POSITION, CueBallPlacement.IN_HAND_ANYWHERE
_IN_HAND_KITCHEN = CueBallPlacement.IN_HAND_KITCHEN


def _verdict(template: dict, **fields) -> Verdict:
    """A Verdict of ``template``'s fields updated by ``fields`` (as ``Verdict._fast``)."""
    obj = object.__new__(Verdict)
    d = obj.__dict__
    d.update(template)
    d.update(fields)
    return obj


# the foul of each `nine_ball_batch` foul bit, in bit order (as `general.standard_fouls` lists them):
# (bit, foul, foul on the break)
_FOUL_BITS = ((_nb.MISCUE, general.G_MISCUE, general.G_MISCUE),
              (_nb.ILLEGAL_JUMP, general.G_ILLEGAL_JUMP, general.G_ILLEGAL_JUMP),
              (_nb.SCRATCH, general.G_SCRATCH, general.G_SCRATCH),
              (_nb.CUE_OFF, general.G_CUE_OFF, general.G_CUE_OFF),
              (_nb.KITCHEN, general.G_KITCHEN, general.G_KITCHEN),
              (_nb.NO_HIT, F_NO_HIT, F_BREAK_NO_HIT), (_nb.BAD_HIT, F_BAD_HIT, F_BREAK_BAD_HIT),
              (_nb.NO_RAIL, F_NO_RAIL, F_NO_RAIL), (_nb.OBJ_OFF, F_OBJ_OFF, F_BREAK_OBJ_OFF),
              (_nb.BAD_BREAK, F_BREAK, F_BREAK))
_FOUL_TUPLES: dict = {}


def _fouls(is_break: bool, fbits: int) -> tuple:
    """The fouls tuple of foul bits ``fbits`` (cached per (is_break, fbits))."""
    fbits &= _nb.JUMPED - 1
    key = (is_break, fbits)
    got = _FOUL_TUPLES.get(key)
    if got is None:
        got = _FOUL_TUPLES[key] = tuple((brk if is_break else plain) for bit, plain, brk in _FOUL_BITS if fbits & bit)
    return got


def _outcome_verdict(c: int, brk: bool, fb: int, pmask: int, seat: int) -> Verdict:
    """The verdict of `nine_ball_batch.outcomes`' outcome ``c`` (not FALLBACK) of ``seat``'s
    shot (a break when ``brk``) with foul bits ``fb`` and pocketed-ball bits ``pmask``."""
    var = brk + (2 if fb & _nb.JUMPED else 0)
    opp = 1 - seat
    pk = general.ball_tuple(pmask)
    if c == _nb.WIN:  # 9B-5.14 (9B-5.5 on the break)
        return _verdict(_V_WIN[var], legal_pocketed=pk, pocketed=pk, next_seat=seat, winner=seat)
    if c == _nb.THIRD_FOUL:  # 9B-5.13
        return _verdict(_V_THIRD[var], fouls=_fouls(brk, fb) + (F_THIRD,), pocketed=pk, next_seat=opp, winner=opp)
    if c == _nb.FOUL:  # 9B-5.7, in hand anywhere 9B-5.10
        return _verdict(_V_FOUL[var], fouls=_fouls(brk, fb), pocketed=pk, next_seat=opp)
    if c == _nb.POT:  # 9B-5.1 (9B-5.5)
        return _verdict(_V_POT[var], legal_pocketed=pk, pocketed=pk, next_seat=seat)
    return _verdict(_V_MISS[var], next_seat=opp)  # MISS, G-3.5


class NineBall(DisciplineBase):
    """WPA nine-ball (see the module docstring for the rules and their IDs).

    Seats 0 and 1. Ball rows: 0 cue ball, k = ball k (N = 10). Config:
    :class:`NineBallConfig`; discipline state in ``state.extra`` (:class:`NineBallExtra`);
    the three-foul warning is ``state.consecutive_fouls``.

    >>> from poolgym.rules import PlaceCueBall, ShotAction
    >>> from poolgym.rules.testing import record
    >>> d = NineBall()
    >>> s = d.initial_state(NineBallConfig(), seed=1)
    >>> s.phase.value, s.cue_ball.value, d.legal_actions(s).must_place
    ('break', 'in_hand_kitchen', True)
    >>> s, _ = d.apply(s, PlaceCueBall(0.635, 0.4))
    >>> s2, v = d.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, obj_rails=(2, 3, 4)))
    >>> [(f.kind.value, f.rule) for f in v.fouls], v.cue_ball.value, s2.consecutive_fouls
    ([('illegal_break', '9B-5.4')], 'in_hand_anywhere', (1, 0))
    >>> s3, v = d.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=1, pocketed={9: 2}))
    >>> v.game_over, v.winner, v.rule_refs
    (True, 0, ('9B-5.4', '9B-5.14'))
    """

    name = "nine_ball"
    rules_file = "nine_ball.md"
    n_balls = 10
    config_cls = NineBallConfig

    # ------------------------------------------------------------------ set-up
    def rack(self, config: NineBallConfig, rng: np.random.Generator):
        """9B-5.2: diamond, 1 on the foot spot (slot 0), 9 in the centre (slot 4), 2-8 in
        random order in the other slots."""
        slots, head = self._rack_geometry(config)
        # the same draw as ``rng.permutation(np.arange(2, 9))`` (a shuffle of 7 entries)
        others = (rng.permutation(7) + 2).tolist()
        order = [0, 1] + others[:3] + [9] + others[3:]
        pos = np.empty((10, 2))
        pos[order] = slots  # row 0 of ``slots`` is the head spot (the cue ball's row)
        return pos, _NINE_ON

    def rack_tuples(self, config, seed: int, rng_counter: int) -> tuple:
        """`DisciplineBase.rack_tuples` of 9B-5.2's rack (`rack`: the order of the balls 2-8
        is the generator's first draw); the tuples of each of the 5,040 orders are built once
        per rack geometry and shared by the states."""
        if type(self).rack is not NineBall.rack:
            return super().rack_tuples(config, seed, rng_counter)
        slots, _ = self._rack_geometry(config)
        # ``default_rng([seed, rng_counter]).permutation(7)``, drawn without building the Generator
        others = tuple(permutation_prefix([seed, rng_counter], 7, 7))
        cache = self.__dict__.setdefault("_rack_tuple_cache", {})
        hit = cache.get((id(slots), others))
        if hit is not None and hit[0] is slots:
            return hit[1], hit[2]
        order = [0, 1] + [k + 2 for k in others[:3]] + [9] + [k + 2 for k in others[3:]]
        pos = np.empty((10, 2))
        pos[order] = slots
        out = (tuple(pos.reshape(-1).tolist()), tuple(_NINE_ON.tolist()))
        if len(cache) > 20000:
            cache.clear()
        cache[(id(slots), others)] = (slots,) + out
        return out

    def _rack_geometry(self, config):
        """((10, 2) head spot then the nine diamond slots, head spot) for ``config``, cached
        per (table name, rack gap) while ``get_table`` returns the same table object."""
        table = self.table_for(config)
        R = ball_radius()
        key = (config.table, config.rack_gap, R)
        cache = self.__dict__.setdefault("_rack_cache", {})
        hit = cache.get(key)
        if hit is not None and hit[0] is table:
            return hit[1], hit[2]
        head = np.asarray(table.head_spot, dtype=np.float64)
        slots = np.concatenate([head.reshape(1, 2), diamond_slots(table, R, config.rack_gap)])
        slots.setflags(write=False)
        if len(cache) > 64:
            cache.clear()
        cache[key] = (table, slots, head)
        return slots, head

    def table_for(self, config):
        return get_table(config.table)

    def initial_extra(self, config):
        return NineBallExtra()

    def placement_may_touch(self, state: GameState) -> bool:
        return bool(state.config.in_hand_may_touch_ball)

    def spec_key(self, state: GameState):
        """`legal_actions` depends on the phase, the seat, the cue ball's placement, the
        lowest ball (9B-5.1), the push-out availability (9B-5.6) and the options offered; with
        the GW-5 kitchen spot request in force also on the positions (no key then)."""
        if type(self) is not NineBall or (state.config.kitchen_spot_request
                                          and state.cue_ball is _IN_HAND_KITCHEN):
            return None  # (a subclass may compute its spec from more)
        ex = state.extra
        return (id(state.config), state.phase, state.seat_to_act, state.cue_ball, state.cue_placed,
                state.lowest_ball(), bool(ex.push_out_available) if ex is not None else None, state.options)

    def shot_spec(self, state: GameState) -> dict:
        low = state.lowest_ball()
        ex = state.extra
        return {
            "target_balls": (low,) if low is not None else (),
            "push_out_allowed": bool(state.phase is Phase.PLAY and ex.push_out_available),
        }

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        """9B-5.6: push-out only on the shot immediately after a legal break; nine-ball
        has no safety declaration (calls are not required and are ignored)."""
        if action.push_out and not (state.phase is Phase.PLAY and state.extra.push_out_available):
            raise IllegalActionError("push-out is only allowed on the shot after a legal break (9B-5.6)")
        if action.safety:
            raise IllegalActionError("nine-ball has no safety declaration")

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state: GameState, action: ShotAction, rec):
        cfg: NineBallConfig = state.config
        table = self.table(state)
        R = ball_radius()
        seat = state.seat_to_act
        opp = 1 - seat
        lowest = state.lowest_ball()
        is_break = state.phase is Phase.BREAK
        push = bool(action.push_out) and not is_break
        f = q.shot_facts(rec, table, (lowest,) if lowest is not None else None, cfg.split_hit_eps)
        pocketed = f.pocketed
        jumped_obj = tuple(b for b in f.jumped if b != 0)
        kitchen = state.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
        refs = []
        if is_break:
            refs.append("9B-5.4")
            fouls = list(general.standard_fouls(
                rec, table, R, cfg, (lowest,), kitchen=kitchen, require_rail=False, jumped_is_foul=True,
                bad_hit=F_BREAK_BAD_HIT, no_hit=F_BREAK_NO_HIT, obj_off=F_BREAK_OBJ_OFF, facts=f,
                stroke=action))
            if not pocketed and len(f.object_balls_to_rail(rec.cue_ball)) < cfg.break_min_rail_balls:
                fouls.append(F_BREAK)
        else:
            fouls = list(general.standard_fouls(
                rec, table, R, cfg, (lowest,), kitchen=kitchen, require_rail=not push, require_hit=not push,
                jumped_is_foul=cfg.jumped_ball_is_foul, bad_hit=F_BAD_HIT, no_hit=F_NO_HIT, no_rail=F_NO_RAIL,
                obj_off=F_OBJ_OFF, facts=f, stroke=action))
            if push:
                refs.append("9B-5.6")
        pos, on = general.after_shot(state, rec)
        # The state after the stroke is built with ONE copy at the end: ``base`` holds the
        # fields every outcome changes, each branch adds its own (hot path of vector envs).
        base = {"pos": pos, "on_table": on, "shot_number": state.shot_number + 1, "options": ()}
        zeros = (0, 0)
        foul = bool(fouls)
        nine_down = NINE in pocketed
        nine_jumped = NINE in jumped_obj

        # --- win on a legal 9 (9B-5.5, 9B-5.14), also on the break and by combination
        if not foul and nine_down and (not push or cfg.nine_on_push_out is NineOnPushOut.WIN):
            base.update(phase=Phase.GAME_OVER, winner=seat, consecutive_fouls=general.clear_fouls(
                state.consecutive_fouls, seat), extra=NineBallExtra())
            return state._evolve(base), Verdict._fast(
                legal_pocketed=pocketed, pocketed=pocketed, points=zeros, next_seat=seat, game_over=True,
                winner=seat, rule_refs=tuple(refs) + ("9B-5.14",))

        # --- the 9 is spotted after a foul, a jump, or a push-out (9B-5.7, 9B-5.11, C-17)
        spotted = ()
        if nine_down or nine_jumped:
            refs.append("9B-5.7" if foul else ("9B-5.11" if nine_jumped else "9B-5.6"))
            sp = general.spot(state._evolve(base), (NINE,), table, R)
            base["pos"], base["on_table"] = sp.pos, sp.on_table
            spotted = (NINE,)
        if jumped_obj:
            refs.append("9B-5.11")

        if foul:
            refs.append("9B-5.7")
            cf = general.add_foul(state.consecutive_fouls, seat)
            fouls_t = tuple(fouls)
            if cfg.three_foul_loss and cf[seat] >= 3:
                base.update(phase=Phase.GAME_OVER, winner=opp, consecutive_fouls=cf, extra=NineBallExtra())
                return state._evolve(base), Verdict._fast(
                    fouls=fouls_t + (F_THIRD,), pocketed=pocketed, points=zeros, next_seat=opp, spotted=spotted,
                    game_over=True, winner=opp, rule_refs=tuple(refs) + ("9B-5.13",))
            base.update(on_table=(False,) + base["on_table"][1:], consecutive_fouls=cf, seat_to_act=opp,
                        phase=Phase.PLAY, cue_ball=CueBallPlacement.IN_HAND_ANYWHERE, cue_placed=False,
                        inning=state.inning + 1, extra=_EXTRA_NONE)
            return state._evolve(base), Verdict._fast(
                fouls=fouls_t, pocketed=pocketed, points=zeros, next_seat=opp,
                cue_ball=CueBallPlacement.IN_HAND_ANYWHERE, spotted=spotted, rule_refs=tuple(refs) + ("9B-5.10",))

        cf = general.clear_fouls(state.consecutive_fouls, seat)
        if push:
            # 9B-5.6: legal push-out -> opponent accepts or passes back.
            opts = (Option.ACCEPT_TABLE, Option.PASS_BACK)
            base.update(consecutive_fouls=cf, seat_to_act=opp, phase=Phase.OPTION, options=opts,
                        cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False, inning=state.inning + 1,
                        extra=NineBallExtra(push_out_available=False, pushed_by=seat))
            return state._evolve(base), Verdict._fast(pocketed=pocketed, points=zeros, next_seat=opp, options=opts,
                                                      spotted=spotted, rule_refs=tuple(refs))
        push_next = is_break  # 9B-5.5: the shot after a legal break may be a push-out
        extra = _EXTRA_PUSH if push_next else _EXTRA_NONE
        if pocketed:
            refs.append("9B-5.5" if is_break else "9B-5.1")
            base.update(consecutive_fouls=cf, seat_to_act=seat, phase=Phase.PLAY,
                        cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False, extra=extra)
            return state._evolve(base), Verdict._fast(
                legal_pocketed=pocketed, pocketed=pocketed, points=zeros, next_seat=seat, spotted=spotted,
                turn_continues=True, rule_refs=tuple(refs))
        refs.append("G-3.5")
        base.update(consecutive_fouls=cf, seat_to_act=opp, phase=Phase.PLAY, cue_ball=CueBallPlacement.IN_POSITION,
                    cue_placed=False, inning=state.inning + 1, extra=extra)
        return state._evolve(base), Verdict._fast(points=zeros, next_seat=opp, spotted=spotted,
                                                  rule_refs=tuple(refs))

    def adjudicate_batch(self, states, actions, recs) -> list:
        """`adjudicate_validated` of a batch of shots: the fouls and outcome of every table in
        one compiled call (`poolgym.rules.nine_ball_batch.outcomes`), then each table's state
        and verdict built as :meth:`adjudicate` and `_post` build them; the cases that call
        leaves open (push-outs, balls off the table, a spotted 9, G-3.38, G-3.39, ...) and
        records without their batch's facts are ruled by :meth:`adjudicate` itself."""
        ruled = self._batch_outcomes(states, actions, recs)
        if ruled is None:
            return super().adjudicate_batch(states, actions, recs)
        code, bits, pmask = ruled
        bf = recs[0].facts[0]
        pos_all, on_all = self._batch_rests(bf, states, recs)
        # verdicts are immutable: one object per (outcome, break, foul bits, pocketed, seat)
        memo = self.__dict__.get("_batch_verdicts")
        if memo is None or len(memo) > 20000:
            memo = self.__dict__["_batch_verdicts"] = {}
        out = []
        for k, (st, c) in enumerate(zip(states, code)):
            if c == _nb.FALLBACK:
                out.append(self.adjudicate_validated(st, actions[k], recs[k]))
                continue
            pos, on = pos_all[k], on_all[k]
            seat = st.seat_to_act
            opp = 1 - seat
            brk = st.phase is _BREAK
            fb = bits[k]
            key = (c, brk, fb, pmask[k], seat)
            v = memo.get(key)
            if v is None:
                v = memo[key] = _outcome_verdict(c, brk, fb, pmask[k], seat)
            cf = list(st.consecutive_fouls)
            if c == _nb.WIN:  # 9B-5.14 (9B-5.5 on the break)
                cf[seat] = 0
                out.append((st._evolve({"pos": pos, "on_table": on, "shot_number": st.shot_number + 1, "options": (),
                                        "phase": _GAME_OVER, "winner": seat, "consecutive_fouls": tuple(cf),
                                        "extra": NineBallExtra()}), v))
                continue
            if c == _nb.THIRD_FOUL:  # 9B-5.13
                cf[seat] += 1
                out.append((st._evolve({"pos": pos, "on_table": on, "shot_number": st.shot_number + 1, "options": (),
                                        "phase": _GAME_OVER, "winner": opp, "consecutive_fouls": tuple(cf),
                                        "extra": NineBallExtra()}), v))
                continue
            if c == _nb.FOUL:  # 9B-5.7, in hand anywhere 9B-5.10
                cf[seat] += 1
                new = st._evolve({"pos": pos, "on_table": (False,) + on[1:], "shot_number": st.shot_number + 1,
                                  "options": (), "consecutive_fouls": tuple(cf), "seat_to_act": opp,
                                  "phase": _PLAY, "cue_ball": _IN_HAND_ANYWHERE,
                                  "cue_placed": False, "inning": st.inning + 1, "extra": _EXTRA_NONE})
            elif c == _nb.POT:  # 9B-5.1 (9B-5.5: the next shot may be a push-out)
                cf[seat] = 0
                new = st._evolve({"pos": pos, "on_table": on, "shot_number": st.shot_number + 1, "options": (),
                                  "consecutive_fouls": tuple(cf), "seat_to_act": seat, "phase": _PLAY,
                                  "cue_ball": _IN_POSITION, "cue_placed": False,
                                  "extra": _EXTRA_PUSH if brk else _EXTRA_NONE})
            else:  # MISS, G-3.5
                cf[seat] = 0
                new = st._evolve({"pos": pos, "on_table": on, "shot_number": st.shot_number + 1, "options": (),
                                  "consecutive_fouls": tuple(cf), "seat_to_act": opp, "phase": _PLAY,
                                  "cue_ball": _IN_POSITION, "cue_placed": False,
                                  "inning": st.inning + 1, "extra": _EXTRA_PUSH if brk else _EXTRA_NONE})
            out.append(self._batch_post(st, new, v, c != _nb.POT))
        return out

    def compile_batch(self) -> None:
        _nb.outcomes.compile(_nb.signature())

    def _batch_outcomes(self, states, actions, recs):
        """(code, foul bits, pocketed-ball bits) lists of `nine_ball_batch.outcomes` for the
        tables, or None when the batch cannot be read there (records not from one `BatchFacts`
        in table order, mixed configs, another table, an overridden :meth:`adjudicate` or
        `_post`, a double-hit gap)."""
        if type(self).adjudicate is not NineBall.adjudicate or type(self)._post is not DisciplineBase._post:
            return None
        bf = self._batch_facts(states, recs)
        if bf is None:
            return None
        cfg = states[0].config
        legal = bf.legal if bf.legal is not None and bf.split_eps == cfg.split_hit_eps else None
        tab = []
        stroke = []
        kitchen = CueBallPlacement.IN_HAND_KITCHEN
        brk_phase, play = Phase.BREAK, Phase.PLAY
        for k, (st, a) in enumerate(zip(states, actions)):
            ph = st.phase
            low = -1
            if ph is play or ph is brk_phase:
                try:
                    low = st.on_table.index(True, 1)  # 9B-5.1 the lowest ball on the table
                except ValueError:
                    pass
            brk = ph is brk_phase
            tab.append((brk, st.cue_ball is kitchen, bool(a.push_out) and not brk,
                        st.consecutive_fouls[st.seat_to_act], low, legal is not None and legal[k] == (low,)))
            stroke.append((a.theta, a.a, a.b))
        table = bf.table
        c = _nb.config_row(cfg, table, ball_radius(), cfg.break_min_rail_balls, cfg.three_foul_loss,
                           cfg.jumped_ball_is_foul)
        b = bf._batch
        seg_y, jaw_y = q._segment_jaw_y(table)
        tab = int_rows(tab, 6)
        stroke = float_rows(stroke, 3)
        code, bits, pmask = _nb.outcomes(tab, stroke, c, bf.first, bf.t0,
                                         bf.first_raw, bf.t0_raw, bf.cue_pocketed, bf.pocketed, bf.jumped, bf.start,
                                         bf.ct, bf.cb, bf.cr, bf.to_rail, bf.cue_ball, b.rvw0, b.rvw, b.n_events,
                                         b.ev_kind, b.ev_i, b.ev_j, b.ev_t, seg_y, jaw_y, _BB, _BC, _BJ)
        return code.tolist(), bits.tolist(), pmask.tolist()

    # ------------------------------------------------------------------ options
    def apply_option(self, state: GameState, option: Option):
        """9B-5.6: after a legal push-out the incoming player shoots from the position
        (ACCEPT_TABLE) or passes the shot back to the player who pushed out (PASS_BACK)."""
        zeros = (0, 0)
        if option is Option.ACCEPT_TABLE:
            s = state.replace(phase=Phase.PLAY, options=(), extra=NineBallExtra())
            return s, Verdict(points=zeros, next_seat=s.seat_to_act, rule_refs=("9B-5.6",))
        if option is Option.PASS_BACK:
            back = state.extra.pushed_by if state.extra.pushed_by >= 0 else 1 - state.seat_to_act
            s = state.replace(phase=Phase.PLAY, options=(), seat_to_act=back, inning=state.inning + 1,
                              extra=NineBallExtra())
            return s, Verdict(points=zeros, next_seat=back, rule_refs=("9B-5.6",))
        raise IllegalActionError(f"option {option.value} is not a nine-ball option")
