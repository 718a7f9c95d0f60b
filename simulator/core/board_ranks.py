"""Ranks of every holding on a board, and on every board that can follow it.

Every player at a table sees the same board, so the rank of each of the 1326 holdings on it,
and on each board one or two cards further on, is computed once and shared by every question
asked about that board: equities, hand strength and potential, best responses.

A rank of 0 marks a holding that shares a card with the board (or with that row's runout);
real ranks run 1 (royal flush) .. 7462, lower is better, as :mod:`simulator.core.hand_ranks`.

>>> from simulator.core.cards import parse_cards, parse_holding
>>> b = board_ranks(parse_cards("3h4cJh"))
>>> int((b.ranks == 0).sum())  # holdings holding a board card
150
>>> runouts, ranks = b.future(2)
>>> runouts.shape, ranks.shape  # every (turn, river) pair of the 49 unseen cards
((1176, 2), (1176, 1326))
>>> board_ranks([38, 8, 6]) is board_ranks([6, 8, 38])  # kept per board, in any order
True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

import numba
import numpy as np

from simulator.core.cards import HOLDINGS, NUM_CARDS, NUM_HOLDINGS, format_cards
from simulator.core.errors import CardError
from simulator.core.hand_ranks import rank_summary

HOLD_A = HOLDINGS[:, 0].astype(np.int64)
"""The low card of every holding, as int64 so kernels index with it without conversions."""
HOLD_B = HOLDINGS[:, 1].astype(np.int64)
"""The high card of every holding."""


@numba.njit(cache=True, nogil=True)
def rank_rows(board: np.ndarray, runouts: np.ndarray, hold_a: np.ndarray,
              hold_b: np.ndarray, out: np.ndarray) -> None:
    """``out[r, h]``: rank of holding h on ``board + runouts[r]``; 0 where h shares a card.

    ``runouts`` has shape (n, m) with m = 0, 1 or 2 extra cards per row.

    Without a flush only the ranks of the cards matter, so each row ranks the 91 pairs of
    hole-card ranks once and the holdings look theirs up; only a holding that makes a flush
    (five of a suit: the board holds three or more of it) is ranked on its own. The sums are
    ``rank_summary``'s, so the ranks are the evaluator's exactly. Rows whose extra cards have
    the same ranks share that table (13 or 91 distinct rank sets instead of 49 or 1176 rows),
    so each is built once per call.
    """
    k = board.shape[0]
    m = runouts.shape[1]
    total = k + m + 2
    keys = 13 ** m if m <= 2 else 0  # one table per sequence of runout ranks
    tables = np.empty((max(keys, 1), 13, 13), dtype=np.int64)  # unset entries: dead ranks
    built = np.zeros(max(keys, 1), dtype=np.bool_)
    n_hold = hold_a.shape[0]
    masks = np.empty(n_hold, dtype=np.int64)
    ranks_a = np.empty(n_hold, dtype=np.int64)
    ranks_b = np.empty(n_hold, dtype=np.int64)
    for h in range(n_hold):
        masks[h] = (np.int64(1) << np.int64(hold_a[h])) | (np.int64(1) << np.int64(hold_b[h]))
        ranks_a[h] = hold_a[h] >> 2
        ranks_b[h] = hold_b[h] >> 2
    board_mask = np.int64(0)
    b_cnt, b_sc, b_sm = np.int64(0), np.int64(0), np.int64(0)
    for j in range(k):
        c = np.int64(board[j])
        board_mask |= np.int64(1) << c
        b_cnt += np.int64(1) << (3 * (c >> 2))
        b_sc += np.int64(1) << (4 * (c & 3))
        b_sm |= np.int64(1) << (16 * (c & 3) + (c >> 2))
    for r in range(runouts.shape[0]):
        dead, cnt, sc, sm = board_mask, b_cnt, b_sc, b_sm
        for j in range(m):
            c = np.int64(runouts[r, j])
            dead |= np.int64(1) << c
            cnt += np.int64(1) << (3 * (c >> 2))
            sc += np.int64(1) << (4 * (c & 3))
            sm |= np.int64(1) << (16 * (c & 3) + (c >> 2))
        key = 0
        for j in range(m):
            key = key * 13 + (runouts[r, j] >> 2)
        if keys and built[key]:
            pair = tables[key]
        else:
            pair = tables[key] if keys else tables[0]
            for lo in range(13):
                for hi in range(lo, 13):
                    both = (np.int64(1) << (3 * lo)) + (np.int64(1) << (3 * hi))
                    # a rank already four times on the board: every such holding is dead
                    if ((cnt >> (3 * lo)) & 7) + (2 if lo == hi else 1) <= 4 and (
                            (cnt >> (3 * hi)) & 7) < 4:
                        pair[lo, hi] = rank_summary(cnt + both, np.int64(0), np.int64(0),
                                                    total)
            if keys:
                built[key] = True
        flushes = (sc + 0x5555) & 0x8888  # three of a suit: two hole cards can make five
        for h in range(n_hold):
            if dead & masks[h]:
                out[r, h] = 0
                continue
            if not flushes:
                out[r, h] = pair[ranks_a[h], ranks_b[h]]
                continue
            a = np.int64(hold_a[h])
            b = np.int64(hold_b[h])
            h_sc = sc + (np.int64(1) << (4 * (a & 3))) + (np.int64(1) << (4 * (b & 3)))
            if (h_sc + 0x3333) & 0x8888:  # five of a suit
                h_cnt = cnt + (np.int64(1) << (3 * (a >> 2))) + (np.int64(1) << (3 * (b >> 2)))
                h_sm = (sm | (np.int64(1) << (16 * (a & 3) + (a >> 2)))
                        | (np.int64(1) << (16 * (b & 3) + (b >> 2))))
                out[r, h] = rank_summary(h_cnt, h_sc, h_sm, total)
            else:
                out[r, h] = pair[a >> 2, b >> 2]


_PAIRS = np.stack([HOLD_A, HOLD_B], axis=1)  # every two cards, in combinations' order


def runouts(board: tuple[int, ...], n_cards: int) -> np.ndarray:
    """Every set of ``n_cards`` unseen cards, in increasing order: shape (n, n_cards)."""
    if n_cards == 2:  # the holdings' list is already every pair in that order
        dead = np.zeros(NUM_CARDS, dtype=np.bool_)
        dead[list(board)] = True
        return _PAIRS[~(dead[HOLD_A] | dead[HOLD_B])]
    live = [c for c in range(NUM_CARDS) if c not in board]
    return np.array(list(itertools.combinations(live, n_cards)), dtype=np.int64).reshape(
        -1, n_cards)


class BoardRanks:
    """Ranks of all 1326 holdings on one board (0, 3, 4 or 5 cards are accepted for the
    current ranks only when the board is full enough to rank: 3 or more) and on the boards
    to come, built on first use and kept."""

    def __init__(self, board: Sequence[int]) -> None:
        cards = tuple(int(c) for c in board)
        if len(cards) not in (3, 4, 5) or len(set(cards)) != len(cards) \
                or not all(0 <= c < NUM_CARDS for c in cards):
            raise CardError(f"bad board {cards!r}: expected 3, 4 or 5 distinct cards 0..51")
        self.board: tuple[int, ...] = cards
        self._board_arr = np.array(cards, dtype=np.int64)
        self.ranks: np.ndarray = self._build(np.zeros((1, 0), dtype=np.int64))[0]
        self._future: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._orders: dict[int, np.ndarray] = {}

    def __repr__(self) -> str:
        return f"BoardRanks({format_cards(self.board)!r})"

    @property
    def cards_to_come(self) -> int:
        return 5 - len(self.board)

    def _build(self, rows: np.ndarray) -> np.ndarray:
        out = np.empty((rows.shape[0], NUM_HOLDINGS), dtype=np.int16)
        rank_rows(self._board_arr, rows, HOLD_A, HOLD_B, out)
        return out

    def future(self, lookahead: int) -> tuple[np.ndarray, np.ndarray]:
        """``(runouts, ranks)`` for ``lookahead`` more cards: shapes (n, lookahead), (n, 1326).

        ``lookahead`` 0 is the board itself: one empty runout.
        """
        if not 0 <= lookahead <= self.cards_to_come:
            raise CardError(f"bad lookahead {lookahead}: {self.cards_to_come} card(s) to come "
                            f"on a {len(self.board)}-card board")
        if lookahead == 0:
            return np.zeros((1, 0), dtype=np.int64), self.ranks[None, :]
        if lookahead not in self._future:
            rows = runouts(self.board, lookahead)
            self._future[lookahead] = (rows, self._build(rows))
        return self._future[lookahead]

    def river(self) -> tuple[np.ndarray, np.ndarray]:
        """The runouts to the river and the ranks on each: ``future(cards_to_come)``."""
        return self.future(self.cards_to_come)

    def orders(self, lookahead: int) -> np.ndarray:
        """Per runout of ``future(lookahead)``, the live holdings from the worst rank to the
        best (the order a showdown sweep walks), padded with -1: shape (n, 1326)."""
        if lookahead not in self._orders:
            ranks = self.future(lookahead)[1]
            # best first is the ascending order of this 16-bit key, which numpy's stable
            # sort orders by radix (several times faster than sorting 64-bit keys)
            key = (np.int16(np.iinfo(np.int16).max) - ranks).astype(np.uint16)
            order = np.argsort(key, axis=1, kind="stable")
            order[np.take_along_axis(ranks, order, axis=1) == 0] = -1
            self._orders[lookahead] = order
        return self._orders[lookahead]

    def river_orders(self) -> np.ndarray:
        """:meth:`orders` of the runouts to the river."""
        return self.orders(self.cards_to_come)


@lru_cache(maxsize=8)  # a flop with its river boards is about 3 MB
def _cached(key: tuple[int, ...]) -> BoardRanks:
    return BoardRanks(key)


def board_ranks(board: Sequence[int]) -> BoardRanks:
    """The shared ranks of a board, kept for the recent boards; the order of the cards does
    not matter."""
    return _cached(sorted_board(board if type(board) is tuple else tuple(board)))


@lru_cache(maxsize=4096)  # asked several times a decision, with the same tuple
def sorted_board(board: tuple[int, ...]) -> tuple[int, ...]:
    """The cards of a board in increasing order, as plain ints: the key boards are kept by."""
    return tuple(sorted(int(c) for c in board))


def clear_board_ranks() -> None:
    """Forget every kept board, so that the next request builds from scratch."""
    _cached.cache_clear()
