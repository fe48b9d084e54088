"""Ball-cushion resolution models: physics.resolve.cushion.{han_2005,mathavan_2010}."""

import math

import numpy as np
import pytest

from physics.resolve.cushion import han_2005, mathavan_2010

R = 0.028575
M = 0.170097
H = 0.036576  # pooltool 9 ft cushion contact height
E_C, F_C, U_S, G = 0.85, 0.2, 0.2, 9.81
I = 0.4 * M * R * R


def han(rvw, nx, ny, h=H):
    han_2005.resolve(rvw, nx, ny, R, M, h, E_C, F_C)


def mathavan(rvw, nx, ny, h=H):
    mathavan_2010.resolve(rvw, nx, ny, R, M, h, E_C, F_C, U_S, G)


MODELS = [pytest.param(han, id="han_2005"), pytest.param(mathavan, id="mathavan_2010")]


def energy(r):
    return 0.5 * M * r[1] @ r[1] + 0.5 * I * r[2] @ r[2]


def random_hit(rng):
    """A ball touching a cushion with random normal, approaching it, random spin."""
    a = rng.uniform(0, 2 * math.pi)
    n = np.array([math.cos(a), math.sin(a)])
    rvw = np.zeros((3, 3))
    rvw[0] = [0.6, 0.6, R]
    sp = rng.uniform(0.05, 3.0)
    b = rng.uniform(0, 2 * math.pi)
    rvw[1, :2] = sp * math.cos(b), sp * math.sin(b)
    vn = rvw[1, :2] @ n
    if vn > -0.02:
        rvw[1, :2] -= (vn + 0.02 + rng.uniform(0, 2.0)) * n
    rvw[2] = rng.normal(0, 1.0, 3) * np.linalg.norm(rvw[1]) / R
    if rng.random() < 0.3:  # rolling
        rvw[2, 0] = -rvw[1, 1] / R
        rvw[2, 1] = rvw[1, 0] / R
    return rvw, n


# --- Han 2005 --------------------------------------------------------------------------------

@pytest.mark.parametrize("v", [0.3, 1.0, 2.5])
def test_han_perpendicular_no_spin_rebound_per_equations(v):
    """Spinless perpendicular hit: the contact sticks (Eqs 18) and Eqs 21-23 give the rebound
    normal speed v [(1 + e_c) cos^2 a + (2/7) sin^2 a - 1]; with the contact at the equator
    (h = R, a = 0) that is exactly e_c v."""
    sin_a = H / R - 1
    cos2 = 1 - sin_a**2
    rvw = np.array([[0.5, R, R], [0.0, -v, 0.0], [0.0, 0.0, 0.0]])
    han(rvw, 0.0, 1.0)
    expected = v * ((1 + E_C) * cos2 + 2 / 7 * sin_a**2 - 1)
    assert math.isclose(rvw[1, 1], expected, rel_tol=1e-12)
    assert abs(rvw[1, 0]) < 1e-15 and rvw[1, 2] == 0.0
    assert abs(rvw[2, 1]) < 1e-12 and abs(rvw[2, 2]) < 1e-12
    # equator contact: pure restitution
    rvw = np.array([[0.5, R, R], [0.0, -v, 0.0], [0.0, 0.0, 0.0]])
    han(rvw, 0.0, 1.0, h=R)
    assert math.isclose(rvw[1, 1], E_C * v, rel_tol=1e-12)


def test_han_sliding_branch_limits_tangential_impulse():
    """Large slip (Eqs 19): tangential impulse = f_c x normal impulse, opposite to the slip."""
    v = 1.0
    rvw = np.array([[R, 0.5, R], [-v, 0.0, 0.0], [0.0, 0.0, 200.0]])  # big side spin, wall x=0
    han(rvw, 1.0, 0.0)
    sin_a = H / R - 1
    cos_a = math.sqrt(1 - sin_a**2)
    PzE = (1 + E_C) * M * v * cos_a
    # Eqs 14 in the cushion frame (x = -n = table -x, y = table -y): s = (v sin a, R w_z cos a)
    sx, sy = v * sin_a, R * 200.0 * cos_a
    assert (sx * sx + sy * sy) ** 0.5 / 3.5 > F_C * PzE  # Eqs 19 apply (slides throughout)
    expected = F_C * PzE * sy / math.hypot(sx, sy) / M
    assert math.isclose(abs(rvw[1, 1]), expected, rel_tol=1e-12)
    # the contact point (at -R x from the centre) moves with w x r = -200 R y over the cushion,
    # so friction pushes the ball towards +y
    assert rvw[1, 1] > 0.0


