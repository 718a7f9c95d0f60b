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
none (every holding 1: counts of holdings), and the sums are of the weights' type. Every sum adds
the same numbers in the same order whatever asks for it, so the callers' floats are the ones
they had when each carried its own copy of the walk.

>>> import numpy as np
>>> from simulator.core.board_ranks import HOLD_A, HOLD_B, board_ranks
>>> from simulator.core.cards import parse_cards, parse_holding
>>> ranks = board_ranks(parse_cards("3h4cJh5s9d")).ranks
>>> live = np.flatnonzero(ranks > 0)
>>> order = live[np.argsort(-ranks[live], kind="stable")]  # worst first
>>> before, tied, met = (np.zeros(1326, dtype=np.int64) for _ in range(3))
>>> walk_tie_groups(ranks, order, order.size, None, HOLD_A, HOLD_B, before, tied, met)
>>> h = parse_holding("AdQc")
>>> int(before[h]), int(tied[h]), int(met[h])  # beaten, tied, met: of 990 opponents
(328, 9, 990)
"""

from __future__ import annotations

import numba
import numpy as np

# The kernels that call this one (in agent.strength, agent.equilibrium and
# simulator.core.equity) keep its compiled code in their own numba caches, which notice
# edits of their own files only: after an edit here, clear those caches (``__pycache__``).


@numba.njit(cache=True, nogil=True, inline="always")
def _weight(w: np.ndarray | None, h: int) -> float:
    """Holding h's weight; 1 for every holding when ``w`` is None. numba compiles the walk
    apart for None, with the 1 a constant: counts go a quarter faster than with an array of
    ones to read."""
    if w is None:
        return 1
    return w[h]


@numba.njit(cache=True, nogil=True)
def walk_tie_groups(ranks: np.ndarray, order: np.ndarray, n: int, w: np.ndarray | None,
                    hold_a: np.ndarray, hold_b: np.ndarray, before: np.ndarray,
                    tied: np.ndarray, met: np.ndarray) -> None:
    """For each holding h of ``order[:n]`` (sorted by ``ranks``, either way, so that equal
    ranks sit together), add to ``before[h]`` the weight ``w`` (None: 1 each) of the
    holdings of ``order[:n]`` in the groups of equal rank ahead of h's, to ``tied[h]`` that
    of those in h's own group, and to ``met[h]`` that of them all, each without the holdings
    that share a card with h (h itself among them).

    The sums are added, not assigned, so that a walk per runout row adds up in the caller's
    arrays without a pass of its own; holdings off ``order[:n]`` are not touched. They are
    of ``before``'s type; the totals add up in ``order``'s order.
    """
    before_card = np.zeros(52, dtype=before.dtype)
    tie_card = np.zeros(52, dtype=before.dtype)
    all_card = np.zeros(52, dtype=before.dtype)
    zero = np.zeros(1, dtype=before.dtype)[0]  # of the sums' type, made once
    total = zero
    for i in range(n):
        h = order[i]
        x = _weight(w, h)
        total += x
        all_card[hold_a[h]] += x
        all_card[hold_b[h]] += x
    passed = zero
    start = 0
    while start < n:
        rank = ranks[order[start]]
        end = start
        tie = zero
        while end < n and ranks[order[end]] == rank:
            h = order[end]
            x = _weight(w, h)
            tie += x
            tie_card[hold_a[h]] += x
            tie_card[hold_b[h]] += x
            end += 1
        for i in range(start, end):
            h = order[i]
            a = hold_a[h]
            b = hold_b[h]
            x = _weight(w, h)
            before[h] += passed - before_card[a] - before_card[b]
            # h sits in its own group (and holds its two cards) once, but comes off twice
            tied[h] += tie - tie_card[a] - tie_card[b] + x
            met[h] += total - all_card[a] - all_card[b] + x
        for i in range(start, end):
            h = order[i]
            x = _weight(w, h)
            before_card[hold_a[h]] += x
            before_card[hold_b[h]] += x
            tie_card[hold_a[h]] = 0
            tie_card[hold_b[h]] = 0
        passed += tie
        start = end
