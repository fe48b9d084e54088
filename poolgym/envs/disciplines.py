"""Thin per-discipline env classes (registered as ``poolgym/<Name>-v0``) and their vector
counterparts. Each only fixes the discipline (and drill settings) of `PoolEnv` /
`PoolVectorEnv`; see `PoolEnv` for the full specification."""

from __future__ import annotations

from poolgym.envs.pool_env import PoolEnv
from poolgym.envs.vector import PoolVectorEnv
from poolgym.envs.workers import ShardedVectorEnv, check_num_threads, resolve_num_workers, with_threads


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
    -1 loss, 0 draw; the ``"shaped"`` reward adds the points (half of own minus opponent's,
    `poolgym.envs.seating.points_advantage`).
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


class FortyOneEnv(PoolEnv):
    """BCA forty-one (`poolgym.rules.games.forty_one`, shared/rules/forty_one.md) for 2-15 seats. The learner holds one seat, the opponent plays the others.

    ## Description
    Each seat draws a secret pea (41-5) and aims at exactly 41 = its pocketed balls' numbers
    plus its pea (41-6, 41-7); one shot per turn (41-9.2), any ball first (41-9.1), open break
    (41-8), a foul spots a previously pocketed ball (41-13); over 41 is a bust (41-9.7).
    ``rules={"auto_declare": False}``: the shooter claims 41 / declares a bust himself in a
    window after each of his shots (41-9.6, 41-9.7).

    ## Arguments
    ``players`` (2-15, default 4, 41-2) and every argument of `PoolEnv`; ``opponent`` plays every seat but
    the learner's, each from its own view (`poolgym.rules.seats.observe`).

    ## Observation space
    `PoolEnv`'s vector from the learner's view only (public state and its own pea), then the seat
    block of `poolgym.envs.seating.SeatBlock` (own secret as balls, open declarations, seats in
    the game, teammates, the seat to act).

    ## Action space
    `PoolEnv`'s plus one Box score / macro entry per `Declaration`, masked outside its window (claim 41, declare a bust, draw a new pea).

    ## Rewards
    The rules' per-seat result (`FortyOne.returns`): the winner +1, the others share -1; a draw 0.

    ## Episode end
    The game is over, or ``max_shots`` shots by all seats (truncation).

    ## Version history
    v0: first release.
    """

    def __init__(self, **kwargs):
        super().__init__("forty_one", **kwargs)


class CutThroatEnv(PoolEnv):
    """BCA cut-throat (`poolgym.rules.games.cutthroat`, shared/rules/cutthroat.md) for 3 or 5 seats. The learner holds one seat, the opponent plays the others.

    ## Description
    Each seat owns a group of balls by its position in the order of play (CT-5); the last seat
    with a ball of its group on the table wins (CT-6, CT-7); first contact on an active
    opponent's ball (CT-9.1); a seat whose balls are all down is eliminated until another
    seat's foul brings it back (CT-9.3, CT-13). Nothing is secret.

    ## Arguments
    ``players`` (3 or 5, default 3, CT-2) and every argument of `PoolEnv`; ``opponent`` plays every seat but
    the learner's, each from its own view (`poolgym.rules.seats.observe`).

    ## Observation space
    `PoolEnv`'s vector from the learner's view only (public state and no secret (the groups are public)), then the seat
    block of `poolgym.envs.seating.SeatBlock` (own secret as balls, open declarations, seats in
    the game, teammates, the seat to act).

    ## Action space
    `PoolEnv`'s plus one Box score / macro entry per `Declaration`, masked outside its window.

    ## Rewards
    The rules' per-seat result: the winner +1, the others share -1 (zero-sum).

    ## Episode end
    The game is over, or ``max_shots`` shots by all seats (truncation).

    ## Version history
    v0: first release.
    """

    def __init__(self, **kwargs):
        super().__init__("cutthroat", **kwargs)


