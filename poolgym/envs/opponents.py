"""Opponents for the single-agent envs.

An opponent is any callable ``opponent(state, spec, rng) -> Action | list[Action]`` where
``spec = discipline.legal_actions(state)`` and ``rng`` is a `numpy.random.Generator` owned by
the env (seeded from the env's seed, so games are reproducible). It returns the typed rules
actions for the seat to act: a `ChooseOption`, or an optional `PlaceCueBall` then a
`ShotAction`.

Names accepted by the envs' ``opponent=`` argument are looked up in `OPPONENTS`; other
packages (e.g. ``agents``) add theirs with `register_opponent` without the envs importing
them (imports only go one way, DESIGN §2).

Built in:
* ``"geometric"`` (`GeometricOpponent`): ghost-ball player (`poolgym.aim`; the pot search runs
  in the numba kernel `poolgym.envs.kernels.best_pot`, same scoring) — places the cue
  ball behind the ghost ball of the best pot when in hand, picks the highest-scoring clear pot
  among the legal (or callable) balls that serve the seat (`useful_targets`), speed from `poolgym.aim.cue_speed_for_distance`, and
  adds Gaussian aim noise (``sigma_phi`` = 0.125 deg, the ICGA aim noise, and ``sigma_v`` = 3 %
  of the speed); no clear pot -> hits
  the nearest legal ball full at medium speed. Breaks hard from the kitchen at the head ball;
  accepts the table when given an option (or the first option offered); never pushes out;
  makes every declaration the rules open to it (a claim is offered only when true, see
  `declaration_choice`), else passes.
  `GeometricOpponent.decide_batch` decides for many tables in one kernel call
  (`poolgym.envs.kernels.geometric_batch`); the native vector env uses it for every table
  whose opponent is to act (an opponent with a ``decide_batch(states, specs, rngs)`` method
  is batched that way, any other callable is called per table).
* ``"random"`` (`RandomOpponent`): uniform random shot parameters and legal decisions.

In an N-seat game the envs hand an opponent the acting seat's view
(`poolgym.rules.seats.observe`: the public state with its own secret only), never the
other seats' secrets.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from poolgym import aim as aimlib
from poolgym.rules.core import ChooseOption, Declaration, Declare, Option, Phase, PlaceCueBall, ShotAction
from poolgym.rules.geometry import ball_radius, get_table

OPPONENTS: dict[str, Callable] = {}


def register_opponent(name: str, factory: Callable) -> None:
    """Register ``factory(**kwargs) -> opponent callable`` under ``name``."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"opponent name must be a non-empty string, got {name!r}")
    OPPONENTS[name] = factory


def make_opponent(opponent, **kwargs):
    """Resolve the env's ``opponent`` argument: a registered name, a callable, or None."""
    if opponent is None or callable(opponent) and not isinstance(opponent, str):
        return opponent
    if isinstance(opponent, str):
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent: unknown name {opponent!r}; known: {sorted(OPPONENTS)}")
        return OPPONENTS[opponent](**kwargs)
    raise ValueError(f"opponent must be a name, a callable or None, got {opponent!r}")


def declaration_choice(spec):
    """The declaration an opponent makes (None: none now): the rules open a claim or a
    request only when it is true or owed (41-9.6 claim 41, 41-9.7 declare the bust and take a
    new pea, PP-7V announce the own ball), so the first one that is not ``PASS`` is made;
    in a window with nothing else open, ``PASS``."""
    for d in spec.declarations:
        if d is not Declaration.PASS:
            return Declare(d)
    if spec.phase is Phase.DECLARE and spec.declarations:
        return Declare(Declaration.PASS)
    return None


def useful_targets(state, balls: list) -> list:
    """``balls`` (legal to play) restricted to those the rules say serve the seat to act
    (`poolgym.rules.game.DisciplineBase.useful_balls`, asked on its own view), when any is
    among them; else ``balls``."""
    from poolgym.rules.game import DISCIPLINES

    if state.discipline not in DISCIPLINES:
        return balls
    useful = DISCIPLINES[state.discipline].useful_balls(state, state.seat_to_act)
    if useful is None:
        return balls
    return [b for b in balls if b in useful] or balls


def _choose_option(spec) -> ChooseOption:
    if Option.ACCEPT_TABLE in spec.options:
        return ChooseOption(Option.ACCEPT_TABLE)
    if Option.BREAK in spec.options:
        return ChooseOption(Option.BREAK)
    return ChooseOption(spec.options[0])


