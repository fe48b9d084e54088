"""Colours of the table and the balls (RGB uint8).

Ball colours follow the standard WPA/BCA set used in eight-ball, nine-ball and 14.1:
1 and 9 yellow, 2 and 10 blue, 3 and 11 red, 4 and 12 purple, 5 and 13 orange, 6 and 14 green,
7 and 15 maroon, 8 black; 9-15 are stripes (white ball with a coloured band), the cue ball white.
"""

from __future__ import annotations

import numpy as np

FELT = np.array([22, 110, 62], np.uint8)
FELT_DARK = np.array([16, 88, 48], np.uint8)
RAIL = np.array([92, 52, 24], np.uint8)
RAIL_EDGE = np.array([60, 32, 14], np.uint8)
CUSHION = np.array([14, 80, 42], np.uint8)
POCKET = np.array([12, 12, 12], np.uint8)
DIAMOND = np.array([235, 225, 200], np.uint8)
STRING_LINE = np.array([60, 140, 90], np.uint8)
WHITE = np.array([245, 245, 240], np.uint8)
BLACK = np.array([10, 10, 10], np.uint8)
TRAJECTORY = np.array([255, 255, 255], np.uint8)

_SOLIDS = {
    1: (250, 200, 20),  # yellow
    2: (20, 60, 190),  # blue
    3: (210, 30, 30),  # red
    4: (90, 30, 140),  # purple
    5: (245, 120, 20),  # orange
    6: (20, 130, 60),  # green
    7: (120, 30, 30),  # maroon
    8: (15, 15, 15),  # black
}


def ball_color(number: int) -> np.ndarray:
    """Base colour of ball ``number`` (0 = cue ball, 1-15 object balls; others grey)."""
    if number == 0:
        return WHITE.copy()
    if 1 <= number <= 8:
        return np.array(_SOLIDS[number], np.uint8)
    if 9 <= number <= 15:
        return np.array(_SOLIDS[number - 8], np.uint8)
    return np.array([150, 150, 150], np.uint8)


def is_stripe(number: int) -> bool:
    """Balls 9-15 are stripes."""
    return 9 <= number <= 15
