"""`PoolEnv`: one Gymnasium env over every discipline of `poolgym.rules` (and the drills)."""

from __future__ import annotations

import dataclasses
import json

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from poolgym.envs import physics_io, prewarm
from poolgym.envs.codec import Codec, box_action, discrete_action
from poolgym.envs.opponents import make_opponent
from poolgym.envs.param import N_CORRECTIONS, ParamCodec, dict_action
from poolgym.envs.seating import SeatBlock, seat_bar_args, seat_view, uses_seats
from poolgym.envs.scoring import score_block
from poolgym.envs.session import FINISHED_EPISODE, SHAPING_KEYS, Session, verdict_info
from poolgym.rules.core import CueBallPlacement, GameState, Phase
from poolgym.rules.game import MAX_CUE_SPEED

ACTION_MODES = ("box", "macro", "param", "param_dict")
#: the parameterised modes (`poolgym.envs.param`)
PARAM_MODES = ("param", "param_dict")


def resolve_discipline(discipline):
    """The discipline object an env plays: a name of the rules registry
    (`poolgym.rules.DISCIPLINES`) or of a drill (`poolgym.envs.drills.DRILLS`), or a
    discipline object itself."""
    from poolgym.envs.drills import DRILLS

    if not isinstance(discipline, str):
        return discipline
    if discipline in DRILLS:
        return DRILLS[discipline]()
    from poolgym.rules.game import DISCIPLINES

    try:
        return DISCIPLINES[discipline]
    except KeyError:
        raise ValueError(f"discipline: unknown {discipline!r}; known: {sorted(DISCIPLINES) + sorted(DRILLS)}")


def get_discipline(discipline):
    """Deprecated name of `resolve_discipline` (``poolgym.rules.get_discipline`` is the rules
    registry's lookup by name)."""
    import warnings

    warnings.warn("poolgym.envs.pool_env.get_discipline is deprecated; use resolve_discipline",
                  DeprecationWarning, stacklevel=2)
    return resolve_discipline(discipline)


def make_config(disc, rules, table, players=None):
    """The discipline config from ``rules`` (None, a dict of fields, or a config instance);
    ``table`` (if given) sets the table size, ``players`` (if given) the number of seats
    (``n_players``; it must be one the discipline allows)."""
    if players is not None:
        if not isinstance(players, (int, np.integer)) or isinstance(players, bool) or players < 1:
            raise ValueError(f"players must be a positive int, got {players!r}")
        allowed = getattr(disc, "allowed_players", None)
        if allowed is not None and int(players) not in allowed:
            raise ValueError(f"players must be one of {tuple(allowed)} for {disc.name}, got {players!r}")
        if rules is None:
            rules = {"n_players": int(players)}
        elif isinstance(rules, dict):
            if rules.get("n_players", int(players)) != int(players):
                raise ValueError(f"players={players} contradicts rules['n_players']={rules['n_players']}")
            rules = dict(rules, n_players=int(players))
        elif isinstance(rules, disc.config_cls):
            if rules.n_players != int(players):
                raise ValueError(f"players={players} contradicts the config's n_players={rules.n_players}")
    if rules is None:
        cfg = disc.config_cls() if table is None else disc.config_cls(table=table)
    elif isinstance(rules, dict):
        kw = dict(rules)
        if table is not None:
            kw.setdefault("table", table)
        try:
            cfg = disc.config_cls(**kw)
        except TypeError as e:
            raise ValueError(f"rules: {e}") from None
    elif isinstance(rules, disc.config_cls):
        cfg = rules if table is None else dataclasses.replace(rules, table=table)
    else:
        raise ValueError(f"rules must be None, a dict or a {disc.config_cls.__name__}, got {type(rules).__name__}")
    return cfg


#: the config objects handed out by `shared_config`, by type and repr (bounded: cleared when full)
_SHARED_CONFIGS: dict = {}


def shared_config(cfg):
    """One object for every equal discipline config: ``cfg``, or the first config of the same
    type and the same field values (compared by ``repr``: every field's exact value, -0.0
    and 0.0 apart) handed out before. The configs are frozen, so sharing one changes nothing
    an env computes; it lets the rules' per-config memos -- `DisciplineBase.legal_actions`'s
    ActionSpecs, keyed by the config object -- serve every table of a vector env instead of
    one memo entry per table and state kind (256 tables of nine-ball overflowed the memo
    every few steps and rebuilt ~200 specs a step)."""
    key = (type(cfg), repr(cfg))
    got = _SHARED_CONFIGS.get(key)
    if got is not None:
        return got
    if len(_SHARED_CONFIGS) >= 256:
        _SHARED_CONFIGS.clear()
    _SHARED_CONFIGS[key] = cfg
    return cfg


def weighted_reward(weights: dict, comps: dict) -> float:
    """The step's reward: ``weights[k] * comps[k]`` summed in the components' order from 0.0,
    one addition after the other (not the builtin ``sum``, which compensates from Python
    3.12), so that the native vector env's array sum (`PoolVectorEnv._rewards`) is bit-identical."""
    r = 0.0
    for k, v in comps.items():
        r += weights.get(k, 0.0) * v
    return float(r)


