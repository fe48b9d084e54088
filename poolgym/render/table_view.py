"""Top-down `rgb_array` rendering of a pool table with plain numpy.

`TableRenderer` draws the static table (rails, felt, cushions from `Table.segments`, pockets,
jaws from `Table.jaws`, diamonds, head string, foot spot) once into a background image, and one
anti-aliased sprite per ball number (colour, stripe band for 9-15, white number disc). A frame is
a copy of the background plus one alpha blend of each sprite at its ball's pixel position, plus
optional polylines (shot trajectories): ~0.3 ms at the default 640 px width.

Image layout (landscape): the table's length axis y runs left to right (head rail on the left),
the width axis x runs top to bottom; ``col = (y + border) * scale``, ``row = (x + border) * scale``.
"""

from __future__ import annotations

import math

import numpy as np

from poolgym.render import colors
from poolgym.render.font import text_mask

#: rail + cushion band drawn around the playing surface (m)
BORDER = 0.16
#: cushion rubber width drawn outside the nose line (m)
CUSHION_WIDTH = 0.045


class TableRenderer:
    """Renders ball layouts of one table (`physics.Table`-like: ``w``, ``l``, ``pockets``,
    optional ``segments`` and ``jaws``).

    Args:
        table: the table.
        width: image width in pixels (the height follows the table's aspect ratio).
        ball_radius: ball radius in metres.
        n_balls: number of sprites to prepare (ball numbers 0..n_balls-1).
    """

    def __init__(self, table, width: int = 640, ball_radius: float = 0.028575, n_balls: int = 16):
        if width < 64:
            raise ValueError(f"width must be >= 64 px, got {width}")
        self.table = table
        self.w = float(table.w)
        self.l = float(table.l)
        self.scale = width / (self.l + 2 * BORDER)
        self.width = int(width)
        self.height = int(round((self.w + 2 * BORDER) * self.scale))
        self.R = float(ball_radius)
        self.background = self._draw_background()
        self.background.setflags(write=False)
        self._sprites = [self._make_sprite(k) for k in range(max(n_balls, 16))]

    # ------------------------------------------------------------------ coordinates
    def to_pixels(self, xy: np.ndarray) -> np.ndarray:
        """Table coordinates (..., 2) [x, y] -> float pixel coordinates (..., 2) [row, col]."""
        xy = np.asarray(xy, float)
        return np.stack(((xy[..., 0] + BORDER) * self.scale, (xy[..., 1] + BORDER) * self.scale), -1)

    def _grid(self):
        rows = (np.arange(self.height) + 0.5) / self.scale - BORDER  # table x
        cols = (np.arange(self.width) + 0.5) / self.scale - BORDER  # table y
        return rows[:, None], cols[None, :]

    # ------------------------------------------------------------------ static table
    def _draw_background(self) -> np.ndarray:
        img = np.empty((self.height, self.width, 3), np.uint8)
        img[:] = colors.RAIL
        X, Y = self._grid()
        edge = 0.025
        outer = (X < -BORDER + edge) | (X > self.w + BORDER - edge) | (Y < -BORDER + edge) | (
            Y > self.l + BORDER - edge
        )
        img[np.broadcast_to(outer, img.shape[:2])] = colors.RAIL_EDGE
        felt = (X >= -CUSHION_WIDTH) & (X <= self.w + CUSHION_WIDTH) & (Y >= -CUSHION_WIDTH) & (
            Y <= self.l + CUSHION_WIDTH
        )
        img[np.broadcast_to(felt, img.shape[:2])] = colors.FELT
        # pockets (drawn before the cushions so cushion rubber and jaws overlap their rims)
        pockets = np.asarray(self.table.pockets, float).reshape(-1, 3)
        for cx, cy, r in pockets:
            img[(X - cx) ** 2 + (Y - cy) ** 2 <= r * r] = colors.POCKET
        segments = getattr(self.table, "segments", None)
        if segments is not None:
            segs = np.asarray(segments, float).reshape(-1, 2, 2)
            centre = np.array([self.w / 2, self.l / 2])
            for p1, p2 in segs:
                self._fill_cushion(img, X, Y, p1, p2, centre)
        else:  # no segment data: a plain band between the pockets
            band = felt & ~((X >= 0) & (X <= self.w) & (Y >= 0) & (Y <= self.l))
            img[np.broadcast_to(band, img.shape[:2])] = colors.CUSHION
            for cx, cy, r in pockets:
                img[(X - cx) ** 2 + (Y - cy) ** 2 <= r * r] = colors.POCKET
        jaws = getattr(self.table, "jaws", None)
        if jaws is not None:
            for cx, cy, r in np.asarray(jaws, float).reshape(-1, 3):
                img[(X - cx) ** 2 + (Y - cy) ** 2 <= r * r] = colors.CUSHION
        # head string and foot spot
        hs = self.l / 4
        line = (np.abs(Y - hs) < 0.6 / self.scale) & (X >= 0) & (X <= self.w)
        img[np.broadcast_to(line, img.shape[:2])] = colors.STRING_LINE
        fx, fy = self.w / 2, 3 * self.l / 4
        img[(X - fx) ** 2 + (Y - fy) ** 2 <= (0.008) ** 2] = colors.STRING_LINE
        # diamonds: every l/8 along the long rails, every w/4 along the short rails
        dr = max(0.009, 1.2 / self.scale)
        rail_mid = CUSHION_WIDTH + (BORDER - CUSHION_WIDTH) / 2
        spots = []
        for k in range(1, 8):
            if k == 4:
                continue
            spots += [(-rail_mid, k * self.l / 8), (self.w + rail_mid, k * self.l / 8)]
        for k in range(1, 4):
            spots += [(k * self.w / 4, -rail_mid), (k * self.w / 4, self.l + rail_mid)]
        for sx, sy in spots:
            img[(X - sx) ** 2 + (Y - sy) ** 2 <= dr * dr] = colors.DIAMOND
        return img

    def _fill_cushion(self, img, X, Y, p1, p2, centre):
        d = p2 - p1
        L = math.hypot(*d)
        if L == 0:
            return
        n = np.array([-d[1], d[0]]) / L
        mid = (p1 + p2) / 2
        if np.dot(centre - mid, n) > 0:  # make n point away from the playing area
            n = -n
        quad = np.array([p1, p2, p2 + n * CUSHION_WIDTH, p1 + n * CUSHION_WIDTH])
        inside = np.ones(np.broadcast(X, Y).shape, bool)
        c = quad.mean(axis=0)
        for k in range(4):
            a, b = quad[k], quad[(k + 1) % 4]
            e = b - a
            s_c = e[0] * (c[1] - a[1]) - e[1] * (c[0] - a[0])
            s = e[0] * (Y - a[1]) - e[1] * (X - a[0])
            inside &= (s * np.sign(s_c)) >= 0
        img[inside] = colors.CUSHION

    # ------------------------------------------------------------------ sprites
    def _make_sprite(self, number: int):
        r = self.R * self.scale
        size = int(math.ceil(2 * r)) + 2
        half = size / 2.0
        ss = 4  # supersampling for anti-aliased edges
        g = (np.arange(size * ss) + 0.5) / ss - half
        yy, xx = np.meshgrid(g, g, indexing="ij")
        rr = np.hypot(xx, yy)
        inside = rr <= r
        base = colors.ball_color(number).astype(np.float32)
        rgb = np.empty((size * ss, size * ss, 3), np.float32)
        rgb[:] = base
        if colors.is_stripe(number):
            rgb[np.abs(yy) > 0.5 * r] = colors.WHITE
        if number > 0:
            rgb[rr <= 0.55 * r] = colors.WHITE
        # soft shading: darker towards the rim
        shade = 1.0 - 0.25 * np.clip(rr / r, 0, 1) ** 2
        rgb *= shade[..., None]
        # downsample
        rgb = rgb.reshape(size, ss, size, ss, 3).mean(axis=(1, 3))
        alpha = inside.astype(np.float32).reshape(size, ss, size, ss).mean(axis=(1, 3))
        if number > 0:
            scale = max(1, int(r / 5.5))
            m = text_mask(str(number), scale)
            h, w = m.shape
            if h <= size and w <= size:
                r0 = (size - h) // 2
                c0 = (size - w) // 2
                sub = rgb[r0 : r0 + h, c0 : c0 + w]
                sub[m] = colors.BLACK
        return rgb.astype(np.float32), alpha[..., None].astype(np.float32), size

    # ------------------------------------------------------------------ frames
    def render(
        self,
        positions: np.ndarray,
        on_table: np.ndarray | None = None,
        trajectories=None,
        numbers=None,
    ) -> np.ndarray:
        """Frame (H, W, 3) uint8 of the balls at ``positions`` (N, 2 or 3) [row k = ball k].

        Args:
            on_table: (N,) bool; balls not on the table are not drawn (default: all drawn).
            trajectories: optional iterable of (K, 2) table-coordinate polylines drawn under the
                balls (e.g. `poolgym.render.trajectory` output).
            numbers: ball number per row (default: row index).
        """
        frame = self.background.copy()
        if trajectories is not None:
            for pts in trajectories:
                self.draw_polyline(frame, pts, colors.TRAJECTORY)
        pos = np.asarray(positions, float)
        n = pos.shape[0]
        on = np.ones(n, bool) if on_table is None else np.asarray(on_table, bool)
        px = self.to_pixels(pos[:, :2])
        for k in range(n):
            if not on[k]:
                continue
            num = k if numbers is None else int(numbers[k])
            self._blit(frame, self._sprites[num % len(self._sprites)], px[k])
        return frame

    def _blit(self, frame, sprite, centre):
        rgb, alpha, size = sprite
        r0 = int(round(centre[0] - size / 2.0))
        c0 = int(round(centre[1] - size / 2.0))
        r1, c1 = r0 + size, c0 + size
        fr0, fc0 = max(r0, 0), max(c0, 0)
        fr1, fc1 = min(r1, frame.shape[0]), min(c1, frame.shape[1])
        if fr0 >= fr1 or fc0 >= fc1:
            return
        sr = slice(fr0 - r0, fr1 - r0)
        sc = slice(fc0 - c0, fc1 - c0)
        dst = frame[fr0:fr1, fc0:fc1]
        a = alpha[sr, sc]
        dst[:] = (dst * (1.0 - a) + rgb[sr, sc] * a).astype(np.uint8)

    def draw_polyline(self, frame, pts, color) -> None:
        """Draw the polyline ``pts`` (K, 2) table coordinates onto ``frame`` in place."""
        pts = np.asarray(pts, float)
        if pts.ndim != 2 or pts.shape[0] < 2:
            return
        p = self.to_pixels(pts[:, :2])
        d = np.diff(p, axis=0)
        n = np.maximum(np.ceil(np.abs(d).max(axis=1)).astype(np.int64), 1)
        seg = np.repeat(np.arange(len(n)), n)
        start = np.repeat(np.cumsum(n) - n, n)
        t = (np.arange(n.sum()) - start) / np.repeat(n, n)
        q = p[seg] + d[seg] * t[:, None]
        rr = np.clip(q[:, 0].astype(np.int64), 0, frame.shape[0] - 1)
        cc = np.clip(q[:, 1].astype(np.int64), 0, frame.shape[1] - 1)
        frame[rr, cc] = color