def test_han_non_approaching_ball_unchanged():
    rvw = np.array([[0.5, R, R], [0.3, 0.2, 0.0], [1.0, 2.0, 3.0]])
    before = rvw.copy()
    han(rvw, 0.0, 1.0)
    assert np.array_equal(rvw, before)


# --- Mathavan 2010 ---------------------------------------------------------------------------

# pooltool 0.6.0 mathavan_2010 ``solve`` in the cushion frame (vx, vy, wx, wy, wz), stepped to
# convergence (max_steps 1e7, delta_p 1e-9; ~1.5e8 Euler steps each): M = 0.170097,
# R = 0.028575, h = 0.036576, e = 0.85, mu_s = mu_w = 0.2.
POOLTOOL_CONVERGED = [
    ((0.9896088701532681, 1.205769685214957, -42.19666439947356, 34.63198145768217,
      -61.477211836374146),
     (0.554689503132561, -1.0154274683596303, -18.84279194140319, 23.187689289188917,
      -24.355976501297935)),
    ((-1.7663749757702871, 2.2347174544514425, -78.20533523889563, -61.81539722730664,
      20.198694042858207),
     (-1.094737264867921, -1.8755982039639683, -21.53968114963725, -44.29040466120382,
      -37.015766320180965)),
    ((-2.4410220325950043, 1.5412780169723048, -53.93798834548748, -85.42509300419962,
      -104.14663333410574),
     (-2.3657920347655073, -1.2413496732682978, -12.163705410707294, -83.43335988314688,
      -110.57678473854601)),
    ((0.6543428601053538, 2.6772237525481546, -37.66768132282771, -12.872147254951766,
      -67.38411672640909),
     (-0.15047323087365105, -2.0667273919425573, -19.181619924851518, -18.000210065906725,
      -10.728614829536225)),
    ((-0.3196973274124098, 0.7521651605947824, -18.000486228932857, -9.243883841343253,
      -8.054188787816235),
     (-0.26297374751908537, -0.5770986576168247, -5.6548597729304575, -8.757825728738045,
      -12.140752050313877)),
    ((0.08855113882729791, 1.6351267630281134, -19.94926613196092, -26.307616006082814,
      -19.461646172872683),
     (-0.12869961958090606, -1.2548974836173976, -12.296457288921545, -19.435653308746208,
      -10.360319087726685)),
]


@pytest.mark.parametrize("inp,expected", POOLTOOL_CONVERGED)
def test_mathavan_matches_pooltool_converged(inp, expected):
    got = np.array(mathavan_2010.solve_frame(*inp, M, R, H, E_C, U_S, F_C))
    scale = np.array([1.0, 1.0, R, R, R])  # compare spins as surface speeds
    assert np.abs((got - np.array(expected)) * scale).max() < 2e-5


def euler_reference(X, n_steps=5000):
    """Slow reference: explicit Euler in the normal impulse, vectorised over cases (numpy).

    The paper's equations with the slip directions taken at the start of each step (as
    pooltool does); compression to v_y = 0 (work W_c, trapezoid rule), restitution until the
    released work reaches e^2 W_c, the last step cut to land on it. Step: M v_y0 / n_steps.
    """
    vx, vy, wx, wy, wz = (X[:, i].copy() for i in range(5))
    s = (H - R) / R
    c = math.sqrt(1 - s * s)
    k5 = 2.5 / (M * R)
    dp = M * vy / n_steps
    W = np.zeros(len(X))
    Wc = np.full(len(X), np.inf)
    done = np.zeros(len(X), bool)
    comp = np.ones(len(X), bool)
    while not done.all():
        sIx = vx + wy * R * s - wz * R * c
        sIy = -vy * s + wx * R
        sCx = vx - wy * R
        sCy = vy + wx * R
        nI = np.maximum(np.hypot(sIx, sIy), 1e-300)
        nC = np.maximum(np.hypot(sCx, sCy), 1e-300)
        ax, ay = F_C * sIx / nI, F_C * sIy / nI
        N = s + ay * c
        bx, by = U_S * N * sCx / nC, U_S * N * sCy / nC
        dvy = -(c - ay * s + by) / M
        h = dp.copy()
        # compression ends at v_y = 0; restitution ends when W falls to (1 - e^2) Wc
        end_c = comp & (vy + dvy * h <= 0)
        h[end_c] = vy[end_c] / -dvy[end_c]
        target = (1 - E_C**2) * Wc
        dW = vy * c * h
        end_r = ~comp & (W + dW <= target)
        h[end_r] = (W[end_r] - target[end_r]) / (-vy[end_r] * c)
        h[done] = 0.0
        W += 0.5 * (2 * vy + dvy * h) * c * h
        vx, vy = vx - (ax + bx) / M * h, vy + dvy * h
        wx, wy, wz = wx - k5 * (ay + by) * h, wy - k5 * (ax * s - bx) * h, wz + k5 * ax * c * h
        Wc[end_c] = W[end_c]
        comp &= ~end_c
        done |= end_r
    return np.stack([vx, vy, wx, wy, wz], axis=1)


