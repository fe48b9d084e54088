"""`PoolVectorEnv`: N tables stepped together with ONE batched physics call per round.

A step decodes every table's action, applies the non-shot parts, and simulates all pending
shots with one `physics.simulate_batch` call; if opponents then shoot, their shots are
simulated in further batched rounds (one call per round, all tables together) until every
table waits for its learner again. Each table runs the same `Session` state machine as
`PoolEnv`, with the same seeding (table i of ``reset(seed=s)`` is seeded with ``s + i``, as
`gymnasium.vector.SyncVectorEnv` does), so trajectories equal those of N single envs.

Per-table Python is kept out of the hot path by batching every stage over the tables:
Box actions are decoded together (`Codec.decode_box_batch`: one numba call places every cue
ball in hand), the opponent decides for all waiting tables at once
(`GeometricOpponent.decide_batch`, one numba kernel), the rule facts of all shot records come
from one compiled pass over the batch's event arrays (`poolgym.rules.shot_facts.BatchFacts`, read by
the referee through `queries.shot_facts`), cue-ball placements are checked by the compiled
`poolgym.rules.placement.placement_code`, and observations are built together
(`Codec.encode_batch`). What remains per table is the referee's own adjudication.
The tables share one discipline config object (`pool_env.shared_config`), so the rules'
memo of legal-action specs serves them all, and the geometric opponent's placements,
checked by the rules inside its batched decision, are not checked again
(`GeometricOpponent.placements_checked`).

Overlap (`PhysicsModels.overlap`, default on; batches of >= `physics_io.OVERLAP_MIN_BATCH`
tables): the batched physics call runs its compiled kernel on a worker thread without the GIL
(`physics.stream.simulate_batch_async`); meanwhile this thread resets the tables whose episode
ended, steps the self-play tables whose decision is no shot (an option, a declaration: they
are committed, finished and observed there) and referees the tables already simulated, chunk
by chunk in table order; a table with nothing left to play this step is then finished
(reward, termination) and observed at once. On
two cores a step then costs about max(physics, refereeing) plus the rest instead of the sum.
The worker is a persistent thread (`physics.stream`, one per calling thread), which zeroes
the batch's outputs and runs every table in ONE nogil compiled call, so it never waits for the
GIL mid-batch. Every table is simulated and refereed on its own with its own RNG, so results are
bit-identical with the overlap on or off (tested).

Pipeline (self-play without execution noise, Box actions, the overlap; at least 2 x
`PIPELINE_MIN_GROUP` stepping tables): `_step_prepare` decodes and plans the stepping tables
in `PIPELINE_GROUPS` groups in table order and starts the first group's shots
(`physics_io.Launch`, inputs from the plans, which no table has committed yet) before it
plans the next group; each next group is submitted as soon as the kernel has finished the one
before (`physics_io._consume_launches`), so the kernel starts after the first group's
planning instead of all of it. A decision found illegal in a later group still raises with
no table changed (a started group's results are dropped). Same results (tested).

Autoreset: ``autoreset_mode="next_step"`` (default, `gymnasium.vector.AutoresetMode.NEXT_STEP`:
the step after an episode ends resets that table, ignores its action and returns reward 0) or
``"same_step"`` (the table is reset in the step that ended it; the last observation and info
are in ``infos["final_obs"]`` / ``infos["final_info"]`` with masks ``"_final_obs"``,
``"_final_info"``). Declared in ``metadata["autoreset_mode"]``.

Garbage collection: ``pause_gc=True`` (default) runs `reset` and `step` with Python's cyclic
garbage collector paused (`gc.disable`, restored on exit, also on an exception). A step creates
tens of thousands of short-lived, acyclic objects (states, verdicts, records) that reference
counting frees; the allocation count alone would trigger collections that scan the whole heap
(measured 10-20% of the step time outside physics at N=256). Nothing is leaked: cyclic
garbage is collected when the collector runs again outside the step.

Infos hold arrays: ``shots``, ``winner`` (-1 = none), ``learner_seat``, ``seat_to_act`` and
``reward_components`` (dict of arrays).
"""

from __future__ import annotations

