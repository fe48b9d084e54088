"""Ray backend: tournament games as Ray tasks, training with RLlib PPO.

Ray is an optional dependency (``pip install "ray[rllib]"``, the ``ray`` extra); it is imported
lazily and a clear error names the install command when it is missing. `ray.init()` connects to
``RAY_ADDRESS`` when set (a cluster), else starts a local instance.

* `run_jobs_ray(play_job, cfg, jobs)`: one remote task per game; each game is a pure function of
  (config, pairing, game index), so results equal the local backend's.
* `train_rllib(cfg, out_dir, seed)`: RLlib PPO on the same registered Gymnasium id (single
  agent), ``training.total_timesteps`` env steps, checkpoint in ``out_dir/rllib``; the learning
  curve (episode return mean per iteration) in ``out_dir/learning_curve.csv``.
"""

from __future__ import annotations

import csv
import os

INSTALL_HINT = 'the ray backend needs Ray with RLlib: pip install "ray[rllib]" (or pip install "poolgym[ray]")'


def _ray():
    try:
        import ray
    except ImportError as e:
        raise ImportError(INSTALL_HINT) from e
    if not ray.is_initialized():
        ray.init(address=os.environ.get("RAY_ADDRESS"), include_dashboard=False, log_to_driver=False)
    return ray


def run_jobs_ray(play_job, cfg, jobs, progress: bool = False):
    """Yield the GameRecords of `jobs` [(i, j, g), ...] played as Ray tasks (in job order)."""
    ray = _ray()
    remote = ray.remote(play_job)
    cfg_ref = ray.put(cfg)
    refs = [remote.remote(cfg_ref, i, j, g) for (i, j, g) in jobs]
    for r in refs:
        yield ray.get(r)


def train_rllib(cfg, out_dir: str, seed: int) -> dict:
    """RLlib PPO on ``cfg.env.id`` for ``cfg.training.total_timesteps`` steps (see module doc)."""
    _ray()
    try:
        from ray.rllib.algorithms.ppo import PPOConfig
        from ray.tune.registry import register_env
    except ImportError as e:  # pragma: no cover - ray without rllib
        raise ImportError(INSTALL_HINT) from e
    import gymnasium

    import poolgym  # noqa: F401  (registers the ids)

    env_id, env_kwargs = cfg.env.id, dict(cfg.env.kwargs)
    register_env(env_id, lambda _ctx: gymnasium.make(env_id, **env_kwargs))
    t = cfg.training
    algo = (PPOConfig().environment(env_id).env_runners(num_env_runners=0)
            .training(train_batch_size=max(256, min(4000, t.total_timesteps // 4)))
            .debugging(seed=int(seed)).build())
    os.makedirs(out_dir, exist_ok=True)
    rows, steps = [], 0
    while steps < t.total_timesteps:
        res = algo.train()
        steps = int(res.get("num_env_steps_sampled_lifetime", res.get("timesteps_total", steps + 1)))
        ret = res.get("env_runners", {}).get("episode_return_mean", float("nan"))
        rows.append({"timesteps": steps, "train_mean_return": f"{ret:.6f}"})
    ckpt = algo.save(os.path.join(os.path.abspath(out_dir), "rllib"))
    with open(os.path.join(out_dir, "rllib_curve.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["timesteps", "train_mean_return"], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    algo.stop()
    return {"rllib_checkpoint": str(getattr(ckpt, "checkpoint", ckpt)), "timesteps": steps}
