"""All-in showdown equity of a holding against random hands, by seeded Monte Carlo.

This is what the income-rate tables are made of (Papp 1998 section 5.1):
``Eq_x`` is the holding's share of the pot when it and ``x - 1`` random hands all go to a
showdown on a random board, a tie among ``k`` best hands paying each ``1/k``. One deal serves
every table size at once: it deals ``max(sizes) - 1`` opponents, and the table of ``x``
players uses the first ``x - 1`` of them, so IR2, IR4 and IR7 cost the deals of IR7 alone.

The generator is our own (splitmix64 with Lemire's unbiased bounded integers), seeded per
call, so a result depends on the seed and the holding only: never on threads or numba's
global state. The kernels release the GIL, so threads run holdings in parallel.

>>> from simulator.core.cards import parse_cards
>>> est = allin_equity(parse_cards("AsAh"), (2, 7), deals=20_000, seed=1)
>>> [round(e, 2) for e in est.equity], est.deals
([0.85, 0.43], 20000)
>>> round(est.income_rate(7)), round(est.standard_error(7))  # IR7 = 7 * Eq7 - 1, x1000
(2023, 24)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np

from simulator.core.cards import NUM_CARDS, parse_cards
from simulator.core.errors import CardError
from simulator.core.hand_ranks import rank_row

MAX_PLAYERS = 10  # a hold'em table; 2 + 2 * 9 + 5 = 25 cards of 52

_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@numba.njit(cache=True, nogil=True)
def _splitmix(state: np.ndarray) -> np.uint64:
    """Next 64-bit output of splitmix64 (Steele et al. 2014); ``state`` is a (1,) uint64."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True, nogil=True)
def _below(state: np.ndarray, n: int) -> int:
    """A uniform integer in 0..n-1 (Lemire 2019 on 32 bits, with its rejection step)."""
    bound = np.uint64(n)
    m = (_splitmix(state) >> np.uint64(32)) * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            m = (_splitmix(state) >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
    return int(m >> np.uint64(32))


@numba.njit(cache=True, nogil=True)
def showdown_share(ranks: np.ndarray, players: int) -> float:
    """Seat 0's share of the pot when seats ``0..players-1`` show down with these ranks.

    Lower ranks are better (treys' order); ``k`` tied best hands take ``1/k`` each.
    """
    best = ranks[0]
    tied = 1
    for i in range(1, players):
        if ranks[i] < best:
            return 0.0
        if ranks[i] == best:
            tied += 1
    return 1.0 / tied


@numba.njit(cache=True, nogil=True)
def _deal_shares(hole: np.ndarray, sizes: np.ndarray, deals: int, seed: np.uint64,
                 sums: np.ndarray, squares: np.ndarray) -> None:
    """Add each table size's share, and its square, over ``deals`` random deals."""
    state = np.zeros(1, dtype=np.uint64)
    state[0] = seed
    deck = np.empty(NUM_CARDS - 2, dtype=np.int64)
    n = 0
    for c in range(NUM_CARDS):
        if c != hole[0] and c != hole[1]:
            deck[n] = c
            n += 1
    most = sizes[sizes.shape[0] - 1]
    drawn = 5 + 2 * (most - 1)
    hand = np.empty(7, dtype=np.int64)
    ranks = np.empty(most, dtype=np.int64)
    for _ in range(deals):
        # A partial Fisher-Yates shuffle: deck[0:drawn] is a uniform draw without replacement.
        # The deck is not restored, and need not be: shuffling a permutation keeps it uniform.
        for i in range(drawn):
            j = i + _below(state, n - i)
            deck[i], deck[j] = deck[j], deck[i]
        hand[0:5] = deck[0:5]
        hand[5] = hole[0]
        hand[6] = hole[1]
        ranks[0] = rank_row(hand)
        for p in range(1, most):
            hand[5] = deck[5 + 2 * (p - 1)]
            hand[6] = deck[6 + 2 * (p - 1)]
            ranks[p] = rank_row(hand)
        for k in range(sizes.shape[0]):
            share = showdown_share(ranks, sizes[k])
            sums[k] += share
            squares[k] += share * share


@dataclass(frozen=True)
class EquityEstimate:
    """Monte Carlo estimates of ``Eq_x`` for each table size ``x`` in ``sizes``."""

    sizes: tuple[int, ...]
    equity: tuple[float, ...]
    variance: tuple[float, ...]  # of one deal's share (the sample variance)
    deals: int

    def _at(self, players: int) -> int:
        if players not in self.sizes:
            raise CardError(f"bad table size {players}: estimated sizes are {self.sizes}")
        return self.sizes.index(players)

    def income_rate(self, players: int) -> float:
        """``IR_x = x * Eq_x - 1``, in thousandths (as the tables print it)."""
        return 1000.0 * (players * self.equity[self._at(players)] - 1.0)

    def standard_error(self, players: int) -> float:
        """The standard error of ``IR_x``, in the same thousandths."""
        return 1000.0 * players * math.sqrt(self.variance[self._at(players)] / self.deals)


def allin_equity(hole: str | Sequence[int], sizes: Sequence[int], deals: int,
                 seed: int) -> EquityEstimate:
    """``Eq_x`` of ``hole`` against ``x - 1`` random hands for each ``x`` in ``sizes``.

    Raises ``CardError`` (a ``ValueError``) for bad cards, sizes outside 2..10 or a number of
    deals below 2.
    """
    cards = parse_cards(hole)
    if len(cards) != 2:
        raise CardError(f"bad hole cards {hole!r}: expected exactly two cards")
    xs = sorted(set(int(x) for x in sizes))
    if not xs or xs[0] < 2 or xs[-1] > MAX_PLAYERS:
        raise CardError(f"bad table sizes {list(sizes)}: expected players in 2..{MAX_PLAYERS}")
    if deals < 2:
        raise CardError(f"bad number of deals {deals}: expected at least 2")
    sums = np.zeros(len(xs))
    squares = np.zeros(len(xs))
    _deal_shares(np.array(cards, dtype=np.int64), np.array(xs, dtype=np.int64), int(deals),
                 np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF), sums, squares)
    mean = sums / deals
    var = (squares - deals * mean * mean) / (deals - 1)
    return EquityEstimate(tuple(xs), tuple(float(m) for m in mean),
                          tuple(float(max(v, 0.0)) for v in var), int(deals))
