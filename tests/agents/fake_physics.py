"""A random-outcome stand-in for `physics.simulate`, used to walk through many reachable rules
states quickly (the rules only read the shot record). Not a physics model: it moves a few balls
to random free spots, pockets some, and writes a random first contact and cushion events."""

from __future__ import annotations

import numpy as np

from poolgym.rules.geometry import ball_radius
from poolgym.rules.shot_record import EventKind, ShotRecord


def _free_spot(rng, pos, on, table, R):
    for _ in range(200):
        xy = np.array([rng.uniform(2 * R, table.w - 2 * R), rng.uniform(2 * R, table.l - 2 * R)])
        others = pos[on]
        if len(others) == 0 or np.min(np.linalg.norm(others - xy, axis=1)) > 2.2 * R:
            return xy
    return None


def random_outcome(rng: np.random.Generator, table):
    """`simulate(state, action) -> ShotRecord` drawing a random outcome from rng."""
    R = ball_radius()
    nseg = max(len(getattr(table, "segments", ())), 1)

    def simulate(state, action):
        pos0 = state.positions()
        on0 = state.on_mask()
        pos1 = pos0.copy()
        on = on0.copy()
        balls = [k for k in range(1, len(on0)) if on0[k]]
        events = []
        t = 0.1
        if balls and rng.uniform() < 0.9:
            first = int(rng.choice(balls))
            events.append((t, int(EventKind.BALL_BALL), 0, first))
            t += 0.1
            for _ in range(int(rng.integers(0, 5))):
                b = int(rng.choice(balls + [0]))
                events.append((t, int(EventKind.BALL_CUSHION), b, int(rng.integers(nseg))))
                t += 0.1
        pocketed = {}
        for b in balls:
            if rng.uniform() < 0.12:
                pocketed[b] = int(rng.integers(6))
        if rng.uniform() < 0.08 and on0[0]:
            pocketed[0] = int(rng.integers(6))
        for b in pocketed:
            on[b] = False
        for b in [0] + balls:
            if b in pocketed or not on0[b]:
                continue
            if rng.uniform() < 0.5:
                on[b] = False
                xy = _free_spot(rng, pos1, on, table, R)
                on[b] = True
                if xy is not None:
                    pos1[b] = xy
        return ShotRecord.build(pos0, events, on0=on0, pos1=pos1, pocketed=pocketed)

    return simulate
