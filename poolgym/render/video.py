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
        # macro_block_size=1 keeps odd frame sizes instead of resizing with a warning
        with imageio.get_writer(path, fps=fps, macro_block_size=1) as w:
            for f in frames:
                w.append_data(f)
    else:
        raise ValueError(f"path: unsupported video suffix {suffix!r} (use .mp4 or .gif)")
    return path
