"""The geometric player: ghost-ball aim with path clearance, shot scoring, safeties and placement.

It is the one geometric player of the project: the envs' built-in ``"geometric"`` opponent
(`poolgym.envs.opponents.GeometricOpponent`) and the ``geometric`` agent
(`agents.geometric.GeometricAgent`, which the search agent extends) are this class. It plans
with `poolgym.planning` and acts on an `Observation` (`poolgym.players.view`).

Shots (Phase.PLAY):
    every direct pot of a legal ball (`View.pot_balls`) into every pocket is built by ghost-ball
    aim (`poolgym.planning.pot_candidates`): cue path and object path must be clear of other
    balls, the cut below 80 deg, the approach inside the pocket's acceptance cone. Each pot is
    scored by its make probability under the player's aim noise (error propagation through the
    cut, see `poolgym.planning`). The best one is played with the speed that brings the object
    ball to the pocket at `ARRIVAL_SPEED` plus a margin (`speed_margin`). A call (ball, pocket)
    is attached when the discipline requires it (8B-4.10, SP-6.3).
Eight-ball:
    the 8 while it is not the ball on is a "danger" ball: cue and object paths keep 4R from it
    (8B-4.19, 8B-4.20), safeties avoid driving towards it; a pot on the 8 is previewed with one
    batched noiseless simulation over three speeds and three spins and the first variant that
    does not scratch is played (8B-4.19: a scratch on the 8 loses); if all scratch, a safety.
Safety (nothing makeable with p >= `min_p`):
    hit a legal ball full in the face with enough speed to drive it to a rail (the legal-shot
    requirement G-3.19 / 9B-5.9: a ball must reach a rail after contact), or, if no direct path
    is clear, the shortest one-rail kick whose two legs are clear (mirror image); declared as a
    safety when the rules allow it
    (8B-4.12, SP-6.7.4).
Break (Phase.BREAK):
    cue ball placed in the kitchen near the head string, struck hard and slightly below centre at
    the apex ball of the rack.
Push-out (9B-5.6):
    taken only when no pot reaches `push_p`: a soft roll towards the table centre line.
Options:
    ACCEPT_TABLE (shoot from the position) when the best pot from the position is at least
    `accept_p`, else PASS_BACK; SPOT_EIGHT_AND_PLAY over RERACK_AND_BREAK after an 8 on the
    break (8B-4.8) only with a makeable shot; BREAK over CEDE_BREAK (G-3.7); GW-5 spotting
    requests accepted. Unknown options: the first offered.
Ball in hand (GB-8, GW-5, G-3.10):
    candidate spots behind each legal ball lined up with each pocket (`straight_in_placements`),
    the one with the best make probability wins; random valid spot as a fallback. Every spot
    is one the referee accepts (`poolgym.planning.placements_valid`).
"""

from __future__ import annotations

import numpy as np

from poolgym.planning import (
    V0_MAX,
    PotCandidate,
    best_straight_in_placement,
    launch_speed_for,
    phi_deg,
    placement_is_valid,
    pot_candidates,
    random_placement,
    segment_clear,
    v0_for_cue_speed,
    v0_for_pot,
)
from poolgym.players.view import Decision, Observation, View, declared, view_of

#: Aim noise (deg) assumed when scoring shots; ICGA phi noise is 0.125 deg.
DEFAULT_SIGMA_PHI = 0.125
BREAK_V0 = 7.5


def _noise_sigma_phi(noise) -> float:
    """Aim noise assumed for planning from a noise spec (None/'none'/'icga'/ExecutionNoise)."""
    if noise is None or noise == "none":
        return DEFAULT_SIGMA_PHI
    if noise == "icga":
        return 0.125
    return float(getattr(noise, "sigma_phi", DEFAULT_SIGMA_PHI)) or DEFAULT_SIGMA_PHI


