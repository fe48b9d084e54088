"""Ray backend: tournament games and evaluation episodes as Ray tasks, training with RLlib PPO.

Ray is an optional dependency (``pip install "ray[rllib]"``, the ``ray`` extra); it is imported
lazily and a clear error names the install command when it is missing. `ray.init()` connects to
``RAY_ADDRESS`` when set (a cluster), else starts a local instance; a caller that has already
called ``ray.init(...)`` (the tests: ``num_cpus=2``) keeps its instance. On a cluster every node
needs poolgym installed (the env creators and task functions are imported by module name).

* `run_jobs_ray(fn, cfg, jobs)`: one remote task ``fn(cfg, *job)`` per job, results in job
  order; `dispatcher(backend)` hands it to `agents.tournament.run_tournament` as ``run_jobs``
  (agents offer the plain functions, experiments choose where they run). Tournament games (`agents.tournament.play_job`) are pure functions of (config, pairing,
  game index), so a tournament gives the same games as with the local backend.
* `train_rllib(cfg, out_dir, seed)`: RLlib PPO (new API stack: RLModule + Learner, EnvRunner +
  ConnectorV2) for ``training.total_timesteps`` env steps.

  - single agent: the registered Gymnasium id ``env.id`` with ``env.kwargs`` (the native batched
    vector env, ``vector_entry_point``, unless ``training.vector = "sync"`` / ``"dummy"``);
  - multi agent (``training.multi_agent = true``): the PettingZoo AEC env of the discipline of
    ``env.id`` (`poolgym.pettingzoo`, every seat a learner) through RLlib's `PettingZooEnv`
    wrapper, with one policy shared by all seats (``training.policies = "shared"``) or one per
    seat (``"per_seat"``); ``env.kwargs`` minus ``opponent`` / ``opponent_kwargs``.

  ``training.hyperparams`` take the SB3 names of the local backend (mapped: ``learning_rate``
  -> ``lr``, ``n_steps`` x ``n_envs`` -> ``train_batch_size_per_learner``, ``batch_size`` ->
  ``minibatch_size``, ``n_epochs`` -> ``num_epochs``, ``gae_lambda`` -> ``lambda_``,
  ``clip_range`` -> ``clip_param``, ``ent_coef`` -> ``entropy_coeff``, ``vf_coef`` ->
  ``vf_loss_coeff``, ``max_grad_norm`` -> ``grad_clip``, ``policy_kwargs.net_arch`` ->
  ``fcnet_hiddens``, ``policy_kwargs.log_std_init`` -> the initial log-std bias of the policy
  head; the mean part of the head starts small as in SB3) on top of the tuned defaults of `agents.sb3`, or any keyword of RLlib's
  ``PPOConfig.training``; ``num_env_runners`` / ``num_learners`` (default 0: sampling and
  learning in the driver process) spread the work over the cluster.

  Writes ``out_dir/rllib/`` (the RLlib checkpoint, rewritten every
  ``training.checkpoint_every`` steps; a rerun resumes from it), ``out_dir/learning_curve.csv``
  (same columns as the local backend: every ``training.eval_every`` steps the greedy policy on
  ``training.eval_episodes`` seeded episodes, and RLlib's smoothed training episode return) and
  ``out_dir/rllib_run.json`` (steps done, policy ids).
* `evaluate_rllib(cfg, out_dir)`: the ``[evaluation]`` stage: the trained policy (greedy
  unless ``evaluation.deterministic = false``) on ``evaluation.episodes`` positions, episode k
  reset with seed ``evaluation.seed + k``, played as Ray tasks of `EVAL_CHUNK` episodes. A
  multi-agent policy (the shared one, or seat 0's) is evaluated in the single-agent env
  ``env.id`` against its built-in opponent (``env.kwargs.opponent``, default geometric), so the
  success rate is a win rate against that opponent.

Reproducibility: with the defaults (``num_env_runners = 0``, ``num_learners = 0``) the whole
training runs in the driver with ``PPOConfig.debugging(seed=...)`` seeding Python, NumPy and
torch and the env runner seeding its envs, and reruns give identical learning curves on the same
machine and package versions (checked by the tests). With remote env runners each runner seeds
its envs from the seed and its index, but RLlib does not promise a fixed order of the collected
episodes, so numbers may differ between runs. Evaluations are deterministic per episode seed
whatever the scheduling of their tasks.
"""

