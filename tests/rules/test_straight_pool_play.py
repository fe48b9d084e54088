"""14.1 continuous: complete games.

* Golden playthroughs (tests/rules/goldens/straight_pool_*.json): actions, shot records,
  verdicts and a digest of every state, replayed with ``apply_shot_record`` and compared
  (physics-independent: the records are stored). Regenerate with
  ``POOLGYM_REGEN_GOLDENS=1 python -m pytest tests/rules/test_straight_pool_play.py``.
* Random play with the real physics (``physics.simulate``): seeded games with a
  ghost-ball aiming player terminate (low target, shot cap), keep the invariants (15 object
  balls accounted for, at least two on the table while play goes on, one seat to act,
  JSON round trip) and the scores equal the sum of the per-shot points, which follow
  SP-6.5 / SP-6.6 / SP-6.11 / SP-6.12.
"""
import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

from poolgym.rules import (ChooseOption, FoulKind, GameState, Option, Phase, PlaceCueBall,
                           ShotAction, ShotRecord)
from poolgym.rules import serialize
from poolgym.rules.game import get_discipline
from poolgym.rules.geometry import Rail, ball_radius, get_table
from poolgym.rules.straight_pool import StraightPoolConfig
from poolgym.rules.testing import check_invariants, random_placement, record

D = get_discipline("straight_pool")
R = ball_radius()
GOLDENS = Path(__file__).parent / "goldens"
REGEN = os.environ.get("POOLGYM_REGEN_GOLDENS") == "1"
_REC_FIELDS = ("pos0", "on0", "pos1", "s1", "pocket", "ev_t", "ev_kind", "ev_i", "ev_j")
_REC_DTYPES = {"pos0": np.float64, "on0": bool, "pos1": np.float64, "s1": np.int8, "pocket": np.int8,
               "ev_t": np.float64, "ev_kind": np.int8, "ev_i": np.int16, "ev_j": np.int16}


# ----------------------------------------------------------------------------- helpers
def rec_to_obj(rec: ShotRecord) -> dict:
    out = {k: np.asarray(getattr(rec, k)).tolist() for k in _REC_FIELDS}
    out["ev_xy"] = None if rec.ev_xy is None else np.asarray(rec.ev_xy).tolist()
    out["cue_ball"] = int(rec.cue_ball)
    out["status"] = int(rec.status)
    return out


def rec_from_obj(o: dict) -> ShotRecord:
    kw = {k: np.asarray(o[k], dtype=_REC_DTYPES[k]) for k in _REC_FIELDS}
    kw["pos0"] = kw["pos0"].reshape(-1, 2)
    kw["pos1"] = kw["pos1"].reshape(-1, 2)
    ev_xy = None if o["ev_xy"] is None else np.asarray(o["ev_xy"], dtype=np.float64).reshape(-1, 2)
    return ShotRecord(**kw, ev_xy=ev_xy, cue_ball=o["cue_ball"], status=o["status"])


def digest(state: GameState) -> str:
    """Digest of the rules view of a state: every field except the ball centres (which the
    shared spotting geometry owns; positions are checked by the scenario tests and enter
    every later verdict through the stored records)."""
    o = serialize.to_obj(state)
    o.pop("pos")
    return hashlib.sha1(json.dumps(o, sort_keys=True).encode()).hexdigest()[:16]


def expected_points(v, cfg: StraightPoolConfig) -> int:
    """Shooter's points on one verdict from its fouls and legal pots (default knobs)."""
    k = [f.kind for f in v.fouls]
    if FoulKind.ILLEGAL_BREAK in k:
        return -2                       # SP-6.6
    if FoulKind.THIRD_CONSECUTIVE_FOUL in k:
        return -16                      # SP-6.12
    if k:
        return -1                       # SP-6.11
    return len(v.legal_pocketed)        # SP-6.5


def ghost_action(state: GameState, rng: np.random.Generator):
    """A crude player: options at random, random legal placements, the break hard at
    the apex, otherwise a ghost-ball shot at a random ball into the pocket with the
    smallest cut, called (10 % declared safeties)."""
    spec = D.legal_actions(state)
    if spec.options and not spec.can_shoot and not spec.must_place:
        return ChooseOption(spec.options[int(rng.integers(len(spec.options)))])
    if spec.must_place:
        return random_placement(state, rng)
    table = get_table(state.config.table)
    P = state.positions()
    cue = P[0]
    if state.phase is Phase.BREAK:
        d = np.asarray(table.foot_spot) - cue
        phi = float(np.degrees(np.arctan2(d[1], d[0])) + rng.normal(0, 1.0))
        return ShotAction(V0=float(rng.uniform(5.0, 8.0)), phi=phi % 360.0)
    b = int(spec.target_balls[int(rng.integers(len(spec.target_balls)))])
    pk = np.asarray(table.pockets)[:, :2]
    to_pocket = pk - P[b]
    u = to_pocket / np.linalg.norm(to_pocket, axis=1, keepdims=True)
    ghost = P[b] - 2 * R * u
    aim = ghost - cue
    aim_u = aim / np.linalg.norm(aim, axis=1, keepdims=True)
    cut = np.einsum("ij,ij->i", aim_u, u)
    p = int(np.argmax(cut))
    phi = float(np.degrees(np.arctan2(aim[p, 1], aim[p, 0])) + rng.normal(0, 0.3)) % 360.0
    V0 = float(rng.uniform(1.5, 3.5))
    if rng.random() < 0.1:
        return ShotAction(V0=V0, phi=phi, safety=True)
    return ShotAction(V0=V0, phi=phi, called_ball=b, called_pocket=p)


