"""`trained`: a nine-ball player whose shots are chosen by a learned action-value network.

The player is the search agent's decision procedure (`agents.search.SearchAgent`) with its
Monte-Carlo evaluation replaced by a small neural network: no physics is simulated at play
time. For each shot it

1. builds the same candidate strokes as the search agent, by geometry only
   (`SearchAgent.candidate_actions`: the best ghost-ball pots at five speeds and four
   draw/follow offsets, lowest-ball -> 9 combinations, safeties, the safety spread and
   one-rail kicks);
2. scores every candidate with `ValueNet`, which predicts the value the search agent's
   noisy simulations would give it (the run-out win-probability model of `agents.search`:
   about the probability that the shooter wins from the position the stroke leaves);
3. plays the candidate with the highest predicted value.

Each stroke's score is the mean of the network over the four mirror images of the layout and
stroke (``mirrors``, default on; the network was trained on all four). With the cue ball in
hand it scores the shots from each of the `n_placements` (default 6) best geometric spots and
takes the spot whose best shot scores highest. Both play-time settings were chosen on 400
validation games against the geometric player (seed 7), see the README.
Breaks and options are the geometric player's; it takes no push-out (`push_outs`).

The network is trained from the environment by expert iteration (`agents.expert_iteration`:
T. Anthony, Z. Tian, D. Barber, "Thinking fast and slow with deep learning and tree
search", NeurIPS 2017; S. Ross, G. Gordon, D. Bagnell, "A reduction of imitation learning
and structured prediction to no-regret online learning" (DAgger), AISTATS 2011): positions
come from the learner's own games against a league; the targets are the search agent's
simulated values of every candidate there. The weights shipped with the package
(`DEFAULT_WEIGHTS`, a torch state dict with its feature layout) come from
``experiments/configs/nine_ball_expert.toml``.

Features (`shot_features`, all computed from the seat's view; the table's mirror images
give the same features for the mirrored layout and stroke, `mirror`):

* the layout: the cue ball, then the object balls on the table in rotation order (lowest
  first, nine slots of present flag and position), the number of balls left;
* the stroke: speed, direction, tip offsets; its speed over the planned pot speed when it is
  a pot of the geometric player (and that pot's make probability);
* its first contact by ray casting (ball hit, whether it is the lowest ball or the 9, the
  distance to contact, the signed contact offset), the object ball's direction and the
  stun line of the cue ball after contact, the object ball's angular error to the pocket it
  heads for, and where the next ball in rotation lies from the contact point.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import numpy as np

from agents.base import Observation
from agents.search import SearchAgent

#: the shipped policy (`agents/policies/`), trained by experiments/configs/nine_ball_expert.toml
DEFAULT_WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "policies", "nine_ball_value.pt")
#: object-ball slots of the layout block (nine-ball: balls 1-9)
SLOTS = 9
N_STATE = 2 + 3 * SLOTS + 1
N_SHOT = 27
N_FEATURES = N_STATE + N_SHOT


@dataclass(frozen=True)
class Layout:
    """A nine-ball position as the features read it: ``P`` (N, 2) ball centres, ``on`` (N,)
    on-table mask, ``order`` the object balls on the table in rotation order."""

    P: np.ndarray
    on: np.ndarray
    order: tuple


def layout_of(P, on) -> Layout:
    P = np.asarray(P, float).reshape(-1, 2)
    on = np.asarray(on, bool)
    return Layout(P, on, tuple(int(k) for k in range(1, len(on)) if on[k]))


def mirror(lay: Layout, shots: np.ndarray, w: float, l: float, mx: bool, my: bool) -> tuple:
    """The layout and strokes (C, 5: V0 phi theta a b) reflected in the long string (``mx``:
    x -> w - x, phi -> 180 - phi, side spin a -> -a) and / or the centre line (``my``:
    y -> l - y, phi -> -phi, a -> -a); the physics and the nine-ball rules are symmetric under
    both (the referee's kitchen plays no part in a shot)."""
    P = lay.P.copy()
    s = np.array(shots, float, copy=True)
    if mx:
        P[:, 0] = w - P[:, 0]
        s[:, 1] = 180.0 - s[:, 1]
        s[:, 3] = -s[:, 3]
    if my:
        P[:, 1] = l - P[:, 1]
        s[:, 1] = -s[:, 1]
        s[:, 3] = -s[:, 3]
    s[:, 1] = np.mod(s[:, 1], 360.0)
    return Layout(P, lay.on, lay.order), s


def state_features(lay: Layout, w: float, l: float) -> np.ndarray:
    """(N_STATE,) the layout block (module docstring)."""
    f = np.zeros(N_STATE, np.float32)
    f[0], f[1] = lay.P[0, 0] / w, lay.P[0, 1] / l
    for i, b in enumerate(lay.order[:SLOTS]):
        f[2 + 3 * i : 5 + 3 * i] = (1.0, lay.P[b, 0] / w, lay.P[b, 1] / l)
    f[-1] = len(lay.order) / SLOTS
    return f


def shot_features(lay: Layout, shots: np.ndarray, ratio: np.ndarray, p_make: np.ndarray, aims: np.ndarray,
                  R: float, w: float, l: float) -> np.ndarray:
    """(C, N_FEATURES) features of C candidate strokes ``shots`` (C, 5) in layout ``lay``;
    ``ratio`` (C,) the stroke's speed over its planned pot speed (1 when not a pot),
    ``p_make`` (C,) the geometric make probability of its pot (0 when not a pot), ``aims``
    (6, 2) the pocket aim points."""
    shots = np.asarray(shots, float)
    C = shots.shape[0]
    out = np.zeros((C, N_FEATURES), np.float32)
    out[:, :N_STATE] = state_features(lay, w, l)[None]
    V0, phi, a, b = shots[:, 0], np.radians(shots[:, 1]), shots[:, 3], shots[:, 4]
    u = np.stack([np.cos(phi), np.sin(phi)], 1)  # (C, 2)
    cue = lay.P[0]
    k = N_STATE
    out[:, k] = np.log(np.maximum(V0, 0.05))
    out[:, k + 1], out[:, k + 2] = u[:, 0], u[:, 1]
    out[:, k + 3], out[:, k + 4] = a, b
    out[:, k + 5] = np.log2(np.maximum(ratio, 1e-3))
    out[:, k + 6] = p_make
    # first ball contact by ray casting (straight cue path)
    balls = list(lay.order)
    if balls:
        B = np.array(balls)
        r = lay.P[B] - cue  # (n, 2)
        along = u @ r.T  # (C, n)
        perp = u[:, 0:1] * r[:, 1][None] - u[:, 1:2] * r[:, 0][None]
        hit = (along > 0) & (np.abs(perp) < 2 * R)
        t = np.where(hit, along - np.sqrt(np.maximum(4 * R * R - perp ** 2, 0.0)), np.inf)
        j = np.argmin(t, axis=1)
        tj = t[np.arange(C), j]
        ok = np.isfinite(tj)
        first = B[j]
        G = cue[None] + u * np.where(ok, tj, 0.0)[:, None]
        n = lay.P[first] - G
        n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
        off = perp[np.arange(C), j] / (2 * R)
        # stun line: the cue ball leaves along the tangent (u minus its component along n)
        tan = u - (np.sum(u * n, 1))[:, None] * n
        tan /= np.maximum(np.linalg.norm(tan, axis=1, keepdims=True), 1e-9)
        d_pk = aims[None, :, :] - lay.P[first][:, None, :]  # (C, 6, 2)
        dist_pk = np.linalg.norm(d_pk, axis=2)
        cosang = np.sum(d_pk * n[:, None, :], 2) / np.maximum(dist_pk, 1e-9)
        best = np.argmax(cosang, axis=1)
        err = np.degrees(np.arccos(np.clip(cosang[np.arange(C), best], -1.0, 1.0)))
        nxt = lay.P[balls[1]] if len(balls) > 1 else lay.P[balls[0]]
        z = ok.astype(np.float32)
        out[:, k + 7] = z
        out[:, k + 8] = z * (first == balls[0])
        out[:, k + 9] = z * (first == 9)
        out[:, k + 10] = z * np.minimum(np.where(ok, tj, 0.0) / l, 1.0)
        out[:, k + 11] = z * off
        out[:, k + 12], out[:, k + 13] = z * n[:, 0], z * n[:, 1]
        out[:, k + 14], out[:, k + 15] = z * tan[:, 0], z * tan[:, 1]
        out[:, k + 16] = z * np.minimum(err / 30.0, 3.0)
        out[:, k + 17] = z * np.minimum(dist_pk[np.arange(C), best] / l, 1.0)
        out[:, k + 18] = z * np.isin(best, (1, 4))  # side pockets (lc, rc)
        out[:, k + 19], out[:, k + 20] = z * G[:, 0] / w, z * G[:, 1] / l
        out[:, k + 21], out[:, k + 22] = z * (nxt[0] - G[:, 0]) / l, z * (nxt[1] - G[:, 1]) / l
        out[:, k + 23] = z * (len(balls) > 1)
        out[:, k + 24] = z * np.abs(np.sum(u * n, 1))  # cos(cut)
        out[:, k + 25] = z * np.sum(tan * (nxt[None] - G), 1) / l  # next ball along the stun line
        out[:, k + 26] = z * np.sum(u * (nxt[None] - G), 1) / l  # ... along the stroke (follow)
    return out


def make_net(hidden=(256, 256, 128)):
    """The action-value MLP: N_FEATURES -> hidden (ReLU) -> 1."""
    import torch.nn as nn

    layers, d = [], N_FEATURES
    for h in hidden:
        layers += [nn.Linear(d, int(h)), nn.ReLU()]
        d = int(h)
    layers.append(nn.Linear(d, 1))
    return nn.Sequential(*layers)


def load_policy(path: str):
    """(network, metadata) of a saved policy file (`save_policy`)."""
    import torch

    blob = torch.load(path, map_location="cpu", weights_only=True)
    meta = dict(blob["meta"])
    if int(meta.get("n_features", -1)) != N_FEATURES:
        raise ValueError(f"{path}: policy has {meta.get('n_features')} features, this code {N_FEATURES}")
    net = make_net(tuple(meta["hidden"]))
    net.load_state_dict(blob["state_dict"])
    net.eval()
    return net, meta


def save_policy(path: str, net, meta: dict) -> None:
    """Write the network's state dict and its metadata (hidden sizes, feature count, ...)
    atomically."""
    import torch

    from agents.checkpoint import atomic_write_bytes

    import io

    buf = io.BytesIO()
    torch.save({"state_dict": {k: v.detach().clone() for k, v in net.state_dict().items()},
                "meta": {**meta, "n_features": N_FEATURES}}, buf)
    atomic_write_bytes(path, buf.getvalue())


def candidate_inputs(agent: SearchAgent, v, acts: list) -> tuple:
    """(shots (C, 5), ratio (C,), p_make (C,)) of the candidate strokes ``acts`` of the view
    ``v``: a stroke along a geometric pot's aim line gets that pot's speed ratio and make
    probability."""
    shots = np.stack([x.shot_array() for x in acts])
    ratio = np.ones(len(acts))
    p = np.zeros(len(acts))
    for c in agent.candidates(v)[: agent.top_k]:
        m = np.abs(shots[:, 1] - c.phi) < 1e-9
        ratio[m] = shots[m, 0] / max(c.V0, 1e-9)
        p[m] = c.p_make
    return shots, ratio, p


class TrainedAgent(SearchAgent):
    """The learned nine-ball player (module docstring).

    Args:
        seed: RNG seed (the geometric player's fallbacks).
        weights: a policy file (`save_policy`), default the shipped `DEFAULT_WEIGHTS`; or
        net: a network (`make_net`) already in memory (training uses it).
        n_placements: ball-in-hand spots scored.
        push_outs, reply_search: the search agent's push-out candidates and push-out reply
            search, off: the network was not trained on push-outs (no feature tells one), so
            it takes none and replies to the opponent's as the geometric player does.
        mirrors: score each stroke as the mean of the network over the layout's four mirror
            images (`mirror`) instead of the layout alone.
    """

    name = "trained"
    disciplines = ("nine_ball",)

    def __init__(self, seed: int | None = None, weights: str | None = None, net=None, n_placements: int = 6,
                 mirrors: bool = True, push_outs: int = 0, reply_search: bool = False, **kw):
        super().__init__(seed=seed, n_placements=n_placements, push_outs=push_outs, reply_search=reply_search, **kw)
        self.mirrors = bool(mirrors)
        if net is None:
            path = weights or DEFAULT_WEIGHTS
            if not os.path.exists(path):
                raise ValueError(f"weights: no policy file at {path!r}")
            net, _ = load_policy(path)
        self.net = net

    def act(self, obs: Observation):
        if obs.discipline not in self.disciplines:
            raise ValueError(f"the trained policy plays {', '.join(self.disciplines)} only, not {obs.discipline!r}")
        return super().act(obs)

    def scores(self, obs: Observation, v, acts: list) -> np.ndarray:
        """Predicted values of the candidate strokes ``acts`` (C,)."""
        import torch

        shots, ratio, p = candidate_inputs(self, v, acts)
        g = v.geom
        lay = layout_of(v.balls, v.on)
        xs = [shot_features(lay, shots, ratio, p, g.aims, g.R, g.w, g.l)]
        for f in range(1, 4 if self.mirrors else 1):
            lay2, s2 = mirror(lay, shots, g.w, g.l, bool(f & 1), bool(f & 2))
            xs.append(shot_features(lay2, s2, ratio, p, g.aims, g.R, g.w, g.l))
        with torch.no_grad():
            y = self.net(torch.from_numpy(np.concatenate(xs))).numpy()[:, 0].astype(np.float64)
        return y.reshape(len(xs), -1).mean(axis=0)

    def search_shot(self, obs: Observation, v, return_value: bool = False):
        acts = self.candidate_actions(v, obs.discipline)
        if len(acts) == 1:
            return (acts[0], 0.0) if return_value else acts[0]
        s = self.scores(obs, v, acts)
        k = int(np.argmax(s))
        return (acts[k], float(s[k])) if return_value else acts[k]


__all__ = ["TrainedAgent", "make_net", "load_policy", "save_policy", "shot_features", "layout_of", "mirror",
           "N_FEATURES", "DEFAULT_WEIGHTS"]

_ = math