from __future__ import annotations

import csv
import json
import os

from experiments.config import MULTI_AGENT_IDS, ConfigError

INSTALL_HINT = 'the ray backend needs Ray with RLlib: pip install "ray[rllib]" (or pip install "poolgym[ray]")'

#: SB3 hyperparameter names -> RLlib PPOConfig.training keywords
SB3_TO_RLLIB = {"learning_rate": "lr", "batch_size": "minibatch_size", "n_epochs": "num_epochs", "gamma": "gamma",
                "gae_lambda": "lambda_", "clip_range": "clip_param", "ent_coef": "entropy_coeff",
                "vf_coef": "vf_loss_coeff", "max_grad_norm": "grad_clip"}
#: episodes per Ray task in `evaluate_rllib`
EVAL_CHUNK = 25
#: first reset seed of the learning-curve evaluations (as `agents.sb3.train`)
CURVE_EVAL_SEED = 1_000_000
CURVE_FIELDS = ["timesteps", "eval_success_rate", "eval_mean_return", "train_mean_return"]


def _ray():
    try:
        import ray
    except ImportError as e:
        raise ImportError(INSTALL_HINT) from e
    if not ray.is_initialized():
        ray.init(address=os.environ.get("RAY_ADDRESS"), include_dashboard=False, log_to_driver=False)
    return ray


def run_jobs_ray(fn, cfg, jobs, progress: bool = False):
    """Yield ``fn(cfg, *job)`` for each job of `jobs` (tuples), run as Ray tasks, in job order."""
    ray = _ray()
    remote = ray.remote(fn)
    cfg_ref = ray.put(cfg)
    refs = [remote.remote(cfg_ref, *job) for job in jobs]
    for r in refs:
        yield ray.get(r)


def dispatcher(backend: str):
    """The job dispatcher of `backend` for `agents.tournament.run_tournament`'s ``run_jobs``:
    `run_jobs_ray` for 'ray', None (the local processes) for 'local'."""
    if backend not in ("local", "ray"):
        raise ValueError(f"backend: expected 'local' or 'ray', got {backend!r}")
    return run_jobs_ray if backend == "ray" else None


# ----------------------------------------------------------------------------- config checks
def check_config(cfg) -> None:
    """Raise `experiments.config.ConfigError` for a config the ray backend cannot run."""
    t = cfg.training
    if t is None:
        return
    if t.algo != "ppo":
        raise ConfigError(f"training.algo: the ray backend trains RLlib PPO only, got {t.algo!r} "
                          "(use algo = \"ppo\" or --backend local)")
    if cfg.env.kwargs.get("action_mode", "box") != "box":
        raise ConfigError("env.kwargs.action_mode: the ray backend trains on continuous actions "
                          f"(action_mode = \"box\"), got {cfg.env.kwargs['action_mode']!r}")
    if t.mean_init_scale is not None:
        raise ConfigError("training.mean_init_scale: an SB3 policy's initialisation; not offered by the ray backend "
                          "(use --backend local)")
    if t.multi_agent:
        multi_agent_spec(cfg)
        for bad in ("learner_seat", "runout"):
            if bad in cfg.env.kwargs:
                raise ConfigError(f"env.kwargs.{bad}: not an option of multi-agent training "
                                  "(every seat is a learner)")
    bad = sorted(set(t.hyperparams) - set(SB3_TO_RLLIB) - {"n_steps", "policy_kwargs", "num_env_runners",
                                                           "num_learners"} - _ppo_training_keys())
    if bad:
        raise ConfigError(f"training.hyperparams: unknown for the ray backend: {bad}; use the SB3 names "
                          f"{sorted(SB3_TO_RLLIB) + ['n_steps', 'policy_kwargs']}, num_env_runners, "
                          "num_learners or keywords of RLlib's PPOConfig.training")
    pk = t.hyperparams.get("policy_kwargs", {})
    if not isinstance(pk, dict) or set(pk) - {"net_arch", "log_std_init"}:
        raise ConfigError("training.hyperparams.policy_kwargs: the ray backend maps only net_arch and "
                          f"log_std_init, got {pk!r}")


