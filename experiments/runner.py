"""Run an experiment config into a run folder, resumably and reproducibly.

Stages, in order (each skipped when its section is absent):

=============  ==============================================================================
setup          ``config.toml`` (the resolved config, every default written out),
               ``environment.json`` (Python and package versions, platform, git commit),
               ``seeds.json`` (every stage's seed, derived from ``experiment.seed``)
train          ``train/model.zip``, ``train/checkpoints/``, ``train/tb/`` (TensorBoard),
               ``train/learning_curve.csv`` (agents.sb3.train)
evaluate       ``evaluation.json``: the trained policy on ``evaluation.episodes`` seeded positions
tournament     ``tournament/games.jsonl`` (one line per finished game: the resume cache),
               ``tournament/results.json``, ``tournament/plot.png`` (agents.tournament)
video          ``video.mp4`` (or .gif): one game between ``video.agents``
report         ``metrics.csv`` (every number above, fixed formatting), ``learning_curve.png``,
               ``report.md``
=============  ==============================================================================

Resuming: a finished stage leaves ``stages/<stage>.done``; rerunning the same command skips
finished stages, continues the tournament from its games file (only whole lines of finished
games count) and training from its latest exact checkpoint (`agents.checkpoint`: weights,
optimizer, RNG states, envs, replay buffer, curve rows); an evaluation cut short is replayed
from its seeds. Every file is written atomically (temporary file + rename). So a run killed at
any moment and started again with the same command ends with a ``metrics.csv`` byte-identical
to an uninterrupted run's (on the same machine and package versions). Reproducibility: every
seed comes from ``experiment.seed``; the metrics contain no wall-clock values (timings go to
``timings.json``). The ray backend's training resumes from RLlib's checkpoint, which does not
hold the env or RNG states: there a resumed run is not exact (`experiments.ray_backend`).

Backends: ``local`` (default) or ``ray`` (tournament games and evaluation episodes as Ray
tasks, training with RLlib PPO, single or multi agent; see `experiments.ray_backend`).
"""

from __future__ import annotations

import csv
import io
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

from agents.checkpoint import atomic_write_text
from experiments import config as C

STAGES = ("setup", "train", "evaluate", "tournament", "video", "report")
PACKAGES = ("numpy", "numba", "gymnasium", "torch", "stable-baselines3", "sb3-contrib", "pettingzoo",
            "matplotlib", "imageio", "ray")


def stage_seeds(seed: int) -> dict:
    """Per-stage seeds derived from the experiment seed (SeedSequence spawning)."""
    names = ("train", "tournament", "video")
    kids = np.random.SeedSequence(int(seed)).spawn(len(names))
    return {n: int(k.generate_state(1, dtype=np.uint32)[0]) for n, k in zip(names, kids)}


def package_versions() -> dict:
    from importlib import metadata

    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for p in PACKAGES:
        try:
            out[p] = metadata.version(p)
        except metadata.PackageNotFoundError:
            out[p] = None
    return out


def git_commit(path: str | None = None) -> dict:
    """Commit hash and dirty flag of the checkout holding this package (read-only git calls)."""
    here = path or os.path.dirname(os.path.abspath(__file__))
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True,
                                timeout=10).stdout.strip() or None
        status = subprocess.run(["git", "status", "--porcelain"], cwd=here, capture_output=True, text=True,
                                timeout=10).stdout
        return {"commit": commit, "dirty": bool(status.strip())}
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}


class Run:
    """A run folder and its stage markers."""

    def __init__(self, root: str):
        self.root = root
        os.makedirs(os.path.join(root, "stages"), exist_ok=True)

    def path(self, *parts) -> str:
        return os.path.join(self.root, *parts)

    def done(self, stage: str) -> bool:
        return os.path.exists(self.path("stages", f"{stage}.done"))

    def mark(self, stage: str, info: dict | None = None) -> None:
        atomic_write_text(self.path("stages", f"{stage}.done"), json.dumps(info or {}, indent=1, sort_keys=True))

    def info(self, stage: str) -> dict:
        with open(self.path("stages", f"{stage}.done")) as f:
            return json.load(f)


