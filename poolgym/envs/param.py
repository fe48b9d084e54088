"""Parameterised actions: a discrete choice with continuous corrections around the shot it names.

A continuous learner (SB3 PPO / SAC) struggles to find a pot in the raw Box action: the
pocketing directions are a tiny part of the (speed, aim, spin) space. The parameterised mode
lets it choose *what* to do from a short discrete list -- chiefly which ball into which pocket
-- and learn *how* as small continuous corrections around the ghost-ball shot of that choice
(planning geometry `poolgym.planning`: ghost-ball aim, the stick speed that brings the object
ball to the pocket). The form is that of parameterised action spaces (W. Masson, P. Ranchod,
G. Konidaris, "Reinforcement learning with parameterized actions", AAAI 2016; M. Hausknecht,
P. Stone, "Deep reinforcement learning in parameterized action space", ICLR 2016).

Choices (`ParamCodec.choices`, N balls, O = len(Option), D = len(Declaration) in N-seat games):

===================  ========  ================================================================
kind                 count     the shot or decision
===================  ========  ================================================================
`ParamKind.POT`      6 (N-1)   ball b (1..N-1) into pocket p (lb lc lt rb rc rt): ghost-ball aim,
                               the call set to (b, p) when the rules take a call
`ParamKind.HIT`      N-1       straight at ball b's centre (a legal contact; called with b's best
                               pocket when b may be called)
`ParamKind.SAFETY`   N-1       a declared safety at ball b (8B-4.12, SP-6.7.4)
`ParamKind.BREAK`    1         a break: full speed at the nearest legal ball
`ParamKind.PUSH`     1         a push-out (9B-5.6): a soft roll in the chosen direction
`ParamKind.OPTION`   O         choose `Option` o (accept the table, pass back, re-rack, ...)
`ParamKind.DECLARE`  D         make `Declaration` d (N-seat games only)
===================  ========  ================================================================

`ParamCodec.mask` marks the legal ones, with the macro mode's rules
(`poolgym.envs.codec.Codec.macro_mask`): pots and hits of the balls the shooter may pot
(the callable balls when a call is required, else the balls on), a pot only with a cut below
90 deg from the cue ball's position (every pocket when in hand), safeties where the rules allow
them, the break in the break phase, a push-out where 9B-5.6 allows it, the offered options and
the open declarations; in an option phase or a declaration window only those.

Corrections (`CORRECTIONS`, each in [-1, 1]; 0 is the plain geometric shot):

=====  ================  ======================================================================
index  name              decoding
=====  ================  ======================================================================
0      ``cut_offset``    a pot: the cut angle changed by ``max_cut_offset`` u degrees (default
                         5), u > 0 thinner (the object ball's line turned away from the cue
                         ball's path around the object ball, the ghost ball with it), u < 0
                         thicker: the throw correction (frictional_inelastic contact throws the
                         object ball along the cue ball's path, so a stun cut needs overcutting
                         by about 1-2 deg) and the aim error of a long or thin cut, in the
                         object ball's own frame, so the same u means the same correction
                         whatever the distances; a hit, safety or break: aim phi +=
                         ``max_cut_offset`` u degrees; a push-out's direction is 180 u degrees
                         (from +x)
1      ``speed``         V0 = V0_ref 2^u (half to twice): V0_ref is the planned pot speed
                         (`planning.v0_for_pot`, times the geometric player's margin 1.15) for
                         a pot, 2 m/s for a hit or safety, 7.5 m/s for a break, 1 m/s for a
                         push-out; clipped to the env's speed range
2, 3   ``side``, ``vert``  tip offsets a, b = 0.45 u (fractions of R, projected into the disc of
                         radius 0.45; b < 0 draw, b > 0 follow)
4      ``elevation``     theta = max(u, 0) theta_max degrees (level for u <= 0)
5      ``place_dist``    cue ball in hand: its distance behind the ghost ball (pot) or the ball
                         (hit, safety), 0.08 + 0.52 (u + 1)/2 m; for a break the spot on the
                         head string, x = w/2 + u (w/2 - 2R)
6      ``place_angle``   cue ball in hand: the cut angle it is placed at, 45 u degrees (the
                         line behind the ghost ball turned by it)
=====  ================  ======================================================================

Every placement is moved to the nearest spot the referee accepts
(`poolgym.envs.codec.nearest_legal_placement`: G-3.22, 9B-5.10, G-3.16).

Aim assist (``aim="window"``, the env's ``param_aim``): a pot is first aimed at the centre of
its pocketing window instead of the ghost-ball aim -- the middle of the aims that, simulated
without noise by the env's own physics with the stroke's decoded speed, spin and elevation,
put the ball in the chosen pocket and keep the cue ball on the table (`ParamCodec.window_phi`:
a 0.5 deg sweep over +-5 deg, both edges refined to 1/32 deg by bisection, about 30
simulations per decoded pot); correction 0 then turns that aim as it turns the ghost-ball
aim. The ghost-ball aim at the pocket's aim point misses the window's centre by the throw of
the frictional contact and by the jaws' geometry seen from the object ball's approach: on the
pot drill under ICGA noise an untrained PPO policy (an action near zero) makes 0.811 of the
1,000 test positions in expectation with the window aim, against 0.771 with the ghost-ball
aim (16 noise draws per position, `benchmarks/learn_potdrill.py --aim window` and
``--aim ghost``). The sweep costs the simulations of every pot decoded (about 0.5 ms on the
drill's two balls), so it is off by default.

Actions: ``action_mode="param"`` is ONE flat ``Box(-1, 1, (K + 7,))``: the first K entries
score the choices, the last 7 are the corrections (what SB3's PPO and SAC use unmodified).
The choice played is the legal one with the highest score plus prior (first on ties); the
prior is ``choice_prior`` (default 1) times each legal pot's make probability from the
candidate block, 0 for the other choices. So the all-zero action is the geometric player's
shot (its best pot by make probability, its aim and speed), and a learner learns residuals
to it -- which pot to prefer over the planner's, and how to correct its stroke -- in the
manner of residual policy learning (T. Silver, K. Allen, J. Tenenbaum, L. Kaelbling,
"Residual policy learning", 2018; T. Johannink et al., "Residual reinforcement learning for
robot control", ICRA 2019); ``choice_prior=0`` gives the plain masked argmax. ``action_mode="param_dict"`` is
``Dict(choice=Discrete(K), corrections=Box(-1, 1, (7,)))`` for RLlib and custom learners (a
masked-out choice is replaced by the first legal one and flagged, as in the macro mode;
`PoolEnv.action_masks` gives the mask).

Observation: both modes append the candidate block (`ParamCodec.features`, size
K + 9 (6 (N-1) + 1)) after the rest of the observation: the choice mask, then per pot choice
(ball b, pocket p) the 9 `POT_FEATURE_NAMES`, then the same 9 for the choice the all-zero
action plays (the prior's pick; zeros when it is not a pot), so that the corrections, which
apply to whichever choice is played, can be read off one fixed place. Per pot, what a player
weighs before the shot:

==  =============  ============================================================================
0   ``cut``        signed cut angle / 90 deg (positive: the object ball leaves to the left)
1   ``d_cue``      cue-ball travel to the ghost ball / table length
2   ``d_obj``      object-ball travel to the pocket's aim point / table length
3   ``p_make``     planning make probability under ICGA aim noise (`planning.pot_table`: 0 when
                   a path is blocked or the cut exceeds 80 deg): the choice prior
4   ``approach``   cosine between the object ball's path and the pocket's axis (how open the
                   mouth is from that side)
5   ``v0``         the reference stick speed of the pot (decoding, correction 1 = 0) / V0 max
6   ``side``       1 for a side pocket, 0 for a corner
7   ``scratch_t``  scratch risk on the tangent line: how close the cue ball's stun path after
                   contact (perpendicular to the object ball's line) passes to a pocket ahead,
                   ``max_j exp(-(miss_j / half-width_j)^2)``
8   ``scratch_f``  the same along the cue ball's own line beyond the ghost ball (where a
                   rolling cue ball heads on a near straight-in: following the object ball in)
==  =============  ============================================================================

All zero when the observer is not to act. With the cue ball in hand they are those of the
default placement (corrections 5, 6 = 0: straight behind the ghost ball). The mask and the
features of a state are computed once and shared by the observation, the prior and the
decoding (`ParamCodec.analysis`).
"""

