"""Mathavan, Jackson & Parkin (2010) ball-cushion impact model, integrated in the normal impulse.

Source: S. Mathavan, M. R. Jackson, R. M. Parkin, "A theoretical analysis of billiard ball
dynamics under cushion impacts", Proc. IMechE Part C: J. Mechanical Engineering Science 224(9),
1863-1873 (2010), doi:10.1243/09544062JMES1964. Same equations and sign conventions as pooltool
0.6.0 ``ball_cushion/mathavan_2010`` (whose explicit Euler stepping this module replaces by an
accurate integration of the same equations).

Frame (the paper's): x along the cushion, y horizontal towards and into the cushion (the ball
approaches with v_y > 0), z up. The rigid cushion touches the ball at I, above the centre, with
``sin(theta) = (h - R) / R``; the table touches it at C, below. The independent variable is the
normal impulse P at I. Two friction forces act: mu_w (ball-cushion, here f_c) at I, and mu_s
(ball-table, here u_s) at C, whose normal impulse grows as ``sin(theta) + mu_w sin(phi) cos(theta)``
per unit P.

- Slip velocities (paper Eqs 12a-b at I and 13a-b at C):
      I: (v_x + w_y R sin(theta) - w_z R cos(theta),  -v_y sin(theta) + w_x R)
      C: (v_x - w_y R,  v_y + w_x R)
  with slip directions phi (at I) and phi' (at C).
- Rates of change with P (the paper's equations of motion in impulse form), with
  a = mu_w (cos phi, sin phi), N = sin(theta) + a_y cos(theta), b = mu_s N (cos phi', sin phi'):
      dv_x/dP = -(a_x + b_x) / M
      dv_y/dP = -(cos(theta) - a_y sin(theta) + b_y) / M
      dw_x/dP = -5/(2MR) (a_y + b_y)
      dw_y/dP = -5/(2MR) (a_x sin(theta) - b_x)
      dw_z/dP = +5/(2MR) a_x cos(theta)
- Work done by the normal force at I: dW/dP = |v_y| cos(theta). Compression lasts until
  v_y = 0 (work W_c); restitution until the released work reaches e^2 W_c (Stronge's energetic
  coefficient of restitution, e = e_c).

Integration. These equations are smooth while both contacts slide; a contact whose slip reaches
zero sticks as long as the friction needed to keep it stuck lies inside its friction cone (the
Filippov limit of the paper's/pooltool's fine explicit stepping, whose slip direction chatters
around zero there), and starts sliding again, continuously, when it no longer does. This module
integrates with classical RK4 in P: ``N_STEPS`` nominal steps per phase, shortened where a slip
direction turns fast or is stiff and to approach a vanishing slip geometrically (see
``_landing``); a slip that falls below ``CAPTURE_TOL`` (relative) sticks if the cone allows it
(its residual is frozen as an offset); Newton steps land on v_y = 0 and on the end of
restitution. The stick friction (saturated on the cone when stick is impossible) comes from the
slip rates, linear in the friction terms:
      I: d/dP = ( -(3.5 a_x + k b_x),  s c - (s^2 + 2.5) a_y + (s - 2.5) b_y ) / M
      C: d/dP = ( -(k a_x + 3.5 b_x),  -(c + (2.5 - s) a_y + 3.5 b_y) ) / M
with s = sin(theta), c = cos(theta), k = 1 - 2.5 s. Typically 50-130 steps, ~15 us per call.
Agreement with pooltool's stepping converged (max_steps 1e7, delta_p 1e-9): within ~1e-5 m/s in
velocity and surface speed R w (tests hold golden values). The vertical velocity is not updated
(the ball stays on the bed), and gravity is neglected during the impact as in the paper (``g``
is accepted for a uniform signature only).
"""

from __future__ import annotations

import math

from numba import njit

#: nominal RK4 steps per phase (compression, restitution)
N_STEPS = 24
#: slip speeds below SLIP_TOL * (|v| + R |w|) count as zero (stick test)
SLIP_TOL = 1e-9
#: a sliding contact whose slip falls below CAPTURE_TOL * (|v| + R |w|) sticks if it can
CAPTURE_TOL = 1e-6
#: largest (step x rate at which sliding friction turns the slip towards its own direction)
STIFF_STEP = 1.0
#: largest slip-direction turn (rad) per step
TURN_STEP = 0.1
#: step budget per call (events included); beyond it the current state is returned
MAX_STEPS = 4000

