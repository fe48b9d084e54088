"""The seat bar under the table of an N-seat game: whose turn it is and one seat's own secret.

`seat_bar` appends a strip to a `TableRenderer` frame: one box per seat with its number (the
seat to act filled yellow, seats out of the game grey, the others dark), a white frame around
the seat whose secret is shown, and on the right the balls that secret names (its pea, the
balls of the cards in its hand) drawn as ball sprites. The caller passes only what that seat
may know (`poolgym.envs.seating.seat_bar_args`, built from `poolgym.rules.seats.observe`).
"""

from __future__ import annotations

import numpy as np

from poolgym.render import colors
from poolgym.render.font import text_mask

TO_ACT = np.array([240, 200, 40], np.uint8)
IDLE = np.array([50, 50, 50], np.uint8)
OUT = np.array([120, 120, 120], np.uint8)
BAR = np.array([28, 28, 28], np.uint8)


def seat_bar(renderer, frame: np.ndarray, n_seats: int, to_act: int, active: tuple, shown: int,
             secret: tuple) -> np.ndarray:
    """``frame`` with the seat bar appended below (a new array; see module docstring).

    Args:
        renderer: the `TableRenderer` that drew ``frame`` (ball sprites, scale).
        n_seats: seats of the game.
        to_act: the seat to act (-1: none).
        active: per seat still in the game (empty = all).
        shown: the seat whose secret is drawn (framed).
        secret: ball numbers that seat's own secret names.
    """
    size = renderer._sprites[0][2]
    pad = max(2, size // 4)
    h = size + 2 * pad
    W = frame.shape[1]
    bar = np.empty((h, W, 3), np.uint8)
    bar[:] = BAR
    scale = max(1, size // 8)
    box = max(size, 9 * scale)
    x = pad
    for k in range(n_seats):
        if x + box > W:
            break
        col = TO_ACT if k == to_act else (OUT if active and not active[k] else IDLE)
        bar[pad : pad + size, x : x + box] = col
        if k == shown:
            bar[pad - 1 : pad + size + 1, x - 1] = colors.WHITE
            bar[pad - 1 : pad + size + 1, x + box] = colors.WHITE
            bar[pad - 1, x - 1 : x + box + 1] = colors.WHITE
            bar[pad + size, x - 1 : x + box + 1] = colors.WHITE
        m = text_mask(str(k), scale)
        mh, mw = m.shape
        r0, c0 = pad + (size - mh) // 2, x + (box - mw) // 2
        if mh <= size and mw <= box:
            bar[r0 : r0 + mh, c0 : c0 + mw][m] = colors.BLACK if k == to_act else colors.WHITE
        x += box + pad
    cx = W - pad - size / 2.0
    for b in reversed(sorted(secret)):
        if cx - size / 2.0 < x + pad:
            break
        renderer._blit(bar, renderer._sprites[b % len(renderer._sprites)], (pad + size / 2.0, cx))
        cx -= size + pad // 2
    return np.concatenate([frame, bar], axis=0)
