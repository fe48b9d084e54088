"""`search`: sample shots around the geometric ones, simulate them under execution noise in
batches, score the outcomes by the position they leave.

In the spirit of the Computational Pool Tournament winners PickPocket (M. Smith, "PickPocket:
A computer billiards shark", Artificial Intelligence 171, 2007) and CueCard (C. Archibald,
A. Altman, Y. Shoham, "Analysis of a winning computational billiards player", IJCAI 2009):

1. Candidates. The `top_k` best direct pots of the geometric player (poolgym.planning), each at
   `speed_factors` times its planned speed and with the draw / follow tip offsets `spins` (b):
   cue-ball position play, the outcome valued by the next shot it leaves;
   nine-ball: combinations lowest ball -> 9 -> pocket (`nine_combos`; 9B-5.1, the 9 pocketed
   on a legal shot wins); `n_safeties` safety strokes (the geometric safety at several speeds
   and small angle offsets; `low_p_safeties` of them when no pot reaches p = 0.5); one-rail
   kicks at every legal ball (`kick_shots`) when no pot reaches 0.5 and no legal ball can be
   hit directly (G-3.18 / 9B-5.8); when no pot reaches 0.5, also the safety spread
   (`contact_shots`): the `safety_balls` nearest clear legal balls hit at the full-ball
   fractions `safety_contacts` and the stick speeds `safety_speeds`, scored like every other
   candidate by the position left to the opponent; with `escapes` > 0, when no legal ball can
   be hit directly, also the escapes a noise-free sweep of stroke directions finds
   (`SearchAgent.escape_strokes`: the centres of the widest runs of directions that leave the
   snooker without a foul, at each of `escape_speeds`).
2. Simulation, two stages (CueCard's coarse screen then refinement). Stage 1: every candidate
   is repeated ``S = max(3, min(samples, budget // C))`` times with execution noise drawn from
   the agent's RNG (the noise model the agent plans for, default ICGA; common random numbers:
   the same draws for every candidate), all in ONE `physics.simulate_batch` call. Stage 2: the
   `refine_k` best candidates by mean value get `refine_samples` fresh common draws each, again
   in one batch; their values pool both stages and the best of them is played. Before stage 2
   each of the `refine_k` strokes is centred in its pocketing window (`aim`: a noise-free
   sweep of direction offsets, one batch; the ghost-ball aim ignores throw), a moved stroke
   keeping only its stage-2 samples.
3. Adjudication. Each outcome is ruled by the referee (`apply_shot_record`), giving the next
   state exactly as the game would.
4. Value of an outcome, from the shooter's seat ``me`` (any number of seats):
   * game over: from the rules' per-seat returns (`poolgym.rules.returns`): 1 for a positive
     return (a win, also a partner's), 0 for a negative one, 1/2 for zero (`game_over_value`);
   * ``q``, the quality of the next shot for the seat to act: ``min(1, sum_k w_k p_k)`` over
     the best direct pots from the cue ball's resting place (`q_weights`, PickPocket's weighted
     sum of the best three shots; ball in hand: `bih_quality`, default `BIH_QUALITY`), over the legal balls that
     serve that seat (`DisciplineBase.useful_balls`: its pea, its cards, balls keeping it at
     41 or under, ...; every legal ball when the rules do not say or the seat's secret is not
     in the agent's view); "me to act" means a seat of my team;
   * nine-ball (`value_model` "runout", the default): with ``n`` object balls left, the seat to act wins
     with ``V(q, n) = q A(n-1) + (1 - q)(1 - A(n))`` where ``A(n)`` is the win probability of
     a player who makes each shot with probability `runout_r` and hands the same situation to
     the opponent on a miss (`runout_win`); the value is V for ``me`` to act, 1 - V for the
     opponent (an option phase for the opponent counts as the opponent to act). Leaving the
     opponent ball in hand with two balls left thus costs much more than with eight. With
     `runout_r_other` the other side makes its shots with that probability instead
     (`runout_pair`, `runout_value2`: my side to shoot is worth ``q A(n-1) + (1 - q)(1 - B(n))``,
     the other side to shoot 1 minus its own such value);
   * nine-ball (`value_model` "fitted"): the seat to act wins with the probability of the
     table `agents.search_value.FITTED` (balls left ``n``, next pot quality ``q``, ball in
     hand), fitted to the outcomes of search self-play games; the value is that probability
     for ``me`` to act, 1 minus it for the opponent (not the default: it won no more games
     against the geometric player, see the README);
   * other disciplines ("legacy"): ``0.4 + 0.6 q`` for ``me`` to act, ``0.4 (1 - q)`` for the
     opponent; 14.1: points scored this shot add ``POINT_VALUE`` each (fouls subtract);
     eight-ball: each group ball legally pocketed on a shot that keeps the table adds
     ``GROUP_BALL_VALUE``.
   The candidate with the best mean value over its noise samples is played (ties: first).

Push-outs (nine-ball, 9B-5.6): on the shot after the break, `push_outs` soft strokes spread
around the cue ball join the candidates; a push-out leaves the opponent the choice to shoot or
hand the shot back, so its outcome is worth ``min(V, 1 - V)`` to the pusher (V: the value of
shooting from the position left, step 4). Offered the table after the opponent's push-out, the
agent searches the shot from it and accepts when that is worth at least 1/2, else passes back.

Ball in hand: the `n_placements` best geometric spots are each followed by the shot search
above and the spot with the best value is taken.

Break: the geometric player's, or with `break_search` a searched one (`agents.search_break`:
kitchen spots, speeds, draw and contact points simulated under noise and valued as above, a
break foul handing the opponent ball in hand). Lags and the other options are the geometric
player's.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

from agents.base import Observation
from agents.geometric import GeometricAgent
from poolgym.planning import (
    ARRIVAL_SPEED,
    DEFAULT_E_B,
    V0_MAX,
    V0_MIN,
    best_p_from,
    launch_speed_for,
    mirror_kick_phis,
    phi_deg,
    pot_table,
    segment_clear,
    straight_in_placements,
    unit,
    v0_for_pot,
)
from agents.search_break import BreakPlan, search_break
from agents.search_value import FITTED
from agents.view import Decision, declared, shot_call, view_of

BIH_QUALITY = 0.85
#: the position value models (`SearchAgent` value_model)
VALUE_MODELS = ("fitted", "runout", "legacy")
POINT_VALUE = 0.02
GROUP_BALL_VALUE = 0.03

_DISCS: dict = {}


def _discipline(name: str):
    """Rules discipline or drill by name (cached)."""
    if name not in _DISCS:
        from poolgym.envs.pool_env import resolve_discipline

        _DISCS[name] = resolve_discipline(name)
    return _DISCS[name]


def rule_outcome(disc, state, action, rec, checked: dict):
    """``disc.apply_shot_record(state, action, rec)`` for many records of the same few actions
    on one ``state`` (the search's noisy outcomes): the referee's checks of the state and of
    the action do not read the record, so they run once per action (``checked``, one dict per
    state, remembers the actions checked); the same rulings, and the same errors."""
    from poolgym.rules.core import Phase

    if state.phase is Phase.LAG:
        return disc.apply_shot_record(state, action, rec)
    key = id(action)
    if checked.get(key) is not action:
        disc.check_state(state)
        disc.shot_inputs(state, action, build=False)  # `apply_shot_record`'s action checks
        checked[key] = action
    return disc.adjudicate_validated(state, action, rec)


class SearchAgent(GeometricAgent):
    """Batched Monte-Carlo shot search on top of the geometric player (see module docstring).

    Args:
        seed: RNG seed (noise samples and tie-breaks).
        noise: execution noise assumed when sampling ('icga', 'none' or an ExecutionNoise).
        top_k: geometric pots expanded.
        speed_factors, spins: speed multipliers and vertical tip offsets tried per pot.
        n_safeties: safety strokes added to the candidates.
        samples: noisy simulations per candidate (at most; see budget).
        budget: total simulations per decision: samples = max(3, min(samples, budget // C)).
        n_placements: ball-in-hand spots searched (1 = the geometric spot).
        refine_k, refine_samples: stage 2 re-simulates the refine_k best candidates with
            refine_samples more noise draws each (refine_k <= 1: one stage only).
        value_model: "runout" (nine-ball run-out model), "fitted" (nine-ball: the fitted
            win-probability table) or "legacy" (module docstring); other disciplines use "legacy".
        value_table: the fitted table (`agents.search_value.NineBallValue`), default FITTED.
        runout_r: make probability per shot assumed by the run-out model.
        runout_r_other: the other side's make probability in the run-out model (None: runout_r,
            the symmetric model; `runout_pair`).
        q_weights: weights of the best next pots in the position quality (PickPocket).
        combos: add lowest-ball -> 9 combinations (nine-ball).
        kicks: add one-rail kicks when snookered.
        low_p_safeties: safety strokes when no pot reaches p = 0.5 (at least n_safeties).
        aim_offsets: direction offsets (deg) of the noise-free sweep that centres each refined
            stroke in its pocketing window (`aim`; fewer than two: no sweep).
        safety_q: nine-ball run-out model: the seat to act is worth at least what a safety
            leaving the other side a shot of quality safety_q is worth (None: no such floor).
        break_search: search the break (`agents.search_break`) instead of playing the
            geometric player's.
        break_plan: the break search's candidates and samples (`agents.search_break.BreakPlan`
            or a dict of its fields).
        escapes: when snookered, this many escape strokes per speed of `escape_speeds` join the
            candidates (`escape_strokes`; 0: none); `escape_directions` stroke directions are
            swept to find them.
        bih_quality: the next-shot quality ``q`` of a seat with the cue ball in hand.
    """

    name = "search"

    def __init__(self, seed: int | None = None, noise="icga", top_k: int = 4,
                 speed_factors=(0.85, 1.0, 1.3, 1.7, 2.3), spins=(-0.4, -0.15, 0.15, 0.4), n_safeties: int = 4,
                 samples: int = 8, budget: int = 400, n_placements: int = 3, refine_k: int = 10,
                 refine_samples: int = 32, value_model: str = "runout", value_table=None, runout_r: float = 0.8,
                 q_weights=(1.0, 0.33, 0.15), combos: bool = True, kicks: bool = True, low_p_safeties: int = 9,
                 safety_contacts=(-0.8, -0.5, -0.2, 0.2, 0.5, 0.8), safety_speeds=(1.2, 2.2), safety_balls: int = 2,
                 push_outs: int = 12, push_out_speeds=(0.7, 1.2),
                 reply_search: bool = True, safety_q: float | None = None, break_search: bool = False,
                 break_plan: BreakPlan | dict | None = None, runout_r_other: float | None = None,
                 aim_offsets=tuple(round(0.05 * k, 2) for k in range(-12, 13)),
                 escapes: int = 0, escape_directions: int = 720,
                 escape_speeds=(1.8, 3.0), bih_quality: float = BIH_QUALITY, **kw):
        super().__init__(seed=seed, noise=noise, **kw)
        self.noise_spec = noise
        self.top_k = int(top_k)
        self.speed_factors = tuple(float(x) for x in speed_factors)
        self.spins = tuple(float(x) for x in spins)
        self.n_safeties = int(n_safeties)
        self.samples = int(samples)
        self.budget = int(budget)
        self.n_placements = int(n_placements)
        self.refine_k = int(refine_k)
        self.refine_samples = int(refine_samples)
        if value_model not in VALUE_MODELS:
            raise ValueError(f"value_model: one of {VALUE_MODELS}, not {value_model!r}")
        self.value_model = str(value_model)
        self.value_table = value_table if value_table is not None else FITTED
        self.runout_r = float(runout_r)
        self.runout_r_other = None if runout_r_other is None else float(runout_r_other)
        self.q_weights = tuple(float(w) for w in q_weights)
        self.combos = bool(combos)
        self.kicks = bool(kicks)
        self.low_p_safeties = int(low_p_safeties)
        self.safety_contacts = tuple(float(x) for x in safety_contacts)
        self.safety_speeds = tuple(float(x) for x in safety_speeds)
        self.safety_balls = int(safety_balls)
        self.push_outs = int(push_outs)
        self.push_out_speeds = tuple(float(x) for x in push_out_speeds)
        self.reply_search = bool(reply_search)
        self.safety_q = None if safety_q is None else float(safety_q)
        self.aim_offsets = tuple(sorted(float(x) for x in aim_offsets))
        self.break_search = bool(break_search)
        self.escapes = int(escapes)
        self.bih_quality = float(bih_quality)
        self.escape_directions = int(escape_directions)
        self.escape_speeds = tuple(float(x) for x in escape_speeds)
        if isinstance(break_plan, dict):  # keyword arguments given as JSON (tournaments)
            break_plan = BreakPlan(**break_plan)
        self.break_plan = break_plan if break_plan is not None else BreakPlan()
        self._break_next = None
        self._noise = None

    def _noise_model(self):
        if self._noise is None:
            from poolgym.envs.physics_io import make_noise

            self._noise = make_noise(self.noise_spec) or False
        return self._noise or None

    def act(self, obs: Observation):
        if declared(obs.spec) is not None:
            return super().act(obs)
        if not obs.state.rng:
            # a seat's view has no chance RNG (poolgym.rules.observe): outcomes that draw chance
            # (14.1 / eight-ball re-racks) are simulated with one of the agent's own
            obs = Observation(obs.state.replace(rng=(int(self.rng.integers(2**31)), 0)), obs.spec, obs.table,
                              obs.seat, obs.discipline)
        v = view_of(obs)
        if self.break_search and v.is_break and not v.options and v.decision in (Decision.PLACE, Decision.SHOOT):
            return self.break_action(obs, v)
        if v.decision is Decision.SHOOT and not v.is_break and not v.is_lag and not v.options:
            return self.search_shot(obs, v)
        if v.decision is Decision.PLACE and not v.is_break and not v.options and self.n_placements > 1:
            return self.search_placement(obs, v)
        if v.decision is Decision.OPTION and self.reply_search and _is_push_reply(v.options):
            return self.reply_to_push_out(obs)
        return super().act(obs)

    # ------------------------------------------------------------------ break
    def break_action(self, obs: Observation, v):
        """The searched break (`agents.search_break`): at the placement, the spot of the best
        candidate (its stroke kept for the shot that follows); at the shot, the kept stroke
        when the cue ball stands at its spot, else the best stroke searched from there."""
        from poolgym.rules.core import PlaceCueBall

        disc = _discipline(obs.discipline)
        if v.decision is Decision.SHOOT and self._break_next is not None:
            spot, act = self._break_next
            self._break_next = None
            if np.allclose(v.balls[0], spot, rtol=0.0, atol=1e-9):
                return act
        best = search_break(self, disc, obs, v, self.break_plan)
        if best is None:  # the physics rejects the layout: the geometric break
            return super().act(obs)
        o, act = best
        if v.decision is Decision.PLACE:
            spot = view_of(o).balls[0].copy()
            self._break_next = (spot, act)
            return PlaceCueBall(float(spot[0]), float(spot[1]))
        return act

    # ------------------------------------------------------------------ push-out reply
    def reply_to_push_out(self, obs: Observation):
        """9B-5.6: after the opponent's push-out, take the table (ACCEPT_TABLE) when the best
        searched shot from it is worth at least 1/2 to this seat, else hand it back
        (PASS_BACK: the opponent then shoots from the same position, worth 1 minus that)."""
        from poolgym.rules.core import ChooseOption, Option

        disc = _discipline(obs.discipline)
        st, _ = disc.apply(obs.state, ChooseOption(Option.ACCEPT_TABLE))
        obs2 = Observation(st, disc.legal_actions(st), obs.table, obs.seat, obs.discipline)
        v2 = view_of(obs2)
        if st.seat_to_act != obs.seat or v2.decision is not Decision.SHOOT:
            return super().act(obs)
        _, val = self.search_shot(obs2, v2, return_value=True)
        return ChooseOption(Option.ACCEPT_TABLE if val >= 0.5 else Option.PASS_BACK)

    def search_placement(self, obs: Observation, v):
        """Ball in hand: the `n_placements` best geometric spots, each followed by a full shot
        search; the spot whose best shot has the highest value wins."""
        from poolgym.rules.core import PlaceCueBall

        pts = straight_in_placements(v.geom, v.balls, v.on, v.pot_balls or v.targets, kitchen=v.kitchen)
        if not pts:
            return super().act(obs)
        on = v.on.copy()
        on[0] = False
        ps = best_p_from(v.geom, v.balls, on, np.array(pts), v.pot_balls or v.targets, self.sigma_phi,
                         danger=v.danger)
        order = np.argsort(-ps, kind="stable")[: self.n_placements]
        disc = _discipline(obs.discipline)
        best, best_val = None, -np.inf
        for k in order:
            place = PlaceCueBall(*pts[int(k)])
            try:
                st, _ = disc.apply(obs.state, place)
            except ValueError:  # IllegalActionError: the rules' placement test is stricter here
                continue
            spec = disc.legal_actions(st)
            obs2 = Observation(st, spec, obs.table, obs.seat, obs.discipline)
            v2 = view_of(obs2)
            if v2.decision is not Decision.SHOOT:
                continue
            _, val = self.search_shot(obs2, v2, return_value=True)
            if val > best_val:
                best, best_val = place, val
        return best if best is not None else super().act(obs)

    # ------------------------------------------------------------------ candidates
    def candidate_actions(self, v, discipline: str = "") -> list:
        """Candidate strokes (module docstring, step 1)."""
        from poolgym.rules.core import ShotAction

        out = []
        cands = self.candidates(v)[: self.top_k]
        call = v.call_required or bool(v.callable_balls)
        for c in cands:
            call_b, call_p = shot_call(v, c.ball, c.pocket)
            for f in self.speed_factors:
                for b in self.spins:
                    out.append(ShotAction(V0=float(np.clip(c.V0 * f, V0_MIN, V0_MAX)), phi=c.phi, b=b,
                                          called_ball=call_b, called_pocket=call_p))
        if self.combos and discipline == "nine_ball" and not call:
            for phi, V0 in nine_combos(v):
                for f in (1.2, 1.7):
                    out.append(ShotAction(V0=float(np.clip(V0 * f, V0_MIN, V0_MAX)), phi=phi))
        if v.push_out_allowed and self.push_outs:
            out.extend(self.push_out_candidates(v))
        best_p = cands[0].p_make if cands else 0.0
        n_saf = self.n_safeties
        if self.low_p_safeties and best_p < 0.5:
            n_saf = max(n_saf, self.low_p_safeties)
        if n_saf > 0 or not out:
            base = self.safety(v, cands)
            offsets = [0.0, 0.6, -0.6, 1.5, -1.5, 3.0, -3.0, 6.0, -6.0]
            speeds = [1.0, 0.7, 1.4]
            n = max(n_saf, 1)
            k = 0
            for dv in speeds:
                for dphi in offsets:
                    if k >= n:
                        break
                    out.append(ShotAction(V0=float(np.clip(base.V0 * dv, V0_MIN, V0_MAX)),
                                          phi=float((base.phi + dphi) % 360.0), called_ball=base.called_ball,
                                          called_pocket=base.called_pocket, safety=base.safety))
                    k += 1
            if self.safety_contacts and best_p < 0.5:
                for phi, V0 in contact_shots(v, self.safety_contacts, self.safety_speeds, self.safety_balls):
                    out.append(ShotAction(V0=float(np.clip(V0, V0_MIN, V0_MAX)), phi=phi,
                                          called_ball=base.called_ball, called_pocket=base.called_pocket,
                                          safety=base.safety))
            if self.kicks and best_p < 0.5 and not direct_hit_possible(v):
                for phi, V0 in kick_shots(v):
                    for f in (1.0, 1.6):
                        out.append(ShotAction(V0=float(np.clip(V0 * f, V0_MIN, V0_MAX)), phi=phi,
                                              called_ball=base.called_ball, called_pocket=base.called_pocket,
                                              safety=base.safety))
        return out

    def push_out_candidates(self, v) -> list:
        """9B-5.6 push-outs: soft strokes (`push_out_speeds`) in `push_outs` directions evenly
        spread around the cue ball, valued like every candidate (`value`: the opponent then
        takes the table or hands it back, whichever is worse for this seat)."""
        from poolgym.rules.core import ShotAction

        out = []
        for k in range(self.push_outs):
            phi = (360.0 * k / self.push_outs + 7.5) % 360.0
            for V0 in self.push_out_speeds:
                out.append(ShotAction(V0=float(V0), phi=float(phi), push_out=True))
        return out

    # ------------------------------------------------------------------ search
    def perturb(self, shots: np.ndarray, S: int) -> np.ndarray:
        """(C*S, 5) noisy copies of the C candidate shots with common random numbers: the same
        S noise draws are added to every candidate (variance reduction for the comparison),
        then clipped into the valid domain as `physics.ExecutionNoise.apply` does."""
        noise = self._noise_model()
        C = shots.shape[0]
        out = np.repeat(shots[:, None, :], S, axis=1)
        if noise is not None:
            sig = np.array([noise.sigma_V0, noise.sigma_phi, noise.sigma_theta, noise.sigma_a, noise.sigma_b])
            out = out + (self.rng.standard_normal((S, 5)) * sig)[None]
        out = out.reshape(C * S, 5)
        out[:, 0] = np.maximum(out[:, 0], 0.05)
        out[:, 1] = np.mod(out[:, 1], 360.0)
        out[:, 2] = np.clip(out[:, 2], 0.0, 90.0)
        off = np.hypot(out[:, 3], out[:, 4])
        over = off > 0.5
        out[over, 3:5] *= (0.5 / off[over] * (1.0 - 1e-12))[:, None]
        return out

    def simulate(self, obs: Observation, shots: np.ndarray):
        """Outcomes of the strokes ``shots`` (B, 5) from the observed layout, in ONE
        `physics.simulate_batch` call; None if the physics rejects the layout."""
        import physics
        from poolgym.rules.game import physics_inputs

        rvw, s = physics_inputs(obs.state)
        B = shots.shape[0]
        try:
            return physics.simulate_batch(obs.table, np.broadcast_to(rvw, (B,) + rvw.shape).copy(), shots,
                                          np.zeros(B, dtype=np.int64), s=np.broadcast_to(s, (B,) + s.shape).copy())
        except ValueError:
            return None

    def evaluate(self, obs: Observation, acts: list, S: int, disc) -> np.ndarray | None:
        """(len(acts), S) outcome values of every candidate under S common noise draws, from ONE
        `physics.simulate_batch` call; None if the physics rejects the layout."""
        from poolgym.rules.shot_record import ShotRecord

        state = obs.state
        B = len(acts) * S
        res = self.simulate(obs, self.perturb(np.stack([a.shot_array() for a in acts]), S))
        if res is None:
            return None
        values = np.zeros(B)
        me = obs.seat
        checked: dict = {}
        for k in range(B):
            a = acts[k // S]
            try:
                rec = ShotRecord.from_sim(res[k])
                new, verdict = rule_outcome(disc, state, a, rec, checked)
            except Exception:  # noqa: BLE001 - an outcome the referee cannot rule: avoid it
                values[k] = -1.0
                continue
            values[k] = self.value(disc, new, verdict, me, obs.table)
        return values.reshape(len(acts), S)

    def aim(self, obs: Observation, acts: list, disc) -> list:
        """Each stroke of ``acts`` with its direction moved to the middle of its pocketing
        window: every stroke is simulated without noise at the direction offsets
        `aim_offsets` (one batch); the offsets at which the shooter pockets a ball legally
        and keeps the table (or wins) form windows, and the stroke is turned to the centre of
        the window holding offset 0, else of the widest one (nearest 0 on a tie). The
        ghost-ball aim ignores throw (the ball-ball friction of the physics, Alciatore) and the
        cue ball's curve, so a pot's window is often off centre by more than the ICGA
        direction noise (0.125 deg). Strokes with no window, push-outs and strokes the
        physics rejects are returned unchanged. An outcome that pockets no object ball is
        no success without asking the referee (no legal pot, and every win is one)."""
        offs = np.asarray(self.aim_offsets, float)
        todo = [i for i, a in enumerate(acts) if not a.push_out]
        if len(offs) < 2 or not todo:
            return list(acts)
        base = np.stack([acts[i].shot_array() for i in todo])
        shots = np.repeat(base[:, None, :], len(offs), axis=1)
        shots[:, :, 1] = np.mod(shots[:, :, 1] + offs[None, :], 360.0)
        res = self.simulate(obs, shots.reshape(-1, 5))
        if res is None:
            return list(acts)
        potted = (np.asarray(res.pocket)[:, 1:] >= 0).any(axis=1)
        me, out = obs.seat, list(acts)
        checked: dict = {}

        def keeps_the_table(new, verdict):
            return verdict is not None and bool(verdict.legal_pocketed) and not verdict.fouls and new.seat_to_act == me

        for j, i in enumerate(todo):
            ok = np.array([bool(potted[j * len(offs) + m]) and
                           _succeeds(disc, obs, acts[i], res[j * len(offs) + m], checked, keeps_the_table)
                           for m in range(len(offs))])
            w = _window_centre(offs, ok)
            if w is not None and w != 0.0:
                out[i] = dataclasses.replace(acts[i], phi=float((acts[i].phi + w) % 360.0))
        return out

    def escape_strokes(self, obs: Observation, v, disc) -> list:
        """Strokes out of a snooker (no legal ball can be hit directly, `direct_hit_possible`):
        at each of the stick speeds `escape_speeds`, `escape_directions` directions evenly
        spread around the cue ball are simulated without noise in ONE batch and ruled by the
        referee; the directions whose stroke is no foul (G-3.18: a legal ball contacted first,
        then a rail or a pocket) or wins form windows, and the centres of the `escapes`
        widest windows at each speed are returned (kicks off one or more rails, or a swerve
        past the blocker, whatever the physics finds). The mirror kicks of `kick_shots` aim at
        the cushion's image, which the rebound's angle (cushion model, spin) does not follow."""
        from poolgym.rules.core import ShotAction

        D, speeds = self.escape_directions, self.escape_speeds
        if self.escapes <= 0 or D < 2 or not speeds:
            return []
        base = self.safety(v, self.candidates(v)[: self.top_k])
        phis = (np.arange(D) + 0.5) * (360.0 / D)
        acts = [ShotAction(V0=float(np.clip(V0, V0_MIN, V0_MAX)), phi=float(phi), called_ball=base.called_ball,
                           called_pocket=base.called_pocket, safety=base.safety) for V0 in speeds for phi in phis]
        res = self.simulate(obs, np.stack([a.shot_array() for a in acts]))
        if res is None:
            return []
        checked, out = {}, []
        for j in range(len(speeds)):
            ok = np.array([_succeeds(disc, obs, acts[j * D + m], res[j * D + m], checked, _no_foul) for m in range(D)])
            for centre in _circular_windows(ok, self.escapes):
                phi = float(((centre + 0.5) * (360.0 / D)) % 360.0)
                out.append(dataclasses.replace(acts[j * D], phi=phi))
        return out

    def search_shot(self, obs: Observation, v, return_value: bool = False):
        disc = _discipline(obs.discipline)
        acts = self.candidate_actions(v, obs.discipline)
        if self.escapes > 0 and v.targets and not direct_hit_possible(v):
            acts = acts + self.escape_strokes(obs, v, disc)
        if len(acts) == 1:
            return (acts[0], 0.0) if return_value else acts[0]
        S = max(3, min(self.samples, self.budget // len(acts)))
        vals = self.evaluate(obs, acts, S, disc)
        if vals is None:  # the physics rejects this layout: play the geometric shot unsearched
            a = GeometricAgent.shoot(self, v)
            return (a, 0.0) if return_value else a
        total, count = vals.sum(axis=1), np.full(len(acts), float(S))
        mean = total / count
        if self.refine_k > 1 and self.refine_samples > 0:
            top = np.argsort(-mean, kind="stable")[: self.refine_k]
            if len(self.aim_offsets) > 1:  # centre the refined strokes in their pocketing windows
                aimed = self.aim(obs, [acts[int(k)] for k in top], disc)
                for k, a in zip(top, aimed):
                    if a is not acts[int(k)]:  # a new stroke: its screening samples do not count
                        acts[int(k)] = a
                        total[k], count[k] = 0.0, 0.0
            vals2 = self.evaluate(obs, [acts[int(k)] for k in top], self.refine_samples, disc)
            if vals2 is not None:  # only the refined candidates compete
                total[top] += vals2.sum(axis=1)
                count[top] += self.refine_samples
                mask = np.zeros(len(acts), bool)
                mask[top] = True
                mean = np.where(mask, total / count, -np.inf)
        self.searched(v, acts, total / count, count)
        k = int(np.argmax(mean))
        return (acts[k], float(mean[k])) if return_value else acts[k]

    def searched(self, v, acts, values: np.ndarray, counts: np.ndarray) -> None:
        """Called after each search with every candidate's mean value and sample count (a
        subclass that labels positions keeps them; the search agent itself does nothing)."""

    def value(self, disc, state, verdict, me: int, table) -> float:
        """Value in [0, 1] (plus 14.1 points) of `state` for seat `me` (module docstring, step 4)."""
        from poolgym.rules.core import Phase

        pts = 0.0
        if verdict is not None and verdict.points:
            pts = POINT_VALUE * float(verdict.points[me])
        if verdict is not None and state.discipline == "eight_ball" and state.seat_to_act == me:
            pts += GROUP_BALL_VALUE * len(verdict.legal_pocketed)  # progress through the group
        if state.phase is Phase.GAME_OVER:
            return game_over_value(disc, state, me) + pts
        q = self.quality(disc, state, table)
        from poolgym.rules.seats import team_of

        same_team = team_of(state, state.seat_to_act) == team_of(state, me)
        if state.phase is Phase.OPTION and _is_push_reply(disc.legal_actions(state).options):
            # 9B-5.6: the seat to act shoots from here or hands the shot back, whichever suits it
            mine_shoots, theirs_shoot = self._side_values(state, q)
            return (max if same_team else min)(mine_shoots, theirs_shoot) + pts
        mine_shoots, theirs_shoot = self._side_values(state, q)
        return (mine_shoots if same_team and state.phase is not Phase.OPTION else theirs_shoot) + pts

    def _side_values(self, state, q: float) -> tuple[float, float]:
        """(value for ``me`` when my side shoots next, value for ``me`` when the other side
        does), the shooter's next shot of quality ``q`` (module docstring, step 4)."""
        if self.value_model == "fitted" and state.discipline == "nine_ball":
            from poolgym.rules.core import CueBallPlacement

            bih = state.cue_ball is not CueBallPlacement.IN_POSITION and not state.cue_placed
            vm = self.value_table.win(len(state.balls_on_table()), q, bih)
            return vm, 1.0 - vm
        if self.value_model == "runout" and state.discipline == "nine_ball" and self.runout_r_other is not None:
            n = len(state.balls_on_table())
            r, ro = self.runout_r, self.runout_r_other
            mine = runout_value2(q, n, r, ro)  # my side shoots
            theirs = runout_value2(q, n, ro, r)  # the other side shoots, for it
            if self.safety_q is not None:  # with no good pot the shooter plays safe instead
                mine = max(mine, 1.0 - runout_value2(self.safety_q, n, ro, r))
                theirs = max(theirs, 1.0 - runout_value2(self.safety_q, n, r, ro))
            return mine, 1.0 - theirs
        if self.value_model == "runout" and state.discipline == "nine_ball":
            n = len(state.balls_on_table())
            vm = runout_value(q, n, self.runout_r)
            if self.safety_q is not None:  # with no good pot the shooter plays safe instead
                vm = max(vm, 1.0 - runout_value(self.safety_q, n, self.runout_r))
            return vm, 1.0 - vm
        return 0.4 + 0.6 * q, 0.4 * (1.0 - q)

    def quality(self, disc, state, table) -> float:
        """Make probability of the best next pot for the seat to act (with `q_weights` beyond
        one weight: ``min(1, sum_k w_k p_k)`` over the best pots, best first, PickPocket style)."""
        from poolgym.rules.core import CueBallPlacement, Phase

        if state.cue_ball is not CueBallPlacement.IN_POSITION and not state.cue_placed:
            return self.bih_quality
        if state.phase is Phase.OPTION:
            spec_targets = ()
        else:
            spec = disc.legal_actions(state)
            spec_targets = spec.target_balls
            if spec.call_required and spec.callable_balls:
                spec_targets = tuple(b for b in spec_targets if b in spec.callable_balls) or spec.callable_balls
        if not spec_targets:
            lb = state.lowest_ball() if state.discipline == "nine_ball" else None
            spec_targets = (lb,) if lb is not None else state.balls_on_table()
        useful = useful_for(disc, state, state.seat_to_act)
        if useful:
            spec_targets = tuple(b for b in spec_targets if b in useful) or spec_targets
        from agents.view import table_geom

        P = state.positions()
        on = state.on_mask()
        if not on[0]:
            return self.bih_quality
        g = table_geom(table)
        if len(self.q_weights) <= 1:
            return float(best_p_from(g, P, on, P[0][None], spec_targets, self.sigma_phi)[0])
        t = pot_table(g, P, on, P[0][None], spec_targets, self.sigma_phi)
        p = np.sort(t["p"].ravel())[::-1][: len(self.q_weights)]
        return float(min(1.0, sum(w * x for w, x in zip(self.q_weights, p))))


