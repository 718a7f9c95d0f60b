"""Hand values of all 1326 holdings on a board: EHS' with one card to come, against anyone.

The opponent modeller ranks an opponent's possible holdings by a value that does not depend on
who is looking (issue 10, DESIGN.md section 6): EHS' = HS + (1 - HS) * PPOT against a uniform
range, with PPOT over the next card only (lookahead 1) and Papp's denominators; on the river
there is nothing to come and EHS' = HS. One vector serves every opponent and every agent at
the table, so it is computed once per board and kept per process (:func:`ehs_prime_values`).

Speed: PPOT of every holding at once. For each next card, PPOT's numerator of holding h is

    1/2 * (#{o: now_o <= now_h, final_o > final_h} + #{o: now_o < now_h, final_o >= final_h})

in rank numbers (lower is better), which is ``HP[B][A] + HP[B][T]/2 + HP[T][A]/2`` counted
for that card. Both counts are 2-D dominance counts: walk the holdings from the best current
rank to the worst, keep the final ranks of the holdings already passed in a Fenwick tree, and
take away the opponents that share a card with h with one small tree per card (Johanson et
al. 2011's showdown trick, as ``BoardTable.hs_all`` does for HS). ``HPtotal`` of a holding is
its behind (tied) count times the runouts each pair of holdings leaves, so the denominators
need no runout loop.

Holdings that clash with the board get NaN.

>>> from simulator.core.cards import parse_cards, parse_holding
>>> v = ehs_prime_values(parse_cards("3h4cJh"))
>>> round(float(v[parse_holding("AdQc")]), 6)  # DESIGN.md section 5, lookahead 1
0.630044
>>> ehs_prime_values(parse_cards("Jh3h4c")) is v  # shared: the order of the cards is moot
True
>>> round(float(ehs_prime_values(parse_cards("3h4cJh5s9d"))[parse_holding("AdQc")]), 6)
0.335859
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numba
import numpy as np

from agent.strength.board_table import board_table
from simulator.core.cards import HOLDINGS, NUM_CARDS, NUM_HOLDINGS
from simulator.core.errors import CardError
from simulator.core.hand_ranks import WORST_RANK

_HOLD_A = HOLDINGS[:, 0].astype(np.int64)
_HOLD_B = HOLDINGS[:, 1].astype(np.int64)


# --- kernels --------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _now_counts(now: np.ndarray, order: np.ndarray, hold_a: np.ndarray, hold_b: np.ndarray,
                behind: np.ndarray, tied: np.ndarray, opponents: np.ndarray) -> None:
    """Per holding: the opponents (no shared card) strictly better now, tied now, and all."""
    better_card = np.zeros(52, dtype=np.int64)
    group_card = np.zeros(52, dtype=np.int64)
    all_card = np.zeros(52, dtype=np.int64)
    n = order.shape[0]
    for i in range(n):
        all_card[hold_a[order[i]]] += 1
        all_card[hold_b[order[i]]] += 1
    better = 0
    start = 0
    while start < n:
        rank = now[order[start]]
        end = start
        while end < n and now[order[end]] == rank:
            h = order[end]
            group_card[hold_a[h]] += 1
            group_card[hold_b[h]] += 1
            end += 1
        size = end - start
        for i in range(start, end):
            h = order[i]
            a, b = hold_a[h], hold_b[h]
            behind[h] = better - better_card[a] - better_card[b]
            # h sits in its own group (and in the whole set) once but is taken away twice.
            tied[h] = size - group_card[a] - group_card[b] + 1
            opponents[h] = n - all_card[a] - all_card[b] + 1
        for i in range(start, end):
            h = order[i]
            better_card[hold_a[h]] += 1
            better_card[hold_b[h]] += 1
            group_card[hold_a[h]] = 0
            group_card[hold_b[h]] = 0
        better += size
        start = end


@numba.njit(cache=True, nogil=True)
def _fenwick_add(tree: np.ndarray, i: int) -> None:
    while i < tree.shape[0]:
        tree[i] += 1
        i += i & -i


@numba.njit(cache=True, nogil=True)
def _fenwick_prefix(tree: np.ndarray, i: int) -> int:
    """Count of inserted dense ranks 1..i."""
    s = 0
    while i > 0:
        s += tree[i]
        i -= i & -i
    return s


@numba.njit(cache=True, nogil=True)
def _dense_ranks(row: np.ndarray, order: np.ndarray, dense: np.ndarray) -> int:
    """Map the final ranks present in ``row`` to 1..m in ``dense`` (by rank); return m."""
    dense[:] = 0
    for i in range(order.shape[0]):
        dense[row[order[i]]] = 1
    dense[0] = 0
    m = 0
    for k in range(1, dense.shape[0]):
        if dense[k]:
            m += 1
            dense[k] = m
    return m


@numba.njit(cache=True, nogil=True)
def _ppot_numerators(now: np.ndarray, fin: np.ndarray, order: np.ndarray, hold_a: np.ndarray,
                     hold_b: np.ndarray, worst: int, out: np.ndarray) -> None:
    """``out[h]`` += twice PPOT's numerator of h, summed over the next cards (rows of ``fin``).

    One Fenwick tree counts every holding passed so far by final rank, and one per card the
    passed holdings that hold that card, so the opponents sharing a card with h come off in
    two look-ups (h itself is never counted: it is neither strictly better nor strictly
    worse than itself, and the only holding with both its cards).
    """
    n = order.shape[0]
    dense = np.zeros(worst + 1, dtype=np.int64)
    tree = np.zeros(n + 1, dtype=np.int32)
    card_tree = np.zeros((52, n + 1), dtype=np.int16)  # at most 51 holdings hold a card
    card_count = np.zeros(52, dtype=np.int64)
    for r in range(fin.shape[0]):
        row = fin[r]
        m = _dense_ranks(row, order, dense)
        tree[: m + 1] = 0
        card_tree[:, : m + 1] = 0
        card_count[:] = 0
        inserted = 0
        start = 0
        while start < n:
            rank = now[order[start]]
            end = start
            while end < n and now[order[end]] == rank:
                end += 1
            # Opponents strictly better now with a final rank no better than ours.
            for i in range(start, end):
                h = order[i]
                if row[h] > 0:
                    d = dense[row[h]] - 1
                    a, b = hold_a[h], hold_b[h]
                    out[h] += (inserted - _fenwick_prefix(tree, d)
                               - (card_count[a] - _fenwick_prefix(card_tree[a], d))
                               - (card_count[b] - _fenwick_prefix(card_tree[b], d)))
            for i in range(start, end):
                h = order[i]
                if row[h] > 0:
                    d = dense[row[h]]
                    a, b = hold_a[h], hold_b[h]
                    _fenwick_add(tree, d)
                    _fenwick_add(card_tree[a], d)
                    _fenwick_add(card_tree[b], d)
                    inserted += 1
                    card_count[a] += 1
                    card_count[b] += 1
            # Opponents better or tied now with a final rank strictly worse than ours.
            for i in range(start, end):
                h = order[i]
                if row[h] > 0:
                    d = dense[row[h]]
                    a, b = hold_a[h], hold_b[h]
                    out[h] += (inserted - _fenwick_prefix(tree, d)
                               - (card_count[a] - _fenwick_prefix(card_tree[a], d))
                               - (card_count[b] - _fenwick_prefix(card_tree[b], d)))
            start = end


@numba.njit(cache=True, nogil=True)
def _strengths_of(ranks: np.ndarray, holdings: np.ndarray, hold_a: np.ndarray,
                  hold_b: np.ndarray, out: np.ndarray) -> None:
    """HS against a uniform range of a few holdings, by one scan of the board's ranks each."""
    for k in range(holdings.shape[0]):
        h = holdings[k]
        a, b = hold_a[h], hold_b[h]
        mine = ranks[h]
        ahead, tied, total = 0, 0, 0
        for o in range(ranks.shape[0]):
            r = ranks[o]
            if r == 0 or hold_a[o] == a or hold_a[o] == b or hold_b[o] == a or hold_b[o] == b:
                continue
            total += 1
            if r > mine:
                ahead += 1
            elif r == mine:
                tied += 1
        out[k] = (ahead + tied / 2.0) / total


