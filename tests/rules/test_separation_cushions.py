"""The referee's round-off separation keeps the balls out of the cushions: a ball wedged in a
pocket mouth, frozen to a jaw's cushion and to another ball, must not be pushed into the
cushion beyond what the physics accepts (1e-9 m) when the pair is separated; the state after
the stroke stays a valid input for the next one (the balls at rest stay where the physics left
them, up to nanometres). A simulation contract, not a rule of play: no rule ID applies."""

import json
from pathlib import Path

import numpy as np
import pytest

from poolgym.rules import get_discipline, serialize
from poolgym.rules.core import GameState
from poolgym.rules.game import simulate_record
from poolgym.rules.geometry import DEFAULT_R as R
from poolgym.rules.geometry import get_table, separate_overlaps
from poolgym.rules.separation import CUSHION_TRIGGER, _layout_problem, cushion_clearance, separate_overlaps_batch, settle
from poolgym.rules.testing import check_invariants

TABLE = get_table("9ft")
SEG = 17  # the cushion along y = 0 between the corner pockets (normal +y)


def _wedged(clearance: float = -3e-10, turn_deg: float = 30.0):
    """Ball 1 against the cushion SEG (its clearance given), ball 2 frozen to it on the
    table's side, the line of centres ``turn_deg`` off the cushion's normal; cue ball far."""
    a, b = TABLE.segments[SEG]
    n = TABLE.segment_normals[SEG]
    c = np.cos(np.radians(turn_deg))
    s = np.sin(np.radians(turn_deg))
    d = np.array([c * n[0] - s * n[1], s * n[0] + c * n[1]])
    P = np.zeros((16, 2))
    on = np.zeros(16, bool)
    P[0] = (TABLE.w / 2, TABLE.l / 2)
    P[1] = a + 0.5 * (b - a) + (R + clearance) * n
    P[2] = P[1] + (2 * R - 1e-12) * d
    on[:3] = True
    return P, on


def _problem(P, on, table=TABLE) -> int:
    """The physics' layout check: 0 accepted, 1 a ball off the bed, 2 an overlap."""
    return _layout_problem(P, on, R, table)


def _cushion_gap(P, on) -> float:
    return cushion_clearance(P, on, R, TABLE.segments, TABLE.segment_normals, TABLE.jaws)


def _gap(P, on) -> float:
    idx = np.flatnonzero(on)
    Q = P[idx]
    dd = np.hypot(*(Q[:, None, :] - Q[None, :, :]).transpose(2, 0, 1))
    dd[np.diag_indices(len(idx))] = np.inf
    return dd.min() - 2 * R


def _golden_stroke(name: str) -> tuple:
    """(state, stroke record, state after it, balls at rest) of a golden position from
    random play: its stroke simulated and refereed."""
    doc = json.loads((Path(__file__).parent / "goldens" / name).read_text())
    state = GameState.from_json(json.dumps(doc["state"]))
    action = serialize.from_obj(doc["action"])
    rec = simulate_record(state, action)
    new, _ = get_discipline(state.discipline).apply_shot_record(state, action, rec)
    return state, action, rec, new, rec.on0 & (rec.pocket < 0)


def test_the_wedge_is_a_valid_layout():
    P, on = _wedged()
    assert _problem(P, on) == 0 and -1e-9 < _cushion_gap(P, on) < 0.0 and -1e-9 < _gap(P, on) < 0.0


def test_pair_separation_alone_pushes_the_wedged_ball_into_the_cushion():
    """Why the referee settles instead of only separating: the pair push moves ball 1 about a
    nanometre into the cushion, a layout the physics refuses."""
    P, on = _wedged()
    Q = separate_overlaps(P, on, R)
    assert _gap(Q, on) >= 1e-9 - 1e-15
    assert _cushion_gap(Q, on) < -1e-9 and _problem(Q, on) == 1


@pytest.mark.parametrize("clearance", [0.0, -3e-10, -9e-10])
@pytest.mark.parametrize("turn_deg", [0.0, 30.0, 60.0])
def test_settle_separates_the_pair_and_keeps_the_ball_out_of_the_cushion(clearance, turn_deg):
    P, on = _wedged(clearance, turn_deg)
    Q = settle(P, on, R, TABLE)
    assert _problem(Q, on) == 0
    assert _gap(Q, on) >= 1e-9 - 1e-15
    assert _cushion_gap(Q, on) >= CUSHION_TRIGGER
    assert np.abs(Q - P).max() < 1e-8  # nanometres, not a new position
    assert np.array_equal(Q[0], P[0])


def test_settle_leaves_a_sound_layout_alone():
    P, on = _wedged(clearance=1e-6)
    P[2] = P[1] + (2 * R + 1e-6) * TABLE.segment_normals[SEG]
    assert np.array_equal(settle(P, on, R, TABLE), P)


