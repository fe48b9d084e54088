"""Record a game between agents shot by shot and turn it into frames (video, pygame window).

`record_game` plays like `agents.tournament.play_game` but keeps every step: the state before,
the action, the state after, the verdict and the physics shot record. `game_frames` renders the
table before each shot and after it with the cue ball's path drawn (the event positions of the
shot record, or a straight line when the physics did not log them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from agents.base import Agent, Observation


@dataclass
class Step:
    """One applied action of a recorded game."""

    before: Any
    action: Any
    after: Any
    verdict: Any
    record: Any = None


def record_game(discipline: str, agents: Sequence[Agent], seed: int, noise="icga", max_shots: int = 30,
                rules: dict | None = None, noise_seed: int | None = None) -> tuple[list[Step], Any]:
    """Play one game (seat k = agents[k]); returns (steps, table)."""
    from agents.tournament import canonical_discipline, make_rules_config
    from poolgym.envs.physics_io import make_noise
    from poolgym.envs.pool_env import resolve_discipline
    from poolgym.rules.core import ShotAction
    from poolgym.rules.game import simulate_record
    from poolgym.rules.geometry import get_table

    name = canonical_discipline(discipline)
    disc = resolve_discipline(name)
    cfg = make_rules_config(name, rules) if name in ("nine_ball", "eight_ball", "straight_pool") \
        else disc.default_config()
    table = get_table(cfg.table)
    nz = make_noise(noise)
    nrng = np.random.default_rng(seed if noise_seed is None else noise_seed)
    for k, a in enumerate(agents):
        a.reset(seed + 1 + k)
    state = disc.initial_state(cfg, seed)
    steps: list[Step] = []
    shots = 0
    while not state.game_over and shots < max_shots:
        spec = disc.legal_actions(state)
        seat = state.seat_to_act  # the seat's view: no chance RNG, no other seat's secret
        action = agents[seat].act(Observation(disc.observe(state, seat).state, spec, table, seat, name))
        holder = {}
        if isinstance(action, ShotAction):
            shots += 1
            if nz is not None:
                row = nz.apply(action.shot_array()[None], nrng)[0]
                action = ShotAction(*[float(x) for x in row], action.called_ball, action.called_pocket,
                                    action.safety, action.push_out)

            def sim(st, act):
                rec = simulate_record(st, act)
                holder["rec"] = rec
                return rec

            new, verdict = disc.apply(state, action, simulate=sim)
        else:
            new, verdict = disc.apply(state, action)
        steps.append(Step(state, action, new, verdict, holder.get("rec")))
        state = new
    return steps, table


def cue_path(step: Step) -> np.ndarray | None:
    """(K, 2) polyline of the cue ball during the shot of `step` (None for non-shots)."""
    rec = step.record
    if rec is None:
        return None
    pts = [np.asarray(rec.pos0[0], float)]
    ev_xy = getattr(rec, "ev_xy", None)
    if ev_xy is not None:
        for k in range(len(rec.ev_i)):
            if int(rec.ev_i[k]) == 0 and int(rec.ev_kind[k]) in (1, 2, 3, 4):
                pts.append(np.asarray(ev_xy[k], float))
    pts.append(np.asarray(rec.pos1[0], float))
    return np.array(pts)


def game_frames(steps: list[Step], table, width: int = 640, hold: int = 15) -> list[np.ndarray]:
    """Frames of a recorded game: each shot's start (held `hold` frames) and end with the cue
    ball's path drawn (held `hold` frames)."""
    from poolgym.render.table_view import TableRenderer

    n = steps[0].before.n_balls if steps else 16
    r = TableRenderer(table, width=width, n_balls=n)
    frames = []
    for st in steps:
        if st.record is None:
            continue
        f0 = r.render(st.before.positions(), st.before.on_mask())
        path = cue_path(st)
        f1 = r.render(st.after.positions(), st.after.on_mask(), trajectories=[path] if path is not None else None)
        frames += [f0] * hold + [f1] * hold
    if not frames and steps:
        frames = [r.render(steps[-1].after.positions(), steps[-1].after.on_mask())] * hold
    return frames


def write_game_video(path: str, discipline: str, agents: Sequence[Agent], seed: int, noise="icga",
                     max_shots: int = 12, fps: int = 30, width: int = 480) -> str:
    """Record a game and write it to `path` (.mp4 or .gif)."""
    from poolgym.render.video import write_video

    steps, table = record_game(discipline, agents, seed, noise, max_shots)
    frames = game_frames(steps, table, width=width, hold=max(fps // 2, 1))
    # H.264 with yuv420p needs even frame sizes: crop a trailing row/column if odd
    frames = [f[: f.shape[0] // 2 * 2, : f.shape[1] // 2 * 2] for f in frames]
    write_video(frames, path, fps=fps)
    return path
