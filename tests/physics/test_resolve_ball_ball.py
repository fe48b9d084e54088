"""Ball-ball resolution models: physics.resolve.ball_ball (frictionless_elastic,
frictional_inelastic, continually_touching)."""

import math

import numpy as np
import pytest

from physics.resolve.ball_ball import frictional_inelastic, frictionless_elastic

R = 0.028575
M = 0.170097
E_B = 0.95
FA, FB, FC = 0.009951, 0.108, 1.088  # Alciatore TP A-14 fit (pooltool 0.6.0 defaults)
I = 0.4 * M * R * R


def frictional(rvw1, rvw2, e_b=E_B):
    frictional_inelastic.resolve(rvw1, rvw2, R, M, e_b, FA, FB, FC)


def elastic(rvw1, rvw2):
    frictionless_elastic.resolve(rvw1, rvw2)


MODELS = [pytest.param(elastic, id="frictionless_elastic"),
          pytest.param(frictional, id="frictional_inelastic")]


def state(x, y, v=(0.0, 0.0), w=(0.0, 0.0, 0.0)):
    return np.array([[x, y, R], [v[0], v[1], 0.0], list(w)], dtype=np.float64)


def energy(*rvws):
    return sum(0.5 * M * r[1] @ r[1] + 0.5 * I * r[2] @ r[2] for r in rvws)


def random_pair(rng):
    """Two touching balls, ball 1 approaching ball 2, random velocities and spins."""
    c = rng.uniform(0.3, 1.0, 2)
    a = rng.uniform(0.0, 2.0 * math.pi)
    n = np.array([math.cos(a), math.sin(a)])
    r1 = state(*c, v=rng.normal(0, 1.5, 2), w=rng.normal(0, 40.0, 3))
    r2 = state(*(c + 2 * R * n), v=rng.normal(0, 0.7, 2) * (rng.random() < 0.5),
               w=rng.normal(0, 20.0, 3) * (rng.random() < 0.5))
    vn = (r1[1, :2] - r2[1, :2]) @ n
    if vn < 0.05:
        r1[1, :2] += (0.05 - vn + rng.uniform(0, 2)) * n
    return r1, r2


def test_elastic_head_on_exchanges_velocities():
    r1 = state(0.5, 0.5, v=(1.2, 0.0), w=(0.0, 42.0, 3.0))
    r2 = state(0.5 + 2 * R, 0.5)
    elastic(r1, r2)
    assert np.allclose(r1[1], 0.0, atol=1e-15)
    assert np.allclose(r2[1], [1.2, 0.0, 0.0], atol=1e-15)
    assert np.array_equal(r1[2], [0.0, 42.0, 3.0]), "spins are unchanged"
    assert np.array_equal(r2[2], [0.0, 0.0, 0.0])
    assert np.array_equal(r1[0], [0.5, 0.5, R]), "positions are not moved"


@pytest.mark.parametrize("cut_deg", [5.0, 17.0, 30.0, 45.0, 60.0, 80.0])
def test_elastic_ninety_degree_rule(cut_deg):
    """A ball hitting a ball at rest: both leave at right angles (frictionless, elastic)."""
    phi = math.radians(cut_deg)
    r1 = state(0.4, 0.4, v=(2.0 * math.cos(0.3), 2.0 * math.sin(0.3)))
    d = np.array([math.cos(0.3 + phi), math.sin(0.3 + phi)])
    r2 = state(*(r1[0, :2] + 2 * R * d))
    elastic(r1, r2)
    v1, v2 = r1[1, :2], r2[1, :2]
    assert abs(v1 @ v2) < 1e-12
    assert np.allclose(v2 / np.linalg.norm(v2), d, atol=1e-12), "object ball leaves along n"
    assert math.isclose(np.linalg.norm(v2), 2.0 * math.cos(phi), rel_tol=1e-12)