class GeometricOpponent:
    """Ghost-ball player with execution noise (see module docstring)."""

    def __init__(self, sigma_phi: float = 0.125, sigma_v: float = 0.03, break_speed: float = 7.0):
        self.sigma_phi = float(sigma_phi)
        self.sigma_v = float(sigma_v)
        self.break_speed = float(break_speed)
        self._geom = {}

    def _geometry(self, table_name):
        g = self._geom.get(table_name)
        if g is None:
            g = aimlib.pocket_geometry(get_table(table_name))
            g = self._geom[table_name] = aimlib.PocketGeometry(
                *(np.ascontiguousarray(a) for a in (g.centers, g.radii, g.jaw_centers, g.jaw_radii, g.mouth,
                                                     g.aim_points)))
        return g

    def __call__(self, state, spec, rng):
        return self.decide_batch([state], [spec], [rng])[0]

    def decide_batch(self, states, specs, rngs) -> list:
        """Decisions for several tables at once (the native vector env's path; `__call__` is
        the batch of one, so single and vector envs play identically). Options and breaks are
        decided per table; every play-phase decision of a (table size, ball count) group is
        computed by ONE call of the numba kernel `poolgym.envs.kernels.geometric_batch`, then
        each table draws its aim and speed noise from its own ``rng`` (phi first, then V0)."""
        out = [None] * len(states)
        groups: dict = {}
        for k, (state, spec) in enumerate(zip(states, specs)):
            decl = declaration_choice(spec) if spec.declarations else None
            if decl is not None:
                out[k] = [decl]
            elif spec.phase is Phase.OPTION or (spec.options and not spec.can_shoot and not spec.must_place):
                out[k] = [_choose_option(spec)]
            elif spec.phase in (Phase.BREAK, Phase.LAG):
                out[k] = self._break(state, spec, rngs[k])
            else:
                groups.setdefault((state.config.table, len(state.on_table)), []).append(k)
        for (table_name, n), ks in groups.items():
            self._play_group(table_name, n, ks, states, specs, rngs, out)
        return out

    def _play_group(self, table_name, n, ks, states, specs, rngs, out) -> None:
        from poolgym.envs.kernels import geometric_batch
        from poolgym.rules.placement import table_arrays

        table = get_table(table_name)
        geom = self._geometry(table_name)
        R = ball_radius()
        M = len(ks)
        pos = np.array([states[k].pos for k in ks], np.float64).reshape(M, n, 2)
        on = np.array([states[k].on_table for k in ks], np.bool_).reshape(M, n)
        targets = np.zeros((M, n), np.bool_)
        in_hand = np.zeros(M, np.bool_)
        kitchen = np.zeros(M, np.bool_)
        for m, k in enumerate(ks):
            st, spec = states[k], specs[k]
            onk = st.on_table
            balls = [b for b in (spec.callable_balls if spec.call_required else spec.target_balls) if onk[b]]
            if not balls:
                balls = [b for b in range(1, n) if onk[b]]
            targets[m, useful_targets(st, balls)] = True
            in_hand[m] = spec.place_cue is not None and (spec.must_place or not st.cue_placed)
            kitchen[m] = spec.place_cue is not None and spec.place_cue.value == "in_hand_kitchen"
        w, l, hy, pk, sg, jw = table_arrays(table)
        res = geometric_batch(pos, on, targets, in_hand, kitchen, geom.aim_points, geom.jaw_centers,
                              geom.jaw_radii, pk, sg, jw, w, l, hy, R, 2e-4, 1e-6, R / 2, 400, w / 2,
                              l / 4 - 2 * R)
        placed, px, py, ball, pocket, phi, cut, d_cue, d_obj, near = (a.tolist() for a in res)
        for m, k in enumerate(ks):
            spec, rng = specs[k], rngs[k]
            acts = []
            if placed[m] < 0:
                raise ValueError("no legal cue-ball placement found")
            if placed[m]:
                acts.append(_place(px[m], py[m]))
            b = ball[m]
            if b >= 0:
                V0 = min(max(_speed(d_obj[m] + 0.5 * d_cue[m], cut[m]), 0.6), 6.0)
                called = (int(b), int(pocket[m])) if spec.callable_balls else (None, None)
            else:
                V0 = 2.5
                called = self._call(spec, [near[m]], pos[m], geom, R)
            dphi, dv = rng.standard_normal(2).tolist()
            ph = (phi[m] + self.sigma_phi * dphi) % 360.0
            V0 = max(0.1, V0 * (1.0 + self.sigma_v * dv))
            out[k] = acts + [ShotAction._fast(V0, ph, 0.0, 0.0, 0.0, called[0], called[1], False, False)]

    def _break(self, state, spec, rng) -> list:
        """Break (or lag): cue ball in hand placed on the head string side at a random x,
        hard at the first target ball."""
        from poolgym.envs.codec import nearest_legal_placement

        table = get_table(state.config.table)
        geom = self._geometry(state.config.table)
        R = ball_radius()
        pos = np.asarray(state.pos, float).reshape(-1, 2)
        on = np.asarray(state.on_table, bool)
        out = []
        in_hand = spec.place_cue is not None and (spec.must_place or not state.cue_placed)
        balls = [b for b in (spec.callable_balls if spec.call_required else spec.target_balls) if on[b]]
        if not balls:
            balls = [b for b in range(1, len(on)) if on[b]]
        if in_hand:
            x, y = nearest_legal_placement(table.w / 2 + rng.uniform(-0.1, 0.1),
                                           float(table.head_string_y) - 2 * R, pos, on, table, R,
                                           kitchen=True, may_touch=False)
            out.append(_place(x, y))
            pos[0] = (x, y)
        if spec.phase is Phase.LAG:
            return out + [ShotAction(V0=2.0, phi=90.0)]
        tgt = pos[balls[0]] if balls else np.array([table.w / 2, 0.75 * table.l])
        d = tgt - pos[0]
        phi = math.degrees(math.atan2(d[1], d[0])) + rng.normal(0, self.sigma_phi)
        call = self._call(spec, balls, pos, geom, R)
        return out + [ShotAction(V0=self.break_speed, phi=phi % 360.0, called_ball=call[0],
                                 called_pocket=call[1])]

    @staticmethod
    def _call(spec, balls, pos, geom, R):
        if not spec.callable_balls:
            return (None, None)
        b = balls[0] if balls and balls[0] in spec.callable_balls else spec.callable_balls[0]
        return (b, int(np.argmax(aimlib.jaw_margin(pos[b], geom, R))))


