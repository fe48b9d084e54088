"""Programmatic players that the environments and the agents share.

`view` (what a seat sees and the planning view of it), `geometric` (the geometric player) and
`opponent` (any player as the single-agent envs' opponent). Imports go one way: these import
`poolgym.rules` and `poolgym.planning`; the envs and the agents import them.
"""
