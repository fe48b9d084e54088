"""Regenerate the golden playthroughs of the six scoring games (run by hand, not collected):

    python tests/rules/make_scoring_goldens.py

Each golden is one complete game per discipline played by the seeded random agent with the
real physics; the file stores the config, the seed, every action with its shot record and
verdict, and the final state. ``test_scoring_goldens.py`` replays the actions through the
referee (with the stored records) and compares the verdicts one by one.
"""
from pathlib import Path

from poolgym.rules.games.bowlliards import BowlliardsConfig
from poolgym.rules.games.cowboy import CowboyConfig
from poolgym.rules.games.cribbage import CribbageConfig
from poolgym.rules.games.honolulu import HonoluluConfig
from poolgym.rules.games.side_pocket_one_ball import OneBallSideConfig
from poolgym.rules.games.six_ball import SixBallConfig
from poolgym.rules.testing import write_golden

OUT = Path(__file__).parent / "goldens"
#: (file stem, discipline, config, seed, agent seed, aim)
GAMES = [
    ("six_ball_golden", "six_ball", SixBallConfig(n_players=3), 5, 5, 0.95),
    ("bowlliards_golden", "bowlliards", BowlliardsConfig(), 1, 1, 0.95),
    ("cowboy_golden", "cowboy", CowboyConfig(max_shots=60), 2, 2, 0.95),
    ("honolulu_golden", "honolulu", HonoluluConfig(max_shots=60), 3, 3, 0.95),
    ("cribbage_golden", "cribbage", CribbageConfig(max_shots=80), 4, 4, 0.95),
    ("one_ball_side_golden", "one_ball_side", OneBallSideConfig(max_shots=80), 6, 6, 0.95),
]


def main():
    OUT.mkdir(exist_ok=True)
    for stem, name, cfg, seed, agent_seed, aim in GAMES:
        final, log = write_golden(OUT / f"{stem}.json", name, cfg, seed, agent_seed, aim=aim)
        print(stem, len(log), "actions, winner", final.winner, "scores", final.scores)


if __name__ == "__main__":
    main()
