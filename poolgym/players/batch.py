"""The geometric player deciding for many tables at once.

`decide_all` returns, for each table, what `poolgym.players.opponent.PlayerOpponent` of the
player returns for it: the rules actions of one decision (optional `PlaceCueBall` steps, then
a `ShotAction`, `ChooseOption` or `Declare`). The geometry of every table is decided in one
compiled call per round (`poolgym.players.kernels.decide_tables`: pots, push-outs, safeties,
ball in hand, option values); a round is one action of each table still deciding, so a table
that places its cue ball is asked again in the next round with the placement applied (the
placements of a round checked by the rules in one compiled call,
`DisciplineBase.placement_errors`). The eight-ball pots on the 8 of a round are previewed in
one batched physics call (`poolgym.players.geometric.preview_pots`), and so are its safeties while
the 8 is on the table (`preview_safeties`: a safety that would pocket the 8 is played softer). What the kernel does not
cover -- declarations, breaks, lag shots, the GW-5 kitchen spot request -- is the player's
own one-table method. Each table's draws come from its own generator, in the order of its
one-table decision, so every table gets exactly the actions of a one-table call.
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from poolgym.players.geometric import (GeometricPlayer, _default_targets, plays_safety, preview_ball, preview_pots,
                                      preview_safeties, stroke)
from poolgym.players.kernels import KITCHEN, PUSH_OUT, Kind, Outcome, TableBatch
from poolgym.players.opponent import MAX_PLACEMENTS
from poolgym.planning import table_geom
from poolgym.players.view import (SPEC_MEMO_SIZE, Decision, Observation, beyond_head_string, danger_balls,
                                  spec_view, useful_pots)
from poolgym.rules.core import ChooseOption, Concede, Declare, Option, PlaceCueBall, ShotAction
from poolgym.rules.game import DisciplineBase, get_discipline
from poolgym.rules.geometry import get_table


#: `Kind` and `Outcome` values as ints, and the enum members the loops compare (bound once)
_OPTION, _PLACE, _SHOOT, _POT = int(Kind.OPTION), int(Kind.PLACE), int(Kind.SHOOT), int(Outcome.POT)
_OPTION_DECISION, _PLACE_DECISION, _SHOOT_DECISION = Decision.OPTION, Decision.PLACE, Decision.SHOOT
_NONE, _DECLARE = Decision.NONE, Decision.DECLARE
_SPOT = Option.SPOT_NEAREST_KITCHEN_BALL


def decide_all(player: GeometricPlayer, states, specs, rngs, noise=None, placed=None) -> list[list]:
    """One decision of ``player`` for each table (module docstring): ``states`` of one
    discipline and table size, each with its ``specs`` entry (`legal_actions`) and its own
    generator in ``rngs`` (set as ``player.rng`` while that table decides, as
    `PlayerOpponent` does). ``noise`` = (sigma_phi, sigma_v): a decision's closing
    `ShotAction` gets the execution noise drawn from its table's generator after the
    decision (`add_noise`). ``placed`` (a list of ``len(states)``, optional): per table the
    state after its decision's placements (`DisciplineBase.place_checked`), None when it
    placed nothing."""
    n = len(states)
    if n == 0:
        return []
    disc = get_discipline(states[0].discipline)
    table = get_table(states[0].config.table)
    acts: list[list] = [[] for _ in range(n)]
    cur_states, cur_specs = list(states), list(specs)
    todo = list(range(n))
    for _ in range(MAX_PLACEMENTS + 1):
        placed_now = _round(player, disc, table, [cur_states[i] for i in todo], [cur_specs[i] for i in todo],
                            [rngs[i] for i in todo], [acts[i] for i in todo], noise)
        if not placed_now:
            if placed is not None:
                placed[:] = [cur if cur is not st else None for cur, st in zip(cur_states, states)]
            return acts
        # the tables that placed their cue ball decide again on the placed state
        todo = [todo[j] for j in placed_now]
        pl = [acts[i][-1] for i in todo]
        errs = disc.placement_errors([cur_states[i] for i in todo], pl)
        for i, a, err in zip(todo, pl, errs):
            if err is None:
                cur_states[i] = disc.place_checked(cur_states[i], a)
            else:
                cur_states[i], _ = disc.apply(cur_states[i], a)  # raises IllegalActionError
            cur_specs[i] = disc.legal_actions(cur_states[i])
    raise RuntimeError(f"{type(player).__name__} placed the cue ball {MAX_PLACEMENTS + 1} times without shooting")


def add_noise(shot, rng, sigma_phi: float, sigma_v: float):
    """``shot`` (a `ShotAction`) with the execution noise of `stroke` drawn from ``rng``."""
    return stroke(shot.V0, shot.phi, shot.theta, shot.a, shot.b, shot.called_ball, shot.called_pocket, shot.safety,
                  shot.push_out, (rng, sigma_phi, sigma_v))


def _route(sv) -> tuple:
    """(sv, mode, `Kind`, flags, ball lists, their lengths) of a table whose spec view is
    ``sv``: mode `_KERNEL` (the kernel decides `Kind` with these `decide_tables` flags),
    `_ONE_TABLE` (the player's own one-table method) or `_SPOT_REQUEST` (the GW-5 kitchen spot
    request); the ball lists (`TableBatch.run`'s ``L`` of one table) and lengths of a table
    with the view's targets and balls to pot and no danger balls; memoised per view."""
    got = _ROUTES.get(id(sv))
    if got is not None and got[0] is sv:
        return got
    dec = sv.decision
    if dec is _NONE or dec is _DECLARE:
        r = (_ONE_TABLE, 0, 0)
    elif dec is _OPTION_DECISION:
        r = (_KERNEL, _OPTION, 0)
    elif _SPOT in sv.options:
        r = (_SPOT_REQUEST, 0, 0)  # GW-5: every ball is in the kitchen
    elif dec is _PLACE_DECISION and not sv.is_break:
        r = (_KERNEL, _PLACE, KITCHEN if sv.kitchen else 0)
    elif dec is _SHOOT_DECISION and not (sv.is_break or sv.is_lag):
        r = (_KERNEL, _SHOOT, PUSH_OUT if sv.push_out_allowed else 0)
    else:  # a break or a lag shot
        r = (_ONE_TABLE, 0, 0)
    r = (sv,) + r + (sv.targets + sv.pot_balls, (len(sv.targets), len(sv.pot_balls), 0))
    if len(_ROUTES) > SPEC_MEMO_SIZE:
        _ROUTES.clear()
    _ROUTES[id(sv)] = r  # the view is kept alive: its id stays unique
    return r


_KERNEL, _ONE_TABLE, _SPOT_REQUEST = 0, 1, 2
_ROUTES: dict = {}


def _round(player, disc, table, states, specs, rngs, acts, noise=None) -> list[int]:
    """One action of each table appended to its ``acts`` (a closing `ShotAction` with
    ``noise``, as in `decide_all`); returns the indices of the tables whose action was a
    `PlaceCueBall`."""
    n = len(states)
    N = len(states[0].on_table)
    discipline = states[0].discipline
    geom = table_geom(table)
    t = TableBatch(n, N)
    P = t.P = np.fromiter(chain.from_iterable([st.pos for st in states]), np.float64, n * 2 * N).reshape(n, N, 2)
    ON = t.ON = np.array([st.on_table for st in states], np.bool_).reshape(n, N)
    # the rules' own answer to "which balls serve this seat" when the discipline has one
    useful = type(disc).useful_balls is not DisciplineBase.useful_balls
    eight = preview_ball(discipline)
    hs = geom.head_string_y
    svs = [None] * n
    out = [None] * n
    kinds = [0] * n
    flags = [0] * n
    cats = [()] * n  # per table its ball lists in one tuple (targets, pots, danger)
    lens = [(0, 0, 0)] * n
    routes = _ROUTES
    for k in range(n):
        st, sp = states[k], specs[k]
        sv = svs[k] = spec_view(sp)
        r = routes.get(id(sv))
        if r is None or r[0] is not sv:
            r = _route(sv)
        mode = r[1]
        if mode or sp.declarations:
            if mode == _SPOT_REQUEST and not sp.declarations:
                out[k] = ChooseOption(_SPOT)
            else:
                out[k] = _one_table(player, rngs[k], st, sp, table)
            continue
        targets = sv.targets
        pots = useful_pots(discipline, st, st.seat_to_act, sv.pot_balls) if useful else sv.pot_balls
        if sv.kitchen:
            pots = beyond_head_string(P[k], hs, pots)
        kd = kinds[k] = r[2]
        if not pots:
            if kd == _OPTION:
                pots = _default_targets(Observation(state=st, spec=sp, table=table, seat=st.seat_to_act,
                                                    discipline=discipline))
            elif kd == _PLACE:
                pots = targets
        flags[k] = r[3]
        danger = danger_balls(discipline, st, targets)
        if pots is sv.pot_balls and not danger:
            cats[k], lens[k] = r[4], r[5]
        else:
            cats[k], lens[k] = targets + pots + danger, (len(targets), len(pots), len(danger))
    if any(kinds):
        t.kind[:] = kinds
        t.flags[:] = flags
        t.run(geom, player.sigma_phi, player.min_p, player.push_p, eight, flat=(cats, lens))
    code, F, I = t.code.tolist(), t.F.tolist(), t.I.tolist()
    # the pots on the 8 of this round, previewed together
    prev = [k for k in range(n) if kinds[k] == _SHOOT and code[k] == _POT and I[k][0] == eight] if eight >= 0 else []
    safe = dict(zip(prev, preview_pots(table, [states[k] for k in prev], [t.E[k, : I[k][4]] for k in prev],
                                       player.speed_margin))) if prev else {}
    # the safeties of this round while the 8 is on the table, previewed together (8B-4.20)
    saf = [k for k in range(n) if kinds[k] == _SHOOT and ON[k, eight] and
           plays_safety(code[k], I[k], k in safe, safe.get(k))] if eight >= 0 else []
    factors = dict(zip(saf, preview_safeties(table, [states[k] for k in saf], [(F[k][3], F[k][4]) for k in saf],
                                             player.speed_margin, eight))) if saf else {}
    placed = []
    for k in range(n):
        a = out[k]
        if a is None:
            player.rng = rngs[k]
            kd = kinds[k]
            if kd == _SHOOT:  # the execution noise drawn as the shot is made
                a = player.shot_from(code[k], F[k], I[k], svs[k], geom, P[k, 0], k in safe, safe.get(k),
                                     None if noise is None else (rngs[k], noise[0], noise[1]),
                                     safety_factor=factors.get(k, 1.0))
                acts[k].append(a)
                continue
            if kd == _PLACE:
                a = player.placement_from(code[k], F[k][0], F[k][1], geom, P[k], ON[k], svs[k].kitchen)
            else:
                a = player.option_for(svs[k].options, F[k][2])
        ta = type(a)
        if ta is ShotAction:
            if noise is not None:
                a = add_noise(a, rngs[k], noise[0], noise[1])
        elif ta is PlaceCueBall:
            placed.append(k)
        elif not isinstance(a, (ShotAction, ChooseOption, Concede, Declare, PlaceCueBall)):  # pragma: no cover
            raise TypeError(f"{type(player).__name__} returned {type(a).__name__}, not a rules action")
        elif isinstance(a, PlaceCueBall):
            placed.append(k)
        elif noise is not None and isinstance(a, ShotAction):
            a = add_noise(a, rngs[k], noise[0], noise[1])
        acts[k].append(a)
    return placed


def _one_table(player, rng, state, spec, table):
    """The player's own one-table action (``player.act``) with ``rng`` as its generator."""
    player.rng = rng
    return player.act(Observation(state=state, spec=spec, table=table, seat=state.seat_to_act,
                                  discipline=state.discipline))
