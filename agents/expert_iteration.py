"""Expert iteration: train the `trained` nine-ball player's action-value network from the
environment, with the search agent as the expert.

Each iteration (T. Anthony et al., "Thinking fast and slow with deep learning and tree
search", NeurIPS 2017; DAgger, S. Ross et al., AISTATS 2011):

1. Games. ``games`` nine-ball games under the execution noise of the config (ICGA by
   default) between the learner and a league opponent (``league``, cycled by game index:
   ``"geometric"``, ``"search"`` or ``"self"``, the learner on both seats); the learner takes
   seat 0 in even games. In iteration 0 the learner's moves are the expert's own
   (``expert_rollin``: the network is untrained); afterwards they are the network's
   (`agents.learned.TrainedAgent`), so the positions are those the learner reaches itself.
2. Labels. At every decision of a learner seat that the search agent would search (a shot
   that is not a break, a ball-in-hand placement), the search agent (`agents.search`, its
   defaults but the run-out value model and no aim sweep, `LabellingSearch`) simulates every candidate stroke under noise and values the outcomes; each
   candidate's mean value and sample count are kept (a placement gives one such set per
   spot it searches). The expert's decision is NOT what is learned from: its values of
   every candidate are.
3. Fit. The network (`agents.learned.make_net`) is trained on all the labelled positions so
   far (warm start from the previous iteration) to predict those values: a squared error
   weighted by ``sqrt(count / 36)`` (the noisier stage-one means count less), each position
   seen in one of its four mirror images per epoch, chosen at random (`agents.learned.mirror`).

Determinism: game ``g`` of iteration ``i`` draws everything (rack, agents' RNGs, noise) from
``SeedSequence([seed, i, g])`` and is played whole by one process, the games are merged in
index order, and the fit draws from a torch generator seeded by ``(seed, i)``; so the data and
the network do not depend on the number of worker processes, and a rerun gives the same
weights on the same machine and package versions (same ``torch_threads``).

Resume: after each iteration its labelled positions (``data/iter_<i>.npz``), the network,
the optimizer and the curve row are written atomically (``ckpt/iter_<i>.pt``); a rerun
continues after the last finished iteration (an iteration cut short is replayed from its
seeds, with the same result).

The learning curve (``learning_curve.csv``) has, per iteration, the learner's win rate over
that iteration's games against the geometric player (when the learner played its own moves),
the number of labelled positions and the fit's final loss.
"""

from __future__ import annotations

import csv
import io
import math
import os
import time
from dataclasses import dataclass, field

import numpy as np

from agents.learned import TrainedAgent, layout_of, make_net, mirror, save_policy, shot_features
from agents.search import SearchAgent

LEAGUE = ("geometric", "search", "self")


