"""Hand-built shot records for tests (no physics needed).

:func:`record` describes a shot by its rule-relevant facts and builds a
:class:`ShotRecord` with a consistent event log::

    rec = record(state, hit=1, obj_rails=(1, 2), pocketed={3: 5})

Event times: STRIKE 0; cue-ball kick cushions 0.05; first contact 0.1 (further cue
contacts 0.1 + split); object-ball contacts (combinations) 0.15; object-ball cushions
0.2..; cue-ball cushions after contact 0.3; pockets 0.5..
"""
from __future__ import annotations

from typing import Iterable, Mapping, Optional, Sequence

import numpy as np

from .core import GameState
from .geometry import Rail, get_table, segment_for_rail
from .separation import _layout_problem
from .shot_record import EventKind, ShotRecord

__all__ = ["record", "seg", "make_state"]


def seg(table, rail: Rail, near_y: Optional[float] = None) -> int:
    """Cushion segment index on ``rail`` (see geometry.segment_for_rail)."""
    return segment_for_rail(table, rail, near_y)


def record(
    state: GameState,
    *,
    hit: Optional[int | Sequence[int]] = None,
    split: float = 0.0,
    kick_rails: Iterable[Rail] = (),
    obj_contacts: Iterable[tuple] = (),
    obj_rails: Iterable[int] = (),
    obj_rail: Rail = Rail.FOOT,
    cue_rail: Optional[Rail] = None,
    pocketed: Optional[Mapping[int, int]] = None,
    scratch: Optional[int] = None,
    off_table: Iterable[int] = (),
    moves: Optional[Mapping[int, tuple]] = None,
    cue_pos: Optional[tuple] = None,
    extra_events: Iterable[tuple] = (),
) -> ShotRecord:
    """Shot record from ``state`` (positions / on-table mask before the shot).

    hit: first object ball (or a sequence: contacts of the cue ball in order, ``split``
        seconds apart). kick_rails: cue-ball cushions before the first contact.
    obj_contacts: (a, b) object-ball contacts after the first contact (combinations).
    obj_rails: object balls driven to a cushion on ``obj_rail`` after the contact.
    cue_rail: the cue ball hits this rail after the contact. pocketed: {ball: pocket}.
    scratch: pocket index of the cue ball. off_table: balls jumped off the table.
    moves: {ball: (x, y)} final positions. cue_pos: cue-ball start (default state pos).
    """
    table = get_table(state.config.table)
    pos0 = state.positions()
    on0 = state.on_mask().copy()
    if cue_pos is not None:
        pos0[0] = cue_pos
        on0[0] = True
    on0[0] = True
    ev = [(0.0, int(EventKind.STRIKE), 0, -1)]
    t = 0.05
    for r in kick_rails:
        ev.append((t, int(EventKind.BALL_CUSHION), 0, seg(table, r)))
        t += 0.001
    hits = () if hit is None else ((hit,) if isinstance(hit, (int, np.integer)) else tuple(hit))
    for k, b in enumerate(hits):
        ev.append((0.1 + k * split + 1e-4 * k * (split == 0), int(EventKind.BALL_BALL), 0, int(b)))
    for k, (a, b) in enumerate(obj_contacts):
        ev.append((0.15 + 1e-3 * k, int(EventKind.BALL_BALL), int(a), int(b)))
    for k, b in enumerate(obj_rails):
        ev.append((0.2 + 1e-3 * k, int(EventKind.BALL_CUSHION), int(b), seg(table, obj_rail)))
    if cue_rail is not None:
        ev.append((0.3, int(EventKind.BALL_CUSHION), 0, seg(table, cue_rail)))
    pk = dict(pocketed or {})
    if scratch is not None:
        pk[0] = int(scratch)
    for k, (b, p) in enumerate(sorted(pk.items())):
        ev.append((0.5 + 1e-3 * k, int(EventKind.POCKET), int(b), int(p)))
    ev.extend(tuple(e) for e in extra_events)
    mv = dict(moves or {})
    for b, p in pk.items():
        mv.setdefault(b, tuple(np.asarray(table.pockets)[p, :2]))
    return ShotRecord.build(pos0, ev, on0=on0, pos1=mv, pocketed=pk, off_table=off_table)