# --- the vectors ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardValues:
    """EHS' of every holding on one board, with its parts (all (1326,), NaN on clashes).

    ``order`` lists the live holdings from the highest value to the lowest, so a weighted
    quantile of the values is a cumulative sum away (the threshold re-weighting's mu).
    """

    board: tuple[int, ...]
    hs: np.ndarray
    ppot: np.ndarray
    ehs_prime: np.ndarray
    order: np.ndarray


def _read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _compute(board: tuple[int, ...]) -> BoardValues:
    table = board_table(board)
    now = table.ranks
    live = np.flatnonzero(now > 0)
    hs = _read_only(table.hs_all())
    ppot = np.zeros(NUM_HOLDINGS)
    if table.cards_to_come:
        order = live[np.argsort(now[live], kind="stable")]  # best first
        behind = np.zeros(NUM_HOLDINGS, dtype=np.int64)
        tied = np.zeros(NUM_HOLDINGS, dtype=np.int64)
        opponents = np.zeros(NUM_HOLDINGS, dtype=np.int64)
        _now_counts(now, order, _HOLD_A, _HOLD_B, behind, tied, opponents)
        _, fin = table.future(1)
        twice = np.zeros(NUM_HOLDINGS)
        _ppot_numerators(now, fin, order, _HOLD_A, _HOLD_B, WORST_RANK, twice)
        # Each (holding, opponent) pair leaves the same number of next cards.
        per_pair = NUM_CARDS - len(board) - 4
        denominator = per_pair * (behind + tied / 2)
        ppot[live] = np.divide(twice[live] / 2, denominator[live],
                               out=np.zeros(len(live)), where=denominator[live] > 0)
    ppot[now == 0] = np.nan
    ehs_prime = hs + (1 - hs) * ppot
    by_value = live[np.argsort(-ehs_prime[live], kind="stable")]
    return BoardValues(board, hs, _read_only(ppot), _read_only(ehs_prime), _read_only(by_value))