def _write_json(path: str, obj) -> None:
    atomic_write_text(path, json.dumps(obj, indent=1, sort_keys=True) + "\n")


def _log(msg: str, quiet: bool) -> None:
    if not quiet:
        print(f"[poolgym] {msg}", flush=True)


def run_experiment(cfg: C.ExperimentConfig | str, out_dir: str | None = None, *, backend: str = "local",
                   progress: bool = True, quiet: bool = False, stop_after: str | None = None) -> str:
    """Run (or resume) an experiment; returns the run folder.

    cfg: an `ExperimentConfig` or the path of a TOML file.
    out_dir: run folder (default ``experiment.output_dir`` or ``runs/<name>``).
    stop_after: stop after this stage (tests use it to simulate an interruption).
    """
    if isinstance(cfg, str):
        cfg = C.load(cfg)
    C._choice("backend", backend, C.BACKENDS)
    if stop_after is not None:
        C._choice("stop_after", stop_after, STAGES)
    if backend == "ray" and cfg.training is not None:
        uses_model = (cfg.tournament is not None and any(a.name == "trained" for a in cfg.tournament.agents)) or \
            (cfg.video is not None and "trained" in cfg.video.agents)
        if uses_model:
            raise C.ConfigError("backend ray: training runs RLlib, but the agent 'trained' of [tournament] / "
                                "[video] is the SB3 model of the local backend; drop it or use --backend local")
        from experiments.ray_backend import check_config

        check_config(cfg)
    if backend != "ray" and cfg.training is not None and cfg.training.multi_agent:
        raise C.ConfigError("training.multi_agent: multi-agent training runs on RLlib: use --backend ray")
    root = out_dir or cfg.experiment.output_dir or os.path.join("runs", cfg.experiment.name)
    run = Run(root)
    seeds = stage_seeds(cfg.experiment.seed)
    timings: dict = {}
    if os.path.exists(run.path("timings.json")):
        with open(run.path("timings.json")) as f:
            timings = json.load(f)

    def stage(name, fn):
        if run.done(name):
            _log(f"{name}: done already (resume)", quiet)
            return
        if name != "setup" and name != "report" and _skip(cfg, name):
            run.mark(name, {"skipped": True})
            return
        _log(f"{name} ...", quiet)
        t = time.perf_counter()
        info = fn() or {}
        timings[name] = round(time.perf_counter() - t, 3)
        _write_json(run.path("timings.json"), timings)
        run.mark(name, info)

    order = [
        ("setup", lambda: _setup(cfg, run, seeds)),
        ("train", lambda: _train(cfg, run, seeds, backend, progress)),
        ("evaluate", lambda: _evaluate(cfg, run, backend)),
        ("tournament", lambda: _tournament(cfg, run, seeds, backend, progress)),
        ("video", lambda: _video(cfg, run, seeds)),
        ("report", lambda: _report(cfg, run)),
    ]
    for name, fn in order:
        stage(name, fn)
        if stop_after == name:
            break
    _log(f"run folder: {root}", quiet)
    return root


def _skip(cfg: C.ExperimentConfig, name: str) -> bool:
    return {"train": cfg.training is None, "evaluate": cfg.evaluation is None,
            "tournament": cfg.tournament is None, "video": cfg.video is None}.get(name, False)


# ----------------------------------------------------------------------------- stages
def _setup(cfg, run: Run, seeds: dict) -> dict:
    atomic_write_text(run.path("config.toml"), C.dumps(cfg))
    env = package_versions()
    env["git"] = git_commit()
    env["command"] = sys.argv
    _write_json(run.path("environment.json"), env)
    _write_json(run.path("seeds.json"), {"experiment": cfg.experiment.seed, **seeds,
                                         "evaluation": cfg.evaluation.seed if cfg.evaluation else None})
    return {}


