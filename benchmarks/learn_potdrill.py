"""PPO and SAC on the pot drill's parameterised actions, against the geometric agent on the same seeds.

    python benchmarks/learn_potdrill.py [--algos ppo,sac] [--steps-ppo N] [--steps-sac N] [--draws 16]
                                        [--episodes 1000] [--seed 0] [--out runs/learn_potdrill]
                                        [--aim ghost|window] [--choice-prior 1.0] [--torch-threads T]
                                        [--mean-init S] [--log-std-init L] [--hyperparams JSON]

Trains each algorithm on ``poolgym/PotDrill-v0`` with ``action_mode="param"`` (one flat Box:
the (ball, pocket) choice scores, then the corrections around the ghost-ball shot,
`poolgym.envs.param`) under ICGA execution noise, on the native batched env
(`agents.sb3.train`; `TORCH_THREADS` torch threads: PPO 1, SAC 2; SAC starts as its
prior, `INIT`), then evaluates the deterministic policies, the
geometric agent, the random agent and the untrained policy on the SAME ``--episodes`` seeded
positions (`agents.drill_eval.drill_rates`, seeds 10_000_000 + i, disjoint from the training
tables and the learning-curve seeds) and prints each success rate with its Wilson 95%
interval, the training wall and CPU seconds, and the learner's margin over geometric measured
in this run. ``--draws D`` (default 16) plays every test position D times under different noise draws
(the same for every player) and reports each player's expected success on the positions
with a 95% interval over positions, and the learners' paired differences to geometric and to
the untrained policy: one draw per position leaves a paired interval of about +-0.02, as wide
as the differences measured. ``--trained DIR`` evaluates saved models instead of training.
``--json`` writes the figures. The learning curves are in
``<out>/<algo>/learning_curve.csv``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

#: tuned on this code base for a ~10 minute budget on 2 cores (one-step episodes: gamma 0)
HYPERPARAMS = {
    "ppo": dict(n_steps=32, batch_size=512, n_epochs=10, learning_rate=1e-3, gamma=0.0, gae_lambda=1.0,
                ent_coef=0.0, clip_range=0.2, policy_kwargs=dict(net_arch=[128, 128], log_std_init=-2.0)),
    "sac": dict(learning_rate=3e-4, buffer_size=400_000, learning_starts=64, batch_size=512, gamma=0.0,
                train_freq=1, gradient_steps=2, ent_coef="auto_0.001", target_entropy=-66.0,
                policy_kwargs=dict(net_arch=[256, 256])),
}
# SAC starts as its prior: near-zero mean corrections (the prior's pick, uncorrected) and narrow
# exploration (std e^-2); from SB3's default init its first updates push the speed correction to
# saturation and it ends below the geometric agent (README, SAC on the pot drill).
INIT = {"ppo": dict(mean_init_scale=None, log_std_init=None),
        "sac": dict(mean_init_scale=0.01, log_std_init=-2.0)}
N_ENVS = {"ppo": 64, "sac": 64}
#: torch threads of training: SAC's gradient steps are most of its time (two threads: 400k steps
#: in 451 s wall on 2 cores, the same result as one thread's 723 s); PPO's is the env's
TORCH_THREADS = {"ppo": 1, "sac": 2}
ENV_ID = "poolgym/PotDrill-v0"
ENV_KWARGS = dict(action_mode="param", noise="icga")
TEST_SEED0 = 10_000_000


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--algos", default="ppo,sac")
    ap.add_argument("--steps-ppo", type=int, default=800_000)
    ap.add_argument("--steps-sac", type=int, default=400_000)
    ap.add_argument("--episodes", type=int, default=1000, help="test positions (the same for every player)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-every", type=int, default=100_000)
    ap.add_argument("--out", default="runs/learn_potdrill")
    ap.add_argument("--json", default=None)
    ap.add_argument("--draws", type=int, default=16,
                    help="noise draws per test position: above 1, every player's expected success on the positions "
                         "is reported with a paired interval (agents.drill_eval.expected_rate); 1: one episode per "
                         "position with Wilson intervals (a paired interval of about +-0.02)")
    ap.add_argument("--trained", default=None,
                    help="evaluate the models saved in this directory (<dir>/<algo>/model.zip) instead of training")
    ap.add_argument("--aim", default="ghost", choices=("ghost", "window"),
                    help="the param mode's pot aim (PoolEnv param_aim): the ghost-ball aim, or the centre of the "
                         "stroke's pocketing window found by a noise-free simulated sweep (an aim assist)")
    ap.add_argument("--hyperparams", default=None, metavar="JSON",
                    help='overrides of HYPERPARAMS per algorithm, e.g. \'{"sac": {"learning_rate": 3e-4}}\'')
    ap.add_argument("--mean-init", type=float, default=None,
                    help="scale of the initial weights of the policy's mean-action layer (agents.sb3.train "
                         "mean_init_scale; e.g. 0.01: a fresh policy plays the prior's pick uncorrected; default per "
                         "algorithm, INIT: SAC 0.01, PPO SB3's own)")
    ap.add_argument("--log-std-init", type=float, default=None,
                    help="SAC: the initial log standard deviation of its exploration (agents.sb3.train log_std_init; default -2)")
    ap.add_argument("--torch-threads", type=int, default=None,
                    help="torch threads of the training's gradient steps (default per algorithm, TORCH_THREADS: "
                         "PPO 1, SAC 2; the evaluation uses 1)")
    ap.add_argument("--choice-prior", type=float, default=1.0,
                    help="PoolEnv choice_prior: the weight of the make-probability prior added to the choice "
                         "scores (above 1, a score in [-1, 1] overrides the prior's pick only between pots of "
                         "close make probabilities)")
    args = ap.parse_args(argv)
    hyper = {k: dict(v) for k, v in HYPERPARAMS.items()}
    for algo, over in (json.loads(args.hyperparams) if args.hyperparams else {}).items():
        hyper[algo].update(over)
    init = {k: dict(v) for k, v in INIT.items()}
    for algo in init:
        if args.mean_init is not None:
            init[algo]["mean_init_scale"] = args.mean_init
        if args.log_std_init is not None and algo == "sac":
            init[algo]["log_std_init"] = args.log_std_init
    env_kwargs = dict(ENV_KWARGS, param_aim=args.aim)
    if args.choice_prior != 1.0:
        env_kwargs["choice_prior"] = args.choice_prior

    import torch

    import agents
    from agents import sb3
    from agents.drill_eval import (agent_player, drill_returns, expected_rate, paired_difference,
                                   paired_expected_difference, policy_player, rate_of)

    torch.set_num_threads(1)
    seeds = range(TEST_SEED0, TEST_SEED0 + args.episodes)
    steps = {"ppo": args.steps_ppo, "sac": args.steps_sac}
    players, timing = {}, {}
    for algo in [a for a in args.algos.split(",") if a]:
        if args.trained:
            players[algo] = policy_player(sb3.load(os.path.join(args.trained, algo, "model.zip"), algo))
            timing[algo] = None
            continue
        out = os.path.join(args.out, algo)
        t0, c0, load0 = time.perf_counter(), time.process_time(), os.getloadavg()[0]
        res = sb3.train(ENV_ID, algo, steps[algo], seed=args.seed, out_dir=out, n_envs=N_ENVS[algo],
                        hyperparams=hyper[algo], env_kwargs=env_kwargs, eval_every=min(args.eval_every, steps[algo]),
                        eval_episodes=200, checkpoint_every=10**9, resume=False, tensorboard=False,
                        torch_threads=args.torch_threads or TORCH_THREADS[algo], **init[algo])
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        timing[algo] = dict(steps=res["timesteps"], wall_s=wall, cpu_s=cpu, steps_per_cpu_s=res["timesteps"] / cpu,
                            load_avg=(load0, os.getloadavg()[0]))
        players[algo] = policy_player(sb3.load(res["model"], algo))
        print(f"{algo}: trained {res['timesteps']} steps in {wall:.0f} s wall, {cpu:.0f} s CPU of this process "
              f"({res['timesteps'] / cpu:.0f} steps per CPU second; load average {load0:.1f} -> "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", flush=True)
    from stable_baselines3 import PPO

    from poolgym.envs.sb3 import NativeSB3VecEnv

    venv = NativeSB3VecEnv(ENV_ID, num_envs=1, seed=args.seed, **env_kwargs)
    torch.set_num_threads(1)
    players["untrained"] = policy_player(PPO("MlpPolicy", venv, seed=args.seed, **HYPERPARAMS["ppo"]))
    venv.close()
    players["geometric"] = agent_player(agents.make("geometric", noise="icga"))
    players["random"] = agent_player(agents.make("random"))
    t0 = time.perf_counter()
    returns = drill_returns(players, ENV_ID, seeds, env_kwargs, draws=args.draws)
    seconds = time.perf_counter() - t0
    expected = args.draws > 1
    rates = {k: (expected_rate(v) if expected else rate_of(v)) for k, v in returns.items()}
    print(f"\n{ENV_ID}, ICGA noise, {args.episodes} test positions (seeds {TEST_SEED0}..)"
          f"{f' x {args.draws} noise draws each' if expected else ''}, evaluated in {seconds:.0f} s")
    print(f"{'player':10s} {'expected success' if expected else 'success':>16s}  "
          f"{'95% over positions' if expected else 'Wilson 95%'}")
    for name, r in rates.items():
        print(f"{name:10s} {r.rate:16.3f}  [{r.lo:.3f}, {r.hi:.3f}]")
    paired = {}
    for algo in timing:
        r, g = rates[algo], rates["geometric"]
        if expected:  # per-position expected successes, paired over positions
            d, lo, hi = paired_expected_difference(returns[algo], returns["geometric"])
            du, lou, hiu = paired_expected_difference(returns[algo], returns["untrained"])
            paired[algo] = dict(diff=d, lo=lo, hi=hi, vs_untrained=dict(diff=du, lo=lou, hi=hiu))
            more = f"{algo} - untrained: {du:+.3f} [{lou:+.3f}, {hiu:+.3f}]"
        else:  # one episode per position: McNemar's discordant positions
            d, lo, hi, a_only, g_only = paired_difference(returns[algo], returns["geometric"])
            paired[algo] = dict(diff=d, lo=lo, hi=hi, learner_only=a_only, geometric_only=g_only)
            more = (f"positions only {algo} made: {a_only}, only geometric: {g_only}; Wilson intervals apart: "
                    f"{r.lo > g.hi}")
        print(f"{algo} - geometric: {d:+.3f} paired 95% [{lo:+.3f}, {hi:+.3f}]; {more}; >= 0.85: {r.rate >= 0.85}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(rates={k: v.as_dict() for k, v in rates.items()}, paired=paired, timing=timing,
                           episodes=args.episodes, draws=args.draws, hyperparams=hyper, init=init, env_kwargs=env_kwargs),
                      f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
