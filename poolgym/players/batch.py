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
from poolgym.planning import table_geom
from poolgym.players.view import Decision, Observation, beyond_head_string, danger_balls, spec_view, useful_pots
from poolgym.rules.core import ChooseOption, Option, PlaceCueBall
from poolgym.rules.game import DisciplineBase, get_discipline
from poolgym.rules.geometry import get_table


#: `Kind` and `Outcome` values as ints, and the enum members the loops compare (bound once)
_OPTION, _PLACE, _SHOOT, _POT = int(Kind.OPTION), int(Kind.PLACE), int(Kind.SHOOT), int(Outcome.POT)
_OPTION_DECISION, _PLACE_DECISION, _SHOOT_DECISION = Decision.OPTION, Decision.PLACE, Decision.SHOOT
_NONE, _DECLARE = Decision.NONE, Decision.DECLARE
_SPOT = Option.SPOT_NEAREST_KITCHEN_BALL


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
    discipline = states[0].discipline
    geom = table_geom(table)
    t = TableBatch(n, N)
    t.P[:] = np.array([st.pos for st in states], np.float64).reshape(n, N, 2)
    t.ON[:] = np.array([st.on_table for st in states], np.bool_).reshape(n, N)
    # the rules' own answer to "which balls serve this seat" when the discipline has one
    useful = type(disc).useful_balls is not DisciplineBase.useful_balls
    eight = preview_ball(discipline)
    svs = [None] * n
    out = [None] * n
    for k in range(n):
        st, sp = states[k], specs[k]
        sv = spec_view(sp)
        svs[k] = sv
        dec = sv.decision
        if sp.declarations or dec is _NONE or dec is _DECLARE:
            out[k] = _one_table(player, rngs[k], st, sp, table)
            continue
        targets = sv.targets
        pots = useful_pots(discipline, st, st.seat_to_act, sv.pot_balls) if useful else sv.pot_balls
        if sv.kitchen:
            pots = beyond_head_string(t.P[k], geom.head_string_y, pots)
        danger = danger_balls(discipline, st, targets)
        if dec is _OPTION_DECISION:
            if not pots:
                pots = _default_targets(Observation(state=st, spec=sp, table=table, seat=st.seat_to_act,
                                                    discipline=discipline))
            t.set(k, _OPTION, targets, pots, danger)
        elif _SPOT in sv.options:
            out[k] = ChooseOption(_SPOT)  # GW-5: every ball is in the kitchen
        elif dec is _PLACE_DECISION and not sv.is_break:
            t.set(k, _PLACE, targets, pots or targets, danger, kitchen=sv.kitchen)
        elif dec is _SHOOT_DECISION and not (sv.is_break or sv.is_lag):
            t.set(k, _SHOOT, targets, pots, danger, push_out=sv.push_out_allowed)
        else:  # a break or a lag shot: the one-table path
            out[k] = _one_table(player, rngs[k], st, sp, table)
    kind = t.kind
    if kind.any():
        t.run(geom, player.sigma_phi, player.min_p, player.push_p, eight)
    code, F, I = t.code.tolist(), t.F.tolist(), t.I.tolist()
    # the pots on the 8 of this round, previewed together
    prev = np.flatnonzero((kind == _SHOOT) & (t.code == _POT) & (t.I[:, 0] == eight)).tolist() if eight >= 0 else []
    safe = dict(zip(prev, preview_pots(table, [states[k] for k in prev], [t.E[k, : t.I[k, 4]] for k in prev],
                                       player.speed_margin))) if prev else {}
    placed = []
    kinds = kind.tolist()
    for k in range(n):
        a = out[k]
        if a is None:
            player.rng = rngs[k]
            kd = kinds[k]
            if kd == _OPTION:
                a = player.option_for(svs[k].options, F[k][2])
            elif kd == _PLACE:
                a = player.placement_from(code[k], F[k][0], F[k][1], geom, t.P[k], t.ON[k], svs[k].kitchen)
            else:
                a = player.shot_from(code[k], F[k], I[k], svs[k], geom, t.P[k, 0], k in safe, safe.get(k))
        acts[k].append(a)
        if isinstance(a, PlaceCueBall):
            placed.append(k)
        elif not isinstance(a, (ShotAction, ChooseOption, Concede, Declare)):  # pragma: no cover
            raise TypeError(f"{type(player).__name__} returned {type(a).__name__}, not a rules action")
    return placed


def _one_table(player, rng, state, spec, table):
    """The player's own one-table action (``player.act``) with ``rng`` as its generator."""
    player.rng = rng
    return player.act(Observation(state=state, spec=spec, table=table, seat=state.seat_to_act,
                                  discipline=state.discipline))