class OddBallEnv(PoolEnv):
    """BCA odd ball (`poolgym.rules.games.odd_ball`, shared/rules/odd_ball.md): two teams, 2, 4 or 6 seats. The learner holds one seat, the opponent plays the others.

    ## Description
    Two teams alternate in a fixed order (seat k plays for team k % 2, OB-2, C-47); legally
    pocketed odd balls score a point for the team, 61 in a rack scores a bonus (OB-5, OB-6,
    C-48); the first team to 21 wins; lowest ball first (OB-8.1); three consecutive fouls
    lose (OB-8.7). The learner's teammates are played by the opponent too; the seat block
    marks them. Nothing is secret.

    ## Arguments
    ``players`` (2, 4 or 6, default 4, OB-1) and every argument of `PoolEnv`; ``opponent`` plays every seat but
    the learner's, each from its own view (`poolgym.rules.seats.observe`).

    ## Observation space
    `PoolEnv`'s vector from the learner's view only (public state and no secret), then the seat
    block of `poolgym.envs.seating.SeatBlock` (own secret as balls, open declarations, seats in
    the game, teammates, the seat to act).

    ## Action space
    `PoolEnv`'s plus one Box score / macro entry per `Declaration`, masked outside its window.

    ## Rewards
    The rules' per-seat result: every seat of the winning team +1, the other team's seats -1.

    ## Episode end
    The game is over, or ``max_shots`` shots by all seats (truncation).

    ## Version history
    v0: first release.
    """

    def __init__(self, **kwargs):
        super().__init__("odd_ball", **kwargs)


class CardBallEnv(PoolEnv):
    """BCA card ball (`poolgym.rules.games.card_ball`, shared/rules/card_ball.md) for 2-6 seats. The learner holds one seat, the opponent plays the others.

    ## Description
    Each seat is dealt a secret hand of seven cards (CB-8.2); a pocketed ball removes every
    card of its rank from every hand (CB-6, CB-8.4); a seat with no card left wins (CB-5);
    a violation draws a penalty card (CB-9 - CB-11).

    ## Arguments
    ``players`` (2-6, default 4, CB-2) and every argument of `PoolEnv`; ``opponent`` plays every seat but
    the learner's, each from its own view (`poolgym.rules.seats.observe`).

    ## Observation space
    `PoolEnv`'s vector from the learner's view only (public state and its own hand: the balls of its cards), then the seat
    block of `poolgym.envs.seating.SeatBlock` (own secret as balls, open declarations, seats in
    the game, teammates, the seat to act), then the block of `CardBall.score_features`: every
    seat's card count, and the ranks in the other seats' hands when ``rules={"public_hands":
    True}`` (C-33; zeros while the hands are hidden).

    ## Action space
    `PoolEnv`'s plus one Box score / macro entry per `Declaration`, masked outside its window.

    ## Rewards
    The rules' per-seat result (`CardBall.returns`): every loser pays ``card_value`` per card left to the winner (zero-sum).

    ## Episode end
    The game is over, or ``max_shots`` shots by all seats (truncation).

    ## Version history
    v0: first release.
    """

    def __init__(self, **kwargs):
        super().__init__("card_ball", **kwargs)


class MrAndMrsEnv(PoolEnv):
    """BCA Mr. and Mrs. (`poolgym.rules.games.mr_and_mrs`, shared/rules/mr_and_mrs.md) for 2-6 seats. The learner holds one seat, the opponent plays the others.

    ## Description
    Every legally pocketed ball scores its number (MM-5); the game ends when the leader cannot
    be caught (MM-6); each seat has a public handicap (``rules={"skill": (...)}``, MM-2): a
    stronger seat must hit the lowest ball first (MM-8.2), a weaker one any ball (MM-8.3);
    three consecutive fouls lose or disqualify (MM-8.4). The learner's legal first-contact
    balls (its handicap) are in the mask. Nothing is secret.

    ## Arguments
    ``players`` (2-6, default 2, MM-2) and every argument of `PoolEnv`; ``opponent`` plays every seat but
    the learner's, each from its own view (`poolgym.rules.seats.observe`).

    ## Observation space
    `PoolEnv`'s vector from the learner's view only (public state and no secret), then the seat
    block of `poolgym.envs.seating.SeatBlock` (own secret as balls, open declarations, seats in
    the game, teammates, the seat to act), then every seat's handicap, observer first
    (`MrAndMrs.score_features`: +1 stronger, -1 weaker).

    ## Action space
    `PoolEnv`'s plus one Box score / macro entry per `Declaration`, masked outside its window.

    ## Rewards
    The rules' per-seat result: the winner +1, the others share -1; a draw 0.

    ## Episode end
    The game is over, or ``max_shots`` shots by all seats (truncation).

    ## Version history
    v0: first release.
    """

    def __init__(self, **kwargs):
        super().__init__("mr_and_mrs", **kwargs)


class SixBallEnv(PoolEnv):
    """BCA six-ball (`poolgym.rules.games.six_ball`, shared/rules/six_ball.md) for 2-15 seats
    (``players``, 6B-2): rotation with six balls, the legal 6 wins. The learner holds one
    seat, the opponent plays the others. Spaces, rewards (the rules' per-seat result: +1 the
    winner, the others share -1) and episode end as `PoolEnv` / `PeaPoolEnv`.

    >>> import gymnasium as gym
    >>> import poolgym
    >>> env = gym.make("poolgym/SixBall-v0", players=3, max_shots=20)
    >>> obs, info = env.reset(seed=0)
    >>> env.observation_space.contains(obs), info["phase"]
    (True, 'break')
    """

    def __init__(self, **kwargs):
        super().__init__("six_ball", **kwargs)