@pytest.mark.parametrize("model", MODELS)
def test_momentum_conserved(model):
    rng = np.random.default_rng(7)
    for _ in range(300):
        r1, r2 = random_pair(rng)
        p0 = r1[1, :2] + r2[1, :2]
        model(r1, r2)
        assert np.allclose(r1[1, :2] + r2[1, :2], p0, atol=1e-12)
        assert r1[1, 2] == 0.0 and r2[1, 2] == 0.0


@pytest.mark.parametrize("model", MODELS)
def test_energy_never_rises(model):
    rng = np.random.default_rng(11)
    for _ in range(300):
        r1, r2 = random_pair(rng)
        e0 = energy(r1, r2)
        model(r1, r2)
        assert energy(r1, r2) <= e0 * (1 + 1e-12)


def test_elastic_conserves_energy():
    rng = np.random.default_rng(3)
    for _ in range(100):
        r1, r2 = random_pair(rng)
        r1[1, 2] = r2[1, 2] = 0.0
        e0 = energy(r1, r2)
        elastic(r1, r2)
        assert math.isclose(energy(r1, r2), e0, rel_tol=1e-12)


@pytest.mark.parametrize("v", [0.5, 1.0, 2.0, 4.0])
def test_stun_full_ball_hit_with_restitution(v):
    """Head-on stun shot: cue ball keeps (1 - e)/2 v, object ball gets (1 + e)/2 v, no spin."""
    r1 = state(0.5, 0.5, v=(0.0, v))
    r2 = state(0.5, 0.5 + 2 * R)
    frictional(r1, r2)
    assert np.allclose(r1[1], [0.0, (1 - E_B) / 2 * v, 0.0], atol=1e-14)
    assert np.allclose(r2[1], [0.0, (1 + E_B) / 2 * v, 0.0], atol=1e-14)
    assert np.allclose(r1[2], 0.0, atol=1e-12) and np.allclose(r2[2], 0.0, atol=1e-12)
    # with e_b = 1 the cue ball stops dead
    r1 = state(0.5, 0.5, v=(0.0, v))
    r2 = state(0.5, 0.5 + 2 * R)
    frictional(r1, r2, e_b=1.0)
    assert np.allclose(r1[1], 0.0, atol=1e-14)


def cut_throw_deg(v, cut_deg, rolling):
    """Throw of the object ball (deg off the line of centres) for a cut shot along +x."""
    phi = math.radians(cut_deg)
    w = (0.0, v / R, 0.0) if rolling else (0.0, 0.0, 0.0)
    r1 = state(0.5, 0.5, v=(v, 0.0), w=w)
    n = np.array([math.cos(phi), -math.sin(phi)])  # object ball below the path: cut to the right
    r2 = state(*(r1[0, :2] + 2 * R * n))
    frictional(r1, r2)
    v2 = r2[1, :2]
    t = np.array([-n[1], n[0]])
    return math.degrees(math.atan2(v2 @ t, v2 @ n)), v2 @ t


@pytest.mark.parametrize("v", [0.5, 1.0, 2.0, 3.0])
def test_cut_shot_throw_in_alciatore_range(v):
    """Alciatore TP A-14: a stun half-ball cut throws the object ball by ~2-5 deg (more at low
    speed), in the direction of the cue ball's tangential motion; natural roll throws less."""
    throw_stun, vt = cut_throw_deg(v, 30.0, rolling=False)
    throw_roll, _ = cut_throw_deg(v, 30.0, rolling=True)
    assert 1.5 < throw_stun < 6.0
    assert vt > 0.0, "thrown along the cue ball's tangential velocity (towards the cut side)"
    assert abs(throw_roll) < throw_stun


def test_throw_decreases_with_speed():
    throws = [cut_throw_deg(v, 30.0, rolling=False)[0] for v in (0.3, 1.0, 2.0, 4.0)]
    assert all(a > b for a, b in zip(throws, throws[1:]))