def _train(cfg, run: Run, seeds: dict, backend: str, progress: bool) -> dict:
    t = cfg.training
    out = run.path("train")
    if backend == "ray":
        from experiments.ray_backend import train_rllib

        return train_rllib(cfg, out, seeds["train"], progress=progress)
    if t.algo == "expert_iteration":
        from agents.expert_iteration import train as train_ei

        res = train_ei(out, dict(t.hyperparams), seed=seeds["train"], torch_threads=cfg.experiment.torch_threads,
                       progress=progress)
        return {"model": os.path.relpath(res["model"], run.root), "positions": res["positions"]}
    from agents.sb3 import train

    res = train(cfg.env.id, t.algo, t.total_timesteps, seed=seeds["train"], out_dir=out, n_envs=t.n_envs,
                hyperparams=t.hyperparams, env_kwargs=cfg.env.kwargs, checkpoint_every=t.checkpoint_every,
                eval_every=t.eval_every, eval_episodes=t.eval_episodes, progress=progress,
                torch_threads=cfg.experiment.torch_threads, num_workers=t.num_workers,
                mean_init_scale=t.mean_init_scale, log_std_init=t.log_std_init)
    return {"model": os.path.relpath(res["model"], run.root), "timesteps": res["timesteps"]}


def _trained_kwargs(cfg, run: Run) -> dict:
    if cfg.training.algo == "expert_iteration":
        return dict(weights=run.path("train", "policy.pt"))
    return dict(model=run.path("train", "model.zip"), algo=cfg.training.algo, env_id=cfg.env.id,
                env_kwargs=cfg.env.kwargs)


def _evaluate(cfg, run: Run, backend: str = "local") -> dict:
    if backend == "ray":  # the RLlib policy, episodes as Ray tasks (experiments.ray_backend)
        from experiments.ray_backend import evaluate_rllib

        _write_json(run.path("evaluation.json"), evaluate_rllib(cfg, run.path("train")))
        return {}
    from agents.sb3 import evaluate, load

    if cfg.training.algo not in ("ppo", "sac", "maskable_ppo"):  # pragma: no cover - validated earlier
        raise C.ConfigError("training.algo")
    import torch

    torch.set_num_threads(int(cfg.experiment.torch_threads))
    model = load(run.path("train", "model.zip"), cfg.training.algo)
    ev = evaluate(model, cfg.env.id, cfg.evaluation.episodes, cfg.evaluation.seed, cfg.env.kwargs,
                  cfg.training.algo, deterministic=cfg.evaluation.deterministic)
    d = ev.as_dict()
    d["env"] = cfg.env.id
    _write_json(run.path("evaluation.json"), d)
    if cfg.evaluation.baselines:  # the same positions for the trained policy and its baselines
        from experiments import baselines

        baselines.write(run.path("baselines.json"), baselines.evaluate_baselines(
            cfg, run.path("train", "model.zip"), stage_seeds(cfg.experiment.seed)["train"]))
    return {}


def _agent_specs(entries, cfg, run: Run):
    from agents.tournament import AgentSpec

    out = []
    for e in entries:
        if e.name == "trained":
            name = "trained" if cfg.training.algo == "expert_iteration" else "sb3"
            out.append(AgentSpec(name, {**_trained_kwargs(cfg, run), **e.kwargs}, e.label or "trained"))
        else:
            out.append(AgentSpec(e.name, dict(e.kwargs), e.label))
    return tuple(out)


def _tournament(cfg, run: Run, seeds: dict, backend: str, progress: bool) -> dict:
    from agents.tournament import TournamentConfig, run_tournament

    t = cfg.tournament
    os.makedirs(run.path("tournament"), exist_ok=True)
    tc = TournamentConfig(t.discipline, _agent_specs(t.agents, cfg, run), t.games_per_pair,
                          seeds["tournament"] if t.seed is None else t.seed, t.noise, dict(t.rules), t.max_shots)
    from experiments.ray_backend import dispatcher

    res = run_tournament(tc, cache=run.path("tournament", "games.jsonl"), progress=progress,
                         run_jobs=dispatcher(backend))
    d = res.to_dict()
    # the trained model path depends on where the run folder is: keep results location-free
    for a in d["config"]["agents"]:
        if "model" in a["kwargs"]:
            a["kwargs"]["model"] = os.path.relpath(a["kwargs"]["model"], run.root)
    _write_json(run.path("tournament", "results.json"), d)
    res.plot(run.path("tournament", "plot.png"))
    return {}


