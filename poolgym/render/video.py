"""Write frames, a shot or a whole game as MP4 or GIF with imageio (imported lazily)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import numpy as np


def write_video(frames: Iterable[np.ndarray], path: str | Path, fps: int = 30) -> Path:
    """Write ``frames`` ((H, W, 3) uint8 each) to ``path``; the format follows the suffix
    (``.mp4`` via imageio-ffmpeg, ``.gif`` via pillow). Returns the path."""
    try:
        import imageio.v2 as imageio
    except ImportError as e:  # pragma: no cover
        raise ImportError('video output needs imageio: pip install "poolgym[render]"') from e
    path = Path(path)
    frames = [np.asarray(f, np.uint8) for f in frames]
    if not frames:
        raise ValueError("frames: need at least one frame")
    suffix = path.suffix.lower()
    if suffix == ".gif":
        imageio.mimsave(path, frames, duration=1000.0 / fps, loop=0)
    elif suffix in (".mp4", ".mov", ".mkv", ".avi"):
        # H.264 (yuv420p) needs even sizes: pad odd frames by one edge row/column of
        # their own pixels; macro_block_size=1 stops imageio from resizing them.
        h, w_ = frames[0].shape[:2]
        pad = ((0, h % 2), (0, w_ % 2), (0, 0))
        with imageio.get_writer(path, fps=fps, macro_block_size=1) as w:
            for f in frames:
                w.append_data(np.pad(f, pad, mode="edge") if (h % 2 or w_ % 2) else f)
    else:
        raise ValueError(f"path: unsupported video suffix {suffix!r} (use .mp4 or .gif)")
    return path


def shot_frames(renderer, rvw: np.ndarray, s: np.ndarray, shot: np.ndarray, fps: int = 30,
                trails: bool = True, max_frames: int = 300, **physics_kwargs) -> list:
    """Frames of one shot in real time at ``fps`` (at most ``max_frames``), sampled with
    `poolgym.render.trajectory.sample_shot`; ``trails`` draws each ball's path so far."""
    import physics

    from poolgym.render.trajectory import sample_shot

    full = physics.simulate_batch(renderer.table, np.asarray(rvw)[None], np.asarray(shot, float)[None],
                                  np.zeros(1, np.int64), s=np.asarray(s)[None], **physics_kwargs)
    n = int(full.n_events[0])
    duration = float(full.ev_t[0, n - 1]) if n else 0.0
    k = int(min(max(2, round(duration * fps) + 1), max_frames))
    _, pos, on = sample_shot(renderer.table, rvw, s, shot, n_samples=k, duration=duration, **physics_kwargs)
    frames = []
    for i in range(k):
        tr = None
        if trails and i > 0:
            tr = [pos[: i + 1, b][on[: i + 1, b]] for b in range(pos.shape[1])]
        frames.append(renderer.render(pos[i], on[i], trajectories=tr))
    return frames


def record_episode(env, path: str | Path, policy=None, seed: int | None = None, fps: int = 30,
                   max_steps: int = 200) -> Path:
    """Play one episode of a `PoolEnv` (``env.unwrapped`` is used) with ``policy(obs) -> action``
    (default: random actions) and write every shot of every seat, animated, to ``path``."""
    from poolgym.render.table_view import TableRenderer

    base = env.unwrapped
    renderer = TableRenderer(base.table, base.render_width, base.R, max(base.disc.n_balls, 16))
    obs, _ = base.reset(seed=seed)
    frames = [renderer.render(base.state.positions(), base.state.on_mask())]
    kw = base.models.kwargs()
    kw.pop("max_events", None)
    for _ in range(max_steps):
        action = base.action_space.sample() if policy is None else policy(obs)
        obs, _, term, trunc, _ = base.step(action)
        for _seat, rvw, s, row in base.session.log.shots:
            if np.ndim(row) == 1:  # (the lag's two simultaneous strokes are not animated)
                frames += shot_frames(renderer, rvw, s, row, fps=fps, **kw)
        frames.append(renderer.render(base.state.positions(), base.state.on_mask()))
        if term or trunc:
            break
    return write_video(frames, path, fps=fps)
