"""Seeded random generators, built fast.

:func:`seeded_generator` returns the Generator ``numpy.random.default_rng(seed)`` would: a
PCG64 seeded through a ``numpy.random.SeedSequence``. The rules draw one at every rack
(`poolgym.rules.game.draw_rng`) and the envs one per episode, so the vector env builds
hundreds per second; default_rng spends most of its ~20 us coercing the seed and hashing it
in Python. Here the SeedSequence hash (O'Neill's seed_seq design as numpy implements it:
``mix_entropy`` into a pool of four 32-bit words, then ``generate_state``) runs compiled
(:func:`_pcg64_seed_words`) and the four 64-bit words are handed to PCG64 through a
minimal :class:`numpy.random.bit_generator.ISeedSequence`: about 3 us, the same stream
(``tests/rules/test_seeding.py`` compares the two on many seeds).
"""
from __future__ import annotations

import numpy as np
import physics.cache_stamp  # noqa: F401  (numba's cache keyed on the project's source)
from numba import njit
from numpy.random.bit_generator import ISeedSequence

__all__ = ["seeded_generator", "permutation_prefix", "entropy_words"]

# numpy.random.bit_generator's SeedSequence constants (32-bit words)
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16
_POOL = 4
_M32 = 0xFFFFFFFF

_Generator = np.random.Generator
_PCG64 = np.random.PCG64


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _hashmix(value, h):
    """(hashed value, next hash constant): numpy's ``hashmix`` (mod 2**32 in int64)."""
    value ^= h
    h = (h * _MULT_A) & _M32
    value = (value * h) & _M32
    return value ^ (value >> _XSHIFT), h


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _mix(x, y):
    """numpy's ``mix`` of two pool words (mod 2**32 in int64)."""
    r = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _M32
    return r ^ (r >> _XSHIFT)


