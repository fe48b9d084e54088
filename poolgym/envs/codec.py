"""Observation encoder and action decoders, usable outside an env.

`Codec(discipline_name, n_balls, n_players, table)` maps ``(GameState, ActionSpec, seat)`` to the
observation vector and ``(vector | int, GameState, ActionSpec)`` to the typed rules actions
(`ShotAction`, `PlaceCueBall`, `ChooseOption`) that the env then applies. Agents can call
`Codec.encode` / `Codec.decode_box` / `Codec.decode_macro` / `Codec.macro_mask` directly.

Observation (float32, every entry in [-1, 1]; N balls, P players, O = len(Option),
H = len(Phase)), in this order:

======================  =====  ==========================================================
part                    size   meaning
======================  =====  ==========================================================
positions               2N     ball k centre: (2x/w - 1, 2y/l - 1) clipped to [-1, 1]; 0 when
                               off the table
on_table                N      1 if ball k is in play
target_mask             N      1 if ball k is a legal first-contact ball now (the ball on)
callable_mask           N      1 if ball k may be called now
phase                   H      one-hot `Phase`
cue_ball                3      one-hot `CueBallPlacement` (in position / anywhere / kitchen)
flags                   6      can_shoot, must_place, call_required, safety_allowed,
                               push_out_allowed, observer is the seat to act
options_mask            O      1 if `Option` member o may be chosen now
groups                  6      one-hot group (0 open, 1, 2) of the observer, then of the
                               next seat (eight-ball solids/stripes; 0 elsewhere)
scores                  P      tanh(score / 50), observer first, then the next seats
fouls                   P      consecutive fouls / 3, observer first
shot_progress           1      shots played / shot limit (clipped to 1)
======================  =====  ==========================================================

The mask entries (target, callable, flags, options) are the legal-decision mask.

N-seat games (`poolgym.envs.seating`) append the seat block (`SeatBlock`: the observer's own
secret as balls, the declarations open now, seats in the game, teammates, the seat to act),
one Box score per `Declaration` after the option scores and one macro entry per
`Declaration` after the option entries; the WPA layouts are unchanged. The scoring games
(`poolgym.envs.scoring`) then append their score block (bowlliards' frame and attempt,
cowboy's distance to 90 and 101, Honolulu's owed points, ...). The parameterised action modes
(`poolgym.envs.param`) end it with their candidate block (choice mask, per pot choice its cut,
distances and make probability).

Box action (float32 in [-1, 1]; values outside are clipped, NaN raises ``ValueError``):

=====  =========================================================================
index  decoding
=====  =========================================================================
0      V0 = V0_min + (u+1)/2 (V0_max - V0_min) m/s (defaults 0.1 .. 8.0)
1      phi = base + 180 u degrees; ``phi_mode="relative"``: base = direction from the
       cue ball to the nearest legal target ball; ``"absolute"``: base = 0
2      theta = (u+1)/2 theta_max degrees (default theta_max 0: level cue)
3, 4   a, b = 0.45 u (tip offsets, fractions of R; projected into the disc of radius 0.45)
5, 6   cue placement when the cue ball is in hand: x = R + (u+1)/2 (w - 2R);
       y over the bed, or over the kitchen (R .. l/4 - R) when in hand behind the head
       string; an illegal spot (overlap, frozen, over a pocket) moves to the nearest
       legal spot (`nearest_legal_placement`)
7      declare safety if u > 0 (when allowed; a safety carries no call, 8B-4.12 / SP-6.7.4)
8      declare a push-out if u > 0 (when allowed, 9B-5.6)
9..    N-1 called-ball scores (balls 1..N-1), then 6 called-pocket scores (lb lc lt rb
       rc rt): the masked argmax is called whenever the rules let the shooter call
then   O option scores: in an OPTION phase the masked argmax offered option is chosen
       (the step ends there); when options are offered beside a shot (e.g. GW-5) the
       option is taken instead of shooting only if its score > 0.5; the GW-5 / SP-6.7.7
       request spots, of the balls equally near the head string, the one with the best
       called-ball score (so does C-41's penalty ball); N-seat games: then one score per
       `Declaration`
last   a game taking several calls on one shot (Honolulu, HO-6 / C-20): (N-1) x 6 scores
       per (ball, pocket) at ``calls0``: besides the argmax call, every callable ball whose
       best pocket scores > 0.5 is called into it (highest first, up to
       ``max_called_balls`` calls in all; `MultiCallShot`)
=====  =========================================================================

Macro action (``Discrete``): see `Codec.macro_table` — pots (target x pocket x 3 speeds x 3
spins, aimed by ghost-ball geometry `poolgym.planning`, the call set to that ball and pocket, cue
placed behind the ghost ball when in hand), direct hits (target x 3 speeds, full ball at its
centre; called with its best pocket when a call is required), declared safeties (target x 3
speeds, legal where the rules allow a safety), 3 break shots (cue ball in hand placed on the
head string at the centre / left / right, full speed at the head ball), 8 push-outs (soft rolls
in 8 directions, legal only when 9B-5.6 allows), then one entry per `Option` (the GW-5 /
SP-6.7.7 request spots the lowest of equally near balls: designating another is Box-only).
A multi-call game (Honolulu) adds, before the options, a pot per (target, pocket, second
ball) that calls the second ball too, into its best pocket (`MultiCallShot`).
`Codec.macro_mask` marks the legal ones; pots whose cut is >= 90 deg from the cue ball's
current position are masked.
"""

from __future__ import annotations

import functools
import math
import struct
from dataclasses import dataclass

import numpy as np

from poolgym import planning
from poolgym.players.view import shot_call
from poolgym.rules.game import MAX_CUE_SPEED, SPEC_CACHE_SIZE
from poolgym.rules.games.honolulu import MultiCallShot
from poolgym.rules.rows import bool_rows, float_rows
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
from poolgym.envs.seating import DECL_INDEX, DECLARATIONS, SeatBlock