from __future__ import annotations

import enum
import functools
import math
from dataclasses import dataclass

import numpy as np

from physics import simulate_batch
from physics.enums import Motion
from poolgym import planning
from poolgym.envs import param_kernels
from poolgym.players.view import shot_call
from poolgym.rules.game import physics_inputs
from poolgym.rules.core import (
    ActionSpec,
    ChooseOption,
    CueBallPlacement,
    Declare,
    GameState,
    Option,
    Phase,
    PlaceCueBall,
    ShotAction,
)

#: the correction entries, in order (see module docstring)
CORRECTIONS = ("cut_offset", "speed", "side", "vert", "elevation", "place_dist", "place_angle")
N_CORRECTIONS = len(CORRECTIONS)
N_POCKETS = 6
#: stick speed (m/s) of a correction-free hit, break and push-out
HIT_V0, BREAK_V0, PUSH_V0 = 2.0, 7.5, 1.0
#: the geometric player's factor on the planned pot speed (`GeometricPlayer.speed_margin`)
POT_SPEED_MARGIN = 1.15
#: cue ball in hand: distance range (m) behind the ghost ball, and the largest placement cut (deg)
PLACE_DIST = (0.08, 0.60)
PLACE_ANGLE = 45.0
#: largest tip offset (fractions of R), as in the Box mode
TIP_MAX = 0.45
_POCKETED, _OFF_TABLE = int(Motion.POCKETED), int(Motion.OFF_TABLE)  # read by the window sweep
#: the features of each pot choice in the candidate block (module docstring)
POT_FEATURE_NAMES = ("cut", "d_cue", "d_obj", "p_make", "approach", "v0", "side", "scratch_t", "scratch_f")
POT_FEATURES = len(POT_FEATURE_NAMES)
#: default range (deg) of the cut-angle correction
MAX_CUT_OFFSET = 5.0
#: ``aim="window"``: the aim offsets (deg, around the ghost-ball aim) of the noise-free sweep
#: that finds a pot's pocketing window (the coarse grid, then the offsets halfway between when
#: no aim of it makes the pot), and the bisection steps that refine the window's two edges
WINDOW_SWEEP = np.arange(-5.0, 5.0001, 0.5)
WINDOW_FILL = WINDOW_SWEEP[:-1] + 0.25
WINDOW_BISECT = 4
#: the aims a parameterised pot starts from (`ParamCodec`)
AIM_MODES = ("ghost", "window")
#: aim noise (deg) the candidate block's make probability assumes (ICGA, `physics.ExecutionNoise.icga`)
FEATURE_SIGMA_PHI = 0.125


