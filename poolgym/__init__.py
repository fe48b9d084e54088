"""poolgym: reinforcement-learning environments for pocket billiards.

Importing the package registers the Gymnasium ids (the usual Gymnasium convention; nothing
else happens at import time — the envs, rules and physics load on first ``gymnasium.make``):

=============================  ============================================================
id                             env
=============================  ============================================================
``poolgym/NineBall-v0``        WPA nine-ball vs the built-in geometric opponent (default)
``poolgym/EightBall-v0``       WPA eight-ball
``poolgym/StraightPool-v0``    WPA 14.1 continuous
``poolgym/NineBallRunout-v0``  ball in hand, clear the nine-ball table
``poolgym/PotDrill-v0``        one shot: pocket the 1-ball
``poolgym/BreakDrill-v0``      one shot: a legal nine-ball break
``poolgym/PeaPool-v0``         BCA pea pool, 2-15 seats (``players=N``), secret peas
``poolgym/FortyOne-v0``        BCA forty-one, 2-15 seats, secret peas, claims of 41 / bust
``poolgym/CutThroat-v0``       BCA cut-throat, 3 or 5 seats, elimination and re-entry
``poolgym/OddBall-v0``         BCA odd ball, two teams (2, 4 or 6 seats)
``poolgym/CardBall-v0``        BCA card ball, 2-6 seats, a secret hand each
``poolgym/MrAndMrs-v0``        BCA Mr. and Mrs., 2-6 seats with a handicap each
``poolgym/SixBall-v0``         BCA six-ball, 2-15 seats
``poolgym/Bowlliards-v0``      BCA bowlliards, solo by default (score out of 300), 1-15 seats
``poolgym/Cowboy-v0``          BCA cowboy, 2-15 seats
``poolgym/Honolulu-v0``        BCA Honolulu (called indirect pots)
``poolgym/Cribbage-v0``        BCA cribbage (pairs summing to fifteen)
``poolgym/OneBallSide-v0``     one-ball-in-the-side (C-49 defaults for the lost sections)
=============================  ============================================================

Each id has a ``vector_entry_point``: ``gymnasium.make_vec(id, num_envs=N,
vectorization_mode="vector_entry_point")`` steps all tables with one batched physics call per
process; with many tables it shards them over worker processes, one per 32 tables and core
(64 where one process pipelines its steps: Box self-play without noise; ``num_workers="auto"``; ``num_workers=1`` keeps them in this process; the same trajectories).
"""

__version__ = "0.1.0"

_IDS = {
    "NineBall-v0": ("NineBallEnv", "nine_ball_vector"),
    "EightBall-v0": ("EightBallEnv", "eight_ball_vector"),
    "StraightPool-v0": ("StraightPoolEnv", "straight_pool_vector"),
    "NineBallRunout-v0": ("NineBallRunoutEnv", "nine_ball_runout_vector"),
    "PotDrill-v0": ("PotDrillEnv", "pot_drill_vector"),
    "BreakDrill-v0": ("BreakDrillEnv", "break_drill_vector"),
    "PeaPool-v0": ("PeaPoolEnv", "pea_pool_vector"),
    "FortyOne-v0": ("FortyOneEnv", "forty_one_vector"),
    "CutThroat-v0": ("CutThroatEnv", "cutthroat_vector"),
    "OddBall-v0": ("OddBallEnv", "odd_ball_vector"),
    "CardBall-v0": ("CardBallEnv", "card_ball_vector"),
    "MrAndMrs-v0": ("MrAndMrsEnv", "mr_and_mrs_vector"),
    "SixBall-v0": ("SixBallEnv", "six_ball_vector"),
    "Bowlliards-v0": ("BowlliardsEnv", "bowlliards_vector"),
    "Cowboy-v0": ("CowboyEnv", "cowboy_vector"),
    "Honolulu-v0": ("HonoluluEnv", "honolulu_vector"),
    "Cribbage-v0": ("CribbageEnv", "cribbage_vector"),
    "OneBallSide-v0": ("OneBallSideEnv", "one_ball_side_vector"),
}


def register_envs() -> None:
    """Register the poolgym ids with Gymnasium (idempotent)."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - gymnasium is a core dependency
        return
    for name, (cls, vec) in _IDS.items():
        env_id = f"poolgym/{name}"
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=f"poolgym.envs.disciplines:{cls}",
            vector_entry_point=f"poolgym.envs.disciplines:{vec}",
            disable_env_checker=False,
        )


register_envs()
