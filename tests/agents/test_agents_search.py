"""Decision paths of the `search` agent (agents/search.py) on hand-built nine-ball layouts.

* the run-out value model (win probability of the seat at the table, balls left, next pot);
* combinations on the 9 (9B-5.1 / 9B-5.3: the 9 pocketed on a legal shot wins the game);
* one-rail kicks when no legal ball can be hit directly (9B-5.8 / G-3.18: the lowest ball
  must be contacted first);
* the two-stage search (coarse screen, then the top candidates re-simulated with more noise
  draws) returns one of its candidates and stays legal.
"""

import numpy as np
import pytest

from agents.base import Observation


def _state(discipline: str, layout: dict, seat: int = 0, **changes):
    """A ``discipline`` state in Phase.PLAY (`poolgym.rules.testing.make_state`), cue ball in
    position, only the balls of `layout` ({row: (x, y)}, row 0 the cue ball) on the table."""
    from agents.tournament import make_rules_config
    from poolgym.rules.game import DISCIPLINES
    from poolgym.rules.testing import make_state

    cfg = make_rules_config(discipline)
    balls = {k: xy for k, xy in layout.items() if k != 0}
    st = make_state(discipline, balls, layout[0], config=cfg, seat=seat, seed=1, shot_number=5, **changes)
    return DISCIPLINES[discipline], cfg, st


def _nine_state(layout: dict, seat: int = 0):
    from poolgym.rules.nine_ball import NineBallExtra

    return _state("nine_ball", layout, seat, extra=NineBallExtra())


def _obs(d, cfg, st):
    from poolgym.rules.geometry import get_table

    table = get_table(cfg.table)
    return Observation(st, d.legal_actions(st), table, st.seat_to_act, "nine_ball")


def test_runout_model():
    from agents.search import runout_value, runout_win

    r = 0.8
    a = [runout_win(n, r) for n in range(12)]
    assert a[0] == 1.0
    assert all(x > y for x, y in zip(a, a[1:]))  # more balls to pocket: less likely to win
    assert a[-1] == pytest.approx(0.5, abs=0.01)  # a long rack is a coin toss
    # the last ball made for sure wins; a better next shot is worth more
    assert runout_value(1.0, 1, r) == 1.0
    qs = np.linspace(0, 1, 11)
    v = [runout_value(q, 4, r) for q in qs]
    assert all(x < y for x, y in zip(v, v[1:]))
    # leaving the opponent snookered (q = 0) with 1 ball left beats leaving him a sure shot
    assert 1 - runout_value(0.0, 1, r) > 1 - runout_value(0.9, 1, r)


def test_asymmetric_runout_model():
    """`runout_pair`: with the other side as good as the seat it is `runout_win`; a weaker
    other side (r_other < r) makes the seat's chances better at every n, and handing the table
    over costs less: the two recursions A(n) = r A(n-1) + (1 - r)(1 - B(n)) and B(n) = r_o
    B(n-1) + (1 - r_o)(1 - A(n)) hold."""
    from agents.search import runout_pair, runout_value, runout_value2, runout_win

    for n in range(10):
        a, b = runout_pair(n, 0.8, 0.8)
        assert a == pytest.approx(runout_win(n, 0.8)) and b == pytest.approx(a)
        assert runout_value2(0.6, max(n, 1), 0.8, 0.8) == pytest.approx(runout_value(0.6, max(n, 1), 0.8))
    r, ro = 0.82, 0.5
    for n in range(1, 10):
        a, b = runout_pair(n, r, ro)
        a1, b1 = runout_pair(n - 1, r, ro)
        assert a == pytest.approx(r * a1 + (1 - r) * (1 - b))
        assert b == pytest.approx(ro * b1 + (1 - ro) * (1 - a))
        assert a > runout_win(n, r) and b < runout_win(n, ro) + 1e-12
    # the seat's value after a miss (q = 0) with the weaker side to shoot, per model
    assert 1 - runout_value2(0.5, 5, ro, r) > 1 - runout_value(0.5, 5, 0.8)


