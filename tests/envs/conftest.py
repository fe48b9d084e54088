"""Shared fixtures of the env tests: headless pygame, registered ids, small shot limits."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

import poolgym  # noqa: E402,F401  (registers the ids)

ALL_IDS = (
    "poolgym/NineBall-v0",
    "poolgym/EightBall-v0",
    "poolgym/StraightPool-v0",
    "poolgym/NineBallRunout-v0",
    "poolgym/PotDrill-v0",
    "poolgym/BreakDrill-v0",
)


@pytest.fixture(scope="session")
def table9():
    from poolgym.rules.geometry import get_table

    return get_table("9ft")