def _succeeds(disc, obs: Observation, action, sim, checked: dict, success) -> bool:
    """Whether the simulated outcome ``sim`` (a `physics.BatchResult` row) of ``action`` from the
    observed state is a success for the seat that plays it: a finished game it wins, or, the
    game going on, ``success(new state, verdict)``; an outcome the referee cannot rule is none."""
    from poolgym.rules.core import Phase
    from poolgym.rules.shot_record import ShotRecord

    try:
        new, verdict = rule_outcome(disc, obs.state, action, ShotRecord.from_sim(sim), checked)
    except Exception:  # noqa: BLE001 - an outcome the referee cannot rule: no success
        return False
    if new.phase is Phase.GAME_OVER:
        return game_over_value(disc, new, obs.seat) > 0.5
    return bool(success(new, verdict))


def _no_foul(new, verdict) -> bool:
    """G-3.18: the stroke fouled nowhere (the legal ball first, then a rail or a pocket)."""
    return verdict is not None and not verdict.fouls


def _true_runs(ok) -> list[tuple[int, int]]:
    """(first, last) index of each run of True in ``ok``, in order."""
    runs, start = [], None
    for m, x in enumerate(list(ok) + [False]):
        if x and start is None:
            start = m
        elif not x and start is not None:
            runs.append((start, m - 1))
            start = None
    return runs