def reward_weights(reward) -> dict:
    """``reward``: "result" (default, game result only), "shaped" (default weights) or a
    dict of weights over `SHAPING_KEYS` (missing keys 0; "result" defaults to 1)."""
    if reward in (None, "result"):
        return {"result": 1.0}
    if reward == "shaped":
        return {"result": 1.0, "legal_pocketed": 0.1, "foul": 0.1, "ball_in_hand_conceded": 0.05,
                "points": 0.02, "opponent_foul": 0.0}
    if isinstance(reward, dict):
        bad = set(reward) - set(SHAPING_KEYS)
        if bad:
            raise ValueError(f"reward: unknown components {sorted(bad)}; known: {SHAPING_KEYS}")
        w = {"result": 1.0}
        w.update({k: float(v) for k, v in reward.items()})
        return w
    raise ValueError(f"reward must be 'result', 'shaped' or a dict of weights, got {reward!r}")


#: keys accepted by ``PoolEnv.reset(options=...)``
RESET_OPTION_KEYS = frozenset({"state", "balls", "seat_to_act", "phase", "cue_ball", "cue_placed", "scores",
                               "consecutive_fouls", "groups", "learner_seat", "extra", "inning", "shot_number"})


def apply_reset_options(state: GameState, options: dict, disc, table) -> GameState:
    """Apply ``reset(options=...)`` position overrides to ``state`` (see `PoolEnv`). Every
    value is checked here, before the env changes: the balls on the bed without overlap, the
    fields of their types (``extra`` the discipline's own, counts non-negative ints), and the
    result a well-formed state (`DisciplineBase.check_state`) whose seat to act has its legal
    actions; ``ValueError`` naming the option otherwise."""
    known = RESET_OPTION_KEYS
    bad = set(options) - known
    if bad:
        raise ValueError(f"options: unknown keys {sorted(bad)}; known: {sorted(known)}")
    if "state" in options:
        st = options["state"]
        if isinstance(st, str):
            st = GameState.from_json(st)
        if not isinstance(st, GameState):
            raise ValueError("options['state'] must be a GameState or its JSON")
        if st.discipline != disc.name:
            raise ValueError(f"options['state'] is a {st.discipline!r} game, not {disc.name!r}")
        state = st
    kw = {}
    if "balls" in options:
        pos = state.positions()
        on = state.on_mask()
        balls = options["balls"]
        if not isinstance(balls, dict):
            raise ValueError("options['balls'] must map ball number -> (x, y) or None")
        for k, xy in balls.items():
            if isinstance(k, (bool, np.bool_)):
                raise ValueError(f"options['balls']: ball {k!r} is not a ball number")
            k = int(k)
            if not 0 <= k < len(on):
                raise ValueError(f"options['balls']: ball {k} not in 0..{len(on) - 1}")
            if xy is None:
                on[k] = False
            else:
                if np.shape(xy) != (2,):
                    raise ValueError(f"options['balls'][{k}] must be (x, y) in metres or None, got {xy!r}")
                x, y = (float(v) for v in xy)
                if not (np.isfinite(x) and np.isfinite(y)):
                    raise ValueError(f"options['balls'][{k}] must be finite")
                pos[k] = (x, y)
                on[k] = True
        from poolgym.rules.geometry import ball_radius

        R = ball_radius()
        P = pos[on]
        idx = np.flatnonzero(on)
        if P.shape[0]:
            if (P[:, 0] < R - 1e-9).any() or (P[:, 0] > table.w - R + 1e-9).any() or \
                    (P[:, 1] < R - 1e-9).any() or (P[:, 1] > table.l - R + 1e-9).any():
                raise ValueError("options['balls']: a ball is off the bed")
            d = np.linalg.norm(P[:, None] - P[None], axis=2) + np.eye(P.shape[0]) * 1e9
            if (d < 2 * R - 1e-9).any():
                i, j = np.unravel_index(np.argmin(d), d.shape)
                raise ValueError(f"options['balls']: balls {idx[i]} and {idx[j]} overlap")
        kw["pos"] = tuple(pos.reshape(-1).tolist())
        kw["on_table"] = tuple(bool(v) for v in on)
    if "seat_to_act" in options:
        s = int(options["seat_to_act"])
        if not 0 <= s < state.n_players:
            raise ValueError(f"options['seat_to_act'] must be in 0..{state.n_players - 1}")
        kw["seat_to_act"] = s
    if "phase" in options:
        kw["phase"] = Phase(options["phase"])
    if "cue_ball" in options:
        kw["cue_ball"] = CueBallPlacement(options["cue_ball"])
        if kw["cue_ball"] is not CueBallPlacement.IN_POSITION:
            kw.setdefault("cue_placed", False)
    if "cue_placed" in options:
        if not isinstance(options["cue_placed"], (bool, np.bool_)):
            raise ValueError(f"options['cue_placed'] must be a bool, got {options['cue_placed']!r}")
        kw["cue_placed"] = bool(options["cue_placed"])
    if "extra" in options:
        ex = options["extra"]
        if type(ex) is not type(state.extra):
            want = "None" if state.extra is None else type(state.extra).__name__
            raise ValueError(f"options['extra'] must be a {want} ({disc.name}'s own), got {type(ex).__name__}")
        kw["extra"] = ex
    for key in ("scores", "consecutive_fouls", "groups"):
        if key in options:
            v = tuple(int(x) for x in options[key])
            if len(v) != state.n_players:
                raise ValueError(f"options['{key}'] needs {state.n_players} entries")
            if key == "consecutive_fouls" and min(v) < 0:
                raise ValueError(f"options['consecutive_fouls'] must be non-negative, got {v}")
            kw[key] = v
    for key in ("inning", "shot_number"):
        if key in options:
            v = options[key]
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"options['{key}'] must be a non-negative int, got {v!r}")
            kw[key] = int(v)
    new = state.replace(**kw) if kw else state
    try:
        disc.check_state(new)
        spec = disc.legal_actions(new)
    except (ValueError, TypeError, AttributeError, IndexError, KeyError) as err:
        raise ValueError(f"options: the position is not one of {disc.name}: {err}") from err
    if new.phase is not Phase.GAME_OVER and not spec.has_action:
        raise ValueError(f"options: seat {new.seat_to_act} has no legal action in this position (phase "
                         f"{new.phase.value}, options {[o.value for o in new.options]})")
    return new