def _ppo_training_keys() -> set:
    try:
        import inspect

        from ray.rllib.algorithms.ppo import PPOConfig
    except ImportError:  # checked again (with the install hint) when training starts
        return set()
    return set(inspect.signature(PPOConfig.training).parameters) - {"self", "kwargs"}


# ----------------------------------------------------------------------------- env creators
class SingleAgentCreator:
    """RLlib env creator of a registered id (a class so that it pickles by reference).

    Called with ``num_envs`` in the context (RLlib's ``vector_entry_point`` mode) it returns the
    native batched vector env; otherwise one env."""

    def __init__(self, env_id: str, kwargs: dict):
        self.env_id, self.kwargs = env_id, dict(kwargs)

    def __call__(self, ctx):
        import gymnasium

        import poolgym  # noqa: F401  (registers the ids in this process)

        n = ctx.get("num_envs") if hasattr(ctx, "get") else None
        if n is not None:
            # one process per env runner: RLlib spreads the runners over the cores itself
            return gymnasium.make_vec(self.env_id, num_envs=int(n), vectorization_mode="vector_entry_point",
                                      **{"num_workers": 1, **self.kwargs})
        return gymnasium.make(self.env_id, **self.kwargs)


class MultiAgentCreator:
    """RLlib env creator: the PettingZoo AEC env of a discipline in RLlib's `PettingZooEnv`."""

    def __init__(self, discipline: str, kwargs: dict):
        self.discipline, self.kwargs = discipline, dict(kwargs)

    def __call__(self, ctx):
        from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

        from poolgym.pettingzoo import env

        return PettingZooEnv(env(self.discipline, **self.kwargs))


def shared_policy(agent_id, episode=None, **kwargs):
    """Policy mapping of ``training.policies = "shared"``."""
    return "shared"


def seat_policy(agent_id, episode=None, **kwargs):
    """Policy mapping of ``training.policies = "per_seat"`` (the policy id is the agent id)."""
    return agent_id


def multi_agent_spec(cfg) -> tuple[str, dict]:
    """(discipline, PettingZoo env kwargs) of a multi-agent config."""
    try:
        disc = MULTI_AGENT_IDS[cfg.env.id]
    except KeyError:
        raise ConfigError(f"training.multi_agent: env.id must be one of {sorted(MULTI_AGENT_IDS)} (a discipline "
                          f"with a PettingZoo env), got {cfg.env.id!r}") from None
    kw = {k: v for k, v in cfg.env.kwargs.items() if k not in ("opponent", "opponent_kwargs")}
    return disc, kw


def policy_ids(cfg) -> list[str]:
    """RLlib module ids trained by `cfg` (the first one is the evaluated policy)."""
    t = cfg.training
    if not t.multi_agent:
        return ["default_policy"]
    if t.policies == "shared":
        return ["shared"]
    import gymnasium

    import poolgym  # noqa: F401

    e = gymnasium.make(cfg.env.id, **{k: v for k, v in cfg.env.kwargs.items()
                                      if k not in ("opponent", "opponent_kwargs")})
    n = e.unwrapped.config.n_players
    e.close()
    return [f"player_{k}" for k in range(n)]