def play_game(seed: int, cfg: StraightPoolConfig, *, max_actions: int = 3000, log: list | None = None):
    """Play one game with the real physics; check invariants and score bookkeeping."""
    rng = np.random.default_rng(seed)
    s = D.initial_state(cfg, seed=seed)
    totals = [0, 0]
    n = 0
    while not s.game_over:
        n += 1
        assert n <= max_actions, "game did not terminate"
        a = ghost_action(s, rng)
        seat = s.seat_to_act
        if isinstance(a, ShotAction):
            rec = ShotRecord.from_sim(_simulate(s, a))
            s2, v = D.apply_shot_record(s, a, rec)
            if log is not None:
                log.append({"action": serialize.to_obj(a), "record": rec_to_obj(rec), "verdict": serialize.to_obj(v),
                            "digest": digest(s2)})
            assert set(v.legal_pocketed) <= set(v.pocketed)
            assert v.points[1 - seat] == 0 and v.points[seat] == expected_points(v, cfg)
            if v.legal_pocketed:
                assert a.called_ball in v.legal_pocketed and not a.safety
        else:
            s2, v = D.apply(s, a)
            if log is not None:
                log.append({"action": serialize.to_obj(a), "record": None,
                            "verdict": None if v is None else serialize.to_obj(v), "digest": digest(s2)})
            if v is not None:
                assert v.points == (0, 0)
        if v is not None:
            totals = [t + p for t, p in zip(totals, v.points)]
        s = s2
        check_invariants(s)
        assert list(s.scores) == totals, "scores inconsistent with the verdicts"
        if not s.game_over:
            assert len(s.balls_on_table()) >= 2  # SP-6.7.3: re-racked when one ball is left
    return s


def _simulate(state, action):
    import physics

    from poolgym.rules.game import physics_inputs

    rvw, s = physics_inputs(state)
    shot = physics.Shot(V0=action.V0, phi=action.phi, theta=action.theta, a=action.a, b=action.b)
    return physics.simulate(get_table(state.config.table), rvw, shot, s=s)


# ----------------------------------------------------------------------------- random play
RANDOM_CFG = StraightPoolConfig(target_points=6, max_shots=250)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_physics(seed):
    """Seeded random games with the real physics terminate, keep every invariant and keep
    the scores consistent with the events (SP-6.1, SP-6.5, SP-6.6, SP-6.11, SP-6.12)."""
    s = play_game(seed, RANDOM_CFG)
    assert s.phase is Phase.GAME_OVER
    if s.winner is not None:
        assert s.scores[s.winner] >= RANDOM_CFG.target_points
    else:
        assert s.shot_number >= RANDOM_CFG.max_shots


def test_random_games_reach_a_win_and_rerack():
    """With a low target the ghost-ball player wins some games; a 14-ball re-rack
    (SP-6.7.3) or a full re-rack happens along the way in some game."""
    cfg = StraightPoolConfig(target_points=15, max_shots=400)
    wins = racks = 0
    for seed in range(100, 103):
        s = play_game(seed, cfg)
        wins += s.winner is not None
        racks += s.extra.racks
    assert wins >= 1 and racks >= 1


def test_random_game_deterministic():
    """Same seed, same game (chance from the state's RNG, deterministic physics)."""
    cfg = StraightPoolConfig(target_points=4, max_shots=60)
    assert play_game(7, cfg) == play_game(7, cfg)


@pytest.mark.slow
def test_many_random_games_slow():
    """Many seeded games with the real physics (``-m slow``; count from
    POOLGYM_SP_GAMES, default 1000): every one terminates and keeps the invariants."""
    n = int(os.environ.get("POOLGYM_SP_GAMES", "1000"))
    cfg = StraightPoolConfig(target_points=10, max_shots=300)
    for seed in range(10_000, 10_000 + n):
        s = play_game(seed, cfg)
        assert s.phase is Phase.GAME_OVER


