"""Exact training checkpoints (agents.checkpoint): training resumed from a mid-run checkpoint
ends with the same weights and the same learning curve as the uninterrupted run."""
import os
import zipfile

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")  # the sb3 extra
pytest.importorskip("sb3_contrib")

from agents.checkpoint import atomic_write_text, latest_state
from agents.sb3 import load, train

CASES = [
    ("ppo", "poolgym/PotDrill-v0", dict(n_steps=8, batch_size=16, n_epochs=2), {"noise": "icga"}),
    ("sac", "poolgym/PotDrill-v0", dict(learning_starts=12, batch_size=8, buffer_size=500), {"noise": "icga"}),
    ("maskable_ppo", "poolgym/NineBall-v0", dict(n_steps=8, batch_size=16, n_epochs=1), {"max_shots": 6}),
]


def _weights(path, algo):
    m = load(path, algo)
    return {k: v.detach().numpy().copy() for k, v in m.policy.state_dict().items()}


@pytest.mark.parametrize("algo, env_id, hp, env_kwargs", CASES, ids=[c[0] for c in CASES])
def test_resume_from_mid_run_checkpoint_is_exact(tmp_path, algo, env_id, hp, env_kwargs):
    kw = dict(seed=3, n_envs=4, hyperparams=hp, env_kwargs=env_kwargs, checkpoint_every=32, eval_every=24,
              eval_episodes=4, tensorboard=False)
    full = train(env_id, algo, 96, out_dir=str(tmp_path / "full"), **kw)
    cut = tmp_path / "cut"
    train(env_id, algo, 96, out_dir=str(cut), **kw)
    # a kill after the first checkpoint: later checkpoints, the final model and curve rows gone
    ckpts = cut / "checkpoints"
    states = sorted(ckpts.glob("state_*.pkl"), key=lambda p: int(p.stem[6:]))
    assert len(states) >= 2
    for p in states[1:]:
        p.unlink()
    os.remove(cut / "model.zip")
    atomic_write_text(str(cut / "learning_curve.csv"), "timesteps,garbage\n1,")
    assert latest_state(str(ckpts)) == str(states[0])
    resumed = train(env_id, algo, 96, out_dir=str(cut), **kw)
    assert resumed["timesteps"] == full["timesteps"]
    assert (cut / "learning_curve.csv").read_bytes() == (tmp_path / "full" / "learning_curve.csv").read_bytes()
    assert len(full["curve"]) >= 3
    a, b = _weights(full["model"], algo), _weights(resumed["model"], algo)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    with zipfile.ZipFile(full["model"]) as za, zipfile.ZipFile(resumed["model"]) as zb:
        for name in ("policy.optimizer.pth",) if "ppo" in algo else ("actor.optimizer.pth", "critic.optimizer.pth"):
            assert za.read(name) == zb.read(name), name


def test_atomic_write_leaves_no_temporary_file(tmp_path):
    p = tmp_path / "d" / "x.csv"
    atomic_write_text(str(p), "a\n")
    atomic_write_text(str(p), "b\n")
    assert p.read_text() == "b\n" and os.listdir(p.parent) == ["x.csv"]


def test_training_on_worker_processes_is_the_same_run_and_resumes_exactly(tmp_path):
    """``num_workers=2``: the training tables sharded over two processes give the same weights
    and learning curve as one process, and a run cut after its first exact checkpoint (which
    pickles the sharded env with its tables' states) resumes to the same end."""
    env_id, algo = "poolgym/NineBall-v0", "ppo"
    kw = dict(seed=5, n_envs=4, hyperparams=dict(n_steps=8, batch_size=16, n_epochs=1), env_kwargs={"max_shots": 6},
              checkpoint_every=32, eval_every=48, eval_episodes=4, tensorboard=False)
    one = train(env_id, algo, 96, out_dir=str(tmp_path / "one"), **kw)
    two = train(env_id, algo, 96, out_dir=str(tmp_path / "two"), num_workers=2, **kw)
    assert (tmp_path / "one" / "learning_curve.csv").read_bytes() == (tmp_path / "two" / "learning_curve.csv").read_bytes()
    a, b = _weights(one["model"], algo), _weights(two["model"], algo)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    states = sorted((tmp_path / "two" / "checkpoints").glob("state_*.pkl"), key=lambda p: int(p.stem[6:]))
    assert len(states) >= 2
    for p in states[1:]:
        p.unlink()
    os.remove(tmp_path / "two" / "model.zip")
    resumed = train(env_id, algo, 96, out_dir=str(tmp_path / "two"), num_workers=2, **kw)
    assert resumed["timesteps"] == one["timesteps"]
    assert (tmp_path / "two" / "learning_curve.csv").read_bytes() == (tmp_path / "one" / "learning_curve.csv").read_bytes()
    c = _weights(resumed["model"], algo)
    assert all(np.array_equal(a[k], c[k]) for k in a)
