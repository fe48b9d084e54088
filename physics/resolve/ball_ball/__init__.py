"""Ball-ball collision models (equal masses, equal radii). See the model modules."""
