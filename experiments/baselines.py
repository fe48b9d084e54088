"""The trained policy against its baselines on the same seeded positions: figures, table, picture.

``[evaluation] baselines = ["untrained", "random", "geometric", "search"]`` makes the evaluate
stage play, besides the trained policy, each named baseline on the SAME
``baseline_episodes`` positions of the experiment's env (seeds ``evaluation.seed`` + i, one
fresh episode each, `agents.drill_eval.drill_rates`) and write ``baselines.json``: per player
the successes (positive returns), the rate with its Wilson 95% interval and the mean return.

* ``untrained``: the training algorithm's policy with the training hyperparameters, seed and
  initialisation (``mean_init_scale``, ``log_std_init``), before any step (what the learning
  starts from);
* ``random``, ``geometric``, ``search``: the agents of `agents.make` (random legal decisions;
  the geometric player; the sampling search agent), acting through the env's typed actions.

The report (`report_lines`) prints them as a table and `plot` draws one picture: the learning
curve (evaluation success rate against timesteps) with each baseline's rate and interval as a
band, and the final rates with their intervals as bars.
"""

from __future__ import annotations

import csv
import json
import os

#: the baselines a config may name, in report order
BASELINES = ("untrained", "random", "geometric", "search")


def evaluate_baselines(cfg, model_path: str, train_seed: int) -> dict:
    """The trained policy (``model_path``) and ``cfg.evaluation.baselines`` on the same positions."""
    import agents
    from agents import sb3
    from agents.drill_eval import agent_player, drill_rates, policy_player

    ev = cfg.evaluation
    algo = cfg.training.algo
    kw = dict(cfg.env.kwargs)
    if algo == "maskable_ppo":
        kw.setdefault("action_mode", "macro")
    masked = algo == "maskable_ppo"
    players = {"trained": policy_player(sb3.load(model_path, algo), ev.deterministic, masked)}
    for name in ev.baselines:
        if name == "untrained":
            venv = sb3.make_vec_env(cfg.env.id, cfg.training.n_envs, train_seed, kw, algo)
            hp = sb3.default_hyperparams(algo, cfg.env.id)
            hp.update(cfg.training.hyperparams)
            model = sb3.algo_class(algo)("MlpPolicy", venv, seed=int(train_seed), **hp)
            if cfg.training.mean_init_scale is not None:  # the start `agents.sb3.train` gives it
                sb3.scale_mean_layer(model, cfg.training.mean_init_scale)
            if cfg.training.log_std_init is not None:
                sb3.init_sac_log_std(model, cfg.training.log_std_init)
            venv.close()
            players[name] = policy_player(model, ev.deterministic, masked)
        else:
            players[name] = agent_player(agents.make(name))
    seeds = range(int(ev.seed), int(ev.seed) + int(ev.baseline_episodes))
    rates = drill_rates(players, cfg.env.id, seeds, kw)
    return {"env": cfg.env.id, "episodes": int(ev.baseline_episodes), "seed": int(ev.seed),
            "players": {k: r.as_dict() for k, r in rates.items()}}


def _order(d: dict) -> list:
    """The players of ``baselines.json`` in report order: trained, then `BASELINES`' order."""
    return [n for n in ("trained",) + BASELINES if n in d["players"]]


def write(path: str, d: dict) -> None:
    from agents.checkpoint import atomic_write_text

    atomic_write_text(path, json.dumps(d, indent=1, sort_keys=True) + "\n")


def metric_rows(d: dict) -> list:
    """(section, metric, value) rows of ``baselines.json`` for ``metrics.csv``."""
    rows = [("baselines", "episodes", str(d["episodes"]))]
    for name, r in d["players"].items():
        rows += [("baselines", f"{name}.successes", str(r["successes"])),
                 ("baselines", f"{name}.rate", f"{r['rate']:.6f}"),
                 ("baselines", f"{name}.wilson95_lo", f"{r['lo']:.6f}"),
                 ("baselines", f"{name}.wilson95_hi", f"{r['hi']:.6f}"),
                 ("baselines", f"{name}.mean_return", f"{r['mean_return']:.6f}")]
    return rows


def report_lines(d: dict, picture: str | None) -> list:
    """Markdown: the table of the trained policy and its baselines, and the picture."""
    lines = ["## Trained policy against its baselines", "",
             f"`{d['env']}`, the same {d['episodes']} seeded positions for every player (seeds {d['seed']} ..); "
             "success = a positive return; Wilson 95% intervals.", "",
             "| player | successes | success rate (Wilson 95%) | mean return |", "|---|---|---|---|"]
    for name in _order(d):
        r = d["players"][name]
        lines.append(f"| {name} | {r['successes']}/{r['episodes']} | {r['rate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}] | "
                     f"{r['mean_return']:.3f} |")
    lines.append("")
    if picture:
        lines += [f"![trained policy against its baselines]({picture})", ""]
    return lines


def plot(d: dict, curve_csv: str | None, png: str) -> None:
    """Learning curve with the baselines as bands (left), final rates with intervals (right)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    players = {n: d["players"][n] for n in _order(d)}
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [3, 2]})
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    rows = []
    if curve_csv and os.path.exists(curve_csv):
        with open(curve_csv) as f:
            rows = list(csv.DictReader(f))
    if rows:
        ax.plot([int(r["timesteps"]) for r in rows], [float(r["eval_success_rate"]) for r in rows], "o-",
                color=colors[0], label="trained (learning curve)")
    for k, (name, r) in enumerate((n, r) for n, r in players.items() if n != "trained"):
        c = colors[(k + 1) % len(colors)]
        ax.axhline(r["rate"], color=c, lw=1.2, ls="--", label=name)
        ax.axhspan(r["lo"], r["hi"], color=c, alpha=0.12)
    ax.set_xlabel("timesteps")
    ax.set_ylabel("success rate")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(f"learning curve: {d['env']}")
    ax.legend(fontsize=8, loc="lower right")
    names = list(players)
    rates = [players[n]["rate"] for n in names]
    err = [[max(players[n]["rate"] - players[n]["lo"], 0.0) for n in names],
           [max(players[n]["hi"] - players[n]["rate"], 0.0) for n in names]]
    bx.bar(range(len(names)), rates, yerr=err, capsize=4, color=[colors[k % len(colors)] for k in range(len(names))])
    bx.set_xticks(range(len(names)), names, rotation=20)
    bx.set_ylim(0, 1.02)
    bx.set_title(f"same {d['episodes']} positions (Wilson 95%)")
    fig.tight_layout()
    fig.savefig(png, dpi=100, metadata={"Software": None})
    plt.close(fig)