# ----------------------------------------------------------------------------- goldens
def scripted_game():
    """A complete hand-built game (no physics) exercising SP-6.6 breaking violation and
    re-break, a called break ball, miss, safety, three consecutive fouls and the option,
    runs through a 14-ball re-rack (SP-6.7.3) to the target (SP-6.1)."""
    cfg = StraightPoolConfig(target_points=20)
    s = D.initial_state(cfg, seed=11)
    start = s
    log = []

    def do(action, rec=None):
        nonlocal s
        if rec is None:
            s2, v = D.apply(s, action)
        else:
            s2, v = D.apply_shot_record(s, action, rec)
        log.append({"action": serialize.to_obj(action), "record": None if rec is None else rec_to_obj(rec),
                    "verdict": None if v is None else serialize.to_obj(v), "digest": digest(s2)})
        s = s2
        return v

    def apex():
        P = s.positions()
        return int(np.argmin(np.hypot(*(P[1:] - np.asarray(get_table("9ft").foot_spot)).T))) + 1

    brk = ShotAction(V0=6.0, phi=90.0)
    do(PlaceCueBall(0.6, 0.3))
    do(brk, record(s, hit=apex(), obj_rails=(2,)))                       # SP-6.6 violation -2
    do(ChooseOption(Option.OPPONENT_REBREAKS))
    do(PlaceCueBall(0.6, 0.3))
    b = apex()
    do(ShotAction(V0=6.0, phi=90.0, called_ball=b, called_pocket=2), record(s, hit=b, pocketed={b: 2}))  # +1
    lo = min(s.balls_on_table())
    do(ShotAction(V0=2.0, phi=80.0, called_ball=lo, called_pocket=0), record(s, hit=lo, cue_rail=Rail.LEFT))
    lo = min(s.balls_on_table())
    do(ShotAction(V0=2.0, phi=80.0, called_ball=lo, called_pocket=0), record(s, hit=lo))  # seat 1 foul
    do(ShotAction(V0=1.0, phi=80.0, safety=True), record(s, hit=lo, cue_rail=Rail.HEAD))  # seat 0 safety
    do(ShotAction(V0=2.0, phi=80.0, called_ball=lo, called_pocket=0), record(s, cue_rail=Rail.HEAD))  # foul 2
    do(ShotAction(V0=2.0, phi=80.0, called_ball=lo, called_pocket=1), record(s, hit=lo, cue_rail=Rail.LEFT))
    do(ShotAction(V0=2.0, phi=80.0, called_ball=lo, called_pocket=1), record(s, hit=lo, scratch=4))  # third
    do(ChooseOption(Option.ACCEPT_TABLE))
    k = 0
    while not s.game_over:
        if D.legal_actions(s).must_place:
            do(PlaceCueBall(0.6, 0.3))
            continue
        lo = min(s.balls_on_table())
        pk = k % 6
        do(ShotAction(V0=2.0, phi=80.0, called_ball=lo, called_pocket=pk), record(s, hit=lo, pocketed={lo: pk}))
        k += 1
    return start, log, s


def physics_game():
    """A short complete game with the real physics (records stored, replay needs no
    physics)."""
    cfg = StraightPoolConfig(target_points=3, max_shots=80)
    log = []
    s = play_game(2035, cfg, log=log)
    return D.initial_state(cfg, seed=2035), log, s


def _golden(name, make):
    path = GOLDENS / f"straight_pool_{name}.json"
    if REGEN:
        start, log, final = make()
        GOLDENS.mkdir(exist_ok=True)
        path.write_text(json.dumps({"start": json.loads(start.to_json()), "steps": log,
                                    "final": json.loads(final.to_json())}, separators=(",", ":")))
    return json.loads(path.read_text())


def replay(g):
    s = GameState.from_json(json.dumps(g["start"]))
    for k, st in enumerate(g["steps"]):
        a = serialize.from_obj(st["action"])
        if st["record"] is not None:
            s, v = D.apply_shot_record(s, a, rec_from_obj(st["record"]))
        else:
            s, v = D.apply(s, a)
        got = None if v is None else serialize.to_obj(v)
        assert got == st["verdict"], f"step {k}: verdict differs"
        assert digest(s) == st["digest"], f"step {k}: state differs"
    assert digest(s) == digest(GameState.from_json(json.dumps(g["final"])))
    return s


def test_golden_scripted_game():
    """Golden: SP-6.6 violation and re-break, SP-6.12 third foul and ACCEPT_TABLE, SP-6.7.3
    re-rack, SP-6.1 win at 20 -- replayed and compared step by step."""
    g = _golden("scripted", scripted_game)
    s = replay(g)
    assert s.winner == 0 and s.scores[0] >= 20 and s.extra.racks >= 2
    verdicts = [st["verdict"] for st in g["steps"] if st["verdict"] is not None]
    text = json.dumps(verdicts)
    for rid in ("SP-6.6", "SP-6.12", "SP-6.7.3", "SP-6.1"):
        assert f'"{rid}"' in text


def test_golden_physics_game():
    """Golden: a complete game recorded with the real physics, replayed from the stored
    shot records."""
    g = _golden("physics", physics_game)
    s = replay(g)
    assert s.phase is Phase.GAME_OVER


def test_replay_detects_tampering():
    """The golden replay can fail: a changed verdict is detected."""
    g = _golden("scripted", scripted_game)
    k = next(i for i, st in enumerate(g["steps"]) if st["verdict"] is not None and st["record"] is not None)
    g["steps"][k]["verdict"]["points"] = [99, 0]
    with pytest.raises(AssertionError):
        replay(g)