def _speed(distance: float, cut: float) -> float:
    """Scalar `poolgym.aim.cue_speed_for_distance` (defaults)."""
    v_obj = math.sqrt(2.0 * 0.01 * 9.81 * max(distance, 0.0))
    c = math.cos(math.radians(min(abs(cut), 85.0)))
    return 2.0 * v_obj / c / (5.0 / 7.0) / (2.0 * 0.567 / (0.567 + 0.170097))


def _place(x, y):
    return PlaceCueBall._fast(float(x), float(y))


class RandomOpponent:
    """Uniform random shots (V0 in [0.5, 6] m/s, any phi) and decisions."""

    def __call__(self, state, spec, rng):
        from poolgym.envs.codec import nearest_legal_placement

        if spec.declarations:
            ds = spec.declarations
            if spec.phase is Phase.DECLARE or not (spec.can_shoot or spec.must_place):
                return [Declare(ds[int(rng.integers(len(ds)))])]
        if spec.phase is Phase.OPTION or (spec.options and not spec.can_shoot and not spec.must_place):
            return [ChooseOption(spec.options[int(rng.integers(len(spec.options)))])]
        out = []
        if spec.place_cue is not None and (spec.must_place or not state.cue_placed):
            table = get_table(state.config.table)
            R = ball_radius()
            kitchen = spec.place_cue.value == "in_hand_kitchen"
            y_hi = float(table.head_string_y) if kitchen else table.l
            x, y = nearest_legal_placement(rng.uniform(R, table.w - R), rng.uniform(R, y_hi - R), state.pos,
                                           state.on_table, table, R, kitchen=kitchen,
                                           may_touch=False)
            out.append(_place(x, y))
        called = (None, None)
        if spec.callable_balls:
            called = (int(rng.choice(spec.callable_balls)), int(rng.integers(6)))
        return out + [ShotAction(V0=float(rng.uniform(0.5, 6.0)), phi=float(rng.uniform(0, 360)),
                                 called_ball=called[0], called_pocket=called[1])]


register_opponent("geometric", GeometricOpponent)
register_opponent("random", RandomOpponent)