def runout_start(disc, config, np_random: np.random.Generator) -> GameState:
    """Nine-ball runout drill start: every object ball at a seeded random spot on the bed (no
    overlaps, at least 2R from the cushions), cue ball in hand anywhere (GB-8 / 9B-5.10),
    seat 0 to shoot, no push-out."""
    from poolgym.rules.geometry import ball_radius, get_table

    R = ball_radius()
    table = get_table(config.table)
    st = disc.initial_state(config, int(np_random.integers(0, 2**31 - 1)))
    n = st.n_balls
    pos = np.zeros((n, 2))
    placed = 0
    while placed < n - 1:
        p = np.array([np_random.uniform(2 * R, table.w - 2 * R), np_random.uniform(2 * R, table.l - 2 * R)])
        if placed == 0 or np.min(np.hypot(*(pos[1 : placed + 1] - p).T)) > 2.2 * R:
            placed += 1
            pos[placed] = p
    on = (False,) + (True,) * (n - 1)
    return st.replace(pos=tuple(pos.reshape(-1).tolist()), on_table=on, phase=Phase.PLAY, seat_to_act=0,
                      cue_ball=CueBallPlacement.IN_HAND_ANYWHERE, cue_placed=False, breaker=1)


class PoolEnv(gym.Env):
    """Pocket billiards: one game (or drill) per episode against a built-in opponent.

    ## Description
    The learner holds one seat of a WPA game refereed by `poolgym.rules` (``"nine_ball"``,
    ``"eight_ball"``, ``"straight_pool"``), of an N-seat game (``"pea_pool"`` and the other
    BCA games, ``players=N``; see "N-seat games" below) or of a one-shot drill
    (``"pot_drill"``, ``"break_drill"``, see `poolgym.envs.drills`). Shots are simulated by the event-based
    physics (`physics.simulate_batch`); the opponent's turns are played inside ``step`` until
    the learner must decide again. One step = one decision of the learner (a shot, with the
    cue-ball placement when in hand, or an option such as accepting the table after a
    push-out).

    ## Action space
    ``action_mode="box"`` (default): ``Box(-1, 1, (9 + (N-1) + 6 + O,), float32)`` decoded by
    `poolgym.envs.codec.Codec.decode_box` — 0 speed V0, 1 aim phi (relative to the line to
    the nearest legal ball by default), 2 elevation, 3-4 tip offsets a, b, 5-6 cue placement
    (used when in hand; moved to the nearest legal spot), 7 safety flag, 8 push-out flag,
    then called-ball, called-pocket and option scores (masked argmax). Out-of-range values
    are clipped. An action the space does not hold raises ``ValueError`` (`codec.box_action`:
    float or bool arrays of exactly this shape, float64 included; complex, integer arrays,
    other shapes such as (1, D), NaN/inf are refused). With ``theta_max > 0`` every point of
    the space is still a legal stroke or a foul the referee calls (C-55: an elevated stroke
    with the tip below centre is the G-3.26 illegal jump).
    ``action_mode="macro"``: ``Discrete(M)`` of ghost-ball pots (ball x pocket x 3 speeds x
    3 spins), direct hits, declared safeties, break shots, push-outs and options (see
    `poolgym.envs.codec`); `action_masks()` gives the
    legal ones (sb3-contrib MaskablePPO). Anything but one integer in range (a Python int or a
    numpy integer scalar, `codec.discrete_action`) raises ``ValueError``;
    a masked-out (illegal) one is replaced by the first legal macro and flagged with
    ``info["illegal_action"] = True`` (``illegal_macro="raise"`` raises ``ValueError`` instead).
    ``action_mode="param"``: parameterised actions (`poolgym.envs.param`), one
    ``Box(-1, 1, (K + 7,), float32)`` for SB3's PPO and SAC: the first K entries score the
    choices -- ball b into pocket p (ghost-ball aim), a hit or a declared safety at ball b, a
    break, a push-out, each option and declaration -- and the masked argmax over the legal
    ones, plus a prior (``choice_prior`` x each pot's planning make probability: all zeros
    play the geometric player's pot), is played; the last 7 are continuous corrections around
    that choice's geometric shot
    (a pot's cut angle thinner or thicker by up to 5 deg -- the object ball's line turned around
    it, for throw -- or a hit's aim by up to 5 deg, speed half to twice the planned one, side
    and vertical spin, elevation, and the cue-ball placement behind the ghost ball when in hand).
    ``action_mode="param_dict"``: the same as ``Dict(choice=Discrete(K), corrections=Box(-1, 1,
    (7,)))`` (RLlib); a masked-out choice is handled as an illegal macro. In both,
    `action_masks()` gives the legal choices and the observation ends with the candidate block.
    Structured API: ``env.unwrapped.step_action(actions)`` takes typed rules actions
    (`ShotAction`, `PlaceCueBall`, `ChooseOption`, `Concede`, or a list ending with a shot); an
    illegal one raises `poolgym.rules.core.IllegalActionError` and leaves the state unchanged.
    Conceding the game (GW-11) is reachable only here: it is left out of the Box and macro
    spaces on purpose, so that exploration never ends a game by conceding.

    ## Observation space
    ``Box(-1, 1, (D,), float32)`` from `poolgym.envs.codec.Codec.encode`: ball positions and
    on-table flags, the legal-decision mask (ball on, callable balls, can shoot / must place /
    call required / safety / push-out, options), phase, cue-ball state, groups, scores, fouls
    and shot progress, all from the learner's seat. In the parameterised modes it ends with the
    candidate block (`poolgym.envs.param.ParamCodec.features`: the legal choices, then per pot
    choice its signed cut, cue- and object-ball travel, planning make probability, approach to
    the pocket, reference speed, side pocket flag and the scratch risks of the cue ball's
    tangent and follow lines, then the same for the choice the all-zero action plays).

    ## Rewards
    Default (``reward="result"``): at the end of the game +1 win, -1 loss, 0 draw (drills:
    their result, see `poolgym.envs.drills`); 0 otherwise. Opt-in shaping (``"shaped"`` or a
    dict of weights) adds, per step: legal balls pocketed by the learner, learner fouls (-1
    each), ball in hand conceded (-1), points (the change of the learner's score minus the
    mean change over the sides: `poolgym.envs.seating.points_advantage`), opponent fouls. Every
    component is in ``info["reward_components"]`` whatever the weights.

    ## Episode end
    Terminated when the game is over (``info["winner"]``); truncated after ``max_shots`` shots
    (both seats). Stepping a finished episode, or before ``reset``, raises ``RuntimeError``.
    Every rejected input (a bad action, an illegal typed action, bad reset options or seed)
    raises before anything changes: the state, the RNGs and the last step's info stay exactly
    as they were. A game the opponent
    decides before the learner's first decision (a 9 on its break; in an N-seat game, the
    seats before the learner's running the rack) is replaced by a new one at reset (unless
    the position came from reset options), up to `MAX_RESTARTS` times (then ``RuntimeError``:
    the learner's seat never gets a decision).

    ## Info
    ``verdicts`` (one dict per adjudicated action this step: seat, fouls as (kind, rule ID),
    pocketed, legal_pocketed, next_seat, ...), ``seat_to_act``, ``phase``, ``winner``,
    ``shots``, ``reward_components``, ``learner_seat``, ``illegal_action`` (``winner`` is -1
    while running or for a draw).

    ## Arguments
    discipline, table ("9ft" | "8ft" | "7ft"), physics (`physics_io.PhysicsModels` or a dict:
    ball_ball, cushion, ball_params, cue, max_events, airborne: the 3D model, default True, so
    elevated strokes jump and balls can leave the table), noise ("none" | "icga" | dict of sigmas |
    `physics.ExecutionNoise`), opponent (registered name: "geometric" default, "random"; a
    callable ``(state, spec, rng) -> actions``; None = the learner plays every seat),
    opponent_kwargs, reward, rules (discipline config or dict of its fields, `conflicts.md`
    options), action_mode, max_shots (default 100), learner_seat (int or "random"), phi_mode
    ("relative" | "absolute"), render_mode ("rgb_array" | "human"), render_width,
    render_trajectories (draw the paths of the step's last shot, sampled from the physics),
    players (seats of an N-seat game, see below), start ("lag": every episode opens with the
    G-3.6 lag, both seats stroking at once (`poolgym.rules.lag`), then the winner's G-3.7
    choice to break or give the break away; "break": the breaker of ``rules`` breaks; None
    (default): as ``rules`` says, ``lag`` False unless set),
    V0_range (Box speed range, m/s, default (0.1, 8.0)), theta_max (Box cue elevation range
    [0, theta_max] degrees, default 0 = level cue; 60 spans the realistic jump and massé
    strokes: a legal jump keeps the tip at or above centre, b >= 0, G-3.26 / G-3.27), runout (nine-ball
    runout drill: balls scattered at random, cue ball in hand, no opponent; +1 when the learner
    wins the game, -1 as soon as it loses the table, see `runout_start`), choice_prior (the
    ``"param"`` mode's make-probability prior on the choice scores, default 1; 0 = none),
    param_aim (where the parameterised modes aim a pot before the cut correction: ``"ghost"``,
    the default, the ghost-ball aim at the pocket's aim point; ``"window"``, the centre of the
    stroke's pocketing window found by a noise-free simulated sweep of about 30 aims with the
    env's physics, `poolgym.envs.param.ParamCodec.window_phi`: an aim assist that costs those
    simulations on every pot decoded).

    ## N-seat games
    ``players=N`` (the counts the discipline's ``allowed_players`` gives; teams and other seat
    options through ``rules``): the learner holds ``learner_seat``, the opponent plays every
    other seat, each from its own view (`poolgym.rules.seats.observe`), a solo game (one
    seat) has no opponent. The observation is built only from the learner's view (the public
    state and its own secret: a pea, a hand) and ends with the seat block of
    `poolgym.envs.seating.SeatBlock`; the Box action ends with one score per `Declaration`
    and the macro table with one entry per `Declaration` (claim 41, declare a bust, announce
    a pocketed pea), masked outside their window (`poolgym.envs.codec.Codec`). The result
    reward is the rules' per-seat ``returns`` of the learner's seat; ``render`` adds a bar
    with whose turn it is and the observer's own secret only. ``env.state`` /
    ``state_json()`` are the referee's whole state (every secret), for tests and tools, not
    for the agent.

    ## Reset options
    ``state`` (a `GameState` or its JSON), ``balls`` ({ball: (x, y) or None}), ``seat_to_act``,
    ``phase``, ``cue_ball``, ``cue_placed``, ``scores``, ``consecutive_fouls``, ``groups``,
    ``inning``, ``shot_number``, ``extra``, ``learner_seat``.

    ## Example
    >>> import gymnasium as gym
    >>> import poolgym
    >>> env = gym.make("poolgym/NineBall-v0", max_shots=20)
    >>> obs, info = env.reset(seed=0)
    >>> env.observation_space.contains(obs), info["phase"]
    (True, 'break')
    >>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    >>> info["seat_to_act"] == info["learner_seat"] or terminated or truncated
    True

    ## Version history
    v0: first release.
    """

    metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 2}

    def __init__(self, discipline="nine_ball", *, table=None, physics=None, noise="none",
                 opponent="geometric", opponent_kwargs=None, reward="result", rules=None,
                 action_mode="box", max_shots=100, learner_seat=0, phi_mode="relative",
                 render_mode=None, render_width=640, runout=False, illegal_macro="substitute",
                 render_trajectories=False, V0_range=(0.1, 8.0), theta_max=0.0, players=None, start=None,
                 choice_prior=1.0, param_aim="ghost"):
        if action_mode not in ACTION_MODES:
            raise ValueError(f"action_mode must be one of {ACTION_MODES}, got {action_mode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        if not isinstance(max_shots, int) or max_shots < 1:
            raise ValueError(f"max_shots must be a positive int, got {max_shots!r}")
        self.disc = resolve_discipline(discipline)
        self.config = make_config(self.disc, rules, table, players)
        if start is not None:
            if start not in ("lag", "break"):
                raise ValueError(f"start must be 'lag' or 'break', got {start!r}")
            if start == "lag" and self.config.n_players != 2:
                raise ValueError(f"start='lag' needs two players (G-3.6), got {self.config.n_players}")
            self.config = dataclasses.replace(self.config, lag=start == "lag")
        self.config = shared_config(self.config)
        from poolgym.rules.geometry import ball_radius, get_table

        self.table = get_table(self.config.table)
        self.R = ball_radius()
        n_players = self.config.n_players
        if learner_seat != "random" and not (isinstance(learner_seat, int) and 0 <= learner_seat < n_players):
            raise ValueError(f"learner_seat must be 'random' or in 0..{n_players - 1}, got {learner_seat!r}")
        self.learner_seat_arg = learner_seat
        if isinstance(physics, dict):
            physics = physics_io.PhysicsModels(**physics)
        self.models = physics or physics_io.PhysicsModels()
        self.noise = physics_io.make_noise(noise)
        self.opponent = make_opponent(opponent, **(opponent_kwargs or {})) if n_players > 1 else None
        self.weights = reward_weights(reward)
        self.action_mode = action_mode
        if illegal_macro not in ("substitute", "raise"):
            raise ValueError(f"illegal_macro must be 'substitute' or 'raise', got {illegal_macro!r}")
        self.illegal_macro = illegal_macro
        self._illegal = False
        self._reset_with_options = False
        self._restarts = 0
        self.max_shots = max_shots
        if not (len(V0_range) == 2 and 0 < V0_range[0] < V0_range[1] <= MAX_CUE_SPEED):
            raise ValueError(f"V0_range must be (low, high) with 0 < low < high <= {MAX_CUE_SPEED:g} m/s (the "
                             f"physics' limit), got {V0_range!r}")
        if not 0.0 <= theta_max <= 90.0:
            raise ValueError(f"theta_max must be in [0, 90] degrees, got {theta_max!r}")
        cue_lim = getattr(self.models.cue, "miscue_limit", 0.5)
        if self.config.miscue_limit > cue_lim:
            raise ValueError(f"rules miscue_limit {self.config.miscue_limit} exceeds the physics cue's miscue_limit "
                             f"{cue_lim}: strokes the rules allow would be refused by the physics")
        #: an N-seat game (`poolgym.envs.seating`): observations from the learner's view only
        self.seated = uses_seats(self.disc, self.config)
        seats = SeatBlock(self.disc, self.disc.n_balls, n_players) if self.seated else None
        #: the parameterised actions' codec (`poolgym.envs.param`; None in the Box and macro modes)
        self.param = (ParamCodec(self.disc.n_balls, self.table, self.R, V0_min=float(V0_range[0]),
                                 V0_max=float(V0_range[1]), theta_max=float(theta_max), seats=self.seated,
                                 choice_prior=choice_prior, aim=param_aim, models=self.models)
                      if action_mode in PARAM_MODES else None)
        self.codec = Codec(self.disc.n_balls, n_players, self.table, self.R, V0_min=float(V0_range[0]),
                           V0_max=float(V0_range[1]), theta_max=float(theta_max), phi_mode=phi_mode,
                           max_shots=max_shots, seats=seats, scores=score_block(self.disc), candidates=self.param,
                           multi_calls=bool(getattr(self.disc, "multi_call", False)))
        self.observation_space = spaces.Box(-1.0, 1.0, (self.codec.obs_size,), np.float32)
        if action_mode == "box":
            self.action_space = spaces.Box(-1.0, 1.0, (self.codec.box_size,), np.float32)
        elif action_mode == "macro":
            self.action_space = spaces.Discrete(self.codec.n_macro)
        elif action_mode == "param":
            self.action_space = spaces.Box(-1.0, 1.0, (self.param.box_size,), np.float32)
        else:
            self.action_space = spaces.Dict({"choice": spaces.Discrete(self.param.n_choice),
                                             "corrections": spaces.Box(-1.0, 1.0, (N_CORRECTIONS,), np.float32)})
        self.render_mode = render_mode
        self.render_width = render_width
        self.render_trajectories = bool(render_trajectories)
        self.timer = physics_io.Timer()
        self.runout = bool(runout)
        if self.runout:
            self.opponent = None
            self.learner_seat_arg = 0
        self.session = Session(self.disc, self.config, self.opponent, 0, self.noise, max_shots, self.timer,
                               runout=self.runout, seated=self.seated)
        self._renderer = None
        self._window = None
        # a cold numba cache: the referee's and opponent's kernels compile in a second process
        # while this one compiles the physics (once per process; `poolgym.envs.prewarm`)
        prewarm.start(discipline, opponent, opponent_kwargs, self.models)

    # ------------------------------------------------------------------ gym API
    @property
    def state(self) -> GameState:
        """The current `GameState` (immutable)."""
        return self.session.state

    def reset(self, *, seed=None, options=None):
        self._reset_begin(seed, options)
        self._run_pending()
        while self._needs_restart():
            self._restart()
            self._run_pending()
        self._check_learner_acts()
        return self._reset_end()

    #: games decided before the learner's first decision are replayed at most this often. The
    #: cap only stops a configuration in which the learner never acts. Fifteen-seat six-ball
    #: shows how far a seat late in the order waits: with nine seats shooting before the
    #: learner's, a reset started over 13 times on average (60 seeds, at most 70); with the
    #: learner at seat 12, 6 to 456 times (10 seeds, about a second a reset on this machine).
    MAX_RESTARTS = 10_000

    def _needs_restart(self) -> bool:
        """The opponent finished the game (e.g. a 9 on its break) or used up the shot limit
        before the learner could act: without explicit reset options, a new game is drawn."""
        return (not self._reset_with_options and not self.session.learner_to_act()
                and self._restarts < self.MAX_RESTARTS)

    def _check_learner_acts(self) -> None:
        """``RuntimeError`` when `MAX_RESTARTS` new games all ended before the learner could
        act (a configuration in which its seat never gets a decision)."""
        if not self._reset_with_options and not self.session.learner_to_act():
            raise RuntimeError(f"the other seats ended {self._restarts} games in a row before the learner's seat "
                               f"{self.session.learner_seat} could act: it never gets a decision in this "
                               f"configuration ({self.disc.name}, {self.config.n_players} seats, max_shots "
                               f"{self.session.max_shots}); seat the learner nearer the breaker (learner_seat, "
                               f"rules first_breaker), or play fewer seats")

    def _restart(self) -> None:
        self._restarts += 1
        start = runout_start(self.disc, self.config, self.np_random) if self.runout else None
        self.session.start(self.np_random, start)

    def _reset_begin(self, seed, options):
        self._reset_commit(self._reset_prepare(seed, options))

    def _reset_prepare(self, seed, options) -> tuple:
        """Seed the env's RNG and check ``options``, building the start position: the plan for
        `_reset_commit`. A bad seed or option raises with the env exactly as before (its RNG
        restored: `_reset_rollback`)."""
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options must be a dict or None, got {type(options).__name__}")
        gen, gen_seed = self._np_random, self._np_random_seed
        bit_state = None  # the Generator's state before this reset draws from it (none drawn: None)
        try:
            super().reset(seed=seed)
            options = dict(options or {})
            with_options = bool(set(options) - {"learner_seat"})
            seat = options.pop("learner_seat", self.learner_seat_arg)
            draws = (isinstance(seat, str) and seat == "random") or self.runout
            if draws and gen is not None and self._np_random is gen:
                bit_state = gen.bit_generator.state
            if isinstance(seat, str) and seat == "random":
                seat = int(self.np_random.integers(self.config.n_players))
            elif not (isinstance(seat, (int, np.integer)) and not isinstance(seat, bool)
                      and 0 <= seat < self.config.n_players):
                raise ValueError(f"options['learner_seat'] must be 'random' or in 0..{self.config.n_players - 1}, "
                                 f"got {seat!r}")
            start = runout_start(self.disc, self.config, self.np_random) if self.runout else None
            if options:
                base = start if start is not None else self.disc.initial_state(self.config, 0)
                start = apply_reset_options(base, options, self.disc, self.table)
        except BaseException:
            self._reset_rollback((gen, gen_seed, bit_state))
            raise
        return (gen, gen_seed, bit_state), with_options, int(seat), start

    def _reset_rollback(self, saved) -> None:
        """Undo the seeding and draws of a `_reset_prepare` (``saved`` = its first element: the
        Generator and seed before it, and the Generator's state before the reset drew from it, or
        None when it drew nothing from that Generator)."""
        gen, seed, bit_state = saved
        self._np_random, self._np_random_seed = gen, seed
        if gen is not None and bit_state is not None:
            gen.bit_generator.state = bit_state

    def _reset_commit(self, plan) -> None:
        """Start the game a `_reset_prepare` planned."""
        _, with_options, seat, start = plan
        self._reset_with_options = with_options
        self._restarts = 0
        self.session.learner_seat = seat
        self.session.start(self.np_random, start)

    def _reset_end(self):
        self.session.finish_step()
        # the opponent may have ended the game (or hit the shot limit) before the learner acted;
        # the episode still starts and the first step raises like any finished episode
        self.session.done = not self.session.learner_to_act()
        obs = self._obs()
        info = self._info({k: 0.0 for k in SHAPING_KEYS})
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action):
        self._step_begin(action)
        self._run_pending()
        return self._step_end()

    def _check_started(self) -> None:
        s = self.session
        if s.state is None:
            raise RuntimeError("call reset() before step()")
        if s.done or not s.learner_to_act():
            raise RuntimeError(FINISHED_EPISODE)

    def _decode(self, action):
        """(typed actions, illegal macro substituted) for a space action; ``ValueError`` for
        anything the action space does not hold (`codec.box_action`, `codec.discrete_action`)."""
        self._check_started()
        s = self.session
        if self.action_mode == "box":
            u = box_action(action, self.action_space.shape)
            return self.codec.decode_box(u, s.state, s.spec), False
        if self.action_mode == "param":
            u = box_action(action, self.action_space.shape)
            return self.param.decode_box(u, s.state, s.spec), False
        if self.action_mode == "param_dict":
            choice, corr = dict_action(action, self.param.n_choice)
            mask = self.param.mask(s.state, s.spec)
            illegal = not mask[choice]
            if illegal:
                if self.illegal_macro == "raise":
                    raise ValueError(f"choice {choice} is not legal now (see action_masks())")
                choice = int(np.flatnonzero(mask)[0])
            return self.param.decode(choice, corr, s.state, s.spec), illegal
        idx = discrete_action(action, self.codec.n_macro)
        mask = self.codec.macro_mask(s.state, s.spec)
        illegal = not mask[idx]
        if illegal:
            if self.illegal_macro == "raise":
                raise ValueError(f"macro action {idx} is not legal now (see action_masks())")
            idx = int(np.flatnonzero(mask)[0])
        return self.codec.decode_macro(idx, s.state, s.spec), illegal

    def _step_prepare(self, action, structured=False, placement_checked=False) -> tuple:
        """Decode and check the learner's decision against the current state: the plan for
        `_step_commit`. Raises (``ValueError`` for an action outside the space,
        `IllegalActionError` for an illegal typed action, ``RuntimeError`` out of turn) with
        nothing changed."""
        if structured:
            self._check_started()
            acts, illegal = action, False
        else:
            acts, illegal = self._decode(action)
        return self.session.plan_learner(acts, placement_checked), illegal

    def _step_commit(self, prepared) -> None:
        plan, illegal = prepared
        self._illegal = illegal
        self.session.begin_step()
        self.session.commit(plan)

    def _step_begin(self, action, structured=False, placement_checked=False):
        self._step_commit(self._step_prepare(action, structured, placement_checked))

    def _step_end(self):
        s = self.session
        term, trunc, comps = s.finish_step()
        if not term and not trunc and not s.learner_to_act():
            trunc = True  # defensive: nobody to act (should not happen)
            s.done = True
        reward = weighted_reward(self.weights, comps)
        obs = self._obs()
        info = self._info(comps)
        if self.render_mode == "human":
            self.render()
        return obs, reward, term, trunc, info

    def step_action(self, actions):
        """Structured step: typed rules actions for the learner (see class docstring)."""
        self._step_begin(actions, structured=True)
        self._run_pending()
        return self._step_end()

    def _run_pending(self):
        s = self.session
        while s.pending is not None:
            physics_io.simulate_sessions(self.table, [s], self.models, self.timer,
                                         split_eps=self.config.split_hit_eps)

    def _obs(self):
        s = self.session
        seat = s.observer()
        if self.seated:
            view, secret = seat_view(s.state, seat)
            return self.codec.encode(view, s.spec, seat, s.shots, secret=secret)
        return self.codec.encode(s.state, s.spec, seat, s.shots)

    def _info(self, comps):
        s = self.session
        st = s.state
        return {
            "verdicts": [verdict_info(seat, v) for seat, v in s.log.verdicts],
            "seat_to_act": st.seat_to_act,
            "learner_seat": s.learner_seat,
            "phase": st.phase.value,
            "winner": -1 if st.winner is None else st.winner,
            "shots": s.shots,
            "reward_components": dict(comps),
            "illegal_action": self._illegal,
        }

    def action_masks(self) -> np.ndarray:
        """Legal macro actions now (``action_mode="macro"``), or the legal choices of the
        parameterised modes (``"param"``, ``"param_dict"``: `poolgym.envs.param.ParamCodec.mask`)."""
        if self.action_mode == "box":
            raise AttributeError("action_masks() exists only with action_mode='macro', 'param' or 'param_dict'")
        s = self.session
        spec = s.spec if s.learner_to_act() else None
        m = self.codec.macro_mask(s.state, spec) if self.action_mode == "macro" else self.param.mask(s.state, spec)
        if not m.any():
            m[-1] = True  # finished episode: keep a valid distribution
        return m

    def legal_actions(self):
        """The rules' `ActionSpec` for the learner now (None when not to act)."""
        return self.session.spec

    # ------------------------------------------------------------------ rendering
    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode")
            return None
        if self._renderer is None:
            from poolgym.render.table_view import TableRenderer

            self._renderer = TableRenderer(self.table, self.render_width, self.R, max(self.disc.n_balls, 16))
        st = self.session.state
        seat = self.session.observer()
        paths = None
        if self.render_trajectories and self.session.log.shots:
            from poolgym.render.trajectory import polylines, sample_shot

            kw = self.models.kwargs()
            kw.pop("max_events", None)
            _, rvw, s0, row = self.session.log.shots[-1]
            if np.ndim(row) == 1:  # (the lag's two simultaneous strokes are not drawn)
                _, pos, on = sample_shot(self.table, rvw, s0, row, n_samples=40, **kw)
                paths = polylines(pos, on)
        frame = self._renderer.render(st.positions(), st.on_mask(), trajectories=paths)
        if self.seated:
            from poolgym.render.seats import seat_bar

            frame = seat_bar(self._renderer, frame, *seat_bar_args(self.disc, st, seat))
        if self.render_mode == "rgb_array":
            return frame
        if self._window is None:
            from poolgym.render.human import HumanWindow

            self._window = HumanWindow(f"poolgym {self.disc.name}", self.metadata["render_fps"])
        self._window.show(frame)
        return None

    def close(self):
        if self._window is not None:
            self._window.close()
            self._window = None

    def state_json(self) -> str:
        """The current state as JSON (feed back through ``reset(options={"state": ...})``)."""
        return json.dumps(json.loads(self.session.state.to_json()))