def test_mathavan_matches_slow_reference_integration():
    rng = np.random.default_rng(2010)
    n = 24
    v = rng.uniform(0.1, 2.5, n)
    a = rng.uniform(0.1, math.pi - 0.1, n)
    X = np.stack([v * np.cos(a), v * np.sin(a), *(rng.normal(0, 1, (3, n)) * v / R)], axis=1)
    X[::3, 2] = -X[::3, 1] / R  # rolling into the cushion
    X[::3, 3] = X[::3, 0] / R
    ref = euler_reference(X)
    got = np.array([mathavan_2010.solve_frame(*x, M, R, H, E_C, U_S, F_C) for x in X])
    scale = np.array([1.0, 1.0, R, R, R])
    err = np.abs((got - ref) * scale).max(axis=1) / np.abs(X[:, 1])
    # Euler's error is first order: ~1e-4 of the approach speed with 5000 steps (2.5e-4 with
    # 2000, 3.5e-5 with 20000, converging onto this integration)
    assert err.max() < 4e-4, err


def test_mathavan_perpendicular_no_spin_sanity():
    """Spinless perpendicular hit: rebounds straight back, slower, with backspin-free top."""
    for v in (0.5, 1.5, 2.5):
        rvw = np.array([[0.5, R, R], [0.0, -v, 0.0], [0.0, 0.0, 0.0]])
        mathavan(rvw, 0.0, 1.0)
        assert abs(rvw[1, 0]) < 1e-12
        assert 0.5 * v < rvw[1, 1] < E_C * v
        assert rvw[1, 2] == 0.0 and abs(rvw[2, 1]) < 1e-9 and abs(rvw[2, 2]) < 1e-9


def test_mathavan_non_approaching_ball_unchanged():
    rvw = np.array([[0.5, R, R], [0.3, 0.2, 0.0], [1.0, 2.0, 3.0]])
    before = rvw.copy()
    mathavan(rvw, 0.0, 1.0)
    assert np.array_equal(rvw, before)


# --- both models -----------------------------------------------------------------------------

@pytest.mark.parametrize("model", MODELS)
def test_energy_never_rises(model):
    rng = np.random.default_rng(21)
    for _ in range(200):
        rvw, n = random_hit(rng)
        e0 = energy(rvw)
        model(rvw, *n)
        assert energy(rvw) <= e0 * (1 + 1e-9)


@pytest.mark.parametrize("model", MODELS)
def test_ball_leaves_the_cushion(model):
    rng = np.random.default_rng(22)
    for _ in range(200):
        rvw, n = random_hit(rng)
        model(rvw, *n)
        assert rvw[1, :2] @ n > 0.0


@pytest.mark.parametrize("model", MODELS)
def test_mirror_symmetry(model):
    """Mirror the input in a vertical plane, get the mirrored output (w is a pseudovector)."""
    rng = np.random.default_rng(23)
    for _ in range(100):
        rvw, n = random_hit(rng)
        a = rng.uniform(0, math.pi)  # mirror plane normal u (horizontal)
        u = np.array([math.cos(a), math.sin(a), 0.0])
        P = np.eye(3) - 2 * np.outer(u, u)
        mir = rvw.copy()
        mir[0], mir[1], mir[2] = P @ rvw[0], P @ rvw[1], -(P @ rvw[2])
        mn = P[:2, :2] @ n
        model(rvw, *n)
        model(mir, *mn)
        assert np.allclose(mir[1], P @ rvw[1], atol=1e-9)
        assert np.allclose(mir[2], -(P @ rvw[2]), atol=1e-6)


@pytest.mark.parametrize("model", MODELS)
def test_side_spin_sign(model):
    """Side spin on a perpendicular hit throws the ball along the cushion, the same way in both
    models: w_z > 0 (CCW seen from above) on a ball hitting the wall y = 0 (n = +y) -> -x."""
    rvw = np.array([[0.5, R, R], [0.0, -1.0, 0.0], [0.0, 0.0, 60.0]])
    model(rvw, 0.0, 1.0)
    # contact point (at -y) moves with w x r = 60 z x (-R y) = +60 R x relative to the centre,
    # so cushion friction pushes the ball towards -x
    assert rvw[1, 0] < -0.01
    assert rvw[2, 2] < 60.0
