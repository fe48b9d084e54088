"""One referee module per discipline, each a small module on the framework of
``poolgym.rules`` (state, actions, verdicts, seats, shot-record queries, geometry),
registered in :data:`poolgym.rules.core.DISCIPLINE_PATHS` and imported lazily by the
registry (nothing is imported here).

Scoring and shot-type games of the BCA family: six_ball.md, bowlliards.md, cowboy.md,
honolulu.md, cribbage.md, side_pocket_one_ball.md (shared pieces in :mod:`.common`).
BCA games with seats, secrets and chance: :mod:`.pea_pool`, :mod:`.forty_one`,
:mod:`.cutthroat`, :mod:`.card_ball`, :mod:`.odd_ball`, :mod:`.mr_and_mrs` (shared
pieces in :mod:`.bca`).
"""
