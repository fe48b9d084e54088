"""What the BCA games (shared/rules card_ball, forty_one, pea_pool, cutthroat, odd_ball,
mr_and_mrs) share, on the N-seat framework (:mod:`poolgym.rules.seats`).

* :class:`BCAConfig` -- ``open_break_min_rail_balls`` (C-26: an open break drives at least
  this many distinct object balls to a cushion; pocketed balls do not count).
* :func:`triangle_rack` -- a 15-ball triangle (G-3.2) with some balls on fixed slots
  (apex, corners per C-24: the racker stands at the foot rail, so the right corner is the
  small-x back corner, slot 10, the left corner slot 14; the centre is slot 4), the rest
  in random order from the state's RNG.
* :class:`BCAGame` -- the referee skeleton: :meth:`BCAGame.analyse` turns a shot record
  into a :class:`ShotOutcome` (G-3 foul catalogue with the game's legal first contact and
  rail requirement, C-03 jumped balls per the game's text, the open-break test), the
  incoming player's options (accept the table, the offender shoots again, re-rack and
  break, the offender re-breaks), the kitchen spot requests (C-10, one condition per
  game), turn passing in order of play over the seats still in the game.
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .. import general, queries as q, serialize
from .. import nine_ball_batch as _nb
from ..core import (CueBallPlacement, Foul, FoulKind, GameState, IllegalActionError, Option, Phase, RulesConfig,
                    SeatEvent, EventType, ShotAction, Verdict)
from ..game import DisciplineBase, draw_rng, kitchen_spot_choices
from ..geometry import ball_radius, get_table, triangle_slots
from ..seats import next_in_order
from ..shot_record import EventKind
from . import bca_batch as _bb
from .common import spot_into

#: enum members read in the hot paths (a module constant is ~10x faster than the class attribute)
_OPTION, _PLAY, _BREAK, _GAME_OVER = Phase.OPTION, Phase.PLAY, Phase.BREAK, Phase.GAME_OVER
_IN_POSITION, _IN_HAND_KITCHEN = CueBallPlacement.IN_POSITION, CueBallPlacement.IN_HAND_KITCHEN
_ACCEPT_TABLE, _OFFENDER_SHOOTS_AGAIN = Option.ACCEPT_TABLE, Option.OFFENDER_SHOOTS_AGAIN
_REBREAK_OPTIONS = (Option.RERACK_AND_BREAK, Option.OPPONENT_REBREAKS)

__all__ = ["BCAConfig", "BCAGame", "ShotOutcome", "replace_extra", "triangle_rack", "APEX_SLOT", "CENTRE_SLOT", "RIGHT_CORNER_SLOT",
           "LEFT_CORNER_SLOT", "OBJECT_BALLS"]

APEX_SLOT = 0          # on the foot spot (G-3.2)
CENTRE_SLOT = 4        # middle of the third row
RIGHT_CORNER_SLOT = 10  # C-24: racker at the foot rail facing the head -> right = small x
LEFT_CORNER_SLOT = 14
OBJECT_BALLS = tuple(range(1, 16))
_BB = int(EventKind.BALL_BALL)
_BC = int(EventKind.BALL_CUSHION)
_BJ = int(EventKind.BALL_JAW)


@dataclass(frozen=True)
class BCAConfig(RulesConfig):
    """Knobs every BCA game here has.

    open_break_min_rail_balls: C-26 (default 4 distinct object balls to a cushion).
    The G-3.6 lag is for two seats only (`RulesConfig`: ``lag`` must be False with more).
    """

    open_break_min_rail_balls: int = 4

    def __post_init__(self) -> None:
        super().__post_init__()
        v = self.open_break_min_rail_balls
        if not isinstance(v, int) or not (0 <= v <= 15):
            raise ValueError(f"open_break_min_rail_balls must be an int in [0, 15], got {v!r}")


serialize.register(BCAConfig)


def triangle_rack(config: RulesConfig, rng: np.random.Generator, fixed: Optional[dict] = None):
    """(pos (16, 2), on (16,)): balls 1-15 in a triangle, ``fixed`` {ball: slot} placed
    first, the others in random order over the remaining slots (one permutation drawn
    from ``rng``); the cue ball (row 0) off the table on the head spot (in hand behind the
    head string for the break, G-3.8)."""
    slots, head = _triangle_layout(config.table, config.rack_gap)
    fixed_items, free_balls, free_slots = _free_of(tuple(fixed.items()) if fixed else ())
    flat = [0.0] * 32
    flat[0], flat[1] = head
    for b, k in fixed_items:
        flat[2 * b], flat[2 * b + 1] = slots[k]
    for b, k in zip(free_balls, rng.permutation(len(free_slots)).tolist()):
        flat[2 * b], flat[2 * b + 1] = slots[free_slots[k]]
    return np.array(flat, np.float64).reshape(16, 2), _RACK_ON.copy()


_RACK_ON = np.ones(16, bool)
_RACK_ON[0] = False
_LAYOUTS: dict = {}


@functools.lru_cache(maxsize=256)
def _free_of(fixed_items: tuple) -> tuple:
    """(the fixed (ball, slot) pairs, the other balls, the other slots), ascending, of
    `triangle_rack`'s ``fixed`` as its items (cached)."""
    fixed = dict(fixed_items)
    return (tuple(fixed.items()), tuple(b for b in OBJECT_BALLS if b not in fixed),
            tuple(k for k in range(15) if k not in fixed.values()))


