"""pygame for a window, quietly: the display only, never the audio.

`pygame.init()` also opens the audio device; on a machine without sound (a server, a
container, CI) SDL's ALSA back end then prints a page of ``ALSA lib ... cannot find card '0'``
errors to stderr, and importing pygame prints a greeting to stdout. Neither means anything to a
user of poolgym, which has no sound. `init_display` imports pygame without the greeting and
initialises only the display (and so its event queue), with SDL's dummy audio driver should
anything initialise audio later.
"""

from __future__ import annotations

import os


def init_display(purpose: str = "a pygame window"):
    """Import pygame without its greeting, initialise its display only; returns the module.

    Raises ImportError naming the ``render`` extra if pygame is not installed. Environment
    variables set here (``PYGAME_HIDE_SUPPORT_PROMPT``, ``SDL_AUDIODRIVER=dummy``) are set only
    if the user has not set them, and only when a window is actually opened."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        import pygame
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(f'{purpose} needs pygame: pip install "poolgym[render]"') from e
    pygame.display.init()
    return pygame