def test_side_values_of_the_asymmetric_model():
    """`runout_r_other`: my side to shoot is worth `runout_value2` with (r, r_other); the
    other side to shoot is worth 1 minus its own value with the roles swapped."""
    from agents.search import SearchAgent, runout_value2

    d, cfg, st = _nine_state({0: (0.5, 0.7), 1: (0.7, 1.4), 2: (0.3, 1.9), 9: (1.0, 2.1)})
    a = SearchAgent(seed=0, runout_r=0.82, runout_r_other=0.5)
    for q in (0.0, 0.4, 1.0):
        mine, theirs = a._side_values(st, q)
        assert mine == pytest.approx(runout_value2(q, 3, 0.82, 0.5))
        assert theirs == pytest.approx(1.0 - runout_value2(q, 3, 0.5, 0.82))
    assert SearchAgent(seed=0)._side_values(st, 0.4) == SearchAgent(seed=0, runout_r_other=None)._side_values(st, 0.4)


def test_safety_q_floors_the_shooters_value():
    """With `safety_q` the seat to act is worth at least what a safety leaving the other side
    a shot of that quality is worth (it can play safe instead of a poor pot), on either side."""
    from agents.search import SearchAgent, runout_value

    d, cfg, st = _nine_state({0: (0.5, 0.7), 1: (0.7, 1.4), 2: (0.3, 1.9), 9: (1.0, 2.1)})
    n, r = 3, 0.8
    floor = 1.0 - runout_value(0.5, n, r)
    a, plain = SearchAgent(seed=0, safety_q=0.5, runout_r=r), SearchAgent(seed=0, safety_q=None, runout_r=r)
    for q in (0.0, 0.2, 0.6, 1.0):
        mine, theirs = a._side_values(st, q)
        assert mine == pytest.approx(max(runout_value(q, n, r), floor)) and theirs == pytest.approx(1.0 - mine)
        assert plain._side_values(st, q)[0] == pytest.approx(runout_value(q, n, r))
    assert a._side_values(st, 0.0)[0] > plain._side_values(st, 0.0)[0]
    assert a._side_values(st, 1.0)[0] == plain._side_values(st, 1.0)[0]


def _combo_layout(cut_deg: float = 0.0):
    """1 and 9 on one line into the top-right corner pocket (rt, index 5); the cue ball 0.4 m
    from the 1's ghost ball, on that line turned by `cut_deg` (0: dead straight)."""
    from poolgym.rules.geometry import get_table
    from agents.tournament import make_rules_config

    t = get_table(make_rules_config("nine_ball").table)
    corner = np.array([float(t.w), float(t.l)])
    nine = corner - np.array([0.27, 0.34])
    u = (corner - nine) / np.linalg.norm(corner - nine)
    one = nine - 0.2 * u
    c, s = np.cos(np.radians(cut_deg)), np.sin(np.radians(cut_deg))
    r = np.array([c * u[0] - s * u[1], s * u[0] + c * u[1]])
    cue = one - 2 * 0.028575 * u - 0.4 * r
    return {0: tuple(cue), 1: tuple(one), 9: tuple(nine), 5: (0.3, 0.4)}


def test_nine_combo_found_and_wins():
    from agents.search import nine_combos
    from agents.view import view_of
    from poolgym.rules.core import ShotAction

    d, cfg, st = _nine_state(_combo_layout())
    obs = _obs(d, cfg, st)
    combos = nine_combos(view_of(obs))
    assert combos, "the dead-straight 1-9 combination was not found"
    wins = 0
    for phi, V0 in combos:
        new, verdict = d.apply(st, ShotAction(V0=V0, phi=phi))
        wins += int(new.game_over and new.winner == 0 and 9 in verdict.pocketed)
    assert wins >= 1


def test_search_takes_the_combo():
    """A 20 deg cut on the 1 into the 9, which is lined up with the corner: the search plays the
    winning combination (without combination candidates it plays a pot or a safety instead)."""
    import agents

    d, cfg, st = _nine_state(_combo_layout(20.0))
    a = agents.make("search", seed=3)
    act = a.act(_obs(d, cfg, st))
    new, verdict = d.apply(st, act)  # noiseless: the planned shot itself
    assert new.game_over and new.winner == 0


