"""Scoring and shot-type games of the BCA family (shared/rules: six_ball.md, bowlliards.md,
cowboy.md, honolulu.md, cribbage.md, side_pocket_one_ball.md), one referee module each,
registered in :data:`poolgym.rules.core.DISCIPLINE_PATHS` and imported lazily by the
registry (nothing is imported here)."""