# ----------------------------------------------------------------------------- training
def rllib_settings(cfg) -> dict:
    """PPOConfig pieces from the config: {"training": kwargs, "model": model_config,
    "rollout_fragment_length", "num_envs", "num_env_runners", "num_learners", "log_std_init"}."""
    from agents.sb3 import default_hyperparams

    t = cfg.training
    hp = default_hyperparams("ppo", cfg.env.id)
    hp.update(t.hyperparams)
    n_envs = int(t.n_envs)
    n_steps = int(hp.pop("n_steps", 256))
    train = {"train_batch_size_per_learner": n_steps * n_envs}
    model = {}
    pk = hp.pop("policy_kwargs", {}) or {}
    if "net_arch" in pk:
        model["fcnet_hiddens"] = list(pk["net_arch"])
    log_std = pk.get("log_std_init")
    out = {"num_env_runners": int(hp.pop("num_env_runners", 0)), "num_learners": int(hp.pop("num_learners", 0))}
    for k, v in hp.items():
        train[SB3_TO_RLLIB.get(k, k)] = v
    train["minibatch_size"] = min(int(train.get("minibatch_size", 128)), train["train_batch_size_per_learner"])
    out.update(training=train, model=model, rollout_fragment_length=n_steps, num_envs=n_envs,
               log_std_init=None if log_std is None else float(log_std))
    return out


def build_algo(cfg, seed: int):
    """The RLlib PPO `Algorithm` of `cfg` (single or multi agent), seeded with `seed`."""
    _ray()
    try:
        from ray.rllib.algorithms.ppo import PPOConfig
        from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
        from ray.rllib.core.rl_module.rl_module import RLModuleSpec
        from ray.tune.registry import register_env
    except ImportError as e:  # pragma: no cover - ray without rllib
        raise ImportError(INSTALL_HINT) from e
    check_config(cfg)
    t = cfg.training
    s = rllib_settings(cfg)
    pc = PPOConfig()
    if t.multi_agent:
        disc, kw = multi_agent_spec(cfg)
        name = f"poolgym-rllib-ma-{disc}"
        register_env(name, MultiAgentCreator(disc, kw))
        pids = policy_ids(cfg)
        pc = pc.environment(name).env_runners(num_envs_per_env_runner=s["num_envs"], gym_env_vectorize_mode="sync")
        pc = pc.multi_agent(policies=list(pids), policy_mapping_fn=shared_policy if t.policies == "shared"
                            else seat_policy)
        pc = pc.rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={p: RLModuleSpec(model_config=dict(s["model"])) for p in pids}))
    else:
        name = f"poolgym-rllib-{cfg.env.id}"
        register_env(name, SingleAgentCreator(cfg.env.id, cfg.env.kwargs))
        mode = "vector_entry_point" if t.vector in ("auto", "native") else "sync"
        pc = pc.environment(name).env_runners(num_envs_per_env_runner=s["num_envs"], gym_env_vectorize_mode=mode)
        if s["model"]:
            pc = pc.rl_module(model_config=dict(s["model"]))
    pc = (pc.env_runners(num_env_runners=s["num_env_runners"], rollout_fragment_length="auto")
          .learners(num_learners=s["num_learners"])
          .training(**s["training"])
          .reporting(metrics_num_episodes_for_smoothing=max(1, int(t.eval_episodes)))
          .debugging(seed=int(seed), log_level="ERROR"))
    algo = pc.build_algo()
    _init_policy_head(algo, s["log_std_init"])
    return algo


