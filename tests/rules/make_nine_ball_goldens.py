"""Regenerate the nine-ball golden playthroughs (run by hand, not collected by pytest):

    python tests/rules/make_nine_ball_goldens.py

Each golden is a complete game played by the seeded random agent with the real physics;
the file stores the config, the seed, every action with its shot record and verdict, and
the final state. ``test_nine_ball_goldens.py`` replays the actions through the referee
(with the stored records, so physics changes do not matter) and compares the verdicts.
"""
from pathlib import Path

from poolgym.rules.nine_ball import NineBallConfig
from poolgym.rules.testing import write_golden

OUT = Path(__file__).parent / "goldens"
GAMES = [
    ("nine_ball_win_push_out", NineBallConfig(), 33, 33, 0.95),
    ("nine_ball_win", NineBallConfig(), 0, 0, 0.95),
    ("nine_ball_three_fouls", NineBallConfig(), 1, 1, 0.7),
    ("nine_ball_lag_alternate", NineBallConfig(lag=True, break_order="alternate"), 44, 44, 0.95),
]


def main():
    OUT.mkdir(exist_ok=True)
    for name, cfg, seed, agent_seed, aim in GAMES:
        final, log = write_golden(OUT / f"{name}.json", "nine_ball", cfg, seed, agent_seed, aim=aim)
        print(name, len(log), "actions, winner", final.winner)


if __name__ == "__main__":
    main()
