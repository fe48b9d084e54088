"""Test oracle: the geometric player's decisions composed in plain Python from the public
planning functions (`pot_candidates`, `segment_clear`, `v0_for_pot`, `phi_deg`,
`best_p_from`, `straight_in_placements`), one noiseless physics preview per table of the pots
on the 8 and one per speed factor of an eight-ball safety while the 8 is on the table, with
numpy norms. The player itself (`poolgym.players.geometric.GeometricPlayer`) decides with one
compiled kernel over tables (`poolgym.players.kernels.decide_tables`); the tests compare the
two (`tests/envs/test_opponent_oracle.py`)."""
from __future__ import annotations

import numpy as np

from poolgym.planning import (
    V0_MAX,
    best_p_from,
    phi_deg,
    segment_clear,
    straight_in_placements,
    v0_for_pot,
)
from poolgym.players.geometric import PREVIEW_VARIANTS, SAFETY_FACTORS, GeometricPlayer, _default_targets
from poolgym.rules.core import PlaceCueBall


def oracle_straight_in_placement(geom, balls, on, targets, sigma_phi, kitchen=False, danger=()):
    """The valid candidate spots as a list, then `best_p_from` with the cue ball lifted, the
    first best spot (None when no spot is valid)."""
    pts = straight_in_placements(geom, balls, on, targets, kitchen=kitchen)
    if not pts:
        return None
    lifted = np.asarray(on, bool).copy()
    lifted[0] = False
    ps = best_p_from(geom, balls, lifted, np.array(pts), targets, sigma_phi, danger=danger)
    return pts[int(np.argmax(ps))]


def kick_point(g, cue, obj, axis, wall):
    """Cushion contact point of a one-rail kick from cue to obj (mirror image), or None."""
    img = np.array(obj, float)
    img[axis] = 2.0 * wall - img[axis]
    d = img - cue
    if abs(d[axis]) < 1e-9:
        return None
    t = (wall - cue[axis]) / d[axis]
    if not 0.0 < t < 1.0:
        return None
    return cue + t * d


def distance_to_rail(g, p, direction):
    """Distance from p along ``direction`` to the first cushion line (ball-centre frame)."""
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