def _window_centre(offs: np.ndarray, ok: np.ndarray) -> float | None:
    """Centre of the run of True in ``ok`` (over the sorted offsets ``offs``) that holds offset
    0, else of the longest run (nearest 0 on a tie); None when ``ok`` has no True."""
    runs = _true_runs(ok)
    if not runs:
        return None
    zero = int(np.argmin(np.abs(offs)))
    for a, b in runs:
        if a <= zero <= b:
            return 0.5 * float(offs[a] + offs[b])
    a, b = max(runs, key=lambda r: (r[1] - r[0], -abs(offs[r[0]] + offs[r[1]])))
    return 0.5 * float(offs[a] + offs[b])


def _circular_windows(ok: np.ndarray, k: int) -> list[float]:
    """Centres (in index units, possibly fractional) of the `k` longest runs of True in the
    circular array ``ok``, longest first (ties: the lower start); every index when all are True
    counts as one run centred at 0."""
    n = len(ok)
    if not ok.any():
        return []
    if ok.all():
        return [0.0]
    start = int(np.argmin(ok))  # a False: runs do not wrap past it
    runs = _true_runs(np.roll(ok, -start))
    runs.sort(key=lambda r: (-(r[1] - r[0]), (start + r[0]) % n))
    return [((start + 0.5 * (a + b)) % n) for a, b in runs[:k]]