def make_state(
    discipline: str,
    balls: Mapping[int, tuple],
    cue: Optional[tuple] = None,
    *,
    config=None,
    phase=None,
    cue_ball=None,
    seat: int = 0,
    seed: int = 0,
    **changes,
) -> GameState:
    """A position of ``discipline``: only ``balls`` ({ball: (x, y)}) on the table, the cue
    ball at ``cue`` (in position) or in hand (``cue`` None). Other fields via ``changes``.
    The result is checked (`DisciplineBase.check_state`: ``ValueError`` naming a malformed
    field, e.g. a ball number or seat out of range)."""
    from .core import CueBallPlacement, Phase
    from .game import get_discipline

    d = get_discipline(discipline)
    s = d.initial_state(config, seed)
    pos = s.positions()
    on = np.zeros(s.n_balls, bool)
    for b, xy in balls.items():
        if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or not 0 < b < s.n_balls:
            raise ValueError(f"balls: {b!r} is not an object ball of {discipline} (1..{s.n_balls - 1})")
        pos[int(b)] = xy
        on[int(b)] = True
    if cue is not None:
        pos[0] = cue
        on[0] = True
    kw = dict(pos=tuple(pos.reshape(-1).tolist()), on_table=tuple(bool(v) for v in on),
              phase=Phase.PLAY if phase is None else phase, seat_to_act=seat,
              cue_ball=(CueBallPlacement.IN_POSITION if cue is not None else CueBallPlacement.IN_HAND_ANYWHERE)
              if cue_ball is None else cue_ball,
              cue_placed=cue is not None and cue_ball is not None and cue_ball is not CueBallPlacement.IN_POSITION,
              shot_number=0 if phase is not None and phase.value == "break" else 1)
    kw.update(changes)
    out = s.replace(**kw)
    d.check_state(out)
    return out


# ----------------------------------------------------------------------------- random play
def random_placement(state: GameState, rng: np.random.Generator, tries: int = 200):
    """A legal PlaceCueBall for the cue ball in hand (rejection sampling)."""
    from .core import CueBallPlacement, PlaceCueBall
    from .game import get_discipline
    from .geometry import ball_radius, placement_error

    d = get_discipline(state.discipline)
    table = get_table(state.config.table)
    R = ball_radius()
    kitchen = state.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    ymax = float(table.head_string_y) - 1e-6 if kitchen else float(table.l) - R
    P, on = state.positions(), state.on_mask()
    for _ in range(tries):
        x = float(rng.uniform(R, float(table.w) - R))
        y = float(rng.uniform(R, ymax))
        if placement_error(x, y, P, on, table, R, kitchen=kitchen, may_touch=d.placement_may_touch(state)) is None:
            return PlaceCueBall(x, y)
    raise RuntimeError("no legal cue-ball placement found")


def random_action(state: GameState, rng: np.random.Generator, *, aim: float = 0.7):
    """A random legal action: an offered option, a placement, or a shot (with probability
    ``aim`` aimed at a legal target ball, else a random direction; random speed/spin;
    random legal declarations)."""
    from .core import ChooseOption, ShotAction
    from .game import get_discipline

    d = get_discipline(state.discipline)
    spec = d.legal_actions(state)
    if spec.declarations and (spec.phase.value == "declare" or rng.random() < 0.5):
        from .core import Declare
        return Declare(spec.declarations[int(rng.integers(len(spec.declarations)))])
    if spec.options and (not spec.can_shoot and not spec.must_place or rng.random() < 0.2):
        return ChooseOption(spec.options[int(rng.integers(len(spec.options)))])
    if spec.must_place:
        return random_placement(state, rng)
    P = state.positions()
    targets = spec.target_balls or state.balls_on_table()
    if targets and rng.random() < aim:
        b = targets[int(rng.integers(len(targets)))]
        dx, dy = P[b] - P[0]
        phi = float(np.degrees(np.arctan2(dy, dx)) + rng.normal(0.0, 3.0)) % 360.0
    else:
        phi = float(rng.uniform(0.0, 360.0))
    V0 = float(rng.uniform(0.5, 7.0 if state.phase.value == "break" else 4.5))
    a, b_ = (float(v) for v in rng.uniform(-0.3, 0.3, 2))
    called = pocket = None
    if spec.callable_balls and (spec.call_required or rng.random() < 0.5):
        called = int(spec.callable_balls[int(rng.integers(len(spec.callable_balls)))])
        pocket = int(rng.integers(6))
    elif spec.call_required:  # a pocket-only call (CW-6.6: the cue ball's pocket at 100)
        pocket = int(rng.integers(6))
    safety = bool(spec.safety_allowed and rng.random() < 0.1)
    if safety and called is not None:
        # disciplines where a safety replaces the call (8B-4.12) reject a call with it
        from .core import IllegalActionError
        try:
            d.validate_shot(state, ShotAction(V0=1.0, phi=0.0, called_ball=called, called_pocket=pocket,
                                              safety=True))
        except IllegalActionError:
            called = pocket = None
    push = bool(spec.push_out_allowed and rng.random() < 0.3)
    return ShotAction(V0=V0, phi=phi, a=a, b=b_, called_ball=called, called_pocket=pocket, safety=safety,
                      push_out=push)