class ReferencePlayer(GeometricPlayer):
    """The geometric player's strategy (module docstring of `poolgym.players.geometric`)
    step by step in Python."""

    def choose_option(self, v, obs):
        targets = v.pot_balls or _default_targets(obs)
        return self.option_for(v.options, self.best_p(v, targets=targets))

    def place(self, v):
        if v.is_break:
            return super().place(v)
        best = oracle_straight_in_placement(v.geom, v.balls, v.on, v.pot_balls or v.targets, self.sigma_phi,
                                            kitchen=v.kitchen, danger=v.danger)
        if best is None:
            return super().place(v)  # the random fallback, identical in both
        return PlaceCueBall(*best)

    def shoot(self, v, obs=None):
        from poolgym.rules.core import ShotAction

        if v.is_lag or v.is_break:
            return super().shoot(v, obs)
        self._obs = obs  # for the safety's preview (`safe_safety_factor`)
        cands = self.candidates(v)
        best_p = cands[0].p_make if cands else 0.0
        if v.push_out_allowed and best_p < self.push_p:
            return self.push_out(v)
        if cands and best_p >= self.min_p:
            c = cands[0]
            V0, spin = min(c.V0 * self.speed_margin, V0_MAX), 0.0
            if obs is not None and c.ball == 8 and obs.discipline == "eight_ball":
                safe = self.safe_eight(obs, cands)
                if safe is None:
                    return self.safety(v, [])
                c, V0, spin = safe
            call_b, call_p = (c.ball, c.pocket) if v.call_required or v.callable_balls else (None, None)
            return ShotAction(V0=V0, phi=c.phi, b=spin, called_ball=call_b, called_pocket=call_p)
        return self.safety(v, cands)

    def safe_eight(self, obs, cands):
        """8B-4.19: the first noiseless preview (best pots on the 8, `PREVIEW_VARIANTS`)
        that pockets the 8 without a scratch, one simulation call per table."""
        import physics
        from poolgym.rules.game import physics_inputs

        eights = [c for c in cands if c.ball == 8][:3]
        rvw, s = physics_inputs(obs.state)
        rows = [(c, float(np.clip(c.V0 * self.speed_margin * f, 0.2, V0_MAX)), b) for c in eights
                for f, b in PREVIEW_VARIANTS]
        shots = np.array([[V0, c.phi, 0.0, 0.0, b] for c, V0, b in rows])
        B = len(rows)
        res = physics.simulate_batch(obs.table, np.broadcast_to(rvw, (B,) + rvw.shape).copy(), shots,
                                     np.zeros(B, dtype=np.int64), s=np.broadcast_to(s, (B,) + s.shape).copy())
        for k, row in enumerate(rows):
            if int(res.pocket[k, 0]) < 0 and int(res.s[k, 0]) not in (4, 6) and int(res.pocket[k, 8]) >= 0:
                return row
        return None

    def safe_safety_factor(self, obs, phi, V0):
        """8B-4.20: the first of `SAFETY_FACTORS` whose safety (V0 x factor x speed margin),
        simulated without noise one factor at a time, leaves the 8 on the bed (1.0 if none)."""
        import physics
        from poolgym.rules.game import physics_inputs

        rvw, s = physics_inputs(obs.state)
        for f in SAFETY_FACTORS:
            shot = np.array([[float(min(V0 * f * self.speed_margin, V0_MAX)), phi, 0.0, 0.0, 0.0]])
            res = physics.simulate_batch(obs.table, rvw[None].copy(), shot, np.zeros(1, dtype=np.int64),
                                         s=s[None].copy())
            if int(res.pocket[0, 8]) < 0 and int(res.s[0, 8]) != int(physics.Motion.OFF_TABLE):
                return f
        return 1.0

    def kick(self, v, cue, on, idx):
        g = v.geom
        best = None
        for b in v.targets:
            if not on[b]:
                continue
            obj = v.balls[b]
            others = v.balls[on & (idx != 0) & (idx != b)]
            for axis, wall in ((0, g.R), (0, g.w - g.R), (1, g.R), (1, g.l - g.R)):
                P = kick_point(g, cue, obj, axis, wall)
                if P is None:
                    continue
                if not (segment_clear(cue, P, others, 2.0 * g.R * 0.999) and
                        segment_clear(P, obj, others, 2.0 * g.R * 0.999)):
                    continue
                if any(not (segment_clear(cue, P, v.balls[[d]], 4.0 * g.R) and
                            segment_clear(P, obj, v.balls[[d]], 4.0 * g.R)) for d in v.danger):
                    continue
                dist = float(np.linalg.norm(P - cue) + np.linalg.norm(obj - P))
                V0 = v0_for_pot(dist / 0.8, 0.3, 0.0, v_arrive=0.4)
                if best is None or -dist > best[0]:
                    best = (-dist, phi_deg(cue, P), V0, b)
        return best

    def safety(self, v, cands):
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
            d_rail = distance_to_rail(g, obj, obj - cue)
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
            best = self.kick(v, cue, on, idx)
        if best is None:
            tg = [b for b in v.targets if on[b]]
            if tg:
                b = min(tg, key=lambda k: float(np.linalg.norm(v.balls[k] - cue)))
                best = (0.0, phi_deg(cue, v.balls[b]), 1.5, b)
            else:
                best = (0.0, float(self.rng.uniform(0, 360)), 1.5, None)
        _, phi, V0, b = best
        obs = getattr(self, "_obs", None)
        if b is not None and obs is not None and obs.discipline == "eight_ball" and v.on[8]:
            V0 = V0 * self.safe_safety_factor(obs, phi, V0)
        call_b = call_p = None
        if v.call_required and not declare and v.callable_balls:
            c = cands[0] if cands else None
            call_b = c.ball if c else (b if b in v.callable_balls else v.callable_balls[0])
            call_p = c.pocket if c else 0
        return ShotAction(V0=float(min(V0 * self.speed_margin, V0_MAX)), phi=float(phi),
                          called_ball=call_b, called_pocket=call_p, safety=declare and not call_b)
