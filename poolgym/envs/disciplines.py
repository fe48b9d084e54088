"""Thin per-discipline env classes (registered as ``poolgym/<Name>-v0``) and their vector
counterparts. Each only fixes the discipline (and drill settings) of `PoolEnv` /
`PoolVectorEnv`; see `PoolEnv` for the full specification."""

from __future__ import annotations

from poolgym.envs.pool_env import PoolEnv
from poolgym.envs.vector import PoolVectorEnv


class NineBallEnv(PoolEnv):
    """WPA nine-ball (`poolgym.rules.nine_ball`), learner vs the geometric opponent.

    ## Starting state
    A 9B-5.2 diamond racked from the seed (1 on the foot spot, 9 in the centre); the breaker
    has the cue ball in hand behind the head string (G-3.8).

    ## Rewards
    The game result from the learner's seat: +1 win (9B-5.1), -1 loss, 0 draw.
    """

    def __init__(self, **kwargs):
        super().__init__("nine_ball", **kwargs)


class EightBallEnv(PoolEnv):
    """WPA eight-ball (`poolgym.rules.eight_ball`), learner vs the geometric opponent.

    ## Starting state
    An 8B-4.3 triangle racked from the seed (8 in the centre); the breaker has the cue ball
    in hand behind the head string (G-3.8); the table is open (8B-4.9).

    ## Rewards
    The game result from the learner's seat: +1 win (8B-4.1), -1 loss (8B-4.20), 0 draw.
    """

    def __init__(self, **kwargs):
        super().__init__("eight_ball", **kwargs)


class StraightPoolEnv(PoolEnv):
    """WPA 14.1 continuous (`poolgym.rules.straight_pool`), learner vs the geometric opponent.

    ## Starting state
    Fifteen balls in the SP-6.4 triangle on the foot spot; the breaker has the cue ball in
    hand behind the head string; scores 0.

    ## Rewards
    The game result from the learner's seat: +1 for reaching the target points first (SP-6.1),
    -1 loss, 0 draw; the ``"shaped"`` reward adds the points (own minus opponent's).
    """

    def __init__(self, **kwargs):
        super().__init__("straight_pool", **kwargs)


class NineBallRunoutEnv(PoolEnv):
    """Nine-ball runout drill: scattered balls, ball in hand, clear the table (+1) before
    losing the table (-1).

    ## Starting state
    Every object ball at a seeded random spot on the bed (`runout_start`), the cue ball in
    hand anywhere (9B-5.10), the learner to shoot; no opponent.

    ## Rewards
    +1 when the learner pockets the 9 legally, -1 as soon as it loses the table (a miss or a
    foul), else 0; at most 30 shots.
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("runout", True)
        kwargs.setdefault("max_shots", 30)
        super().__init__("nine_ball", **kwargs)


class PotDrillEnv(PoolEnv):
    """One shot: pocket the 1-ball from a random layout (`poolgym.envs.drills.PotDrill`).

    ## Starting state
    The cue ball and the 1-ball at seeded random spots on the bed (``margin`` from the
    cushions, ``min_separation`` apart); one seat, one shot.

    ## Rewards
    +1 if the 1-ball is pocketed and the cue ball stays on the table (no G-3.20 scratch, no
    G-3.28 jump), else 0.
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("max_shots", 1)
        super().__init__("pot_drill", **kwargs)


