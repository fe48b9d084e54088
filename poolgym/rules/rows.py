"""Per-table rows of plain Python values (the states' tuples) as arrays, and arrays as rows.

A batched step reads every table's ball centres (``GameState.pos``, floats) and flags
(``on_table``, bools) into (B, width) arrays, and turns the flags the referee computed back
into tuples. Each row goes through one `struct.Struct` of ``width`` native values (``d``:
float64, ``q``: int64, ``?``: bool) and the rows' bytes are joined into the array's buffer: the same values
as ``np.fromiter`` over the chained tuples (or ``tolist``), about three times faster.

>>> float_rows([(0.5, 1.0), (2.0, -0.0)], 2)
array([[ 0.5,  1. ],
       [ 2. , -0. ]])
>>> bool_rows([(True, False)], 2)
array([[ True, False]])
>>> bool_tuples(np.array([[True, False], [False, True]]))
[(True, False), (False, True)]
"""
from __future__ import annotations

import struct
from itertools import starmap

import numpy as np

__all__ = ["float_rows", "int_rows", "bool_rows", "bool_tuples"]

_STRUCTS: dict = {}


def _row_struct(code: str, width: int) -> struct.Struct:
    """The `struct.Struct` of ``width`` native values of type ``code`` (cached)."""
    s = _STRUCTS.get((code, width))
    if s is None:
        s = _STRUCTS[(code, width)] = struct.Struct(f"@{width}{code}")
    return s


def float_rows(rows, width: int) -> np.ndarray:
    """(len(rows), width) float64 array (writable) of ``rows``, each a sequence of ``width``
    numbers; `struct.error` when a row has another length."""
    buf = bytearray().join(starmap(_row_struct("d", width).pack, rows))
    return np.frombuffer(buf, np.float64).reshape(-1, width)


def int_rows(rows, width: int) -> np.ndarray:
    """(len(rows), width) int64 array (writable) of ``rows``, each ``width`` integers (bools
    count as 0 / 1); `struct.error` when a row has another length or a value is no integer."""
    buf = bytearray().join(starmap(_row_struct("q", width).pack, rows))
    return np.frombuffer(buf, np.int64).reshape(-1, width)


def bool_rows(rows, width: int) -> np.ndarray:
    """(len(rows), width) bool array (writable) of ``rows``, each ``width`` values taken by
    their truth; `struct.error` when a row has another length."""
    buf = bytearray().join(starmap(_row_struct("?", width).pack, rows))
    return np.frombuffer(buf, np.bool_).reshape(-1, width)


def bool_tuples(arr: np.ndarray) -> list:
    """The rows of the (B, width) bool array ``arr`` as tuples of Python bools (as
    ``[tuple(r) for r in arr.tolist()]``)."""
    arr = np.asarray(arr, np.bool_)
    return list(_row_struct("?", arr.shape[1]).iter_unpack(arr.tobytes()))
