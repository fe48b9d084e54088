"""Discipline protocol, the shared action machinery and the registry.

A discipline is a stateless object with pure methods over :class:`GameState`
(OpenSpiel style, DESIGN 5)::

    d = get_discipline("nine_ball")
    s = d.initial_state(NineBallConfig(), seed=1)
    spec = d.legal_actions(s)
    s, v = d.apply(s, PlaceCueBall(0.6, 0.3))
    s, v = d.apply(s, ShotAction(V0=6.0, phi=90.0))          # runs physics.simulate
    s, v = d.apply_shot_record(s, action, record)             # same, with a given record

Module-level :func:`legal_actions`, :func:`apply`, :func:`apply_shot_record`,
:func:`new_game`, :func:`next_game` dispatch on ``state.discipline``; :func:`batch_inputs`
and :func:`apply_batch` wrap one ``physics.simulate_batch`` call for B tables.

:class:`DisciplineBase` implements everything that is the same in every discipline:
acting-state checks (IllegalActionError, state unchanged), cue-ball placement (G-3.10,
G-3.16, G-3.22, 9B-5.10, GW-5), the G-3.6 lag phase and the G-3.7 break choice, the
GW-5 kitchen spot request, shot parameter validation, physics set-up, the GW-12
stalemate stand-in and the ``max_shots`` cap, and match continuation with the G-3.36
break order. Subclasses implement :meth:`rack`, :meth:`adjudicate` (and optionally
:meth:`apply_option`, :meth:`validate_shot`, :meth:`shot_spec`).
"""
from __future__ import annotations

import dataclasses
import importlib
import math
from collections.abc import Mapping
from typing import Callable, Optional

import numpy as np

from . import general, lag
from .core import (ActionSpec, ChooseOption, Concede, CueBallPlacement, Declaration, Declare, EventType, GameState,
                   IllegalActionError, Option, Phase, PlaceCueBall, RulesConfig, SeatEvent, ShotAction, Verdict)
from .placement import placement_error, placement_errors
from .rows import bool_rows, float_rows
from .general import is_miscue
from .geometry import ball_radius, get_table, in_kitchen
from .seats import active_seats, next_in_order, team_of, teammates
from .seats import observe as seat_view, view_of
from .seeding import seeded_generator
from .shot_record import Motion, ShotRecord, _BatchRecord

__all__ = [
    "DisciplineBase", "DISCIPLINES", "get_discipline", "legal_actions", "apply", "apply_shot_record",
    "new_game", "next_game", "returns", "observe", "draw_rng", "make_rvw", "physics_inputs", "simulate_record", "batch_inputs",
    "apply_batch", "MAX_CUE_SPEED", "stroke_row", "kitchen_spot_choices",
]

#: Fastest legal cue-stick speed V0 (m/s): the physics simulates strokes up to it
#: (physics/CONTRACT.md, ``simulate`` rejects V0 beyond 50 m/s).
MAX_CUE_SPEED = 50.0

#: GW-5 / SP-6.7.7: object balls whose distances from the head string differ by at most this
#: (m, round-off of computed positions) are "equally distant".
SPOT_TIE_EPS = 1e-9


def draw_rng(state: GameState):
    """(numpy Generator, new rng tuple): chance drawn from the state's (seed, counter)."""
    seed, counter = state.rng
    return seeded_generator([int(seed), int(counter)]), (int(seed), int(counter) + 1)


def make_rvw(pos: np.ndarray, R: float) -> np.ndarray:
    """(N, 3, 3) physics state at rest from (N, 2) centres (z = R: the centre height)."""
    P = np.asarray(pos, dtype=np.float64).reshape(-1, 2)
    rvw = np.zeros((P.shape[0], 3, 3), np.float64)
    rvw[:, 0, :2] = P
    rvw[:, 0, 2] = R
    return rvw


def physics_inputs(state: GameState, only: Optional[tuple] = None):
    """(rvw (N,3,3), s (N,) int8) for ``physics.simulate`` from a state. Balls not on the
    table get ``Motion.POCKETED``; ``only`` restricts the table to those rows (lag)."""
    if only is None:
        rvw, s = batch_physics_inputs((state,))
        return rvw[0], s[0]
    rvw = make_rvw(state.positions(), ball_radius())
    on = state.on_mask()
    keep = np.zeros_like(on)
    keep[list(only)] = True
    on = on & keep
    s = np.where(on, int(Motion.STATIONARY), int(Motion.POCKETED)).astype(np.int8)
    return rvw, s


def batch_physics_inputs(states) -> tuple:
    """`physics_inputs` of B states of one discipline stacked: (rvw (B, N, 3, 3), s (B, N)
    int8), built with one array conversion for the batch (the envs' batched shots)."""
    B = len(states)
    N = len(states[0].on_table)
    pos = float_rows([st.pos for st in states], 2 * N)
    rvw = make_rvw(pos, ball_radius()).reshape(B, N, 3, 3)
    on = bool_rows([st.on_table for st in states], N)
    s = np.where(on, np.int8(_STILL), np.int8(_DOWN))
    return rvw, s


_STILL = int(Motion.STATIONARY)
_DOWN = int(Motion.POCKETED)


def stroke_row(action: ShotAction, config: RulesConfig) -> np.ndarray:
    """(5,) float64 [V0, phi, theta, a, b] that the physics plays for a validated ``action``:
    its own parameters, except that a miscue (tip offset beyond ``config.miscue_limit``, a
    G-3.27 foul on a jump) strikes where the tip slides off, the offset scaled back onto the
    limit (as `physics.ExecutionNoise` does)."""
    row = action.shot_array()
    if is_miscue(action, config):
        scale = config.miscue_limit / math.hypot(action.a, action.b) * (1.0 - 1e-12)
        row[3] *= scale
        row[4] *= scale
    return row


def simulate_record(state: GameState, action: ShotAction, *, only: Optional[tuple] = None,
                    **physics_kwargs) -> ShotRecord:
    """Run ``physics.simulate`` for ``action`` (played as `stroke_row`) from ``state`` and wrap
    the result (with the whole event log: ``grow_log`` unless the caller says otherwise; the
    three-dimensional model, ``airborne``, unless the caller says otherwise: an elevated
    stroke may jump, balls may leave the table, G-3.27 / G-3.28; a level stroke gives the
    flat result bit for bit)."""
    import physics

    physics_kwargs.setdefault("grow_log", True)
    physics_kwargs.setdefault("airborne", True)

    table = get_table(state.config.table)
    rvw, s = physics_inputs(state, only)
    res = physics.simulate(table, rvw, stroke_row(action, state.config), s=s, **physics_kwargs)
    return ShotRecord.from_sim(res)


def kitchen_spot_choices(state: GameState, table) -> tuple:
    """GW-5 / SP-6.7.7: the object balls on the table nearest the head string (largest y),
    ascending; several when equally distant (within `SPOT_TIE_EPS`). Empty without balls."""
    balls = state.balls_on_table()
    if not balls:
        return ()
    ys = [state.pos[2 * b + 1] for b in balls]
    top = max(ys)
    return tuple(b for b, y in zip(balls, ys) if top - y <= SPOT_TIE_EPS)


