"""Counter-based random streams: SplitMix64 seeding into xoshiro256** states.

Contract: numba types only. A stream is four consecutive words ``rng[at:at + 4]`` of an
int64 array (the bits of the xoshiro state); ``(rng, at)`` is the handle a strategy gets as
``(rng, rng_row)``. Every stream of a game is derived from ``(seed, game, salt)`` alone, so
game ``i`` of seed ``s`` is the same whatever the chunking, worker count or backend.
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
def seed_stream(rng, at, seed, game, salt):
    """Seed the stream at rng[at:at + 4] from (seed, game, salt)."""
    h = splitmix64(np.uint64(seed) + _GOLDEN)
    h = splitmix64(h ^ (np.uint64(game) + _GOLDEN * np.uint64(2)))
    h = splitmix64(h ^ (np.uint64(salt) + _GOLDEN * np.uint64(3)))
    for i in range(4):
        h = h + _GOLDEN
        rng[at + i] = np.int64(splitmix64(h))


@leaf
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@leaf
def xoshiro_step(s0, s1, s2, s3):
    """One xoshiro256** step: (output, new s0, s1, s2, s3)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@leaf
def next_u64(rng, at):
    """Next xoshiro256** output of the stream at rng[at:at + 4]."""
    result, s0, s1, s2, s3 = xoshiro_step(np.uint64(rng[at]), np.uint64(rng[at + 1]),
                                          np.uint64(rng[at + 2]), np.uint64(rng[at + 3]))
    rng[at] = np.int64(s0)
    rng[at + 1] = np.int64(s1)
    rng[at + 2] = np.int64(s2)
    rng[at + 3] = np.int64(s3)
    return result


@leaf
def scale_below(x, n):
    """The output x mapped to [0, n) for 0 < n < 2**32 (multiply-shift; bias < 2**-32 * n)."""
    return np.int64(((x >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@leaf
def rand_below(rng, at, n):
    """A uniform integer in [0, n) for 0 < n < 2**32."""
    return scale_below(next_u64(rng, at), n)


@kernel
def rand_unit(rng, at):
    """A uniform float in [0, 1)."""
    return np.float64(next_u64(rng, at) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel
def shuffle_cards(arr, n, rng, at):
    """Fisher-Yates shuffle of arr[:n] in place (the same draws as n - 1 `rand_below` calls;
    the stream is kept in registers meanwhile, not stored back after every draw)."""
    s0 = np.uint64(rng[at])
    s1 = np.uint64(rng[at + 1])
    s2 = np.uint64(rng[at + 2])
    s3 = np.uint64(rng[at + 3])
    for i in range(n - 1, 0, -1):
        x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        j = scale_below(x, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
    rng[at] = np.int64(s0)
    rng[at + 1] = np.int64(s1)
    rng[at + 2] = np.int64(s2)
    rng[at + 3] = np.int64(s3)
