"""Collision resolution models: instantaneous changes of velocity and spin at contact events.

One model per module, each citing its paper and equations:

- ``physics.resolve.ball_ball.frictionless_elastic``: textbook equal-mass elastic exchange.
- ``physics.resolve.ball_ball.frictional_inelastic``: restitution plus Alciatore's speed-dependent
  ball-ball friction (throw, spin transfer), as in pooltool 0.6.0.
- ``physics.resolve.cushion.han_2005``: Han (2005) rigid-cushion impulse model.
- ``physics.resolve.cushion.mathavan_2010``: Mathavan, Jackson & Parkin (2010) impulse-integrated
  cushion model.
- ``physics.resolve.ball_ball.continually_touching``: pooltool 0.6.0's rule separating two balls
  left moving together (applied after every ball-ball resolution for pooltool parity).

Signatures (all numba ``@njit(cache=True)``, in-place, return None)::

    ball_ball.frictionless_elastic.resolve(rvw1, rvw2)
    ball_ball.frictional_inelastic.resolve(rvw1, rvw2, R, m, e_b, fa, fb, fc)
    ball_ball.continually_touching.resolve(rvw1, rvw2)
    cushion.han_2005.resolve(rvw, nx, ny, R, m, h, e_c, f_c)
    cushion.mathavan_2010.resolve(rvw, nx, ny, R, m, h, e_c, f_c, u_s, g)

(nx, ny) is the unit contact normal from the cushion into the table (for a jaw circle,
unit(ball xy - circle centre)); h the cushion contact height.

Every ``resolve`` function is a numba ``@njit(cache=True)`` kernel that updates the ``(3, 3)``
float64 ``rvw`` arrays (rows: position r, velocity v, angular velocity w; table frame, z up) in
place and returns nothing. Positions are never changed (moving the balls to the exact contact
distance beforehand is the caller's job). Importing this package has no side effects and does not
compile anything.
"""
