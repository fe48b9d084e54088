"""Ball-cushion collision models for straight cushion segments and rounded jaw tips.

Every model takes the contact normal ``(nx, ny)``: the unit vector in the table plane pointing from
the cushion INTO the table, towards the ball centre (for a jaw circle: unit(ball xy - circle
centre)). A ball that is not moving towards the cushion (v . n >= 0) is left unchanged.
"""