# contact friction states returned by _friction
_SLIDING = 0
_STUCK = 1
_SATURATED = 2


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _friction(vx, vy, wx, wy, wz, oIx, oIy, oCx, oCy, R, s, c, mu_s, mu_w, tol):
    """Friction per unit normal impulse at I: (a_x, a_y, b_x, b_y, state_I, state_C).

    ``a`` is the cushion friction and ``b`` the table friction (both as the paper's
    mu (cos phi, sin phi) terms, i.e. opposite to the force). The slip of each contact is
    measured from its offset ``o`` (the residual slip frozen when the contact stuck). A contact
    with slip > tol slides (friction opposes the slip, state _SLIDING); otherwise it gets the
    friction that keeps its slip constant (_STUCK), saturated on the friction cone when that is
    impossible (_SATURATED: the contact starts to slide in that direction).
    """
    k = 1.0 - 2.5 * s
    sIx = vx + wy * R * s - wz * R * c - oIx
    sIy = -vy * s + wx * R - oIy
    sCx = vx - wy * R - oCx
    sCy = vy + wx * R - oCy
    nI = math.sqrt(sIx * sIx + sIy * sIy)
    nC = math.sqrt(sCx * sCx + sCy * sCy)

    if nI > tol:
        ax = mu_w * sIx / nI
        ay = mu_w * sIy / nI
        N = s + ay * c
        if nC > tol:
            return ax, ay, mu_s * N * sCx / nC, mu_s * N * sCy / nC, _SLIDING, _SLIDING
        # stick at C if possible: C slip rates zero
        bx = -k * ax / 3.5
        by = -(c + (2.5 - s) * ay) / 3.5
        lim = mu_s * N if N > 0.0 else 0.0
        nb = math.sqrt(bx * bx + by * by)
        if nb <= lim:
            return ax, ay, bx, by, _SLIDING, _STUCK
        f = lim / nb
        return ax, ay, bx * f, by * f, _SLIDING, _SATURATED

    # cushion contact I stuck (or starting to slide)
    stateC = _SLIDING
    if nC > tol:
        ucx = sCx / nC
        ucy = sCy / nC
    else:
        # both stuck: joint stick solution (no x friction needed; y from the two slip rates)
        den = (s * s + 2.5) - (2.5 - s) * (2.5 - s) / 3.5
        ay = c * (s + (2.5 - s) / 3.5) / den
        by = -(c + (2.5 - s) * ay) / 3.5
        N = s + ay * c
        if ay * ay <= mu_w * mu_w and N > 0.0 and abs(by) <= mu_s * N:
            return 0.0, ay, 0.0, by, _STUCK, _STUCK
        # otherwise the table contact slides, in the direction its stick force points
        stateC = _SATURATED
        ucx = 0.0
        ucy = 1.0 if by > 0.0 else -1.0
    # stick at I with C sliding along uc: I slip rates zero, b = mu_s (s + a_y c) uc
    ay = (s * c + (s - 2.5) * mu_s * ucy * s) / ((s * s + 2.5) - (s - 2.5) * mu_s * ucy * c)
    N = s + ay * c
    ax = -k * mu_s * N * ucx / 3.5
    na = math.sqrt(ax * ax + ay * ay)
    stateI = _STUCK
    if na > mu_w:
        stateI = _SATURATED
        ax *= mu_w / na
        ay *= mu_w / na
        N = s + ay * c
    return ax, ay, mu_s * N * ucx, mu_s * N * ucy, stateI, stateC


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _rates(vx, vy, wx, wy, wz, oIx, oIy, oCx, oCy, M, R, s, c, mu_s, mu_w, tol):
    """d(vx, vy, wx, wy, wz)/dP and the signed work rate v_y cos(theta)."""
    ax, ay, bx, by, _, _ = _friction(vx, vy, wx, wy, wz, oIx, oIy, oCx, oCy,
                                     R, s, c, mu_s, mu_w, tol)
    k5 = 2.5 / (M * R)
    return (-(ax + bx) / M,
            -(c - ay * s + by) / M,
            -k5 * (ay + by),
            -k5 * (ax * s - bx),
            k5 * ax * c,
            vy * c)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _rk4(vx, vy, wx, wy, wz, E, h, k1, oIx, oIy, oCx, oCy, M, R, s, c, mu_s, mu_w, tol):
    """One classical RK4 step of size h in P for the state (v, w, E); k1 = rates at the start."""
    hh = 0.5 * h
    k2 = _rates(vx + hh * k1[0], vy + hh * k1[1], wx + hh * k1[2], wy + hh * k1[3],
                wz + hh * k1[4], oIx, oIy, oCx, oCy, M, R, s, c, mu_s, mu_w, tol)
    k3 = _rates(vx + hh * k2[0], vy + hh * k2[1], wx + hh * k2[2], wy + hh * k2[3],
                wz + hh * k2[4], oIx, oIy, oCx, oCy, M, R, s, c, mu_s, mu_w, tol)
    k4 = _rates(vx + h * k3[0], vy + h * k3[1], wx + h * k3[2], wy + h * k3[3],
                wz + h * k3[4], oIx, oIy, oCx, oCy, M, R, s, c, mu_s, mu_w, tol)
    h6 = h / 6.0
    return (vx + h6 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            vy + h6 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
            wx + h6 * (k1[2] + 2.0 * k2[2] + 2.0 * k3[2] + k4[2]),
            wy + h6 * (k1[3] + 2.0 * k2[3] + 2.0 * k3[3] + k4[3]),
            wz + h6 * (k1[4] + 2.0 * k2[4] + 2.0 * k3[4] + k4[4]),
            E + h6 * (k1[5] + 2.0 * k2[5] + 2.0 * k3[5] + k4[5]))


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _landing(sx, sy, dsx, dsy, tol, stiff):
    """Step limit set by a contact's slip (inf if it does not limit the step).

    With the slip s moving at rate ds (per unit P) the step keeps, on the straight-line
    prediction s + h ds, the turn of the slip direction below ``TURN_STEP`` rad (the direction
    turns fast when the slip passes close to zero) and a shrinking slip speed above 20% of its
    value (a vanishing slip is approached geometrically, so no RK4 stage sees it pass by the
    origin). Sliding friction also pulls the slip towards its own direction at a rate
    ``stiff / |s|`` (``stiff`` = 3.5 mu / M): the step keeps that product below ``STIFF_STEP``
    (RK4 is stable up to 2.8).
    """
    n2 = sx * sx + sy * sy
    h = math.inf
    if n2 > tol * tol:
        n = math.sqrt(n2)
        h = STIFF_STEP * n / stiff
        cross = abs(sx * dsy - sy * dsx)
        dot = sx * dsx + sy * dsy
        den = cross - TURN_STEP * dot
        if den > 0.0:
            h = min(h, TURN_STEP * n2 / den)
        if dot < 0.0:
            h = min(h, 0.8 * n2 / -dot)
    return h