@dataclass(frozen=True)
class ExpertIterationConfig:
    """Budget and settings of a run (module docstring).

    iterations: number of iterations; games: games per iteration (one int, or one per
    iteration); league: opponents cycled by game index; expert_rollin: iteration 0 plays the
    expert's moves; epochs: passes over all the data per fit; batch_size, learning_rate,
    hidden: the fit and the network; noise: execution noise of the games; workers: processes
    playing the games; max_shots: shot limit of a game; search: keyword arguments of the
    expert search agent.
    """

    iterations: int = 4
    games: object = 100
    league: tuple = ("geometric", "geometric", "self")
    expert_rollin: bool = True
    epochs: int = 6
    batch_size: int = 1024
    learning_rate: float = 1e-3
    rank_weight: float = 0.0
    rank_tau: float = 0.05
    hidden: tuple = (256, 256, 128)
    noise: str = "icga"
    workers: int = 2
    max_shots: int = 200
    search: dict = field(default_factory=dict)

    def __post_init__(self):
        if int(self.iterations) < 1:
            raise ValueError(f"iterations: expected >= 1, got {self.iterations!r}")
        g = self.games_list()
        if len(g) != int(self.iterations) or min(g) < 1:
            raise ValueError(f"games: expected a positive int or one per iteration, got {self.games!r}")
        for o in self.league:
            if o not in LEAGUE:
                raise ValueError(f"league: unknown opponent {o!r}; known: {', '.join(LEAGUE)}")
        if not self.league:
            raise ValueError("league: expected at least one opponent")
        for k in ("epochs", "batch_size", "workers", "max_shots"):
            if int(getattr(self, k)) < 1:
                raise ValueError(f"{k}: expected >= 1, got {getattr(self, k)!r}")
        if not (float(self.learning_rate) > 0):
            raise ValueError(f"learning_rate: expected > 0, got {self.learning_rate!r}")

    def games_list(self) -> list:
        g = self.games
        return [int(x) for x in g] if isinstance(g, (list, tuple)) else [int(g)] * int(self.iterations)

    @classmethod
    def from_dict(cls, d: dict) -> "ExpertIterationConfig":
        import dataclasses

        names = {f.name for f in dataclasses.fields(cls)}
        bad = sorted(set(d) - names)
        if bad:
            raise ValueError(f"unknown expert-iteration setting(s) {bad}; known: {', '.join(sorted(names))}")
        kw = dict(d)
        for k in ("league", "hidden"):
            if k in kw:
                kw[k] = tuple(kw[k])
        return cls(**kw)


# ----------------------------------------------------------------------------- labelling
class LabellingSearch(SearchAgent):
    """The search agent, keeping every candidate's mean value and sample count of each search
    it runs (`records`: (layout P, on, shots, ratio, p_make, value, count))."""

    name = "search"

    def __init__(self, seed=None, push_outs: int = 0, reply_search: bool = False, value_model: str = "runout",
                 aim_offsets=(), **kw):
        # push-outs are not candidates of the learner (agents.learned.TrainedAgent): not labelled;
        # the labels are those the shipped policy was trained on (the run-out value, strokes
        # at the ghost-ball aim: `candidate_inputs` matches a stroke to its pot by direction)
        super().__init__(seed=seed, push_outs=push_outs, reply_search=reply_search, value_model=value_model,
                         aim_offsets=aim_offsets, **kw)
        self.records: list = []

    def searched(self, v, acts, values, counts) -> None:
        from agents.learned import candidate_inputs

        shots, ratio, p = candidate_inputs(self, v, acts)
        self.records.append((v.balls.copy(), v.on.copy(), shots, ratio, p, values, counts))


class _Learner(TrainedAgent):
    """A learner seat: every decision the search agent would search is labelled by
    ``expert``; the move played is the expert's (``follow``) or the network's."""

    def __init__(self, seed=None, net=None, expert: LabellingSearch | None = None, follow: bool = False):
        # the roll-in player of the shipped run: three placement spots, no mirror averaging
        super().__init__(seed=seed, net=net if net is not None else _NullNet(), n_placements=3, mirrors=False)
        self.expert = expert
        self.follow = follow

    def reset(self, seed=None):
        super().reset(seed)
        self.expert.reset(None if seed is None else seed + 1)

    def act(self, obs):
        a = self.expert.act(obs)
        return a if self.follow else super().act(obs)


class _NullNet:
    """Placeholder network of an expert-only roll-in (never called)."""

    def __call__(self, x):  # pragma: no cover - never called
        raise RuntimeError("no network")