def _snookered_layout():
    """The 1 hidden from the cue ball behind a wall of balls (no direct line)."""
    return {0: (0.635, 0.6), 2: (0.635, 0.8), 3: (0.575, 0.8), 4: (0.695, 0.8), 6: (0.515, 0.8), 7: (0.755, 0.8),
            1: (0.635, 1.2), 9: (0.3, 2.0)}


def test_kicks_when_snookered():
    import agents
    from agents.search import direct_hit_possible, kick_shots
    from agents.view import view_of
    from poolgym.rules.core import ShotAction

    d, cfg, st = _nine_state(_snookered_layout())
    obs = _obs(d, cfg, st)
    v = view_of(obs)
    assert v.targets == (1,)
    assert not direct_hit_possible(v)
    kicks = kick_shots(v)
    assert len(kicks) == 4
    legal = 0
    for phi, V0 in kicks:
        new, verdict = d.apply(st, ShotAction(V0=V0 * 1.6, phi=phi))
        legal += int(not verdict.fouls)
    assert legal >= 1, "no one-rail kick reaches the 1 legally"
    act = agents.make("search", seed=5).act(obs)
    new, verdict = d.apply(st, act)  # legal action; planned shot without noise hits the 1 first
    assert not verdict.fouls, verdict.fouls


def test_two_stage_search_returns_a_candidate():
    import agents
    from agents.view import view_of

    d, cfg, st = _nine_state({0: (0.5, 0.7), 1: (0.7, 1.4), 2: (0.3, 1.9), 9: (1.0, 2.1)})
    obs = _obs(d, cfg, st)
    a = agents.make("search", seed=1, refine_k=4, refine_samples=8)
    acts = a.candidate_actions(view_of(obs), "nine_ball")
    act, val = a.search_shot(obs, view_of(obs), return_value=True)
    assert any(act == c for c in acts)
    assert 0.0 <= val <= 1.0
    d.apply(st, act)


# ----------------------------------------------------------------------------- N seats, BCA games
@pytest.mark.parametrize("name, n, teams, winner, expected", [
    ("nine_ball", 2, None, 1, [0.0, 1.0]),
    ("cutthroat", 3, None, 2, [0.0, 0.0, 1.0]),
    ("pea_pool", 4, (0, 1, 0, 1), 2, [1.0, 0.0, 1.0, 0.0]),
])
def test_game_over_value_reads_the_rules_returns(name, n, teams, winner, expected):
    """A finished game is worth 1 to every seat with a positive per-seat return
    (`poolgym.rules.returns`: the winner and its partner), 0 to the others, 1/2 on a draw."""
    from agents.search import game_over_value
    from agents.tournament import make_rules_config
    from poolgym.rules.core import Phase
    from poolgym.rules.game import get_discipline

    d = get_discipline(name)
    st = d.initial_state(make_rules_config(name, {"n_players": n} if n != 2 else None), 1)
    if teams:
        st = st.replace(teams=teams)
    done = st.replace(phase=Phase.GAME_OVER, winner=winner)
    assert [game_over_value(d, done, s) for s in range(n)] == expected
    draw = st.replace(phase=Phase.GAME_OVER, winner=None)
    assert [game_over_value(d, draw, s) for s in range(n)] == [0.5] * n