def _video(cfg, run: Run, seeds: dict) -> dict:
    from agents.base import make
    from agents.replay import write_game_video

    v = cfg.video
    players = []
    for k, name in enumerate(v.agents):
        if name == "trained":
            name = "trained" if cfg.training.algo == "expert_iteration" else "sb3"
            players.append(make(name, seed=k, **_trained_kwargs(cfg, run)))
        else:
            players.append(make(name, seed=k))
    path = run.path(f"video.{v.format}")
    write_game_video(path, v.discipline, players, seeds["video"] if v.seed is None else v.seed, v.noise,
                     v.max_shots, v.fps)
    return {"video": os.path.basename(path)}


def _fmt(x) -> str:
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return f"{x:.6f}"
    return str(x)


def collect_metrics(run: Run) -> list[tuple[str, str, str]]:
    """(section, metric, value) rows from the run's result files (no timings)."""
    rows: list[tuple[str, str, str]] = []
    lc = run.path("train", "learning_curve.csv")
    if os.path.exists(lc):
        with open(lc) as f:
            for r in csv.DictReader(f):
                if "iteration" in r:  # expert iteration (agents.expert_iteration.CURVE_FIELDS)
                    for k in ("positions", "win_rate_vs_geometric", "games_vs_geometric", "fit_loss"):
                        rows.append(("train", f"{k}@{r['iteration']}", r[k]))
                    continue
                for k in ("eval_success_rate", "eval_mean_return", "train_mean_return"):
                    rows.append(("train", f"{k}@{r['timesteps']}", r[k]))
    ev = run.path("evaluation.json")
    if os.path.exists(ev):
        with open(ev) as f:
            d = json.load(f)
        for k in ("episodes", "success_rate", "mean_return"):
            rows.append(("evaluation", k, _fmt(d[k])))
    tr = run.path("tournament", "results.json")
    if os.path.exists(tr):
        with open(tr) as f:
            d = json.load(f)
        for lab, s in d["summary"]["agents"].items():
            for k in ("games", "wins", "losses", "draws", "win_rate", "elo", "foul_rate", "legal_break_rate",
                      "mean_break_pocketed", "break_and_run_rate", "runouts", "illegal"):
                rows.append(("tournament", f"{lab}.{k}", _fmt(s[k])))
            lo, hi = s["wilson95"]
            rows.append(("tournament", f"{lab}.wilson95_lo", _fmt(lo)))
            rows.append(("tournament", f"{lab}.wilson95_hi", _fmt(hi)))
        rows.append(("tournament", "errors", _fmt(d["summary"]["errors"])))
    bl = run.path("baselines.json")
    if os.path.exists(bl):
        from experiments import baselines

        with open(bl) as f:
            rows += baselines.metric_rows(json.load(f))
    return rows


def _report(cfg, run: Run) -> dict:
    rows = collect_metrics(run)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["section", "metric", "value"])
    w.writerows(rows)
    atomic_write_text(run.path("metrics.csv"), buf.getvalue())
    lc = run.path("train", "learning_curve.csv")
    if os.path.exists(lc):
        _plot_curve(lc, run.path("learning_curve.png"), cfg.env.id)
    if os.path.exists(run.path("baselines.json")):
        from experiments import baselines

        with open(run.path("baselines.json")) as f:
            baselines.plot(json.load(f), lc, run.path("baselines.png"))
    atomic_write_text(run.path("report.md"), _report_md(cfg, run, rows))
    return {"metrics": len(rows)}


