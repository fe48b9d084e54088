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
* ``"geometric"`` (`GeometricOpponent`): the project's geometric player
  (`poolgym.players.geometric.GeometricPlayer`, the same player as the ``geometric`` agent;
  it pots the balls the rules say serve its seat first, `poolgym.players.view.useful_pots`)
  playing through `poolgym.players.opponent.PlayerOpponent` with the env's generator, plus
  Gaussian execution noise on its shots drawn from that generator after its decision (phi
  first, ``sigma_phi`` = 0.125 deg, the ICGA aim noise, then V0, ``sigma_v`` = 3 % of the
  speed). It makes every declaration the rules open to it (`poolgym.players.view.declared`).
  `GeometricOpponent.decide_batch` decides for several tables (the native vector env
  calls it with every table whose opponent is to act) with one compiled call per round
  (`poolgym.players.batch.decide_all`); it equals one call per table.
* ``"random"`` (`RandomOpponent`): uniform random shot parameters and legal decisions.

In an N-seat game the envs hand an opponent the acting seat's view
(`poolgym.rules.seats.observe`: the public state with its own secret only), never the
other seats' secrets.
"""

from __future__ import annotations

from typing import Callable

from poolgym.players.batch import add_noise, decide_all
from poolgym.players.geometric import GeometricPlayer
from poolgym.players.opponent import PlayerOpponent
from poolgym.rules.core import ChooseOption, Declare, Phase, PlaceCueBall, ShotAction
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


class GeometricOpponent(PlayerOpponent):
    """The geometric player as the env's opponent, with execution noise (module docstring).

    Args:
        sigma_phi: aim noise (deg) added to the player's shots.
        sigma_v: relative speed noise added to the player's shots.
        **player: options of `GeometricPlayer` (``noise``, ``min_p``, ...).
    """

    def __init__(self, sigma_phi: float = 0.125, sigma_v: float = 0.03, **player):
        super().__init__(GeometricPlayer(**player), "geometric")
        self.sigma_phi = float(sigma_phi)
        self.sigma_v = float(sigma_v)

    def __call__(self, state, spec, rng) -> list:
        return self._noisy(super().__call__(state, spec, rng), rng)

    def _noisy(self, acts: list, rng) -> list:
        """``acts`` with the execution noise drawn from ``rng`` on its shot (module docstring)."""
        if isinstance(acts[-1], ShotAction):
            acts[-1] = add_noise(acts[-1], rng, self.sigma_phi, self.sigma_v)
        return acts

    def placements_checked(self) -> bool:
        """Every decision of `decide_batch` had its `PlaceCueBall` steps found legal by the
        rules on the states it was given (`poolgym.players.batch.decide_all` checks each
        round's placements with `DisciplineBase.placement_errors` and applies an illegal one
        with `DisciplineBase.apply`, which raises; the one-table path applies them with
        `apply`): the native vector env then does not check them again. False for a
        subclass that decides otherwise."""
        cls = type(self)
        return (cls.__call__ is GeometricOpponent.__call__ and cls.decide_batch is GeometricOpponent.decide_batch
                and cls._noisy is GeometricOpponent._noisy)

    def decide_batch(self, states, specs, rngs, placed: list | None = None) -> list:
        """Decisions for several tables, equal to one call per table: the geometric player's
        geometry for all tables in one compiled call per round (`poolgym.players.batch.decide_all`,
        the execution noise drawn there); tables of another discipline or table size than the
        first, or a player other than the plain `GeometricPlayer`, one call per table.
        ``placed`` (optional list): filled with each table's state after its decision's
        placements (None: it placed nothing, or the one-call-per-table path)."""
        if not states:
            return []
        st0 = states[0]
        if type(self.player) is not GeometricPlayer or any(
                st.discipline != st0.discipline or st.config.table != st0.config.table
                or len(st.on_table) != len(st0.on_table) for st in states):
            if placed is not None:
                placed[:] = [None] * len(states)
            return [self(st, sp, r) for st, sp, r in zip(states, specs, rngs)]
        if type(self)._noisy is not GeometricOpponent._noisy:  # a subclass's own noise, after each decision
            return [self._noisy(acts, r) for acts, r in zip(decide_all(self.player, states, specs, rngs,
                                                                       placed=placed), rngs)]
        return decide_all(self.player, states, specs, rngs, (self.sigma_phi, self.sigma_v), placed)


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
        elif spec.call_required:  # a pocket, no ball may be named (1S-7.2 / 1S-7.4 once the 1 is down)
            called = (None, int(rng.integers(6)))
        return out + [ShotAction(V0=float(rng.uniform(0.5, 6.0)), phi=float(rng.uniform(0, 360)),
                                 called_ball=called[0], called_pocket=called[1])]


register_opponent("geometric", GeometricOpponent)
register_opponent("random", RandomOpponent)