@pytest.mark.rule("41-6")
def test_position_quality_counts_only_the_balls_that_serve_the_seat_41_6():
    """Forty-one: the next-shot quality of the seat to act counts only the balls that keep its
    points plus pea at most 41 (`DisciplineBase.useful_balls`), not an easier ball that would
    bust it; another seat's pea is not in the view, so there every legal ball counts."""
    from agents.search import SearchAgent, useful_for
    from agents.tournament import make_rules_config
    from poolgym.rules.core import CueBallPlacement, Phase
    from poolgym.rules.game import get_discipline
    from poolgym.rules.geometry import get_table
    from poolgym.rules.seats import observe

    d = get_discipline("forty_one")
    st = d.initial_state(make_rules_config("forty_one", {"n_players": 3}), 4)
    seat = st.seat_to_act
    scores = list(st.scores)
    scores[seat] = 41 - st.private[seat].number - 3  # room for balls 1..3 only
    big, small = 12, 2
    pos = np.array(st.pos, float).reshape(-1, 2)
    on = [False] * len(st.on_table)
    pos[0], pos[big], pos[small] = (0.30, 0.40), (0.20, 0.30), (0.635, 2.49)  # 12: straight at the corner
    for k in (0, big, small):
        on[k] = True
    st = st.replace(pos=tuple(pos.ravel()), on_table=tuple(on), phase=Phase.PLAY, scores=tuple(scores),
                    cue_ball=CueBallPlacement.IN_POSITION, cue_placed=False)
    view = observe(st, seat).state
    assert set(d.legal_actions(view).target_balls) >= {big, small}
    assert useful_for(d, view, seat) == (small,)
    other = (seat + 1) % 3
    assert useful_for(d, view.replace(seat_to_act=other), other) is None

    class EveryBall:  # the same rules without the useful-ball query
        useful_balls = None

        def __getattr__(self, k):
            return getattr(d, k)

    a = SearchAgent(seed=0, q_weights=(1.0,))
    table = get_table("9ft")
    q_useful, q_all = a.quality(d, view, table), a.quality(EveryBall(), view, table)
    assert q_all > 0.5 and q_useful < 0.5 * q_all, (q_useful, q_all)


@pytest.mark.parametrize("name", ["eight_ball", "straight_pool", "pea_pool", "cutthroat", "card_ball",
                                  "bowlliards", "one_ball_side"])
def test_search_plays_other_games_legally(name):
    """Eight-ball, 14.1 and BCA games, from the seat's view, with a small budget: no illegal
    action and no error over the first shots."""
    from agents.base import make
    from agents.tournament import make_rules_config, play_game

    n = make_rules_config(name).n_players
    cfg = make_rules_config(name, max_shots=6)
    rec = play_game(name, [make("search", seed=k, budget=48, refine_samples=4, n_placements=2,
                                safety_contacts=(-0.5, 0.5)) for k in range(n)],
                    seed=3, agent_seeds=range(n), noise="icga", config=cfg, max_shots=6,
                    labels=[f"s{k}" for k in range(n)])
    assert rec.error is None and not any(rec.illegal), rec


# ----------------------------------------------------------------------------- shot choice, break, push-out
def _straight_pool_state(layout: dict):
    """A 14.1 state in Phase.PLAY (every ball legal, a call required, SP-6.3)."""
    return _state("straight_pool", layout)


@pytest.mark.rule("SP-6.3")
def test_search_prefers_a_makeable_pot_to_an_impossible_one_sp_6_3():
    """14.1: ball 3 lies 0.3 m straight in front of the top-right corner, the cue ball behind
    it on the same line; ball 5 is frozen to the bottom rail far away, cut at 90 degrees from
    the cue ball (no pocket takes it). The search calls and pockets the 3."""
    import agents
    from poolgym.rules.geometry import get_table

    d, cfg, st = _straight_pool_state({0: (0.84, 1.90), 3: (1.0, 2.16), 5: (0.2, 0.0286 + 0.001),
                                       7: (0.30, 1.2), 9: (0.35, 1.35)})
    table = get_table(cfg.table)
    obs = Observation(st, d.legal_actions(st), table, 0, "straight_pool")
    act = agents.make("search", seed=0).act(obs)
    assert act.called_ball == 3, act
    new, verdict = d.apply(st, act)  # the planned stroke, without noise
    assert 3 in verdict.legal_pocketed and not verdict.fouls


def test_search_is_deterministic_given_its_seed():
    """Same seed, same observation: the same stroke (the noise draws come from the agent's RNG)."""
    import agents

    d, cfg, st = _nine_state({0: (0.5, 0.7), 1: (0.7, 1.4), 2: (0.3, 1.9), 9: (1.0, 2.1)})
    acts = [agents.make("search", seed=11, budget=120, refine_samples=8).act(_obs(d, cfg, st)) for _ in range(2)]
    assert acts[0] == acts[1]