def check_invariants(state: GameState) -> None:
    """Assert the state invariants (random-play tests): one seat to act; balls on the
    table lie on the bed without overlap, as the physics' layout check reads them (its
    tolerance, 1e-9 m: the layout is a valid input for the next stroke); the cue ball is on
    the table iff in position or placed; JSON round trip."""
    from .core import CueBallPlacement, Phase
    from .game import get_discipline
    from .geometry import ball_radius

    d = get_discipline(state.discipline)
    d.check_state(state)
    assert 0 <= state.seat_to_act < state.n_players
    spec = d.legal_actions(state)
    assert spec.seat == state.seat_to_act
    if state.phase is Phase.GAME_OVER:
        assert not spec.can_shoot and not spec.options
    else:
        assert spec.has_action, "no legal action in a running game"
    assert len(state.on_table) == d.n_balls and len(state.pos) == 2 * d.n_balls
    P, on = state.positions(), state.on_mask()
    R = ball_radius()
    idx = np.flatnonzero(on)
    if len(idx) > 1:
        Q = P[idx]
        dd = np.hypot(Q[:, None, 0] - Q[None, :, 0], Q[:, None, 1] - Q[None, :, 1])
        dd[np.arange(len(idx)), np.arange(len(idx))] = np.inf
        assert dd.min() >= 2 * R - 1e-7, f"balls overlap: {dd.min()}"
    # the physics' own layout check (tolerance 1e-9 m): the next stroke must be playable
    code = _layout_problem(P, on, R, d.table(state))
    assert code == 0, ("a ball on the table is off the bed (inside a cushion, a jaw or a pocket)" if code == 1
                       else "two balls overlap by more than the physics' 1e-9 m")
    if state.phase in (Phase.BREAK, Phase.PLAY):
        cue_on = state.cue_ball is CueBallPlacement.IN_POSITION or state.cue_placed
        assert bool(on[0]) == cue_on, "cue ball on-table flag inconsistent with its placement"
    assert GameState.from_json(state.to_json()) == state


def ruled_both_ways(batched, disc, states, actions, recs) -> list:
    """``batched(disc, states, actions, recs)``'s rulings of a batch of shots (an
    `adjudicate_batch` implementation), asserted equal to `adjudicate_validated`'s table by
    table: states equal and as JSON, verdicts equal and as repr."""
    got = batched(disc, states, actions, recs)
    want = [disc.adjudicate_validated(st, a, rec) for st, a, rec in zip(states, actions, recs)]
    assert len(got) == len(want), "adjudicate_batch returned a different number of rulings"
    for k, ((s1, v1), (s2, v2)) in enumerate(zip(got, want)):
        assert s1 == s2 and s1.to_json() == s2.to_json(), f"batch != single: state of shot {k} ({type(disc).__name__})"
        assert v1 == v2 and repr(v1) == repr(v2), \
            f"batch != single: verdict of shot {k} ({type(disc).__name__}): {v1!r} != {v2!r}"
    return got


# ----------------------------------------------------------------------------- goldens
def play_game(discipline: str, config=None, seed: int = 0, agent_seed: int = 0, *, aim: float = 0.7,
              max_actions: int = 2000, record_log: bool = False, simulate=None, check: bool = False):
    """Play one random game with the real physics (or ``simulate``). Returns
    (final state, log) where log is a list of {"action", "record", "verdict"} dicts
    (JSON-able via serialize / record_to_obj) when ``record_log``."""
    from . import serialize
    from .core import Phase, ShotAction
    from .game import get_discipline, simulate_record
    from .lag import LagRecord, lag_record_to_obj
    from .shot_record import record_to_obj

    d = get_discipline(discipline)
    rng = np.random.default_rng(agent_seed)
    s = d.initial_state(config, seed)
    log = []
    for _ in range(max_actions):
        if s.phase is Phase.GAME_OVER:
            break
        a = random_action(s, rng, aim=aim)
        if isinstance(a, ShotAction):
            if simulate is not None:
                rec = simulate(s, a)
            elif s.phase is Phase.LAG:  # G-3.6: the first stroke waits, the second plays both
                rec = d._simulate_lag(s, a) if s.lag_strokes else None
            else:
                rec = simulate_record(s, a)
            s2, v = d.apply_shot_record(s, a, rec)
        else:
            rec = None
            s2, v = d.apply(s, a)
        if record_log:
            obj = None if rec is None else lag_record_to_obj(rec) if isinstance(rec, LagRecord) else record_to_obj(rec)
            log.append({"action": serialize.to_obj(a), "record": obj,
                        "verdict": serialize.to_obj(v)})
        s = s2
        if check:
            check_invariants(s)
    return s, log