PHASES = tuple(Phase)
PLACEMENTS = tuple(CueBallPlacement)
OPTIONS = tuple(Option)
#: options that name a ball of `ActionSpec.spot_choices` (the Box picks it by its called-ball score)
_BALL_OPTIONS = (Option.SPOT_NEAREST_KITCHEN_BALL, Option.SPOT_PENALTY_BALL)
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
#: entries of each per-spec memo (the rules' own spec memo's size: its specs recur)
MEMO_SIZE = SPEC_CACHE_SIZE
#: batches of at most this many tables are encoded and decoded table by table (`encode`,
#: `decode_box`, the same values): the array operations of `encode_batch` and
#: `decode_box_batch` cost a fixed 30-60 us per call, more than the per-table code up to about
#: six tables (nine-ball, one process, `perf_counter` per call: one table 38 against 7 us to
#: encode, 60 against 14 to decode; four 43 / 28 and 75 / 52; eight 52 / 57 and 95 / 112)
SMALL_BATCH = 4
_PLACEMENT_INDEX = {p: i for i, p in enumerate(PLACEMENTS)}
_OPTION_INDEX = {o: i for i, o in enumerate(OPTIONS)}
#: a ChooseOption naming no ball per option (immutable, shared by the decoded decisions)
_CHOOSE = {o: ChooseOption(o) for o in OPTIONS}
_OPTION_PHASE = Phase.OPTION
N_POCKETS = 6
SPIN_B = (-0.3, 0.0, 0.3)  # draw, centre, follow (fractions of R)
SPEED_FACTORS = (1.0, 1.6, 2.4)
HIT_SPEEDS = (1.0, 2.0, 4.0)
BREAK_V0 = 7.5
PUSH_V0 = 1.0
N_PUSH = 8
N_BREAK = 3


class _NoTargets(dict):
    """N -> (N,) all-False mask (the rows `decode_box_batch` decodes one by one)."""

    def __missing__(self, n):
        m = self[n] = np.zeros(n, np.bool_)
        return m


_NO_TARGETS = _NoTargets()


def box_action(action, shape: tuple, *, batched: bool = False) -> np.ndarray:
    """``action`` for a ``Box(-1, 1, shape, float32)`` space as a float64 array clipped to
    [-1, 1], or ``ValueError`` saying what is wrong. Accepted: what Gymnasium's
    ``Box.contains`` accepts (a real float or bool array of exactly ``shape``; a list or
    tuple of real numbers of that shape), plus float64 arrays (numpy's and Stable-Baselines3's
    default) and finite values out of [-1, 1] (clipped). Refused: another shape (no
    reshaping, e.g. (1, D) for (D,)), complex, integer arrays, objects, strings, NaN / inf.
    ``batched``: rows are tables (the native vector env): a NaN / inf names its table."""
    if isinstance(action, (np.ndarray, np.generic)):
        arr = np.asarray(action)
        kinds = "fb"
    else:
        try:
            arr = np.asarray(action)
        except (ValueError, TypeError) as e:  # ragged nested lists
            raise ValueError(f"action must be an array of shape {shape}: {e}") from None
        kinds = "fbiu"
    if arr.dtype.kind == "c":
        raise ValueError(f"action is complex ({arr.dtype}); the action space holds real numbers")
    if arr.dtype.kind not in kinds:
        what = "integer array" if arr.dtype.kind in "iu" else f"{arr.dtype} value"
        raise ValueError(f"action is an {what}; the action space is Box(-1, 1, {shape}, float32): pass floats")
    if arr.shape != tuple(shape):
        raise ValueError(f"action has shape {arr.shape}; the action space needs shape {tuple(shape)}")
    arr = arr.astype(np.float64)
    ok = np.isfinite(arr)
    if not ok.all():
        where = f"table {int(np.flatnonzero(~ok.reshape(arr.shape[0], -1).all(axis=1))[0])}: " if batched else ""
        raise ValueError(f"{where}action contains NaN or inf")
    return np.clip(arr, -1.0, 1.0)


def discrete_action(action, n: int) -> int:
    """``action`` for a ``Discrete(n)`` space as an int, or ``ValueError``: what Gymnasium's
    ``Discrete.contains`` accepts (a Python int, a numpy integer scalar or 0-d integer
    array, in [0, n)); floats, bools of numpy, arrays of another shape are refused."""
    if isinstance(action, (int, np.integer)) or (isinstance(action, np.ndarray) and action.shape == ()
                                                 and np.issubdtype(action.dtype, np.integer)):
        k = int(action)
        if not 0 <= k < n:
            raise ValueError(f"macro action must be in [0, {n}), got {k}")
        return k
    shape = getattr(action, "shape", None)
    raise ValueError(f"macro action must be one integer (a Python int or a numpy integer scalar) in [0, {n}), got "
                     f"{type(action).__name__}{'' if shape is None else f' of shape {shape}'} {action!r}")


@dataclass(frozen=True)
class MacroEntry:
    """What macro index ``k`` means: ``kind`` in {"pot", "hit", "safety", "break", "push", "option",
    "declare"}."""

    kind: str
    ball: int = 0
    pocket: int = -1
    speed: int = 0
    spin: int = 0
    option: Option | None = None
    declaration: object = None
    #: a "pot" entry of a multi-call game (HO-6): this ball is called too, into its best pocket
    also: int = 0


def _stroke_row(decision: list):
    """A decoded decision's shot as [V0, phi, theta, a, b] (its closing `ShotAction`), else NaN
    (`Codec.decode_box_batch`'s ``rows_out``)."""
    a = decision[-1] if decision else None
    return (a.V0, a.phi, a.theta, a.a, a.b) if type(a) is ShotAction else np.nan


def nearest_legal_placement(x, y, pos, on, table, R, *, kitchen, may_touch=False, step=None):
    """The cue-ball spot nearest to (x, y) that the referee accepts
    (`poolgym.rules.placement.nearest_legal_spot`: G-3.22, 9B-5.10, G-3.16, on the bed clear
    of cushions, jaws and pocket openings), kept 0.2 mm clear of the object balls (1 um when
    ``may_touch``) and 1 um inside the bed and the kitchen; searched on rings of radius
    k * ``step`` (default R/2) around it. Returns (x, y)."""
    from poolgym.rules.placement import nearest_legal_spot, table_arrays

    w, l, hy, pk, sg, jw = table_arrays(table)
    P = np.asarray(pos, float).reshape(-1, 2)
    onm = np.asarray(on, np.bool_)
    ok, px, py = nearest_legal_spot(float(x), float(y), P, onm, bool(kitchen), w, l, hy, pk, sg, jw, float(R),
                                    1e-6 if may_touch else 2e-4, 1e-6, float(step or R / 2), 400)
    if not ok:
        raise ValueError("no legal cue-ball placement found")
    return float(px), float(py)