def _init_policy_head(algo, log_std: float | None) -> None:
    """Initialise the Gaussian policy heads as SB3 does: the mean half of the last ``pi`` layer
    scaled to 1% (SB3: orthogonal init with gain 0.01 for the action net, so the untrained
    policy shoots near the centre of the action box) with zero bias, and the log-std half of the
    bias set to ``log_std`` (SB3's ``policy_kwargs.log_std_init``; RLlib's default 0 when None);
    then broadcast the weights to the env runners."""
    import numpy as np

    weights = algo.learner_group.get_weights()  # {module id: {name: NumPy array}}
    for pid, w in weights.items():
        layers = sorted({k.rsplit(".", 1)[0] for k in w if k.startswith("pi.") and k.endswith(".bias")},
                        key=lambda k: [int(p) for p in k.split(".") if p.isdigit()])
        if not layers:  # pragma: no cover - not a default PPO module
            continue
        W, b = np.array(w[layers[-1] + ".weight"], copy=True), np.array(w[layers[-1] + ".bias"], copy=True)
        n = b.shape[0] // 2  # (means, log-stds) of the action dimensions
        W[:n] *= 0.01
        b[:n] = 0.0
        if log_std is not None:
            b[n:] = float(log_std)
        w[layers[-1] + ".weight"], w[layers[-1] + ".bias"] = W, b
    algo.learner_group.set_weights(weights)
    algo.env_runner_group.sync_weights(from_worker_or_learner_group=algo.learner_group, inference_only=True)


def _module_actions(module, obs, space, deterministic: bool):
    import numpy as np
    import torch
    from ray.rllib.utils.spaces.space_utils import unsquash_action

    with torch.no_grad():
        out = module.forward_inference({"obs": torch.as_tensor(np.asarray(obs, np.float32)[None])})
        dist = module.get_inference_action_dist_cls().from_logits(out["action_dist_inputs"])
        if deterministic:
            dist = dist.to_deterministic()
        a = dist.sample()[0].numpy()
    return unsquash_action(a, space)  # the env runner's normalize_actions=True


def policy_returns(module, env_id: str, env_kwargs: dict, seeds, deterministic: bool = True) -> list[float]:
    """Returns of `module` (an RLModule) on the single-agent env `env_id`, one episode per reset
    seed of `seeds` (stochastic actions are seeded by the episode seed too)."""
    import gymnasium
    import torch

    import poolgym  # noqa: F401

    env = gymnasium.make(env_id, **env_kwargs)
    out = []
    try:
        for s in seeds:
            torch.manual_seed(int(s))
            obs, _ = env.reset(seed=int(s))
            ret, done = 0.0, False
            while not done:
                obs, r, term, trunc, _ = env.step(_module_actions(module, obs, env.action_space, deterministic))
                ret += float(r)
                done = term or trunc
            out.append(ret)
    finally:
        env.close()
    return out


def _eval_env_kwargs(cfg) -> dict:
    """Single-agent env kwargs for evaluating a (possibly multi-agent) policy on ``env.id``."""
    return dict(cfg.env.kwargs)


def _read_curve(path: str, done_steps: int) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [r for r in csv.DictReader(f) if int(r["timesteps"]) <= done_steps]