def write_golden(path, discipline: str, config, seed: int, agent_seed: int, *, aim: float) -> tuple:
    """Play a golden game (:func:`play_game` with the real physics and ``record_log``) and
    write it to ``path`` (a pathlib.Path) as compact JSON: {discipline, config, seed, log,
    final_state}, the form the golden tests replay with :func:`replay_log`. Returns
    (final state, log)."""
    import json

    from . import serialize

    final, log = play_game(discipline, config, seed, agent_seed, aim=aim, record_log=True)
    doc = {"discipline": discipline, "config": serialize.to_obj(config), "seed": seed, "log": log,
           "final_state": serialize.to_obj(final)}
    path.write_text(json.dumps(doc, separators=(",", ":")))
    return final, log


def replay_log(discipline: str, config, seed: int, log) -> tuple:
    """Replay a logged game through ``apply`` / ``apply_shot_record``; returns
    (final state, list of verdict objs) for comparison with the log."""
    from . import serialize
    from .core import ShotAction
    from .game import get_discipline
    from .lag import lag_record_from_obj
    from .shot_record import record_from_obj

    d = get_discipline(discipline)
    s = d.initial_state(config, seed)
    verdicts = []
    for item in log:
        a = serialize.from_obj(item["action"])
        if isinstance(a, ShotAction):
            o = item["record"]  # a shot's record; in the lag None (first stroke) or both balls'
            rec = None if o is None else lag_record_from_obj(o) if "lag" in o else record_from_obj(o)
            s, v = d.apply_shot_record(s, a, rec)
        else:
            s, v = d.apply(s, a)
        verdicts.append(serialize.to_obj(v))
    return s, verdicts


# ----------------------------------------------------------------------------- seats
def _perturb(x):
    """A different value of the same shape (ints shifted, tuples extended, dataclasses
    field by field); None stays None."""
    import dataclasses

    if x is None:
        return None
    if isinstance(x, bool):
        return not x
    if isinstance(x, int):
        return x + 1000
    if isinstance(x, tuple):
        return tuple(_perturb(v) for v in x) + (1000,)
    if dataclasses.is_dataclass(x):
        return dataclasses.replace(x, **{f.name: _perturb(getattr(x, f.name)) for f in dataclasses.fields(x)})
    return x


def perturb_secrets(state: GameState, seat: int, private: bool = True) -> GameState:
    """``state`` with every other seat's private entry (unless ``private`` is False), the
    hidden chance state and the RNG seed changed (privacy tests: ``observe(state, seat)`` must
    not change)."""
    priv = tuple(p if k == seat or not private else _perturb(p) for k, p in enumerate(state.private))
    seed, ctr = state.rng if state.rng else (0, 0)
    return state.replace(private=priv, hidden=_perturb(state.hidden), rng=(seed + 7919, ctr))


def check_privacy(state: GameState) -> None:
    """Assert that every seat's observation is byte-identical when every other seat's
    secrets (and the hidden chance state and RNG seed) change, and that it holds the seat's
    own secret but nobody else's (as the discipline shows it: ``poolgym.rules.game.observe``).
    Where the rules show every seat's private entry (`DisciplineBase.private_shown`, card
    ball's C-33 ``public_hands``) the view must hold them all, and only the hidden chance
    state and the RNG seed are secrets."""
    from .game import get_discipline, observe

    shown = get_discipline(state.discipline).private_shown(state)
    for seat in range(state.n_players):
        a = observe(state, seat)
        b = observe(perturb_secrets(state, seat, private=not shown), seat)
        assert a.to_json() == b.to_json(), f"seat {seat}'s observation depends on others' secrets"
        assert a.private == (state.private[seat] if state.private else None)
        if shown:
            assert a.state.private == state.private, f"seat {seat}'s view lacks a private entry its rules show"
        else:
            assert all(p is None for k, p in enumerate(a.state.private) if k != seat)
        assert a.state.hidden is None and a.state.rng == ()