def _is_push_reply(options) -> bool:
    """The offered options are the reply to a push-out (9B-5.6)."""
    from poolgym.rules.core import Option

    return Option.ACCEPT_TABLE in options and Option.PASS_BACK in options


def game_over_value(disc, state, me: int) -> float:
    """Value of a finished game for seat ``me`` from the rules' per-seat returns
    (`poolgym.rules.returns`, any number of seats and teams): 1 for a positive return (a win,
    also a partner's), 0 for a negative one, 1/2 for zero (a draw)."""
    r = float(disc.returns(state)[me])
    return 1.0 if r > 0 else (0.0 if r < 0 else 0.5)


def useful_for(disc, state, seat: int) -> tuple | None:
    """The balls whose pocketing serves ``seat`` (`DisciplineBase.useful_balls`), or None when
    the rules do not say (every legal ball serves) or cannot tell from the agent's view (another
    seat's secret is not in it)."""
    q = getattr(disc, "useful_balls", None)
    if q is None:
        return None
    try:
        return q(state, seat)
    except (TypeError, AttributeError, IndexError, KeyError):
        return None


def contact_shots(v, contacts, speeds, n_balls: int) -> list:
    """(phi, V0) of strokes at the `n_balls` nearest legal balls with a clear path, aimed at
    fractions ``k`` of a full-ball offset (``k`` in `contacts`: 0 full ball, +-1 the thinnest
    hit on either side), each at the stick speeds `speeds`: the safety spread the search
    scores by the position it leaves (PickPocket's safety generation)."""
    g = v.geom
    R = g.R
    cue = v.balls[0]
    idx = np.arange(len(v.on))
    clear = []
    for b in v.targets:
        if not v.on[b]:
            continue
        others = v.balls[v.on & (idx != 0) & (idx != b)]
        if segment_clear(cue, v.balls[b], others, 2.0 * R * 0.999):
            clear.append((float(np.linalg.norm(v.balls[b] - cue)), int(b)))
    out = []
    for _, b in sorted(clear)[: max(n_balls, 0)]:
        u = unit(v.balls[b] - cue)
        perp = np.array([-u[1], u[0]])
        for k in contacts:
            aim = v.balls[b] + perp * (2.0 * R * float(k) * 0.95)
            for V0 in speeds:
                out.append((phi_deg(cue, aim), float(V0)))
    return out