@pytest.mark.rule("9B-5.6")
def test_push_out_value_is_the_worse_of_shooting_and_handing_back_9b_5_6():
    """After a push-out the opponent takes the table or hands it back (9B-5.6), whichever is
    worse for the pusher: the position is worth min(V, 1 - V) to it, at most 1/2."""
    from agents.search import SearchAgent, runout_value
    from agents.search_value import FITTED
    from poolgym.rules.core import Option, Phase, ShotAction
    from poolgym.rules.geometry import get_table
    from poolgym.rules.nine_ball import NineBallExtra

    d, cfg, st = _nine_state({0: (0.5, 0.7), 1: (0.7, 1.4), 2: (0.3, 1.9), 9: (1.0, 2.1)})
    st = st.replace(extra=NineBallExtra(push_out_available=True))
    assert d.legal_actions(st).push_out_allowed
    new, verdict = d.apply(st, ShotAction(V0=0.6, phi=30.0, push_out=True))
    assert new.phase is Phase.OPTION and new.seat_to_act == 1
    assert {Option.ACCEPT_TABLE, Option.PASS_BACK} <= set(d.legal_actions(new).options)
    table = get_table(cfg.table)
    a = SearchAgent(seed=0)
    q = a.quality(d, new, table)
    n = len(new.balls_on_table())
    for a, vm in ((a, runout_value(q, n, a.runout_r)), (SearchAgent(seed=0, value_model="fitted"), FITTED.win(n, q))):
        assert a.value(d, new, verdict, 0, table) == pytest.approx(min(vm, 1 - vm))
        assert a.value(d, new, verdict, 1, table) == pytest.approx(max(vm, 1 - vm))


@pytest.mark.rule("9B-5.6")
def test_push_out_candidates_only_on_the_shot_after_the_break_9b_5_6():
    """Push-outs are searched only where the rules allow one (the shot after the break,
    9B-5.6), and each is legal there."""
    import agents
    from agents.view import view_of
    from poolgym.rules.nine_ball import NineBallExtra

    d, cfg, st = _nine_state(_snookered_layout())
    a = agents.make("search", seed=2)
    assert not any(c.push_out for c in a.candidate_actions(view_of(_obs(d, cfg, st)), "nine_ball"))
    st = st.replace(extra=NineBallExtra(push_out_available=True))
    pushes = [c for c in a.candidate_actions(view_of(_obs(d, cfg, st)), "nine_ball") if c.push_out]
    assert len(pushes) == a.push_outs * len(a.push_out_speeds)
    for c in pushes[:3]:
        d.apply(st, c)


@pytest.mark.rule("9B-5.6")
def test_search_replies_to_a_push_out_9b_5_6():
    """Offered the table after a push-out (9B-5.6): the search accepts a hanging 9 (a sure win);
    it hands the table back exactly when its best shot from there is worth less than 1/2 (the
    hidden-1 table, searched value pinned on either side of 1/2)."""
    import agents
    from poolgym.rules.core import ChooseOption, Option, Phase
    from poolgym.rules.nine_ball import NineBallExtra

    def offered(layout):
        d, cfg, st = _nine_state(layout, seat=1)
        st = st.replace(phase=Phase.OPTION, options=(Option.ACCEPT_TABLE, Option.PASS_BACK),
                        extra=NineBallExtra(pushed_by=0))
        return d, cfg, st

    d, cfg, st = offered({0: (1.0, 1.9), 9: (1.1, 2.2)})
    obs = _obs(d, cfg, st)
    assert set(obs.spec.options) == {Option.ACCEPT_TABLE, Option.PASS_BACK}
    assert agents.make("search", seed=0).act(obs) == ChooseOption(Option.ACCEPT_TABLE)
    d, cfg, st = offered(_snookered_layout())
    for val, reply in ((0.45, Option.PASS_BACK), (0.55, Option.ACCEPT_TABLE)):
        a = agents.make("search", seed=0)
        a.search_shot = lambda obs, v, return_value=False, val=val: (None, val)
        assert a.act(_obs(d, cfg, st)) == ChooseOption(reply)


