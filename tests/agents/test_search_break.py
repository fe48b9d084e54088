"""The search agent's searched break (`agents.search_break`, `SearchAgent` ``break_search``).

* off by default: the search agent breaks as the geometric player does;
* on: the spot is in the kitchen and the rules accept it (G-3.7 / 9B-5.4: cue ball in hand
  behind the head string), the stroke chosen with it is the one played at the break shot;
* its foul rate under the agent's execution noise is no higher than the geometric break's on
  the same racks and the same noise draws (9B-5.4: a scratch or an illegal break hands the
  opponent ball in hand);
* a break foul is valued at `BreakPlan.foul_value`.
"""

import numpy as np
import pytest

from agents.base import Observation

#: a small plan: the test stays cheap (a few hundred break simulations per rack)
SMALL = dict(spots=(-0.35, 0.0, 0.35), speeds=(0.75, 1.0), spins=(-0.25, 0.0), cuts=(0.0,), samples=4,
             refine_k=3, refine_samples=16)


def _break(rack: int):
    from agents.tournament import _discipline, _table_for, make_rules_config
    from poolgym.rules.game import observe

    d = _discipline("nine_ball")
    cfg = make_rules_config("nine_ball")
    table = _table_for(cfg)
    st = d.initial_state(cfg, rack)

    def obs_of(s):
        return Observation(observe(s, s.seat_to_act).state, d.legal_actions(s), table, s.seat_to_act, "nine_ball")

    return d, st, obs_of


def _play_break(agent, rack: int):
    """(state at the break shot, the stroke chosen): the agent places the cue ball, then shoots."""
    from poolgym.rules.core import PlaceCueBall, ShotAction

    d, st, obs_of = _break(rack)
    place = agent.act(obs_of(st))
    assert isinstance(place, PlaceCueBall)
    st, _ = d.apply(st, place)  # the rules accept the spot (IllegalActionError otherwise)
    shot = agent.act(obs_of(st))
    assert isinstance(shot, ShotAction)
    return d, st, obs_of(st), shot


def test_break_search_off_by_default_plays_the_geometric_break():
    from agents.geometric import GeometricAgent
    from agents.search import SearchAgent

    for rack in (0, 1):
        _, st_s, _, s = _play_break(SearchAgent(seed=0), rack)
        _, st_g, _, g = _play_break(GeometricAgent(seed=0), rack)
        assert s == g and np.array_equal(st_s.positions(), st_g.positions())


@pytest.mark.rule("9B-5.4")
def test_searched_break_is_legal_and_fouls_no_more_than_the_geometric_break_9b_5_4():
    from agents.geometric import GeometricAgent
    from agents.search import SearchAgent
    from agents.search_break import break_outcomes

    searched, geometric = [], []
    for rack in (0, 1, 2):
        agent = SearchAgent(seed=rack, break_search=True, break_plan=SMALL)
        d, st, obs, shot = _play_break(agent, rack)
        assert st.positions()[0][1] < _table_head_string(obs)  # the kitchen
        d.apply(st, shot)  # a legal break action (IllegalActionError otherwise)
        _, _, gobs, gshot = _play_break(GeometricAgent(seed=0), rack)
        # the same 64 noise draws (the agent's RNG, common random numbers) for both breaks
        probe = SearchAgent(seed=100 + rack)
        searched.append(break_outcomes(probe, d, [(obs, shot)], 64).fouls.mean())
        probe = SearchAgent(seed=100 + rack)
        geometric.append(break_outcomes(probe, d, [(gobs, gshot)], 64).fouls.mean())
    assert np.mean(geometric) > 0.0  # the geometric break does scratch now and then
    assert np.mean(searched) <= np.mean(geometric), (searched, geometric)


def _table_head_string(obs) -> float:
    from agents.view import view_of

    return view_of(obs).geom.head_string_y


def test_searched_break_plays_the_stroke_kept_at_the_placement():
    from poolgym.rules.core import PlaceCueBall
    from agents.search import SearchAgent

    agent = SearchAgent(seed=5, break_search=True, break_plan=SMALL)
    d, st0, obs_of = _break(4)
    place = agent.act(obs_of(st0))
    spot, kept = agent._break_next
    assert np.allclose(spot, (place.x, place.y))
    st, _ = d.apply(st0, place)
    assert agent.act(obs_of(st)) == kept and agent._break_next is None  # used once
    # the cue ball elsewhere (another spot): the kept stroke is dropped, the break searched there
    agent.act(obs_of(st0))
    other = PlaceCueBall(float(spot[0]) + (0.2 if spot[0] < 0.6 else -0.2), float(spot[1]))
    st2, _ = d.apply(st0, other)
    shot = agent.act(obs_of(st2))
    assert agent._break_next is None
    d.apply(st2, shot)


@pytest.mark.rule("9B-5.4")
def test_a_break_foul_is_worth_the_plans_foul_value_9b_5_4():
    from agents.search import SearchAgent
    from agents.search_break import break_outcomes
    from poolgym.rules.core import ShotAction

    d, st, obs_of = _break(0)
    agent = SearchAgent(seed=0, break_search=True, break_plan=SMALL)
    _, st, obs, _ = _play_break(agent, 0)
    away = ShotAction(V0=3.0, phi=270.0)  # straight at the head rail: the 1 is not hit first
    for fv in (0.0, 0.2):
        out = break_outcomes(SearchAgent(seed=1), d, [(obs, away)], 4, fv)
        assert out.fouls.all() and np.allclose(out.values, fv)
    out = break_outcomes(SearchAgent(seed=1), d, [(obs, away)], 4, None)
    assert out.fouls.all() and (out.values > 0.0).all() and (out.values < 0.5).all()