@functools.lru_cache(maxsize=8)
def _macro_table(N: int, seats: bool = False, multi: bool = False) -> tuple:
    """The `MacroEntry` list for N balls (shared by every codec of that size); seated games
    end with one entry per `Declaration`; ``multi`` (a game that takes several calls on one
    shot, HO-6) adds, before the options, a pot (centre spin, first speed) per (target,
    pocket, second called ball)."""
    t = []
    for ball in range(1, N):
        for p in range(N_POCKETS):
            for s in range(len(SPEED_FACTORS)):
                for k in range(len(SPIN_B)):
                    t.append(MacroEntry("pot", ball, p, s, k))
    for ball in range(1, N):
        for s in range(len(HIT_SPEEDS)):
            t.append(MacroEntry("hit", ball, -1, s))
    for ball in range(1, N):
        for s in range(len(HIT_SPEEDS)):
            t.append(MacroEntry("safety", ball, -1, s))
    for k in range(N_BREAK):
        t.append(MacroEntry("break", 0, -1, 0, k))
    for k in range(N_PUSH):
        t.append(MacroEntry("push", 0, -1, 0, k))
    if multi:
        for ball in range(1, N):
            for p in range(N_POCKETS):
                for c in range(1, N):
                    if c != ball:
                        t.append(MacroEntry("pot", ball, p, 0, SPIN_B.index(0.0), also=c))
    for o in OPTIONS:
        t.append(MacroEntry("option", option=o))
    if seats:
        for d in DECLARATIONS:
            t.append(MacroEntry("declare", declaration=d))
    return tuple(t)


