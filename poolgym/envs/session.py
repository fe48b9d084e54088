"""One table's game, driven step by step: the state machine shared by `PoolEnv` and the native
vector env `PoolVectorEnv` (so both produce the same trajectories).

A step is: the learner's typed actions are checked and applied to a copy of the state
(`Session.plan_learner`: raises `IllegalActionError` with nothing changed), then committed
(`Session.begin_step`, `Session.commit`); a shot leaves a
*pending* physics job (validated inputs from `DisciplineBase.shot_inputs`, noise already drawn
from the session's RNG); the owner simulates every pending job (one `physics.simulate_batch`
call for all tables), hands each record back with `Session.resolve`, which adjudicates it
(`DisciplineBase.apply_shot_record`) and lets the opponent act until the learner is to act,
the game ends, the shot limit is hit, or the opponent's shot is pending (simulated in the next
batched round).
"""

from __future__ import annotations

import time

import numpy as np
from physics.noise import perturb_stroke

from poolgym.envs.seating import points_advantage, seat_returns, seat_view
from poolgym.rules.game import MAX_CUE_SPEED, DisciplineBase, seeded_generator, stroke_row
from poolgym.rules.core import (
    ActionSpec,
    ChooseOption,
    CueBallPlacement,
    GameState,
    IllegalActionError,
    Phase,
    PlaceCueBall,
    ShotAction,
    Verdict,
)

def _plain_planning(disc) -> bool:
    """``disc`` places the cue ball and checks shots as `DisciplineBase` does (memoised
    per discipline class): `Session.plan_decoded` may plan its common decisions itself."""
    cls = type(disc)
    hit = _PLAIN.get(cls)
    if hit is None:
        hit = _PLAIN[cls] = all(getattr(cls, m) is getattr(DisciplineBase, m)
                                for m in ("place_checked", "_place", "shot_inputs", "_check_acting"))
    return hit


_PLAIN: dict = {}

#: enum members read in the hot paths (a module constant is ~10x faster than the class attribute)
_GAME_OVER, _PLAY, _BREAK, _LAG, _OPTION = Phase.GAME_OVER, Phase.PLAY, Phase.BREAK, Phase.LAG, Phase.OPTION
_IN_POSITION = CueBallPlacement.IN_POSITION

#: shaping components reported in ``info["reward_components"]`` (per step, learner's view)
#: what stepping an ended episode raises (``RuntimeError``; the vector envs prefix the table)
FINISHED_EPISODE = "step() called on a finished episode; call reset() first"

SHAPING_KEYS = ("result", "legal_pocketed", "foul", "ball_in_hand_conceded", "points", "opponent_foul")


class StepLog:
    """What happened during one env step (learner's actions and the opponent's replies):
    ``verdicts`` [(seat, Verdict)], ``shots`` [(seat, rvw, s, shot row) as simulated],
    ``components`` {key: value} in `SHAPING_KEYS` order (the reward's terms). A plain slotted
    class: one is made per table and step."""

    __slots__ = ("verdicts", "shots", "components")

    def __init__(self):
        self.verdicts: list = []
        self.shots: list = []
        self.components: dict = _ZERO_COMPONENTS.copy()


_ZERO_COMPONENTS = dict.fromkeys(SHAPING_KEYS, 0.0)


def verdict_info(seat: int, v: Verdict) -> dict:
    """Plain-data summary of a verdict for ``info`` (fouls as (kind, rule ID) pairs)."""
    return {
        "seat": seat,
        "fouls": tuple((f.kind.value, f.rule) for f in v.fouls),
        "pocketed": tuple(v.pocketed),
        "legal_pocketed": tuple(v.legal_pocketed),
        "spotted": tuple(v.spotted),
        "points": tuple(v.points),
        "next_seat": v.next_seat,
        "cue_ball": v.cue_ball.value,
        "options": tuple(o.value for o in v.options),
        "rule_refs": tuple(v.rule_refs),
        "game_over": v.game_over,
        "winner": v.winner,
    }


