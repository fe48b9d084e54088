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

The geometry of these decisions (pot choice, push-out and safety choice, placement, option
value) is one compiled kernel over tables (`poolgym.players.kernels.decide_tables`); this
class asks it for one table, `poolgym.players.batch.decide_all` for many at once (the same
kernel, so the same choices). Pots are struck centre ball (the planned speed assumes no
spin). The player draws only where the kernel reports it: push-out direction, fallback
placements, a safety with no legal ball on the table.
"""

from __future__ import annotations

import numpy as np

from poolgym.planning import (
    V0_MAX,
    PotCandidate,
    launch_speed_for,
    phi_deg,
    placement_is_valid,
    pot_candidates,
    random_placement,
    v0_for_cue_speed,
)
from physics.enums import Motion
from poolgym.players.kernels import Kind, Outcome, TableBatch
from poolgym.players.view import Decision, Observation, View, declared, shot_call, view_of
from poolgym.rules.core import ChooseOption, Option, PlaceCueBall, ShotAction

#: `Outcome` values as ints (the hot path compares many)
_PLACED, _POT, _PUSH_OUT = int(Outcome.PLACED), int(Outcome.POT), int(Outcome.PUSH_OUT)
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



def break_line_y(g) -> float:
    """The y of the kitchen line the break is played from: three ball radii behind the head
    string (``g`` a `planning.table_geom`)."""
    return g.head_string_y - 3.0 * g.R


def break_aim_ball(v: View) -> int:
    """The ball the break is aimed at: the legal ball nearest the cue ball (the head ball of
    the rack); among balls equally near up to rounding, the first of them by distance in the
    order of the legal balls."""
    cue = v.balls[0]
    pool = [b for b in (v.targets or range(1, len(v.on))) if v.on[b]]
    d2 = ((v.balls[pool] - cue) ** 2).sum(axis=1)
    near = np.flatnonzero(d2 <= d2.min() * (1.0 + 1e-9))
    if len(near) == 1:  # the nearest ball, clear of the others by far more than rounding
        return int(pool[int(near[0])])
    return int(min(pool, key=lambda b: np.linalg.norm(v.balls[b] - cue)))


def break_call(v: View) -> tuple:
    """(called ball, called pocket) of a break where the rules ask for a call (the first
    callable ball, pocket 2), else (None, None)."""
    if v.call_required and v.callable_balls:
        return int(v.callable_balls[0]), 2
    return None, None

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
    def decide(self, v: View, kind: Kind, pots=(), preview_ball: int = -1) -> TableBatch:
        """`poolgym.players.kernels.decide_tables` for this one table (``kind``, balls to pot
        or place for ``pots``), as a `TableBatch` of one."""
        t = TableBatch(1, len(v.on))
        t.P[0] = v.balls
        t.ON[0] = v.on
        t.set(0, kind, v.targets, pots, v.danger, kitchen=v.kitchen, push_out=v.push_out_allowed)
        return t.run(v.geom, self.sigma_phi, self.min_p, self.push_p, preview_ball)

    def choose_option(self, v: View, obs: Observation):
        targets = v.pot_balls or _default_targets(obs)
        return self.option_for(v.options, float(self.decide(v, Kind.OPTION, targets).F[0, 2]))

    def option_for(self, options, p: float):
        """The one of the offered ``options`` to choose when the best pot from the position
        has make probability ``p``."""
        opts = list(options)
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
        if v.is_break:
            return PlaceCueBall(*self.break_spot(v))
        t = self.decide(v, Kind.PLACE, v.pot_balls or v.targets)
        return self.placement_from(int(t.code[0]), float(t.F[0, 0]), float(t.F[0, 1]), v.geom, v.balls, v.on,
                                   v.kitchen)

    def placement_from(self, code: int, x: float, y: float, geom, balls, on, kitchen: bool):
        """The `PlaceCueBall` of a decided table (``code`` an `Outcome`): its straight-in spot
        (x, y), else a random valid spot for the layout (``balls``, ``on``) drawn from
        ``self.rng``."""
        if code == _PLACED:
            return PlaceCueBall._fast(x, y)
        best = random_placement(geom, balls, on, self.rng, kitchen=kitchen)
        if best is None:  # pragma: no cover
            raise RuntimeError("geometric agent found no valid cue-ball placement")
        return PlaceCueBall(*best)

    def break_spot(self, v: View) -> tuple[float, float]:
        """Kitchen spot for the break: on the long string just behind the head string."""
        g = v.geom
        for dx in (0.0, 0.1, -0.1, 0.2, -0.2, 0.3, -0.3):
            xy = np.array([g.w / 2 + dx, break_line_y(g)])
            if placement_is_valid(g, xy, v.balls, v.on, kitchen=True):
                return float(xy[0]), float(xy[1])
        xy = random_placement(g, v.balls, v.on, self.rng, kitchen=True)
        return xy

    def shoot(self, v: View, obs: Observation | None = None):
        if v.is_lag:
            return self.lag_shot(v)
        if v.is_break:
            return self.break_shot(v)
        eight = preview_ball(None if obs is None else obs.discipline)
        t = self.decide(v, Kind.SHOOT, v.pot_balls, eight)
        previewed = bool(t.code[0] == Outcome.POT and t.I[0, 0] == eight)
        safe = preview_pots(obs.table, [obs.state], [t.E[0, : t.I[0, 4]]], self.speed_margin)[0] if previewed else None
        code, F, I = int(t.code[0]), t.F[0].tolist(), t.I[0].tolist()
        factor = 1.0
        if plays_safety(code, I, previewed, safe) and eight >= 0 and v.on[eight]:
            factor = preview_safeties(obs.table, [obs.state], [(F[3], F[4])], self.speed_margin, eight)[0]
        return self.shot_from(code, F, I, v, v.geom, v.balls[0], previewed, safe, safety_factor=factor)

    def shot_from(self, code: int, F, I, sv, geom, cue, previewed: bool = False, safe=None, noise=None,
                  safety_factor: float = 1.0):
        """The `ShotAction` of a decided table (`Kind.SHOOT`; ``code`` an `Outcome`, ``F`` and
        ``I`` its rows of `TableBatch.F` / `TableBatch.I`; ``sv`` its `View` or `SpecView`; the
        cue ball at ``cue``). ``previewed``: its pot is on the 8 and was previewed (8B-4.19),
        ``safe`` = the preview's (phi, V0, b, pocket), None when every variant scratches (a
        safety is played instead). ``noise``: as in `stroke` (drawn after the decision's own
        draws). ``safety_factor``: the factor on a safety's speed that `preview_safeties`
        found (when `plays_safety`)."""
        if code == _PUSH_OUT:
            return self.push_out_from(geom, cue, noise)
        if code == _POT:
            ball, pocket = I[0], I[1]
            phi, V0, spin = F[0], min(F[1] * self.speed_margin, V0_MAX), 0.0
            if previewed:
                if safe is None:  # every previewed pot on the 8 scratches: play safe instead
                    return self.safety_from(I[2], F[3], F[4] * safety_factor, I[3], None, sv, noise)
                phi, V0, spin, pocket = safe
            call_b, call_p = shot_call(sv, ball, pocket)
            return stroke(V0, phi, 0.0, 0.0, spin, call_b, call_p, False, False, noise)
        return self.safety_from(I[2], F[3], F[4] * safety_factor, I[3], (I[0], I[1]) if I[0] >= 0 else None, sv,
                                noise)

    def lag_shot(self, v: View):
        """G-3.6: send the cue ball to the foot rail so it comes back to rest near the head rail."""
        g = v.geom
        y0 = float(v.balls[0][1])
        dist = (g.l - g.R - y0) + 0.8 * (g.l - 2 * g.R)
        v_launch = launch_speed_for(dist / 0.85, 0.0)  # ~15% lost at the cushion
        return ShotAction(V0=float(min(v0_for_cue_speed(v_launch), V0_MAX)), phi=90.0)

    def break_shot(self, v: View):
        call_b, call_p = break_call(v)
        return ShotAction(V0=BREAK_V0, phi=phi_deg(v.balls[0], v.balls[break_aim_ball(v)]), b=-0.1,
                          called_ball=call_b, called_pocket=call_p)

    def push_out(self, v: View):
        """9B-5.6: a soft roll towards the long string (nothing needs to be hit)."""
        return self.push_out_from(v.geom, v.balls[0])

    def push_out_from(self, g, cue, noise=None):
        """`push_out` from the cue ball at ``cue`` on the table ``g`` (``noise``: as in `stroke`)."""
        tgt = np.array([g.w / 2, g.l / 2 + self.rng.uniform(-0.3, 0.3)])
        return stroke(0.8, phi_deg(cue, tgt), 0.0, 0.0, 0.0, None, None, False, True, noise)

    def safety(self, v: View, cands: list[PotCandidate]):
        """Hit a legal ball hard enough to reach a rail; kick if no direct line (G-3.19)
        (`poolgym.players.kernels.safety_shot`); the call, when one is required, is the best
        of ``cands``."""
        best = (cands[0].ball, cands[0].pocket) if cands else None
        t = self.decide(v, Kind.SAFETY)
        return self.safety_from(int(t.I[0, 2]), float(t.F[0, 3]), float(t.F[0, 4]), int(t.I[0, 3]), best, v)

    def safety_from(self, found: int, phi: float, V0: float, b: int, best, sv, noise=None):
        """The safety `ShotAction` of a decided table (``found``, ``phi``, ``V0``, ``b``: the
        kernel's `safety_shot`; ``sv`` its `View` or `SpecView`); ``best`` = the (ball, pocket)
        of the best pot, called when a call is required (or None); ``noise``: as in `stroke`."""
        if not found:  # no legal ball on the table: any direction
            phi, V0, b = float(self.rng.uniform(0, 360)), 1.5, None
        declare = sv.safety_allowed
        call_b = call_p = None
        if sv.call_required and not declare and sv.callable_balls:
            call_b = best[0] if best else (b if b in sv.callable_balls else sv.callable_balls[0])
            call_p = best[1] if best else 0
        elif sv.call_required and not declare:  # a pocket alone (`shot_call`: no ball may be named)
            call_p = best[1] if best else 0
        return stroke(float(min(V0 * self.speed_margin, V0_MAX)), float(phi), 0.0, 0.0, 0.0, call_b, call_p,
                      declare and not call_b, False, noise)


def stroke(V0, phi, theta, a, b, called_ball, called_pocket, safety: bool, push_out: bool, noise=None):
    """The `ShotAction` with these fields; ``noise`` = (rng, sigma_phi, sigma_v): with Gaussian
    execution noise drawn from ``rng`` now, phi first (``sigma_phi`` deg), then V0
    (``sigma_v`` of the speed, at least 0.1 m/s)."""
    if noise is not None:
        rng, sigma_phi, sigma_v = noise
        dphi, dv = rng.standard_normal(2).tolist()
        V0 = max(0.1, V0 * (1.0 + sigma_v * dv))
        phi = (phi + sigma_phi * dphi) % 360.0
    return ShotAction._fast(V0, phi, theta, a, b, called_ball, called_pocket, safety, push_out)


def preview_ball(discipline: str | None) -> int:
    """The ball whose pots are previewed before they are played (8B-4.19: the 8 in
    eight-ball, where pocketing it with a scratch loses); -1 for none."""
    return 8 if discipline == "eight_ball" else -1


#: the preview's variants of a pot, in order: stick speed factor x vertical tip offset
PREVIEW_VARIANTS = tuple((f, b) for f in (1.0, 0.8, 1.3) for b in (0.0, -0.3, 0.3))


def preview_pots(table, states, pots, speed_margin: float) -> list:
    """8B-4.19: pocketing the 8 with a scratch loses the game. For each table (``states``;
    ``pots``: its pots on the 8 as rows (phi, V0, pocket), best first) every pot is previewed
    with each of `PREVIEW_VARIANTS` (stick speed V0 x ``speed_margin`` x factor, clipped to
    [0.2, V0_MAX]) by a noiseless simulation; per table the first variant, pot by pot, that
    pockets the 8 with the cue ball staying on the table, as (phi, V0, b, pocket), or None
    (also for a table the physics refuses). A simulation's result does not depend on the
    batch it is in, so the variants are simulated in two batched calls: every table's first
    variant, then all variants after it of the tables whose first one failed."""
    import physics
    from poolgym.rules.game import batch_physics_inputs

    rows = []
    for E in pots:
        rows.append([(phi, min(max(V0 * speed_margin * f, 0.2), V0_MAX), b, int(pocket))
                     for phi, V0, pocket in E.tolist() for f, b in PREVIEW_VARIANTS])
    out = [None] * len(states)
    if not any(rows):
        return out
    # every previewed table's physics inputs in one conversion (`physics_inputs` of each)
    todo = [i for i, rs in enumerate(rows) if rs]
    rvw, s = batch_physics_inputs([states[i] for i in todo])
    inputs = [None] * len(states)
    for j, i in enumerate(todo):
        inputs[i] = (rvw[j], s[j])
    # a shot the physics would refuse makes the whole batch fail: previewed as one batch
    flat = np.array([r[:3] for rs in rows for r in rs])
    if not (np.isfinite(flat).all() and (flat[:, 1] <= 50.0).all() and (np.abs(flat[:, 2]) <= physics.CueParams().miscue_limit).all()):
        return _preview_batch(table, inputs, rows, out)
    first = [(i, rows[i][0]) for i in todo]
    try:
        ok = _simulate_previews(physics, table, inputs, first)
    except ValueError:  # a table's layout the physics refuses: as one batch, tables retried alone
        return _preview_batch(table, inputs, rows, out)
    rest = []
    for (i, row), good in zip(first, ok):
        if good:
            out[i] = row
        else:
            rest.extend((i, r) for r in rows[i][1:])
    if rest:
        for (i, row), good in zip(rest, _simulate_previews(physics, table, inputs, rest)):
            if good and out[i] is None:
                out[i] = row
    return out


def plays_safety(code: int, I, previewed: bool, safe) -> bool:
    """A decided table's shot (`GeometricPlayer.shot_from`'s arguments) is a safety at a legal
    ball the kernel found (`safety_from` with ``found``; not a random direction)."""
    if code == _PUSH_OUT:
        return False
    if code == _POT and not (previewed and safe is None):
        return False
    return bool(I[2])


#: the factors on a safety's speed tried, in order, while it would pocket the 8 (`preview_safeties`)
SAFETY_FACTORS = (1.0, 0.7, 0.5, 0.35)


def preview_safeties(table, states, strokes, speed_margin: float, ball: int = 8) -> list:
    """8B-4.20: pocketing the 8 when it is not the legal object ball, or on a foul, or jumping
    it off the table loses the game, and a safety never pockets it legally (no call). For each
    table (``states``; ``strokes``: its safety as the kernel's (phi, V0), the speed before
    ``speed_margin``) the first factor of `SAFETY_FACTORS` whose stroke (V0 x factor x
    ``speed_margin``, clipped to V0_MAX, as `GeometricPlayer.safety_from` plays it), simulated
    without noise, leaves ``ball`` on the bed; 1.0 when every factor loses it or the physics
    refuses the layout. Each factor is simulated in one batched call for the tables still
    undecided (a simulation does not depend on its batch; a batch the physics refuses is
    simulated table by table)."""
    import physics
    from poolgym.rules.game import batch_physics_inputs

    out = [1.0] * len(states)
    if not states:
        return out
    rvw, s = batch_physics_inputs(states)
    inputs = list(zip(rvw, s))

    def keeps(res):
        return (res.pocket[:, ball] < 0) & (res.s[:, ball] != _OFF_TABLE)

    todo = list(range(len(states)))
    for f in SAFETY_FACTORS:
        items = [(i, (strokes[i][0], float(min(strokes[i][1] * f * speed_margin, V0_MAX)), 0.0, None)) for i in todo]
        try:
            ok = _simulate_previews(physics, table, inputs, items, keeps)
        except ValueError:  # a layout the physics refuses: each table alone (None: refused)
            ok = []
            for item in items:
                try:
                    ok += _simulate_previews(physics, table, inputs, [item], keeps)
                except ValueError:
                    ok.append(None)
        left = []
        for i, keep in zip(todo, ok):
            if keep:
                out[i] = f
            elif keep is not None:
                left.append(i)
        todo = left
        if not todo:
            break
    return out


#: `physics.Motion` codes the previews read (POCKETED, OFF_TABLE)
_POCKETED, _OFF_TABLE = int(Motion.POCKETED), int(Motion.OFF_TABLE)


def _pots_the_eight(res):
    """8B-4.19: the 8 pocketed with the cue ball on the table, per table of ``res``."""
    return (res.pocket[:, 0] < 0) & (res.s[:, 0] != _POCKETED) & (res.s[:, 0] != _OFF_TABLE) & (res.pocket[:, 8] >= 0)


def _simulate_previews(physics, table, inputs, items, test=_pots_the_eight) -> list:
    """For each (table index, row) of ``items`` (row = (phi, V0, b, ...)): ``test`` (a bool
    per table of a `physics.BatchResult`; default: it pockets the 8 with the cue ball on the
    table) of the row's shot on that table's ``inputs`` (rvw, s) (one batched call, on this
    thread: waking numba's threads for a few shots on a busy machine costs more than it
    saves; the results are the same)."""
    shots = np.array([[V0, phi, 0.0, 0.0, b] for _, (phi, V0, b, _) in items])
    res = physics.simulate_batch(table, np.stack([inputs[i][0] for i, _ in items]), shots,
                                 np.zeros(len(items), dtype=np.int64), s=np.stack([inputs[i][1] for i, _ in items]),
                                 parallel=False)
    return test(res).tolist()


def _preview_batch(table, inputs, rows, out) -> list:
    """`preview_pots` with every row of every table in one batched call; when the physics
    refuses the batch, each table alone (None for a table it refuses)."""
    import physics

    items = [(i, r) for i, rs in enumerate(rows) for r in rs]
    try:
        ok = _simulate_previews(physics, table, inputs, items)
    except ValueError:
        if sum(1 for rs in rows if rs) <= 1:
            return out
        for i, rs in enumerate(rows):
            if rs:
                out[i] = _preview_batch(table, [inputs[i]], [rs], [None])[0]
        return out
    for (i, row), good in zip(items, ok):
        if good and out[i] is None:
            out[i] = row
    return out


def _default_targets(obs: Observation) -> tuple:
    """Balls to evaluate a position for when the spec does not list targets (OPTION phase)."""
    state = obs.state
    if obs.discipline == "nine_ball":
        lb = state.lowest_ball()
        return (lb,) if lb is not None else ()
    return tuple(state.balls_on_table())


__all__ = ["GeometricPlayer", "preview_ball", "preview_pots", "preview_safeties", "plays_safety", "PREVIEW_VARIANTS",
           "SAFETY_FACTORS", "stroke"]
