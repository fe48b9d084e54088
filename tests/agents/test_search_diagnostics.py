"""The search agent's diagnostics (benchmarks/search_losses.py, benchmarks/search_q_calibration.py,
benchmarks/search_rollouts.py): a lost game replays exactly as the tournament played it, its
losing decision is classified and its candidates re-simulated; the quality calibration yields
rates in [0, 1]; a decision's rollouts are a function of their seeds."""
from tests.benchmark_modules import load_benchmark

SEED, GAME = 31, 4  # a game of the seed-31 run that the search agent loses on its last 9


def test_losing_decision_of_a_replayed_game():
    from agents.tournament import AgentSpec, TournamentConfig, play_job

    mod = load_benchmark("search_losses")
    rec, agent, me, steps = mod.replay(SEED, GAME, {})
    cfg = TournamentConfig("nine_ball", (AgentSpec("search"), AgentSpec("geometric")), GAME + 1, SEED, "icga", {}, 400)
    ref = play_job(cfg, 0, 1, GAME)
    assert (rec.winner, rec.shots, rec.fouls) == (ref.winner, ref.shots, ref.fouls)
    assert agent.log and steps
    if rec.winner == me:  # pragma: no cover - the physics changed under the pinned game
        return
    d = mod.losing_decision(SEED, GAME, {}, 8)
    assert d["cls"] in ("opp_break_and_run", "foul", "push_out", "missed_pot", "missed_combo", "safety", "non_shot")
    for c in d.get("candidates", []):
        assert c["kind"] in ("pot", "combo", "push", "safety", "escape")
        assert all(0.0 <= c[k] <= 1.0 for k in ("keep", "foul", "win"))


def test_quality_calibration_rows():
    rows = load_benchmark("search_q_calibration").measure(5, 1, 4)
    assert rows.shape[1] == 2 and len(rows) > 0
    assert ((rows >= 0.0) & (rows <= 1.0)).all()


def test_paired_comparison_counts_the_discordant_games():
    mod = load_benchmark("search_paired")
    base = {0: 1, 1: 1, 2: 0, 3: 0, 4: 1, 5: 1}
    new = {0: 1, 1: 0, 2: 1, 3: 1, 4: 1, 6: 0}  # game 5 / 6 only in one run: not compared
    d = mod.paired(base, new)
    assert (d["games"], d["wins_base"], d["wins_new"], d["only_new"], d["only_base"]) == (5, 3, 4, 2, 1)
    assert d["p"] == 1.0  # 2 against 1 of 3: P(X <= 1) = 4/8, doubled
    assert mod.sign_test_p(0, 10) == 2.0 / 1024 and mod.sign_test_p(10, 10) == 2.0 / 1024
    assert mod.sign_test_p(0, 0) == 1.0
    lo, hi = mod.wilson_interval(323, 400)
    assert lo < 323 / 400 < hi and round(lo, 3) == 0.766 and round(hi, 3) == 0.843


def test_paired_runs_play_the_tournament_games():
    from agents.tournament import AgentSpec, TournamentConfig, play_job

    wins = load_benchmark("search_paired").search_wins("nine_ball", {"budget": 60, "refine_k": 2}, 2, SEED)
    cfg = TournamentConfig("nine_ball", (AgentSpec("search", {"budget": 60, "refine_k": 2}), AgentSpec("geometric")),
                           2, SEED, "icga", {}, 400)
    for g in (0, 1):
        r = play_job(cfg, 0, 1, g)
        assert wins[g] == int(r.winner is not None and r.players[r.winner] == "search")


def test_rollouts_of_a_decision():
    """`search_rollouts`: the positions kept are the search seat's shots with the cue ball in
    position; the default and an identical variant choose the same stroke; a rollout is a
    function of its arguments."""
    from poolgym.rules.core import CueBallPlacement, Phase, ShotAction

    mod = load_benchmark("search_rollouts")
    pos = mod.collect(("nine_ball", SEED, 1, "all"))
    assert pos
    for g, st in pos:
        assert g == 1 and st.seat_to_act == 1 and st.phase is Phase.PLAY
        assert st.cue_ball is CueBallPlacement.IN_POSITION
    st = pos[-1][1]
    a0, a1 = mod.decide(("nine_ball", 0, st, {"budget": 60, "refine_k": 2}))
    b0, b1 = mod.decide(("nine_ball", 0, st, {}))
    assert isinstance(a0, ShotAction) and b0 == b1 == a0
    job = ("nine_ball", SEED, 0, 0, st, a1)
    assert mod.rollout(job) == mod.rollout(job) in (0, 1)