@njit(cache=True, no_cfunc_wrapper=True)
def _advance(vx, vy, wx, wy, wz, E, oIx, oIy, oCx, oCy, h_nom, phase, E_end,
             M, R, s, c, mu_s, mu_w, tol, cap):
    """One step of the event-landing integrator; returns the new state and offsets.

    Chooses the step (nominal, limited by each slip's ``_landing``, and landing on the end of
    the phase by a Newton step, signed in restitution), takes it with RK4, then lets every
    sliding contact whose slip fell below ``cap`` stick if the stick friction fits its cone.
    """
    d = _rates(vx, vy, wx, wy, wz, oIx, oIy, oCx, oCy, M, R, s, c, mu_s, mu_w, tol)
    step = h_nom
    sIx = vx + wy * R * s - wz * R * c - oIx
    sIy = -vy * s + wx * R - oIy
    sCx = vx - wy * R - oCx
    sCy = vy + wx * R - oCy
    step = min(step, _landing(sIx, sIy, d[0] + d[3] * R * s - d[4] * R * c,
                              -d[1] * s + d[2] * R, tol, 3.5 * mu_w / M))
    step = min(step, _landing(sCx, sCy, d[0] - d[3] * R, d[1] + d[2] * R, tol,
                              3.5 * mu_s * (s + mu_w * c) / M))
    if phase == 0:
        if d[1] < 0.0 and vy / -d[1] <= step:
            step = vy / -d[1]
    else:
        # E(P + h) ~ E + E' h + E'' h^2 / 2 = E_end, E' = v_y c < 0, E'' = c dv_y/dP; the root
        # is signed so that an overshoot is stepped back
        C = E - E_end
        B = d[5]
        A2 = 0.5 * c * d[1]
        disc = B * B - 4.0 * A2 * C
        if B < 0.0 and disc > 0.0:
            h_end = 2.0 * C / (-B + math.sqrt(disc))
            if h_end <= step:
                step = h_end
    vx, vy, wx, wy, wz, E = _rk4(vx, vy, wx, wy, wz, E, step, d, oIx, oIy, oCx, oCy,
                                 M, R, s, c, mu_s, mu_w, tol)
    # capture: a nearly vanished slip sticks when the cone allows it
    sIx = vx + wy * R * s - wz * R * c
    sIy = -vy * s + wx * R
    sCx = vx - wy * R
    sCy = vy + wx * R
    nI = math.sqrt((sIx - oIx) ** 2 + (sIy - oIy) ** 2)
    if tol < nI <= cap:
        st = _friction(vx, vy, wx, wy, wz, sIx, sIy, oCx, oCy, R, s, c, mu_s, mu_w, tol)
        if st[4] == _STUCK:
            oIx = sIx
            oIy = sIy
    nC = math.sqrt((sCx - oCx) ** 2 + (sCy - oCy) ** 2)
    if tol < nC <= cap:
        st = _friction(vx, vy, wx, wy, wz, oIx, oIy, sCx, sCy, R, s, c, mu_s, mu_w, tol)
        if st[5] == _STUCK:
            oCx = sCx
            oCy = sCy
    return vx, vy, wx, wy, wz, E, oIx, oIy, oCx, oCy