class BreakDrillEnv(PoolEnv):
    """One shot: a legal nine-ball break (`poolgym.envs.drills.BreakDrill`).

    ## Starting state
    A 9B-5.2 diamond racked from the seed, the cue ball in hand behind the head string (G-3.8);
    one seat, one shot.

    ## Rewards
    Judged by 9B-5.4: -1 illegal break; 0 legal break with nothing pocketed; +1 legal break
    with a ball pocketed, plus 0.1 per extra object ball pocketed.
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("max_shots", 1)
        super().__init__("break_drill", **kwargs)


class PeaPoolEnv(PoolEnv):
    """BCA pea (Kelly) pool (`poolgym.rules.games.pea_pool`, shared/rules/pea_pool.md) for 2-15
    seats: the learner holds one seat, every other seat is played by the opponent.

    ## Description
    Each seat draws a secret pea (PP-5); the seat that legally pockets the ball of its own pea
    number wins (PP-6, PP-7); lowest ball first (C-43), open break (PP-8), fouls cost no
    points but the incoming player may make the offender shoot again (PP-13). With
    ``rules={"variant_points": True}`` (PP-7V) points change hands and a seat whose pea ball
    another seat pocketed must announce it (``auto_declare=False``: a declaration window).

    ## Arguments
    ``players`` (2-15, default 4, PP-2) and every argument of `PoolEnv`; ``opponent`` plays
    every seat but the learner's, each from its own view.

    ## Observation space
    `PoolEnv`'s vector from the learner's view only (`poolgym.rules.seats.observe`: the
    public state and its own pea, never another seat's), then the seat block of
    `poolgym.envs.seating.SeatBlock`: its pea ball, the declarations open now, the seats
    still in the game, teammates and the seat to act.

    ## Action space
    `PoolEnv`'s, plus one score (Box) or one entry (macro) per `Declaration`, masked outside
    its window (PP-7V announcement).

    ## Rewards
    The rules' per-seat result (`PeaPool.returns`): the winner +1, the others share -1
    (zero-sum); a game with no winner 0; PP-7V the points won or lost.

    ## Episode end
    As `PoolEnv`: the game is over (a seat pocketed its own ball, or no pea ball is left), or
    ``max_shots`` shots by all seats.

    ## Example
    >>> import gymnasium as gym
    >>> import poolgym
    >>> env = gym.make("poolgym/PeaPool-v0", players=3, max_shots=30)
    >>> obs, info = env.reset(seed=0)
    >>> env.observation_space.contains(obs), info["learner_seat"]
    (True, 0)

    ## Version history
    v0: first release.
    """

    def __init__(self, **kwargs):
        super().__init__("pea_pool", **kwargs)


def _vec(discipline, **fixed):
    def make(num_envs: int = 1, **kwargs):
        for k, v in fixed.items():
            kwargs.setdefault(k, v)
        return PoolVectorEnv(discipline, num_envs=num_envs, **kwargs)

    make.__name__ = f"make_{discipline}_vector"
    make.__doc__ = f"`PoolVectorEnv` of {discipline} (defaults {fixed})."
    return make


nine_ball_vector = _vec("nine_ball")
eight_ball_vector = _vec("eight_ball")
straight_pool_vector = _vec("straight_pool")
nine_ball_runout_vector = _vec("nine_ball", runout=True, max_shots=30)
pot_drill_vector = _vec("pot_drill", max_shots=1)
break_drill_vector = _vec("break_drill", max_shots=1)
pea_pool_vector = _vec("pea_pool")

#: registered ids of the N-seat games -> their discipline (`players=N` selects the seats)
SEATED_IDS = {
    "poolgym/PeaPool-v0": "pea_pool",
}


def seat_edges(discipline: str) -> tuple:
    """(smallest, largest) seat count ``discipline`` allows (its ``allowed_players``)."""
    from poolgym.rules.game import get_discipline

    allowed = get_discipline(discipline).allowed_players
    return (min(allowed), max(allowed))


#: registered id -> (env class, vector factory)
ENV_IDS = {
    "poolgym/NineBall-v0": ("NineBallEnv", "nine_ball_vector"),
    "poolgym/EightBall-v0": ("EightBallEnv", "eight_ball_vector"),
    "poolgym/StraightPool-v0": ("StraightPoolEnv", "straight_pool_vector"),
    "poolgym/NineBallRunout-v0": ("NineBallRunoutEnv", "nine_ball_runout_vector"),
    "poolgym/PotDrill-v0": ("PotDrillEnv", "pot_drill_vector"),
    "poolgym/BreakDrill-v0": ("BreakDrillEnv", "break_drill_vector"),
    "poolgym/PeaPool-v0": ("PeaPoolEnv", "pea_pool_vector"),
}