@lru_cache(maxsize=256)  # about 40 KB a board
def _cached(key: tuple[int, ...]) -> BoardValues:
    return _compute(key)


def _key(board: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    key = tuple(sorted(int(c) for c in board))
    if len(key) not in (3, 4, 5) or len(set(key)) != len(key) or not all(
            0 <= c < NUM_CARDS for c in key):
        raise CardError(f"bad board {tuple(board)!r}: expected 3, 4 or 5 distinct cards 0..51 "
                        "(pre-flop values are income rates)")
    return key


def board_values(board: tuple[int, ...] | list[int]) -> BoardValues:
    """The shared values of a board (any card order), computed on first request and kept."""
    return _cached(_key(board))


def hand_strengths_of(board: tuple[int, ...] | list[int], holdings: list[int]) -> np.ndarray:
    """HS against a uniform range of a few holdings (indices) on ``board``, without building
    every holding's values: a showdown's shown hands after an all-in, say.

    >>> from simulator.core.cards import parse_cards, parse_holding
    >>> hand_strengths_of(parse_cards("9c8h2s"), [parse_holding("As8d")]).round(6).tolist()
    [0.838113]
    """
    table = board_table(_key(board))
    picked = np.asarray(holdings, dtype=np.int64)
    if (table.ranks[picked] == 0).any():
        raise CardError(f"a holding of {holdings} clashes with the board {tuple(board)}")
    out = np.empty(len(picked))
    _strengths_of(table.ranks, picked, _HOLD_A, _HOLD_B, out)
    return out


def ehs_prime_values(board: tuple[int, ...] | list[int]) -> np.ndarray:
    """EHS' of all 1326 holdings against a uniform range, one card to come; read-only."""
    return board_values(board).ehs_prime


def clear_board_values() -> None:
    """Forget every kept vector (benchmarks time cold boards with it)."""
    _cached.cache_clear()