@njit(cache=True, no_cfunc_wrapper=True)
def solve_frame(vx, vy, wx, wy, wz, M, R, h, ee, mu_s, mu_w):
    """Integrate the impact in the cushion frame; returns (vx, vy, wx, wy, wz) after it.

    Arguments as in ``resolve`` (``ee`` = e_c, ``mu_s`` = u_s, ``mu_w`` = f_c); v_y > 0 is the
    approach speed. A non-approaching ball (v_y <= 0) is returned unchanged.
    """
    if not vy > 0.0:
        return vx, vy, wx, wy, wz
    s = (h - R) / R
    c = math.sqrt(1.0 - s * s)
    scale = math.sqrt(vx * vx + vy * vy) + R * math.sqrt(wx * wx + wy * wy + wz * wz)
    tol = SLIP_TOL * scale
    cap = CAPTURE_TOL * scale
    h_nom = M * vy / N_STEPS
    E = 0.0
    oIx = 0.0
    oIy = 0.0
    oCx = 0.0
    oCy = 0.0
    steps = 0

    # compression: until v_y = 0 (the equations are smooth across it: Newton landing)
    while steps < MAX_STEPS:
        steps += 1
        vx, vy, wx, wy, wz, E, oIx, oIy, oCx, oCy = _advance(
            vx, vy, wx, wy, wz, E, oIx, oIy, oCx, oCy, h_nom, 0, 0.0,
            M, R, s, c, mu_s, mu_w, tol, cap)
        if abs(vy) <= 1e-12 * scale or vy < 0.0:
            break
    d = _rates(vx, vy, wx, wy, wz, oIx, oIy, oCx, oCy, M, R, s, c, mu_s, mu_w, tol)
    # work at the exact end of compression (E is quadratic in P around the v_y zero)
    if d[1] < 0.0:
        E += 0.5 * c * vy * vy / -d[1]
    Wc = E

    # restitution: until the released work reaches e^2 Wc (E falls from Wc to (1 - e^2) Wc)
    E_end = (1.0 - ee * ee) * Wc
    h_nom = h_nom * ee
    E_tol = 1e-13 * Wc
    while steps < MAX_STEPS and abs(E - E_end) > E_tol and h_nom > 0.0:
        steps += 1
        vx, vy, wx, wy, wz, E, oIx, oIy, oCx, oCy = _advance(
            vx, vy, wx, wy, wz, E, oIx, oIy, oCx, oCy, h_nom, 1, E_end,
            M, R, s, c, mu_s, mu_w, tol, cap)
    return vx, vy, wx, wy, wz


@njit(cache=True, no_cfunc_wrapper=True)
def resolve(rvw, nx, ny, R, m, h, e_c, f_c, u_s, g):
    """Resolve a ball-cushion collision with the Mathavan 2010 model, updating ``rvw`` in place.

    Args:
        rvw: ``(3, 3)`` float64 [position, velocity, angular velocity] at contact.
        nx, ny: unit contact normal pointing from the cushion into the table (towards the ball).
        R, m: ball radius (m) and mass (kg).
        h: cushion contact height above the bed (m), R <= h < 2R.
        e_c: coefficient of restitution (energetic, at the cushion).
        f_c: ball-cushion sliding friction (the paper's mu_w).
        u_s: ball-table sliding friction (the paper's mu_s).
        g: gravity (unused: impulsive forces only, as in the paper).

    A ball not moving towards the cushion (v . n >= 0) is left unchanged. The vertical velocity
    is not updated.
    """
    # cushion frame: y = -n (into the cushion), x = y cross z = (-ny, nx), z up
    yx = -nx
    yy = -ny
    xx = yy
    xy = -yx
    vy = rvw[1, 0] * yx + rvw[1, 1] * yy
    if not vy > 0.0:
        return
    vx = rvw[1, 0] * xx + rvw[1, 1] * xy
    wx = rvw[2, 0] * xx + rvw[2, 1] * xy
    wy = rvw[2, 0] * yx + rvw[2, 1] * yy
    wz = rvw[2, 2]
    vx, vy, wx, wy, wz = solve_frame(vx, vy, wx, wy, wz, m, R, h, e_c, u_s, f_c)
    rvw[1, 0] = vx * xx + vy * yx
    rvw[1, 1] = vx * xy + vy * yy
    rvw[2, 0] = wx * xx + wy * yx
    rvw[2, 1] = wx * xy + wy * yy
    rvw[2, 2] = wz