def game_seed(seed: int, it: int, g: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([int(seed), int(it), int(g)])


def play_labelled_game(seed: int, it: int, g: int, opponent: str, follow: bool, net_bytes: bytes | None,
                       noise: str, max_shots: int, search_kw: dict) -> dict:
    """Play game ``g`` of iteration ``it`` (module docstring, steps 1-2); returns the learner's
    result against the opponent and the labelled positions."""
    import torch

    from agents.geometric import GeometricAgent
    from agents.tournament import play_game

    net = None
    if net_bytes is not None:
        net = _net_from_bytes(net_bytes)
    s = game_seed(seed, it, g).generate_state(5, dtype=np.uint32)
    expert = LabellingSearch(seed=int(s[0]), **search_kw)
    learner = _Learner(seed=int(s[1]), net=net, expert=expert, follow=follow)
    if opponent == "self":
        expert2 = LabellingSearch(seed=int(s[2]), **search_kw)
        other = _Learner(seed=int(s[2]), net=net, expert=expert2, follow=follow)
    elif opponent == "search":
        other, expert2 = SearchAgent(seed=int(s[2])), None
    else:
        other, expert2 = GeometricAgent(seed=int(s[2])), None
    seats = [learner, other] if g % 2 == 0 else [other, learner]
    torch.set_num_threads(1)
    rec = play_game("nine_ball", seats, seed=int(s[3]), agent_seeds=[a.seed or 0 for a in seats], noise=noise,
                    noise_rng=np.random.default_rng(int(s[4])), max_shots=max_shots)
    me = 0 if g % 2 == 0 else 1
    records = list(expert.records) + (list(expert2.records) if expert2 is not None else [])
    return dict(g=g, opponent=opponent, winner=rec.winner, me=me, error=rec.error, records=records)


_NET_CACHE: dict = {}


def _net_from_bytes(b: bytes):
    import hashlib

    import torch

    key = hashlib.sha1(b).hexdigest()
    net = _NET_CACHE.get(key)
    if net is None:
        blob = torch.load(io.BytesIO(b), map_location="cpu", weights_only=True)
        net = make_net(tuple(blob["hidden"]))
        net.load_state_dict(blob["state_dict"])
        net.eval()
        _NET_CACHE.clear()
        _NET_CACHE[key] = net
    return net


def _net_bytes(net, hidden) -> bytes:
    import torch

    buf = io.BytesIO()
    torch.save({"state_dict": net.state_dict(), "hidden": list(hidden)}, buf)
    return buf.getvalue()


def _play_job(args):
    return play_labelled_game(*args)


def _worker_init():
    import torch

    torch.set_num_threads(1)


# ----------------------------------------------------------------------------- data
def pack(records: list) -> dict:
    """Stack labelled positions into flat arrays (``P`` (M, N, 2), ``on`` (M, N), ``start``
    (M,), ``size`` (M,), and per candidate ``shots``, ``ratio``, ``p``, ``value``, ``count``)."""
    if not records:
        return dict(P=np.zeros((0, 10, 2)), on=np.zeros((0, 10), bool), start=np.zeros(0, np.int64),
                    size=np.zeros(0, np.int64), shots=np.zeros((0, 5)), ratio=np.zeros(0), p=np.zeros(0),
                    value=np.zeros(0), count=np.zeros(0))
    sizes = np.array([len(r[2]) for r in records], np.int64)
    return dict(P=np.stack([r[0] for r in records]), on=np.stack([r[1] for r in records]),
                start=np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64), size=sizes,
                shots=np.concatenate([r[2] for r in records]), ratio=np.concatenate([r[3] for r in records]),
                p=np.concatenate([r[4] for r in records]), value=np.concatenate([r[5] for r in records]),
                count=np.concatenate([r[6] for r in records]))


def merge(parts: list) -> dict:
    parts = [p for p in parts if len(p["size"])]
    if not parts:
        return pack([])
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k != "start"}
    out["start"] = np.concatenate([[0], np.cumsum(out["size"])[:-1]]).astype(np.int64)
    return out


