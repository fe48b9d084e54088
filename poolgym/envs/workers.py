"""`ShardedVectorEnv`: the native vector env's tables split over worker processes.

``gym.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point", num_workers=W)``
(W > 1) splits the N tables into W contiguous slices; worker w runs its slice end to end in
its own process as a `PoolVectorEnv` (batched physics, referee, opponent, observations and
resets), so the per-table Python that a single process runs on one core runs on W cores.
Table i is seeded exactly as in the single-process env (``reset(seed=s)``: table i gets
``s + i``) and every table has its own RNG, so the trajectories are bit-identical to
``num_workers=1`` and to N single envs (tested).

Knobs (both documented in the README, "Many cores"):

* ``num_workers``: processes; each owns ``N / W`` tables (the first ``N % W`` one more).
  1 runs everything in this process (`PoolVectorEnv`); ``"auto"`` (the default) below.
* The workers run the physics kernel on their own thread (``physics={"overlap": False}``)
  unless ``physics`` sets ``overlap`` (`without_overlap`).
* ``num_threads``: numba threads per worker (the ``NUMBA_NUM_THREADS`` of the worker process;
  None = numba's default, and the batched physics runs on one thread); above 1 the worker's
  batched physics runs numba-parallel (`PhysicsModels.parallel`). With ``num_workers=1`` it sets the numba
  threads of the batched physics of this process the same way.

The observations, the actions and a step's per-table results (reward, flags, the infos'
integers and reward components: `RESULT_COLUMNS`) travel through shared memory (an (N, obs)
float32, an (N, action) and an (N, results) float64 block, written in place), everything else
(commands, errors, a reset's infos, the ``final_obs`` / ``final_info`` of an autoreset in the
same step) through one pipe per worker. A bad action still changes nothing:

* Box actions (``action_mode="box"``, the default, and ``"param"``, whose choice is the best
  legal one) and macro actions whose masked entries are substituted
  (``illegal_macro="substitute"``, the default) take one round trip per step: this
  process checks the whole action array (shape, NaN/inf: `poolgym.envs.codec.box_action`; the
  integers' range) and, with autoreset disabled, that no table's episode has ended, exactly as
  one process checks them, then every worker checks, plans and runs its slice at once
  (`ShardedVectorEnv.step`). An action that passes those checks is always decodable (every
  Box row in [-1, 1] and every macro index means a legal decision), so a worker refusing
  its slice is a defect, not bad input: the error is raised with its table's global index
  and, where other workers did step, the env refuses every step until `reset` (its tables
  are then not one step apart).
* The other action modes (param_dict, macro with ``illegal_macro="raise"``), whose
  entries the rules may refuse table by table, step in two phases: every worker first checks
  and plans its slice (`PoolVectorEnv._step_prepare`); only when all accepted do they run,
  else all drop their plans and the first error is raised with its table's global index.

A reset is two-phase the same way (a seed or option one worker's table refuses resets no
table). The one round trip is worth about 13% of the steps per second self-play and 18%
against the geometric opponent (nine-ball, 2 x 128 tables on two cores, alternating runs
against two phases, `benchmarks/bench_workers.py --configs 2 2t`): no worker waits for the
slowest one's plans before it runs. The workers ignore Ctrl-C and finish the command they are
running; a reply the caller did not read because it was interrupted is read before that
worker's next command, so an interrupted one-round step has run on every table, and an
interrupted two-phase step on every table (interrupted at the run) or on none (at the
plans). The tables live in the workers: there is no ``envs`` list of table envs as
`PoolVectorEnv` has; `ShardedVectorEnv.table_attrs`, ``set_table_attrs`` and
``call_tables`` reach them by global index.

* ``num_workers="auto"`` (the default of ``gymnasium.make_vec``, `resolve_num_workers`): one
  process per `TABLES_PER_WORKER` tables (`TABLES_PER_WORKER_PIPELINED` where one process
  would pipeline the steps: Box self-play without noise, `PoolVectorEnv.pipelined`), at most
  one per core this process may use; 1 (this process) below two such slices, and while numba's
  cache is cold (a first run compiles once, on the two cores `poolgym.envs.prewarm` gives it,
  instead of once per worker). On two cores 64 tables or more are two workers (128 where one
  process pipelines); the trajectories are the same for any number.

Processes are started as fresh interpreters (``mp_context="auto"``, `WorkerProcess`: on
POSIX ``python -c`` with one end of a socket pair, the rest of the bootstrap sent over it),
which neither copies the caller's threads (the physics' worker threads) nor re-imports the
caller's main module, so a script needs no ``if __name__ == "__main__":`` guard to use
workers; elsewhere, or with ``mp_context`` naming a `multiprocessing` start method
(``"spawn"``, ``"forkserver"``, ``"fork"``), that method starts them (``"spawn"`` re-imports
the main module: guard it).

A worker process is the env's own, so it also sets its garbage collector for the env's
objects (`WORKER_GC_THRESHOLD`): once its tables are built it moves them to the collector's
permanent generation (``gc.freeze``), and it collects the youngest generation every
`WORKER_GC_THRESHOLD` net allocations instead of Python's 700. A step's short-lived
objects are freed by reference counting (the step runs with the collector paused, see
`poolgym.envs.vector`), but the ones that outlive it (verdict and spec memos, logs) made the
collector run after nearly every step and promote them into ever larger full collections: 5.3%
of a 14.1 step's CPU with the geometric opponent and 1.7% of an eight-ball one (N=128, one
process, `benchmarks/profile_env.py`), 2.1% and 0.0% with these settings; nine-ball's 0.3-0.4%
either way. Cyclic garbage is still collected, less often.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import pickle
import re
import socket
import subprocess
import sys
import time
import traceback
from multiprocessing import shared_memory
from multiprocessing.connection import Connection

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from poolgym.envs.session import FINISHED_EPISODE, SHAPING_KEYS

_TABLE_PREFIX = re.compile(r"^table (\d+): ")

#: the columns of the shared block of a step's per-table results: reward, terminated,
#: truncated, the infos' integers (`_RESULT_INTS`), then ``info["reward_components"]`` in
#: `SHAPING_KEYS` order (every value exact in float64: small integers, floats)
_RESULT_INTS = ("shots", "winner", "learner_seat", "seat_to_act")
RESULT_COLUMNS = ("reward", "terminated", "truncated") + _RESULT_INTS + tuple(SHAPING_KEYS)
#: the infos keys the block carries; any other key of a step's infos goes through the pipe
_RESULT_KEYS = frozenset(_RESULT_INTS + ("reward_components",))

#: ``num_workers="auto"``: one worker process per this many tables (fewer tables per process
#: pay the fixed cost of each opponent and physics round over too few of them). Nine-ball on two
#: cores, 2026-12-07, alternating runs: with the geometric opponent 2 x 32 tables ran 1.27-1.36x
#: one process's steps/s and 2 x 16 1.05x; the pot drill 2 x 32 1.2-2.0x (Box and param actions; `benchmarks/bench_workers.py`)
TABLES_PER_WORKER = 32
#: the same where one process already keeps two cores busy: it pipelines its steps (Box
#: actions, no opponent, no execution noise: `PoolVectorEnv.pipelined`), its kernel simulating
#: half of the tables while it plans the other half; nine-ball self-play 2 x 32 ran 0.8-0.9x one
#: process, 2 x 64 0.8-1.1x, 2 x 128 about 1.1x
TABLES_PER_WORKER_PIPELINED = 64
#: the worker process's ``gc`` generation-0 threshold (module docstring)
WORKER_GC_THRESHOLD = 100_000


def usable_cpus() -> int:
    """The cores this process may run on (its CPU affinity where the OS tells it, else
    ``os.cpu_count()``)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def resolve_num_workers(num_workers, num_envs: int, pipelined=False) -> int:
    """``num_workers`` as a count: an int is kept (checked by `shard_bounds`); ``"auto"`` is
    ``min(usable_cpus(), num_envs // TABLES_PER_WORKER)`` (`TABLES_PER_WORKER_PIPELINED` where
    ``pipelined`` -- a bool, or a callable asked only when the answer matters -- says that one
    process would pipeline these tables' steps), or 1 when that is below 2 or when numba's
    on-disk cache is cold (`physics.compile_cache.is_cold`: the first run compiles once in this
    process, with `poolgym.envs.prewarm`'s helper, rather than once per worker)."""
    if num_workers != "auto":
        if isinstance(num_workers, str):
            raise ValueError(f"num_workers must be a positive int or 'auto', got {num_workers!r}")
        return num_workers
    cpus = usable_cpus()
    if min(cpus, int(num_envs) // TABLES_PER_WORKER) < 2:  # (the pipelined count is no larger)
        return 1
    from physics import compile_cache

    if compile_cache.is_cold():
        return 1
    per = TABLES_PER_WORKER_PIPELINED if (pipelined() if callable(pipelined) else pipelined) else TABLES_PER_WORKER
    w = min(cpus, int(num_envs) // per)
    return w if w >= 2 else 1


def shard_bounds(num_envs: int, num_workers: int) -> list[tuple[int, int]]:
    """[(lo, hi)] table slices of the workers: contiguous, in order, sizes differing by at
    most one (the first ``num_envs % num_workers`` slices one larger)."""
    if not isinstance(num_workers, int) or isinstance(num_workers, bool) or num_workers < 1:
        raise ValueError(f"num_workers must be a positive int, got {num_workers!r}")
    if num_workers > num_envs:
        raise ValueError(f"num_workers ({num_workers}) must not exceed num_envs ({num_envs})")
    q, r = divmod(num_envs, num_workers)
    out, lo = [], 0
    for w in range(num_workers):
        hi = lo + q + (1 if w < r else 0)
        out.append((lo, hi))
        lo = hi
    return out


def check_num_threads(num_threads) -> int | None:
    """``num_threads`` as an int >= 1 (None = the default), or ``ValueError``."""
    if num_threads is None:
        return None
    if not isinstance(num_threads, int) or isinstance(num_threads, bool) or num_threads < 1:
        raise ValueError(f"num_threads must be a positive int or None, got {num_threads!r}")
    return num_threads


def with_threads(kwargs: dict, num_threads: int | None) -> dict:
    """``kwargs`` with the physics set to run numba-parallel on ``num_threads`` threads when
    ``num_threads`` > 1 (`PhysicsModels.parallel`, `PhysicsModels.num_threads`; a ``physics``
    dict or `PhysicsModels` given is kept, with those two fields set)."""
    if num_threads is None or num_threads <= 1:
        return kwargs
    import dataclasses

    from poolgym.envs.physics_io import PhysicsModels

    out = dict(kwargs)
    phys = out.get("physics")
    if phys is None or isinstance(phys, dict):
        out["physics"] = dict(phys or {}, parallel=True, num_threads=num_threads)
    elif isinstance(phys, PhysicsModels):
        out["physics"] = dataclasses.replace(phys, parallel=True, num_threads=num_threads)
    return out


def without_overlap(kwargs: dict) -> dict:
    """``kwargs`` with ``physics={"overlap": False}`` unless the caller set the overlap: a
    worker process has a core of its own, and a second busy thread per process (the
    overlapped kernel) only makes the workers compete (2 cores, N=1024 self-play, 2 workers:
    1.7 cores obtained without the overlap, 1.1 with it). Results are the same either way."""
    phys = kwargs.get("physics")
    if phys is None or (isinstance(phys, dict) and "overlap" not in phys):
        return dict(kwargs, physics=dict(phys or {}, overlap=False))
    return kwargs


def _global_error(err: BaseException, lo: int) -> tuple:
    """(exception class, message) of a worker's error, its leading ``table i:`` made global."""
    msg = str(err)
    m = _TABLE_PREFIX.match(msg)
    if m:
        msg = f"table {int(m.group(1)) + lo}: " + msg[m.end():]
    return type(err), msg


def _publish(res: np.ndarray, r, te, tr, info: dict):
    """Write a step's results into the worker's rows ``res`` of the results block
    (`RESULT_COLUMNS`); returns the infos left for the pipe (None when nothing is left)."""
    res[:, 0] = r
    res[:, 1] = te
    res[:, 2] = tr
    for j, k in enumerate(_RESULT_INTS):
        res[:, 3 + j] = info[k]
    comps = info["reward_components"]
    base = 3 + len(_RESULT_INTS)
    for j, k in enumerate(SHAPING_KEYS):
        res[:, base + j] = comps[k]
    rest = {k: v for k, v in info.items() if k not in _RESULT_KEYS}
    return rest or None


def _tune_gc() -> None:
    """This worker's collector set for its env (module docstring): what exists now frozen,
    generation 0 collected every `WORKER_GC_THRESHOLD` net allocations."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(WORKER_GC_THRESHOLD, *gc.get_threshold()[1:])


def _worker(conn, discipline, lo, hi, kwargs, num_threads, obs_name, act_name, res_name, obs_shape, act_shape,
            act_dtype, env_blob=None, own_tracker=False):
    """Worker process: a `PoolVectorEnv` over tables [lo, hi), driven by commands on ``conn``;
    ``env_blob``: that env pickled (`ShardedVectorEnv.__getstate__`), restored instead of built.
    ``own_tracker``: this process has its own `multiprocessing.resource_tracker` (a
    `WorkerProcess`), which must not unlink the caller's shared memory when it exits."""
    if num_threads is not None:  # before numba is first imported in this process
        os.environ["NUMBA_NUM_THREADS"] = str(num_threads)
    obs_shm = shared_memory.SharedMemory(name=obs_name)
    act_shm = shared_memory.SharedMemory(name=act_name)
    res_shm = shared_memory.SharedMemory(name=res_name)
    if own_tracker:  # the blocks are the caller's: it unlinks them (`close_extras`)
        from multiprocessing import resource_tracker

        for shm in (obs_shm, act_shm, res_shm):
            resource_tracker.unregister(shm._name, "shared_memory")
    obs = np.ndarray(obs_shape, np.float32, buffer=obs_shm.buf)[lo:hi]
    act = np.ndarray(act_shape, act_dtype, buffer=act_shm.buf)[lo:hi]
    res = np.ndarray((act_shape[0], len(RESULT_COLUMNS)), np.float64, buffer=res_shm.buf)[lo:hi]
    env = None
    plan = resets = None
    try:
        from poolgym.envs.vector import PoolVectorEnv, _gc_paused

        if env_blob is None:
            env = PoolVectorEnv(discipline, num_envs=hi - lo, **with_threads(kwargs, num_threads))
        else:
            env = pickle.loads(env_blob)
        _tune_gc()
        conn.send(("ok", None))
        while True:
            try:
                cmd, arg = conn.recv()
            except EOFError:  # the caller ended without closing the env
                break
            try:
                if cmd == "reset_prepare":
                    seeds, options = arg
                    with _gc_paused(env.pause_gc):
                        resets = env._reset_prepare(seeds, options)
                    conn.send(("ok", None))
                elif cmd == "reset_run":
                    p, resets = resets, None
                    with _gc_paused(env.pause_gc):
                        o, info = env._reset_run(p)
                    obs[...] = o
                    conn.send(("ok", info))
                elif cmd == "prepare":
                    with _gc_paused(env.pause_gc):
                        plan = env._step_prepare(act.copy())
                    conn.send(("ok", None))
                elif cmd == "step":  # a one-round step: checked, planned and run at once
                    with _gc_paused(env.pause_gc):
                        o, r, te, tr, info = env._step_run(*env._step_prepare(act.copy()))
                    obs[...] = o
                    conn.send(("ok", _publish(res, r, te, tr, info)))
                elif cmd == "run":
                    p, plan = plan, None
                    with _gc_paused(env.pause_gc):
                        o, r, te, tr, info = env._step_run(*p)
                    obs[...] = o
                    conn.send(("ok", _publish(res, r, te, tr, info)))
                elif cmd == "abort":  # of a prepared step or reset (another worker refused its part)
                    plan = None
                    if resets is not None:
                        p, resets = resets, None
                        env._reset_abort(p)
                    conn.send(("ok", None))
                elif cmd == "call":
                    name, args = arg
                    conn.send(("ok", getattr(env, name)(*args)))
                elif cmd == "pickle":
                    conn.send(("ok", pickle.dumps(env, protocol=pickle.HIGHEST_PROTOCOL)))
                elif cmd == "stats":
                    conn.send(("ok", (env.timer, time.process_time())))
                elif cmd == "close":
                    conn.send(("ok", None))
                    break
                else:
                    raise ValueError(f"unknown worker command {cmd!r}")
            except Exception as err:  # reported to the caller, which raises it
                conn.send(("err", _global_error(err, lo)))
    except Exception as err:  # construction failed
        conn.send(("err", (type(err), f"{err}\n{traceback.format_exc()}")))
    finally:
        if env is not None:
            env.close()
        del obs, act, res
        obs_shm.close()
        act_shm.close()
        res_shm.close()
        conn.close()


#: the worker's bootstrap (``python -c``): Ctrl-C ignored (the terminal sends it to the whole
#: process group: the caller handles it, and its workers end when it does), the caller's
#: ``sys.path`` (plain strings, so that the worker's arguments unpickle as they do in the
#: caller), then `_worker`
_BOOT = ("import signal, sys\n"
         "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
         "from multiprocessing.connection import Connection\n"
         "c = Connection(int(sys.argv[1]))\n"
         "sys.path[:] = c.recv()\n"
         "from poolgym.envs.workers import _worker\n"
         "_worker(c, *c.recv(), own_tracker=True)\n")


class WorkerProcess:
    """A worker started as a fresh interpreter (``python -c`` `_BOOT`) talking over one end of
    a socket pair (a `multiprocessing.connection.Connection`, as ``multiprocessing.Pipe``
    gives): no ``fork`` of this process's threads and no re-import of its ``__main__``. The
    caller's environment (with ``env`` added), working directory and ``sys.path`` are the
    worker's; its standard output and error are the caller's. The `multiprocessing.Process`
    methods the env uses."""

    def __init__(self, args: tuple, name: str, env: dict | None = None):
        self.name = name
        ours, theirs = socket.socketpair()
        try:
            self._popen = subprocess.Popen([sys.executable, "-c", _BOOT, str(theirs.fileno())],
                                           stdin=subprocess.DEVNULL, pass_fds=(theirs.fileno(),),
                                           env=None if not env else dict(os.environ, **env))
        finally:
            theirs.close()
        self.conn = Connection(ours.detach())
        try:
            self.conn.send(list(sys.path))
            self.conn.send(args)
        except OSError:  # it ended at once: the env's first read reports it
            pass

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def exitcode(self):
        return self._popen.poll()

    def is_alive(self) -> bool:
        return self._popen.poll() is None

    def join(self, timeout=None) -> None:
        try:
            self._popen.wait(timeout)
        except subprocess.TimeoutExpired:
            pass

    def terminate(self) -> None:
        if self.is_alive():
            self._popen.terminate()
            self.join(5)

    def kill(self) -> None:
        if self.is_alive():
            self._popen.kill()
            self.join(5)


def _start_method(mp_context: str) -> str | None:
    """``mp_context`` checked: None for `WorkerProcess` (``"auto"`` on POSIX), else a
    `multiprocessing` start method (``"auto"`` elsewhere: ``"spawn"``)."""
    if mp_context == "auto":
        return None if os.name == "posix" and sys.executable else "spawn"
    if mp_context not in mp.get_all_start_methods():
        raise ValueError(f"mp_context must be 'auto' or one of {mp.get_all_start_methods()}, got {mp_context!r}")
    return mp_context


class ShardedVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` tables of ``discipline`` split over ``num_workers`` processes, each a
    `PoolVectorEnv` over its slice (see module docstring). Every other keyword argument is
    passed to `PoolVectorEnv` (same meaning, same spaces and infos)."""

    def __init__(self, discipline="nine_ball", num_envs: int = 1, num_workers: int = 2,
                 num_threads: int | None = None, mp_context: str = "auto", **kwargs):
        self._build(discipline, num_envs, num_workers, num_threads, mp_context, without_overlap(kwargs))

    def _build(self, discipline, num_envs, num_workers, num_threads, mp_context, kwargs, blobs=None):
        """Start the workers (``blobs``: their pickled envs, restored instead of built)."""
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        self.bounds = shard_bounds(num_envs, num_workers)
        num_threads = check_num_threads(num_threads)
        method = _start_method(mp_context)
        self._spec = (discipline, num_envs, num_workers, num_threads, mp_context, kwargs)
        self.num_envs = num_envs
        self.num_workers = num_workers
        self.num_threads = num_threads
        self._conns, self._procs, self._shms = [], [], []
        self._owed = []  # per worker: replies not yet read (`_send`)
        self._closed_workers = False
        # spaces and metadata from one table built here (cheap, no physics)
        from poolgym.envs.vector import PoolVectorEnv

        probe = PoolVectorEnv(discipline, num_envs=1, **with_threads(kwargs, num_threads))
        self.metadata = dict(probe.metadata)
        self.autoreset_mode = probe.autoreset_mode
        self.render_mode = probe.render_mode
        self.table, self.models = probe.table, probe.models  # as `PoolVectorEnv` (the workers' own)
        self.single_observation_space = probe.single_observation_space
        self.single_action_space = probe.single_action_space
        #: the steps take one round trip (see module docstring)
        e0 = probe.envs[0]
        self._one_round = e0.action_mode in ("box", "param") or (e0.action_mode == "macro"
                                                                and e0.illegal_macro == "substitute")
        #: a one-round macro step's range (the macro actions this process checks)
        self._n_macro = e0.codec.n_macro if self._one_round and e0.action_mode == "macro" else None
        probe.close()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        obs_shape = (num_envs,) + self.single_observation_space.shape
        box = isinstance(self.single_action_space, gym.spaces.Box)
        act_shape = (num_envs,) + (self.single_action_space.shape if box else ())
        act_dtype = np.float64 if box else np.int64
        self._box = box
        self._single_action_shape = self.single_action_space.shape
        obs_shm = shared_memory.SharedMemory(create=True, size=max(1, int(np.prod(obs_shape)) * 4))
        act_shm = shared_memory.SharedMemory(create=True, size=max(1, int(np.prod(act_shape)) * 8))
        res_shm = shared_memory.SharedMemory(create=True, size=num_envs * len(RESULT_COLUMNS) * 8)
        self._shms = [obs_shm, act_shm, res_shm]
        self._obs = np.ndarray(obs_shape, np.float32, buffer=obs_shm.buf)
        self._act = np.ndarray(act_shape, act_dtype, buffer=act_shm.buf)
        self._res = np.ndarray((num_envs, len(RESULT_COLUMNS)), np.float64, buffer=res_shm.buf)
        try:
            for w, (lo, hi) in enumerate(self.bounds):
                args = (discipline, lo, hi, kwargs, num_threads, obs_shm.name, act_shm.name, res_shm.name,
                        obs_shape, act_shape, act_dtype, None if blobs is None else blobs[w])
                name = f"poolgym-shard-{lo}-{hi}"
                if method is None:  # numba's threads set before anything imports numba there
                    p = WorkerProcess(args, name, None if num_threads is None else
                                      {"NUMBA_NUM_THREADS": str(num_threads)})
                    self._conns.append(p.conn)
                else:
                    ctx = mp.get_context(method)
                    parent, child = ctx.Pipe()
                    p = ctx.Process(target=_worker, daemon=True, name=name, args=(child,) + args)
                    p.start()
                    child.close()
                    self._conns.append(parent)
                self._owed.append(1)  # its construction's reply
                self._procs.append(p)
            self._gather()  # every worker built its env
        except BaseException:
            self.close()
            raise
        self._started = False
        self._done = np.zeros(num_envs, bool)  # episodes ended at the last step (autoreset disabled)
        self._broken = None  # why no step is taken until `reset` (a one-round step some workers refused)

    # ------------------------------------------------------------------ plumbing
    def _send(self, w: int, msg) -> None:
        """Send worker ``w`` a command, first reading the replies it still owes (a gather cut
        short by an exception such as Ctrl-C in this process: the workers ignore SIGINT and
        finish the command), so that every reply is read for the command that asked it."""
        self._drain(w)
        self._conns[w].send(msg)
        self._owed[w] += 1

    def _drain(self, w: int) -> None:
        """Read the replies worker ``w`` still owes (`_send`): it then runs no command."""
        c = self._conns[w]
        while self._owed[w]:
            try:
                c.recv()
            except EOFError:
                self._owed[w] = 0
                break
            self._owed[w] -= 1

    def _gather(self, workers=None) -> list:
        """The reply of each of ``workers`` (default all, in order); the first error is raised
        after all replied."""
        out, first_err = [], None
        for w in (range(len(self._conns)) if workers is None else workers):
            try:
                status, val = self._conns[w].recv()
            except EOFError:
                status, val = "err", (RuntimeError, "a worker process ended unexpectedly")
            self._owed[w] = max(0, self._owed[w] - 1)
            if status == "err" and first_err is None:
                first_err = val
            out.append(val if status == "ok" else None)
        if first_err is not None:
            cls, msg = first_err
            try:
                err = cls(msg)
            except Exception:  # an exception class with another signature
                err = RuntimeError(f"{cls.__name__}: {msg}")
            raise err
        return out

    def _send_all(self, cmd, args=None) -> list:
        for w in range(len(self._conns)):
            self._send(w, (cmd, None if args is None else args[w]))
        return self._gather()

    def _merge(self, infos: list) -> dict:
        """The workers' info dicts joined along the tables (arrays concatenated, dicts merged
        key by key). A key only some workers report (``final_obs`` / ``final_info`` and their
        ``_`` masks: only where an episode ended) is filled for the others as the
        single-process env fills its tables without one (None, mask False)."""
        keys = list(dict.fromkeys(k for d in infos for k in d))
        out = {}
        for k in keys:
            have = [d[k] for d in infos if k in d]
            if isinstance(have[0], dict):
                out[k] = self._merge(have)
                continue
            parts = []
            for d, (lo, hi) in zip(infos, self.bounds):
                if k in d:
                    parts.append(np.asarray(d[k]))
                elif k.startswith("_"):
                    parts.append(np.zeros(hi - lo, bool))
                else:
                    parts.append(np.empty(hi - lo, object))
            out[k] = np.concatenate(parts)
        return out

    # ------------------------------------------------------------------ API
    def reset(self, *, seed=None, options=None):
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed: need {self.num_envs} seeds, got {len(seeds)}")
        # every worker checks its tables' seeds and options before any table resets
        try:
            self._send_all("reset_prepare", [(seeds[lo:hi], options) for lo, hi in self.bounds])
        except BaseException:
            self._send_all("abort")
            raise
        infos = self._send_all("reset_run")
        self._started = True
        self._done[:] = False
        self._broken = None
        return self._obs.copy(), self._merge(infos)

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        from poolgym.envs.codec import box_action, discrete_action

        # every check first (no worker sees an action array it must refuse), then the action block
        if self._box:
            arr = box_action(actions, (self.num_envs,) + self._single_action_shape, batched=True)
        else:
            arr = np.asarray(actions) if isinstance(actions, (list, tuple)) else actions
            if not isinstance(arr, np.ndarray) or arr.shape != (self.num_envs,) or arr.dtype.kind not in "iu":
                raise ValueError(f"actions must be {self.num_envs} integers (an integer array of shape "
                                 f"({self.num_envs},)), got {type(actions).__name__}"
                                 f"{'' if not hasattr(arr, 'shape') else f' of shape {arr.shape} ({arr.dtype})'}")
            if self._n_macro is not None:  # each table's range, as one process checks it
                bad = np.flatnonzero((arr < 0) | (arr >= self._n_macro))
                if bad.size:  # the first, in `codec.discrete_action`'s words
                    i = int(bad[0])
                    try:
                        discrete_action(arr[i], self._n_macro)
                    except ValueError as err:
                        raise ValueError(f"table {i}: {err}") from None
        if self._one_round:
            self._check_steppable()
        for w in range(len(self._conns)):  # no worker still reads the action block (an interrupted step)
            self._drain(w)
        self._act[...] = arr
        if self._one_round:
            extras = self._step_one_round()
        else:
            try:
                self._send_all("prepare")
            except BaseException:
                self._send_all("abort")
                raise
            extras = self._send_all("run")
        R = self._res  # (`RESULT_COLUMNS`, written by the workers)
        rewards = R[:, 0].copy()
        terms = R[:, 1] != 0.0
        truncs = R[:, 2] != 0.0
        infos = {k: R[:, 3 + j].astype(np.int64) for j, k in enumerate(_RESULT_INTS)}
        base = 3 + len(_RESULT_INTS)
        infos["reward_components"] = {k: R[:, base + j].copy() for j, k in enumerate(SHAPING_KEYS)}
        if any(e is not None for e in extras):  # the infos that came through the pipes
            infos.update(self._merge([e or {} for e in extras]))
        if self.autoreset_mode is AutoresetMode.DISABLED:
            self._done |= terms | truncs
        return self._obs.copy(), rewards, terms, truncs, infos

    def _check_steppable(self) -> None:
        """What a one-round step checks here besides the actions: not broken by a refused step,
        and (autoreset disabled) no table's episode ended, worded as `PoolVectorEnv._decode_all`."""
        if self._broken is not None:
            raise RuntimeError(self._broken)
        if self.autoreset_mode is AutoresetMode.DISABLED and self._done.any():
            raise RuntimeError(f"table {int(np.flatnonzero(self._done)[0])}: {FINISHED_EPISODE}")

    def _step_one_round(self) -> list:
        """A one-round step (module docstring; checked by `step` and `_check_steppable`): every
        worker checks, plans and runs its slice; the infos each worker sent through its pipe
        (None: none)."""
        for w in range(len(self._conns)):
            self._send(w, ("step", None))
        out, took, first_err = [], 0, None
        for w in range(len(self._conns)):
            try:
                out.append(self._gather([w])[0])
                took += 1
            except Exception as err:  # read every reply before raising
                out.append(None)
                first_err = first_err or err
        if first_err is not None:
            if took:
                self._broken = (f"a worker refused a step after others took it ({first_err}); its tables are "
                                f"one step behind: call reset() before the next step")
            raise first_err
        return out

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict:
        """The env as it stands: how it was made, every worker's `PoolVectorEnv` pickled (its
        tables' states and generators) and the last observations; unpickling starts new
        workers from them, so that a run pickled between two steps continues exactly (the
        experiments' exact checkpoints pickle their vector env)."""
        if not self._conns:
            raise RuntimeError("a closed ShardedVectorEnv cannot be pickled")
        return {"spec": self._spec, "blobs": self._send_all("pickle"), "started": self._started,
                "obs": self._obs.copy(), "done": self._done.copy(), "broken": self._broken}

    def __setstate__(self, state: dict) -> None:
        self._build(*state["spec"], blobs=state["blobs"])
        self._obs[...] = state["obs"]
        self._started = state["started"]
        self._done[:] = state.get("done", False)
        self._broken = state.get("broken")

    # ------------------------------------------------------------------ per-table access
    def _by_worker(self, indices) -> list:
        """[(worker, [local indices], [positions in ``indices``])] of global table ``indices``."""
        out = [(w, [], []) for w in range(len(self.bounds))]
        for pos, i in enumerate(indices):
            i = int(i)
            if not 0 <= i < self.num_envs:
                raise IndexError(f"table index {i} out of range for {self.num_envs} tables")
            for w, (lo, hi) in enumerate(self.bounds):
                if lo <= i < hi:
                    out[w][1].append(i - lo)
                    out[w][2].append(pos)
                    break
        return out

    def _tables(self, method: str, indices, *args) -> list:
        """``PoolVectorEnv.<method>(*args, local_indices)`` asked of the workers that hold the
        tables ``indices``, the answers in the order of ``indices``."""
        indices = list(indices)
        groups = [g for g in self._by_worker(indices) if g[1]]
        for w, local, _ in groups:
            self._send(w, ("call", (method, args + (local,))))
        replies = self._gather([w for w, _, _ in groups])
        out = [None] * len(indices)
        for (_, _, pos), vals in zip(groups, replies):
            for p, v in zip(pos, vals or [None] * len(pos)):
                out[p] = v
        return out

    def table_attrs(self, name: str, indices) -> list:
        """As `PoolVectorEnv.table_attrs` (global table indices)."""
        return self._tables("table_attrs", indices, name)

    def set_table_attrs(self, name: str, value, indices) -> None:
        """As `PoolVectorEnv.set_table_attrs`."""
        self._tables("set_table_attrs", indices, name, value)

    def call_tables(self, name: str, args, kwargs, indices) -> list:
        """As `PoolVectorEnv.call_tables`."""
        return self._tables("call_tables", indices, name, tuple(args), dict(kwargs or {}))

    def call_workers(self, name: str, *args) -> list:
        """``getattr(worker_env, name)(*args)`` of every worker's `PoolVectorEnv`, in order."""
        return self._send_all("call", [(name, args)] * len(self._conns))

    def action_masks(self) -> np.ndarray:
        """(num_envs, n_macro) legal macro actions (``action_mode="macro"``)."""
        return np.concatenate(self.call_workers("action_masks"))

    def render(self):
        if self.render_mode != "rgb_array":
            return None
        return tuple(f for frames in self.call_workers("render") for f in frames)

    def worker_stats(self) -> list:
        """[(`physics_io.Timer`, process CPU seconds)] of every worker (the benchmark's time
        split and CPU count)."""
        return self._send_all("stats")

    def close_extras(self, **kwargs):
        for w in range(len(getattr(self, "_conns", ()))):
            try:
                self._send(w, ("close", None))
                self._gather([w])
            except Exception:  # a worker already gone ends all the same
                pass
        for p in getattr(self, "_procs", ()):
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
        for c in getattr(self, "_conns", ()):
            c.close()
        self._conns, self._procs = [], []
        self._obs = self._act = self._res = None
        for shm in getattr(self, "_shms", ()):
            shm.close()
            try:
                shm.unlink()
            except FileNotFoundError:  # pragma: no cover - already removed
                pass
        self._shms = []