_SPEC_FIELDS = frozenset(f.name for f in dataclasses.fields(ActionSpec)) - {"seat", "phase", "can_shoot", "place_cue",
                                                                            "must_place", "options"}
# every field in declaration order (seat / phase, which have no default, are always given)
_SPEC_DEFAULTS = {f.name: None if f.default is dataclasses.MISSING else f.default for f in dataclasses.fields(ActionSpec)}


def _spec(fields: dict) -> ActionSpec:
    """``ActionSpec(**fields)`` without the frozen-dataclass ``__init__`` (ActionSpec has no
    ``__post_init__``; called for every decision of a vector env)."""
    obj = object.__new__(ActionSpec)
    d = obj.__dict__
    d.update(_SPEC_DEFAULTS)
    d.update(fields)
    return obj


_STATE_DEFAULTS = {f.name: None if f.default is dataclasses.MISSING else f.default for f in dataclasses.fields(GameState)}


#: enum members read in the hot paths (a module constant is ~10x faster than the class attribute)
_GAME_OVER, _LAG, _OPTION = Phase.GAME_OVER, Phase.LAG, Phase.OPTION
_LAG_OPTIONS = (Option.BREAK, Option.CEDE_BREAK)
_IN_POSITION = CueBallPlacement.IN_POSITION
_PLACE_PHASES = (Phase.BREAK, Phase.PLAY)
_SHOT_PHASES = (Phase.LAG, Phase.BREAK, Phase.PLAY)
_ONLY_BOOL, _ONLY_FLOAT = frozenset((bool,)), frozenset((float,))  # (`DisciplineBase.check_state`)


def _state(fields: dict) -> GameState:
    """``GameState(**fields)`` without the frozen-dataclass ``__init__`` (GameState has no
    ``__post_init__`` and no default factories; every reset of a vector env's table)."""
    obj = object.__new__(GameState)
    d = obj.__dict__
    d.update(_STATE_DEFAULTS)
    d.update(fields)
    return obj


def _with_seat(spec: ActionSpec, seat: int) -> ActionSpec:
    """``dataclasses.replace(spec, seat=seat)`` without the frozen-dataclass ``__init__``."""
    obj = object.__new__(ActionSpec)
    d = obj.__dict__
    d.update(spec.__dict__)
    d["seat"] = seat
    return obj


#: entries of a discipline's memo of legal-action specs (`DisciplineBase.legal_actions`)
#: before it is emptied (a six-seat BCA game on 256 tables meets about 900 new keys a step)
SPEC_CACHE_SIZE = 16384
#: `DisciplineBase.placement_errors` checks batches of at most this many placements one by one
#: (`placement.placement_error`): the batched check (`placement.placement_errors`) costs 10-12 us
#: per call for 1-8 placements, before this method builds its arrays; one placement checked
#: alone 2-3 us (4 of them 9 us)
SMALL_PLACEMENT_BATCH = 4