def _triangle_layout(table_name, gap) -> tuple:
    """(the 15 `triangle_slots` as (x, y) float pairs, the head spot as a pair) of the table
    named ``table_name`` with the rack gap ``gap`` (cached)."""
    key = (table_name, gap)
    got = _LAYOUTS.get(key)
    if got is None:
        table = get_table(table_name)
        slots = triangle_slots(table, ball_radius(), gap)
        head = np.zeros(2)
        head[:] = table.head_spot
        if len(_LAYOUTS) > 64:
            _LAYOUTS.clear()
        got = _LAYOUTS[key] = (tuple(tuple(xy) for xy in slots.tolist()), tuple(head.tolist()))
    return got


@dataclass(frozen=True)
class ShotOutcome:
    """The rule-relevant result of one stroke (BCAGame.analyse).

    seat: the shooter. is_break: the stroke was the break. fouls: detected fouls, most
    severe first. pocketed: object balls that dropped. jumped: object balls that left the
    table. cue_down: the cue ball was pocketed or left the table (in hand behind the head
    string for the next player in all six games: 41-12, PP-12/C-42, CT-12, CB-13, OB-11,
    MM-11/C-44). open_break: C-26 requirement met (breaks only). first: first ball hit.
    rail_after_contact: a ball (the cue ball included) reached a cushion after the first
    contact. pos / on: the table after the stroke (pocketed and jumped balls off).
    """

    seat: int
    is_break: bool
    fouls: tuple
    pocketed: tuple
    jumped: tuple
    cue_down: bool
    open_break: bool
    first: Optional[int]
    rail_after_contact: bool
    pos: tuple
    on: tuple

    @classmethod
    def _fast(cls, seat, is_break, fouls, pocketed, jumped, cue_down, open_break, first, rail_after_contact, pos,
              on) -> "ShotOutcome":
        """``ShotOutcome(...)`` without the frozen-dataclass ``__init__`` (the same object; it
        has no ``__post_init__``)."""
        obj = object.__new__(cls)
        obj.__dict__.update(seat=seat, is_break=is_break, fouls=fouls, pocketed=pocketed, jumped=jumped,
                            cue_down=cue_down, open_break=open_break, first=first,
                            rail_after_contact=rail_after_contact, pos=pos, on=on)
        return obj


