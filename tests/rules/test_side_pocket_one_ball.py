"""One-ball-in-the-side referee (poolgym.rules.games.side_pocket_one_ball): scenario tables per
rule of side_pocket_one_ball.md, with the C-49 defaults for the lost sections."""
import pytest

from poolgym.rules import ChooseOption, IllegalActionError, Option, Phase, PlaceCueBall, ShotAction
from poolgym.rules.core import CueBallPlacement, FoulKind
from poolgym.rules.game import get_discipline
from poolgym.rules.games.side_pocket_one_ball import (DEFAULTS, OneBallSideConfig, OneBallSideExtra,
                                                       ScoringMode)
from poolgym.rules.testing import make_state, record

D = get_discipline("one_ball_side")
LB, LC, LT, RB, RC, RT = range(6)
BALLS = {1: (0.3, 1.5), 4: (0.9, 1.6), 7: (0.5, 2.0), 9: (0.7, 2.2)}
SIDES = OneBallSideExtra(side=(LC, RC))


def st(cfg=None, balls=BALLS, **kw):
    kw.setdefault("extra", SIDES)
    return make_state("one_ball_side", balls, cue=(0.6, 0.8), config=cfg or OneBallSideConfig(), **kw)


def call(pocket, ball=None):
    return ShotAction(3.0, 90.0, called_ball=ball, called_pocket=pocket)


def play(s, action, **rec):
    return D.apply_shot_record(s, action, record(s, **rec))


def at_break(cfg=None, side=Option.SIDE_POCKET_LEFT):
    s = D.initial_state(cfg or OneBallSideConfig(), 0)
    s, v = D.apply(s, ChooseOption(side))
    return D.apply(s, PlaceCueBall(0.635, 0.4))[0], v


@pytest.mark.rule("1S-7", "1S-7.3")
@pytest.mark.parametrize("option, sides", [(Option.SIDE_POCKET_LEFT, (LC, RC)), (Option.SIDE_POCKET_RIGHT, (RC, LC))])
def test_side_pocket_choice_before_the_break(option, sides):
    """1S-7.3: before breaking the breaker chooses his side pocket for the 1; the opponent gets
    the other one. Defaults (C-49): two players, balls 1-15."""
    s = D.initial_state(OneBallSideConfig(), 0)
    assert s.phase is Phase.OPTION and D.legal_actions(s).options == (Option.SIDE_POCKET_LEFT, Option.SIDE_POCKET_RIGHT)
    assert s.balls_on_table() == tuple(range(1, 16)) and s.n_players == DEFAULTS["players"] == 2
    s2, v = D.apply(s, ChooseOption(option))
    assert s2.extra.side == sides and s2.phase is Phase.BREAK and "1S-7.3" in v.rule_refs


@pytest.mark.rule("1S-6")
@pytest.mark.parametrize("option", [Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS])
def test_break_requirements_and_options(option):
    """1S-6: a ball in the pocket called for the break, or the cue ball and two object balls to
    a cushion after the contact; otherwise the opponent accepts or has the offender re-break."""
    s, _ = at_break()
    s2, v = play(s, call(RT), hit=1, obj_rails=(2,), cue_rail=None)
    assert v.fouls[0].kind is FoulKind.ILLEGAL_BREAK and v.options == (Option.ACCEPT_TABLE, Option.OPPONENT_REBREAKS)
    s3, _ = D.apply(s2, ChooseOption(option))
    if option is Option.ACCEPT_TABLE:
        assert s3.phase is Phase.PLAY and s3.seat_to_act == 1
    else:
        assert s3.phase is Phase.BREAK and s3.seat_to_act == 0 and s3.extra.illegal_breaks == 1
    from poolgym.rules.geometry import Rail
    _, v4 = play(s, call(RT), hit=1, obj_rails=(2, 3), cue_rail=Rail.FOOT)
    assert not v4.fouls and v4.next_seat == 1
    s5, v5 = play(s, call(RT), hit=1, pocketed={6: RT})
    assert v5.turn_continues and s5.scores == (1, 0)