def runout_win(n: int, r: float) -> float:
    """Win probability of the seat at the table with `n` balls to pocket when every shot is
    made with probability `r` and a miss hands the same situation to the opponent:
    A(0) = 1, A(n) = (r A(n-1) + 1 - r) / (2 - r)."""
    a = 1.0
    for _ in range(int(n)):
        a = (r * a + 1.0 - r) / (2.0 - r)
    return a


def runout_value(q: float, n: int, r: float) -> float:
    """Value for the seat to act with `n` balls left and a next pot of probability `q`:
    make it and stand at A(n-1), or miss and leave the opponent at A(n) (`runout_win`)."""
    return q * runout_win(n - 1, r) + (1.0 - q) * (1.0 - runout_win(n, r))


@functools.lru_cache(maxsize=4096)
def runout_pair(n: int, r: float, r_other: float) -> tuple[float, float]:
    """(A(n), B(n)): the win probabilities of the seat at the table with `n` balls to pocket
    (A) and of the other side in its place (B) when the seat makes each shot with probability
    `r`, the other side with `r_other`, and a miss hands the same situation over:
    A(0) = B(0) = 1, A(n) = r A(n-1) + (1 - r)(1 - B(n)), B(n) = r_other B(n-1) + (1 - r_other)
    (1 - A(n)), solved for A(n) and B(n) at each n. With r_other = r both are `runout_win`."""
    a = b = 1.0
    ro = r_other
    for _ in range(int(n)):
        d = 1.0 - (1.0 - r) * (1.0 - ro)
        a, b = (r * a + (1.0 - r) * ro * (1.0 - b)) / d, (ro * b + (1.0 - ro) * r * (1.0 - a)) / d
    return a, b