class DisciplineBase:
    """Shared machinery; subclass per discipline.

    Class attributes: ``name`` (registry key), ``rules_file`` (the file of ``shared/rules``
    it referees, e.g. ``"nine_ball.md"``; every SIM / DECL rule ID of it must be asserted by a
    test, see :mod:`poolgym.rules.coverage`), ``n_balls`` (rows incl. the cue ball),
    ``config_cls`` (a frozen :class:`RulesConfig` subclass).

    Subclass hooks:
      rack(config, rng) -> (pos (N,2) array, on (N,) bool) -- object balls racked, cue
          ball off the table (in hand behind the head string for the break).
      initial_extra(config) -> discipline ``extra`` value for a fresh game.
      adjudicate(state, action, rec) -> (state, Verdict) -- the shot (break or not).
      apply_option(state, option) -> (state, Verdict) -- discipline options.
      validate_shot(state, action) -- raise IllegalActionError for a bad declaration.
      shot_spec(state) -> dict of ActionSpec fields for a shot (target balls, calls...).
      placement_may_touch(state) -> bool -- may the placed cue ball touch a ball (C-21).
      on_stalemate(state) -> (state, Verdict) -- GW-12 outcome (default: draw).

    N-seat hooks (API.md "Seats"; defaults leave a two-seat game as it is):
      allowed_players -- tuple of the seat counts the rules allow (None: the config checks).
      setup_seats(state) -> state -- teams, order of play, chance deals into ``private``
          (drawn with :func:`poolgym.rules.seats.draw_from`), at the end of `initial_state`.
      declarations(state) -> tuple of Declaration open to the seat to act now.
      apply_declaration(state, declaration) -> (state, Verdict).
      returns(state) -> per-seat result of a finished game.
    """

    name: str = "base"
    rules_file: Optional[str] = None
    n_balls: int = 16
    config_cls: type = RulesConfig
    allowed_players: Optional[tuple] = None

    # ------------------------------------------------------------------ set-up
    def default_config(self) -> RulesConfig:
        return self.config_cls()

    def rack(self, config, rng):  # pragma: no cover - abstract
        raise NotImplementedError

    def initial_extra(self, config):
        return None

    def initial_state(self, config: Optional[RulesConfig] = None, seed: int = 0, *,
                      breaker: Optional[int] = None, games_won: Optional[tuple] = None,
                      game_number: int = 0, rng_counter: int = 0, lag: Optional[bool] = None) -> GameState:
        """A new game: rack drawn from the state's RNG; the breaker (``breaker`` or
        ``config.first_breaker``) has cue ball in hand behind the head string (G-3.8),
        or the G-3.6 lag phase first when ``config.lag`` (and ``lag`` is not False)."""
        config = self.config_cls() if config is None else config
        if not isinstance(config, self.config_cls):
            raise ValueError(f"config must be a {self.config_cls.__name__}, got {type(config).__name__}")
        n = config.n_players
        if self.allowed_players is not None and n not in self.allowed_players:
            raise ValueError(f"n_players must be one of {self.allowed_players} for {self.name}, got {n!r}")
        pos, on = self.rack_tuples(config, int(seed), int(rng_counter))
        do_lag = config.lag if lag is None else lag
        b = config.first_breaker if breaker is None else int(breaker)
        st = _state({
            "discipline": self.name, "config": config,
            "pos": pos, "on_table": on,
            "seat_to_act": 0 if do_lag else b,
            "phase": Phase.LAG if do_lag else Phase.BREAK,
            "cue_ball": CueBallPlacement.IN_HAND_KITCHEN, "cue_placed": False,
            "scores": (0,) * n, "consecutive_fouls": (0,) * n, "groups": (0,) * n,
            "breaker": b, "extra": self.initial_extra(config), "rng": (int(seed), int(rng_counter) + 1),
            "game_number": game_number, "games_won": tuple(games_won) if games_won is not None else (0,) * n,
        })
        return self.setup_seats(st)

    def rack_tuples(self, config, seed: int, rng_counter: int) -> tuple:
        """(pos, on_table) of a fresh game as the state's tuples: `rack` with the generator
        ``default_rng([seed, rng_counter])`` (a discipline may produce the same tuples
        faster, e.g. from a cache of its racks)."""
        pos, on = self.rack(config, seeded_generator([seed, rng_counter]))
        pos = np.asarray(pos, dtype=np.float64).reshape(self.n_balls, 2)
        on = np.asarray(on, dtype=bool).reshape(self.n_balls)
        return tuple(pos.reshape(-1).tolist()), tuple(on.tolist())

    def setup_seats(self, state: GameState) -> GameState:
        """Teams, order of play and chance deals of a fresh game (default: none)."""
        return state

    # ------------------------------------------------------------------ seats
    def declarations(self, state: GameState) -> tuple:
        """Declarations open to the seat to act now (default: none)."""
        return ()

    def apply_declaration(self, state: GameState, declaration: Declaration):  # pragma: no cover - per game
        raise IllegalActionError(f"declaration {declaration.value} is not handled by {self.name}")

    def returns(self, state: GameState) -> tuple:
        """Per-seat result of a finished game (zeros while it runs). Default: the winner's
        team shares +1 per winning seat, the other seats share -1 per winning seat (zero-sum;
        two seats: +1 / -1); a draw gives zeros."""
        n = state.n_players
        if state.phase is not Phase.GAME_OVER or state.winner is None:
            return (0.0,) * n
        t = team_of(state, state.winner)
        win = [team_of(state, s) == t for s in range(n)]
        w = sum(win)
        if w == n:
            return (0.0,) * n
        return tuple(1.0 if win[s] else -w / (n - w) for s in range(n))

    def useful_balls(self, state: GameState, seat: int) -> Optional[tuple]:
        """Object balls on the table whose legal pocketing serves ``seat`` (the rules' answer to
        "which balls should this seat pocket", for agents and opponents of every game), read
        from the public state and ``seat``'s own private entry only (a seat's
        :func:`~poolgym.rules.seats.observe` view suffices). None (the default): every ball
        the shot spec allows is worth pocketing. Combine with ``legal_actions(state)`` for the
        balls the seat may hit first."""
        return None

    def observe(self, state: GameState, seat: int):
        """:func:`poolgym.rules.seats.observe` (public state + the seat's own secret);
        override where the rules make a secret public (and say so in `private_shown`)."""
        return seat_view(state, seat)

    def private_shown(self, state: GameState) -> bool:
        """Whether the rules of ``state`` show every seat's private entry to every seat (card
        ball's C-33 ``public_hands``): :meth:`observe` then holds them all, and only the hidden
        chance state and the RNG seed stay secret (`poolgym.rules.testing.check_privacy`).
        Default False."""
        return False

    def view(self, state: GameState, seat: int) -> tuple:
        """(``observe(state, seat).state``, ``observe(state, seat).private``): the same
        values, without building the `SeatView` when the discipline keeps the default
        :meth:`observe` (:func:`poolgym.rules.seats.view_of`)."""
        if type(self).observe is DisciplineBase.observe:
            return view_of(state, seat)
        v = self.observe(state, seat)
        return v.state, v.private

    # ------------------------------------------------------------------ queries
    def table(self, state: GameState):
        return get_table(state.config.table)

    def must_place(self, state: GameState) -> bool:
        return (state.phase in _PLACE_PHASES and state.cue_ball is not _IN_POSITION
                and not state.cue_placed)

    def placement_may_touch(self, state: GameState) -> bool:
        return True

    def extra_options(self, state: GameState) -> tuple:
        """Options legal outside :attr:`Phase.OPTION` (GW-5 kitchen spot request:
        cue ball in hand behind the head string, not yet placed, and every object ball
        behind the head string)."""
        if (state.config.kitchen_spot_request and state.phase is Phase.PLAY
                and state.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and not state.cue_placed):
            balls = state.balls_on_table()
            if balls:
                P = state.positions()
                if np.all(in_kitchen(P[list(balls), 1], self.table(state))):
                    return (Option.SPOT_NEAREST_KITCHEN_BALL,)
        return ()

    def spot_choices(self, state: GameState) -> tuple:
        """The balls an `Option.SPOT_NEAREST_KITCHEN_BALL` request may spot now, ascending
        (the first when the player designates none). Default GW-5 / SP-6.7.7: the balls
        nearest the head string, several when equally near (`kitchen_spot_choices`)."""
        return kitchen_spot_choices(state, self.table(state))

    def option_balls(self, state: GameState) -> tuple:
        """In :attr:`Phase.OPTION`: the balls the offered option lets the player designate
        (``ChooseOption(option, ball=k)``, :meth:`apply_ball_option`), ascending; empty when
        the options name no ball (default)."""
        return ()

    def apply_ball_option(self, state: GameState, option: Option, ball: int):  # pragma: no cover - per discipline
        """Apply ``option`` naming ``ball`` (one of :meth:`option_balls`)."""
        raise IllegalActionError(f"option {option.value} names no ball (ball must be None)")

    def shot_spec(self, state: GameState) -> dict:
        """ActionSpec fields describing the shot now (override per discipline)."""
        return {"target_balls": state.balls_on_table()}

    def spec_key(self, state: GameState):
        """A hashable key that determines `legal_actions` of ``state`` completely (states
        with equal keys and the same config object have equal ActionSpecs), or None when the
        discipline gives none (default: the spec is always computed). Lets `legal_actions`
        reuse the immutable ActionSpec of an earlier state (the envs ask after every shot)."""
        return None

    #: where `spec_key` puts the seat to act when the rest of its key fixes the spec up to the
    #: spec's own ``seat`` field (the spec of another seat in the same position is that spec
    #: with its seat changed; `legal_actions` then derives it instead of computing it); None
    #: when the discipline makes no such promise
    spec_key_seat: Optional[int] = None

    def legal_actions(self, state: GameState) -> ActionSpec:
        """What the seat to act may do now (memoised per `spec_key` when the discipline
        gives one; with `spec_key_seat`, a spec seen for another seat in the same position
        is reused with the seat changed)."""
        key = self.spec_key(state)
        if key is None:
            return self._legal_actions(state)
        cache = self.__dict__.get("_spec_cache")
        if cache is None:
            cache = self.__dict__["_spec_cache"] = {}
        hit = cache.get(key)
        if hit is not None and hit[0] is state.config:
            return hit[1]
        j = self.spec_key_seat
        if j is None:
            spec = self._legal_actions(state)
        else:
            seatless = self.__dict__.get("_seatless_spec_cache")
            if seatless is None:
                seatless = self.__dict__["_seatless_spec_cache"] = {}
            skey = key[:j] + key[j + 1:]
            got = seatless.get(skey)
            if got is not None and got[0] is state.config:
                spec = _with_seat(got[1], state.seat_to_act)
            else:
                spec = self._legal_actions(state)
                if len(seatless) > SPEC_CACHE_SIZE:
                    seatless.clear()
                seatless[skey] = (state.config, spec)
        if len(cache) > SPEC_CACHE_SIZE:
            cache.clear()
        cache[key] = (state.config, spec)  # the config object is kept alive: its id stays unique
        return spec

    def _legal_actions(self, state: GameState) -> ActionSpec:
        ph = state.phase
        if ph is Phase.GAME_OVER:
            return ActionSpec(seat=state.seat_to_act, phase=ph)
        if ph is Phase.OPTION:
            return ActionSpec(seat=state.seat_to_act, phase=ph, options=tuple(state.options),
                              spot_choices=self.option_balls(state))
        if ph is Phase.LAG:
            return ActionSpec(seat=state.seat_to_act, phase=ph, can_shoot=True)
        if ph is Phase.DECLARE:
            return ActionSpec(seat=state.seat_to_act, phase=ph, declarations=self.declarations(state))
        in_hand = state.cue_ball is not CueBallPlacement.IN_POSITION
        must = self.must_place(state)
        fields = dict(self.shot_spec(state))
        bad = fields.keys() - _SPEC_FIELDS
        if bad:  # what ActionSpec(**fields) would reject
            raise TypeError(f"ActionSpec has no field(s) {sorted(bad)}")
        opts = self.extra_options(state)
        fields.update(seat=state.seat_to_act, phase=ph, can_shoot=not must,
                      place_cue=state.cue_ball if in_hand else None, must_place=must, options=opts)
        decl = self.declarations(state)
        if decl:
            fields["declarations"] = decl
        if Option.SPOT_NEAREST_KITCHEN_BALL in opts:
            fields["spot_choices"] = self.spot_choices(state)
        return _spec(fields)

    # ------------------------------------------------------------------ apply
    def apply(self, state: GameState, action, *, simulate: Optional[Callable] = None, **physics_kwargs):
        """Apply ``action``; returns (new state, Verdict or None for pure placements).

        ShotAction runs ``physics.simulate`` (or ``simulate(state, action)`` ->
        ShotRecord if given). In the lag (G-3.6) the first seat's stroke is kept and played
        together with the second seat's (`poolgym.rules.lag.simulate_lag_record`; a given
        ``simulate`` then returns a `poolgym.rules.lag.LagRecord`). Raises
        :class:`IllegalActionError` for illegal actions (``ValueError`` for a malformed
        ``state``, `check_state`).
        """
        self.check_state(state)
        self._check_acting(state)
        if isinstance(action, ShotAction):
            self._check_shot(state, action)
            if state.phase is Phase.LAG:
                if not state.lag_strokes:
                    return self._lag_first(state, action)
                if simulate is not None:
                    return self._lag_shot(state, action, simulate(state, action))
                return self._lag_shot(state, action, self._simulate_lag(state, action, **physics_kwargs))
            rec = self._simulate(state, action, simulate, **physics_kwargs)
            return self._adjudicate(state, action, rec)
        if isinstance(action, PlaceCueBall):
            return self._place(state, action), None
        if isinstance(action, ChooseOption):
            return self._option(state, action)
        if isinstance(action, Concede):
            return self._concede(state)
        if isinstance(action, Declare):
            return self._declare(state, action)
        raise IllegalActionError(f"unknown action type {type(action).__name__}")

    def _declare(self, state: GameState, action: Declare):
        d = action.declaration
        if not isinstance(d, Declaration):
            raise IllegalActionError(f"Declare.declaration must be a Declaration, got {d!r}")
        offered = self.declarations(state)
        if d not in offered:
            raise IllegalActionError(f"declaration {d.value} is not open now (open: {[x.value for x in offered]})")
        return self.apply_declaration(state, d)

    def apply_shot_record(self, state: GameState, action: ShotAction, rec):
        """Adjudicate ``action`` whose physics outcome is ``rec`` (hand-built or batched).
        In the lag: None for the first seat's stroke (it is played with the second one's),
        then the `poolgym.rules.lag.LagRecord` of both strokes. A malformed ``state`` raises
        ``ValueError`` (`check_state`)."""
        self.check_state(state)
        self._check_acting(state)
        if not isinstance(action, ShotAction):
            raise IllegalActionError("apply_shot_record needs a ShotAction")
        self._check_shot(state, action)
        if state.phase is Phase.LAG:
            if not state.lag_strokes:
                return self._lag_first(state, action)
            return self._lag_shot(state, action, rec)
        return self._adjudicate(state, action, rec)

    def shot_inputs(self, state: GameState, action: ShotAction, *, build: bool = True):
        """Validated physics inputs (rvw, s, shot row (5,)) for batched simulation.

        ``build=False``: validate only and return (None, None, row) when the inputs are the
        state's own balls (`physics_inputs(state)`, which a batched caller builds for all its
        tables at once with `batch_physics_inputs`). The lag's inputs are always built: on
        the second stroke (`lag_pending`) the two lag balls (2, 3, 3), their states (2,) and
        both strokes (2, 5), for `physics.lag.simulate_lag`; the first stroke needs no
        physics (apply it)."""
        self._check_acting(state)
        self._check_shot(state, action)
        row = stroke_row(action, state.config)
        if state.phase is _LAG:
            if not state.lag_strokes:
                raise IllegalActionError("the first lag stroke is played together with the second: apply it")
            return self._lag_inputs(state) + (np.array([state.lag_strokes[0], row], np.float64),)
        if not build:
            return None, None, row
        rvw, s = physics_inputs(state)
        return rvw, s, row

    def adjudicate_validated(self, state: GameState, action: ShotAction, rec: ShotRecord):
        """`apply_shot_record` for a shot that `shot_inputs` already validated on this very
        ``state`` (the envs' hot path: the checks are not repeated)."""
        if state.phase is Phase.LAG:
            return self._lag_shot(state, action, rec)
        return self._adjudicate(state, action, rec)

    def adjudicate_batch(self, states, actions, recs) -> list:
        """`adjudicate_validated` of B shots, each validated by `shot_inputs` on its state and
        simulated in one batch (``recs``, one `ShotRecord` per table): [(state, Verdict)] in
        table order. Default: table by table; a discipline may decide its common cases for
        the whole batch in one compiled call (the vector envs resolve their tables here)."""
        return [self.adjudicate_validated(st, a, rec) for st, a, rec in zip(states, actions, recs)]

    def compile_batch(self) -> None:
        """Compile (or load from numba's cache) the kernels `adjudicate_batch` calls, without
        running them (a cold start compiles them ahead of the first batch, `poolgym.envs.prewarm`).
        Default: none."""

    def _batch_facts(self, states, recs):
        """The `shot_facts.BatchFacts` that every record of ``recs`` reads (table k its row k),
        for a batched referee's compiled call; None when the batch cannot be read there: records
        not from one `BatchFacts` in table order, another ball count or table, states of mixed
        configs, a double-hit gap (R-2.20 reads the record)."""
        if not recs:
            return None
        r0 = recs[0]
        pre = r0.facts if type(r0) is _BatchRecord else None
        if pre is None:
            return None
        bf = pre[0]
        if len(bf) != len(recs) or bf.pocketed.shape[1] != self.n_balls:
            return None
        for k, r in enumerate(recs):
            if type(r) is not _BatchRecord or r.facts is None or r.facts[0] is not bf or r.facts[1] != k:
                return None
        cfg = states[0].config
        if cfg.double_hit_gap > 0 or bf.table is not self.table(states[0]) or \
                any(st.config is not cfg for st in states):
            return None
        return bf

    @staticmethod
    def _batch_rest(bf, k: int, state: GameState, rec) -> tuple:
        """(pos, on_table) after table k's shot, as `general.after_shot` gives them, from the
        batch's facts ``bf``."""
        pos, on, gap = bf.rest(k, ball_radius())
        if gap < 1e-9:
            return general.after_shot(state, rec)  # rounding overlaps separated
        return pos, on

    def _batch_rests(self, bf, states, recs) -> tuple:
        """`_batch_rest` of every table of the batch: (pos list, on_table list) in table order
        (the batch's facts read once)."""
        if type(self)._batch_rest is not DisciplineBase._batch_rest:
            got = [self._batch_rest(bf, k, st, rec) for k, (st, rec) in enumerate(zip(states, recs))]
            return [g[0] for g in got], [g[1] for g in got]
        P, O, G = bf.rests(ball_radius())
        if min(G[:len(states)], default=1.0) >= 1e-9:
            return P, O
        P, O = list(P), list(O)
        for k, g in enumerate(G[:len(states)]):
            if g < 1e-9:
                P[k], O[k] = general.after_shot(states[k], recs[k])  # rounding overlaps separated
        return P, O

    def _batch_post(self, old: GameState, new: GameState, verdict: Verdict, inning_ended: bool):
        """`_post` of a batched referee's fresh ``new`` state (not GAME_OVER; its
        ``stall_innings`` still ``old``'s): the GW-12 stand-in counter set in place, `_post`
        itself where the stalemate or the max_shots cap applies."""
        stall = 0 if verdict.pocketed else old.stall_innings + inning_ended
        cfg = old.config
        if (cfg.stalemate_innings and stall >= cfg.stalemate_innings) or \
                (cfg.max_shots and new.shot_number >= cfg.max_shots):
            return self._post(old, new, verdict)
        new.__dict__["stall_innings"] = stall
        return new, verdict

    @staticmethod
    def lag_pending(state: GameState) -> bool:
        """A lag stroke now is the second of the two simultaneous ones: it needs the physics
        (`shot_inputs`); the first is applied without it."""
        return state.phase is Phase.LAG and bool(state.lag_strokes)

    def placement_errors(self, states, actions, pos=None, on=None) -> list:
        """Why each ``actions[k]`` (a `PlaceCueBall`) is illegal on ``states[k]`` (None =
        legal): the placement tests of `_place` (G-3.16, G-3.22, 9B-5.10, on the bed) for B
        tables in ONE compiled call (`poolgym.rules.placement.placement_errors`); pair with
        `place_checked`. Every state must be of this discipline on one table. ``pos``
        (B, N, 2) and ``on`` (B, N): the states' balls as arrays, if the caller has them."""
        B = len(states)
        if B == 0:
            return []
        kitchen = CueBallPlacement.IN_HAND_KITCHEN
        if B <= SMALL_PLACEMENT_BATCH:  # `placement_error` table by table (the same codes)
            table, R = self.table(states[0]), ball_radius()
            return [placement_error(float(a.x), float(a.y), st.pos if pos is None else pos[k],
                                    st.on_table if on is None else on[k], table, R, kitchen=st.cue_ball is kitchen,
                                    may_touch=self.placement_may_touch(st))
                    for k, (st, a) in enumerate(zip(states, actions))]
        N = len(states[0].on_table)
        if pos is None:
            pos = np.array([st.pos for st in states], np.float64).reshape(B, N, 2)
        if on is None:
            on = np.array([st.on_table for st in states], np.bool_).reshape(B, N)
        xs = np.array([float(a.x) for a in actions], np.float64)
        ys = np.array([float(a.y) for a in actions], np.float64)
        kit = np.array([st.cue_ball is kitchen for st in states], np.bool_)
        mt = np.array([self.placement_may_touch(st) for st in states], np.bool_)
        return placement_errors(xs, ys, pos, on, self.table(states[0]), ball_radius(), kitchen=kit, may_touch=mt)

    def place_checked(self, state: GameState, action: PlaceCueBall) -> GameState:
        """`apply` of a `PlaceCueBall` whose placement `placement_errors` found legal on
        this ``state`` (acting-state checks are still made)."""
        self._check_acting(state)
        return self._place(state, action, checked=True)

    # ------------------------------------------------------------------ internals
    def _simulate(self, state, action, simulate, **kw) -> ShotRecord:
        if simulate is not None:
            return simulate(state, action)
        return simulate_record(state, action, **kw)

    def _adjudicate(self, state, action, rec):
        new, verdict = self.adjudicate(state, action, rec)
        return self._post(state, new, verdict)

    def _post(self, old: GameState, new: GameState, verdict: Verdict):
        """Shot counters, GW-12 stalemate stand-in and the max_shots cap."""
        cfg = new.config
        if new.phase is _GAME_OVER:
            return new, verdict
        inning_ended = not verdict.turn_continues
        stall = general.stall_update(new, bool(verdict.pocketed), inning_ended)
        if stall != new.stall_innings:
            if new is old:
                new = new._evolve({"stall_innings": stall})
            else:  # the referee's fresh state, not yet seen by anyone: set the field in place
                new.__dict__["stall_innings"] = stall
        if (cfg.stalemate_innings and stall >= cfg.stalemate_innings) or \
                (cfg.max_shots and new.shot_number >= cfg.max_shots):
            s2, v2 = self.on_stalemate(new)
            # The shot's own refs, then the discipline's stalemate refs (e.g. 8B-4.21, 8B-4.3
            # for eight-ball's re-rack), then GW-12 -- each once, in that order.
            refs = verdict.rule_refs + tuple(r for r in v2.rule_refs if r not in verdict.rule_refs)
            if "GW-12" not in refs:
                refs = refs + ("GW-12",)
            verdict = dataclasses.replace(verdict, game_over=v2.game_over, winner=v2.winner,
                                          next_seat=v2.next_seat, cue_ball=v2.cue_ball, options=v2.options,
                                          rule_refs=refs,
                                          turn_continues=verdict.turn_continues and not v2.game_over
                                          and v2.next_seat == old.seat_to_act)
            return s2, verdict
        return new, verdict

    def on_stalemate(self, state: GameState):
        """GW-12: the game ends without a winner (disciplines may re-rack instead)."""
        s = state.replace(phase=Phase.GAME_OVER, winner=None, options=())
        return s, Verdict(next_seat=s.seat_to_act, game_over=True, winner=None, rule_refs=("GW-12",),
                          points=(0,) * state.n_players)

    def check_state(self, state) -> None:
        """Raise ``ValueError`` naming the first field of ``state`` that is not well formed
        for this discipline (`IllegalActionError`, a ``ValueError``, for another discipline's
        state): a `GameState` of this discipline and config class, ``on_table``
        a tuple of `n_balls` bools, ``pos`` a tuple of 2 `n_balls` numbers, finite for every
        ball on the table, ``scores`` and ``consecutive_fouls`` one entry per seat of the
        config, ``seat_to_act`` (and ``winner``, when set) a seat, ``phase``, ``cue_ball``
        and ``options`` of their enums, ``cue_placed`` a bool. The shape only, not the
        position's legality (`poolgym.rules.testing.check_invariants` checks the layout, and
        the physics checks it before a stroke): `apply` and `apply_shot_record` run it first,
        so a hand-made state (`poolgym.rules.testing.make_state`, `GameState.replace`) with a
        typo fails there with its field named, not deep inside the referee."""
        if not isinstance(state, GameState):
            raise ValueError(f"state must be a GameState, got {type(state).__name__}")
        if state.discipline != self.name:  # (as `_check_acting` says it)
            raise IllegalActionError(f"state is a {state.discipline!r} game, not {self.name!r}")
        cfg = state.config
        if not isinstance(cfg, self.config_cls):
            raise ValueError(f"state.config must be a {self.config_cls.__name__}, got {type(cfg).__name__}")
        N = self.n_balls
        on, pos = state.on_table, state.pos
        if type(on) is not tuple or len(on) != N or not _ONLY_BOOL.issuperset(map(type, on)):
            raise ValueError(f"state.on_table must be a tuple of {N} bools ({self.name}: the cue ball and "
                             f"{N - 1} object balls), got {on!r}")
        if type(pos) is not tuple or len(pos) != 2 * N:
            raise ValueError(f"state.pos must be a tuple of {2 * N} numbers (x0, y0, x1, y1, ...), got "
                             f"{type(pos).__name__} of length {len(pos) if hasattr(pos, '__len__') else '?'}")
        # fast path: plain floats with a finite sum are all finite
        fine = _ONLY_FLOAT.issuperset(map(type, pos)) and math.isfinite(sum(pos))
        for k in range(0 if not fine else N, N):
            if on[k]:
                for v in (pos[2 * k], pos[2 * k + 1]):
                    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.floating)) \
                            or not math.isfinite(v):
                        raise ValueError(f"state.pos of ball {k} (on the table) must be finite numbers, got "
                                         f"{pos[2 * k: 2 * k + 2]!r}")
        n = cfg.n_players
        for name in ("scores", "consecutive_fouls"):
            v = getattr(state, name)
            if type(v) is not tuple or len(v) != n:
                raise ValueError(f"state.{name} must be a tuple with one entry per seat ({n}), got {v!r}")
        seat = state.seat_to_act
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
            raise ValueError(f"state.seat_to_act must be a seat in [0, {n}), got {seat!r}")
        w = state.winner
        if w is not None and (isinstance(w, bool) or not isinstance(w, (int, np.integer)) or not 0 <= w < n):
            raise ValueError(f"state.winner must be None or a seat in [0, {n}), got {w!r}")
        if not isinstance(state.phase, Phase):
            raise ValueError(f"state.phase must be a Phase, got {state.phase!r}")
        if not isinstance(state.cue_ball, CueBallPlacement):
            raise ValueError(f"state.cue_ball must be a CueBallPlacement, got {state.cue_ball!r}")
        if type(state.cue_placed) is not bool:
            raise ValueError(f"state.cue_placed must be a bool, got {state.cue_placed!r}")
        if type(state.options) is not tuple or (state.options and not all(isinstance(o, Option)
                                                                           for o in state.options)):
            raise ValueError(f"state.options must be a tuple of Option, got {state.options!r}")

    def _check_acting(self, state: GameState) -> None:
        if state.discipline != self.name:
            raise IllegalActionError(f"state is a {state.discipline!r} game, not {self.name!r}")
        if state.phase is _GAME_OVER:
            raise IllegalActionError("the game is over; no action is legal")

    def _check_shot(self, state: GameState, action: ShotAction) -> None:
        if state.phase not in _SHOT_PHASES:
            raise IllegalActionError(f"a shot is not legal in phase {state.phase.value}")
        if self.must_place(state):
            raise IllegalActionError("the cue ball is in hand: place it (PlaceCueBall) before shooting")
        V0, phi, theta, a, b = vals = (action.V0, action.phi, action.theta, action.a, action.b)
        # fast path: five plain floats with a finite sum are all finite
        if not (type(V0) is float and type(phi) is float and type(theta) is float and type(a) is float
                and type(b) is float and math.isfinite(V0 + phi + theta + a + b)):
            for name, v in zip(("V0", "phi", "theta", "a", "b"), vals):
                if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.floating)) \
                        or not math.isfinite(v):
                    raise IllegalActionError(f"ShotAction.{name} must be a finite number, got {v!r}")
        if not (0.0 < action.V0 <= MAX_CUE_SPEED):
            raise IllegalActionError(f"ShotAction.V0 must be in (0, {MAX_CUE_SPEED:g}] m/s, got {action.V0!r}")
        if not (0.0 <= action.theta <= 90.0):
            raise IllegalActionError(f"ShotAction.theta must be in [0, 90] degrees, got {action.theta!r}")
        off2 = action.a * action.a + action.b * action.b
        if off2 > 1.0:
            raise IllegalActionError(f"ShotAction tip offset sqrt(a^2+b^2) must be <= 1 (fraction of R; beyond "
                                     f"it the tip misses the cue ball), got {math.sqrt(off2):.6g}")
        lim = state.config.miscue_limit
        if off2 > lim * lim and not action.theta > 0.0:
            raise IllegalActionError(f"a level stroke (theta = 0) must have a tip offset sqrt(a^2+b^2) <= "
                                     f"miscue_limit {lim}: only a miscue on a jump is a foul (G-3.27, C-55)")
        sf, pf = action.safety, action.push_out
        if not ((sf is False or sf is True) and (pf is False or pf is True)):
            for name, f in (("safety", sf), ("push_out", pf)):
                if f is not False and f is not True and type(f) is not np.bool_:
                    raise IllegalActionError(f"ShotAction.{name} must be a bool, got {f!r}")
        if state.phase is _LAG:
            if action.called_ball is not None or action.safety or action.push_out:
                raise IllegalActionError("a lag shot carries no declaration")
            return
        if action.called_ball is not None:
            cb = action.called_ball
            if isinstance(cb, bool) or not isinstance(cb, (int, np.integer)) or not (1 <= cb < state.n_balls):
                raise IllegalActionError(f"called_ball {cb!r} is not an object ball of this game")
            if not state.on_table[cb]:
                raise IllegalActionError(f"called_ball {cb} is not on the table")
        if action.called_pocket is not None:
            cp = action.called_pocket
            if isinstance(cp, bool) or not isinstance(cp, (int, np.integer)) or not (0 <= cp < 6):
                raise IllegalActionError(f"called_pocket must be a pocket index 0..5, got {action.called_pocket!r}")
        self.validate_shot(state, action)

    def validate_shot(self, state: GameState, action: ShotAction) -> None:
        """Discipline checks of the declaration (override). Default: no push-outs,
        no calls required."""
        if action.push_out:
            raise IllegalActionError("push-out is not available now")

    def _place(self, state: GameState, action: PlaceCueBall, checked: bool = False) -> GameState:
        if state.phase not in (Phase.BREAK, Phase.PLAY) or state.cue_ball is CueBallPlacement.IN_POSITION:
            raise IllegalActionError("the cue ball is not in hand")
        x, y = action.x, action.y
        if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, (int, float, np.floating)) \
                or not isinstance(y, (int, float, np.floating)):
            raise IllegalActionError(f"PlaceCueBall.x and .y must be numbers, got {x!r}, {y!r}")
        if not checked:
            table = self.table(state)
            # placement.placement_error (G-3.22, 9B-5.10, G-3.16)
            err = placement_error(float(x), float(y), state.positions(), state.on_mask(), table,
                                  ball_radius(), kitchen=state.cue_ball is CueBallPlacement.IN_HAND_KITCHEN,
                                  may_touch=self.placement_may_touch(state))
            if err is not None:
                raise IllegalActionError(f"illegal cue-ball placement: {err}")
        return state.with_cue_at(float(x), float(y))

    def _option(self, state: GameState, action: ChooseOption):
        opt = action.option
        if not isinstance(opt, Option):
            raise IllegalActionError(f"ChooseOption.option must be an Option, got {opt!r}")
        if state.phase is _OPTION:
            if opt not in state.options:
                raise IllegalActionError(f"option {opt.value} is not offered (offered: "
                                         f"{[o.value for o in state.options]})")
            choices = self.option_balls(state)
            if choices:
                ball = choices[0] if action.ball is None else action.ball
                if isinstance(ball, bool) or not isinstance(ball, (int, np.integer)) or ball not in choices:
                    raise IllegalActionError(f"option {opt.value}: ball {ball!r} is not one of {list(choices)}")
                return self.apply_ball_option(state, opt, int(ball))
            if action.ball is not None:
                raise IllegalActionError(f"option {opt.value} names no ball (ball must be None)")
            if opt in _LAG_OPTIONS and state.lag_results:
                return self._lag_choice(state, opt)
            return self.apply_option(state, opt)
        if opt in self.extra_options(state):
            if opt is Option.SPOT_NEAREST_KITCHEN_BALL:
                choices = self.spot_choices(state)
                ball = choices[0] if action.ball is None else action.ball
                if ball not in choices or not isinstance(ball, (int, np.integer)) or isinstance(ball, bool):
                    raise IllegalActionError(f"ball {ball!r} may not be spotted: the balls nearest the head "
                                             f"string are {list(choices)} (GW-5, SP-6.7.7)")
                return self._kitchen_spot(state, int(ball))
            if action.ball is not None:
                raise IllegalActionError(f"option {opt.value} names no ball (ball must be None)")
        raise IllegalActionError(f"option {opt.value} is not offered now")

    def _concede(self, state: GameState):
        """GW-11 / T-1.14: the seat to act concedes; the next seat wins (two players). With
        more seats the conceding seat (its whole team, where the game has teams) leaves the
        game; when one seat or team is left it wins, else the next seat in order plays."""
        if state.n_players > 2:
            return self._concede_seat(state)
        w = general.next_seat(state)
        s = state.replace(phase=Phase.GAME_OVER, winner=w, options=())
        return s, Verdict(next_seat=w, game_over=True, winner=w, points=(0,) * s.n_players,
                          rule_refs=("GW-11",))

    def _concede_seat(self, state: GameState):
        seat = state.seat_to_act
        gone = teammates(state, seat)
        act = [(s not in gone) and (not state.active or state.active[s]) for s in range(state.n_players)]
        events = tuple(SeatEvent(EventType.DISQUALIFIED, s) for s in gone)
        s1 = state.replace(active=tuple(act), history=state.history + events)
        left = active_seats(s1)
        zeros = (0,) * s1.n_players
        if len({team_of(s1, s) for s in left}) <= 1:
            w = left[0] if left else None
            s2 = s1.replace(phase=Phase.GAME_OVER, winner=w, options=(), pending=())
            return s2, Verdict(next_seat=seat if w is None else w, game_over=True, winner=w, points=zeros,
                               rule_refs=("GW-11",), events=events)
        nxt = next_in_order(s1, seat)
        ph = Phase.PLAY if state.phase in (Phase.OPTION, Phase.DECLARE) else state.phase
        s2 = s1.replace(seat_to_act=nxt, phase=ph, options=(), pending=(), inning=state.inning + 1)
        return s2, Verdict(next_seat=nxt, cue_ball=s2.cue_ball, points=zeros, rule_refs=("GW-11",), events=events)

    def apply_option(self, state: GameState, option: Option):  # pragma: no cover - per discipline
        raise IllegalActionError(f"option {option.value} is not handled by {self.name}")

    def _kitchen_spot(self, state: GameState, b: int):
        """GW-5: spot object ball ``b``, one of the balls nearest the head string (the
        player's choice among equally distant ones, `kitchen_spot_choices`), on the foot spot."""
        on = list(state.on_table)
        on[b] = False
        s = state.replace(on_table=tuple(on))
        s = general.spot(s, (b,), self.table(state), ball_radius())
        v = Verdict(next_seat=s.seat_to_act, cue_ball=s.cue_ball, spotted=(b,), rule_refs=("GW-5",),
                    points=(0,) * s.n_players, turn_continues=True)
        return s, v

    # ------------------------------------------------------------------ lag (G-3.6)
    def _lag_inputs(self, state: GameState):
        """(rvw (2, 3, 3), s (2,)): the two lag balls at rest at their G-3.6 start positions."""
        R = ball_radius()
        table = self.table(state)
        xy = np.array([lag.lag_start_position(0, table, R), lag.lag_start_position(1, table, R)])
        return make_rvw(xy, R), np.full(2, _STILL, np.int8)

    def _simulate_lag(self, state: GameState, action: ShotAction, **physics_kwargs):
        physics_kwargs.pop("grow_log", None)  # simulate_lag always keeps the whole log
        strokes = np.array([state.lag_strokes[0], stroke_row(action, state.config)], np.float64)
        return lag.simulate_lag_record(self.table(state), strokes, ball_radius(), **physics_kwargs)

    def _lag_first(self, state: GameState, action: ShotAction):
        """G-3.6: seat 0 strokes; its stroke waits for seat 1's (they shoot simultaneously)."""
        row = tuple(float(v) for v in stroke_row(action, state.config))
        s = state.replace(lag_strokes=(row,), seat_to_act=1)
        return s, Verdict(next_seat=1, cue_ball=CueBallPlacement.IN_HAND_KITCHEN, points=(0,) * state.n_players,
                          rule_refs=("G-3.6",))

    def _lag_shot(self, state: GameState, action: ShotAction, lrec):
        """G-3.6 / GB-5 / GW-2: both lag balls judged (`poolgym.rules.lag.lag_ball`); the lag
        is replayed when both lost or they are equally near the head rail, else the winner
        chooses (G-3.7). ``lrec``: the `poolgym.rules.lag.LagRecord` of both strokes (a bare
        two-ball ShotRecord is taken as one without path extents)."""
        if isinstance(lrec, ShotRecord):
            lrec = lag.LagRecord(lrec)
        if not isinstance(lrec, lag.LagRecord) or lrec.rec.n_balls != 2:
            raise IllegalActionError("a lag is adjudicated from the LagRecord of both lag balls")
        R = ball_radius()
        table = self.table(state)
        cfg = state.config
        acts = (lag.lag_action(state.lag_strokes[0]), action)
        balls = tuple(lag.lag_ball(lrec.rec, table, R, seat, ball=seat,
                                   x_range=None if lrec.x_min is None else (lrec.x_min[seat], lrec.x_max[seat]),
                                   stroke_fouls=general.stroke_fouls(acts[seat], cfg)) for seat in (0, 1))
        results = tuple(b.result for b in balls)
        zeros = (0,) * state.n_players
        w = lag.lag_winner(results)
        if w is None:  # tie or both bad: replay
            s = state.replace(lag_results=(), lag_strokes=(), seat_to_act=0)
            return s, Verdict(next_seat=0, cue_ball=CueBallPlacement.IN_HAND_KITCHEN, points=zeros,
                              rule_refs=("G-3.6",))
        opts = (Option.BREAK, Option.CEDE_BREAK)
        s = state.replace(lag_results=results, lag_strokes=(), seat_to_act=w, phase=Phase.OPTION, options=opts)
        return s, Verdict(next_seat=w, cue_ball=CueBallPlacement.IN_HAND_KITCHEN, options=opts, points=zeros,
                          winner=None, rule_refs=("G-3.6", "G-3.7"))

    def _lag_choice(self, state: GameState, opt: Option):
        """G-3.7: the lag winner breaks or gives the break to the opponent."""
        b = state.seat_to_act if opt is Option.BREAK else general.next_seat(state)
        s = state.replace(phase=Phase.BREAK, seat_to_act=b, breaker=b, options=(), lag_results=(),
                          cue_ball=CueBallPlacement.IN_HAND_KITCHEN, cue_placed=False)
        return s, Verdict(next_seat=b, cue_ball=CueBallPlacement.IN_HAND_KITCHEN, points=(0,) * s.n_players,
                          rule_refs=("G-3.7",))

    # ------------------------------------------------------------------ match
    def next_game(self, state: GameState, seed: Optional[int] = None) -> GameState:
        """The next game of a match after ``state`` ended: games_won updated, breaker by
        ``config.break_order`` (G-3.36), RNG continued from the state."""
        if state.phase is not Phase.GAME_OVER:
            raise IllegalActionError("next_game: the game is not over")
        gw = list(state.games_won)
        if state.winner is not None:
            gw[state.winner] += 1
        b = general.next_breaker(state.config.break_order, state.breaker, state.winner, gw, state.n_players)
        sd, ctr = state.rng
        return self.initial_state(state.config, sd if seed is None else seed, breaker=b, games_won=tuple(gw),
                                  game_number=state.game_number + 1, rng_counter=ctr, lag=False)