class Codec:
    """Encoder/decoder for one discipline layout (see module docstring for the layouts).

    Args:
        n_balls: N rows (cue ball included).
        n_players: seats.
        table: `physics.Table` (for normalisation, placement and aiming).
        R: ball radius.
        V0_min, V0_max, theta_max: Box decoding ranges.
        phi_mode: "relative" (default) or "absolute".
        seats: a `poolgym.envs.seating.SeatBlock` for a seated game (None: a WPA game). The
            observation then ends with the seat block, the Box action with one score per
            `Declaration` and the macro table with one entry per `Declaration`: a declaration
            (claim 41, declare a bust, announce a pocketed pea) is chosen by the masked argmax
            in its window (`Phase.DECLARE`), and beside a shot only when its score > 0.5.
            `encode` then takes the observer's view (`poolgym.envs.seating.seat_view`) and its
            secret.
    """

    def __init__(self, n_balls: int, n_players: int, table, R: float = planning.BALL_RADIUS,
                 V0_min: float = 0.1, V0_max: float = 8.0, theta_max: float = 0.0,
                 phi_mode: str = "relative", max_shots: int = 100, seats: SeatBlock | None = None,
                 scores=None, candidates=None, multi_calls: bool = False):
        if phi_mode not in ("relative", "absolute"):
            raise ValueError(f"phi_mode must be 'relative' or 'absolute', got {phi_mode!r}")
        if not (0.0 < V0_min < V0_max <= MAX_CUE_SPEED):
            raise ValueError(f"V0_min, V0_max must satisfy 0 < V0_min < V0_max <= {MAX_CUE_SPEED:g} m/s (the "
                             f"physics' limit), got {V0_min!r}, {V0_max!r}")
        if not (0.0 <= theta_max <= 90.0):
            raise ValueError(f"theta_max must be in [0, 90] degrees, got {theta_max!r}")
        self.N = int(n_balls)
        self.P = int(n_players)
        self.table = table
        self.R = float(R)
        self.V0_min, self.V0_max, self.theta_max = float(V0_min), float(V0_max), float(theta_max)
        self.phi_mode = phi_mode
        self.max_shots = int(max_shots)
        self.geom = planning.table_geom(table)
        self.w, self.l = float(table.w), float(table.l)
        #: (2N,) x and y scale of the positions' columns in `encode_batch` (x, y, x, y, ...)
        self._xy_scale = np.tile([2.0 / self.w, 2.0 / self.l], self.N)
        self.seats = seats
        n_decl = len(DECLARATIONS) if seats is not None else 0
        self.common_size = 2 * self.N + 3 * self.N + len(PHASES) + 3 + 6 + len(OPTIONS) + 6 + 2 * self.P + 1
        self.obs_size = self.common_size + (seats.size if seats is not None else 0)
        #: `poolgym.envs.scoring.ScoreBlock` of a scoring game (None: none), after the seat block
        self.scores = scores
        self.score0 = self.obs_size
        self.obs_size += scores.size if scores is not None else 0
        #: `poolgym.envs.param.ParamCodec` of the parameterised modes (None: none): its candidate
        #: block ends the observation
        self.candidates = candidates
        self.cand0 = self.obs_size
        self.obs_size += candidates.obs_size if candidates is not None else 0
        #: first Box index of the declaration scores (== box_size for a WPA game)
        self.decl0 = 9 + (self.N - 1) + N_POCKETS + len(OPTIONS)
        self.box_size = self.decl0 + n_decl
        #: a game taking several calls on one shot (HO-6 / C-20): the Box ends with one score
        #: per (ball, pocket) for the further calls, the macro table has the two-call pots
        self.multi_calls = bool(multi_calls)
        self.calls0 = self.box_size
        if self.multi_calls:
            self.box_size += (self.N - 1) * N_POCKETS
        self.macro_table = _macro_table(self.N, seats is not None, self.multi_calls)
        #: first macro index of the two-call pots (== macro_opt0 when there are none)
        self.macro_multi0 = next((i for i, e in enumerate(self.macro_table) if e.also), None)
        self.n_macro = len(self.macro_table)
        #: first macro index of the options / declarations
        self.macro_opt0 = self.n_macro - n_decl - len(OPTIONS)
        self.macro_decl0 = self.n_macro - n_decl
        #: id(spec) -> `_mask_entries` (`encode_batch`)
        self._mask_cache: dict = {}
        #: (id(spec) or None, phase, cue ball) -> `_cols_entry` (`encode_batch`)
        self._cols_cache: dict = {}
        #: id(spec) -> (spec, `_spec_kind`) (`decode_box_batch`)
        self._kind_cache: dict = {}

    # ------------------------------------------------------------------ observation
    def encode(self, state: GameState, spec: ActionSpec | None, seat: int, shots: int = 0,
               out: np.ndarray | None = None, secret=None) -> np.ndarray:
        """Observation of ``state`` for ``seat`` (``spec`` = legal actions of the seat to act;
        the masks are zero when ``seat`` is not to act or ``spec`` is None). Seated games:
        ``state`` is the seat's view and ``secret`` its own private value
        (`poolgym.envs.seating.seat_view`)."""
        o = np.zeros(self.obs_size, np.float32) if out is None else out
        if out is not None:
            o.fill(0.0)
        N = self.N
        pos = state.pos
        on = state.on_table
        sx, sy = 2.0 / self.w, 2.0 / self.l
        xy = [0.0] * (2 * N)
        for b in range(N):
            if on[b]:
                # clipped: a ball resting in a pocket mouth can lie beyond the cushion nose line
                x = pos[2 * b] * sx - 1.0
                y = pos[2 * b + 1] * sy - 1.0
                xy[2 * b] = -1.0 if x < -1.0 else (1.0 if x > 1.0 else x)
                xy[2 * b + 1] = -1.0 if y < -1.0 else (1.0 if y > 1.0 else y)
        o[: 2 * N] = xy
        k = 2 * N
        o[k : k + N] = on
        k += N
        to_act = spec is not None and state.seat_to_act == seat and state.phase is not Phase.GAME_OVER
        if to_act:
            for b in spec.target_balls:
                o[k + b] = 1.0
        k += N
        if to_act:
            for b in spec.callable_balls:
                o[k + b] = 1.0
        k += N
        o[k + _PHASE_INDEX[state.phase]] = 1.0
        k += len(PHASES)
        o[k + _PLACEMENT_INDEX[state.cue_ball]] = 1.0
        k += 3
        if to_act:
            o[k : k + 6] = (spec.can_shoot, spec.must_place, spec.call_required, spec.safety_allowed,
                            spec.push_out_allowed, True)
        k += 6
        if to_act:
            for opt in spec.options:
                o[k + _OPTION_INDEX[opt]] = 1.0
        k += len(OPTIONS)
        P = len(state.scores)
        groups = state.groups
        for i in range(min(2, P)):
            s_ = (seat + i) % P
            g = int(groups[s_]) if s_ < len(groups) else 0
            o[k + 3 * i + min(max(g, 0), 2)] = 1.0
        k += 6
        for i in range(min(self.P, P)):
            o[k + i] = math.tanh(float(state.scores[(seat + i) % P]) / 50.0)
        k += self.P
        cf = state.consecutive_fouls
        for i in range(min(self.P, P)):
            s_ = (seat + i) % P
            o[k + i] = min(float(cf[s_]) / 3.0, 1.0) if s_ < len(cf) else 0.0
        k += self.P
        o[k] = min(float(shots) / max(self.max_shots, 1), 1.0)
        if self.seats is not None:
            self.seats.encode(state, secret, spec, seat, o, k + 1)
        if self.scores is not None:
            self.scores.encode(state, seat, o, self.score0)
        if self.candidates is not None:
            self.candidates.features(state, spec, seat, o, self.cand0)
        return o

    def encode_batch(self, states, specs, seats, shots, out: np.ndarray, secrets=None) -> np.ndarray:
        """`encode` of B tables into ``out`` (B, obs_size) (same values): positions, on-table
        flags and the one-hot parts are written for all tables with array operations, the
        per-table masks by index lists, a seated game's seat block per table; returns
        ``out``. Seated games: ``states`` are the observers' views, ``secrets`` their own
        private values."""
        B = len(states)
        if B <= SMALL_BATCH:
            for i in range(B):
                self.encode(states[i], specs[i], seats[i], shots[i], out=out[i],
                            secret=None if secrets is None else secrets[i])
            return out
        N = self.N
        out.fill(0.0)
        P = float_rows([st.pos for st in states], 2 * N)
        on = bool_rows([st.on_table for st in states], N)
        xy = P * self._xy_scale - 1.0
        np.minimum(xy, 1.0, out=xy)  # (np.clip's values, without its Python wrapper)
        np.maximum(xy, -1.0, out=xy)
        xy = np.where(np.repeat(on, 2, axis=1), xy, 0.0)  # +0.0 off the table, as `encode` (not -0.0)
        out[:, : 2 * N] = xy
        out[:, 2 * N : 3 * N] = on
        k_tgt, k_call = 3 * N, 4 * N
        k_ph = 5 * N
        k_cb = k_ph + len(PHASES)
        k_fl = k_cb + 3
        k_op = k_fl + 6
        k_gr = k_op + len(OPTIONS)
        k_sc = k_gr + 6
        k_fo = k_sc + self.P
        k_sh = k_fo + self.P
        # per table the columns set to 1: its phase and cue-ball one-hots and, when the
        # observer is to act, its legal-decision mask and flags (memoised per spec, phase and
        # cue-ball placement)
        cache = self._cols_cache
        over = Phase.GAME_OVER
        cols, lens = [], []
        flags_rows, flags = [], []  # flags that are not plain bools, written as they are
        for i, (st, spec, seat) in enumerate(zip(states, specs, seats)):
            ph = st.phase
            to_act = spec is not None and st.seat_to_act == seat and ph is not over
            key = (id(spec) if to_act else None, ph, st.cue_ball)
            hit = cache.get(key)
            if hit is None or hit[0] is not (spec if to_act else None):
                hit = self._cols_entry(spec if to_act else None, ph, st.cue_ball, k_ph, k_cb, k_fl, k_tgt, k_call,
                                       k_op)
            c = hit[1]
            cols.extend(c)
            lens.append(len(c))
            if hit[2] is not None:
                flags_rows.append(i)
                flags.append(hit[2])
        ar = np.arange(B)
        out[np.repeat(ar, lens), cols] = 1.0
        if flags_rows:
            out[flags_rows, k_fl : k_fl + 6] = flags
        # per-seat parts (observer first), the seat tuples of all tables as arrays
        Pn = len(states[0].scores)
        try:  # the three seat tuples of every table in one array (small ints and scores: exact in float64)
            GSC = float_rows([st.groups + st.scores + st.consecutive_fouls for st in states], 3 * Pn).reshape(B, 3, Pn)
        except struct.error:  # pragma: no cover - one env's tables always have the same players
            GSC = None
        if GSC is not None:
            seat_a = np.asarray(seats, np.int64)
            G = GSC[:, 0].astype(np.int64)
            S = GSC[:, 1]
            CF = GSC[:, 2]
            for j in range(min(2, Pn)):
                g = np.minimum(np.maximum(G[ar, (seat_a + j) % Pn], 0), 2)
                out[ar, k_gr + 3 * j + g] = 1.0
            for j in range(min(self.P, Pn)):
                sj = (seat_a + j) % Pn
                out[:, k_sc + j] = np.tanh(S[ar, sj] / 50.0)
                out[:, k_fo + j] = np.minimum(CF[ar, sj] / 3.0, 1.0)
        else:  # pragma: no cover - one env's tables always have the same players
            for i, (st, seat) in enumerate(zip(states, seats)):
                out[i] = self.encode(st, specs[i], seat, shots[i])
        out[:, k_sh] = np.minimum(np.asarray(shots, np.float64) / max(self.max_shots, 1), 1.0)
        if self.seats is not None:
            self.seats.encode_batch(states, [None] * B if secrets is None else secrets, specs, seats, out, k_sh + 1)
        if self.scores is not None:
            self.scores.encode_batch(states, seats, out, self.score0)
        if self.candidates is not None:
            for i, (st, seat) in enumerate(zip(states, seats)):
                self.candidates.features(st, specs[i], seat, out[i], self.cand0)
        return out

    def _cols_entry(self, spec, phase, cue_ball, k_ph, k_cb, k_fl, k_tgt, k_call, k_op) -> tuple:
        """(spec, the columns `encode_batch` sets to 1 for a table in ``phase`` with its cue
        ball ``cue_ball``: the two one-hots, then, for ``spec`` (None: the observer is not to
        act) its mask entries and the flags that are set, None or the flags to write as they
        are when they are not all bools), memoised."""
        c = (k_ph + _PHASE_INDEX[phase], k_cb + _PLACEMENT_INDEX[cue_ball])
        fl = None
        if spec is not None:
            hit = self._mask_cache.get(id(spec))
            if hit is None or hit[0] is not spec:
                hit = self._mask_entries(spec, k_tgt, k_call, k_op)
            c = c + hit[1]
            if all(type(f) is bool for f in hit[2]):
                c = c + tuple(k_fl + j for j, f in enumerate(hit[2]) if f)
            else:
                fl = hit[2]
        if len(self._cols_cache) > MEMO_SIZE:
            self._cols_cache.clear()
        hit = self._cols_cache[(None if spec is None else id(spec), phase, cue_ball)] = (spec, c, fl)
        return hit

    def _mask_entries(self, spec: ActionSpec, k_tgt: int, k_call: int, k_op: int) -> tuple:
        """(spec, columns of the target / callable / option masks set to 1, the 6 flags) of
        ``spec``'s legal-decision mask (as `encode` writes it), memoised per spec object (the
        rules memoise their specs, so a few objects recur; the spec is kept so that its id
        stays unique)."""
        cols = ([k_tgt + b for b in spec.target_balls] + [k_call + b for b in spec.callable_balls]
                + [k_op + _OPTION_INDEX[o] for o in spec.options])
        hit = (spec, tuple(cols), (spec.can_shoot, spec.must_place, spec.call_required, spec.safety_allowed,
                                   spec.push_out_allowed, True))
        if len(self._mask_cache) > MEMO_SIZE:
            self._mask_cache.clear()
        self._mask_cache[id(spec)] = hit
        return hit

    # ------------------------------------------------------------------ helpers
    def _base_phi(self, state: GameState, spec: ActionSpec, cue_xy) -> float:
        """Direction (deg) from ``cue_xy`` to the nearest legal target ball (0 if none or
        ``phi_mode="absolute"``)."""
        if self.phi_mode == "absolute" or not spec.target_balls:
            return 0.0
        pos, on = state.pos, state.on_table
        cx, cy = float(cue_xy[0]), float(cue_xy[1])
        best, bx, by = math.inf, 0.0, 0.0
        for b in spec.target_balls:
            if on[b]:
                dx, dy = pos[2 * b] - cx, pos[2 * b + 1] - cy
                d = dx * dx + dy * dy
                if d < best:
                    best, bx, by = d, dx, dy
        return math.degrees(math.atan2(by, bx)) if best < math.inf else 0.0

    def _placement_region(self, spec: ActionSpec):
        return spec.place_cue is CueBallPlacement.IN_HAND_KITCHEN

    def place(self, state: GameState, spec: ActionSpec, x: float, y: float) -> PlaceCueBall:
        """Legal `PlaceCueBall` nearest to (x, y) for this spec's in-hand region."""
        x, y = nearest_legal_placement(
            x, y, state.pos, state.on_table, self.table, self.R,
            kitchen=self._placement_region(spec),
            may_touch=False,
        )
        return PlaceCueBall(x, y)

    @staticmethod
    def _masked_argmax(scores, legal) -> int:
        """The entry of ``legal`` (indices) with the highest score (first on ties)."""
        best, arg = -math.inf, None
        for i in legal:
            if scores[i] > best:
                best, arg = scores[i], i
        return arg

    # ------------------------------------------------------------------ box decoding
    def _clean_box(self, arr: np.ndarray) -> np.ndarray:
        """(B, box_size) float64 clipped to [-1, 1]; ValueError on a wrong size or NaN/inf."""
        if arr.shape[-1] != self.box_size:
            raise ValueError(f"action must have {self.box_size} entries, got {arr.shape[-1]}")
        if not np.isfinite(arr).all():
            raise ValueError("action contains NaN or inf")
        return np.clip(arr, -1.0, 1.0)

    def decode_box(self, vec, state: GameState, spec: ActionSpec) -> list:
        """Typed actions for the Box vector ``vec`` (see module docstring)."""
        arr = np.asarray(vec, dtype=np.float64).reshape(1, -1)
        u = self._clean_box(arr)[0].tolist()
        return self._decode_u(u, state, spec, None)

    def decode_box_batch(self, actions, states, specs, pos=None, on=None, rows_out=None) -> list:
        """`decode_box` for B tables at once (same results): the Box rows are checked and
        clipped together, every cue-ball placement is moved to its nearest legal spot by
        ONE call of `poolgym.rules.placement.nearest_legal_spots`, and the shots of the rows
        whose spec only asks for a shot (no declaration, option or multiple call open) are
        computed with array operations (speed, elevation, tip offset, the direction's base:
        the nearest legal target ball); the others are decoded row by row. ``pos`` (B, N, 2)
        and ``on`` (B, N): the states' ball arrays, if the caller has them; ``rows_out`` (B, 5)
        float64, optional: filled with each decision's shot as [V0, phi, theta, a, b] (its last
        action when that is a `ShotAction`, else NaN)."""
        from poolgym.rules.placement import nearest_legal_spots, table_arrays

        B = len(states)
        N = self.N
        arr = np.asarray(actions, dtype=np.float64).reshape(B, -1)
        U = self._clean_box(arr)
        if B <= SMALL_BATCH:  # `decode_box` table by table
            out = []
            for k in range(B):
                dec = self._decode_u(U[k].tolist(), states[k], specs[k], None)
                out.append(dec)
                if rows_out is not None:
                    rows_out[k] = _stroke_row(dec)
            return out
        kinds = [self._spec_kind(sp) for sp in specs]
        # the rows read entry by entry: those decoded one by one (and the declarations below)
        rows = {k: U[k].tolist() for k, kind in enumerate(kinds) if kind is None}
        if pos is None:
            pos = np.array([st.pos for st in states], np.float64).reshape(B, N, 2)
        if on is None:
            on = np.array([st.on_table for st in states], np.bool_).reshape(B, N)
        # cue-ball placement wanted (`_placement_request`): the plain rows with the ball in hand
        R = self.R
        req = [None] * B
        for k, (kind, st) in enumerate(zip(kinds, states)):
            if kind is None:
                req[k] = self._placement_request(rows[k], st, specs[k])
            elif kind[0] is not None and (kind[1] or not st.cue_placed):
                req[k] = kind[0]  # kitchen (bool): x, y filled in below
        ks = [k for k, r in enumerate(req) if r is not None]
        placed = [None] * B
        px = py = None
        if ks:
            M = len(ks)
            xs = np.empty(M)
            ys = np.empty(M)
            kit = np.empty(M, np.bool_)
            plain = [m for m, k in enumerate(ks) if type(req[k]) is bool]
            if plain:
                kp = [ks[m] for m in plain]
                kit_p = np.array([req[k] for k in kp], np.bool_)
                xs[plain] = R + (U[kp, 5] + 1) / 2 * (self.w - 2 * R)
                ys[plain] = R + (U[kp, 6] + 1) / 2 * np.where(kit_p, float(self.table.head_string_y) - 2 * R,
                                                               self.l - 2 * R)
                kit[plain] = kit_p
            for m, k in enumerate(ks):
                if type(req[k]) is not bool:
                    xs[m], ys[m], kit[m] = req[k]
            w, l, hy, pk, sg, jw = table_arrays(self.table)
            ok, px, py = nearest_legal_spots(xs, ys, pos[ks], on[ks], kit, w, l, hy, pk, sg, jw, R, 2e-4, 1e-6,
                                             R / 2, 400)
            if not ok.all():
                raise ValueError("no legal cue-ball placement found")
            fast = PlaceCueBall._fast
            for k, x, y in zip(ks, px.tolist(), py.tolist()):
                placed[k] = fast(x, y)
        # the plain rows' shots, all together
        V0 = self.V0_min + (U[:, 0] + 1) / 2 * (self.V0_max - self.V0_min)
        theta = (U[:, 2] + 1) / 2 * self.theta_max
        A = 0.45 * U[:, 3]
        Bt = 0.45 * U[:, 4]
        # rows whose offset may lie beyond 0.45: projected row by row (`_decode_u`, math.hypot)
        near = (A * A + Bt * Bt > 0.2025 * (1.0 - 1e-9)).tolist()
        if rows_out is not None:  # the shots' stroke rows; corrected below where a row differs
            rows_out[:, 0] = V0
            rows_out[:, 2] = theta
            rows_out[:, 3] = A
            rows_out[:, 4] = Bt
        V0 = V0.tolist()
        theta = theta.tolist()
        A = A.tolist()
        Bt = Bt.tolist()
        if self.phi_mode == "absolute":
            base = None
        else:  # the direction's base: from the cue ball (placed or not) to the nearest target
            cx = pos[:, 0, 0].copy()
            cy = pos[:, 0, 1].copy()
            if ks:
                cx[ks] = px
                cy[ks] = py
            tm = np.concatenate([kind[2] if kind is not None else _NO_TARGETS[N] for kind in kinds]).reshape(B, N) & on
            dx = pos[:, :, 0] - cx[:, None]
            dy = pos[:, :, 1] - cy[:, None]
            d = np.where(tm, dx * dx + dy * dy, np.inf)
            best = d.argmin(axis=1)
            ar = np.arange(B)
            has = tm.any(axis=1).tolist()
            bx = dx[ar, best].tolist()
            by = dy[ar, best].tolist()
            base = [math.degrees(math.atan2(y_, x_)) if h else 0.0 for h, x_, y_ in zip(has, bx, by)]
        # phi = (base + 180 u1) mod 360 (the same IEEE operations as on Python floats)
        phis = ((0.0 if base is None else np.array(base, np.float64)) + 180.0 * U[:, 1]) % 360.0
        if rows_out is not None:
            rows_out[:, 1] = phis
        phis = phis.tolist()
        push = (U[:, 8] > 0).tolist()
        out = []
        shot = ShotAction._fast
        for k in range(B):
            kind = kinds[k]
            if kind is None:
                dec = self._decode_u(rows[k], states[k], specs[k], placed[k])
                out.append(dec)
                if rows_out is not None:
                    rows_out[k] = _stroke_row(dec)
                continue
            spec = specs[k]
            a, b = A[k], Bt[k]
            if near[k]:
                r = math.hypot(a, b)
                if r > 0.45:
                    a, b = a * 0.45 / r, b * 0.45 / r
                    if rows_out is not None:
                        rows_out[k, 3] = a
                        rows_out[k, 4] = b
            if spec.safety_allowed or spec.callable_balls or spec.call_required:
                safety, called_ball, called_pocket = self._call(U[k].tolist(), spec)
            else:  # (`_call` of a spec with none of them)
                safety, called_ball, called_pocket = False, None, None
            s = shot(V0[k], phis[k], theta[k], a, b, called_ball, called_pocket, safety,
                     bool(spec.push_out_allowed and push[k]))
            out.append([s] if placed[k] is None else [placed[k], s])
        return out

    def _call(self, u: list, spec: ActionSpec) -> tuple:
        """(safety, called ball, called pocket) that Box row ``u`` declares under ``spec``:
        a safety where it is allowed and asked (8B-4.12; it replaces the call), else the best-scored
        callable ball and pocket where the spec asks for a call, the best-scored pocket alone
        where a call is required but no ball may be named (1S-7.2 / 1S-7.4 once the 1 is down)
        (None, None otherwise)."""
        safety = bool(spec.safety_allowed and u[7] > 0)
        N = self.N
        if not spec.callable_balls or safety:
            if spec.call_required and not safety:
                return False, None, self._masked_argmax(u, range(9 + N - 1, 9 + N - 1 + N_POCKETS)) - (9 + N - 1)
            return safety, None, None
        return (safety, self._masked_argmax(u, [8 + c for c in spec.callable_balls]) - 8,
                self._masked_argmax(u, range(9 + N - 1, 9 + N - 1 + N_POCKETS)) - (9 + N - 1))

    def _spec_kind(self, spec: ActionSpec):
        """For `decode_box_batch`: None when ``spec`` is decoded row by row (a declaration,
        an option or several calls may be made, no shot, or targets not in ball order), else
        (kitchen placement (bool) or None when the cue ball is not in hand, must_place, the
        (N,) target-ball mask), memoised per spec object."""
        hit = self._kind_cache.get(id(spec))
        if hit is not None and hit[0] is spec:
            return hit[1]
        tb = spec.target_balls
        if spec.declarations or spec.options or not (spec.can_shoot or spec.must_place) or self.multi_calls or \
                list(tb) != sorted(set(tb)) or (tb and not (0 <= tb[0] and tb[-1] < self.N)):
            kind = None
        else:
            mask = np.zeros(self.N, np.bool_)
            mask[list(tb)] = True
            kind = (None if spec.place_cue is None else bool(self._placement_region(spec)), spec.must_place, mask)
        if len(self._kind_cache) > MEMO_SIZE:
            self._kind_cache.clear()
        self._kind_cache[id(spec)] = (spec, kind)
        return kind

    def _declaration(self, u: list, spec: ActionSpec):
        """The `Declare` that Box row ``u`` makes now, or None: in a declaration window the
        masked argmax of the open declarations; beside a shot the best one if its score > 0.5."""
        if not spec.declarations:
            return None
        d0 = self.decl0
        best = self._masked_argmax(u, [d0 + DECL_INDEX[d] for d in spec.declarations])
        if spec.phase is Phase.DECLARE or not (spec.can_shoot or spec.must_place or spec.options) or u[best] > 0.5:
            return Declare(DECLARATIONS[best - d0])
        return None

    def _placement_request(self, u: list, state: GameState, spec: ActionSpec):
        """(x, y, kitchen) wanted for the cue ball when decoding ``u`` places it, else None
        (mirrors the early returns of `_decode_u`)."""
        if spec.declarations and self._declaration(u, spec) is not None:
            return None
        if spec.options:
            o0 = 9 + (self.N - 1) + N_POCKETS
            best = self._masked_argmax(u, [o0 + _OPTION_INDEX[o] for o in spec.options])
            if not spec.can_shoot or spec.phase is _OPTION_PHASE or u[best] > 0.5:
                return None
        if not spec.can_shoot and not spec.must_place:
            return None
        if spec.place_cue is not None and (spec.must_place or not state.cue_placed):
            R = self.R
            x = R + (u[5] + 1) / 2 * (self.w - 2 * R)
            kitchen = self._placement_region(spec)
            if kitchen:
                y = R + (u[6] + 1) / 2 * (float(self.table.head_string_y) - 2 * R)
            else:
                y = R + (u[6] + 1) / 2 * (self.l - 2 * R)
            return x, y, kitchen
        return None

    def _decode_u(self, u: list, state: GameState, spec: ActionSpec, placed) -> list:
        """Typed actions for the clipped Box row ``u``; ``placed`` = the `PlaceCueBall`
        already computed for it (batched), or None to compute it here."""
        N = self.N
        o0 = 9 + (N - 1) + N_POCKETS
        if spec.declarations:
            d = self._declaration(u, spec)
            if d is not None:
                return [d]
        if spec.options:
            best = self._masked_argmax(u, [o0 + _OPTION_INDEX[o] for o in spec.options])
            if not spec.can_shoot or spec.phase is _OPTION_PHASE or u[best] > 0.5:
                opt = OPTIONS[best - o0]
                if opt in _BALL_OPTIONS and len(spec.spot_choices) > 1:
                    # GW-5 / SP-6.7.7: of the equally near balls, 41-13 / C-41: of the fouler's
                    # pocketed balls, the one with the best called-ball score
                    ball = self._masked_argmax(u, [8 + c for c in spec.spot_choices]) - 8
                    return [ChooseOption(opt, ball=ball)]
                return [_CHOOSE[opt]]
        if not spec.can_shoot and not spec.must_place:
            return []
        out = []
        cue_xy = (state.pos[0], state.pos[1])
        if spec.place_cue is not None and (spec.must_place or not state.cue_placed):
            if placed is None:
                x, y, _ = self._placement_request(u, state, spec)
                placed = self.place(state, spec, x, y)
            out.append(placed)
            cue_xy = (placed.x, placed.y)
        V0 = self.V0_min + (u[0] + 1) / 2 * (self.V0_max - self.V0_min)
        phi = (self._base_phi(state, spec, cue_xy) + 180.0 * u[1]) % 360.0
        theta = (u[2] + 1) / 2 * self.theta_max
        a, b = 0.45 * u[3], 0.45 * u[4]
        r = math.hypot(a, b)
        if r > 0.45:
            a, b = a * 0.45 / r, b * 0.45 / r
        safety, called_ball, called_pocket = self._call(u, spec)
        if called_ball is not None:
            more = self._more_calls(u, state, spec, called_ball) if self.multi_calls else ()
            if more:
                out.append(MultiCallShot(float(V0), float(phi), float(theta), float(a), float(b), called_ball,
                                         called_pocket, more_calls=more))
                return out
        out.append(ShotAction._fast(float(V0), float(phi), float(theta), float(a), float(b), called_ball,
                                    called_pocket, safety, bool(spec.push_out_allowed and u[8] > 0)))
        return out

    def _more_calls(self, u: list, state: GameState, spec: ActionSpec, first: int) -> tuple:
        """HO-6 / C-20 further calls from the Box block at ``calls0``: every callable ball but
        ``first`` whose best pocket score exceeds 0.5 is called into that pocket, the highest
        scores first, up to ``max_called_balls`` calls in all."""
        room = int(getattr(state.config, "max_called_balls", 1)) - 1
        if room <= 0:
            return ()
        cands = []
        for c in spec.callable_balls:
            if c == first:
                continue
            k = self.calls0 + (c - 1) * N_POCKETS
            row = u[k : k + N_POCKETS]
            p = max(range(N_POCKETS), key=lambda j: row[j])
            if row[p] > 0.5:
                cands.append((-row[p], c, p))
        cands.sort()
        return tuple(sorted((c, p) for _, c, p in cands[:room]))

    # ------------------------------------------------------------------ macros
    def _ball_sets(self, spec: ActionSpec):
        # a call that names no ball (1S-7.2 once the 1 is down) leaves every ball on to pot
        shoot_balls = set(spec.callable_balls) if spec.call_required and spec.callable_balls else \
            set(spec.target_balls)
        return shoot_balls

    def macro_mask(self, state: GameState, spec: ActionSpec | None) -> np.ndarray:
        """(n_macro,) bool: legal macro actions now (all False when nobody may act)."""
        m = np.zeros(self.n_macro, bool)
        if spec is None or state.phase is Phase.GAME_OVER:
            return m
        if spec.declarations:
            for d in spec.declarations:
                m[self.macro_decl0 + DECL_INDEX[d]] = True
            if spec.phase is Phase.DECLARE or not (spec.can_shoot or spec.must_place or spec.options):
                return m
        if spec.options:
            for o in spec.options:
                m[self.macro_opt0 + OPTIONS.index(o)] = True
            if spec.phase is Phase.OPTION or not spec.can_shoot:
                return m
        if not (spec.can_shoot or spec.must_place):
            return m
        balls = [b for b in self._ball_sets(spec) if state.on_table[b]]
        in_hand = spec.place_cue is not None and (spec.must_place or not state.cue_placed)
        pos = np.asarray(state.pos, float).reshape(-1, 2)
        n_pot = (self.N - 1) * N_POCKETS * len(SPEED_FACTORS) * len(SPIN_B)
        per_ball = N_POCKETS * len(SPEED_FACTORS) * len(SPIN_B)
        if balls:
            bl = np.array(balls, int)
            if in_hand:
                feas = np.ones((len(balls), N_POCKETS), bool)
            else:  # `planning.aim(...).feasible`, compiled
                feas = np.empty((len(balls), N_POCKETS), np.bool_)
                planning.aim_feasible(pos[0], pos[bl], self.geom.aims, self.R, feas)
            for i, b in enumerate(balls):
                blk = np.repeat(feas[i], len(SPEED_FACTORS) * len(SPIN_B))
                m[(b - 1) * per_ball : b * per_ball] = blk
                h0 = n_pot + (b - 1) * len(HIT_SPEEDS)
                m[h0 : h0 + len(HIT_SPEEDS)] = True
        n_hit = (self.N - 1) * len(HIT_SPEEDS)
        if spec.safety_allowed:
            for b in [k for k in spec.target_balls if state.on_table[k]]:
                h0 = n_pot + n_hit + (b - 1) * len(HIT_SPEEDS)
                m[h0 : h0 + len(HIT_SPEEDS)] = True
        b0 = n_pot + 2 * n_hit
        if spec.phase is Phase.BREAK:
            m[b0 : b0 + N_BREAK] = True
        if spec.push_out_allowed:
            m[b0 + N_BREAK : b0 + N_BREAK + N_PUSH] = True
        if self.macro_multi0 is not None and spec.call_required and \
                int(getattr(state.config, "max_called_balls", 1)) > 1:
            # two-call pots: the pot (b, p) is feasible and the second ball callable
            centre = SPIN_B.index(0.0)
            callable_on = {c for c in spec.callable_balls if state.on_table[c]}
            for i, e in enumerate(self.macro_table[self.macro_multi0 : self.macro_opt0]):
                if e.ball in balls and e.also in callable_on and \
                        m[(e.ball - 1) * per_ball + (e.pocket * len(SPEED_FACTORS)) * len(SPIN_B) + centre]:
                    m[self.macro_multi0 + i] = True
        if not m.any() and (spec.can_shoot or spec.must_place):
            m[b0 : b0 + N_BREAK] = True  # nothing else is available: a break-style shot
        return m

    def decode_macro(self, index: int, state: GameState, spec: ActionSpec) -> list:
        """Typed actions for macro ``index`` (raises ValueError if out of range)."""
        if not (0 <= int(index) < self.n_macro):
            raise ValueError(f"macro action must be in [0, {self.n_macro}), got {index!r}")
        e = self.macro_table[int(index)]
        if e.kind == "option":
            return [ChooseOption(e.option)]
        if e.kind == "declare":
            return [Declare(e.declaration)]
        pos = np.asarray(state.pos, float).reshape(-1, 2)
        in_hand = spec.place_cue is not None and (spec.must_place or not state.cue_placed)
        out = []
        R = self.R
        cue = pos[0].copy()
        call_b = call_p = None
        if e.kind == "pot":
            tgt = self.geom.aims[e.pocket]
            ghost = planning.ghost_ball(pos[e.ball], tgt, R)
            if in_hand:
                pl = self.place(state, spec, *(ghost + 0.3 * planning.unit(ghost - tgt)))
                out.append(pl)
                cue = np.array([pl.x, pl.y])
            a = planning.aim(cue, pos[e.ball], tgt, R)
            V0 = planning.v0_for_pot(float(a.d_cue), float(a.d_obj), math.radians(abs(float(a.cut))))
            V0 *= SPEED_FACTORS[e.speed]
            V0 = min(max(V0, 0.5), self.V0_max)
            phi, b = float(a.phi), SPIN_B[e.spin]
            call_b, call_p = shot_call(spec, e.ball, e.pocket)  # (a pocket alone: 1S-7.2, 1S-7.4)
        elif e.kind in ("hit", "safety"):
            if in_hand:
                c = np.array([self.w / 2, self.l / 2]) - pos[e.ball]
                u = planning.unit(c) if np.any(c) else np.array([0, -1.0])
                pl = self.place(state, spec, *(pos[e.ball] + 0.3 * u))
                out.append(pl)
                cue = np.array([pl.x, pl.y])
            d = pos[e.ball] - cue
            phi = math.degrees(math.atan2(d[1], d[0])) % 360.0
            V0, b = HIT_SPEEDS[e.speed], 0.0
            if e.kind == "safety":
                return out + [ShotAction(V0=float(V0), phi=float(phi), safety=True)]
            if spec.callable_balls and e.ball in spec.callable_balls:
                call_b, call_p = e.ball, planning.best_pocket(self.geom, pos[e.ball])
        elif e.kind == "break":
            if in_hand:
                xs = (self.w / 2, self.w / 4, 3 * self.w / 4)[e.spin]
                pl = self.place(state, spec, xs, float(self.table.head_string_y) - 2 * R)
                out.append(pl)
                cue = np.array([pl.x, pl.y])
            balls = [k for k in (spec.target_balls or range(1, self.N)) if state.on_table[k]]
            aim_at = pos[balls[0]] if balls else np.array([self.w / 2, 0.75 * self.l])
            d = aim_at - cue
            phi = math.degrees(math.atan2(d[1], d[0])) % 360.0
            V0, b = min(BREAK_V0, self.V0_max), 0.0
        else:  # push
            if in_hand:
                pl = self.place(state, spec, self.w / 2, self.l / 4)
                out.append(pl)
            phi, V0, b = 360.0 * e.spin / N_PUSH, PUSH_V0, 0.0
        if spec.callable_balls and call_b is None and spec.call_required:
            call_b = spec.callable_balls[0]
            call_p = planning.best_pocket(self.geom, pos[call_b])
        elif spec.call_required and call_p is None and e.kind == "hit":  # a pocket alone (1S-7.2)
            call_p = planning.best_pocket(self.geom, pos[e.ball])
        if e.also:
            out.append(MultiCallShot(V0=float(V0), phi=float(phi), b=float(b), called_ball=call_b,
                                     called_pocket=call_p,
                                     more_calls=((e.also, planning.best_pocket(self.geom, pos[e.also])),)))
            return out
        out.append(ShotAction(V0=float(V0), phi=float(phi), b=float(b), called_ball=call_b,
                              called_pocket=call_p, push_out=(e.kind == "push")))
        return out