@pytest.mark.rule("1S-6")
def test_three_illegal_breaks_lose():
    """1S-6: the third illegal break in a row loses."""
    s, _ = at_break()
    s = s.replace(extra=OneBallSideExtra(side=(LC, RC), illegal_breaks=2))
    _, v = play(s, call(RT), hit=1)
    assert v.game_over and v.winner == 1


@pytest.mark.rule("1S-7", "1S-8", "1S-7.1", "1S-7.2")
def test_called_pocket_counts_others_spotted():
    """1S-7.2: any ball but the 1 in the called pocket counts (one point, C-49 default) and
    1S-7.1 continues the inning; 1S-8 other pocketed balls are spotted, no penalty."""
    s2, v = play(st(), call(LT), hit=4, pocketed={4: LT, 7: RT})
    assert v.legal_pocketed == (4,) and s2.scores == (1, 0) and v.turn_continues and v.spotted == (7,)
    assert "1S-8" in v.rule_refs and "1S-7.1" in v.rule_refs
    s3, v3 = play(st(), call(LT), hit=4, pocketed={7: RT})
    assert v3.next_seat == 1 and v3.spotted == (7,) and not v3.fouls
    with pytest.raises(IllegalActionError, match="1S-7.2"):
        play(st(), ShotAction(3.0, 90.0), hit=4)


@pytest.mark.rule("1S-7", "1S-7.4")
@pytest.mark.parametrize("ball, pocket, wins", [(1, LC, True), (None, LC, False), (1, RC, False)],
                         ids=["1S-7.4-own-pocket", "1S-7.4-not-called", "1S-7.4-opponents-pocket"])
def test_the_one_only_called_into_own_side_pocket(ball, pocket, wins):
    """1S-7.4: the 1 counts only when called and pocketed in the shooter's own side pocket;
    with the default ``one_ball_wins`` that wins; otherwise it is spotted (1S-8)."""
    s2, v = play(st(), call(pocket, ball), hit=1, pocketed={1: pocket})
    assert v.game_over is wins
    if wins:
        assert v.winner == 0 and "1S-7.4" in v.rule_refs
    else:
        assert v.spotted == (1,) and s2.on_table[1]


def test_scoring_modes():
    """C-49 options: ``one_ball_wins=False`` -- the 1 counts a point and the game ends with the
    table (highest score); ``race`` -- first to ``race_to``."""
    cfg = OneBallSideConfig(one_ball_wins=False)
    s2, v = play(st(cfg, balls={1: (0.3, 1.5)}, scores=(3, 4)), call(LC, 1), hit=1, pocketed={1: LC})
    assert v.game_over and v.winner is None and s2.scores == (4, 4)
    cfg = OneBallSideConfig(scoring_mode=ScoringMode.RACE, race_to=3)
    _, v = play(st(cfg, scores=(2, 0)), call(LT), hit=4, pocketed={4: LT})
    assert v.game_over and v.winner == 0


@pytest.mark.rule("1S-7", "1S-11", "1S-7.5")
def test_legal_shot_and_fouls():
    """1S-7.5: after the contact a pot or a ball to a cushion, else foul; 1S-11 no points
    deducted, the opponent accepts the position; three consecutive fouls lose."""
    s2, v = play(st(scores=(2, 0)), call(LT), hit=4)
    assert v.fouls[0].rule == "1S-7.5" and s2.scores == (2, 0) and s2.cue_ball is CueBallPlacement.IN_POSITION
    _, v = play(st(consecutive_fouls=(2, 0)), call(LT), hit=4)
    assert v.game_over and v.winner == 1 and "1S-11" in v.rule_refs


@pytest.mark.rule("1S-8", "1S-9", "1S-10")
def test_spotting_and_scratch():
    """1S-8 balls pocketed on a foul spotted, 1S-9 jumped balls spotted without penalty, 1S-10
    scratch: the opponent has cue ball in hand behind the head string."""
    s2, v = play(st(), call(LT), hit=4, pocketed={4: LT}, scratch=RB)
    assert v.spotted == (4,) and s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN and "1S-10" in v.rule_refs
    s3, v3 = play(st(), call(LT), hit=4, obj_rails=(4,), off_table=(9,))
    assert not v3.fouls and v3.spotted == (9,) and "1S-9" in v3.rule_refs