class GeometricPlayer:
    """Ghost-ball player (see module docstring). ``act(obs)`` returns one rules action; the
    player draws from ``self.rng`` only (push-out direction, fallback placements), which its
    owner seeds (the agent from its seed, the env opponent with the env's generator).

    Args:
        noise: execution noise the player plans for ('icga', 'none' or an ExecutionNoise).
        min_p: smallest make probability worth shooting instead of playing safe.
        accept_p: smallest make probability to accept a table after a push-out.
        push_p: push out (when allowed) only if no pot reaches this probability.
        speed_margin: factor on the planned stick speed.
    """

    def __init__(self, noise="icga", min_p: float = 0.12, accept_p: float = 0.45, push_p: float = 0.2,
                 speed_margin: float = 1.15, rng: np.random.Generator | None = None):
        if rng is not None or not hasattr(self, "rng"):
            self.rng = np.random.default_rng() if rng is None else rng
        self.sigma_phi = _noise_sigma_phi(noise)
        self.min_p = float(min_p)
        self.accept_p = float(accept_p)
        self.push_p = float(push_p)
        self.speed_margin = float(speed_margin)

    # ------------------------------------------------------------------ entry point
    def act(self, obs: Observation):
        from poolgym.rules.core import ChooseOption, Option

        d = declared(obs.spec)
        if d is not None:
            return d
        v = view_of(obs)
        if v.decision is Decision.OPTION:
            return self.choose_option(v, obs)
        if Option.SPOT_NEAREST_KITCHEN_BALL in v.options:
            return ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL)  # GW-5: every ball is in the kitchen
        if v.decision is Decision.PLACE:
            return self.place(v)
        if v.decision is Decision.SHOOT:
            return self.shoot(v, obs)
        raise ValueError(f"spec: no legal action for seat {obs.seat} in phase {obs.spec.phase}")

    # ------------------------------------------------------------------ scoring
    def candidates(self, v: View, balls: np.ndarray | None = None, on: np.ndarray | None = None,
                   targets=None) -> list[PotCandidate]:
        """Direct pots from a layout (default: the current one), best first."""
        balls = v.balls if balls is None else balls
        on = v.on if on is None else on
        if not on[0]:
            return []
        targets = v.pot_balls if targets is None else targets
        return pot_candidates(v.geom, balls, on, 0, targets, self.sigma_phi, danger=v.danger)

    def best_p(self, v: View, balls=None, on=None, targets=None) -> float:
        c = self.candidates(v, balls, on, targets)
        return c[0].p_make if c else 0.0

    # ------------------------------------------------------------------ decisions
    def choose_option(self, v: View, obs: Observation):
        from poolgym.rules.core import ChooseOption, Option

        opts = list(v.options)
        targets = v.pot_balls or _default_targets(obs)
        p = self.best_p(v, targets=targets)
        pref = {
            Option.ACCEPT_TABLE: p,
            Option.PASS_BACK: self.accept_p,
            Option.SPOT_EIGHT_AND_PLAY: max(p, 0.4),
            Option.RERACK_AND_BREAK: 0.5,
            Option.OPPONENT_REBREAKS: 0.45,
            Option.BREAK: 0.6,
            Option.CEDE_BREAK: 0.4,
            Option.SPOT_NEAREST_KITCHEN_BALL: 0.7,
            Option.DECLINE: 0.3,
        }
        best = max(opts, key=lambda o: (pref.get(o, 0.0), -opts.index(o)))
        return ChooseOption(best)

    def place(self, v: View):
        from poolgym.rules.core import PlaceCueBall

        if v.is_break:
            return PlaceCueBall(*self.break_spot(v))
        best = best_straight_in_placement(v.geom, v.balls, v.on, v.pot_balls or v.targets, self.sigma_phi,
                                          kitchen=v.kitchen, danger=v.danger)
        if best is None:
            best = random_placement(v.geom, v.balls, v.on, self.rng, kitchen=v.kitchen)
            if best is None:  # pragma: no cover
                raise RuntimeError("geometric agent found no valid cue-ball placement")
        return PlaceCueBall(*best)

    def break_spot(self, v: View) -> tuple[float, float]:
        """Kitchen spot for the break: on the long string just behind the head string."""
        g = v.geom
        for dx in (0.0, 0.1, -0.1, 0.2, -0.2, 0.3, -0.3):
            xy = np.array([g.w / 2 + dx, g.head_string_y - 3.0 * g.R])
            if placement_is_valid(g, xy, v.balls, v.on, kitchen=True):
                return float(xy[0]), float(xy[1])
        xy = random_placement(g, v.balls, v.on, self.rng, kitchen=True)
        return xy

    def shoot(self, v: View, obs: Observation | None = None):
        from poolgym.rules.core import ShotAction

        if v.is_lag:
            return self.lag_shot(v)
        if v.is_break:
            return self.break_shot(v)
        cands = self.candidates(v)
        best_p = cands[0].p_make if cands else 0.0
        if v.push_out_allowed and best_p < self.push_p:
            return self.push_out(v)
        if cands and best_p >= self.min_p:
            c = cands[0]
            V0, spin = min(c.V0 * self.speed_margin, V0_MAX), self.spin_for(c, v)
            if obs is not None and c.ball == 8 and obs.discipline == "eight_ball":
                safe = self._safe_eight(obs, cands)
                if safe is None:  # every previewed pot on the 8 scratches: play safe instead
                    return self.safety(v, [])
                c, V0, spin = safe
            call_b, call_p = (c.ball, c.pocket) if v.call_required or v.callable_balls else (None, None)
            return ShotAction(V0=V0, phi=c.phi, b=spin, called_ball=call_b, called_pocket=call_p)
        return self.safety(v, cands)

    def lag_shot(self, v: View):
        """G-3.6: send the cue ball to the foot rail so it comes back to rest near the head rail."""
        from poolgym.rules.core import ShotAction

        g = v.geom
        y0 = float(v.balls[0][1])
        dist = (g.l - g.R - y0) + 0.8 * (g.l - 2 * g.R)
        v_launch = launch_speed_for(dist / 0.85, 0.0)  # ~15% lost at the cushion
        return ShotAction(V0=float(min(v0_for_cue_speed(v_launch), V0_MAX)), phi=90.0)

    def _safe_eight(self, obs: Observation, cands: list[PotCandidate]):
        """8B-4.19: pocketing the 8 with a scratch loses the game. Preview pots on the 8 (best
        first; stick speed x 1.0 / 0.8 / 1.3, tip centre / draw / follow) with one batched
        noiseless simulation; return (candidate, V0, b) of the first preview that pockets the 8
        with the cue ball staying on the table, or None."""
        import physics
        from poolgym.rules.game import physics_inputs

        variants = [(f, b) for f in (1.0, 0.8, 1.3) for b in (0.0, -0.3, 0.3)]
        eights = [c for c in cands if c.ball == 8][:3]
        if not eights:
            return None
        rvw, s = physics_inputs(obs.state)
        rows = [(c, float(np.clip(c.V0 * self.speed_margin * f, 0.2, V0_MAX)), b) for c in eights for f, b in variants]
        shots = np.array([[V0, c.phi, 0.0, 0.0, b] for c, V0, b in rows])
        B = len(rows)
        try:
            res = physics.simulate_batch(obs.table, np.broadcast_to(rvw, (B,) + rvw.shape).copy(), shots,
                                         np.zeros(B, dtype=np.int64), s=np.broadcast_to(s, (B,) + s.shape).copy())
        except ValueError:
            return None
        for k, row in enumerate(rows):
            if int(res.pocket[k, 0]) < 0 and int(res.s[k, 0]) not in (4, 6) and int(res.pocket[k, 8]) >= 0:
                return row
        return None

    def spin_for(self, c: PotCandidate, v: View) -> float:
        """Vertical tip offset of a pot: centre ball. (The planned speed assumes no spin; draw
        or follow would need the speed model of a spinning ball, which this baseline omits.)"""
        return 0.0

    def break_shot(self, v: View):
        from poolgym.rules.core import ShotAction

        cue = v.balls[0]
        pool = [b for b in (v.targets or range(1, len(v.on))) if v.on[b]]
        apex = min(pool, key=lambda b: np.linalg.norm(v.balls[b] - cue))
        call_b = call_p = None
        if v.call_required and v.callable_balls:
            call_b, call_p = int(v.callable_balls[0]), 2
        return ShotAction(V0=BREAK_V0, phi=phi_deg(cue, v.balls[apex]), b=-0.1,
                          called_ball=call_b, called_pocket=call_p)

    def _kick(self, v: View, cue: np.ndarray, on: np.ndarray, idx: np.ndarray):
        """Shortest clear one-rail kick at a legal ball: (score, phi, V0, ball) or None."""
        g = v.geom
        best = None
        for b in v.targets:
            if not on[b]:
                continue
            obj = v.balls[b]
            others = v.balls[on & (idx != 0) & (idx != b)]
            for axis, wall in ((0, g.R), (0, g.w - g.R), (1, g.R), (1, g.l - g.R)):
                P = _kick_point(g, cue, obj, axis, wall)
                if P is None:
                    continue
                if not (segment_clear(cue, P, others, 2.0 * g.R * 0.999) and
                        segment_clear(P, obj, others, 2.0 * g.R * 0.999)):
                    continue
                if any(not (segment_clear(cue, P, v.balls[[d]], 4.0 * g.R) and
                            segment_clear(P, obj, v.balls[[d]], 4.0 * g.R)) for d in v.danger):
                    continue
                dist = float(np.linalg.norm(P - cue) + np.linalg.norm(obj - P))
                V0 = v0_for_pot(dist / 0.8, 0.3, 0.0, v_arrive=0.4)  # ~20% speed lost at the cushion
                if best is None or -dist > best[0]:
                    best = (-dist, phi_deg(cue, P), V0, b)
        return best

    def push_out(self, v: View):
        """9B-5.6: a soft roll towards the long string (nothing needs to be hit)."""
        from poolgym.rules.core import ShotAction

        g = v.geom
        cue = v.balls[0]
        tgt = np.array([g.w / 2, g.l / 2 + self.rng.uniform(-0.3, 0.3)])
        return ShotAction(V0=0.8, phi=phi_deg(cue, tgt), push_out=True)

    def safety(self, v: View, cands: list[PotCandidate]):
        """Hit a legal ball hard enough to reach a rail; kick if no direct line (G-3.19)."""
        from poolgym.rules.core import ShotAction

        g = v.geom
        cue = v.balls[0]
        on = v.on.copy()
        idx = np.arange(len(on))
        declare = bool(v.safety_allowed)
        best = None
        for b in v.targets:
            if not on[b]:
                continue
            others = v.balls[on & (idx != 0) & (idx != b)]
            obj = v.balls[b]
            d_rail = _distance_to_rail(g, obj, obj - cue)
            to_rail = obj + d_rail * (obj - cue) / max(float(np.linalg.norm(obj - cue)), 1e-9)
            danger_ok = all(segment_clear(cue, obj, v.balls[[d]], 4.0 * g.R) and
                            segment_clear(obj, to_rail, v.balls[[d]], 4.0 * g.R) for d in v.danger)
            if danger_ok and segment_clear(cue, obj, others, 2.0 * g.R * 0.999):
                d1 = float(np.linalg.norm(obj - cue))
                V0 = v0_for_pot(max(d1 - 2 * g.R, 0.0), d_rail, 0.0, v_arrive=0.35 if v.danger else 0.6)
                score = -d1 - d_rail
                if best is None or score > best[0]:
                    best = (score, phi_deg(cue, obj), V0, b)
        if best is None:
            best = self._kick(v, cue, on, idx)
        if best is None:  # nothing clear: a soft direct stroke at the nearest legal ball
            tg = [b for b in v.targets if on[b]]
            if tg:
                b = min(tg, key=lambda k: float(np.linalg.norm(v.balls[k] - cue)))
                best = (0.0, phi_deg(cue, v.balls[b]), 1.5, b)
            else:
                best = (0.0, float(self.rng.uniform(0, 360)), 1.5, None)
        _, phi, V0, b = best
        call_b = call_p = None
        if v.call_required and not declare and v.callable_balls:
            c = cands[0] if cands else None
            call_b = c.ball if c else (b if b in v.callable_balls else v.callable_balls[0])
            call_p = c.pocket if c else 0
        return ShotAction(V0=float(min(V0 * self.speed_margin, V0_MAX)), phi=float(phi),
                          called_ball=call_b, called_pocket=call_p, safety=declare and not call_b)