@njit(cache=True, no_cfunc_wrapper=True)
def _pcg64_seed_words(entropy):
    """(4,) uint64: ``SeedSequence(entropy).generate_state(4, np.uint64)`` for the uint32
    words ``entropy`` (int64 array holding values in [0, 2**32)); arithmetic mod 2**32 in
    int64."""
    pool = np.zeros(_POOL, np.int64)
    h = _INIT_A
    n = entropy.shape[0]
    # mix_entropy: hash every word into the pool, then cross-mix the pool words
    for i in range(_POOL):
        pool[i], h = _hashmix(entropy[i] if i < n else 0, h)
    for i_src in range(_POOL):
        for i_dst in range(_POOL):
            if i_src != i_dst:
                v, h = _hashmix(pool[i_src], h)
                pool[i_dst] = _mix(pool[i_dst], v)
    for i_src in range(_POOL, n):
        for i_dst in range(_POOL):
            v, h = _hashmix(entropy[i_src], h)
            pool[i_dst] = _mix(pool[i_dst], v)
    # generate_state(8 uint32 words) viewed as 4 little-endian uint64 words
    out = np.zeros(4, np.uint64)
    hb = _INIT_B
    for i in range(8):
        v = pool[i % _POOL] ^ hb
        hb = (hb * _MULT_B) & _M32
        v = (v * hb) & _M32
        v ^= v >> _XSHIFT
        if i % 2 == 0:
            out[i // 2] = np.uint64(v)
        else:
            out[i // 2] |= np.uint64(v) << np.uint64(32)
    return out


class _SeedWords(ISeedSequence):
    """A SeedSequence stand-in that hands PCG64 its four precomputed 64-bit words."""

    __slots__ = ("words",)

    def __init__(self, words):
        self.words = words

    def generate_state(self, n_words, dtype=np.uint32):
        if n_words != 4 or np.dtype(dtype) != np.uint64:
            raise ValueError("_SeedWords only seeds PCG64 (4 uint64 words)")
        return self.words


def _entropy_words(seed):
    """The uint32 words numpy's SeedSequence makes of ``seed`` (a non-negative int or a
    sequence of them; little-endian 32-bit chunks, 0 -> [0]), or None for any other seed."""
    ints = (seed,) if type(seed) is int else seed
    if not isinstance(ints, (list, tuple)) or not ints:
        return None
    out = []
    for n in ints:
        if type(n) is not int or n < 0:
            return None
        if n == 0:
            out.append(0)
        while n > 0:
            out.append(n & _M32)
            n >>= 32
    return out


def seeded_generator(seed) -> np.random.Generator:
    """``numpy.random.default_rng(seed)`` (the same stream) for a non-negative int or a
    list/tuple of them, built with the compiled SeedSequence hash; any other seed goes
    through numpy itself."""
    words = _entropy_words(seed)
    if words is None:
        return _Generator(_PCG64(seed))
    return _Generator(_PCG64(_SeedWords(_pcg64_seed_words(np.array(words, np.int64)))))


# --------------------------------------------------------------------------- permutations
# PCG64 (XSL-RR 128/64, O'Neill's PCG as numpy's PCG64 runs it) and numpy's Generator.shuffle
# (Fisher-Yates from the end with ``random_interval``: masked rejection on 32-bit draws),
# compiled, so that a chance draw needs no Generator object.
_U32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_MUL_HI = np.uint64(2549297995355413924)
_MUL_LO = np.uint64(4865540595714422341)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _mulhi64(a, b):
    """High 64 bits of the 128-bit product of the uint64 ``a`` and ``b``."""
    a_lo, a_hi = a & _U32, a >> _S32
    b_lo, b_hi = b & _U32, b >> _S32
    p0, p1, p2, p3 = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi
    mid = (p0 >> _S32) + (p1 & _U32) + (p2 & _U32)
    return p3 + (p1 >> _S32) + (p2 >> _S32) + (mid >> _S32)


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _pcg_step(st):
    """state = state * MULT + inc (mod 2**128) on st = [state hi, state lo, inc hi, inc lo]."""
    hi, lo = st[0], st[1]
    nlo = lo * _MUL_LO
    nhi = _mulhi64(lo, _MUL_LO) + lo * _MUL_HI + hi * _MUL_LO
    lo2 = nlo + st[3]
    carry = np.uint64(1) if lo2 < nlo else np.uint64(0)
    st[0] = nhi + st[2] + carry
    st[1] = lo2


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _pcg_next64(st):
    """PCG64's next 64-bit output (step, then XSL-RR of the new state)."""
    _pcg_step(st)
    x = st[0] ^ st[1]
    rot = st[0] >> np.uint64(58)
    return (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))


#: a compiled stream: the (6,) uint64 array [state hi, state lo, increment hi, increment lo,
#: a buffered 32-bit word is held (0 / 1), that word] (numpy's PCG64 state with its
#: ``has_uint32`` / ``uinteger`` buffer)
_HAS32, _BUF = 4, 5


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, inline="always")
def _stream(entropy):
    """The stream of ``default_rng(seed)`` for the seed whose SeedSequence entropy words are
    ``entropy`` (see `entropy_words`): ``pcg64_set_seed(seed=w[0:2], inc=w[2:4])`` of the
    hashed words ``w``, nothing buffered."""
    w = _pcg64_seed_words(entropy)
    st = np.zeros(6, np.uint64)
    st[2] = (w[2] << np.uint64(1)) | (w[3] >> np.uint64(63))
    st[3] = (w[3] << np.uint64(1)) | np.uint64(1)
    _pcg_step(st)
    lo = st[1] + w[1]
    carry = np.uint64(1) if lo < st[1] else np.uint64(0)
    st[0] = st[0] + w[0] + carry
    st[1] = lo
    _pcg_step(st)
    return st


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, inline="always")
def _next_uint32(st):
    """numpy's ``next_uint32`` of PCG64: the buffered high word if one is held, else the low
    word of a new 64-bit output (its high word buffered)."""
    if st[_HAS32] != np.uint64(0):
        st[_HAS32] = np.uint64(0)
        return st[_BUF]
    r = _pcg_next64(st)
    st[_BUF] = r >> _S32
    st[_HAS32] = np.uint64(1)
    return r & _U32


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True)
def _shuffle(st, arr):
    """numpy's ``Generator.shuffle`` of the 1-D ``arr`` in place: Fisher-Yates from the end,
    each index drawn by ``random_interval`` (masked rejection on 32-bit draws; len < 2**32)."""
    for i in range(arr.shape[0] - 1, 0, -1):
        mx = np.uint64(i)
        mask = mx
        for sh in (1, 2, 4, 8, 16, 32):
            mask |= mask >> np.uint64(sh)
        v = _next_uint32(st) & mask
        while v > mx:
            v = _next_uint32(st) & mask
        j = np.int64(v)
        arr[i], arr[j] = arr[j], arr[i]


@njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True, inline="always")
def _next_double(st):
    """numpy's ``Generator.random()``: the top 53 bits of a new 64-bit output times 2**-53 (the
    buffered 32-bit word is kept for the next 32-bit draw)."""
    return np.float64(_pcg_next64(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, no_cfunc_wrapper=True)
def _permutation_prefix(entropy, n, k):
    """The first ``k`` entries of ``default_rng(seed).permutation(n)`` for the seed whose
    SeedSequence entropy words are ``entropy`` (see `entropy_words`)."""
    st = _stream(entropy)
    arr = np.arange(n)
    _shuffle(st, arr)
    return arr[:k]


def entropy_words(seed):
    """The SeedSequence entropy words of ``seed`` as an int64 array, the argument of this
    module's compiled draws (`_stream`), or None for a seed they do not take (anything but a
    non-negative int or a list/tuple of them)."""
    words = _entropy_words(seed)
    return None if words is None else np.array(words, np.int64)


def permutation_prefix(seed, n: int, k: int) -> list:
    """``numpy.random.default_rng(seed).permutation(n)[:k].tolist()`` (the same values),
    compiled for a non-negative int seed or a list/tuple of them (what the rules' chance
    draws use, `poolgym.rules.seats.draw_from`); any other seed goes through numpy."""
    words = entropy_words(seed)
    if words is None or not (0 <= k <= n < 2**32):
        return seeded_generator(seed).permutation(n)[:k].tolist()
    return _permutation_prefix(words, int(n), int(k)).tolist()
