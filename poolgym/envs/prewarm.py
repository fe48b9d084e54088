"""A cold start compiled on two cores: the referee's and the opponent's kernels in a second
process while this one compiles the physics.

The first step of a fresh installation compiles every numba kernel it reaches: the physics
table loop and cue strike (about 14 CPU s), the rules' reset, shot-fact and rail kernels and
the geometric opponent's batched decision (about 13 CPU s). Numba compiles under a per-process
lock, so a process uses one core for all of it. When an env is created and numba's on-disk
cache holds no physics table loop (`physics.compile_cache.is_cold`), :func:`start` launches
one child process (``python -m poolgym.envs.prewarm``) and, given the env's physics models,
compiles in this process at once the table loop and the stroke (`physics.compile_cache.warm_up`),
the discipline's batched referee (`DisciplineBase.compile_batch`, e.g. nine-ball's
`poolgym.rules.nine_ball_batch`) and the referee's rail facts, then waits for the child
(:func:`wait`). The child compiles the
parts of the physics this process reaches last (`physics.compile_cache.compile_loop_parts`,
`compile_input_check`), then plays the first steps of the same discipline against the same
opponent with the physics replaced by a stand-in (:func:`still_batch`: the stroke and one
contact are logged, nothing moves; its shots ruled table by table), so it compiles the
referee's and opponent's kernels. They
land in the on-disk cache, from where this process loads each one it reaches after the child
wrote it; any other it compiles itself, as without the child. The split keeps both processes
busy for about the same time.

What the env computes never depends on the child: it only fills the cache with the code this
process would compile (numba writes each entry whole, with a rename). The child prints nothing,
is started at most once per process and one at a time per machine and cache (a lock file held
while it runs: worker processes that start at once do not each start one), not at all when
the cache is warm or ``POOLGYM_PREWARM=0``, exits when done (seconds), and is ended with this
process (and ends itself if this process dies first). A child that fails costs nothing but its
CPU time.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading

import numpy as np

__all__ = ["ENV_VAR", "WAIT_S", "child", "start", "still_batch", "wait"]

#: ``0`` disables the child (set in the child itself, so it starts no other)
ENV_VAR = "POOLGYM_PREWARM"
#: the longest :func:`wait` for the child (seconds; it needs about 15 CPU s)
WAIT_S = 120.0

_checked = False  # start() decided once per process
_child: subprocess.Popen | None = None
_lock = threading.Lock()


def child() -> subprocess.Popen | None:
    """The child this process started, or None."""
    return _child


def _cold() -> bool:
    from physics import compile_cache

    return compile_cache.is_cold()


def _lock_file():
    """An open file exclusively locked (``flock``) for the child's lifetime, or None when another
    process holds it (its child runs); ``False`` where locks are not available (no limit)."""
    try:
        import fcntl
    except ImportError:  # not POSIX
        return False
    from physics import cache_stamp

    key = hashlib.sha256(f"{cache_stamp.project_hash()}|{os.environ.get('NUMBA_CACHE_DIR', '')}".encode())
    path = os.path.join(tempfile.gettempdir(), f"poolgym-prewarm-{key.hexdigest()[:16]}.lock")
    try:
        f = open(path, "a")
    except OSError:
        return False
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        return None
    return f


def start(discipline, opponent="geometric", opponent_kwargs=None, models=None) -> subprocess.Popen | None:
    """Start the compiling child for an env of ``discipline`` against ``opponent`` (as given to
    `PoolEnv`; an opponent that is not a name: the geometric one) on the first call of this
    process, if numba's cache is cold; returns it, or None (later calls: always None). With
    ``models`` (the env's `poolgym.envs.physics_io.PhysicsModels`) and a child started, this
    process then compiles the physics table loop of those models at once
    (`physics.compile_cache.warm_up`), while the child compiles the rest."""
    global _checked, _child
    with _lock:
        if _checked:
            return None
        _checked = True
        if os.environ.get(ENV_VAR, "1") == "0" or not isinstance(discipline, str) or not _cold():
            return None
        spec = {"discipline": discipline, "opponent": "geometric"}
        if isinstance(opponent, str):
            spec.update(opponent=opponent, opponent_kwargs=opponent_kwargs)
        try:
            arg = json.dumps(spec)
        except (TypeError, ValueError):  # keyword arguments that do not cross as text
            arg = json.dumps(dict(spec, opponent_kwargs=None))
        lock = _lock_file()
        if lock is None:
            return None
        try:  # the child inherits the locked file: the lock is held until it exits
            proc = subprocess.Popen([sys.executable, "-m", "poolgym.envs.prewarm", arg, str(os.getpid())],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, env=dict(os.environ, **{ENV_VAR: "0"}),
                                    pass_fds=(lock.fileno(),) if lock else ())
        except OSError:
            return None
        finally:
            if lock:
                lock.close()
        atexit.register(_stop, proc)
        _child = proc
    if models is not None:
        from physics import compile_cache

        compile_cache.warm_up(models.ball_ball, models.cushion)
        _compile_batch_referee(discipline)
        _compile_rail_facts()
        wait()
    return proc


def _rail_facts_signature() -> tuple:
    """The argument types of the referee's `poolgym.rules.rails.rail_facts` call."""
    from numba import types

    f, i = types.float64, types.int64
    return (types.Array(f, 2, "A"), i, i, f, f, f, f, f, types.boolean, f[::1], i[::1], i[::1],
            types.int8[::1], types.int16[::1], types.int16[::1], f[::1], i)


def _compile_batch_referee(discipline: str) -> None:
    """Compile (or load) the kernel of ``discipline``'s batched referee
    (`DisciplineBase.compile_batch`), which the child leaves to this process (it rules its
    shots table by table)."""
    from poolgym.rules.game import get_discipline

    try:
        disc = get_discipline(discipline)
    except KeyError:
        return
    disc.compile_batch()


def _compile_rail_facts() -> None:
    """Compile (or load) `poolgym.rules.rails.rail_facts` for the referee's call: the last
    kernel the child reaches, taken over by this process while the child compiles the
    opponent's. Compiled without running; were the signature stale, it would cost only this time."""
    from poolgym.rules import rails

    rails.rail_facts.compile(_rail_facts_signature())


def wait(timeout: float = WAIT_S) -> None:
    """Wait until the child this process started has exited (at most ``timeout`` s): what
    this process would compile meanwhile, the child is compiling, so it then loads it."""
    if _child is not None:
        try:
            _child.wait(timeout)
        except subprocess.TimeoutExpired:
            pass


def _stop(proc: subprocess.Popen) -> None:
    """End the child (its pid only) if it still runs when this process exits."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()


def still_batch(table, rvw, shots, cue_ball, *, s=None, max_events=2000, **_ignored):
    """A stand-in for `physics.simulate_batch`: every table's stroke is logged (STRIKE of its
    cue ball at t = 0), then a contact of the cue ball with the nearest ball on the table
    (BALL_BALL at t = 0.01 s, so the referee's contact and rail facts are computed too), and
    nothing moves; arrays of the physics' types and shapes."""
    from physics.enums import EventKind
    from physics.simulate import BatchResult, _outputs

    rvw = np.array(rvw, np.float64)
    B, N = rvw.shape[:2]
    s = np.zeros((B, N), np.int8) if s is None else np.array(s, np.int8).reshape(B, N)
    cue_ball = np.asarray(cue_ball, np.int64)
    pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status = _outputs(B, N, max_events)
    pocket[:] = -1
    ev_kind[:, 0] = int(EventKind.STRIKE)
    ev_i[:, 0] = cue_ball
    ev_j[:, 0] = -1
    n_events[:] = 1
    on = (s == 0) | (s == 2)  # on the bed (stationary, or struck)
    for k in range(B if max_events > 1 else 0):
        c = int(cue_ball[k])
        d = np.hypot(*(rvw[k, :, 0, :2] - rvw[k, c, 0, :2]).T)
        d[c] = np.inf
        d[~on[k]] = np.inf
        j = int(np.argmin(d))
        if np.isfinite(d[j]):
            ev_t[k, 1], ev_kind[k, 1], ev_i[k, 1], ev_j[k, 1] = 0.01, int(EventKind.BALL_BALL), c, j
            n_events[k] = 2
    return BatchResult(rvw.copy(), s.copy(), rvw, s, pocket, ev_t, ev_kind, ev_i, ev_j, n_events, status,
                       np.array(shots, np.float64).reshape(B, 5), cue_ball)


def _watch_parent(ppid: int) -> None:
    """End this process as soon as its parent is gone (no orphan compiling on)."""
    import time

    while True:
        if os.getppid() != ppid:
            os._exit(0)
        time.sleep(0.2)


def _warm(spec: dict, steps: int = 3) -> None:
    """Compile the physics' input check and cue strike (the parent reaches them a few seconds
    in, after its reset), then play ``steps`` learner steps of the env ``spec`` with
    `still_batch` as the physics."""
    import physics
    from physics import compile_cache
    from poolgym.envs.pool_env import PoolEnv
    from poolgym.rules.game import DisciplineBase

    kw = {"opponent": spec.get("opponent", "geometric")}
    if spec.get("opponent_kwargs"):
        kw["opponent_kwargs"] = spec["opponent_kwargs"]
    env = PoolEnv(spec["discipline"], **kw)
    compile_cache.compile_loop_parts()  # callees that the parent's table loop reaches late
    compile_cache.compile_input_check()  # the parent compiles the rest of the stroke's kernel
    physics.simulate_batch = still_batch  # this process only: it computes nothing for anyone
    # the batched referee's kernel is the parent's (`_compile_batch_referee`): here the shots are
    # ruled table by table, which compiles the referee's other kernels
    type(env.disc).adjudicate_batch = DisciplineBase.adjudicate_batch
    env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(steps):
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            env.reset()


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    spec, ppid = json.loads(argv[0]), int(argv[1])
    threading.Thread(target=_watch_parent, args=(ppid,), daemon=True).start()
    _warm(spec)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