def _plot_curve(csv_path: str, png: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    if "iteration" in rows[0]:  # expert iteration: the learner's games against geometric
        pts = [(int(r["iteration"]), float(r["win_rate_vs_geometric"]), int(r["games_vs_geometric"]))
               for r in rows if r["win_rate_vs_geometric"] and int(r["learner_moves"])]
        if pts:
            from agents.stats import wilson_interval

            it = [p[0] for p in pts]
            wr = [p[1] for p in pts]
            ci = [wilson_interval(round(p[1] * p[2]), p[2]) for p in pts]
            ax.errorbar(it, wr, yerr=[[w - c[0] for w, c in zip(wr, ci)], [c[1] - w for w, c in zip(wr, ci)]],
                        fmt="o-", capsize=3, label="learner vs geometric (its training games, Wilson 95%)")
            ax.legend(fontsize=7)
        ax.axhline(0.5, color="grey", lw=0.8, ls=":")
        ax.set_xlabel("expert-iteration iteration")
        ax.set_ylim(-0.05, 1.05)
        ax.set_title(f"learning curve: {title}")
        fig.tight_layout()
        fig.savefig(png, dpi=100, metadata={"Software": None})
        plt.close(fig)
        return
    x = [int(r["timesteps"]) for r in rows]
    ax.plot(x, [float(r["eval_success_rate"]) for r in rows], "o-", label="eval success rate")
    ax.plot(x, [float(r["train_mean_return"]) for r in rows], ".--", label="train mean return")
    ax.set_xlabel("timesteps")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title(f"learning curve: {title}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=100, metadata={"Software": None})
    plt.close(fig)


def _report_md(cfg, run: Run, rows) -> str:
    lines = [f"# Experiment `{cfg.experiment.name}`", ""]
    if cfg.experiment.description:
        lines += [cfg.experiment.description, ""]
    lines += ["Files: `config.toml` (resolved config), `environment.json` (versions, git commit), "
              "`seeds.json`, `metrics.csv`.", ""]
    ev = run.path("evaluation.json")
    if os.path.exists(ev):
        with open(ev) as f:
            d = json.load(f)
        lines += ["## Evaluation", "",
                  f"Trained `{cfg.training.algo}` on `{cfg.env.id}`: success rate **{d['success_rate']:.3f}**, "
                  f"mean return {d['mean_return']:.3f} over {d['episodes']} seeded test positions.", ""]
    if os.path.exists(run.path("learning_curve.png")):
        lines += ["![learning curve](learning_curve.png)", ""]
    bl = run.path("baselines.json")
    if os.path.exists(bl):
        from experiments import baselines

        with open(bl) as f:
            b = json.load(f)
        lines += baselines.report_lines(b, "baselines.png" if os.path.exists(run.path("baselines.png")) else None)
    tr = run.path("tournament", "results.json")
    if os.path.exists(tr):
        with open(tr) as f:
            d = json.load(f)
        c = d["config"]
        lines += ["## Tournament", "",
                  f"{c['discipline']}, noise `{c['noise']}`, {c['games_per_pair']} games per pairing, seed {c['seed']}.",
                  "", "| agent | games | W-L-D | win rate (Wilson 95%) | Elo | foul rate | legal breaks | run-outs |",
                  "|---|---|---|---|---|---|---|---|"]
        for lab, s in d["summary"]["agents"].items():
            lo, hi = s["wilson95"]
            lines.append(f"| {lab} | {s['games']} | {s['wins']}-{s['losses']}-{s['draws']} | "
                         f"{s['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] | {s['elo']:.1f} | {s['foul_rate']:.3f} | "
                         f"{s['legal_break_rate']:.3f} | {s['runouts']} |")
        lines += ["", "![tournament](tournament/plot.png)", ""]
    for ext in ("mp4", "gif"):
        if os.path.exists(run.path(f"video.{ext}")):
            lines += [f"Video of a game: [video.{ext}](video.{ext})", ""]
    return "\n".join(lines)


__all__ = ["run_experiment", "STAGES", "stage_seeds", "collect_metrics"]