import contextlib
import gc
import time
from operator import attrgetter

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from poolgym.envs import physics_io
from poolgym.envs.codec import box_action, discrete_action
from poolgym.envs.param import dict_action
from poolgym.envs.pool_env import PoolEnv
from poolgym.envs.seating import seat_view
from poolgym.envs.session import FINISHED_EPISODE, SHAPING_KEYS
from poolgym.rules.core import IllegalActionError, PlaceCueBall
from poolgym.rules.rows import bool_rows, float_rows


#: tables finished during the overlap are observed (`Codec.encode_batch`) in groups of at least
#: this many: the encoder costs ~60 us a call plus ~3 us a table
OBS_GROUP = 64

#: ... and in groups of at least this many while this thread would wait for the kernel
IDLE_OBS_GROUP = 16

#: a step's stepping tables are planned and simulated in up to this many pipelined groups
#: (`PoolVectorEnv._pipeline_groups`) of at least `PIPELINE_MIN_GROUP` tables
PIPELINE_GROUPS = 2
PIPELINE_MIN_GROUP = 32

#: during a physics call, the opponent decides for the tables already refereed once this many
#: wait (`PoolVectorEnv._run_rounds`; a batched decision has a fixed cost)
OPP_GROUP = 32

#: per-table fields read for the infos (C-level getters)
_SESSION, _STATE, _SHOTS = attrgetter("session"), attrgetter("state"), attrgetter("shots")
_LEARNER_SEAT, _SEAT_TO_ACT = attrgetter("learner_seat"), attrgetter("seat_to_act")

#: the components of a table that did not step (it was reset)
_ZERO_ROW = (0.0,) * len(SHAPING_KEYS)


def _autoreset_mode(mode) -> AutoresetMode:
    """An `AutoresetMode` from itself, its value ("NextStep") or "next_step"/"same_step"."""
    if isinstance(mode, AutoresetMode):
        return mode
    names = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
             "disabled": AutoresetMode.DISABLED}
    if isinstance(mode, str) and mode.lower() in names:
        return names[mode.lower()]
    try:
        return AutoresetMode(mode)
    except ValueError:
        raise ValueError(f"autoreset_mode must be next_step, same_step or disabled, got {mode!r}") from None


def param_dict_actions(actions, n: int, n_choice: int) -> list:
    """The per-table dicts of a batched ``param_dict`` action (``{"choice": (n,) ints,
    "corrections": (n, 7)}``, `batch_space` of the Dict space), each checked by
    `poolgym.envs.param.dict_action`; ``ValueError`` naming the table otherwise."""
    if not hasattr(actions, "keys") or set(actions.keys()) != {"choice", "corrections"}:
        raise ValueError(f"actions must be a dict with keys 'choice' and 'corrections', got {type(actions).__name__}")
    ch = np.asarray(actions["choice"])
    co = np.asarray(actions["corrections"])
    if ch.shape != (n,) or co.ndim != 2 or co.shape[0] != n:
        raise ValueError(f"actions: need 'choice' of shape ({n},) and 'corrections' of shape ({n}, 7), got "
                         f"{ch.shape} and {co.shape}")
    out = []
    for i in range(n):
        a = {"choice": ch[i], "corrections": co[i]}
        try:
            dict_action(a, n_choice)
        except ValueError as err:
            raise ValueError(f"table {i}: {err}") from None
        out.append(a)
    return out


@contextlib.contextmanager
def _gc_paused(pause: bool):
    """Pause the cyclic garbage collector inside the block when ``pause`` (see module doc)."""
    was = gc.isenabled()
    if pause and was:
        gc.disable()
    try:
        yield
    finally:
        if pause and was:
            gc.enable()


class PoolVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` `PoolEnv` tables of ``discipline`` batched natively (see module docstring).

    Every other keyword argument is passed to `PoolEnv` (same meaning)."""

    metadata = {"render_modes": ["rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, discipline="nine_ball", num_envs: int = 1, autoreset_mode="next_step",
                 pause_gc: bool = True, **kwargs):
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        self.pause_gc = bool(pause_gc)
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        self.metadata = dict(self.metadata, autoreset_mode=self.autoreset_mode)
        if kwargs.get("render_mode") == "human":
            kwargs["render_mode"] = "rgb_array"
        self.envs = [PoolEnv(discipline, **kwargs) for _ in range(num_envs)]
        self.timer = physics_io.Timer()
        shared = self.envs[0].opponent  # built from the same arguments for every table
        for e in self.envs:
            e.timer = self.timer
            e.session.timer = self.timer
            e.session.defer_opponent = True
            if e.param is not None:  # one parameterised codec (same arguments): the analysis of
                e.param = e.codec.candidates = self.envs[0].param  # a state the observation made serves its decoding
            if isinstance(kwargs.get("opponent", "geometric"), str):
                e.opponent = e.session.opponent = shared
        e0 = self.envs[0]
        self.num_envs = num_envs
        #: (num_envs, len(SHAPING_KEYS)) reward weights of the tables (see `_rewards`)
        self._weights = np.array([[e.weights.get(k, 0.0) for k in SHAPING_KEYS] for e in self.envs], np.float64)
        self.table = e0.table
        self.models = e0.models
        self.render_mode = kwargs.get("render_mode")
        self.single_observation_space = e0.observation_space
        self.single_action_space = e0.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._needs_reset = np.zeros(num_envs, bool)
        self._obs = np.zeros((num_envs,) + self.single_observation_space.shape, np.float32)
        self._started = False

    # ------------------------------------------------------------------ batching
    def _run_rounds(self, idx, background=None, resolved=None, launches=None, idle=None) -> None:
        """Play tables ``idx`` until each waits for its learner: every table whose opponent is
        to act is decided in one batched opponent call, every pending shot is simulated in one
        batched physics call; repeated until nothing is left. ``background`` (optional) runs
        once, during the first batched physics call (`physics_io.simulate_sessions`), or
        before returning if there is none; tables it readies are played like the others.

        As soon as a group of tables has its shots adjudicated (with the overlap: while the
        kernel still simulates later tables), ``resolved(ids)`` (optional) is called with the
        group, in table order, and the opponent decides for the tables whose opponent is to
        act once `OPP_GROUP` of them are waiting (their shots join the next round). Every table
        sees the same sequence of operations on its own state and RNG as without the groups.
        ``launches``: the `physics_io.Launch` groups of the first round's shots, if
        `_step_prepare` built them (their tables are the first round's, in order). ``idle``:
        as in `physics_io.simulate_sessions`."""
        envs = self.envs
        waiting = []  # tables whose opponent is to act, decided in groups of `OPP_GROUP`

        def on_group(ids):
            waiting.extend(i for i in ids if envs[i].session.awaiting_opponent)
            if len(waiting) >= OPP_GROUP:
                self._opponent_round(waiting)
                waiting.clear()
            if resolved is not None:
                resolved(ids)

        # the tables that may still have something to play: after a physics call only those
        # it resolved (the others wait for their learners), all of ``idx`` after ``background``
        cand = idx
        while True:
            wait = [i for i in cand if envs[i].session.awaiting_opponent]
            if wait:
                self._opponent_round(wait)
                continue
            pend_ids = [i for i in cand if envs[i].session.pending is not None]
            if not pend_ids:
                if background is None:
                    return
                background()
                background = None
                cand = idx
                continue
            pend = [envs[i].session for i in pend_ids]
            if launches is not None and pend_ids != [i for L in launches for i in L.ids]:
                raise RuntimeError("the pipelined physics groups do not match the pending shots")
            physics_io.simulate_sessions(
                self.table, pend, self.models, self.timer, split_eps=envs[0].config.split_hit_eps,
                background=background, resolved=lambda lo, hi, ids=pend_ids: on_group(ids[lo:hi]),
                launches=launches, idle=idle)
            launches = None
            cand = idx if background is not None else pend_ids
            background = None
            waiting.clear()  # the rest are decided at the top of the loop

    def _opponent_round(self, wait) -> None:
        """The opponent's decisions for tables ``wait`` (one `decide_batch` call when the
        opponent has one, else one call per table), then applied table by table (with the
        states after their placements that the batched opponent made on the tables' own
        states, `GeometricOpponent.decide_batch`'s ``placed``)."""
        envs = self.envs
        t0 = time.perf_counter()
        sessions = [envs[i].session for i in wait]
        states = [s.state for s in sessions]
        specs = [s.disc.legal_actions(st) for s, st in zip(sessions, states)]
        rngs = [s.rng for s in sessions]
        # what each acting seat may see (a seated game hides the other seats' secrets)
        seated = sessions[0].seated
        views = [s.acting_view() for s in sessions] if seated else states
        opp = sessions[0].opponent
        batch = getattr(opp, "decide_batch", None)
        checked = False  # the opponent checked its placements with the rules itself
        placed = None
        if batch is not None and all(s.opponent is opp for s in sessions):
            checked = bool(getattr(opp, "placements_checked", lambda: False)())
            if checked and not seated:
                placed = [None] * len(sessions)
                decisions = batch(views, specs, rngs, placed=placed)
            else:
                decisions = batch(views, specs, rngs)
        else:
            decisions = [s.opponent(st, sp, r) for s, st, sp, r in zip(sessions, views, specs, rngs)]
        self.timer.other += time.perf_counter() - t0
        # as the learner's: a placement found illegal is applied unchecked, so that
        # `DisciplineBase.apply` raises exactly as in a single env
        if checked:
            if placed is None:
                for s, acts, spec in zip(sessions, decisions, specs):
                    s.opponent_act(acts, spec, placement_checked=True)
            else:
                for s, acts, spec, pl in zip(sessions, decisions, specs, placed):
                    s.opponent_act(acts, spec, placement_checked=True, placed=pl)
            return
        errs = self._placement_errors(sessions[0].disc, states, decisions)
        for k, (s, acts, spec) in enumerate(zip(sessions, decisions, specs)):
            s.opponent_act(acts, spec, placement_checked=k in errs and errs[k] is None)

    def _placement_errors(self, disc, states, decisions, pos=None, on=None) -> dict:
        """{k: why the leading `PlaceCueBall` of ``decisions[k]`` is illegal on ``states[k]``,
        None = legal} for every decision that starts with one: the rules check them all in ONE
        compiled call (`DisciplineBase.placement_errors`; G-3.16, G-3.22, 9B-5.10). ``pos``
        (B, N, 2), ``on`` (B, N): the states' ball arrays, if the caller has them."""
        t0 = time.perf_counter()
        ks = [k for k, d in enumerate(decisions)
              if isinstance(d, (list, tuple)) and d and isinstance(d[0], PlaceCueBall)]
        errs = []
        if ks:
            arrays = {} if pos is None else {"pos": pos[ks], "on": on[ks]}
            errs = disc.placement_errors([states[k] for k in ks], [decisions[k][0] for k in ks], **arrays)
        self.timer.actions += time.perf_counter() - t0
        return dict(zip(ks, errs))

    def _restarts(self, idx) -> None:
        """`PoolEnv._needs_restart` for the tables just reset, batched like `_run_rounds`."""
        while True:
            todo = [i for i in idx if self.envs[i]._needs_restart()]
            if not todo:
                break
            for i in todo:
                self.envs[i]._restart()
            self._run_rounds(todo)
        for i in idx:
            try:
                self.envs[i]._check_learner_acts()
            except RuntimeError as e:
                raise RuntimeError(f"table {i}: {e}") from None

    def _check_actions(self, actions):
        """``actions`` if the batched action space holds them, else ``ValueError``: Box mode a
        float (num_envs, D) array (`codec.box_action`, clipped), macro mode num_envs integers
        (`codec.discrete_action` each)."""
        e0 = self.envs[0]
        if e0.action_mode in ("box", "param"):
            return box_action(actions, (self.num_envs,) + e0.action_space.shape, batched=True)
        if e0.action_mode == "param_dict":
            return param_dict_actions(actions, self.num_envs, e0.param.n_choice)
        arr = np.asarray(actions) if isinstance(actions, (list, tuple)) else actions
        if not isinstance(arr, np.ndarray) or arr.shape != (self.num_envs,) or arr.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} integers (an integer array of shape "
                             f"({self.num_envs},)), got {type(actions).__name__}"
                             f"{'' if not hasattr(arr, 'shape') else f' of shape {arr.shape} ({arr.dtype})'}")
        for i in range(self.num_envs):
            try:
                discrete_action(arr[i], e0.codec.n_macro)
            except ValueError as err:
                raise ValueError(f"table {i}: {err}") from None
        return arr

    def _decode_all(self, actions, resetting, idx=None):
        """Box actions of every stepping table decoded together (`Codec.decode_box_batch`:
        one compiled call places all cue balls in hand) and their placements checked by the
        rules in one more (`DisciplineBase.placement_errors`), from one array of the tables'
        balls: (decisions, their shots' [V0, phi, theta, a, b] rows (views of one array)),
        per table, None for a table that resets (or is not in ``idx``, the tables to decode:
        by default every table that does not reset); None in macro mode (decoded per table by
        `PoolEnv._decode`)."""
        e0 = self.envs[0]
        if e0.action_mode != "box":
            return None
        if idx is None:
            idx = np.flatnonzero(~resetting).tolist()
        out = [None] * self.num_envs
        rows = [None] * self.num_envs
        if not idx:
            return out, rows
        sessions = [self.envs[i].session for i in idx]
        for i, s in zip(idx, sessions):
            if s.done or not s.learner_to_act():
                raise RuntimeError(f"table {i}: {FINISHED_EPISODE}")
        states = [s.state for s in sessions]
        B = len(states)
        N = len(states[0].on_table)
        pos = float_rows([st.pos for st in states], 2 * N).reshape(B, N, 2)
        on = bool_rows([st.on_table for st in states], N)
        R = np.empty((B, 5), np.float64)  # the shots' [V0, phi, theta, a, b] (`Session.plan_decoded`)
        dec = e0.codec.decode_box_batch(actions[idx], states, [s.spec for s in sessions], pos, on, rows_out=R)
        # `Session.plan` applies the checked placements without repeating the check
        for k, err in self._placement_errors(e0.disc, states, dec, pos, on).items():
            if err is not None:
                raise IllegalActionError(f"table {idx[k]}: illegal cue-ball placement: {err}")
        for i, d, r in zip(idx, dec, R):
            out[i] = d
            rows[i] = r
        return out, rows

    def _encode(self, idx) -> None:
        """Observations of tables ``idx`` into ``self._obs`` (one `Codec.encode_batch` call)."""
        t0 = time.perf_counter()
        idx = list(idx)
        if idx:
            ss = [self.envs[i].session for i in idx]
            whole = len(idx) == self.num_envs and idx == list(range(self.num_envs))
            buf = self._obs if whole else np.empty((len(idx),) + self._obs.shape[1:], np.float32)
            seats = [s.observer() for s in ss]
            if self.envs[0].seated:  # each observer's view and own secret only
                views = [seat_view(s.state, k) for s, k in zip(ss, seats)]
                self.envs[0].codec.encode_batch([v[0] for v in views], [s.spec for s in ss], seats,
                                                [s.shots for s in ss], buf, secrets=[v[1] for v in views])
            else:
                self.envs[0].codec.encode_batch([s.state for s in ss], [s.spec for s in ss], seats,
                                                [s.shots for s in ss], buf)
            if buf is not self._obs:
                self._obs[idx] = buf
        self.timer.obs += time.perf_counter() - t0

    # ------------------------------------------------------------------ API
    def reset(self, *, seed=None, options=None):
        with _gc_paused(self.pause_gc):
            return self._reset(seed, options)

    def step(self, actions):
        with _gc_paused(self.pause_gc):
            return self._step(actions)

    def _reset(self, seed, options):
        return self._reset_run(self._reset_prepare(seed, options))

    def _reset_prepare(self, seed, options) -> list:
        """Every table's seed and options checked and its start planned (`PoolEnv._reset_prepare`)
        before any table changes: the plans for `_reset_run`. A bad seed or option raises with
        every table as before; `_reset_abort` undoes plans that will not run (the sharded env
        prepares all its workers before any resets)."""
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed: need {self.num_envs} seeds, got {len(seeds)}")
        plans = []
        try:
            for i, e in enumerate(self.envs):
                plans.append(e._reset_prepare(seeds[i], options))
        except BaseException:
            self._reset_abort(plans)
            raise
        return plans

    def _reset_abort(self, plans) -> None:
        """Undo the seeding of the tables' prepared resets (last first), as if never prepared."""
        for e, plan in zip(self.envs[len(plans) - 1::-1], plans[::-1]):
            e._reset_rollback(plan[0])

    def _reset_run(self, plans):
        for e, plan in zip(self.envs, plans):
            e._reset_commit(plan)
        idx = list(range(self.num_envs))
        self._run_rounds(idx)
        self._restarts(idx)
        for i, e in enumerate(self.envs):
            e.session.finish_step()
            e.session.done = not e.session.learner_to_act()
        self._encode(range(self.num_envs))
        self._needs_reset[:] = False
        self._started = True
        return self._obs.copy(), self._infos(np.zeros(self.num_envs))

    def _step(self, actions):
        return self._step_run(*self._step_prepare(actions))

    def _step_prepare(self, actions) -> tuple:
        """Check and decode every table's action and plan it on the table's state: the plan
        for `_step_run`. Raises (``ValueError``, `IllegalActionError`, ``RuntimeError``,
        naming the table) with no table changed: a bad action changes nothing. The sharded
        env (`poolgym.envs.workers`) prepares every worker's slice before any runs."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        envs = self.envs
        resetting = self._needs_reset.copy()
        actions = self._check_actions(actions)
        stepping = np.flatnonzero(~resetting).tolist()
        groups = self._pipeline_groups(stepping)
        # validate every table's decision, then apply them all (`_step_run`): a bad action
        # changes no table
        prepared = {}
        launches = [] if len(groups) > 1 else None
        for ids in groups:
            decoded, rows = self._decode_all(actions, resetting, ids) or (None, None)
            for i in ids:
                e = envs[i]
                try:
                    if decoded is not None:  # (`_decode_all` found the learner to act)
                        prepared[i] = (e.session.plan_decoded(decoded[i], rows[i]), False)
                    else:
                        prepared[i] = e._step_prepare(actions[i])
                except (ValueError, RuntimeError) as err:
                    raise type(err)(f"table {i}: {err}") from None
            if launches is not None:
                launch = self._launch(ids, prepared)
                if launch is None:  # a plan the pipeline does not simulate: the step runs unpipelined
                    launches = None
                    continue
                if not launches:
                    launch.start()  # the first group is simulated while the next one is planned
                launches.append(launch)
        return resetting, prepared, launches

    def _pipeline_groups(self, stepping: list) -> list:
        """The stepping tables in the groups `_step_prepare` plans one after the other: two
        halves when the step can be pipelined (Box actions, self-play without execution
        noise, the overlapped physics, at least 2 x `PIPELINE_MIN_GROUP` tables:
        the first half's shots are simulated while the second half is decoded and planned),
        else one group."""
        n = len(stepping)
        if (n < 2 * PIPELINE_MIN_GROUP or not self.pipelined()
                or any(self.envs[i].session.opponent is not None
                       or self.envs[i].session.noise is not None for i in stepping)):
            return [stepping]
        G = min(PIPELINE_GROUPS, n // PIPELINE_MIN_GROUP)
        return [stepping[g * n // G: (g + 1) * n // G] for g in range(G)]

    def pipelined(self) -> bool:
        """Whether this env's steps are pipelined (`_pipeline_groups`) once at least
        2 x `PIPELINE_MIN_GROUP` tables step: Box actions, no opponent, no execution noise, the
        overlapped physics not numba-parallel (the tables as built; `poolgym.envs.workers`
        counts on it to choose its default number of processes)."""
        e0 = self.envs[0]
        return (e0.action_mode == "box" and self.models.overlap and not self.models.parallel
                and e0.session.opponent is None and e0.session.noise is None)

    def _launch(self, ids: list, prepared: dict):
        """The `physics_io.Launch` of the shots planned for tables ``ids`` (their plans not yet
        committed), or None when one of them is not a plain shot planned on the table's balls
        (a lag stroke, physics inputs of its own)."""
        shot_ids, states, rows, legal = [], [], [], []
        for i in ids:
            st, _, job, spec = prepared[i][0]
            if job is None:
                continue
            if job[2] is not None or np.ndim(job[4]) != 1:
                return None
            shot_ids.append(i)
            states.append(st)
            rows.append(job[4])
            # as `Session.commit` sets the pending shot's `pending_legal`
            legal.append(None if spec is None or not spec.target_balls else tuple(spec.target_balls))
        if not shot_ids:
            return None
        return physics_io.Launch(self.table, shot_ids, states, rows, legal, self.models)

    def _step_run(self, resetting, prepared, launches=None):
        """Carry out a `_step_prepare` plan: the step proper (see the module docstring);
        ``launches``: the first round's physics groups `_step_prepare` built (and started)."""
        n = self.num_envs
        envs = self.envs
        # a self-play table whose decision is no shot (an option, a declaration) has nothing
        # to play this step: it is committed, finished and observed while the other tables'
        # shots are simulated (`background`)
        idle = []
        for i, plan in prepared.items():
            if plan[0][2] is None and envs[i].session.opponent is None:
                idle.append(i)
            else:
                envs[i]._step_commit(plan)
        reset_ids = np.flatnonzero(resetting).tolist()

        def background():
            # done while the other tables' shots are simulated (`PhysicsModels.overlap`): the
            # idle tables' steps and the autoreset of the tables whose episode ended; every
            # table has its own state and RNG, so the order of this work across tables
            # changes no result
            for i in idle:
                envs[i]._step_commit(prepared[i])
            if idle:
                resolved(idle)
            for i in reset_ids:
                envs[i]._reset_begin(None, None)

        # per table as Python lists (made arrays at the end: no numpy item access per table)
        resetting_l = resetting.tolist()
        terms = [False] * n
        truncs = [False] * n
        rows = [_ZERO_ROW] * n  # per table: its components in SHAPING_KEYS order
        finished = [False] * n  # tables whose step was finished (and observed) early

        def finish(i):
            s = envs[i].session
            term, trunc, c = s.finish_step()
            if not term and not trunc and not s.learner_to_act():
                trunc = True
                s.done = True
            terms[i], truncs[i] = term, trunc
            rows[i] = tuple(c.values())
            finished[i] = True

        unobserved = []  # finished early, observation not built yet

        def resolved(ids):
            # tables whose shot was just adjudicated, while the kernel simulates later tables:
            # a stepping table with nothing left to play this step (no shot pending, no
            # opponent to act) is finished now and observed in groups of `OBS_GROUP` (the
            # batched encoder's fixed cost) -- the same work, in the overlap
            for i in ids:
                s = envs[i].session
                if not resetting_l[i] and s.pending is None and not s.awaiting_opponent:
                    finish(i)
                    unobserved.append(i)
            if len(unobserved) >= OBS_GROUP:
                self._encode(unobserved)
                unobserved.clear()

        def observe_waiting():
            # this thread would wait for the kernel: the finished tables are observed now
            # (at least `IDLE_OBS_GROUP`), not after the physics
            if len(unobserved) >= IDLE_OBS_GROUP:
                self._encode(unobserved)
                unobserved.clear()

        self._run_rounds(list(range(n)), background=background if reset_ids or idle else None, resolved=resolved,
                         launches=launches, idle=observe_waiting)
        self._restarts(reset_ids)
        rest = [i for i in range(n) if not finished[i]]
        for i in rest:
            s = envs[i].session
            if resetting_l[i]:
                s.finish_step()
                s.done = not s.learner_to_act()
                continue
            finish(i)
        self._encode(unobserved + rest)
        rewards, comps = self._rewards(rows)
        terms = np.array(terms, bool)
        truncs = np.array(truncs, bool)
        done = terms | truncs
        infos = self._infos(comps)
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            self._needs_reset = done
        elif self.autoreset_mode is AutoresetMode.SAME_STEP and done.any():
            final_obs = np.empty(n, object)
            final_info = np.empty(n, object)
            ids = list(np.flatnonzero(done))
            for i in ids:
                final_obs[i] = self._obs[i].copy()
                final_info[i] = {"winner": envs[i].session.state.winner, "shots": envs[i].session.shots,
                                 "reward_components": {k: comps[k][i] for k in SHAPING_KEYS}}
                envs[i]._reset_begin(None, None)
            self._run_rounds(ids)
            self._restarts(ids)
            for i in ids:
                envs[i].session.finish_step()
                envs[i].session.done = not envs[i].session.learner_to_act()
            self._encode(ids)
            infos["final_obs"], infos["_final_obs"] = final_obs, done.copy()
            infos["final_info"], infos["_final_info"] = final_info, done.copy()
        else:  # DISABLED
            pass
        return self._obs.copy(), rewards, terms, truncs, infos

    def _rewards(self, rows):
        """(rewards (n,), components {key: (n,)}) from each table's components (a row in
        `SHAPING_KEYS` order): every reward is summed over the keys in that order from 0.0,
        the same float operations as `pool_env.weighted_reward`, for all tables at once."""
        C = float_rows(rows, len(SHAPING_KEYS))
        W = self._weights
        rewards = np.zeros(self.num_envs, np.float64)
        for j in range(len(SHAPING_KEYS)):
            rewards = rewards + W[:, j] * C[:, j]
        return rewards, {k: C[:, j].copy() for j, k in enumerate(SHAPING_KEYS)}

    def _infos(self, comps) -> dict:
        n = self.num_envs
        ss = list(map(_SESSION, self.envs))
        sts = list(map(_STATE, ss))
        if not isinstance(comps, dict):
            comps = {k: np.zeros(n) for k in SHAPING_KEYS}
        # (np.fromiter: the int64 arrays np.array makes of these ints, faster)
        return {
            "shots": np.fromiter(map(_SHOTS, ss), np.int64, n),
            "winner": np.fromiter([-1 if st.winner is None else st.winner for st in sts], np.int64, n),
            "learner_seat": np.fromiter(map(_LEARNER_SEAT, ss), np.int64, n),
            "seat_to_act": np.fromiter(map(_SEAT_TO_ACT, sts), np.int64, n),
            "reward_components": comps,
        }

    def action_masks(self) -> np.ndarray:
        """(num_envs, n_macro) legal macro actions (``action_mode="macro"``), or (num_envs, K)
        legal choices of the parameterised modes."""
        return np.stack([e.action_masks() for e in self.envs])

    # ------------------------------------------------------------------ per-table access
    def table_attrs(self, name: str, indices) -> list:
        """``getattr(table_env, name)`` of the tables ``indices`` (a list of table indices, last
        in each of these three methods, all checked first: `IndexError` outside
        0..num_envs-1; each table is a `PoolEnv`); `ShardedVectorEnv` answers the same from its
        workers."""
        return [getattr(e, name) for e in self._table_envs(indices)]

    def set_table_attrs(self, name: str, value, indices) -> None:
        """``setattr(table_env, name, value)`` on the tables ``indices``."""
        for e in self._table_envs(indices):
            setattr(e, name, value)

    def call_tables(self, name: str, args, kwargs, indices) -> list:
        """``getattr(table_env, name)(*args, **kwargs)`` of the tables ``indices``, in order."""
        return [getattr(e, name)(*args, **(kwargs or {})) for e in self._table_envs(indices)]

    def _table_envs(self, indices) -> list:
        envs = []
        for i in indices:
            i = int(i)
            if not 0 <= i < self.num_envs:
                raise IndexError(f"table index {i} out of range for {self.num_envs} tables")
            envs.append(self.envs[i])
        return envs

    def render(self):
        if self.render_mode != "rgb_array":
            return None
        return tuple(e.render() for e in self.envs)

    def close_extras(self, **kwargs):
        for e in getattr(self, "envs", ()):  # absent when __init__ rejected its arguments
            e.close()
