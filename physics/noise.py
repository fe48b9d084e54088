"""Execution noise: Gaussian perturbation of the shot parameters, drawn in Python.

``ExecutionNoise.icga()`` is the Computational Pool Tournament (ICGA) preset:
sigma_phi 0.125 deg, sigma_theta 0.1 deg, sigma_V0 0.075 m/s, sigma_a = sigma_b = 0.5 mm
(expressed as a fraction of R = 28.575 mm). Noise is drawn from a caller-supplied
``numpy.random.Generator`` (never a global RNG), one standard normal per column in the
order V0, phi, theta, a, b and shot, so a seeded generator reproduces the same shots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np

R_DEFAULT = 0.028575


@dataclass(frozen=True)
class ExecutionNoise:
    """Standard deviations: V0 (m/s), phi and theta (deg), a and b (fractions of R)."""

    sigma_V0: float = 0.0
    sigma_phi: float = 0.0
    sigma_theta: float = 0.0
    sigma_a: float = 0.0
    sigma_b: float = 0.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ValueError(f"ExecutionNoise.{f.name} must be a finite number >= 0, got {v!r}")

    @classmethod
    def icga(cls, R: float = R_DEFAULT) -> "ExecutionNoise":
        """ICGA Computational Pool preset (a and b sigmas 0.5 mm / R)."""
        return cls(sigma_V0=0.075, sigma_phi=0.125, sigma_theta=0.1,
                   sigma_a=0.0005 / R, sigma_b=0.0005 / R)

    def apply(self, shots: np.ndarray, rng: np.random.Generator, *, miscue_limit: float = 0.5,
              theta_max: float = 90.0) -> np.ndarray:
        """Return perturbed copies of ``shots`` (B, 5) [V0, phi, theta, a, b].

        The result is clipped into the valid domain: V0 >= 0, 0 <= theta <= theta_max, and the
        tip offset scaled back onto the miscue circle if noise pushed it beyond
        ``miscue_limit``; phi is wrapped into [0, 360).
        """
        if not isinstance(rng, np.random.Generator):
            raise ValueError("rng must be a numpy.random.Generator")
        shots = np.array(shots, dtype=np.float64, copy=True)
        single = shots.ndim == 1
        shots = shots.reshape(-1, 5)
        sig = np.array([self.sigma_V0, self.sigma_phi, self.sigma_theta, self.sigma_a, self.sigma_b])
        shots += rng.standard_normal(shots.shape) * sig
        shots[:, 0] = np.maximum(shots[:, 0], 0.0)
        shots[:, 1] = np.mod(shots[:, 1], 360.0)
        shots[:, 2] = np.clip(shots[:, 2], 0.0, theta_max)
        off = np.hypot(shots[:, 3], shots[:, 4])
        over = off > miscue_limit
        if over.any():
            scale = miscue_limit / off[over] * (1.0 - 1e-12)
            shots[over, 3] *= scale
            shots[over, 4] *= scale
        return shots[0] if single else shots