def runout_value2(q: float, n: int, r: float, r_other: float) -> float:
    """`runout_value` with the other side making its shots with probability `r_other`: the
    seat to act makes its next pot (probability `q`) and stands at A(n-1), or misses and the
    other side stands at B(n) (`runout_pair`)."""
    return q * runout_pair(n - 1, r, r_other)[0] + (1.0 - q) * (1.0 - runout_pair(n, r_other, r)[0])


def direct_hit_possible(v) -> bool:
    """Some legal ball can be hit directly (cue path clear of the other balls by 2R)."""
    cue = v.balls[0]
    idx = np.arange(len(v.on))
    for b in v.targets:
        if not v.on[b]:
            continue
        others = v.balls[v.on & (idx != 0) & (idx != b)]
        if segment_clear(cue, v.balls[b], others, 2.0 * v.geom.R * 0.999):
            return True
    return False


def kick_shots(v) -> list:
    """(phi, V0) of one-rail kicks (mirror image) at every legal ball off each cushion."""
    out = []
    cue = v.balls[0]
    for b in v.targets:
        if not v.on[b]:
            continue
        for phi in mirror_kick_phis(v.geom, cue, v.balls[b]):
            out.append((float(phi), 2.5))
    return out


def nine_combos(v) -> list:
    """(phi, V0) of combinations lowest ball -> 9 -> pocket (9B-5.1: the 9 pocketed on a legal
    shot wins): the lowest ball is sent at the 9's ghost ball for each pocket (ghost-ball aim
    twice), keeping the shots whose three paths are clear and whose cuts stay below 60 deg."""
    if not v.targets or len(v.on) <= 9 or not v.on[9] or 9 in v.targets:
        return []
    g = v.geom
    R = g.R
    L = int(v.targets[0])
    cue, pl, p9 = v.balls[0], v.balls[L], v.balls[9]
    idx = np.arange(len(v.on))
    others = lambda *ex: v.balls[v.on & ~np.isin(idx, ex)]  # noqa: E731
    aims, axes = g.aim_points(), g.pocket_axes()
    out = []
    for k in range(6):
        u9 = unit(aims[k] - p9)
        if float(u9 @ axes[k]) < 0.5:
            continue
        g9 = p9 - 2.0 * R * u9
        if not g.in_bed(g9)[0] or not segment_clear(p9, aims[k], others(0, L, 9), 2 * R * 0.999):
            continue
        uL = unit(g9 - pl)
        if float(uL @ u9) < math.cos(math.radians(60.0)):
            continue
        if not segment_clear(pl, g9, others(0, L, 9), 2 * R * 0.999):
            continue
        gL = pl - 2.0 * R * uL
        u1 = unit(gL - cue)
        cut1 = math.acos(float(np.clip(u1 @ uL, -1.0, 1.0)))
        if cut1 > math.radians(60.0) or not segment_clear(cue, gL, others(0, L), 2 * R * 0.999):
            continue
        d9 = float(np.linalg.norm(aims[k] - p9))
        dL = float(np.linalg.norm(g9 - pl))
        d1 = float(np.linalg.norm(gL - cue))
        cut9 = math.acos(float(np.clip(uL @ u9, -1.0, 1.0)))
        # the 9 must reach the pocket; the 1 must reach the 9 fast enough (ghost-ball speed
        # transfer (1 + e_b)/2 cos(cut) at each contact, poolgym.planning)
        v9 = launch_speed_for(d9, ARRIVAL_SPEED)
        V0 = v0_for_pot(d1, dL, cut1, v_arrive=v9 / (0.5 * (1.0 + DEFAULT_E_B) * max(math.cos(cut9), 0.3)))
        out.append((phi_deg(cue, gL), float(V0)))
    return out