class Session:
    """A game of ``disc`` on one table (see module docstring).

    Args:
        disc: the discipline (a `DisciplineBase`).
        config: its config.
        opponent: callable ``(state, spec, rng) -> actions`` or None (learner plays every seat).
        learner_seat: the learner's seat.
        noise: execution noise (``apply(shots, rng)``) or None.
        max_shots: truncation limit (shots by all seats in the episode).
        seated: an N-seat game (`poolgym.envs.seating.uses_seats`): the opponent decides from the
            acting seat's view (`poolgym.rules.seats.observe`: public state and its own secret
            only) and the result is the rules' per-seat ``returns``.
    """

    def __init__(self, disc, config, opponent, learner_seat: int, noise, max_shots: int, timer=None,
                 runout: bool = False, seated: bool = False):
        self.runout = bool(runout)
        self.seated = bool(seated)
        self.runout_failed = False
        self.disc = disc
        self.config = config
        self.opponent = opponent
        self.learner_seat = int(learner_seat)
        self.noise = noise
        self.max_shots = int(max_shots)
        self.timer = timer
        self.state: GameState | None = None
        self.spec: ActionSpec | None = None
        self._rng_seed = 0
        self._rng = None  # built on first use (see `rng`)
        self.pending = None  # (seat, ShotAction, rvw, s, shot row)
        self.pending_legal = None  # target balls when the pending shot was decided (see _apply_actions)
        self.shots = 0
        self.log = StepLog()
        self.done = True
        #: see `_advance`
        self.defer_opponent = False
        self.awaiting_opponent = False

    # ------------------------------------------------------------------ lifecycle
    def start(self, np_random: np.random.Generator, state: GameState | None = None) -> None:
        """New game: rules seed and session RNG drawn from ``np_random``; ``state`` overrides the
        initial position. Opponent turns before the learner's first decision are queued."""
        rules_seed = int(np_random.integers(0, 2**31 - 1))
        # the session's Generator (noise, opponent) is built on first use: a reset of an env
        # without noise or opponent then skips its construction (about 20 us)
        self._rng_seed = int(np_random.integers(0, 2**63 - 1))
        self._rng = None
        self.state = state if state is not None else self.disc.initial_state(self.config, rules_seed)
        self.shots = 0
        self.pending = None
        self.awaiting_opponent = False
        self.log = StepLog()
        self.done = False
        self.runout_failed = False
        self._advance()

    @property
    def rng(self) -> np.random.Generator:
        """The session's seeded Generator (execution noise, the opponent's choices)."""
        g = self._rng
        if g is None:
            g = self._rng = seeded_generator(self._rng_seed)
        return g

    @property
    def terminated(self) -> bool:
        return self.state.phase is _GAME_OVER or self.runout_failed

    @property
    def truncated(self) -> bool:
        return not self.terminated and self.shots >= self.max_shots

    def learner_to_act(self) -> bool:
        st = self.state
        return (st.phase is not _GAME_OVER and self.shots < self.max_shots and not self.runout_failed
                and (self.opponent is None or st.seat_to_act == self.learner_seat))

    def observer(self) -> int:
        """Seat whose view the observation takes (the seat to act when self-playing)."""
        return self.state.seat_to_act if self.opponent is None else self.learner_seat

    def acting_view(self) -> GameState:
        """The state as the seat to act may see it (what an opponent decides from): a seated
        game's public state with that seat's own secret only; the state itself otherwise."""
        st = self.state
        if not self.seated:
            return st
        return seat_view(st, st.seat_to_act)[0]

    # ------------------------------------------------------------------ acting
    def begin_step(self) -> None:
        if self.done:
            raise RuntimeError(FINISHED_EPISODE)
        self.log = StepLog()

    def learner_act(self, actions, placement_checked: bool = False) -> None:
        """Apply the learner's typed actions (atomically: an `IllegalActionError` leaves the
        session unchanged): `plan_learner`, then `commit`. A shot becomes the pending physics
        job."""
        self.commit(self.plan_learner(actions, placement_checked))

    def plan_learner(self, actions, placement_checked: bool = False) -> tuple:
        """Check the learner's typed actions and apply them to a copy of the state: the plan
        for `commit`. Raises `IllegalActionError` (or ``RuntimeError`` when the learner is not
        to act) and changes nothing. ``placement_checked``: a leading `PlaceCueBall` was found
        legal on the current state by the owner's batched `DisciplineBase.placement_errors`
        (the check is not repeated)."""
        if not self.learner_to_act():
            raise RuntimeError("the learner is not to act (episode finished?)")
        if isinstance(actions, (ShotAction, PlaceCueBall)) or not isinstance(actions, (list, tuple)):
            actions = [actions]
        return self.plan(self.state.seat_to_act, list(actions), self.spec, placement_checked)

    def plan_decoded(self, actions: list, row=None) -> tuple:
        """`plan` of the learner's decoded decision ``actions`` (a list, the learner to act)
        whose leading `PlaceCueBall`, if any, the owner found legal (`plan` with
        ``placement_checked``): the same plan (`plan_common`). ``row``: the shot's [V0, phi,
        theta, a, b] as a (5,) float64 array, if the owner built it (the stroke row of a shot
        that is no miscue, G-3.27)."""
        return self.plan_common(actions, self.spec, True, row=row)

    def plan_common(self, actions: list, spec: ActionSpec | None, placement_checked: bool,
                    placed: GameState | None = None, row=None) -> tuple:
        """`plan` of the decision ``actions`` (a list) of the seat to act, with its ``spec``
        and ``placement_checked`` as in `plan`: the same plan. The common decision,
        [PlaceCueBall, ShotAction] (its placement checked) or [ShotAction] at the break or in
        play, is planned here directly, with the rules' shot checks
        (`DisciplineBase._check_shot`) and stroke (`stroke_row`), and so is a lone
        `ChooseOption` in an OPTION phase (the rules' `apply`). ``placed``: the state after
        the checked placement when the caller has it (`DisciplineBase.place_checked` of the
        current state, as the batched opponent makes it); ``row``: as in `plan_decoded`."""
        st = self.state
        n = len(actions)
        a = actions[-1] if n else None
        if n == 1 and type(a) is ChooseOption and st.phase is _OPTION:
            t0 = time.perf_counter()
            new, v = self.disc.apply(st, a)
            if self.timer is not None:
                self.timer.actions += time.perf_counter() - t0
            return new, ([] if v is None else [(st.seat_to_act, v)]), None, spec
        ph = st.phase
        disc = self.disc
        if not (type(a) is ShotAction
                and (n == 1 or (n == 2 and placement_checked and type(actions[0]) is PlaceCueBall))
                and (ph is _PLAY or ph is _BREAK) and _plain_planning(disc) and st.discipline == disc.name):
            return self.plan(st.seat_to_act, actions, spec, placement_checked)
        t0 = time.perf_counter()
        seat = st.seat_to_act
        if n == 2:  # a checked placement
            p = actions[0]
            x, y = p.x, p.y
            if st.cue_ball is _IN_POSITION or type(x) is not float or type(y) is not float:
                return self.plan(seat, actions, spec, True)
            if placed is not None:
                st = placed
            else:  # `DisciplineBase.place_checked` (its acting-state and phase checks hold here)
                st = st.with_cue_at(x, y)
        disc._check_shot(st, a)  # `DisciplineBase.shot_inputs`
        cfg = st.config
        lim = cfg.miscue_limit
        if row is None or a.a * a.a + a.b * a.b > lim * lim:  # (`general.is_miscue`)
            row = stroke_row(a, cfg)
        if self.timer is not None:
            self.timer.actions += time.perf_counter() - t0
        return st, [], (seat, a, None, None, row), spec

    def _apply_actions(self, seat: int, actions: list, spec: ActionSpec | None = None,
                       placement_checked: bool = False) -> None:
        """`plan`, then `commit` (an opponent's decision)."""
        self.commit(self.plan(seat, actions, spec, placement_checked))

    def plan(self, seat: int, actions: list, spec: ActionSpec | None = None,
             placement_checked: bool = False) -> tuple:
        """Validate ``actions`` of ``seat`` and apply them to a copy of the state; nothing of
        the session changes (`IllegalActionError` on the first illegal one). Returns the plan
        for `commit`: (state after the non-shot actions, their [(seat, Verdict)], the shot
        job (seat, ShotAction, rvw, s, row) or None, ``spec``). ``spec`` = the seat's legal
        actions, if known: a shot's ``pending_legal`` is then ``spec.target_balls``, the balls
        legal to hit first, with which the batched shot facts are precomputed. The job's
        physics arrays are left to the owner (None: `physics_io.simulate_sessions` builds
        them for all tables at once), except for the lag's special inputs."""
        if not actions:
            raise IllegalActionError("no action given")
        st = self.state
        pending = None
        verdicts = []
        t0 = time.perf_counter()
        for k, a in enumerate(actions):
            if pending is not None:
                raise IllegalActionError("a ShotAction must be the last action of a decision")
            if isinstance(a, ShotAction) and st.phase is _LAG and not self.disc.lag_pending(st):
                # G-3.6: the first lag stroke waits in the state; it is played with the second
                st, v = self.disc.apply(st, a)
                verdicts.append((seat, v))
                if k + 1 < len(actions):
                    raise IllegalActionError("a ShotAction must be the last action of a decision")
            elif isinstance(a, ShotAction):
                # validates; raises IllegalActionError (the lag's second stroke: both strokes, (2, 5))
                rvw, s, row = self.disc.shot_inputs(st, a, build=False)
                pending = (seat, a, rvw, s, row)
            elif k == 0 and placement_checked and isinstance(a, PlaceCueBall):
                st = self.disc.place_checked(st, a)
            else:
                st, v = self.disc.apply(st, a)
                if v is not None:
                    verdicts.append((seat, v))
                if st.phase is _GAME_OVER or st.seat_to_act != seat:
                    if k + 1 < len(actions):
                        raise IllegalActionError("actions after the decision that ended the turn")
        if self.timer is not None:
            self.timer.actions += time.perf_counter() - t0
        return st, verdicts, pending, spec

    def commit(self, plan: tuple) -> None:
        """Carry out a `plan` made on the current state: record its verdicts, take its state,
        make its shot the pending job (execution noise drawn now from the session's RNG, the
        speed kept within the physics' `MAX_CUE_SPEED`), else let play continue."""
        st, verdicts, pending, spec = plan
        t0 = time.perf_counter()
        for seat, v in verdicts:
            self._record(seat, v)
        self.state = st
        if pending is not None:
            seat, a, rvw, s, row = pending
            noise = self.noise
            if noise is not None:  # one stroke, or both lag strokes (2, 5)
                row = perturb_stroke(noise, row, self.rng, max_speed=MAX_CUE_SPEED)
                pending = (seat, a, rvw, s, row)
            self.pending = pending
            self.pending_legal = None if spec is None or not spec.target_balls else tuple(spec.target_balls)
        if self.timer is not None:
            self.timer.actions += time.perf_counter() - t0
        if self.pending is None:
            self._advance()

    def resolve(self, rec, rvw=None, s=None) -> None:
        """Adjudicate the pending shot with its physics record (``rvw``, ``s``: the inputs
        it was simulated from, when the owner built them), then continue play."""
        seat, a = self._take_pending(rvw, s)
        t0 = time.perf_counter()
        # validated by `shot_inputs` on this same state when the shot became pending
        st, v = self.disc.adjudicate_validated(self.state, a, rec)
        self._ruled(seat, st, v)
        if self.timer is not None:
            self.timer.rules += time.perf_counter() - t0
        self._advance()

    def _take_pending(self, rvw, s) -> tuple:
        """Log the pending shot as simulated and clear it: (seat, ShotAction)."""
        seat, a, rvw0, s0, row = self.pending
        self.log.shots.append((seat, rvw0 if rvw0 is not None else rvw, s0 if s0 is not None else s, row))
        self.pending = None
        return seat, a

    def _ruled(self, seat: int, state: GameState, v: Verdict) -> None:
        """Take the referee's ruling on ``seat``'s shot."""
        self.state = state
        self.shots += 1
        self._record(seat, v)

    @staticmethod
    def resolve_all(sessions, recs, views=None) -> None:
        """`resolve` of every session in ``sessions`` with its record (``views``: per session
        the (rvw, s) passed to `resolve`, or None). When two or more all play one discipline,
        their shots are adjudicated in one `DisciplineBase.adjudicate_batch` call (the same
        states and verdicts as one by one), then each session continues play in order; a lone
        shot goes to the referee's one-shot path (`resolve`: cheaper for one table)."""
        if not sessions:
            return
        disc = sessions[0].disc
        if len(sessions) == 1 or any(ses.disc is not disc for ses in sessions):
            # one shot: the referee's one-shot path is the cheaper (nine-ball 10 against 15 us)
            for k, (ses, rec) in enumerate(zip(sessions, recs)):
                ses.resolve(rec, *(views[k] if views is not None else (None, None)))
            return
        t0 = time.perf_counter()
        seats, states, actions = [], [], []
        for k, ses in enumerate(sessions):
            seat, a = ses._take_pending(*(views[k] if views is not None else (None, None)))
            seats.append(seat)
            states.append(ses.state)
            actions.append(a)
        ruled = disc.adjudicate_batch(states, actions, recs)
        for ses, seat, (st, v) in zip(sessions, seats, ruled):
            ses._ruled(seat, st, v)
        timer = sessions[0].timer
        if timer is not None:
            timer.rules += time.perf_counter() - t0
        for ses in sessions:
            ses._advance()

    def opponent_to_act(self) -> bool:
        """The opponent's seat is to act (game running, shot limit not reached)."""
        return (not self.terminated and self.shots < self.max_shots and self.opponent is not None
                and self.state.seat_to_act != self.learner_seat)

    def opponent_act(self, acts, spec: ActionSpec | None = None, placement_checked: bool = False,
                     placed: GameState | None = None) -> None:
        """Apply the opponent's decision (``defer_opponent`` mode: the owner asked the opponent
        for all waiting tables at once), then continue play as `_advance` does.
        ``placement_checked``: as in `learner_act`; ``placed``: as in `plan_common`."""
        self.awaiting_opponent = False
        self.commit(self.plan_common(list(acts) if isinstance(acts, (list, tuple)) else [acts], spec,
                                     placement_checked, placed))

    def _advance(self) -> None:
        """Let the opponent act until the learner must decide, the game ends, the shot limit
        is reached or an opponent shot is pending. With ``defer_opponent`` set, stop instead
        with ``awaiting_opponent`` True: the owner (the native vector env) collects the
        opponent's decisions for every waiting table in one batched call and hands each back
        with `opponent_act` (the same decisions, drawn from the same per-table RNG)."""
        if self.opponent is None:  # self-play: the learner plays every seat
            if self.pending is None:
                st = self.state
                self.spec = None if st.phase is _GAME_OVER or self.runout_failed else self.disc.legal_actions(st)
            return
        while self.pending is None and self.opponent_to_act():
            if self.defer_opponent:
                self.awaiting_opponent = True
                return
            t0 = time.perf_counter()
            spec = self.disc.legal_actions(self.state)
            acts = self.opponent(self.acting_view(), spec, self.rng)
            if self.timer is not None:
                self.timer.other += time.perf_counter() - t0
            self._apply_actions(self.state.seat_to_act, list(acts) if isinstance(acts, (list, tuple)) else [acts],
                                spec)
        if self.pending is None:
            self.spec = None if self.terminated else self.disc.legal_actions(self.state)

    # ------------------------------------------------------------------ rewards
    def _record(self, seat: int, v: Verdict) -> None:
        self.log.verdicts.append((seat, v))
        c = self.log.components
        me = self.learner_seat
        if seat == me:
            c["legal_pocketed"] += len(v.legal_pocketed)
            if v.fouls:
                c["foul"] -= 1.0
                if v.cue_ball is not _IN_POSITION and v.next_seat != me:
                    c["ball_in_hand_conceded"] -= 1.0
        elif v.fouls:
            c["opponent_foul"] += 1.0
        if v.points and me < len(v.points):
            c["points"] += points_advantage(v.points, self.state.teams, me)

    def result_value(self) -> float:
        """Game result from the learner's seat: drills report their own value; else +1 win,
        -1 loss, 0 draw / unfinished."""
        st = self.state
        if self.runout_failed:
            return -1.0
        if st.phase is not _GAME_OVER:
            return 0.0
        value = getattr(st.extra, "value", None)
        if value is not None and st.n_players == 1:
            return float(value)
        if self.seated:
            return seat_returns(self.disc, st)[self.learner_seat]
        if st.winner is None:
            return 0.0
        return 1.0 if st.winner == self.learner_seat else -1.0

    def finish_step(self):
        """(terminated, truncated, components) for the step that just ended."""
        if self.runout and not self.terminated and self.state.seat_to_act != self.learner_seat:
            self.runout_failed = True  # runout drill: losing the table ends the episode
        term, trunc = self.terminated, self.truncated
        self.log.components["result"] = self.result_value() if term else 0.0
        if term or trunc:
            self.done = True
        return term, trunc, self.log.components
