"""`human` render mode: shows frames in a pygame window (pygame imported lazily)."""

from __future__ import annotations

import numpy as np


class HumanWindow:
    """A pygame window that displays `rgb_array` frames at up to ``fps`` frames per second.

    Use ``SDL_VIDEODRIVER=dummy`` to run headless (tests)."""

    def __init__(self, title: str = "poolgym", fps: int = 30):
        self.title = title
        self.fps = int(fps)
        self._screen = None
        self._clock = None
        self._pygame = None

    def show(self, frame: np.ndarray) -> None:
        """Display ``frame`` (H, W, 3) uint8 and process window events."""
        if self._pygame is None:
            from poolgym.render.display import init_display

            pygame = init_display('render_mode="human"')
            self._pygame = pygame
            pygame.display.set_caption(self.title)
            self._screen = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
            self._clock = pygame.time.Clock()
        pg = self._pygame
        surf = pg.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))
        self._screen.blit(surf, (0, 0))
        pg.event.pump()
        pg.display.flip()
        self._clock.tick(self.fps)

    def close(self) -> None:
        if self._pygame is not None:
            self._pygame.display.quit()
            self._pygame = None
            self._screen = None
