"""Checks shared by the batched referees' tests (`DisciplineBase.adjudicate_batch` overrides)."""

from collections import Counter

import gymnasium as gym

import poolgym  # noqa: F401  (registers the env ids)
from poolgym.rules.testing import ruled_both_ways


def play_checked(monkeypatch, cls, env_id, kwargs, n, steps, seed, n_bits=12):
    """Play seeded random Box actions in ``env_id``'s native vector env with every batch ruled
    by ``cls.adjudicate_batch`` and by `adjudicate_validated` one by one; both rulings must be
    equal (state as JSON, verdict as repr). Returns the counts of the compiled call's outcome
    codes (0 = fallback; "no batch": tables of batches it could not read; "GW-12": decided
    shots that ended in the stalemate stand-in or the max_shots cap; "SP-6.7.3": decided
    shots that re-racked the fourteen (14.1); "break": shots from the break phase) and of its
    foul bits (the first ``n_bits``)."""
    codes, bits = Counter(), Counter()
    batched = cls.adjudicate_batch

    def checked(self, states, actions, recs):
        got = ruled_both_ways(batched, self, states, actions, recs)
        ruled = self._batch_outcomes(states, actions, recs)
        if ruled is None:
            codes["no batch"] += len(recs)
        else:
            codes.update(ruled[0])
            codes["GW-12"] += sum("GW-12" in v.rule_refs for c, (_, v) in zip(ruled[0], got) if c != 0)
            codes["SP-6.7.3"] += sum("SP-6.7.3" in v.rule_refs for c, (_, v) in zip(ruled[0], got) if c != 0)
            codes["break"] += sum(st.phase.value == "break" for st in states)
            bits.update(b for fb in ruled[1] for b in (1 << i for i in range(n_bits)) if fb & b)
        return got

    monkeypatch.setattr(cls, "adjudicate_batch", checked)
    play_random(env_id, kwargs, n, steps, seed)
    return codes, bits


def play_random(env_id, kwargs, n, steps, seed) -> None:
    """``steps`` seeded random actions in ``env_id``'s native vector env of ``n`` tables."""
    env = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    env.action_space.seed(seed)
    env.reset(seed=seed)
    for _ in range(steps):
        env.step(env.action_space.sample())
    env.close()


def compiled_signatures(monkeypatch, module, env_id, sizes=(1, 8), steps=6) -> set:
    """The argument types of every ``module.outcomes`` call that ``env_id``'s native vector
    env makes with ``sizes`` tables, ``steps`` random steps each."""
    import numba

    seen = set()
    real = module.outcomes

    def spy(*args):
        seen.add(tuple(numba.typeof(a) for a in args))
        return real(*args)

    monkeypatch.setattr(module, "outcomes", spy)
    for n in sizes:
        env = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point")
        env.action_space.seed(0)
        env.reset(seed=0)
        for _ in range(steps):
            env.step(env.action_space.sample())
        env.close()
    return seen
