"""Regenerate the golden playthroughs of the BCA N-seat games (run by hand, not collected):

    python tests/rules/make_bca_goldens.py [name ...]

Each golden is a complete game played by the seeded random agent with the real physics
(declarations included); the file stores the config, the seed, every action with its shot
record and verdict, and the final state. ``test_bca_goldens.py`` replays the actions through
the referee with the stored records and compares verdict by verdict.
"""
import sys
from pathlib import Path

from poolgym.rules import get_discipline
from poolgym.rules.testing import write_golden

OUT = Path(__file__).parent / "goldens"
#: name -> (discipline, config keywords, seed, agent seed, aim)
GAMES = {
    "bca_pea_pool": ("pea_pool", {"n_players": 4, "max_shots": 80}, 10, 10, 0.9),
    "bca_card_ball": ("card_ball", {"n_players": 3, "max_shots": 80}, 9, 9, 0.9),
    "bca_odd_ball": ("odd_ball", {"n_players": 4, "max_shots": 80}, 4, 4, 0.9),
    "bca_mr_and_mrs": ("mr_and_mrs", {"n_players": 3, "max_shots": 80}, 5, 5, 0.9),
    "bca_cutthroat": ("cutthroat", {"n_players": 5, "max_shots": 45}, 0, 0, 0.9),
    "bca_forty_one": ("forty_one", {"n_players": 3, "max_shots": 80, "auto_declare": False}, 1, 1, 0.9),
}


def main(names=()):
    OUT.mkdir(exist_ok=True)
    for name, (disc, kw, seed, agent_seed, aim) in GAMES.items():
        if names and name not in names:
            continue
        cfg = get_discipline(disc).config_cls(**kw)
        final, log = write_golden(OUT / f"{name}.json", disc, cfg, seed, agent_seed, aim=aim)
        print(name, len(log), "actions, winner", final.winner, "shots", final.shot_number)


if __name__ == "__main__":
    main(tuple(sys.argv[1:]))