class BowlliardsEnv(PoolEnv):
    """BCA bowlliards (`poolgym.rules.games.bowlliards`, shared/rules/bowlliards.md): ten frames
    scored like bowling. Default: the solo game -- one seat, no opponent -- whose metric is
    the score out of 300 (``info["scores"]``); ``players=N`` (1-15) for N seats in turn.

    ## Observation
    `PoolEnv`'s vector, the seat block, then the score block (`poolgym.envs.scoring`): frame,
    attempt, balls of this attempt, balls on the table, own total / 300, own fouls.

    ## Rewards
    The game's own scoring: solo, the final score / 300 at the end (``reward="result"``);
    ``reward={"points": 1/300}`` pays each step's change of the score (a ball +1/300, a foul
    -1/300, strike and spare bonuses when earned), summing to the same total. With N seats the
    highest total wins (+1, the others share -1).

    ## Episode end
    After the tenth frame (and its bonus attempts) of every seat, or ``max_shots`` shots
    (default 100; a solo game takes at most about 60 shots plus misses).

    >>> import gymnasium as gym
    >>> import poolgym
    >>> env = gym.make("poolgym/Bowlliards-v0")
    >>> obs, info = env.reset(seed=0)
    >>> env.unwrapped.config.n_players, env.observation_space.contains(obs)
    (1, True)
    """

    def __init__(self, **kwargs):
        super().__init__("bowlliards", **kwargs)


class CowboyEnv(PoolEnv):
    """BCA cowboy (`poolgym.rules.games.cowboy`, shared/rules/cowboy.md) for 2-15 seats: pots
    and caroms to exactly 90, caroms to 100, the 101st point by a called scratch off the 1.
    The score block carries the points to 90 and 101, the inning's start score and the held
    balls; the pocket for the cue ball at 100 is the called pocket of the Box / macro action."""

    def __init__(self, **kwargs):
        super().__init__("cowboy", **kwargs)


class HonoluluEnv(PoolEnv):
    """BCA Honolulu (`poolgym.rules.games.honolulu`, shared/rules/honolulu.md), two seats:
    called indirect pots (bank, combination, carom, kick) to 8; the score block carries the
    owed points and the balls waiting to be spotted. Several balls are called on one shot
    (HO-6, `MultiCallShot`): the Box action ends with a score per (ball, pocket) for the
    further calls, the macro table has a pot per (target, pocket, second called ball)
    (`poolgym.envs.codec`), and ``step_action`` takes any `MultiCallShot`."""

    def __init__(self, **kwargs):
        super().__init__("honolulu", **kwargs)


class CribbageEnv(PoolEnv):
    """BCA cribbage (`poolgym.rules.games.cribbage`, shared/rules/cribbage.md), two seats: pairs
    summing to fifteen, first to five; the callable balls are the partners still owed
    (CR-9.1) and the score block the open pairs."""

    def __init__(self, **kwargs):
        super().__init__("cribbage", **kwargs)


class OneBallSideEnv(PoolEnv):
    """One-ball-in-the-side (`poolgym.rules.games.side_pocket_one_ball`), two seats. The seed
    lost its object and scoring: the env plays the C-49 defaults, listed in
    ``metadata["rules_defaults"]`` (and the module's ``DEFAULTS``); the alternatives are
    ``rules={"scoring_mode": "race", "race_to": n}`` or ``{"one_ball_wins": False}``."""

    def __init__(self, **kwargs):
        from poolgym.rules.games.side_pocket_one_ball import DEFAULTS

        super().__init__("one_ball_side", **kwargs)
        self.metadata = dict(self.metadata, rules_defaults=dict(DEFAULTS))


def pipelines(discipline, num_threads: int | None = None, **kwargs) -> bool:
    """Whether one process would pipeline the steps of ``discipline``'s tables built with these
    `PoolEnv` keyword arguments (`PoolVectorEnv.pipelined`), asked of one table built as
    `make_vector` builds them in one process."""
    probe = PoolVectorEnv(discipline, num_envs=1, **with_threads(kwargs, check_num_threads(num_threads)))
    try:
        return probe.pipelined()
    finally:
        probe.close()


