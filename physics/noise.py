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
        self._perturb(shots, rng.standard_normal(shots.shape), miscue_limit, theta_max)
        return shots[0] if single else shots

    def _perturb(self, shots: np.ndarray, z: np.ndarray, miscue_limit: float, theta_max: float) -> None:
        """`apply`'s arithmetic, in place on the (B, 5) float64 ``shots``, with the standard
        normal draws ``z`` (B, 5)."""
        sig = np.array([self.sigma_V0, self.sigma_phi, self.sigma_theta, self.sigma_a, self.sigma_b])
        shots += z * sig
        shots[:, 0] = np.maximum(shots[:, 0], 0.0)
        shots[:, 1] = np.mod(shots[:, 1], 360.0)
        shots[:, 2] = np.clip(shots[:, 2], 0.0, theta_max)
        off = np.hypot(shots[:, 3], shots[:, 4])
        over = off > miscue_limit
        if over.any():
            scale = miscue_limit / off[over] * (1.0 - 1e-12)
            shots[over, 3] *= scale
            shots[over, 4] *= scale

    def apply_stroke(self, row, rng: np.random.Generator, *, miscue_limit: float = 0.5, theta_max: float = 90.0,
                     max_speed: float = math.inf) -> np.ndarray:
        """`apply` of one stroke ``row`` (5 numbers [V0, phi, theta, a, b]), then V0 capped at
        ``max_speed``: a new (5,) float64 array with the same values, bit for bit, from the
        same five draws of ``rng``. The arithmetic runs on Python floats (the same IEEE
        operations as `apply`'s, a few microseconds where numpy's calls on a one-row array
        cost about ten); a stroke at the edge of the clipping (V0 or theta on a bound or not
        finite, a tip offset within 1e-9 of the miscue limit or beyond it) goes through
        `apply`'s array arithmetic with the same draws."""
        if not isinstance(rng, np.random.Generator):
            raise ValueError("rng must be a numpy.random.Generator")
        r = np.array(row, dtype=np.float64).reshape(5)
        v0, phi, theta, a, b = r.tolist()
        z = rng.standard_normal(5)
        z0, z1, z2, z3, z4 = z.tolist()
        v0 = v0 + z0 * float(self.sigma_V0)
        phi = phi + z1 * float(self.sigma_phi)
        theta = theta + z2 * float(self.sigma_theta)
        a = a + z3 * float(self.sigma_a)
        b = b + z4 * float(self.sigma_b)
        lim2 = miscue_limit * miscue_limit
        if (v0 != 0.0 and 0.0 != theta != theta_max and math.isfinite(v0 + phi + theta + a + b)
                and a * a + b * b < lim2 * (1.0 - 1e-9)):
            # numpy's maximum / mod / clip on these values; the offset is within the limit
            if v0 < 0.0:
                v0 = 0.0
            if theta < 0.0:
                theta = 0.0
            elif theta > theta_max:
                theta = theta_max
            out = np.array((v0, phi % 360.0, theta, a, b))
        else:
            out = r.reshape(1, 5)
            self._perturb(out, z.reshape(1, 5), miscue_limit, theta_max)
            out = out[0]
        if out[0] > max_speed:  # (numpy's minimum: a NaN stays)
            out[0] = max_speed
        return out


def perturb_stroke(noise, row, rng: np.random.Generator, *, max_speed: float = math.inf) -> np.ndarray:
    """Strokes ``row`` (5 numbers, or (k, 5): several strokes drawn in row order) through the
    execution noise model ``noise`` (any object with ``apply(shots, rng)`` on a (B, 5) array),
    then V0 capped at ``max_speed`` (a NaN stays): a new float64 array of ``row``'s shape. One
    stroke of an `ExecutionNoise` itself takes its float path (`ExecutionNoise.apply_stroke`,
    the same values); otherwise the model's own ``apply`` on the rows."""
    shape = np.shape(row)
    if type(noise) is ExecutionNoise and shape == (5,):
        return noise.apply_stroke(row, rng, max_speed=max_speed)
    out = np.array(noise.apply(np.reshape(row, (-1, 5)), rng), dtype=np.float64)
    out[:, 0] = np.minimum(out[:, 0], max_speed)
    return out.reshape(shape)
