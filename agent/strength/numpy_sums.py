"""numpy's float64 summation order inside numba kernels, so that fused kernels stay exact.

``ndarray.sum()`` of a contiguous float64 array adds pairwise: below 8 numbers one by one,
up to 128 in eight interleaved running sums combined as a tree, and longer arrays split in
two halves (the first rounded down to a multiple of 8) summed the same way. Floating-point
addition is not associative, so a kernel that adds in another order gets slightly different
sums. The kernels that replace masked numpy sums on the agent's hot path (strength sums,
top shares) sum their values with :func:`pairwise_sum`, and so return the very same floats as
the numpy expressions they replace: the agent decides exactly as before.

Kernels in other files call :func:`pairwise_sum`, and numba's cache keeps their compiled copy
of it: after editing it, delete the ``__pycache__/*.nbi`` and ``*.nbc`` files of
``agent/strength`` so that they compile afresh.

>>> import numpy as np
>>> a = np.random.default_rng(0).random(1000)
>>> pairwise_sum(a, 0, len(a)) == float(a.sum())
True
"""

from __future__ import annotations

import numba
import numpy as np

_BLOCK = 128  # numpy's PW_BLOCKSIZE


@numba.njit(cache=True, nogil=True)
def _block_sum(a: np.ndarray, start: int, n: int) -> float:
    """numpy's sum of at most 128 numbers."""
    if n < 8:
        res = 0.0
        for i in range(start, start + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[start], a[start + 1], a[start + 2], a[start + 3]
    r4, r5, r6, r7 = a[start + 4], a[start + 5], a[start + 6], a[start + 7]
    whole = n - n % 8
    i = start + 8
    while i < start + whole:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < start + n:
        res += a[i]
        i += 1
    return res


@numba.njit(cache=True, nogil=True)
def pairwise_sum(a: np.ndarray, start: int, n: int) -> float:
    """The sum of ``a[start:start + n]`` exactly as ``a[start:start + n].sum()`` gives it.

    numpy recurses; this walks the same tree of halves with a stack of its own (numba's
    cache cannot keep a recursive function), adding each left half's sum to its right's.
    """
    if n <= _BLOCK:
        return _block_sum(a, start, n)
    starts = np.empty(64, dtype=np.int64)  # 2**64 numbers would be needed to overflow it
    sizes = np.empty(64, dtype=np.int64)
    stage = np.empty(64, dtype=np.int64)  # 0: go left, 1: left done, go right, 2: right done
    left = np.empty(64, dtype=np.float64)
    top = 0
    starts[0], sizes[0], stage[0] = start, n, 0
    value = 0.0  # the sum the last finished node hands to its parent
    while top >= 0:
        s, m = starts[top], sizes[top]
        if m <= _BLOCK:
            value = _block_sum(a, s, m)
            top -= 1
            continue
        half = m // 2
        half -= half % 8
        if stage[top] == 0:
            stage[top] = 1
            top += 1
            starts[top], sizes[top], stage[top] = s, half, 0
        elif stage[top] == 1:
            left[top] = value
            stage[top] = 2
            top += 1
            starts[top], sizes[top], stage[top] = s + half, m - half, 0
        else:
            value = left[top] + value
            top -= 1
    return value