def features_of(data: dict, rng: np.random.Generator, table) -> tuple:
    """(X (sumC, F), y (sumC,), w (sumC,)) of every labelled candidate, each position in one
    random mirror image."""
    from poolgym.planning import table_geom

    g = table_geom(table)
    X = np.zeros((len(data["value"]), shot_features.__globals__["N_FEATURES"]), np.float32)
    flips = rng.integers(0, 4, size=len(data["size"]))
    for i in range(len(data["size"])):
        a, n = int(data["start"][i]), int(data["size"][i])
        lay = layout_of(data["P"][i], data["on"][i])
        shots = data["shots"][a : a + n]
        f = int(flips[i])
        if f:
            lay, shots = mirror(lay, shots, g.w, g.l, bool(f & 1), bool(f & 2))
        X[a : a + n] = shot_features(lay, shots, data["ratio"][a : a + n], data["p"][a : a + n], g.aims, g.R,
                                     g.w, g.l)
    y = np.clip(data["value"], 0.0, 1.0).astype(np.float32)
    w = np.sqrt(np.asarray(data["count"], float) / 36.0).astype(np.float32)
    return X, y, w


def fit(net, opt, data: dict, epochs: int, batch_size: int, gen, rng: np.random.Generator, table,
        rank_weight: float = 0.0, rank_tau: float = 0.05) -> float:
    """``epochs`` passes over ``data`` in batches of whole positions (about ``batch_size``
    candidates each): weighted squared error of the values plus ``rank_weight`` times the
    cross-entropy between the softmax of the predictions and that of the targets (temperature
    ``rank_tau``) over each position's candidates (the ordering the argmax play depends on);
    returns the last epoch's mean loss."""
    import torch

    M = len(data["size"])
    sizes = np.asarray(data["size"], np.int64)
    starts = np.asarray(data["start"], np.int64)
    per = max(1, int(batch_size) // max(int(sizes.mean()) if M else 1, 1))
    loss_sum = 0.0
    net.train()
    for _ in range(int(epochs)):
        X, y, w = features_of(data, rng, table)
        X, y, w = torch.from_numpy(X), torch.from_numpy(y), torch.from_numpy(w)
        perm = torch.randperm(M, generator=gen).numpy()
        loss_sum, n_b = 0.0, 0
        for k in range(0, M, per):
            st = perm[k : k + per]
            C = int(sizes[st].max())
            idx = starts[st][:, None] + np.arange(C)[None]
            valid = np.arange(C)[None] < sizes[st][:, None]
            idx = torch.from_numpy(np.where(valid, idx, 0))
            vm = torch.from_numpy(valid)
            pred = net(X[idx.reshape(-1)])[:, 0].reshape(idx.shape)
            yt, wt = y[idx], w[idx] * vm
            loss = (wt * (pred - yt) ** 2).sum() / wt.sum()
            if rank_weight > 0:
                neg = torch.finfo(pred.dtype).min / 4
                lp = torch.log_softmax(torch.where(vm, pred / rank_tau, neg), dim=1)
                q = torch.softmax(torch.where(vm, yt / rank_tau, neg), dim=1)
                loss = loss + rank_weight * -(q * torch.where(vm, lp, 0.0)).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.item()
            n_b += 1
        loss_sum /= max(n_b, 1)
    net.eval()
    return float(loss_sum)


def _save_npz(path: str, data: dict) -> None:
    from agents.checkpoint import atomic_write_bytes

    buf = io.BytesIO()
    np.savez_compressed(buf, **data)
    atomic_write_bytes(path, buf.getvalue())


def _load_npz(path: str) -> dict:
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


CURVE_FIELDS = ("iteration", "games", "positions", "total_positions", "learner_moves", "win_rate_vs_geometric",
                "games_vs_geometric", "fit_loss")


def train(out_dir: str, cfg: ExpertIterationConfig | dict, seed: int = 0, torch_threads: int = 1,
          progress: bool = False, resume: bool = True) -> dict:
    """Run expert iteration into ``out_dir`` (module docstring); returns
    ``{"model": <out_dir>/policy.pt, "curve": rows, "positions": M}``."""
    import multiprocessing as mp

    import torch

    from agents.checkpoint import atomic_write_bytes, atomic_write_text
    from poolgym.rules.geometry import get_table

    if isinstance(cfg, dict):
        cfg = ExpertIterationConfig.from_dict(cfg)
    torch.set_num_threads(int(torch_threads))
    table = get_table("9ft")
    os.makedirs(os.path.join(out_dir, "data"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "ckpt"), exist_ok=True)
    torch.manual_seed(int(seed))
    net = make_net(cfg.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=float(cfg.learning_rate))
    rows: list = []
    start = 0
    if resume:
        done = sorted(int(f[5:-3]) for f in os.listdir(os.path.join(out_dir, "ckpt"))
                      if f.startswith("iter_") and f.endswith(".pt"))
        if done:
            blob = torch.load(os.path.join(out_dir, "ckpt", f"iter_{done[-1]}.pt"), map_location="cpu",
                              weights_only=False)
            net.load_state_dict(blob["net"])
            opt.load_state_dict(blob["opt"])
            rows = list(blob["rows"])
            start = done[-1] + 1
    parts = [_load_npz(os.path.join(out_dir, "data", f"iter_{i}.npz")) for i in range(start)]
    games = cfg.games_list()
    timings = {}
    for it in range(start, int(cfg.iterations)):
        t0 = time.perf_counter()
        follow = bool(cfg.expert_rollin and it == 0)
        nb = None if follow else _net_bytes(net, cfg.hidden)
        jobs = [(int(seed), it, g, cfg.league[g % len(cfg.league)], follow, nb, cfg.noise, int(cfg.max_shots),
                 dict(cfg.search)) for g in range(games[it])]
        if int(cfg.workers) > 1:
            ctx = mp.get_context("spawn")
            with ctx.Pool(int(cfg.workers), initializer=_worker_init) as pool:
                results = list(pool.imap(_play_job, jobs, chunksize=1))
        else:
            results = [_play_job(j) for j in jobs]
        results.sort(key=lambda r: r["g"])
        recs = [x for r in results for x in r["records"]]
        part = pack(recs)
        parts.append(part)
        vs_geo = [r for r in results if r["opponent"] == "geometric" and r["error"] is None]
        wins = sum(1 for r in vs_geo if r["winner"] == r["me"])
        t1 = time.perf_counter()
        data = merge(parts)
        gen = torch.Generator().manual_seed(int(np.random.SeedSequence([int(seed), it]).generate_state(1)[0]))
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), it, 1]))
        loss = fit(net, opt, data, cfg.epochs, cfg.batch_size, gen, rng, table, float(cfg.rank_weight),
                   float(cfg.rank_tau))
        t2 = time.perf_counter()
        rows.append(dict(iteration=it, games=games[it], positions=len(part["size"]),
                         total_positions=len(data["size"]), learner_moves=int(not follow),
                         win_rate_vs_geometric=f"{wins / len(vs_geo):.6f}" if vs_geo else "",
                         games_vs_geometric=len(vs_geo), fit_loss=f"{loss:.6f}"))
        timings[it] = dict(games_s=round(t1 - t0, 1), fit_s=round(t2 - t1, 1))
        if progress:
            print(f"[expert-iteration] iteration {it}: {rows[-1]} {timings[it]}", flush=True)
        _save_npz(os.path.join(out_dir, "data", f"iter_{it}.npz"), part)
        buf = io.BytesIO()
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "rows": rows}, buf)
        atomic_write_bytes(os.path.join(out_dir, "ckpt", f"iter_{it}.pt"), buf.getvalue())
    policy = os.path.join(out_dir, "policy.pt")
    save_policy(policy, net, dict(hidden=list(cfg.hidden), trainer="expert_iteration", seed=int(seed),
                                  iterations=int(cfg.iterations)))
    sbuf = io.StringIO()
    w = csv.DictWriter(sbuf, fieldnames=list(CURVE_FIELDS), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    atomic_write_text(os.path.join(out_dir, "learning_curve.csv"), sbuf.getvalue())
    total = sum(int(r["positions"]) for r in rows)
    return dict(model=policy, curve=rows, positions=total, timings=timings)


_ = math