def _write_curve(path: str, rows: list[dict]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CURVE_FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def _train_return(res: dict, cfg) -> float:
    er = res.get("env_runners", {})
    if cfg.training.multi_agent:  # the episode return summed over seats is ~0 in a zero-sum game
        per_agent = er.get("agent_episode_returns_mean", er.get("agent_episode_return_mean", {}))
        v = per_agent.get("player_0", float("nan"))
    else:
        v = er.get("episode_return_mean", float("nan"))
    return float(v)


def train_rllib(cfg, out_dir: str, seed: int, progress: bool = False) -> dict:
    """RLlib PPO on ``cfg.env.id`` for ``cfg.training.total_timesteps`` env steps (see module doc)."""
    import numpy as np

    t = cfg.training
    os.makedirs(out_dir, exist_ok=True)
    ckpt = os.path.join(os.path.abspath(out_dir), "rllib")
    state_path = os.path.join(out_dir, "rllib_run.json")
    curve_path = os.path.join(out_dir, "learning_curve.csv")
    import torch

    torch.set_num_threads(int(cfg.experiment.torch_threads))  # the driver's learner, as the local backend
    pids = policy_ids(cfg)
    algo = build_algo(cfg, seed)
    try:
        steps = 0
        if os.path.exists(state_path) and os.path.isdir(ckpt):
            with open(state_path) as f:
                steps = int(json.load(f)["timesteps"])
            algo.restore_from_path(ckpt)
        rows = _read_curve(curve_path, steps)
        next_eval = (steps // t.eval_every + 1) * t.eval_every
        next_ckpt = (steps // t.checkpoint_every + 1) * t.checkpoint_every
        eval_kw = _eval_env_kwargs(cfg)
        seeds = range(CURVE_EVAL_SEED, CURVE_EVAL_SEED + int(t.eval_episodes))

        def save():
            algo.save_to_path(ckpt)
            with open(state_path, "w") as f:
                json.dump({"timesteps": steps, "policies": pids, "seed": int(seed)}, f, indent=1, sort_keys=True)

        while steps < t.total_timesteps:
            res = algo.train()
            steps += int(res.get("env_runners", {}).get("num_env_steps_sampled", 0)) or 1
            if steps >= next_eval or steps >= t.total_timesteps:
                r = np.array(policy_returns(algo.get_module(pids[0]), cfg.env.id, eval_kw, seeds))
                rows.append({"timesteps": steps, "eval_success_rate": f"{float((r > 0).mean()):.6f}",
                             "eval_mean_return": f"{float(r.mean()):.6f}",
                             "train_mean_return": f"{_train_return(res, cfg):.6f}"})
                _write_curve(curve_path, rows)
                next_eval = (steps // t.eval_every + 1) * t.eval_every
            if steps >= next_ckpt:
                save()
                next_ckpt = (steps // t.checkpoint_every + 1) * t.checkpoint_every
            if progress:
                print(f"[poolgym] rllib: {steps}/{t.total_timesteps} env steps", flush=True)
        save()
        _write_curve(curve_path, rows)
    finally:
        algo.stop()
    return {"rllib_checkpoint": os.path.relpath(ckpt, os.path.dirname(os.path.abspath(out_dir))),
            "timesteps": steps, "policies": pids}


# ----------------------------------------------------------------------------- evaluation
def module_path(train_dir: str, pid: str) -> str:
    """Path of the RLModule `pid` inside the checkpoint of `train_rllib`."""
    return os.path.join(os.path.abspath(train_dir), "rllib", "learner_group", "learner", "rl_module", pid)


def eval_job(spec: dict, start: int, count: int) -> list[float]:
    """Ray task of `evaluate_rllib`: episodes ``start .. start+count-1`` (reset seeds
    ``spec["seed"] + k``) of the checkpointed module ``spec["module"]``."""
    import torch
    from ray.rllib.core.rl_module.rl_module import RLModule

    torch.set_num_threads(1)
    module = RLModule.from_checkpoint(spec["module"])
    seeds = range(spec["seed"] + start, spec["seed"] + start + count)
    return policy_returns(module, spec["env_id"], spec["env_kwargs"], seeds, spec["deterministic"])


def evaluate_rllib(cfg, train_dir: str) -> dict:
    """The ``[evaluation]`` stage for an RLlib-trained policy (see module doc): a dict with
    episodes, mean_return, success_rate (as `agents.sb3.EvalResult`), env, policy."""
    import numpy as np

    ev = cfg.evaluation
    pid = policy_ids(cfg)[0]
    spec = {"module": module_path(train_dir, pid), "env_id": cfg.env.id, "env_kwargs": _eval_env_kwargs(cfg),
            "seed": int(ev.seed), "deterministic": bool(ev.deterministic)}
    if not os.path.isdir(spec["module"]):
        raise FileNotFoundError(f"no RLlib policy at {spec['module']}: run the train stage with --backend ray")
    jobs = [(s, min(EVAL_CHUNK, ev.episodes - s)) for s in range(0, ev.episodes, EVAL_CHUNK)]
    r = np.array([x for part in run_jobs_ray(eval_job, spec, jobs) for x in part])
    return {"episodes": int(len(r)), "mean_return": float(r.mean()), "success_rate": float((r > 0).mean()),
            "env": cfg.env.id, "policy": pid, "backend": "ray"}
