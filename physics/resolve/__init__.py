"""Collision resolution models: instantaneous changes of velocity and spin at contact events.

One model per module, each citing its paper and equations:

- ``physics.resolve.ball_ball.frictionless_elastic``: textbook equal-mass elastic exchange.
- ``physics.resolve.ball_ball.frictional_inelastic``: restitution plus Alciatore's speed-dependent
  ball-ball friction (throw, spin transfer), as in pooltool 0.6.0.
- ``physics.resolve.cushion.han_2005``: Han (2005) rigid-cushion impulse model.
- ``physics.resolve.cushion.mathavan_2010``: Mathavan, Jackson & Parkin (2010) impulse-integrated
  cushion model.

Every ``resolve`` function is a numba ``@njit(cache=True)`` kernel that updates the ``(3, 3)``
float64 ``rvw`` arrays (rows: position r, velocity v, angular velocity w; table frame, z up) in
place and returns nothing. Positions are never changed (moving the balls to the exact contact
distance beforehand is the caller's job). Importing this package has no side effects and does not
compile anything.
"""
