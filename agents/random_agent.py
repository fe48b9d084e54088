"""`random`: uniformly random legal decisions and shot parameters within valid ranges.

* Options: uniform over the offered options.
* Cue-ball placement: uniform over the valid region (the whole bed, or the kitchen when in hand
  behind the head string, G-3.10), rejection-sampled so the ball overlaps nothing.
* Shots: V0 uniform in [V0_LOW, V0_HIGH] m/s, phi uniform in [0, 360) deg, theta = 0 (a level
  cue: no jump or masse strokes), tip offset (a, b) uniform in the disc of radius TIP_RADIUS
  (inside the physics miscue limit 0.5). A call, when required, is a uniform legal ball and a
  uniform pocket (a uniform pocket alone where the rules let no ball be named, 1S-7.2 /
  1S-7.4); push-out / safety declarations, when allowed, are taken with probability 1/2 and
  1/10.
"""

from __future__ import annotations

import math

from agents.base import Agent, Observation
from poolgym.planning import random_placement
from agents.view import Decision, view_of

V0_LOW, V0_HIGH = 0.5, 6.0
TIP_RADIUS = 0.45


class RandomAgent(Agent):
    """Uniformly random legal play (see module docstring)."""

    name = "random"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)

    def act(self, obs: Observation):
        from poolgym.rules.core import ChooseOption, PlaceCueBall, ShotAction

        v = view_of(obs)
        rng = self.rng
        ds = obs.spec.declarations
        if ds and (v.decision is Decision.DECLARE or rng.uniform() < 0.5):
            from poolgym.rules.core import Declare

            return Declare(ds[int(rng.integers(len(ds)))])
        if v.decision is Decision.OPTION:
            return ChooseOption(v.options[int(rng.integers(len(v.options)))])
        if v.options and v.decision is not Decision.NONE and rng.uniform() < 0.5:
            # optional requests (e.g. the GW-5 kitchen spot) are one more legal decision
            return ChooseOption(v.options[int(rng.integers(len(v.options)))])
        if v.decision is Decision.PLACE:
            xy = random_placement(v.geom, v.balls, v.on, rng, kitchen=v.kitchen)
            if xy is None:  # pragma: no cover - only on an absurdly crowded table
                raise RuntimeError("random agent found no valid cue-ball placement")
            return PlaceCueBall(*xy)
        if v.decision is Decision.SHOOT:
            r = TIP_RADIUS * math.sqrt(rng.uniform())
            ang = rng.uniform(0.0, 2.0 * math.pi)
            called_ball = called_pocket = None
            if v.is_lag:
                return ShotAction(V0=float(rng.uniform(V0_LOW, V0_HIGH)), phi=float(rng.uniform(0.0, 360.0)))
            if v.call_required and v.callable_balls:
                called_ball = int(v.callable_balls[int(rng.integers(len(v.callable_balls)))])
                called_pocket = int(rng.integers(6))
            elif v.call_required:  # a pocket alone: no ball may be named (1S-7.2 / 1S-7.4, `shot_call`)
                called_pocket = int(rng.integers(6))
            push = bool(v.push_out_allowed and rng.uniform() < 0.5)
            safety = bool(v.safety_allowed and not push and rng.uniform() < 0.1)
            if safety:  # a declared safety replaces the call (8B-4.12, SP-6.7.4)
                called_ball = called_pocket = None
            return ShotAction(
                V0=float(rng.uniform(V0_LOW, V0_HIGH)), phi=float(rng.uniform(0.0, 360.0)),
                theta=0.0, a=float(r * math.cos(ang)), b=float(r * math.sin(ang)),
                called_ball=called_ball, called_pocket=called_pocket, safety=safety, push_out=push,
            )
        raise ValueError(f"spec: no legal action for seat {obs.seat} in phase {obs.spec.phase}")
