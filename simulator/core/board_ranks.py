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


_FEW_ROWS = 4  # up to this many rows, each is ranked alone: the shared set-up costs more


@numba.njit(cache=True, nogil=True)
def rank_rows(board: np.ndarray, runouts: np.ndarray, hold_a: np.ndarray,
              hold_b: np.ndarray, out: np.ndarray,
              index: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> None:
    """``out[r, h]``: rank of holding h on ``board + runouts[r]``; 0 where h shares a card.

    ``runouts`` has shape (n, m) with m = 0, 1 or 2 extra cards per row, and a board with its
    runout holds at most five cards; ``hold_a`` is each holding's low card, as ``HOLD_A``.
    ``index`` is :func:`holding_index` of the holdings, for a caller that asks often (it is
    built here otherwise, where rows share their work).

    Without a flush only the ranks of the cards matter, so rows whose extra cards have the
    same ranks (13 or 91 distinct rank sets instead of 49 or 1176 rows) share one row of
    ranks, built once per call from the 91 pairs of hole-card ranks with the board's
    holdings zeroed: each row starts as a copy of it, the holdings that hold one of its
    runout cards are zeroed, and only the holdings that make a flush (five of a suit: the
    board holds three or more of it) are ranked on their own. The sums are
    ``rank_summary``'s, so the ranks are the evaluator's exactly.
    """
    k = board.shape[0]
    m = runouts.shape[1]
    if k + m > 5:
        raise ValueError("rank_rows: more than five board cards")
    cards = np.empty(k + m, dtype=np.int64)
    cards[:k] = board
    if runouts.shape[0] <= _FEW_ROWS or m > 2:  # (more cards: too many rank sequences)
        for r in range(runouts.shape[0]):
            for j in range(m):
                cards[k + j] = runouts[r, j]
            _one_row(cards, hold_a, hold_b, out[r])
        return
    keys = 13 ** m  # one shared row per sequence of runout ranks
    n_hold = hold_a.shape[0]
    shared = np.empty((keys, n_hold), dtype=np.int16)
    built = np.zeros(keys, dtype=np.bool_)
    if index is None:
        start, members, which = holding_index(hold_a, hold_b)
    else:
        start, members, which = index
    for r in range(runouts.shape[0]):
        for j in range(m):
            cards[k + j] = runouts[r, j]
        dead, cnt, sc, sm = _sums(cards)
        key = 0
        for j in range(m):
            key = key * 13 + (runouts[r, j] >> 2)
        template = shared[key]
        if not built[key]:
            pair = _pair_ranks(cnt, k + m + 2)
            for h in range(n_hold):
                template[h] = pair[hold_a[h] >> 2, hold_b[h] >> 2]
            _zero_holders(template, cards[:k], start, members)  # the board's, in every row
            built[key] = True
        row = out[r]
        for h in range(n_hold):  # a loop: numba's slice copy measured slower
            row[h] = template[h]
        _zero_holders(row, cards[k:], start, members)
        if (sc + 0x5555) & 0x8888:  # three of a suit: two hole cards can make five
            _flush_ranks(row, dead, cnt, sc, sm, k + m + 2, hold_a, hold_b, which, start,
                         members)


@numba.njit(cache=True, nogil=True)
def _sums(cards: np.ndarray) -> tuple[np.int64, np.int64, np.int64, np.int64]:
    """The dealt cards' bits, rank counts (3 bits a rank), suit counts (4 bits a suit) and
    suit masks (16 bits a suit), as ``rank_summary`` takes them."""
    dead, cnt, sc, sm = np.int64(0), np.int64(0), np.int64(0), np.int64(0)
    for c in cards:
        dead |= np.int64(1) << c
        cnt += np.int64(1) << (3 * (c >> 2))
        sc += np.int64(1) << (4 * (c & 3))
        sm |= np.int64(1) << (16 * (c & 3) + (c >> 2))
    return dead, cnt, sc, sm


@numba.njit(cache=True, nogil=True)
def _one_row(cards: np.ndarray, hold_a: np.ndarray, hold_b: np.ndarray,
             row: np.ndarray) -> None:
    """One row of :func:`rank_rows`, each holding asked on its own whether it is dead or
    makes a flush."""
    dead, cnt, sc, sm = _sums(cards)
    pair = _pair_ranks(cnt, cards.shape[0] + 2)
    flushes = (sc + 0x5555) & 0x8888
    for h in range(hold_a.shape[0]):
        a, b = hold_a[h], hold_b[h]
        row[h] = 0 if ((dead >> a) | (dead >> b)) & 1 else pair[a >> 2, b >> 2]
        if flushes:
            _flush_if_made(row, h, dead, cnt, sc, sm, cards.shape[0] + 2, hold_a, hold_b)


@numba.njit(cache=True, nogil=True)
def _zero_holders(row: np.ndarray, cards: np.ndarray, start: np.ndarray,
                  members: np.ndarray) -> None:
    """Rank 0 for every holding that holds one of ``cards`` (see :func:`_holders`)."""
    for c in cards:
        for i in range(start[c], start[c + 1]):
            row[members[i]] = 0


@numba.njit(cache=True, nogil=True)
def holding_index(hold_a: np.ndarray, hold_b: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where :func:`rank_rows` finds holdings by their cards: ``(start, members, which)``,
    :func:`_holders`'s two, and ``which[a, b]``, the holding of cards a and b in either
    order (-1 for none)."""
    start, members = _holders(hold_a, hold_b)
    which = np.full((52, 52), -1, dtype=np.int64)
    for h in range(hold_a.shape[0]):
        which[hold_a[h], hold_b[h]] = h
        which[hold_b[h], hold_a[h]] = h
    return start, members, which


@numba.njit(cache=True, nogil=True)
def _holders(hold_a: np.ndarray, hold_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The holdings that hold each card c: ``members[start[c]:start[c + 1]]``."""
    start = np.zeros(53, dtype=np.int64)
    for h in range(hold_a.shape[0]):
        start[hold_a[h] + 1] += 1
        start[hold_b[h] + 1] += 1
    for c in range(52):
        start[c + 1] += start[c]
    fill = start[:52].copy()
    members = np.empty(start[52], dtype=np.int64)
    for h in range(hold_a.shape[0]):
        for c in (hold_a[h], hold_b[h]):
            members[fill[c]] = h
            fill[c] += 1
    return start, members


@numba.njit(cache=True, nogil=True)
def _pair_ranks(cnt: np.int64, total: int) -> np.ndarray:
    """``pair[lo, hi]``: the rank, as if it made no flush, of a holding of card ranks lo <= hi
    on a board of rank counts ``cnt``; a pair that needs a fifth card of a rank is left 0
    (only holdings that share a dealt card have it)."""
    pair = np.zeros((13, 13), dtype=np.int64)
    for lo in range(13):
        for hi in range(lo, 13):
            both = (np.int64(1) << (3 * lo)) + (np.int64(1) << (3 * hi))
            if ((cnt >> (3 * lo)) & 7) + (2 if lo == hi else 1) <= 4 and (
                    (cnt >> (3 * hi)) & 7) < 4:
                pair[lo, hi] = rank_summary(cnt + both, np.int64(0), np.int64(0), total)
    return pair


@numba.njit(cache=True, nogil=True)
def _flush_ranks(row: np.ndarray, dead: np.int64, cnt: np.int64, sc: np.int64, sm: np.int64,
                 total: int, hold_a: np.ndarray, hold_b: np.ndarray, which: np.ndarray,
                 start: np.ndarray, members: np.ndarray) -> None:
    """Rank on its own every live holding of ``row`` that makes a flush with the dealt
    cards (sums ``cnt``, ``sc``, ``sm``; at most five, so one suit holds three or more):
    with three of the suit dealt, the holdings of two more of it; with four, the holdings of
    one more (each asked whether it makes five); with five, every holding."""
    suit = 0
    while (sc >> (4 * suit)) & 15 < 3:
        suit += 1
    dealt = (sc >> (4 * suit)) & 15
    for r1 in range(13):
        a = np.int64(4 * r1 + suit)
        if dealt >= 5 or (dead >> a) & 1:
            continue
        if dealt == 3:
            for r2 in range(r1 + 1, 13):
                b = np.int64(4 * r2 + suit)
                h = which[a, b]
                if h >= 0 and not (dead >> b) & 1:
                    row[h] = _with_two(cnt, sc, sm, a, b, total)
            continue
        for i in range(start[a], start[a + 1]):
            _flush_if_made(row, members[i], dead, cnt, sc, sm, total, hold_a, hold_b)
    if dealt >= 5:
        for h in range(hold_a.shape[0]):
            _flush_if_made(row, h, dead, cnt, sc, sm, total, hold_a, hold_b)


# inlined: called once per holding, where a call measured costlier than the work
@numba.njit(cache=True, nogil=True, inline="always")
def _flush_if_made(row: np.ndarray, h: int, dead: np.int64, cnt: np.int64, sc: np.int64,
                   sm: np.int64, total: int, hold_a: np.ndarray, hold_b: np.ndarray) -> None:
    """``row[h]`` ranked with its own suits when holding h is live and makes five of a
    suit."""
    a, b = np.int64(hold_a[h]), np.int64(hold_b[h])
    if (dead >> a) & 1 or (dead >> b) & 1:
        return
    h_sc = sc + (np.int64(1) << (4 * (a & 3))) + (np.int64(1) << (4 * (b & 3)))
    if (h_sc + 0x3333) & 0x8888:  # five of a suit
        row[h] = _with_two(cnt, sc, sm, a, b, total)


@numba.njit(cache=True, nogil=True, inline="always")
def _with_two(cnt: np.int64, sc: np.int64, sm: np.int64, a: np.int64, b: np.int64,
              total: int) -> int:
    """``rank_summary`` of the dealt cards' sums with the cards a and b added."""
    return rank_summary(
        cnt + (np.int64(1) << (3 * (a >> 2))) + (np.int64(1) << (3 * (b >> 2))),
        sc + (np.int64(1) << (4 * (a & 3))) + (np.int64(1) << (4 * (b & 3))),
        sm | (np.int64(1) << (16 * (a & 3) + (a >> 2)))
        | (np.int64(1) << (16 * (b & 3) + (b >> 2))), total)


@lru_cache(maxsize=1)
def _every_holding_index() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`holding_index` of all 1326 holdings, built once: a turn's ranks cost about six
    times what building it does."""
    return holding_index(HOLD_A, HOLD_B)


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
        if (len(cards) not in (3, 4, 5) or len(set(cards)) != len(cards)
                or not all(0 <= c < NUM_CARDS for c in cards)):
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
        rank_rows(self._board_arr, rows, HOLD_A, HOLD_B, out, _every_holding_index())
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