# ----------------------------------------------------------------------------- registry
from .core import DISCIPLINE_PATHS as _PATHS  # noqa: E402


class _Registry(Mapping):
    """name -> Discipline instance, imported lazily (no import-time side effects)."""

    def __init__(self, paths):
        self._paths = dict(paths)
        self._cache = {}

    def __getitem__(self, name):
        if name not in self._paths:
            raise KeyError(f"unknown discipline {name!r}; known: {sorted(self._paths)}")
        if name not in self._cache:
            mod, cls = self._paths[name].split(":")
            self._cache[name] = getattr(importlib.import_module(mod), cls)()
        return self._cache[name]

    def __iter__(self):
        return iter(self._paths)

    def __len__(self):
        return len(self._paths)


DISCIPLINES = _Registry(_PATHS)


def get_discipline(name: str) -> DisciplineBase:
    """The discipline object registered as ``name``."""
    return DISCIPLINES[name]


def _discipline_of(state) -> DisciplineBase:
    """The discipline of ``state`` (``ValueError`` for what is not a `GameState`)."""
    if not isinstance(state, GameState):
        raise ValueError(f"state must be a GameState, got {type(state).__name__}")
    return get_discipline(state.discipline)


def legal_actions(state: GameState) -> ActionSpec:
    """What the seat to act may do in ``state`` (its `ActionSpec`); a malformed state raises
    ``ValueError`` naming its field (`DisciplineBase.check_state`)."""
    d = _discipline_of(state)
    d.check_state(state)
    return d.legal_actions(state)