class ParamKind(enum.Enum):
    """What a choice of the parameterised action does (module docstring)."""

    POT = "pot"
    HIT = "hit"
    SAFETY = "safety"
    BREAK = "break"
    PUSH = "push"
    OPTION = "option"
    DECLARE = "declare"


@dataclass(frozen=True)
class ParamChoice:
    """One entry of the choice list: ``kind``, the object ``ball`` and ``pocket`` (pots), the
    ``option`` or ``declaration``."""

    kind: ParamKind
    ball: int = 0
    pocket: int = -1
    option: Option | None = None
    declaration: object = None


@functools.lru_cache(maxsize=8)
def choice_table(n_balls: int, seats: bool = False) -> tuple:
    """The `ParamChoice` list for ``n_balls`` balls (cue ball included); N-seat games end with
    one entry per `Declaration`."""
    from poolgym.envs.seating import DECLARATIONS

    t = [ParamChoice(ParamKind.POT, b, p) for b in range(1, n_balls) for p in range(N_POCKETS)]
    t += [ParamChoice(ParamKind.HIT, b) for b in range(1, n_balls)]
    t += [ParamChoice(ParamKind.SAFETY, b) for b in range(1, n_balls)]
    t += [ParamChoice(ParamKind.BREAK), ParamChoice(ParamKind.PUSH)]
    t += [ParamChoice(ParamKind.OPTION, option=o) for o in Option]
    if seats:
        t += [ParamChoice(ParamKind.DECLARE, declaration=d) for d in DECLARATIONS]
    return tuple(t)


