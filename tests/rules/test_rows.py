"""`poolgym.rules.rows`: the struct-packed rows hold the values ``np.fromiter`` / ``tolist``
give (bit for bit), for the tuples the states carry."""
import struct
from itertools import chain

import numpy as np
import pytest

from poolgym.rules.rows import bool_rows, bool_tuples, float_rows, int_rows


def test_float_rows_bit_identical_to_fromiter():
    rng = np.random.default_rng(7)
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 1.7976931348623157e308, 3, -2, True]
    for B, W in ((1, 1), (7, 20), (256, 32), (33, 3)):
        vals = rng.normal(size=(B, W)) * 10.0 ** rng.integers(-300, 300, (B, W))
        rows = [tuple(r) for r in vals.tolist()]
        rows[0] = tuple(specials[k % len(specials)] for k in range(W))  # ints, bools, signed zero, NaN
        got = float_rows(rows, W)
        want = np.fromiter(chain.from_iterable(rows), np.float64, B * W).reshape(B, W)
        assert got.shape == (B, W) and got.dtype == np.float64 and got.flags.writeable
        assert got.tobytes() == want.tobytes()


def test_int_rows_as_fromiter():
    rows = [(True, False, 3, -1, 2**62, 0), (0, 1, -(2**63), 7, 5, False)]
    got = int_rows(rows, 6)
    assert got.dtype == np.int64 and got.flags.writeable
    assert got.tobytes() == np.fromiter(chain.from_iterable(rows), np.int64, 12).reshape(2, 6).tobytes()
    with pytest.raises(struct.error):
        int_rows([(1.5,)], 1)


def test_bool_rows_and_tuples_round_trip():
    rng = np.random.default_rng(8)
    for B, W in ((1, 1), (5, 10), (256, 16)):
        arr = rng.random((B, W)) < 0.5
        rows = [tuple(r) for r in arr.tolist()]
        got = bool_rows(rows, W)
        assert got.dtype == np.bool_ and got.flags.writeable and np.array_equal(got, arr)
        back = bool_tuples(arr)
        assert back == rows and all(v is True or v is False for r in back for v in r)
        assert bool_tuples(arr[:, ::-1]) == [tuple(r) for r in arr[:, ::-1].tolist()]  # a non-contiguous view


def test_empty_batch_and_wrong_width():
    assert float_rows([], 4).shape == (0, 4)
    assert bool_rows([], 3).shape == (0, 3)
    with pytest.raises(struct.error):
        float_rows([(1.0, 2.0), (1.0,)], 2)
    with pytest.raises(struct.error):
        bool_rows([(True,)], 2)
