"""Fixtures for the physics tests."""

from __future__ import annotations

import pytest

import physics


@pytest.fixture(scope="session")
def table9():
    return physics.Table.wpa("9ft")