def test_no_slip_branch_for_thin_slip():
    """Small slip: friction stops it (no reversal); the post-collision contact slip is zero."""
    r1 = state(0.5, 0.5, v=(1.0, 0.0))
    phi = math.radians(2.0)
    r2 = state(*(r1[0, :2] + 2 * R * np.array([math.cos(phi), math.sin(phi)])))
    frictional(r1, r2)
    n = (r2[0, :2] - r1[0, :2]) / (2 * R)
    t = np.array([-n[1], n[0]])
    n3 = np.array([n[0], n[1], 0.0])
    slip = (r1[1] - r2[1]) + R * np.cross(r1[2] + r2[2], n3)
    slip_t = slip - (slip @ n3) * n3
    assert abs(slip_t @ np.array([t[0], t[1], 0.0])) < 1e-12


def test_side_spin_transfers_opposite_spin():
    """Left english (w_z > 0) on a straight hit: both balls lose w_z (gear effect), throw to +y."""
    r1 = state(0.5, 0.5, v=(1.0, 0.0), w=(0.0, 0.0, 30.0))
    r2 = state(0.5 + 2 * R, 0.5)
    frictional(r1, r2)
    assert r2[2, 2] < 0.0 and r1[2, 2] < 30.0
    assert r2[1, 1] > 0.0 and r1[1, 1] < 0.0


@pytest.mark.parametrize("model", MODELS)
def test_mirror_symmetry(model):
    """Mirroring the input in the plane y = y0 mirrors the output (w is a pseudovector)."""
    rng = np.random.default_rng(5)
    P = np.diag([1.0, -1.0, 1.0])
    for _ in range(100):
        r1, r2 = random_pair(rng)
        m1, m2 = r1.copy(), r2.copy()
        for a, b in ((r1, m1), (r2, m2)):
            b[0] = P @ a[0]
            b[1] = P @ a[1]
            b[2] = -(P @ a[2])
        model(r1, r2)
        model(m1, m2)
        for a, b in ((r1, m1), (r2, m2)):
            assert np.allclose(b[1], P @ a[1], atol=1e-12)
            assert np.allclose(b[2], -(P @ a[2]), atol=1e-9)


@pytest.mark.parametrize("model", MODELS)
def test_rotation_invariance(model):
    rng = np.random.default_rng(9)
    for _ in range(50):
        r1, r2 = random_pair(rng)
        a = rng.uniform(0, 2 * math.pi)
        Q = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0],
                      [0.0, 0.0, 1.0]])
        q1, q2 = r1.copy(), r2.copy()
        for s, q in ((r1, q1), (r2, q2)):
            q[0] = Q @ s[0]
            q[1] = Q @ s[1]
            q[2] = Q @ s[2]
        model(r1, r2)
        model(q1, q2)
        for s, q in ((r1, q1), (r2, q2)):
            assert np.allclose(q[1], Q @ s[1], atol=1e-12)
            assert np.allclose(q[2], Q @ s[2], atol=1e-9)


def test_continually_touching_rule():
    """pooltool's separation rule: chased ball takes 10% of the chaser's line-of-centres speed."""
    from physics.resolve.ball_ball import continually_touching

    r1 = state(0.5, 0.5, v=(1.000, 0.2))
    r2 = state(0.5 + 2 * R, 0.5, v=(0.995, 0.2))
    continually_touching.resolve(r1, r2)
    assert np.allclose(r1[1], [0.9, 0.2, 0.0], atol=1e-15)
    assert np.allclose(r2[1], [1.095, 0.2, 0.0], atol=1e-15)
    # separating fast enough, misaligned, or one ball at rest: unchanged
    for v1, v2 in (((1.0, 0.0), (1.02, 0.0)), ((1.0, 0.0), (0.0, 1.0)), ((1.0, 0.0), (0.0, 0.0))):
        a, b = state(0.5, 0.5, v=v1), state(0.5 + 2 * R, 0.5, v=v2)
        a0, b0 = a.copy(), b.copy()
        continually_touching.resolve(a, b)
        assert np.array_equal(a, a0) and np.array_equal(b, b0)
