"""A 3x5 pixel bitmap font for the digits printed on the balls (no font files needed)."""

from __future__ import annotations

import numpy as np

_GLYPHS = {
    "0": ("111", "101", "101", "101", "111"),
    "1": ("010", "110", "010", "010", "111"),
    "2": ("111", "001", "111", "100", "111"),
    "3": ("111", "001", "111", "001", "111"),
    "4": ("101", "101", "111", "001", "001"),
    "5": ("111", "100", "111", "001", "111"),
    "6": ("111", "100", "111", "101", "111"),
    "7": ("111", "001", "010", "010", "010"),
    "8": ("111", "101", "111", "101", "111"),
    "9": ("111", "101", "111", "001", "111"),
}


def text_mask(text: str, scale: int = 1) -> np.ndarray:
    """Boolean (5*scale, (4*len-1)*scale) mask of ``text`` (digits only), one blank column
    between glyphs."""
    cols = []
    for k, ch in enumerate(text):
        if ch not in _GLYPHS:
            raise ValueError(f"text: unsupported character {ch!r}")
        g = np.array([[c == "1" for c in row] for row in _GLYPHS[ch]], bool)
        if k:
            cols.append(np.zeros((5, 1), bool))
        cols.append(g)
    m = np.concatenate(cols, axis=1) if cols else np.zeros((5, 0), bool)
    if scale > 1:
        m = np.repeat(np.repeat(m, scale, axis=0), scale, axis=1)
    return m
