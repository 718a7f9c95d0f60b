"""The showdown walk: each holding's weight of opponents before it, and tied with it, in rank order.

Every strength question after the flop ends in the same sums: for each holding h, the weight of
the opponent holdings that rank worse than h (or better), the weight of those that tie it, and
the weight of all of them, each sum leaving out the opponents that share a card with h.
Walking the holdings once in rank order, one group of equal ranks at a time, a running total
of the groups already passed, overall and per card, gives every holding's sum in constant
time: the opponents holding one of h's cards come off card by card, and h itself, which holds
both and so comes off twice, is put back once: it is never its own opponent (Johanson et al.
2011's showdown trick).

The walk does not know which way the order runs: walked from the worst rank, "before" is the
weight h beats; from the best, the weight that beats h. The weights may be floats (a range) or
integers (ones: counts of holdings), and the sums are of the weights' type. Every sum adds
the same numbers in the same order whatever asks for it, so the callers' floats are the ones
they had when each carried its own copy of the walk.

>>> import numpy as np
>>> from simulator.core.board_ranks import HOLD_A, HOLD_B, board_ranks
>>> from simulator.core.cards import parse_cards, parse_holding
>>> ranks = board_ranks(parse_cards("3h4cJh5s9d")).ranks
>>> live = np.flatnonzero(ranks > 0)
>>> order = live[np.argsort(-ranks[live], kind="stable")]  # worst first
>>> ones = np.ones(1326, dtype=np.int64)
>>> before, tied, met = (np.zeros(1326, dtype=np.int64) for _ in range(3))
>>> walk_tie_groups(ranks, order, order.size, ones, HOLD_A, HOLD_B, before, tied)
>>> free_mass(order, order.size, ones, HOLD_A, HOLD_B, met)
>>> h = parse_holding("AdQc")
>>> int(before[h]), int(tied[h]), int(met[h])  # beaten, tied, met: of 990 opponents
(328, 9, 990)
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def walk_tie_groups(ranks: np.ndarray, order: np.ndarray, n: int, w: np.ndarray,
                    hold_a: np.ndarray, hold_b: np.ndarray, before: np.ndarray,
                    tied: np.ndarray) -> None:
    """For each holding h of ``order[:n]`` (sorted by ``ranks``, either way, so that equal
    ranks sit together): ``before[h]``, the weight ``w`` of the holdings in the groups of
    equal rank ahead of h's in the order, and ``tied[h]``, of those in h's own group, each
    without the holdings that share a card with h (h itself among them). Holdings off the
    first ``n`` of ``order`` are not written. The sums are of ``before``'s type."""
    before_card = np.zeros(52, dtype=before.dtype)
    tie_card = np.zeros(52, dtype=before.dtype)
    passed = np.zeros(1, dtype=before.dtype)[0]
    start = 0
    while start < n:
        rank = ranks[order[start]]
        end = start
        tie = np.zeros(1, dtype=before.dtype)[0]
        while end < n and ranks[order[end]] == rank:
            h = order[end]
            tie += w[h]
            tie_card[hold_a[h]] += w[h]
            tie_card[hold_b[h]] += w[h]
            end += 1
        for i in range(start, end):
            h = order[i]
            a = hold_a[h]
            b = hold_b[h]
            before[h] = passed - before_card[a] - before_card[b]
            # h sits in its own group once but comes off with each of its two cards
            tied[h] = tie - tie_card[a] - tie_card[b] + w[h]
        for i in range(start, end):
            h = order[i]
            before_card[hold_a[h]] += w[h]
            before_card[hold_b[h]] += w[h]
            tie_card[hold_a[h]] = 0
            tie_card[hold_b[h]] = 0
        passed += tie
        start = end


@numba.njit(cache=True, nogil=True)
def free_mass(order: np.ndarray, n: int, w: np.ndarray, hold_a: np.ndarray,
              hold_b: np.ndarray, out: np.ndarray) -> None:
    """For each holding h of ``order[:n]``: ``out[h]``, the weight ``w`` of the holdings of
    ``order[:n]`` that share no card with h (h itself, holding both its cards, comes off
    twice and is put back once). The totals add up in ``order``'s order, in ``out``'s
    type."""
    card = np.zeros(52, dtype=out.dtype)
    total = np.zeros(1, dtype=out.dtype)[0]
    for i in range(n):
        h = order[i]
        total += w[h]
        card[hold_a[h]] += w[h]
        card[hold_b[h]] += w[h]
    for i in range(n):
        h = order[i]
        out[h] = total - card[hold_a[h]] - card[hold_b[h]] + w[h]
