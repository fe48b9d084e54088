"""Ball-ball collision models (equal masses, equal radii).

- ``frictionless_elastic.resolve(rvw1, rvw2)``
- ``frictional_inelastic.resolve(rvw1, rvw2, R, m, e_b, fa, fb, fc)``
- ``continually_touching.resolve(rvw1, rvw2)``: pooltool 0.6.0's separation rule, applied after
  every ball-ball resolution for balls left moving together (not a paper model).
"""
