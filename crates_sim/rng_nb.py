"""Counter-based random streams: SplitMix64 seeding into xoshiro256** states.

Contract: numba types only. A stream is one row of a ``uint64[:, 4]`` array. Every stream
of a game is derived from ``(seed, game, salt)`` alone, so game ``i`` of seed ``s`` is the
same whatever the chunking, worker count or backend.
"""

import numpy as np

from .jit import kernel, leaf

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@kernel
def splitmix64(x):
    """One SplitMix64 output for the uint64 input x (state already advanced)."""
    z = x
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@kernel
def seed_stream(rng, row, seed, game, salt):
    """Seed stream `row` of `rng` from (seed, game, salt)."""
    h = splitmix64(np.uint64(seed) + _GOLDEN)
    h = splitmix64(h ^ (np.uint64(game) + _GOLDEN * np.uint64(2)))
    h = splitmix64(h ^ (np.uint64(salt) + _GOLDEN * np.uint64(3)))
    for i in range(4):
        h = h + _GOLDEN
        rng[row, i] = splitmix64(h)


@leaf
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@leaf
def next_u64(rng, row):
    """Next xoshiro256** output of stream `row`."""
    s0 = rng[row, 0]
    s1 = rng[row, 1]
    s2 = rng[row, 2]
    s3 = rng[row, 3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    rng[row, 0] = s0
    rng[row, 1] = s1
    rng[row, 2] = s2
    rng[row, 3] = s3
    return result


@leaf
def rand_below(rng, row, n):
    """A uniform integer in [0, n) for 0 < n < 2**32 (multiply-shift; bias < 2**-32 * n)."""
    x = next_u64(rng, row) >> np.uint64(32)
    return np.int64((x * np.uint64(n)) >> np.uint64(32))


@kernel
def rand_unit(rng, row):
    """A uniform float in [0, 1)."""
    return np.float64(next_u64(rng, row) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel
def shuffle_cards(arr, n, rng, row):
    """Fisher-Yates shuffle of arr[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, row, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
