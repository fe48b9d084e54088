"""Exact training checkpoints for Stable-Baselines3 and atomic file writes.

A checkpoint (`TrainingState`) holds everything the rest of a training run depends on, so that
a run restored from it continues exactly as the uninterrupted run would have (same weights,
same learning curve, bit for bit on the same machine and package versions):

* the model: SB3's zip (policy weights, optimizer states, counters ``num_timesteps`` and
  ``_n_updates``, the last observation and episode starts, the episode-info buffers, the
  learning-rate schedule);
* the off-policy replay buffer (SAC): its filled part, position and full flag;
* the environments: the whole vector env pickled (every table's game state, its RNG stream, the
  opponent's RNG, episode counters);
* the RNG states: torch's CPU generator, numpy's global generator (SB3 samples replay batches
  from it), Python's `random`, and the action space's generator (SAC's warm-up actions);
* the caller's own state (`extra`: the learning-curve rows and the callback's counters).

It is taken at the start of a rollout (`BaseCallback._on_rollout_start`): the previous
gradient update is finished and, on policy, the rollout buffer is empty, so nothing in flight
is lost. SB3's loader reseeds every generator (`_setup_model` calls `set_random_seed`), so the
saved states are put back after loading; the model is loaded with ``force_reset=False`` so that
training continues from the saved observation instead of resetting the envs.

Every file is written atomically (a temporary file in the same folder, then `os.replace`): a
kill leaves either the old file or the new one, never a torn one.
"""

from __future__ import annotations

import io
import os
import pickle
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: file name pattern of the exact checkpoints in a checkpoint folder
STATE_PREFIX, STATE_SUFFIX = "state_", ".pkl"


def atomic_write_bytes(path: str, data: bytes) -> None:
    """Write `data` to `path` atomically (temporary file + fsync + `os.replace`)."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def atomic_write_text(path: str, text: str) -> None:
    """`atomic_write_bytes` of UTF-8 text."""
    atomic_write_bytes(path, text.encode("utf-8"))


def save_model_atomic(model, path: str) -> None:
    """`model.save` into `path` (a .zip) atomically."""
    buf = io.BytesIO()
    model.save(buf)
    atomic_write_bytes(path, buf.getvalue())


@dataclass
class TrainingState:
    """One exact checkpoint (see module docstring); ``timesteps`` is the model's counter."""

    timesteps: int
    model_zip: bytes
    env: bytes
    rng: dict
    replay: dict | None = None
    extra: dict = field(default_factory=dict)


def _rng_states(model) -> dict:
    import torch

    return dict(torch=torch.get_rng_state(), numpy=np.random.get_state(), python=random.getstate(),
                action_space=pickle.dumps(model.action_space.np_random))


def _set_rng_states(model, s: dict) -> None:
    import torch

    torch.set_rng_state(s["torch"])
    np.random.set_state(s["numpy"])
    random.setstate(s["python"])
    model.action_space._np_random = pickle.loads(s["action_space"])


def _replay_state(buf) -> dict | None:
    """The filled part of an SB3 replay buffer (arrays sliced to the filled rows)."""
    if buf is None:
        return None
    n = buf.buffer_size if buf.full else buf.pos
    arrays = {k: np.array(v[:n]) for k, v in vars(buf).items()
              if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == buf.buffer_size}
    return dict(pos=int(buf.pos), full=bool(buf.full), n=int(n), arrays=arrays)


def _restore_replay(buf, s: dict | None) -> None:
    if s is None or buf is None:
        return
    for k, a in s["arrays"].items():
        getattr(buf, k)[: s["n"]] = a
    buf.pos, buf.full = s["pos"], s["full"]


def capture(model, extra: dict | None = None) -> TrainingState:
    """The exact state of `model` (with its env) now, plus the caller's `extra`."""
    buf = io.BytesIO()
    model.save(buf)
    return TrainingState(timesteps=int(model.num_timesteps), model_zip=buf.getvalue(),
                         env=pickle.dumps(model.get_env()), rng=_rng_states(model),
                         replay=_replay_state(getattr(model, "replay_buffer", None)), extra=dict(extra or {}))


def save_state(ckpt_dir: str, state: TrainingState) -> str:
    """Write `state` atomically as ``state_<timesteps>.pkl`` in `ckpt_dir`; returns the path."""
    path = os.path.join(ckpt_dir, f"{STATE_PREFIX}{state.timesteps}{STATE_SUFFIX}")
    atomic_write_bytes(path, pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    return path


def latest_state(ckpt_dir: str) -> str | None:
    """Path of the exact checkpoint with the most timesteps in `ckpt_dir` (None: none)."""
    if not os.path.isdir(ckpt_dir):
        return None
    best, steps = None, -1
    for f in os.listdir(ckpt_dir):
        if f.startswith(STATE_PREFIX) and f.endswith(STATE_SUFFIX):
            try:
                n = int(f[len(STATE_PREFIX): -len(STATE_SUFFIX)])
            except ValueError:
                continue
            if n > steps:
                best, steps = os.path.join(ckpt_dir, f), n
    return best


def restore(path: str, cls, **load_kwargs) -> tuple[Any, Any, dict]:
    """(model, vector env, extra) of the checkpoint at `path`; `cls` is the SB3 algorithm
    class, `load_kwargs` go to its ``load`` (e.g. ``tensorboard_log``)."""
    with open(path, "rb") as f:
        state: TrainingState = pickle.load(f)
    venv = pickle.loads(state.env)
    model = cls.load(io.BytesIO(state.model_zip), env=venv, force_reset=False, **load_kwargs)
    _restore_replay(getattr(model, "replay_buffer", None), state.replay)
    _set_rng_states(model, state.rng)
    return model, venv, state.extra


__all__ = ["TrainingState", "atomic_write_bytes", "atomic_write_text", "save_model_atomic", "capture", "save_state",
           "latest_state", "restore"]
