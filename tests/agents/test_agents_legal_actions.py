"""Agents never produce an illegal action.

A random walk through reachable rules states (the shot outcomes come from a random stand-in for
the physics, tests/agents/fake_physics.py) visits breaks, ball in hand anywhere and behind the
head string (GB-8, G-3.10), push-out decisions (9B-5.6), options after illegal breaks (8B-4.5,
SP-6.6) and ordinary shots. At every state each agent's action is applied to the referee: an
`IllegalActionError` fails the test.
"""

import numpy as np
import pytest

import agents
from agents.base import Observation
try:
    from fake_physics import random_outcome  # tests/agents on sys.path (pytest rootdir-less import)
except ImportError:  # pragma: no cover - tests laid out as packages
    from tests.agents.fake_physics import random_outcome

DISCIPLINES = ["nine_ball", "eight_ball", "straight_pool"]


def _discipline(name):
    from poolgym.rules.game import DISCIPLINES as D

    return D[name]  # an import error of a discipline module fails the test


def walk(name, n_states, seed, agent_names):
    from poolgym.rules.core import IllegalActionError
    from poolgym.rules.geometry import get_table

    d = _discipline(name)
    cfg = d.default_config()
    table = get_table(cfg.table)
    rng = np.random.default_rng(seed)
    sim = random_outcome(rng, table)
    players = {n: agents.make(n, seed=seed) for n in agent_names}
    walker = agents.make("random", seed=seed + 1)
    state = d.initial_state(cfg, seed)
    checked = {n: 0 for n in agent_names}
    phases = set()
    for step in range(n_states):
        if state.game_over:
            state = d.initial_state(cfg, int(rng.integers(1 << 30)))
        spec = d.legal_actions(state)
        phases.add((spec.phase.value, spec.must_place, spec.place_cue))
        obs = Observation(state, spec, table, state.seat_to_act, name)
        for n, a in players.items():
            act = a.act(obs)
            try:
                d.apply(state, act, simulate=sim)
            except IllegalActionError as e:
                pytest.fail(f"{n} produced an illegal action {act!r} at step {step} "
                            f"(phase {spec.phase}, spec {spec}): {e}")
            checked[n] += 1
        # advance with the walker (random legal play), or the geometric player half the time
        mover = players.get("geometric", walker) if rng.uniform() < 0.5 else walker
        state, _ = d.apply(state, mover.act(obs), simulate=sim)
    return checked, phases


@pytest.mark.parametrize("name", DISCIPLINES)
def test_random_and_geometric_always_legal(name):
    checked, phases = walk(name, 1000, seed=7, agent_names=["random", "geometric"])
    assert checked["random"] == 1000 and checked["geometric"] == 1000
    # the walk must have reached breaks, ball in hand and ordinary shots
    kinds = {p[0] for p in phases}
    assert {"break", "play"} <= kinds
    assert any(p[1] for p in phases), "never had to place the cue ball"


@pytest.mark.parametrize("name", DISCIPLINES)
def test_search_always_legal(name):
    """The search agent (batched simulation of candidate shots) on a shorter walk."""
    n = 30 if name == "nine_ball" else 12
    checked, _ = walk(name, n, seed=11, agent_names=["search"])
    assert checked["search"] == n