@pytest.mark.rule("1S-7.6")
def test_kitchen_spot_request_every_ball_behind_the_head_string():
    """1S-7.6: with cue ball in hand behind the head string and every object ball behind it,
    the shooter may have the ball nearest the head string spotted on the foot spot (and
    keeps cue ball in hand); with a ball beyond the head string the request is not offered."""
    kitchen = {1: (0.3, 0.5), 4: (0.9, 0.4), 7: (0.5, 0.2)}
    s = make_state("one_ball_side", kitchen, cue=None, config=OneBallSideConfig(), extra=SIDES,
                   cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    spec = D.legal_actions(s)
    assert Option.SPOT_NEAREST_KITCHEN_BALL in spec.options and spec.spot_choices == (1,)
    s2, v = D.apply(s, ChooseOption(Option.SPOT_NEAREST_KITCHEN_BALL))
    assert v.spotted == (1,) and s2.on_table[1] and tuple(s2.positions()[1]) == pytest.approx((0.635, 1.905))
    assert s2.seat_to_act == s.seat_to_act and s2.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    far = make_state("one_ball_side", {**kitchen, 9: (0.7, 2.2)}, cue=None, config=OneBallSideConfig(),
                     extra=SIDES, cue_ball=CueBallPlacement.IN_HAND_KITCHEN)
    assert Option.SPOT_NEAREST_KITCHEN_BALL not in D.legal_actions(far).options


@pytest.mark.rule("1S-7.2", "1S-7.4")
@pytest.mark.parametrize("cfg", [OneBallSideConfig(scoring_mode=ScoringMode.RACE, race_to=5),
                                 OneBallSideConfig(one_ball_wins=False)])
def test_with_the_one_down_every_player_calls_a_pocket_and_names_no_ball(cfg):
    """C-49 options where play goes on after the 1 is down: a pocket is still called on every
    shot (1S-7.2) and no ball may be named (1S-7.4). The spec asks for a call with no callable
    ball; the geometric player, the env's random opponent, the random, geometric and search
    agents and the Box, macro and param decoders all call a pocket alone, and seeded play in
    every action mode runs clean."""
    import gymnasium as gym
    import numpy as np

    import agents

    from poolgym.envs.opponents import RandomOpponent
    from poolgym.players.geometric import GeometricPlayer
    from poolgym.players.view import Observation
    from poolgym.rules.geometry import get_table

    s = st(cfg, balls={4: (0.9, 1.6), 7: (0.5, 2.0), 9: (0.7, 2.2)})
    spec = D.legal_actions(s)
    assert spec.call_required and spec.callable_balls == ()
    obs = Observation(state=s, spec=spec, table=get_table(s.config.table), seat=0, discipline="one_ball_side")
    for a in (GeometricPlayer(rng=np.random.default_rng(0)).act(obs),
              RandomOpponent()(s, spec, np.random.default_rng(0))[-1],
              *(agents.make(name, seed=k).act(obs) for name in ("random", "geometric", "search") for k in range(3))):
        assert a.called_ball is None and a.called_pocket in range(6)
        D.shot_inputs(s, a)  # legal (1S-7.2, 1S-7.4)
    rules = {"scoring_mode": cfg.scoring_mode.value, "race_to": cfg.race_to, "one_ball_wins": cfg.one_ball_wins}
    for mode in ("box", "macro", "param"):
        for opponent in ("geometric", "random"):
            env = gym.make("poolgym/OneBallSide-v0", rules=rules, noise="icga", opponent=opponent, action_mode=mode)
            rng = np.random.default_rng(1)
            downs = 0
            for seed in range(4):
                env.reset(seed=seed, options={"balls": {1: None}})  # racked without the 1
                env.action_space.seed(seed)
                for _ in range(25):
                    u = env.unwrapped
                    downs += u.state.phase is Phase.PLAY and not u.state.on_table[1]
                    a = int(rng.choice(np.flatnonzero(u.action_masks()))) if mode == "macro" else \
                        env.action_space.sample()
                    _, _, term, trunc, _ = env.step(a)
                    if term or trunc:
                        break
            assert downs > 0, (mode, opponent)
