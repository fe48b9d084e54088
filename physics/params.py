"""Ball and cue parameters (defaults = pooltool 0.6.0 defaults)."""

from __future__ import annotations

import math
import functools
from dataclasses import dataclass, fields

import numpy as np


def _check_finite_positive(obj, names_nonneg=()) -> None:
    for f in fields(obj):
        v = getattr(obj, f.name)
        if isinstance(v, bool):
            continue
        if not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError(f"{type(obj).__name__}.{f.name} must be a finite number, got {v!r}")
        if f.name in names_nonneg:
            if v < 0:
                raise ValueError(f"{type(obj).__name__}.{f.name} must be >= 0, got {v!r}")
        elif v <= 0:
            raise ValueError(f"{type(obj).__name__}.{f.name} must be > 0, got {v!r}")


@dataclass(frozen=True)
class BallParams:
    """Physical parameters shared by all balls (SI units).

    ``u_s`` sliding friction, ``u_r`` rolling friction, spinning friction
    ``u_sp = u_sp_proportionality * R`` (pooltool's convention: the spin about the vertical
    axis decays at ``5 u_sp g / (2 R)`` rad/s^2), ``e_b`` ball-ball and ``e_c`` ball-cushion
    restitution, ``f_c`` ball-cushion friction, and Alciatore's ball-ball friction law
    ``u_b = a + b exp(-c s)`` (s = relative tangential surface speed at the contact).
    ``e_t`` is the ball-table (cloth-covered slate) restitution of an airborne ball landing on
    the bed or of a ball driven into the slate by an elevated cue (0.5, the value of
    Alciatore's jump-shot analysis; see ``physics/README.md``); the friction of those bounces is
    the cloth's ``u_s``.
    """

    m: float = 0.170097
    R: float = 0.028575
    u_s: float = 0.2
    u_r: float = 0.01
    u_sp_proportionality: float = 4 / 9
    e_b: float = 0.95
    e_c: float = 0.85
    f_c: float = 0.2
    g: float = 9.81
    a: float = 0.009951
    b: float = 0.108
    c: float = 1.088
    e_t: float = 0.5

    def __post_init__(self) -> None:
        _check_finite_positive(self, names_nonneg=("u_r", "u_sp_proportionality", "f_c", "a", "b", "c"))
        if self.u_s <= 0:
            raise ValueError("BallParams.u_s must be > 0")
        if self.e_t > 1.0:
            raise ValueError("BallParams.e_t must be <= 1")

    @property
    def u_sp(self) -> float:
        return self.u_sp_proportionality * self.R

    def as_array(self) -> np.ndarray:
        """Packed float64 vector read by the kernel: see ``physics.kernel.P_*`` indices."""
        return np.array(
            [self.m, self.R, self.u_s, self.u_r, self.u_sp, self.e_b, self.e_c, self.f_c, self.g,
             self.a, self.b, self.c, self.e_t],
            dtype=np.float64,
        )

    @functools.cached_property
    def kernel_array(self) -> np.ndarray:
        """:meth:`as_array`, computed once per instance for the simulation calls, which only
        read it (shared between calls: do not write to it)."""
        return self.as_array()


@dataclass(frozen=True)
class CueParams:
    """Cue stick: mass ``M`` (kg), optional squirt (off by default) and the miscue limit.

    A strike whose tip offset ``sqrt(a^2 + b^2)`` (fraction of R) exceeds ``miscue_limit`` is a
    miscue and is rejected with ``ValueError`` (we do not simulate miscues).
    ``end_mass`` is the effective cue end mass of the squirt model (pooltool's Predator value).
    """

    M: float = 0.567
    squirt: bool = False
    miscue_limit: float = 0.5
    end_mass: float = 0.0056699

    def __post_init__(self) -> None:
        _check_finite_positive(self)
        if self.miscue_limit > 1.0:
            raise ValueError("CueParams.miscue_limit must be <= 1 (fraction of R)")
