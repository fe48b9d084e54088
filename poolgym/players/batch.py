"""The geometric player deciding for many tables at once.

`decide_all` returns, for each table, what `poolgym.players.opponent.PlayerOpponent` of the
player returns for it: the rules actions of one decision (optional `PlaceCueBall` steps, then
a `ShotAction`, `ChooseOption` or `Declare`). The geometry of every table is decided in one
compiled call per round (`poolgym.players.kernels.decide_tables`: pots, push-outs, safeties,
ball in hand, option values); a round is one action of each table still deciding, so a table
that places its cue ball is asked again in the next round with the placement applied (the
placements of a round checked by the rules in one compiled call,
`DisciplineBase.placement_errors`). The eight-ball pots on the 8 of a round are previewed in
one batched physics call (`poolgym.players.geometric.preview_pots`). What the kernel does not
cover -- declarations, breaks, lag shots, the GW-5 kitchen spot request -- is the player's
own one-table method. Each table's draws come from its own generator, in the order of its
one-table decision, so every table gets exactly the actions of a one-table call.
"""

from __future__ import annotations

import numpy as np

from poolgym.players.geometric import GeometricPlayer, _default_targets, preview_ball, preview_pots
from poolgym.players.kernels import Kind, Outcome, TableBatch
from poolgym.players.opponent import MAX_PLACEMENTS
from poolgym.players.view import Decision, Observation, declared, view_of
from poolgym.rules.core import ChooseOption, Option, PlaceCueBall
from poolgym.rules.game import get_discipline
from poolgym.rules.geometry import get_table


#: `Kind` and `Outcome` values as ints (compared per table)
_OPTION, _PLACE, _SHOOT, _POT = int(Kind.OPTION), int(Kind.PLACE), int(Kind.SHOOT), int(Outcome.POT)


def decide_all(player: GeometricPlayer, states, specs, rngs) -> list[list]:
    """One decision of ``player`` for each table (module docstring): ``states`` of one
    discipline and table size, each with its ``specs`` entry (`legal_actions`) and its own
    generator in ``rngs`` (set as ``player.rng`` while that table decides, as
    `PlayerOpponent` does)."""
    n = len(states)
    if n == 0:
        return []
    disc = get_discipline(states[0].discipline)
    table = get_table(states[0].config.table)
    acts: list[list] = [[] for _ in range(n)]
    cur_states, cur_specs = list(states), list(specs)
    todo = list(range(n))
    for _ in range(MAX_PLACEMENTS + 1):
        placed = _round(player, disc, table, [cur_states[i] for i in todo], [cur_specs[i] for i in todo],
                        [rngs[i] for i in todo], [acts[i] for i in todo])
        if not placed:
            return acts
        # the tables that placed their cue ball decide again on the placed state
        todo = [todo[j] for j in placed]
        pl = [acts[i][-1] for i in todo]
        errs = disc.placement_errors([cur_states[i] for i in todo], pl)
        for i, a, err in zip(todo, pl, errs):
            if err is None:
                cur_states[i] = disc.place_checked(cur_states[i], a)
            else:
                cur_states[i], _ = disc.apply(cur_states[i], a)  # raises IllegalActionError
            cur_specs[i] = disc.legal_actions(cur_states[i])
    raise RuntimeError(f"{type(player).__name__} placed the cue ball {MAX_PLACEMENTS + 1} times without shooting")


def _round(player, disc, table, states, specs, rngs, acts) -> list[int]:
    """One action of each table appended to its ``acts``; returns the indices of the tables
    whose action was a `PlaceCueBall`."""
    from poolgym.rules.core import Concede, Declare, ShotAction

    n = len(states)
    N = len(states[0].on_table)
    t = TableBatch(n, N)
    t.P[:] = np.array([st.pos for st in states], np.float64).reshape(n, N, 2)
    t.ON[:] = np.array([st.on_table for st in states], np.bool_).reshape(n, N)
    eight = -1
    views = [None] * n
    obss = [None] * n
    out = [None] * n
    for k, (st, sp) in enumerate(zip(states, specs)):
        obs = Observation(state=st, spec=sp, table=table, seat=st.seat_to_act, discipline=st.discipline)
        obss[k] = obs
        player.rng = rngs[k]
        d = declared(sp)
        if d is not None:
            out[k] = d
            continue
        v = view_of(obs, t.P[k], t.ON[k])
        views[k] = v
        if v.decision is Decision.OPTION:
            t.set(k, _OPTION, v.targets, v.pot_balls or _default_targets(obs), v.danger)
        elif Option.SPOT_NEAREST_KITCHEN_BALL in v.options:
            out[k] = ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL)  # GW-5: every ball is in the kitchen
        elif v.decision is Decision.PLACE and not v.is_break:
            t.set(k, _PLACE, v.targets, v.pot_balls or v.targets, v.danger, kitchen=v.kitchen)
        elif v.decision is Decision.SHOOT and not (v.is_break or v.is_lag):
            eight = preview_ball(obs)
            t.set(k, _SHOOT, v.targets, v.pot_balls, v.danger, push_out=v.push_out_allowed)
        else:  # a break, a lag, nothing legal: the one-table path
            out[k] = player.act(obs)
    if t.kind.any():
        t.run(views[int(np.flatnonzero(t.kind)[0])].geom, player.sigma_phi, player.min_p, player.push_p, eight)
    # the pots on the 8 of this round, previewed together
    prev = np.flatnonzero((t.kind == _SHOOT) & (t.code == _POT) & (t.I[:, 0] == eight)).tolist()
    safe = dict(zip(prev, preview_pots(table, [states[k] for k in prev], [t.E[k, : t.I[k, 4]] for k in prev],
                                       player.speed_margin))) if prev else {}
    placed = []
    for k in range(n):
        a = out[k]
        if a is None:
            player.rng = rngs[k]
            kind, v = t.kind[k], views[k]
            if kind == _OPTION:
                a = player.option_for(v, float(t.F[k, 2]))
            elif kind == _PLACE:
                a = player.placement_from(v, t, k)
            else:
                a = player.shot_from(v, t, k, k in safe, safe.get(k))
        acts[k].append(a)
        if isinstance(a, PlaceCueBall):
            placed.append(k)
        elif not isinstance(a, (ShotAction, ChooseOption, Concede, Declare)):  # pragma: no cover
            raise TypeError(f"{type(player).__name__} returned {type(a).__name__}, not a rules action")
    return placed