def apply(state: GameState, action, **kw):
    """`DisciplineBase.apply` of ``state``'s discipline."""
    return _discipline_of(state).apply(state, action, **kw)


def apply_shot_record(state: GameState, action: ShotAction, rec: ShotRecord):
    """`DisciplineBase.apply_shot_record` of ``state``'s discipline."""
    return _discipline_of(state).apply_shot_record(state, action, rec)


def batch_inputs(states, actions):
    """Validated physics inputs for a batch of tables (same discipline / ball count):
    (rvw (B,N,3,3), s (B,N) int8, shots (B,5), cue_ball (B,) int64) for
    ``physics.simulate_batch``. Raises IllegalActionError naming the table on a bad action."""
    rvws, ss, rows = [], [], []
    for k, (st, a) in enumerate(zip(states, actions)):
        try:
            rvw, s_, row = get_discipline(st.discipline).shot_inputs(st, a)
        except IllegalActionError as e:
            raise IllegalActionError(f"table {k}: {e}") from None
        rvws.append(rvw)
        ss.append(s_)
        rows.append(row)
    return np.stack(rvws), np.stack(ss), np.stack(rows), np.zeros(len(rows), np.int64)


def apply_batch(states, actions, batch) -> list:
    """Adjudicate every table of a ``physics.BatchResult`` (from :func:`batch_inputs`):
    list of (state, Verdict) in table order."""
    recs = ShotRecord.from_batch_all(batch)
    return [get_discipline(st.discipline).apply_shot_record(st, a, rec)
            for st, a, rec in zip(states, actions, recs)]


def observe(state: GameState, seat: int):
    """What ``seat`` may know of ``state`` (:class:`poolgym.rules.seats.SeatView`), as the
    discipline shows it (API.md "Seats")."""
    return get_discipline(state.discipline).observe(state, seat)


def returns(state: GameState) -> tuple:
    """Per-seat result of ``state`` (zeros while the game runs; API.md "Seats")."""
    return get_discipline(state.discipline).returns(state)


def new_game(name: str, config: Optional[RulesConfig] = None, seed: int = 0, **kw) -> GameState:
    return get_discipline(name).initial_state(config, seed, **kw)


def next_game(state: GameState, seed: Optional[int] = None) -> GameState:
    return get_discipline(state.discipline).next_game(state, seed)