# ----------------------------------------------------------------------------- aim sweep
_THROWN_CUT = {0: (0.21, 1.25), 1: (0.6, 1.12), 9: (0.1, 1.27)}


def test_window_centre():
    from agents.search import _window_centre

    offs = np.round(np.arange(-0.6, 0.61, 0.1), 1)
    ok = lambda *xs: np.isin(offs, xs)  # noqa: E731
    assert _window_centre(offs, ok()) is None
    assert _window_centre(offs, ok(-0.1, 0.0, 0.1, 0.2, 0.3)) == pytest.approx(0.1)  # the run holding 0
    assert _window_centre(offs, ok(-0.6, -0.3, -0.2, 0.4)) == pytest.approx(-0.25)  # else the widest
    assert _window_centre(offs, ok(-0.5, -0.4, 0.2, 0.3)) == pytest.approx(0.25)  # a tie: nearest 0


def test_aim_centres_a_thrown_cut_in_its_pocketing_window():
    """A cut on the 1 that the ghost-ball aim misses without noise (throw: the ball-ball
    friction of the physics turns the object ball off the line of centres); the noise-free
    sweep turns the stroke by a fraction of a degree and it pockets the 1."""
    from agents.search import SearchAgent, _discipline
    from agents.view import view_of
    from poolgym.rules.core import ShotAction

    d, cfg, st = _nine_state(_THROWN_CUT)
    obs = _obs(d, cfg, st)
    a = SearchAgent(seed=0)
    c = a.candidates(view_of(obs))[0]
    ghost = ShotAction(V0=c.V0, phi=c.phi)
    assert c.ball == 1 and c.p_make > 0.9
    assert 1 not in d.apply(st, ghost)[1].legal_pocketed
    aimed = a.aim(obs, [ghost], _discipline("nine_ball"))[0]
    assert 0.05 < abs(aimed.phi - ghost.phi) < 0.6 and aimed.V0 == ghost.V0
    new, verdict = d.apply(st, aimed)
    assert 1 in verdict.legal_pocketed and new.seat_to_act == 0
    # a sweep of fewer than two offsets leaves the strokes alone
    assert SearchAgent(seed=0, aim_offsets=()).aim(obs, [ghost], _discipline("nine_ball"))[0] is ghost


def test_search_pockets_the_thrown_cut():
    """The full search on the same layout plays a stroke that pockets the 1 without noise."""
    import agents

    d, cfg, st = _nine_state(_THROWN_CUT)
    act = agents.make("search", seed=3).act(_obs(d, cfg, st))
    new, verdict = d.apply(st, act)
    assert 1 in verdict.legal_pocketed and not verdict.fouls and new.seat_to_act == 0