def test_wedged_ball_after_a_real_stroke_stays_on_the_bed():
    """A 14.1 position from random play (ball 7 wedged in the corner pocket mouth between
    ball 12 and the jaw cushion): the stroke leaves the pair touching, and the referee's state
    after it must be a valid layout (before, the separation pushed ball 7 1.1 nm into the
    cushion and the next stroke was refused: "ball 7 is off the bed")."""
    _, action, rec, new, rest_on = _golden_stroke("wedged_in_jaw_straight_pool.json")
    check_invariants(new)  # the physics' layout check included
    assert _gap(rec.pos1, rest_on) < 1e-9  # the separation ran on this stroke
    simulate_record(new, action)  # the next stroke is played


def test_environment_guard_keeps_the_ball_out_of_the_cushion():
    """The environments' guard before a batched physics call (`separate_overlaps_batch`) on
    the wedge pressed 0.8 nm together: with the table it leaves a layout the physics accepts;
    without one (pairs only) it presses ball 1 into the cushion."""
    P, on = _wedged()
    P[2] = P[1] + (P[2] - P[1]) * (2 * R - 8e-10) / np.hypot(*(P[2] - P[1]))
    rvw = np.zeros((1, 16, 3, 3))
    rvw[0, :, 0, :2] = P
    rvw[0, :, 0, 2] = R
    s = np.where(on, 0, 4).astype(np.int8)[None]
    pairs_only = rvw.copy()
    separate_overlaps_batch(pairs_only, s, R)
    assert _problem(pairs_only[0, :, 0, :2], on) == 1
    separate_overlaps_batch(rvw, s, R, table=TABLE)
    Q = rvw[0, :, 0, :2]
    assert _problem(Q, on) == 0 and _gap(Q, on) > -0.5e-9 and _cushion_gap(Q, on) >= CUSHION_TRIGGER


def test_native_env_plays_on_past_a_wedged_ball():
    """Odd ball, six seats, against the geometric opponent, seeded masked macro actions on 16
    tables: at step 46 table 7's ball 7 rested wedged in a pocket mouth, and the separation
    had pushed it into the cushion, so the whole batch's physics call raised ("ball 7 (table
    7) is off the bed") and the env died mid-run."""
    import gymnasium as gym

    env = gym.make_vec("poolgym/OddBall-v0", num_envs=16, vectorization_mode="vector_entry_point",
                       action_mode="macro", noise="icga", players=6, opponent="geometric")
    rng = np.random.default_rng(100)
    env.reset(seed=100)
    for _ in range(47):
        masks = env.action_masks()
        env.step(np.array([int(rng.choice(np.flatnonzero(m))) for m in masks]))
    for e in env.envs:
        check_invariants(e.session.state)
    env.close()


def test_balls_jammed_between_two_cushions_keep_the_physics_layout():
    """Cut-throat from random play: balls 4 and 10 rest in one pocket mouth, each against a
    cushion and touching each other (gap 0.5 nm, which the physics accepts). Separating the
    pair to 2 nm pushes a ball into its cushion, and moving it out presses it into the other:
    the settled layout would overlap by 1.4 nm, so the referee keeps the physics' own."""
    _, _, rec, new, rest_on = _golden_stroke("jammed_in_pocket_mouth_cutthroat.json")
    check_invariants(new)
    assert 0.0 < _gap(rec.pos1, rest_on) < 1e-9
    assert np.array_equal(new.positions()[rest_on], rec.pos1[rest_on])


def test_environment_guard_on_balls_jammed_in_a_pocket_mouth():
    """The guard on two balls jammed in one pocket mouth (the cut-throat position's stroke,
    the pair pressed 0.7 nm together, which the physics still accepts): pushing the pair apart
    alone presses a ball into its cushion; the guard leaves a layout the physics accepts, moved
    by nanometres at most."""
    state, _, rec, _, on = _golden_stroke("jammed_in_pocket_mouth_cutthroat.json")
    P = rec.pos1.copy()
    d = P[10] - P[4]
    P[10] = P[4] + d * (2 * R - 7e-10) / np.hypot(*d)
    table = get_table(state.config.table)
    rvw = np.zeros((1, 16, 3, 3))
    rvw[0, :, 0, :2] = P
    rvw[0, :, 0, 2] = R
    s = np.where(on, 0, 4).astype(np.int8)[None]
    assert _problem(P, on, table) == 0
    pairs_only = rvw.copy()
    separate_overlaps_batch(pairs_only, s, R)
    assert _problem(pairs_only[0, :, 0, :2], on, table) == 1  # a ball pressed into its cushion
    separate_overlaps_batch(rvw, s, R, table=table)
    assert _problem(rvw[0, :, 0, :2], on, table) == 0
    assert np.abs(rvw[0, :, 0, :2] - P).max() < 1e-8
