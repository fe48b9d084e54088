"""`poolgym.rules.seeding.seeded_generator` gives default_rng's stream for every seed form."""
import numpy as np
import pytest

from poolgym.rules.seeding import seeded_generator

_RNG = np.random.default_rng(20261203)
SEEDS = ([0, 1, 2**31 - 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64 + 3, [0, 0], [5, 0], [12345, 3], (7, 2**40, 9),
          [1, 2, 3, 4, 5, 6, 7], (3,)]
         + [int(x) for x in _RNG.integers(0, 2**63 - 1, 40)]
         + [[int(a), int(b)] for a, b in _RNG.integers(0, 2**31 - 1, (40, 2))])


@pytest.mark.parametrize("seed", SEEDS, ids=str)
def test_same_stream_as_default_rng(seed):
    a, b = seeded_generator(seed), np.random.default_rng(seed)
    assert np.array_equal(a.integers(0, 2**62, 8), b.integers(0, 2**62, 8))
    assert np.array_equal(a.permutation(15), b.permutation(15))
    assert a.bit_generator.state == b.bit_generator.state


@pytest.mark.parametrize("seed", [None, np.uint32(5), [np.int64(3), 4], np.random.SeedSequence(9)], ids=str)
def test_other_seed_forms_go_through_numpy(seed):
    g = seeded_generator(seed)
    assert isinstance(g, np.random.Generator)
    if seed is not None:
        assert g.bit_generator.state == np.random.default_rng(seed).bit_generator.state


def test_negative_seed_rejected_like_numpy():
    with pytest.raises(ValueError):
        seeded_generator(-1)
    with pytest.raises(ValueError):
        seeded_generator([3, -2])


@pytest.mark.parametrize("seed", SEEDS[:20] + [[int(a), int(b)] for a, b in _RNG.integers(0, 2**31 - 1, (60, 2))],
                         ids=str)
def test_permutation_prefix_is_default_rngs_permutation(seed):
    from poolgym.rules.seeding import permutation_prefix

    for n in (0, 1, 2, 15, 45, 52):
        for k in sorted({0, 1, min(7, n), n}):
            assert permutation_prefix(seed, n, k) == np.random.default_rng(seed).permutation(n)[:k].tolist()
