"""Stable-Baselines3 glue: PPO, SAC and MaskablePPO training with tuned defaults, evaluation on
seeded positions, and `SB3Agent`, which makes a trained policy an `Agent`.

Training (`train`) runs on the native batched SB3 vector env (`poolgym.envs.sb3.NativeSB3VecEnv`,
one `physics.simulate_batch` call per round of shots), writes TensorBoard logs under
``<out>/tb``, saves checkpoints ``<out>/checkpoints/model_<steps>.zip`` every
`checkpoint_every` steps and ``<out>/model.zip`` at the end, and records a learning curve
(`eval_every` steps: success rate and mean return of the deterministic policy on
`eval_episodes` seeded positions that are disjoint from the test seeds).

Reproducibility: SB3's `seed`, seeded tables, `torch.set_num_threads(1)` and deterministic
evaluation make a rerun give identical numbers on the same machine and library versions.

Default hyperparameters (`DEFAULTS`) per (algorithm, env id) were tuned on this code base for
short CPU budgets; ``hyperparams`` overrides any of them. MaskablePPO uses the env's discrete
macro actions (``action_mode="macro"``, `action_masks()`).

`SB3Agent` plays any discipline: it encodes the seat's observation with the env's public codec
(`poolgym.envs.codec.Codec`) and decodes the policy output into rules actions. A policy trained
on the one-ball pot drill (``poolgym/PotDrill-v0``) is used in full games as a *shot maker*: for
the shot, it sees the cue ball and the object ball the geometric player would choose (as a pot
drill position), and its stroke is played with that ball called; placements, options, breaks
and safeties are the geometric player's.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.base import Observation
from agents.geometric import GeometricAgent
from agents.view import Decision, shot_call, view_of

ALGOS = ("ppo", "sac", "maskable_ppo")

#: Tuned defaults: (algo, env id) -> kwargs of the SB3 constructor; "*" = any env.
DEFAULTS: dict[tuple[str, str], dict] = {
    ("ppo", "poolgym/PotDrill-v0"): dict(
        n_steps=256, batch_size=512, n_epochs=10, learning_rate=1e-3, gamma=0.0, gae_lambda=1.0,
        ent_coef=0.0, clip_range=0.2, policy_kwargs=dict(net_arch=[128, 128], log_std_init=-1.0)),
    ("maskable_ppo", "poolgym/PotDrill-v0"): dict(
        n_steps=128, batch_size=256, n_epochs=10, learning_rate=1e-3, gamma=0.0, gae_lambda=1.0,
        ent_coef=0.0, policy_kwargs=dict(net_arch=[128, 128])),
    ("sac", "poolgym/PotDrill-v0"): dict(
        learning_rate=1e-3, buffer_size=200_000, learning_starts=2000, batch_size=256, gamma=0.0,
        train_freq=1, gradient_steps=1, policy_kwargs=dict(net_arch=[128, 128])),
    ("ppo", "*"): dict(n_steps=256, batch_size=256, n_epochs=10, learning_rate=3e-4, gamma=0.99,
                       gae_lambda=0.95, ent_coef=0.0, policy_kwargs=dict(net_arch=[256, 256])),
    ("maskable_ppo", "*"): dict(n_steps=256, batch_size=256, n_epochs=10, learning_rate=3e-4, gamma=0.99,
                                gae_lambda=0.95, policy_kwargs=dict(net_arch=[256, 256])),
    ("sac", "*"): dict(learning_rate=3e-4, buffer_size=300_000, learning_starts=5000, batch_size=256,
                       gamma=0.99, policy_kwargs=dict(net_arch=[256, 256])),
}


def default_hyperparams(algo: str, env_id: str) -> dict:
    """The tuned defaults for `algo` on `env_id` (a copy)."""
    if algo not in ALGOS:
        raise ValueError(f"algo: expected one of {ALGOS}, got {algo!r}")
    import copy

    return copy.deepcopy(DEFAULTS.get((algo, env_id), DEFAULTS[(algo, "*")]))


def mean_layer(model):
    """The linear layer of ``model``'s policy that outputs the mean action (SAC: ``actor.mu``;
    PPO and MaskablePPO: ``policy.action_net``)."""
    actor = getattr(model, "actor", None)
    if actor is not None and hasattr(actor, "mu"):
        return actor.mu
    return model.policy.action_net


def scale_mean_layer(model, scale: float) -> None:
    """Scale the weights of `mean_layer` by ``scale`` and zero its bias (in place)."""
    import torch

    layer = mean_layer(model)
    with torch.no_grad():
        layer.weight.mul_(float(scale))
        if layer.bias is not None:
            layer.bias.zero_()


def init_sac_log_std(model, value: float) -> None:
    """A SAC actor's state-dependent log standard deviation started at ``value`` everywhere:
    the weights of its ``actor.log_std`` layer zeroed and its bias set to ``value`` (in place;
    SAC's default layer starts near 0, a standard deviation of 1 before the tanh, so that its
    first actions are spread over the whole Box)."""
    import torch

    layer = getattr(getattr(model, "actor", None), "log_std", None)
    if not isinstance(layer, torch.nn.Linear):
        raise ValueError("log_std_init applies to a SAC actor with a state-dependent log_std layer")
    with torch.no_grad():
        layer.weight.zero_()
        layer.bias.fill_(float(value))


def algo_class(algo: str):
    """The SB3 / sb3-contrib class of ``algo``."""
    if algo == "ppo":
        from stable_baselines3 import PPO

        return PPO
    if algo == "sac":
        from stable_baselines3 import SAC

        return SAC
    if algo == "maskable_ppo":
        from sb3_contrib import MaskablePPO

        return MaskablePPO
    raise ValueError(f"algo: expected one of {ALGOS}, got {algo!r}")


def make_vec_env(env_id: str, n_envs: int, seed: int, env_kwargs: dict | None = None, algo: str = "ppo",
                 num_workers: int = 1):
    """Native batched SB3 VecEnv of `env_id` (macro actions for MaskablePPO); ``num_workers`` > 1:
    its tables sharded over that many processes (`poolgym.envs.sb3.NativeSB3VecEnv`)."""
    from poolgym.envs.sb3 import NativeSB3VecEnv

    kw = dict(env_kwargs or {})
    if algo == "maskable_ppo":
        kw.setdefault("action_mode", "macro")
    if str(kw.get("opponent", "")).startswith("agent:"):  # e.g. opponent = "agent:search"
        from agents.opponent import register_env_opponents

        register_env_opponents()
    return NativeSB3VecEnv(env_id, num_envs=int(n_envs), seed=int(seed), num_workers=int(num_workers), **kw)


@dataclass
class EvalResult:
    """Deterministic-policy evaluation on seeded positions."""

    episodes: int
    mean_return: float
    success_rate: float  # fraction of episodes with a positive return (PotDrill: pocketed)

    def as_dict(self) -> dict:
        return dict(episodes=self.episodes, mean_return=self.mean_return, success_rate=self.success_rate)


def evaluate(model, env_id: str, episodes: int, seed: int, env_kwargs: dict | None = None,
             algo: str = "ppo", n_envs: int = 100, deterministic: bool = True) -> EvalResult:
    """Play `episodes` episodes from seeded positions (table i of the batch seeded seed + i; later
    episodes continue each table's stream) and report the mean return and the success rate."""
    n_envs = int(min(n_envs, episodes))
    venv = make_vec_env(env_id, n_envs, seed, env_kwargs, algo)
    try:
        obs = venv.reset()
        returns: list[float] = []
        ep_ret = np.zeros(n_envs)
        quota = [episodes // n_envs + (1 if i < episodes % n_envs else 0) for i in range(n_envs)]
        counts = [0] * n_envs
        while len(returns) < episodes:
            if algo == "maskable_ppo":
                masks = np.stack(venv.env_method("action_masks")) if False else venv.action_masks()
                act, _ = model.predict(obs, deterministic=deterministic, action_masks=masks)
            else:
                act, _ = model.predict(obs, deterministic=deterministic)
            obs, rew, done, _ = venv.step(act)
            ep_ret += rew
            for i in np.flatnonzero(done):
                if counts[i] < quota[i]:
                    returns.append(float(ep_ret[i]))
                    counts[i] += 1
                ep_ret[i] = 0.0
    finally:
        venv.close()
    r = np.array(returns[:episodes])
    return EvalResult(len(r), float(r.mean()) if len(r) else 0.0, float((r > 0).mean()) if len(r) else 0.0)


def train(env_id: str, algo: str = "ppo", total_timesteps: int = 20_000, seed: int = 0, out_dir: str = "runs/train",
          n_envs: int = 8, hyperparams: dict | None = None, env_kwargs: dict | None = None,
          checkpoint_every: int = 10_000, eval_every: int = 5_000, eval_episodes: int = 50,
          eval_seed: int = 1_000_000, progress: bool = False, resume: bool = True,
          torch_threads: int = 1, tensorboard: bool = True, num_workers: int = 1,
          mean_init_scale: float | None = None, log_std_init: float | None = None) -> dict:
    """Train `algo` on `env_id`; returns {"model": path, "curve": rows, "timesteps": n}.
    ``num_workers`` > 1: the training tables run in that many processes (`make_vec_env`; the
    same trajectories, and the exact checkpoints hold them as well). ``mean_init_scale``: the
    initial weights of the layer that outputs the policy's mean action (`mean_layer`) scaled by
    it and its bias zeroed, so that a fresh policy's mean is near the zero action (in the
    parameterised modes, the prior's pick with no correction: the geometric pot); PPO's own
    initialisation does this with gain 0.01, SAC's does not. ``log_std_init`` (SAC): the
    initial log standard deviation of its exploration (`init_sac_log_std`; PPO has its own
    ``policy_kwargs["log_std_init"]``).

    The learning curve is written to ``<out_dir>/learning_curve.csv`` (timesteps, eval success
    rate, eval mean return, training episode mean return). Every `checkpoint_every` steps (at
    the start of the next rollout) and at the end an exact checkpoint ``checkpoints/state_<steps>.pkl``
    (`agents.checkpoint`: weights, optimizer, RNG states, envs, replay buffer, the curve so
    far) and the plain model ``checkpoints/model_<steps>.zip`` are written. If `resume` and an
    exact checkpoint exists, training continues from the latest one and ends with the same
    model and curve as an uninterrupted run. Every file is written atomically.
    """
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    from agents.checkpoint import atomic_write_text, capture, latest_state, restore, save_model_atomic, save_state

    torch.set_num_threads(int(torch_threads))
    os.makedirs(out_dir, exist_ok=True)
    ckpt_dir = os.path.join(out_dir, "checkpoints")
    os.makedirs(ckpt_dir, exist_ok=True)
    curve_path = os.path.join(out_dir, "learning_curve.csv")
    cls = algo_class(algo)
    hp = default_hyperparams(algo, env_id)
    hp.update(hyperparams or {})
    tb = os.path.join(out_dir, "tb") if tensorboard else None
    if tb is not None:
        try:
            import tensorboard  # noqa: F401
        except ImportError:  # pragma: no cover - optional
            tb = None
    state_path = latest_state(ckpt_dir) if resume else None
    if state_path is not None:
        model, venv, extra = restore(state_path, cls, tensorboard_log=tb)
        rows: list[dict] = extra["rows"]
        done_steps = int(model.num_timesteps)
    else:
        venv = make_vec_env(env_id, n_envs, seed, env_kwargs, algo, num_workers)
        model = cls("MlpPolicy", venv, seed=int(seed), verbose=0, tensorboard_log=tb, **hp)
        if mean_init_scale is not None:
            scale_mean_layer(model, mean_init_scale)
        if log_std_init is not None:
            init_sac_log_std(model, log_std_init)
        rows, extra, done_steps = [], {}, 0

    def write_curve():
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=["timesteps", "eval_success_rate", "eval_mean_return",
                                            "train_mean_return"], lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)
        atomic_write_text(curve_path, buf.getvalue())

    class Curve(BaseCallback):
        """Learning-curve points at fixed timestep marks; exact checkpoints at the first rollout
        start past each `checkpoint_every` mark."""

        def __init__(self):
            super().__init__()
            self.next_eval = extra.get("next_eval", (done_steps // eval_every + 1) * eval_every)
            self.next_ckpt = (done_steps // checkpoint_every + 1) * checkpoint_every
            self.ep_returns: list[float] = list(extra.get("ep_returns", []))
            self.acc = np.array(extra.get("acc", np.zeros(n_envs)), dtype=float)

        def _on_rollout_start(self) -> None:
            n = self.num_timesteps
            if n >= self.next_ckpt:
                save_state(ckpt_dir, capture(self.model, dict(rows=list(rows), next_eval=self.next_eval,
                                                              ep_returns=list(self.ep_returns),
                                                              acc=self.acc.copy())))
                save_model_atomic(self.model, os.path.join(ckpt_dir, f"model_{n}.zip"))
                self.next_ckpt = (n // checkpoint_every + 1) * checkpoint_every

        def _on_step(self) -> bool:
            rew = self.locals.get("rewards")
            dones = self.locals.get("dones")
            if rew is not None and dones is not None:
                self.acc += np.asarray(rew, float)
                for i in np.flatnonzero(dones):
                    self.ep_returns.append(float(self.acc[i]))
                    self.acc[i] = 0.0
            n = self.num_timesteps
            if n >= self.next_eval:
                ev = evaluate(self.model, env_id, eval_episodes, eval_seed, env_kwargs, algo)
                tr = float(np.mean(self.ep_returns)) if self.ep_returns else 0.0
                self.ep_returns = []
                rows.append(dict(timesteps=n, eval_success_rate=f"{ev.success_rate:.6f}",
                                 eval_mean_return=f"{ev.mean_return:.6f}", train_mean_return=f"{tr:.6f}"))
                self.logger.record("eval/success_rate", ev.success_rate)
                write_curve()
                self.next_eval += eval_every
            return True

    remaining = max(int(total_timesteps) - done_steps, 0)
    if remaining > 0:
        cb = Curve()
        model.learn(total_timesteps=remaining, callback=cb, progress_bar=bool(progress),
                    reset_num_timesteps=state_path is None, tb_log_name=algo)
        n = int(model.num_timesteps)  # the final state: a rerun after a kill from here trains no more
        save_state(ckpt_dir, capture(model, dict(rows=list(rows), next_eval=cb.next_eval,
                                                 ep_returns=list(cb.ep_returns), acc=cb.acc.copy())))
        save_model_atomic(model, os.path.join(ckpt_dir, f"model_{n}.zip"))
    path = os.path.join(out_dir, "model.zip")
    save_model_atomic(model, path)
    write_curve()
    venv.close()
    return dict(model=path, curve=rows, timesteps=int(model.num_timesteps))


def load(path: str, algo: str = "ppo"):
    """Load a saved model (no env attached)."""
    return algo_class(algo).load(path, device="cpu")


class SB3Agent(GeometricAgent):
    """A trained SB3 policy as an `Agent` (see module docstring).

    Args:
        seed: RNG seed (used by the geometric fallbacks).
        model: a path to a saved model (.zip) or a loaded SB3 model.
        algo: 'ppo', 'sac' or 'maskable_ppo' (how to load `model` from a path).
        env_id: the id the policy was trained on (decides the encoding: the pot drill's
            two-ball layout, or the full discipline).
        env_kwargs: kwargs the training env had (phi_mode, action_mode).
        deterministic: use the policy's mean / mode action.
    """

    name = "sb3"

    def __init__(self, seed: int | None = None, model: Any = None, algo: str = "ppo",
                 env_id: str = "poolgym/PotDrill-v0", env_kwargs: dict | None = None,
                 deterministic: bool = True, noise="icga"):
        super().__init__(seed=seed, noise=noise)
        if model is None:
            raise ValueError("model: SB3Agent needs a trained model (a path or an SB3 model)")
        self.model = load(model, algo) if isinstance(model, (str, os.PathLike)) else model
        self.algo = algo
        self.env_id = env_id
        self.env_kwargs = dict(env_kwargs or {})
        self.deterministic = bool(deterministic)
        self._codecs: dict = {}
        #: trained on the flat parameterised actions (`poolgym.envs.param`): decoded by the codec's
        #: `ParamCodec` (``param_dict`` is not an SB3 space)
        self._param = self.env_kwargs.get("action_mode") == "param"

    def _codec(self, discipline: str, n_players: int, table):
        """The codec of the env the policy was trained on (``env_id`` with ``env_kwargs`` and
        this game's seat count and table): the same observation (seat block, score block)
        and action layout, built by that env itself."""
        key = (discipline, n_players, id(table))
        c = self._codecs.get(key)
        if c is None and discipline == "pot_drill" and not self._param:
            from poolgym.envs.codec import Codec

            c = self._codecs[key] = Codec(2, 1, table, phi_mode=self.env_kwargs.get("phi_mode", "relative"),
                                          max_shots=1)
        if c is None:
            import gymnasium as gym

            import poolgym  # noqa: F401 - registers the ids

            kw = dict(self.env_kwargs, opponent=None, players=n_players)
            env = gym.make(self.env_id, **kw).unwrapped
            if env.disc.name != discipline or env.codec.table.w != table.w or env.codec.table.l != table.l:
                raise ValueError(f"SB3Agent trained on {self.env_id} ({env.disc.name}) cannot play {discipline!r} "
                                 "on this table")
            c = env.codec
            env.close()
            self._codecs[key] = c
        return c

    def _predict(self, o: np.ndarray, mask=None):
        if self.algo == "maskable_ppo":
            a, _ = self.model.predict(o, deterministic=self.deterministic, action_masks=mask)
        else:
            a, _ = self.model.predict(o, deterministic=self.deterministic)
        return a

    def act(self, obs: Observation):
        v = view_of(obs)
        drill = self.env_id.endswith("PotDrill-v0")
        if drill:
            if v.decision is not Decision.SHOOT or v.is_break or v.is_lag or v.options:
                return super().act(obs)
            return self._drill_shot(obs, v)
        return self._full_policy(obs)

    def _full_policy(self, obs: Observation):
        state, spec = obs.state, obs.spec
        c = self._codec(obs.discipline, state.n_players, obs.table)
        secret = state.private[obs.seat] if state.private else None  # the seat's own (the view holds no other)
        o = c.encode(state, spec, obs.seat, state.shot_number, secret=secret)
        if self.algo == "maskable_ppo":
            mask = c.macro_mask(state, spec)
            acts = c.decode_macro(int(self._predict(o, mask)), state, spec)
        elif self._param:
            acts = c.candidates.decode_box(np.clip(self._predict(o), -1.0, 1.0), state, spec)
        else:
            acts = c.decode_box(self._predict(o), state, spec)
        return acts[0]

    def _drill_shot(self, obs: Observation, v):
        """Pot-drill policy as the shot maker: cue ball + the geometric player's chosen ball."""
        from poolgym.envs.drills import PotDrill
        from poolgym.rules.core import ShotAction

        cands = self.candidates(v)
        if not cands or cands[0].p_make < self.min_p:
            return super().act(obs)
        best = cands[0]
        drill = _pot_drill()
        st = drill.initial_state(drill.default_config(), 0)
        st = st.replace(pos=(float(v.balls[0][0]), float(v.balls[0][1]),
                             float(v.balls[best.ball][0]), float(v.balls[best.ball][1])),
                        on_table=(True, True))
        spec = drill.legal_actions(st)
        c = self._codec("pot_drill", 1, obs.table)
        o = c.encode(st, spec, 0)
        pocket = best.pocket
        if self.algo == "maskable_ppo":
            acts = c.decode_macro(int(self._predict(o, c.macro_mask(st, spec))), st, spec)
        elif self._param:  # the policy picks the pocket too: call the one it plays
            u = np.clip(self._predict(o), -1.0, 1.0)
            k = c.candidates.choose(u, st, spec)
            acts = c.candidates.decode(k, c.candidates.split(u)[1], st, spec)
            if c.candidates.choices[k].pocket >= 0:
                pocket = c.candidates.choices[k].pocket
        else:
            acts = c.decode_box(self._predict(o), st, spec)
        shot = [a for a in acts if isinstance(a, ShotAction)][0]
        call_b, call_p = shot_call(v, best.ball, pocket)
        _ = PotDrill
        return ShotAction(V0=shot.V0, phi=shot.phi, theta=shot.theta, a=shot.a, b=shot.b,
                          called_ball=call_b, called_pocket=call_p)


_DRILL = None


def _pot_drill():
    global _DRILL
    if _DRILL is None:
        from poolgym.envs.drills import PotDrill

        _DRILL = PotDrill()
    return _DRILL