def test_search_sample_allocation():
    """Stage 1 gives every candidate ``S = max(3, min(samples, budget // C))`` common draws;
    stage 2 gives the `refine_k` best `refine_samples` more (only those, a stroke moved by
    the aim sweep keeping only its stage-2 draws)."""
    from agents.search import SearchAgent
    from agents.view import view_of

    seen = {}

    class Probe(SearchAgent):
        def searched(self, v, acts, values, counts):
            seen["C"], seen["counts"] = len(acts), np.asarray(counts)

    d, cfg, st = _nine_state({0: (0.5, 0.7), 1: (0.7, 1.4), 2: (0.3, 1.9), 9: (1.0, 2.1)})
    a = Probe(seed=3)
    obs = _obs(d, cfg, st)
    a.search_shot(obs, view_of(obs))
    C, counts = seen["C"], seen["counts"]
    S = max(3, min(a.samples, a.budget // C))
    refined = counts[counts != S]
    assert len(refined) == min(a.refine_k, C)
    assert set(refined) <= {S + a.refine_samples, a.refine_samples}


def test_rule_outcome_rules_as_apply_shot_record():
    """The search's outcomes are ruled with the state's and action's checks made once per action
    (`agents.search.rule_outcome`): the same states and verdicts as `apply_shot_record`, and
    the same error for an illegal action."""
    import pytest

    from agents.search import rule_outcome
    from poolgym.rules.core import IllegalActionError, ShotAction
    from poolgym.rules.game import get_discipline, simulate_record
    from poolgym.rules.testing import make_state

    layouts = {"nine_ball": ({1: (0.3, 1.5), 2: (0.9, 1.6), 9: (0.635, 2.2)}, {}),
               "eight_ball": ({1: (0.4, 1.5), 9: (0.9, 1.6), 8: (0.3, 2.0)}, {"groups": (1, 2)})}
    for name, (balls, extra) in layouts.items():
        d = get_discipline(name)
        s = make_state(name, balls, (0.635, 1.0), **extra)
        spec = d.legal_actions(s)
        call = dict(called_ball=spec.callable_balls[0], called_pocket=2) if spec.call_required and \
            spec.callable_balls else {}
        acts = [ShotAction(v, phi, **call) for v in (1.5, 3.0) for phi in (60.0, 95.0, 130.0)]
        checked: dict = {}
        for a in acts:
            rec = simulate_record(s, a)
            got = rule_outcome(d, s, a, rec, checked)
            want = d.apply_shot_record(s, a, rec)
            assert got[0].to_json() == want[0].to_json() and repr(got[1]) == repr(want[1])
        bad = ShotAction(3.0, 90.0, called_ball=99, called_pocket=0)
        rec = simulate_record(s, acts[0])
        with pytest.raises(IllegalActionError) as e1:
            d.apply_shot_record(s, bad, rec)
        with pytest.raises(IllegalActionError) as e2:
            rule_outcome(d, s, bad, rec, checked)
        assert str(e1.value) == str(e2.value)


def test_circular_windows():
    from agents.search import _circular_windows

    ok = np.array([1, 1, 0, 0, 1, 1, 1, 0, 1], bool)
    assert _circular_windows(ok, 3) == [5.0, 0.0]  # the run 8, 0, 1 wraps around: centre 0
    assert _circular_windows(ok, 1) == [5.0]
    assert _circular_windows(np.array([0, 1, 1, 1, 0], bool), 2) == [2.0]
    assert _circular_windows(np.array([0, 1, 1, 0], bool), 2) == [1.5]
    assert _circular_windows(np.ones(4, bool), 2) == [0.0]
    assert _circular_windows(np.zeros(3, bool), 2) == []


def test_escape_strokes_leave_the_snooker_legally_G_3_18_9B_5_8():
    """Snookered on the 1 (the 2 straight between it and the cue ball): every escape stroke
    the sweep returns, played without noise, hits the 1 first and fouls nowhere; the search
    with escapes offers them among its candidates, and without escapes it does not."""
    from agents.search import SearchAgent, _discipline, direct_hit_possible, rule_outcome
    from agents.view import view_of
    from poolgym.rules.shot_record import ShotRecord

    d, cfg, st = _nine_state({0: (0.635, 0.5), 2: (0.635, 0.75), 1: (0.635, 1.0), 9: (0.3, 2.0)})
    obs = _obs(d, cfg, st)
    v = view_of(obs)
    assert not direct_hit_possible(v)
    a = SearchAgent(seed=0, escapes=3, escape_directions=360)
    esc = a.escape_strokes(obs, v, _discipline("nine_ball"))
    assert 1 <= len(esc) <= 3 * len(a.escape_speeds)
    res = a.simulate(obs, np.stack([e.shot_array() for e in esc]))
    for k, e in enumerate(esc):
        new, verdict = rule_outcome(d, st, e, ShotRecord.from_sim(res[k]), {})
        assert not verdict.fouls, (e, verdict.fouls)  # 9B-5.8: the 1 first, then a rail
    assert SearchAgent(seed=0).escape_strokes(obs, v, _discipline("nine_ball")) == []
    seen = []

    class Spy(SearchAgent):
        def searched(self, v, acts, values, counts):
            seen.extend(acts)

    Spy(seed=0, escapes=3, escape_directions=360, budget=60, refine_k=0).act(obs)
    assert any(x in seen for x in esc)
