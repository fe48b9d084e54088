"""The search agent's break (`SearchAgent` ``break_search=True``): candidate breaks simulated
under the agent's execution noise and scored by the rules' verdict, as its shots are.

1. Candidates. Cue-ball spots in the kitchen (G-3.7 / 9B-5.4: the break is played with the
   cue ball in hand behind the head string) on the line the geometric player breaks from,
   ``3R`` behind the head string, at the fractions `BreakPlan.spots` of the half width
   between the long string and a side rail; from each spot, strokes at the head ball (the
   ball nearest the cue ball, `break_aim_ball`, as the geometric player aims) at the speeds
   `BreakPlan.speeds` (times the geometric break's `BREAK_V0`), the vertical tip offsets
   `BreakPlan.spins` (draw / stun: the cue ball checks up instead of following the rack
   into a pocket) and the contact fractions `BreakPlan.cuts` (0 full ball, +-1 the thinnest
   hit on either side). A spot the rules reject is skipped.
2. Simulation. Every candidate is repeated `BreakPlan.samples` times with the agent's noise
   model (common random numbers, `SearchAgent.perturb`), all spots in ONE
   `physics.simulate_batch` call; the `BreakPlan.refine_k` best candidates by mean value get
   `BreakPlan.refine_samples` fresh common draws each (again one call), their values pooling
   both stages, and the best of them is played.
3. Value. Each outcome is ruled by the referee (`apply_shot_record`) from the state with the
   cue ball at the candidate's spot and valued by `SearchAgent.value`, as every searched
   shot: a break foul (9B-5.4: the 1 not hit first, a scratch, too few balls to a rail with
   nothing down, a ball off the table) hands the opponent ball in hand; a legal break with a
   ball down keeps the table (valued by the position left, the 9 down a win); a legal break
   with nothing down hands the opponent the table (with the push-out, 9B-5.6); an outcome
   the referee cannot rule is worth -1.

The spot and stroke chosen at the placement decision are kept and played at the shot that
follows it when the cue ball stands at that spot; a break shot without such a plan is searched
from the cue ball where it is (the spot fixed).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from agents.view import Decision, Observation, view_of
from poolgym.planning import phi_deg, placement_is_valid
from poolgym.players.geometric import BREAK_V0, break_aim_ball, break_call, break_line_y


@dataclasses.dataclass(frozen=True)
class BreakPlan:
    """The break search's candidates and sample counts (module docstring).

    spots: kitchen spot offsets from the long string, in fractions of the half width (inside
        the rails by a ball radius).
    speeds: stick speeds in multiples of the geometric break's `BREAK_V0`.
    spins: vertical tip offsets b (negative: draw).
    cuts: contact fractions on the head ball (0: full ball).
    samples: noisy simulations per candidate in the screen.
    refine_k, refine_samples: the best refine_k candidates get refine_samples more draws each.
    foul_value: the value of a break foul to the breaker (None: `SearchAgent.value` of the
        position it leaves, the opponent's ball in hand).
    """

    spots: tuple = (-0.7, -0.35, 0.0, 0.35, 0.7)
    speeds: tuple = (0.75, 0.9, 1.0, 1.1)
    spins: tuple = (-0.45, -0.25, 0.0, 0.25)
    cuts: tuple = (-0.15, 0.0, 0.15)
    samples: int = 8
    refine_k: int = 8
    refine_samples: int = 64
    foul_value: float | None = 0.0


@dataclasses.dataclass
class BreakOutcomes:
    """Outcomes of candidate breaks: (C, S) values for the breaker and foul flags."""

    values: np.ndarray
    fouls: np.ndarray


def break_spots(v, fractions) -> list[tuple[float, float]]:
    """Kitchen spots ``3R`` behind the head string at ``fractions`` of the half width from the
    long string, keeping the ones the placement test accepts (in order, no duplicates)."""
    g = v.geom
    half = 0.5 * g.w - 2.0 * g.R
    out = []
    for f in fractions:
        xy = np.array([0.5 * g.w + float(f) * half, break_line_y(g)])
        p = (float(xy[0]), float(xy[1]))
        if p not in out and placement_is_valid(g, xy, v.balls, v.on, kitchen=True):
            out.append(p)
    return out


def break_strokes(v, plan: BreakPlan) -> list:
    """Candidate break strokes from the cue ball where ``v`` has it (module docstring, step 1)."""
    from poolgym.rules.core import ShotAction

    g = v.geom
    cue = v.balls[0]
    tgt = v.balls[break_aim_ball(v)]
    d = float(np.linalg.norm(tgt - cue))
    base = phi_deg(cue, tgt)
    call_b, call_p = break_call(v)
    out = []
    for k in plan.cuts:
        dphi = math.degrees(math.asin(max(-1.0, min(1.0, 2.0 * g.R * float(k) / max(d, 2.0 * g.R)))))
        for f in plan.speeds:
            for b in plan.spins:
                out.append(ShotAction(V0=float(BREAK_V0 * f), phi=float((base + dphi) % 360.0), b=float(b),
                                      called_ball=call_b, called_pocket=call_p))
    return out


def placed(disc, obs: Observation, spot) -> Observation | None:
    """The observation after placing the cue ball at ``spot`` for the break (None: the rules
    reject the spot, or the break shot does not follow)."""
    from poolgym.rules.core import PlaceCueBall

    try:
        st, _ = disc.apply(obs.state, PlaceCueBall(*spot))
    except ValueError:
        return None
    obs2 = Observation(st, disc.legal_actions(st), obs.table, obs.seat, obs.discipline)
    v2 = view_of(obs2)
    if v2.decision is not Decision.SHOOT or not v2.is_break:
        return None
    return obs2


def break_outcomes(agent, disc, cands: list, S: int, foul_value: float | None = None) -> BreakOutcomes | None:
    """Values and foul flags of the candidates ``cands`` ((observation, stroke) pairs, the
    observation being the break shot's) under S common noise draws, all simulated in ONE
    `physics.simulate_batch` call with the model the referee plays (`simulate_record`: the
    three-dimensional one, ``airborne``: the noise lifts the cue, and a lifted break stroke
    may jump the cue ball; the whole event log); a foul is worth ``foul_value`` (None: its position's
    value); None if the physics rejects the layouts."""
    import physics
    from poolgym.rules.game import physics_inputs
    from poolgym.rules.shot_record import ShotRecord

    C = len(cands)
    shots = agent.perturb(np.stack([a.shot_array() for _, a in cands]), S)
    ins = [physics_inputs(o.state) for o, _ in cands]
    rvw = np.repeat(np.stack([r for r, _ in ins]), S, axis=0)
    s = np.repeat(np.stack([x for _, x in ins]), S, axis=0)
    table = cands[0][0].table
    try:
        res = physics.simulate_batch(table, rvw, shots, np.zeros(C * S, dtype=np.int64), s=s, airborne=True,
                                     grow_log=True)
    except ValueError:
        return None
    values = np.zeros(C * S)
    fouls = np.zeros(C * S, bool)
    for k in range(C * S):
        o, a = cands[k // S]
        try:
            new, verdict = disc.apply_shot_record(o.state, a, ShotRecord.from_sim(res[k]))
        except Exception:  # noqa: BLE001 - an outcome the referee cannot rule: avoid it
            values[k], fouls[k] = -1.0, True
            continue
        fouls[k] = verdict is not None and bool(verdict.fouls)
        if fouls[k] and foul_value is not None:
            values[k] = foul_value
        else:
            values[k] = agent.value(disc, new, verdict, o.seat, o.table)
    return BreakOutcomes(values.reshape(C, S), fouls.reshape(C, S))


def search_break(agent, disc, obs: Observation, v, plan: BreakPlan):
    """The best (observation, stroke) pair for the break (module docstring): from every spot
    of ``plan`` when ``v`` is the break's placement, else from the cue ball where it is.
    None when no candidate could be simulated."""
    if v.decision is Decision.PLACE:
        starts = [o for o in (placed(disc, obs, p) for p in break_spots(v, plan.spots)) if o is not None]
    else:
        starts = [obs]
    cands = [(o, a) for o in starts for a in break_strokes(view_of(o), plan)]
    if not cands:
        return None
    out = break_outcomes(agent, disc, cands, max(1, plan.samples), plan.foul_value)
    if out is None:
        return None
    total, count = out.values.sum(axis=1), np.full(len(cands), float(out.values.shape[1]))
    mean = total / count
    if plan.refine_k > 1 and plan.refine_samples > 0:
        top = np.argsort(-mean, kind="stable")[: plan.refine_k]
        out2 = break_outcomes(agent, disc, [cands[int(k)] for k in top], plan.refine_samples, plan.foul_value)
        if out2 is not None:
            total[top] += out2.values.sum(axis=1)
            count[top] += plan.refine_samples
            mask = np.zeros(len(cands), bool)
            mask[top] = True
            mean = np.where(mask, total / count, -np.inf)
    return cands[int(np.argmax(mean))]