def _kick_point(g, cue: np.ndarray, obj: np.ndarray, axis: int, wall: float):
    """Cushion contact point (ball-centre frame) of a one-rail kick from cue to obj (mirror image)."""
    img = np.array(obj, float)
    img[axis] = 2.0 * wall - img[axis]
    d = img - cue
    if abs(d[axis]) < 1e-9:
        return None
    t = (wall - cue[axis]) / d[axis]
    if not 0.0 < t < 1.0:
        return None
    return cue + t * d


def _distance_to_rail(g, p: np.ndarray, direction: np.ndarray) -> float:
    """Distance from p along `direction` to the first cushion line (ball-centre frame)."""
    d = np.asarray(direction, float)
    n = float(np.linalg.norm(d))
    if n == 0:
        return 0.5
    d = d / n
    ts = []
    for axis, lo, hi in ((0, g.R, g.w - g.R), (1, g.R, g.l - g.R)):
        if d[axis] > 1e-9:
            ts.append((hi - p[axis]) / d[axis])
        elif d[axis] < -1e-9:
            ts.append((lo - p[axis]) / d[axis])
    return float(max(min(ts), 0.0)) if ts else 0.5


def _default_targets(obs: Observation) -> tuple:
    """Balls to evaluate a position for when the spec does not list targets (OPTION phase)."""
    state = obs.state
    if obs.discipline == "nine_ball":
        lb = state.lowest_ball()
        return (lb,) if lb is not None else ()
    return tuple(state.balls_on_table())


__all__ = ["GeometricPlayer"]