def make_vector(discipline, num_envs: int = 1, num_workers="auto", num_threads: int | None = None, **kwargs):
    """The native vector env of ``discipline``: a `PoolVectorEnv` of ``num_envs`` tables, or with
    ``num_workers`` > 1 a `ShardedVectorEnv` of that many processes (``"auto"``: one per
    `workers.TABLES_PER_WORKER` tables and core, per `workers.TABLES_PER_WORKER_PIPELINED` where
    one process would pipeline the steps, `workers.resolve_num_workers`; the same trajectories
    for any count); ``num_threads``: numba threads of the batched physics (per worker); the rest
    goes to `PoolEnv`."""
    num_workers = resolve_num_workers(num_workers, num_envs, lambda: pipelines(discipline, num_threads, **kwargs))
    if num_workers != 1:  # tables sharded over worker processes (`poolgym.envs.workers`)
        return ShardedVectorEnv(discipline, num_envs=num_envs, num_workers=num_workers,
                                num_threads=num_threads, **kwargs)
    return PoolVectorEnv(discipline, num_envs=num_envs, **with_threads(kwargs, check_num_threads(num_threads)))


def _vec(discipline, **fixed):
    def make(num_envs: int = 1, num_workers="auto", num_threads: int | None = None, **kwargs):
        for k, v in fixed.items():
            kwargs.setdefault(k, v)
        return make_vector(discipline, num_envs, num_workers, num_threads, **kwargs)

    make.__name__ = f"make_{discipline}_vector"
    make.discipline, make.defaults = discipline, dict(fixed)  # what the id plays (`poolgym.envs.sb3`)
    make.__doc__ = (f"`PoolVectorEnv` of {discipline} (defaults {fixed}); ``num_workers`` > 1: a "
                    f"`ShardedVectorEnv` of that many processes (default ``\"auto\"``: one per 32 tables "
                    f"and core, 64 where one process pipelines the steps, once numba's cache is warm, "
                    f"`workers.resolve_num_workers`); ``num_threads``: "
                    f"numba threads of the batched physics (per worker).")
    return make


nine_ball_vector = _vec("nine_ball")
eight_ball_vector = _vec("eight_ball")
straight_pool_vector = _vec("straight_pool")
nine_ball_runout_vector = _vec("nine_ball", runout=True, max_shots=30)
pot_drill_vector = _vec("pot_drill", max_shots=1)
break_drill_vector = _vec("break_drill", max_shots=1)
pea_pool_vector = _vec("pea_pool")
forty_one_vector = _vec("forty_one")
cutthroat_vector = _vec("cutthroat")
odd_ball_vector = _vec("odd_ball")
card_ball_vector = _vec("card_ball")
mr_and_mrs_vector = _vec("mr_and_mrs")
six_ball_vector = _vec("six_ball")
bowlliards_vector = _vec("bowlliards")
cowboy_vector = _vec("cowboy")
honolulu_vector = _vec("honolulu")
cribbage_vector = _vec("cribbage")
one_ball_side_vector = _vec("one_ball_side")

#: registered ids of the N-seat games -> their discipline (`players=N` selects the seats)
SEATED_IDS = {
    "poolgym/PeaPool-v0": "pea_pool",
    "poolgym/FortyOne-v0": "forty_one",
    "poolgym/CutThroat-v0": "cutthroat",
    "poolgym/OddBall-v0": "odd_ball",
    "poolgym/CardBall-v0": "card_ball",
    "poolgym/MrAndMrs-v0": "mr_and_mrs",
    "poolgym/SixBall-v0": "six_ball",
    "poolgym/Bowlliards-v0": "bowlliards",
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
    "poolgym/FortyOne-v0": ("FortyOneEnv", "forty_one_vector"),
    "poolgym/CutThroat-v0": ("CutThroatEnv", "cutthroat_vector"),
    "poolgym/OddBall-v0": ("OddBallEnv", "odd_ball_vector"),
    "poolgym/CardBall-v0": ("CardBallEnv", "card_ball_vector"),
    "poolgym/MrAndMrs-v0": ("MrAndMrsEnv", "mr_and_mrs_vector"),
    "poolgym/SixBall-v0": ("SixBallEnv", "six_ball_vector"),
    "poolgym/Bowlliards-v0": ("BowlliardsEnv", "bowlliards_vector"),
    "poolgym/Cowboy-v0": ("CowboyEnv", "cowboy_vector"),
    "poolgym/Honolulu-v0": ("HonoluluEnv", "honolulu_vector"),
    "poolgym/Cribbage-v0": ("CribbageEnv", "cribbage_vector"),
    "poolgym/OneBallSide-v0": ("OneBallSideEnv", "one_ball_side_vector"),
}
