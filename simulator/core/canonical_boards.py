"""Boards up to suit isomorphism: each board's canonical form, and every class of k-card boards.

A suit permutation (:data:`simulator.core.suits.CARD_PERMS`) maps card ``rank*4 + s`` to
``rank*4 + perm[s]``; boards that one maps onto another play alike. A board's *code* is its
sorted cards read as a base-52 number, and its *canonical form* the permuted board with the
smallest code: one representative per class, the same whichever member is asked about.

>>> from simulator.core.cards import format_cards, parse_cards
>>> from simulator.core.suits import CARD_PERMS
>>> code, perm = canonical_code(np.array(parse_cards("Ah Kh 2d")), CARD_PERMS)
>>> format_cards(decode_boards(np.array([code]), 3)[0].tolist())
'2cKdAd'
>>> codes, sizes = canonical_classes(3, CARD_PERMS)
>>> codes.size, int(sizes.sum())  # the 1,755 flops stand for all 22,100
(1755, 22100)
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def canonical_code(cards: np.ndarray, perms: np.ndarray) -> tuple[int, int]:
    """``(code, p)``: the smallest code of ``cards`` under the permutations ``perms`` (rows
    of card images), and the first permutation that gives it (so the answer is
    deterministic)."""
    return canonical_code_into(cards, perms, np.empty(cards.shape[0], dtype=np.int64))


@numba.njit(cache=True, nogil=True)
def canonical_code_into(cards: np.ndarray, perms: np.ndarray, buf: np.ndarray
                        ) -> tuple[int, int]:
    """:func:`canonical_code` with ``buf`` (as long as ``cards``) as scratch."""
    k = cards.shape[0]
    best = np.int64(-1)
    best_perm = 0
    for p in range(perms.shape[0]):
        for j in range(k):
            buf[j] = perms[p, cards[j]]
        buf.sort()
        code = np.int64(0)
        for j in range(k):
            code = code * 52 + buf[j]
        if best < 0 or code < best:
            best = code
            best_perm = p
    return int(best), best_perm


@numba.njit(cache=True, nogil=True)
def canonical_classes(k: int, perms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every canonical k-card board's code, and how many boards (sets of k cards) share
    it, codes ascending."""
    total = 1
    for j in range(k):
        total = total * (52 - j) // (j + 1)
    codes = np.empty(total, dtype=np.int64)
    cards = np.arange(k, dtype=np.int64)
    buf = np.empty(k, dtype=np.int64)
    i = 0
    while True:
        codes[i], _ = canonical_code_into(cards, perms, buf)
        i += 1
        # the next combination in lexicographic order
        j = k - 1
        while j >= 0 and cards[j] == 52 - k + j:
            j -= 1
        if j < 0:
            break
        cards[j] += 1
        for m in range(j + 1, k):
            cards[m] = cards[m - 1] + 1
    codes.sort()
    uniq = np.empty(total, dtype=np.int64)
    sizes = np.empty(total, dtype=np.int64)
    u = 0
    for i in range(total):
        if u > 0 and codes[i] == uniq[u - 1]:
            sizes[u - 1] += 1
        else:
            uniq[u] = codes[i]
            sizes[u] = 1
            u += 1
    return uniq[:u], sizes[:u]


def decode_boards(codes: np.ndarray, k: int) -> np.ndarray:
    """The sorted cards of k-card board codes: shape (len(codes), k)."""
    rest = np.asarray(codes, dtype=np.int64).copy()
    cards = np.empty((rest.shape[0], k), dtype=np.int64)
    for j in range(k - 1, -1, -1):
        cards[:, j] = rest % 52
        rest //= 52
    return cards