@functools.lru_cache(maxsize=None)
def _plain_fields(cls) -> frozenset:
    """The field names of ``cls`` when ``dataclasses.replace`` on it is a copy of the
    instance dict with some fields changed (a dataclass with an instance dict, no
    ``__post_init__``, every field an ``__init__`` argument); empty otherwise."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__") or "__slots__" in cls.__dict__:
        return frozenset()
    fields = dataclasses.fields(cls)
    if not all(f.init for f in fields):
        return frozenset()
    return frozenset(f.name for f in fields)


def replace_extra(extra, **changes):
    """``dataclasses.replace(extra, **changes)``; for a frozen dataclass without
    ``__post_init__`` whose fields are all ``__init__`` arguments, built by copying its field
    dict (the same object, without the ``__init__``: a referee builds one on every shot)."""
    names = _plain_fields(type(extra))
    if names and changes.keys() <= names:
        new = object.__new__(type(extra))
        d = extra.__dict__.copy()
        d.update(changes)
        object.__setattr__(new, "__dict__", d)
        return new
    return dataclasses.replace(extra, **changes)


class BCAGame(DisciplineBase):
    """Skeleton of a BCA referee (see the module docstring). Subclasses set ``name``,
    ``config_cls``, ``allowed_players``, ``rule_prefix`` and the rule IDs below, and
    implement :meth:`rack` and :meth:`adjudicate` with the helpers here.

    Class attributes:
      legal_shot_rule -- rule ID for a bad first contact / no rail (e.g. "41-9.4").
      jumped_is_foul / jumped_rule -- C-03 per the game's jumped-ball section.
      kitchen_rule -- rule ID of the game's kitchen spot request (C-10).
      kitchen_spot_nearest -- the request spots the ball nearest the head string, so equally
          near balls are the player's choice (GW-5); False where the game names the ball.
    """

    n_balls = 16
    legal_shot_rule = "G-3.19"
    jumped_is_foul = False
    jumped_rule = "G-3.28"
    kitchen_rule = "GW-5"
    kitchen_spot_nearest = True

    # ------------------------------------------------------------------ shot legality
    def legal_first(self, state: GameState) -> tuple:
        """Balls the cue ball may contact first (empty = any ball)."""
        return ()

    def rail_required(self, state: GameState) -> bool:
        """G-3.19: after the contact a ball must be pocketed or reach a cushion."""
        return True

    def shot_spec(self, state: GameState) -> dict:
        legal = self.legal_first(state)
        return {"target_balls": legal if legal else state.balls_on_table()}

    def spec_key(self, state: GameState):
        """`legal_actions` of a BCA game depends on the phase, the seat, the cue ball's
        placement, the balls legal to hit first (`legal_first`, else the balls on the table)
        and the declarations open now, and with the cue ball in hand behind the head string
        on the C-10 kitchen spot request (`extra_options`) and the balls it may spot
        (`spot_choices`: they depend on the positions); in an OPTION phase on the phase, the
        seat, the options offered and the balls they let the player name (`option_balls`,
        41-13). Not memoised for a game that changes how its spec is built."""
        cls = type(self)
        if (cls.shot_spec is not BCAGame.shot_spec or cls.extra_options is not BCAGame.extra_options
                or cls.must_place is not DisciplineBase.must_place
                or cls._legal_actions is not DisciplineBase._legal_actions):
            return None
        ph = state.phase
        if ph is _OPTION:
            return (id(state.config), ph, state.seat_to_act, tuple(state.options), self.option_balls(state))
        kitchen = ()
        if state.config.kitchen_spot_request and state.cue_ball is _IN_HAND_KITCHEN:
            opts = self.extra_options(state)
            if opts:
                kitchen = (opts, self.spot_choices(state))
        tgt = None
        if ph is _PLAY or ph is _BREAK:
            tgt = self.legal_first(state) or state.on_table
        return (id(state.config), ph, state.seat_to_act, state.cue_ball, state.cue_placed, tgt,
                self.declarations(state), kitchen)

    @property
    def spec_key_seat(self):
        """2 (the key's seat) for `spec_key` as written here: the seat enters the spec only
        as its ``seat`` field, the key's phase, placement, first-contact balls, declarations
        and kitchen request are what the other fields are built from; None for a game with
        its own key."""
        return 2 if type(self).spec_key is BCAGame.spec_key else None

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        """No push-outs; no safety declaration (PP-9.2 / OB-8.2 forbid safety-and-spot, the
        other games have none); calls are not required and are ignored."""
        if action.push_out:
            raise IllegalActionError(f"{self.name} has no push-out")
        if action.safety:
            raise IllegalActionError(f"{self.name} has no safety declaration")

    def analyse(self, state: GameState, action: ShotAction, rec) -> ShotOutcome:
        """The stroke's fouls (G-3.26/G-3.27 stroke fouls, G-3.18/G-3.19/G-3.20/G-3.28/G-3.38/G-3.39 with the game's
        legal first contact and rule IDs), pocketed and jumped balls, the open-break test
        (C-26) on a break, and the table after the stroke."""
        given = self._given
        if given is not None and given[1] is rec and given[0] is state:
            return given[2]  # decided for the whole batch (adjudicate_batch)
        cfg = state.config
        table = self.table(state)
        legal = self.legal_first(state)
        f = q.shot_facts(rec, table, legal if legal else None, cfg.split_hit_eps)
        bad_hit, no_hit, no_rail, obj_off = self._foul_kinds()
        fouls = general.standard_fouls(
            rec, table, ball_radius(), cfg, legal, kitchen=state.cue_ball is CueBallPlacement.IN_HAND_KITCHEN,
            require_rail=self.rail_required(state), jumped_is_foul=self.jumped_is_foul,
            bad_hit=bad_hit, no_hit=no_hit, no_rail=no_rail, obj_off=obj_off, facts=f, stroke=action)
        is_break = state.phase is _BREAK
        open_break = is_break and len(f.object_balls_to_rail(rec.cue_ball)) >= cfg.open_break_min_rail_balls
        pos, on = general.after_shot(state, rec)
        c = rec.cue_ball
        jumped = tuple(b for b in f.jumped if b != c) if f.jumped else ()
        first = f.first
        # a plain slotted object built without the frozen-dataclass __init__ (hot path)
        return ShotOutcome._fast(state.seat_to_act, is_break, tuple(fouls), tuple(f.pocketed), jumped,
                                 bool(f.cue_pocketed or f.cue_off), bool(open_break), first,
                                 first is not None and f.rails_after(f.t0) > 0, pos, on)

    #: (state, record, ShotOutcome) of the shot `adjudicate_batch` is ruling now, its outcome
    #: found by the batch's compiled call (`analyse` returns it for that very state and record)
    _given = None

    def adjudicate_batch(self, states, actions, recs) -> list:
        """`adjudicate_validated` of a batch of shots: every table's `analyse` (fouls, pocketed
        and jumped balls, first contact, open break) found in one compiled call
        (`poolgym.rules.games.bca_batch.outcomes`), then each table ruled by the game's
        :meth:`adjudicate` on that outcome; the cases the call leaves open (G-3.38, G-3.39,
        a split hit to resolve, ...) are analysed by `analyse` itself."""
        given = self._batch_analyses(states, actions, recs)
        if given is None:
            return super().adjudicate_batch(states, actions, recs)
        out = []
        try:
            for st, a, rec, o in zip(states, actions, recs, given):
                self._given = None if o is None else (st, rec, o)
                out.append(self.adjudicate_validated(st, a, rec))
        finally:
            self._given = None
        return out

    def _batch_analyses(self, states, actions, recs):
        """Per table the `ShotOutcome` that `analyse` finds, from one `bca_batch.outcomes`
        call (None for a table the call leaves open); None when the batch cannot be read
        there (`_batch_outcomes`)."""
        ruled = self._batch_outcomes(states, actions, recs)
        if ruled is None:
            return None
        bf = recs[0].facts[0]
        pos_all, on_all = self._batch_rests(bf, states, recs)
        fouls_of = self._foul_bits
        ball_tuple = general.ball_tuple
        fast = ShotOutcome._fast
        brk_phase = Phase.BREAK
        down = _nb.SCRATCH | _nb.CUE_OFF
        out = []
        for k, (st, rec, row) in enumerate(zip(states, recs, ruled)):
            if row[0] != _bb.DECIDED:
                out.append(None)
                continue
            pos, on = pos_all[k], on_all[k]
            f = row[4]
            flags = row[5]
            out.append(fast(st.seat_to_act, st.phase is brk_phase, fouls_of(row[1]), ball_tuple(row[2]),
                            ball_tuple(row[3]), bool(row[1] & down), bool(flags & _bb.OPEN_BREAK),
                            None if f < 0 else f, bool(flags & _bb.RAIL_AFTER), pos, on))
        return out

    def compile_batch(self) -> None:
        _bb.outcomes.compile(_bb.signature())

    def _batch_outcomes(self, states, actions, recs):
        """Rows of `bca_batch.outcomes` for the tables (as lists), or None when the batch
        cannot be read there (records not from one `BatchFacts` in table order, mixed
        configs, another table, a double-hit gap, a game with its own `analyse`)."""
        cls = type(self)
        if cls.analyse is not BCAGame.analyse or cls._foul_kinds is not BCAGame._foul_kinds:
            return None
        bf = self._batch_facts(states, recs)
        if bf is None:
            return None
        cfg = states[0].config
        bl = bf.legal if bf.split_eps == cfg.split_hit_eps else None
        N = bf.pocketed.shape[1]
        anything = (1 << N) - 2
        kitchen = CueBallPlacement.IN_HAND_KITCHEN
        brk_phase, play = Phase.BREAK, Phase.PLAY
        tab = []
        stroke = []
        for k, (st, a) in enumerate(zip(states, actions)):
            stroke.append((a.theta, a.a, a.b))
            ph = st.phase
            if ph is not play and ph is not brk_phase:
                tab.append((1, 0, 0, 0, 0, 0))
                continue
            legal = self.legal_first(st)
            m = 0
            for b in legal:
                m |= 1 << b
            tab.append((0, ph is brk_phase, st.cue_ball is kitchen, self.rail_required(st), m if legal else anything,
                        bool(legal) and bl is not None and bl[k] == legal))
        table = bf.table
        c = _nb.config_row(cfg, table, ball_radius(), cfg.open_break_min_rail_balls, 0.0, self.jumped_is_foul)
        b = bf._batch
        seg_y, jaw_y = q._segment_jaw_y(table)
        res = _bb.outcomes(np.array(tab, np.int64), np.array(stroke, np.float64), c, bf.first, bf.t0, bf.first_raw,
                           bf.t0_raw, bf.cue_pocketed, bf.pocketed, bf.jumped, bf.start, bf.ct, bf.cb, bf.cr,
                           bf.to_rail, bf.cue_ball, b.rvw0, b.rvw, b.n_events, b.ev_kind, b.ev_i, b.ev_j, b.ev_t,
                           seg_y, jaw_y, _BB, _BC, _BJ)
        return res.tolist()

    def _foul_bits(self, bits: int) -> tuple:
        """The fouls of `nine_ball_batch` foul bits ``bits`` as `analyse` lists them (this
        game's rule IDs; cached per class)."""
        cls = type(self)
        cache = cls.__dict__.get("_foul_bits_cache")
        key = (self.legal_shot_rule, self.jumped_rule)
        if cache is None or cache[0] != key:
            cache = (key, {})
            cls._foul_bits_cache = cache
        got = cache[1].get(bits)
        if got is None:
            bad_hit, no_hit, no_rail, obj_off = self._foul_kinds()
            got = cache[1][bits] = tuple(foul for bit, foul in (
                (_nb.MISCUE, general.G_MISCUE), (_nb.ILLEGAL_JUMP, general.G_ILLEGAL_JUMP),
                (_nb.SCRATCH, general.G_SCRATCH), (_nb.CUE_OFF, general.G_CUE_OFF), (_nb.KITCHEN, general.G_KITCHEN),
                (_nb.NO_HIT, no_hit), (_nb.BAD_HIT, bad_hit), (_nb.NO_RAIL, no_rail), (_nb.OBJ_OFF, obj_off))
                if bits & bit)
        return got

    def _foul_kinds(self) -> tuple:
        """(bad first contact, no contact, no rail, object ball off the table) as this game
        cites them (``legal_shot_rule``, ``jumped_rule``); built once per class."""
        cls = type(self)
        got = cls.__dict__.get("_foul_cache")
        key = (self.legal_shot_rule, self.jumped_rule)
        if got is None or got[0] != key:
            rid = self.legal_shot_rule
            got = (key, (Foul(FoulKind.WRONG_BALL_FIRST, rid), Foul(FoulKind.NO_BALL_HIT, rid),
                         Foul(FoulKind.NO_RAIL_AFTER_CONTACT, rid),
                         Foul(FoulKind.OBJECT_BALL_OFF_TABLE, self.jumped_rule)))
            cls._foul_cache = got
        return got[1]

    # ------------------------------------------------------------------ table helpers
    def spotted(self, state: GameState, pos: tuple, on: tuple, balls) -> tuple:
        """(pos, on) with ``balls`` spotted (G-3.32) on the table ``pos`` / ``on``
        (:func:`.common.spot_into`)."""
        if not balls and isinstance(balls, (tuple, list)):
            return pos, on
        ch = {"pos": pos, "on_table": on}
        spot_into(state, ch, balls)
        return ch["pos"], ch["on_table"]

    def ruling_start(self, state: GameState, out: ShotOutcome) -> tuple:
        """``(cue, changes)`` a ruling on the stroke ``out`` starts from: the cue ball in hand
        behind the head string after a scratch or a cue ball off the table (G-3.10), else in
        position; ``changes`` holds the next shot number, no options and that cue ball, not
        yet placed."""
        cue = _IN_HAND_KITCHEN if out.cue_down else _IN_POSITION
        return cue, {"shot_number": state.shot_number + 1, "options": (), "cue_placed": False, "cue_ball": cue}

    def spotted_after(self, state: GameState, out: ShotOutcome, balls) -> tuple:
        """(pos, on) of the table after the stroke ``out`` with ``balls`` spotted (G-3.32)
        and the cue ball taken off the table when it went down (in hand)."""
        pos, on = self.spotted(state, out.pos, out.on, balls)
        return pos, (self.cue_off(on) if out.cue_down else on)

    @staticmethod
    def cue_off(on: tuple) -> tuple:
        """``on`` with the cue ball taken off the table (in hand)."""
        return (False,) + tuple(on[1:])

    def next_seat_of(self, state: GameState, seat: Optional[int] = None) -> int:
        """The next seat in order of play still in the game."""
        return next_in_order(state, seat)

    def rerack(self, state: GameState, breaker: int):
        """A new rack from the state's RNG, ``breaker`` to break with cue ball in hand
        behind the head string (the re-rack options of PP-8, CT-8, OB-7, MM-7)."""
        rng, new_rng = draw_rng(state)
        pos, on = self.rack(state.config, rng)
        pos = np.asarray(pos, np.float64).reshape(self.n_balls, 2)
        on = on.tolist() if type(on) is np.ndarray and on.dtype == np.bool_ else [bool(v) for v in on]
        s = state.replace(pos=tuple(pos.reshape(-1).tolist()), on_table=tuple(on), rng=new_rng,
                          phase=_BREAK, seat_to_act=breaker, breaker=breaker, options=(),
                          cue_ball=_IN_HAND_KITCHEN, cue_placed=False,
                          history=state.history + (SeatEvent(EventType.RERACK, breaker),))
        return self.on_rerack(s)

    def on_rerack(self, state: GameState) -> GameState:
        """Reset per-rack bookkeeping after :meth:`rerack` (default: the extra's offender)."""
        return state.replace(extra=self._extra(state, offender=-1))

    @staticmethod
    def _extra(state: GameState, **changes):
        """``dataclasses.replace(state.extra, **changes)`` (:func:`replace_extra`)."""
        return replace_extra(state.extra, **changes)

    def _extra_offender(self, state: GameState, offender: int):
        """``_extra(state, offender=offender)``, one object per value (the extras are
        immutable; a foul and the option that follows it set the offender on every table,
        so the tables share a few objects instead of leaving a new one alive per shot);
        `_extra` itself for an extra with an unhashable field."""
        ex = state.extra
        memo = self.__dict__.get("_offender_memo")
        if memo is None:
            memo = self.__dict__["_offender_memo"] = {}
        try:
            key = (type(ex), offender, tuple(ex.__dict__.items()))
            hit = memo.get(key)
        except TypeError:
            return replace_extra(ex, offender=offender)
        if hit is None:
            if len(memo) > 4096:
                memo.clear()
            hit = memo[key] = replace_extra(ex, offender=offender)
        return hit

    # ------------------------------------------------------------------ options
    def apply_option(self, state: GameState, option: Option):
        """ACCEPT_TABLE: the incoming player shoots from the position (PP-8, PP-13, CT-8,
        OB-7, OB-12, MM-7). OFFENDER_SHOOTS_AGAIN: the offender shoots again from the same
        position (PP-13, OB-12). RERACK_AND_BREAK: the incoming player re-racks and breaks
        (PP-8, CT-8, OB-7). OPPONENT_REBREAKS: re-rack and the offender breaks again (OB-7,
        MM-7)."""
        zeros = (0,) * state.n_players
        off = state.extra.offender
        refs = self.option_refs(state, option)
        if option is _ACCEPT_TABLE:
            s = state._evolve({"phase": _PLAY, "options": (), "extra": self._extra_offender(state, -1)})
            return s, Verdict._fast(points=zeros, next_seat=s.seat_to_act, cue_ball=s.cue_ball, rule_refs=refs)
        if option is _OFFENDER_SHOOTS_AGAIN:
            s = state._evolve({"phase": _PLAY, "options": (), "seat_to_act": off,
                               "extra": self._extra_offender(state, -1)})
            return s, Verdict._fast(points=zeros, next_seat=off, cue_ball=s.cue_ball, rule_refs=refs)
        if option in _REBREAK_OPTIONS:
            b = state.seat_to_act if option is Option.RERACK_AND_BREAK else off
            s = self.rerack(state, b)
            return s, Verdict._fast(points=zeros, next_seat=b, cue_ball=CueBallPlacement.IN_HAND_KITCHEN, rule_refs=refs,
                              events=s.history[len(state.history):])
        raise IllegalActionError(f"option {option.value} is not a {self.name} option")

    def option_refs(self, state: GameState, option: Option) -> tuple:
        """Rule IDs cited when ``option`` is taken (the game's break or foul rule)."""
        return ()

    # ------------------------------------------------------------------ kitchen request
    def kitchen_spot_ball(self, state: GameState) -> Optional[int]:
        """The ball the shooter may have spotted now (C-10), or None. Default GW-5: every
        object ball behind the head string -> the one nearest the head string (ties: the
        lowest number; `spot_choices` offers every tied ball)."""
        return self.nearest_if_all_in_kitchen(state, state.balls_on_table())

    def nearest_if_all_in_kitchen(self, state: GameState, group) -> Optional[int]:
        """When every ball of ``group`` (on the table, non-empty) lies in the kitchen: the
        ball in the kitchen nearest the head string (41-9.5, MM-8.6, CT-9.4, GW-5; ties: the
        lowest number -- the player "may choose any"). For CT-9.4, where only the opponents'
        balls must be in the kitchen, the shooter's own ball qualifies when it is the nearest
        one in the kitchen; a ball beyond the head string is never spotted."""
        group = tuple(group)
        if not group:
            return None
        pos = state.pos
        hs = float(self.table(state).head_string_y)  # in_kitchen: strictly behind the head string
        for b in group:
            if not pos[2 * b + 1] < hs:
                return None
        balls = [b for b in state.balls_on_table() if pos[2 * b + 1] < hs]
        if not balls:  # (a group ball off the table: as np.argmax of nothing)
            raise ValueError("attempt to get argmax of an empty sequence")
        best = balls[0]
        top = pos[2 * best + 1]
        for b in balls[1:]:  # the first of the largest y (np.argmax)
            y = pos[2 * b + 1]
            if y > top:
                best, top = b, y
        return best

    def lowest_if_in_kitchen(self, state: GameState) -> Optional[int]:
        """The lowest-numbered ball when it lies in the kitchen (PP-9.3, OB-8.6, MM-8.5)."""
        low = state.lowest_ball()
        if low is None:
            return None
        return low if state.pos[2 * low + 1] < float(self.table(state).head_string_y) else None

    def extra_options(self, state: GameState) -> tuple:
        if (state.config.kitchen_spot_request and state.phase is _PLAY
                and state.cue_ball is _IN_HAND_KITCHEN and not state.cue_placed
                and self.kitchen_spot_ball(state) is not None):
            return (Option.SPOT_NEAREST_KITCHEN_BALL,)
        return ()

    def spot_choices(self, state: GameState) -> tuple:
        """The game's ball (`kitchen_spot_ball`); with ``kitchen_spot_nearest``, every ball
        as near the head string as it (GW-5: the player chooses among them)."""
        b = self.kitchen_spot_ball(state)
        if b is None:
            return ()
        near = kitchen_spot_choices(state, self.table(state)) if self.kitchen_spot_nearest else ()
        return near if b in near else (b,)

    def _kitchen_spot(self, state: GameState, b: int):
        """Spot the requested ball ``b`` (one of `spot_choices`) on the foot spot (G-3.32 if
        occupied); the shooter keeps cue ball in hand behind the head string."""
        on = list(state.on_table)
        on[b] = False
        s = state.replace(on_table=tuple(on))
        s = general.spot(s, (b,), self.table(state), ball_radius())
        return s, Verdict._fast(next_seat=s.seat_to_act, cue_ball=s.cue_ball, spotted=(b,), rule_refs=(self.kitchen_rule,),
                          points=(0,) * s.n_players, turn_continues=True)

    # ------------------------------------------------------------------ results
    def finish(self, state: GameState, fields: dict, winner: Optional[int]) -> GameState:
        """``state`` evolved by ``fields`` and ended with ``winner`` (None = draw)."""
        fields.update(phase=_GAME_OVER, winner=winner, options=(), pending=())
        return state._evolve(fields)