def _rotate(v: np.ndarray, deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


class ParamCodec:
    """Mask, decoder and candidate features of the parameterised actions for one layout.

    Args:
        n_balls: N rows (cue ball included).
        table: `physics.Table` (aim points, placement).
        R: ball radius.
        V0_min, V0_max: speed range the decoded strokes are clipped to (m/s).
        theta_max: largest cue elevation (deg).
        seats: an N-seat game (choices end with the declarations).
        max_cut_offset: the range (deg) of correction 0: the cut-angle change of a pot, the
            aim change of a hit, safety or break.
        choice_prior: weight of the make-probability prior added to the flat Box's choice
            scores (0: the plain masked argmax of the scores).
        aim: where a pot's stroke is aimed before correction 0 turns it: ``"ghost"`` (the
            ghost-ball aim at the pocket's aim point) or ``"window"`` (the centre of the
            pocketing window of the stroke actually played, found by noise-free simulation;
            see `window_phi`).
        models: `poolgym.envs.physics_io.PhysicsModels` of the env, needed by ``aim="window"``
            (the sweep simulates with the env's own physics).
    """

    def __init__(self, n_balls: int, table, R: float = planning.BALL_RADIUS, V0_min: float = 0.1,
                 V0_max: float = 8.0, theta_max: float = 0.0, seats: bool = False, max_cut_offset: float = MAX_CUT_OFFSET,
                 choice_prior: float = 1.0, aim: str = "ghost", models=None):
        if aim not in AIM_MODES:
            raise ValueError(f"aim must be one of {AIM_MODES}, got {aim!r}")
        if aim == "window" and models is None:
            raise ValueError('aim="window" needs the env\'s physics models (models=)')
        self.aim = aim
        self.models = models
        if not (0.0 < max_cut_offset <= 45.0):
            raise ValueError(f"max_cut_offset must be in (0, 45] degrees, got {max_cut_offset!r}")
        if not (np.isfinite(choice_prior) and choice_prior >= 0.0):
            raise ValueError(f"choice_prior must be a finite number >= 0, got {choice_prior!r}")
        self.choice_prior = float(choice_prior)
        self.N = int(n_balls)
        self.table = table
        self.R = float(R)
        self.V0_min, self.V0_max, self.theta_max = float(V0_min), float(V0_max), float(theta_max)
        self.max_cut_offset = float(max_cut_offset)
        self.geom = planning.table_geom(table, self.R)
        self.w, self.l = float(table.w), float(table.l)
        self.choices = choice_table(self.N, bool(seats))
        #: K, the number of choices; the flat Box has K + `N_CORRECTIONS` entries
        self.n_choice = len(self.choices)
        self.box_size = self.n_choice + N_CORRECTIONS
        self.n_pot = (self.N - 1) * N_POCKETS
        self.hit0 = self.n_pot
        self.safety0 = self.hit0 + self.N - 1
        self.break_index = self.safety0 + self.N - 1
        self.push_index = self.break_index + 1
        self.option0 = self.push_index + 1
        self.declare0 = self.option0 + len(Option)
        self._option_index = {o: self.option0 + i for i, o in enumerate(Option)}
        self._declare_index = {c.declaration: k for k, c in enumerate(self.choices) if c.kind is ParamKind.DECLARE}
        #: size of the candidate block appended to the observation (`features`)
        self.obs_size = self.n_choice + POT_FEATURES * (self.n_pot + 1)
        #: id(state) -> (state, spec, mask, pots, features, prior's pick) (`analysis`)
        self._memo: dict = {}
        self._side = np.isin(np.arange(N_POCKETS), planning.SIDE_POCKETS).astype(float)
        #: `planning.pot_consts` of the candidate block's make probability (`param_kernels.pot_features`)
        self._pot_consts = planning.pot_consts(self.geom, FEATURE_SIGMA_PHI)

    # ------------------------------------------------------------------ mask
    @staticmethod
    def _in_hand(state: GameState, spec: ActionSpec) -> bool:
        return spec.place_cue is not None and (spec.must_place or not state.cue_placed)

    def mask(self, state: GameState, spec: ActionSpec | None) -> np.ndarray:
        """(K,) bool: the legal choices now (all False when nobody may act); see module docstring."""
        return self.analysis(state, spec)[0].copy()

    def analysis(self, state: GameState, spec: ActionSpec | None) -> tuple:
        """(mask (K,), legal pot indices (P,), their features (P, `POT_FEATURES`), the choice the
        all-zero action plays or -1) of ``state`` with legal actions ``spec``, computed once per
        (state, spec) pair: the observation, the prior and the decoding of the next action share
        them. The arrays are shared: do not modify them."""
        hit = self._memo.get(id(state))
        if hit is not None and hit[0] is state and hit[1] is spec:
            return hit[2]
        m = self._mask(state, spec)
        if spec is None or not m.any():
            res = (m, np.zeros(0, np.int64), np.zeros((0, POT_FEATURES)), -1)
        else:
            pots, f = self.pot_features(state, spec, m)
            prior = np.zeros(self.n_choice)
            if self.choice_prior > 0.0:
                prior[pots] = self.choice_prior * f[:, 3]
            res = (m, pots, f, self.argmax_choice(prior, m))
        if len(self._memo) > 4096:
            self._memo.clear()
        self._memo[id(state)] = (state, spec, res)
        return res

    def _mask(self, state: GameState, spec: ActionSpec | None) -> np.ndarray:
        m = np.zeros(self.n_choice, bool)
        if spec is None or state.phase is Phase.GAME_OVER:
            return m
        if spec.declarations:
            for d in spec.declarations:
                m[self._declare_index[d]] = True
            if spec.phase is Phase.DECLARE or not (spec.can_shoot or spec.must_place or spec.options):
                return m
        if spec.options:
            for o in spec.options:
                m[self._option_index[o]] = True
            if spec.phase is Phase.OPTION or not spec.can_shoot:
                return m
        if not (spec.can_shoot or spec.must_place):
            return m
        # a call that names no ball (1S-7.2 once the 1 is down) leaves every ball on to pot
        shoot = spec.callable_balls if spec.call_required and spec.callable_balls else spec.target_balls
        balls = [b for b in shoot if state.on_table[b]]
        if balls:
            bl = np.array(balls, int)
            if self._in_hand(state, spec):
                feas = np.ones((len(balls), N_POCKETS), bool)
            else:
                pos = np.asarray(state.pos, float).reshape(-1, 2)
                feas = np.empty((len(balls), N_POCKETS), np.bool_)  # `planning.aim(...).feasible`
                planning.aim_feasible(pos[0], pos[bl], self.geom.aims, self.R, feas)
            for i, b in enumerate(balls):
                m[(b - 1) * N_POCKETS : b * N_POCKETS] = feas[i]
                m[self.hit0 + b - 1] = True
        if spec.safety_allowed:
            for b in spec.target_balls:
                if state.on_table[b]:
                    m[self.safety0 + b - 1] = True
        if spec.phase is Phase.BREAK:
            m[self.break_index] = True
        if spec.push_out_allowed:
            m[self.push_index] = True
        if not m.any():
            m[self.break_index] = True  # nothing else is available: a break-style shot
        return m

    # ------------------------------------------------------------------ decoding
    def split(self, u) -> tuple:
        """(choice scores (K,), corrections (7,)) of a clipped flat Box row."""
        u = np.asarray(u, np.float64)
        return u[: self.n_choice], u[self.n_choice :]

    def argmax_choice(self, scores, mask: np.ndarray) -> int:
        """The legal choice with the highest score (first on ties); ``ValueError`` if none is legal."""
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal choice now")
        s = np.asarray(scores, np.float64)[legal]
        return int(legal[int(np.argmax(s))])

    def prior(self, state: GameState, spec: ActionSpec, mask: np.ndarray) -> np.ndarray:
        """(K,) the choice prior: ``choice_prior`` x the make probability of each legal pot
        (the candidate block's), 0 elsewhere."""
        out = np.zeros(self.n_choice)
        if self.choice_prior > 0.0:
            m, pots, f, _ = self.analysis(state, spec)
            if not np.array_equal(m, mask):
                pots, f = self.pot_features(state, spec, mask)
            out[pots] = self.choice_prior * f[:, 3]
        return out

    def choose(self, u, state: GameState, spec: ActionSpec) -> int:
        """The choice index the flat Box row ``u`` plays: the legal one with the highest score
        + prior."""
        m, pots, f, _ = self.analysis(state, spec)
        scores = self.split(u)[0].copy()
        if self.choice_prior > 0.0:
            scores[pots] += self.choice_prior * f[:, 3]
        return self.argmax_choice(scores, m)

    def decode_box(self, u, state: GameState, spec: ActionSpec) -> list:
        """Typed actions for the clipped flat Box row ``u`` (K scores, then the corrections):
        the legal choice with the highest score + prior (`choose`)."""
        return self.decode(self.choose(u, state, spec), self.split(u)[1], state, spec)

    def _place(self, state: GameState, spec: ActionSpec, xy) -> PlaceCueBall:
        from poolgym.envs.codec import nearest_legal_placement

        x = min(max(float(xy[0]), self.R), self.w - self.R)
        y = min(max(float(xy[1]), self.R), self.l - self.R)
        x, y = nearest_legal_placement(x, y, state.pos, state.on_table, self.table, self.R,
                                       kitchen=spec.place_cue is CueBallPlacement.IN_HAND_KITCHEN)
        return PlaceCueBall(x, y)

    def _behind(self, point: np.ndarray, away: np.ndarray, c: list) -> np.ndarray:
        """Default placement: ``point`` + d * ``away`` turned by the placement angle."""
        d = PLACE_DIST[0] + (c[5] + 1.0) / 2.0 * (PLACE_DIST[1] - PLACE_DIST[0])
        a = planning.unit(away)
        if not np.any(a):
            a = np.array([0.0, -1.0])
        return point + d * _rotate(a, PLACE_ANGLE * c[6])

    def decode(self, choice: int, corrections, state: GameState, spec: ActionSpec) -> list:
        """Typed actions for choice index ``choice`` with ``corrections`` (7 values, clipped to
        [-1, 1]); the choice is not checked against the mask here."""
        if not 0 <= int(choice) < self.n_choice:
            raise ValueError(f"choice must be in [0, {self.n_choice}), got {choice!r}")
        c = np.clip(np.asarray(corrections, np.float64).reshape(-1), -1.0, 1.0)
        if c.shape != (N_CORRECTIONS,):
            raise ValueError(f"corrections must have {N_CORRECTIONS} entries, got {c.shape[0]}")
        if not np.isfinite(c).all():
            raise ValueError("corrections contain NaN or inf")
        c = c.tolist()
        e = self.choices[int(choice)]
        if e.kind is ParamKind.OPTION:
            return [ChooseOption(e.option)]
        if e.kind is ParamKind.DECLARE:
            return [Declare(e.declaration)]
        pos = np.asarray(state.pos, float).reshape(-1, 2)
        in_hand = self._in_hand(state, spec)
        out = []
        cue = pos[0].copy()

        def place(xy):
            pl = self._place(state, spec, xy)
            out.append(pl)
            return np.array([pl.x, pl.y])

        call_b = call_p = None
        safety = push = False
        pot_ball = pot_pocket = None
        dphi = self.max_cut_offset * c[0]
        if e.kind is ParamKind.POT:
            tgt = self.geom.aims[e.pocket]
            obj = pos[e.ball]
            if in_hand:
                ghost = planning.ghost_ball(obj, tgt, self.R)
                cue = place(self._behind(ghost, ghost - tgt, c))
            a = planning.aim(cue, obj, tgt, self.R)
            V0 = POT_SPEED_MARGIN * planning.v0_for_pot(float(a.d_cue), float(a.d_obj),
                                                        math.radians(min(abs(float(a.cut)), 89.0)))
            phi = phi_ghost = float(a.phi)
            if dphi != 0.0:  # the object ball's line turned around it: thinner for dphi > 0
                turn = dphi if float(a.cut) >= 0.0 else -dphi
                line = _rotate(np.asarray(tgt, float) - obj, turn)
                phi = planning.phi_deg(cue, obj - 2.0 * self.R * planning.unit(line))
            pot_ball, pot_pocket = e.ball, e.pocket
            call_b, call_p = shot_call(spec, e.ball, e.pocket)  # (a pocket alone: 1S-7.2, 1S-7.4)
        elif e.kind in (ParamKind.HIT, ParamKind.SAFETY):
            obj = pos[e.ball]
            if in_hand:
                cue = place(self._behind(obj, obj - np.array([self.w / 2, self.l / 2]), c))
            phi = planning.phi_deg(cue, obj) + dphi
            V0 = HIT_V0
            safety = e.kind is ParamKind.SAFETY
            if not safety and spec.callable_balls and e.ball in spec.callable_balls:
                call_b, call_p = e.ball, planning.best_pocket(self.geom, obj)
        elif e.kind is ParamKind.BREAK:
            if in_hand:
                x = self.w / 2 + c[5] * (self.w / 2 - 2 * self.R)
                cue = place((x, float(self.table.head_string_y) - 2 * self.R))
            balls = [k for k in (spec.target_balls or range(1, self.N)) if state.on_table[k]]
            aim_at = pos[balls[0]] if balls else np.array([self.w / 2, 0.75 * self.l])
            phi = planning.phi_deg(cue, aim_at) + dphi
            V0 = BREAK_V0
        else:  # push-out
            if in_hand:
                cue = place((self.w / 2, self.l / 4))
            phi = 180.0 * c[0]
            V0 = PUSH_V0
            push = True
        V0 = min(max(V0 * 2.0 ** c[1], self.V0_min), self.V0_max)
        a, b = TIP_MAX * c[2], TIP_MAX * c[3]
        r = math.hypot(a, b)
        if r > TIP_MAX:
            a, b = a * TIP_MAX / r, b * TIP_MAX / r
        theta = max(c[4], 0.0) * self.theta_max
        if pot_ball is not None and self.aim == "window":
            placed = state if not out else state.with_cue_at(float(cue[0]), float(cue[1]))
            centre = self.window_phi(placed, pot_ball, pot_pocket, V0, phi_ghost, theta, a, b)
            if centre is not None:  # the correction turns the window's centre as it turns the ghost aim
                phi = centre + ((phi - phi_ghost + 180.0) % 360.0 - 180.0)
        if safety:
            call_b = call_p = None
        elif spec.callable_balls and call_b is None and spec.call_required:
            call_b = spec.callable_balls[0]
            call_p = planning.best_pocket(self.geom, pos[call_b])
        elif spec.call_required and call_p is None and e.kind is ParamKind.HIT:  # a pocket alone (1S-7.2)
            call_p = planning.best_pocket(self.geom, pos[e.ball])
        out.append(ShotAction(V0=float(V0), phi=float(phi % 360.0), theta=float(theta), a=float(a), b=float(b),
                              called_ball=call_b, called_pocket=call_p, safety=safety, push_out=push))
        return out

    def window_phi(self, state: GameState, ball: int, pocket: int, V0: float, phi: float, theta: float,
                   a: float, b: float) -> float | None:
        """The centre (deg) of the pocketing window of the stroke (``V0``, ``theta``, tip ``a``,
        ``b``) aimed near ``phi`` at ``ball`` for ``pocket`` on ``state`` (the cue ball where
        it is played from): the aims of `WINDOW_SWEEP` (then `WINDOW_FILL`) around ``phi`` are simulated without
        noise with the env's physics; of the runs of consecutive aims that put ``ball`` in
        ``pocket`` and leave the cue ball on the table, the one nearest ``phi`` (the longer on
        a tie) is taken, and each of its two edges is refined by `WINDOW_BISECT` bisection
        steps. None when no aim of the sweep makes the pot. The window is what the physics
        accepts -- the jaws as the object ball approaches them, the throw of the frictional
        ball-ball contact, the cue ball's path to the object ball -- so its centre is the aim
        farthest from a miss on either side, the aim a player takes for a pot under symmetric
        aiming noise."""
        rvw, s = physics_inputs(state)
        kw = self.models.kwargs()

        def made(offsets: np.ndarray) -> np.ndarray:
            B = len(offsets)
            shots = np.empty((B, 5))
            shots[:, 0], shots[:, 1], shots[:, 2], shots[:, 3], shots[:, 4] = V0, (phi + offsets) % 360.0, theta, a, b
            res = simulate_batch(self.table, np.repeat(rvw[None], B, 0), shots, np.zeros(B, np.int64),
                                         s=np.repeat(s[None], B, 0), parallel=False, grow_log=True, **kw)
            return ((res.s[:, ball] == _POCKETED) & (res.pocket[:, ball] == pocket) & (res.s[:, 0] != _POCKETED)
                    & (res.s[:, 0] != _OFF_TABLE))

        grid = WINDOW_SWEEP
        ok = made(grid)
        if not ok.any():  # a window narrower than the grid step, or none
            grid = WINDOW_FILL
            ok = made(grid)
            if not ok.any():
                return None
        idx = np.flatnonzero(ok)
        runs = np.split(idx, np.flatnonzero(np.diff(idx) > 1) + 1)
        run = min(runs, key=lambda r: (max(grid[r[0]], -grid[r[-1]], 0.0), -len(r)))
        # each edge bracketed between the run's outermost aim in and the next aim out
        step = float(grid[1] - grid[0])
        lo_in, hi_in = float(grid[run[0]]), float(grid[run[-1]])
        lo_out, hi_out = lo_in - step, hi_in + step
        for _ in range(WINDOW_BISECT):
            mid_lo, mid_hi = (lo_in + lo_out) / 2, (hi_in + hi_out) / 2
            got = made(np.array([mid_lo, mid_hi]))
            lo_in, lo_out = (mid_lo, lo_out) if got[0] else (lo_in, mid_lo)
            hi_in, hi_out = (mid_hi, hi_out) if got[1] else (hi_in, mid_hi)
        return phi + ((lo_in + lo_out) / 2 + (hi_in + hi_out) / 2) / 2

    # ------------------------------------------------------------------ observation
    def pot_features(self, state: GameState, spec: ActionSpec, mask: np.ndarray) -> tuple:
        """(legal pot choice indices (P,), features (P, `POT_FEATURES`)): the
        `POT_FEATURE_NAMES` of each (module docstring), in one compiled call
        (`param_kernels.pot_features`; the formulas of `pot_features_reference`)."""
        pots = np.flatnonzero(mask[: self.n_pot])
        if pots.size == 0:
            return pots, np.zeros((0, POT_FEATURES))
        g = self.geom
        f = np.empty((pots.size, POT_FEATURES))
        param_kernels.pot_features(np.asarray(state.pos, float).reshape(-1, 2), np.asarray(state.on_table, np.bool_),
                                   pots, self._in_hand(state, spec), 0.5 * (PLACE_DIST[0] + PLACE_DIST[1]),
                                   self._pot_consts, g.aims, g.axes, g.half_widths, planning.APPROACH_LIMIT,
                                   self._side, POT_SPEED_MARGIN, self.R, self.l,
                                   float(self.V0_max), f)
        return pots, f

    def pot_features_reference(self, state: GameState, spec: ActionSpec, mask: np.ndarray) -> tuple:
        """`pot_features` in numpy, formula by formula (the compiled kernel's specification)."""
        pots = np.flatnonzero(mask[: self.n_pot])
        if pots.size == 0:
            return pots, np.zeros((0, POT_FEATURES))
        pos = np.asarray(state.pos, float).reshape(-1, 2)
        on = np.asarray(state.on_table, bool)
        balls = pots // N_POCKETS + 1
        pockets = pots % N_POCKETS
        aims = self.geom.aims[pockets]
        if self._in_hand(state, spec):  # the default placement of each pot (corrections 5, 6 = 0)
            ghost = planning.ghost_ball(pos[balls], aims, self.R)
            d = 0.5 * (PLACE_DIST[0] + PLACE_DIST[1])
            Q = ghost + d * planning.unit(ghost - aims)
            qs = np.arange(pots.size)
        else:
            Q = pos[0][None]
            qs = np.zeros(pots.size, int)
        obj = pos[balls]
        to_t = aims - obj
        d_obj = np.hypot(to_t[:, 0], to_t[:, 1])
        u_obj = to_t / np.maximum(d_obj, 1e-12)[:, None]
        ghost = obj - 2.0 * self.R * u_obj
        to_g = ghost - Q[qs]
        d_cue = np.hypot(to_g[:, 0], to_g[:, 1])
        u_cue = to_g / np.maximum(d_cue, 1e-12)[:, None]
        cos_cut = np.sum(u_cue * u_obj, axis=1)
        cut = np.degrees(np.arctan2(u_cue[:, 0] * u_obj[:, 1] - u_cue[:, 1] * u_obj[:, 0], cos_cut))
        targets = sorted(set(balls.tolist()))
        t = planning.pot_table(self.geom, pos, on, np.ascontiguousarray(Q), targets, FEATURE_SIGMA_PHI)
        row = np.zeros(self.N, np.int64)
        row[t["targets"]] = np.arange(len(t["targets"]))
        listed = np.isin(balls, t["targets"])
        p = np.where(listed, t["p"][qs, row[balls], pockets], 0.0)
        V0 = POT_SPEED_MARGIN * t["V0"][qs, row[balls], pockets]  # `planning.v0_for_pot` of each pot
        approach = np.sum(u_obj * self.geom.axes[pockets], axis=1)
        tangent = u_cue - cos_cut[:, None] * u_obj  # length sin(cut)
        n = np.hypot(tangent[:, 0], tangent[:, 1])[:, None]
        tangent = np.where(n > 1e-6, tangent / np.maximum(n, 1e-6), 0.0)  # none on a straight-in
        f = np.stack([cut / 90.0, np.minimum(d_cue / self.l, 1.0), np.minimum(d_obj / self.l, 1.0), p, approach,
                      np.minimum(V0 / self.V0_max, 1.0), self._side[pockets], self._scratch_risk(ghost, tangent),
                      self._scratch_risk(ghost, u_cue)], axis=1)
        return pots, f

    def _scratch_risk(self, start: np.ndarray, direction: np.ndarray) -> np.ndarray:
        """(P,) ``max_j exp(-(miss_j / h_j)^2)`` over the pockets j ahead of the rays ``start`` +
        s ``direction`` (s > 0): ``miss_j`` the distance the ray passes from pocket j's aim point,
        ``h_j`` its mouth half-width; 0 for a zero direction (module docstring)."""
        v = self.geom.aims[None, :, :] - start[:, None, :]  # (P, 6, 2)
        along = np.einsum("pjk,pk->pj", v, direction)
        miss = np.abs(v[..., 0] * direction[:, None, 1] - v[..., 1] * direction[:, None, 0])
        r = np.exp(-((miss / self.geom.half_widths[None]) ** 2)) * (along > 0)
        return r.max(axis=1) * (np.hypot(direction[:, 0], direction[:, 1]) > 0.5)

    def features(self, state: GameState, spec: ActionSpec | None, seat: int, o: np.ndarray, k: int) -> None:
        """Write the candidate block (module docstring) at ``o[k : k + obs_size]``."""
        o[k : k + self.obs_size] = 0.0
        if spec is None or state.seat_to_act != seat or state.phase is Phase.GAME_OVER:
            return
        m, pots, f, pick = self.analysis(state, spec)
        o[k : k + self.n_choice] = m
        base = k + self.n_choice
        for q, i in enumerate(pots.tolist()):
            o[base + POT_FEATURES * i : base + POT_FEATURES * (i + 1)] = f[q]
            if i == pick:
                o[base + POT_FEATURES * self.n_pot : base + POT_FEATURES * (self.n_pot + 1)] = f[q]


def dict_action(action, n_choice: int) -> tuple:
    """``(choice, corrections)`` of an action of the ``param_dict`` space
    ``Dict(choice=Discrete(K), corrections=Box(-1, 1, (7,)))``, or ``ValueError``: a mapping
    with exactly those keys, the choice one integer in range (`codec.discrete_action`), the
    corrections a real array of shape (7,) (`codec.box_action`: clipped, NaN refused)."""
    from poolgym.envs.codec import box_action, discrete_action

    if not hasattr(action, "keys") or set(action.keys()) != {"choice", "corrections"}:
        raise ValueError(f"action must be a dict with keys 'choice' and 'corrections', got {action!r}")
    return discrete_action(action["choice"], n_choice), box_action(action["corrections"], (N_CORRECTIONS,))
